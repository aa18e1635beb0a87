/**
 * Area `fleet`: a fleet of no-code workspaces within the hosted service's rate limit (issue 29, point 3). For
 * each size of `BENCH_FLEET_SIZES` (100 and 500), a program on the native plugin (`pulumi-resource-wos`, the
 * archive of `npm run plugin:pack`) declares one `wos:index:NoCodeModule` and that many
 * `wos:index:NoCodeWorkspace`s made from it, against `wos-server --rate-limit 30` (the hosted service's 30
 * requests a second a token) behind a counting proxy; the real `pulumi up` makes them, and another, after the
 * module's pin is raised, upgrades every one (each plan started, watched and confirmed).
 *
 * Each `up` is printed beside its floor, measured in the same run: the least time its requests need at that
 * rate (their count / 30 s); the target is at most 1.2x, with nothing failed and at most 1% of the requests
 * answered 429. The requests are the service's count of what reached it (the proxy's), so a retried request
 * counts each time.
 *
 * @module
 */
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { hostPlatform, packPlugin } from "../plugin/pack";
import { pluginVersion } from "../plugin/pluginVersion";
import { prepareProgram } from "./cli";
import { ORGANIZATION, REGISTRY_MODULE_ID, benchSeed, envList, formatNumber, heading, reportBeside, startCountingProxy, startServerProcess } from "./support";

/** The hosted service's rate limit: requests a second a token. */
const RATE_LIMIT = 30;
/** The target: each `up` within 1.2 times the least time its requests need at the limit. */
const TARGET = 1.2;
/** The most of the requests that may be answered 429. */
const MOST_REFUSED = 0.01;

/** A program of one no-code module of the seed's registry module and `count` workspaces made from it, at the pin of `bucketVersion`. */
function fleetProgram(count: number): string {
    return `"use strict";
const pulumi = require("@pulumi/pulumi");
const config = new pulumi.Config();
const noCodeModule = new pulumi.CustomResource("wos:index:NoCodeModule", "fleet-module", {
    organization: "${ORGANIZATION}", registryModuleId: "${REGISTRY_MODULE_ID}", versionPin: config.get("bucketVersion") || "1.0.0", enabled: true,
});
const project = new pulumi.CustomResource("wos:index:Project", "fleet-project", { organization: "${ORGANIZATION}", name: "Fleet" });
for (let index = 0; index < ${count}; index += 1) {
    new pulumi.CustomResource("wos:index:NoCodeWorkspace", "ws" + index, {
        noCodeModuleId: noCodeModule.id, moduleVersion: noCodeModule.versionPin, projectId: project.id,
        name: "fleet-" + String(index).padStart(4, "0"), vars: [{ key: "size", value: "1", category: "infra" }],
        upgradeTimeoutSeconds: 1800,
    });
}
`;
}

export async function benchFleet(): Promise<void> {
    const sizes = envList("BENCH_FLEET_SIZES", ["100", "500"]).map(Number);
    // The engine's parallelism: the CLI's default (4 a core: 8 here) unless `BENCH_FLEET_PARALLEL` says otherwise.
    const parallel = process.env.BENCH_FLEET_PARALLEL ? ["--parallel", process.env.BENCH_FLEET_PARALLEL] : [];
    heading(
        `fleet (a no-code module and its workspaces through the plugin against wos-server --rate-limit ${RATE_LIMIT}: the up that makes them ` +
            `and the up that upgrades them all, each beside its floor, the least time its requests need at the limit)`,
    );
    const root = fs.mkdtempSync(path.join(os.tmpdir(), "wos-bench-fleet-"));
    try {
        const [packed] = await packPlugin(path.join(root, "plugin-pack"), [hostPlatform()!]);
        // The bench seed's registry module, with a second version to raise the pin to.
        const seed = benchSeed();
        seed.organizations[0]!.registryModules[0]!.versions.push({
            version: "1.1.0",
            variables: [{ name: "size", type: "number", required: false, default: "1" }],
        });
        const seedPath = path.join(root, "seed.json");
        fs.writeFileSync(seedPath, JSON.stringify(seed));
        for (const size of sizes) {
            const server = await startServerProcess(path.join(root, `fleet-${size}.db`), seedPath, ["--rate-limit", String(RATE_LIMIT)]);
            const proxy = await startCountingProxy(server.url);
            try {
                const program = await prepareProgram(root, `fleet-${size}`, fleetProgram(size), { url: proxy.url });
                await program.pulumi(["plugin", "install", "resource", "wos", pluginVersion(), "--file", packed!.file]);
                const measured = async (what: string, args: string[]) => {
                    const [requestsBefore, refusedBefore] = [proxy.count(), proxy.refused()];
                    const startedAt = performance.now();
                    const command = await program.pulumi(args);
                    const endedAt = performance.now();
                    const requests = proxy.count() - requestsBefore;
                    const arrivals = proxy.arrivals.slice(requestsBefore);
                    const refused = proxy.refused() - refusedBefore;
                    reportBeside(`${what} of ${size} workspaces, wall`, command.wallMs / 1000, `${requests} requests / ${RATE_LIMIT} a second`, requests / RATE_LIMIT, "s", {
                        ratio: TARGET,
                    });
                    // Where the wall time goes: before the first request (the CLI, the program, the plugin starting),
                    // between the first and the last (the pace itself), after the last (the engine finishing).
                    const span = (arrivals.at(-1)! - arrivals[0]!) / 1000;
                    console.log(
                        `  first request after ${formatNumber((arrivals[0]! - startedAt) / 1000)} s; the requests over ${formatNumber(span)} s ` +
                            `(${formatNumber((requests - 1) / span)} a second, ${formatNumber((requests - 1) / span / RATE_LIMIT)} of the limit); ` +
                            `the command ended ${formatNumber((endedAt - arrivals.at(-1)!) / 1000)} s after the last`,
                    );
                    console.log(
                        `  answered 429: ${refused} of ${requests} (${formatNumber((100 * refused) / requests)}%)  target <= ${100 * MOST_REFUSED}%: ` +
                            `${refused <= MOST_REFUSED * requests ? "met" : "NOT met"}; nothing failed (the up exited 0)`,
                    );
                };
                await measured("pulumi up making the module and", ["up", "--yes", "--skip-preview", ...parallel]);
                await program.pulumi(["config", "set", "bucketVersion", "1.1.0"]);
                await measured("pulumi up upgrading (pin 1.0.0 -> 1.1.0)", ["up", "--yes", "--skip-preview", ...parallel]);
                await measured("pulumi destroy", ["destroy", "--yes", "--skip-preview", ...parallel]);
            } finally {
                await proxy.close();
                await server.stop();
            }
        }
    } finally {
        fs.rmSync(root, { recursive: true, force: true });
    }
}
