/**
 * The throughput area's load generator: autocannon (the Fastify org's load tool), in a process of its own so
 * that it has a core's worth of event loop to itself and shares nothing with the bench's bookkeeping.
 * `startLoadGenerator` in `bench/support.ts` forks `node dist/bench/loadGenerator.js`; each IPC message is one
 * {@link LoadWindow}, answered with its {@link WindowFigures} once autocannon has closed every connection, so
 * that no request of one window still reaches a server while the next window runs.
 *
 * autocannon builds each request's bytes once and parses answers with http-parser-js, on a core of its own
 * (the service or the bare route has the other). The load loop over Node's `http.Agent` it replaces parsed
 * every answer into objects in the bench's own process, and that work bound the floor: the bare route made
 * 10,000 to 13,000 requests a second under it, 21,000 to 35,500 under autocannon, whatever more client
 * capacity it was given.
 *
 * @module
 */
import { performance } from "node:perf_hooks";
import autocannon from "autocannon";

/** One window of load: `path` sent over and over on `connections` keep-alive connections. */
export interface LoadWindow {
    /** The base URL the path is appended to, e.g. `http://127.0.0.1:PORT/api/v2`. */
    baseUrl: string;
    path: string;
    headers: Record<string, string>;
    connections: number;
    /** Run first and not counted: a side that sat idle while another ran starts on cold caches. */
    warmupMs: number;
    /** Counted, after the warm-up. */
    durationMs: number;
    /** The only status an answer may have; any other is reported in {@link WindowFigures.unexpected}. */
    expectedStatus: number;
}

/** What one {@link LoadWindow} measured. */
export interface WindowFigures {
    /** Answers completed in the counted part of the window. */
    requests: number;
    /** Length of the counted part, by this process's clock. */
    seconds: number;
    /** Every answer of the window, the warm-up's included: what the server's CPU time was spent on. */
    answered: number;
    /** Answers whose status was not the expected one, and the first such status. */
    unexpected: number;
    firstUnexpectedStatus?: number;
    /** Connection errors and timeouts. */
    errors: number;
}

/**
 * How often autocannon looks at its stop flag (its `sampleInt`): its default of a second would let a window
 * run on for up to a second past its end, into the next side's window.
 */
const STOP_CHECK_MS = 10;

/**
 * Runs one window of load with autocannon in this process and resolves once its connections are closed.
 * The counted part is timed here, from the end of the warm-up to the end of the window, and its answers
 * counted as they arrive, so the figure does not depend on autocannon's own duration (rounded to 10 ms) or
 * on when it gets round to stopping.
 */
export function runWindow(window: LoadWindow): Promise<WindowFigures> {
    return new Promise((resolve, reject) => {
        let answered = 0;
        let unexpected = 0;
        let firstUnexpectedStatus: number | undefined;
        let countedFrom = 0;
        let startedAt = 0;
        let counted: { requests: number; seconds: number } | undefined;
        // Declared first: autocannon calls back at once, before returning, when it refuses its options.
        let finished = false;
        let warmupTimer: NodeJS.Timeout | undefined;
        let endTimer: NodeJS.Timeout | undefined;
        const instance = autocannon(
            {
                url: window.baseUrl.replace(/\/$/, "") + window.path,
                method: "GET",
                headers: window.headers,
                connections: window.connections,
                // A safety net only: the window is ended by `stop()` below.
                duration: (window.warmupMs + window.durationMs) / 1000 + 5,
                sampleInt: STOP_CHECK_MS,
            },
            (error, result) => {
                finished = true;
                clearTimeout(warmupTimer);
                clearTimeout(endTimer);
                if (error) {
                    reject(error instanceof Error ? error : new Error(String(error)));
                    return;
                }
                resolve({
                    requests: counted?.requests ?? 0,
                    seconds: counted?.seconds ?? 0,
                    answered,
                    unexpected,
                    firstUnexpectedStatus,
                    errors: result.errors + result.timeouts,
                });
            },
        );
        if (finished) return;
        instance.on("response", (_client, statusCode) => {
            answered++;
            if (statusCode !== window.expectedStatus) {
                unexpected++;
                firstUnexpectedStatus ??= statusCode;
            }
        });
        warmupTimer = setTimeout(() => {
            countedFrom = answered;
            startedAt = performance.now();
        }, window.warmupMs);
        endTimer = setTimeout(() => {
            counted = { requests: answered - countedFrom, seconds: (performance.now() - startedAt) / 1000 };
            instance.stop();
        }, window.warmupMs + window.durationMs);
    });
}

/** As a child process: one window per IPC message, answered with its figures or `{ error }`. */
function serveWindows(): void {
    process.on("message", (window: LoadWindow) => {
        runWindow(window).then(
            (figures) => process.send!(figures),
            (error: Error) => process.send!({ error: error.stack ?? error.message }),
        );
    });
    // The parent's exit closes the channel: nothing is left to serve.
    process.on("disconnect", () => process.exit(0));
}

if (require.main === module) serveWindows();
