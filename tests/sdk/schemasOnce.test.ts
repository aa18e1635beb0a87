/**
 * The client builds each zod schema once per module, never per call (issue 6, Scale): building a schema and
 * zod's first parse of it cost about a millisecond, a hundred times a request's own parsing.
 *
 * Two independent proofs over every method of every resource class, run for several rounds against the real
 * local service:
 * - no schema factory of `sdk/model` (every exported `...Schema` and `...Rule` function, spied on through the
 *   module the SDK imports them from) is called while requests are made, the error path included;
 * - every schema the transport is handed (to validate options, to parse an answer) is the same object on
 *   every call of the same endpoint.
 * A per-call build anywhere in `sdk/*.ts` breaks at least one of them. The provider handlers' `check`, which
 * runs for every resource of a program, is held to the first proof too.
 */
import { Transport } from "../../sdk/transport";
import { WosClient, WosNotFoundError } from "../../sdk";
import * as rules from "../../sdk/model/rules";
import * as jsonapi from "../../sdk/model/jsonapi";
import * as projectModel from "../../sdk/model/project";
import * as variableModel from "../../sdk/model/variable";
import * as workspaceModel from "../../sdk/model/workspace";
import * as noCodeModel from "../../sdk/model/noCode";
import * as registryModuleModel from "../../sdk/model/registryModule";
import type { TestServer } from "../support/server";
import { REGISTRY_MODULES, TOKENS, WORKSPACES } from "../support/seed";
import * as projectHandlers from "../../provider/handlers/project";
import * as tagBindingHandlers from "../../provider/handlers/projectTagBindings";
import * as variableHandlers from "../../provider/handlers/variable";
import * as noCodeModuleHandlers from "../../provider/handlers/noCodeModule";
import * as noCodeWorkspaceHandlers from "../../provider/handlers/noCodeWorkspace";

// The service runs in this process too, and builds its request schemas with the same factories: it gets its
// own copies of the modules, so that only the client's calls reach the spies below.
let startTestServer!: typeof import("../support/server").startTestServer;
jest.isolateModules(() => {
    ({ startTestServer } = require("../support/server") as typeof import("../support/server"));
});

const ROUNDS = 3;

let server: TestServer;
let client: WosClient;

beforeAll(async () => {
    // Short plan steps: each round waits for one upgrade plan.
    server = await startTestServer({ planStepMs: 5 });
    client = new WosClient({ address: server.url, token: TOKENS.owners, maxRetryDelayMs: 10 });
});

afterEach(() => {
    jest.restoreAllMocks();
});

afterAll(async () => {
    await server?.close();
});

/** Spies on every schema factory of `sdk/model`; the SDK reaches them through these module objects. */
function spyOnSchemaFactories(): Map<string, jest.SpyInstance> {
    const spies = new Map<string, jest.SpyInstance>();
    const modules = { rules, jsonapi, projectModel, variableModel, workspaceModel, noCodeModel, registryModuleModel };
    for (const [moduleName, module] of Object.entries(modules)) {
        for (const [name, value] of Object.entries(module)) {
            if (typeof value !== "function" || !/(Schema|Rule)$/.test(name)) continue;
            spies.set(`${moduleName}.${name}`, jest.spyOn(module as Record<string, any>, name));
        }
    }
    return spies;
}

/** A request path with its ids and names (every segment holding a digit) replaced, to group calls by endpoint. */
function endpointOf(method: string, path: string): string {
    return `${method} ${path
        .split("/")
        .map((segment) => (/\d/.test(segment) ? ":x" : segment))
        .join("/")}`;
}

/** Every SDK method that sends a request, once, including an error answer (parsed with the error document schema). */
async function exercise(round: number): Promise<void> {
    const suffix = `${round}-${Date.now() % 100000}`;
    const project = await client.projects.create("acme", {
        name: `once-${suffix}`,
        description: "schemas once",
        autoDestroyActivityDuration: "14d",
        tagBindings: [{ key: "round", value: String(round) }],
    });
    await client.projects.read(project.id);
    await client.projects.update(project.id, { description: null });
    await client.projects.list("acme", { query: "once", sort: "name", pageSize: 5, pageNumber: 1 });
    for await (const _project of client.projects.listAll("acme", { pageSize: 100 })) void _project;
    await client.projects.addTagBindings(project.id, [{ key: "extra", value: "yes" }]);
    await client.projects.listTagBindings(project.id);
    await client.projects.listEffectiveTagBindings(project.id);
    const missing = await client.projects.read("prj-doesnotexist0000").catch((error: unknown) => error);
    expect(WosNotFoundError.isInstance(missing)).toBe(true);

    const legacy = await client.workspaces.read(WORKSPACES.appsLegacy);
    await client.workspaces.readByName("acme", legacy.name);
    await client.workspaces.listEffectiveTagBindings(legacy.id);

    const variable = await client.variables.create(legacy.id, { key: `ONCE_${round}`, value: "a", category: "env" });
    await client.variables.listByWorkspaceName("acme", legacy.name);
    await client.variables.read(legacy.id, variable.id);
    await client.variables.update(legacy.id, variable.id, { value: "b", description: "changed" });
    await client.variables.delete(legacy.id, variable.id);

    const registryModule = await client.registryModules.read(REGISTRY_MODULES.bucket);
    for (const existing of registryModule.noCodeModuleIds) await client.noCodeModules.delete(existing);
    const module = await client.noCodeModules.create("acme", { registryModuleId: REGISTRY_MODULES.bucket, versionPin: "1.0.0" });
    await client.noCodeModules.update(module.id, {
        enabled: true,
        variableOptions: [{ variableName: "region", variableType: "string", options: ["us-east-1", "eu-west-1"] }],
    });
    await client.noCodeModules.read(module.id, { include: ["variable-options"] });
    const workspace = await client.noCodeModules.createWorkspace(module.id, {
        name: `once-ws-${suffix}`,
        projectId: project.id,
        vars: [{ key: "region", value: "us-east-1", category: "infra" }],
    });
    const upgrade = await client.noCodeModules.initiateUpgrade(module.id, workspace.id, {
        vars: [{ key: "region", value: "eu-west-1", category: "infra" }],
    });
    const planned = await client.noCodeModules.waitForPlan(upgrade, { deadline: Date.now() + 30_000, initialDelayMs: 20, maxDelayMs: 50 });
    expect(planned.status).toBe("planned");
    await client.noCodeModules.confirmUpgrade(module.id, workspace.id, upgrade.id);
    await client.noCodeModules.readUpgrade(module.id, workspace.id, upgrade.id);
    await client.workspaces.update(workspace.id, { description: "moved next" });
    await client.projects.moveWorkspaces(project.id, [workspace.id]);
    await client.workspaces.delete(workspace.id);
    await client.noCodeModules.delete(module.id);
    await client.projects.delete(project.id);
}

it("builds no schema while requests are made, and hands the transport the same schema object on every call", async () => {
    const factories = spyOnSchemaFactories();
    // A sanity check of the spies themselves: a factory called through the module the SDK uses is counted.
    expect(factories.size).toBeGreaterThan(40);
    projectModel.projectSchema();
    expect(factories.get("projectModel.projectSchema")!).toHaveBeenCalledTimes(1);
    for (const spy of factories.values()) spy.mockClear();

    const requests = jest.spyOn(Transport.prototype, "request");
    const validations = jest.spyOn(Transport.prototype, "validate");
    for (let round = 1; round <= ROUNDS; round++) await exercise(round);

    const called = [...factories].filter(([, spy]) => spy.mock.calls.length > 0).map(([name, spy]) => `${name} x${spy.mock.calls.length}`);
    expect(called).toEqual([]);

    const schemasByEndpoint = new Map<string, Set<unknown>>();
    const record = (endpoint: string, schema: unknown) => {
        if (!schemasByEndpoint.has(endpoint)) schemasByEndpoint.set(endpoint, new Set());
        schemasByEndpoint.get(endpoint)!.add(schema);
    };
    for (const [spec] of requests.mock.calls) record(`answer of ${endpointOf(spec.method, spec.path)}`, spec.schema);
    for (const [schema, , method, path, name] of validations.mock.calls) record(`options of ${method} ${path} (${name ?? "options"})`, schema);

    // Every endpoint was called once per round at least, so a per-call build would show up as a second object.
    expect(requests.mock.calls.length).toBeGreaterThanOrEqual(ROUNDS * 30);
    expect(schemasByEndpoint.size).toBeGreaterThanOrEqual(40);
    const rebuilt = [...schemasByEndpoint].filter(([, schemas]) => schemas.size > 1).map(([endpoint, schemas]) => `${endpoint}: ${schemas.size}`);
    expect(rebuilt).toEqual([]);
});

it("builds no rule in the providers' check and diff, whatever the inputs", async () => {
    const factories = spyOnSchemaFactories();
    const calls: [string, () => Promise<unknown>][] = [];
    for (let round = 0; round < ROUNDS; round++) {
        const project = { organization: "acme", name: `Project ${round}`, description: "d", autoDestroyActivityDuration: "14d", tags: { a: "b" } };
        const badProject = { organization: "", name: "x", description: 7, tags: { "hc:reserved": 1 } };
        const bindings = { projectId: "prj-abc", tags: { team: "platform" } };
        const variable = { workspaceId: WORKSPACES.appsLegacy, key: `K${round}`, value: "v", category: "env", hcl: false, sensitive: true };
        const badVariable = { workspaceId: "nope", key: "", category: "other", hcl: "yes" };
        const module = {
            organization: "acme",
            registryModuleId: REGISTRY_MODULES.bucket,
            versionPin: "1.0.0",
            enabled: true,
            variableOptions: [{ variableName: "region", variableType: "string", options: ["a", 3] }],
        };
        const workspace = {
            noCodeModuleId: "nocode-abc",
            projectId: "prj-abc",
            name: `site-${round}`,
            executionMode: "agent",
            agentPoolId: "apool-abc",
            vars: [{ key: "region", value: "x", category: "infra", sensitive: false }, { key: "", category: "bad" }],
            moduleVersion: "1.0.0",
            upgradeTimeoutSeconds: -1,
        };
        calls.push(
            ["project check", () => projectHandlers.check({}, project)],
            ["project check (invalid)", () => projectHandlers.check({}, badProject)],
            ["project diff", () => projectHandlers.diff("prj-abc", project, { ...project, name: "Other" })],
            ["tag bindings check", () => tagBindingHandlers.check({}, bindings)],
            ["tag bindings diff", () => tagBindingHandlers.diff("prj-abc", bindings, { ...bindings, tags: {} })],
            ["variable check", () => variableHandlers.check({}, variable)],
            ["variable check (invalid)", () => variableHandlers.check({}, badVariable)],
            ["variable diff", () => variableHandlers.diff("var-abc", variable, { ...variable, sensitive: false })],
            ["no-code module check", () => noCodeModuleHandlers.check({}, module)],
            ["no-code module diff", () => noCodeModuleHandlers.diff("nocode-abc", module, { ...module, enabled: false })],
            ["no-code workspace check", () => noCodeWorkspaceHandlers.check({}, workspace)],
            ["no-code workspace diff", () => noCodeWorkspaceHandlers.diff("ws-abc", workspace, { ...workspace, name: "moved" })],
        );
    }
    let failures = 0;
    for (const [, call] of calls) {
        const result = (await call()) as { failures?: unknown[] };
        failures += result.failures?.length ?? 0;
    }
    // The invalid inputs were judged (the rules ran), without building one.
    expect(failures).toBeGreaterThan(ROUNDS * 8);
    const called = [...factories].filter(([, spy]) => spy.mock.calls.length > 0).map(([name, spy]) => `${name} x${spy.mock.calls.length}`);
    expect(called).toEqual([]);
});
