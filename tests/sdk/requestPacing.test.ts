/**
 * The pacing of requests to the service's rate limit (`sdk/requestPacing.ts`, issue 29, point 3), against the
 * local service's real limit (`rateLimit`, per token and second, the hosted service's 429 body and headers),
 * each request counted where it arrives by a recording proxy in front of the service: many requests at once
 * get no 429, whatever client of the address and token sends them; the first request goes alone until the
 * limit is known; a 429 caused elsewhere pauses every request of the pair; a service without a limit is not
 * paced. Counts, never times: no assertion here reads a clock.
 */
import { WosClient } from "../../sdk";
import { pacerFor } from "../../sdk/requestPacing";
import { startRecorder, type Recorder } from "../support/recordingProxy";
import { TOKENS } from "../support/seed";
import { startTestServer, type TestServer } from "../support/server";

// A limit of 10 a second and tens of requests: seconds per test.
jest.setTimeout(60_000);

/** The local service with a limit of `limit` requests a second per token, behind a recording proxy. */
async function limitedService(limit: number): Promise<{ server: TestServer; recorder: Recorder; close(): Promise<void> }> {
    const server = await startTestServer({ rateLimit: limit });
    const recorder = await startRecorder(server.url);
    return {
        server,
        recorder,
        close: async () => {
            await recorder.close();
            await server.close();
        },
    };
}

const statuses = (recorder: Recorder) => recorder.requests.map((request) => request.status);
const refused = (recorder: Recorder) => statuses(recorder).filter((status) => status === 429).length;

describe("requests paced to the service's rate limit", () => {
    test("40 requests at once against a limit of 10 a second all succeed, and the service refuses none", async () => {
        const service = await limitedService(10);
        try {
            const client = new WosClient({ address: service.recorder.url, token: TOKENS.owners });
            const pages = await Promise.all(Array.from({ length: 40 }, () => client.projects.list("acme", { pageSize: 1 })));
            expect(pages.every((page) => page.items.length === 1)).toBe(true);
            expect(service.recorder.requests).toHaveLength(40);
            expect(refused(service.recorder)).toBe(0);
        } finally {
            await service.close();
        }
    });

    test("two clients of the same address and token share one pace: 20 requests each at once, none refused", async () => {
        const service = await limitedService(10);
        try {
            const clients = [1, 2].map(() => new WosClient({ address: service.recorder.url, token: TOKENS.owners }));
            await Promise.all(clients.flatMap((client) => Array.from({ length: 20 }, () => client.projects.list("acme", { pageSize: 1 }))));
            expect(service.recorder.requests).toHaveLength(40);
            expect(refused(service.recorder)).toBe(0);
            expect(pacerFor(`${service.recorder.url}/api/v2`, TOKENS.owners)).toBe(pacerFor(`${service.recorder.url}/api/v2`, TOKENS.owners));
            expect(pacerFor(`${service.recorder.url}/api/v2`, TOKENS.owners)).not.toBe(pacerFor(`${service.recorder.url}/api/v2`, TOKENS.platform));
        } finally {
            await service.close();
        }
    });

    test("until the limit is known, the first request goes alone: the second arrives after the first one's answer", async () => {
        const service = await limitedService(10);
        try {
            const client = new WosClient({ address: service.recorder.url, token: TOKENS.platform });
            await Promise.all(Array.from({ length: 5 }, () => client.projects.list("acme", { pageSize: 1 })));
            const [first, second] = service.recorder.requests;
            expect(second!.arrivedAt).toBeGreaterThan(first!.answeredAt!);
            expect(pacerFor(`${service.recorder.url}/api/v2`, TOKENS.platform).limit).toBe(10);
        } finally {
            await service.close();
        }
    });

    test("a window used up by another process on the same token: one request is refused, the rest wait for the reset, and all succeed", async () => {
        const service = await limitedService(10);
        try {
            // Another process's requests, outside this one's pacer, use up the window.
            for (let sent = 0; sent < 10; sent++) await service.server.request("GET", "/ping", { token: TOKENS.appsRead });
            const client = new WosClient({ address: service.recorder.url, token: TOKENS.appsRead });
            const pages = await Promise.all(Array.from({ length: 8 }, () => client.projects.list("acme", { pageSize: 1 })));
            expect(pages).toHaveLength(8);
            expect(refused(service.recorder)).toBe(1);
            expect(statuses(service.recorder)).toHaveLength(9);
        } finally {
            await service.close();
        }
    });

    test("a service without a limit is not paced: requests overlap once its first answer said none", async () => {
        const server = await startTestServer();
        const recorder = await startRecorder(server.url);
        try {
            const client = new WosClient({ address: recorder.url, token: TOKENS.owners });
            await Promise.all(Array.from({ length: 20 }, () => client.projects.list("acme", { pageSize: 1 })));
            expect(pacerFor(`${recorder.url}/api/v2`, TOKENS.owners).limit).toBe(0);
            const [, ...rest] = recorder.requests;
            // Some request arrived while another was still unanswered.
            expect(rest.some((request) => rest.some((other) => other !== request && other.arrivedAt < request.arrivedAt && other.answeredAt! > request.arrivedAt))).toBe(true);
        } finally {
            await recorder.close();
            await server.close();
        }
    });
});
