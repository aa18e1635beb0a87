/**
 * Request validation across every write endpoint of this slice (the local service's rules: a body that is not JSON
 * or has no `data` is 400; a wrong `data.type` is 422 at `/data/type`; other problems 422 with pointers;
 * never a 500) and, for every refusal, proof that nothing was written.
 */
import type { TestServer } from "../support/server";
import { TOKENS, WORKSPACES } from "../support/seed";
import {
    createVariable,
    expectErrors,
    expectUnchanged,
    expectValidation,
    http,
    projectDocument,
    snapshot,
    variableDocument,
    withSeededServer,
    type AcmeProjectIds,
    type HttpResponse,
} from "./helpers";

let server: TestServer;
let ids: AcmeProjectIds;
let variableId: string;

withSeededServer((started) => ({ server, ids } = started));
beforeAll(async () => {
    variableId = (await createVariable(server, WORKSPACES.appsLegacy, { key: "EXISTING", value: "v", category: "env" })).id;
});

/** Every write endpoint of the slice with the `data.type` it expects and where a wrong one is reported. */
function endpoints(): { label: string; method: string; path: string; typePointer: string; wrongType: unknown }[] {
    return [
        {
            label: "POST /organizations/:org/projects",
            method: "POST",
            path: "/organizations/acme/projects",
            typePointer: "/data/type",
            wrongType: { data: { type: "project", attributes: { name: "Wrong Type" } } },
        },
        {
            label: "PATCH /projects/:id",
            method: "PATCH",
            path: `/projects/${ids.Empty}`,
            typePointer: "/data/type",
            wrongType: { data: { type: "workspaces", attributes: { description: "x" } } },
        },
        {
            label: "PATCH /projects/:id/tag-bindings",
            method: "PATCH",
            path: `/projects/${ids.Empty}/tag-bindings`,
            typePointer: "/data/0/type",
            wrongType: { data: [{ type: "tag-binding", attributes: { key: "a", value: "b" } }] },
        },
        {
            label: "POST /projects/:id/relationships/workspaces",
            method: "POST",
            path: `/projects/${ids.Empty}/relationships/workspaces`,
            typePointer: "/data/0/type",
            wrongType: { data: [{ type: "workspace", id: WORKSPACES.appsLegacy }] },
        },
        {
            label: "POST /vars",
            method: "POST",
            path: "/vars",
            typePointer: "/data/type",
            wrongType: {
                data: {
                    type: "variables",
                    attributes: { key: "WRONG_TYPE", category: "env" },
                    relationships: { workspace: { data: { type: "workspaces", id: WORKSPACES.appsLegacy } } },
                },
            },
        },
        {
            label: "PATCH /vars/:id",
            method: "PATCH",
            path: `/vars/${variableId}`,
            typePointer: "/data/type",
            wrongType: { data: { type: "var", id: variableId, attributes: { value: "x" } } },
        },
        {
            label: "PATCH /workspaces/:id",
            method: "PATCH",
            path: `/workspaces/${WORKSPACES.appsLegacy}`,
            typePointer: "/data/type",
            wrongType: { data: { type: "workspace", attributes: { description: "x" } } },
        },
    ];
}

function send(method: string, path: string, body: { raw?: string; json?: unknown }): Promise<HttpResponse> {
    return http(server, method, path, {
        token: TOKENS.owners,
        ...(body.raw !== undefined ? { rawBody: body.raw } : { body: body.json }),
    });
}

/** Runs `check` for each endpoint, asserting that nothing was written across all of them. */
async function forEachEndpoint(check: (endpoint: ReturnType<typeof endpoints>[number]) => Promise<void>): Promise<void> {
    const before = await snapshot(server);
    for (const endpoint of endpoints()) {
        try {
            await check(endpoint);
        } catch (error) {
            throw new Error(`${endpoint.label}: ${(error as Error).message}`);
        }
    }
    await expectUnchanged(server, before);
}

describe("400: a body that is not JSON, or has no data", () => {
    test.each([
        ["truncated JSON", '{"data": {"type": "projects"'],
        ["plain text", "name=Apps"],
        ["an empty body", ""],
    ])("%s answers 400 with a JSON:API error at every write endpoint, nothing written", async (_label, raw) => {
        await forEachEndpoint(async ({ method, path }) => {
            expectErrors(await send(method, path, { raw }), 400);
        });
    });

    test.each([
        ["an empty object", {}],
        ["an object without data", { type: "projects", attributes: { name: "No Data" } }],
        ["JSON null", null],
        ["a list", []],
        ["a string", "data"],
    ])("%s answers 400 at every write endpoint, nothing written", async (_label, json) => {
        await forEachEndpoint(async ({ method, path }) => {
            expectErrors(await send(method, path, { raw: JSON.stringify(json) }), 400);
        });
    });
});

describe("422 at the type pointer: wrong data.type", () => {
    test("every write endpoint answers 422 at its type pointer, nothing written", async () => {
        await forEachEndpoint(async ({ method, path, typePointer, wrongType }) => {
            expectValidation(await send(method, path, { json: wrongType }), typePointer);
        });
    });

    test("a missing data.type is 422 at /data/type", async () => {
        const before = await snapshot(server);
        const response = await send("POST", "/organizations/acme/projects", { json: { data: { attributes: { name: "No Type" } } } });
        expectValidation(response, "/data/type");
        await expectUnchanged(server, before);
    });
});

describe("422 with pointers: wrong types", () => {
    test.each([
        ["project name as a number", "POST", "/organizations/acme/projects", { data: { type: "projects", attributes: { name: 42 } } }, "/data/attributes/name"],
        ["project name as an object", "POST", "/organizations/acme/projects", { data: { type: "projects", attributes: { name: { value: "Apps" } } } }, "/data/attributes/name"],
        ["project attributes as a list", "POST", "/organizations/acme/projects", { data: { type: "projects", attributes: ["Apps"] } }, "/data/attributes"],
        ["project duration as a boolean", "POST", "/organizations/acme/projects", { data: { type: "projects", attributes: { name: "Typed", "auto-destroy-activity-duration": true } } }, "/data/attributes/auto-destroy-activity-duration"],
        ["tag-bindings data as a string", "POST", "/organizations/acme/projects", { data: { type: "projects", attributes: { name: "Typed" }, relationships: { "tag-bindings": { data: "env=prod" } } } }, "/data/relationships/tag-bindings/data"],
        ["a tag key as a number", "PATCH", "TAGS", { data: [{ type: "tag-bindings", attributes: { key: 1, value: "x" } }] }, "/data/0/attributes/key"],
        ["a tag value as a number", "PATCH", "TAGS", { data: [{ type: "tag-bindings", attributes: { key: "k", value: 1 } }] }, "/data/0/attributes/value"],
        ["tag-bindings data as an object", "PATCH", "TAGS", { data: { type: "tag-bindings", attributes: { key: "k", value: "v" } } }, "/data"],
        ["a variable key as a list", "POST", "/vars", variableDocument(WORKSPACES.appsLegacy, { key: ["A"], category: "env" }), "/data/attributes/key"],
        ["a variable workspace id as a number", "POST", "/vars", { data: { type: "vars", attributes: { key: "TYPED", category: "env" }, relationships: { workspace: { data: { type: "workspaces", id: 7 } } } } }, "/data/relationships/workspace/data/id"],
        ["a variable sensitive as a string", "PATCH", "VAR", { data: { type: "vars", attributes: { sensitive: "false" } } }, "/data/attributes/sensitive"],
        ["a variable value as a number", "PATCH", "VAR", { data: { type: "vars", attributes: { value: 3 } } }, "/data/attributes/value"],
        ["a workspace name as a number", "PATCH", "WORKSPACE", { data: { type: "workspaces", attributes: { name: 5 } } }, "/data/attributes/name"],
    ])("%s: 422 at its pointer, nothing written", async (_label, method, path, json, pointer) => {
        const target = path === "TAGS" ? `/projects/${ids.Empty}/tag-bindings` : path === "VAR" ? `/vars/${variableId}` : path === "WORKSPACE" ? `/workspaces/${WORKSPACES.appsLegacy}` : path;
        const before = await snapshot(server);
        expectValidation(await send(method, target, { json }), pointer);
        await expectUnchanged(server, before);
    });
});

describe("422 with pointers: oversized values", () => {
    test.each([
        ["a project name of 1000 characters", "POST", "/organizations/acme/projects", projectDocument({ name: "n".repeat(1000) }), "/data/attributes/name"],
        ["a project description of 10000 characters", "POST", "/organizations/acme/projects", projectDocument({ name: "Big Description", description: "d".repeat(10_000) }), "/data/attributes/description"],
        ["a tag value of 5000 characters", "PATCH", "TAGS", { data: [{ type: "tag-bindings", attributes: { key: "k", value: "v".repeat(5000) } }] }, "/data/0/attributes/value"],
        // Boundaries as the API's numbers, never from LIMITS (the constant under test): the API, a key of at most
        // 128 characters; docs/decisions.md, a value of at most 256 KiB (262144 characters; the API's 256 is widened).
        ["a variable key of 129 characters", "POST", "/vars", variableDocument(WORKSPACES.appsLegacy, { key: "K".repeat(129), category: "env" }), "/data/attributes/key"],
        ["a variable value of 262145 characters", "POST", "/vars", variableDocument(WORKSPACES.appsLegacy, { key: "HUGE_VALUE", value: "v".repeat(262_145), category: "env" }), "/data/attributes/value"],
        ["a variable key of 129 characters in an update", "PATCH", "VAR", { data: { type: "vars", attributes: { key: "P".repeat(129) } } }, "/data/attributes/key"],
        ["a variable value of 262145 characters in an update", "PATCH", "VAR", { data: { type: "vars", attributes: { value: "v".repeat(262_145) } } }, "/data/attributes/value"],
        ["a variable description of 5000 characters", "POST", "/vars", variableDocument(WORKSPACES.appsLegacy, { key: "LONG_NOTE", category: "env", description: "d".repeat(5000) }), "/data/attributes/description"],
        ["a workspace name of 1000 characters", "PATCH", "WORKSPACE", { data: { type: "workspaces", attributes: { name: "w".repeat(1000) } } }, "/data/attributes/name"],
    ])("%s: 422 at its pointer, nothing written", async (_label, method, path, json, pointer) => {
        const target = path === "TAGS" ? `/projects/${ids.Empty}/tag-bindings` : path === "VAR" ? `/vars/${variableId}` : path === "WORKSPACE" ? `/workspaces/${WORKSPACES.appsLegacy}` : path;
        const before = await snapshot(server);
        expectValidation(await send(method, target, { json }), pointer);
        await expectUnchanged(server, before);
    });

    test("a variable key of 128 characters and a value of 262144 characters are accepted, and read back whole", async () => {
        const key = "K".repeat(128);
        const value = "v".repeat(262_144);
        const created = await send("POST", "/vars", { json: variableDocument(WORKSPACES.appsWeb, { key, value, category: "env" }) });
        expect(created.status).toBe(201);
        const list = await http(server, "GET", "/vars?filter[workspace][name]=web-app&filter[organization][name]=acme", { token: TOKENS.owners });
        expect(list.status).toBe(200);
        const stored = list.body.data.find((variable: any) => variable.id === created.body.data.id).attributes;
        expect(stored.key).toBe(key);
        expect(stored.value.length).toBe(262_144);
        expect(stored.value).toBe(value);
        // The same boundaries in an update of another variable.
        const other = await createVariable(server, WORKSPACES.appsWeb, { key: "BOUNDARY_UPDATE", category: "infra" });
        const updated = await send("PATCH", `/vars/${other.id}`, { json: { data: { type: "vars", attributes: { key: "U".repeat(128), value } } } });
        expect(updated.status).toBe(200);
        expect(updated.body.data.attributes).toEqual(expect.objectContaining({ key: "U".repeat(128), value }));
    });
});

describe("422 with pointers: text that is not valid Unicode", () => {
    // JSON can escape half of a surrogate pair ("\ud800"); stored as UTF-8 it would read back as something
    // else than was written, and two such variable keys could read back the same.
    const LONE = "\ud800";
    test.each([
        ["a project description", "POST", "/organizations/acme/projects", projectDocument({ name: "Lone Surrogate", description: `a${LONE}b` }), "/data/attributes/description"],
        ["a variable key", "POST", "/vars", variableDocument(WORKSPACES.appsLegacy, { key: `KEY${LONE}`, category: "env" }), "/data/attributes/key"],
        ["a variable value", "POST", "/vars", variableDocument(WORKSPACES.appsLegacy, { key: "LONE_VALUE", value: `\udfff${LONE}`, category: "env" }), "/data/attributes/value"],
        ["a variable description", "PATCH", "VAR", { data: { type: "vars", attributes: { description: LONE } } }, "/data/attributes/description"],
        ["a workspace source-name", "PATCH", "WORKSPACE", { data: { type: "workspaces", attributes: { "source-name": `x${LONE}` } } }, "/data/attributes/source-name"],
        ["an attribute name", "PATCH", "WORKSPACE", { data: { type: "workspaces", attributes: { [`x${LONE}`]: "y" } } }, "/data/attributes"],
    ])("%s with an unpaired surrogate: 422 at its pointer, nothing written", async (_label, method, path, json, pointer) => {
        const target = path === "VAR" ? `/vars/${variableId}` : path === "WORKSPACE" ? `/workspaces/${WORKSPACES.appsLegacy}` : path;
        const before = await snapshot(server);
        const errors = expectValidation(await send(method, target, { json }), pointer);
        expect(errors.map((error: any) => error.detail).join(" ")).toMatch(/Unicode/);
        await expectUnchanged(server, before);
    });

    test("a well-formed pair of surrogates (an emoji) is text like any other", async () => {
        const created = await createVariable(server, WORKSPACES.appsWeb, { key: "EMOJI_\ud83d\ude00", value: "\ud83d\ude00", category: "env" });
        const list = await http(server, "GET", "/vars?filter[workspace][name]=web-app&filter[organization][name]=acme", { token: TOKENS.owners });
        expect(list.body.data.find((variable: any) => variable.id === created.id).attributes).toEqual(
            expect.objectContaining({ key: "EMOJI_\u{1F600}", value: "\u{1F600}" }),
        );
    });
});

describe("media type", () => {
    // The API: JSON:API style; the local service: where the API is silent, do what the hosted service does, and it
    // answers every document as application/vnd.api+json.
    test.each([
        ["a project list", "GET", "/organizations/acme/projects", undefined, 200],
        ["a project show", "GET", "PROJECT", undefined, 200],
        ["a project create", "POST", "/organizations/acme/projects", projectDocument({ name: "Media Type" }), 201],
        ["a variable list", "GET", "/vars", undefined, 200],
        ["a workspace show", "GET", `/workspaces/${WORKSPACES.appsWeb}`, undefined, 200],
        ["a validation error", "POST", "/organizations/acme/projects", projectDocument({ name: "x" }), 422],
        ["a not-found error", "GET", "/projects/prj-doesnotexist0000", undefined, 404],
    ])("%s answers Content-Type application/vnd.api+json", async (_label, method, path, json, status) => {
        const target = path === "PROJECT" ? `/projects/${ids.Apps}` : path;
        const response = await send(method, target, { json });
        expect(response.status).toBe(status);
        expect(response.headers["content-type"]).toMatch(/^application\/vnd\.api\+json/);
    });
});

describe("never a 500", () => {
    /** Answers to hostile bodies must be a 4xx JSON:API error document. */
    function expectClientError(response: HttpResponse): void {
        if (response.status < 400 || response.status >= 500) {
            throw new Error(`expected a 4xx, got ${response.status} ${response.text.slice(0, 300)}`);
        }
        expectErrors(response, response.status);
    }

    test("a body of 5 MiB answers 413 with a JSON:API error, nothing written", async () => {
        const before = await snapshot(server);
        const huge = JSON.stringify(projectDocument({ name: "Huge", description: "d".repeat(5 * 1024 * 1024) }));
        expect(huge.length).toBeGreaterThan(5 * 1024 * 1024);
        // The 5 MiB request itself must be answered: no falling back to a smaller body.
        let response: HttpResponse;
        try {
            response = await send("POST", "/organizations/acme/projects", { raw: huge });
        } catch (error) {
            throw new Error(`no HTTP answer to a 5 MiB body: ${(error as Error).message}`);
        }
        expectErrors(response, 413);
        await expectUnchanged(server, before);
    });

    test("a huge variable value in a body over 1 MiB is refused with 413 and a JSON:API error, nothing written", async () => {
        const before = await snapshot(server);
        let response: HttpResponse;
        try {
            response = await send("POST", "/vars", {
                json: variableDocument(WORKSPACES.appsLegacy, { key: "HUGE", value: "v".repeat(3 * 1024 * 1024), category: "env" }),
            });
        } catch (error) {
            throw new Error(`no HTTP answer to an oversized body: ${(error as Error).message}`);
        }
        expectErrors(response, 413);
        await expectUnchanged(server, before);
    });

    test.each([
        ["a list", (depth: number) => `{"data":${"[".repeat(depth)}${"]".repeat(depth)}}`],
        ["an object", (depth: number) => `{"data":${'{"a":'.repeat(depth)}1${"}".repeat(depth)}}`],
    ])("JSON nested 100000 deep in %s answers a 4xx JSON:API error at every write endpoint, nothing written", async (_label, nested) => {
        const raw = nested(100_000);
        await forEachEndpoint(async ({ method, path }) => {
            expectClientError(await send(method, path, { raw }));
        });
    });

    test.each([
        ["data null", { data: null }],
        ["data a number", { data: 1 }],
        ["data a string", { data: "projects" }],
        ["attributes null", { data: { type: "projects", attributes: null } }],
        ["relationships a string", { data: { type: "projects", attributes: { name: "Odd" }, relationships: "x" } }],
        ["tag-bindings null", { data: { type: "projects", attributes: { name: "Odd" }, relationships: { "tag-bindings": null } } }],
        ["tag-bindings items null", { data: { type: "projects", attributes: { name: "Odd" }, relationships: { "tag-bindings": { data: [null] } } } }],
        ["tag attributes null", { data: { type: "projects", attributes: { name: "Odd" }, relationships: { "tag-bindings": { data: [{ type: "tag-bindings", attributes: null }] } } } }],
        ["a name with a NUL character", { data: { type: "projects", attributes: { name: "nul\u0000name" } } }],
        ["a __proto__ attribute", JSON.parse('{"data":{"type":"projects","attributes":{"__proto__":{"name":"Polluted"}}}}')],
    ])("project create with %s answers a 4xx JSON:API error, nothing written", async (_label, json) => {
        const before = await snapshot(server);
        expectClientError(await send("POST", "/organizations/acme/projects", { json }));
        await expectUnchanged(server, before);
    });

    test.each([
        ["relationships workspace data null", { data: { type: "vars", attributes: { key: "ODD", category: "env" }, relationships: { workspace: { data: null } } } }],
        ["relationships workspace a string", { data: { type: "vars", attributes: { key: "ODD", category: "env" }, relationships: { workspace: "ws" } } }],
        ["filter a string", { data: { type: "vars", attributes: { key: "ODD", category: "env" } }, filter: "x" }],
        ["filter without organization", { data: { type: "vars", attributes: { key: "ODD", category: "env" } }, filter: { workspace: { name: "legacy-app" } } }],
        ["filter workspace null", { data: { type: "vars", attributes: { key: "ODD", category: "env" } }, filter: { workspace: null, organization: { name: "acme" } } }],
        ["attributes a list", { data: { type: "vars", attributes: [], relationships: { workspace: { data: { type: "workspaces", id: WORKSPACES.appsLegacy } } } } }],
    ])("variable create with %s answers a 4xx JSON:API error, nothing written", async (_label, json) => {
        const before = await snapshot(server);
        expectClientError(await send("POST", "/vars", { json }));
        await expectUnchanged(server, before);
    });

    test.each([
        ["attributes null", { data: { type: "vars", attributes: null } }],
        ["key null", { data: { type: "vars", attributes: { key: null } } }],
        ["category null", { data: { type: "vars", attributes: { category: null } } }],
        ["hcl null", { data: { type: "vars", attributes: { hcl: null } } }],
    ])("variable update with %s answers a 4xx JSON:API error, nothing written", async (_label, json) => {
        const before = await snapshot(server);
        expectClientError(await send("PATCH", `/vars/${variableId}`, { json }));
        await expectUnchanged(server, before);
    });

    test("an unknown route answers 404 with a JSON:API error", async () => {
        expectErrors(await http(server, "GET", "/no-such-endpoint", { token: TOKENS.owners }), 404);
    });

    test("a method the route does not have answers a 4xx JSON:API error, nothing written", async () => {
        const before = await snapshot(server);
        expectClientError(await http(server, "PUT", `/projects/${ids.Empty}`, { token: TOKENS.owners, body: projectDocument({ name: "Put" }) }));
        await expectUnchanged(server, before);
    });

    test("an id in the path that is garbage answers 404 with a JSON:API error, not 500", async () => {
        for (const path of ["/projects/%00", "/projects/'%20OR%201=1", "/no-code-modules/%E2%80%AE", "/workspaces/..%2F..%2Fetc"]) {
            expectErrors(await http(server, "GET", path, { token: TOKENS.owners }), 404);
        }
    });

    test("a path that is not valid percent-encoding answers 400 with a JSON:API error, not 500", async () => {
        for (const path of ["/projects/%E0%A4%A", "/projects/%ED%A0%80"]) {
            expectErrors(await http(server, "GET", path, { token: TOKENS.owners }), 400);
        }
    });
});
