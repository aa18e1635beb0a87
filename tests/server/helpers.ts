/**
 * Raw-HTTP helpers for the contract tests of the local service.
 *
 * The tests speak HTTP with `fetch` themselves (through `rawRequest`, not through the SDK) so that every
 * header, body byte and status is exactly what the test says: the contract is the wire, and a helper that
 * "fixes" a request would hide a server bug.
 */
import type { ServerOptions } from "../../server/app";
import { TOKENS, WORKSPACES } from "../support/seed";
import { rawRequest, startTestServer, type RequestOptions, type TestServer } from "../support/server";

/** What the helpers need of a running service: its base URL (`http://127.0.0.1:PORT`, no `/api/v2`). */
export interface Target {
    url: string;
}

/** Media type of every JSON:API request. */
export const JSON_API = "application/vnd.api+json";

/** The exact 401 body of `local-service.md`. */
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

/** A JSON:API error document with the given status: `errors[]` of `{status (string), title}`. */
export function expectErrors(response: HttpResponse, status: number): any[] {
    expectStatus(response, status);
    if (!response.body || !Array.isArray(response.body.errors) || response.body.errors.length === 0) {
        throw new Error(`expected a JSON:API error document, got: ${describeResponse(response)}`);
    }
    for (const error of response.body.errors) {
        expect(error.status).toBe(String(status));
        expect(typeof error.title).toBe("string");
    }
    return response.body.errors;
}

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
    const token = organization === "acme" ? TOKENS.owners : TOKENS.globexOwners;
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
