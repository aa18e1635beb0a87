/**
 * The `wos:Workspace` handlers called directly, as the provider host calls them, against the real local
 * service. What the service holds is read over raw HTTP, never through the code under test.
 */
import { clientFromCredentials } from "../../provider/handlers/credentials";
import * as workspace from "../../provider/handlers/workspace";
import { TOKENS, WORKSPACES } from "../support/seed";
import type { TestServer } from "../support/server";
import {
    configureFor,
    configureUnreachable,
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
} from "./helpers";

const server = useServer();
const AGENT_POOL = "apool-0000000000000001";
const CREATE_PATH = "^/api/v2/organizations/acme/workspaces$";

/** A workspace name no other test of the file uses. */
const uniqueName = (prefix = "ws") => freshWorkspaceName(prefix);

withoutDefaultOrganization();

let ids: Record<"Default Project" | "Apps" | "Staging" | "Empty", string>;
beforeAll(async () => {
    ids = await acmeProjectIds(server());
});

/** Inputs after `check`, as the host hands them to `create`. */
const checked = (news: Record<string, unknown>) => checkedInputs(workspace, news);

const failuresOf = (news: Record<string, unknown>) => checkFailures(workspace, news);


const workspacesNamed = (name: string) => rawWorkspacesNamed(server(), name);

const valid = { organization: "acme", name: "valid-name" };

describe("check", () => {
    it.each([
        ["a missing name", { organization: "acme" }, "name", /name is required/],
        ["a missing organization (no default configured)", { name: "ws" }, "organization", /organization is required.*wos:organization.*WOS_ORGANIZATION/],
        ["a blank organization", { ...valid, organization: " " }, "organization", /must not be empty/],
        ["an empty name", { ...valid, name: "" }, "name", /must not be empty/],
        ["a name over 90 characters", { ...valid, name: "w".repeat(91) }, "name", /at most 90 characters/],
        ["a name with a space", { ...valid, name: "two words" }, "name", /only letters, numbers, '-' and '_'/],
        ["a projectId without its prefix", { ...valid, projectId: "Apps" }, "projectId", /'prj-'/],
        ["a description over 256 characters", { ...valid, description: "d".repeat(257) }, "description", /at most 256/],
        ["autoApply that is not a boolean", { ...valid, autoApply: "yes" }, "autoApply", /true or false/],
        ["an execution mode that does not exist", { ...valid, executionMode: "local" }, "executionMode", /'remote' or 'agent'/],
        ["agent execution without an agent pool", { ...valid, executionMode: "agent" }, "agentPoolId", /required when executionMode is 'agent'/],
        ["an agent pool with remote execution", { ...valid, agentPoolId: AGENT_POOL }, "agentPoolId", /must not be given when executionMode is 'remote'/],
        ["an agent pool id without its prefix", { ...valid, executionMode: "agent", agentPoolId: "pool-1" }, "agentPoolId", /'apool-'/],
    ])("rejects %s, naming the property and the rule", async (_what, news, property, reason) => {
        const failures = await failuresOf(news);
        expect(failures).toContainEqual({ property, reason: expect.stringMatching(reason) });
        expect(failures.every((failure) => failure.reason.startsWith(failure.property))).toBe(true);
    });

    it("accepts valid inputs (names of 1 and 90 characters) and returns them unchanged", async () => {
        for (const news of [
            { organization: "acme", name: "a" },
            { organization: "acme", name: "w".repeat(90), projectId: "prj-abc", description: "d".repeat(256), autoApply: true, executionMode: "agent", agentPoolId: AGENT_POOL },
        ]) {
            expect(await checked(news)).toEqual(news);
        }
    });

    it("lets unknown values pass during preview", async () => {
        const failures = await failuresOf({ organization: UNKNOWN, name: UNKNOWN, projectId: UNKNOWN, executionMode: "agent", agentPoolId: UNKNOWN });
        expect(failures).toEqual([]);
    });

    it("sends no request, even for invalid inputs: an unreachable address does not matter and nothing is written", async () => {
        await configureUnreachable();
        expect((await failuresOf({ ...valid, name: "bad name" })).length).toBe(1);
        expect(await failuresOf({ ...valid, name: "good-name" })).toEqual([]);
        await configureFor(server());
        expect(await workspacesNamed("good-name")).toEqual([]);
    });
});

describe("diff", () => {
    const state = { organization: "acme", name: "web", projectId: "prj-a", autoApply: false, executionMode: "remote" };

    it("reports no change for identical inputs, and defaults equal absence", async () => {
        expect(await workspace.diff("ws-x", state, { ...state })).toEqual({ changes: false, replaces: [], deleteBeforeReplace: false });
        expect(await workspace.diff("ws-x", state, { organization: "acme", name: "web", projectId: "prj-a", description: "" })).toMatchObject({ changes: false });
    });

    it("reports no change when the program leaves projectId out: it never moves the workspace", async () => {
        const { projectId: _projectId, ...withoutProject } = state;
        expect(await workspace.diff("ws-x", state, withoutProject)).toMatchObject({ changes: false, replaces: [] });
    });

    it.each([
        ["another project (a move)", { projectId: "prj-b" }],
        ["a project not known yet", { projectId: UNKNOWN }],
        ["a new name", { name: "web-2" }],
        ["a description", { description: "d" }],
        ["auto-apply", { autoApply: true }],
        ["agent execution", { executionMode: "agent", agentPoolId: AGENT_POOL }],
    ])("changes %s in place, never replacing", async (_what, change) => {
        expect(await workspace.diff("ws-x", state, { ...state, ...change })).toEqual({ changes: true, replaces: [], deleteBeforeReplace: false });
    });

    it("replaces the workspace when the organization changes, creating the new one first", async () => {
        expect(await workspace.diff("ws-x", state, { ...state, organization: "globex" })).toEqual({
            changes: true,
            replaces: ["organization"],
            deleteBeforeReplace: false,
        });
    });

    it("deletes first when an unknown organization may turn out to be the same one (names are unique per organization)", async () => {
        expect(await workspace.diff("ws-x", state, { ...state, organization: UNKNOWN })).toEqual({
            changes: true,
            replaces: ["organization"],
            deleteBeforeReplace: true,
        });
    });
});

describe("create, read, update, delete", () => {
    it("creates a workspace with its project and settings and returns plain JSON outputs", async () => {
        const name = uniqueName("full");
        const result = await workspace.create(
            await checked({ organization: "acme", name, projectId: ids.Apps, description: "by the handlers", autoApply: true, executionMode: "agent", agentPoolId: AGENT_POOL }),
        );
        expect(result.id).toMatch(/^ws-/);
        expect(result.outs).toEqual({
            organization: "acme",
            name,
            projectId: ids.Apps,
            description: "by the handlers",
            autoApply: true,
            executionMode: "agent",
            agentPoolId: AGENT_POOL,
        });
        const raw = await rawWorkspace(server(), result.id);
        expect(raw.attributes).toMatchObject({ name, description: "by the handlers", "auto-apply": true, "execution-mode": "agent", source: "tfe-api" });
        expect(raw.relationships.project.data.id).toBe(ids.Apps);
    });

    it("creates a workspace without projectId in the organization's Default Project, and its outputs compare equal to the program", async () => {
        const name = uniqueName("min");
        const inputs = await checked({ organization: "acme", name });
        const result = await workspace.create(inputs);
        expect(result.outs).toEqual({ organization: "acme", name, projectId: ids["Default Project"], autoApply: false, executionMode: "remote" });
        expect(await workspace.diff(result.id, result.outs, inputs)).toMatchObject({ changes: false });
    });

    it("reports a refusal (a name already taken) with the service's message and creates nothing", async () => {
        const error = await rejection(workspace.create(await checked({ organization: "acme", name: "legacy-app", projectId: ids.Empty })));
        expect(error.message).toMatch(/wos:Workspace 'legacy-app' in organization 'acme': create failed: .*already been taken/);
        expect((await workspacesNamed("legacy-app")).map((item) => item.id)).toEqual([WORKSPACES.appsLegacy]);
    });

    it("reports a project the caller may not create workspaces in, and creates nothing", async () => {
        await configureFor(server(), TOKENS.appsRead);
        const name = uniqueName("notallowed");
        const error = await rejection(workspace.create(await checked({ organization: "acme", name, projectId: ids.Apps })));
        await configureFor(server());
        expect(error.message).toMatch(/create failed: .*not authorized to create workspaces/);
        expect(await workspacesNamed(name)).toEqual([]);
    });

    it("reads drift made outside Pulumi into the outputs and the inputs; a read by id alone takes the organization from the service", async () => {
        const name = uniqueName("drift");
        const created = await workspace.create(await checked({ organization: "acme", name, projectId: ids.Apps }));
        const patched = await server().request("PATCH", `/workspaces/${created.id}`, {
            token: TOKEN,
            body: { data: { type: "workspaces", attributes: { description: "by hand", "auto-apply": true } } },
        });
        expect(patched.status).toBe(200);
        const read = await workspace.read(created.id, created.outs);
        expect(read.id).toBe(created.id);
        expect(read.props).toEqual({ ...created.outs, description: "by hand", autoApply: true });
        expect(read.inputs).toEqual(read.props);
        const alone = await workspace.read(created.id);
        expect(alone.props).toEqual(read.props);
    });

    it("reads a workspace deleted outside Pulumi as gone (no id)", async () => {
        const created = await workspace.create(await checked({ organization: "acme", name: uniqueName("gone"), projectId: ids.Empty }));
        expect((await server().request("DELETE", `/workspaces/${created.id}`, { token: TOKEN })).status).toBe(204);
        expect(await workspace.read(created.id, created.outs)).toEqual({});
    });

    it("a description removed from the program is cleared on the service, and the next diff finds nothing", async () => {
        const name = uniqueName("undescribed");
        const inputs = await checked({ organization: "acme", name, projectId: ids.Apps, description: "to be removed" });
        const created = await workspace.create(inputs);
        const { description: _removed, ...withoutDescription } = inputs;
        const news = await checked(withoutDescription);
        expect((await workspace.diff(created.id, created.outs, news)).changes).toBe(true);
        const updated = await workspace.update(created.id, created.outs, news);
        const raw = await rawWorkspace(server(), created.id);
        expect(raw.attributes.description ?? "").toBe("");
        expect(updated.outs).not.toHaveProperty("description");
        // The next `up` of the same program does nothing, and a refresh finds nothing to report.
        expect((await workspace.diff(created.id, updated.outs!, news)).changes).toBe(false);
        const read = await workspace.read(created.id, updated.outs);
        expect(read.props).toEqual(updated.outs);
    });

    it("moves the workspace to another project with the move endpoint: same id, its variables kept, no PATCH", async () => {
        const name = uniqueName("move");
        const inputs = await checked({ organization: "acme", name, projectId: ids.Apps, description: "stays" });
        const created = await workspace.create(inputs);
        const variable = await server().request("POST", "/vars", {
            token: TOKEN,
            body: { data: { type: "vars", attributes: { key: "KEEP", value: "me", category: "env" }, relationships: { workspace: { data: { type: "workspaces", id: created.id } } } } },
        });
        expect(variable.status).toBe(201);
        const client = clientFromCredentials();
        const move = jest.spyOn(client.projects, "moveWorkspaces");
        const patch = jest.spyOn(client.workspaces, "update");
        try {
            const news = await checked({ ...inputs, projectId: ids.Staging });
            expect(await workspace.diff(created.id, created.outs, news)).toEqual({ changes: true, replaces: [], deleteBeforeReplace: false });
            const updated = await workspace.update(created.id, created.outs, news);
            expect(move).toHaveBeenCalledWith(ids.Staging, [created.id]);
            expect(patch).not.toHaveBeenCalled();
            expect(updated.outs).toEqual({ ...created.outs, projectId: ids.Staging });
        } finally {
            move.mockRestore();
            patch.mockRestore();
        }
        const raw = await rawWorkspace(server(), created.id);
        expect(raw.relationships.project.data.id).toBe(ids.Staging);
        expect(raw.attributes.description).toBe("stays");
        expect(raw.relationships.vars.data.map((item: any) => item.id)).toEqual([variable.body.data.id]);
    });

    it("changes only what differs in place: a rename keeps a description changed by hand", async () => {
        const name = uniqueName("rename");
        const inputs = await checked({ organization: "acme", name, projectId: ids.Empty, autoApply: true });
        const created = await workspace.create(inputs);
        await server().request("PATCH", `/workspaces/${created.id}`, { token: TOKEN, body: { data: { type: "workspaces", attributes: { description: "by hand" } } } });
        const renamed = uniqueName("renamed");
        const updated = await workspace.update(created.id, created.outs, await checked({ ...inputs, name: renamed }));
        expect(updated.outs).toEqual({ ...created.outs, name: renamed, description: "by hand" });
        const raw = await rawWorkspace(server(), created.id);
        expect(raw.attributes).toMatchObject({ name: renamed, description: "by hand", "auto-apply": true });
    });

    it("switches to agent execution and back, clearing the pool", async () => {
        const inputs = await checked({ organization: "acme", name: uniqueName("exec"), projectId: ids.Empty });
        const created = await workspace.create(inputs);
        const agent = await workspace.update(created.id, created.outs, await checked({ ...inputs, executionMode: "agent", agentPoolId: AGENT_POOL }));
        expect(agent.outs).toMatchObject({ executionMode: "agent", agentPoolId: AGENT_POOL });
        const remote = await workspace.update(created.id, agent.outs!, inputs);
        expect(remote.outs).toEqual(created.outs);
        expect((await rawWorkspace(server(), created.id)).relationships["agent-pool"].data).toBeNull();
    });

    it("reports a move the caller may not make, naming the project, and changes nothing", async () => {
        const inputs = await checked({ organization: "acme", name: uniqueName("nomove"), projectId: ids.Apps });
        const created = await workspace.create(inputs);
        // apps-maintain may manage Apps and Staging, but not move anything into Empty.
        await configureFor(server(), TOKENS.appsMaintain);
        const error = await rejection(workspace.update(created.id, created.outs, await checked({ ...inputs, projectId: ids.Empty, description: "no" })));
        await configureFor(server());
        expect(error.message).toContain(`update (moving the workspace to project ${ids.Empty}) failed`);
        expect((error as { id?: string }).id).toBeUndefined();
        const raw = await rawWorkspace(server(), created.id);
        expect(raw.relationships.project.data.id).toBe(ids.Apps);
        expect(raw.attributes.description).toBeNull();
    });

    it("when the move succeeded and the settings failed, reports a partial success whose outputs name the new project", async () => {
        const inputs = await checked({ organization: "acme", name: uniqueName("halfmove"), projectId: ids.Apps, __provider: "serialized" });
        const created = await workspace.create(inputs);
        await server().addFault({ method: "PATCH", path: `^/api/v2/workspaces/${created.id}$`, times: 1, status: 422 });
        const news = { ...inputs, projectId: ids.Staging, description: "later" };
        const error = (await rejection(workspace.update(created.id, { ...created.outs, __provider: "serialized" }, news))) as Error & {
            id?: string;
            properties?: Record<string, unknown>;
        };
        expect(error.id).toBe(created.id);
        expect(error.properties).toEqual({ ...created.outs, projectId: ids.Staging, __provider: "serialized" });
        expect((await rawWorkspace(server(), created.id)).relationships.project.data.id).toBe(ids.Staging);
        // The next `up` applies only what is still missing.
        const { __provider: _provider, ...outputs } = error.properties!;
        expect(await workspace.diff(created.id, outputs, news)).toMatchObject({ changes: true });
        const next = await workspace.update(created.id, outputs, news);
        expect(next.outs).toMatchObject({ projectId: ids.Staging, description: "later" });
    });

    it("deletes a workspace, and deleting it again succeeds", async () => {
        const created = await workspace.create(await checked({ organization: "acme", name: uniqueName("delete"), projectId: ids.Empty }));
        await workspace.delete(created.id, created.outs);
        expect(await rawWorkspace(server(), created.id)).toBeUndefined();
        await expect(workspace.delete(created.id, created.outs)).resolves.toBeUndefined();
    });
});

describe("a create whose answer is lost", () => {
    it.each([
        ["a 503 after the commit", { status: 503 }],
        ["a dropped connection after the commit", { reset: true }],
    ])("recovers the workspace the service made on %s: same id, exactly one workspace", async (_what, fault) => {
        const name = uniqueName("lost");
        await server().addFault({ method: "POST", path: CREATE_PATH, times: 1, afterCommit: true, ...fault });
        const result = await workspace.create(await checked({ organization: "acme", name, projectId: ids.Staging, description: "kept" }));
        const found = await workspacesNamed(name);
        expect(found).toHaveLength(1);
        expect(result.id).toBe(found[0].id);
        expect(result.outs).toEqual({ organization: "acme", name, projectId: ids.Staging, description: "kept", autoApply: false, executionMode: "remote" });
    });

    it.each([
        ["a 503 before the commit", { status: 503 }],
        ["a dropped connection before the commit", { reset: true }],
    ])("never takes over a workspace that held the name before the create (%s): it fails and leaves that one alone", async (_what, fault) => {
        const name = uniqueName("theirs");
        const theirs = await server().request("POST", "/organizations/acme/workspaces", {
            token: TOKEN,
            body: { data: { type: "workspaces", attributes: { name, description: "someone else's" } } },
        });
        expect(theirs.status).toBe(201);
        await server().addFault({ method: "POST", path: CREATE_PATH, times: 1, ...fault });
        const error = await rejection(workspace.create(await checked({ organization: "acme", name, projectId: ids.Apps, description: "mine" })));
        expect(error.message).toMatch(new RegExp(`wos:Workspace '${name}' in organization 'acme': create failed`));
        expect((error as { id?: string }).id).toBeUndefined();
        const raw = await rawWorkspace(server(), theirs.body.data.id);
        expect(raw.attributes.description).toBe("someone else's");
        expect(raw.relationships.project.data.id).toBe(ids["Default Project"]);
        expect(await workspacesNamed(name)).toHaveLength(1);
    });

    it("keeps a workspace it found but could not finish as a partial success that carries the serialized provider", async () => {
        const name = uniqueName("half");
        await server().addFault({ method: "POST", path: CREATE_PATH, times: 1, status: 503, afterCommit: true });
        await server().addFault({ method: "PATCH", path: "^/api/v2/workspaces/ws-[^/]+$", times: 1, status: 422 });
        const inputs = await checked({ organization: "acme", name, projectId: ids.Empty, autoApply: true, __provider: "serialized" });
        const error = (await rejection(workspace.create(inputs))) as Error & { id?: string; properties?: Record<string, unknown> };
        const found = await workspacesNamed(name);
        expect(found).toHaveLength(1);
        expect(error.message).toMatch(/create \(finishing the workspace found after a lost answer\) failed/);
        expect(error.id).toBe(found[0].id);
        expect(error.properties).toEqual({
            organization: "acme",
            name,
            projectId: ids.Empty,
            autoApply: true,
            executionMode: "remote",
            __provider: "serialized",
        });
    });

    it("fails, without inventing a workspace, when the service failed before committing", async () => {
        const name = uniqueName("never");
        await server().addFault({ method: "POST", path: CREATE_PATH, times: 1, status: 503 });
        const error = await rejection(workspace.create(await checked({ organization: "acme", name })));
        expect(error.message).toMatch(/wos:Workspace .* create failed.*503/);
        expect(await workspacesNamed(name)).toEqual([]);
    });
});
