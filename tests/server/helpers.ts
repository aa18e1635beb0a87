/**
 * Raw-HTTP helpers for the contract tests of the local service.
 *
 * The tests speak HTTP with `fetch` themselves (through `rawRequest`, not through the SDK) so that every
 * header, body byte and status is exactly what the test says: the contract is the wire, and a helper that
 * "fixes" a request would hide a server bug.
 */
import type { ServerOptions } from "../../server/app";
import { ERROR_CODES } from "../../server/errors";
import type { SeedFile } from "../../server/seed";
import { REGISTRY_MODULES, TOKENS, WORKSPACES, bucketVersions, networkVersions, testSeed } from "../support/seed";
import { rawRequest, startTestServer, type RequestOptions, type TestServer } from "../support/server";

/** What the helpers need of a running service: its base URL (`http://127.0.0.1:PORT`, no `/api/v2`). */
export interface Target {
    url: string;
}

/** Media type of every JSON:API request. */
export const JSON_API = "application/vnd.api+json";

/** The exact 401 body of the local service. */
export const UNAUTHORIZED_BODY = { errors: [{ status: "401", title: "unauthorized" }] };

/** The four projects of organization `acme` in the test seed, in creation order. */
export const ACME_PROJECTS = ["Default Project", "Apps", "Staging", "Empty"] as const;

export interface HttpResponse {
    method: string;
    url: string;
    status: number;
    /** Lower-case header names. */
    headers: Record<string, string>;
    /** Parsed JSON, or `undefined` when the body is empty or not JSON. */
    body: any;
    text: string;
}

export type { RequestOptions };

/** Resolves a test path: `/_admin...` and `http...` as given, anything else under `/api/v2`. */
export function urlFor(server: Target, path: string): string {
    if (path.startsWith("http")) return path;
    if (path.startsWith("/_admin")) return server.url + path;
    return server.url + "/api/v2" + path;
}

/** One raw HTTP request. Rejects only when no HTTP answer arrives (e.g. a dropped connection). */
export async function http(server: Target, method: string, path: string, options: RequestOptions = {}): Promise<HttpResponse> {
    const url = urlFor(server, path);
    const { status, headers, text, json } = await rawRequest(method, url, options);
    return { method, url, status, headers, body: json, text };
}

/** Requests on behalf of one token. */
export interface Client {
    get(path: string, headers?: Record<string, string>): Promise<HttpResponse>;
    post(path: string, body?: unknown): Promise<HttpResponse>;
    patch(path: string, body?: unknown): Promise<HttpResponse>;
    delete(path: string): Promise<HttpResponse>;
    raw(method: string, path: string, rawBody: string): Promise<HttpResponse>;
}

export function clientFor(server: Target, token?: string): Client {
    return {
        get: (path, headers) => http(server, "GET", path, { token, headers }),
        post: (path, body) => http(server, "POST", path, { token, body }),
        patch: (path, body) => http(server, "PATCH", path, { token, body }),
        delete: (path) => http(server, "DELETE", path, { token }),
        raw: (method, path, rawBody) => http(server, method, path, { token, rawBody }),
    };
}

function describeResponse(response: HttpResponse): string {
    return `${response.method} ${response.url} -> ${response.status} ${response.text.slice(0, 600)}`;
}

/** Fails with the request and the body when the status is not the expected one. */
export function expectStatus(response: HttpResponse, expected: number): void {
    if (response.status !== expected) {
        throw new Error(`expected status ${expected}, got: ${describeResponse(response)}`);
    }
}

/** Every code of the local service (the table "Error codes" of docs/server.md lists the same). */
const KNOWN_CODES: readonly string[] = Object.values(ERROR_CODES);

/**
 * A JSON:API error document with the given status: `errors[]` of `{status (string), title}`, each with a code
 * of `ERROR_CODES` (but the 401, which has none, and an injected fault's, which stands for the hosted service's
 * answer). Answers the error objects as a person reads them, without `code` and `meta`: the tests of the words
 * compare those, and `errorCodes.test.ts` the codes and their meta.
 */
export function expectErrors(response: HttpResponse, status: number): any[] {
    expectStatus(response, status);
    if (!response.body || !Array.isArray(response.body.errors) || response.body.errors.length === 0) {
        throw new Error(`expected a JSON:API error document, got: ${describeResponse(response)}`);
    }
    for (const error of response.body.errors) {
        expect(error.status).toBe(String(status));
        expect(typeof error.title).toBe("string");
        if (status !== 401 && error.detail !== INJECTED_FAULT_DETAIL) expect(KNOWN_CODES).toContain(error.code);
    }
    return response.body.errors.map(({ code: _code, meta: _meta, ...words }: any) => words);
}

/** The detail of an injected fault's answer (server/faults.ts). */
const INJECTED_FAULT_DETAIL = "injected fault";

/**
 * 422 with one error object per problem, each with a `source.pointer` and a `detail` a person can act on;
 * every pointer listed must be among them.
 */
export function expectValidation(response: HttpResponse, ...pointers: string[]): any[] {
    const errors = expectErrors(response, 422);
    for (const error of errors) {
        expect(typeof error.detail).toBe("string");
        expect(error.detail.length).toBeGreaterThan(0);
        expect(typeof error.source?.pointer).toBe("string");
    }
    const got = errors.map((error: any) => error.source?.pointer);
    for (const pointer of pointers) {
        if (!got.includes(pointer)) {
            throw new Error(`expected an error at ${pointer}, got pointers ${JSON.stringify(got)}: ${describeResponse(response)}`);
        }
    }
    return errors;
}

/** The detail of the error at `pointer` among the error objects of an answer (throws, naming them, when none is there). */
export function detailAt(errors: readonly any[], pointer: string): string {
    const error = errors.find((each) => each.source?.pointer === pointer);
    if (!error) throw new Error(`no error at ${pointer}: ${JSON.stringify(errors)}`);
    return error.detail as string;
}

/** 422 whose pointers all start with the given prefix (for set-level problems whose exact pointer is open). */
export function expectValidationUnder(response: HttpResponse, prefix: string): any[] {
    const errors = expectValidation(response);
    const got = errors.map((error: any) => error.source.pointer as string);
    if (!got.some((pointer) => pointer === prefix || pointer.startsWith(prefix + "/"))) {
        throw new Error(`expected an error pointer under ${prefix}, got ${JSON.stringify(got)}: ${describeResponse(response)}`);
    }
    return errors;
}

export function expectUnauthorized(response: HttpResponse): void {
    expectStatus(response, 401);
    expect(response.body).toEqual(UNAUTHORIZED_BODY);
}

// ---------------------------------------------------------------------------------------------------------
// Request documents

export interface TagInput {
    key: string;
    value: string;
}

export function tagItems(tags: readonly TagInput[]): unknown[] {
    return tags.map((tag) => ({ type: "tag-bindings", attributes: { key: tag.key, value: tag.value } }));
}

/** `POST /organizations/:org/projects` or `PATCH /projects/:id` body. */
export function projectDocument(attributes: Record<string, unknown>, tags?: readonly TagInput[]): unknown {
    const data: Record<string, unknown> = { type: "projects", attributes };
    if (tags !== undefined) data.relationships = { "tag-bindings": { data: tagItems(tags) } };
    return { data };
}

/** `POST /vars` body with the workspace relationship. */
export function variableDocument(workspaceId: string, attributes: Record<string, unknown>): unknown {
    return {
        data: {
            type: "vars",
            attributes,
            relationships: { workspace: { data: { type: "workspaces", id: workspaceId } } },
        },
    };
}

/** `PATCH /vars/:id` body. */
export function variableUpdateDocument(variableId: string, attributes: Record<string, unknown>): unknown {
    return { data: { type: "vars", id: variableId, attributes } };
}

/** `POST /projects/:id/relationships/workspaces` body. */
export function moveDocument(workspaceIds: readonly string[]): unknown {
    return { data: workspaceIds.map((id) => ({ type: "workspaces", id })) };
}

// ---------------------------------------------------------------------------------------------------------
// Reading state back

/** The id of a project by exact name, looked up as the organization's owners. */
export async function projectId(server: Target, name: string, organization = "acme"): Promise<string> {
    const token = ownersOf(organization);
    const response = await clientFor(server, token).get(
        `/organizations/${organization}/projects?page%5Bsize%5D=100&filter%5Bnames%5D=${encodeURIComponent(name)}`,
    );
    expectStatus(response, 200);
    const found = response.body.data.filter((project: any) => project.attributes.name === name);
    if (found.length !== 1) throw new Error(`project ${name} not found in ${organization}: ${response.text}`);
    return found[0].id;
}

/** Ids of the seeded acme projects by name. */
export type AcmeProjectIds = Record<(typeof ACME_PROJECTS)[number], string>;

/** Ids of the seeded acme projects by name. */
export async function acmeProjectIds(server: Target): Promise<AcmeProjectIds> {
    const ids: Record<string, string> = {};
    for (const name of ACME_PROJECTS) ids[name] = await projectId(server, name);
    return ids as AcmeProjectIds;
}

/** A running service with the test seed, as {@link withSeededServer} hands it over. */
export interface SeededServer {
    server: TestServer;
    ids: AcmeProjectIds;
    /** Requests as the acme owners team. */
    owners: Client;
}

/**
 * Starts a service with the test seed before the tests of the enclosing `describe` (or file) and closes it
 * after them. `assign` receives it once it is up, to set the suite's own variables; a `beforeAll` registered
 * after this call runs after it, with the service there.
 */
export function withSeededServer(assign: (started: SeededServer) => void, options: Partial<ServerOptions> = {}): void {
    let server: TestServer | undefined;
    beforeAll(async () => {
        server = await startTestServer(options);
        assign({ server, ids: await acmeProjectIds(server), owners: clientFor(server, TOKENS.owners) });
    });
    afterAll(async () => {
        await server?.close();
    });
}

/** Creates a project as the acme owners and returns its id. */
export async function createProject(
    server: Target,
    attributes: Record<string, unknown>,
    tags?: readonly TagInput[],
): Promise<string> {
    const response = await clientFor(server, TOKENS.owners).post(
        "/organizations/acme/projects",
        projectDocument(attributes, tags),
    );
    expectStatus(response, 201);
    return response.body.data.id;
}

/** Creates a variable (as the acme owners unless told) and returns the response resource. */
export async function createVariable(
    server: Target,
    workspaceId: string,
    attributes: Record<string, unknown>,
    token: string = TOKENS.owners,
): Promise<any> {
    const response = await clientFor(server, token).post("/vars", variableDocument(workspaceId, attributes));
    expectStatus(response, 201);
    return response.body.data;
}

/** A project's bindings as sorted `[key, value]` pairs, read with the owners token. */
export async function tagsOf(server: Target, id: string, token: string = TOKENS.owners): Promise<[string, string][]> {
    const response = await clientFor(server, token).get(`/projects/${id}/tag-bindings`);
    expectStatus(response, 200);
    return response.body.data
        .map((binding: any) => [binding.attributes.key, binding.attributes.value] as [string, string])
        .sort((a: [string, string], b: [string, string]) => (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0));
}

/** The project a workspace is in, read as the owners of its organization. */
export async function projectOf(server: Target, workspaceId: string): Promise<string> {
    const token = workspaceId === WORKSPACES.globex ? TOKENS.globexOwners : TOKENS.owners;
    const response = await clientFor(server, token).get(`/workspaces/${workspaceId}`);
    expectStatus(response, 200);
    return response.body.data.relationships.project.data.id;
}

/** `workspace-count` of a project as the owners see it. */
export async function workspaceCount(server: Target, id: string): Promise<number> {
    const response = await clientFor(server, TOKENS.owners).get(`/projects/${id}`);
    expectStatus(response, 200);
    return response.body.data.attributes["workspace-count"];
}

function byId(a: { id: string }, b: { id: string }): number {
    return a.id < b.id ? -1 : a.id > b.id ? 1 : 0;
}

/**
 * Everything a refused request could have changed, read back through the API as the owners of each
 * organization: projects (attributes, duration, tags), variables, and the seeded workspaces. Two equal
 * snapshots around a refused request prove that nothing was written.
 */
export async function snapshot(server: Target): Promise<unknown> {
    const state: Record<string, unknown> = {};
    for (const [organization, token] of [
        ["acme", TOKENS.owners],
        ["globex", TOKENS.globexOwners],
    ] as const) {
        const client = clientFor(server, token);
        const list = await client.get(`/organizations/${organization}/projects?page%5Bsize%5D=100`);
        expectStatus(list, 200);
        const projects = [];
        for (const project of list.body.data) {
            const show = await client.get(`/projects/${project.id}`);
            expectStatus(show, 200);
            const attributes = show.body.data.attributes;
            projects.push({
                id: project.id,
                name: attributes.name,
                description: attributes.description ?? null,
                duration: attributes["auto-destroy-activity-duration"] ?? null,
                workspaceCount: attributes["workspace-count"],
                tags: await tagsOf(server, project.id, token),
            });
        }
        const vars = await client.get("/vars");
        expectStatus(vars, 200);
        state[organization] = {
            projects: projects.sort(byId),
            vars: vars.body.data
                .map((variable: any) => ({
                    id: variable.id,
                    workspace: variable.relationships?.configurable?.data?.id,
                    ...variable.attributes,
                }))
                .sort(byId),
        };
    }
    const workspaces: Record<string, unknown> = {};
    for (const id of Object.values(WORKSPACES)) {
        const token = id === WORKSPACES.globex ? TOKENS.globexOwners : TOKENS.owners;
        const response = await clientFor(server, token).get(`/workspaces/${id}`);
        if (response.status !== 200) {
            workspaces[id] = response.status;
            continue;
        }
        const data = response.body.data;
        workspaces[id] = {
            name: data.attributes.name,
            description: data.attributes.description ?? null,
            autoApply: data.attributes["auto-apply"],
            executionMode: data.attributes["execution-mode"],
            sourceName: data.attributes["source-name"] ?? null,
            sourceUrl: data.attributes["source-url"] ?? null,
            project: data.relationships?.project?.data?.id,
            agentPool: data.relationships?.["agent-pool"]?.data?.id ?? null,
            autoDestroyActivityDuration: data.attributes["auto-destroy-activity-duration"] ?? null,
            // Any write to the workspace moves it, even one that leaves every other field as it was.
            updatedAt: data.attributes["updated-at"],
        };
    }
    state.workspaces = workspaces;
    return state;
}

/** Asserts that the service holds exactly what `before` recorded. */
export async function expectUnchanged(server: Target, before: unknown): Promise<void> {
    expect(await snapshot(server)).toEqual(before);
}

/** Sorted copy, for comparing sets of names. */
export function sorted(values: readonly string[]): string[] {
    return [...values].sort();
}

/** Names of a list response's projects, in response order. */
export function namesOf(response: HttpResponse): string[] {
    return response.body.data.map((project: any) => project.attributes.name);
}

// ---------------------------------------------------------------------------------------------------------
// No-code provisioning (issue 5)

/** The acme agent pool of the test seed. */
export const AGENT_POOL = "apool-0000000000000001";

/** An agent pool of organization globex, added by {@link noCodeTestSeed}: a pool of another organization. */
export const GLOBEX_AGENT_POOL = "apool-globex00000001";

/** acme registry module added by {@link noCodeTestSeed} whose versions sort differently as text and as numbers. */
export const NUMERIC_VERSIONS_MODULE = "mod-numericversions1";

/** Versions of {@link NUMERIC_VERSIONS_MODULE}, in the seed's order; the highest is `1.10.0`. */
export const NUMERIC_VERSIONS = ["1.9.0", "1.10.0", "1.2.0"] as const;

/** The kinds of pooled registry modules: copies of the seed's `bucket` and `network` modules. */
export type PoolKind = "bucket" | "network";

/** Organizations with pooled registry modules. */
export type PoolOrganization = "acme" | "initech";

/**
 * How many copies of each pooled kind {@link noCodeTestSeed} adds. A registry module may have only one no-code
 * module, so every test that creates one takes a registry module of its own from the pool: tests stay
 * independent of each other's modules and run alone or together.
 */
const POOL_SIZES: Record<PoolOrganization, Record<PoolKind, number>> = {
    acme: { bucket: 120, network: 10 },
    initech: { bucket: 20, network: 0 },
};

/** The id of the `index`-th pooled registry module of a kind (`mod-` + 16 characters, like the seed's ids). */
export function poolModuleId(organization: PoolOrganization, kind: PoolKind, index: number): string {
    return `mod-${organization.slice(0, 2)}${kind.slice(0, 3)}${String(index).padStart(11, "0")}`;
}

/**
 * The test seed plus what the no-code contract tests need beyond it: pools of copies of `bucket` and
 * `network` (see {@link poolModuleId}), a module whose versions only sort right as numbers, and an agent pool
 * of globex. Everything the seed has stays as it is.
 */
export function noCodeTestSeed(): SeedFile {
    const seed = testSeed();
    for (const organization of seed.organizations) {
        const sizes = POOL_SIZES[organization.name as PoolOrganization];
        if (sizes) {
            const modules = (organization.registryModules ??= []);
            for (const kind of ["bucket", "network"] as const) {
                for (let index = 1; index <= sizes[kind]; index += 1) {
                    modules.push({
                        id: poolModuleId(organization.name as PoolOrganization, kind, index),
                        name: `${kind}-pool-${index}`,
                        provider: "aws",
                        noCodeReady: true,
                        versions: kind === "bucket" ? bucketVersions() : networkVersions(),
                    });
                }
            }
        }
        if (organization.name === "acme") {
            organization.registryModules!.push({
                id: NUMERIC_VERSIONS_MODULE,
                name: "numeric",
                provider: "aws",
                noCodeReady: true,
                versions: NUMERIC_VERSIONS.map((version) => ({
                    version,
                    variables: [{ name: "region", type: "string", required: true }],
                })),
            });
        }
        if (organization.name === "globex") {
            (organization.agentPools ??= []).push({ id: GLOBEX_AGENT_POOL, name: "globex-pool" });
        }
    }
    return seed;
}

/** A running service with {@link noCodeTestSeed}, as {@link withNoCodeServer} hands it over. */
export interface NoCodeServer extends SeededServer {
    /** A registry module of the pool that no other test of this service has taken (acme `bucket` unless told). */
    registryModule(kind?: PoolKind, organization?: PoolOrganization): string;
}

/**
 * Like {@link withSeededServer}, with {@link noCodeTestSeed} and a registry module pool. `options` are passed
 * to the service (e.g. `{ planStepMs: 50 }`).
 */
export function withNoCodeServer(assign: (started: NoCodeServer) => void, options: Partial<ServerOptions> = {}): void {
    let server: TestServer | undefined;
    beforeAll(async () => {
        server = await startTestServer({ seed: noCodeTestSeed(), ...options });
        const taken: Record<string, number> = {};
        const registryModule = (kind: PoolKind = "bucket", organization: PoolOrganization = "acme"): string => {
            const key = `${organization}/${kind}`;
            const next = (taken[key] ?? 0) + 1;
            if (next > POOL_SIZES[organization][kind]) {
                throw new Error(`the ${key} registry module pool is used up: raise POOL_SIZES in tests/server/helpers.ts`);
            }
            taken[key] = next;
            return poolModuleId(organization, kind, next);
        };
        assign({ server, ids: await acmeProjectIds(server), owners: clientFor(server, TOKENS.owners), registryModule });
    });
    afterAll(async () => {
        await server?.close();
    });
}

let uniqueCounter = 0;

/**
 * A name no other request of this test file uses (letters, digits and `-` only, under 40 characters for a
 * short prefix): it fits both the workspace and the project name rules.
 */
export function uniqueName(prefix: string): string {
    uniqueCounter += 1;
    return `${prefix}-${process.pid}-${uniqueCounter}`;
}

/** A workspace name no other request of this test file uses ({@link uniqueName}). */
export function uniqueWorkspaceName(prefix = "nc"): string {
    return uniqueName(prefix);
}

/** A variable key no other request of this test file uses (`PREFIX_n`: the variable key rule's characters). */
export function uniqueVariableKey(prefix = "KEY"): string {
    uniqueCounter += 1;
    return `${prefix}_${uniqueCounter}`;
}

/** Paths of the no-code endpoints (relative to `/api/v2`). */
export const noCodePaths = {
    modules: (organization: string) => `/organizations/${organization}/no-code-modules`,
    module: (id: string) => `/no-code-modules/${id}`,
    workspaces: (moduleId: string) => `/no-code-modules/${moduleId}/workspaces`,
    upgrade: (moduleId: string, workspaceId: string) => `/no-code-modules/${moduleId}/workspaces/${workspaceId}/upgrade`,
    run: (moduleId: string, workspaceId: string, runId: string) =>
        `/no-code-modules/${moduleId}/workspaces/${workspaceId}/upgrade/${runId}`,
    registryModule: (id: string) => `/registry-modules/${id}`,
    workspaceByName: (organization: string, name: string) => `/organizations/${organization}/workspaces/${encodeURIComponent(name)}`,
};

/** One variable-options set of a no-code module write. `options` left out is sent without the key (as go-tfe does). */
export interface VariableOptionsSpec {
    /** An existing set's `ncvaropt-` id (PATCH: replace that set). */
    id?: string;
    variableName: string;
    variableType: string;
    options?: readonly unknown[];
}

/** `relationships.variable-options.data` items. */
export function variableOptionItems(sets: readonly VariableOptionsSpec[]): unknown[] {
    return sets.map((set) => {
        const attributes: Record<string, unknown> = { "variable-name": set.variableName, "variable-type": set.variableType };
        if (set.options !== undefined) attributes.options = set.options;
        const item: Record<string, unknown> = { type: "variable-options", attributes };
        if (set.id !== undefined) item.id = set.id;
        return item;
    });
}

/** What a no-code module write says; everything left out is left out of the body. */
export interface NoCodeModuleSpec {
    registryModuleId?: string;
    /** `registry-module` (the API's, the default) or `registry-modules` (what go-tfe sends). */
    registryModuleType?: string;
    versionPin?: string;
    enabled?: boolean;
    variableOptions?: readonly VariableOptionsSpec[];
    /** Extra or overriding attributes, sent as given (for bad-input tests). */
    attributes?: Record<string, unknown>;
}

/** `POST /organizations/:org/no-code-modules` or `PATCH /no-code-modules/:id` body. */
export function noCodeModuleDocument(spec: NoCodeModuleSpec): unknown {
    const attributes: Record<string, unknown> = {};
    if (spec.versionPin !== undefined) attributes["version-pin"] = spec.versionPin;
    if (spec.enabled !== undefined) attributes.enabled = spec.enabled;
    Object.assign(attributes, spec.attributes ?? {});
    const relationships: Record<string, unknown> = {};
    if (spec.registryModuleId !== undefined) {
        relationships["registry-module"] = {
            data: { type: spec.registryModuleType ?? "registry-module", id: spec.registryModuleId },
        };
    }
    if (spec.variableOptions !== undefined) relationships["variable-options"] = { data: variableOptionItems(spec.variableOptions) };
    const data: Record<string, unknown> = { type: "no-code-modules" };
    if (Object.keys(attributes).length > 0) data.attributes = attributes;
    if (Object.keys(relationships).length > 0) data.relationships = relationships;
    return { data };
}

/** `relationships.vars` of a no-code workspace create or upgrade: each item's attributes sent as given. */
export function noCodeVarItems(vars: readonly Record<string, unknown>[]): unknown[] {
    return vars.map((attributes) => ({ type: "vars", attributes }));
}

/** What a no-code workspace create says. */
export interface NoCodeWorkspaceSpec {
    name: string;
    projectId: string;
    /** Other attributes, sent as given (`auto_apply`, `execution-mode`, ...). */
    attributes?: Record<string, unknown>;
    /** Attributes of each var item; the relationship is left out when this is. */
    vars?: readonly Record<string, unknown>[];
    /** `data.type`: `workspaces` (default) or `no-code-module-workspace`. */
    type?: string;
    /** Project relationship type: `project` (default, the API's) or `projects`. */
    projectType?: string;
}

/** `POST /no-code-modules/:id/workspaces` body. */
export function noCodeWorkspaceDocument(spec: NoCodeWorkspaceSpec): unknown {
    const relationships: Record<string, unknown> = {
        project: { data: { type: spec.projectType ?? "project", id: spec.projectId } },
    };
    if (spec.vars !== undefined) relationships.vars = { data: noCodeVarItems(spec.vars) };
    return { data: { type: spec.type ?? "workspaces", attributes: { name: spec.name, ...spec.attributes }, relationships } };
}

/** `POST /no-code-modules/:id/workspaces/:ws/upgrade` body; no `relationships` at all when `vars` is left out. */
export function upgradeDocument(vars?: readonly Record<string, unknown>[], type = "workspaces"): unknown {
    const data: Record<string, unknown> = { type };
    if (vars !== undefined) data.relationships = { vars: { data: noCodeVarItems(vars) } };
    return { data };
}

/** The owners token of an organization of the seed. */
export function ownersOf(organization: string): string {
    if (organization === "globex") return TOKENS.globexOwners;
    if (organization === "initech") return TOKENS.initechOwners;
    return TOKENS.owners;
}

/** Creates a no-code module (as the organization's owners unless told) and returns the response's `data`. */
export async function createNoCodeModule(
    server: Target,
    spec: NoCodeModuleSpec,
    organization = "acme",
    token: string = ownersOf(organization),
): Promise<any> {
    const response = await clientFor(server, token).post(noCodePaths.modules(organization), noCodeModuleDocument(spec));
    expectStatus(response, 200);
    return response.body.data;
}

/** Updates a no-code module as the acme owners (unless told) and returns the response's `data`. */
export async function updateNoCodeModule(server: Target, id: string, spec: NoCodeModuleSpec, token: string = TOKENS.owners): Promise<any> {
    const response = await clientFor(server, token).patch(noCodePaths.module(id), noCodeModuleDocument(spec));
    expectStatus(response, 200);
    return response.body.data;
}

/** Reads a no-code module with its variable-options sets: `{ data, sets }`, sets in relationship order. */
export async function readNoCodeModule(server: Target, id: string, token: string = TOKENS.owners): Promise<{ data: any; sets: any[] }> {
    const response = await clientFor(server, token).get(`${noCodePaths.module(id)}?include=variable_options`);
    expectStatus(response, 200);
    const included: any[] = response.body.included ?? [];
    const sets = response.body.data.relationships["variable-options"].data.map((ref: any) => {
        const found = included.find((item) => item.id === ref.id && item.type === "variable-options");
        if (!found) throw new Error(`set ${ref.id} is in the relationship but not in included: ${response.text}`);
        return found;
    });
    return { data: response.body.data, sets };
}

/** Sets as `{ name, type, options }`, in order: for comparing a module's options with what was written. */
export function setContents(sets: readonly any[]): { name: string; type: string; options: string[] }[] {
    return sets.map((set) => ({
        name: set.attributes["variable-name"],
        type: set.attributes["variable-type"],
        options: set.attributes.options ?? [],
    }));
}

/** The standard vars of a `bucket` workspace: the required `region`, nothing else. */
export const BUCKET_VARS: readonly Record<string, unknown>[] = [{ key: "region", value: "eu-west-1", category: "infra" }];

/** Creates a workspace from a no-code module (as the acme owners unless told) and returns the response's `data`. */
export async function createNoCodeWorkspace(
    server: Target,
    moduleId: string,
    spec: Partial<NoCodeWorkspaceSpec> & { projectId: string },
    token: string = TOKENS.owners,
): Promise<any> {
    const response = await clientFor(server, token).post(
        noCodePaths.workspaces(moduleId),
        noCodeWorkspaceDocument({ name: uniqueWorkspaceName(), vars: BUCKET_VARS, ...spec }),
    );
    expectStatus(response, 200);
    return response.body.data;
}

/**
 * An enabled no-code module on a fresh registry module of the pool (pinned to the highest version unless
 * told) with one workspace made from it in `projectId`: what most upgrade and authorization tests start from.
 */
export async function moduleWithWorkspace(
    server: NoCodeServer,
    options: {
        projectId?: string;
        module?: Omit<NoCodeModuleSpec, "registryModuleId">;
        workspace?: Partial<NoCodeWorkspaceSpec>;
        organization?: PoolOrganization;
    } = {},
): Promise<{ moduleId: string; registryModuleId: string; workspace: any }> {
    const organization = options.organization ?? "acme";
    const registryModuleId = server.registryModule("bucket", organization);
    const module = await createNoCodeModule(server.server, { enabled: true, ...options.module, registryModuleId }, organization);
    const target = options.projectId ?? (organization === "acme" ? server.ids.Apps : await projectId(server.server, "Infra", "initech"));
    const workspace = await createNoCodeWorkspace(
        server.server,
        module.id,
        { projectId: target, ...options.workspace },
        ownersOf(organization),
    );
    return { moduleId: module.id, registryModuleId, workspace };
}

/** A workspace's variables, read through `GET /vars` with both filters, as the owners of its organization. */
export async function workspaceVars(server: Target, workspaceId: string, organization = "acme"): Promise<any[]> {
    const client = clientFor(server, ownersOf(organization));
    const workspace = await client.get(`/workspaces/${workspaceId}`);
    expectStatus(workspace, 200);
    const name = encodeURIComponent(workspace.body.data.attributes.name);
    const response = await client.get(`/vars?filter[workspace][name]=${name}&filter[organization][name]=${organization}`);
    expectStatus(response, 200);
    return response.body.data;
}

/** Vars as sorted `{ key, category, value, description, hcl, sensitive }` (no ids, `""` description as null): for comparing sets. */
export function varContents(vars: readonly any[]): Record<string, unknown>[] {
    return vars
        .map((variable) => {
            const { key, category, value, description, hcl, sensitive } = variable.attributes;
            // No description reads back as null or "" (pytfe sends ""): both mean none.
            return { key, category, value, description: description === "" ? null : description ?? null, hcl, sensitive };
        })
        .sort((a, b) => `${a.category}/${a.key}`.localeCompare(`${b.category}/${b.key}`));
}

/** A workspace's `no-code-module-version` id (`null` when it has none). */
export async function noCodeVersionOf(server: Target, workspaceId: string, organization = "acme"): Promise<string | null> {
    const response = await clientFor(server, ownersOf(organization)).get(`/workspaces/${workspaceId}`);
    expectStatus(response, 200);
    return response.body.data.relationships["no-code-module-version"]?.data?.id ?? null;
}

/** A workspace's `no-code-upgrade-available`. */
export async function upgradeAvailable(server: Target, workspaceId: string, organization = "acme"): Promise<boolean> {
    const response = await clientFor(server, ownersOf(organization)).get(`/workspaces/${workspaceId}`);
    expectStatus(response, 200);
    return response.body.data.attributes["no-code-upgrade-available"];
}

/** Reads an upgrade run as the owners of its organization (unless told) and returns its status. */
export async function runStatus(server: Target, moduleId: string, workspaceId: string, runId: string, token: string = TOKENS.owners): Promise<string> {
    const response = await clientFor(server, token).get(noCodePaths.run(moduleId, workspaceId, runId));
    expectStatus(response, 200);
    return response.body.data.attributes.status;
}

/** The statuses in which an upgrade run is still planning. */
const RUN_IN_PROGRESS = ["pending", "fetching", "planning"];

/**
 * Polls an upgrade run until its status is one of `until` (by default: anything but planning), and returns
 * every distinct status seen, in order. The bound is a safety net against a run that never ends, never a
 * timing assertion.
 */
export async function pollRun(
    server: Target,
    run: { moduleId: string; workspaceId: string; runId: string },
    options: { until?: readonly string[]; token?: string; intervalMs?: number; maxPolls?: number } = {},
): Promise<string[]> {
    const seen: string[] = [];
    const maxPolls = options.maxPolls ?? 2000;
    for (let poll = 0; poll < maxPolls; poll += 1) {
        const status = await runStatus(server, run.moduleId, run.workspaceId, run.runId, options.token ?? TOKENS.owners);
        if (seen[seen.length - 1] !== status) seen.push(status);
        const done = options.until ? options.until.includes(status) : !RUN_IN_PROGRESS.includes(status);
        if (done) return seen;
        await new Promise((resolve) => setTimeout(resolve, options.intervalMs ?? 10));
    }
    throw new Error(`upgrade run ${run.runId} did not reach ${JSON.stringify(options.until ?? "an end")} after ${maxPolls} reads; seen ${JSON.stringify(seen)}`);
}

/** Starts an upgrade as the acme owners (unless told); returns the run's `data` (200 expected). */
export async function initiateUpgrade(
    server: Target,
    moduleId: string,
    workspaceId: string,
    vars?: readonly Record<string, unknown>[],
    token: string = TOKENS.owners,
): Promise<any> {
    const response = await clientFor(server, token).post(noCodePaths.upgrade(moduleId, workspaceId), upgradeDocument(vars));
    expectStatus(response, 200);
    return response.body.data;
}

/** Ids a no-code snapshot reads besides everything {@link snapshot} reads. */
export interface NoCodeKnown {
    /** `nocode-` ids. */
    modules?: readonly string[];
    /** `ws-` ids of workspaces made during the test (acme or initech). */
    workspaces?: readonly string[];
    /** `mod-` ids, besides the seed's bucket, notReady, network and initech bucket. */
    registryModules?: readonly string[];
}

/** The first answer of a GET tried with each organization's owners: 200 wins, else the last status. */
async function readAsAnyOwners(server: Target, path: string): Promise<HttpResponse> {
    let last: HttpResponse | undefined;
    for (const organization of ["acme", "initech"]) {
        last = await clientFor(server, ownersOf(organization)).get(path);
        if (last.status === 200) return last;
    }
    return last!;
}

/**
 * {@link snapshot} plus what a no-code request could change: initech's projects and variables, the given
 * no-code modules with their sets, the given workspaces (every attribute but those of runs, their
 * `no-code-module-version` and vars) and the no-code modules of each registry module. Two equal snapshots
 * around a refused request prove that nothing was written.
 */
export async function noCodeSnapshot(server: Target, known: NoCodeKnown = {}): Promise<unknown> {
    const initech = clientFor(server, TOKENS.initechOwners);
    const projects = await initech.get("/organizations/initech/projects?page%5Bsize%5D=100");
    expectStatus(projects, 200);
    const initechVars = await initech.get("/vars");
    expectStatus(initechVars, 200);
    const modules: Record<string, unknown> = {};
    for (const id of known.modules ?? []) {
        const response = await readAsAnyOwners(server, `${noCodePaths.module(id)}?include=variable_options`);
        modules[id] = response.status === 200 ? { data: response.body.data, included: response.body.included ?? [] } : response.status;
    }
    const workspaces: Record<string, unknown> = {};
    for (const id of known.workspaces ?? []) {
        const response = await readAsAnyOwners(server, `/workspaces/${id}`);
        if (response.status !== 200) {
            workspaces[id] = response.status;
            continue;
        }
        const { "current-run": _current, "latest-run": _latest, ...relationships } = response.body.data.relationships;
        workspaces[id] = {
            attributes: response.body.data.attributes,
            relationships,
            vars: varContents(await workspaceVars(server, id, response.body.data.relationships.organization.data.id)),
        };
    }
    const registry: Record<string, unknown> = {};
    const registryIds = [
        REGISTRY_MODULES.bucket,
        REGISTRY_MODULES.notReady,
        REGISTRY_MODULES.network,
        REGISTRY_MODULES.initechBucket,
        ...(known.registryModules ?? []),
    ];
    for (const id of registryIds) {
        const response = await readAsAnyOwners(server, noCodePaths.registryModule(id));
        registry[id] = response.status === 200 ? response.body.data.relationships?.["no-code-modules"]?.data ?? null : response.status;
    }
    return {
        base: await snapshot(server),
        initech: {
            projects: projects.body.data.map((project: any) => ({ id: project.id, ...project.attributes })),
            vars: initechVars.body.data.map((variable: any) => ({ id: variable.id, ...variable.attributes })),
        },
        modules,
        workspaces,
        registry,
    };
}

/** Asserts that a no-code snapshot reads as `before` did. */
export async function expectNoCodeUnchanged(server: Target, before: unknown, known: NoCodeKnown = {}): Promise<void> {
    expect(await noCodeSnapshot(server, known)).toEqual(before);
}

/** Asserts that a workspace of that name does not exist in the organization (the create wrote nothing). */
export async function expectNoWorkspaceNamed(server: Target, name: string, organization = "acme"): Promise<void> {
    const response = await clientFor(server, ownersOf(organization)).get(noCodePaths.workspaceByName(organization, name));
    expectErrors(response, 404);
}

/** 404 whose detail says an organization token cannot be used for this endpoint. */
export function expectOrganizationTokenRefused(response: HttpResponse): void {
    const errors = expectErrors(response, 404);
    expect(errors.map((error: any) => error.detail ?? "").join(" ")).toMatch(/organization token/i);
}
