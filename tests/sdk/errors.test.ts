/**
 * Typed errors of {@link WosClient} against the real local service: one class per kind, carrying the status
 * and the service's error objects, recognisable across two copies of the module, and never holding the token.
 */
import * as http from "node:http";
import * as net from "node:net";
import { inspect } from "node:util";
import {
    WosArgumentError,
    WosAuthenticationError,
    WosClient,
    WosConflictError,
    WosConnectionError,
    WosError,
    WosInvalidResponseError,
    WosNotFoundError,
    WosPermissionError,
    WosValidationError,
} from "../../sdk";
import { startTestServer, type TestServer } from "../support/server";
import { TOKENS, WORKSPACES } from "../support/seed";

let server: TestServer;

beforeAll(async () => {
    server = await startTestServer();
});

afterAll(async () => {
    await server?.close();
});

/** The rejection of `promise`, failing the test when it resolves. */
async function failure(promise: Promise<unknown>): Promise<WosError> {
    const outcome = await promise.then(
        () => undefined,
        (error: unknown) => error,
    );
    if (outcome === undefined) throw new Error("expected the call to fail, but it succeeded");
    expect(WosError.isInstance(outcome)).toBe(true);
    return outcome as WosError;
}

/** Asserts that no rendering of `error` a log could produce contains `token`. */
function expectNoToken(error: WosError, token: string) {
    expect(JSON.stringify(error)).not.toContain(token);
    expect(inspect(error, { depth: Infinity, showHidden: true })).not.toContain(token);
    expect(String(error.stack)).not.toContain(token);
    expect(error.message).not.toContain(token);
    for (const value of Object.values(error)) expect(JSON.stringify(value) ?? "").not.toContain(token);
}

function client(token: string) {
    return new WosClient({ address: server.url, token, maxRetries: 1, maxRetryDelayMs: 5 });
}

describe("errors by kind", () => {
    it("a 422 is a WosValidationError whose message names the field by its pointer", async () => {
        // A rule only the service can judge (the name is taken), so the request is sent.
        const error = await failure(client(TOKENS.owners).projects.create("acme", { name: "Apps" }));
        expect(error).toBeInstanceOf(WosValidationError);
        expect(WosValidationError.isInstance(error)).toBe(true);
        expect(error.status).toBe(422);
        expect(error.kind).toBe("validation");
        expect(error.method).toBe("POST");
        expect(error.path).toBe("/organizations/acme/projects");
        const nameError = error.errors.find((item) => item.source?.pointer === "/data/attributes/name");
        expect(nameError).toBeDefined();
        expect(nameError!.status).toBe("422");
        expect(error.message).toContain(`/data/attributes/name: ${nameError!.detail}`);
        expectNoToken(error, TOKENS.owners);
    });

    it("a 404 is a WosNotFoundError with the service's error object", async () => {
        const error = await failure(client(TOKENS.owners).projects.read("prj-doesnotexist00001"));
        expect(WosNotFoundError.isInstance(error)).toBe(true);
        expect(error.status).toBe(404);
        expect(error.errors).toEqual([expect.objectContaining({ status: "404" })]);
        expect(error.path).toBe("/projects/prj-doesnotexist00001");
        expect(error.requestId).toMatch(/^[0-9a-f-]{36}$/);
        expectNoToken(error, TOKENS.owners);
    });

    it("a 403 is a WosPermissionError (deleting a project the caller can only read)", async () => {
        const apps = (await client(TOKENS.owners).projects.list("acme", { names: ["Apps"] })).items[0];
        const error = await failure(client(TOKENS.appsRead).projects.delete(apps.id));
        expect(WosPermissionError.isInstance(error)).toBe(true);
        expect(error.status).toBe(403);
        expect(error.errors[0].status).toBe("403");
        expectNoToken(error, TOKENS.appsRead);
    });

    it("a 409 is a WosConflictError (deleting the default project)", async () => {
        const owners = client(TOKENS.owners);
        const defaultProject = (await owners.projects.list("acme", { names: ["Default Project"] })).items[0];
        const error = await failure(owners.projects.delete(defaultProject.id));
        expect(WosConflictError.isInstance(error)).toBe(true);
        expect(error.status).toBe(409);
        expect(error.message).toContain(error.errors[0].detail!);
        expectNoToken(error, TOKENS.owners);
    });

    it("carries the service's code and meta: errorCode and errorMeta of the first error object, each object's own in errors", async () => {
        const owners = client(TOKENS.owners);
        const apps = (await owners.projects.list("acme", { names: ["Apps"] })).items[0];
        const error = await failure(owners.projects.create("acme", { name: "APPS" }));
        expect(WosValidationError.isInstance(error)).toBe(true);
        expect({ errorCode: error.errorCode, errorMeta: error.errorMeta }).toEqual({ errorCode: "name_taken", errorMeta: { "holder-id": apps.id } });
        expect(error.errors[0]).toEqual(expect.objectContaining({ code: "name_taken", meta: { "holder-id": apps.id } }));
        expect(error.toJSON()).toEqual(expect.objectContaining({ errorCode: "name_taken", errorMeta: { "holder-id": apps.id } }));
        const gone = await failure(owners.projects.read("prj-doesnotexist0001"));
        expect({ errorCode: gone.errorCode, errorMeta: gone.errorMeta }).toEqual({ errorCode: "not_found", errorMeta: undefined });
        expect(Object.keys(gone)).not.toContain("errorMeta");
    });

    it("a 401 is a WosAuthenticationError and the unknown token appears nowhere in it", async () => {
        const token = "not-a-real-token-1234567890";
        const error = await failure(client(token).projects.list("acme"));
        expect(WosAuthenticationError.isInstance(error)).toBe(true);
        expect(error.status).toBe(401);
        expect(error.errors).toEqual([expect.objectContaining({ status: "401", title: "unauthorized" })]);
        expect(error.errorCode).toBeUndefined();
        expect(error.message).toContain("unauthorized");
        expectNoToken(error, token);
    });

    it("the path of an error never carries the query string", async () => {
        const error = await failure(client(TOKENS.owners).projects.list("globex", { pageSize: 5, names: ["x"] }));
        expect(error.status).toBe(404);
        expect(error.kind).toBe("not_found");
        expect(error.path).toBe("/organizations/globex/projects");
    });

    it("redacts the token even where the caller put it into the request itself", async () => {
        const token = TOKENS.owners;
        const error = await failure(client(token).projects.read(token));
        expect(WosNotFoundError.isInstance(error)).toBe(true);
        expectNoToken(error, token);
    });

    it("redacts the token from the service's error objects when the service echoes it back", async () => {
        // The service quotes an unknown agent pool id in its detail; here the caller pasted the token there.
        const token = TOKENS.owners;
        const error = await failure(
            client(token).workspaces.update(WORKSPACES.appsLegacy, { executionMode: "agent", agentPoolId: token }),
        );
        expect(WosValidationError.isInstance(error)).toBe(true);
        const poolError = error.errors.find((item) => item.source?.pointer === "/data/attributes/agent-pool-id");
        expect(poolError?.detail).toContain("'[REDACTED]'");
        expectNoToken(error, token);
    });

    it("an empty id is a WosArgumentError before any request", async () => {
        const error = await failure(client(TOKENS.owners).projects.read(""));
        expect(WosArgumentError.isInstance(error)).toBe(true);
        expect(error.status).toBeUndefined();
        expect(error.message).toContain("projectId");
    });
});

describe("connection failures and unexpected answers", () => {
    it("a refused connection is a WosConnectionError with its code and no token", async () => {
        const port = await freePort();
        const token = "refused-token-abcdefgh";
        const unreachable = new WosClient({ address: `http://127.0.0.1:${port}`, token, maxRetries: 1, maxRetryDelayMs: 1 });
        const error = await failure(unreachable.projects.read("prj-1"));
        expect(WosConnectionError.isInstance(error)).toBe(true);
        expect(error.code).toBe("ECONNREFUSED");
        expect(error.status).toBeUndefined();
        expectNoToken(error, token);
    });

    it("an answer that does not match the schema is a WosInvalidResponseError naming the field", async () => {
        // Not the local service (which never answers this): a stand-in for a server that changed a field's type.
        // It also echoes the bearer token in its request id: that must not reach the error either.
        const odd = http.createServer((request, response) => {
            const echoed = String(request.headers.authorization ?? "").replace(/^Bearer /, "");
            response.writeHead(200, { "content-type": "application/vnd.api+json", "x-request-id": `req-${echoed}` });
            response.end(JSON.stringify({ data: { id: "prj-1", type: "projects", attributes: { name: 42 } } }));
        });
        await new Promise<void>((resolve) => odd.listen(0, "127.0.0.1", resolve));
        try {
            const { port } = odd.address() as net.AddressInfo;
            const token = "odd-server-token-123456";
            const error = await failure(new WosClient({ address: `http://127.0.0.1:${port}`, token }).projects.read("prj-1"));
            expect(WosInvalidResponseError.isInstance(error)).toBe(true);
            expect(error.message).toContain("data.attributes.name");
            expect(error.message).not.toMatch(/ZodError|"code":/);
            expect(error.status).toBe(200);
            expect(error.requestId).toBe("req-[REDACTED]");
            expectNoToken(error, token);
        } finally {
            await new Promise((resolve) => odd.close(resolve));
        }
    });

    it("an error answer without a code (the hosted service's) or with a code that is not text is read as before", async () => {
        const bodies = [
            { errors: [{ status: "409", title: "conflict", detail: "An upgrade of this workspace (run-abc) is still 'pending'" }] },
            { errors: [{ status: "409", title: "conflict", code: 42, meta: { "run-id": "run-abc" } }] },
        ];
        let next = 0;
        const hosted = http.createServer((_request, response) => {
            response.writeHead(409, { "content-type": "application/vnd.api+json" });
            response.end(JSON.stringify(bodies[next++]));
        });
        await new Promise<void>((resolve) => hosted.listen(0, "127.0.0.1", resolve));
        try {
            const { port } = hosted.address() as net.AddressInfo;
            const hostedClient = new WosClient({ address: `http://127.0.0.1:${port}`, token: "hosted-token" });
            const words = await failure(hostedClient.projects.delete("prj-1"));
            expect(WosConflictError.isInstance(words)).toBe(true);
            expect({ errorCode: words.errorCode, errorMeta: words.errorMeta }).toEqual({ errorCode: undefined, errorMeta: undefined });
            expect(words.errors).toEqual([{ status: "409", title: "conflict", detail: "An upgrade of this workspace (run-abc) is still 'pending'" }]);
            const numbered = await failure(hostedClient.projects.delete("prj-1"));
            expect({ errorCode: numbered.errorCode, errorMeta: numbered.errorMeta }).toEqual({ errorCode: undefined, errorMeta: { "run-id": "run-abc" } });
            expect(numbered.errors).toHaveLength(1);
        } finally {
            await new Promise((resolve) => hosted.close(resolve));
        }
    });
});

describe("isInstance", () => {
    it("recognises errors of another copy of the module, where instanceof fails", async () => {
        let otherCopy!: typeof import("../../sdk/errors");
        jest.isolateModules(() => {
            otherCopy = require("../../sdk/errors");
        });
        const error = await failure(client(TOKENS.owners).projects.read("prj-doesnotexist00001"));
        expect(error instanceof otherCopy.WosNotFoundError).toBe(false);
        expect(otherCopy.WosNotFoundError.isInstance(error)).toBe(true);
        expect(otherCopy.WosError.isInstance(error)).toBe(true);
        expect(otherCopy.WosConflictError.isInstance(error)).toBe(false);
        const foreign = new otherCopy.WosConflictError({ method: "DELETE", path: "/projects/x", status: 409 });
        expect(WosConflictError.isInstance(foreign)).toBe(true);
        expect(WosNotFoundError.isInstance(foreign)).toBe(false);
    });

    it("does not recognise look-alikes", () => {
        expect(WosError.isInstance(new Error("x"))).toBe(false);
        expect(WosNotFoundError.isInstance({ kind: "not_found", status: 404 })).toBe(false);
        expect(WosError.isInstance(undefined)).toBe(false);
    });
});

function freePort(): Promise<number> {
    return new Promise((resolve, reject) => {
        const probe = net.createServer();
        probe.once("error", reject);
        probe.listen(0, "127.0.0.1", () => {
            const { port } = probe.address() as net.AddressInfo;
            probe.close(() => resolve(port));
        });
    });
}
