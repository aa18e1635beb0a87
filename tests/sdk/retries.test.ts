/**
 * The retry policy over the wire, driven by the local service's fault injection and rate limit: 429 is
 * always retried with the wait its headers ask for; 5xx, dropped connections and timeouts only where a
 * repeat cannot duplicate work; a lost answer after commit never creates twice.
 */
import {
    WosClient,
    WosConnectionError,
    WosNotFoundError,
    WosRateLimitError,
    WosServerError,
    type Project,
    type RetryInfo,
} from "../../sdk";
import { startTestServer, type TestServer } from "../support/server";
import { TOKENS, WORKSPACES } from "../support/seed";

let server: TestServer;

beforeAll(async () => {
    server = await startTestServer();
});

afterEach(async () => {
    await server.clearFaults();
});

afterAll(async () => {
    await server?.close();
});

const CREATE_PROJECT = "^/api/v2/organizations/acme/projects$";

/** A client that records every retry it makes; waits are tiny unless a test says otherwise. */
function recordingClient(options: { maxRetries?: number; maxRetryDelayMs?: number; timeoutMs?: number } = {}) {
    const retries: RetryInfo[] = [];
    const client = new WosClient({
        address: server.url,
        token: TOKENS.owners,
        maxRetries: options.maxRetries ?? 5,
        maxRetryDelayMs: options.maxRetryDelayMs ?? 10,
        timeoutMs: options.timeoutMs,
        onRetry: (info) => retries.push(info),
    });
    return { client, retries };
}

/** A client that sends each request exactly once, to probe what is left of a fault rule. */
function probeClient() {
    return new WosClient({ address: server.url, token: TOKENS.owners, maxRetries: 0 });
}

let counter = 0;
function uniqueName(prefix = "retry") {
    counter += 1;
    return `${prefix}-${counter}-${Date.now() % 100000}`;
}

async function projectsNamed(name: string): Promise<Project[]> {
    return (await probeClient().projects.list("acme", { names: [name] })).items;
}

async function newProject(): Promise<Project> {
    return probeClient().projects.create("acme", { name: uniqueName("target") });
}

function escapeRegExp(text: string) {
    return text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
}

describe("5xx: retried only where a repeat cannot duplicate work", () => {
    it("retries a GET through two 503s", async () => {
        const project = await newProject();
        await server.addFault({ method: "GET", path: `^/api/v2/projects/${project.id}$`, times: 2, status: 503 });
        const { client, retries } = recordingClient();
        expect((await client.projects.read(project.id)).id).toBe(project.id);
        expect(retries.map((retry) => [retry.reason, retry.status])).toEqual([
            ["server_error", 503],
            ["server_error", 503],
        ]);
    });

    it("does not retry a POST create on 503: one request reaches the service and the error is thrown", async () => {
        await server.addFault({ method: "POST", path: CREATE_PROJECT, times: 2, status: 503 });
        const { client, retries } = recordingClient();
        const name = uniqueName();
        const error = await client.projects.create("acme", { name }).catch((e: unknown) => e);
        expect(WosServerError.isInstance(error)).toBe(true);
        expect((error as WosServerError).status).toBe(503);
        expect(retries).toHaveLength(0);
        // The rule had two uses; exactly one is left, so exactly one request reached the service.
        const second = await probeClient().projects.create("acme", { name }).catch((e: unknown) => e);
        expect(WosServerError.isInstance(second)).toBe(true);
        await expect(probeClient().projects.create("acme", { name })).resolves.toMatchObject({ name });
    });

    it("retries the idempotent move-workspaces POST through a 503", async () => {
        const target = await newProject();
        await server.addFault({ method: "POST", path: "/relationships/workspaces$", times: 1, status: 503 });
        const { client, retries } = recordingClient();
        await client.projects.moveWorkspaces(target.id, [WORKSPACES.staging]);
        expect(retries).toHaveLength(1);
        expect((await client.workspaces.read(WORKSPACES.staging)).projectId).toBe(target.id);
    });

    it("throws a WosServerError once maxRetries is used up", async () => {
        await server.addFault({ method: "GET", path: "^/api/v2/organizations/acme/projects$", times: 10, status: 500 });
        const { client, retries } = recordingClient({ maxRetries: 3 });
        const error = await client.projects.list("acme").catch((e: unknown) => e);
        expect(WosServerError.isInstance(error)).toBe(true);
        expect((error as WosServerError).status).toBe(500);
        expect(retries).toHaveLength(3);
    });
});

describe("dropped connections and timeouts", () => {
    it("retries a GET whose connection is reset", async () => {
        const project = await newProject();
        await server.addFault({ method: "GET", path: `^/api/v2/projects/${project.id}$`, times: 2, reset: true });
        const { client, retries } = recordingClient();
        expect((await client.projects.read(project.id)).name).toBe(project.name);
        expect(retries).toHaveLength(2);
        for (const retry of retries) expect(retry).toMatchObject({ reason: "connection_failed", code: "ECONNRESET" });
    });

    it("does not retry a POST create whose connection is reset, and nothing is created", async () => {
        await server.addFault({ method: "POST", path: CREATE_PROJECT, times: 2, reset: true });
        const { client, retries } = recordingClient();
        const name = uniqueName();
        const error = await client.projects.create("acme", { name }).catch((e: unknown) => e);
        expect(WosConnectionError.isInstance(error)).toBe(true);
        expect((error as WosConnectionError).code).toBe("ECONNRESET");
        expect(retries).toHaveLength(0);
        // One use of the rule is left: the client sent exactly one request.
        await expect(probeClient().projects.create("acme", { name })).rejects.toBeInstanceOf(WosConnectionError);
        expect(await projectsNamed(name)).toHaveLength(0);
    });

    it("retries a GET that times out", async () => {
        const project = await newProject();
        await server.addFault({ method: "GET", path: `^/api/v2/projects/${project.id}$`, times: 1, delayMs: 1500 });
        const { client, retries } = recordingClient({ timeoutMs: 300 });
        expect((await client.projects.read(project.id)).id).toBe(project.id);
        expect(retries).toEqual([expect.objectContaining({ reason: "connection_failed", code: "ETIMEDOUT" })]);
    });

    it("does not retry a POST create that times out", async () => {
        await server.addFault({ method: "POST", path: CREATE_PROJECT, times: 1, delayMs: 1500 });
        const { client, retries } = recordingClient({ timeoutMs: 300 });
        const error = await client.projects.create("acme", { name: uniqueName() }).catch((e: unknown) => e);
        expect(WosConnectionError.isInstance(error)).toBe(true);
        expect((error as WosConnectionError).code).toBe("ETIMEDOUT");
        expect((error as WosConnectionError).message).toContain("timed out");
        expect(retries).toHaveLength(0);
    });
});

describe("a lost answer after the service committed", () => {
    it("retries a PATCH whose answer is lost and returns the updated project", async () => {
        const project = await newProject();
        await server.addFault({ method: "PATCH", path: `^/api/v2/projects/${project.id}$`, times: 1, afterCommit: true, status: 503 });
        const { client, retries } = recordingClient();
        const renamed = uniqueName("renamed");
        const updated = await client.projects.update(project.id, { name: renamed, description: "after" });
        expect(updated).toMatchObject({ id: project.id, name: renamed, description: "after" });
        expect(retries).toHaveLength(1);
        expect(await client.projects.read(project.id)).toMatchObject({ name: renamed, description: "after" });
    });

    it("retries a PATCH whose connection drops after commit", async () => {
        const project = await newProject();
        await server.addFault({ method: "PATCH", path: `^/api/v2/projects/${project.id}$`, times: 1, afterCommit: true, reset: true });
        const { client, retries } = recordingClient();
        const updated = await client.projects.update(project.id, { description: "survived a reset" });
        expect(updated.description).toBe("survived a reset");
        expect(retries).toEqual([expect.objectContaining({ code: "ECONNRESET" })]);
    });

    it("throws on a POST create whose answer is lost, and exactly one project exists afterwards", async () => {
        await server.addFault({ method: "POST", path: CREATE_PROJECT, times: 1, afterCommit: true, status: 503 });
        const { client, retries } = recordingClient();
        const name = uniqueName();
        const error = await client.projects.create("acme", { name }).catch((e: unknown) => e);
        expect(WosServerError.isInstance(error)).toBe(true);
        expect(retries).toHaveLength(0);
        expect(await projectsNamed(name)).toHaveLength(1);
    });

    it("throws on a POST create whose connection drops after commit, and exactly one project exists", async () => {
        await server.addFault({ method: "POST", path: CREATE_PROJECT, times: 1, afterCommit: true, reset: true });
        const { client, retries } = recordingClient();
        const name = uniqueName();
        await expect(client.projects.create("acme", { name })).rejects.toBeInstanceOf(WosConnectionError);
        expect(retries).toHaveLength(0);
        expect(await projectsNamed(name)).toHaveLength(1);
    });

    it("retries the upsert PATCH of tag bindings whose answer is lost: the result is what one PATCH gives", async () => {
        const project = await probeClient().projects.create("acme", { name: uniqueName("tags"), tagBindings: [{ key: "keep", value: "1" }] });
        await server.addFault({ method: "PATCH", path: `^/api/v2/projects/${project.id}/tag-bindings$`, times: 1, afterCommit: true, status: 503 });
        const { client, retries } = recordingClient();
        const written = await client.projects.addTagBindings(project.id, [{ key: "env", value: "prod" }]);
        expect(retries).toHaveLength(1);
        expect(written.map(({ key, value }) => ({ key, value }))).toEqual([{ key: "env", value: "prod" }]);
        const all = await client.projects.listTagBindings(project.id);
        expect(all.map(({ key, value }) => `${key}=${value}`).sort()).toEqual(["env=prod", "keep=1"]);
    });

    it("retries a PATCH /vars whose answer is lost: the variable holds the new value once", async () => {
        const variable = await probeClient().variables.create(WORKSPACES.staging, { key: uniqueName("v").replace(/-/g, "_"), value: "1", category: "env" });
        await server.addFault({ method: "PATCH", path: `^/api/v2/vars/${variable.id}$`, times: 1, afterCommit: true, reset: true });
        const { client, retries } = recordingClient();
        const updated = await client.variables.update(WORKSPACES.staging, variable.id, { value: "2" });
        expect(retries).toEqual([expect.objectContaining({ reason: "connection_failed", code: "ECONNRESET" })]);
        expect(updated).toMatchObject({ id: variable.id, key: variable.key, value: "2" });
        const listed = await client.variables.read(WORKSPACES.staging, variable.id);
        expect(listed.value).toBe("2");
    });

    it("treats a DELETE as done when its answer is lost and the retry finds the project gone", async () => {
        const project = await newProject();
        await server.addFault({
            method: "DELETE",
            path: `^/api/v2/projects/${escapeRegExp(project.id)}$`,
            times: 1,
            afterCommit: true,
            status: 503,
        });
        const { client, retries } = recordingClient();
        await expect(client.projects.delete(project.id)).resolves.toBeUndefined();
        expect(retries).toHaveLength(1);
        expect(await projectsNamed(project.name)).toHaveLength(0);
    });

    it("does not treat a 404 after a 429 as done: a 429 did no work, so the project never existed", async () => {
        const missing = "prj-neverexisted00001";
        await server.addFault({ method: "DELETE", path: `^/api/v2/projects/${missing}$`, times: 1, status: 429, headers: { "Retry-After": "0" } });
        const { client, retries } = recordingClient();
        const error = await client.projects.delete(missing).catch((e: unknown) => e);
        expect(retries).toEqual([expect.objectContaining({ reason: "rate_limited" })]);
        expect(WosNotFoundError.isInstance(error)).toBe(true);
    });
});

// Last on purpose: its real rate-limit wait lets the delayed requests of the timeout tests end before the
// server closes, so no timer of theirs outlives the file.
describe("429: always retried, waiting what the headers say", () => {
    it("survives a storm of three 429s with X-RateLimit-Reset, calling onRetry three times with that wait", async () => {
        await server.addFault({
            method: "POST",
            path: CREATE_PROJECT,
            times: 3,
            status: 429,
            headers: { "X-RateLimit-Reset": "0.05" },
        });
        const { client, retries } = recordingClient({ maxRetryDelayMs: 5000 });
        const name = uniqueName();
        const project = await client.projects.create("acme", { name });
        expect(project.name).toBe(name);
        expect(retries).toHaveLength(3);
        expect(retries.map((retry) => retry.attempt)).toEqual([1, 2, 3]);
        for (const retry of retries) {
            expect(retry).toMatchObject({
                reason: "rate_limited",
                status: 429,
                delayMs: 50,
                delaySource: "x-ratelimit-reset",
                method: "POST",
                path: "/organizations/acme/projects",
            });
        }
        // A 429 is refused before any work, so the retried create made exactly one project.
        expect(await projectsNamed(name)).toHaveLength(1);
    });

    it("prefers Retry-After and caps it at maxRetryDelayMs", async () => {
        await server.addFault({
            method: "GET",
            path: "^/api/v2/organizations/acme/projects$",
            times: 2,
            status: 429,
            headers: { "Retry-After": "1", "X-RateLimit-Reset": "0.5" },
        });
        const { client, retries } = recordingClient({ maxRetryDelayMs: 20 });
        await client.projects.list("acme");
        expect(retries.map((retry) => [retry.delaySource, retry.delayMs])).toEqual([
            ["retry-after", 20],
            ["retry-after", 20],
        ]);
    });

    it("throws a WosRateLimitError with the service's error objects once maxRetries is used up", async () => {
        await server.addFault({ method: "GET", path: "^/api/v2/projects/", times: 10, status: 429, headers: { "Retry-After": "0" } });
        const { client, retries } = recordingClient({ maxRetries: 2 });
        const error = await client.projects.read("prj-whatever00000001").catch((e: unknown) => e);
        expect(WosRateLimitError.isInstance(error)).toBe(true);
        expect((error as WosRateLimitError).status).toBe(429);
        expect((error as WosRateLimitError).errors[0].status).toBe("429");
        expect(retries).toHaveLength(2);
    });

    it("a 429 of the service's real rate limit (a window another process used up) is waited out and retried with its reset", async () => {
        const limited = await startTestServer({ rateLimit: 3 });
        try {
            // Another process on the token used up the window: this client's pacer has not seen it.
            for (let sent = 0; sent < 3; sent++) await limited.request("GET", "/ping", { token: TOKENS.owners });
            const retries: RetryInfo[] = [];
            const client = new WosClient({
                address: limited.url,
                token: TOKENS.owners,
                maxRetries: 10,
                maxRetryDelayMs: 2000,
                onRetry: (info) => retries.push(info),
            });
            const results = await Promise.all(Array.from({ length: 4 }, () => client.projects.list("acme", { pageSize: 1 })));
            expect(results.every((page) => page.items.length === 1)).toBe(true);
            expect(retries.length).toBeGreaterThan(0);
            for (const retry of retries) {
                expect(retry.reason).toBe("rate_limited");
                expect(["retry-after", "x-ratelimit-reset"]).toContain(retry.delaySource);
                expect(retry.delayMs).toBeLessThanOrEqual(2000);
            }
        } finally {
            await limited.close();
        }
    });
});

describe("what onRetry is told", () => {
    it("the method and the path without its query, with the token redacted from the path (an id that contains the token)", async () => {
        // onRetry usually ends in a log: an id pasted with the token in it must not carry the token there.
        const id = `prj-${TOKENS.owners}`;
        await server.addFault({ method: "GET", path: `^/api/v2/projects/${escapeRegExp(id)}$`, times: 1, status: 503 });
        const { client, retries } = recordingClient();
        const error = await client.projects.read(id).catch((e: unknown) => e);
        expect(WosNotFoundError.isInstance(error)).toBe(true);
        expect(retries).toHaveLength(1);
        expect(retries[0]).toEqual(
            expect.objectContaining({ attempt: 1, reason: "server_error", status: 503, method: "GET", path: "/projects/prj-[REDACTED]" }),
        );
        expect(JSON.stringify(retries)).not.toContain(TOKENS.owners);
    });

    it("a path without the token as it was sent, its query left out", async () => {
        await server.addFault({ method: "GET", path: "^/api/v2/organizations/acme/projects$", times: 1, status: 502 });
        const { client, retries } = recordingClient();
        await client.projects.list("acme", { names: ["Apps"] });
        expect(retries.map((retry) => [retry.method, retry.path, retry.status])).toEqual([["GET", "/organizations/acme/projects", 502]]);
    });
});
