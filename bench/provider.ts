/**
 * Area `provider`: `wos:Project`s created, diffed and deleted through `@pulumi/pulumi`'s real dynamic
 * provider host, driven over gRPC as the engine drives it, with a number of resources in flight.
 *
 * Each resource goes through what `pulumi up` (create), a later `pulumi preview` of a changed description
 * (check and diff) and `pulumi destroy` (delete) ask of its provider: `Check`, `Create`, `Check`, `Diff`,
 * `Delete`. The same host, configured the same way, runs the same work with the thinnest possible provider
 * (`bench/thinProvider.ts`: the same requests over plain keep-alive HTTP and nothing else), and the same
 * requests are replayed over plain keep-alive HTTP without any host. Both providers are serialized by
 * `pulumi.runtime.serializeFunction`, as `pulumi.dynamic.Resource` does it, and loaded by the host from a
 * program directory whose `node_modules/pulumi-wos` is this repository (built). The host's own CPU time is
 * printed too: on a loaded machine it says more than the wall time.
 *
 * @module
 */
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { performance } from "node:perf_hooks";
import { ProviderHost, type PropertyMap } from "./providerHost";
import {
    ORGANIZATION,
    TOKEN,
    HttpClient,
    cpuTimeMs,
    envNumber,
    formatNumber,
    heading,
    inParallel,
    median,
    reportBeside,
    reportEachRatio,
    type ServerProcess,
} from "./support";

/** The target of issue 6 (Scale): at most 1.3x the same host driving the thinnest provider. */
const TARGET = 1.3;
const PROJECT_TYPE = "pulumi-nodejs:dynamic/wos:Project";
const PULUMI_PROJECT = "wos-bench";
const REPO_ROOT = path.resolve(__dirname, "..", "..");
/** Resources of each kind run before the figures (loading the handlers, first connections, the JIT). */
const WARM_UP = 100;

/** Wall time of one run, and the CPU time the host and the service used in it. */
interface RunTime {
    wallMs: number;
    hostCpuMs: number;
    serverCpuMs: number;
}

/** The serialized `wos:Project` provider and the thin one, as `pulumi.dynamic.Resource` would send them. */
async function serializedProviders(): Promise<{ ours: string; thin: string }> {
    const pulumi = (await import("@pulumi/pulumi")) as typeof import("@pulumi/pulumi");
    const { projectProvider } = (await import("../provider/project")) as typeof import("../provider/project");
    const thinModule = path.join(__dirname, "thinProvider.js");
    const thinProvider = {
        configure: (request: unknown) => require(thinModule).configure(request),
        check: (olds: unknown, news: unknown) => require(thinModule).check(olds, news),
        diff: (id: string, olds: unknown, news: unknown) => require(thinModule).diff(id, olds, news),
        create: (inputs: unknown) => require(thinModule).create(inputs),
        read: (id: string, props: unknown) => require(thinModule).read(id, props),
        update: (id: string, olds: unknown, news: unknown) => require(thinModule).update(id, olds, news),
        delete: (id: string, props: unknown) => require(thinModule).delete(id, props),
    };
    const ours = await pulumi.runtime.serializeFunction(() => projectProvider, { allowSecrets: true });
    const thin = await pulumi.runtime.serializeFunction(() => thinProvider, { allowSecrets: true });
    return { ours: ours.text, thin: thin.text };
}

/** A program directory whose `node_modules/pulumi-wos` is this repository, as the engine tests' packed one. */
function programDirectory(): string {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "wos-bench-program-"));
    fs.mkdirSync(path.join(dir, "node_modules"));
    fs.symlinkSync(REPO_ROOT, path.join(dir, "node_modules", "pulumi-wos"), "dir");
    fs.writeFileSync(path.join(dir, "Pulumi.yaml"), `name: ${PULUMI_PROJECT}\nruntime: nodejs\n`);
    return dir;
}

/** The name of resource `index` of run `label`: 3 to 40 characters, unique. */
function projectName(label: string, index: number): string {
    return `${label}-${String(index).padStart(5, "0")}`;
}

/** Creates, diffs and deletes `count` projects through `host` with `inFlight` at a time. */
async function driveHost(server: ServerProcess, host: ProviderHost, provider: string, label: string, count: number, inFlight: number): Promise<RunTime> {
    const one = async (index: number) => {
        const urn = host.urn(PROJECT_TYPE, projectName(label, index));
        const news: PropertyMap = { __provider: provider, organization: ORGANIZATION, name: projectName(label, index), description: "made by the provider bench" };
        const inputs = await host.check(urn, {}, news);
        const { id, outputs } = await host.create(urn, inputs);
        const changed = await host.check(urn, inputs, { ...news, description: "changed by the provider bench" });
        if (!(await host.diff(urn, id, outputs, changed, inputs))) throw new Error(`${label}: diff saw no change`);
        await host.delete(urn, id, outputs, inputs);
    };
    const cpuBefore = cpuTimeMs(host.pid);
    const serverCpuBefore = cpuTimeMs(server.pid);
    const started = performance.now();
    await inParallel(
        Array.from({ length: count }, (_, index) => index),
        inFlight,
        one,
    );
    return {
        wallMs: performance.now() - started,
        hostCpuMs: cpuTimeMs(host.pid) - cpuBefore,
        serverCpuMs: cpuTimeMs(server.pid) - serverCpuBefore,
    };
}

/** The same requests as the providers send, over plain keep-alive HTTP, without any host. */
async function replay(server: ServerProcess, label: string, count: number, inFlight: number): Promise<number> {
    const client = new HttpClient(`${server.url}/api/v2`, TOKEN, inFlight);
    try {
        const started = performance.now();
        await inParallel(
            Array.from({ length: count }, (_, index) => index),
            inFlight,
            async (index) => {
                const name = projectName(label, index);
                await client.json("GET", `/organizations/${ORGANIZATION}/projects?filter%5Bnames%5D=${encodeURIComponent(name)}&page%5Bsize%5D=100`, undefined, 200);
                const created = await client.json(
                    "POST",
                    `/organizations/${ORGANIZATION}/projects`,
                    { data: { type: "projects", attributes: { name, description: "made by the provider bench" } } },
                    201,
                );
                await client.json("DELETE", `/projects/${created.data.id}`, undefined, 204);
            },
        );
        return performance.now() - started;
    } finally {
        client.close();
    }
}

/** Runs the area against a running service. */
export async function benchProvider(server: ServerProcess): Promise<void> {
    const block = Math.max(1, envNumber("BENCH_PROVIDER_BLOCK", 100));
    const blocks = Math.max(1, Math.round(envNumber("BENCH_PROVIDER_RESOURCES", 1000) / block));
    const count = blocks * block;
    const inFlight = envNumber("BENCH_PROVIDER_IN_FLIGHT", 10);
    const programDir = programDirectory();
    const { ours, thin } = await serializedProviders();
    const hosts: ProviderHost[] = [];
    try {
        const start = async () => {
            const host = await ProviderHost.start(programDir, PULUMI_PROJECT);
            hosts.push(host);
            await host.configure({ "wos:address": server.url, "wos:token": TOKEN });
            return host;
        };
        const oursHost = await start();
        const thinHost = await start();
        await driveHost(server, oursHost, ours, "warm-ours", WARM_UP, inFlight);
        await driveHost(server, thinHost, thin, "warm-thin", WARM_UP, inFlight);
        await replay(server, "warm-raw", WARM_UP, inFlight);

        // Per kind: each block's wall time a resource, and the CPU of all blocks.
        const total = {
            ours: { blocks: [] as number[], hostCpuMs: 0, serverCpuMs: 0 },
            thin: { blocks: [] as number[], hostCpuMs: 0, serverCpuMs: 0 },
            raw: { blocks: [] as number[] },
        };
        const add = (into: (typeof total)["ours"], run: RunTime) => {
            into.blocks.push(run.wallMs / block);
            into.hostCpuMs += run.hostCpuMs;
            into.serverCpuMs += run.serverCpuMs;
        };
        const kinds = [
            async (label: string) => add(total.ours, await driveHost(server, oursHost, ours, `ours${label}`, block, inFlight)),
            async (label: string) => add(total.thin, await driveHost(server, thinHost, thin, `thin${label}`, block, inFlight)),
            async (label: string) => void total.raw.blocks.push((await replay(server, `raw${label}`, block, inFlight)) / block),
        ];
        // The kinds take turns in blocks, each block starting with the next kind, so that a slow stretch of
        // this shared machine falls on each alike; each wall time is the median block's.
        for (let index = 0; index < blocks; index++) {
            for (let turn = 0; turn < kinds.length; turn++) await kinds[(index + turn) % kinds.length]!(`-${index}`);
        }
        heading(
            `${count} wos:Projects created, diffed and deleted through the provider host, ${inFlight} in flight (in alternating blocks of ${block} with the thinnest provider and the raw replay; per-resource figures, wall time the median block's)`,
        );
        console.log("(per resource: Check, Create, Check, Diff, Delete; requests: the name look-up, the create, the delete)");
        const perResource = (ms: number) => ms / count;
        const oursWall = median(total.ours.blocks);
        const thinWall = median(total.thin.blocks);
        const rawWall = median(total.raw.blocks);
        reportBeside("wos:Project through the host, wall time", oursWall, "same host, thinnest provider", thinWall, "ms", { ratio: TARGET });
        reportEachRatio("block", total.ours.blocks, total.thin.blocks);
        reportBeside("wos:Project through the host, wall time", oursWall, "raw-HTTP replay without the host", rawWall, "ms");
        reportBeside("thinnest provider through the host, wall time", thinWall, "raw-HTTP replay without the host", rawWall, "ms");
        reportBeside(
            "wos:Project, host process CPU",
            perResource(total.ours.hostCpuMs),
            "same host, thinnest provider",
            perResource(total.thin.hostCpuMs),
            "ms",
        );
        reportBeside(
            "the service's CPU, driven by wos:Project",
            perResource(total.ours.serverCpuMs),
            "driven by the thinnest provider",
            perResource(total.thin.serverCpuMs),
            "ms",
        );
        console.log(
            `(the provider's and client's own CPU a resource: ${formatNumber(perResource(total.ours.hostCpuMs - total.thin.hostCpuMs))} ms; the host with the thinnest provider: ${formatNumber(perResource(total.thin.hostCpuMs))} ms)`,
        );
    } finally {
        for (const host of hosts) await host.close();
        fs.rmSync(programDir, { recursive: true, force: true });
    }
}
