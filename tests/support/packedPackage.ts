/**
 * The packages as a user installs them, for the engine, example, package and testing-kit tests.
 *
 * `npm pack` produces the tarballs that `npm publish` would upload: `pulumi-wos` (resources, client, testing
 * kit) and the workspace `server/`, `@pulumi-wos/server` (the local service). Each is unpacked into a
 * temporary directory's `node_modules`, and the dependencies (and peers) its `package.json` declares are
 * linked from the repository's own `node_modules`. Only the published files run, a dependency missing from a
 * `package.json` fails to resolve, and nothing is installed or compiled again. Three
 * such directories are made from the same two tarballs:
 *
 * - `program`: a Pulumi program with `pulumi-wos` and `@pulumi-wos/server` (a project that uses the testing
 *   kit), what the engine, example and testing-kit tests run;
 * - `lean`: `pulumi-wos` alone, its optional peer `@pulumi-wos/server` not installed (a program that uses
 *   only the resources or the client);
 * - `server`: `@pulumi-wos/server` alone, with only its own dependencies.
 *
 * Packing is done once per content of `dist/`: the program directory is cached under the system temporary
 * directory, keyed by a hash of everything the tarball is made from, and built under a lock directory so
 * that parallel jest workers wait for one packer instead of packing side by side on a 2-core machine.
 */
import { execFile } from "node:child_process";
import { createHash, randomBytes } from "node:crypto";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";

/** Root of the repository (this file lives in `tests/support`). */
export const REPO_ROOT = path.resolve(__dirname, "..", "..");

/** Where packed programs are cached, one directory per content hash. */
const CACHE_ROOT = path.join(os.tmpdir(), "pulumi-wos-engine");

/** Project name of the temporary Pulumi program (`Pulumi.yaml`); config keys without `:` get this prefix. */
export const PROGRAM_PROJECT = "wos-engine-test";

/** A temporary Pulumi program with the packed package installed in it. */
export interface PackedProgram {
    /** The program directory: the provider host's working directory. */
    dir: string;
    /** `dir/node_modules/pulumi-wos` (`dir/node_modules/@pulumi-wos/server` for the server alone): the unpacked tarball. */
    packageDir: string;
    /** Content hash of what was packed (names the cache entry). */
    hash: string;
    /** Names of the files the tarball holds, relative to the package root. */
    files: string[];
}

/** The packages `npm pack` made, and the directories they are unpacked in. */
export interface PackedPackages {
    /** Content hash of what was packed (names the cache entry). */
    hash: string;
    /** `pulumi-wos` and `@pulumi-wos/server`, each with its dependencies: a project that uses the testing kit. */
    program: PackedProgram;
    /** `pulumi-wos` alone: its optional peer `@pulumi-wos/server` is not installed. */
    lean: PackedProgram;
    /** `@pulumi-wos/server` alone, with only the dependencies its own `package.json` declares. */
    server: PackedProgram;
    /** The tarballs, as `npm publish` would upload them. */
    tarballs: { resources: string; server: string };
}

/** The name of the server's package (the workspace `server/`). */
export const SERVER_PACKAGE = "@pulumi-wos/server";

/** One `registerResource` as the mock monitor saw it. */
export interface Registration {
    type: string;
    name: string;
    custom: boolean;
    /** Inputs as the engine would receive them: secrets as `{4dabf18193072939515e22adb298388d: …, value}`. */
    inputs: Record<string, unknown>;
    /** `additionalSecretOutputs` of the registration: the engine marks these outputs secret too. */
    additionalSecretOutputs: string[];
}

/** Result of a program run under `pulumi.runtime.setMocks`. */
export interface MockRun {
    registrations: Registration[];
    /** Stack outputs the program exported (module exports, awaited and plain). */
    exports: Record<string, unknown>;
    /** Everything the program printed. */
    output: string;
}

let packedOnce: Promise<PackedPackages> | undefined;

/**
 * Builds `dist/` and `server/dist/` when a source is newer, packs both packages and returns the cached
 * directories for the current content. Memoized per module instance (jest gives each test file its own).
 */
export function packedPackages(): Promise<PackedPackages> {
    packedOnce ??= preparePackedPackages();
    return packedOnce;
}

/** The program directory with `pulumi-wos` and `@pulumi-wos/server` installed: see {@link packedPackages}. */
export async function packedProgram(): Promise<PackedProgram> {
    return (await packedPackages()).program;
}

/** What `ready.json` of a cache entry holds. */
interface Ready {
    files: string[];
    serverFiles: string[];
    tarballs: { resources: string; server: string };
}

async function preparePackedPackages(): Promise<PackedPackages> {
    fs.mkdirSync(CACHE_ROOT, { recursive: true });
    return withLock(path.join(CACHE_ROOT, "pack.lock"), async () => {
        await buildIfStale();
        const hash = hashPackInputs();
        const entry = path.join(CACHE_ROOT, hash);
        if (!fs.existsSync(path.join(entry, "ready.json"))) {
            fs.rmSync(entry, { recursive: true, force: true });
            await packInto(entry);
        }
        pruneStaleEntries(CACHE_ROOT, hash);
        const ready = JSON.parse(fs.readFileSync(path.join(entry, "ready.json"), "utf8")) as Ready;
        const at = (name: string, packageName: string, files: string[]): PackedProgram => {
            const dir = path.join(entry, name);
            return { dir, packageDir: path.join(dir, "node_modules", packageName), hash, files };
        };
        return {
            hash,
            program: at("program", "pulumi-wos", ready.files),
            lean: at("lean", "pulumi-wos", ready.files),
            server: at("server", SERVER_PACKAGE, ready.serverFiles),
            tarballs: { resources: path.join(entry, ready.tarballs.resources), server: path.join(entry, ready.tarballs.server) },
        };
    });
}

/**
 * Newest modification time (ms) of any file under `target` whose name passes `accept`, outside `node_modules`
 * and build output: `server/` holds the server package's `dist/`, which a build writes after the marker it is
 * judged by, so counting it would rebuild on every call, under the feet of tests reading `dist/`.
 */
function newestMtime(target: string, accept: (name: string) => boolean): number {
    let newest = 0;
    if (!fs.existsSync(target)) return newest;
    const stat = fs.statSync(target);
    if (stat.isFile()) return accept(target) ? stat.mtimeMs : 0;
    for (const entry of fs.readdirSync(target, { withFileTypes: true })) {
        if (entry.name === "node_modules" || entry.name === "dist") continue;
        newest = Math.max(newest, newestMtime(path.join(target, entry.name), accept));
    }
    return newest;
}

/**
 * `npm test` builds before jest runs; a single file run with `npx jest` may find `dist/` older than the
 * sources, and then the package would not be the one under test. The build markers are the `main` of each
 * package (`npm run build` builds both).
 */
async function buildIfStale(): Promise<void> {
    // Escape hatch for a session that builds by itself (e.g. while a neighbour's half-written file breaks tsc).
    if (process.env.WOS_ENGINE_SKIP_BUILD === "1") return;
    const markers = [
        path.join(REPO_ROOT, "dist", "provider", "index.js"),
        path.join(REPO_ROOT, "dist", "plugin", "main.js"),
        path.join(REPO_ROOT, "server", "dist", "server", "main.js"),
    ];
    const builtAt = Math.min(...markers.map((marker) => (fs.existsSync(marker) ? fs.statSync(marker).mtimeMs : 0)));
    const tsconfigBuild = JSON.parse(fs.readFileSync(path.join(REPO_ROOT, "tsconfig.build.json"), "utf8")) as {
        include: string[];
    };
    const sources = [
        ...tsconfigBuild.include,
        "tsconfig.json",
        "tsconfig.build.json",
        "package.json",
        path.join("server", "tsconfig.build.json"),
        path.join("server", "package.json"),
    ];
    const newestSource = Math.max(
        ...sources.map((source) => newestMtime(path.join(REPO_ROOT, source), (name) => !name.endsWith(".md"))),
    );
    if (newestSource <= builtAt) return;
    await run("npm", ["run", "build"], { cwd: REPO_ROOT, what: "npm run build" });
}

/**
 * `dist/` as the sources are now: built first when a source is newer (under the packers' lock, so that
 * parallel test files build once). What tests that run the build itself (the native plugin's) wait for.
 */
export async function builtDist(): Promise<void> {
    fs.mkdirSync(CACHE_ROOT, { recursive: true });
    await withLock(path.join(CACHE_ROOT, "pack.lock"), buildIfStale);
}

/** Hash of every file `npm pack` may take from either package (`server/` holds the server's). */
function hashPackInputs(): string {
    return contentHash(["package.json", "README.md", "LICENSE", "CHANGELOG.md", "dist", ...["package.json", "README.md", "LICENSE", "bin", "dist"].map((top) => path.join("server", top))]);
}

/** Where the plugin's archives are written under `dist/`, which {@link contentHash} does not read. */
const PLUGIN_ARCHIVE_DIRS = [path.join("dist", "plugin-pack"), path.join("dist", "release")];

/**
 * Hash (16 hex digits) of the repository's root path and of every file under `tops` (paths from the root), names
 * and contents: what names a cache entry made from those files. The plugin's archives under `dist/` (what
 * `npm run plugin:pack` writes: hundreds of megabytes, and no package ships them) are not read.
 */
export function contentHash(tops: readonly string[]): string {
    // The repository too: a cached program links the dependencies of the repository that packed it, and
    // another clone with the same files (a CI rehearsal in /tmp, since deleted) must not reuse its links.
    const hash = createHash("sha256").update(REPO_ROOT).update("\0");
    const visit = (relative: string): void => {
        const absolute = path.join(REPO_ROOT, relative);
        if (!fs.existsSync(absolute) || PLUGIN_ARCHIVE_DIRS.includes(relative)) return;
        const stat = fs.statSync(absolute);
        if (stat.isDirectory()) {
            for (const name of fs.readdirSync(absolute).sort()) visit(path.join(relative, name));
            return;
        }
        hash.update(relative).update("\0").update(fs.readFileSync(absolute)).update("\0");
    };
    for (const top of tops) visit(top);
    return hash.digest("hex").slice(0, 16);
}

/** `npm pack` of the root package (`[]`) or of a workspace, into `destination`: the tarball and its files. */
async function pack(destination: string, workspace: string[]): Promise<{ tarball: string; files: string[] }> {
    const packed = await run(
        "npm",
        ["pack", "--ignore-scripts", "--json", "--pack-destination", destination, ...workspace],
        { cwd: REPO_ROOT, what: `npm pack ${workspace.join(" ")}`.trim() },
    );
    const summaries = JSON.parse(packed.stdout) as Array<{ filename: string; files: Array<{ path: string }> }>;
    if (summaries.length !== 1) throw new Error(`npm pack ${workspace.join(" ")} made ${summaries.length} tarballs`);
    return { tarball: path.join(destination, path.basename(summaries[0]!.filename)), files: summaries[0]!.files.map((file) => file.path).sort() };
}

/** Unpacks `tarball` as `nodeModules/<name>`. */
async function unpack(tarball: string, nodeModules: string, name: string): Promise<void> {
    const scratch = fs.mkdtempSync(path.join(path.dirname(tarball), "unpack-"));
    await run("tar", ["-xzf", tarball, "-C", scratch], { cwd: scratch, what: "tar -x" });
    fs.mkdirSync(path.dirname(path.join(nodeModules, name)), { recursive: true });
    fs.renameSync(path.join(scratch, "package"), path.join(nodeModules, name));
    fs.rmSync(scratch, { recursive: true, force: true });
}

/** Packs, unpacks and links into a staging directory, then renames it into place. */
async function packInto(entry: string): Promise<void> {
    const staging = `${entry}.staging-${process.pid}-${randomBytes(4).toString("hex")}`;
    fs.mkdirSync(staging, { recursive: true });
    try {
        const resources = await pack(staging, []);
        const server = await pack(staging, ["--workspace", "server"]);

        // `program`: both packages, as a project that uses the testing kit installs them.
        const program = path.join(staging, "program");
        const nodeModules = path.join(program, "node_modules");
        await unpack(resources.tarball, nodeModules, "pulumi-wos");
        await unpack(server.tarball, nodeModules, SERVER_PACKAGE);
        linkDependencies(path.join(nodeModules, "pulumi-wos", "package.json"), nodeModules);
        linkDependencies(path.join(nodeModules, SERVER_PACKAGE, "package.json"), nodeModules);
        writeProgramFiles(program, { "pulumi-wos": `file:${resources.tarball}`, [SERVER_PACKAGE]: `file:${server.tarball}` });

        // `lean`: the resources and the client alone; npm does not install an optional peer.
        const lean = path.join(staging, "lean");
        await unpack(resources.tarball, path.join(lean, "node_modules"), "pulumi-wos");
        linkDependencies(path.join(lean, "node_modules", "pulumi-wos", "package.json"), path.join(lean, "node_modules"), [SERVER_PACKAGE]);
        writeProgramFiles(lean, { "pulumi-wos": `file:${resources.tarball}` });

        // `server`: the local service alone, with nothing but its own dependencies.
        const serverAlone = path.join(staging, "server");
        await unpack(server.tarball, path.join(serverAlone, "node_modules"), SERVER_PACKAGE);
        linkDependencies(path.join(serverAlone, "node_modules", SERVER_PACKAGE, "package.json"), path.join(serverAlone, "node_modules"));

        const ready: Ready = {
            files: resources.files,
            serverFiles: server.files,
            tarballs: { resources: path.basename(resources.tarball), server: path.basename(server.tarball) },
        };
        fs.writeFileSync(path.join(staging, "ready.json"), JSON.stringify(ready, null, 2));
        fs.renameSync(staging, entry);
    } catch (error) {
        fs.rmSync(staging, { recursive: true, force: true });
        throw error;
    }
}

/** `Pulumi.yaml` and `package.json` of a temporary program that depends on `dependencies`. */
function writeProgramFiles(program: string, dependencies: Record<string, string>): void {
    fs.writeFileSync(
        path.join(program, "Pulumi.yaml"),
        `name: ${PROGRAM_PROJECT}\nruntime: nodejs\ndescription: temporary program of the engine tests\n`,
    );
    fs.writeFileSync(path.join(program, "package.json"), JSON.stringify({ name: PROGRAM_PROJECT, private: true, dependencies }, null, 2));
}

/**
 * Links each dependency and peer dependency the packed `package.json` declares from the repository's
 * `node_modules`, except those already there (another unpacked package, a dependency both declare) and the
 * peers named in `notInstalled`. Node resolves a link to its real path, so the dependencies' own dependencies
 * resolve from the repository too; a package the code requires but `package.json` does not declare does not.
 */
function linkDependencies(packageJsonPath: string, nodeModules: string, notInstalled: string[] = []): void {
    const manifest = JSON.parse(fs.readFileSync(packageJsonPath, "utf8")) as {
        dependencies?: Record<string, string>;
        peerDependencies?: Record<string, string>;
    };
    const names = new Set([...Object.keys(manifest.dependencies ?? {}), ...Object.keys(manifest.peerDependencies ?? {})]);
    for (const name of names) {
        if (notInstalled.includes(name) || fs.existsSync(path.join(nodeModules, name))) continue;
        // The repository's own copy of a package under test is its source folder (a workspace link), not
        // the tarball: it must have been unpacked before, or left out.
        if (name === SERVER_PACKAGE) throw new Error(`${name} must be unpacked before the dependencies are linked`);
        const target = path.join(REPO_ROOT, "node_modules", name);
        if (!fs.existsSync(target)) throw new Error(`dependency ${name} is not installed in ${REPO_ROOT}/node_modules`);
        const link = path.join(nodeModules, name);
        fs.mkdirSync(path.dirname(link), { recursive: true });
        fs.symlinkSync(target, link, "dir");
    }
}

/** Drops the entries of the cache folder `root` but `current` (and the locks) that nobody has touched for a day. */
export function pruneStaleEntries(root: string, current: string): void {
    const dayAgo = Date.now() - 24 * 60 * 60 * 1000;
    for (const name of fs.readdirSync(root)) {
        if (name === current || name.endsWith(".lock")) continue;
        const entry = path.join(root, name);
        try {
            if (fs.statSync(entry).mtimeMs < dayAgo) fs.rmSync(entry, { recursive: true, force: true });
        } catch {
            // Another run pruned it first.
        }
    }
}

/** Runs `fn` holding a lock directory; a lock left by a dead process is taken over. */
export async function withLock<T>(lockDir: string, fn: () => Promise<T>): Promise<T> {
    for (;;) {
        try {
            fs.mkdirSync(lockDir);
            fs.writeFileSync(path.join(lockDir, "pid"), String(process.pid));
            break;
        } catch (error) {
            if ((error as NodeJS.ErrnoException).code !== "EEXIST") throw error;
            if (lockIsStale(lockDir)) {
                fs.rmSync(lockDir, { recursive: true, force: true });
                continue;
            }
            await new Promise((resolve) => setTimeout(resolve, 250));
        }
    }
    try {
        return await fn();
    } finally {
        fs.rmSync(lockDir, { recursive: true, force: true });
    }
}

function lockIsStale(lockDir: string): boolean {
    try {
        const pid = Number(fs.readFileSync(path.join(lockDir, "pid"), "utf8"));
        if (!pid) return Date.now() - fs.statSync(lockDir).mtimeMs > 60_000;
        process.kill(pid, 0);
        return false;
    } catch (error) {
        const code = (error as NodeJS.ErrnoException).code;
        if (code === "ESRCH") return true;
        if (code === "ENOENT") return false; // released meanwhile, or pid not written yet
        return false;
    }
}

/** Environment for child processes: hermetic module resolution and no credentials from the caller's shell. */
export function childEnv(extra: Record<string, string | undefined> = {}): NodeJS.ProcessEnv {
    const env: NodeJS.ProcessEnv = { ...process.env };
    for (const key of ["NODE_PATH", "NODE_OPTIONS", "WOS_ADDRESS", "WOS_TOKEN", "WOS_ORGANIZATION", "PULUMI_CONFIG"]) delete env[key];
    for (const [key, value] of Object.entries(extra)) {
        if (value === undefined) delete env[key];
        else env[key] = value;
    }
    return env;
}

interface RunOptions {
    cwd: string;
    what: string;
    env?: NodeJS.ProcessEnv;
    timeoutMs?: number;
}

/** Runs a command, resolving with its output, rejecting with its output on a non-zero exit. */
export function run(
    command: string,
    args: string[],
    options: RunOptions,
): Promise<{ stdout: string; stderr: string }> {
    return new Promise((resolve, reject) => {
        execFile(
            command,
            args,
            {
                cwd: options.cwd,
                env: options.env ?? childEnv(),
                maxBuffer: 64 * 1024 * 1024,
                timeout: options.timeoutMs ?? 300_000,
            },
            (error, stdout, stderr) => {
                if (error) {
                    reject(new Error(`${options.what} failed (${error.message.split("\n")[0]}):\n${stdout}\n${stderr}`));
                    return;
                }
                resolve({ stdout, stderr });
            },
        );
    });
}

/**
 * Runs a CommonJS program under `pulumi.runtime.setMocks` in a child process whose working directory is
 * `programDir`, so `require("pulumi-wos")` and `@pulumi/pulumi` resolve as in a user's program. The mock
 * monitor answers each registration with id `<name>-id` and the inputs as state. `options.env` adds to the
 * child's environment (e.g. `PULUMI_CONFIG`, which `pulumi.Config` reads under mocks).
 *
 * @param programFile path of the compiled program (its module exports become `exports`).
 */
export async function runUnderMocks(
    programDir: string,
    programFile: string,
    options: { project?: string; stack?: string; timeoutMs?: number; env?: Record<string, string> } = {},
): Promise<MockRun> {
    const token = randomBytes(6).toString("hex");
    const runner = path.join(programDir, `.mock-runner-${token}.js`);
    const resultFile = path.join(os.tmpdir(), `wos-mock-run-${token}.json`);
    fs.writeFileSync(runner, MOCK_RUNNER_SOURCE);
    try {
        const { stdout, stderr } = await run(process.execPath, [runner, programFile, resultFile], {
            cwd: programDir,
            what: `program ${programFile} under mocks`,
            timeoutMs: options.timeoutMs ?? 120_000,
            env: childEnv({
                ...options.env,
                WOS_MOCK_PROJECT: options.project ?? PROGRAM_PROJECT,
                WOS_MOCK_STACK: options.stack ?? "test",
            }),
        });
        const result = JSON.parse(fs.readFileSync(resultFile, "utf8")) as Omit<MockRun, "output">;
        return { ...result, output: stdout + stderr };
    } finally {
        fs.rmSync(runner, { force: true });
        fs.rmSync(resultFile, { force: true });
    }
}

/**
 * The child process of {@link runUnderMocks}. Plain JavaScript (it runs outside jest). It waits for the
 * runtime's RPC queue to drain, so every registration, including those made inside `apply`, is seen.
 */
const MOCK_RUNNER_SOURCE = `"use strict";
const fs = require("fs");
const path = require("path");
const pulumi = require("@pulumi/pulumi");
const [programFile, resultFile] = process.argv.slice(2);
const registrations = [];
pulumi.runtime.setMocks(
    {
        newResource(args) {
            registrations.push({ type: args.type, name: args.name, custom: args.custom, inputs: args.inputs });
            return { id: args.custom ? args.name + "-id" : undefined, state: args.inputs };
        },
        call(args) {
            return args.inputs;
        },
    },
    process.env.WOS_MOCK_PROJECT,
    process.env.WOS_MOCK_STACK,
    false,
);
// The engine applies additionalSecretOutputs from the registration request; newResource does not see them.
const secretOutputs = new Map();
const monitor = pulumi.runtime.getMonitor();
const registerResource = monitor.registerResource.bind(monitor);
monitor.registerResource = (request, callback) => {
    secretOutputs.set(request.getType() + "::" + request.getName(), request.getAdditionalsecretoutputsList());
    return registerResource(request, callback);
};
function plain(value) {
    return new Promise((resolve) => pulumi.output(value).apply((v) => resolve(v)));
}
(async () => {
    const exported = require(path.resolve(programFile));
    const exports = {};
    for (const [key, value] of Object.entries(exported || {})) exports[key] = await plain(value);
    await pulumi.runtime.disconnect();
    for (const registration of registrations) {
        registration.additionalSecretOutputs = secretOutputs.get(registration.type + "::" + registration.name) || [];
    }
    fs.writeFileSync(resultFile, JSON.stringify({ registrations, exports }));
})().catch((error) => {
    console.error(error && error.stack ? error.stack : String(error));
    process.exit(1);
});
`;
