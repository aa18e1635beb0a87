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
 * - resident memory of the process after the run.
 */
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { performance } from "node:perf_hooks";
import { startServer } from "../server/app";
import { WosClient } from "../sdk";

const PROJECTS = Number(process.env.BENCH_PROJECTS ?? 1000);
const VARIABLES = Number(process.env.BENCH_VARIABLES ?? 500);
const LIST_SAMPLES = Number(process.env.BENCH_LIST_SAMPLES ?? 200);

const TOKEN = "bench-owners-token";
const WORKSPACE_ID = "ws-bench00000000001";

function percentile(sortedMs: number[], fraction: number): number {
    const index = Math.min(sortedMs.length - 1, Math.floor(fraction * sortedMs.length));
    return sortedMs[index];
}

function report(name: string, value: number, unit: string): void {
    console.log(`${name}: ${value.toFixed(unit === "ms" ? 2 : 0)} ${unit}`);
}

async function main(): Promise<void> {
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "wos-bench-"));
    const server = await startServer({
        dataPath: path.join(dataDir, "wos.db"),
        host: "127.0.0.1",
        port: 0,
        logLevel: "silent",
        seed: {
            organizations: [
                {
                    name: "bench",
                    teams: [{ name: "owners", owners: true, tokens: [TOKEN] }],
                    projects: [{ name: "Bench" }],
                    workspaces: [{ id: WORKSPACE_ID, name: "bench-ws", project: "Bench" }],
                },
            ],
        },
    });
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

        report("resident memory after run", process.memoryUsage().rss / (1024 * 1024), "MiB");
    } finally {
        await server.close();
        fs.rmSync(dataDir, { recursive: true, force: true });
    }
}

main().catch((error) => {
    console.error(error instanceof Error ? error.message : error);
    process.exit(1);
});
