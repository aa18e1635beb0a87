/**
 * Fault injection (the local service's, for tests only): `POST /_admin/faults` with the admin token adds a rule,
 * `DELETE /_admin/faults` clears them. `status` answers that status instead, `times` counts matching
 * requests down, `delayMs` delays the answer, `reset` drops the connection, `afterCommit` does the work and
 * then fails the answer. Without an admin token there is no `/_admin`.
 */
import { startServer } from "../../server/app";
import { startTestServer, type TestServer } from "../support/server";
import { TOKENS, testSeed } from "../support/seed";
import {
    clientFor,
    expectErrors,
    expectStatus,
    expectValidation,
    http,
    projectDocument,
    projectId,
    type Client,
    type HttpResponse,
} from "./helpers";

const ADMIN_TOKEN = "admin-token";

let server: TestServer;
let owners: Client;
let appsId: string;
let stagingId: string;
let counter = 0;

beforeAll(async () => {
    server = await startTestServer({ adminToken: ADMIN_TOKEN });
    owners = clientFor(server, TOKENS.owners);
    appsId = await projectId(server, "Apps");
    stagingId = await projectId(server, "Staging");
});

afterEach(async () => {
    // A test that fails half-way must not leave its rules to the next one.
    await http(server, "DELETE", "/_admin/faults", { token: ADMIN_TOKEN });
});

afterAll(async () => {
    await server?.close();
});

async function addFault(rule: Record<string, unknown>): Promise<void> {
    const response = await http(server, "POST", "/_admin/faults", { token: ADMIN_TOKEN, body: rule });
    if (response.status < 200 || response.status > 299) {
        throw new Error(`POST /_admin/faults answered ${response.status} ${response.text}`);
    }
}

/** Whether a project of that name exists, read with a request no rule matches (the list has a query). */
async function projectExists(name: string): Promise<boolean> {
    const response = await clientFor(server, TOKENS.platform).get(
        `/organizations/acme/projects?filter%5Bnames%5D=${encodeURIComponent(name)}`,
    );
    expectStatus(response, 200);
    return response.body.data.length === 1;
}

function uniqueName(prefix: string): string {
    counter += 1;
    return `${prefix} ${counter}`;
}

const CREATE_PATH = "^/api/v2/organizations/[^/]+/projects$";

test("status: a matching request answers that status as a JSON:API error; times counts down to the rule's end", async () => {
    await addFault({ method: "GET", path: `^/api/v2/projects/${appsId}$`, times: 2, status: 503 });
    expectErrors(await owners.get(`/projects/${appsId}`), 503);
    expectErrors(await owners.get(`/projects/${appsId}`), 503);
    expectStatus(await owners.get(`/projects/${appsId}`), 200);
});

test("times counts only matching requests: other paths and other methods pass untouched", async () => {
    await addFault({ method: "GET", path: `^/api/v2/projects/${appsId}$`, times: 1, status: 500 });
    expectStatus(await owners.get(`/projects/${stagingId}`), 200);
    expectStatus(await owners.patch(`/projects/${appsId}`, projectDocument({ description: "not matched" })), 200);
    expectStatus(await owners.get(`/projects/${stagingId}`), 200);
    expectErrors(await owners.get(`/projects/${appsId}`), 500);
    expectStatus(await owners.get(`/projects/${appsId}`), 200);
});

test("a status fault without afterCommit does not do the work", async () => {
    const name = uniqueName("Not Committed");
    await addFault({ method: "POST", path: CREATE_PATH, times: 1, status: 503 });
    expectErrors(await owners.post("/organizations/acme/projects", projectDocument({ name })), 503);
    expect(await projectExists(name)).toBe(false);
});

test("afterCommit: the work is committed, then the answer fails with the status", async () => {
    const name = uniqueName("Lost Answer");
    await addFault({ method: "POST", path: CREATE_PATH, times: 1, status: 503, afterCommit: true });
    expectErrors(await owners.post("/organizations/acme/projects", projectDocument({ name })), 503);
    expect(await projectExists(name)).toBe(true);
    // The commit is real: the same create again is refused as a duplicate.
    const again = await owners.post("/organizations/acme/projects", projectDocument({ name }));
    expectErrors(again, 422);
});

test("reset: the connection drops without an answer, and without afterCommit nothing is written", async () => {
    const name = uniqueName("Reset Before");
    await addFault({ method: "POST", path: CREATE_PATH, times: 1, reset: true });
    await expect(owners.post("/organizations/acme/projects", projectDocument({ name }))).rejects.toThrow();
    expect(await projectExists(name)).toBe(false);
    // The rule was used up: the next request is answered.
    expectStatus(await owners.post("/organizations/acme/projects", projectDocument({ name })), 201);
});

test("reset with afterCommit: the work is committed, then the connection drops", async () => {
    const name = uniqueName("Reset After");
    await addFault({ method: "POST", path: CREATE_PATH, times: 1, reset: true, afterCommit: true });
    await expect(owners.post("/organizations/acme/projects", projectDocument({ name }))).rejects.toThrow();
    expect(await projectExists(name)).toBe(true);
});

test("delayMs: the delayed answer arrives after answers to later requests, and is otherwise normal", async () => {
    await addFault({ method: "GET", path: `^/api/v2/projects/${appsId}$`, times: 1, delayMs: 3000 });
    let delayedSettled = false;
    const delayed = owners.get(`/projects/${appsId}`).then((response) => {
        delayedSettled = true;
        return response;
    });
    for (let index = 0; index < 3; index += 1) expectStatus(await owners.get(`/projects/${stagingId}`), 200);
    expect(delayedSettled).toBe(false);
    const response: HttpResponse = await delayed;
    expectStatus(response, 200);
    expect(response.body.data.id).toBe(appsId);
});

test("delayMs delays the answer, not the work: the project exists while its create's answer is still held", async () => {
    const name = uniqueName("Delayed");
    await addFault({ method: "POST", path: CREATE_PATH, times: 1, delayMs: 5000 });
    let answered = false;
    const delayed = owners.post("/organizations/acme/projects", projectDocument({ name })).then((response) => {
        answered = true;
        return response;
    });
    // A client that gave up now would have lost the answer of committed work.
    let existsBeforeAnswer = false;
    for (let attempt = 0; attempt < 40 && !existsBeforeAnswer; attempt += 1) {
        existsBeforeAnswer = await projectExists(name);
        if (!existsBeforeAnswer) await new Promise((resolve) => setTimeout(resolve, 25));
    }
    expect(existsBeforeAnswer).toBe(true);
    expect(answered).toBe(false);
    expectStatus(await delayed, 201);
});

test("DELETE /_admin/faults clears every rule", async () => {
    await addFault({ method: "GET", path: `^/api/v2/projects/${appsId}$`, times: 10, status: 503 });
    await addFault({ method: "GET", path: `^/api/v2/projects/${stagingId}$`, times: 10, status: 500 });
    expectErrors(await owners.get(`/projects/${appsId}`), 503);
    const cleared = await http(server, "DELETE", "/_admin/faults", { token: ADMIN_TOKEN });
    expect(cleared.status).toBeGreaterThanOrEqual(200);
    expect(cleared.status).toBeLessThan(300);
    expectStatus(await owners.get(`/projects/${appsId}`), 200);
    expectStatus(await owners.get(`/projects/${stagingId}`), 200);
});

test.each([
    ["no bearer token", undefined],
    ["a team token", TOKENS.owners],
    ["the organization token", TOKENS.acmeOrganization],
])("/_admin/faults refuses %s with a 401 JSON:API error, and the rule is not added", async (_label, token) => {
    const response = await http(server, "POST", "/_admin/faults", {
        token,
        body: { method: "GET", path: `^/api/v2/projects/${appsId}$`, times: 1, status: 503 },
    });
    expectErrors(response, 401);
    expectStatus(await owners.get(`/projects/${appsId}`), 200);
});

test("/_admin/faults DELETE refuses a team token with a 401, and the rules stay", async () => {
    await addFault({ method: "GET", path: `^/api/v2/projects/${appsId}$`, times: 1, status: 503 });
    expectErrors(await http(server, "DELETE", "/_admin/faults", { token: TOKENS.owners }), 401);
    expectErrors(await owners.get(`/projects/${appsId}`), 503);
});

test("a rule whose path is not a regular expression is refused with a 422 at /path, not a 500", async () => {
    const response = await http(server, "POST", "/_admin/faults", {
        token: ADMIN_TOKEN,
        body: { method: "GET", path: "([unclosed", times: 1, status: 503 },
    });
    expectValidation(response, "/path");
    expectStatus(await owners.get(`/projects/${appsId}`), 200);
});

describe("without an admin token", () => {
    let plain: { url: string; close(): Promise<void> };

    beforeAll(async () => {
        // Started directly: the test helper always sets an admin token.
        plain = await startServer({
            dataPath: ":memory:",
            seed: testSeed(),
            logLevel: "silent",
            host: "127.0.0.1",
            port: 0,
        });
    });

    afterAll(async () => {
        await plain?.close();
    });

    test("there is no /_admin: 404 for POST and DELETE, and no fault takes effect", async () => {
        const add = await http(plain, "POST", "/_admin/faults", {
            token: ADMIN_TOKEN,
            body: { method: "GET", path: "^/api/v2/ping$", times: 1, status: 503 },
        });
        expect(add.status).toBe(404);
        expect((await http(plain, "DELETE", "/_admin/faults", { token: ADMIN_TOKEN })).status).toBe(404);
        expectStatus(await http(plain, "GET", "/ping", { token: TOKENS.owners }), 204);
    });
});
