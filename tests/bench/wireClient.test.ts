/**
 * The benchmark's wire-level client (`bench/support.ts` `WireClient`), which times the list figures of issue 6:
 * a latency is only worth something if the client waits for the whole answer, keeps the connection's framing
 * in step from one answer to the next, and refuses what it cannot frame instead of timing half an answer.
 * Against the real service on 127.0.0.1 and against a socket server that sends answers in pieces.
 */
import * as net from "node:net";
import { WireClient, wireLatencies } from "../../bench/support";
import { startTestServer, type TestServer } from "../support/server";
import { TOKENS } from "../support/seed";

/** A TCP server on 127.0.0.1 whose `answer` decides what a connection gets for each request's bytes. */
async function socketServer(answer: (socket: net.Socket, request: string) => void): Promise<{ url: string; close(): Promise<void> }> {
    const sockets = new Set<net.Socket>();
    const server = net.createServer((socket) => {
        sockets.add(socket);
        socket.on("close", () => sockets.delete(socket));
        socket.on("data", (data: Buffer) => answer(socket, data.toString("latin1")));
    });
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    const { port } = server.address() as net.AddressInfo;
    return {
        url: `http://127.0.0.1:${port}/api/v2`,
        close: () =>
            new Promise<void>((resolve) => {
                for (const socket of sockets) socket.destroy();
                server.close(() => resolve());
            }),
    };
}

/**
 * Runs `work` with a {@link WireClient} (token `token`) connected to a {@link socketServer} that answers
 * with `answer`; closes both afterwards.
 */
async function withSocketServer(
    answer: (socket: net.Socket, request: string) => void,
    token: string,
    work: (client: WireClient, url: string) => Promise<void>,
): Promise<void> {
    const server = await socketServer(answer);
    const client = await WireClient.connect(server.url, token);
    try {
        await work(client, server.url);
    } finally {
        client.close();
        await server.close();
    }
}

/** Whether `promise` has settled once pending I/O callbacks have run. */
async function settled(promise: Promise<unknown>): Promise<boolean> {
    let done = false;
    promise.then(
        () => (done = true),
        () => (done = true),
    );
    await new Promise((resolve) => setImmediate(resolve));
    await new Promise((resolve) => setImmediate(resolve));
    return done;
}

describe("against the service", () => {
    let server: TestServer;
    let client: WireClient;
    beforeAll(async () => {
        server = await startTestServer();
        client = await WireClient.connect(server.apiUrl, TOKENS.owners);
    });
    afterAll(async () => {
        client.close();
        await server.close();
    });

    test("answers each status in turn on one connection, the whole of every answer read", async () => {
        expect(await client.get("/organizations/acme/projects?page%5Bsize%5D=100")).toBe(200);
        expect(await client.get("/projects/prj-doesnotexist00000")).toBe(404);
        expect(await client.get("/organizations/acme/projects?q=App&sort=name")).toBe(200);
    });

    test("sends the token it was given: a client without a valid one is refused", async () => {
        const stranger = await WireClient.connect(server.apiUrl, "not-a-token");
        try {
            expect(await stranger.get("/organizations/acme/projects")).toBe(401);
        } finally {
            stranger.close();
        }
    });

    test("wireLatencies gives one sorted figure a request and refuses an answer other than 200", async () => {
        const values = await wireLatencies(client, "/organizations/acme/projects", 5, 2);
        expect(values).toHaveLength(5);
        expect([...values].sort((a, b) => a - b)).toEqual(values);
        expect(values.every((value) => value > 0)).toBe(true);
        await expect(wireLatencies(client, "/projects/prj-doesnotexist00000", 1, 0)).rejects.toThrow("GET /projects/prj-doesnotexist00000 answered 404");
    });
});

describe("framing", () => {
    test("resolves only when the last byte of the body has arrived", async () => {
        let finish: (() => void) | undefined;
        await withSocketServer(
            (socket) => {
                socket.write("HTTP/1.1 200 OK\r\nContent-Length: 10\r\n");
                setTimeout(() => socket.write("\r\n01234"), 5);
                finish = () => socket.write("56789");
            },
            "token",
            async (client) => {
                const answer = client.get("/organizations/acme/projects");
                await new Promise((resolve) => setTimeout(resolve, 30));
                expect(await settled(answer)).toBe(false);
                finish!();
                expect(await answer).toBe(200);
            },
        );
    });

    test("writes the request line, host, media type and token the service expects, once for each request", async () => {
        const requests: string[] = [];
        await withSocketServer(
            (socket, request) => {
                requests.push(request);
                socket.write("HTTP/1.1 204 No Content\r\ncontent-length: 0\r\n\r\n");
            },
            "secret-token",
            async (client, url) => {
                expect(await client.get("/projects/prj-1?x=1")).toBe(204);
                expect(await client.get("/projects/prj-1?x=1")).toBe(204);
                const host = new URL(url).host;
                const expected = `GET /api/v2/projects/prj-1?x=1 HTTP/1.1\r\nHost: ${host}\r\nAccept: application/vnd.api+json\r\nAuthorization: Bearer secret-token\r\n\r\n`;
                expect(requests).toEqual([expected, expected]);
            },
        );
    });

    test.each([
        {
            what: "an answer it cannot frame (no content-length), naming why",
            answer: (socket: net.Socket) => socket.write("HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n5\r\nhello\r\n0\r\n\r\n"),
            error: "an answer without content-length (the wire client reads no other framing): HTTP/1.1 200 OK",
        },
        {
            what: "an answer cut short by the connection closing",
            answer: (socket: net.Socket) => socket.end("HTTP/1.1 200 OK\r\nContent-Length: 100\r\n\r\nonly part"),
            error: "the connection closed before the answer was complete",
        },
        {
            what: "bytes after an answer that no request asked for",
            answer: (socket: net.Socket) => socket.write("HTTP/1.1 200 OK\r\nContent-Length: 2\r\n\r\nokHTTP/1.1 200 OK\r\n"),
            error: "17 bytes after the answer, which no request asked for",
        },
    ])("refuses $what", async ({ answer, error }) => {
        await withSocketServer(
            (socket) => void answer(socket),
            "token",
            async (client) => {
                await expect(client.get("/x")).rejects.toThrow(error);
            },
        );
    });

    test("sends one request at a time", async () => {
        await withSocketServer(
            () => undefined,
            "token",
            async (client) => {
                const first = client.get("/x");
                first.catch(() => undefined);
                await expect(client.get("/y")).rejects.toThrow("WireClient sends one request at a time");
            },
        );
    });
});
