/**
 * The `wos:NoCodeWorkspace` handlers called directly, against the real local service, at the edges the main
 * file (`noCodeWorkspace.test.ts`) leaves open: the agent pool and var list rules of `check` at each value,
 * how messages name a workspace whose name or module is not known, the default upgrade logger, the first
 * delay of the upgrade backoff (`WOS_UPGRADE_POLL_MS`), the messages of a create that fails before anything
 * is written, diffs of the execution mode and its pool, and which workspace a create whose answer was lost
 * may take as its own (and how it brings it in line with the program).
 */
import * as noCodeWorkspace from "../../provider/handlers/noCodeWorkspace";
import type { TestServer } from "../support/server";
import { REGISTRY_MODULES } from "../support/seed";
import {
    projectsNamed,
    rejection,
    TOKEN,
    UNKNOWN,
    useServer,
    checkFailures,
    rawWorkspace,
    captureUpgradeLog,
    freshWorkspaceName,
    rawEnableNoCodeModule,
} from "./helpers";

const server = useServer({ planStepMs: 20 });
const AGENT_POOL = "apool-0000000000000001";

const previousPollMs = process.env.WOS_UPGRADE_POLL_MS;
afterEach(() => {
    if (previousPollMs === undefined) delete process.env.WOS_UPGRADE_POLL_MS;
    else process.env.WOS_UPGRADE_POLL_MS = previousPollMs;
});

/** A workspace name no other test of the file uses. */
const uniqueWorkspaceName = (prefix = "ncwc") => freshWorkspaceName(prefix);

const enableModule = (target: TestServer, registryModuleId: string, versionPin: string) => rawEnableNoCodeModule(target, registryModuleId, versionPin);


/** The status of `GET /organizations/acme/workspaces/:name`: 200 when a workspace holds the name, else 404. */
async function nameStatus(target: TestServer, name: string): Promise<number> {
    return (await target.request("GET", `/organizations/acme/workspaces/${name}`, { token: TOKEN })).status;
}

/** Makes a workspace from a no-code module over raw HTTP (someone else's); answers its id. */
async function rawNoCodeWorkspace(target: TestServer, moduleId: string, name: string, project: string, vars: Record<string, unknown>[]): Promise<string> {
    const response = await target.request("POST", `/no-code-modules/${moduleId}/workspaces`, {
        token: TOKEN,
        body: {
            data: {
                type: "workspaces",
                attributes: { name, description: "someone else's" },
                relationships: {
                    project: { data: { type: "project", id: project } },
                    vars: { data: vars.map((attributes) => ({ type: "vars", attributes })) },
                },
            },
        },
    });
    expect(response.status).toBe(200);
    return response.body.data.id;
}

/** Makes a plain workspace (no source module) over raw HTTP; answers its id. */
async function rawPlainWorkspace(target: TestServer, name: string, project: string, attributes: Record<string, unknown> = {}): Promise<string> {
    const response = await target.request("POST", "/organizations/acme/workspaces", {
        token: TOKEN,
        body: { data: { type: "workspaces", attributes: { name, ...attributes }, relationships: { project: { data: { type: "project", id: project } } } } },
    });
    expect(response.status).toBe(201);
    return response.body.data.id;
}

const failuresOf = (news: Record<string, unknown>) => checkFailures(noCodeWorkspace, news);

let MODULE = "";
let APPS = "";
let STAGING = "";
beforeAll(async () => {
    MODULE = await enableModule(server(), REGISTRY_MODULES.bucket, "1.0.0");
    APPS = (await projectsNamed(server(), "Apps"))[0].id;
    STAGING = (await projectsNamed(server(), "Staging"))[0].id;
});

const region = (value: string) => ({ key: "region", value, category: "infra" });

/** A program for a new workspace in Apps from the module, with `extra` settings. */
function program(extra: Record<string, unknown> = {}): Record<string, unknown> {
    return { noCodeModuleId: MODULE, projectId: APPS, name: uniqueWorkspaceName(), vars: [region("eu-west-1")], ...extra };
}

describe("check at the edges", () => {
    const valid = { noCodeModuleId: "nocode-1", projectId: "prj-1", name: "site-prod" };
    const poolRequired = { property: "agentPoolId", reason: "agentPoolId is required when executionMode is 'agent'" };

    it.each([
        ["no agent pool", undefined],
        ["a null agent pool", null],
        ["an empty agent pool", ""],
    ])("requires an agent pool with executionMode agent: %s", async (_what, agentPoolId) => {
        expect(await failuresOf({ ...valid, executionMode: "agent", agentPoolId })).toContainEqual(poolRequired);
    });

    it.each([
        ["the default mode without a pool", {}],
        ["remote without a pool", { executionMode: "remote" }],
        ["remote with a null pool", { executionMode: "remote", agentPoolId: null }],
        ["agent with a pool", { executionMode: "agent", agentPoolId: AGENT_POOL }],
        ["the default mode with a pool not known yet", { agentPoolId: UNKNOWN }],
        ["remote with a pool not known yet", { executionMode: "remote", agentPoolId: UNKNOWN }],
        ["a mode not known yet without a pool", { executionMode: UNKNOWN }],
    ])("accepts %s", async (_what, extra) => {
        expect(await failuresOf({ ...valid, ...extra })).toEqual([]);
    });

    it("refuses an infinite upgradeTimeoutSeconds as not a number of seconds", async () => {
        for (const upgradeTimeoutSeconds of [Infinity, -Infinity]) {
            expect(await failuresOf({ ...valid, upgradeTimeoutSeconds })).toEqual([
                { property: "upgradeTimeoutSeconds", reason: "upgradeTimeoutSeconds must be a number of seconds" },
            ]);
        }
    });

    it("describes what a var is when vars is not a list, or an item not an object", async () => {
        const item = "vars ({ key, value?, category, description?, hcl?, sensitive? })";
        expect(await failuresOf({ ...valid, vars: { region: "x" } })).toEqual([{ property: "vars", reason: `vars must be a list of ${item}` }]);
        expect(await failuresOf({ ...valid, vars: [region("x"), "region"] })).toEqual([{ property: "vars", reason: `vars[1] must be ${item}` }]);
    });

    it("judges no var a duplicate while its key or category is not known yet", async () => {
        const unknownCategory = { key: "region", value: "a", category: UNKNOWN };
        const unknownKey = { key: UNKNOWN, value: "a", category: "infra" };
        expect(await failuresOf({ ...valid, vars: [unknownCategory, unknownCategory] })).toEqual([]);
        expect(await failuresOf({ ...valid, vars: [unknownKey, unknownKey] })).toEqual([]);
        // The same pair once known is a duplicate: the rule itself is on.
        expect(await failuresOf({ ...valid, vars: [region("a"), region("a")] })).toEqual([
            { property: "vars", reason: "vars[1]: var 'region' (infra) appears more than once" },
        ]);
    });
});

describe("how messages name the workspace", () => {
    const id = "ws-0000000000000999";
    beforeEach(async () => {
        await server().addFault({ path: `^/api/v2/workspaces/${id}$`, times: 1, status: 400 });
    });

    it.each([
        ["no state at all", undefined],
        ["a name and module not known yet", { name: UNKNOWN, noCodeModuleId: UNKNOWN }],
        ["a name and module that are not text", { name: 5, noCodeModuleId: null }],
    ])("leaves out the name and the module with %s", async (_what, props) => {
        const error = await rejection(noCodeWorkspace.read(id, props as Record<string, unknown> | undefined));
        expect(error.message.startsWith(`wos:NoCodeWorkspace (${id}): read failed: `)).toBe(true);
    });

    it("names the workspace and its module when state has them", async () => {
        const error = await rejection(noCodeWorkspace.delete(id, { name: "site-prod", noCodeModuleId: "nocode-1" }));
        expect(error.message.startsWith(`wos:NoCodeWorkspace 'site-prod' (${id}) of no-code module nocode-1: delete failed: `)).toBe(true);
    });
});

describe("the default upgrade logger", () => {
    afterEach(() => {
        jest.restoreAllMocks();
        noCodeWorkspace.setUpgradeLogger();
    });

    it("writes progress to the Pulumi log, which outside a Pulumi program prints it", () => {
        noCodeWorkspace.setUpgradeLogger();
        const pulumiLog = noCodeWorkspace.setUpgradeLogger();
        const printed = jest.spyOn(console, "log").mockImplementation(() => undefined);
        pulumiLog("upgrade run-1 started: pending");
        expect(printed).toHaveBeenCalledWith("info: [runtime] upgrade run-1 started: pending");
    });
});

describe("the first delay of the upgrade backoff (WOS_UPGRADE_POLL_MS)", () => {
    // An earlier upgrade is unfinished (a 409 that names no run) and the deadline is 0.9 s away: a first delay
    // of 1 s (the default) would pass the deadline, so the upgrade fails at once; a shorter one waits and
    // tries again, and the second try meets the next injected answer, a 422.
    let created: { id: string; outs: Record<string, any> };
    let news: Record<string, unknown>;
    const logLines = captureUpgradeLog();
    beforeAll(async () => {
        const inputs = program();
        created = (await noCodeWorkspace.create(inputs)) as typeof created;
        news = { ...inputs, vars: [region("us-east-1")], upgradeTimeoutSeconds: 0.9 };
    });

    it.each([
        ["unset", undefined, "deadline"],
        ["not a number", "abc", "deadline"],
        ["0", "0", "deadline"],
        ["negative", "-5", "deadline"],
        ["under 1", "0.9", "deadline"],
        ["1 (the smallest allowed)", "1", "retried"],
        ["10", "10", "retried"],
    ])("uses the variable only when it is a number of at least 1: %s", async (_what, value, outcome) => {
        if (value === undefined) delete process.env.WOS_UPGRADE_POLL_MS;
        else process.env.WOS_UPGRADE_POLL_MS = value;
        const upgradePath = `^/api/v2/no-code-modules/${MODULE}/workspaces/${created.id}/upgrade$`;
        await server().addFault({ method: "POST", path: upgradePath, times: 1, status: 409 });
        await server().addFault({ method: "POST", path: upgradePath, times: 1, status: 422 });
        const error = await rejection(noCodeWorkspace.update(created.id, created.outs, news));
        expect(error.message).toContain("update (upgrade) failed");
        expect(logLines).toHaveLength(1);
        expect(logLines[0]).toContain("an earlier upgrade of the workspace is unfinished");
        if (outcome === "deadline") {
            expect(error.message).toContain("still unfinished at the deadline");
            expect(error.message).not.toContain("422");
        } else {
            expect(error.message).toContain("422");
            expect(error.message).not.toContain("deadline");
        }
    });
});

describe("a create that fails before anything is written", () => {
    it("names the module it could not read and what it needed it for", async () => {
        const missing = "nocode-0000000000009999";
        const inputs = program({ noCodeModuleId: missing });
        const error = await rejection(noCodeWorkspace.create(inputs));
        expect(error.message.startsWith(`wos:NoCodeWorkspace '${inputs.name}' of no-code module ${missing}: create (reading no-code module ${missing}) failed: `)).toBe(true);
        expect(await nameStatus(server(), inputs.name as string)).toBe(404);
    });

    it("fails when the look-up of the name before the create fails, and creates nothing", async () => {
        const inputs = program();
        await server().addFault({ method: "GET", path: `^/api/v2/organizations/acme/workspaces/${inputs.name}$`, times: 1, status: 400 });
        const error = await rejection(noCodeWorkspace.create(inputs));
        expect(error.message.startsWith(`wos:NoCodeWorkspace '${inputs.name}' of no-code module ${MODULE}: create failed: `)).toBe(true);
        expect(error.message).toContain("400");
        expect(await nameStatus(server(), inputs.name as string)).toBe(404);
    });

    it("says how to fix a moduleVersion the module does not pin", async () => {
        const inputs = program({ moduleVersion: "1.1.0" });
        const error = await rejection(noCodeWorkspace.create(inputs));
        expect(error.message).toBe(
            `wos:NoCodeWorkspace '${inputs.name}' of no-code module ${MODULE}: create failed: moduleVersion '1.1.0' is not the version ` +
                `no-code module ${MODULE} pins ('1.0.0'); change the module's versionPin to '1.1.0' or moduleVersion to '1.0.0'. Nothing was changed.`,
        );
        expect(await nameStatus(server(), inputs.name as string)).toBe(404);
    });
});

describe("diff of the execution mode, its pool and the vars", () => {
    const base = { noCodeModuleId: "nocode-1", projectId: "prj-1", name: "site-prod", vars: [] };
    const agent = { ...base, executionMode: "agent", agentPoolId: AGENT_POOL };

    it.each([
        ["the mode alone (agent to remote, the pool left as it is)", agent, { ...agent, executionMode: "remote" }],
        ["the pool alone", agent, { ...agent, agentPoolId: "apool-0000000000000002" }],
        ["a mode not known yet", agent, { ...agent, executionMode: UNKNOWN }],
        ["a var's description added", { ...base, vars: [{ key: "a", value: "", category: "env", hcl: false, sensitive: false }] }, { ...base, vars: [{ key: "a", category: "env", description: "d" }] }],
    ])("changes %s", async (_what, olds, news) => {
        expect((await noCodeWorkspace.diff("ws-1", olds, news)).changes).toBe(true);
    });

    it.each([
        ["vars null in state and an empty list in the program", { ...base, vars: null }, { ...base, vars: [] }],
        ["vars null in state and none in the program", { ...base, vars: null }, { ...base, vars: undefined }],
        ["a var description null and none", { ...base, vars: [{ key: "a", value: "", category: "env", hcl: false, sensitive: false }] }, { ...base, vars: [{ key: "a", category: "env", description: null }] }],
        ["remote spelled out and left out", { ...base, executionMode: "remote" }, base],
    ])("reports no change for %s", async (_what, olds, news) => {
        expect(await noCodeWorkspace.diff("ws-1", olds, news)).toEqual({ changes: false, replaces: [], deleteBeforeReplace: false });
    });
});

describe("update of the execution mode", () => {
    it("moves the workspace onto an agent pool and back to remote", async () => {
        const inputs = program();
        const created = await noCodeWorkspace.create(inputs);
        const onAgent = { ...inputs, executionMode: "agent", agentPoolId: AGENT_POOL };
        const updated = await noCodeWorkspace.update(created.id, created.outs, onAgent);
        expect(updated.outs).toMatchObject({ executionMode: "agent", agentPoolId: AGENT_POOL });
        const raw = await rawWorkspace(server(), created.id);
        expect(raw.attributes["execution-mode"]).toBe("agent");
        expect(raw.relationships["agent-pool"].data.id).toBe(AGENT_POOL);

        const back = await noCodeWorkspace.update(created.id, updated.outs!, inputs);
        expect(back.outs!.executionMode).toBe("remote");
        expect(back.outs!.agentPoolId).toBeUndefined();
        const rawBack = await rawWorkspace(server(), created.id);
        expect(rawBack.attributes["execution-mode"]).toBe("remote");
        expect(rawBack.relationships["agent-pool"].data).toBeNull();
    });
});

describe("which workspace a create whose answer was lost takes as its own", () => {
    // The look-up before the create misses the workspace (an injected 404: as if it were made between that
    // look-up and the create), and the create fails before committing (a 503): the look-up after the create
    // finds the workspace, and only one this create could have made is taken.
    const createPath = () => `^/api/v2/no-code-modules/${MODULE}/workspaces$`;
    async function loseTheAnswer(name: string): Promise<void> {
        await server().addFault({ method: "GET", path: `^/api/v2/organizations/acme/workspaces/${name}$`, times: 1, status: 404 });
        await server().addFault({ method: "POST", path: createPath(), times: 1, status: 503 });
    }

    it("takes one with no source module in the project asked for, and sets every setting the program gives", async () => {
        const name = uniqueWorkspaceName("found");
        const id = await rawPlainWorkspace(server(), name, APPS, { description: "before" });
        await loseTheAnswer(name);
        const settings = { description: "mine", autoApply: true, executionMode: "agent", agentPoolId: AGENT_POOL, sourceName: "pulumi", sourceUrl: "https://example.com/stack" };
        const created = await noCodeWorkspace.create(program({ name, ...settings }));
        expect(created.id).toBe(id);
        expect(created.outs).toMatchObject({ name, projectId: APPS, ...settings });
        const raw = await rawWorkspace(server(), id);
        expect(raw.attributes).toMatchObject({
            description: "mine",
            "auto-apply": true,
            "execution-mode": "agent",
            "source-name": "pulumi",
            "source-url": "https://example.com/stack",
        });
        expect(raw.relationships["agent-pool"].data.id).toBe(AGENT_POOL);
    });

    it("resets the settings the program leaves out to their defaults", async () => {
        const name = uniqueWorkspaceName("found");
        const id = await rawPlainWorkspace(server(), name, APPS, {
            description: "before",
            "auto-apply": true,
            "execution-mode": "agent",
            "agent-pool-id": AGENT_POOL,
            "source-name": "someone",
            "source-url": "https://example.com/someone",
        });
        await loseTheAnswer(name);
        const created = await noCodeWorkspace.create(program({ name }));
        expect(created.id).toBe(id);
        expect(created.outs).toMatchObject({ autoApply: false, executionMode: "remote" });
        for (const key of ["description", "agentPoolId", "sourceName", "sourceUrl"]) expect(created.outs).not.toHaveProperty(key);
        const raw = await rawWorkspace(server(), id);
        expect(raw.attributes).toMatchObject({ description: null, "auto-apply": false, "execution-mode": "remote", "source-name": null, "source-url": null });
        expect(raw.relationships["agent-pool"].data).toBeNull();
    });

    it("never takes one of the same module in another project", async () => {
        const name = uniqueWorkspaceName("theirs");
        const id = await rawNoCodeWorkspace(server(), MODULE, name, STAGING, [region("us-east-1")]);
        await loseTheAnswer(name);
        const error = (await rejection(noCodeWorkspace.create(program({ name, description: "mine" })))) as Error & { id?: string };
        expect(error.message).toMatch(/create failed.*503/);
        expect(error.id).toBeUndefined();
        const raw = await rawWorkspace(server(), id);
        expect(raw.attributes.description).toBe("someone else's");
        expect(raw.relationships.project.data.id).toBe(STAGING);
    });

    it("never takes one made from another module in the project asked for", async () => {
        const network = await enableModule(server(), REGISTRY_MODULES.network, "2.0.0");
        const name = uniqueWorkspaceName("theirs");
        const id = await rawNoCodeWorkspace(server(), network, name, APPS, [{ key: "cidr", value: "10.0.0.0/16", category: "infra" }]);
        await loseTheAnswer(name);
        const error = (await rejection(noCodeWorkspace.create(program({ name, description: "mine" })))) as Error & { id?: string };
        expect(error.message).toMatch(/create failed.*503/);
        expect(error.id).toBeUndefined();
        const raw = await rawWorkspace(server(), id);
        expect(raw.attributes.description).toBe("someone else's");
        expect(raw.attributes["source-module-id"]).toBe(REGISTRY_MODULES.network);
    });
});
