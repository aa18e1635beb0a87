/**
 * The retry policy on the no-code endpoints, driven by the local service's fault injection: the workspace
 * create and the upgrade initiate create something, so a 5xx or a dropped connection is never repeated
 * (a 429 is); the confirm is repeated, and a 409 after a repeat is "already applied" only when the run says so.
 */
import {
    WosClient,
    WosConflictError,
    WosConnectionError,
    WosNotFoundError,
    WosServerError,
    type NoCodeModule,
    type RetryInfo,
    type Workspace,
    type WosError,
} from "../../sdk";
import { startTestServer, type TestServer } from "../support/server";
import { TOKENS } from "../support/seed";
import { enabledBucketModule, expectNoToken, failure, infraValue, projectIdOf, uniqueName } from "./helpers";

/** A client that records every retry it makes; waits are tiny. */
function recordingClient(server: TestServer) {
    const retries: RetryInfo[] = [];
    const client = new WosClient({ address: server.url, token: TOKENS.owners, maxRetries: 5, maxRetryDelayMs: 10, onRetry: (info) => retries.push(info) });
    return { client, retries };
}

const NEW_REGION = { vars: [{ key: "region", value: "eu-west-1", category: "infra" as const }] };

describe("creating POSTs: never repeated after a 5xx or a dropped connection", () => {
    // One step an hour: a run stays `pending`, so a second initiate tells whether a run already exists (409).
    let server: TestServer;
    let module: NoCodeModule;
    let projectId: string;

    beforeAll(async () => {
        server = await startTestServer({ planStepMs: 3_600_000 });
        const owners = new WosClient({ address: server.url, token: TOKENS.owners });
        module = await enabledBucketModule(owners);
        projectId = await projectIdOf(owners, "acme", "Apps");
    });

    afterEach(async () => {
        await server.clearFaults();
    });

    afterAll(async () => {
        await server?.close();
    });

    const CREATE_WORKSPACE = () => `^/api/v2/no-code-modules/${module.id}/workspaces$`;
    const workspaceOptions = (name: string) => ({ name, projectId, vars: [{ key: "region", value: "us-east-1", category: "infra" as const }] });

    async function newWorkspace(): Promise<Workspace> {
        const owners = new WosClient({ address: server.url, token: TOKENS.owners });
        return owners.noCodeModules.createWorkspace(module.id, workspaceOptions(uniqueName()));
    }

    /** Whether the workspace has a run still in progress: a new initiate is then refused with a 409. */
    async function hasRunInProgress(workspace: Workspace): Promise<boolean> {
        const probe = new WosClient({ address: server.url, token: TOKENS.owners, maxRetries: 0 });
        const outcome = await probe.noCodeModules.initiateUpgrade(module.id, workspace.id, NEW_REGION).then(
            () => false,
            (error: unknown) => {
                if (WosConflictError.isInstance(error)) return true;
                throw error;
            },
        );
        return outcome;
    }

    it.each([
        ["a 503", { status: 503 }],
        ["a dropped connection", { reset: true }],
    ])("createWorkspace is not repeated after %s before the work: no workspace exists", async (_what, fault) => {
        await server.addFault({ method: "POST", path: CREATE_WORKSPACE(), times: 1, ...fault });
        const { client, retries } = recordingClient(server);
        const name = uniqueName();
        const error = await failure(client.noCodeModules.createWorkspace(module.id, workspaceOptions(name)));
        expect(WosServerError.isInstance(error) || WosConnectionError.isInstance(error)).toBe(true);
        expect(retries).toHaveLength(0);
        // A repeat would have met no fault and created it.
        expect(WosNotFoundError.isInstance(await failure(client.workspaces.readByName("acme", name)))).toBe(true);
        expectNoToken(error, TOKENS.owners);
    });

    it("createWorkspace whose answer is lost after commit throws, and the one workspace is found by name", async () => {
        await server.addFault({ method: "POST", path: CREATE_WORKSPACE(), times: 1, afterCommit: true, status: 503 });
        const { client, retries } = recordingClient(server);
        const name = uniqueName();
        const error = await failure(client.noCodeModules.createWorkspace(module.id, workspaceOptions(name)));
        expect(WosServerError.isInstance(error)).toBe(true);
        expect(retries).toHaveLength(0);
        const found = await client.workspaces.readByName("acme", name);
        expect(found.sourceModuleId).toBe(module.registryModuleId);
    });

    it.each([
        ["a 503", { status: 503 }],
        ["a dropped connection", { reset: true }],
    ])("initiateUpgrade is not repeated after %s before the work: no run exists", async (_what, fault) => {
        const workspace = await newWorkspace();
        await server.addFault({ method: "POST", path: `/workspaces/${workspace.id}/upgrade$`, times: 1, ...fault });
        const { client, retries } = recordingClient(server);
        const error = await failure(client.noCodeModules.initiateUpgrade(module.id, workspace.id, NEW_REGION));
        expect(WosServerError.isInstance(error) || WosConnectionError.isInstance(error)).toBe(true);
        expect(retries).toHaveLength(0);
        // A repeat would have started a run, and a run in progress refuses another initiate.
        expect(await hasRunInProgress(workspace)).toBe(false);
    });

    it("initiateUpgrade whose answer is lost after commit throws, and exactly the one run exists", async () => {
        const workspace = await newWorkspace();
        await server.addFault({ method: "POST", path: `/workspaces/${workspace.id}/upgrade$`, times: 1, afterCommit: true, status: 503 });
        const { client, retries } = recordingClient(server);
        const error = await failure(client.noCodeModules.initiateUpgrade(module.id, workspace.id, NEW_REGION));
        expect(WosServerError.isInstance(error)).toBe(true);
        expect(retries).toHaveLength(0);
        expect(await hasRunInProgress(workspace)).toBe(true);
    });

    it("initiateUpgrade is repeated after a 429 (refused before any work), and one run exists", async () => {
        const workspace = await newWorkspace();
        await server.addFault({
            method: "POST",
            path: `/workspaces/${workspace.id}/upgrade$`,
            times: 2,
            status: 429,
            headers: { "Retry-After": "0" },
        });
        const { client, retries } = recordingClient(server);
        const upgrade = await client.noCodeModules.initiateUpgrade(module.id, workspace.id, NEW_REGION);
        expect(upgrade.status).toBe("pending");
        expect(retries.map((retry) => [retry.reason, retry.status, retry.method])).toEqual([
            ["rate_limited", 429, "POST"],
            ["rate_limited", 429, "POST"],
        ]);
        expect(await hasRunInProgress(workspace)).toBe(true);
    });

    it("a second initiate while a run is in progress is a WosConflictError, not repeated", async () => {
        const workspace = await newWorkspace();
        const { client, retries } = recordingClient(server);
        await client.noCodeModules.initiateUpgrade(module.id, workspace.id, NEW_REGION);
        const error = await failure(client.noCodeModules.initiateUpgrade(module.id, workspace.id, NEW_REGION));
        expect(WosConflictError.isInstance(error)).toBe(true);
        expect(retries).toHaveLength(0);
    });

    it("a confirm repeated after a 503 that meets a 409 of a run still in progress throws that 409", async () => {
        const workspace = await newWorkspace();
        const { client, retries } = recordingClient(server);
        const upgrade = await client.noCodeModules.initiateUpgrade(module.id, workspace.id, NEW_REGION);
        await server.addFault({ method: "POST", path: `/upgrade/${upgrade.id}$`, times: 1, status: 503 });
        const error = (await failure(client.noCodeModules.confirmUpgrade(module.id, workspace.id, upgrade.id))) as WosError;
        expect(retries).toEqual([expect.objectContaining({ reason: "server_error", status: 503, method: "POST" })]);
        expect(WosConflictError.isInstance(error)).toBe(true);
        expect(error.message).toContain("pending");
        expect((await client.noCodeModules.readUpgrade(module.id, workspace.id, upgrade.id)).status).toBe("pending");
        expect(await infraValue(client, workspace, "region")).toBe("us-east-1");
    });
});

describe("the confirm: repeated, and a 409 after a repeat is done when the run reads applied", () => {
    let server: TestServer;
    let module: NoCodeModule;
    let projectId: string;

    beforeAll(async () => {
        server = await startTestServer({ planStepMs: 10 });
        const owners = new WosClient({ address: server.url, token: TOKENS.owners });
        module = await enabledBucketModule(owners);
        projectId = await projectIdOf(owners, "acme", "Apps");
    });

    afterEach(async () => {
        await server.clearFaults();
    });

    afterAll(async () => {
        await server?.close();
    });

    /** A new workspace made from the module, and a finished upgrade plan of it that changes its region. */
    async function plannedUpgrade(client: WosClient) {
        const workspace = await client.noCodeModules.createWorkspace(module.id, {
            name: uniqueName(),
            projectId,
            vars: [{ key: "region", value: "us-east-1", category: "infra" }],
        });
        const upgrade = await client.noCodeModules.initiateUpgrade(module.id, workspace.id, NEW_REGION);
        const planned = await client.noCodeModules.waitForPlan(upgrade, { deadline: Date.now() + 20_000, initialDelayMs: 10, maxDelayMs: 30 });
        expect(planned.status).toBe("planned");
        return { module, workspace, upgrade };
    }

    it.each([
        ["a 503 after commit", { afterCommit: true, status: 503 }, "server_error"],
        ["a connection dropped after commit", { afterCommit: true, reset: true }, "connection_failed"],
    ])("resolves when the answer of the confirm is lost to %s: the repeat meets a 409 and the run reads applied", async (_what, fault, reason) => {
        const { client, retries } = recordingClient(server);
        const { module, workspace, upgrade } = await plannedUpgrade(client);
        await server.addFault({ method: "POST", path: `/upgrade/${upgrade.id}$`, times: 1, ...fault });
        await expect(client.noCodeModules.confirmUpgrade(module.id, workspace.id, upgrade.id)).resolves.toBeUndefined();
        expect(retries).toEqual([expect.objectContaining({ reason, method: "POST" })]);
        expect((await client.noCodeModules.readUpgrade(module.id, workspace.id, upgrade.id)).status).toBe("applied");
        expect(await infraValue(client, workspace, "region")).toBe("eu-west-1");
        const after = await client.workspaces.read(workspace.id);
        expect(after.noCodeModuleVersionId).toBe(workspace.noCodeModuleVersionId);
        expect(after.noCodeUpgradeAvailable).toBe(false);
    });

    it("repeats a confirm refused with a 503 before the work, and the repeat applies it", async () => {
        const { client, retries } = recordingClient(server);
        const { module, workspace, upgrade } = await plannedUpgrade(client);
        await server.addFault({ method: "POST", path: `/upgrade/${upgrade.id}$`, times: 2, status: 503 });
        await client.noCodeModules.confirmUpgrade(module.id, workspace.id, upgrade.id);
        expect(retries.map((retry) => retry.status)).toEqual([503, 503]);
        expect((await client.noCodeModules.readUpgrade(module.id, workspace.id, upgrade.id)).status).toBe("applied");
        expect(await infraValue(client, workspace, "region")).toBe("eu-west-1");
    });

    it("shows the new version on a workspace whose module moved, once the lost confirm is resolved", async () => {
        const { client } = recordingClient(server);
        const setup = await plannedUpgrade(client);
        // Move the module to the other version and upgrade to it: the workspace's no-code version must change.
        const current = await client.noCodeModules.read(module.id);
        await client.noCodeModules.update(module.id, { versionPin: current.versionPin === "1.0.0" ? "1.1.0" : "1.0.0" });
        expect((await client.workspaces.read(setup.workspace.id)).noCodeUpgradeAvailable).toBe(true);
        const upgrade = await client.noCodeModules.initiateUpgrade(setup.module.id, setup.workspace.id);
        await client.noCodeModules.waitForPlan(upgrade, { deadline: Date.now() + 20_000, initialDelayMs: 10, maxDelayMs: 30 });
        await server.addFault({ method: "POST", path: `/upgrade/${upgrade.id}$`, times: 1, afterCommit: true, status: 503 });
        await client.noCodeModules.confirmUpgrade(setup.module.id, setup.workspace.id, upgrade.id);
        const after = await client.workspaces.read(setup.workspace.id);
        expect(after.noCodeModuleVersionId).not.toBe(setup.workspace.noCodeModuleVersionId);
        expect(after.noCodeUpgradeAvailable).toBe(false);
    });

    it("does not repeat a confirm on a 409 of its first attempt, nor read the run for it", async () => {
        const { client, retries } = recordingClient(server);
        const { module, workspace, upgrade } = await plannedUpgrade(client);
        await client.noCodeModules.confirmUpgrade(module.id, workspace.id, upgrade.id);
        // Were the run read after this 409, the armed 503 on the read would show up as a retry.
        await server.addFault({ method: "GET", path: `/upgrade/${upgrade.id}$`, times: 1, status: 503 });
        const error = await failure(client.noCodeModules.confirmUpgrade(module.id, workspace.id, upgrade.id));
        expect(WosConflictError.isInstance(error)).toBe(true);
        expect(retries).toHaveLength(0);
        expectNoToken(error, TOKENS.owners);
    });
});
