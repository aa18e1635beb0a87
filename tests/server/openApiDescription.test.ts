/**
 * The OpenAPI description (`server/openapi/`) agrees with the service: it is served at
 * `/api/v2/openapi.json` without a token; every route has an operation and every operation a route; and a
 * corpus of real requests over HTTP (each operation's success, its refusals for no token, unknown ids, bad
 * query parameters and bodies, and the refusals only some operations have) gets only statuses the operation
 * declares, reaches every status it declares (but the rate limit's and a busy database's, which other
 * suites provoke), and bodies that the declared schema accepts.
 */
import Ajv2020 from "ajv/dist/2020";
import type { OpenAPIObject, OperationObject, ResponseObject, SchemaObject } from "openapi3-ts/oas31";
import { buildApp } from "../../server/app";
import { answersOf, describedOperations, openApiDocument, openApiPath } from "../../server/openapi/document";
import type { Operation } from "../../server/openapi/operation";
import { ADMIN_TOKEN, startTestServer, type TestServer } from "../support/server";
import { REGISTRY_MODULES, TOKENS, WORKSPACES } from "../support/seed";
import {
    expectStatus,
    http,
    initiateUpgrade,
    moduleWithWorkspace,
    noCodePaths,
    moveDocument,
    noCodeModuleDocument,
    noCodeTestSeed,
    noCodeWorkspaceDocument,
    projectDocument,
    uniqueName,
    uniqueVariableKey,
    upgradeDocument,
    variableDocument,
    variableUpdateDocument,
    withNoCodeServer,
    type HttpResponse,
    type NoCodeServer,
    type RequestOptions,
} from "./helpers";

const OPERATIONS = describedOperations({ admin: true });
const byId = new Map(OPERATIONS.map((operation) => [operation.operationId, operation]));

/** Statuses a route may answer that the corpus does not provoke: the rate limit's and a busy database's. */
const NOT_PROVOKED = new Set([429, 503]);

describe("the description as served", () => {
    let server: TestServer;
    beforeAll(async () => {
        server = await startTestServer();
    });
    afterAll(async () => {
        await server.close();
    });

    test("GET /api/v2/openapi.json answers the description, without a token, as OpenAPI 3.1", async () => {
        const response = await http(server, "GET", "/openapi.json");
        expect(response.status).toBe(200);
        expect(response.headers["content-type"]).toMatch(/^application\/vnd\.oai\.openapi\+json/);
        const served = JSON.parse(response.text) as OpenAPIObject;
        expect(served.openapi).toBe("3.1.0");
        expect(served).toEqual(JSON.parse(JSON.stringify(openApiDocument({ admin: true }))));
        expect(served.components?.securitySchemes).toEqual({
            token: expect.objectContaining({ type: "http", scheme: "bearer" }),
            adminToken: expect.objectContaining({ type: "http", scheme: "bearer" }),
        });
    });

    test("a server without an admin token describes no /_admin route", async () => {
        const plain = await startTestServer({ adminToken: undefined });
        try {
            const served = JSON.parse((await http(plain, "GET", "/openapi.json")).text) as OpenAPIObject;
            expect(Object.keys(served.paths ?? {}).filter((path) => path.startsWith("/_admin"))).toEqual([]);
            expect(Object.keys(served.components?.securitySchemes ?? {})).toEqual(["token"]);
            expect((await http(plain, "POST", "/_admin/faults", { body: { path: "x" } })).status).toBe(404);
        } finally {
            await plain.close();
        }
    });

    test("every operation says its security: a token, none for ping and the description, the admin token for faults", () => {
        const document = openApiDocument({ admin: true });
        const security = (path: string, method: "get" | "post") => (document.paths![path] as Record<string, OperationObject>)[method]!.security;
        expect(security("/api/v2/ping", "get")).toEqual([]);
        expect(security("/api/v2/openapi.json", "get")).toEqual([]);
        expect(security("/api/v2/projects/{id}", "get")).toEqual([{ token: [] }]);
        expect(security("/_admin/faults", "post")).toEqual([{ adminToken: [] }]);
    });

    test("each created resource links to the operations on its id", () => {
        const document = openApiDocument({ admin: true });
        const created = (document.paths!["/api/v2/organizations/{organization}/projects"]!.post!.responses as Record<string, ResponseObject>)["201"]!;
        expect(created.links?.showProject).toEqual({
            operationId: "showProject",
            parameters: { id: "$response.body#/data/id" },
            description: expect.any(String),
        });
        const operationIds = new Set(OPERATIONS.map((operation) => operation.operationId));
        for (const operation of OPERATIONS) {
            for (const answer of Object.values(operation.responses)) {
                for (const link of Object.values(answer.links ?? {})) {
                    expect({ from: operation.operationId, to: link.operationId, known: operationIds.has(link.operationId) }).toEqual({
                        from: operation.operationId,
                        to: link.operationId,
                        known: true,
                    });
                    const target = byId.get(link.operationId)!;
                    expect(Object.keys(link.parameters).sort()).toEqual(Object.keys(target.pathParameters).sort());
                }
            }
        }
    });
});

describe("what the schemas say", () => {
    const document = openApiDocument({ admin: true });
    const ajv = new Ajv2020({ strict: false, allErrors: true, validateFormats: false });
    /** The JSON Schema of `operationId`'s request body, compiled. */
    const requestSchema = (operationId: string) => {
        const operation = byId.get(operationId)!;
        const item = (document.paths![openApiPath(operation.path)] as Record<string, OperationObject>)[operation.method]!;
        const { schema } = (item.requestBody as { content: Record<string, { schema: { $ref: string } }> }).content["application/vnd.api+json"]!;
        const name = schema.$ref.split("/").pop()!;
        return ajv.getSchema(name) ?? (ajv.addSchema((document.components!.schemas as Record<string, SchemaObject>)[name]!, name), ajv.getSchema(name)!);
    };

    test("every body an operation takes has an example, which both its zod schema and its JSON Schema accept", () => {
        const document = openApiDocument({ admin: true });
        for (const operation of OPERATIONS.filter((candidate) => candidate.body)) {
            const item = (document.paths![openApiPath(operation.path)] as Record<string, OperationObject>)[operation.method]!;
            const example = (item.requestBody as { content: Record<string, { example?: unknown }> }).content["application/vnd.api+json"]!.example;
            expect({ operation: operation.operationId, hasExample: example !== undefined }).toEqual({ operation: operation.operationId, hasExample: true });
            expect({ operation: operation.operationId, zod: operation.body!.schema.safeParse(example).success }).toEqual({ operation: operation.operationId, zod: true });
            const validate = requestSchema(operation.operationId);
            expect({ operation: operation.operationId, jsonSchema: validate(example), errors: validate.errors ?? null }).toEqual({
                operation: operation.operationId,
                jsonSchema: true,
                errors: null,
            });
        }
    });

    // What the model's refinements check, which z.toJSONSchema drops, is said as JSON Schema beside them: each
    // of these bodies is refused by the zod schema, and must be by the description too (schemathesis found
    // every one of them sent as valid and refused).
    const project = (attributes: Record<string, unknown>) => ({ data: { type: "projects", attributes: { name: "Fine Name", ...attributes } } });
    const projectWithTag = (key: string) => ({
        data: { type: "projects", attributes: { name: "Fine Name" }, relationships: { "tag-bindings": { data: [{ type: "tag-bindings", attributes: { key, value: "v" } }] } } },
    });
    const module = (item: Record<string, unknown>) => ({
        data: {
            type: "no-code-modules",
            relationships: { "registry-module": { data: { type: "registry-module", id: "mod-1" } }, "variable-options": { data: [{ type: "variable-options", ...item }] } },
        },
    });
    // `server`: a rule the server checks beside the zod schema (with its own words), which accepts the body.
    const cases: { rule: string; operationId: string; refused: unknown; accepted: unknown; server?: true }[] = [
        { rule: "a duration above 0", operationId: "createProject", refused: project({ "auto-destroy-activity-duration": "0000d" }), accepted: project({ "auto-destroy-activity-duration": "0014d" }) },
        { rule: "a duration of up to four digits", operationId: "createProject", refused: project({ "auto-destroy-activity-duration": "10000h" }), accepted: project({ "auto-destroy-activity-duration": "9999h" }) },
        { rule: "a project name without a leading space", operationId: "createProject", refused: project({ name: " Padded" }), accepted: project({ name: "Pad ded" }) },
        { rule: "a project name without a trailing space", operationId: "createProject", refused: project({ name: "Padded " }), accepted: project({ name: "Padded" }) },
        { rule: "a tag key without a reserved prefix, in any case", operationId: "createProject", refused: projectWithTag("Hcp:owner"), accepted: projectWithTag("hcpx:owner") },
        {
            rule: "a hosted setting at its one value here",
            operationId: "createWorkspace",
            refused: { data: { type: "workspaces", attributes: { name: "w", "allow-destroy-plan": null } } },
            accepted: { data: { type: "workspaces", attributes: { name: "w", "allow-destroy-plan": true } } },
        },
        { rule: "a variable-options item with an id or attributes", operationId: "createNoCodeModule", refused: module({}), accepted: module({ id: "ncvaropt-1" }) },
        {
            rule: "a variable's workspace, by relationship or by the deprecated filter",
            operationId: "createVariable",
            refused: { data: { type: "vars", attributes: { key: "K", category: "env" } } },
            accepted: { data: { type: "vars", attributes: { key: "K", category: "env" } }, filter: { workspace: { name: "w" }, organization: { name: "acme" } } },
            server: true,
        },
    ];
    test.each(cases)("$rule: the JSON Schema of $operationId refuses what the service refuses", ({ operationId, refused, accepted, server }) => {
        const zod = byId.get(operationId)!.body!.schema;
        const validate = requestSchema(operationId);
        expect({ zod: zod.safeParse(refused).success, jsonSchema: validate(refused) }).toEqual({ zod: server === true, jsonSchema: false });
        expect({ zod: zod.safeParse(accepted).success, jsonSchema: validate(accepted) }).toEqual({ zod: true, jsonSchema: true });
    });

    test("path parameters are declared at most 100 characters long, the router's limit", () => {
        const parameter = (document.paths!["/api/v2/projects/{id}"]!.get!.parameters as any[]).find((candidate) => candidate.name === "id");
        expect(parameter.schema).toEqual({ type: "string", minLength: 1, maxLength: 100 });
    });
});

describe("routes and operations", () => {
    test("every route of a server with an admin token has its operation, and every operation its route", async () => {
        const app = await buildApp({ dataPath: ":memory:", seed: noCodeTestSeed(), adminToken: ADMIN_TOKEN, logLevel: "silent" });
        try {
            const routes = app.wos.routes.map((route) => `${route.method} ${route.url}`).sort();
            const described = OPERATIONS.map((operation) => `${operation.method.toUpperCase()} ${operation.path}`).sort();
            expect(routes).toEqual(described);
        } finally {
            await app.close();
        }
    });

    test("a server without an admin token has no fault routes, and its description none", async () => {
        const app = await buildApp({ dataPath: ":memory:", logLevel: "silent" });
        try {
            const routes = app.wos.routes.map((route) => `${route.method} ${route.url}`).sort();
            const described = describedOperations({ admin: false }).map((operation) => `${operation.method.toUpperCase()} ${operation.path}`);
            expect(routes).toEqual(described.sort());
        } finally {
            await app.close();
        }
    });

    test("every path parameter of every operation is described, and the paths are OpenAPI's", () => {
        const document = openApiDocument({ admin: true });
        for (const operation of OPERATIONS) {
            const path = openApiPath(operation.path);
            expect(path).not.toContain(":");
            const item = (document.paths![path] as Record<string, OperationObject>)[operation.method]!;
            const names = (item.parameters ?? []).filter((parameter: any) => parameter.in === "path").map((parameter: any) => parameter.name);
            expect(names.sort()).toEqual(Object.keys(operation.pathParameters).sort());
        }
    });
});

/** One answer of the corpus: which operation was asked, and what came back. */
interface Answered {
    operationId: string;
    case: string;
    response: HttpResponse;
}

/** A request to an operation: its path parameters, query, token (the owners' unless said) and body. */
interface Ask extends Omit<RequestOptions, "token"> {
    params?: Record<string, string>;
    query?: string;
    /** `null`: no token. */
    token?: string | null;
}

describe("a corpus of requests over HTTP", () => {
    let started: NoCodeServer;
    withNoCodeServer((value) => (started = value), { planStepMs: 0 });
    const answers: Answered[] = [];

    /** Asks `operationId` and records the answer under `label`. */
    async function ask(operationId: string, label: string, request: Ask = {}): Promise<HttpResponse> {
        const operation = byId.get(operationId);
        if (!operation) throw new Error(`no operation ${operationId}`);
        const path = operation.path.replace(/:([A-Za-z]+)/g, (_all, name: string) => {
            const value = request.params?.[name];
            if (value === undefined) throw new Error(`${operationId} ${label}: no value for :${name}`);
            return encodeURIComponent(value);
        });
        const token = request.token === null ? undefined : (request.token ?? (operation.caller === "admin" ? ADMIN_TOKEN : TOKENS.owners));
        const url = started.server.url + path + (request.query ? `?${request.query}` : "");
        const response = await http(started.server, operation.method.toUpperCase(), url, { ...request, token });
        answers.push({ operationId, case: label, response });
        return response;
    }

    /**
     * The refusals every operation of its kind has: no token; unknown ids in the path; a query parameter
     * given twice; and for a body, none at all, one too large, one of another media type, one of another type.
     */
    async function refusals(operationId: string, params: Record<string, string>, unknown: Record<string, string> | undefined, body?: unknown): Promise<void> {
        const operation = byId.get(operationId)!;
        await ask(operationId, "no token", { params, ...(body !== undefined && { body }), token: null });
        if (unknown) {
            await ask(operationId, "unknown ids", { params: unknown, ...(body !== undefined && { body }) });
            // The router's limit: 100 characters read, 101 refused.
            const long = Object.fromEntries(Object.keys(params).map((name) => [name, "x".repeat(101)]));
            await ask(operationId, "a path parameter too long", { params: long, ...(body !== undefined && { body }) });
            const longest = Object.fromEntries(Object.keys(params).map((name) => [name, "x".repeat(100)]));
            expect((await ask(operationId, "the longest path parameter", { params: longest, ...(body !== undefined && { body }) })).status).not.toBe(414);
        }
        const first = Object.keys(operation.query ?? {})[0];
        if (first) {
            const name = encodeURIComponent(first);
            await ask(operationId, "a parameter given twice", { params, query: `${name}=a&${name}=b` });
        }
        if (operation.body) {
            await ask(operationId, "an empty object", { params, body: {} });
            await ask(operationId, "a body too large", { params, rawBody: JSON.stringify({ data: { padding: "x".repeat(1024 * 1024 + 1) } }) });
            await ask(operationId, "another media type", { params, rawBody: JSON.stringify(body ?? {}), headers: { "content-type": "invalid" } });
            await ask(operationId, "another type", { params, body: { data: { type: "nope", attributes: {} } } });
        }
    }

    beforeAll(async () => {
        const org = { organization: "acme" };
        const nobody = { organization: "nosuchorganization" };
        const none = (id: string) => ({ id });

        await ask("ping", "ping", { token: null });
        await ask("ping", "with a token");
        await ask("openApiDescription", "read", { token: null });

        // Projects.
        const created = await ask("createProject", "create", { params: org, body: projectDocument({ name: uniqueName("oa") }, [{ key: "team", value: "a" }]) });
        expectStatus(created, 201);
        const project = created.body.data.id as string;
        const doomed = (await ask("createProject", "create another", { params: org, body: projectDocument({ name: uniqueName("oa") }) })).body.data.id as string;
        await refusals("createProject", org, nobody, projectDocument({ name: uniqueName("oa") }));
        await ask("listProjects", "list", { params: org, query: "include=effective_tag_bindings&sort=-name" });
        await refusals("listProjects", org, nobody);
        const projectParams = { id: project };
        for (const operationId of ["showProject", "listProjectTagBindings", "listProjectEffectiveTagBindings", "listProjectTagBindingRelationships"]) {
            await ask(operationId, "read", { params: projectParams });
            await refusals(operationId, projectParams, none("prj-nosuchproject0001"));
        }
        const tags = { data: [{ type: "tag-bindings", attributes: { key: "env", value: "prod" } }] };
        for (const operationId of ["addProjectTagBindings", "addProjectTagBindingRelationships", "replaceProjectTagBindingRelationships"]) {
            await ask(operationId, "write", { params: projectParams, body: tags });
            await refusals(operationId, projectParams, none("prj-nosuchproject0001"), tags);
        }
        const update = { data: { type: "projects", attributes: { description: "described" } } };
        await ask("updateProject", "update", { params: projectParams, body: update });
        await refusals("updateProject", projectParams, none("prj-nosuchproject0001"), update);

        // Workspaces.
        const workspaceBody = () => ({ data: { type: "workspaces", attributes: { name: uniqueName("oa-ws") } } });
        const workspace = (await ask("createWorkspace", "create", { params: org, body: workspaceBody() })).body.data.id as string;
        const movable = (await ask("createWorkspace", "create another", { params: org, body: workspaceBody() })).body.data.id as string;
        await refusals("createWorkspace", org, nobody, workspaceBody());
        await ask("listWorkspaces", "list", { params: org, query: "search%5Bwildcard-name%5D=oa-*&filter%5Btag-union%5D=true&sort=name" });
        await refusals("listWorkspaces", org, nobody);
        const workspaceParams = { id: WORKSPACES.appsWeb };
        await ask("showWorkspace", "read", { params: workspaceParams, query: "include=no-code-module-version" });
        await refusals("showWorkspace", workspaceParams, none("ws-nosuchworkspace01"));
        await ask("showWorkspaceByName", "read", { params: { ...org, name: "web-app" } });
        await refusals("showWorkspaceByName", { ...org, name: "web-app" }, { ...org, name: "no-such-workspace" });
        await ask("listWorkspaceEffectiveTagBindings", "read", { params: workspaceParams });
        await refusals("listWorkspaceEffectiveTagBindings", workspaceParams, none("ws-nosuchworkspace01"));
        const workspaceUpdate = { data: { type: "workspaces", attributes: { description: "described" } } };
        await ask("updateWorkspace", "update", { params: { id: workspace }, body: workspaceUpdate });
        await refusals("updateWorkspace", { id: workspace }, none("ws-nosuchworkspace01"), workspaceUpdate);
        await ask("moveWorkspacesToProject", "move", { params: projectParams, body: moveDocument([movable]) });
        await ask("moveWorkspacesToProject", "a workspace of another organization", { params: projectParams, body: moveDocument([WORKSPACES.globex]) });
        await refusals("moveWorkspacesToProject", projectParams, none("prj-nosuchproject0001"), moveDocument([movable]));

        // Variables.
        const variableBody = () => variableDocument(WORKSPACES.appsWeb, { key: uniqueVariableKey(), value: "v", category: "env" });
        const variable = (await ask("createVariable", "create", { body: variableBody() })).body.data.id as string;
        await ask("createVariable", "an unknown workspace", {
            body: variableDocument("ws-nosuchworkspace01", { key: uniqueVariableKey(), value: "v", category: "env" }),
        });
        await refusals("createVariable", {}, undefined, variableBody());
        await ask("listVariables", "of a workspace", { query: "filter%5Bworkspace%5D%5Bname%5D=web-app&filter%5Borganization%5D%5Bname%5D=acme" });
        await ask("listVariables", "all", {});
        await ask("listVariables", "an unknown workspace", { query: "filter%5Bworkspace%5D%5Bname%5D=nosuch&filter%5Borganization%5D%5Bname%5D=acme" });
        await ask("listVariables", "one filter without the other", { query: "filter%5Bworkspace%5D%5Bname%5D=web-app" });
        await refusals("listVariables", {}, undefined);
        const variableUpdate = variableUpdateDocument(variable, { value: "w" });
        await ask("updateVariable", "update", { params: { id: variable }, body: variableUpdate });
        await refusals("updateVariable", { id: variable }, none("var-nosuchvariable01"), variableUpdateDocument("var-nosuchvariable01", { value: "w" }));

        // No-code modules and workspaces.
        const moduleBody = (id: string) => noCodeModuleDocument({ registryModuleId: id, enabled: true });
        const moduleAnswer = await ask("createNoCodeModule", "create", { params: org, body: moduleBody(started.registryModule()) });
        expectStatus(moduleAnswer, 200);
        const module = moduleAnswer.body.data.id as string;
        const registryModule = moduleAnswer.body.data.relationships["registry-module"].data.id as string;
        const doomedModule = (await ask("createNoCodeModule", "create another", { params: org, body: moduleBody(started.registryModule()) })).body.data.id;
        await refusals("createNoCodeModule", org, nobody, moduleBody(REGISTRY_MODULES.bucket));
        await ask("showNoCodeModule", "read", { params: { id: module }, query: "include=variable_options" });
        await refusals("showNoCodeModule", { id: module }, none("nocode-nosuchmodule01"));
        const moduleUpdate = { data: { type: "no-code-modules", attributes: { enabled: true } } };
        await ask("updateNoCodeModule", "update", { params: { id: module }, body: moduleUpdate });
        await refusals("updateNoCodeModule", { id: module }, none("nocode-nosuchmodule01"), moduleUpdate);
        await ask("showRegistryModule", "read", { params: { id: registryModule } });
        await refusals("showRegistryModule", { id: registryModule }, none("mod-nosuchmodule0001"));
        const noCodeBody = () =>
            noCodeWorkspaceDocument({ name: uniqueName("oa-nc"), projectId: started.ids.Apps, vars: [{ key: "region", value: "eu-west-1", category: "infra" }] });
        const noCode = await ask("createNoCodeWorkspace", "create", { params: { id: module }, body: noCodeBody() });
        expectStatus(noCode, 200);
        const noCodeWorkspace = noCode.body.data.id as string;
        await refusals("createNoCodeWorkspace", { id: module }, none("nocode-nosuchmodule01"), noCodeBody());
        const version = (await ask("showWorkspace", "read a no-code workspace", { params: { id: noCodeWorkspace } })).body.data.relationships[
            "no-code-module-version"
        ].data.id as string;
        await ask("showNoCodeModuleVersion", "read", { params: { id: version } });
        await refusals("showNoCodeModuleVersion", { id: version }, none("nocodever-nosuchversion1"));
        const upgradeParams = { id: module, workspace: noCodeWorkspace };
        const run = (await ask("startWorkspaceUpgrade", "start", { params: upgradeParams, body: upgradeDocument() })).body.data.id as string;
        await refusals("startWorkspaceUpgrade", upgradeParams, { id: module, workspace: "ws-nosuchworkspace01" }, upgradeDocument());
        const runParams = { ...upgradeParams, run };
        await ask("showWorkspaceUpgrade", "read", { params: runParams });
        await refusals("showWorkspaceUpgrade", runParams, { ...runParams, run: "run-nosuchrun0000001" });
        await ask("confirmWorkspaceUpgrade", "confirm", { params: runParams });
        await ask("confirmWorkspaceUpgrade", "confirm again (a confirm that lost its answer is retried)", { params: runParams });
        await refusals("confirmWorkspaceUpgrade", runParams, { ...runParams, run: "run-nosuchrun0000001" });

        // Fault injection.
        await ask("addFault", "add", { body: { path: "^/never-asked$" } });
        await ask("addFault", "not a rule", { body: { path: "^/x$", times: 0 } });
        await ask("addFault", "another token", { body: { path: "^/x$" }, token: TOKENS.owners });
        await ask("clearFaults", "clear", {});
        await ask("clearFaults", "another token", { token: TOKENS.owners });
        await ask("addFault", "no token", { body: { path: "^/x$" }, token: null });

        // Deletes last: each of a resource made for it.
        await ask("deleteVariable", "delete", { params: { id: variable } });
        await refusals("deleteVariable", { id: variable }, none("var-nosuchvariable01"));
        await ask("deleteWorkspace", "delete", { params: { id: workspace } });
        await refusals("deleteWorkspace", { id: movable }, none("ws-nosuchworkspace01"));
        await ask("deleteNoCodeModule", "delete", { params: { id: doomedModule } });
        await refusals("deleteNoCodeModule", { id: module }, none("nocode-nosuchmodule01"));
        await ask("deleteProject", "the default project", { params: { id: started.ids["Default Project"] } });
        await ask("deleteProject", "a token that may see it but not delete it", { params: { id: started.ids.Apps }, token: TOKENS.appsWrite });
        await ask("deleteProject", "delete", { params: { id: doomed } });
        await refusals("deleteProject", { id: project }, none("prj-nosuchproject0001"));
    }, 120_000);

    // A second service whose plans never finish: a second upgrade meets the first still planning.
    describe("with plans that never finish", () => {
        let slow: NoCodeServer;
        withNoCodeServer((value) => (slow = value), { planStepMs: 3_600_000 });

        test("a second upgrade while the first is planning is a declared 409", async () => {
            const { moduleId, workspace } = await moduleWithWorkspace(slow);
            await initiateUpgrade(slow.server, moduleId, workspace.id);
            const second = await http(slow.server, "POST", noCodePaths.upgrade(moduleId, workspace.id), { token: TOKENS.owners, body: upgradeDocument() });
            answers.push({ operationId: "startWorkspaceUpgrade", case: "while another plans", response: second });
            expect(second.status).toBe(409);
        });

        test("confirming a plan still planning is a declared 409", async () => {
            const { moduleId, workspace } = await moduleWithWorkspace(slow);
            const run = await initiateUpgrade(slow.server, moduleId, workspace.id);
            const confirm = await http(slow.server, "POST", noCodePaths.run(moduleId, workspace.id, run.id), { token: TOKENS.owners });
            answers.push({ operationId: "confirmWorkspaceUpgrade", case: "while it plans", response: confirm });
            expect(confirm.status).toBe(409);
        });
    });

    const document = openApiDocument({ admin: true });
    const declared = (operation: Operation) => Object.keys(answersOf(operation)).map(Number);

    test("every answer's status is one its operation declares", () => {
        const undeclared = answers
            .filter((answer) => !declared(byId.get(answer.operationId)!).includes(answer.response.status))
            .map((answer) => `${answer.operationId} (${answer.case}): ${answer.response.status} ${answer.response.text.slice(0, 200)}`);
        expect(undeclared).toEqual([]);
    });

    test("every status an operation declares is answered by some request of the corpus", () => {
        const unreached: string[] = [];
        for (const operation of OPERATIONS) {
            for (const status of declared(operation)) {
                if (NOT_PROVOKED.has(status)) continue;
                if (!answers.some((answer) => answer.operationId === operation.operationId && answer.response.status === status)) {
                    unreached.push(`${operation.operationId} ${status}`);
                }
            }
        }
        expect(unreached).toEqual([]);
    });

    test("every body answered is of the declared media type, and the declared schema accepts it", () => {
        const ajv = new Ajv2020({ strict: false, allErrors: true, validateFormats: false });
        const schemas = document.components!.schemas as Record<string, SchemaObject>;
        const rejected: string[] = [];
        for (const answer of answers) {
            const operation = byId.get(answer.operationId)!;
            const item = (document.paths![openApiPath(operation.path)] as Record<string, OperationObject>)[operation.method]!;
            const response = (item.responses as Record<string, ResponseObject>)[String(answer.response.status)];
            if (!response?.content) {
                if (answer.response.text !== "") rejected.push(`${answer.operationId} (${answer.case}): a body where none is declared`);
                continue;
            }
            const [mediaType, { schema }] = Object.entries(response.content)[0]! as [string, { schema: { $ref: string } }];
            if (!(answer.response.headers["content-type"] ?? "").startsWith(mediaType)) {
                rejected.push(`${answer.operationId} (${answer.case}): content-type ${answer.response.headers["content-type"]}, declared ${mediaType}`);
            }
            const name = schema.$ref.split("/").pop()!;
            const validate = ajv.getSchema(name) ?? (ajv.addSchema(schemas[name]!, name), ajv.getSchema(name)!);
            if (!validate(JSON.parse(answer.response.text))) {
                rejected.push(`${answer.operationId} (${answer.case}): ${ajv.errorsText(validate.errors)}`);
            }
        }
        expect(rejected).toEqual([]);
    });
});
