/**
 * Rate limiting (a decision of the local service): `--rate-limit N` requests per token and second; over it, 429 with the
 * hosted service's body and `X-RateLimit-Limit` / `X-RateLimit-Reset` (seconds). `GET /ping` carries
 * `X-RateLimit-Limit`. With 0 (the default) there is no limit.
 *
 * No test depends on timing: with a limit of 2, the first two requests of a token always pass, and six
 * requests in a row cannot all fall into windows that allow them.
 */
import { startTestServer, type TestServer } from "../support/server";
import { TOKENS } from "../support/seed";
import { clientFor, expectStatus, projectDocument, type HttpResponse } from "./helpers";

const RATE_LIMIT_BODY_DETAIL = "You have exceeded the API's rate limit.";

let server: TestServer;

beforeAll(async () => {
    server = await startTestServer({ rateLimit: 2 });
});

afterAll(async () => {
    await server?.close();
});

/** Sends GETs with `token` until one is refused (at most `attempts`); returns every answer. */
async function untilLimited(token: string, attempts = 6): Promise<HttpResponse[]> {
    const responses: HttpResponse[] = [];
    for (let index = 0; index < attempts; index += 1) {
        const response = await clientFor(server, token).get("/organizations/acme/projects");
        responses.push(response);
        if (response.status === 429) break;
    }
    return responses;
}

test("over the limit: 429 with the hosted service's body, X-RateLimit-Limit and X-RateLimit-Reset in seconds", async () => {
    const responses = await untilLimited(TOKENS.owners);
    expectStatus(responses[0], 200);
    expectStatus(responses[1], 200);
    const limited = responses[responses.length - 1];
    expectStatus(limited, 429);
    expect(Array.isArray(limited.body?.errors)).toBe(true);
    expect(String(limited.body.errors[0].status)).toBe("429");
    expect(limited.body.errors[0].detail).toBe(RATE_LIMIT_BODY_DETAIL);
    expect(limited.headers["x-ratelimit-limit"]).toBe("2");
    const reset = Number(limited.headers["x-ratelimit-reset"]);
    expect(Number.isFinite(reset)).toBe(true);
    expect(reset).toBeGreaterThanOrEqual(0);
    expect(reset).toBeLessThanOrEqual(1);
});

test("--rate-limit 2 answers exactly 2 requests of a token a second: the third in the same second is refused", async () => {
    // Sent at the start of a second so that all three fall in one window; tried again (a second later, a new
    // window) if the machine was too slow for that.
    for (let attempt = 0; attempt < 5; attempt += 1) {
        await new Promise((resolve) => setTimeout(resolve, 1000 - (Date.now() % 1000) + 5));
        const second = Math.floor(Date.now() / 1000);
        const statuses: number[] = [];
        for (let index = 0; index < 3; index += 1) {
            statuses.push((await clientFor(server, TOKENS.appsMaintain).get("/organizations/acme/projects")).status);
        }
        if (Math.floor(Date.now() / 1000) !== second) continue;
        expect(statuses).toEqual([200, 200, 429]);
        return;
    }
    throw new Error("no attempt sent three requests within one second");
});

test("the limit is per token: another token is answered right after the first was refused", async () => {
    const first = await untilLimited(TOKENS.appsRead);
    expectStatus(first[first.length - 1], 429);
    expectStatus(await clientFor(server, TOKENS.appsAdmin).get("/organizations/acme/projects"), 200);
    expectStatus(await clientFor(server, TOKENS.appsAdmin).get("/organizations/acme/projects"), 200);
});

test("a refused write writes nothing", async () => {
    const writer = clientFor(server, TOKENS.platform);
    let refused: HttpResponse | undefined;
    const names: string[] = [];
    for (let index = 0; index < 6 && refused === undefined; index += 1) {
        const name = `Rate Limited ${index}`;
        const response = await writer.post("/organizations/acme/projects", projectDocument({ name }));
        if (response.status === 429) {
            refused = response;
            names.push(name);
        } else {
            expectStatus(response, 201);
        }
    }
    expect(refused).toBeDefined();
    // Read back with a token that has not been used in this file.
    const check = await clientFor(server, TOKENS.alice).get(
        `/organizations/acme/projects?filter%5Bnames%5D=${encodeURIComponent(names[0])}`,
    );
    expectStatus(check, 200);
    expect(check.body.data).toEqual([]);
});

test("GET /ping answers 204 with X-RateLimit-Limit", async () => {
    const response = await clientFor(server, TOKENS.appsWrite).get("/ping");
    expectStatus(response, 204);
    expect(response.headers["x-ratelimit-limit"]).toBe("2");
});

describe("with rate limiting off (the default)", () => {
    let unlimited: TestServer;

    beforeAll(async () => {
        unlimited = await startTestServer();
    });

    afterAll(async () => {
        await unlimited?.close();
    });

    test("twenty requests in a row with one token are all answered", async () => {
        const client = clientFor(unlimited, TOKENS.owners);
        for (let index = 0; index < 20; index += 1) {
            expectStatus(await client.get("/organizations/acme/projects"), 200);
        }
    });
});
