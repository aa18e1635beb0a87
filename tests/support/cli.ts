/**
 * The `wos-server` command line as a user runs it: the built `dist/server/main.js` in a child process
 * (`npm test` builds first; run `npm run build` before running such a test file alone).
 */
import { spawn, type ChildProcess } from "node:child_process";
import { join, resolve } from "node:path";

/** The repository's root. */
export const ROOT = resolve(__dirname, "../..");
/** The built CLI. */
export const MAIN = join(ROOT, "dist/server/main.js");
/** The example seed (tokens `team-owners-secret`, `org-acme-secret`...). */
export const EXAMPLE_SEED = join(ROOT, "examples/seed.json");
/** The line the CLI prints on stdout once it listens. */
export const ADDRESS_LINE = /^wos-server listening on (http:\/\/\S+)$/m;

/** How a CLI process ended. */
export interface Exit {
    code: number | null;
    signal: NodeJS.Signals | null;
}

/** A started CLI that printed its address. */
export interface RunningServer {
    child: ChildProcess;
    /** `http://HOST:PORT` from the address line. */
    url: string;
    /** The port of {@link url}. */
    port: number;
    stderr(): string;
    exited: Promise<Exit>;
}

const started: ChildProcess[] = [];

/** Spawns the CLI, collecting its output; `exited` settles with its exit. */
export function spawnCli(args: string[]) {
    const child = spawn(process.execPath, [MAIN, ...args], { cwd: ROOT, stdio: ["ignore", "pipe", "pipe"] });
    started.push(child);
    const output = { stdout: "", stderr: "" };
    child.stdout!.setEncoding("utf8").on("data", (chunk: string) => (output.stdout += chunk));
    child.stderr!.setEncoding("utf8").on("data", (chunk: string) => (output.stderr += chunk));
    const exited = new Promise<Exit>((done) => child.once("exit", (code, signal) => done({ code, signal })));
    return { child, output, exited };
}

/** Starts the CLI and waits for its address line (or its exit, which fails the test with its stderr). */
export function startCli(args: string[]): Promise<RunningServer> {
    const { child, output, exited } = spawnCli(args);
    return new Promise((resolveStart, rejectStart) => {
        const onData = () => {
            const match = ADDRESS_LINE.exec(output.stdout);
            if (!match) return;
            child.stdout!.off("data", onData);
            const url = match[1]!;
            resolveStart({ child, url, port: Number(new URL(url).port), stderr: () => output.stderr, exited });
        };
        child.stdout!.on("data", onData);
        void exited.then(({ code }) => rejectStart(new Error(`wos-server exited (${code}) before listening:\n${output.stderr}`)));
    });
}

/** Runs the CLI to completion (for invocations that must fail). */
export async function runCli(args: string[]): Promise<{ code: number | null; stdout: string; stderr: string }> {
    const { output, exited } = spawnCli(args);
    const { code } = await exited;
    return { code, ...output };
}

/** Sends SIGTERM and answers the exit code; an end by a signal fails with the stderr. */
export async function stopCli(server: RunningServer): Promise<number | null> {
    server.child.kill("SIGTERM");
    return exitCode(server);
}

/** The exit code once the process ends; an end by a signal fails with the stderr. */
export async function exitCode(server: RunningServer): Promise<number | null> {
    const { code, signal } = await server.exited;
    if (code === null) throw new Error(`wos-server ended by ${signal}, stderr:\n${server.stderr()}`);
    return code;
}

/** Kills every CLI this test file started that is still running (an `afterAll`). */
export function killStartedClis(): void {
    for (const child of started) if (child.exitCode === null && child.signalCode === null) child.kill("SIGKILL");
}
