/**
 * Area `basic`: the figures of earlier issues, kept so that runs can be compared over time, driven through
 * the SDK one request at a time against a fresh file database:
 * - project creates per second (each one a transaction and a WAL write);
 * - latency of one page of the project list (size 100) out of N projects, median and p95;
 * - time to walk every page of N projects with `listAll`;
 * - variable creates per second;
 * - one whole no-code workspace upgrade through the SDK (initiate, `waitForPlan`, confirm) at the default
 *   `--plan-step-ms`: requests made, wall time beside its floor (the plan's own length), and the delay from
 *   the plan reaching `planned` to the confirm;
 * - resident memory of the server process after the run, and its peak.
 *
 * @module
 */
import { performance } from "node:perf_hooks";
import { WosClient } from "../sdk";
import {
    ORGANIZATION,
    REGISTRY_MODULE_ID,
    TOKEN,
    WORKSPACE_ID,
    envNumber,
    heading,
    median,
    percentile,
    report,
    reportBeside,
    residentMemory,
    startCountingProxy,
    type ServerProcess,
} from "./support";

/** The server's default `--plan-step-ms`: the bench measures the upgrade as users meet it. */
const PLAN_STEP_MS = 200;
/** Steps from `pending` to `planned` (pending -> fetching -> planning -> planned). */
const STEPS_TO_PLANNED = 3;

/**
 * Runs a few upgrades of one no-code workspace, each a new value of its `size` var, through the SDK as the
 * provider does it (initiate, `waitForPlan` with its default backoff, confirm), and prints the median
 * requests, wall time and planned-to-confirm delay.
 */
async function benchUpgrade(serverUrl: string, upgrades: number): Promise<void> {
    const proxy = await startCountingProxy(serverUrl);
    try {
        const client = new WosClient({ address: proxy.url, token: TOKEN });
        const project = await client.projects.create(ORGANIZATION, { name: "Upgrades" });
        const module = await client.noCodeModules.create(ORGANIZATION, { registryModuleId: REGISTRY_MODULE_ID, enabled: true });
        const workspace = await client.noCodeModules.createWorkspace(module.id, {
            name: "upgrade-bench",
            projectId: project.id,
            vars: [{ key: "size", value: "0", category: "infra" }],
        });
        const requests: number[] = [];
        const wallMs: number[] = [];
        const plannedToConfirmMs: number[] = [];
        for (let round = 1; round <= upgrades; round++) {
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
        const floor = STEPS_TO_PLANNED * PLAN_STEP_MS;
        heading(`no-code upgrade at --plan-step-ms ${PLAN_STEP_MS}, waitForPlan defaults, median of ${upgrades}`);
        report("upgrade requests (initiate + polls + confirm)", median(requests), "requests");
        reportBeside("upgrade wall time", median(wallMs), "the plan itself", floor, "ms");
        report("delay from planned to confirm (target: at most one poll interval)", median(plannedToConfirmMs), "ms");
    } finally {
        await proxy.close();
    }
}

/** Runs the area against a running service on a fresh database. */
export async function benchBasic(server: ServerProcess): Promise<void> {
    const projects = envNumber("BENCH_PROJECTS", 1000);
    const variables = envNumber("BENCH_VARIABLES", 500);
    const listSamples = envNumber("BENCH_LIST_SAMPLES", 400);
    const upgrades = envNumber("BENCH_UPGRADES", 5);
    const client = new WosClient({ address: server.url, token: TOKEN });
    heading(`figures of earlier issues: ${projects} projects, ${variables} variables, through the SDK one request at a time`);

    let started = performance.now();
    for (let index = 0; index < projects; index++) {
        await client.projects.create(ORGANIZATION, {
            name: `project-${String(index).padStart(5, "0")}`,
            tagBindings: [{ key: "bench", value: String(index % 10) }],
        });
    }
    report("project create (sequential, file database)", (projects / (performance.now() - started)) * 1000, "req/s");

    const pageLatencies: number[] = [];
    for (let sample = 0; sample < listSamples; sample++) {
        const pageNumber = 1 + (sample % Math.ceil(projects / 100));
        const before = performance.now();
        await client.projects.list(ORGANIZATION, { pageNumber, pageSize: 100 });
        pageLatencies.push(performance.now() - before);
    }
    pageLatencies.sort((a, b) => a - b);
    report("project list page of 100, median", percentile(pageLatencies, 0.5), "ms");
    report("project list page of 100, p95", percentile(pageLatencies, 0.95), "ms");

    started = performance.now();
    let walked = 0;
    for await (const _project of client.projects.listAll(ORGANIZATION, { pageSize: 100 })) walked++;
    report(`listAll over ${walked} projects`, performance.now() - started, "ms");

    started = performance.now();
    for (let index = 0; index < variables; index++) {
        await client.variables.create(WORKSPACE_ID, {
            key: `VAR_${index}`,
            value: "x".repeat(64),
            category: index % 2 === 0 ? "env" : "infra",
            sensitive: index % 5 === 0,
        });
    }
    report("variable create (sequential, file database)", (variables / (performance.now() - started)) * 1000, "req/s");

    await benchUpgrade(server.url, upgrades);

    const memory = residentMemory(server.pid);
    report("server resident memory after the run", memory.current, "MiB");
    report("server peak resident memory", memory.peak, "MiB");
}
