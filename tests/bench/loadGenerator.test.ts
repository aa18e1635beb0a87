/**
 * The throughput area's load (`bench/loadGenerator.ts`, `alternatingLoad` in `bench/support.ts`): a figure
 * is only worth something if every counted request was answered with the expected status, carried the
 * token, and the sides took their turns. Against small HTTP servers on 127.0.0.1, with the generator run in
 * this process (the bench forks it; the built script is not needed here). No timing is asserted.
 */
import * as http from "node:http";
import { runWindow } from "../../bench/loadGenerator";
import { alternatingLoad, type LoadGenerator } from "../../bench/support";

interface CountingServer {
    baseUrl: string;
    /** Requests received, by `authorization` header. */
    byAuthorization: Map<string, number>;
    close(): Promise<void>;
}

/** An HTTP server that answers every request with `status` and counts the requests by their token. */
async function countingServer(status: number): Promise<CountingServer> {
    const byAuthorization = new Map<string, number>();
    const server = http.createServer((request, response) => {
        const authorization = request.headers.authorization ?? "(none)";
        byAuthorization.set(authorization, (byAuthorization.get(authorization) ?? 0) + 1);
        response.writeHead(status, { "content-type": "application/vnd.api+json" }).end('{"data":[]}');
    });
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    const { port } = server.address() as { port: number };
    return {
        baseUrl: `http://127.0.0.1:${port}/api/v2`,
        byAuthorization,
        close: () =>
            new Promise<void>((resolve) => {
                server.closeAllConnections();
                server.close(() => resolve());
            }),
    };
}

/** The generator of the bench without its process: the same windows, run here. */
const inProcessGenerator: LoadGenerator = { run: runWindow, stop: async () => undefined };

const HEADERS = { accept: "application/vnd.api+json", authorization: "Bearer bench-token" };

describe("runWindow", () => {
    test("counts the answers, and sends the headers it was given with every request", async () => {
        const server = await countingServer(200);
        try {
            const figures = await runWindow({
                baseUrl: server.baseUrl,
                path: "/projects/prj-1",
                headers: HEADERS,
                connections: 2,
                warmupMs: 50,
                durationMs: 100,
                expectedStatus: 200,
            });
            expect(figures.requests).toBeGreaterThan(0);
            expect(figures.answered).toBeGreaterThanOrEqual(figures.requests);
            expect(figures.seconds).toBeGreaterThan(0);
            expect(figures.unexpected).toBe(0);
            expect(figures.errors).toBe(0);
            expect([...server.byAuthorization.keys()]).toEqual(["Bearer bench-token"]);
            expect(server.byAuthorization.get("Bearer bench-token")).toBeGreaterThanOrEqual(figures.answered);
        } finally {
            await server.close();
        }
    });

    test("reports answers with another status than the expected one", async () => {
        const server = await countingServer(404);
        try {
            const figures = await runWindow({
                baseUrl: server.baseUrl,
                path: "/projects/prj-1",
                headers: HEADERS,
                connections: 1,
                warmupMs: 0,
                durationMs: 50,
                expectedStatus: 200,
            });
            expect(figures.unexpected).toBe(figures.answered);
            expect(figures.unexpected).toBeGreaterThan(0);
            expect(figures.firstUnexpectedStatus).toBe(404);
        } finally {
            await server.close();
        }
    });
    test("rejects a window autocannon refuses, without leaving timers behind", async () => {
        await expect(
            runWindow({
                baseUrl: "http://127.0.0.1:1/api/v2",
                path: "/projects/prj-1",
                headers: HEADERS,
                connections: 0,
                warmupMs: 10,
                durationMs: 10,
                expectedStatus: 200,
            }),
        ).rejects.toThrow("connections");
    });
});

describe("alternatingLoad", () => {
    test("gives each side a figure for every window, and loads a side with as many generators as it asks for", async () => {
        const one = await countingServer(200);
        const two = await countingServer(200);
        const countingGenerator = (): LoadGenerator & { windows: string[] } => {
            const windows: string[] = [];
            return {
                windows,
                run: (window) => {
                    windows.push(window.baseUrl);
                    return runWindow(window);
                },
                stop: async () => undefined,
            };
        };
        const generators = [countingGenerator(), countingGenerator()];
        try {
            const [first, second] = await alternatingLoad({
                sides: [
                    { baseUrl: one.baseUrl, pid: process.pid, generators: 1, connections: 1 },
                    { baseUrl: two.baseUrl, pid: process.pid, generators: 2, connections: 1 },
                ],
                generators,
                path: "/projects/prj-1",
                headers: HEADERS,
                // Windows of 200 ms: one of 30 ms counted no answer at all on a loaded CI machine.
                durationMs: 600,
                windows: 3,
                warmupMs: 10,
                windowWarmupMs: 10,
            });
            for (const figures of [first!, second!]) {
                expect(figures.windows).toHaveLength(3);
                expect(figures.windows.every((rate) => rate > 0)).toBe(true);
                expect(figures.windows).toContain(figures.requestsPerSecond);
            }
            // A warm-up and three windows of each side; the second side's in both generators at once.
            expect(generators[0]!.windows.filter((url) => url === one.baseUrl)).toHaveLength(4);
            expect(generators[0]!.windows.filter((url) => url === two.baseUrl)).toHaveLength(4);
            expect(generators[1]!.windows).toEqual([two.baseUrl, two.baseUrl, two.baseUrl, two.baseUrl]);
        } finally {
            await one.close();
            await two.close();
        }
    });

    test("throws when a side answers another status than 200", async () => {
        const server = await countingServer(401);
        try {
            await expect(
                alternatingLoad({
                    sides: [{ baseUrl: server.baseUrl, pid: process.pid, generators: 1, connections: 1 }],
                    generators: [inProcessGenerator],
                    path: "/projects/prj-1",
                    headers: HEADERS,
                    durationMs: 30,
                    windows: 1,
                    warmupMs: 10,
                    windowWarmupMs: 0,
                }),
            ).rejects.toThrow("GET /projects/prj-1 answered 401");
        } finally {
            await server.close();
        }
    });

    test("refuses a side that asks for more generators than it was given", async () => {
        await expect(
            alternatingLoad({
                sides: [{ baseUrl: "http://127.0.0.1:1/api/v2", pid: process.pid, generators: 2, connections: 1 }],
                generators: [inProcessGenerator],
                path: "/projects/prj-1",
                headers: HEADERS,
                durationMs: 30,
                windows: 1,
                warmupMs: 0,
                windowWarmupMs: 0,
            }),
        ).rejects.toThrow("fewer generators than a side uses");
    });
});
