/**
 * {@link NoCodeModules.waitForPlan} against real upgrade runs of the local service: slow plans (driven by
 * `planStepMs`), failing plans (the `planOutcome` fault), plans that never end before the deadline, cost
 * estimation, and the backoff of its polls.
 */
import {
    planPollDelay,
    WosClient,
    WosError,
    WosNotFoundError,
    WosPlanFailedError,
    WosPlanTimeoutError,
    type RetryInfo,
    type WorkspaceUpgrade,
} from "../../sdk";
import { startRecorder } from "../support/recordingProxy";
import { startTestServer, type TestServer } from "../support/server";
import { REGISTRY_MODULES, TOKENS } from "../support/seed";
import { expectNoToken, failure, infraValue, moduleWithWorkspace, projectIdOf, uniqueName } from "./helpers";

/** Vars of an upgrade that changes something (the workspaces start with region us-east-1). */
const NEW_REGION = { vars: [{ key: "region", value: "eu-west-1", category: "infra" as const }] };

/** The statuses `onStatus` was called with, in order. */
function statusRecorder() {
    const seen: WorkspaceUpgrade[] = [];
    return { seen, statuses: () => seen.map((upgrade) => upgrade.status), onStatus: (upgrade: WorkspaceUpgrade) => seen.push(upgrade) };
}

describe("a slow plan (a step every 400 ms)", () => {
    let server: TestServer;
    let client: WosClient;

    beforeAll(async () => {
        server = await startTestServer({ planStepMs: 400 });
        client = new WosClient({ address: server.url, token: TOKENS.owners, maxRetryDelayMs: 10 });
    });

    afterEach(async () => {
        await server.clearFaults();
    });

    afterAll(async () => {
        await server?.close();
    });

    it("reports pending, fetching, planning and planned through onStatus, each once and in order, and returns the planned upgrade", async () => {
        const { module, workspace } = await moduleWithWorkspace(client);
        const upgrade = await client.noCodeModules.initiateUpgrade(module.id, workspace.id, NEW_REGION);
        const recorder = statusRecorder();
        // Polls at most every 40 ms: far more often than a step, so no status can be missed.
        const planned = await client.noCodeModules.waitForPlan(upgrade, {
            deadline: Date.now() + 30_000,
            initialDelayMs: 10,
            maxDelayMs: 40,
            onStatus: recorder.onStatus,
        });
        expect(recorder.statuses()).toEqual(["pending", "fetching", "planning", "planned"]);
        expect(planned).toMatchObject({ id: upgrade.id, status: "planned", planUrl: upgrade.planUrl, workspaceId: workspace.id });
        expect(recorder.seen.every((seen) => seen.id === upgrade.id && seen.planUrl === upgrade.planUrl)).toBe(true);
        await client.noCodeModules.confirmUpgrade(module.id, workspace.id, upgrade.id);
        expect(await infraValue(client, workspace, "region")).toBe("eu-west-1");
    });

    it("reads the status first when the upgrade it is given carries none", async () => {
        const { module, workspace } = await moduleWithWorkspace(client);
        const upgrade = await client.noCodeModules.initiateUpgrade(module.id, workspace.id, NEW_REGION);
        const recorder = statusRecorder();
        const planned = await client.noCodeModules.waitForPlan(
            { noCodeModuleId: module.id, workspaceId: workspace.id, id: upgrade.id },
            { deadline: Date.now() + 30_000, initialDelayMs: 10, maxDelayMs: 40, onStatus: recorder.onStatus },
        );
        expect(planned.status).toBe("planned");
        expect(recorder.statuses()).toEqual(["pending", "fetching", "planning", "planned"]);
    });

    it("returns planned at once where cost_estimated would follow a step later (a confirm is valid in both)", async () => {
        const initech = new WosClient({ address: server.url, token: TOKENS.initechOwners, maxRetryDelayMs: 10 });
        const module = await initech.noCodeModules.create("initech", { registryModuleId: REGISTRY_MODULES.initechBucket, versionPin: "1.0.0", enabled: true });
        const workspace = await initech.noCodeModules.createWorkspace(module.id, {
            name: uniqueName("initech"),
            projectId: await projectIdOf(initech, "initech", "Infra"),
            vars: [{ key: "region", value: "us-east-1", category: "infra" }],
        });
        const upgrade = await initech.noCodeModules.initiateUpgrade(module.id, workspace.id, NEW_REGION);
        const recorder = statusRecorder();
        const finished = await initech.noCodeModules.waitForPlan(upgrade, {
            deadline: Date.now() + 30_000,
            initialDelayMs: 10,
            maxDelayMs: 40,
            onStatus: recorder.onStatus,
        });
        expect(finished.status).toBe("planned");
        expect(recorder.statuses()).toEqual(["pending", "fetching", "planning", "planned"]);
        await initech.noCodeModules.confirmUpgrade(module.id, workspace.id, upgrade.id);
        expect((await initech.noCodeModules.readUpgrade(module.id, workspace.id, upgrade.id)).status).toBe("applied");
        expect(await infraValue(initech, workspace, "region")).toBe("eu-west-1");
    });

    it("ends a wait whose first delay is far beyond the deadline at the deadline (the sleep is cut short)", async () => {
        const { module, workspace } = await moduleWithWorkspace(client);
        const upgrade = await client.noCodeModules.initiateUpgrade(module.id, workspace.id, NEW_REGION);
        const recorder = statusRecorder();
        const called = Date.now();
        const deadline = called + 100;
        const error = await failure(
            client.noCodeModules.waitForPlan(upgrade, {
                deadline,
                initialDelayMs: 600_000,
                maxDelayMs: 600_000,
                onStatus: recorder.onStatus,
            }),
        );
        expect(WosPlanTimeoutError.isInstance(error)).toBe(true);
        const timeout = error as WosPlanTimeoutError;
        // Had it slept its first delay, the test would have timed out long before this line. It ended at the
        // deadline, not before it (Node's timers may fire up to a millisecond early against Date.now()'s
        // rounding), and what it says it waited is the time since its own start, a little after `called`.
        const ended = Date.now();
        expect(ended).toBeGreaterThanOrEqual(deadline - 1);
        expect(timeout.waitedMs).toBeGreaterThan(0);
        expect(timeout.waitedMs).toBeLessThanOrEqual(ended - called);
        expect(timeout.lastStatus).toBe("pending");
        expect(recorder.statuses()).toEqual(["pending"]);
    }, 20_000);

    it("is not fooled by a transient failure of a poll: the transport repeats the read", async () => {
        const { module, workspace } = await moduleWithWorkspace(client);
        const upgrade = await client.noCodeModules.initiateUpgrade(module.id, workspace.id, NEW_REGION);
        await server.addFault({ method: "GET", path: `/upgrade/${upgrade.id}$`, times: 2, status: 503 });
        const retries: RetryInfo[] = [];
        const recording = new WosClient({ address: server.url, token: TOKENS.owners, maxRetryDelayMs: 10, onRetry: (info) => retries.push(info) });
        const planned = await recording.noCodeModules.waitForPlan(upgrade, { deadline: Date.now() + 30_000, initialDelayMs: 10, maxDelayMs: 40 });
        expect(planned.status).toBe("planned");
        expect(retries).toHaveLength(2);
        expect(retries.every((retry) => retry.reason === "server_error" && retry.method === "GET")).toBe(true);
    });

    it("lets an error the transport does not repeat through: an upgrade that does not exist is a WosNotFoundError", async () => {
        const { module, workspace } = await moduleWithWorkspace(client);
        const error = await failure(
            client.noCodeModules.waitForPlan(
                { noCodeModuleId: module.id, workspaceId: workspace.id, id: "run-doesnotexist00001" },
                { deadline: Date.now() + 30_000, initialDelayMs: 10 },
            ),
        );
        expect(WosNotFoundError.isInstance(error)).toBe(true);
        expectNoToken(error, TOKENS.owners);
    });
});

describe("plans that end otherwise (a step every 10 ms)", () => {
    let server: TestServer;
    let client: WosClient;

    beforeAll(async () => {
        server = await startTestServer({ planStepMs: 10 });
        client = new WosClient({ address: server.url, token: TOKENS.owners, maxRetryDelayMs: 10 });
    });

    afterEach(async () => {
        await server.clearFaults();
    });

    afterAll(async () => {
        await server?.close();
    });

    const quickly = () => ({ deadline: Date.now() + 20_000, initialDelayMs: 10, maxDelayMs: 30 });

    it("throws a WosPlanFailedError with the status and the plan URL when the plan errors, and nothing is applied", async () => {
        const { module, workspace } = await moduleWithWorkspace(client);
        await server.addFault({ method: "POST", path: `/workspaces/${workspace.id}/upgrade$`, times: 1, planOutcome: "errored" });
        const upgrade = await client.noCodeModules.initiateUpgrade(module.id, workspace.id, NEW_REGION);
        const recorder = statusRecorder();
        const error = await failure(client.noCodeModules.waitForPlan(upgrade, { ...quickly(), onStatus: recorder.onStatus }));
        expect(WosPlanFailedError.isInstance(error)).toBe(true);
        expect(WosPlanTimeoutError.isInstance(error)).toBe(false);
        // Not a failed request: the SDK's request errors do not claim it.
        expect(WosError.isInstance(error)).toBe(false);
        const failed = error as WosPlanFailedError;
        expect(failed).toMatchObject({ kind: "plan_failed", status: "errored", planUrl: upgrade.planUrl, upgradeId: upgrade.id, name: "WosPlanFailedError" });
        expect(failed.planUrl).toMatch(/^http:\/\/127\.0\.0\.1:\d+\//);
        expect(failed.message).toContain('"errored"');
        expect(failed.message).toContain(upgrade.planUrl);
        expect(recorder.statuses().at(-1)).toBe("errored");
        expect(JSON.parse(JSON.stringify(failed))).toMatchObject({ status: "errored", planUrl: upgrade.planUrl });
        expectNoToken(failed, TOKENS.owners);
        expect(await infraValue(client, workspace, "region")).toBe("us-east-1");
    });

    it("throws a WosPlanFailedError for a plan discarded by a newer upgrade", async () => {
        const { module, workspace } = await moduleWithWorkspace(client);
        const first = await client.noCodeModules.initiateUpgrade(module.id, workspace.id, NEW_REGION);
        expect((await client.noCodeModules.waitForPlan(first, quickly())).status).toBe("planned");
        await client.noCodeModules.initiateUpgrade(module.id, workspace.id, { vars: [{ key: "region", value: "ap-south-1", category: "infra" }] });
        const error = await failure(client.noCodeModules.waitForPlan({ noCodeModuleId: module.id, workspaceId: workspace.id, id: first.id }, quickly()));
        expect(WosPlanFailedError.isInstance(error)).toBe(true);
        expect(error).toMatchObject({ status: "discarded", upgradeId: first.id });
    });

    it("keeps waiting when onStatus throws: a failing logger does not fail the plan", async () => {
        const { module, workspace } = await moduleWithWorkspace(client);
        const upgrade = await client.noCodeModules.initiateUpgrade(module.id, workspace.id, NEW_REGION);
        let calls = 0;
        const planned = await client.noCodeModules.waitForPlan(upgrade, {
            ...quickly(),
            onStatus: () => {
                calls += 1;
                throw new Error("logger broke");
            },
        });
        expect(planned.status).toBe("planned");
        expect(calls).toBeGreaterThanOrEqual(2);
    });

    it("returns planned_and_finished when nothing would change, and its confirm changes nothing", async () => {
        const { module, workspace } = await moduleWithWorkspace(client);
        const upgrade = await client.noCodeModules.initiateUpgrade(module.id, workspace.id, {
            vars: [{ key: "region", value: "us-east-1", category: "infra" }],
        });
        expect((await client.noCodeModules.waitForPlan(upgrade, quickly())).status).toBe("planned_and_finished");
        await client.noCodeModules.confirmUpgrade(module.id, workspace.id, upgrade.id);
        const after = await client.workspaces.read(workspace.id);
        expect(after.noCodeModuleVersionId).toBe(workspace.noCodeModuleVersionId);
        expect(await infraValue(client, workspace, "region")).toBe("us-east-1");
    });

    it("returns a plan that is cost_estimated where the organization estimates costs, and it can be confirmed", async () => {
        const initech = new WosClient({ address: server.url, token: TOKENS.initechOwners, maxRetryDelayMs: 10 });
        const module = await initech.noCodeModules.create("initech", { registryModuleId: REGISTRY_MODULES.initechBucket, versionPin: "1.0.0", enabled: true });
        const workspace = await initech.noCodeModules.createWorkspace(module.id, {
            name: uniqueName("initech"),
            projectId: await projectIdOf(initech, "initech", "Infra"),
            vars: [{ key: "region", value: "us-east-1", category: "infra" }],
        });
        await initech.noCodeModules.update(module.id, { versionPin: "1.1.0" });
        const upgrade = await initech.noCodeModules.initiateUpgrade(module.id, workspace.id);
        const recorder = statusRecorder();
        // The first poll comes 300 ms (30 steps) after the initiate: the plan is planned and cost-estimated by then.
        const finished = await initech.noCodeModules.waitForPlan(upgrade, {
            deadline: Date.now() + 20_000,
            initialDelayMs: 300,
            onStatus: recorder.onStatus,
        });
        expect(finished.status).toBe("cost_estimated");
        expect(recorder.statuses()).toEqual([upgrade.status, "cost_estimated"]);
        await initech.noCodeModules.confirmUpgrade(module.id, workspace.id, upgrade.id);
        const after = await initech.workspaces.read(workspace.id);
        expect(after.noCodeUpgradeAvailable).toBe(false);
    });
});

describe("a plan that never ends", () => {
    let server: TestServer;
    let client: WosClient;

    beforeAll(async () => {
        // One step an hour: the run stays `pending` for the whole test.
        server = await startTestServer({ planStepMs: 3_600_000 });
        client = new WosClient({ address: server.url, token: TOKENS.owners, maxRetryDelayMs: 10 });
    });

    afterAll(async () => {
        await server?.close();
    });

    it("throws a WosPlanTimeoutError at the deadline with how long it waited and the last status", async () => {
        const { module, workspace } = await moduleWithWorkspace(client);
        const upgrade = await client.noCodeModules.initiateUpgrade(module.id, workspace.id, NEW_REGION);
        const recorder = statusRecorder();
        const error = await failure(
            client.noCodeModules.waitForPlan(upgrade, { deadline: Date.now() + 300, initialDelayMs: 20, maxDelayMs: 50, onStatus: recorder.onStatus }),
        );
        expect(WosPlanTimeoutError.isInstance(error)).toBe(true);
        expect(WosPlanFailedError.isInstance(error)).toBe(false);
        const timeout = error as WosPlanTimeoutError;
        expect(timeout).toMatchObject({ kind: "plan_timeout", lastStatus: "pending", planUrl: upgrade.planUrl, upgradeId: upgrade.id, name: "WosPlanTimeoutError" });
        expect(timeout.waitedMs).toBeGreaterThanOrEqual(300);
        expect(timeout.message).toMatch(/gave up waiting for the plan after \d+(\.\d)? m?s/);
        expect(timeout.message).toContain('last status "pending"');
        expect(timeout.message).toContain(upgrade.planUrl);
        expect(recorder.statuses()).toEqual(["pending"]);
        expectNoToken(timeout, TOKENS.owners);
        // The run goes on in the service, and nothing was applied.
        expect((await client.noCodeModules.readUpgrade(module.id, workspace.id, upgrade.id)).status).toBe("pending");
        expect(await infraValue(client, workspace, "region")).toBe("us-east-1");
    });

    it("stops when its signal aborts: rejects with the signal's reason, reads nothing more and reports no status after it; the run goes on", async () => {
        const { module, workspace } = await moduleWithWorkspace(client);
        const upgrade = await client.noCodeModules.initiateUpgrade(module.id, workspace.id, NEW_REGION);
        const recorder = statusRecorder();
        const controller = new AbortController();
        const proxy = await startRecorder(server.url);
        const reads = () => proxy.requests.filter((request) => request.path.endsWith(upgrade.id)).length;
        const recording = new WosClient({ address: proxy.url, token: TOKENS.owners });
        const waiting = recording.noCodeModules.waitForPlan(
            { noCodeModuleId: module.id, workspaceId: workspace.id, id: upgrade.id },
            { deadline: Date.now() + 600_000, initialDelayMs: 10, maxDelayMs: 20, onStatus: recorder.onStatus, signal: controller.signal },
        );
        // Until it has read the status a few times, then abort in the middle of its waiting.
        while (recorder.statuses().length === 0) await new Promise((resolve) => setTimeout(resolve, 5));
        controller.abort();
        const error = await failure(waiting);
        expect(error).toMatchObject({ name: "AbortError" });
        expect(WosPlanTimeoutError.isInstance(error)).toBe(false);
        const readsAtAbort = reads();
        expect(readsAtAbort).toBeGreaterThan(0);
        await new Promise((resolve) => setTimeout(resolve, 100));
        expect(reads()).toBe(readsAtAbort);
        await proxy.close();
        expect(recorder.statuses()).toEqual(["pending"]);
        expect((await client.noCodeModules.readUpgrade(module.id, workspace.id, upgrade.id)).status).toBe("pending");
        expect(await infraValue(client, workspace, "region")).toBe("us-east-1");
    });

    it("rejects with the reason the caller gave, before any read when the signal is already aborted", async () => {
        const { module, workspace } = await moduleWithWorkspace(client);
        const upgrade = await client.noCodeModules.initiateUpgrade(module.id, workspace.id, NEW_REGION);
        const reason = new Error("the program was interrupted");
        const recorder = statusRecorder();
        const error = await failure(
            client.noCodeModules.waitForPlan(
                { noCodeModuleId: module.id, workspaceId: workspace.id, id: upgrade.id },
                { deadline: Date.now() + 600_000, onStatus: recorder.onStatus, signal: AbortSignal.abort(reason) },
            ),
        );
        expect(error).toBe(reason);
        expect(recorder.statuses()).toEqual([]);
    });

    it("throws at once when the deadline has already passed, after reading the status once", async () => {
        const { module, workspace } = await moduleWithWorkspace(client);
        const upgrade = await client.noCodeModules.initiateUpgrade(module.id, workspace.id, NEW_REGION);
        const error = await failure(
            client.noCodeModules.waitForPlan({ noCodeModuleId: module.id, workspaceId: workspace.id, id: upgrade.id }, { deadline: Date.now() - 1 }),
        );
        expect(error).toMatchObject({ kind: "plan_timeout", lastStatus: "pending" });
    });
});

describe("planPollDelay: the backoff of waitForPlan", () => {
    it("starts at 1 s and grows x1.5 per poll up to 10 s by default", () => {
        expect([1, 2, 3, 4, 5, 6, 7, 8].map((poll) => planPollDelay(poll))).toEqual([1000, 1500, 2250, 3375, 5063, 7594, 10_000, 10_000]);
    });

    it("follows the delays it is given", () => {
        expect([1, 2, 3, 4].map((poll) => planPollDelay(poll, 10, 30))).toEqual([10, 15, 23, 30]);
        expect(planPollDelay(1, 500, 100)).toBe(100);
    });
});
