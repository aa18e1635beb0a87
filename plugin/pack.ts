/**
 * `npm run plugin:pack`: the plugin as `pulumi plugin install resource wos <version> --file <tarball>` takes
 * it, in `dist/plugin-pack/pulumi-resource-wos-v<version>-linux-amd64.tar.gz`. The tarball holds, at its
 * root, the executable `pulumi-resource-wos` (a small `sh` launcher: `exec node <bundle> "$@"`, needing
 * Node.js 22 or later on `PATH`) and the bundle `pulumi-resource-wos.js`: the built plugin
 * (`dist/plugin/main.js`, so `npm run build` first, as the script does) and everything it loads, the
 * Pulumi runtime included (for `Construct`; see {@link LEFT_OUT}), in one file made by esbuild. It needs no
 * `node_modules` and no `PulumiPlugin.yaml` (a plugin directory with one would be run through a language host
 * instead).
 *
 * Usage: `node dist/plugin/pack.js [output-directory]`; prints the tarball's path.
 *
 * @module
 */
import { execFileSync } from "node:child_process";
import * as fs from "node:fs";
import * as path from "node:path";
import { build, type Plugin } from "esbuild";
import { pluginVersion } from "./pluginVersion";

/** The repository's root: `dist/plugin/` is two folders down. */
const ROOT = path.resolve(__dirname, "..", "..");

/** The executable the engine runs, by the name Pulumi looks for. */
export const PLUGIN_EXECUTABLE = "pulumi-resource-wos";

/** The bundle beside it. */
export const PLUGIN_BUNDLE = "pulumi-resource-wos.js";

/** The tarball's name for a version: what `pulumi plugin install` and a download URL expect. */
export function tarballName(version: string): string {
    return `pulumi-resource-wos-v${version}-linux-amd64.tar.gz`;
}

const LAUNCHER = `#!/bin/sh
# pulumi-resource-wos: the native Pulumi plugin of the Workspace Organization Service, run by Node.js
# (22 or later, from PATH). The engine starts it as: pulumi-resource-wos <engine-address>
exec node "$(dirname "$0")/${PLUGIN_BUNDLE}" "$@"
`;

/**
 * What the bundle leaves out of `@pulumi/pulumi`, whose runtime it holds (the plugin's `Construct` registers a
 * component's children with the engine through it): the packages that only the serialization of a dynamic
 * provider's code (closures, a program's `node_modules`) loads, which a native plugin never does. TypeScript
 * alone is 9 MB and `@npmcli/arborist` pulls in an npm client. Each is replaced by a module that fails, naming
 * itself, if anything ever uses it.
 */
export const LEFT_OUT = ["typescript", "@npmcli/arborist"] as const;

const withoutClosureSerialization: Plugin = {
    name: "without-closure-serialization",
    setup(builder) {
        const filter = new RegExp(`^(${LEFT_OUT.map((name) => name.replace(/[/.]/g, "\\$&")).join("|")})$`);
        builder.onResolve({ filter }, (args) => ({ path: args.path, namespace: "left-out" }));
        builder.onLoad({ filter: /.*/, namespace: "left-out" }, (args) => ({
            loader: "js",
            contents: `const message = ${JSON.stringify(`pulumi-resource-wos: ${args.path} is left out of the plugin's bundle (only the serialization of dynamic providers needs it)`)};
module.exports = new Proxy({}, {
    get(_, key) {
        if (key === "__esModule" || typeof key === "symbol") return undefined;
        throw new Error(message);
    },
});
`,
        }));
    },
};

/** Builds the tarball into `outputDir`; answers its path. */
export async function packPlugin(outputDir = path.join(ROOT, "dist", "plugin-pack")): Promise<string> {
    const version = pluginVersion();
    const stage = path.join(outputDir, `stage-v${version}`);
    fs.rmSync(stage, { recursive: true, force: true });
    fs.mkdirSync(stage, { recursive: true });
    await build({
        entryPoints: [path.join(ROOT, "dist", "plugin", "main.js")],
        outfile: path.join(stage, PLUGIN_BUNDLE),
        bundle: true,
        platform: "node",
        target: "node22",
        format: "cjs",
        define: { WOS_PLUGIN_VERSION: JSON.stringify(version) },
        plugins: [withoutClosureSerialization],
        legalComments: "eof",
        logLevel: "warning",
    });
    fs.writeFileSync(path.join(stage, PLUGIN_EXECUTABLE), LAUNCHER, { mode: 0o755 });
    fs.chmodSync(path.join(stage, PLUGIN_EXECUTABLE), 0o755);
    fs.copyFileSync(path.join(ROOT, "LICENSE"), path.join(stage, "LICENSE"));
    const tarball = path.join(outputDir, tarballName(version));
    fs.rmSync(tarball, { force: true });
    execFileSync("tar", ["-czf", tarball, "-C", stage, PLUGIN_EXECUTABLE, PLUGIN_BUNDLE, "LICENSE"]);
    fs.rmSync(stage, { recursive: true, force: true });
    return tarball;
}

if (require.main === module) {
    packPlugin(process.argv[2] ? path.resolve(process.argv[2]) : undefined).then(
        (tarball) => process.stdout.write(`${tarball}\n`),
        (failure: unknown) => {
            process.stderr.write(`plugin:pack: ${failure instanceof Error ? failure.message : String(failure)}\n`);
            process.exit(1);
        },
    );
}
