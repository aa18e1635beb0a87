/**
 * The HTTP layer under hostile or broken clients, over real sockets (`node:net`, raw bytes): every error
 * answer a JSON:API error document (the parser's refusals, a missing Host, an unmet Expect, CONNECT, the
 * request timeout); the request timeout and the connection cap; absolute links never built from the Host
 * header; and the CLI (`dist/server/main.js`, built by `npm run build`) stopping on SIGTERM/SIGINT within
 * its grace period whatever its clients do, after finishing the request in progress.
 *
 * No test asserts how long anything took: the bounds are the tests' own timeouts.
 */
import { connect, type Socket } from "node:net";
import { existsSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import Database from "better-sqlite3";
import { startServer } from "../../server/app";
import { codeForStatus } from "../../server/errors";
import { TOKENS } from "../support/seed";
import { startTestServer, type TestServer } from "../support/server";
import { EXAMPLE_SEED, exitCode, killStartedClis, startCli } from "../support/cli";
import { expectStatus, initiateUpgrade, moduleWithWorkspace, withNoCodeServer, type NoCodeServer } from "./helpers";

// ---------------------------------------------------------------------------------------------------------
// Raw sockets

/** A connection of the test's own, with everything received so far. */
interface RawConnection {
    socket: Socket;
    received(): string;
    /** Settles when the socket has closed (for whatever reason: errors are part of what is observed). */
    closed: Promise<void>;
}

/** Opens a TCP connection to the service (resolves once connected). */
function open(port: number): Promise<RawConnection> {
    return new Promise((resolveOpen, rejectOpen) => {
        const socket = connect(port, "127.0.0.1");
        let text = "";
        socket.setEncoding("latin1");
        socket.on("data", (chunk: string) => (text += chunk));
        const closed = new Promise<void>((done) => socket.once("close", () => done()));
        socket.on("error", () => undefined);
        socket.once("connect", () => resolveOpen({ socket, received: () => text, closed }));
        socket.once("error", rejectOpen);
    });
}

/** Whether a TCP connection to `port` is refused (nothing listens there any more). */
function refused(port: number): Promise<boolean> {
    return new Promise((done) => {
        const socket = connect(port, "127.0.0.1");
        socket.once("connect", () => {
            socket.destroy();
            done(false);
        });
        socket.once("error", (error: NodeJS.ErrnoException) => done(error.code === "ECONNREFUSED"));
    });
}

/** One HTTP response as received. */
interface RawResponse {
    status: number;
    /** Lower-case names. */
    headers: Record<string, string>;
    text: string;
    /** The parsed body when it is JSON. */
    body: any;
}

/** The complete responses at the start of `text` (interim 1xx ones included), by their Content-Length. */
function responsesIn(text: string): RawResponse[] {
    const found: RawResponse[] = [];
    let rest = Buffer.from(text, "latin1");
    for (;;) {
        const end = rest.indexOf("\r\n\r\n");
        if (end === -1) return found;
        const [statusLine, ...lines] = rest.subarray(0, end).toString("latin1").split("\r\n");
        const status = Number(/^HTTP\/1\.[01] (\d{3})/.exec(statusLine!)?.[1]);
        const headers: Record<string, string> = {};
        for (const line of lines) {
            const colon = line.indexOf(":");
            headers[line.slice(0, colon).trim().toLowerCase()] = line.slice(colon + 1).trim();
        }
        const length = status < 200 || status === 204 ? 0 : Number(headers["content-length"] ?? NaN);
        if (Number.isNaN(length) || rest.length < end + 4 + length) return found;
        const body = rest.subarray(end + 4, end + 4 + length).toString("utf8");
        let json: any;
        try {
            json = body === "" ? undefined : JSON.parse(body);
        } catch {
            json = undefined;
        }
        found.push({ status, headers, text: body, body: json });
        rest = rest.subarray(end + 4 + length);
    }
}

/** The final (non-1xx) responses received on `connection` so far. */
function finalResponses(connection: RawConnection): RawResponse[] {
    return responsesIn(connection.received()).filter((response) => response.status >= 200);
}

/** Waits for `count` final responses on the connection; fails if it closes before. */
async function responses(connection: RawConnection, count = 1): Promise<RawResponse[]> {
    for (;;) {
        const complete = finalResponses(connection);
        if (complete.length >= count) return complete.slice(0, count);
        const more = await Promise.race([
            new Promise<boolean>((done) => connection.socket.once("data", () => done(true))),
            connection.closed.then(() => false),
        ]);
        if (!more && finalResponses(connection).length < count) {
            throw new Error(`connection closed after ${JSON.stringify(connection.received())}`);
        }
    }
}

/** Waits until the service has answered `Expect: 100-continue`: the request was handed to the application. */
async function continued(connection: RawConnection): Promise<void> {
    while (!connection.received().startsWith("HTTP/1.1 100 Continue\r\n\r\n")) {
        await new Promise<void>((done) => connection.socket.once("data", () => done()));
    }
}

/** Sends `bytes` on a new connection and answers everything received until the service closes it. */
async function exchange(port: number, bytes: string): Promise<{ text: string; responses: RawResponse[] }> {
    const connection = await open(port);
    connection.socket.write(bytes, "latin1");
    await connection.closed;
    return { text: connection.received(), responses: finalResponses(connection) };
}

/**
 * The one answer of an exchange the service ends: a JSON:API error document of `status` (`{ errors: [one
 * object with status, title and detail] }`, the JSON:API media type), and then the connection closed.
 */
async function expectClosingError(port: number, bytes: string, status: number): Promise<RawResponse> {
    const { text, responses: answers } = await exchange(port, bytes);
    expect({ answers: answers.length, text: answers.length === 1 ? "" : text }).toEqual({ answers: 1, text: "" });
    return expectJsonApiError(answers[0]!, status);
}

/** Asserts `response` is a JSON:API error document of `status`, with `code` (by default the status's general one). */
function expectJsonApiError(response: RawResponse, status: number, code: string = codeForStatus(status)): RawResponse {
    expect({ status: response.status, body: response.body }).toEqual({
        status,
        body: { errors: [{ status: String(status), title: expect.stringMatching(/\S/), code, detail: expect.stringMatching(/\S/) }] },
    });
    expect(response.headers["content-type"]).toMatch(/^application\/vnd\.api\+json/);
    return response;
}

/** A request's bytes: request line, `Host: wos.test` unless `headers` has one (or null to leave it out). */
function request(method: string, path: string, headers: Record<string, string | null> = {}, body = ""): string {
    const all: Record<string, string | null> = { host: "wos.test", connection: "close", ...headers };
    if (body !== "" && all["content-length"] === undefined) all["content-length"] = String(Buffer.byteLength(body));
    const lines = Object.entries(all).flatMap(([name, value]) => (value === null ? [] : [`${name}: ${value}\r\n`]));
    return `${method} ${path} HTTP/1.1\r\n${lines.join("")}\r\n${body}`;
}

const PROJECTS = "/api/v2/organizations/acme/projects";

function projectBody(name: string): string {
    return JSON.stringify({ data: { type: "projects", attributes: { name } } });
}

function portOf(server: { url: string }): number {
    return Number(new URL(server.url).port);
}

// ---------------------------------------------------------------------------------------------------------

describe("errors of the HTTP layer are JSON:API error documents", () => {
    let server: TestServer;
    let port: number;
    beforeAll(async () => {
        server = await startTestServer();
        port = portOf(server);
    });
    afterAll(() => server.close());

    test("a method the HTTP parser does not know: 405 with Allow, and the connection closed", async () => {
        const response = await expectClosingError(port, request("FROBNICATE", "/api/v2/ping"), 405);
        expect(response.headers.allow).toBe("GET, HEAD, POST, PATCH, DELETE");
    });

    test("CONNECT (no route is a proxy): 405 with Allow, where Node would drop the connection in silence", async () => {
        const response = await expectClosingError(port, request("CONNECT", "wos.test:443", { host: "wos.test:443" }), 405);
        expect(response.headers.allow).toBe("GET, HEAD, POST, PATCH, DELETE");
    });

    test("a method the parser knows but no route has (PROPFIND, PUT, OPTIONS): 405, Allow the methods of the path", async () => {
        for (const method of ["PROPFIND", "PUT", "OPTIONS"]) {
            const { responses: answers } = await exchange(port, request(method, "/api/v2/ping"));
            expect(answers).toHaveLength(1);
            expect(expectJsonApiError(answers[0]!, 405, "method_not_allowed").body.errors[0].detail).toBe(`/api/v2/ping answers GET, HEAD, not ${method}`);
            expect(answers[0]!.headers.allow).toBe("GET, HEAD");
        }
    });

    test("QUERY with a body and no content type: 405 before the body is read, not a refusal of its content type", async () => {
        const { responses: answers } = await exchange(port, request("QUERY", `${PROJECTS}?page%5Bsize%5D=1`, {}, "{}"));
        expect(answers).toHaveLength(1);
        expectJsonApiError(answers[0]!, 405, "method_not_allowed");
        expect(answers[0]!.headers.allow).toBe("GET, HEAD, POST");
    });

    test("a method of the service that the path does not answer: 405 with the path's methods; a path no route has: 404", async () => {
        for (const [method, path, allow] of [
            ["DELETE", PROJECTS, "GET, HEAD, POST"],
            ["GET", "/api/v2/vars/var-anything00000000", "PATCH, DELETE"],
            ["POST", "/api/v2/projects/prj-anything00000000", "GET, HEAD, PATCH, DELETE"],
            ["DELETE", "/api/v2/projects/prj-anything00000000/relationships/tag-bindings", "GET, HEAD, POST, PATCH"],
        ] as const) {
            const { responses: answers } = await exchange(port, request(method, path));
            expect({ method, path, status: answers[0]!.status, allow: answers[0]!.headers.allow }).toEqual({ method, path, status: 405, allow });
        }
        const { responses: answers } = await exchange(port, request("PUT", "/api/v2/no/such/path"));
        expect(answers[0]!.headers.allow).toBe("GET, HEAD, POST, PATCH, DELETE");
        const missing = await exchange(port, request("GET", "/api/v2/no/such/path"));
        expect(expectJsonApiError(missing.responses[0]!, 404, "route_not_found").body.errors[0].detail).toBe("No route for GET /api/v2/no/such/path");
    });

    test("a malformed request line: 400", async () => {
        await expectClosingError(port, "GARBAGE\r\n\r\n", 400);
        await expectClosingError(port, "GET /api/v2/ping HTTP/9.Z\r\nHost: wos.test\r\n\r\n", 400);
        await expectClosingError(port, "GET /api/v2/ping\u0001 HTTP/1.1\r\nHost: wos.test\r\n\r\n", 400);
    });

    test("a malformed header field: 400", async () => {
        await expectClosingError(port, "GET /api/v2/ping HTTP/1.1\r\nHost: wos.test\r\nBad Header: x\r\n\r\n", 400);
        await expectClosingError(port, "GET /api/v2/ping HTTP/1.1\r\nHost: wos.test\r\nno-colon-here\r\n\r\n", 400);
    });

    test("conflicting body framing (Content-Length and Transfer-Encoding): 400", async () => {
        const bytes = "POST /api/v2/ping HTTP/1.1\r\nHost: wos.test\r\nContent-Length: 3\r\nTransfer-Encoding: chunked\r\n\r\n0\r\n\r\n";
        await expectClosingError(port, bytes, 400);
    });

    test("header fields over the limit (16 KiB): 431", async () => {
        await expectClosingError(port, request("GET", "/api/v2/ping", { "x-padding": "a".repeat(20 * 1024) }), 431);
    });

    test("HTTP/1.1 without Host: 400 naming the header, before authentication and with nothing written", async () => {
        const response = await expectClosingError(
            port,
            request("POST", PROJECTS, { host: null, authorization: `Bearer ${TOKENS.owners}`, "content-type": "application/vnd.api+json" }, projectBody("No Host")),
            400,
        );
        expect(response.body.errors[0].detail).toContain("Host");
        const names = await server.request("GET", "/organizations/acme/projects?filter%5Bnames%5D=No%20Host", { token: TOKENS.owners });
        expect(names.body.data).toEqual([]);
    });

    test("HTTP/1.0 without Host is still served (Host is an HTTP/1.1 requirement)", async () => {
        const { responses: answers } = await exchange(port, "GET /api/v2/ping HTTP/1.0\r\n\r\n");
        expect(answers.map((answer) => answer.status)).toEqual([204]);
    });

    test("an Expect other than 100-continue: 417", async () => {
        const connection = await open(port);
        connection.socket.write(request("POST", "/api/v2/ping", { expect: "something-else", "content-length": "0" }));
        const [answer] = await responses(connection);
        expectJsonApiError(answer!, 417);
        connection.socket.destroy();
    });
});

describe("request timeout", () => {
    const TIMEOUT_MS = 300;
    let server: TestServer;
    let port: number;
    beforeAll(async () => {
        server = await startTestServer({ requestTimeoutMs: TIMEOUT_MS });
        port = portOf(server);
    });
    afterAll(() => server.close());

    /** Opens a connection, sends `bytes` and never anything more: the service must answer 408 and close. */
    async function expectTimedOut(bytes: string): Promise<void> {
        const connection = await open(port);
        if (bytes !== "") connection.socket.write(bytes);
        await connection.closed;
        const answers = finalResponses(connection);
        expect(answers).toHaveLength(1);
        expect(expectJsonApiError(answers[0]!, 408).body.errors[0].detail).toContain(`${TIMEOUT_MS} ms`);
    }

    test("a connection that sends nothing: 408, closed", async () => {
        await expectTimedOut("");
    });

    test("half a header block: 408, closed", async () => {
        await expectTimedOut("GET /api/v2/ping HTTP/1.1\r\nHost: wos.test\r\nX-Slow: ");
    });

    test("part of a body: 408, closed, and nothing written", async () => {
        const body = projectBody("Slow Body");
        const head = request("POST", PROJECTS, { authorization: `Bearer ${TOKENS.owners}`, "content-type": "application/vnd.api+json", "content-length": String(body.length) });
        await expectTimedOut(head + body.slice(0, body.length - 3));
        const names = await server.request("GET", "/organizations/acme/projects?filter%5Bnames%5D=Slow%20Body", { token: TOKENS.owners });
        expect(names.body.data).toEqual([]);
    });

    test("a request sent in time on the same service is answered", async () => {
        const { responses: answers } = await exchange(port, request("GET", "/api/v2/ping"));
        expect(answers.map((answer) => answer.status)).toEqual([204]);
    });
});

describe("connection cap", () => {
    let server: Awaited<ReturnType<typeof startServer>>;
    let port: number;
    beforeAll(async () => {
        server = await startServer({ dataPath: ":memory:", logLevel: "silent", maxConnections: 2 });
        port = portOf(server);
    });
    afterAll(() => server.close());

    /** A kept-alive connection the service has answered a ping on (so it is surely counted). */
    async function held(): Promise<RawConnection> {
        const connection = await open(port);
        connection.socket.write(request("GET", "/api/v2/ping", { connection: "keep-alive" }));
        const [answer] = await responses(connection);
        expect(answer!.status).toBe(204);
        return connection;
    }

    test("a connection beyond the cap is closed unanswered; once one closes, a new one is served", async () => {
        const first = await held();
        const second = await held();

        const third = await open(port);
        third.socket.write(request("GET", "/api/v2/ping"));
        await third.closed;
        expect(third.received()).toBe("");

        first.socket.destroy();
        await first.closed;
        // The service learns of the close asynchronously: new connections are tried until one is served.
        let served: RawResponse[] = [];
        while (served.length === 0) served = (await exchange(port, request("GET", "/api/v2/ping"))).responses;
        expect(served.map((answer) => answer.status)).toEqual([204]);
        second.socket.destroy();
    });

    test("refuses a cap, a request timeout or a grace period that is not a whole number in range, naming it", async () => {
        await expect(startServer({ dataPath: ":memory:", logLevel: "silent", maxConnections: 0 })).rejects.toThrow("maxConnections must be an integer of at least 1, got 0");
        await expect(startServer({ dataPath: ":memory:", logLevel: "silent", requestTimeoutMs: 1.5 })).rejects.toThrow("requestTimeoutMs must be an integer of at least 1, got 1.5");
        await expect(startServer({ dataPath: ":memory:", logLevel: "silent", shutdownGraceMs: -1 })).rejects.toThrow("shutdownGraceMs must be an integer of at least 0, got -1");
    });
});

describe("absolute links never come from the Host header", () => {
    let started: NoCodeServer;
    withNoCodeServer((value) => (started = value), { planStepMs: 3_600_000 });

    test("a list asked for with Host: evil.example.com links to the listening address", async () => {
        const port = portOf(started.server);
        const { responses: answers } = await exchange(port, request("GET", `${PROJECTS}?page%5Bsize%5D=1`, { host: "evil.example.com", authorization: `Bearer ${TOKENS.owners}` }));
        expect(answers.map((answer) => answer.status)).toEqual([200]);
        const links = answers[0]!.body.links;
        expect(links.self).toBe(`${started.server.url}${PROJECTS}?page%5Bnumber%5D=1&page%5Bsize%5D=1`);
        expect(links.next).toBe(`${started.server.url}${PROJECTS}?page%5Bnumber%5D=2&page%5Bsize%5D=1`);
        expect(answers[0]!.text).not.toContain("evil.example.com");
    });

    test("an upgrade's plan-url asked for with Host: evil.example.com is on the listening address", async () => {
        const { moduleId, workspace } = await moduleWithWorkspace(started);
        const path = `/api/v2/no-code-modules/${moduleId}/workspaces/${workspace.id}/upgrade`;
        const body = JSON.stringify({ data: { type: "workspaces" } });
        const { responses: answers } = await exchange(
            portOf(started.server),
            request("POST", path, { host: "evil.example.com", authorization: `Bearer ${TOKENS.owners}`, "content-type": "application/vnd.api+json" }, body),
        );
        expect(answers.map((answer) => answer.status)).toEqual([200]);
        const run = answers[0]!.body.data;
        expect(run.attributes["plan-url"]).toBe(`${started.server.url}/app/acme/workspaces/${workspace.attributes.name}/runs/${run.id}`);
    });
});

describe("absolute links on publicUrl", () => {
    let started: NoCodeServer;
    withNoCodeServer((value) => (started = value), { planStepMs: 3_600_000, publicUrl: "https://wos.example.test/prefix/" });

    test("list links and plan-url are on the public URL, its path prefix kept", async () => {
        const list = await started.owners.get("/organizations/acme/projects?page%5Bsize%5D=1");
        expectStatus(list, 200);
        expect(list.body.links.self).toBe("https://wos.example.test/prefix/api/v2/organizations/acme/projects?page%5Bnumber%5D=1&page%5Bsize%5D=1");
        const { moduleId, workspace } = await moduleWithWorkspace(started);
        const run = await initiateUpgrade(started.server, moduleId, workspace.id);
        expect(run.attributes["plan-url"]).toBe(`https://wos.example.test/prefix/app/acme/workspaces/${workspace.attributes.name}/runs/${run.id}`);
    });

    test("refuses a publicUrl that is not an http(s) base URL, naming the option", async () => {
        for (const publicUrl of ["ftp://wos.example.test", "https://user:pw@wos.example.test", "https://wos.example.test/#x", "not a url"]) {
            await expect(startServer({ dataPath: ":memory:", logLevel: "silent", publicUrl })).rejects.toThrow(
                `publicUrl must be an absolute http:// or https:// URL without credentials, query or fragment, got '${publicUrl}'`,
            );
        }
    });
});

// ---------------------------------------------------------------------------------------------------------

describe("the CLI stops on SIGTERM/SIGINT whatever its clients do", () => {
    let workDir: string;
    beforeAll(() => {
        workDir = mkdtempSync(join(tmpdir(), "wos-connections-"));
    });
    afterAll(() => {
        killStartedClis();
        rmSync(workDir, { recursive: true, force: true });
    });

    const createHeaders = (body: string): Record<string, string | null> => ({
        authorization: "Bearer team-owners-secret",
        "content-type": "application/vnd.api+json",
        "content-length": String(body.length),
        expect: "100-continue",
        connection: "keep-alive",
    });

    test(
        "SIGTERM: the request in progress finishes, silent, half-sent and unread connections are cut, the database closes, exit 0",
        async () => {
            const data = join(workDir, "sigterm", "wos.db");
            const server = await startCli(["--port", "0", "--data", data, "--seed", EXAMPLE_SEED]);
            const port = server.port;

            // A large answer to read back many times over, for a client that never reads.
            const big = await fetch(`${server.url}/api/v2/vars`, {
                method: "POST",
                headers: { authorization: "Bearer team-owners-secret", "content-type": "application/vnd.api+json" },
                body: JSON.stringify({
                    data: {
                        type: "vars",
                        attributes: { key: "BIG", value: "x".repeat(256 * 1024), category: "env" },
                        relationships: { workspace: { data: { type: "workspaces", id: "ws-0000000000000001" } } },
                    },
                }),
            });
            expect(big.status).toBe(201);

            const silent = await open(port);
            const halfHeaders = await open(port);
            halfHeaders.socket.write("GET /api/v2/ping HTTP/1.1\r\nHost: wos.test\r\nX-Half: ");
            const stalledBody = projectBody("Never Finished");
            const stalled = await open(port);
            stalled.socket.write(request("POST", PROJECTS, createHeaders(stalledBody)) + stalledBody.slice(0, 10));
            await continued(stalled);
            const slowReader = await open(port);
            slowReader.socket.pause();
            const read = request("GET", "/api/v2/vars?filter%5Borganization%5D%5Bname%5D=acme&filter%5Bworkspace%5D%5Bname%5D=legacy-app", {
                authorization: "Bearer team-owners-secret",
                connection: "keep-alive",
            });
            slowReader.socket.write(read.repeat(80));
            const gracefulBody = projectBody("Graceful");
            const inProgress = await open(port);
            inProgress.socket.write(request("POST", PROJECTS, createHeaders(gracefulBody)) + gracefulBody.slice(0, 10));
            await continued(inProgress);

            server.child.kill("SIGTERM");
            // Stopped listening while the request in progress is still being received...
            while (!(await refused(port))) await new Promise((resolve) => setTimeout(resolve, 20));
            // ...which still completes and is answered, with the connection ending after it; a request
            // pipelined behind it is new work, refused during the shutdown (its project never written).
            const pipelinedBody = projectBody("Pipelined");
            const pipelined = request("POST", PROJECTS, { ...createHeaders(pipelinedBody), expect: null }, pipelinedBody);
            inProgress.socket.write(gracefulBody.slice(10) + pipelined);
            const [answer] = await responses(inProgress);
            expect({ status: answer!.status, name: answer!.body?.data?.attributes?.name, connection: answer!.headers.connection }).toEqual({
                status: 201,
                name: "Graceful",
                connection: "close",
            });

            expect(await exitCode(server)).toBe(0);
            // Every connection was closed by the service: none of them ever closes itself. (The reader reads
            // again only now, to see the end of its connection.)
            slowReader.socket.resume();
            await Promise.all([silent.closed, halfHeaders.closed, stalled.closed, slowReader.closed, inProgress.closed]);
            expect(finalResponses(stalled)).toEqual([]);
            for (const refusal of finalResponses(inProgress).slice(1)) expectJsonApiError(refusal, 503);
            expect(await refused(port)).toBe(true);

            // The database was closed (SQLite removes the write-ahead log when its last connection closes),
            // with the answered write in it and without the unfinished one.
            expect(existsSync(`${data}-wal`)).toBe(false);
            const db = new Database(data, { readonly: true });
            try {
                const names = (db.prepare("SELECT name FROM projects WHERE organization = 'acme' ORDER BY name").all() as { name: string }[]).map((row) => row.name);
                expect(names).toEqual(["Apps", "Default Project", "Graceful"]);
            } finally {
                db.close();
            }
        },
        30_000,
    );

    test(
        "SIGINT with --shutdown-grace-ms 0: a request whose body never comes is cut at once, exit 0",
        async () => {
            const server = await startCli(["--port", "0", "--data", ":memory:", "--seed", EXAMPLE_SEED, "--shutdown-grace-ms", "0"]);
            const body = projectBody("Never Finished");
            const stalled = await open(server.port);
            stalled.socket.write(request("POST", PROJECTS, createHeaders(body)) + body.slice(0, 10));
            await continued(stalled);
            server.child.kill("SIGINT");
            expect(await exitCode(server)).toBe(0);
            await stalled.closed;
            expect(await refused(server.port)).toBe(true);
        },
        30_000,
    );

    test("--request-timeout-ms and --max-connections reach the service", async () => {
        const server = await startCli(["--port", "0", "--data", ":memory:", "--seed", EXAMPLE_SEED, "--request-timeout-ms", "300", "--max-connections", "1"]);
        const silent = await open(server.port);
        // The one connection allowed is taken: another is closed unanswered.
        const beyond = await open(server.port);
        beyond.socket.write(request("GET", "/api/v2/ping"));
        await beyond.closed;
        expect(beyond.received()).toBe("");
        // The silent one times out with a 408 document.
        await silent.closed;
        const answers = finalResponses(silent);
        expect(answers).toHaveLength(1);
        expectJsonApiError(answers[0]!, 408);
        server.child.kill("SIGTERM");
        expect(await exitCode(server)).toBe(0);
    });
});
