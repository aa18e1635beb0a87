/**
 * The `wos:NoCodeWorkspace` handlers called directly against the real local service, for what
 * `noCodeWorkspace.test.ts` leaves out: reads and deletes the service refuses, each step of an update failing
 * (the move, the module read, the upgrade's poll and confirm, the read after it, the removal of vars) and the
 * partial results they leave, an earlier upgrade that the service does not name or that ends failed, and the
 * requests an update must not send. Failures are injected with the service's fault rules (403s and 422s,
 * which the client never repeats).
 */
import * as noCodeWorkspace from "../../provider/handlers/noCodeWorkspace";
import type { TestServer } from "../support/server";
import { REGISTRY_MODULES } from "../support/seed";
import {
    projectsNamed,
    rejection,
    TOKEN,
    useServer,
    checkedInputs,
    rawInitiateUpgrade,
    rawUpgradeRun,
    captureUpgradeLog,
    freshWorkspaceName,
    rawEnableNoCodeModule,
    UNKNOWN,
} from "./helpers";

const previousPollMs = process.env.WOS_UPGRADE_POLL_MS;
process.env.WOS_UPGRADE_POLL_MS = "10";
afterAll(() => {
    if (previousPollMs === undefined) delete process.env.WOS_UPGRADE_POLL_MS;
    else process.env.WOS_UPGRADE_POLL_MS = previousPollMs;
});

const server = useServer({ planStepMs: 20 });
const AGENT_POOL = "apool-0000000000000001";
/** The seeded `legacy-app` workspace of Apps: made through the API, not from a no-code module. */
const LEGACY_WORKSPACE = "ws-apps000000000001";

/** Progress lines the upgrades wrote (instead of the Pulumi log), reset before each test. */
const logLines = captureUpgradeLog();

/** A workspace name no other test of the file uses. */
const uniqueWorkspaceName = (prefix = "ncwl") => freshWorkspaceName(prefix);

/** Enables the `bucket` registry module of acme for no-code provisioning; answers its id. */
const enableModule = (target: TestServer) => rawEnableNoCodeModule(target, REGISTRY_MODULES.bucket);

/** The workspace over raw HTTP. */
async function rawWorkspace(target: TestServer, id: string): Promise<any> {
    const response = await target.request("GET", `/workspaces/${id}`, { token: TOKEN });
    expect(response.status).toBe(200);
    return response.body.data;
}

/** The workspace's variables over raw HTTP, as `category/key -> attributes` (with the id). */
async function rawVars(target: TestServer, workspaceName: string): Promise<Record<string, any>> {
    const response = await target.request("GET", `/vars?filter%5Bworkspace%5D%5Bname%5D=${workspaceName}&filter%5Borganization%5D%5Bname%5D=acme`, {
        token: TOKEN,
    });
    expect(response.status).toBe(200);
    return Object.fromEntries(response.body.data.map((v: any) => [`${v.attributes.category}/${v.attributes.key}`, { id: v.id, ...v.attributes }]));
}



const checked = (news: Record<string, unknown>) => checkedInputs(noCodeWorkspace, news);

/** Runs `body` with `WOS_UPGRADE_POLL_MS` set to `ms`, restoring this file's 10 ms after. */
async function withPollMs<T>(ms: string, body: () => Promise<T>): Promise<T> {
    process.env.WOS_UPGRADE_POLL_MS = ms;
    try {
        return await body();
    } finally {
        process.env.WOS_UPGRADE_POLL_MS = "10";
    }
}

type PartialError = Error & { id?: string; properties?: Record<string, any> };

const region = (value: string) => ({ key: "region", value, category: "infra" });
const normal = (item: Record<string, unknown>) => ({ hcl: false, sensitive: false, ...item });

let MODULE = "";
let APPS = "";
let STAGING = "";
beforeAll(async () => {
    MODULE = await enableModule(server());
    APPS = (await projectsNamed(server(), "Apps"))[0].id;
    STAGING = (await projectsNamed(server(), "Staging"))[0].id;
});

/** A program for a new workspace in Apps from the module, with `extra` settings. */
function program(extra: Record<string, unknown> = {}): Record<string, unknown> {
    return { noCodeModuleId: MODULE, projectId: APPS, name: uniqueWorkspaceName(), vars: [region("eu-west-1")], ...extra };
}

const upgradePath = (workspaceId: string) => `^/api/v2/no-code-modules/${MODULE}/workspaces/${workspaceId}/upgrade$`;

describe("read and delete", () => {
    it("reads a sensitive var whose state has no value as an empty value (the service never shows it)", async () => {
        const inputs = await checked(program({ vars: [region("eu-west-1"), { key: "API_KEY", value: "s3cret-value", category: "env", sensitive: true }] }));
        const created = await noCodeWorkspace.create(inputs);
        const { sensitiveValues: _values, ...outs } = created.outs;
        const state = { ...outs, vars: [{ key: "API_KEY", category: "env", hcl: false, sensitive: true }] };
        const read = await noCodeWorkspace.read(created.id, state);
        expect(read.props!.vars).toEqual([{ key: "API_KEY", category: "env", hcl: false, sensitive: true }]);
        expect(read.props!.sensitiveValues).toEqual({ "env:API_KEY": "" });
    });

    it("reports a refused read of the workspace as a read failure naming the workspace", async () => {
        const inputs = await checked(program());
        const created = await noCodeWorkspace.create(inputs);
        await server().addFault({ method: "GET", path: `^/api/v2/workspaces/${created.id}$`, status: 403 });
        const error = await rejection(noCodeWorkspace.read(created.id, created.outs));
        expect(error.message).toContain(`wos:NoCodeWorkspace '${inputs.name}' (${created.id}) of no-code module ${MODULE}: read failed`);
        expect(error.message).toMatch(/403/);
    });

    it("fails a read when the module cannot be read for another reason than being gone (only a deleted module keeps state's version)", async () => {
        const created = await noCodeWorkspace.create(await checked(program()));
        await server().addFault({ method: "GET", path: `^/api/v2/no-code-modules/${MODULE}$`, status: 403 });
        const error = await rejection(noCodeWorkspace.read(created.id, { ...created.outs, moduleVersion: "0.9.0" }));
        expect(error.message).toMatch(/read failed.*403/);
        // Without the fault the module's pin is read, not state's version.
        expect((await noCodeWorkspace.read(created.id, { ...created.outs, moduleVersion: "0.9.0" })).props!.moduleVersion).toBe("1.0.0");
    });

    it("reads, by its id alone, a workspace not made from a no-code module with no module id", async () => {
        const read = await noCodeWorkspace.read(LEGACY_WORKSPACE, {});
        expect(read.id).toBe(LEGACY_WORKSPACE);
        expect(read.props!.name).toBe("legacy-app");
        expect(read.props!.noCodeModuleId).toBe("");
    });

    it("reports a refused delete as a delete failure naming the workspace, and leaves it", async () => {
        const inputs = await checked(program());
        const created = await noCodeWorkspace.create(inputs);
        await server().addFault({ method: "DELETE", path: `^/api/v2/workspaces/${created.id}$`, status: 403 });
        const error = await rejection(noCodeWorkspace.delete(created.id, created.outs));
        expect(error.message).toContain(`wos:NoCodeWorkspace '${inputs.name}' (${created.id}) of no-code module ${MODULE}: delete failed`);
        expect((await rawWorkspace(server(), created.id)).attributes.name).toBe(inputs.name);
    });
});

describe("update: the module and its version", () => {
    it("names the update and the module when the module cannot be read, and changes nothing", async () => {
        const inputs = await checked(program());
        const created = await noCodeWorkspace.create(inputs);
        await server().addFault({ method: "GET", path: `^/api/v2/no-code-modules/${MODULE}$`, status: 403 });
        const error = (await rejection(noCodeWorkspace.update(created.id, created.outs, { ...inputs, vars: [region("us-east-1")] }))) as PartialError;
        expect(error.message).toContain(`(${created.id}) of no-code module ${MODULE}: update (reading no-code module ${MODULE}) failed`);
        expect(error.id).toBeUndefined();
        expect((await rawVars(server(), inputs.name as string))["infra/region"].value).toBe("eu-west-1");
    });

    it("names the update when the module version is not the module's pin", async () => {
        const inputs = await checked(program());
        const created = await noCodeWorkspace.create(inputs);
        const error = await rejection(noCodeWorkspace.update(created.id, created.outs, { ...inputs, moduleVersion: "1.1.0" }));
        expect(error.message).toContain(`of no-code module ${MODULE}: update failed: moduleVersion '1.1.0'`);
    });
});

describe("update: settings", () => {
    it("turns autoApply off when the program leaves it out (the default)", async () => {
        const inputs = await checked(program({ autoApply: true }));
        const created = await noCodeWorkspace.create(inputs);
        const { autoApply: _autoApply, ...news } = inputs;
        const updated = await noCodeWorkspace.update(created.id, created.outs, news);
        expect(updated.outs!.autoApply).toBe(false);
        expect((await rawWorkspace(server(), created.id)).attributes["auto-apply"]).toBe(false);
    });

    it("sends the execution mode and agent pool only when one of them changed, and both when either did", async () => {
        // A rename alone leaves the execution mode as the service has it (here changed outside Pulumi).
        const inputs = await checked(program({ executionMode: "agent", agentPoolId: AGENT_POOL }));
        const created = await noCodeWorkspace.create(inputs);
        const outside = await server().request("PATCH", `/workspaces/${created.id}`, {
            token: TOKEN,
            body: { data: { type: "workspaces", attributes: { "execution-mode": "remote" } } },
        });
        expect(outside.status).toBe(200);
        const renamed = await noCodeWorkspace.update(created.id, created.outs, { ...inputs, name: uniqueWorkspaceName("renamed") });
        expect((await rawWorkspace(server(), created.id)).attributes["execution-mode"]).toBe("remote");
        expect(renamed.outs!.executionMode).toBe("remote");

        // State naming the pool but not the mode: a change of the mode alone sends both.
        const byMode = await noCodeWorkspace.update(created.id, { ...renamed.outs, agentPoolId: AGENT_POOL }, { ...inputs, name: renamed.outs!.name });
        expect(byMode.outs).toMatchObject({ executionMode: "agent", agentPoolId: AGENT_POOL });
        expect((await rawWorkspace(server(), created.id)).attributes["execution-mode"]).toBe("agent");

        // Back to remote outside Pulumi; state naming the mode but not the pool: a change of the pool alone sends both.
        expect(
            (
                await server().request("PATCH", `/workspaces/${created.id}`, {
                    token: TOKEN,
                    body: { data: { type: "workspaces", attributes: { "execution-mode": "remote" } } },
                })
            ).status,
        ).toBe(200);
        const byPool = await noCodeWorkspace.update(created.id, { ...byMode.outs, agentPoolId: undefined }, { ...inputs, name: renamed.outs!.name });
        expect(byPool.outs).toMatchObject({ executionMode: "agent", agentPoolId: AGENT_POOL });
        expect((await rawWorkspace(server(), created.id)).attributes["execution-mode"]).toBe("agent");
    });

    it("changes settings with the PATCH alone: neither reads the workspace again nor lists its vars", async () => {
        const inputs = await checked(program());
        const created = await noCodeWorkspace.create(inputs);
        await server().addFault({ method: "GET", path: `^/api/v2/workspaces/${created.id}$`, status: 403 });
        await server().addFault({ method: "GET", path: "^/api/v2/vars$", status: 403 });
        const updated = await noCodeWorkspace.update(created.id, created.outs, { ...inputs, description: "patched" });
        expect(updated.outs!.description).toBe("patched");
        // Both faults are still armed: no such request was sent.
        expect((await server().request("GET", `/workspaces/${created.id}`, { token: TOKEN })).status).toBe(403);
        expect((await server().request("GET", "/vars?filter%5Bworkspace%5D%5Bname%5D=x&filter%5Borganization%5D%5Bname%5D=acme", { token: TOKEN })).status).toBe(
            403,
        );
    });
});

describe("update: a step that fails", () => {
    it("reports a refused move naming the project, with no partial result", async () => {
        const inputs = await checked(program());
        const created = await noCodeWorkspace.create(inputs);
        await server().addFault({ method: "POST", path: `^/api/v2/projects/${STAGING}/relationships/workspaces$`, status: 403 });
        const error = (await rejection(noCodeWorkspace.update(created.id, created.outs, { ...inputs, projectId: STAGING }))) as PartialError;
        expect(error.message).toContain(`: update (moving the workspace to project ${STAGING}) failed`);
        expect(error.id).toBeUndefined();
        expect((await rawWorkspace(server(), created.id)).relationships.project.data.id).toBe(APPS);
    });

    it("reports a move before a failed upgrade as a partial success: the new project, the old vars", async () => {
        const inputs = await checked(program());
        const created = await noCodeWorkspace.create(inputs);
        await server().addFault({ method: "POST", path: upgradePath(created.id), planOutcome: "errored" });
        const error = (await rejection(noCodeWorkspace.update(created.id, created.outs, { ...inputs, projectId: STAGING, vars: [region("us-east-1")] }))) as PartialError;
        expect(error.message).toMatch(/update \(upgrade\) failed.*ended 'errored'/);
        expect(error.id).toBe(created.id);
        expect(error.properties).toMatchObject({ projectId: STAGING, vars: [normal(region("eu-west-1"))], lastUpgrade: { status: "errored" } });
    });

    it("reports a failed read after a move as a partial success with the new project", async () => {
        const inputs = await checked(program());
        const created = await noCodeWorkspace.create(inputs);
        await server().addFault({ method: "GET", path: `^/api/v2/workspaces/${created.id}$`, status: 403 });
        const error = (await rejection(noCodeWorkspace.update(created.id, created.outs, { ...inputs, projectId: STAGING }))) as PartialError;
        expect(error.message).toContain(`(${created.id}) of no-code module ${MODULE}: update (reading the workspace) failed`);
        expect(error.id).toBe(created.id);
        expect(error.properties).toMatchObject({ projectId: STAGING });
    });

    it("reports a failed poll of the plan with its run and plan URL", async () => {
        const inputs = await checked(program());
        const created = await noCodeWorkspace.create(inputs);
        await server().addFault({ method: "GET", path: `/workspaces/${created.id}/upgrade/run-[^/]+$`, status: 403 });
        const error = (await rejection(noCodeWorkspace.update(created.id, created.outs, { ...inputs, vars: [region("us-east-1")] }))) as PartialError;
        expect(error.message).toMatch(/update \(upgrade\) failed: polling the upgrade plan run-[A-Za-z0-9]+ failed: .*403.* \(plan: http[^)]*run-/);
        expect(error.id).toBeUndefined();
    });

    it("reports a refused confirm with the run, its status and plan URL, and applies nothing", async () => {
        const inputs = await checked(program());
        const created = await noCodeWorkspace.create(inputs);
        await server().addFault({ method: "POST", path: `/workspaces/${created.id}/upgrade/run-[^/]+$`, status: 422 });
        const error = (await rejection(noCodeWorkspace.update(created.id, created.outs, { ...inputs, vars: [region("us-east-1")] }))) as PartialError;
        expect(error.message).toMatch(/update \(upgrade\) failed: confirming the upgrade plan run-[A-Za-z0-9]+ \(planned\) failed: .*422.* \(plan: http[^)]*run-/);
        expect((await rawVars(server(), inputs.name as string))["infra/region"].value).toBe("eu-west-1");
    });

    it("reports a var removal failing after the upgrade as a partial success: new vars and version, the var still to remove", async () => {
        const foo = { key: "FOO", value: "1", category: "env" };
        const inputs = await checked(program({ vars: [region("eu-west-1"), foo] }));
        const created = await noCodeWorkspace.create(inputs);
        const fooId = (await rawVars(server(), inputs.name as string))["env/FOO"].id;
        await server().addFault({ method: "DELETE", path: `^/api/v2/vars/${fooId}$`, status: 403 });
        const error = (await rejection(noCodeWorkspace.update(created.id, created.outs, { ...inputs, vars: [region("us-east-1")] }))) as PartialError;
        expect(error.message).toContain(": update (removing vars no longer listed) failed");
        expect(error.id).toBe(created.id);
        expect(error.properties).toMatchObject({
            vars: [normal(region("us-east-1")), normal(foo)],
            moduleVersion: "1.0.0",
            noCodeUpgradeAvailable: false,
            lastUpgrade: { status: "applied" },
        });
        expect(Object.keys(await rawVars(server(), inputs.name as string)).sort()).toEqual(["env/FOO", "infra/region"]);
    });

    it("reports the vars removed before a removal failed as a partial success: only the ones left stay in state", async () => {
        const foo = { key: "FOO", value: "1", category: "env" };
        const bar = { key: "BAR", value: "2", category: "env" };
        const inputs = await checked(program({ vars: [region("eu-west-1"), foo, bar] }));
        const created = await noCodeWorkspace.create(inputs);
        const barId = (await rawVars(server(), inputs.name as string))["env/BAR"].id;
        await server().addFault({ method: "DELETE", path: `^/api/v2/vars/${barId}$`, status: 403 });
        const error = (await rejection(noCodeWorkspace.update(created.id, created.outs, { ...inputs, vars: [region("eu-west-1")] }))) as PartialError;
        expect(error.message).toContain(": update (removing vars no longer listed) failed");
        expect(error.id).toBe(created.id);
        expect(error.properties!.vars).toEqual([normal(region("eu-west-1")), normal(bar)]);
        expect(Object.keys(await rawVars(server(), inputs.name as string)).sort()).toEqual(["env/BAR", "infra/region"]);
        expect(logLines).toEqual([]);
    });
});

describe("update: the upgrade's start refused", () => {
    it("does not wait on another refusal than 409: it fails with the service's message", async () => {
        const inputs = await checked(program());
        const created = await noCodeWorkspace.create(inputs);
        await server().addFault({ method: "POST", path: upgradePath(created.id), status: 422 });
        const error = await rejection(noCodeWorkspace.update(created.id, created.outs, { ...inputs, vars: [region("us-east-1")] }));
        expect(error.message).toMatch(/update \(upgrade\) failed.*422/);
        expect(logLines).toEqual([]);
        expect((await rawVars(server(), inputs.name as string))["infra/region"].value).toBe("eu-west-1");
    });

    it("waits, trying again, on a 409 that names no run, then upgrades", async () => {
        const inputs = await checked(program({ upgradeTimeoutSeconds: 5 }));
        const created = await noCodeWorkspace.create(inputs);
        await server().addFault({ method: "POST", path: upgradePath(created.id), status: 409, times: 2 });
        const updated = await noCodeWorkspace.update(created.id, created.outs, { ...inputs, vars: [region("us-east-1")] });
        expect(updated.outs!.lastUpgrade.status).toBe("applied");
        const waits = logLines.filter((line) => line.includes("earlier upgrade"));
        expect(waits).toHaveLength(2);
        expect(waits[0]).toContain(": an earlier upgrade of the workspace is unfinished: waiting for it to end (it will not be confirmed)");
        expect((await rawVars(server(), inputs.name as string))["infra/region"].value).toBe("us-east-1");
    });

    it("gives up at the deadline while the service keeps answering 409, starting nothing", async () => {
        const inputs = await checked(program({ upgradeTimeoutSeconds: 0.3 }));
        const created = await noCodeWorkspace.create(inputs);
        // Four refusals: more than fit before the deadline with waits of 100, 150 and 225 ms.
        await server().addFault({ method: "POST", path: upgradePath(created.id), status: 409, times: 4 });
        const error = (await withPollMs("100", () => rejection(noCodeWorkspace.update(created.id, created.outs, { ...inputs, vars: [region("us-east-1")] })))) as PartialError;
        expect(error.message).toContain(
            "update (upgrade) failed: an earlier upgrade of the workspace was still unfinished at the deadline (upgradeTimeoutSeconds); this upgrade did not start",
        );
        expect(error.id).toBeUndefined();
        expect((await rawVars(server(), inputs.name as string))["infra/region"].value).toBe("eu-west-1");
    });

    it("waits longer each time it tries again (1.5 times), so the deadline comes before a third try", async () => {
        // Waits of 2 s then 3 s: the second would end after the 4.4 s deadline, so the update stops there.
        const inputs = await checked(program({ upgradeTimeoutSeconds: 4.4 }));
        const created = await noCodeWorkspace.create(inputs);
        await server().addFault({ method: "POST", path: upgradePath(created.id), status: 409, times: 2 });
        const error = await withPollMs("2000", () => rejection(noCodeWorkspace.update(created.id, created.outs, { ...inputs, vars: [region("us-east-1")] })));
        expect(error.message).toContain("an earlier upgrade of the workspace was still unfinished at the deadline (upgradeTimeoutSeconds); this upgrade did not start");
        expect(logLines.filter((line) => line.includes("earlier upgrade"))).toHaveLength(2);
    });
});

describe("an earlier upgrade the service names", () => {
    // Plans take 3 steps of 300 ms here: long enough for an update to find someone else's plan unfinished.
    const slow = useServer({ planStepMs: 300 });
    let SLOW_MODULE = "";
    let SLOW_APPS = "";
    beforeAll(async () => {
        SLOW_MODULE = await enableModule(slow());
        SLOW_APPS = (await projectsNamed(slow(), "Apps"))[0].id;
    });
    const slowProgram = () => ({ noCodeModuleId: SLOW_MODULE, projectId: SLOW_APPS, name: uniqueWorkspaceName("slow"), vars: [region("eu-west-1")] });

    it("logs each status of its plan once, when it changes", async () => {
        const inputs = await checked(slowProgram());
        const created = await noCodeWorkspace.create(inputs);
        const updated = await noCodeWorkspace.update(created.id, created.outs, { ...inputs, vars: [region("us-east-1")] });
        const run = updated.outs!.lastUpgrade;
        expect(run.status).toBe("applied");
        expect(logLines.some((line) => line.includes(`upgrade ${run.id} started: pending`))).toBe(true);
        expect(logLines.some((line) => line.includes(`upgrade ${run.id}: pending`))).toBe(false);
        expect(logLines.some((line) => line.includes(`upgrade ${run.id}: planned (plan: ${run.planUrl})`))).toBe(true);
        expect(new Set(logLines).size).toBe(logLines.length);
    });

    it("goes on with its own upgrade when the earlier one ends failed", async () => {
        const inputs = await checked(slowProgram());
        const created = await noCodeWorkspace.create(inputs);
        await slow().addFault({ method: "POST", path: `/workspaces/${created.id}/upgrade$`, planOutcome: "errored" });
        const theirs = await rawInitiateUpgrade(slow(), SLOW_MODULE, created.id, [region("ap-south-1")]);
        const updated = await noCodeWorkspace.update(created.id, created.outs, { ...inputs, vars: [region("us-east-1")] });
        expect(updated.outs!.lastUpgrade).toMatchObject({ status: "applied" });
        expect(logLines.some((line) => line.includes(`earlier upgrade (${theirs.id})`))).toBe(true);
        expect((await rawUpgradeRun(slow(), SLOW_MODULE, created.id, theirs.id)).attributes.status).toBe("errored");
        expect((await rawVars(slow(), inputs.name as string))["infra/region"].value).toBe("us-east-1");
    });

    it("fails, starting nothing, when waiting for the earlier one fails for another reason", async () => {
        const inputs = await checked(slowProgram());
        const created = await noCodeWorkspace.create(inputs);
        const theirs = await rawInitiateUpgrade(slow(), SLOW_MODULE, created.id, [region("ap-south-1")]);
        await slow().addFault({ method: "GET", path: `/workspaces/${created.id}/upgrade/${theirs.id}$`, status: 403 });
        const error = (await rejection(noCodeWorkspace.update(created.id, created.outs, { ...inputs, vars: [region("us-east-1")] }))) as PartialError;
        expect(error.message).toMatch(/update \(upgrade\) failed.*403/);
        expect(error.id).toBeUndefined();
        expect((await rawVars(slow(), inputs.name as string))["infra/region"].value).toBe("eu-west-1");
        expect(logLines.filter((line) => line.includes("earlier upgrade"))).toHaveLength(1);
    });
});

describe("an earlier upgrade that does not finish in time", () => {
    // Plans never finish during the test here.
    const stuck = useServer({ planStepMs: 3_600_000 });

    it("names the earlier run, its last status and its plan URL when the deadline comes", async () => {
        const module = await enableModule(stuck());
        const inputs = await checked({
            noCodeModuleId: module,
            projectId: (await projectsNamed(stuck(), "Apps"))[0].id,
            name: uniqueWorkspaceName("stuck"),
            vars: [region("eu-west-1")],
            upgradeTimeoutSeconds: 0.2,
        });
        const created = await noCodeWorkspace.create(inputs);
        const theirs = await rawInitiateUpgrade(stuck(), module, created.id, [region("ap-south-1")]);
        const error = await rejection(noCodeWorkspace.update(created.id, created.outs, { ...inputs, vars: [region("us-east-1")] }));
        expect(error.message).toContain(
            `an earlier upgrade (${theirs.id}) of the workspace was still unfinished at the deadline (upgradeTimeoutSeconds; last status 'pending', plan: http`,
        );
        expect(error.message).toMatch(new RegExp(`plan: http[^)]*${theirs.id}\\); this upgrade did not start`));
    });
});

describe("secret values kept apart from vars (what `pulumi preview --diff` shows)", () => {
    it("a value the program made secret, in `sensitiveValues`, is written and stays apart in the outputs", async () => {
        const inputs = await checked(program({ vars: [{ key: "region", category: "infra" }], sensitiveValues: { "infra:region": "us-east-1" } }));
        const created = await noCodeWorkspace.create(inputs);
        expect((await rawVars(server(), inputs.name as string))["infra/region"]).toMatchObject({ value: "us-east-1", sensitive: false });
        expect(created.outs.vars).toEqual([{ key: "region", category: "infra", hcl: false, sensitive: false }]);
        expect(created.outs.sensitiveValues).toEqual({ "infra:region": "us-east-1" });
        expect((await noCodeWorkspace.diff(created.id, created.outs, inputs)).changes).toBe(false);
        // A change of the secret value is a change (an upgrade), found without revealing it anywhere else.
        const changed = { ...inputs, sensitiveValues: { "infra:region": "eu-west-1" } };
        expect((await noCodeWorkspace.diff(created.id, created.outs, changed)).changes).toBe(true);
        const read = await noCodeWorkspace.read(created.id, created.outs);
        expect(read.props).toEqual(created.outs);
    });

    it("state written before values were kept apart (inline) diffs as no change, and a read moves its values apart", async () => {
        const inputs = await checked(program({ vars: [region("eu-west-1"), { key: "API_KEY", category: "env", sensitive: true }], sensitiveValues: { "env:API_KEY": "s3cret-value" } }));
        const created = await noCodeWorkspace.create(inputs);
        const { sensitiveValues: _values, ...outs } = created.outs;
        const oldState = {
            ...outs,
            vars: [normal(region("eu-west-1")), { key: "API_KEY", value: "s3cret-value", category: "env", hcl: false, sensitive: true }],
        };
        expect((await noCodeWorkspace.diff(created.id, oldState, inputs)).changes).toBe(false);
        const read = await noCodeWorkspace.read(created.id, oldState);
        expect(read.props!.vars).toEqual([normal(region("eu-west-1")), { key: "API_KEY", category: "env", hcl: false, sensitive: true }]);
        expect(read.props!.sensitiveValues).toEqual({ "env:API_KEY": "s3cret-value" });
    });

    it.each([
        ["a list", ["x"]],
        ["a string", "x"],
        ["a map with a number", { "env:A": 1 }],
        ["a map with a string and a number", { "env:A": "a", "env:B": 1 }],
    ])("check refuses `sensitiveValues` that is %s, naming it", async (_what, sensitiveValues) => {
        const result = await noCodeWorkspace.check({}, { ...program(), sensitiveValues });
        expect(result.failures).toEqual([
            { property: "sensitiveValues", reason: "sensitiveValues must be a map of strings (the values of sensitive vars, by 'category:key')" },
        ]);
    });
});

describe("secret values kept apart: previews, outputs without secrets, partial successes", () => {
    const apiKey = { key: "API_KEY", category: "env", sensitive: true };
    /** A program with a sensitive var whose value the shell kept apart, as it sends it. */
    const withSecret = (extra: Record<string, unknown> = {}) =>
        program({ vars: [region("eu-west-1"), apiKey], sensitiveValues: { "env:API_KEY": "s3cret-value" }, ...extra });

    it("a preview with a var not known as a whole and secret values not known yet: check passes the inputs as given, diff sees a change", async () => {
        const inputs = await checked(withSecret());
        const created = await noCodeWorkspace.create(inputs);
        // As the shell registers it during a preview: a var given as a whole Output is unknown in its place, and the
        // values apart are not known while one of them is not.
        const news = { ...inputs, vars: [region("eu-west-1"), UNKNOWN, apiKey], sensitiveValues: UNKNOWN };
        expect(await noCodeWorkspace.check({}, news)).toEqual({ inputs: news, failures: [] });
        expect((await noCodeWorkspace.diff(created.id, created.outs, news)).changes).toBe(true);
    });

    it("a preview whose secret values are not known yet still judges the values that are known", async () => {
        const news = program({ vars: [{ key: "size", value: 42, category: "infra" }, apiKey], sensitiveValues: UNKNOWN });
        expect((await noCodeWorkspace.check({}, news)).failures).toEqual([{ property: "vars", reason: "vars[0].value must be a string" }]);
    });

    it("a workspace without secret values has no `sensitiveValues` in its outputs, after a create, a read and an update", async () => {
        const inputs = await checked(program());
        const created = await noCodeWorkspace.create(inputs);
        expect(created.outs).not.toHaveProperty("sensitiveValues");
        const read = await noCodeWorkspace.read(created.id, created.outs);
        expect(read.props).not.toHaveProperty("sensitiveValues");
        expect(read.inputs).not.toHaveProperty("sensitiveValues");
        const updated = await noCodeWorkspace.update(created.id, created.outs, await checked({ ...inputs, description: "changed" }));
        expect(updated.outs).toMatchObject({ description: "changed" });
        expect(updated.outs).not.toHaveProperty("sensitiveValues");
    });

    it("a secret var deleted outside Pulumi: a read keeps `sensitiveValues`, empty, while the program gives it; the next up puts the var back", async () => {
        const inputs = await checked(withSecret());
        const created = await noCodeWorkspace.create(inputs);
        const vars = await rawVars(server(), inputs.name as string);
        expect((await server().request("DELETE", `/vars/${vars["env/API_KEY"].id}`, { token: TOKEN })).status).toBe(204);
        const read = await noCodeWorkspace.read(created.id, created.outs);
        expect(read.props!.vars).toEqual([normal(region("eu-west-1"))]);
        expect(read.props!.sensitiveValues).toEqual({});
        expect(read.inputs!.sensitiveValues).toEqual({});
        expect((await noCodeWorkspace.diff(created.id, read.props!, inputs)).changes).toBe(true);
    });

    it("a partial success keeps the secret values apart in the state it leaves", async () => {
        const inputs = await checked(withSecret({ __provider: "serialized" }));
        const created = await noCodeWorkspace.create(inputs);
        await server().addFault({ method: "POST", path: upgradePath(created.id), planOutcome: "errored" });
        // A move, done, then an upgrade whose plan fails: the state keeps the new project and the old vars.
        const news = { ...inputs, projectId: STAGING, vars: [region("us-east-1"), apiKey] };
        const error = (await rejection(noCodeWorkspace.update(created.id, created.outs, news))) as PartialError;
        expect(error.message).toMatch(/update \(upgrade\) failed.*ended 'errored'/);
        expect(error.id).toBe(created.id);
        expect(error.properties).toMatchObject({ projectId: STAGING, sensitiveValues: { "env:API_KEY": "s3cret-value" }, __provider: "serialized" });
        expect(error.properties!.vars).toEqual([normal(region("eu-west-1")), normal(apiKey)]);
    });
});

describe("settings removed from the program", () => {
    it("a source name and URL left out are cleared on the service, and the next diff finds nothing", async () => {
        const inputs = await checked(program({ sourceName: "portal", sourceUrl: "https://portal.example.com" }));
        const created = await noCodeWorkspace.create(inputs);
        const { sourceName: _name, sourceUrl: _url, ...withoutSource } = inputs;
        const news = await checked(withoutSource);
        expect((await noCodeWorkspace.diff(created.id, created.outs, news)).changes).toBe(true);
        const updated = await noCodeWorkspace.update(created.id, created.outs, news);
        const raw = await rawWorkspace(server(), created.id);
        expect(raw.attributes["source-name"] ?? null).toBeNull();
        expect(raw.attributes["source-url"] ?? null).toBeNull();
        expect((await noCodeWorkspace.diff(created.id, updated.outs!, news)).changes).toBe(false);
        expect((await noCodeWorkspace.read(created.id, updated.outs)).props).toEqual(updated.outs);
    });
});

describe("vars of the same key in both categories (a var is its key in its category)", () => {
    const both = [
        { key: "size", value: "2", category: "infra" },
        { key: "size", value: "env-size", category: "env" },
    ];

    it("are created, read and diffed apart, and removing one deletes only that one", async () => {
        const inputs = await checked(program({ vars: [region("eu-west-1"), ...both] }));
        const created = await noCodeWorkspace.create(inputs);
        const vars = await rawVars(server(), inputs.name as string);
        expect(vars["infra/size"]).toMatchObject({ value: "2" });
        expect(vars["env/size"]).toMatchObject({ value: "env-size" });
        const read = await noCodeWorkspace.read(created.id, created.outs);
        expect(read.props!.vars).toEqual([normal(region("eu-west-1")), ...both.map(normal)]);

        // A change of the env one alone is a change; the same vars in another order are not.
        const envChanged = await checked({ ...inputs, vars: [region("eu-west-1"), both[0], { ...both[1], value: "other" }] });
        expect((await noCodeWorkspace.diff(created.id, created.outs, envChanged)).changes).toBe(true);
        const reordered = await checked({ ...inputs, vars: [both[1], region("eu-west-1"), both[0]] });
        expect((await noCodeWorkspace.diff(created.id, created.outs, reordered)).changes).toBe(false);

        // Removing the env one deletes it, and only it.
        const withoutEnv = await checked({ ...inputs, vars: [region("eu-west-1"), both[0]] });
        const updated = await noCodeWorkspace.update(created.id, created.outs, withoutEnv);
        const after = await rawVars(server(), inputs.name as string);
        expect(Object.keys(after).sort()).toEqual(["infra/region", "infra/size"]);
        expect(after["infra/size"]).toMatchObject({ value: "2" });
        expect(updated.outs!.vars).toEqual([normal(region("eu-west-1")), normal(both[0])]);
    });
});
