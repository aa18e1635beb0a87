/**
 * Benchmarks of the local service, the client and the providers: `npm run bench` (builds, then runs every
 * area). Each figure is printed beside the floor it is measured against, taken in the same run (and, where
 * issue 6 sets one, the target and whether this run met it); nothing asserts, since figures depend on the
 * machine and on what else runs on it.
 *
 * Areas (`BENCH_AREAS`, comma-separated; default all, in this order):
 * - `list`: the project list at growing sizes (`bench/scale.ts`);
 * - `throughput`: requests a second of a show and a list page beside a bare Fastify route, by autocannon
 *   (`bench/scale.ts`, `bench/loadGenerator.ts`);
 * - `statement`: the search's SQL statement timed inside the service's request and in a warm loop, in this
 *   process (`bench/searchStatement.ts`): why the search sits close to its floor target;
 * - `sdk`: an SDK create beside the same requests over plain keep-alive HTTP (`bench/sdk.ts`);
 * - `provider`: projects through the real provider host beside the thinnest provider and a raw replay
 *   (`bench/provider.ts`);
 * - `cli`: the real `pulumi up` and `destroy` of 200 projects beside the same program on the thinnest
 *   provider, and through the native plugin beside the dynamic resources, with the state's size
 *   (`bench/cli.ts`; the CLI that `tests/cli/setup.sh` builds);
 * - `requests`: requests per provider operation, as a table (`bench/requests.ts`);
 * - `plugin`: the plugin's archive of each platform by size, and its start-up, the single executable beside the
 *   launcher and bare Node.js (`bench/pluginStart.ts`);
 * - `fleet`: 100 and 500 no-code workspaces made and upgraded through the plugin against `--rate-limit 30`,
 *   each `up` beside the least time its requests need at that rate, with its 429s (`bench/fleet.ts`);
 * - `basic`: the figures of earlier issues (`bench/basic.ts`).
 *
 * Sizes: `BENCH_SCALES` (list sizes, default `1000,10000,100000`), `BENCH_THROUGHPUT_SCALES` (default the
 * smallest list size), `BENCH_LIST_SAMPLES` (400), `BENCH_LIST_WARMUP` (500: requests of each list shape
 * sent first and not counted), `BENCH_LIST_BUDGET_MS` (30000: the most one list figure may take once it has
 * 20 samples), `BENCH_CONNECTIONS` (10), `BENCH_LOAD_MS` (3000 of each side), `BENCH_LOAD_WINDOWS` (6),
 * `BENCH_MORE_CONNECTIONS` (4 times `BENCH_CONNECTIONS`) and `BENCH_MORE_GENERATORS` (2: the more-client loads
 * of the bare route), `BENCH_SDK_CREATES` (1000, half by each client), `BENCH_SDK_WARMUP` (5000 of each, not counted), `BENCH_PROVIDER_RESOURCES` (1000 of each kind), `BENCH_PROVIDER_BLOCK` (100), `BENCH_PROVIDER_IN_FLIGHT` (10),
 * `BENCH_STATEMENT_SIZE` (10000), `BENCH_STATEMENT_SAMPLES` (3000), `BENCH_PROJECTS` (1000), `BENCH_VARIABLES`
 * (500), `BENCH_UPGRADES` (5), `BENCH_CLI_PROJECTS` (200), `BENCH_CLI_ROUNDS` (2), `BENCH_PLUGIN_STARTS` (15), `BENCH_FLEET_SIZES` (`100,500`). A quick run:
 * `BENCH_SCALES=1000,10000 BENCH_PROVIDER_RESOURCES=100 BENCH_LIST_SAMPLES=50 npm run bench`.
 *
 * Every service runs as its own process through the real CLI (`dist/server/main.js`) on a file database,
 * so its memory and CPU are measured apart from the client's and the start path is the one users run.
 */
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { benchBasic } from "./basic";
import { benchCli } from "./cli";
import { benchFleet } from "./fleet";
import { benchPluginStart } from "./pluginStart";
import { benchProvider } from "./provider";
import { benchRequests } from "./requests";
import { benchScale } from "./scale";
import { benchSdk } from "./sdk";
import { benchSearchStatement } from "./searchStatement";
import { envList, startServerProcess, writeSeed, type ServerProcess } from "./support";

const AREAS = ["list", "throughput", "statement", "sdk", "provider", "cli", "requests", "plugin", "fleet", "basic"] as const;
type Area = (typeof AREAS)[number];

/** Runs `work` against a service of its own on a fresh file database (seeded), then stops it. */
async function withFreshServer(options: string[], work: (server: ServerProcess) => Promise<void>): Promise<void> {
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "wos-bench-"));
    try {
        const server = await startServerProcess(path.join(dataDir, "wos.db"), writeSeed(dataDir), options);
        try {
            await work(server);
        } finally {
            await server.stop();
        }
    } finally {
        fs.rmSync(dataDir, { recursive: true, force: true });
    }
}

async function main(): Promise<void> {
    const areas = envList("BENCH_AREAS", AREAS);
    const unknown = areas.filter((area) => !(AREAS as readonly string[]).includes(area));
    if (unknown.length > 0) throw new Error(`BENCH_AREAS: unknown area(s) ${unknown.join(", ")}; known: ${AREAS.join(", ")}`);
    const picked = (area: Area) => areas.includes(area);
    const sizes = envList("BENCH_SCALES", ["1000", "10000", "100000"]).map(Number);
    if (sizes.some((size) => !Number.isInteger(size) || size < 100)) throw new Error("BENCH_SCALES: whole numbers of at least 100");
    const throughputSizes = envList("BENCH_THROUGHPUT_SCALES", [String(Math.min(...sizes))]).map(Number);
    const started = Date.now();
    // The load average says how idle the machine was: every figure moves with what else runs on it.
    const load = os.loadavg().map((value) => value.toFixed(2)).join(" ");
    console.log(`# wos benchmarks: ${areas.join(", ")}; node ${process.version}, ${os.cpus().length} cores, load average ${load}, ${new Date().toISOString()}`);

    if (picked("list") || picked("throughput")) {
        await benchScale({ sizes: picked("list") ? sizes : [], list: picked("list"), throughputSizes: picked("throughput") ? throughputSizes : [] });
    }
    if (picked("statement")) await benchSearchStatement();
    if (picked("sdk")) await withFreshServer([], benchSdk);
    if (picked("provider")) await withFreshServer([], benchProvider);
    if (picked("cli")) await withFreshServer([], benchCli);
    // Short plan steps: the table counts an upgrade's requests, not its wait.
    if (picked("requests")) await withFreshServer(["--plan-step-ms", "20"], benchRequests);
    if (picked("plugin")) await benchPluginStart();
    if (picked("fleet")) await benchFleet();
    if (picked("basic")) await withFreshServer([], benchBasic);
    console.log(`\n# done in ${Math.round((Date.now() - started) / 1000)} s`);
}

main().catch((error) => {
    console.error(error instanceof Error ? (error.stack ?? error.message) : error);
    process.exit(1);
});
