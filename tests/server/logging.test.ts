/**
 * Secrets never leave the service by a side door: with logging at its most verbose (`trace`), no bearer
 * token and no sensitive variable value appears in a log line, and no error answer echoes a sensitive value
 * back, whether the request was accepted, refused by validation, malformed or unauthorized.
 */
import { PassThrough } from "node:stream";
import { startTestServer, type TestServer } from "../support/server";
import { TOKENS, WORKSPACES } from "../support/seed";
import {
    clientFor,
    expectErrors,
    expectStatus,
    expectValidation,
    http,
    variableDocument,
    variableUpdateDocument,
    type HttpResponse,
} from "./helpers";

const SECRET = "sensitive-value-4f1c9e";
const ROTATED = "rotated-sensitive-value-7a2b";
const UNKNOWN_TOKEN = "not-a-token-of-anyone-5d3e";

let server: TestServer;
let log = "";
const answers: HttpResponse[] = [];

beforeAll(async () => {
    const stream = new PassThrough();
    stream.setEncoding("utf8").on("data", (chunk: string) => (log += chunk));
    server = await startTestServer({ logLevel: "trace", logStream: stream });
});

afterAll(async () => {
    await server?.close();
});

/** Sends as the owners and keeps the answer, to search every answer for the secret at the end. */
async function owners(method: string, path: string, options: { body?: unknown; rawBody?: string } = {}): Promise<HttpResponse> {
    const response = await http(server, method, path, { token: TOKENS.owners, ...options });
    answers.push(response);
    return response;
}

test("a sensitive variable's life, its refusals and malformed bodies leave neither token nor value in the logs or the error answers", async () => {
    const created = await owners("POST", "/vars", {
        body: variableDocument(WORKSPACES.appsLegacy, { key: "DB_PASSWORD", value: SECRET, category: "env", sensitive: true }),
    });
    expectStatus(created, 201);
    const id = created.body.data.id;
    expectStatus(await owners("PATCH", `/vars/${id}`, { body: variableUpdateDocument(id, { value: ROTATED }) }), 200);

    // Refused with the secret in the body: by a rule of the variable, by a bad category, by a taken key.
    expectValidation(await owners("PATCH", `/vars/${id}`, { body: variableUpdateDocument(id, { value: SECRET, sensitive: false }) }), "/data/attributes/sensitive");
    expectValidation(
        await owners("POST", "/vars", { body: variableDocument(WORKSPACES.appsLegacy, { key: "OTHER", value: SECRET, category: "nope", sensitive: true }) }),
        "/data/attributes/category",
    );
    expectValidation(
        await owners("POST", "/vars", { body: variableDocument(WORKSPACES.appsLegacy, { key: "DB_PASSWORD", value: SECRET, category: "env", sensitive: true }) }),
        "/data/attributes/key",
    );
    // A value of the wrong type, and JSON that does not parse around the secret.
    expectValidation(await owners("PATCH", `/vars/${id}`, { body: variableUpdateDocument(id, { value: [SECRET] }) }), "/data/attributes/value");
    expectErrors(await owners("PATCH", `/vars/${id}`, { rawBody: `{"data":{"type":"vars","attributes":{"value":"${SECRET}"` }), 400);

    // Tokens: a known one, an unknown one, and one in a malformed header.
    expectStatus(await clientFor(server, TOKENS.appsRead).get("/vars"), 200);
    expectErrors(await http(server, "GET", "/vars", { token: UNKNOWN_TOKEN }), 401);
    expectErrors(await http(server, "GET", "/vars", { headers: { Authorization: `Bearer ${TOKENS.platform} trailing` } }), 401);

    expect(log).toContain("incoming request");
    expect(log).toContain("request completed");
    for (const secret of [SECRET, ROTATED, TOKENS.owners, TOKENS.appsRead, TOKENS.platform, UNKNOWN_TOKEN]) {
        expect(log).not.toContain(secret);
    }
    for (const answer of answers) {
        expect(answer.text).not.toContain(SECRET);
        expect(answer.text).not.toContain(ROTATED);
    }
});
