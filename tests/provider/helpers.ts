/**
 * Shared set-up of the provider handler tests: a real local service per test file, credentials handed to
 * the handlers through the credentials module's `configure` (the path the provider host takes), and small
 * raw-HTTP readers to see what the service holds without going through the code under test.
 */
import { clearConfiguredCredentials, configure } from "../../provider/handlers/credentials";
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
