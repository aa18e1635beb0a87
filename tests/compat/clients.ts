/**
 * The official public clients of the hosted API, run unchanged against a local service: go-tfe (a small Go
 * program in `gotfe/`, built once per test file) and pytfe (`pytfe/compat.py`, run by the Python of the
 * `.compat/venv` virtual environment). Both take a scenario name and its parameters (JSON in
 * `COMPAT_INPUT`) and print a {@link ClientReport}; this module finds the toolchains, builds, runs and
 * parses, and fails with the install command to run when a piece is missing (never a silent skip).
 */
import { execFile } from "node:child_process";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";

/** The repository root. */
export const REPO_ROOT = path.resolve(__dirname, "..", "..");
/** The Go program's module directory (its own go.mod and go.sum). */
export const GO_DIR = path.join(__dirname, "gotfe");
/** The Python script and its pinned requirements. */
export const PY_DIR = path.join(__dirname, "pytfe");
/** The virtual environment pytfe is installed into (ignored by git). */
export const VENV_DIR = path.join(REPO_ROOT, ".compat", "venv");

/** The install commands (from the repository root); `npm test` runs tests/compat/setup.sh, which does both. */
export const INSTALL = {
    go: "bash tests/compat/setup.sh (npm test runs it; it runs go mod download in tests/compat/gotfe)",
    pytfe: "bash tests/compat/setup.sh (npm test runs it)",
} as const;

/** One HTTP exchange a client made during a call (sensitive values in bodies are redacted by the programs). */
export interface Exchange {
    method: string;
    url: string;
    requestContentType?: string | null;
    requestBody?: unknown;
    status?: number;
    responseContentType?: string | null;
    responseBody?: unknown;
    transportError?: string;
}

/** One client call in a report. */
export interface CallReport {
    name: string;
    ok: boolean;
    /** The client's error text when the call failed. */
    error?: string;
    /** The client's typed error, when it is one (`ErrResourceNotFound`, `NotFound`...). */
    errorKind?: string;
    /** Why the call was not made (an earlier call it needed failed). */
    skipped?: string;
    /** How the call was made when the client has no typed method for it. */
    via?: string;
    /** The values the client decoded, in one shape for both clients. */
    result?: any;
    exchanges: Exchange[];
}

/** What a client program prints. */
export interface ClientReport {
    client: "go-tfe" | "pytfe";
    version: string;
    scenario: string;
    calls: CallReport[];
    output: Record<string, unknown>;
}

/** A client ready to run scenarios. */
export interface PublicClient {
    name: "go-tfe" | "pytfe";
    /** The version the client must report (go.mod's require line, requirements.txt's pin). */
    pinnedVersion: string;
    /**
     * Runs one scenario against `address` (`http://127.0.0.1:PORT`) with `token`. Resolves with the report and
     * the program's raw stdout (to prove what never appears in it); rejects when the program could not run.
     */
    run(scenario: string, options: { address: string; token: string; input: unknown }): Promise<{ report: ClientReport; stdout: string }>;
    /** Removes what {@link prepareGoTfe} built. */
    dispose(): void;
}

/** A program's exit: resolves whatever the exit code, rejects only when it could not be started. */
function execute(
    file: string,
    args: string[],
    options: { cwd: string; env?: NodeJS.ProcessEnv; timeoutMs: number },
): Promise<{ code: number | null; stdout: string; stderr: string; error?: NodeJS.ErrnoException }> {
    return new Promise((resolve) => {
        // Asynchronous on purpose: the service runs in this process and must answer while the client runs.
        execFile(
            file,
            args,
            { cwd: options.cwd, env: options.env ?? process.env, timeout: options.timeoutMs, maxBuffer: 64 * 1024 * 1024 },
            (error, stdout, stderr) => {
                const failure = error as (NodeJS.ErrnoException & { code?: number | string }) | null;
                resolve({
                    code: failure ? (typeof failure.code === "number" ? failure.code : null) : 0,
                    stdout,
                    stderr,
                    error: failure && typeof failure.code === "string" ? failure : undefined,
                });
            },
        );
    });
}

/** The environment a client program runs with: ours, plus the address, token and scenario parameters. */
function clientEnv(options: { address: string; token: string; input: unknown }): NodeJS.ProcessEnv {
    return { ...process.env, TFE_ADDRESS: options.address, TFE_TOKEN: options.token, COMPAT_INPUT: JSON.stringify(options.input) };
}

/** Parses a program's stdout as a report, or explains what it printed instead. */
function parseReport(client: string, scenario: string, result: { code: number | null; stdout: string; stderr: string }): ClientReport {
    if (result.code !== 0) {
        throw new Error(`${client} scenario ${scenario} exited with ${result.code}:\n${result.stderr}${result.stdout}`);
    }
    try {
        return JSON.parse(result.stdout) as ClientReport;
    } catch {
        throw new Error(`${client} scenario ${scenario} printed no JSON report:\n${result.stdout}\n${result.stderr}`);
    }
}

/** The go-tfe version `gotfe/go.mod` requires. */
export function pinnedGoTfeVersion(): string {
    const goMod = fs.readFileSync(path.join(GO_DIR, "go.mod"), "utf8");
    const match = /github\.com\/hashicorp\/go-tfe (v\S+)/.exec(goMod);
    if (!match) throw new Error("tests/compat/gotfe/go.mod does not require github.com/hashicorp/go-tfe");
    return match[1];
}

/** The pytfe version `pytfe/requirements.txt` pins. */
export function pinnedPytfeVersion(): string {
    const requirements = fs.readFileSync(path.join(PY_DIR, "requirements.txt"), "utf8");
    const match = /^pytfe==(\S+)$/m.exec(requirements);
    if (!match) throw new Error("tests/compat/pytfe/requirements.txt does not pin pytfe");
    return match[1];
}

/**
 * Builds the Go program once into a temporary directory (`go build`, which uses the module cache that
 * `go mod download` filled and go.sum's pinned hashes). Fails with the install command when Go is missing or
 * the modules cannot be had.
 */
export async function prepareGoTfe(): Promise<PublicClient> {
    const version = await execute("go", ["version"], { cwd: GO_DIR, timeoutMs: 30_000 });
    if (version.error || version.code !== 0) {
        throw new Error(
            `Go is not available (${version.error?.message ?? version.stderr.trim()}). The public-client compatibility ` +
                `test needs the Go toolchain (tests/compat/gotfe/go.mod names the minimum version) on PATH. Install it, ` +
                `then run from the repository root: ${INSTALL.go}`,
        );
    }
    const outDir = fs.mkdtempSync(path.join(os.tmpdir(), "wos-gotfe-"));
    const binary = path.join(outDir, "gotfe");
    const build = await execute("go", ["build", "-o", binary, "."], { cwd: GO_DIR, timeoutMs: 600_000 });
    if (build.code !== 0) {
        fs.rmSync(outDir, { recursive: true, force: true });
        throw new Error(
            `go build of tests/compat/gotfe failed (${version.stdout.trim()}):\n${build.stderr}${build.error?.message ?? ""}\n` +
                `When modules are missing, run from the repository root: ${INSTALL.go}`,
        );
    }
    return {
        name: "go-tfe",
        pinnedVersion: pinnedGoTfeVersion(),
        async run(scenario, options) {
            const result = await execute(binary, [scenario], { cwd: GO_DIR, env: clientEnv(options), timeoutMs: 120_000 });
            if (result.error) throw new Error(`cannot run the built go-tfe program: ${result.error.message}`);
            return { report: parseReport("go-tfe", scenario, result), stdout: result.stdout };
        },
        dispose: () => fs.rmSync(outDir, { recursive: true, force: true }),
    };
}

/**
 * Checks that the virtual environment exists and holds the pinned pytfe. Fails with the install command
 * otherwise.
 */
export async function preparePytfe(): Promise<PublicClient> {
    const python = path.join(VENV_DIR, process.platform === "win32" ? "Scripts/python.exe" : "bin/python");
    const pinned = pinnedPytfeVersion();
    if (!fs.existsSync(python)) {
        throw new Error(`The pytfe virtual environment is missing (${python}). Run from the repository root: ${INSTALL.pytfe}`);
    }
    const probe = await execute(python, ["-c", "import pytfe; print(pytfe.__version__)"], { cwd: PY_DIR, timeoutMs: 60_000 });
    const installed = probe.stdout.trim();
    if (probe.code !== 0 || installed !== pinned) {
        throw new Error(
            `pytfe ${pinned} is not installed in ${VENV_DIR} (${probe.code === 0 ? `found ${installed}` : probe.stderr.trim()}). ` +
                `Run from the repository root: ${INSTALL.pytfe}`,
        );
    }
    const script = path.join(PY_DIR, "compat.py");
    return {
        name: "pytfe",
        pinnedVersion: pinned,
        async run(scenario, options) {
            const result = await execute(python, [script, scenario], { cwd: PY_DIR, env: clientEnv(options), timeoutMs: 120_000 });
            if (result.error) throw new Error(`cannot run ${script}: ${result.error.message}`);
            return { report: parseReport("pytfe", scenario, result), stdout: result.stdout };
        },
        dispose: () => undefined,
    };
}

/** A call's one-paragraph account, with its exchanges: what a failing assertion shows. */
export function describeCall(client: string, call: CallReport): string {
    const head = call.skipped
        ? `${client} ${call.name}: skipped (${call.skipped})`
        : `${client} ${call.name}: ${call.ok ? "ok" : `FAILED: ${call.error}`}${call.via ? ` [via ${call.via}]` : ""}`;
    const exchanges = call.exchanges.map(
        (exchange) =>
            `  ${exchange.method} ${exchange.url} (${exchange.requestContentType ?? "no content type"})\n` +
            (exchange.requestBody === undefined || exchange.requestBody === null ? "" : `    sent: ${JSON.stringify(exchange.requestBody)}\n`) +
            `    -> ${exchange.status ?? exchange.transportError} ${JSON.stringify(exchange.responseBody ?? null)}`,
    );
    return [head, ...exchanges].join("\n");
}

/**
 * The call of `report` named `name`, which must have succeeded. Throws an error that shows the client's error
 * and every exchange otherwise, so a failing test names the incompatibility.
 */
export function succeeded(report: ClientReport, name: string): CallReport {
    const call = report.calls.find((candidate) => candidate.name === name);
    if (!call) throw new Error(`${report.client} made no call named "${name}"; calls: ${report.calls.map((c) => c.name).join(", ")}`);
    if (!call.ok) throw new Error(describeCall(report.client, call));
    return call;
}
