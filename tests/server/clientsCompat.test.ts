/**
 * Contract, over raw HTTP, of what the official public clients need of the service beyond its API (issue 6
 * section 1; the clients themselves run in tests/compat/publicClients.test.ts):
 *
 * - `PATCH /workspaces/:id` with `relationships.project` (go-tfe's only way to move a workspace) moves it
 *   under exactly the move endpoint's rules, at every access level, together with the other attributes in
 *   one transaction: a refused move changes no other attribute either, and a refused attribute moves nothing.
 * - Every field of the hosted service's workspace and project writes is applied, accepted at the one value
 *   it has here, or refused with a 422 naming it; never dropped in silence. What the clients send by habit
 *   (pytfe: `default-execution-mode: "remote"` on projects; `type`, `vcs-repo: {}` and `setting-overwrites:
 *   {}` on workspaces) is accepted.
 * - Both effective-tag-bindings endpoints answer items of type `effective-tag-bindings`.
 */
import { WORKSPACE_FIXED_ATTRIBUTES } from "../../sdk/model";
import { startTestServer, type TestServer } from "../support/server";
import { TOKENS, WORKSPACES } from "../support/seed";
import {
    AGENT_POOL,
    acmeProjectIds,
    clientFor,
    createProject,
    expectErrors,
    expectStatus,
    expectUnchanged,
    expectValidation,
    projectDocument,
    projectId,
    projectOf,
    snapshot,
    tagsOf,
    withSeededServer,
    type AcmeProjectIds,
    type Client,
} from "./helpers";

/** `PATCH /workspaces/:id` body: attributes, and the project relationship when `project` is given. */
function workspaceUpdate(attributes: Record<string, unknown> | undefined, project?: string | null, extra: Record<string, unknown> = {}) {
    const data: Record<string, unknown> = { type: "workspaces", ...extra };
    if (attributes !== undefined) data.attributes = attributes;
    if (project !== undefined) data.relationships = { project: { data: project === null ? null : { type: "projects", id: project } } };
    return { data };
}

/** A workspace's attributes and project over raw HTTP, as the owners of acme. */
async function workspaceState(server: TestServer, id: string) {
    const response = await clientFor(server, TOKENS.owners).get(`/workspaces/${id}`);
    expectStatus(response, 200);
    return { attributes: response.body.data.attributes, project: response.body.data.relationships.project.data.id as string };
}

describe("PATCH /workspaces/:id with relationships.project: a move under the move endpoint's rules", () => {
    // Every test moves seeded workspaces: a freshly seeded service each.
    let server: TestServer;
    let ids: AcmeProjectIds;

    beforeEach(async () => {
        server = await startTestServer();
        ids = await acmeProjectIds(server);
    });

    afterEach(async () => {
        await server?.close();
    });

    const patch = (token: string, workspace: string, body: unknown) => clientFor(server, token).patch(`/workspaces/${workspace}`, body);

    /** Sends an update that must be refused with `status`, and proves nothing at all was written. */
    async function expectRefused(token: string, workspace: string, body: unknown, status: number, pointer?: string) {
        const before = await snapshot(server);
        const response = await patch(token, workspace, body);
        if (status === 422) expectValidation(response, ...(pointer ? [pointer] : []));
        else expectErrors(response, status);
        await expectUnchanged(server, before);
        return response;
    }

    describe("allowed: maintain on the workspace's project and on the destination", () => {
        test.each([
            ["the owners team", TOKENS.owners],
            ["the manageProjects team", TOKENS.platform],
            ["the organization token", TOKENS.acmeOrganization],
            ["an owners user", TOKENS.alice],
            ["a team with maintain on Apps and Staging", TOKENS.appsMaintain],
            ["a user whose teams together give maintain on both (union of teams)", TOKENS.bob],
        ])("%s moves a workspace from Apps to Staging with a new description: 200, both applied", async (_label, token) => {
            const response = await patch(token, WORKSPACES.appsWeb, workspaceUpdate({ description: "moved" }, ids.Staging));
            expectStatus(response, 200);
            expect(response.body.data.relationships.project.data).toEqual({ id: ids.Staging, type: "projects" });
            expect(response.body.data.attributes.description).toBe("moved");
            const after = await workspaceState(server, WORKSPACES.appsWeb);
            expect(after.project).toBe(ids.Staging);
            expect(after.attributes.description).toBe("moved");
        });

        test("a team with admin on Apps keeps a workspace in Apps (destination = source): 200", async () => {
            const response = await patch(TOKENS.appsAdmin, WORKSPACES.appsWeb, workspaceUpdate({ description: "stays" }, ids.Apps));
            expectStatus(response, 200);
            expect(await projectOf(server, WORKSPACES.appsWeb)).toBe(ids.Apps);
        });

        test("the project relationship alone (no attributes, as go-tfe sends it) moves the workspace; the counts follow", async () => {
            expectStatus(await patch(TOKENS.owners, WORKSPACES.appsLegacy, workspaceUpdate(undefined, ids.Empty)), 200);
            expect(await projectOf(server, WORKSPACES.appsLegacy)).toBe(ids.Empty);
            const owners = clientFor(server, TOKENS.owners);
            expect((await owners.get(`/projects/${ids.Empty}`)).body.data.attributes["workspace-count"]).toBe(1);
            expect((await owners.get(`/projects/${ids.Apps}`)).body.data.attributes["workspace-count"]).toBe(1);
        });

        test("relationship type 'project' (singular, as some clients spell it) is accepted", async () => {
            const body = { data: { type: "workspaces", relationships: { project: { data: { type: "project", id: ids.Staging } } } } };
            expectStatus(await patch(TOKENS.owners, WORKSPACES.appsWeb, body), 200);
            expect(await projectOf(server, WORKSPACES.appsWeb)).toBe(ids.Staging);
        });

        test("a moved workspace takes the destination's tags and inherited auto-destroy duration, as with the move endpoint", async () => {
            const owners = clientFor(server, TOKENS.owners);
            const destination = await createProject(server, { name: "Destination", "auto-destroy-activity-duration": "3d" }, [{ key: "tier", value: "gold" }]);
            expectStatus(await patch(TOKENS.owners, WORKSPACES.appsWeb, workspaceUpdate({ name: "web-app-moved" }, destination)), 200);
            const after = await workspaceState(server, WORKSPACES.appsWeb);
            expect(after).toMatchObject({ project: destination, attributes: { name: "web-app-moved", "auto-destroy-activity-duration": "3d" } });
            const effective = await owners.get(`/workspaces/${WORKSPACES.appsWeb}/effective-tag-bindings`);
            expect(effective.body.data.map((item: any) => [item.type, item.attributes.key, item.attributes.value])).toEqual([
                ["effective-tag-bindings", "tier", "gold"],
            ]);
        });
    });

    describe("refused: 404 as the move endpoint answers, and nothing written (not the description either)", () => {
        const changes = { name: "renamed-by-refused", description: "must not be written", "auto-apply": true };

        test.each([
            ["read on Apps", TOKENS.appsRead],
            ["write on Apps", TOKENS.appsWrite],
            ["no project access", TOKENS.noAccess],
            ["manageModules only", TOKENS.modules],
        ])("a team with %s may not change the workspace at all: 404", async (_label, token) => {
            await expectRefused(token, WORKSPACES.appsWeb, workspaceUpdate(changes, ids.Staging), 404);
        });

        test("admin on Apps but no access to Staging: the destination is refused (404), nothing written", async () => {
            const response = await expectRefused(TOKENS.appsAdmin, WORKSPACES.appsWeb, workspaceUpdate(changes, ids.Staging), 404);
            expect(response.body.errors[0].detail).toMatch(/move workspaces into it/);
        });

        test("maintain on Apps and Staging but not on Empty: 404, nothing written", async () => {
            await expectRefused(TOKENS.appsMaintain, WORKSPACES.appsWeb, workspaceUpdate(changes, ids.Empty), 404);
        });

        test("read only on the workspace's project (admin team, Default Project): 404 even into a project it administers", async () => {
            await expectRefused(TOKENS.appsAdmin, WORKSPACES.defaultProject, workspaceUpdate(changes, ids.Apps), 404);
        });

        test("a destination that does not exist: 404, nothing written", async () => {
            await expectRefused(TOKENS.owners, WORKSPACES.appsWeb, workspaceUpdate(changes, "prj-doesnotexist0000"), 404);
        });

        test("a destination of another organization: 404, nothing written", async () => {
            const globex = await projectId(server, "Globex Apps", "globex");
            await expectRefused(TOKENS.owners, WORKSPACES.appsWeb, workspaceUpdate(changes, globex), 404);
        });
    });

    describe("all or nothing: a refused attribute moves nothing", () => {
        test.each([
            ["a name taken in the organization", { name: "staging-app" }, "/data/attributes/name"],
            ["agent execution without a pool", { "execution-mode": "agent" }, "/data/attributes/agent-pool-id"],
            ["a hosted setting this service does not have", { "queue-all-runs": true }, "/data/attributes/queue-all-runs"],
            ["a VCS repository", { "vcs-repo": { identifier: "acme/app", "oauth-token-id": "ot-1" } }, "/data/attributes/vcs-repo"],
        ])("%s beside an allowed move: 422 at its pointer, not moved, nothing written", async (_label, attributes, pointer) => {
            await expectRefused(TOKENS.owners, WORKSPACES.appsWeb, workspaceUpdate({ description: "must not be written", ...attributes }, ids.Staging), 422, pointer);
        });

        test.each([
            ["data null (a workspace always has a project)", { data: { type: "workspaces", relationships: { project: { data: null } } } }, "/data/relationships/project/data"],
            ["a type other than projects", { data: { type: "workspaces", relationships: { project: { data: { type: "teams", id: "prj-x" } } } } }, "/data/relationships/project/data/type"],
            ["no id", { data: { type: "workspaces", relationships: { project: { data: { type: "projects" } } } } }, "/data/relationships/project/data/id"],
            ["an empty id", { data: { type: "workspaces", relationships: { project: { data: { type: "projects", id: "" } } } } }, "/data/relationships/project/data/id"],
        ])("a project relationship with %s: 422 at its pointer, nothing written", async (_label, body, pointer) => {
            await expectRefused(TOKENS.owners, WORKSPACES.appsWeb, body, 422, pointer);
        });
    });
});

describe("PATCH /workspaces/:id: every hosted field applied, accepted at its one value, or refused", () => {
    let server: TestServer;
    let owners: Client;

    withSeededServer((started) => ({ server, owners } = started));

    const patch = (body: unknown, workspace: string = WORKSPACES.staging) => owners.patch(`/workspaces/${workspace}`, body);

    async function expectFieldRefused(attributes: Record<string, unknown>, pointer: string, named: RegExp) {
        const before = await snapshot(server);
        const errors = expectValidation(await patch(workspaceUpdate({ description: "must not be written", ...attributes })), pointer);
        expect(errors.find((error: any) => error.source.pointer === pointer).detail).toMatch(named);
        await expectUnchanged(server, before);
    }

    describe("attributes with one value here (WORKSPACE_FIXED_ATTRIBUTES)", () => {
        const fixed = Object.entries(WORKSPACE_FIXED_ATTRIBUTES) as [string, unknown][];
        /** A value other than the one the service has. */
        const other = (value: unknown) => (Array.isArray(value) ? ["modules/"] : value === null ? "2030-01-01T00:00:00Z" : !value);

        test.each(fixed)("%s: the service's value %j is accepted with the rest of the update", async (name, value) => {
            const description = `with ${name}`;
            const response = await patch(workspaceUpdate({ description, [name]: value }));
            expectStatus(response, 200);
            const after = await workspaceState(server, WORKSPACES.staging);
            expect(after.attributes.description).toBe(description);
            // Those the service answers read back as that same value.
            if (name in after.attributes) expect(after.attributes[name]).toEqual(value);
        });

        test.each(fixed)("%s: any other value is refused, 422 naming it, nothing written", async (name, value) => {
            const label = name.charAt(0).toUpperCase() + name.slice(1).replace(/-/g, " ");
            await expectFieldRefused({ [name]: other(value) }, `/data/attributes/${name}`, new RegExp(`^${label} must be`));
        });
    });

    describe("attributes the workspace has but no request changes", () => {
        test("each one's current value is accepted (null and \"\" alike for an unset one)", async () => {
            const { attributes } = await workspaceState(server, WORKSPACES.staging);
            const body = {
                "auto-destroy-activity-duration": attributes["auto-destroy-activity-duration"],
                "infra-version": attributes["infra-version"],
                "terraform-version": attributes["infra-version"],
                "working-directory": "",
                description: "stored values sent back",
            };
            expectStatus(await patch(workspaceUpdate(body)), 200);
            expect((await workspaceState(server, WORKSPACES.staging)).attributes.description).toBe("stored values sent back");
        });

        test.each([
            ["auto-destroy-activity-duration", "7d", /set it on the project/],
            ["infra-version", "1.5.0", /version/],
            ["terraform-version", "1.5.0", /version/],
            ["working-directory", "infra/", /working directory/],
        ])("%s with another value is refused, 422 naming it, nothing written", async (name, value, why) => {
            const label = name.charAt(0).toUpperCase() + name.slice(1).replace(/-/g, " ");
            await expectFieldRefused({ [name]: value }, `/data/attributes/${name}`, new RegExp(`^${label} cannot be changed.*`));
            await expectFieldRefused({ [name]: value }, `/data/attributes/${name}`, why);
        });

        test("the duration is judged against the destination of a move in the same request (the one the workspace will have)", async () => {
            const destination = await createProject(server, { name: "Five Days", "auto-destroy-activity-duration": "5d" });
            const current = (await workspaceState(server, WORKSPACES.appsLegacy)).attributes["auto-destroy-activity-duration"];
            expect(current).not.toBe("5d");
            const before = await snapshot(server);
            expectValidation(
                await patch(workspaceUpdate({ "auto-destroy-activity-duration": current }, destination), WORKSPACES.appsLegacy),
                "/data/attributes/auto-destroy-activity-duration",
            );
            await expectUnchanged(server, before);
            expectStatus(await patch(workspaceUpdate({ "auto-destroy-activity-duration": "5d" }, destination), WORKSPACES.appsLegacy), 200);
            expect((await workspaceState(server, WORKSPACES.appsLegacy)).project).toBe(destination);
        });
    });

    describe("what pytfe sends on every update, and the other structured fields", () => {
        test("type, vcs-repo {} and setting-overwrites {} among the attributes (pytfe's update body) are accepted", async () => {
            const body = workspaceUpdate({ type: "workspaces", description: "pytfe habits", "vcs-repo": {}, "setting-overwrites": {} });
            expectStatus(await patch(body), 200);
            expect((await workspaceState(server, WORKSPACES.staging)).attributes.description).toBe("pytfe habits");
        });

        test("vcs-repo null (no VCS connection, which none has here) is accepted", async () => {
            expectStatus(await patch(workspaceUpdate({ "vcs-repo": null })), 200);
        });

        test("a vcs-repo with members is refused, 422 naming it, nothing written", async () => {
            await expectFieldRefused({ "vcs-repo": { identifier: "acme/app", branch: "main" } }, "/data/attributes/vcs-repo", /^Vcs repo is not supported/);
        });

        test("attributes.type other than workspaces is refused", async () => {
            await expectFieldRefused({ type: "projects" }, "/data/attributes/type", /^Type must be 'workspaces'/);
        });

        test("setting-overwrites true along with the setting's value is accepted and reads back", async () => {
            const response = await patch(
                workspaceUpdate({ "execution-mode": "agent", "agent-pool-id": AGENT_POOL, "setting-overwrites": { "execution-mode": true, "agent-pool": true } }),
            );
            expectStatus(response, 200);
            expect(response.body.data.attributes["setting-overwrites"]).toEqual({ "execution-mode": true, "agent-pool": true });
            expectStatus(await patch(workspaceUpdate({ "execution-mode": "remote", "agent-pool-id": null })), 200);
        });

        test("setting-overwrites false once the workspace set its own value is refused (no project default to fall back to)", async () => {
            // Setting the execution mode makes it the workspace's own.
            expectStatus(await patch(workspaceUpdate({ "execution-mode": "remote" })), 200);
            expect((await workspaceState(server, WORKSPACES.staging)).attributes["setting-overwrites"]["execution-mode"]).toBe(true);
            await expectFieldRefused(
                { "setting-overwrites": { "execution-mode": false } },
                "/data/attributes/setting-overwrites/execution-mode",
                /cannot be false/,
            );
        });

        test("setting-overwrites true without the setting's value is refused (as on the hosted service)", async () => {
            const { attributes } = await workspaceState(server, WORKSPACES.defaultProject);
            expect(attributes["setting-overwrites"]["agent-pool"]).toBe(false);
            const before = await snapshot(server);
            const response = await patch(workspaceUpdate({ "setting-overwrites": { "agent-pool": true } }), WORKSPACES.defaultProject);
            expect(expectValidation(response, "/data/attributes/setting-overwrites/agent-pool")[0].detail).toMatch(/only be true with a value/);
            await expectUnchanged(server, before);
        });

        test("tag-bindings: an empty list (a workspace has no tags of its own here) is accepted", async () => {
            expectStatus(await patch(workspaceUpdate({ description: "no own tags" }, undefined, { relationships: { "tag-bindings": { data: [] } } })), 200);
        });

        test("tag-bindings with bindings is refused, 422 naming it, nothing written", async () => {
            const before = await snapshot(server);
            const body = workspaceUpdate({ description: "must not be written" }, undefined, {
                relationships: { "tag-bindings": { data: [{ type: "tag-bindings", attributes: { key: "env", value: "prod" } }] } },
            });
            const errors = expectValidation(await patch(body), "/data/relationships/tag-bindings/data");
            expect(errors[0].detail).toMatch(/^Tag bindings of a workspace are not supported/);
            await expectUnchanged(server, before);
        });

        test("a member no hosted update has is ignored, as the hosted service ignores it", async () => {
            const response = await patch(workspaceUpdate({ description: "unknown ignored", "no-such-setting": 1 }, undefined, { meta: { note: "x" } }));
            expectStatus(response, 200);
            expect(response.body.data.attributes["no-such-setting"]).toBeUndefined();
            expect((await workspaceState(server, WORKSPACES.staging)).attributes.description).toBe("unknown ignored");
        });
    });
});

describe("project writes: the hosted fields a project here does not hold", () => {
    let server: TestServer;
    let owners: Client;
    let ids: AcmeProjectIds;

    withSeededServer((started) => ({ server, owners, ids } = started));

    test("default-execution-mode remote (pytfe sends it on every create and update) is accepted, with null pool and no overwrites", async () => {
        const habits = { "default-execution-mode": "remote", "default-agent-pool-id": null, "setting-overwrites": { "default-execution-mode": false, "default-agent-pool": false } };
        const created = await owners.post("/organizations/acme/projects", projectDocument({ name: "Pytfe Habits", ...habits }, [{ key: "a", value: "1" }]));
        expectStatus(created, 201);
        const id = created.body.data.id;
        expectStatus(await owners.patch(`/projects/${id}`, projectDocument({ description: "updated", ...habits })), 200);
        const show = await owners.get(`/projects/${id}`);
        expect(show.body.data.attributes).toMatchObject({ name: "Pytfe Habits", description: "updated" });
        expect(await tagsOf(server, id)).toEqual([["a", "1"]]);
    });

    test.each([
        ["default-execution-mode agent", { "default-execution-mode": "agent" }, "/data/attributes/default-execution-mode", /^Default execution mode must be 'remote'/],
        ["default-execution-mode local", { "default-execution-mode": "local" }, "/data/attributes/default-execution-mode", /^Default execution mode must be 'remote'/],
        ["a default agent pool", { "default-agent-pool-id": AGENT_POOL }, "/data/attributes/default-agent-pool-id", /^Default agent pool id must be null/],
        ["an execution mode overwrite", { "setting-overwrites": { "default-execution-mode": true } }, "/data/attributes/setting-overwrites/default-execution-mode", /must be false/],
        ["an agent pool overwrite", { "setting-overwrites": { "default-agent-pool": true } }, "/data/attributes/setting-overwrites/default-agent-pool", /must be false/],
    ])("%s is refused on create and on update, 422 naming it, nothing written", async (_label, attributes, pointer, named) => {
        const before = await snapshot(server);
        const create = await owners.post("/organizations/acme/projects", projectDocument({ name: "Never Made", ...attributes }));
        expect(expectValidation(create, pointer).find((error: any) => error.source.pointer === pointer).detail).toMatch(named);
        const update = await owners.patch(`/projects/${ids.Empty}`, projectDocument({ description: "must not be written", ...attributes }));
        expect(expectValidation(update, pointer).find((error: any) => error.source.pointer === pointer).detail).toMatch(named);
        await expectUnchanged(server, before);
    });
});

describe("effective tag bindings: items of type effective-tag-bindings on both endpoints", () => {
    let owners: Client;
    let ids: AcmeProjectIds;

    withSeededServer((started) => ({ owners, ids } = started));

    test("a project's: its own bindings, no link; a workspace's: its project's, each naming the project (relationship and link)", async () => {
        expectStatus(await owners.patch(`/projects/${ids.Apps}/tag-bindings`, { data: [{ type: "tag-bindings", attributes: { key: "env", value: "prod" } }] }), 200);
        const project = await owners.get(`/projects/${ids.Apps}/effective-tag-bindings`);
        expectStatus(project, 200);
        expect(project.body.data).toEqual([
            { type: "effective-tag-bindings", attributes: { key: "env", value: "prod", "created-at": expect.any(String) } },
        ]);
        const workspace = await owners.get(`/workspaces/${WORKSPACES.appsWeb}/effective-tag-bindings`);
        expectStatus(workspace, 200);
        expect(workspace.body.data).toEqual([
            {
                type: "effective-tag-bindings",
                attributes: { key: "env", value: "prod", "created-at": expect.any(String) },
                relationships: { "inherited-from": { data: { type: "projects", id: ids.Apps } } },
                links: { "inherited-from": `/api/v2/projects/${ids.Apps}` },
            },
        ]);
        // The plain list keeps type tag-bindings.
        expect((await owners.get(`/projects/${ids.Apps}/tag-bindings`)).body.data[0].type).toBe("tag-bindings");
    });
});
