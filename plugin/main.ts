/**
 * `pulumi-resource-wos <engine-address>`: the native Pulumi resource provider plugin of `wos`, which the
 * engine starts once per provider (the default one of a stack, and each explicit `pulumi:providers:wos`).
 * It serves Pulumi's `ResourceProvider` gRPC service on 127.0.0.1 at a free port and prints the port as the
 * first line of its standard output, where the engine reads it. The upgrades' progress is written to the
 * engine at `<engine-address>`. The entry of the plugin's bundle (`npm run plugin:pack`): it runs when
 * loaded.
 *
 * @module
 */
// First: on a Node.js older than 22 (a launcher's, from PATH), one line and exit 1 before the runtime loads.
import "./refuseUnsupportedNode";
import { serve } from "./serve";

async function main(args: string[]): Promise<void> {
    if (args.length === 0) {
        process.stderr.write("pulumi-resource-wos: missing the engine's address (the engine starts this plugin: pulumi-resource-wos <engine-address>)\n");
        process.exit(1);
    }
    const { port } = await serve(args[0]);
    // The engine reads a bare number: a string, so that nothing colours it.
    process.stdout.write(`${port}\n`);
}

main(process.argv.slice(2)).catch((failure: unknown) => {
    process.stderr.write(`pulumi-resource-wos: ${failure instanceof Error ? failure.message : String(failure)}\n`);
    process.exit(1);
});
