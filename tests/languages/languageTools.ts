/**
 * What the tests of the other languages share: the cached Python environment and tools that
 * `tests/cli/setup.sh` builds (part of `npm test`), the SDK generator (`tools/sdkgen/run.sh`), and commands run
 * to their end with everything they printed.
 */
import { execFile } from "node:child_process";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { builtDist, childEnv, contentHash, pruneStaleEntries, REPO_ROOT, withLock } from "../support/packedPackage";
import { pulumiVersion, type PulumiProgram } from "../support/pulumiCli";
import { hostPlatform, platformName } from "../../plugin/pack";

/** The committed SDKs, generated from the plugin's schema by `npm run sdks`. */
export const SDKS_DIR = path.join(REPO_ROOT, "sdks");

/** The parts of the plugin's package schema (`wosPackageSchema` of plugin/schema.ts) that these tests read. */
export interface PackageSchema {
    name: string;
    version: string;
    /** Where the CLI downloads the plugin: the project's release (`github://api.github.com/<owner>/<repository>`). */
    pluginDownloadURL: string;
    description: string;
    resources: Record<string, { description?: string; inputProperties?: Record<string, { description?: string }> }>;
    functions: Record<string, { description?: string }>;
}

/** How a command ended. */
export interface CommandResult {
    stdout: string;
    stderr: string;
}

/** Runs `command args` in `cwd` to its end; rejects unless it exits 0, with everything it printed. */
export function runCommand(
    command: string,
    args: string[],
    options: { cwd: string; env?: Record<string, string | undefined>; timeoutMs?: number },
): Promise<CommandResult> {
    return new Promise((resolve, reject) => {
        execFile(
            command,
            args,
            { cwd: options.cwd, env: childEnv(options.env), timeout: options.timeoutMs ?? 0, maxBuffer: 64 * 1024 * 1024 },
            (error, stdout, stderr) => {
                if (error) reject(new Error(`${command} ${args.join(" ")} failed (${error.message}):\n${stdout}${stderr}`));
                else resolve({ stdout, stderr });
            },
        );
    });
}

/**
 * The plugin's schema, as `GetSchema` serves it: from the build (dist/, made by `npm test` first, or by
 * `builtDist()`), like `npm run sdks` and the plugin itself (its version is read from the package.json above).
 */
export function packageSchema(): PackageSchema {
    const module = path.join(REPO_ROOT, "dist", "plugin", "schema.js");
    if (!fs.existsSync(module)) throw new Error(`no ${module}: run \`npm run build\` (npm test does)`);
    return (require(module) as { wosPackageSchema: PackageSchema }).wosPackageSchema;
}

/** The plugin's schema in a file of `dir`. */
export function writeSchema(dir: string): string {
    const file = path.join(dir, "schema.json");
    fs.writeFileSync(file, JSON.stringify(packageSchema(), null, 2));
    return file;
}

/** Generates the SDKs of `schemaFile` into `out` (`out/python`, `out/go`) with `tools/sdkgen/run.sh`. */
export async function generateSdks(schemaFile: string, out: string): Promise<void> {
    await runCommand("bash", [path.join(REPO_ROOT, "tools/sdkgen/run.sh"), "--schema", schemaFile, out], {
        cwd: REPO_ROOT,
        timeoutMs: 15 * 60_000,
    });
}

/** The virtual environment with `pulumi` at the CLI's version that `tests/cli/setup.sh` installs. */
export function cachedPythonEnvironment(): string {
    const dir = path.join(REPO_ROOT, ".pulumi-cli", `v${pulumiVersion()}`, "python");
    if (!fs.existsSync(path.join(dir, ".requirements"))) {
        throw new Error(`no Python environment in ${dir}: run \`bash tests/cli/setup.sh\` (npm test does)`);
    }
    return dir;
}

/** The site-packages directory of the virtual environment `dir`. */
async function sitePackages(dir: string): Promise<string> {
    const { stdout } = await runCommand(path.join(dir, "bin", "python"), ["-c", 'import sysconfig; print(sysconfig.get_paths()["purelib"])'], {
        cwd: dir,
    });
    return stdout.trim();
}

/**
 * A fresh virtual environment in `dir` that sees the cached one's packages (a `.pth` file: `pulumi`, pip,
 * setuptools) and holds the SDK of `sdks/python` (or `sdkDir`), installed by pip as a user would, from a copy
 * (pip builds in the source directory) and without a registry: `--no-index` also proves that the cached
 * environment satisfies everything the SDK requires. Returns the environment's directory.
 */
export async function pythonEnvironmentWithSdk(dir: string, sdkDir = path.join(SDKS_DIR, "python")): Promise<string> {
    const copy = fs.mkdtempSync(path.join(os.tmpdir(), "wos-python-sdk-"));
    try {
        fs.cpSync(sdkDir, copy, { recursive: true });
        return await pythonEnvironmentInstalling(dir, ["install", "--no-index", "--no-build-isolation", copy]);
    } finally {
        fs.rmSync(copy, { recursive: true, force: true });
    }
}

/**
 * A fresh virtual environment in `dir` that sees the cached one's packages (a `.pth` file: `pulumi`, pip,
 * setuptools, what the SDK requires), in which `pip <pipArgs>` has run (with `env`, e.g. `PIP_FIND_LINKS`): a
 * wheel, an sdist or a package name, installed as a user would. Returns the environment's directory.
 */
export async function pythonEnvironmentInstalling(dir: string, pipArgs: string[], env: Record<string, string> = {}): Promise<string> {
    await runCommand("python3", ["-m", "venv", "--without-pip", dir], { cwd: REPO_ROOT });
    fs.writeFileSync(path.join(await sitePackages(dir), "pulumi-wos-tests-base.pth"), `${await sitePackages(cachedPythonEnvironment())}\n`);
    await runCommand(path.join(dir, "bin", "python"), ["-m", "pip", ...pipArgs, "--quiet", "--disable-pip-version-check"], {
        cwd: dir,
        env,
        timeoutMs: 5 * 60_000,
    });
    return dir;
}

/** Every file under `dir`, as paths relative to it, sorted. */
export function filesUnder(dir: string): string[] {
    return (fs.readdirSync(dir, { recursive: true, encoding: "utf8" }) as string[])
        .filter((entry) => fs.statSync(path.join(dir, entry)).isFile())
        .sort();
}

/** The plugin as a user gets it: the tarball of `npm run plugin:pack` and its version. */
export interface PluginTarball {
    file: string;
    version: string;
}

/** Where {@link pluginTarball} keeps the archives it packed, one folder per content of what they are made from. */
const PLUGIN_CACHE = path.join(os.tmpdir(), "pulumi-wos-plugin");

/**
 * The plugin's archive for this machine's platform, as `npm run plugin:pack` makes it (plugin/pack.ts: on Linux
 * x64 one executable, the bundle inside the Node.js of `.nvmrc`), packed from the build once per content of the
 * build and shared by every test file (under a lock, so that parallel files pack once): a user's archive is
 * never changed, so neither is this one. Read it, never write into its folder.
 */
export async function pluginTarball(): Promise<PluginTarball> {
    await builtDist();
    const hash = contentHash(["dist/plugin", "dist/provider", "dist/sdk", "package.json", ".nvmrc", "LICENSE"]);
    const entry = path.join(PLUGIN_CACHE, hash);
    fs.mkdirSync(PLUGIN_CACHE, { recursive: true });
    const file = await withLock(path.join(PLUGIN_CACHE, "pack.lock"), async () => {
        const ready = path.join(entry, "archive");
        if (!fs.existsSync(ready)) {
            const staging = `${entry}.staging-${process.pid}`;
            fs.rmSync(staging, { recursive: true, force: true });
            const platform = hostPlatformName();
            const { stdout } = await runCommand(process.execPath, [path.join(REPO_ROOT, "dist", "plugin", "pack.js"), staging, "--platform", platform], {
                cwd: REPO_ROOT,
                timeoutMs: 5 * 60_000,
            });
            fs.writeFileSync(path.join(staging, "archive"), path.basename(stdout.trim()));
            fs.rmSync(entry, { recursive: true, force: true });
            fs.renameSync(staging, entry);
            pruneStaleEntries(PLUGIN_CACHE, hash);
        }
        return path.join(entry, fs.readFileSync(ready, "utf8"));
    });
    return { file, version: packageSchema().version };
}

/** This machine's platform by Pulumi's names (`linux-amd64`), which the archive of {@link pluginTarball} is for. */
export function hostPlatformName(): string {
    const platform = hostPlatform();
    if (!platform) throw new Error(`the plugin has no archive for ${process.platform}-${process.arch}`);
    return platformName(platform);
}

/** `pulumi plugin install resource wos <version> --file <tarball>` into the program's own PULUMI_HOME. */
export async function installPlugin(program: PulumiProgram, plugin: PluginTarball): Promise<void> {
    await program.pulumi(["plugin", "install", "resource", "wos", plugin.version, "--file", plugin.file]);
}

/**
 * Makes `dir` a Go module that uses the generated Go SDK of the work tree (sdks/go): a `go.mod` that requires the
 * SDK's module and replaces it with that directory, the SDK's `go.sum` (every checksum the program needs but the
 * SDK's own: a replaced module has none), then `go mod tidy`, which finds the rest in the module cache that
 * `tests/cli/setup.sh` filled (the SDK and the CLI are both on the Pulumi Go SDK of the CLI's version).
 */
export async function goModuleOnSdk(dir: string, module: string): Promise<void> {
    const goSdk = path.join(SDKS_DIR, "go");
    const goMod = fs.readFileSync(path.join(goSdk, "go.mod"), "utf8");
    const sdkModule = /^module (\S+)$/m.exec(goMod)![1]!;
    const goVersion = /^go (\S+)$/m.exec(goMod)![1]!;
    fs.writeFileSync(
        path.join(dir, "go.mod"),
        [`module ${module}`, "", `go ${goVersion}`, "", `require ${sdkModule} v0.0.0`, "", `replace ${sdkModule} => ${goSdk}`, ""].join("\n"),
    );
    fs.copyFileSync(path.join(goSdk, "go.sum"), path.join(dir, "go.sum"));
    await runCommand("go", ["mod", "tidy"], { cwd: dir, timeoutMs: 5 * 60_000 });
}

/** The environment of the go command that takes the Go SDK's module from a release's proxy (`goproxy/`). */
export function releaseGoEnvironment(releaseDir: string): Record<string, string> {
    return {
        // The release's proxy first; the rest from the module cache tests/cli/setup.sh filled (or the public proxy).
        GOPROXY: `file://${path.join(releaseDir, "goproxy")},https://proxy.golang.org`,
        // The module is nowhere public yet: its checksum is the release's own.
        GONOSUMDB: "github.com/pulumi-wos/pulumi-wos",
        GOFLAGS: "-mod=mod",
    };
}

/**
 * Makes `dir` a Go program (module `example.com/<name>`) that makes one `wos.Project` named `projectName` and
 * exports its id as `projectId`, on the Go SDK's module `v<version>` that `go get` takes from the release's
 * proxy, as a user of the released SDK gets it; answers the go command's environment for it.
 */
export async function goProgramOnRelease(dir: string, releaseDir: string, version: string, projectName: string): Promise<Record<string, string>> {
    fs.writeFileSync(path.join(dir, "go.mod"), `module example.com/${path.basename(dir)}\n\ngo 1.25\n`);
    // The SDK's own dependencies' checksums, so that nothing else needs the checksum database.
    fs.copyFileSync(path.join(SDKS_DIR, "go", "go.sum"), path.join(dir, "go.sum"));
    fs.writeFileSync(
        path.join(dir, "main.go"),
        `package main

import (
	"${goSdkModule()}/wos"
	"github.com/pulumi/pulumi/sdk/v3/go/pulumi"
)

func main() {
	pulumi.Run(func(ctx *pulumi.Context) error {
		project, err := wos.NewProject(ctx, "released", &wos.ProjectArgs{Name: pulumi.String(${JSON.stringify(projectName)})})
		if err != nil {
			return err
		}
		ctx.Export("projectId", project.ID())
		return nil
	})
}
`,
    );
    const env = releaseGoEnvironment(releaseDir);
    await runCommand("go", ["get", `${goSdkModule()}@v${version}`], { cwd: dir, env, timeoutMs: 5 * 60_000 });
    await runCommand("go", ["mod", "tidy"], { cwd: dir, env, timeoutMs: 5 * 60_000 });
    return env;
}

/** The module path of the generated Go SDK (sdks/go/go.mod), which a Go program imports `<path>/wos` from. */
export function goSdkModule(): string {
    return /^module (\S+)$/m.exec(fs.readFileSync(path.join(SDKS_DIR, "go", "go.mod"), "utf8"))![1]!;
}
