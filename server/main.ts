#!/usr/bin/env node
/**
 * `wos-server`: the local Workspace Organization Service on the command line (`wos-server --help` lists
 * its options). Prints `wos-server listening on http://HOST:PORT` on stdout when ready; logs go to stderr.
 */
// First: on a Node.js older than 22 the SQLite binding crashes the process; say so in one line and exit 1
// before any module below loads it.
import "./refuseUnsupportedNode";
import { readFileSync } from "node:fs";
import { parseArgs, type ParseArgsConfig } from "node:util";
import { startServer } from "./app";
import { serverVersion } from "./version";
import { DEFAULT_MAX_CONNECTIONS, DEFAULT_REQUEST_TIMEOUT_MS, DEFAULT_SHUTDOWN_GRACE_MS } from "./connections";
import { publicBaseUrl } from "./pagination";
import { DEMO_SEED, parseSeed, SeedError, seedTokens, type SeedFile } from "./seed";

/** The levels of the service's logger (pino); anything else would stop the start with pino's own message. */
const LOG_LEVELS = ["fatal", "error", "warn", "info", "debug", "trace", "silent"] as const;

const USAGE = `usage: wos-server [--host 127.0.0.1] [--port 8787] [--data .wos/wos.db | :memory:]
                  [--seed FILE.json] [--plan-step-ms 200] [--rate-limit 0] [--admin-token TOKEN]
                  [--log-level info] [--secret-key-file PATH (or WOS_SECRET_KEY_FILE; default DATA.key)]
                  [--request-timeout-ms ${DEFAULT_REQUEST_TIMEOUT_MS}] [--max-connections ${DEFAULT_MAX_CONNECTIONS}]
                  [--shutdown-grace-ms ${DEFAULT_SHUTDOWN_GRACE_MS}] [--public-url URL]
       wos-server --help | --version`;

/** The options `parseArgs` reads. Every one needs a line in {@link OPTION_HELP}: the compiler checks it. */
const OPTIONS = {
    host: { type: "string", default: "127.0.0.1" },
    port: { type: "string", default: "8787" },
    data: { type: "string", default: ".wos/wos.db" },
    seed: { type: "string" },
    "plan-step-ms": { type: "string", default: "200" },
    "rate-limit": { type: "string", default: "0" },
    "admin-token": { type: "string" },
    "log-level": { type: "string", default: "info" },
    "secret-key-file": { type: "string" },
    "request-timeout-ms": { type: "string", default: String(DEFAULT_REQUEST_TIMEOUT_MS) },
    "max-connections": { type: "string", default: String(DEFAULT_MAX_CONNECTIONS) },
    "shutdown-grace-ms": { type: "string", default: String(DEFAULT_SHUTDOWN_GRACE_MS) },
    "public-url": { type: "string" },
    help: { type: "boolean", short: "h" },
    version: { type: "boolean" },
} as const satisfies ParseArgsConfig["options"];

/**
 * What `--help` says of each option: its value and what it does, defaults included. Keyed by the options of
 * {@link OPTIONS}, so an option added there without a line here does not compile.
 */
const OPTION_HELP: { readonly [K in keyof typeof OPTIONS]: readonly [value: string, text: string] } = {
    host: ["HOST", "Address to listen on (default 127.0.0.1; 0.0.0.0 or :: for every interface)."],
    port: ["PORT", "Port to listen on (default 8787; 0 picks a free one). The address line on stdout names it."],
    data: [
        "FILE | :memory:",
        "SQLite database (default .wos/wos.db), created with its folder, WAL mode: an acknowledged write survives kill -9. :memory: keeps nothing.",
    ],
    seed: [
        "FILE.json",
        "Seed file applied at start, idempotently (organizations, teams, tokens, projects, workspaces, registry modules). Without it, an empty database gets the built-in demo seed and its tokens are printed to stderr.",
    ],
    "plan-step-ms": ["MS", "Length of one step of a no-code upgrade plan: pending, fetching, planning, then its end (default 200)."],
    "rate-limit": [
        "N",
        "Requests per token and second, and failed authentications per client address and second; over it: 429 (default 0: off).",
    ],
    "admin-token": ["TOKEN", "Enables fault injection for tests (POST and DELETE /_admin/faults, bearer this token). Off without it."],
    "log-level": ["LEVEL", `Log level of the JSON lines on stderr: ${LOG_LEVELS.join(", ")} (default info). Authorization headers are redacted.`],
    "secret-key-file": [
        "PATH",
        "File of the 32-byte key that encrypts sensitive values and keys token hashes (64 hex digits, base64 or 32 raw bytes). Else the environment variable WOS_SECRET_KEY_FILE, else DATA.key beside the database (created, mode 0600; a random key for :memory:). Keep it with the database.",
    ],
    "request-timeout-ms": [
        "MS",
        `Most time a client may take to send one request, headers and body, and to send the first byte on a new connection; then 408 (default ${DEFAULT_REQUEST_TIMEOUT_MS}).`,
    ],
    "max-connections": ["N", `Connections served at once; one more is closed unanswered as soon as it is accepted (default ${DEFAULT_MAX_CONNECTIONS}).`],
    "shutdown-grace-ms": [
        "MS",
        `On SIGINT or SIGTERM, how long requests in progress may take to finish before their connections are cut (default ${DEFAULT_SHUTDOWN_GRACE_MS}).`,
    ],
    "public-url": [
        "URL",
        "Base of the absolute URLs in answers (list links, plan-url), an http(s) URL, a path prefix allowed: for a service behind a proxy. Default: the address it listens on.",
    ],
    help: ["", "Prints this help and exits."],
    version: ["", "Prints the version of wos-server (the @pulumi-wos/server package) and exits."],
};

/** `--help`: what the service is, the usage, and every option with what it does. */
function helpText(): string {
    const flags = (Object.keys(OPTION_HELP) as (keyof typeof OPTIONS)[]).map((name) => {
        const option = OPTIONS[name] as { readonly short?: string };
        const [value, text] = OPTION_HELP[name];
        return { flag: `${option.short ? `-${option.short}, ` : ""}--${name}${value ? ` ${value}` : ""}`, text };
    });
    const width = Math.max(...flags.map(({ flag }) => flag.length)) + 2;
    const lines = flags.map(({ flag, text }) => `  ${flag.padEnd(width)}${wrap(text, 100 - width - 2).join(`\n${" ".repeat(width + 2)}`)}`);
    return [
        `wos-server ${serverVersion()}: the local Workspace Organization Service (HTTP on /api/v2, data in SQLite).`,
        "Prints 'wos-server listening on http://HOST:PORT' on stdout when ready; logs go to stderr.",
        "SIGINT or SIGTERM stops it gracefully. Exit codes: 0 stopped, 1 could not start, 2 bad option.",
        "",
        USAGE,
        "",
        "Options:",
        ...lines,
        "",
    ].join("\n");
}

/** `text` cut into lines of at most `width` characters, at spaces. */
function wrap(text: string, width: number): string[] {
    const lines: string[] = [];
    let line = "";
    for (const word of text.split(" ")) {
        if (line && line.length + 1 + word.length > width) {
            lines.push(line);
            line = word;
        } else {
            line = line ? `${line} ${word}` : word;
        }
    }
    if (line) lines.push(line);
    return lines;
}

/** Parsed command line. */
interface Cli {
    host: string;
    port: number;
    data: string;
    seed?: string;
    planStepMs: number;
    rateLimit: number;
    adminToken?: string;
    logLevel: string;
    /** `--secret-key-file`, else `WOS_SECRET_KEY_FILE`; undefined: `<data>.key` (a random key for `:memory:`). */
    secretKeyFile?: string;
    requestTimeoutMs: number;
    maxConnections: number;
    shutdownGraceMs: number;
    /** Base of absolute links, validated; undefined: the listening address. */
    publicUrl?: string;
}

class UsageError extends Error {}

function nonNegativeInteger(name: string, value: string): number {
    if (!/^\d+$/.test(value)) throw new UsageError(`--${name} must be a non-negative integer, got '${value}'`);
    return Number(value);
}

function positiveInteger(name: string, value: string): number {
    if (!/^\d+$/.test(value) || Number(value) < 1 || !Number.isSafeInteger(Number(value))) {
        throw new UsageError(`--${name} must be a positive integer, got '${value}'`);
    }
    return Number(value);
}

function parseCli(argv: string[]): Cli | "help" | "version" {
    const { values } = parseArgs({ args: argv, options: OPTIONS, strict: true, allowPositionals: false });
    if (values.help) return "help";
    if (values.version) return "version";
    const port = nonNegativeInteger("port", values.port!);
    if (port > 65535) throw new UsageError(`--port must be at most 65535, got ${port}`);
    const logLevel = values["log-level"]!;
    if (!(LOG_LEVELS as readonly string[]).includes(logLevel)) {
        throw new UsageError(`--log-level must be one of ${LOG_LEVELS.join(", ")}, got '${logLevel}'`);
    }
    let publicUrl: string | undefined;
    if (values["public-url"] !== undefined) {
        try {
            publicUrl = publicBaseUrl(values["public-url"], "--public-url");
        } catch (error) {
            throw new UsageError((error as Error).message);
        }
    }
    const secretKeyFile = values["secret-key-file"] ?? (process.env.WOS_SECRET_KEY_FILE || undefined);
    if (secretKeyFile === "") throw new UsageError("--secret-key-file must name a file");
    return {
        host: values.host!,
        port,
        data: values.data!,
        seed: values.seed,
        planStepMs: nonNegativeInteger("plan-step-ms", values["plan-step-ms"]!),
        rateLimit: nonNegativeInteger("rate-limit", values["rate-limit"]!),
        adminToken: values["admin-token"],
        logLevel,
        secretKeyFile,
        requestTimeoutMs: positiveInteger("request-timeout-ms", values["request-timeout-ms"]!),
        maxConnections: positiveInteger("max-connections", values["max-connections"]!),
        shutdownGraceMs: nonNegativeInteger("shutdown-grace-ms", values["shutdown-grace-ms"]!),
        publicUrl,
    };
}

/** Reads and validates a seed file; every problem names the file and the field. */
function readSeed(path: string): SeedFile {
    let text: string;
    try {
        text = readFileSync(path, "utf8");
    } catch (error) {
        throw new SeedError(`cannot read seed file ${path}: ${(error as Error).message}`);
    }
    let json: unknown;
    try {
        json = JSON.parse(text);
    } catch (error) {
        throw new SeedError(`seed file ${path} is not valid JSON: ${(error as Error).message}`);
    }
    return parseSeed(json, `seed file ${path}`);
}

async function main(): Promise<number> {
    let cli: Cli | "help" | "version";
    try {
        cli = parseCli(process.argv.slice(2));
    } catch (error) {
        process.stderr.write(`wos-server: ${(error as Error).message}\n${USAGE}\n`);
        return 2;
    }
    if (cli === "help") {
        process.stdout.write(helpText());
        return 0;
    }
    if (cli === "version") {
        process.stdout.write(`${serverVersion()}\n`);
        return 0;
    }

    // Signal handlers first: a SIGTERM that arrives as soon as the address line is out (or even during
    // start-up) must still stop the service gracefully rather than kill it.
    let server: Awaited<ReturnType<typeof startServer>> | undefined;
    let stopRequested = false;
    let resolveStopped!: (code: number) => void;
    const stopped = new Promise<number>((resolve) => (resolveStopped = resolve));
    const graceMs = cli.shutdownGraceMs;
    const closeServer = () => {
        // The close is bounded by the grace period (connections.ts); this only guards against a bug that
        // would keep it open. Unreferenced: it fires only while something still holds the process.
        setTimeout(() => {
            process.stderr.write(`wos-server: not stopped ${graceMs + 5000} ms after the signal, exiting\n`);
            process.exit(1);
        }, graceMs + 5000).unref();
        server!.close().then(
            () => resolveStopped(0),
            (error: Error) => {
                process.stderr.write(`wos-server: error while closing: ${error.message}\n`);
                resolveStopped(1);
            },
        );
    };
    const onSignal = (signal: NodeJS.Signals) => {
        if (stopRequested) {
            process.stderr.write(`wos-server: ${signal} again, exiting now\n`);
            process.exit(1);
        }
        stopRequested = true;
        // SIGINT/SIGTERM: stop accepting, let in-flight requests finish, close the database, exit 0.
        if (server) closeServer();
    };
    process.on("SIGINT", onSignal);
    process.on("SIGTERM", onSignal);

    try {
        const seed = cli.seed !== undefined ? readSeed(cli.seed) : undefined;
        server = await startServer({
            dataPath: cli.data,
            seed,
            planStepMs: cli.planStepMs,
            rateLimit: cli.rateLimit,
            adminToken: cli.adminToken,
            logLevel: cli.logLevel,
            secretKeyFile: cli.secretKeyFile,
            requestTimeoutMs: cli.requestTimeoutMs,
            maxConnections: cli.maxConnections,
            shutdownGraceMs: cli.shutdownGraceMs,
            publicUrl: cli.publicUrl,
            host: cli.host,
            port: cli.port,
        });
    } catch (error) {
        const message = error instanceof SeedError ? error.message : `cannot start: ${(error as Error).message}`;
        process.stderr.write(`wos-server: ${message}\n`);
        return 1;
    }

    if (server.app.wos.demoSeedLoaded) {
        const lines = seedTokens(DEMO_SEED).map(
            ({ organization, holder, token }) => `  ${organization.padEnd(8)} ${holder.padEnd(20)} ${token}`,
        );
        process.stderr.write(`wos-server: empty database, loaded the demo seed. Its tokens:\n${lines.join("\n")}\n`);
    }
    process.stdout.write(`wos-server listening on ${server.url}\n`);
    if (stopRequested) closeServer();
    return stopped;
}

main().then(
    (code) => {
        process.exitCode = code;
    },
    (error: Error) => {
        process.stderr.write(`wos-server: ${error.stack ?? error.message}\n`);
        process.exitCode = 1;
    },
);
