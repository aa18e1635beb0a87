/**
 * `pulumi-resource-wos <engine-address>`: the native Pulumi resource provider plugin of `wos`, which the
 * engine starts once per provider (the default one of a stack, and each explicit `pulumi:providers:wos`).
 * It serves Pulumi's `ResourceProvider` gRPC service on 127.0.0.1 at a free port and prints the port as the
 * first line of its standard output, where the engine reads it. The upgrades' progress is written to the
 * engine at `<engine-address>`.
 *
 * @module
 */
import * as grpc from "@grpc/grpc-js";
import { ResourceProviderService } from "@pulumi/pulumi/proto/provider_grpc_pb";
import { EngineLog } from "./engineLog";
import { WosProviderService } from "./providerService";

/** Pulumi's messages can be large (a schema, a big state): the limits the Pulumi SDK sets for its own servers. */
const MESSAGE_LIMIT = 400 * 1024 * 1024;

/** Starts the service for the engine at `engineAddress`; answers the port it listens on and a way to stop it. */
export async function serve(engineAddress: string | undefined): Promise<{ port: number; stop(): Promise<void> }> {
    const engineLog = new EngineLog(engineAddress);
    const service = new WosProviderService(engineLog);
    const server = new grpc.Server({ "grpc.max_receive_message_length": MESSAGE_LIMIT, "grpc.max_send_message_length": MESSAGE_LIMIT });
    server.addService(ResourceProviderService, service.implementation() as grpc.UntypedServiceImplementation);
    const port = await new Promise<number>((resolve, reject) =>
        server.bindAsync("127.0.0.1:0", grpc.ServerCredentials.createInsecure(), (error, bound) => (error ? reject(error) : resolve(bound))),
    );
    return {
        port,
        stop: () =>
            new Promise<void>((resolve) => {
                engineLog.close();
                server.tryShutdown(() => resolve());
            }),
    };
}

async function main(args: string[]): Promise<void> {
    if (args.length === 0) {
        process.stderr.write("pulumi-resource-wos: missing the engine's address (the engine starts this plugin: pulumi-resource-wos <engine-address>)\n");
        process.exit(1);
    }
    const { port } = await serve(args[0]);
    // A string, so that Node writes no colours: the engine reads a bare number.
    process.stdout.write(`${port}\n`);
}

if (require.main === module) {
    main(process.argv.slice(2)).catch((failure: unknown) => {
        process.stderr.write(`pulumi-resource-wos: ${failure instanceof Error ? failure.message : String(failure)}\n`);
        process.exit(1);
    });
}
