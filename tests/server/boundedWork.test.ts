/**
 * Bounded work per request (issue 6, section 3). One request under the size limit used to draw 116,053 error
 * objects (an 18 MB answer) from lone surrogates in an ignored `meta` member, or 30,000 from a list of bad
 * tags, and four such requests stalled every other client. Now:
 *
 * - an answer lists at most 20 error objects, then one that counts the rest and points at the first of them;
 * - a request may hold at most 1000 items in all the lists its schema reads; more is refused at the list
 *   before any item is validated;
 * - members the schema does not read (a top-level `meta`, an unknown attribute) are ignored, as JSON:API
 *   asks of a server, and never walked, so what they hold costs nothing;
 * - a body that is not valid UTF-8 is a 400, never text stored with U+FFFD in place of the bad bytes;
 * - with `--rate-limit N`, a client address gets N failed authentications a second (missing, malformed or
 *   unknown token), then 429 until the second ends, so token guessing is bounded.
 *
 * Answers are bounded by size and count, never by wall time. Raw bytes and client addresses (127.0.0.x, all
 * loopback on Linux) go through `node:http`, since `fetch` sends only valid UTF-8 from one address.
 */
import { request as httpRequest } from "node:http";
import { ADMIN_TOKEN, startTestServer, type TestServer } from "../support/server";
import { TOKENS, WORKSPACES } from "../support/seed";
import {
    UNAUTHORIZED_BODY,
    clientFor,
    expectErrors,
    expectNoCodeUnchanged,
    expectStatus,
    expectUnchanged,
    expectValidation,
    http,
    noCodeModuleDocument,
    noCodePaths,
    noCodeSnapshot,
    projectDocument,
    snapshot,
    variableDocument,
    withNoCodeServer,
    withSeededServer,
    type AcmeProjectIds,
    type Client,
    type HttpResponse,
    type NoCodeServer,
} from "./helpers";

let server: TestServer;
let ids: AcmeProjectIds;
let owners: Client;

withSeededServer((started) => ({ server, ids, owners } = started));

/** The first example: this many lone surrogates, just under the 1 MiB body limit. */
const LONE_SURROGATES = 116_053;

/** A `meta` member holding {@link LONE_SURROGATES} strings that are each a lone surrogate (`"\ud800"`). */
function loneSurrogateMeta(): string[] {
    return new Array<string>(LONE_SURROGATES).fill("\ud800");
}

/** `count` tag items, each with exactly one problem: a key that is a number. */
function badTags(count: number): unknown[] {
    return Array.from({ length: count }, () => ({ type: "tag-bindings", attributes: { key: 5 } }));
}

/** A project create whose tag list holds `tags`. */
function projectWithTags(name: string, tags: unknown[]): unknown {
    return { data: { type: "projects", attributes: { name }, relationships: { "tag-bindings": { data: tags } } } };
}

/** An answer small enough to be one screen of errors, whatever the request held. */
function expectSmall(response: HttpResponse): void {
    expect(response.text.length).toBeLessThan(10_000);
    expect(response.body.errors.length).toBeLessThanOrEqual(21);
}

/** Whether a project of that name exists in acme (read as the owners). */
async function projectNamed(name: string): Promise<boolean> {
    const response = await owners.get(`/organizations/acme/projects?filter%5Bnames%5D=${encodeURIComponent(name)}`);
    expectStatus(response, 200);
    return response.body.data.length > 0;
}

describe("at most 20 error objects an answer, then one that counts the rest", () => {
    test("100 tags with one problem each: 20 errors in document order, then one saying 80 more, at the 21st problem", async () => {
        const before = await snapshot(server);
        const response = await owners.post("/organizations/acme/projects", projectWithTags("Capped Errors", badTags(100)));
        const errors = expectValidation(response);
        expect(errors).toHaveLength(21);
        errors.slice(0, 20).forEach((error: any, index: number) => {
            expect(error.title).toBe("invalid attribute");
            expect(error.source.pointer).toBe(`/data/relationships/tag-bindings/data/${index}/attributes/key`);
        });
        const rest = errors[20];
        expect(rest.status).toBe("422");
        expect(rest.title).toBe("too many errors");
        expect(rest.detail).toMatch(/^80 more problems were found and not listed \(an answer lists at most 20\)/);
        expect(rest.source.pointer).toBe("/data/relationships/tag-bindings/data/20/attributes/key");
        await expectUnchanged(server, before);
    });

    test("exactly 20 problems are all listed, with no count", async () => {
        const errors = expectValidation(await owners.post("/organizations/acme/projects", projectWithTags("Twenty Errors", badTags(20))));
        expect(errors).toHaveLength(20);
        expect(errors.every((error: any) => error.title === "invalid attribute")).toBe(true);
    });

    test("21 problems: 20 listed, then '1 more problem was found'", async () => {
        const errors = expectValidation(await owners.post("/organizations/acme/projects", projectWithTags("Many Errors", badTags(21))));
        expect(errors).toHaveLength(21);
        expect(errors[20].detail).toMatch(/^1 more problem was found and not listed/);
        expect(errors[20].source.pointer).toBe("/data/relationships/tag-bindings/data/20/attributes/key");
    });

    test("text problems are capped too: 50 workspace ids with a lone surrogate answer 20 errors and '30 more', nothing moved", async () => {
        const before = await snapshot(server);
        const body = { data: Array.from({ length: 50 }, (_, index) => ({ type: "workspaces", id: `ws-${index}\ud800` })) };
        const errors = expectValidation(await owners.post(`/projects/${ids.Staging}/relationships/workspaces`, body));
        expect(errors).toHaveLength(21);
        expect(errors[0].source.pointer).toBe("/data/0/id");
        expect(errors[0].detail).toMatch(/Unicode/);
        expect(errors[20].detail).toMatch(/^30 more problems/);
        expect(errors[20].source.pointer).toBe("/data/20/id");
        await expectUnchanged(server, before);
    });
});

test("5000 unknown member names where a schema refuses unknown members: one error naming 10 and counting the rest, no rule added", async () => {
    // The fault-rule schema of `/_admin/faults` is the strict one: it names every unknown member.
    const rule: Record<string, unknown> = { method: "GET", path: "^/api/v2/projects/", status: 503 };
    for (let index = 0; index < 5000; index += 1) rule[`unknown-${index}`] = index;
    const response = await http(server, "POST", "/_admin/faults", { token: ADMIN_TOKEN, body: rule });
    const errors = expectValidation(response);
    expect(errors).toHaveLength(1);
    expect(errors[0].detail).toMatch(/unknown-0, unknown-1, .*unknown-9 and 4990 more$/);
    expectSmall(response);
    expectStatus(await owners.get(`/projects/${ids.Apps}`), 200);
});

describe("at most 1000 list items a request", () => {
    test("1000 bad tags are validated (20 errors and '980 more'); 1001 are refused at the list before any item is", async () => {
        const before = await snapshot(server);
        const at = expectValidation(await owners.post("/organizations/acme/projects", projectWithTags("Thousand Tags", badTags(1000))));
        expect(at).toHaveLength(21);
        expect(at[20].detail).toMatch(/^980 more problems/);

        const over = expectValidation(await owners.post("/organizations/acme/projects", projectWithTags("Thousand And One", badTags(1001))));
        expect(over).toHaveLength(1);
        expect(over[0].source.pointer).toBe("/data/relationships/tag-bindings/data");
        expect(over[0].detail).toMatch(/1001 items.*at most 1000/);
        await expectUnchanged(server, before);
    });

    test("a move of 1000 unknown workspaces is judged on its workspaces; 1001 is refused at /data, nothing moved", async () => {
        const before = await snapshot(server);
        const move = (count: number) => ({ data: Array.from({ length: count }, (_, index) => ({ type: "workspaces", id: `ws-unknown${index}` })) });
        const judged = await owners.post(`/projects/${ids.Staging}/relationships/workspaces`, move(1000));
        expect(judged.status).not.toBe(422);
        expectErrors(judged, judged.status);
        const over = expectValidation(await owners.post(`/projects/${ids.Staging}/relationships/workspaces`, move(1001)), "/data");
        expect(over).toHaveLength(1);
        await expectUnchanged(server, before);
    });

    test("the issue's 20,000 bad tags: one error at the list, a small answer, nothing written", async () => {
        const before = await snapshot(server);
        const response = await owners.post("/organizations/acme/projects", projectWithTags("Twenty Thousand Tags", badTags(20_000)));
        expectValidation(response, "/data/relationships/tag-bindings/data");
        expectSmall(response);
        await expectUnchanged(server, before);
    });
});

describe("members the schema does not read are ignored, never walked", () => {
    test(`the issue's ${LONE_SURROGATES} lone surrogates in meta: the project is created as the data says`, async () => {
        const response = await owners.post("/organizations/acme/projects", { ...(projectDocument({ name: "Meta Ignored" }) as object), meta: loneSurrogateMeta() });
        expectStatus(response, 201);
        expect(response.text.length).toBeLessThan(10_000);
        const shown = await owners.get(`/projects/${response.body.data.id}`);
        expectStatus(shown, 200);
        expect(shown.body.data.attributes.name).toBe("Meta Ignored");
        expectStatus(await owners.delete(`/projects/${response.body.data.id}`), 204);
    });

    test("the same meta beside a name too short: exactly one error, at the name, nothing written", async () => {
        const before = await snapshot(server);
        const response = await owners.post("/organizations/acme/projects", { ...(projectDocument({ name: "x" }) as object), meta: loneSurrogateMeta() });
        const errors = expectValidation(response, "/data/attributes/name");
        expect(errors).toHaveLength(1);
        expectSmall(response);
        await expectUnchanged(server, before);
    });

    test("lone surrogates in other members the service does not read are ignored; in a field it reads, refused", async () => {
        const unread = ["\ud800", { deep: [{ deeper: "\udfff" }] }];
        const ignored = await owners.post("/organizations/acme/projects", {
            ...(projectDocument({ name: "Unread Attribute" }) as object),
            links: { self: unread },
            jsonapi: { version: "1.0", meta: unread },
            "x-unread": unread,
        });
        expectStatus(ignored, 201);
        expect(await projectNamed("Unread Attribute")).toBe(true);
        expectStatus(await owners.delete(`/projects/${ignored.body.data.id}`), 204);

        const before = await snapshot(server);
        expectValidation(await owners.post("/organizations/acme/projects", projectDocument({ name: "Read Attribute", description: "\ud800" })), "/data/attributes/description");
        expect(await projectNamed("Read Attribute")).toBe(false);
        await expectUnchanged(server, before);
    });

    test("another client is answered while four of the issue's requests are served at once", async () => {
        const before = await snapshot(server);
        const heavy = [0, 1, 2, 3].map((index) =>
            index % 2 === 0
                ? owners.post("/organizations/acme/projects", { ...(projectDocument({ name: "x" }) as object), meta: loneSurrogateMeta() })
                : owners.post("/organizations/acme/projects", projectWithTags(`Heavy ${index}`, badTags(20_000))),
        );
        const other = clientFor(server, TOKENS.appsRead).get(`/projects/${ids.Apps}`);
        const [shown, ...answers] = await Promise.all([other, ...heavy]);
        expectStatus(shown, 200);
        expect(shown.body.data.attributes.name).toBe("Apps");
        for (const answer of answers) {
            expectValidation(answer);
            expectSmall(answer);
        }
        await expectUnchanged(server, before);
    });
});

describe("nested lists count together", () => {
    let started: NoCodeServer;
    withNoCodeServer((value) => (started = value));

    test("10 option sets of 99 options (1000 items) are judged on their content; of 100 options (1010 items) refused at the list that crosses", async () => {
        const sets = (options: number) =>
            Array.from({ length: 10 }, (_, index) => ({
                variableName: `var${index}`,
                variableType: "string",
                options: Array.from({ length: options }, (_, option) => `o${option}`),
            }));
        const client = started.owners;
        // The variables are not the module's, so the sets are refused, but for what they say, not for their number.
        const judged = await client.post(noCodePaths.modules("acme"), noCodeModuleDocument({ registryModuleId: started.registryModule(), variableOptions: sets(99) }));
        const judgedErrors = expectValidation(judged);
        expect(judgedErrors.some((error: any) => /list items/.test(error.detail))).toBe(false);

        const registryModuleId = started.registryModule();
        const before = await noCodeSnapshot(started.server, { registryModules: [registryModuleId] });
        const refused = await client.post(noCodePaths.modules("acme"), noCodeModuleDocument({ registryModuleId, variableOptions: sets(100) }));
        const errors = expectValidation(refused);
        expect(errors).toHaveLength(1);
        expect(errors[0].source.pointer).toMatch(/^\/data\/relationships\/variable-options\/data(\/\d+\/attributes\/options)?$/);
        expect(errors[0].detail).toMatch(/at most 1000/);
        await expectNoCodeUnchanged(started.server, before, { registryModules: [registryModuleId] });
    });
});

// ---------------------------------------------------------------------------------------------------------
// Raw bytes and client addresses

interface ByteResponse {
    status: number;
    headers: Record<string, string>;
    text: string;
    body: any;
}

/** One request with `body` sent byte for byte, from `localAddress` (default 127.0.0.1). */
function sendBytes(
    target: TestServer,
    method: string,
    path: string,
    options: { body?: Buffer; authorization?: string; localAddress?: string } = {},
): Promise<ByteResponse> {
    const url = new URL(`${target.apiUrl}${path}`);
    const headers: Record<string, string> = { accept: "application/vnd.api+json" };
    if (options.body) headers["content-type"] = "application/vnd.api+json";
    if (options.authorization !== undefined) headers.authorization = options.authorization;
    return new Promise((resolve, reject) => {
        const request = httpRequest(
            { host: url.hostname, port: url.port, path: url.pathname + url.search, method, headers, localAddress: options.localAddress, agent: false },
            (response) => {
                const chunks: Buffer[] = [];
                response.on("data", (chunk: Buffer) => chunks.push(chunk));
                response.on("end", () => {
                    const text = Buffer.concat(chunks).toString("utf8");
                    let body: any;
                    try {
                        body = text.length > 0 ? JSON.parse(text) : undefined;
                    } catch {
                        body = undefined;
                    }
                    const responseHeaders: Record<string, string> = {};
                    for (const [name, value] of Object.entries(response.headers)) responseHeaders[name] = String(value);
                    resolve({ status: response.statusCode ?? 0, headers: responseHeaders, text, body });
                });
            },
        );
        request.on("error", reject);
        request.end(options.body);
    });
}

/** As {@link HttpResponse}, for the shared assertions. */
function asHttp(response: ByteResponse, method: string, path: string): HttpResponse {
    return { method, url: path, ...response };
}

describe("a body that is not valid UTF-8 is refused, never stored altered", () => {
    const BAD_BYTES: [string, number[]][] = [
        ["0xC3 0x28 (a lead byte without its continuation)", [0xc3, 0x28]],
        ["0xFF (never in UTF-8)", [0xff]],
        ["0xED 0xA0 0x80 (a surrogate, encoded)", [0xed, 0xa0, 0x80]],
        ["0xC0 0xAF (an overlong form)", [0xc0, 0xaf]],
        ["0xE2 0x82 (a sequence cut short)", [0xe2, 0x82]],
        ["0xF4 0x90 0x80 0x80 (above U+10FFFF)", [0xf4, 0x90, 0x80, 0x80]],
    ];

    /** A JSON body whose text is `before`, the bad bytes, then `after`; and the offset of the bad bytes. */
    function withBytes(before: string, bytes: number[], after: string): { body: Buffer; offset: number } {
        const head = Buffer.from(before, "utf8");
        return { body: Buffer.concat([head, Buffer.from(bytes), Buffer.from(after, "utf8")]), offset: head.length };
    }

    test.each(BAD_BYTES)("%s in a project name: 400 naming UTF-8 and the byte, nothing stored", async (_label, bytes) => {
        const before = await snapshot(server);
        const { body, offset } = withBytes('{"data":{"type":"projects","attributes":{"name":"Bad', bytes, 'Bytes","description":"d"}}}');
        const response = await sendBytes(server, "POST", "/organizations/acme/projects", { body, authorization: `Bearer ${TOKENS.owners}` });
        const errors = expectErrors(asHttp(response, "POST", "/organizations/acme/projects"), 400);
        expect(response.headers["content-type"]).toMatch(/^application\/vnd\.api\+json/);
        expect(errors[0].detail).toContain("not valid UTF-8");
        expect(errors[0].detail).toContain(`byte ${offset}`);
        expect(await projectNamed("Bad\ufffdBytes")).toBe(false);
        expect(await projectNamed("Bad\ufffd(Bytes")).toBe(false);
        await expectUnchanged(server, before);
    });

    test.each(BAD_BYTES)("%s in a variable value: 400, no variable stored", async (_label, bytes) => {
        const before = await snapshot(server);
        const { body } = withBytes(
            `{"data":{"type":"vars","attributes":{"key":"BAD_UTF8","value":"v`,
            bytes,
            `","category":"env"},"relationships":{"workspace":{"data":{"type":"workspaces","id":"${WORKSPACES.appsLegacy}"}}}}}`,
        );
        const response = await sendBytes(server, "POST", "/vars", { body, authorization: `Bearer ${TOKENS.owners}` });
        expectErrors(asHttp(response, "POST", "/vars"), 400);
        const listed = await owners.get("/vars");
        expectStatus(listed, 200);
        expect(listed.body.data.some((variable: any) => variable.attributes.key === "BAD_UTF8")).toBe(false);
        await expectUnchanged(server, before);
    });

    test("bad bytes in an ignored member are refused too: the body as a whole is not JSON text", async () => {
        const before = await snapshot(server);
        const { body } = withBytes('{"data":{"type":"projects","attributes":{"name":"Bad Meta"}},"meta":"', [0xff], '"}');
        const response = await sendBytes(server, "POST", "/organizations/acme/projects", { body, authorization: `Bearer ${TOKENS.owners}` });
        expectErrors(asHttp(response, "POST", "/organizations/acme/projects"), 400);
        expect(await projectNamed("Bad Meta")).toBe(false);
        await expectUnchanged(server, before);
    });

    test("the same places with valid multi-byte UTF-8 are stored as sent", async () => {
        const description = "Caf\u00e9 \u4e2d \u{1F600}";
        const response = await sendBytes(server, "POST", "/organizations/acme/projects", {
            body: Buffer.from(JSON.stringify(projectDocument({ name: "Multibyte", description })), "utf8"),
            authorization: `Bearer ${TOKENS.owners}`,
        });
        expect(response.status).toBe(201);
        const shown = await owners.get(`/projects/${response.body.data.id}`);
        expect(shown.body.data.attributes.description).toBe(description);
        expectStatus(await owners.delete(`/projects/${response.body.data.id}`), 204);

        const variable = await sendBytes(server, "POST", "/vars", {
            body: Buffer.from(JSON.stringify(variableDocument(WORKSPACES.appsLegacy, { key: "GOOD_UTF8", value: "\u00e9\u4e2d", category: "env" })), "utf8"),
            authorization: `Bearer ${TOKENS.owners}`,
        });
        expect(variable.status).toBe(201);
        const listed = await owners.get("/vars");
        expect(listed.body.data.find((item: any) => item.id === variable.body.data.id).attributes.value).toBe("\u00e9\u4e2d");
        expectStatus(await owners.delete(`/vars/${variable.body.data.id}`), 204);
    });
});

describe("with --rate-limit, failed authentication is limited per client address", () => {
    const LIMIT = 5;
    const RATE_LIMIT_BODY = {
        errors: [{ status: "429", title: "too many requests", code: "rate_limited", detail: "You have exceeded the API's rate limit." }],
    };
    let limited: TestServer;

    beforeAll(async () => {
        limited = await startTestServer({ rateLimit: LIMIT });
    });

    afterAll(async () => {
        await limited?.close();
    });

    let guesses = 0;
    /** A token that no one has: a new one every call, as a guesser sends. */
    const guess = (): string => `Bearer guessed-token-${++guesses}`;

    /**
     * Sends failing requests from `address` until one is refused with 429 (at most 20: only if 20 requests
     * took more than three seconds could none be). Returns every answer.
     */
    async function failUntilLimited(address: string, authorization: () => string | undefined): Promise<ByteResponse[]> {
        const responses: ByteResponse[] = [];
        for (let index = 0; index < 20; index += 1) {
            const response = await sendBytes(limited, "GET", "/organizations/acme/projects", { authorization: authorization(), localAddress: address });
            responses.push(response);
            if (response.status === 429) break;
        }
        return responses;
    }

    const failures: [string, string, () => string | undefined][] = [
        ["unknown tokens", "127.0.0.2", guess],
        ["no token", "127.0.0.3", () => undefined],
        ["a malformed Authorization header", "127.0.0.4", () => "Basic dXNlcjpwYXNz"],
    ];
    test("--rate-limit 5 allows exactly 5 failed authentications a second: the sixth in the same second is refused", async () => {
        // Sent at the start of a second so that all six fall in one window; tried again on a fresh address if
        // the machine was too slow for that.
        for (let attempt = 0; attempt < 5; attempt += 1) {
            const address = `127.0.0.${20 + attempt}`;
            await new Promise((resolve) => setTimeout(resolve, 1000 - (Date.now() % 1000) + 5));
            const second = Math.floor(Date.now() / 1000);
            const statuses: number[] = [];
            for (let index = 0; index < 6; index += 1) {
                statuses.push((await sendBytes(limited, "GET", "/organizations/acme/projects", { authorization: guess(), localAddress: address })).status);
            }
            if (Math.floor(Date.now() / 1000) !== second) continue;
            expect(statuses).toEqual([401, 401, 401, 401, 401, 429]);
            return;
        }
        throw new Error("no attempt sent six requests within one second");
    });

    test.each(failures)("%s: the first 5 answer 401, then 429 with the hosted body and X-RateLimit headers", async (_label, address, authorization) => {
        const responses = await failUntilLimited(address, authorization);
        // A window of one second holds 5 failures: the sixth of a window is the first that can be refused.
        expect(responses.length).toBeGreaterThanOrEqual(LIMIT + 1);
        for (const response of responses.slice(0, LIMIT)) {
            expect(response.status).toBe(401);
            expect(response.body).toEqual(UNAUTHORIZED_BODY);
        }
        const refused = responses[responses.length - 1]!;
        expect(refused.status).toBe(429);
        expect(refused.body).toEqual(RATE_LIMIT_BODY);
        expect(refused.headers["content-type"]).toMatch(/^application\/vnd\.api\+json/);
        expect(refused.headers["x-ratelimit-limit"]).toBe(String(LIMIT));
        expect(refused.headers["x-ratelimit-remaining"]).toBe("0");
        const reset = Number(refused.headers["x-ratelimit-reset"]);
        expect(Number.isInteger(reset)).toBe(true);
        expect(reset).toBeGreaterThanOrEqual(0);
        expect(reset).toBeLessThanOrEqual(1);
    });

    test("a valid token from another address is answered while a guessing address is refused", async () => {
        const responses = await failUntilLimited("127.0.0.5", guess);
        expect(responses[responses.length - 1]!.status).toBe(429);
        const other = await sendBytes(limited, "GET", `/projects/${(await limitedProjectId())}`, {
            authorization: `Bearer ${TOKENS.appsAdmin}`,
            localAddress: "127.0.0.6",
        });
        expect(other.status).toBe(200);
        expect(other.body.data.attributes.name).toBe("Apps");
    });

    test("a refused address learns nothing from its guesses: a valid token from it is refused too, and answered after the second", async () => {
        // The valid token must meet the same window as the 429 before it; when a new window started in
        // between it is answered, and the next guess is a 401 again: then try once more.
        let refusedValid: ByteResponse | undefined;
        for (let attempt = 0; attempt < 5 && refusedValid === undefined; attempt += 1) {
            const responses = await failUntilLimited("127.0.0.7", guess);
            expect(responses[responses.length - 1]!.status).toBe(429);
            const valid = await sendBytes(limited, "GET", "/organizations/acme/projects", { authorization: `Bearer ${TOKENS.alice}`, localAddress: "127.0.0.7" });
            if (valid.status === 429) refusedValid = valid;
            else {
                expect(valid.status).toBe(200);
                const next = await sendBytes(limited, "GET", "/organizations/acme/projects", { authorization: guess(), localAddress: "127.0.0.7" });
                expect(next.status).toBe(401);
            }
        }
        expect(refusedValid?.body).toEqual(RATE_LIMIT_BODY);
        // Bounded: once the second is over, the address is answered again (polled, not timed).
        let answered: ByteResponse | undefined;
        for (let poll = 0; poll < 40 && answered?.status !== 200; poll += 1) {
            await new Promise((resolve) => setTimeout(resolve, 100));
            answered = await sendBytes(limited, "GET", `/projects/${await limitedProjectId()}`, { authorization: `Bearer ${TOKENS.appsAdmin}`, localAddress: "127.0.0.7" });
        }
        expect(answered?.status).toBe(200);
    });

    /** The Apps project's id on the rate-limited service, read once from a fresh address. */
    let appsId: string | undefined;
    async function limitedProjectId(): Promise<string> {
        if (appsId === undefined) {
            const list = await sendBytes(limited, "GET", "/organizations/acme/projects?filter%5Bnames%5D=Apps", {
                authorization: `Bearer ${TOKENS.owners}`,
                localAddress: "127.0.0.8",
            });
            expect(list.status).toBe(200);
            appsId = list.body.data[0].id as string;
        }
        return appsId;
    }

    test("without --rate-limit, failed authentication is not limited: 20 guesses in a row all answer 401", async () => {
        for (let index = 0; index < 20; index += 1) {
            const response = await sendBytes(server, "GET", "/organizations/acme/projects", { authorization: guess(), localAddress: "127.0.0.9" });
            expect(response.status).toBe(401);
            expect(response.body).toEqual(UNAUTHORIZED_BODY);
        }
    });
});
