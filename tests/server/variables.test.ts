/**
 * Contract of the deprecated `/vars` interface: create (by relationship and by the deprecated filter
 * body), list (linked filters; no filter = every workspace the caller may read), update, delete; sensitive
 * values never readable; the sensitive true-to-false and key-change refusals; uniqueness per workspace and
 * category; category and description rules.
 */
import type { TestServer } from "../support/server";
import { TOKENS, WORKSPACES } from "../support/seed";
import {
    clientFor,
    createVariable,
    expectErrors,
    expectStatus,
    expectUnchanged,
    expectValidation,
    snapshot,
    variableDocument,
    variableUpdateDocument,
    uniqueVariableKey,
    withSeededServer,
    type Client,
    type HttpResponse,
} from "./helpers";

let server: TestServer;
let owners: Client;

withSeededServer((started) => ({ server, owners } = started));


function listFor(workspaceName: string, client: Client = owners): Promise<HttpResponse> {
    return client.get(`/vars?filter[workspace][name]=${workspaceName}&filter[organization][name]=acme`);
}

function findIn(response: HttpResponse, id: string): any {
    return response.body.data.find((variable: any) => variable.id === id);
}

function expectVariableResource(data: any, workspaceId: string): void {
    expect(data.type).toBe("vars");
    expect(data.id).toMatch(/^var-/);
    for (const attribute of ["key", "value", "description", "category", "hcl", "sensitive"]) {
        expect(data.attributes).toHaveProperty(attribute);
    }
    expect(data.relationships.configurable.data).toEqual({ id: workspaceId, type: "workspaces" });
    expect(data.relationships.configurable.links.related).toMatch(new RegExp(`/workspaces/${workspaceId}$`));
    expect(data.links.self).toMatch(new RegExp(`/vars/${data.id}$`));
}

describe("POST /vars", () => {
    test("creates a variable with the workspace relationship: 201 with the variable resource", async () => {
        const key = uniqueVariableKey("KEY");
        const response = await owners.post(
            "/vars",
            variableDocument(WORKSPACES.appsLegacy, { key, value: "v1", description: "a note", category: "env" }),
        );
        expectStatus(response, 201);
        expectVariableResource(response.body.data, WORKSPACES.appsLegacy);
        expect(response.body.data.attributes).toEqual(
            expect.objectContaining({ key, value: "v1", description: "a note", category: "env", hcl: false, sensitive: false }),
        );
        expect(findIn(await listFor("legacy-app"), response.body.data.id).attributes.value).toBe("v1");
    });

    test("creates a variable with the deprecated filter body (workspace and organization names)", async () => {
        const key = uniqueVariableKey("KEY");
        const response = await owners.post("/vars", {
            data: { type: "vars", attributes: { key, value: "by-name", category: "infra" } },
            filter: { workspace: { name: "web-app" }, organization: { name: "acme" } },
        });
        expectStatus(response, 201);
        expectVariableResource(response.body.data, WORKSPACES.appsWeb);
        expect(findIn(await listFor("web-app"), response.body.data.id).attributes.key).toBe(key);
    });

    test("value defaults to the empty string, hcl and sensitive to false", async () => {
        const created = await createVariable(server, WORKSPACES.appsLegacy, { key: uniqueVariableKey("KEY"), category: "infra" });
        expect(created.attributes.value).toBe("");
        expect(created.attributes.hcl).toBe(false);
        expect(created.attributes.sensitive).toBe(false);
    });

    test("keeps hcl true and the HCL value as written", async () => {
        const created = await createVariable(server, WORKSPACES.appsLegacy, {
            key: uniqueVariableKey("hcl"),
            value: '{ region = "eu-west-1" }',
            category: "infra",
            hcl: true,
        });
        expect(created.attributes.hcl).toBe(true);
        expect(created.attributes.value).toBe('{ region = "eu-west-1" }');
    });

    test("a sensitive variable's value reads back as null in the create response and in the list", async () => {
        const created = await createVariable(server, WORKSPACES.appsLegacy, {
            key: uniqueVariableKey("SECRET"),
            value: "s3cret-value",
            category: "env",
            sensitive: true,
        });
        expect(created.attributes.sensitive).toBe(true);
        expect(created.attributes.value).toBeNull();
        const list = await listFor("legacy-app");
        expect(findIn(list, created.id).attributes.value).toBeNull();
        expect(list.text).not.toContain("s3cret-value");
        const all = await owners.get("/vars");
        expect(all.text).not.toContain("s3cret-value");
    });

    describe("key: required and unique per workspace and category", () => {
        test("refuses the same key and category in the same workspace: 422 at /data/attributes/key, nothing written", async () => {
            const key = uniqueVariableKey("KEY");
            await createVariable(server, WORKSPACES.appsLegacy, { key, value: "first", category: "env" });
            const before = await snapshot(server);
            const response = await owners.post("/vars", variableDocument(WORKSPACES.appsLegacy, { key, value: "second", category: "env" }));
            expectValidation(response, "/data/attributes/key");
            await expectUnchanged(server, before);
        });

        test("allows the same key in the other category of the same workspace", async () => {
            const key = uniqueVariableKey("KEY");
            await createVariable(server, WORKSPACES.appsLegacy, { key, category: "env" });
            await createVariable(server, WORKSPACES.appsLegacy, { key, category: "infra" });
        });

        test("allows the same key and category in another workspace", async () => {
            const key = uniqueVariableKey("KEY");
            await createVariable(server, WORKSPACES.appsLegacy, { key, category: "env" });
            await createVariable(server, WORKSPACES.appsWeb, { key, category: "env" });
        });

        test.each([
            ["missing", undefined],
            ["empty", ""],
            ["a number", 7],
        ])("refuses a key that is %s: 422 at /data/attributes/key, nothing written", async (_label, key) => {
            const before = await snapshot(server);
            const response = await owners.post("/vars", variableDocument(WORKSPACES.appsLegacy, { key, value: "x", category: "env" }));
            expectValidation(response, "/data/attributes/key");
            await expectUnchanged(server, before);
        });
    });

    describe("category: infra or env", () => {
        test.each([
            ["terraform", "terraform"],
            ["upper case ENV", "ENV"],
            ["missing", undefined],
            ["a boolean", true],
        ])("refuses %s: 422 at /data/attributes/category, nothing written", async (_label, category) => {
            const before = await snapshot(server);
            const response = await owners.post("/vars", variableDocument(WORKSPACES.appsLegacy, { key: uniqueVariableKey("KEY"), category }));
            expectValidation(response, "/data/attributes/category");
            await expectUnchanged(server, before);
        });
    });

    describe("description: at most 512 characters", () => {
        test("accepts 512 characters", async () => {
            const created = await createVariable(server, WORKSPACES.appsLegacy, {
                key: uniqueVariableKey("KEY"),
                category: "env",
                description: "d".repeat(512),
            });
            expect(created.attributes.description).toBe("d".repeat(512));
        });

        test("refuses 513 characters: 422 at /data/attributes/description, nothing written", async () => {
            const before = await snapshot(server);
            const response = await owners.post(
                "/vars",
                variableDocument(WORKSPACES.appsLegacy, { key: uniqueVariableKey("KEY"), category: "env", description: "d".repeat(513) }),
            );
            expectValidation(response, "/data/attributes/description");
            await expectUnchanged(server, before);
        });
    });

    test.each([
        ["hcl as a string", { hcl: "true" }, "/data/attributes/hcl"],
        ["sensitive as a number", { sensitive: 1 }, "/data/attributes/sensitive"],
        ["value as an object", { value: { a: 1 } }, "/data/attributes/value"],
    ])("refuses %s: 422 at its pointer, nothing written", async (_label, attributes, pointer) => {
        const before = await snapshot(server);
        const response = await owners.post(
            "/vars",
            variableDocument(WORKSPACES.appsLegacy, { key: uniqueVariableKey("KEY"), category: "env", ...attributes }),
        );
        expectValidation(response, pointer);
        await expectUnchanged(server, before);
    });

    test("refuses a body with neither the workspace relationship nor the filter: 422, nothing written", async () => {
        const before = await snapshot(server);
        const response = await owners.post("/vars", { data: { type: "vars", attributes: { key: uniqueVariableKey("KEY"), category: "env" } } });
        expectValidation(response);
        await expectUnchanged(server, before);
    });

    test("refuses a relationship whose data type is not workspaces: 422 at /data/relationships/workspace/data/type", async () => {
        const before = await snapshot(server);
        const response = await owners.post("/vars", {
            data: {
                type: "vars",
                attributes: { key: uniqueVariableKey("KEY"), category: "env" },
                relationships: { workspace: { data: { type: "projects", id: WORKSPACES.appsLegacy } } },
            },
        });
        expectValidation(response, "/data/relationships/workspace/data/type");
        await expectUnchanged(server, before);
    });

    test("answers 404 for a workspace that does not exist, nothing written", async () => {
        const before = await snapshot(server);
        expectErrors(await owners.post("/vars", variableDocument("ws-doesnotexist0000", { key: uniqueVariableKey("KEY"), category: "env" })), 404);
        await expectUnchanged(server, before);
    });

    test("answers 404 for a workspace of another organization, nothing written", async () => {
        const before = await snapshot(server);
        expectErrors(await owners.post("/vars", variableDocument(WORKSPACES.globex, { key: uniqueVariableKey("KEY"), category: "env" })), 404);
        await expectUnchanged(server, before);
    });

    test("answers 404 for the deprecated filter naming another organization, nothing written", async () => {
        const before = await snapshot(server);
        const response = await owners.post("/vars", {
            data: { type: "vars", attributes: { key: uniqueVariableKey("KEY"), category: "env" } },
            filter: { workspace: { name: "globex-app" }, organization: { name: "globex" } },
        });
        expectErrors(response, 404);
        await expectUnchanged(server, before);
    });
});

describe("GET /vars", () => {
    test("with both filters lists exactly that workspace's variables", async () => {
        const mine = await createVariable(server, WORKSPACES.staging, { key: uniqueVariableKey("KEY"), value: "s", category: "env" });
        const other = await createVariable(server, WORKSPACES.appsWeb, { key: uniqueVariableKey("KEY"), value: "w", category: "env" });
        const response = await listFor("staging-app");
        expectStatus(response, 200);
        const ids = response.body.data.map((variable: any) => variable.id);
        expect(ids).toContain(mine.id);
        expect(ids).not.toContain(other.id);
        for (const variable of response.body.data) expectVariableResource(variable, WORKSPACES.staging);
    });

    test("lists a workspace's variables in creation order (the default order of lists)", async () => {
        const keys = [uniqueVariableKey("zz"), uniqueVariableKey("aa"), uniqueVariableKey("mm")];
        for (const key of keys) await createVariable(server, WORKSPACES.defaultProject, { key, category: "env" });
        const response = await listFor("scratch");
        expectStatus(response, 200);
        const listed = response.body.data.map((variable: any) => variable.attributes.key);
        expect(listed.filter((key: string) => keys.includes(key))).toEqual(keys);
    });

    test("the filters work with percent-encoded brackets", async () => {
        const mine = await createVariable(server, WORKSPACES.staging, { key: uniqueVariableKey("KEY"), category: "env" });
        const response = await owners.get(
            "/vars?filter%5Bworkspace%5D%5Bname%5D=staging-app&filter%5Borganization%5D%5Bname%5D=acme",
        );
        expectStatus(response, 200);
        expect(response.body.data.map((variable: any) => variable.id)).toContain(mine.id);
    });

    test.each([
        ["only the workspace filter", "filter[workspace][name]=legacy-app", "filter[organization][name]"],
        ["only the organization filter", "filter[organization][name]=acme", "filter[workspace][name]"],
    ])("answers 422 when given %s (the two filters are linked), naming the missing one in source.parameter", async (_label, query, missing) => {
        const errors = expectErrors(await owners.get(`/vars?${query}`), 422);
        expect(errors.map((error: any) => error.source)).toEqual([{ parameter: missing }]);
    });

    test("with no filter lists only variables of workspaces the caller may read", async () => {
        const apps = await createVariable(server, WORKSPACES.appsLegacy, { key: uniqueVariableKey("KEY"), category: "env" });
        const staging = await createVariable(server, WORKSPACES.staging, { key: uniqueVariableKey("KEY"), category: "env" });
        const scratch = await createVariable(server, WORKSPACES.defaultProject, { key: uniqueVariableKey("KEY"), category: "env" });

        const idsFor = async (token: string) => {
            const response = await clientFor(server, token).get("/vars");
            expectStatus(response, 200);
            return response.body.data.map((variable: any) => variable.id) as string[];
        };
        const readTeam = await idsFor(TOKENS.appsRead);
        expect(readTeam).toContain(apps.id);
        expect(readTeam).not.toContain(staging.id);
        expect(readTeam).not.toContain(scratch.id);

        const adminTeam = await idsFor(TOKENS.appsAdmin);
        expect(adminTeam).toEqual(expect.arrayContaining([apps.id, scratch.id]));
        expect(adminTeam).not.toContain(staging.id);

        expect(await idsFor(TOKENS.noAccess)).toEqual([]);
        expect(await idsFor(TOKENS.owners)).toEqual(expect.arrayContaining([apps.id, staging.id, scratch.id]));
        expect(await idsFor(TOKENS.globexOwners)).not.toContain(apps.id);
    });

    test("answers 404 for a workspace name that does not exist", async () => {
        expectErrors(await listFor("no-such-workspace"), 404);
    });

    test("answers 404 for another organization's workspace", async () => {
        expectErrors(await owners.get("/vars?filter[workspace][name]=globex-app&filter[organization][name]=globex"), 404);
    });

    // The organization filter is not decoration: a name of the caller's own workspace under another
    // organization's name (or one that does not exist) must not list the caller's own variables.
    test.each([
        ["another organization's name", "globex"],
        ["an organization that does not exist", "no-such-organization"],
    ])("answers 404 for %s with the name of one of the caller's own workspaces, listing none of its variables", async (_label, organization) => {
        const own = await createVariable(server, WORKSPACES.appsLegacy, { key: uniqueVariableKey("KEY"), value: "own-value", category: "env" });
        const response = await owners.get(`/vars?filter[workspace][name]=legacy-app&filter[organization][name]=${organization}`);
        expectErrors(response, 404);
        expect(response.text).not.toContain(own.id);
        expect(response.text).not.toContain("own-value");
        // The same workspace under its own organization does list it.
        expect(findIn(await listFor("legacy-app"), own.id)).toBeDefined();
    });
});

describe("PATCH /vars/:id", () => {
    test("changes the given attributes and keeps the omitted ones: 200 with the variable resource", async () => {
        const created = await createVariable(server, WORKSPACES.appsLegacy, {
            key: uniqueVariableKey("KEY"),
            value: "old",
            description: "kept",
            category: "env",
        });
        const response = await owners.patch(`/vars/${created.id}`, variableUpdateDocument(created.id, { value: "new", hcl: true }));
        expectStatus(response, 200);
        expectVariableResource(response.body.data, WORKSPACES.appsLegacy);
        expect(response.body.data.attributes).toEqual(
            expect.objectContaining({ key: created.attributes.key, value: "new", description: "kept", category: "env", hcl: true }),
        );
        expect(findIn(await listFor("legacy-app"), created.id).attributes).toEqual(
            expect.objectContaining({ value: "new", description: "kept", hcl: true }),
        );
    });

    test("changes key and category", async () => {
        const created = await createVariable(server, WORKSPACES.appsLegacy, { key: uniqueVariableKey("KEY"), category: "env" });
        const key = uniqueVariableKey("renamed");
        const response = await owners.patch(`/vars/${created.id}`, variableUpdateDocument(created.id, { key, category: "infra" }));
        expectStatus(response, 200);
        expect(findIn(await listFor("legacy-app"), created.id).attributes).toEqual(
            expect.objectContaining({ key, category: "infra" }),
        );
    });

    test("refuses a key already used in the workspace and category: 422 at /data/attributes/key, nothing written", async () => {
        const taken = await createVariable(server, WORKSPACES.appsLegacy, { key: uniqueVariableKey("KEY"), category: "env" });
        const created = await createVariable(server, WORKSPACES.appsLegacy, { key: uniqueVariableKey("KEY"), category: "env" });
        const before = await snapshot(server);
        const response = await owners.patch(
            `/vars/${created.id}`,
            variableUpdateDocument(created.id, { key: taken.attributes.key, value: "not written" }),
        );
        expectValidation(response, "/data/attributes/key");
        await expectUnchanged(server, before);
    });

    test("refuses a category change that would make the key clash: 422, nothing written", async () => {
        const key = uniqueVariableKey("KEY");
        await createVariable(server, WORKSPACES.appsLegacy, { key, category: "infra" });
        const created = await createVariable(server, WORKSPACES.appsLegacy, { key, category: "env" });
        const before = await snapshot(server);
        const response = await owners.patch(`/vars/${created.id}`, variableUpdateDocument(created.id, { category: "infra" }));
        const errors = expectValidation(response);
        expect(errors.map((error: any) => error.source.pointer)).toEqual(
            expect.arrayContaining([expect.stringMatching(/^\/data\/attributes\/(key|category)$/)]),
        );
        await expectUnchanged(server, before);
    });

    test.each([
        ["a bad category", { category: "terraform" }, "/data/attributes/category"],
        ["a description of 513 characters", { description: "d".repeat(513) }, "/data/attributes/description"],
        ["an empty key", { key: "" }, "/data/attributes/key"],
        ["hcl as a string", { hcl: "yes" }, "/data/attributes/hcl"],
    ])("refuses %s: 422 at its pointer, nothing written", async (_label, attributes, pointer) => {
        const created = await createVariable(server, WORKSPACES.appsLegacy, { key: uniqueVariableKey("KEY"), value: "same", category: "env" });
        const before = await snapshot(server);
        const response = await owners.patch(`/vars/${created.id}`, variableUpdateDocument(created.id, { value: "changed", ...attributes }));
        expectValidation(response, pointer);
        await expectUnchanged(server, before);
    });

    test("answers 404 for a variable that does not exist", async () => {
        expectErrors(await owners.patch("/vars/var-doesnotexist0000", variableUpdateDocument("var-doesnotexist0000", { value: "x" })), 404);
    });

    describe("sensitive variables", () => {
        /** A new sensitive `env` variable of legacy-app holding `value`. */
        const sensitiveVariable = (value: string) =>
            createVariable(server, WORKSPACES.appsLegacy, { key: uniqueVariableKey("SECRET"), value, category: "env", sensitive: true });

        test("the update response never shows the value", async () => {
            const created = await sensitiveVariable("first-secret");
            const response = await owners.patch(`/vars/${created.id}`, variableUpdateDocument(created.id, { value: "second-secret" }));
            expectStatus(response, 200);
            expect(response.body.data.attributes.value).toBeNull();
            expect(response.body.data.attributes.sensitive).toBe(true);
            expect(response.text).not.toContain("second-secret");
            expect((await listFor("legacy-app")).text).not.toContain("second-secret");
        });

        test("a non-sensitive variable can become sensitive, and its value is hidden from then on", async () => {
            const created = await createVariable(server, WORKSPACES.appsLegacy, { key: uniqueVariableKey("KEY"), value: "visible-once", category: "env" });
            const response = await owners.patch(`/vars/${created.id}`, variableUpdateDocument(created.id, { sensitive: true }));
            expectStatus(response, 200);
            expect(response.body.data.attributes.value).toBeNull();
            expect(findIn(await listFor("legacy-app"), created.id).attributes.value).toBeNull();
        });

        test("refuses sensitive true to false: 422 at /data/attributes/sensitive, still sensitive", async () => {
            const created = await sensitiveVariable("hidden");
            const before = await snapshot(server);
            const response = await owners.patch(`/vars/${created.id}`, variableUpdateDocument(created.id, { sensitive: false }));
            expectValidation(response, "/data/attributes/sensitive");
            expect(response.text).not.toContain("hidden");
            await expectUnchanged(server, before);
            expect(findIn(await listFor("legacy-app"), created.id).attributes).toEqual(
                expect.objectContaining({ sensitive: true, value: null }),
            );
        });

        test("refuses a new key on a sensitive variable: 422 at /data/attributes/key, nothing written", async () => {
            const created = await sensitiveVariable("hidden");
            const before = await snapshot(server);
            const response = await owners.patch(`/vars/${created.id}`, variableUpdateDocument(created.id, { key: uniqueVariableKey("OTHER") }));
            expectValidation(response, "/data/attributes/key");
            await expectUnchanged(server, before);
        });

        test("accepts the unchanged key on a sensitive variable together with a new value", async () => {
            const created = await sensitiveVariable("hidden");
            const response = await owners.patch(
                `/vars/${created.id}`,
                variableUpdateDocument(created.id, { key: created.attributes.key, value: "rotated", description: "rotated" }),
            );
            expectStatus(response, 200);
            expect(response.body.data.attributes).toEqual(
                expect.objectContaining({ key: created.attributes.key, value: null, description: "rotated" }),
            );
        });
    });
});

describe("DELETE /vars/:id", () => {
    test("deletes: 204 with no body, the variable leaves the list, and a second delete is 404", async () => {
        const created = await createVariable(server, WORKSPACES.appsWeb, { key: uniqueVariableKey("KEY"), category: "env" });
        const response = await owners.delete(`/vars/${created.id}`);
        expectStatus(response, 204);
        expect(response.text).toBe("");
        expect(findIn(await listFor("web-app"), created.id)).toBeUndefined();
        expectErrors(await owners.delete(`/vars/${created.id}`), 404);
    });

    test("the key can be used again after a delete", async () => {
        const key = uniqueVariableKey("KEY");
        const created = await createVariable(server, WORKSPACES.appsWeb, { key, category: "env" });
        expectStatus(await owners.delete(`/vars/${created.id}`), 204);
        await createVariable(server, WORKSPACES.appsWeb, { key, category: "env" });
    });

    test("answers 404 for a variable that does not exist", async () => {
        expectErrors(await owners.delete("/vars/var-doesnotexist0000"), 404);
    });
});
