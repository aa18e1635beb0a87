/**
 * Details of the `/vars` routes (`server/routes/variables.ts`) that the contract tests of variables.test.ts
 * leave open: the exact error objects of its own refusals (a create naming no workspace, an update whose
 * `data.id` is not the URL's, one filter of `GET /vars` without the other); that an update with an earlier
 * problem answers only it (the key is judged once the rest is right); that what a PATCH leaves out keeps its
 * value, `hcl` and a sensitive value included (the no-code upgrade, which compares stored values in clear,
 * is what reads a sensitive one back); a `null` value; and the `version-id` an update gives, and those of the
 * vars a no-code workspace is made with or its upgrade adds.
 */
import { REGISTRY_MODULES, WORKSPACES } from "../support/seed";
import type { TestServer } from "../support/server";
import {
    createNoCodeModule,
    createNoCodeWorkspace,
    createVariable,
    expectErrors,
    expectStatus,
    expectUnchanged,
    initiateUpgrade,
    snapshot,
    variableUpdateDocument,
    workspaceVars,
    uniqueVariableKey,
    withSeededServer,
    type Client,
    type HttpResponse,
} from "./helpers";

let server: TestServer;
let owners: Client;
let apps: string;

// Plan steps of 0 ms: an upgrade's answer already holds the run's end.
withSeededServer(
    (started) => {
        ({ server, owners } = started);
        apps = started.ids.Apps;
    },
    { planStepMs: 0 },
);


/** The variable `id` as `GET /vars` lists it for its workspace. */
async function readBack(workspaceId: string, id: string): Promise<any> {
    const found = (await workspaceVars(server, workspaceId)).find((variable) => variable.id === id);
    if (!found) throw new Error(`variable ${id} is not listed for ${workspaceId}`);
    return found;
}

/** The one error object of a refusal (the answer must hold exactly one). */
function onlyError(response: HttpResponse, status: number): any {
    const errors = expectErrors(response, status);
    expect(errors).toHaveLength(1);
    return errors[0];
}

describe("POST /vars naming no workspace", () => {
    test("answers exactly one 422 at /data/relationships/workspace saying how to name it; nothing written", async () => {
        const before = await snapshot(server);
        const response = await owners.post("/vars", { data: { type: "vars", attributes: { key: uniqueVariableKey("DETAIL"), category: "env" } } });
        expect(onlyError(response, 422)).toEqual({
            status: "422",
            title: "invalid attribute",
            detail: "Workspace is required: give data.relationships.workspace (or the deprecated filter.workspace.name and filter.organization.name)",
            source: { pointer: "/data/relationships/workspace" },
        });
        await expectUnchanged(server, before);
    });
});

describe("PATCH /vars/:id with a data.id that is not the URL's", () => {
    test("answers exactly one 422 at /data/id naming the variable of the URL; nothing written", async () => {
        const created = await createVariable(server, WORKSPACES.appsLegacy, { key: uniqueVariableKey("DETAIL"), value: "same", category: "env" });
        const before = await snapshot(server);
        const response = await owners.patch(`/vars/${created.id}`, { data: { type: "vars", id: "var-someoneelse00000", attributes: { value: "changed" } } });
        expect(onlyError(response, 422)).toEqual({
            status: "422",
            title: "invalid attribute",
            detail: `Id must be the id of the variable in the URL (${created.id})`,
            source: { pointer: "/data/id" },
        });
        await expectUnchanged(server, before);
    });

    test("with a key another variable has as well: only the id error (the key is judged once the rest is right); nothing written", async () => {
        const taken = await createVariable(server, WORKSPACES.appsLegacy, { key: uniqueVariableKey("DETAIL"), category: "env" });
        const created = await createVariable(server, WORKSPACES.appsLegacy, { key: uniqueVariableKey("DETAIL"), value: "same", category: "env" });
        // The same body with the right id is refused at the key: the clash is real.
        const clash = await owners.patch(`/vars/${created.id}`, variableUpdateDocument(created.id, { key: taken.attributes.key }));
        expect(onlyError(clash, 422).source).toEqual({ pointer: "/data/attributes/key" });

        const before = await snapshot(server);
        const response = await owners.patch(`/vars/${created.id}`, {
            data: { type: "vars", id: taken.id, attributes: { key: taken.attributes.key, value: "changed" } },
        });
        expect(onlyError(response, 422)).toEqual({
            status: "422",
            title: "invalid attribute",
            detail: `Id must be the id of the variable in the URL (${created.id})`,
            source: { pointer: "/data/id" },
        });
        await expectUnchanged(server, before);
    });
});

describe("PATCH /vars/:id keeps what it leaves out", () => {
    test("a plain value, hcl true, category and key stay when only the description is sent", async () => {
        const created = await createVariable(server, WORKSPACES.appsLegacy, {
            key: uniqueVariableKey("hcl"),
            value: '{ region = "eu-west-1" }',
            category: "infra",
            hcl: true,
        });
        const response = await owners.patch(`/vars/${created.id}`, variableUpdateDocument(created.id, { description: "only this" }));
        expectStatus(response, 200);
        const expected = {
            key: created.attributes.key,
            value: '{ region = "eu-west-1" }',
            description: "only this",
            category: "infra",
            hcl: true,
            sensitive: false,
        };
        expect(response.body.data.attributes).toEqual(expect.objectContaining(expected));
        expect((await readBack(WORKSPACES.appsLegacy, created.id)).attributes).toEqual(expect.objectContaining(expected));
    });

    test("an empty attributes object changes no attribute", async () => {
        const created = await createVariable(server, WORKSPACES.appsLegacy, {
            key: uniqueVariableKey("DETAIL"),
            value: "kept",
            description: "kept too",
            category: "env",
            hcl: true,
        });
        expectStatus(await owners.patch(`/vars/${created.id}`, variableUpdateDocument(created.id, {})), 200);
        expect((await readBack(WORKSPACES.appsLegacy, created.id)).attributes).toEqual(
            expect.objectContaining({ key: created.attributes.key, value: "kept", description: "kept too", category: "env", hcl: true, sensitive: false }),
        );
    });

    test("hcl false sent turns it off (the kept value is the one left out, not any value)", async () => {
        const created = await createVariable(server, WORKSPACES.appsLegacy, { key: uniqueVariableKey("DETAIL"), value: "x", category: "infra", hcl: true });
        expectStatus(await owners.patch(`/vars/${created.id}`, variableUpdateDocument(created.id, { hcl: false })), 200);
        expect((await readBack(WORKSPACES.appsLegacy, created.id)).attributes).toEqual(expect.objectContaining({ hcl: false, value: "x" }));
    });

    describe("a sensitive value, read back by the no-code upgrade", () => {
        let moduleId: string;
        let workspaceId: string;

        beforeAll(async () => {
            moduleId = (await createNoCodeModule(server, { registryModuleId: REGISTRY_MODULES.bucket, enabled: true, versionPin: "1.0.0" })).id;
            workspaceId = (await createNoCodeWorkspace(server, moduleId, { projectId: apps })).id;
        });

        /** The end of an upgrade of the workspace to `vars`: `planned_and_finished` when each already is as given. */
        async function upgradeEnd(vars: readonly Record<string, unknown>[]): Promise<string> {
            return (await initiateUpgrade(server, moduleId, workspaceId, vars)).attributes.status;
        }

        test("a sensitive variable's value stays when a PATCH sends only the description", async () => {
            const key = uniqueVariableKey("SECRET");
            const created = await createVariable(server, workspaceId, { key, value: "kept-secret", category: "env", sensitive: true });
            const response = await owners.patch(`/vars/${created.id}`, variableUpdateDocument(created.id, { description: "new words" }));
            expectStatus(response, 200);
            expect(response.body.data.attributes).toEqual(expect.objectContaining({ value: null, sensitive: true, description: "new words" }));
            expect(response.text).not.toContain("kept-secret");
            // The stored value opens to what was written: an upgrade with it changes nothing...
            expect(await upgradeEnd([{ key, value: "kept-secret", category: "env", sensitive: true }])).toBe("planned_and_finished");
            // ...and one with any other value (the empty one among them) is a change.
            expect(await upgradeEnd([{ key, value: "", category: "env", sensitive: true }])).toBe("planned");
        });

        test("a plain variable made sensitive by a PATCH that sends no value keeps its value, now sealed", async () => {
            const key = uniqueVariableKey("TURNED");
            const created = await createVariable(server, workspaceId, { key, value: "was-plain", category: "env" });
            const response = await owners.patch(`/vars/${created.id}`, variableUpdateDocument(created.id, { sensitive: true }));
            expectStatus(response, 200);
            expect(response.body.data.attributes).toEqual(expect.objectContaining({ value: null, sensitive: true }));
            expect(await upgradeEnd([{ key, value: "was-plain", category: "env", sensitive: true }])).toBe("planned_and_finished");
            expect(await upgradeEnd([{ key, value: "", category: "env", sensitive: true }])).toBe("planned");
        });
    });
});

describe("PATCH /vars/:id with a null value", () => {
    test("sets the empty string, the value's default", async () => {
        const created = await createVariable(server, WORKSPACES.appsLegacy, { key: uniqueVariableKey("DETAIL"), value: "to-clear", category: "env" });
        const response = await owners.patch(`/vars/${created.id}`, variableUpdateDocument(created.id, { value: null }));
        expectStatus(response, 200);
        expect(response.body.data.attributes.value).toBe("");
        expect((await readBack(WORKSPACES.appsLegacy, created.id)).attributes.value).toBe("");
    });
});

describe("version-id", () => {
    // Not in the service's API: the local service's version id is 16 letters and digits, at create and after each update.
    const VERSION_ID = /^[A-Za-z0-9]{16}$/;

    test("an update gives a new version id of the same form as the create's", async () => {
        const created = await createVariable(server, WORKSPACES.appsLegacy, { key: uniqueVariableKey("DETAIL"), value: "v1", category: "env" });
        expect(created.attributes["version-id"]).toMatch(VERSION_ID);
        const response = await owners.patch(`/vars/${created.id}`, variableUpdateDocument(created.id, { value: "v2" }));
        expectStatus(response, 200);
        const updated = response.body.data.attributes["version-id"];
        expect(updated).toMatch(VERSION_ID);
        expect(updated).not.toBe(created.attributes["version-id"]);
        expect((await readBack(WORKSPACES.appsLegacy, created.id)).attributes["version-id"]).toBe(updated);
    });

    test("the vars a no-code workspace is made with, and a var its confirmed upgrade adds, get var- ids and version ids of that form, each its own", async () => {
        // The network module (2.0.0: cidr required, zones): no other test of this file makes a no-code module of it.
        const moduleId = (await createNoCodeModule(server, { registryModuleId: REGISTRY_MODULES.network, enabled: true })).id;
        const workspace = await createNoCodeWorkspace(server, moduleId, {
            projectId: apps,
            vars: [
                { key: "cidr", value: "10.0.0.0/16", category: "infra" },
                { key: "TEAM", value: "web", category: "env" },
            ],
        });
        const made = await workspaceVars(server, workspace.id);
        expect(made.map((variable) => variable.attributes.key)).toEqual(["cidr", "TEAM"]);
        for (const variable of made) expect(variable.id).toMatch(/^var-/);
        const madeIds = made.map((variable) => variable.attributes["version-id"]);
        for (const versionId of madeIds) expect(versionId).toMatch(VERSION_ID);
        expect(new Set(madeIds).size).toBe(2);

        // Plan steps of 0 ms: the run has ended (planned) when its start answers.
        const run = await initiateUpgrade(server, moduleId, workspace.id, [{ key: "zones", value: "3", category: "infra" }]);
        expect(run.attributes.status).toBe("planned");
        expectStatus(await owners.post(`/no-code-modules/${moduleId}/workspaces/${workspace.id}/upgrade/${run.id}`), 200);
        const after = await workspaceVars(server, workspace.id);
        expect(after.map((variable) => variable.attributes.key)).toEqual(["cidr", "TEAM", "zones"]);
        expect(after[2].id).toMatch(/^var-/);
        const zones = after[2].attributes["version-id"];
        expect(zones).toMatch(VERSION_ID);
        expect(madeIds).not.toContain(zones);
    });
});

describe("GET /vars with one of its two linked filters", () => {
    test.each([
        ["only the workspace filter", "filter[workspace][name]=legacy-app", "filter[organization][name]", "filter[organization][name] is required when filter[workspace][name] is given"],
        ["only the organization filter", "filter[organization][name]=acme", "filter[workspace][name]", "filter[workspace][name] is required when filter[organization][name] is given"],
    ])("answers exactly one 422 for %s, naming the missing one", async (_label, query, missing, detail) => {
        const response = await owners.get(`/vars?${query}`);
        expect(onlyError(response, 422)).toEqual({ status: "422", title: "invalid parameter", detail, source: { parameter: missing } });
    });
});
