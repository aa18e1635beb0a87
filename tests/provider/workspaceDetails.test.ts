/**
 * The `wos:Workspace` handlers in detail, called directly as the provider host calls them, against the real
 * local service: the rules of `check` at their edges, `null` as absence, how messages name the workspace,
 * partial PATCHes, and what a create whose answer was lost may take as its own (keeping the name such a
 * workspace has, in whatever case). What the service holds is read over raw HTTP, never through the code
 * under test.
 */
import { clientFromCredentials } from "../../provider/handlers/credentials";
import * as workspace from "../../provider/handlers/workspace";
import { REGISTRY_MODULES } from "../support/seed";
import type { TestServer } from "../support/server";
import {
    rejection,
    TOKEN,
    UNKNOWN,
    useServer,
    checkFailures,
    checkedInputs,
    rawWorkspace,
    acmeProjectIds,
    rawWorkspacesNamed,
    freshWorkspaceName,
    withoutDefaultOrganization,
    rawEnableNoCodeModule,
} from "./helpers";

const server = useServer();
const AGENT_POOL = "apool-0000000000000001";
const CREATE_PATH = "^/api/v2/organizations/acme/workspaces$";

/** A workspace name no other test of the file uses. */
const uniqueName = (prefix = "wsd") => freshWorkspaceName(prefix);

withoutDefaultOrganization();

let ids: Record<"Default Project" | "Apps" | "Staging" | "Empty", string>;
let noCodeModule: string;
beforeAll(async () => {
    ids = await acmeProjectIds(server());
    // The bucket module enabled for no-code provisioning, over raw HTTP: the source of no-code workspaces.
    noCodeModule = await rawEnableNoCodeModule(server(), REGISTRY_MODULES.bucket);
});

/** Inputs after `check`, as the host hands them to `create`. */
const checked = (news: Record<string, unknown>) => checkedInputs(workspace, news);

const failuresOf = (news: Record<string, unknown>) => checkFailures(workspace, news);


const workspacesNamed = (name: string) => rawWorkspacesNamed(server(), name);

/** Makes a workspace over raw HTTP, as someone else would: through the API, in `projectId`. */
async function rawCreate(name: string, projectId: string): Promise<string> {
    const made = await server().request("POST", "/organizations/acme/workspaces", {
        token: TOKEN,
        body: { data: { type: "workspaces", attributes: { name }, relationships: { project: { data: { type: "projects", id: projectId } } } } },
    });
    expect(made.status).toBe(201);
    return made.body.data.id;
}

/** Makes a workspace from the no-code bucket module over raw HTTP, in `projectId`. */
async function rawNoCodeCreate(name: string, projectId: string): Promise<string> {
    const made = await server().request("POST", `/no-code-modules/${noCodeModule}/workspaces`, {
        token: TOKEN,
        body: {
            data: {
                type: "workspaces",
                attributes: { name },
                relationships: {
                    project: { data: { type: "project", id: projectId } },
                    vars: { data: [{ type: "vars", attributes: { key: "region", value: "us-east-1", category: "infra" } }] },
                },
            },
        },
    });
    expect(made.status).toBe(200);
    expect(made.body.data.attributes.source).toBe("tfe-module");
    return made.body.data.id;
}

/**
 * Runs `create` so that, between its look-up before the create and the create itself, someone else makes a
 * workspace of the same name (`interloper`); the create request then reaches the service and fails with a
 * real 503 before its commit, so the handler's look-up after the lost answer finds the interloper's.
 */
async function createRacingAnother(inputs: Record<string, unknown>, interloper: () => Promise<string>) {
    const client = clientFromCredentials();
    const original = client.workspaces.create.bind(client.workspaces);
    let otherId: string | undefined;
    const spy = jest.spyOn(client.workspaces, "create").mockImplementationOnce(async (organization, options) => {
        otherId = await interloper();
        await server().addFault({ method: "POST", path: CREATE_PATH, times: 1, status: 503 });
        return original(organization, options);
    });
    try {
        const outcome = await workspace.create(inputs).then(
            (result) => ({ result, error: undefined }),
            (error: Error & { id?: string }) => ({ result: undefined, error }),
        );
        expect(spy).toHaveBeenCalledTimes(1);
        return { ...outcome, otherId: otherId! };
    } finally {
        spy.mockRestore();
    }
}

const valid = { organization: "acme", name: "valid-name" };

describe("check at the edges of its rules", () => {
    it("rejects an organization that is not a string, saying so", async () => {
        expect(await failuresOf({ ...valid, organization: 42 })).toEqual([{ property: "organization", reason: "organization must be a string" }]);
    });

    it.each([
        ["null", null],
        ["empty", ""],
    ])("rejects agent execution whose agent pool is %s as a missing pool", async (_what, agentPoolId) => {
        const failures = await failuresOf({ ...valid, executionMode: "agent", agentPoolId });
        expect(failures).toContainEqual({ property: "agentPoolId", reason: "agentPoolId is required when executionMode is 'agent'" });
    });

    it("takes a null agent pool with remote execution (given or by default) as no pool", async () => {
        expect(await failuresOf({ ...valid, agentPoolId: null })).toEqual([]);
        expect(await failuresOf({ ...valid, executionMode: "remote", agentPoolId: null })).toEqual([]);
    });

    it("lets an agent pool not known yet pass with remote execution: it is checked once known", async () => {
        expect(await failuresOf({ ...valid, agentPoolId: UNKNOWN })).toEqual([]);
        expect(await failuresOf({ ...valid, executionMode: "remote", agentPoolId: UNKNOWN })).toEqual([]);
        // Known, the same pool is refused.
        expect(await failuresOf({ ...valid, agentPoolId: AGENT_POOL })).toHaveLength(1);
    });
});

describe("diff in detail", () => {
    const state = { organization: "acme", name: "web", projectId: "prj-a", autoApply: false, executionMode: "agent", agentPoolId: AGENT_POOL };

    it("reports no change (and no move) for a null projectId, as for an absent one", async () => {
        expect(await workspace.diff("ws-x", state, { ...state, projectId: null })).toEqual({ changes: false, replaces: [], deleteBeforeReplace: false });
    });

    it("reports a change of agent pool alone", async () => {
        expect(await workspace.diff("ws-x", state, { ...state, agentPoolId: "apool-0000000000000002" })).toMatchObject({ changes: true, replaces: [] });
    });
});

describe("create in detail", () => {
    it("takes null settings as absent: the service's defaults, the Default Project", async () => {
        const name = uniqueName("nulls");
        const inputs = await checked({ organization: "acme", name, projectId: null, description: null, autoApply: null, executionMode: null, agentPoolId: null });
        const result = await workspace.create(inputs);
        expect(result.outs).toEqual({ organization: "acme", name, projectId: ids["Default Project"], autoApply: false, executionMode: "remote" });
        const raw = await rawWorkspace(server(), result.id);
        expect(raw.attributes).toMatchObject({ name, description: null, "auto-apply": false, "execution-mode": "remote" });
        expect(raw.relationships.project.data.id).toBe(ids["Default Project"]);
    });

    it("fails, creating nothing, when the look-up of the name before the create is refused (not a 404)", async () => {
        const name = uniqueName("lookup");
        await server().addFault({ method: "GET", path: `^/api/v2/organizations/acme/workspaces/${name}$`, times: 1, status: 403 });
        const error = await rejection(workspace.create(await checked({ organization: "acme", name, projectId: ids.Apps })));
        expect(error.message).toMatch(new RegExp(`^wos:Workspace '${name}' in organization 'acme': create failed: `));
        expect(await workspacesNamed(name)).toEqual([]);
    });

    it("recovers a lost answer without projectId: the workspace found in the Default Project is its own", async () => {
        const name = uniqueName("lostdefault");
        await server().addFault({ method: "POST", path: CREATE_PATH, times: 1, status: 503, afterCommit: true });
        const result = await workspace.create(await checked({ organization: "acme", name, description: "mine" }));
        const found = await workspacesNamed(name);
        expect(found).toHaveLength(1);
        expect(result.id).toBe(found[0].id);
        expect(result.outs).toEqual({ organization: "acme", name, projectId: ids["Default Project"], description: "mine", autoApply: false, executionMode: "remote" });
    });

    it("never takes a workspace found in another project than the one asked for after a lost answer", async () => {
        const name = uniqueName("otherproject");
        const { result, error, otherId } = await createRacingAnother(await checked({ organization: "acme", name, projectId: ids.Apps, description: "mine" }), () =>
            rawCreate(name, ids.Empty),
        );
        expect(result).toBeUndefined();
        expect(error!.message).toMatch(new RegExp(`^wos:Workspace '${name}' in organization 'acme': create failed: `));
        expect(error!.id).toBeUndefined();
        const raw = await rawWorkspace(server(), otherId);
        expect(raw.relationships.project.data.id).toBe(ids.Empty);
        expect(raw.attributes.description).toBeNull();
        expect(await workspacesNamed(name)).toHaveLength(1);
    });

    it.each([
        ["in the project asked for", true],
        ["with no project asked for", false],
    ])("never takes a workspace made from a no-code module after a lost answer (%s)", async (_what, withProject) => {
        const name = uniqueName("nocode");
        const { result, error, otherId } = await createRacingAnother(
            await checked({ organization: "acme", name, ...(withProject ? { projectId: ids.Apps } : {}), description: "mine" }),
            () => rawNoCodeCreate(name, ids.Apps),
        );
        expect(result).toBeUndefined();
        expect(error!.message).toMatch(/create failed/);
        expect(error!.id).toBeUndefined();
        const raw = await rawWorkspace(server(), otherId);
        // Left as it was made: the finishing PATCH would have written the description asked for.
        expect(raw.attributes.source).toBe("tfe-module");
        expect(raw.attributes.description).not.toBe("mine");
        expect(await workspacesNamed(name)).toHaveLength(1);
    });

    it("brings an API workspace found after a lost answer in line with every setting, with one PATCH", async () => {
        const name = uniqueName("finish");
        const { result, error, otherId } = await createRacingAnother(
            await checked({ organization: "acme", name, projectId: ids.Staging, description: "mine", autoApply: true, executionMode: "agent", agentPoolId: AGENT_POOL }),
            () => rawCreate(name, ids.Staging),
        );
        expect(error).toBeUndefined();
        expect(result!.id).toBe(otherId);
        const outputs = { organization: "acme", name, projectId: ids.Staging, description: "mine", autoApply: true, executionMode: "agent", agentPoolId: AGENT_POOL };
        expect(result!.outs).toEqual(outputs);
        const raw = await rawWorkspace(server(), otherId);
        expect(raw.attributes).toMatchObject({ description: "mine", "auto-apply": true, "execution-mode": "agent" });
        expect(raw.relationships["agent-pool"].data.id).toBe(AGENT_POOL);
    });

    it("takes one found after a lost answer whose name differs only in case as it is named: the PATCH leaves the name, the next diff renames it", async () => {
        const name = uniqueName("finishcase");
        const theirs = name.toUpperCase();
        const inputs = await checked({ organization: "acme", name, projectId: ids.Staging, description: "mine" });
        // Names are one in any case: the look-up by the program's name finds the workspace spelled otherwise.
        const { result, error, otherId } = await createRacingAnother(inputs, () => rawCreate(theirs, ids.Staging));
        expect(error).toBeUndefined();
        expect(result!.id).toBe(otherId);
        expect(result!.outs).toEqual({ organization: "acme", name: theirs, projectId: ids.Staging, description: "mine", autoApply: false, executionMode: "remote" });
        expect((await rawWorkspace(server(), otherId)).attributes).toMatchObject({ name: theirs, description: "mine" });
        expect(await workspace.diff(otherId, result!.outs!, inputs)).toEqual({ changes: true, replaces: [], deleteBeforeReplace: false });
    });
});

describe("how failures name the workspace", () => {
    async function madeWorkspace(prefix: string) {
        return workspace.create(await checked({ organization: "acme", name: uniqueName(prefix), projectId: ids.Empty }));
    }

    it("names the id alone on a failed read by id, the name and organization too when state has them, never an unknown value", async () => {
        const created = await madeWorkspace("readfail");
        const fault = { method: "GET", path: `^/api/v2/workspaces/${created.id}$`, times: 1, status: 403 };
        await server().addFault(fault);
        expect((await rejection(workspace.read(created.id))).message).toMatch(new RegExp(`^wos:Workspace \\(${created.id}\\): read failed: `));
        await server().addFault(fault);
        expect((await rejection(workspace.read(created.id, created.outs))).message).toMatch(
            new RegExp(`^wos:Workspace '${created.outs!.name}' \\(${created.id}\\) in organization 'acme': read failed: `),
        );
        await server().addFault(fault);
        expect((await rejection(workspace.read(created.id, { name: UNKNOWN, organization: UNKNOWN }))).message).toMatch(
            new RegExp(`^wos:Workspace \\(${created.id}\\): read failed: `),
        );
    });

    it("names the workspace on a failed delete and leaves it in place", async () => {
        const created = await madeWorkspace("deletefail");
        await server().addFault({ method: "DELETE", path: `^/api/v2/workspaces/${created.id}$`, times: 1, status: 403 });
        const error = await rejection(workspace.delete(created.id, created.outs));
        expect(error.message).toMatch(new RegExp(`^wos:Workspace '${created.outs!.name}' \\(${created.id}\\) in organization 'acme': delete failed: `));
        expect(await rawWorkspace(server(), created.id)).toBeDefined();
    });

    it("reports a failed PATCH without a move as a plain failure (no partial success), and sends no move", async () => {
        const inputs = await checked({ organization: "acme", name: uniqueName("patchfail") });
        const created = await workspace.create(inputs);
        const client = clientFromCredentials();
        const move = jest.spyOn(client.projects, "moveWorkspaces");
        try {
            await server().addFault({ method: "PATCH", path: `^/api/v2/workspaces/${created.id}$`, times: 1, status: 422 });
            const error = (await rejection(workspace.update(created.id, created.outs!, { ...inputs, description: "no" }))) as Error & { id?: string };
            expect(error.message).toMatch(new RegExp(`^wos:Workspace '${inputs.name}' \\(${created.id}\\) in organization 'acme': update failed: `));
            expect(error.id).toBeUndefined();
            // Without projectId in the program, the next update changes the description and moves nothing.
            const updated = await workspace.update(created.id, created.outs!, { ...inputs, description: "yes" });
            expect(updated.outs).toEqual({ ...created.outs, description: "yes" });
            expect(move).not.toHaveBeenCalled();
        } finally {
            move.mockRestore();
        }
        expect((await rawWorkspace(server(), created.id)).relationships.project.data.id).toBe(ids["Default Project"]);
    });
});

describe("update sends only what changed", () => {
    it("turns auto-apply on, and off again when the program leaves it out", async () => {
        const inputs = await checked({ organization: "acme", name: uniqueName("autoapply"), projectId: ids.Empty });
        const created = await workspace.create(inputs);
        const on = await workspace.update(created.id, created.outs!, await checked({ ...inputs, autoApply: true }));
        expect(on.outs).toEqual({ ...created.outs, autoApply: true });
        expect((await rawWorkspace(server(), created.id)).attributes["auto-apply"]).toBe(true);
        const off = await workspace.update(created.id, on.outs!, inputs);
        expect(off.outs).toEqual(created.outs);
        expect((await rawWorkspace(server(), created.id)).attributes["auto-apply"]).toBe(false);
    });

    it("keeps execution settings changed by hand when only the description changes", async () => {
        const inputs = await checked({ organization: "acme", name: uniqueName("keepexec"), projectId: ids.Empty });
        const created = await workspace.create(inputs);
        const patched = await server().request("PATCH", `/workspaces/${created.id}`, {
            token: TOKEN,
            body: { data: { type: "workspaces", attributes: { "execution-mode": "agent", "agent-pool-id": AGENT_POOL } } },
        });
        expect(patched.status).toBe(200);
        const updated = await workspace.update(created.id, created.outs!, await checked({ ...inputs, description: "only this" }));
        expect(updated.outs).toEqual({ ...created.outs, description: "only this", executionMode: "agent", agentPoolId: AGENT_POOL });
        const raw = await rawWorkspace(server(), created.id);
        expect(raw.attributes).toMatchObject({ description: "only this", "execution-mode": "agent" });
        expect(raw.relationships["agent-pool"].data.id).toBe(AGENT_POOL);
        // The program's remote execution put back from that state: mode and pool change with one PATCH.
        const back = await workspace.update(created.id, updated.outs!, await checked({ ...inputs, description: "only this" }));
        expect(back.outs).toEqual({ ...created.outs, description: "only this" });
        expect((await rawWorkspace(server(), created.id)).relationships["agent-pool"].data).toBeNull();
    });
});
