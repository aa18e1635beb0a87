#!/usr/bin/env node
/**
 * `wos-server`: the local Workspace Organization Service on the command line (`local-service.md`
 * "Starting it"). Prints `wos-server listening on http://HOST:PORT` on stdout when ready; logs go to stderr.
 */
import { readFileSync } from "node:fs";
import { parseArgs } from "node:util";
import { startServer } from "./app";
import { DEFAULT_MAX_CONNECTIONS, DEFAULT_REQUEST_TIMEOUT_MS, DEFAULT_SHUTDOWN_GRACE_MS } from "./connections";
import { publicBaseUrl } from "./pagination";
import { DEMO_SEED, parseSeed, SeedError, seedTokens, type SeedFile } from "./seed";

const USAGE = `usage: wos-server [--host 127.0.0.1] [--port 8787] [--data .wos/wos.db | :memory:]
                  [--seed FILE.json] [--plan-step-ms 200] [--rate-limit 0] [--admin-token TOKEN]
                  [--log-level info] [--secret-key-file PATH (or WOS_SECRET_KEY_FILE; default DATA.key)]
                  [--request-timeout-ms ${DEFAULT_REQUEST_TIMEOUT_MS}] [--max-connections ${DEFAULT_MAX_CONNECTIONS}]
                  [--shutdown-grace-ms ${DEFAULT_SHUTDOWN_GRACE_MS}] [--public-url URL]`;

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

/** The levels of the service's logger (pino); anything else would stop the start with pino's own message. */
const LOG_LEVELS = ["fatal", "error", "warn", "info", "debug", "trace", "silent"] as const;

function parseCli(argv: string[]): Cli | "help" {
    const { values } = parseArgs({
        args: argv,
        options: {
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
        },
        strict: true,
        allowPositionals: false,
    });
    if (values.help) return "help";
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
    let cli: Cli | "help";
    try {
        cli = parseCli(process.argv.slice(2));
    } catch (error) {
        process.stderr.write(`wos-server: ${(error as Error).message}\n${USAGE}\n`);
        return 2;
    }
    if (cli === "help") {
        process.stdout.write(`${USAGE}\n`);
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
