/**
 * Benchmarks of the local service driven through the SDK over real HTTP on 127.0.0.1.
 *
 * Prints one line per figure (`name: value unit`) so the README can quote them and a later run can be
 * compared by eye. Nothing here asserts: figures depend on the machine. Run with `npm run bench`.
 *
 * Figures:
 * - project creates per second (each one a transaction and a fsync'd WAL write on a file database);
 * - latency of one page of the project list (size 100) out of N projects, median and p95;
 * - time to walk every page of N projects with `listAll`;
 * - variable creates per second;
 * - one whole no-code workspace upgrade through the SDK (initiate, `waitForPlan`, confirm) at the default
 *   `--plan-step-ms`: requests made, wall time beside its floor (the plan's own length), and the delay from
 *   the plan reaching `planned` to the confirm;
 * - resident memory of the server process after the run, and its peak.
 *
 * The server runs as its own process through the real CLI (`dist/server/main.js`), so its memory is
 * measured apart from the client's and the start path is the one users run.
 */
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { spawn, type ChildProcess } from "node:child_process";
import { performance } from "node:perf_hooks";
import * as readline from "node:readline";
import * as http from "node:http";
import { WosClient } from "../sdk";

const PROJECTS = Number(process.env.BENCH_PROJECTS ?? 1000);
const VARIABLES = Number(process.env.BENCH_VARIABLES ?? 500);
const LIST_SAMPLES = Number(process.env.BENCH_LIST_SAMPLES ?? 200);

const UPGRADES = Number(process.env.BENCH_UPGRADES ?? 5);

const TOKEN = "bench-owners-token";
const WORKSPACE_ID = "ws-bench00000000001";
const REGISTRY_MODULE_ID = "mod-bench0000000001";
/** The server's default `--plan-step-ms`: the bench measures the upgrade as users meet it. */
const PLAN_STEP_MS = 200;
/** Steps from `pending` to `planned` (pending -> fetching -> planning -> planned). */
const STEPS_TO_PLANNED = 3;

function percentile(sortedMs: number[], fraction: number): number {
    const index = Math.min(sortedMs.length - 1, Math.floor(fraction * sortedMs.length));
    return sortedMs[index];
}

function report(name: string, value: number, unit: string): void {
    console.log(`${name}: ${value.toFixed(unit === "ms" ? 2 : 0)} ${unit}`);
}

/** Starts `wos-server` on a free port and resolves with its address, read from its address line. */
async function startServerProcess(dataDir: string, seedPath: string): Promise<{ child: ChildProcess; url: string }> {
    const main = path.join(__dirname, "..", "server", "main.js");
    const child = spawn(
        process.execPath,
        [main, "--port", "0", "--data", path.join(dataDir, "wos.db"), "--seed", seedPath, "--log-level", "silent"],
        { stdio: ["ignore", "pipe", "inherit"] },
    );
    const lines = readline.createInterface({ input: child.stdout! });
    for await (const line of lines) {
        const match = /^wos-server listening on (\S+)$/.exec(line);
        if (match) return { child, url: match[1] };
    }
    throw new Error("wos-server exited before printing its address");
}

/**
 * A pass-through HTTP proxy in front of the server that counts the requests it forwards: how the bench
 * knows how many requests one upgrade costs, without reaching into the client.
 */
async function startCountingProxy(target: string): Promise<{ url: string; count(): number; close(): Promise<void> }> {
    const upstream = new URL(target);
    let forwarded = 0;
    const agent = new http.Agent({ keepAlive: true });
    const proxy = http.createServer((request, response) => {
        forwarded++;
        const outgoing = http.request(
            { host: upstream.hostname, port: upstream.port, method: request.method, path: request.url, headers: request.headers, agent },
            (answer) => {
                response.writeHead(answer.statusCode ?? 502, answer.headers);
                answer.pipe(response);
            },
        );
        outgoing.on("error", () => response.destroy());
        request.pipe(outgoing);
    });
    await new Promise<void>((resolve) => proxy.listen(0, "127.0.0.1", resolve));
    const address = proxy.address() as { port: number };
    return {
        url: `http://127.0.0.1:${address.port}`,
        count: () => forwarded,
        close: () =>
            new Promise<void>((resolve) => {
                agent.destroy();
                proxy.closeAllConnections();
                proxy.close(() => resolve());
            }),
    };
}

/**
 * Runs {@link UPGRADES} upgrades of one no-code workspace, each a new value of its `size` var, through
 * the SDK as the provider does it (initiate, `waitForPlan` with its default backoff, confirm), and prints
 * the median requests, wall time and planned-to-confirm delay.
 */
async function benchUpgrade(serverUrl: string): Promise<void> {
    const proxy = await startCountingProxy(serverUrl);
    try {
        const client = new WosClient({ address: proxy.url, token: TOKEN });
        const project = await client.projects.create("bench", { name: "Upgrades" });
        const module = await client.noCodeModules.create("bench", { registryModuleId: REGISTRY_MODULE_ID, enabled: true });
        const workspace = await client.noCodeModules.createWorkspace(module.id, {
            name: "upgrade-bench",
            projectId: project.id,
            vars: [{ key: "size", value: "0", category: "infra" }],
        });
        const requests: number[] = [];
        const wallMs: number[] = [];
        const plannedToConfirmMs: number[] = [];
        for (let round = 1; round <= UPGRADES; round++) {
            const countBefore = proxy.count();
            const started = performance.now();
            const upgrade = await client.noCodeModules.initiateUpgrade(module.id, workspace.id, {
                vars: [{ key: "size", value: String(round), category: "infra" }],
            });
            // The run starts while the initiate is answered: its plan ends STEPS_TO_PLANNED steps later.
            const plannedAt = started + STEPS_TO_PLANNED * PLAN_STEP_MS;
            const finished = await client.noCodeModules.waitForPlan(upgrade, { deadline: Date.now() + 60_000 });
            const confirmAt = performance.now();
            if (finished.status !== "planned_and_finished") {
                await client.noCodeModules.confirmUpgrade(module.id, workspace.id, upgrade.id);
            }
            wallMs.push(performance.now() - started);
            plannedToConfirmMs.push(Math.max(0, confirmAt - plannedAt));
            requests.push(proxy.count() - countBefore);
        }
        const median = (values: number[]) => percentile([...values].sort((a, b) => a - b), 0.5);
        const floor = STEPS_TO_PLANNED * PLAN_STEP_MS;
        console.log(`# no-code upgrade at --plan-step-ms ${PLAN_STEP_MS}, waitForPlan defaults, median of ${UPGRADES}`);
        report("upgrade requests (initiate + polls + confirm)", median(requests), "requests");
        report(`upgrade wall time (floor: the plan itself, ${floor} ms)`, median(wallMs), "ms");
        report("delay from planned to confirm (target: at most one poll interval)", median(plannedToConfirmMs), "ms");
    } finally {
        await proxy.close();
    }
}

/** Current and peak resident memory of a process, in MiB, from /proc (Linux). */
function residentMemory(pid: number): { current: number; peak: number } {
    const status = fs.readFileSync(`/proc/${pid}/status`, "utf8");
    const kib = (field: string) => Number(new RegExp(`^${field}:\\s+(\\d+) kB`, "m").exec(status)?.[1] ?? NaN);
    return { current: kib("VmRSS") / 1024, peak: kib("VmHWM") / 1024 };
}

async function main(): Promise<void> {
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "wos-bench-"));
    const seedPath = path.join(dataDir, "seed.json");
    const seed = {
        organizations: [
            {
                name: "bench",
                teams: [{ name: "owners", owners: true, tokens: [TOKEN] }],
                projects: [{ name: "Bench" }],
                workspaces: [{ id: WORKSPACE_ID, name: "bench-ws", project: "Bench" }],
                registryModules: [
                    {
                        id: REGISTRY_MODULE_ID,
                        name: "bucket",
                        provider: "aws",
                        noCodeReady: true,
                        versions: [{ version: "1.0.0", variables: [{ name: "size", type: "number", required: false, default: "1" }] }],
                    },
                ],
            },
        ],
    };
    fs.writeFileSync(seedPath, JSON.stringify(seed));
    const server = await startServerProcess(dataDir, seedPath);
    const client = new WosClient({ address: server.url, token: TOKEN });
    try {
        console.log(`# wos-server benchmark: ${PROJECTS} projects, ${VARIABLES} variables, node ${process.version}, ${os.cpus().length} cores`);

        let started = performance.now();
        for (let index = 0; index < PROJECTS; index++) {
            await client.projects.create("bench", {
                name: `project-${String(index).padStart(5, "0")}`,
                tagBindings: [{ key: "bench", value: String(index % 10) }],
            });
        }
        report("project create (sequential, file database)", (PROJECTS / (performance.now() - started)) * 1000, "req/s");

        const pageLatencies: number[] = [];
        for (let sample = 0; sample < LIST_SAMPLES; sample++) {
            const pageNumber = 1 + (sample % Math.ceil(PROJECTS / 100));
            const before = performance.now();
            await client.projects.list("bench", { pageNumber, pageSize: 100 });
            pageLatencies.push(performance.now() - before);
        }
        pageLatencies.sort((a, b) => a - b);
        report("project list page of 100, median", percentile(pageLatencies, 0.5), "ms");
        report("project list page of 100, p95", percentile(pageLatencies, 0.95), "ms");

        started = performance.now();
        let walked = 0;
        for await (const _project of client.projects.listAll("bench", { pageSize: 100 })) walked++;
        report(`listAll over ${walked} projects`, performance.now() - started, "ms");

        started = performance.now();
        for (let index = 0; index < VARIABLES; index++) {
            await client.variables.create({
                workspaceId: WORKSPACE_ID,
                key: `VAR_${index}`,
                value: "x".repeat(64),
                category: index % 2 === 0 ? "env" : "infra",
                sensitive: index % 5 === 0,
            });
        }
        report("variable create (sequential, file database)", (VARIABLES / (performance.now() - started)) * 1000, "req/s");

        await benchUpgrade(server.url);

        const memory = residentMemory(server.child.pid!);
        report("server resident memory after run", memory.current, "MiB");
        report("server peak resident memory", memory.peak, "MiB");
    } finally {
        server.child.kill("SIGTERM");
        await new Promise((resolve) => server.child.once("exit", resolve));
        fs.rmSync(dataDir, { recursive: true, force: true });
    }
}

main().catch((error) => {
    console.error(error instanceof Error ? error.message : error);
    process.exit(1);
});
