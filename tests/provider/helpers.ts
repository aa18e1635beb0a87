/**
 * Shared set-up of the provider handler tests: a real local service per test file, credentials handed to
 * the handlers through the credentials module's `configure` (the path the provider host takes), and small
 * raw-HTTP readers to see what the service holds without going through the code under test.
 */
import { clearConfiguredCredentials, configure } from "../../provider/handlers/credentials";
import { setUpgradeLogger } from "../../provider/handlers/noCodeWorkspace";
import type { ServerOptions } from "../../server/app";
import { startTestServer, type TestServer } from "../support/server";
import { TOKENS } from "../support/seed";

/** The value Pulumi sends for inputs not known during preview. */
export const UNKNOWN = "04da6b54-80e4-46f7-96ec-b56ff0331ba9";

/** The token the handlers use: a team that manages every project and variable of `acme`. */
export const TOKEN = TOKENS.owners;

/** A `ConfigureRequest` as the provider host builds it from fully qualified stack config keys. */
export function configureRequest(config: Record<string, string>) {
    return { config: { get: (key: string) => config[key] } };
}

/** Points the handlers at `server` with {@link TOKEN} through `configure`, as the host does. */
export async function configureFor(server: TestServer, token: string = TOKEN): Promise<void> {
    clearConfiguredCredentials();
    await configure(configureRequest({ "wos:address": server.url, "wos:token": token }));
}

/** An address where nothing listens: any request sent there fails, which proves that none was sent. */
export async function configureUnreachable(): Promise<void> {
    clearConfiguredCredentials();
    await configure(configureRequest({ "wos:address": "http://127.0.0.1:9", "wos:token": TOKEN }));
}

/**
 * Starts the service for one test file (or one `describe`) and returns an accessor (set in `beforeAll`).
 * `options` go to the service, e.g. `{ planStepMs: 20 }` for upgrade plans that finish quickly.
 */
export function useServer(options: Partial<ServerOptions> = {}): () => TestServer {
    let server: TestServer | undefined;
    beforeAll(async () => {
        server = await startTestServer(options);
        await configureFor(server);
    });
    afterAll(async () => {
        clearConfiguredCredentials();
        await server?.close();
    });
    beforeEach(async () => {
        if (server) {
            await server.clearFaults();
            await configureFor(server);
        }
    });
    return () => {
        if (!server) throw new Error("the test server has not started");
        return server;
    };
}

/** Raw JSON:API project resources of `acme` whose name matches (case-insensitively). */
export async function projectsNamed(server: TestServer, name: string): Promise<any[]> {
    const response = await server.request("GET", `/organizations/acme/projects?filter%5Bnames%5D=${encodeURIComponent(name)}`, {
        token: TOKEN,
    });
    expect(response.status).toBe(200);
    return response.body.data;
}

/** Number of projects of `acme` the owners see. */
export async function projectCount(server: TestServer): Promise<number> {
    const response = await server.request("GET", "/organizations/acme/projects?page%5Bsize%5D=100", { token: TOKEN });
    expect(response.status).toBe(200);
    return response.body.meta.pagination["total-count"];
}

/** The tag bindings of a project as a map, read over raw HTTP. */
export async function projectTags(server: TestServer, projectId: string): Promise<Record<string, string>> {
    const response = await server.request("GET", `/projects/${projectId}/tag-bindings`, { token: TOKEN });
    expect(response.status).toBe(200);
    return Object.fromEntries(response.body.data.map((b: any) => [b.attributes.key, b.attributes.value ?? ""]));
}

/** The variables of a seeded workspace of `acme`, read over raw HTTP. */
export async function workspaceVariables(server: TestServer, workspaceName: string): Promise<any[]> {
    const response = await server.request(
        "GET",
        `/vars?filter%5Bworkspace%5D%5Bname%5D=${workspaceName}&filter%5Borganization%5D%5Bname%5D=acme`,
        { token: TOKEN },
    );
    expect(response.status).toBe(200);
    return response.body.data;
}

let counter = 0;
/** A project name no other test of the file uses. */
export function uniqueName(prefix = "Proj"): string {
    counter += 1;
    return `${prefix} ${process.pid % 10000} ${counter}`;
}

/** Expects `promise` to reject, and returns the error for further assertions. */
export async function rejection(promise: Promise<unknown>): Promise<Error> {
    try {
        await promise;
    } catch (error) {
        return error as Error;
    }
    throw new Error("expected the call to fail, but it succeeded");
}

/** A resource handler module, as far as `check` goes. */
interface Checking {
    check(olds: Record<string, unknown>, news: Record<string, unknown>): Promise<{ inputs?: unknown; failures?: unknown[] }>;
}

/** `handler.check` of `news` expected to pass: the inputs as the host hands them to `create` and `update`. */
export async function checkedInputs(handler: Checking, news: Record<string, unknown>): Promise<Record<string, unknown>> {
    const result = await handler.check({}, news);
    expect(result.failures).toEqual([]);
    return result.inputs as Record<string, unknown>;
}

/** The failures of `handler.check` of `news` (none: an empty list). */
export async function checkFailures(handler: Checking, news: Record<string, unknown>): Promise<{ property: string; reason: string }[]> {
    return ((await handler.check({}, news)).failures ?? []) as { property: string; reason: string }[];
}

/** The raw workspace resource by id over raw HTTP; `undefined` when it is gone (404). */
export async function rawWorkspace(server: TestServer, id: string, token: string = TOKEN): Promise<any | undefined> {
    const response = await server.request("GET", `/workspaces/${id}`, { token });
    if (response.status === 404) return undefined;
    expect(response.status).toBe(200);
    return response.body.data;
}

/** An upgrade run of a no-code workspace over raw HTTP. */
export async function rawUpgradeRun(server: TestServer, moduleId: string, workspaceId: string, runId: string, token: string = TOKEN): Promise<any> {
    const response = await server.request("GET", `/no-code-modules/${moduleId}/workspaces/${workspaceId}/upgrade/${runId}`, { token });
    expect(response.status).toBe(200);
    return response.body.data;
}

/** Starts an upgrade of a no-code workspace over raw HTTP (someone else's), answering the run. */
export async function rawInitiateUpgrade(server: TestServer, moduleId: string, workspaceId: string, vars: Record<string, unknown>[]): Promise<any> {
    const response = await server.request("POST", `/no-code-modules/${moduleId}/workspaces/${workspaceId}/upgrade`, {
        token: TOKEN,
        body: { data: { type: "workspaces", relationships: { vars: { data: vars.map((attributes) => ({ type: "vars", attributes })) } } } },
    });
    expect(response.status).toBe(200);
    return response.body.data;
}

/** The raw workspaces of `acme` named `name` (in any case), through the list's search (owners token). */
export async function rawWorkspacesNamed(server: TestServer, name: string): Promise<any[]> {
    const response = await server.request("GET", `/organizations/acme/workspaces?search%5Bname%5D=${encodeURIComponent(name)}`, { token: TOKEN });
    expect(response.status).toBe(200);
    return response.body.data.filter((item: any) => item.attributes.name.toLowerCase() === name.toLowerCase());
}

/** The ids of `acme`'s seeded projects by name, read over raw HTTP. */
export async function acmeProjectIds(server: TestServer): Promise<Record<"Default Project" | "Apps" | "Staging" | "Empty", string>> {
    const response = await server.request("GET", "/organizations/acme/projects?page%5Bsize%5D=100", { token: TOKEN });
    expect(response.status).toBe(200);
    return Object.fromEntries(response.body.data.map((project: any) => [project.attributes.name, project.id])) as Record<
        "Default Project" | "Apps" | "Staging" | "Empty",
        string
    >;
}

let workspaceNameCounter = 0;
/** A workspace name (letters, digits and `-`) no other test of the file uses: `prefix-<pid>-<n>`. */
export function freshWorkspaceName(prefix: string): string {
    workspaceNameCounter += 1;
    return `${prefix}-${process.pid % 10000}-${workspaceNameCounter}`;
}

/**
 * No default organization in this file's tests but what a test sets: a `WOS_ORGANIZATION` of the shell that
 * runs jest must not leak in. Registers the hooks; call at the top of a file.
 */
export function withoutDefaultOrganization(): void {
    const saved = process.env.WOS_ORGANIZATION;
    beforeAll(() => {
        delete process.env.WOS_ORGANIZATION;
    });
    afterAll(() => {
        if (saved !== undefined) process.env.WOS_ORGANIZATION = saved;
    });
}

/**
 * The progress lines no-code upgrades write (instead of the Pulumi log), emptied before each test of the
 * file or `describe` that calls it. Registers the hooks.
 */
export function captureUpgradeLog(): string[] {
    const lines: string[] = [];
    beforeEach(() => {
        lines.length = 0;
        setUpgradeLogger((line) => lines.push(line));
    });
    afterEach(() => {
        setUpgradeLogger();
    });
    return lines;
}

/** Enables a registry module of `acme` for no-code provisioning over raw HTTP (owners token); answers its id. */
export async function rawEnableNoCodeModule(server: TestServer, registryModuleId: string, versionPin = "1.0.0"): Promise<string> {
    const response = await server.request("POST", "/organizations/acme/no-code-modules", {
        token: TOKEN,
        body: {
            data: {
                type: "no-code-modules",
                attributes: { enabled: true, "version-pin": versionPin },
                relationships: { "registry-module": { data: { type: "registry-module", id: registryModuleId } } },
            },
        },
    });
    expect(response.status).toBe(200);
    return response.body.data.id;
}
