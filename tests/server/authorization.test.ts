/**
 * The authorization matrix of the local service: 401 (exact body) for a missing, malformed or unknown
 * token; 404 for anything of another organization; and for each kind of caller (owners team and user,
 * manageProjects team, organization token, a team at each project-access level, a team without access, a
 * user on two teams) what it can and cannot do: project create/update/delete, list visibility, the
 * `permissions` attributes, `filter[permissions]`, tag bindings, variables and moves.
 *
 * Seed (tests/support/seed.ts): acme has Default Project, Apps (legacy-app, web-app), Staging (staging-app),
 * Empty; apps-read/-write/-maintain/-admin have that level on Apps; maintain also on Staging; admin also
 * read on Default Project; bob is on apps-read and apps-maintain.
 */
import { startTestServer, type TestServer } from "../support/server";
import { TOKENS, WORKSPACES } from "../support/seed";
import {
    ACME_PROJECTS,
    acmeProjectIds,
    clientFor,
    createProject,
    createVariable,
    expectErrors,
    expectStatus,
    expectUnauthorized,
    expectUnchanged,
    http,
    moveDocument,
    namesOf,
    projectDocument,
    projectOf,
    snapshot,
    sorted,
    tagItems,
    tagsOf,
    variableDocument,
    variableUpdateDocument,
    withSeededServer,
    workspaceCount,
    type AcmeProjectIds,
} from "./helpers";

type ProjectName = (typeof ACME_PROJECTS)[number];
const ALL: ProjectName[] = [...ACME_PROJECTS];

interface Caller {
    label: string;
    token: string;
    /** Projects it sees in the list. */
    sees: ProjectName[];
    /** can-update, can-destroy, can-create-workspace on Apps (when it sees Apps). */
    apps?: [boolean, boolean, boolean];
    /** Projects kept by filter[permissions][update] and [create-workspace]. */
    canUpdate: ProjectName[];
    canCreateWorkspace: ProjectName[];
    createsProjects: boolean;
    /** May update Apps and its tag bindings. */
    administersApps: boolean;
    /** May write variables of Apps workspaces. */
    writesAppsVariables: boolean;
}

const CALLERS: Caller[] = [
    { label: "owners team", token: TOKENS.owners, sees: ALL, apps: [true, true, true], canUpdate: ALL, canCreateWorkspace: ALL, createsProjects: true, administersApps: true, writesAppsVariables: true },
    { label: "user on the owners team", token: TOKENS.alice, sees: ALL, apps: [true, true, true], canUpdate: ALL, canCreateWorkspace: ALL, createsProjects: true, administersApps: true, writesAppsVariables: true },
    { label: "manageProjects team", token: TOKENS.platform, sees: ALL, apps: [true, true, true], canUpdate: ALL, canCreateWorkspace: ALL, createsProjects: true, administersApps: true, writesAppsVariables: true },
    { label: "organization token", token: TOKENS.acmeOrganization, sees: ALL, apps: [true, true, true], canUpdate: ALL, canCreateWorkspace: ALL, createsProjects: true, administersApps: true, writesAppsVariables: true },
    { label: "read team", token: TOKENS.appsRead, sees: ["Apps"], apps: [false, false, false], canUpdate: [], canCreateWorkspace: [], createsProjects: false, administersApps: false, writesAppsVariables: false },
    { label: "write team", token: TOKENS.appsWrite, sees: ["Apps"], apps: [false, false, false], canUpdate: [], canCreateWorkspace: [], createsProjects: false, administersApps: false, writesAppsVariables: true },
    { label: "maintain team", token: TOKENS.appsMaintain, sees: ["Apps", "Staging"], apps: [false, false, true], canUpdate: [], canCreateWorkspace: ["Apps", "Staging"], createsProjects: false, administersApps: false, writesAppsVariables: true },
    { label: "admin team", token: TOKENS.appsAdmin, sees: ["Default Project", "Apps"], apps: [true, true, true], canUpdate: ["Apps"], canCreateWorkspace: ["Apps"], createsProjects: false, administersApps: true, writesAppsVariables: true },
    { label: "team without project access", token: TOKENS.noAccess, sees: [], canUpdate: [], canCreateWorkspace: [], createsProjects: false, administersApps: false, writesAppsVariables: false },
    { label: "user on the read and maintain teams (union)", token: TOKENS.bob, sees: ["Apps", "Staging"], apps: [false, false, true], canUpdate: [], canCreateWorkspace: ["Apps", "Staging"], createsProjects: false, administersApps: false, writesAppsVariables: true },
];

const LIST = "/organizations/acme/projects?page[size]=100";

/** A variable of web-app (Apps) as the owners read it back through `GET /vars`; undefined when it is gone. */
async function webAppVariable(server: TestServer, id: string): Promise<any> {
    const response = await clientFor(server, TOKENS.owners).get("/vars?filter[workspace][name]=web-app&filter[organization][name]=acme");
    expectStatus(response, 200);
    return response.body.data.find((variable: any) => variable.id === id)?.attributes;
}

/** Ids of the variables of scratch (Default Project), read back as the owners. */
async function scratchVariableIds(server: TestServer): Promise<string[]> {
    const response = await clientFor(server, TOKENS.owners).get("/vars?filter[workspace][name]=scratch&filter[organization][name]=acme");
    expectStatus(response, 200);
    return response.body.data.map((variable: any) => variable.id);
}

describe("401: missing, malformed or unknown bearer token", () => {
    let server: TestServer;
    let appsId: string;

    withSeededServer((started) => ({ server, ids: { Apps: appsId } } = started));

    const HEADERS: [string, Record<string, string>][] = [
        ["no Authorization header", {}],
        ["the Bearer scheme without a token", { Authorization: "Bearer" }],
        ["a Basic scheme", { Authorization: "Basic dGVhbS1vd25lcnMtdG9rZW46" }],
        ["a known token without a scheme", { Authorization: TOKENS.owners }],
        ["a known token under another scheme", { Authorization: `Token ${TOKENS.owners}` }],
        ["a known token with trailing junk", { Authorization: `Bearer ${TOKENS.owners} extra` }],
        ["a known token under a scheme that ends in Bearer", { Authorization: `XBearer ${TOKENS.owners}` }],
        ["an unknown token", { Authorization: "Bearer team-unknown-token" }],
        ["the admin token (not an API token)", { Authorization: "Bearer admin-token" }],
    ];

    test.each(HEADERS)("%s: reads answer 401 with the exact body", async (_label, headers) => {
        for (const path of [
            "/organizations/acme/projects",
            `/projects/${appsId}`,
            `/projects/${appsId}/tag-bindings`,
            "/vars",
            `/workspaces/${WORKSPACES.appsLegacy}`,
            "/projects/prj-doesnotexist0000",
        ]) {
            expectUnauthorized(await http(server, "GET", path, { headers }));
        }
    });

    test.each(HEADERS)("%s: writes answer 401 with the exact body and write nothing", async (_label, headers) => {
        const before = await snapshot(server);
        const writes: [string, string, unknown][] = [
            ["POST", "/organizations/acme/projects", projectDocument({ name: "Unauthorized" })],
            ["PATCH", `/projects/${appsId}`, projectDocument({ description: "unauthorized" })],
            ["DELETE", `/projects/${appsId}`, undefined],
            ["PATCH", `/projects/${appsId}/tag-bindings`, { data: tagItems([{ key: "a", value: "b" }]) }],
            ["POST", `/projects/${appsId}/relationships/workspaces`, moveDocument([WORKSPACES.staging])],
            ["POST", "/vars", variableDocument(WORKSPACES.appsLegacy, { key: "UNAUTHORIZED", category: "env" })],
            ["PATCH", `/workspaces/${WORKSPACES.appsLegacy}`, { data: { type: "workspaces", attributes: { description: "x" } } }],
            ["DELETE", `/workspaces/${WORKSPACES.appsLegacy}`, undefined],
            // Authentication comes before validation: even a broken body is a 401.
            ["POST", "/organizations/acme/projects", { data: { type: "wrong" } }],
        ];
        for (const [method, path, body] of writes) {
            expectUnauthorized(await http(server, method, path, { headers, body }));
        }
        await expectUnchanged(server, before);
    });
});

describe("404: anything of another organization", () => {
    let server: TestServer;
    let ids: AcmeProjectIds;
    let variableId: string;

    withSeededServer((started) => ({ server, ids } = started));
    beforeAll(async () => {
        variableId = (await createVariable(server, WORKSPACES.appsLegacy, { key: "ACME_ONLY", value: "v", category: "env" })).id;
    });

    test.each([
        ["the globex owners team", TOKENS.globexOwners],
        ["the globex organization token", TOKENS.globexOrganization],
    ])("%s gets 404 for every acme resource, and writes nothing", async (_label, token) => {
        const client = clientFor(server, token);
        const before = await snapshot(server);
        const requests: [string, () => ReturnType<typeof client.get>][] = [
            ["list acme projects", () => client.get("/organizations/acme/projects")],
            ["create an acme project", () => client.post("/organizations/acme/projects", projectDocument({ name: "Intruder" }))],
            ["show an acme project", () => client.get(`/projects/${ids.Apps}`)],
            ["update an acme project", () => client.patch(`/projects/${ids.Empty}`, projectDocument({ description: "x" }))],
            ["delete an acme project (404, not 403)", () => client.delete(`/projects/${ids.Empty}`)],
            ["read acme tag bindings", () => client.get(`/projects/${ids.Apps}/tag-bindings`)],
            ["read acme effective tag bindings", () => client.get(`/projects/${ids.Apps}/effective-tag-bindings`)],
            ["write acme tag bindings", () => client.patch(`/projects/${ids.Apps}/tag-bindings`, { data: tagItems([{ key: "a", value: "b" }]) })],
            ["move into an acme project", () => client.post(`/projects/${ids.Empty}/relationships/workspaces`, moveDocument([WORKSPACES.globex]))],
            ["show an acme workspace", () => client.get(`/workspaces/${WORKSPACES.appsLegacy}`)],
            ["update an acme workspace", () => client.patch(`/workspaces/${WORKSPACES.appsLegacy}`, { data: { type: "workspaces", attributes: { description: "x" } } })],
            ["delete an acme workspace", () => client.delete(`/workspaces/${WORKSPACES.appsLegacy}`)],
            ["read an acme workspace's effective tags", () => client.get(`/workspaces/${WORKSPACES.appsLegacy}/effective-tag-bindings`)],
            ["list acme variables by filter", () => client.get("/vars?filter[workspace][name]=legacy-app&filter[organization][name]=acme")],
            ["create a variable in an acme workspace", () => client.post("/vars", variableDocument(WORKSPACES.appsLegacy, { key: "INTRUDER", category: "env" }))],
            ["update an acme variable", () => client.patch(`/vars/${variableId}`, variableUpdateDocument(variableId, { value: "x" }))],
            ["delete an acme variable", () => client.delete(`/vars/${variableId}`)],
        ];
        for (const [label, send] of requests) {
            const response = await send();
            if (response.status !== 404) throw new Error(`${label}: expected 404, got ${response.status} ${response.text}`);
            expectErrors(response, 404);
        }
        await expectUnchanged(server, before);
    });

    test("the other organization's unfiltered variable list holds none of acme's", async () => {
        const response = await clientFor(server, TOKENS.globexOwners).get("/vars");
        expectStatus(response, 200);
        expect(response.body.data.map((variable: any) => variable.id)).not.toContain(variableId);
    });
});

describe("what each caller sees: list visibility, permissions, filter[permissions] (read-only)", () => {
    let server: TestServer;
    let ids: AcmeProjectIds;

    withSeededServer((started) => ({ server, ids } = started));

    describe.each(CALLERS)("$label", (caller) => {
        test(`sees exactly ${JSON.stringify(caller.sees)} in the project list`, async () => {
            const response = await clientFor(server, caller.token).get(LIST);
            expectStatus(response, 200);
            expect(sorted(namesOf(response))).toEqual(sorted(caller.sees));
        });

        test("show answers 200 for each visible project and 404 for each other one", async () => {
            for (const name of ALL) {
                const response = await clientFor(server, caller.token).get(`/projects/${ids[name]}`);
                if (caller.sees.includes(name)) expectStatus(response, 200);
                else expectErrors(response, 404);
            }
        });

        if (caller.apps) {
            const [canUpdate, canDestroy, canCreateWorkspace] = caller.apps;
            test(`its permissions on Apps are can-update ${canUpdate}, can-destroy ${canDestroy}, can-create-workspace ${canCreateWorkspace} (show and list)`, async () => {
                const expected = { "can-update": canUpdate, "can-destroy": canDestroy, "can-create-workspace": canCreateWorkspace };
                const show = await clientFor(server, caller.token).get(`/projects/${ids.Apps}`);
                expect(show.body.data.attributes.permissions).toEqual(expect.objectContaining(expected));
                const list = await clientFor(server, caller.token).get(`${LIST}&filter[names]=Apps`);
                expect(list.body.data[0].attributes.permissions).toEqual(expect.objectContaining(expected));
            });
        }

        test(`filter[permissions][update] keeps ${JSON.stringify(caller.canUpdate)}`, async () => {
            const response = await clientFor(server, caller.token).get(`${LIST}&filter[permissions][update]=true`);
            expectStatus(response, 200);
            expect(sorted(namesOf(response))).toEqual(sorted(caller.canUpdate));
        });

        test(`filter[permissions][create-workspace] keeps ${JSON.stringify(caller.canCreateWorkspace)}`, async () => {
            const response = await clientFor(server, caller.token).get(`${LIST}&filter[permissions][create-workspace]=true`);
            expectStatus(response, 200);
            expect(sorted(namesOf(response))).toEqual(sorted(caller.canCreateWorkspace));
        });

        test(`${caller.sees.includes("Apps") ? "reads" : "cannot read (404)"} the variables and tag bindings of Apps`, async () => {
            const client = clientFor(server, caller.token);
            const vars = await client.get("/vars?filter[workspace][name]=legacy-app&filter[organization][name]=acme");
            const tags = await client.get(`/projects/${ids.Apps}/tag-bindings`);
            if (caller.sees.includes("Apps")) {
                expectStatus(vars, 200);
                expectStatus(tags, 200);
            } else {
                expectErrors(vars, 404);
                expectErrors(tags, 404);
            }
        });
    });
});

describe("what each caller may change: project create/update/tags, variables", () => {
    let server: TestServer;
    let ids: AcmeProjectIds;
    let counter = 0;

    withSeededServer((started) => ({ server, ids } = started));

    describe.each(CALLERS)("$label", (caller) => {
        test(caller.createsProjects ? "creates a project (201)" : "cannot create a project: 404, nothing written", async () => {
            const name = `By Caller ${++counter}`;
            const before = await snapshot(server);
            const response = await clientFor(server, caller.token).post("/organizations/acme/projects", projectDocument({ name }));
            if (caller.createsProjects) {
                expectStatus(response, 201);
                expect(response.body.data.attributes.name).toBe(name);
                // Read back as the owners: the project is there under the id answered.
                const shown = await clientFor(server, TOKENS.owners).get(`/projects/${response.body.data.id}`);
                expectStatus(shown, 200);
                expect(shown.body.data.attributes.name).toBe(name);
            } else {
                expectErrors(response, 404);
                await expectUnchanged(server, before);
            }
        });

        test(caller.administersApps ? "updates Apps (200)" : "cannot update Apps: 404, nothing written", async () => {
            const description = `set by ${caller.label}`;
            const before = await snapshot(server);
            const response = await clientFor(server, caller.token).patch(`/projects/${ids.Apps}`, projectDocument({ description }));
            if (caller.administersApps) {
                expectStatus(response, 200);
                expect(response.body.data.attributes.description).toBe(description);
                const shown = await clientFor(server, TOKENS.owners).get(`/projects/${ids.Apps}`);
                expectStatus(shown, 200);
                expect(shown.body.data.attributes.description).toBe(description);
            } else {
                expectErrors(response, 404);
                await expectUnchanged(server, before);
            }
        });

        test(caller.administersApps ? "writes Apps tag bindings (200)" : "cannot write Apps tag bindings: 404, nothing written", async () => {
            const before = await snapshot(server);
            const value = `caller${++counter}`;
            const response = await clientFor(server, caller.token).patch(`/projects/${ids.Apps}/tag-bindings`, {
                data: tagItems([{ key: "written-by", value }]),
            });
            if (caller.administersApps) {
                expectStatus(response, 200);
                expect(await tagsOf(server, ids.Apps)).toContainEqual(["written-by", value]);
            } else {
                expectErrors(response, 404);
                await expectUnchanged(server, before);
            }
        });

        test(caller.writesAppsVariables ? "creates, updates and deletes variables of an Apps workspace" : "cannot create, update or delete variables of an Apps workspace: 404, nothing written", async () => {
            const client = clientFor(server, caller.token);
            const key = `CALLER_${++counter}`;
            if (caller.writesAppsVariables) {
                const created = await client.post("/vars", variableDocument(WORKSPACES.appsWeb, { key, value: "1", category: "env" }));
                expectStatus(created, 201);
                const id = created.body.data.id;
                expect(await webAppVariable(server, id)).toEqual(expect.objectContaining({ key, value: "1" }));
                expectStatus(await client.patch(`/vars/${id}`, variableUpdateDocument(id, { value: "2" })), 200);
                expect(await webAppVariable(server, id)).toEqual(expect.objectContaining({ key, value: "2" }));
                expectStatus(await client.delete(`/vars/${id}`), 204);
                expect(await webAppVariable(server, id)).toBeUndefined();
            } else {
                const existing = await createVariable(server, WORKSPACES.appsWeb, { key, value: "1", category: "env" });
                const before = await snapshot(server);
                expectErrors(await client.post("/vars", variableDocument(WORKSPACES.appsWeb, { key: `${key}_NEW`, category: "env" })), 404);
                expectErrors(await client.patch(`/vars/${existing.id}`, variableUpdateDocument(existing.id, { value: "2" })), 404);
                expectErrors(await client.delete(`/vars/${existing.id}`), 404);
                await expectUnchanged(server, before);
            }
        });
    });

    test("the manageProjects team and the organization token manage variables of every workspace (Default Project)", async () => {
        for (const token of [TOKENS.platform, TOKENS.acmeOrganization]) {
            const key = `EVERYWHERE_${++counter}`;
            const created = await createVariable(server, WORKSPACES.defaultProject, { key, category: "env" }, token);
            expect(await scratchVariableIds(server)).toContain(created.id);
            expectStatus(await clientFor(server, token).delete(`/vars/${created.id}`), 204);
            expect(await scratchVariableIds(server)).not.toContain(created.id);
        }
    });

    test("read access on a project reads its variables but does not write them (admin team on Default Project): 404, nothing written", async () => {
        const client = clientFor(server, TOKENS.appsAdmin);
        const existing = await createVariable(server, WORKSPACES.defaultProject, { key: `READ_ONLY_${++counter}`, value: "plain", category: "env" });
        const list = await client.get("/vars?filter[workspace][name]=scratch&filter[organization][name]=acme");
        expectStatus(list, 200);
        expect(list.body.data.map((variable: any) => variable.id)).toContain(existing.id);
        const before = await snapshot(server);
        expectErrors(await client.post("/vars", variableDocument(WORKSPACES.defaultProject, { key: "NOPE", category: "env" })), 404);
        expectErrors(await client.patch(`/vars/${existing.id}`, variableUpdateDocument(existing.id, { value: "x" })), 404);
        await expectUnchanged(server, before);
    });

    test("a read team never sees a sensitive value", async () => {
        const secret = await createVariable(server, WORKSPACES.appsLegacy, { key: "READ_SECRET", value: "top-secret-value", category: "env", sensitive: true });
        const response = await clientFor(server, TOKENS.appsRead).get("/vars?filter[workspace][name]=legacy-app&filter[organization][name]=acme");
        expectStatus(response, 200);
        expect(response.body.data.find((variable: any) => variable.id === secret.id).attributes.value).toBeNull();
        expect(response.text).not.toContain("top-secret-value");
    });
});

describe("who may delete a project", () => {
    let server: TestServer;
    let ids: AcmeProjectIds;

    // Apps is emptied first, so that a refusal can only be about permission, never about workspaces.
    withSeededServer((started) => ({ server, ids } = started));
    beforeAll(async () => {
        expectStatus(
            await clientFor(server, TOKENS.owners).post(
                `/projects/${ids.Staging}/relationships/workspaces`,
                moveDocument([WORKSPACES.appsLegacy, WORKSPACES.appsWeb]),
            ),
            204,
        );
    });

    test.each([
        ["read team", TOKENS.appsRead],
        ["write team", TOKENS.appsWrite],
        ["maintain team", TOKENS.appsMaintain],
        ["user on the read and maintain teams", TOKENS.bob],
    ])("the %s sees Apps but may not delete it: 403, nothing deleted", async (_label, token) => {
        const before = await snapshot(server);
        expectErrors(await clientFor(server, token).delete(`/projects/${ids.Apps}`), 403);
        await expectUnchanged(server, before);
    });

    test("a team without access to Apps gets 404, nothing deleted", async () => {
        const before = await snapshot(server);
        expectErrors(await clientFor(server, TOKENS.noAccess).delete(`/projects/${ids.Apps}`), 404);
        await expectUnchanged(server, before);
    });

    test("the admin team deletes Apps: 204", async () => {
        expectStatus(await clientFor(server, TOKENS.appsAdmin).delete(`/projects/${ids.Apps}`), 204);
        expectErrors(await clientFor(server, TOKENS.owners).get(`/projects/${ids.Apps}`), 404);
    });

    test.each([
        ["owners team", TOKENS.owners],
        ["user on the owners team", TOKENS.alice],
        ["manageProjects team", TOKENS.platform],
        ["organization token", TOKENS.acmeOrganization],
    ])("the %s deletes any empty project: 204", async (label, token) => {
        const id = await createProject(server, { name: `Deletable by ${label}` });
        expectStatus(await clientFor(server, token).delete(`/projects/${id}`), 204);
        expectErrors(await clientFor(server, TOKENS.owners).get(`/projects/${id}`), 404);
    });

    test("the admin team may only read Default Project: 403 (permission comes before the 409 of the default project), nothing deleted", async () => {
        const before = await snapshot(server);
        expectErrors(await clientFor(server, TOKENS.appsAdmin).delete(`/projects/${ids["Default Project"]}`), 403);
        await expectUnchanged(server, before);
    });
});

describe("who may move, update and delete workspaces: maintain, not write (the local service: read < write < maintain < admin)", () => {
    let server: TestServer;
    let ids: AcmeProjectIds;

    // A fresh service per test: the allowed cases move and delete seeded workspaces.
    beforeEach(async () => {
        server = await startTestServer();
        ids = await acmeProjectIds(server);
    });
    afterEach(async () => {
        await server?.close();
    });

    const workspaceDocument = (attributes: Record<string, unknown>, projectId?: string) => ({
        data: {
            type: "workspaces",
            attributes,
            ...(projectId === undefined ? {} : { relationships: { project: { data: { type: "projects", id: projectId } } } }),
        },
    });

    test.each([
        ["read team", TOKENS.appsRead],
        ["write team", TOKENS.appsWrite],
    ])("the %s may not move an Apps workspace, not even within Apps (move endpoint or PATCH project): 404, nothing moved", async (_label, token) => {
        const client = clientFor(server, token);
        const before = await snapshot(server);
        expectErrors(await client.post(`/projects/${ids.Apps}/relationships/workspaces`, moveDocument([WORKSPACES.appsWeb])), 404);
        expectErrors(await client.patch(`/workspaces/${WORKSPACES.appsWeb}`, workspaceDocument({}, ids.Apps)), 404);
        await expectUnchanged(server, before);
        expect(await projectOf(server, WORKSPACES.appsWeb)).toBe(ids.Apps);
    });

    test.each([
        ["read team", TOKENS.appsRead],
        ["write team", TOKENS.appsWrite],
    ])("the %s may not update or delete an Apps workspace: 404, nothing written", async (_label, token) => {
        const client = clientFor(server, token);
        const before = await snapshot(server);
        expectErrors(await client.patch(`/workspaces/${WORKSPACES.appsWeb}`, workspaceDocument({ description: "changed by a lower level" })), 404);
        expectErrors(await client.delete(`/workspaces/${WORKSPACES.appsWeb}`), 404);
        await expectUnchanged(server, before);
        // It still sees the workspace: the refusal is about the level, not visibility.
        expectStatus(await client.get(`/workspaces/${WORKSPACES.appsWeb}`), 200);
    });

    test("the write team's workspace permissions say it may not update or destroy", async () => {
        const response = await clientFor(server, TOKENS.appsWrite).get(`/workspaces/${WORKSPACES.appsWeb}`);
        expectStatus(response, 200);
        expect(response.body.data.attributes.permissions).toEqual(expect.objectContaining({ "can-update": false, "can-destroy": false }));
    });

    test("the maintain team moves an Apps workspace to Staging and back (both ways of moving): read back", async () => {
        const client = clientFor(server, TOKENS.appsMaintain);
        expectStatus(await client.post(`/projects/${ids.Staging}/relationships/workspaces`, moveDocument([WORKSPACES.appsWeb])), 204);
        expect(await projectOf(server, WORKSPACES.appsWeb)).toBe(ids.Staging);
        expectStatus(await client.patch(`/workspaces/${WORKSPACES.appsWeb}`, workspaceDocument({}, ids.Apps)), 200);
        expect(await projectOf(server, WORKSPACES.appsWeb)).toBe(ids.Apps);
    });

    test("the maintain team updates and deletes an Apps workspace: read back", async () => {
        const client = clientFor(server, TOKENS.appsMaintain);
        expectStatus(await client.patch(`/workspaces/${WORKSPACES.appsWeb}`, workspaceDocument({ description: "set by maintain" })), 200);
        const shown = await clientFor(server, TOKENS.owners).get(`/workspaces/${WORKSPACES.appsWeb}`);
        expectStatus(shown, 200);
        expect(shown.body.data.attributes.description).toBe("set by maintain");
        expectStatus(await client.delete(`/workspaces/${WORKSPACES.appsWeb}`), 204);
        expectErrors(await clientFor(server, TOKENS.owners).get(`/workspaces/${WORKSPACES.appsWeb}`), 404);
        expect(await workspaceCount(server, ids.Apps)).toBe(1);
    });
});
