/**
 * Areas `list` and `throughput`: the project list of one large organization at growing sizes, and the
 * requests a second of a show and a list page beside a bare Fastify route serving the same bytes.
 *
 * One database grows from size to size: rows are written straight into the file (`growProjects`) while no
 * service runs, then `wos-server` starts on it through the CLI and is measured, then stopped. Each size thus
 * meets a fresh process, so its resident memory is that size's. Every figure is printed beside its floor
 * from the same run:
 * - the first page of 20 (p50, p99), beside the same page and counts read straight from SQLite; the growth
 *   from the smallest to the largest size; the service's resident memory after the measurements, and peak;
 * - `q` with `sort=name`, a middle page, beside the same page and counts read straight from SQLite (with the
 *   substring index when the schema has one: a trigram FTS5 table over project names);
 * - `GET /projects/:id` and a list page of 20, requests a second by autocannon (in a process of its own) on
 *   N keep-alive connections, beside a bare Fastify route answering the same bytes to the same load, and
 *   the bare route again with more client capacity, to show that the floor is not bound by its client.
 *
 * The list's latencies are taken by the wire-level client (`WireClient`: request bytes written once, answers
 * read only as far as their framing), in blocks alternating with blocks of the floor; the search is printed
 * by Node's `http.request` client as well, whose own work on each answer that figure includes.
 *
 * The search term matches the same number of projects at every size (see `SEARCH_MATCHES`): a selective
 * search, whose cost should not grow with the table.
 *
 * @module
 */
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { performance } from "node:perf_hooks";
import Database from "better-sqlite3";
import {
    ORGANIZATION,
    SEARCH_MATCHES,
    SEARCH_TERM,
    TOKEN,
    HttpClient,
    alternatingLoad,
    createDatabase,
    envNumber,
    growProjects,
    heading,
    latencies,
    percentile,
    report,
    reportBeside,
    reportEachRatio,
    reportLimit,
    residentMemory,
    startScript,
    startLoadGenerator,
    startServerProcess,
    wireLatencies,
    writeSeed,
    WireClient,
    type LoadGenerator,
    type ServerProcess,
} from "./support";

/** The targets of issue 6 (Scale). */
const TARGETS = {
    firstPageP50Ms: 5,
    firstPageP99Ms: 15,
    growth: 1.5,
    rssAtLargestMiB: 200,
    searchVsFloor: 2,
    showVsBare: 0.6,
    listVsBare: 0.3,
};

const PAGE_SIZE = 20;
/** The middle page of the search: its matches fill `SEARCH_MATCHES / PAGE_SIZE` pages. */
const SEARCH_PAGE = Math.ceil(SEARCH_MATCHES / PAGE_SIZE / 2);

const FIRST_PAGE_PATH = `/organizations/${ORGANIZATION}/projects?page%5Bsize%5D=${PAGE_SIZE}`;
const SEARCH_PATH = `/organizations/${ORGANIZATION}/projects?q=${SEARCH_TERM}&sort=name&page%5Bnumber%5D=${SEARCH_PAGE}&page%5Bsize%5D=${PAGE_SIZE}`;

/** What the area measured at one size. */
interface SizeResult {
    size: number;
    firstP50: number;
    firstP99: number;
}

/**
 * The same pages and counts the list answers, read straight from the database file with prepared statements:
 * the floor of the list figures. It uses what the schema offers: the trigram index of names for a search, a
 * kept count of an organization's projects, and each project's kept workspace and team counts (columns of
 * its row, read with it) when the schema has them; a scan or a count per project otherwise.
 */
class SqliteFloor {
    readonly #db: Database.Database;
    readonly #page: Database.Statement;
    readonly #searchPage: Database.Statement;
    readonly #searchCount: Database.Statement;
    readonly #total: Database.Statement;
    readonly #workspaceCount: Database.Statement;
    readonly #teamCount: Database.Statement;
    /** Whether each project's row keeps its workspace and team counts (schema 5 on). */
    readonly #keptCounts: boolean;
    readonly #matchArgument: string;
    /** Whether the search statements take the match before the organization (the index-driven form). */
    readonly #ftsFirst: boolean;
    /** How the floor searches: `trigram index project_names` or `LIKE scan`. */
    readonly searchMethod: string;

    constructor(databasePath: string) {
        this.#db = new Database(databasePath, { readonly: true, fileMustExist: true });
        const fts = this.#db
            .prepare("SELECT name FROM sqlite_master WHERE type = 'table' AND sql LIKE '%fts5%' AND sql LIKE '%trigram%' AND sql LIKE '%projects%'")
            .get() as { name: string } | undefined;
        const countTable = this.#db.prepare("SELECT name FROM sqlite_master WHERE type = 'table' AND name = 'organization_project_counts'").get();
        const columns = (this.#db.prepare("SELECT name FROM pragma_table_info('projects')").all() as { name: string }[]).map((column) => column.name);
        this.#keptCounts = columns.includes("workspace_count") && columns.includes("team_count");
        // `+?` for LIMIT, OFFSET and LIKE values, as the service binds them: a bare bound one makes SQLite prepare
        // the statement anew on every run (PAGE_BOUNDS_SQL in server/pagination.ts), which would slow the floor.
        this.#page = this.#db.prepare("SELECT * FROM projects WHERE organization = ? ORDER BY rowid LIMIT +? OFFSET +?");
        if (fts) {
            // The index drives (CROSS JOIN keeps that order): SQLite would otherwise walk the organization's
            // projects by name and probe each, which grows with the table.
            const matching = `"${fts.name}" f CROSS JOIN projects p ON p.rowid = f.rowid WHERE f."${fts.name}" MATCH ? AND p.organization = ?`;
            this.#searchPage = this.#db.prepare(`SELECT p.* FROM ${matching} ORDER BY p.name LIMIT +? OFFSET +?`);
            this.#searchCount = this.#db.prepare(`SELECT COUNT(*) AS n FROM ${matching}`);
            this.#ftsFirst = true;
            this.#matchArgument = `"${SEARCH_TERM.replace(/"/g, '""')}"`;
            this.searchMethod = `trigram index ${fts.name}`;
        } else {
            this.#searchPage = this.#db.prepare("SELECT * FROM projects WHERE organization = ? AND name LIKE +? ORDER BY name LIMIT +? OFFSET +?");
            this.#searchCount = this.#db.prepare("SELECT COUNT(*) AS n FROM projects WHERE organization = ? AND name LIKE +?");
            this.#matchArgument = `%${SEARCH_TERM}%`;
            this.#ftsFirst = false;
            this.searchMethod = "LIKE scan (no substring index in this schema)";
        }
        this.#total = countTable
            ? this.#db.prepare("SELECT project_count AS n FROM organization_project_counts WHERE organization = ?")
            : this.#db.prepare("SELECT COUNT(*) AS n FROM projects WHERE organization = ?");
        this.#workspaceCount = this.#db.prepare("SELECT COUNT(*) AS n FROM workspaces WHERE project_id = ?");
        this.#teamCount = this.#db.prepare("SELECT COUNT(*) AS n FROM team_project_access WHERE project_id = ?");
    }

    /**
     * Workspace and team counts of each project of a page, as the list renders them: the row's own kept
     * columns (already read with it by `SELECT *`) when the schema keeps them, else two counts a project.
     */
    #counts(rows: { id: string; workspace_count?: number; team_count?: number }[]): number {
        let sum = 0;
        for (const row of rows) {
            sum += this.#keptCounts
                ? row.workspace_count! + row.team_count!
                : (this.#workspaceCount.get(row.id) as { n: number }).n + (this.#teamCount.get(row.id) as { n: number }).n;
        }
        return sum;
    }

    /** How the floor reads each project's counts, for the report. */
    get countMethod(): string {
        return this.#keptCounts ? "kept count columns" : "two counts a project";
    }

    /** The first page of the organization in creation order, its total and its counts: the ids. */
    firstPage(): string[] {
        const rows = this.#page.all(ORGANIZATION, PAGE_SIZE, 0) as { id: string }[];
        void this.#total.get(ORGANIZATION);
        this.#counts(rows);
        return rows.map((row) => row.id);
    }

    /** The search's middle page by name, the total, the matching count and the page's counts: the ids. */
    searchPage(): string[] {
        const where = this.#ftsFirst ? [this.#matchArgument, ORGANIZATION] : [ORGANIZATION, this.#matchArgument];
        const rows = this.#searchPage.all(...where, PAGE_SIZE, (SEARCH_PAGE - 1) * PAGE_SIZE) as { id: string }[];
        void this.#total.get(ORGANIZATION);
        void this.#searchCount.get(...where);
        this.#counts(rows);
        return rows.map((row) => row.id);
    }

    close(): void {
        this.#db.close();
    }
}

/** How many service requests, then floor runs, alternate in {@link sideBySide}. */
const SIDE_BY_SIDE_BLOCK = 50;
/**
 * Requests, and floor runs, not counted at the start of each block: the floor is a warm loop, whatever ran
 * before it, and the service's first requests after a floor block meet caches the floor has just filled.
 * The floor needs more of them: with 10, its p50 after a block of requests was up to 1.8x its warm loop's.
 */
const SERVICE_BLOCK_WARMUP = 10;
const FLOOR_BLOCK_WARMUP = 50;

/**
 * The service's latencies for `requestPath` (by the wire-level client) and the floor's for the same page
 * (`floorWork`, in this process), in milliseconds, sorted: measured in alternating blocks of
 * {@link SIDE_BY_SIDE_BLOCK}, so that both meet the same stretches of this shared machine. A floor taken
 * in one block lands now and then on a slow stretch (its p50 on this machine: 0.29 to 0.32 ms in most
 * blocks of 200 runs, 0.54 to 0.68 ms in some), and a ratio against it would say more of the moment than
 * of the service. Each block of either starts with some not counted ({@link SERVICE_BLOCK_WARMUP},
 * {@link FLOOR_BLOCK_WARMUP}), so that neither is timed just after the other has filled the caches.
 * `warmup` requests go first, not counted; past `budgetMs` (the code before the list moved into SQL) the
 * blocks stop after 20 samples.
 */
async function sideBySide(
    wire: WireClient,
    requestPath: string,
    floorWork: () => unknown,
    samples: number,
    warmup: number,
    budgetMs: number,
): Promise<{ service: number[]; floor: number[] }> {
    const service = await wireLatencies(wire, requestPath, 0, warmup);
    const floor: number[] = [];
    const end = performance.now() + budgetMs;
    while (service.length < samples && !(service.length >= 20 && performance.now() > end)) {
        service.push(...(await wireLatencies(wire, requestPath, Math.min(SIDE_BY_SIDE_BLOCK, samples - service.length), SERVICE_BLOCK_WARMUP)));
        for (let i = 0; i < FLOOR_BLOCK_WARMUP; i++) floorWork();
        for (let i = 0; i < SIDE_BY_SIDE_BLOCK; i++) {
            const started = performance.now();
            floorWork();
            floor.push(performance.now() - started);
        }
    }
    return { service: service.sort((a, b) => a - b), floor: floor.sort((a, b) => a - b) };
}

/** Warns when the service's page is not the floor's: the two would not measure the same thing. */
function checkSamePage(what: string, answer: { data: { id: string }[] }, floorIds: string[]): void {
    const ids = answer.data.map((item) => item.id);
    if (JSON.stringify(ids) !== JSON.stringify(floorIds)) {
        console.log(`WARNING: ${what}: the service's page (${ids.length} ids) differs from the floor's (${floorIds.length}); the figures compare different work`);
    }
}

/** Options of the area, from the environment. */
export interface ScaleOptions {
    sizes: number[];
    list: boolean;
    /** Sizes at which the throughput figures are taken (default: the smallest). */
    throughputSizes: number[];
}

/** Runs the list and throughput figures at each size. */
export async function benchScale(options: ScaleOptions): Promise<void> {
    const samples = envNumber("BENCH_LIST_SAMPLES", 400);
    const budgetMs = envNumber("BENCH_LIST_BUDGET_MS", 30_000);
    // Requests of each shape sent before the measured ones: a freshly started service runs its request path
    // unoptimised for its first few hundred requests (V8 has not compiled it yet), while the floor is a warm
    // loop of prepared statements. Steady state is what both sides are measured in.
    const warmup = envNumber("BENCH_LIST_WARMUP", 500);
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "wos-bench-scale-"));
    const databasePath = path.join(dataDir, "wos.db");
    const seedPath = writeSeed(dataDir);
    try {
        await createDatabase(databasePath, seedPath);
        const results: SizeResult[] = [];
        const sizes = [...new Set([...options.sizes, ...options.throughputSizes])].sort((a, b) => a - b);
        for (const size of sizes) {
            const started = performance.now();
            growProjects(databasePath, size);
            const growMs = performance.now() - started;
            const server = await startServerProcess(databasePath);
            try {
                heading(`project list at ${size.toLocaleString("en-US")} projects (rows written straight into the file in ${Math.round(growMs)} ms)`);
                if (options.list && options.sizes.includes(size)) {
                    results.push(await listFigures(server, databasePath, size, samples, warmup, budgetMs));
                }
                if (options.throughputSizes.includes(size)) await throughputFigures(server);
            } finally {
                await server.stop();
            }
        }
        if (results.length >= 2) {
            const first = results[0];
            const last = results[results.length - 1];
            heading(`growth of the first page from ${first.size.toLocaleString("en-US")} to ${last.size.toLocaleString("en-US")} projects`);
            reportLimit("first page p50 growth", last.firstP50 / first.firstP50, "x", TARGETS.growth);
            report("first page p99 growth", last.firstP99 / first.firstP99, "x");
        }
    } finally {
        fs.rmSync(dataDir, { recursive: true, force: true });
    }
}

async function listFigures(server: ServerProcess, databasePath: string, size: number, samples: number, warmup: number, budgetMs: number): Promise<SizeResult> {
    const client = new HttpClient(`${server.url}/api/v2`, TOKEN, 1);
    const wire = await WireClient.connect(`${server.url}/api/v2`, TOKEN);
    const floor = new SqliteFloor(databasePath);
    try {
        checkSamePage("first page", await client.json("GET", FIRST_PAGE_PATH, undefined, 200), floor.firstPage());
        const { service: first, floor: firstFloor } = await sideBySide(wire, FIRST_PAGE_PATH, () => floor.firstPage(), samples, warmup, budgetMs);
        const p50 = percentile(first, 0.5);
        const p99 = percentile(first, 0.99);
        console.log(
            `(${first.length} requests one after another on one keep-alive connection by the wire-level client, after ${warmup} not counted, in blocks of ${SIDE_BY_SIDE_BLOCK} alternating with as many runs of the floor)`,
        );
        reportBeside("first page of 20, p50", p50, "SQLite, same page and counts", percentile(firstFloor, 0.5), "ms");
        reportBeside("first page of 20, p99", p99, "SQLite, same page and counts", percentile(firstFloor, 0.99), "ms");
        reportLimit("first page of 20, p50", p50, "ms", TARGETS.firstPageP50Ms);
        reportLimit("first page of 20, p99", p99, "ms", TARGETS.firstPageP99Ms);

        checkSamePage("search page", await client.json("GET", SEARCH_PATH, undefined, 200), floor.searchPage());
        const { service: search, floor: searchFloor } = await sideBySide(wire, SEARCH_PATH, () => floor.searchPage(), samples, warmup, budgetMs);
        const searchP50 = percentile(search, 0.5);
        const searchFloorP50 = percentile(searchFloor, 0.5);
        console.log(
            `(q=${SEARCH_TERM} matches ${SEARCH_MATCHES} projects at every size; page ${SEARCH_PAGE} by name; floor by ${floor.searchMethod}, counts by ${floor.countMethod})`,
        );
        reportBeside(`q + sort=name, page ${SEARCH_PAGE} of 20, p50`, searchP50, "SQLite, same page and counts", searchFloorP50, "ms", {
            ratio: TARGETS.searchVsFloor,
        });
        reportBeside(`q + sort=name, page ${SEARCH_PAGE} of 20, p99`, percentile(search, 0.99), "SQLite, same page and counts", percentile(searchFloor, 0.99), "ms");
        // The same requests through Node's http.request (the HttpClient every other area uses), whose own
        // parsing of each answer is in this figure: printed so the client's share is visible, not hidden.
        const searchByNode = await latencies(client, "GET", SEARCH_PATH, samples, warmup, budgetMs);
        reportBeside(
            `q + sort=name, page ${SEARCH_PAGE}, p50 by Node's http.request client`,
            percentile(searchByNode, 0.5),
            "SQLite, same page and counts",
            searchFloorP50,
            "ms",
        );
        // The HTTP exchange alone: a bare Fastify route answering the same bytes to the same client, one
        // request after another. The floor above is in-process SQLite with no exchange at all, so this part of
        // the service's figure is one no service over HTTP can avoid; the service's own time is the rest.
        const exchange = await bareRouteLatencies(await client.send("GET", SEARCH_PATH), SEARCH_PATH, samples, warmup, budgetMs);
        const exchangeP50 = percentile(exchange, 0.5);
        report(`q + sort=name, page ${SEARCH_PAGE}: the same bytes from a bare Fastify route, p50`, exchangeP50, "ms");
        reportBeside(`q + sort=name, page ${SEARCH_PAGE}, p50 less the bare route's`, searchP50 - exchangeP50, "SQLite, same page and counts", searchFloorP50, "ms");
        // What the search adds over the first page, in the service and in SQLite: the per-request costs both
        // pages share (HTTP, authentication, rendering) drop out.
        reportBeside(
            "q + sort=name, its cost over the first page, p50",
            searchP50 - p50,
            "the same difference in SQLite",
            searchFloorP50 - percentile(firstFloor, 0.5),
            "ms",
        );

        const memory = residentMemory(server.pid);
        report("server resident memory after these requests", memory.current, "MiB");
        if (size >= 100_000) reportLimit("server peak resident memory", memory.peak, "MiB", TARGETS.rssAtLargestMiB);
        else report("server peak resident memory", memory.peak, "MiB");
        return { size, firstP50: p50, firstP99: p99 };
    } finally {
        floor.close();
        wire.close();
        client.close();
    }
}

/**
 * Latencies by the wire-level client of `samples` requests one after another, after `warmup` not counted, to a bare Fastify route in its
 * own process answering `answer`'s bytes at `requestPath`'s path (the query is not read).
 */
async function bareRouteLatencies(answer: { headers: Record<string, unknown>; body: Buffer }, requestPath: string, samples: number, warmup: number, budgetMs: number): Promise<number[]> {
    const routesFile = path.join(os.tmpdir(), `wos-bench-bare-latency-${process.pid}.json`);
    fs.writeFileSync(
        routesFile,
        JSON.stringify([
            {
                path: `/api/v2${requestPath.split("?")[0]}`,
                contentType: String(answer.headers["content-type"] ?? "application/vnd.api+json"),
                body: answer.body.toString("base64"),
            },
        ]),
    );
    const bare = await startScript(path.join(__dirname, "bareRoute.js"), [routesFile]);
    const client = await WireClient.connect(`${bare.url}/api/v2`, TOKEN);
    try {
        return await wireLatencies(client, requestPath, samples, warmup, budgetMs);
    } finally {
        client.close();
        await bare.stop();
        fs.rmSync(routesFile, { force: true });
    }
}

/**
 * The first moments of every throughput window, not counted: a side that sat idle while the other ran starts
 * on cold caches (the list's latency blocks skip their first requests for the same reason).
 */
const WINDOW_WARMUP_MS = 100;
/** Load on each side before its windows, not counted: the service's request path is not compiled yet. */
const LOAD_WARMUP_MS = 500;
/**
 * How much more the floor may make with more client capacity and still be called not bound by its client:
 * two runs of one figure on this machine differ by about this much.
 */
const CLIENT_BOUND_TOLERANCE = 0.1;

/**
 * Requests a second of `GET /projects/:id` and of the first list page of 20, each beside the bare route
 * serving the bytes the service answered, on the same connections of the same load generator for the same
 * time, and the process's CPU a request of each. In the same windows the bare route is also loaded with more
 * client capacity, more connections from one generator and more generator processes: a floor is only the
 * best the floor can do if more client gives it no more requests a second, and the line after each figure
 * says whether that held. (Not pipelining: it would change the bare route's work, one read for several
 * requests, not only the client's.)
 */
async function throughputFigures(server: ServerProcess): Promise<void> {
    const connections = envNumber("BENCH_CONNECTIONS", 10);
    const moreConnections = envNumber("BENCH_MORE_CONNECTIONS", connections * 4);
    const moreGenerators = Math.max(2, envNumber("BENCH_MORE_GENERATORS", 2));
    const durationMs = envNumber("BENCH_LOAD_MS", 3000);
    const windows = Math.max(1, envNumber("BENCH_LOAD_WINDOWS", 6));
    const apiUrl = `${server.url}/api/v2`;
    const client = new HttpClient(apiUrl, TOKEN, 1);
    const page = await client.send("GET", FIRST_PAGE_PATH);
    const projectId = (JSON.parse(page.body.toString("utf8")) as { data: { id: string }[] }).data[5].id;
    const showPath = `/projects/${projectId}`;
    const show = await client.send("GET", showPath);
    client.close();

    const routesFile = path.join(os.tmpdir(), `wos-bench-bare-${process.pid}.json`);
    const route = (requestPath: string, answer: typeof page) => ({
        path: `/api/v2${requestPath.split("?")[0]}`,
        contentType: String(answer.headers["content-type"] ?? "application/vnd.api+json"),
        body: answer.body.toString("base64"),
    });
    fs.writeFileSync(routesFile, JSON.stringify([route(showPath, show), route(FIRST_PAGE_PATH, page)]));
    const bare = await startScript(path.join(__dirname, "bareRoute.js"), [routesFile]);
    const generators: LoadGenerator[] = [];
    try {
        for (let i = 0; i < moreGenerators; i++) generators.push(startLoadGenerator());
        const floorSide = { baseUrl: `${bare.url}/api/v2`, pid: bare.child.pid!, generators: 1, connections };
        const moreClient = [
            { side: { ...floorSide, connections: moreConnections }, name: `1 autocannon process of ${moreConnections} connections` },
            { side: { ...floorSide, generators: moreGenerators }, name: `${moreGenerators} autocannon processes of ${connections} connections each` },
        ];
        const sides = [{ ...floorSide, baseUrl: apiUrl, pid: server.pid }, floorSide, ...moreClient.map((more) => more.side)];
        console.log(
            `(requests a second by autocannon, in a process of its own, on ${connections} keep-alive connections; the bare route also by ` +
                `${moreClient.map((more) => more.name).join(" and by ")}; ${durationMs} ms of each in ${windows} windows taking turns, ` +
                `after ${LOAD_WARMUP_MS} ms of each and the first ${WINDOW_WARMUP_MS} ms of every window not counted; the median window's)`,
        );
        for (const [name, requestPath, target] of [
            [`GET /projects/:id (${show.body.length} bytes)`, showPath, TARGETS.showVsBare],
            [`list page of 20 (${page.body.length} bytes)`, FIRST_PAGE_PATH, TARGETS.listVsBare],
        ] as const) {
            const [ours, floor, ...floorMore] = await alternatingLoad({
                sides,
                generators,
                path: requestPath,
                // The bare route ignores the headers, but reads their bytes as the service does.
                headers: { accept: "application/vnd.api+json", authorization: `Bearer ${TOKEN}` },
                durationMs,
                windows,
                warmupMs: LOAD_WARMUP_MS,
                windowWarmupMs: WINDOW_WARMUP_MS,
            });
            const shortName = name.split(" (")[0];
            reportBeside(name, ours!.requestsPerSecond, "bare Fastify route, same bytes", floor!.requestsPerSecond, "req/s", {
                ratio: target,
                higherIsBetter: true,
            });
            reportEachRatio("window", ours!.windows, floor!.windows);
            reportBeside(`${shortName}, the process's CPU a request`, ours!.cpuPerRequestUs, "the bare route's", floor!.cpuPerRequestUs, "µs");
            for (const [index, more] of moreClient.entries()) {
                reportBeside(`${shortName}, the bare route by ${more.name}`, floorMore[index]!.requestsPerSecond, "the floor above", floor!.requestsPerSecond, "req/s");
            }
            const gain = Math.max(...floorMore.map((figures) => figures.requestsPerSecond)) / floor!.requestsPerSecond - 1;
            const verdict =
                gain <= CLIENT_BOUND_TOLERANCE
                    ? `held: more client capacity gave the bare route ${gain >= 0.005 ? `at most ${percent(gain)} more` : "no more"} (limit ${percent(CLIENT_BOUND_TOLERANCE)}), so the floor is not bound by its client`
                    : `NOT held: more client capacity gave the bare route ${percent(gain)} more (limit ${percent(CLIENT_BOUND_TOLERANCE)}), so the floor above is bound by its client and the ratio flatters the service`;
            // CPU time over wall time: near 100% the bare route is saturated (the service's, with V8's helper threads, may pass 100%).
            console.log(
                `  (${verdict}; CPU time over wall time of those windows: the bare route's ${[floor!, ...floorMore].map((figures) => percent(figures.busy)).join(", ")}, the service's ${percent(ours!.busy)})`,
            );
        }
    } finally {
        await Promise.all(generators.map((generator) => generator.stop()));
        await bare.stop();
        fs.rmSync(routesFile, { force: true });
    }
}

/** `0.973` as `97%`. */
function percent(share: number): string {
    return `${Math.round(share * 100)}%`;
}
