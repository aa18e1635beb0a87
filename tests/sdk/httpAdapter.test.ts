/**
 * The client's HTTP exchange (`sdk/httpAdapter.ts`: Node's own `http.request` under axios' interceptors),
 * against a stand-in server each test scripts: keep-alive connections reused across calls, a redirect
 * answered and never followed (the token stays home), a compressed answer decoded, a stalled answer timed
 * out (before and after its headers, and one that trickles in past the deadline) and retried where the
 * policy allows, and a cut answer reported. The
 * retry policy against the real service is in `retries.test.ts`.
 */
import * as http from "node:http";
import * as zlib from "node:zlib";
import type { AddressInfo, Socket } from "node:net";
import { WosClient, WosConnectionError, WosError } from "../../sdk";

type Handler = (request: http.IncomingMessage, response: http.ServerResponse) => void;

let server: http.Server;
let address: string;
let handler: Handler;
let connections = 0;
let requests: { url: string; headers: http.IncomingHttpHeaders }[] = [];
const sockets = new Set<Socket>();

const TOKEN = "adapter-test-token-0123456789";
const EMPTY_LIST = JSON.stringify({ data: [] });

beforeAll(async () => {
    server = http.createServer((request, response) => {
        requests.push({ url: request.url ?? "", headers: request.headers });
        request.resume();
        request.on("end", () => handler(request, response));
    });
    server.on("connection", (socket) => {
        connections++;
        sockets.add(socket);
        socket.on("close", () => sockets.delete(socket));
    });
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    address = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

afterAll(async () => {
    for (const socket of sockets) socket.destroy();
    await new Promise((resolve) => server.close(resolve));
});

beforeEach(() => {
    connections = 0;
    requests = [];
    handler = (_request, response) => {
        response.writeHead(200, { "content-type": "application/vnd.api+json" });
        response.end(EMPTY_LIST);
    };
});

function client(options: { timeoutMs?: number; maxRetries?: number } = {}): WosClient {
    return new WosClient({ address, token: TOKEN, maxRetryDelayMs: 1, ...options });
}

async function failure(promise: Promise<unknown>): Promise<WosError> {
    const outcome = await promise.then(
        () => undefined,
        (error: unknown) => error,
    );
    if (!WosError.isInstance(outcome)) throw new Error(`expected a WosError, got ${String(outcome)}`);
    return outcome;
}

it("reuses one keep-alive connection for the calls of a client, one after another", async () => {
    const wos = client();
    for (let call = 0; call < 5; call++) await wos.projects.listTagBindings(`prj-${call}`);
    expect(requests).toHaveLength(5);
    expect(connections).toBe(1);
    expect(requests.every((request) => request.headers.connection === "keep-alive")).toBe(true);
});

it("answers a redirect as the service gave it and never follows it, so the token goes nowhere else", async () => {
    let elsewhere = 0;
    const other = http.createServer((_request, response) => {
        elsewhere++;
        response.end(EMPTY_LIST);
    });
    await new Promise<void>((resolve) => other.listen(0, "127.0.0.1", resolve));
    try {
        handler = (_request, response) => {
            response.writeHead(302, { location: `http://127.0.0.1:${(other.address() as AddressInfo).port}/api/v2/projects/prj-1/tag-bindings` });
            response.end();
        };
        const error = await failure(client().projects.listTagBindings("prj-1"));
        expect(error.status).toBe(302);
        expect(elsewhere).toBe(0);
        expect(requests).toHaveLength(1);
    } finally {
        await new Promise((resolve) => other.close(resolve));
    }
});

it("asks for no compression, and decodes an answer compressed anyway", async () => {
    const body = JSON.stringify({ data: [{ type: "tag-bindings", attributes: { key: "team", value: "web" } }] });
    for (const [encoding, encode] of [
        ["gzip", zlib.gzipSync],
        ["deflate", zlib.deflateSync],
        ["br", zlib.brotliCompressSync],
    ] as const) {
        handler = (_request, response) => {
            response.writeHead(200, { "content-type": "application/vnd.api+json", "content-encoding": encoding });
            response.end(encode(Buffer.from(body)));
        };
        expect(await client().projects.listTagBindings("prj-1")).toEqual([{ key: "team", value: "web" }]);
    }
    expect(requests.every((request) => request.headers["accept-encoding"] === undefined)).toBe(true);
});

it("times out an answer whose headers never come, and repeats the GET as the policy allows", async () => {
    handler = () => undefined; // never answers
    const error = await failure(client({ timeoutMs: 200, maxRetries: 2 }).projects.listTagBindings("prj-1"));
    expect(WosConnectionError.isInstance(error)).toBe(true);
    expect(error.code).toBe("ETIMEDOUT");
    expect(error.message).toMatch(/timed out/);
    expect(requests).toHaveLength(3);
});

it("times out an answer that stalls after its headers, and never repeats a creating POST", async () => {
    handler = (_request, response) => {
        response.writeHead(201, { "content-type": "application/vnd.api+json" });
        response.write('{"data":');
    };
    const error = await failure(client({ timeoutMs: 200, maxRetries: 3 }).projects.create("acme", { name: "Stalled" }));
    expect(WosConnectionError.isInstance(error)).toBe(true);
    expect(error.code).toBe("ETIMEDOUT");
    expect(requests).toHaveLength(1);
});

it("times out an answer that keeps trickling in past timeoutMs: one deadline for the attempt, not the socket's idle time", async () => {
    const timers: NodeJS.Timeout[] = [];
    handler = (_request, response) => {
        response.writeHead(200, { "content-type": "application/vnd.api+json" });
        // A byte every 40 ms, never idle for the 200 ms of the timeout, whole only after 800 ms.
        const body = EMPTY_LIST.padEnd(20, " ");
        for (let i = 0; i < body.length; i++) {
            timers.push(setTimeout(() => (i === body.length - 1 ? response.end(body[i]) : response.write(body[i])), 40 * (i + 1)));
        }
    };
    try {
        // Counted as idle time, the answer would arrive whole after 800 ms and the list come back empty.
        const error = await failure(client({ timeoutMs: 200, maxRetries: 0 }).projects.listTagBindings("prj-1"));
        expect(WosConnectionError.isInstance(error)).toBe(true);
        expect(error.code).toBe("ETIMEDOUT");
        expect(error.message).toMatch(/timed out: timeout of 200ms exceeded/);
    } finally {
        for (const timer of timers) clearTimeout(timer);
    }
});

it("reports an answer cut off in its body as a connection failure, without the token", async () => {
    handler = (_request, response) => {
        response.writeHead(200, { "content-type": "application/vnd.api+json", "content-length": "1000" });
        response.write('{"data":[');
        setTimeout(() => response.socket?.destroy(), 20);
    };
    const error = await failure(client({ maxRetries: 0 }).projects.listTagBindings("prj-1"));
    expect(WosConnectionError.isInstance(error)).toBe(true);
    expect(JSON.stringify(error)).not.toContain(TOKEN);
    expect(error.message).not.toContain(TOKEN);
});

it("reports a connection closed before any answer with its code, and repeats a GET through it", async () => {
    let calls = 0;
    handler = (request, response) => {
        calls++;
        if (calls === 1) {
            request.socket.destroy();
            return;
        }
        response.writeHead(200, { "content-type": "application/vnd.api+json" });
        response.end(EMPTY_LIST);
    };
    expect(await client({ maxRetries: 1 }).projects.listTagBindings("prj-1")).toEqual([]);
    expect(calls).toBe(2);
    calls = 0;
    const error = await failure(client({ maxRetries: 0 }).projects.listTagBindings("prj-1"));
    expect(error.code).toBe("ECONNRESET");
});
