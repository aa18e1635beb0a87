/**
 * Area `statement`: why the search page sits close to its target of 2x the SQLite floor (issue 6). The
 * floor reads the page in a warm loop of prepared statements, one after another; the service runs the same
 * kind of statement once per request, between parsing, authentication, rendering and the HTTP exchange,
 * which push SQLite's pages and code out of the processor's caches (2 MiB of L2 a core on the development
 * machine). So the same statement costs more inside a request than in the floor's loop, whatever the
 * service's own code costs.
 *
 * In this process, on a file database of `BENCH_STATEMENT_SIZE` projects (10,000), with the service's own
 * app (`buildApp`, requests through Fastify's `inject`, no socket) and its own connection, the search's
 * statement (q + sort=name, the middle page) is timed:
 * - in a warm loop, as the floor runs;
 * - inside the service's list request (the statement's `all` wrapped with a timer, nothing else changed);
 * - right after one request of the cheapest kind (ping, answered before any SQL), so only Fastify's
 *   request path ran in between.
 *
 * @module
 */
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { performance } from "node:perf_hooks";
import type Database from "better-sqlite3";
import { buildApp } from "../server/app";
import {
    ORGANIZATION,
    SEARCH_MATCHES,
    SEARCH_TERM,
    TOKEN,
    createDatabase,
    envNumber,
    growProjects,
    heading,
    percentile,
    reportBeside,
    writeSeed,
} from "./support";

const PAGE_SIZE = 20;
const SEARCH_PAGE = Math.ceil(SEARCH_MATCHES / PAGE_SIZE / 2);
const SEARCH_URL = `/api/v2/organizations/${ORGANIZATION}/projects?q=${SEARCH_TERM}&sort=name&page%5Bnumber%5D=${SEARCH_PAGE}&page%5Bsize%5D=${PAGE_SIZE}`;
const HEADERS = { authorization: `Bearer ${TOKEN}`, accept: "application/vnd.api+json" };

/** Times the search statement in the three settings and prints each beside the warm loop. */
export async function benchSearchStatement(): Promise<void> {
    const size = envNumber("BENCH_STATEMENT_SIZE", 10_000);
    const samples = envNumber("BENCH_STATEMENT_SAMPLES", 3000);
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "wos-bench-statement-"));
    const databasePath = path.join(dataDir, "wos.db");
    try {
        await createDatabase(databasePath, writeSeed(dataDir));
        growProjects(databasePath, size);
        const app = await buildApp({ dataPath: databasePath, logLevel: "silent" });
        try {
            // Find the search's statement: the one prepared statement a search request runs that is not the
            // token's look-up (cached after the first request).
            const search = () => app.inject({ method: "GET", url: SEARCH_URL, headers: HEADERS });
            for (let i = 0; i < 500; i++) await search();
            const probe = interceptSearchStatement(app.wos.db);
            for (let i = 0; i < samples; i++) {
                const answer = await search();
                if (answer.statusCode !== 200) throw new Error(`the search answered ${answer.statusCode}`);
            }
            const inRequest = probe.timings.splice(0).sort((a, b) => a - b);
            probe.restore();
            if (inRequest.length === 0) throw new Error("no search statement was seen: the list no longer searches through project_names");

            const parameters = probe.parameters;
            const run = () => probe.run(parameters);
            const warm: number[] = [];
            for (let i = 0; i < 500; i++) run();
            for (let i = 0; i < samples; i++) warm.push(time(run));
            warm.sort((a, b) => a - b);

            const afterPing: number[] = [];
            for (let i = 0; i < samples; i++) {
                await app.inject({ method: "GET", url: "/api/v2/ping" });
                afterPing.push(time(run));
            }
            afterPing.sort((a, b) => a - b);

            heading(`the search's statement at ${size.toLocaleString("en-US")} projects (q=${SEARCH_TERM}, sort=name, page ${SEARCH_PAGE}): the same statement, parameters and connection`);
            reportBeside("inside the service's list request, p50", percentile(inRequest, 0.5), "the same in a warm loop", percentile(warm, 0.5), "ms");
            reportBeside("right after a ping through Fastify, p50", percentile(afterPing, 0.5), "the same in a warm loop", percentile(warm, 0.5), "ms");
        } finally {
            await app.close();
        }
    } finally {
        fs.rmSync(dataDir, { recursive: true, force: true });
    }
}

/** Milliseconds `work` took. */
function time(work: () => unknown): number {
    const started = performance.now();
    work();
    return performance.now() - started;
}

/**
 * Wraps `all` of the statements of `db` with a timer for the search's statement (its text names the trigram
 * index), and hands back that statement (to run it alone, with the parameters it was last given) and its
 * timings; the statement and its parameters are those of the last search request seen.
 */
function interceptSearchStatement(db: Database.Database): {
    run(parameters: unknown): unknown;
    restore(): void;
    readonly parameters: unknown;
    timings: number[];
} {
    const prototype = Object.getPrototypeOf(db.prepare("SELECT 1")) as { all(this: Database.Statement, ...args: unknown[]): unknown };
    const original = prototype.all;
    const timings: number[] = [];
    const seen: { statement?: Database.Statement; parameters?: unknown } = {};
    prototype.all = function (this: Database.Statement, ...args: unknown[]) {
        if (!this.source.includes("project_names MATCH")) return original.apply(this, args);
        seen.statement = this;
        seen.parameters = args[0];
        const started = performance.now();
        try {
            return original.apply(this, args);
        } finally {
            timings.push(performance.now() - started);
        }
    };
    return {
        run: (parameters) => original.call(seen.statement!, parameters),
        restore: () => {
            prototype.all = original;
        },
        get parameters() {
            return seen.parameters;
        },
        timings,
    };
}
