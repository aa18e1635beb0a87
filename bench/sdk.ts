/**
 * Area `sdk`: `client.projects.create` beside the same requests sent with plain keep-alive HTTP (Node's own
 * `http.request`, the body built by hand, the answer only `JSON.parse`d), one at a time on one connection.
 * Both take turns in blocks, so that a neighbour's load on the machine falls on both alike. Printed: wall
 * time per create and the client process's own CPU per create (what the client adds: validation, axios,
 * zod parsing), each beside the plain-HTTP floor.
 *
 * @module
 */
import { performance } from "node:perf_hooks";
import { WosClient } from "../sdk";
import { ORGANIZATION, TOKEN, HttpClient, envNumber, heading, reportBeside, type ServerProcess } from "./support";

/** The target of issue 6 (Scale): an SDK create at most 1.2x the same requests over plain keep-alive HTTP. */
const TARGET = 1.2;
const BLOCK = 25;
/** Creates of each kind before the figures: axios and zod need a few hundred calls before the JIT settles. */
const WARM_UP = 300;

/** The body both clients send for project number `index`. */
function projectBody(name: string, index: number) {
    return {
        data: {
            type: "projects",
            attributes: { name, description: `bench project ${index}` },
            relationships: { "tag-bindings": { data: [{ type: "tag-bindings", attributes: { key: "bench", value: String(index % 10) } }] } },
        },
    };
}

/** Runs the area against a running service. */
export async function benchSdk(server: ServerProcess): Promise<void> {
    const creates = envNumber("BENCH_SDK_CREATES", 400);
    const client = new WosClient({ address: server.url, token: TOKEN });
    const plain = new HttpClient(`${server.url}/api/v2`, TOKEN, 1);
    const path = `/organizations/${ORGANIZATION}/projects`;
    const totals = { sdk: { wall: 0, cpu: 0, count: 0 }, plain: { wall: 0, cpu: 0, count: 0 } };
    const run = async (kind: "sdk" | "plain", first: number, count: number, measure: boolean) => {
        const cpuBefore = process.cpuUsage();
        const started = performance.now();
        for (let index = first; index < first + count; index++) {
            const name = `${kind}-create-${String(index).padStart(5, "0")}`;
            if (kind === "sdk") {
                await client.projects.create(ORGANIZATION, {
                    name,
                    description: `bench project ${index}`,
                    tagBindings: [{ key: "bench", value: String(index % 10) }],
                });
            } else {
                await plain.json("POST", path, projectBody(name, index), 201);
            }
        }
        if (!measure) return;
        const cpu = process.cpuUsage(cpuBefore);
        totals[kind].wall += performance.now() - started;
        totals[kind].cpu += (cpu.user + cpu.system) / 1000;
        totals[kind].count += count;
    };
    try {
        // Warm-up: the first requests of each (connections, JIT) are not counted.
        await run("sdk", 0, WARM_UP, false);
        await run("plain", 0, WARM_UP, false);
        for (let first = WARM_UP; first < WARM_UP + creates / 2; first += BLOCK) {
            await run("sdk", first, BLOCK, true);
            await run("plain", first, BLOCK, true);
        }
        heading(`SDK create beside plain keep-alive HTTP (${totals.sdk.count} creates each, in alternating blocks of ${BLOCK})`);
        const per = (value: number, count: number) => value / count;
        reportBeside(
            "project create through the SDK, wall time",
            per(totals.sdk.wall, totals.sdk.count),
            "plain keep-alive HTTP, same requests",
            per(totals.plain.wall, totals.plain.count),
            "ms",
            { ratio: TARGET },
        );
        reportBeside(
            "project create through the SDK, client CPU",
            per(totals.sdk.cpu, totals.sdk.count) * 1000,
            "plain keep-alive HTTP client CPU",
            per(totals.plain.cpu, totals.plain.count) * 1000,
            "µs",
        );
    } finally {
        plain.close();
    }
}
