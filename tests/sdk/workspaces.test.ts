/**
 * `client.workspaces.create`, `list` and `listAll` against the real local service: what they send and what
 * they answer, options checked before any request (a refused call leaves an armed fault unused), typed
 * errors for the service's refusals, and a create that is never repeated after a lost answer.
 */
import { Transport } from "../../sdk/transport";
import * as rules from "../../sdk/model/rules";
import * as workspaceModel from "../../sdk/model/workspace";
import * as jsonapi from "../../sdk/model/jsonapi";
import {
    WosArgumentError,
    WosClient,
    WosNotFoundError,
    WosServerError,
    WosValidationError,
    type Workspace,
    type WosError,
} from "../../sdk";
import { startTestServer, type TestServer } from "../support/server";
import { TOKENS, WORKSPACES } from "../support/seed";
import { failure, projectIdOf, uniqueName } from "./helpers";

const AGENT_POOL = "apool-0000000000000001";
const CREATE_PATH = "^/api/v2/organizations/acme/workspaces$";

let server: TestServer;
let owners: WosClient;
let ids: { apps: string; staging: string; empty: string; defaultProject: string };

beforeAll(async () => {
    server = await startTestServer();
    owners = new WosClient({ address: server.url, token: TOKENS.owners, maxRetries: 0 });
    ids = {
        apps: await projectIdOf(owners, "acme", "Apps"),
        staging: await projectIdOf(owners, "acme", "Staging"),
        empty: await projectIdOf(owners, "acme", "Empty"),
        defaultProject: await projectIdOf(owners, "acme", "Default Project"),
    };
});

afterEach(async () => {
    await server.clearFaults();
});

afterAll(async () => {
    await server?.close();
});

/** The raw workspace resource as the service holds it, read over HTTP (not through the client under test). */
async function rawWorkspace(id: string): Promise<any> {
    const response = await server.request("GET", `/workspaces/${id}`, { token: TOKENS.owners });
    expect(response.status).toBe(200);
    return response.body.data;
}

describe("create", () => {
    it("creates a workspace with every option and answers it in client terms", async () => {
        const name = uniqueName("sdk-full");
        const created = await owners.workspaces.create("acme", {
            name,
            projectId: ids.empty,
            description: "made by the SDK",
            autoApply: true,
            executionMode: "agent",
            agentPoolId: AGENT_POOL,
            sourceName: "sdk tests",
            sourceUrl: "https://example.com/sdk-tests",
        });
        expect(created).toMatchObject({
            name,
            organization: "acme",
            projectId: ids.empty,
            description: "made by the SDK",
            autoApply: true,
            executionMode: "agent",
            agentPoolId: AGENT_POOL,
            sourceName: "sdk tests",
            sourceUrl: "https://example.com/sdk-tests",
            source: "tfe-api",
            sourceModuleId: null,
            noCodeModuleVersionId: null,
        });
        expect(created.id).toMatch(/^ws-/);
        const raw = await rawWorkspace(created.id);
        expect(raw.attributes).toMatchObject({ name, description: "made by the SDK", "auto-apply": true, "execution-mode": "agent" });
        expect(raw.relationships.project.data.id).toBe(ids.empty);
        expect(raw.relationships["agent-pool"].data.id).toBe(AGENT_POOL);
    });

    it("without projectId the workspace goes to the organization's Default Project, with the defaults", async () => {
        const created = await owners.workspaces.create("acme", { name: uniqueName("sdk-default") });
        expect(created).toMatchObject({ projectId: ids.defaultProject, autoApply: false, executionMode: "remote", agentPoolId: null, description: null });
        expect((await rawWorkspace(created.id)).relationships.project.data.id).toBe(ids.defaultProject);
    });

    it("a name already taken in the organization is a WosValidationError naming the name", async () => {
        const error = (await failure(owners.workspaces.create("acme", { name: "legacy-app" }))) as WosError;
        expect(WosValidationError.isInstance(error)).toBe(true);
        expect(error.status).toBe(422);
        expect(error.errors.map((item) => item.source?.pointer)).toEqual(["/data/attributes/name"]);
        expect(error.message).toMatch(/already been taken/);
    });

    it("a project the caller may not create workspaces in is a WosNotFoundError, and nothing is made", async () => {
        const reader = new WosClient({ address: server.url, token: TOKENS.appsRead, maxRetries: 0 });
        const name = uniqueName("sdk-refused");
        const error = await failure(reader.workspaces.create("acme", { name, projectId: ids.apps }));
        expect(WosNotFoundError.isInstance(error)).toBe(true);
        expect(WosNotFoundError.isInstance(await failure(owners.workspaces.readByName("acme", name)))).toBe(true);
    });

    it("is never repeated after a 5xx that came after the commit: the error stands, and the one workspace made is found by name", async () => {
        const retrying = new WosClient({ address: server.url, token: TOKENS.owners, maxRetries: 3, maxRetryDelayMs: 10 });
        const name = uniqueName("sdk-lost");
        await server.addFault({ method: "POST", path: CREATE_PATH, times: 1, status: 503, afterCommit: true });
        const error = await failure(retrying.workspaces.create("acme", { name, projectId: ids.empty }));
        expect(WosServerError.isInstance(error)).toBe(true);
        const found = await owners.workspaces.readByName("acme", name);
        expect(found.projectId).toBe(ids.empty);
        const listed = await owners.workspaces.list("acme", { search: name });
        expect(listed.items.map((item) => item.name)).toEqual([name]);
    });
});

describe("options are checked before any request", () => {
    /** Runs `call` with a one-shot 503 armed on `method path`, expects a WosArgumentError, and proves the 503 is still armed. */
    async function refusedBeforeSending(method: string, path: string, call: () => Promise<unknown>, probe: () => Promise<unknown>): Promise<WosError> {
        await server.addFault({ method, path, times: 1, status: 503 });
        const error = (await failure(call())) as WosError;
        expect(WosArgumentError.isInstance(error)).toBe(true);
        expect(error.method).toBe(method);
        expect(WosServerError.isInstance(await failure(probe()))).toBe(true);
        return error;
    }

    const createProbe = () => owners.workspaces.create("acme", { name: uniqueName("probe") });
    const listProbe = () => owners.workspaces.list("acme");

    it.each([
        ["a name of 91 characters", { name: "x".repeat(91) }, "options.name"],
        ["an empty name", { name: "" }, "options.name"],
        ["a name with a space", { name: "two words" }, "options.name"],
        ["a description of 257 characters", { name: "ok", description: "d".repeat(257) }, "options.description"],
        ["autoApply as a string", { name: "ok", autoApply: "yes" }, "options.autoApply"],
        ["an execution mode that does not exist", { name: "ok", executionMode: "local" }, "options.executionMode"],
        ["agent without an agent pool", { name: "ok", executionMode: "agent" }, "options.agentPoolId"],
        ["an agent pool with remote execution", { name: "ok", agentPoolId: AGENT_POOL }, "options.agentPoolId"],
        ["a blank projectId", { name: "ok", projectId: " " }, "options.projectId"],
        ["a sourceUrl that is not a URL", { name: "ok", sourceUrl: "nope" }, "options.sourceUrl"],
    ])("create: %s", async (_label, options, named) => {
        const error = await refusedBeforeSending("POST", CREATE_PATH, () => owners.workspaces.create("acme", options as never), createProbe);
        expect(error.message).toContain(named);
    });

    it("create: a blank organization", async () => {
        const error = await refusedBeforeSending("POST", CREATE_PATH, () => owners.workspaces.create(" ", { name: "ok" }), createProbe);
        expect(error.message).toContain("organization");
    });

    it.each([
        ["page number 0", { pageNumber: 0 }, "options.pageNumber"],
        ["a page size of 1.5", { pageSize: 1.5 }, "options.pageSize"],
        ["a search that is not a string", { search: 3 }, "options.search"],
        ["a blank projectId", { projectId: "" }, "options.projectId"],
        ["a sort the service does not have", { sort: "latest-change-at" }, "options.sort"],
    ])("list: %s", async (_label, options, named) => {
        const error = await refusedBeforeSending("GET", CREATE_PATH, () => owners.workspaces.list("acme", options as never), listProbe);
        expect(error.message).toContain(named);
    });
});

describe("list and listAll", () => {
    const made: string[] = [];

    beforeAll(async () => {
        for (let index = 1; index <= 23; index++) {
            const name = `page-item-${String(index).padStart(2, "0")}`;
            await owners.workspaces.create("acme", { name, projectId: ids.staging });
            made.push(name);
        }
    });

    it("answers one page with pagination, links and the counts; filters by name and by project", async () => {
        const first = await owners.workspaces.list("acme", { search: "page-item", pageSize: 10 });
        expect(first.items.map((item) => item.name)).toEqual(made.slice(0, 10));
        expect(first.pagination).toEqual({ currentPage: 1, pageSize: 10, prevPage: null, nextPage: 2, totalPages: 3, totalCount: 23 });
        expect(first.links.prev).toBeNull();
        expect(first.links.next).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/api\/v2\/organizations\/acme\/workspaces\?/);
        expect(first.statusCounts?.matching).toBe(23);

        const apps = await owners.workspaces.list("acme", { projectId: ids.apps });
        expect(apps.items.map((item) => item.id).sort()).toEqual([WORKSPACES.appsLegacy, WORKSPACES.appsWeb].sort());
        expect(apps.items.every((item: Workspace) => item.projectId === ids.apps && item.organization === "acme")).toBe(true);

        const both = await owners.workspaces.list("acme", { projectId: ids.staging, search: "ITEM-2" });
        expect(both.items.map((item) => item.name)).toEqual(["page-item-20", "page-item-21", "page-item-22", "page-item-23"]);
    });

    it("sorts by name either way", async () => {
        const ascending = await owners.workspaces.list("acme", { search: "page-item", sort: "name", pageSize: 3 });
        expect(ascending.items.map((item) => item.name)).toEqual(["page-item-01", "page-item-02", "page-item-03"]);
        const descending = await owners.workspaces.list("acme", { search: "page-item", sort: "-name", pageSize: 3 });
        expect(descending.items.map((item) => item.name)).toEqual(["page-item-23", "page-item-22", "page-item-21"]);
    });

    it("listAll yields every workspace once, across pages, with the filters kept", async () => {
        const requests = jest.spyOn(Transport.prototype, "request");
        try {
            const names: string[] = [];
            for await (const workspace of owners.workspaces.listAll("acme", { search: "page-item", pageSize: 5 })) names.push(workspace.name);
            expect(names).toEqual(made);
            // Five pages of five: one request each, none past the last.
            expect(requests).toHaveBeenCalledTimes(5);
        } finally {
            requests.mockRestore();
        }
    });

    it("listAll of the whole organization holds the seeded workspaces and ours, and only those the caller can read", async () => {
        const all: string[] = [];
        for await (const workspace of owners.workspaces.listAll("acme")) all.push(workspace.name);
        expect(all).toEqual(expect.arrayContaining(["legacy-app", "web-app", "staging-app", "scratch", ...made]));
        expect(new Set(all).size).toBe(all.length);

        const reader = new WosClient({ address: server.url, token: TOKENS.appsRead, maxRetries: 0 });
        const readable: string[] = [];
        for await (const workspace of reader.workspaces.listAll("acme")) readable.push(workspace.name);
        expect(readable).toEqual(["legacy-app", "web-app"]);
    });

    it("another organization's list is a WosNotFoundError", async () => {
        expect(WosNotFoundError.isInstance(await failure(owners.workspaces.list("globex")))).toBe(true);
    });
});

it("builds no schema while it creates and lists, and hands the transport the same schema object on every call", async () => {
    const factories = new Map<string, jest.SpyInstance>();
    for (const module of [rules, workspaceModel, jsonapi] as Record<string, any>[]) {
        for (const [name, value] of Object.entries(module)) {
            if (typeof value === "function" && /(Schema|Rule)$/.test(name)) factories.set(name, jest.spyOn(module, name));
        }
    }
    // The spies see a call made through the module the SDK imports from.
    workspaceModel.workspaceListSchema();
    expect(factories.get("workspaceListSchema")).toHaveBeenCalledTimes(1);
    for (const spy of factories.values()) spy.mockClear();
    const requests = jest.spyOn(Transport.prototype, "request");
    const validations = jest.spyOn(Transport.prototype, "validate");
    try {
        for (let round = 0; round < 3; round++) {
            await owners.workspaces.create("acme", { name: uniqueName("once"), projectId: ids.empty });
            await owners.workspaces.list("acme", { search: "once", pageSize: 2 });
            for await (const _workspace of owners.workspaces.listAll("acme", { projectId: ids.empty })) void _workspace;
        }
        expect([...factories].filter(([, spy]) => spy.mock.calls.length > 0).map(([name]) => name)).toEqual([]);
        // The schema objects handed to the transport, by method (the create is the only POST, the lists the only GETs).
        const answerSchemas = new Map<string, Set<unknown>>();
        for (const [spec] of requests.mock.calls) answerSchemas.set(spec.method, (answerSchemas.get(spec.method) ?? new Set()).add(spec.schema));
        const optionSchemas = new Map<string, Set<unknown>>();
        for (const [schema, , method] of validations.mock.calls) optionSchemas.set(method, (optionSchemas.get(method) ?? new Set()).add(schema));
        expect([...answerSchemas].map(([method, set]) => [method, set.size])).toEqual([["POST", 1], ["GET", 1]]);
        expect([...optionSchemas].map(([method, set]) => [method, set.size])).toEqual([["POST", 1], ["GET", 1]]);
    } finally {
        jest.restoreAllMocks();
    }
});
