/**
 * The real Pulumi CLI, as a user runs it on an example: the binaries `tests/cli/setup.sh` builds (part of
 * `npm test`), a local backend in a temporary directory (`pulumi login file://…`), a passphrase for the
 * stack's secrets, and a program directory inside the packed program (so `pulumi-wos` and `@pulumi/pulumi`
 * resolve to the unpacked tarball and its linked dependencies, as after `npm install`).
 *
 * Everything a test starts here is hermetic: `PULUMI_HOME`, the backend and the program copy live under one
 * temporary directory that {@link PulumiProgram.dispose} removes.
 */
import { spawn, type ChildProcess } from "node:child_process";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { childEnv, packedProgram, REPO_ROOT } from "./packedPackage";

/** The `@pulumi/pulumi` of the lock file: the version `tests/cli/setup.sh` builds the CLI at. */
export function pulumiVersion(): string {
    const lock = JSON.parse(fs.readFileSync(path.join(REPO_ROOT, "package-lock.json"), "utf8")) as {
        packages: Record<string, { version?: string }>;
    };
    const version = lock.packages["node_modules/@pulumi/pulumi"]?.version;
    if (!version) throw new Error("package-lock.json has no @pulumi/pulumi");
    return version;
}

/** The directory holding `pulumi`, `pulumi-language-nodejs` and `pulumi-resource-pulumi-nodejs`. */
export function pulumiBinDir(): string {
    const dir = path.join(REPO_ROOT, ".pulumi-cli", `v${pulumiVersion()}`, "bin");
    if (!fs.existsSync(path.join(dir, "pulumi"))) {
        throw new Error(`no Pulumi CLI in ${dir}: run \`bash tests/cli/setup.sh\` (npm test does)`);
    }
    return dir;
}

/** How a CLI command ended, with everything it printed. */
export interface CliResult {
    code: number | null;
    signal: NodeJS.Signals | null;
    stdout: string;
    stderr: string;
    /** stdout then stderr, for assertions on what a person sees. */
    output: string;
}

/** A command started with {@link PulumiProgram.start}: still running until `done` settles. */
export interface RunningCommand {
    child: ChildProcess;
    /** Everything printed so far. */
    output(): string;
    done: Promise<CliResult>;
}

export interface ProgramOptions {
    /** The example (or any program) directory to copy: `index.ts`, `Pulumi.yaml`, `tsconfig.json`, `package.json`. */
    source: string;
    /** Files written over the copy (name to text), e.g. a variant of `index.ts`. */
    files?: Record<string, string>;
    /** The stack to create and select. Default `dev`. */
    stack?: string;
    /** Environment for every command, on top of the hermetic one (e.g. `WOS_UPGRADE_POLL_MS`). */
    env?: Record<string, string>;
    /**
     * Where the copy goes. Default: inside the packed program, so that a TypeScript or JavaScript program's
     * `require`s resolve from its node_modules (only the files of a Node.js program are copied). `false`: a program
     * of another language (YAML, Python), which needs no node_modules: the whole `source` directory is copied into
     * the test's temporary directory, and nothing is packed.
     */
    packed?: boolean;
}

/** A copy of a Pulumi program, with a stack of its own on a local backend, and the CLI to run on it. */
export interface PulumiProgram {
    /** The program directory (the copy). */
    dir: string;
    /** The local backend's directory (`file://` + this). */
    backendDir: string;
    stack: string;
    /** Runs `pulumi <args>` to its end; rejects unless it exits 0, with everything it printed. */
    pulumi(args: string[], options?: { env?: Record<string, string> }): Promise<CliResult>;
    /** Runs `pulumi <args>` to its end, whatever its exit code. */
    attempt(args: string[], options?: { env?: Record<string, string> }): Promise<CliResult>;
    /** Starts `pulumi <args>` and returns at once (to kill it mid-way). */
    start(args: string[], options?: { env?: Record<string, string> }): RunningCommand;
    /** `pulumi config set [--secret] key value`. */
    setConfig(key: string, value: string, options?: { secret?: boolean }): Promise<void>;
    /** `pulumi stack export` (`--show-secrets` when asked) as parsed JSON and as its text. */
    exportStack(options?: { showSecrets?: boolean }): Promise<{ text: string; deployment: StackExport }>;
    /** `pulumi stack output --json`, parsed. */
    outputs(options?: { showSecrets?: boolean }): Promise<Record<string, unknown>>;
    /** Ends every command still running, then removes the backend, `PULUMI_HOME` and the program copy. */
    dispose(): Promise<void>;
}

/** The part of `pulumi stack export` that tests read. */
export interface StackExport {
    deployment: {
        resources?: Array<{
            urn: string;
            type: string;
            id?: string;
            inputs?: Record<string, unknown>;
            outputs?: Record<string, unknown>;
        }>;
        pending_operations?: unknown[];
    };
}

/** The passphrase of every test stack (the local backend encrypts the stack's secrets with it). */
export const TEST_PASSPHRASE = "only-for-these-tests";

/** Files of an example program that a copy takes. */
const PROGRAM_FILES = ["index.ts", "Pulumi.yaml", "tsconfig.json", "package.json"];

/**
 * Copies `options.source` into a fresh directory inside the packed program, logs in to a fresh local
 * backend and creates the stack.
 */
export async function pulumiProgram(options: ProgramOptions): Promise<PulumiProgram> {
    const binDir = pulumiBinDir();
    const root = fs.mkdtempSync(path.join(os.tmpdir(), "wos-cli-"));
    const backendDir = path.join(root, "backend");
    const home = path.join(root, "home");
    fs.mkdirSync(backendDir);
    fs.mkdirSync(home);
    let dir: string;
    if (options.packed === false) {
        dir = path.join(root, path.basename(options.source));
        fs.cpSync(options.source, dir, { recursive: true });
    } else {
        // Inside the packed program directory, so that the program's `require`s resolve from its node_modules.
        dir = fs.mkdtempSync(path.join((await packedProgram()).dir, `${path.basename(options.source)}-`));
        for (const file of PROGRAM_FILES) {
            const from = path.join(options.source, file);
            if (fs.existsSync(from)) fs.copyFileSync(from, path.join(dir, file));
        }
    }
    for (const [name, text] of Object.entries(options.files ?? {})) fs.writeFileSync(path.join(dir, name), text);
    const stack = options.stack ?? "dev";

    const environment = (extra: Record<string, string> = {}) =>
        childEnv({
            PATH: `${binDir}${path.delimiter}${process.env.PATH ?? ""}`,
            PULUMI_HOME: home,
            PULUMI_BACKEND_URL: `file://${backendDir}`,
            PULUMI_CONFIG_PASSPHRASE: TEST_PASSPHRASE,
            PULUMI_SKIP_UPDATE_CHECK: "1",
            PULUMI_DISABLE_AUTOMATIC_PLUGIN_ACQUISITION: "true",
            PULUMI_SKIP_CONFIRMATIONS: "true",
            // No terminal: plain text, as in a pipeline's log.
            NO_COLOR: "1",
            ...options.env,
            ...extra,
        });

    const running = new Set<ChildProcess>();
    const start = (args: string[], runOptions: { env?: Record<string, string> } = {}): RunningCommand => {
        const child = spawn(path.join(binDir, "pulumi"), [...args, "--non-interactive", "--color", "never"], {
            cwd: dir,
            env: environment(runOptions.env),
            stdio: ["ignore", "pipe", "pipe"],
        });
        running.add(child);
        let stdout = "";
        let stderr = "";
        child.stdout!.setEncoding("utf8").on("data", (chunk: string) => (stdout += chunk));
        child.stderr!.setEncoding("utf8").on("data", (chunk: string) => (stderr += chunk));
        const done = new Promise<CliResult>((resolve) =>
            child.once("close", (code, signal) => {
                running.delete(child);
                resolve({ code, signal, stdout, stderr, output: stdout + stderr });
            }),
        );
        return { child, output: () => stdout + stderr, done };
    };
    const attempt = (args: string[], runOptions?: { env?: Record<string, string> }) => start(args, runOptions).done;
    const pulumi = async (args: string[], runOptions?: { env?: Record<string, string> }) => {
        const result = await attempt(args, runOptions);
        if (result.code !== 0) {
            throw new Error(`pulumi ${args.join(" ")} exited ${result.code ?? result.signal}:\n${result.output}`);
        }
        return result;
    };

    await pulumi(["stack", "init", stack]);
    const program: PulumiProgram = {
        dir,
        backendDir,
        stack,
        pulumi,
        attempt,
        start,
        async setConfig(key, value, configOptions = {}) {
            await pulumi(["config", "set", ...(configOptions.secret ? ["--secret"] : []), key, value]);
        },
        async exportStack(exportOptions = {}) {
            const { stdout } = await pulumi(["stack", "export", ...(exportOptions.showSecrets ? ["--show-secrets"] : [])]);
            return { text: stdout, deployment: JSON.parse(stdout) as StackExport };
        },
        async outputs(outputOptions = {}) {
            const { stdout } = await pulumi(["stack", "output", "--json", ...(outputOptions.showSecrets ? ["--show-secrets"] : [])]);
            return JSON.parse(stdout) as Record<string, unknown>;
        },
        async dispose() {
            for (const child of running) killTree(child);
            await Promise.all([...running].map((child) => new Promise((resolve) => child.once("close", resolve))));
            fs.rmSync(root, { recursive: true, force: true });
            fs.rmSync(dir, { recursive: true, force: true });
        },
    };
    return program;
}

/** SIGKILLs a command and every process it started (the language host, the provider hosts), if still running. */
export function killTree(child: ChildProcess): void {
    if (child.pid === undefined) return;
    killProcesses([child.pid, ...descendantsOf(child.pid)]);
}

/**
 * SIGKILLs the CLI alone, as a crash or a pipeline's timeout would, and answers the processes it leaves
 * behind: its language host and its provider hosts, which live on as orphans (each plugin runs in a process
 * group of its own) and may finish what they were doing.
 *
 * Then it does what the reference (docs/reference.md) tells a user to do after such a kill: delete a metadata sidecar of the
 * `file://` backend that the kill left torn. The backend writes a state file atomically (a temporary file,
 * then a rename) but its `<file>.attrs` beside it in place (truncate, then write); killed in between, the
 * sidecar is empty and every later command of the stack fails with `failed to load checkpoint: EOF`.
 */
export async function killCliAlone(running: RunningCommand, program: PulumiProgram): Promise<number[]> {
    const pid = running.child.pid!;
    const orphans = descendantsOf(pid);
    running.child.kill("SIGKILL");
    await running.done;
    removeTornSidecars(program.backendDir);
    return orphans;
}

/** Deletes each `.attrs` file under `backendDir` that holds no JSON object (it is rewritten at the next save). */
function removeTornSidecars(backendDir: string): void {
    for (const entry of fs.readdirSync(backendDir, { recursive: true, encoding: "utf8" })) {
        if (!entry.endsWith(".attrs")) continue;
        const file = path.join(backendDir, entry);
        try {
            JSON.parse(fs.readFileSync(file, "utf8"));
        } catch {
            fs.rmSync(file);
        }
    }
}

/** SIGKILLs each process of `pids` that is still running. */
export function killProcesses(pids: readonly number[]): void {
    for (const pid of pids) {
        try {
            process.kill(pid, "SIGKILL");
        } catch (error) {
            if ((error as NodeJS.ErrnoException).code !== "ESRCH") throw error;
        }
    }
}

/** Every process below `pid` in the process tree, read from /proc (the tree is lost once `pid` dies). */
function descendantsOf(pid: number): number[] {
    const children = new Map<number, number[]>();
    for (const entry of fs.readdirSync("/proc")) {
        if (!/^\d+$/.test(entry)) continue;
        let stat: string;
        try {
            stat = fs.readFileSync(`/proc/${entry}/stat`, "utf8");
        } catch {
            continue; // ended meanwhile
        }
        // `pid (comm) state ppid ...`; comm may hold spaces and parentheses: read after the last `)`.
        const parent = Number(stat.slice(stat.lastIndexOf(")") + 2).split(" ")[1]);
        children.set(parent, [...(children.get(parent) ?? []), Number(entry)]);
    }
    const found: number[] = [];
    const visit = (parent: number) => {
        for (const child of children.get(parent) ?? []) {
            found.push(child);
            visit(child);
        }
    };
    visit(pid);
    return found;
}

/** Resolves once `predicate` holds for `running.output()`, polling; rejects after `timeoutMs`. */
export async function waitForOutput(running: RunningCommand, predicate: (output: string) => boolean, timeoutMs = 60_000): Promise<void> {
    const deadline = Date.now() + timeoutMs;
    while (!predicate(running.output())) {
        if (running.child.exitCode !== null || running.child.signalCode !== null) {
            throw new Error(`pulumi ended before the awaited output:\n${running.output()}`);
        }
        if (Date.now() > deadline) throw new Error(`timed out waiting for pulumi's output:\n${running.output()}`);
        await new Promise((resolve) => setTimeout(resolve, 50));
    }
}
