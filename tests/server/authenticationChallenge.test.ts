/**
 * A 401 says why over raw HTTP, without echoing the token: the body stays exactly the local service's
 * (`{"errors":[{"status":"401","title":"unauthorized"}]}`) for every failure, and the
 * reason is in `WWW-Authenticate` (RFC 6750 section 3): `Bearer realm="wos"` alone when no token was sent
 * (section 3.1), else `error="invalid_token"` with a description of "not a bearer token" or "unknown token".
 */
import * as http from "node:http";
import { startTestServer, type TestServer } from "../support/server";
import { TOKENS } from "../support/seed";

const NO_TOKEN = 'Bearer realm="wos"';
const NOT_BEARER =
    'Bearer realm="wos", error="invalid_token", error_description="the Authorization header is not a bearer token: send Authorization: Bearer <token>"';
const UNKNOWN_TOKEN = 'Bearer realm="wos", error="invalid_token", error_description="the bearer token is not known to this service"';
const BODY = '{"errors":[{"status":"401","title":"unauthorized"}]}';

/** A token no seed holds, made of characters that would be easy to find in any echo. */
const SECRET = "zq-guessed-secret-7f3a9c";

let server: TestServer;

beforeAll(async () => {
    server = await startTestServer();
});

afterAll(async () => {
    await server.close();
});

/** One request with exactly the `Authorization` header given (none when `undefined`): status, raw headers, body text. */
function send(method: string, path: string, authorization: string | undefined): Promise<{ status: number; headers: string[]; body: string }> {
    return new Promise((resolve, reject) => {
        const headers: http.OutgoingHttpHeaders = { accept: "application/vnd.api+json" };
        if (authorization !== undefined) headers.authorization = authorization;
        const request = http.request(`${server.apiUrl}${path}`, { method, headers }, (response) => {
            let body = "";
            response.setEncoding("utf8").on("data", (chunk: string) => (body += chunk));
            response.on("end", () => resolve({ status: response.statusCode!, headers: response.rawHeaders, body }));
        });
        request.on("error", reject);
        request.end();
    });
}

/** The values of one header in raw headers (there must be one `WWW-Authenticate` only). */
function headerValues(raw: string[], name: string): string[] {
    const values: string[] = [];
    for (let index = 0; index < raw.length; index += 2) if (raw[index]!.toLowerCase() === name) values.push(raw[index + 1]!);
    return values;
}

const CASES: [label: string, authorization: string | undefined, challenge: string][] = [
    ["no Authorization header", undefined, NO_TOKEN],
    ["an empty Authorization header", "", NO_TOKEN],
    ["the Bearer scheme with nothing after it (Bearer $TOKEN with the variable unset)", "Bearer ", NO_TOKEN],
    ["a Basic scheme", `Basic ${Buffer.from(`user:${SECRET}`).toString("base64")}`, NOT_BEARER],
    ["a token without a scheme", SECRET, NOT_BEARER],
    ["a known token without a scheme", TOKENS.owners, NOT_BEARER],
    ["a token under another scheme", `Token ${SECRET}`, NOT_BEARER],
    ["a token with trailing junk", `Bearer ${SECRET} extra`, NOT_BEARER],
    ["an unknown bearer token", `Bearer ${SECRET}`, UNKNOWN_TOKEN],
    ["an unknown bearer token, scheme in lower case", `bearer ${SECRET}`, UNKNOWN_TOKEN],
    ["the admin token (not an API token)", "Bearer admin-token", UNKNOWN_TOKEN],
];

describe("401 with WWW-Authenticate", () => {
    test.each(CASES)("%s: the exact body, and the reason in WWW-Authenticate only", async (_label, authorization, challenge) => {
        for (const [method, path] of [
            ["GET", "/organizations/acme/projects"],
            ["POST", "/organizations/acme/projects"],
            ["DELETE", "/projects/prj-doesnotexist0000"],
        ] as const) {
            const response = await send(method, path, authorization);
            expect({ method, status: response.status, body: response.body }).toEqual({ method, status: 401, body: BODY });
            expect(headerValues(response.headers, "www-authenticate")).toEqual([challenge]);
        }
    });

    test.each(CASES)("%s: no part of the answer echoes what was sent", async (_label, authorization) => {
        const response = await send("GET", "/organizations/acme/projects", authorization);
        const answer = [response.body, ...response.headers].join("\n");
        expect(answer).not.toContain(SECRET);
        expect(answer).not.toContain(TOKENS.owners);
        expect(answer).not.toContain("admin-token");
        expect(answer).not.toContain(Buffer.from(`user:${SECRET}`).toString("base64"));
    });

    test("a known bearer token is answered, with no challenge", async () => {
        const response = await send("GET", "/organizations/acme/projects", `Bearer ${TOKENS.owners}`);
        expect(response.status).toBe(200);
        expect(headerValues(response.headers, "www-authenticate")).toEqual([]);
    });

    test("ping needs no token and answers no challenge", async () => {
        const response = await send("GET", "/ping", undefined);
        expect(response.status).toBe(204);
        expect(headerValues(response.headers, "www-authenticate")).toEqual([]);
    });

    test("the challenge is a valid RFC 6750 header: quoted values without quotes or backslashes inside", async () => {
        for (const challenge of [NOT_BEARER, UNKNOWN_TOKEN]) {
            const params = /^Bearer realm="wos", error="invalid_token", error_description="([^"\\]*)"$/.exec(challenge);
            expect(params).not.toBeNull();
            // error_description = 1*( %x20-21 / %x23-5B / %x5D-7E )
            expect(params![1]).toMatch(/^[\x20-\x21\x23-\x5B\x5D-\x7E]+$/);
        }
    });
});
