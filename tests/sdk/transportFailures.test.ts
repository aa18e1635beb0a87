/**
 * How `sdk/transport.ts` turns what comes back (or does not) into a {@link WosError}: the class and the
 * message of each kind of answer, timeouts and refused connections, answers a gateway in front of the
 * service could give (empty 401s, no request id, bodies that are not JSON or do not match the schema),
 * requests that are not repeated or not resolved after a failed repeat, and that no secret reaches a message:
 * the token, nor the password of the environment's proxy. The local service (with its fault injection) where
 * it can answer so; a stand-in HTTP server only for answers the local service never gives.
 */
import * as http from "node:http";
import * as net from "node:net";
import {
    normalizeAddress,
    WosArgumentError,
    WosAuthenticationError,
    WosBadRequestError,
    WosClient,
    WosConnectionError,
    WosError,
    WosInvalidResponseError,
    WosPermissionError,
    WosRateLimitError,
    WosServerError,
    type RetryInfo,
} from "../../sdk";
import { authenticationFailureOf, wireAttributes } from "../../sdk/transport";
import { startTestServer, type TestServer } from "../support/server";
import { TOKENS } from "../support/seed";
import { enabledBucketModule, expectNoToken, failure, projectIdOf, uniqueName } from "./helpers";

let server: TestServer;

beforeAll(async () => {
    // One plan step an hour: an initiated upgrade stays `pending` (nothing here waits for a plan).
    server = await startTestServer({ planStepMs: 3_600_000 });
});

afterEach(async () => {
    await server.clearFaults();
});

afterAll(async () => {
    await server?.close();
});

/** A client of the local service as the owners team; no retries unless asked. */
function owners(options: { maxRetries?: number; timeoutMs?: number; onRetry?: (info: RetryInfo) => void } = {}) {
    return new WosClient({ address: server.url, token: TOKENS.owners, maxRetries: 0, maxRetryDelayMs: 5, ...options });
}

/** The rejection of `promise` as a {@link WosError} (the test fails when it resolves or throws anything else). */
async function wosFailure(promise: Promise<unknown>): Promise<WosError> {
    const error = await failure(promise);
    expect(WosError.isInstance(error)).toBe(true);
    return error as WosError;
}

/** A stand-in HTTP server answering every request with `answer`; closed by the returned function. */
async function standIn(answer: (request: http.IncomingMessage, response: http.ServerResponse) => void) {
    const stub = http.createServer(answer);
    await new Promise<void>((resolve) => stub.listen(0, "127.0.0.1", resolve));
    const url = `http://127.0.0.1:${(stub.address() as net.AddressInfo).port}`;
    const close = () => new Promise((resolve) => stub.close(resolve));
    return { url, close };
}

/** A port on which nothing listens. */
function freePort(): Promise<number> {
    return new Promise((resolve, reject) => {
        const probe = net.createServer();
        probe.once("error", reject);
        probe.listen(0, "127.0.0.1", () => {
            const { port } = probe.address() as net.AddressInfo;
            probe.close(() => resolve(port));
        });
    });
}

describe("the class and message of each answer (the local service's fault injection)", () => {
    it("a 400 is a WosBadRequestError", async () => {
        await server.addFault({ method: "GET", path: "^/api/v2/projects/prj-fault400$", status: 400 });
        const error = await wosFailure(owners().projects.read("prj-fault400"));
        expect(WosBadRequestError.isInstance(error)).toBe(true);
        expect(error.status).toBe(400);
        expect(error.message).toBe("GET /projects/prj-fault400 failed with status 400: injected fault");
    });

    it("a 405, which has no class of its own, is a plain WosError of kind api, not a server error", async () => {
        await server.addFault({ method: "GET", path: "^/api/v2/projects/prj-fault405$", status: 405 });
        const error = await wosFailure(owners().projects.read("prj-fault405"));
        expect(error.constructor).toBe(WosError);
        expect(error.kind).toBe("api");
        expect(WosServerError.isInstance(error)).toBe(false);
        expect(error.status).toBe(405);
    });

    it("a 429 with no retry left is a WosRateLimitError", async () => {
        await server.addFault({ method: "GET", path: "^/api/v2/projects/prj-fault429$", status: 429 });
        const error = await wosFailure(owners().projects.read("prj-fault429"));
        expect(WosRateLimitError.isInstance(error)).toBe(true);
        expect(error.status).toBe(429);
    });

    it("a 403 carrying a Bearer challenge (insufficient_scope) stays a 403 with the service's words", async () => {
        await server.addFault({
            method: "GET",
            path: "^/api/v2/projects/prj-fault403$",
            status: 403,
            headers: { "www-authenticate": 'Bearer realm="wos", error="insufficient_scope", error_description="needs admin"' },
        });
        const error = await wosFailure(owners().projects.read("prj-fault403"));
        expect(WosPermissionError.isInstance(error)).toBe(true);
        expect(error.status).toBe(403);
        expect(error.message).toBe("GET /projects/prj-fault403 failed with status 403: injected fault");
    });

    it("a 401 says the service's detail and the reason of its challenge", async () => {
        await server.addFault({
            method: "GET",
            path: "^/api/v2/projects/prj-fault401$",
            status: 401,
            headers: { "www-authenticate": 'Bearer realm="wos", error="invalid_token", error_description="the token expired"' },
        });
        const error = await wosFailure(owners().projects.read("prj-fault401"));
        expect(WosAuthenticationError.isInstance(error)).toBe(true);
        expect(error.message).toBe(
            "GET /projects/prj-fault401 failed with status 401: injected fault: the token expired (check options.token or WOS_TOKEN, and the address)",
        );
        expectNoToken(error, TOKENS.owners);
    });

    it("a request that outlasts timeoutMs is a WosConnectionError that says it timed out", async () => {
        const project = await owners().projects.create("acme", { name: uniqueName("slow") });
        await server.addFault({ method: "GET", path: `^/api/v2/projects/${project.id}$`, delayMs: 1500 });
        const error = await wosFailure(owners({ timeoutMs: 50 }).projects.read(project.id));
        expect(WosConnectionError.isInstance(error)).toBe(true);
        expect(error.code).toBe("ETIMEDOUT");
        expect(error.message).toBe(`GET /projects/${project.id} timed out: timeout of 50ms exceeded (${server.url}/api/v2)`);
    });

    it("a refused connection says so, with its code", async () => {
        const port = await freePort();
        const client = new WosClient({ address: `http://127.0.0.1:${port}`, token: TOKENS.owners, maxRetries: 0 });
        const error = await wosFailure(client.projects.read("prj-1"));
        expect(error.code).toBe("ECONNREFUSED");
        expect(error.message).toMatch(
            new RegExp(`^GET /projects/prj-1 connection failed \\(ECONNREFUSED\\): .*ECONNREFUSED.* \\(http://127\\.0\\.0\\.1:${port}/api/v2\\)$`),
        );
        expectNoToken(error, TOKENS.owners);
    });

    it("a token Node refuses to send (pasted with a curly quote) fails before the wire, and never shows the token", async () => {
        const token = "secret-token-7777\u201d";
        const client = new WosClient({ address: server.url, token, maxRetries: 0 });
        const error = await wosFailure(client.projects.read("prj-1"));
        expect(WosConnectionError.isInstance(error)).toBe(true);
        // Node's error comes from outside Jest's sandbox, where it is no `Error`: its class then shows too.
        expect(error.message).toMatch(/^GET \/projects\/prj-1 failed: (TypeError \[ERR_INVALID_CHAR\]: )?Invalid character in header content \["Authorization"\]$/);
        expect(error.status).toBeUndefined();
        expectNoToken(error, "secret-token-7777");
    });

    it("an argument that breaks a rule is named from `options` in the WosArgumentError", async () => {
        const error = await wosFailure(owners().projects.create("acme", { name: 42 as unknown as string }));
        expect(WosArgumentError.isInstance(error)).toBe(true);
        expect(error.message).toMatch(/^POST \S+: options\.name: /);
    });

    it("an argument that breaks two rules names both, separated by a semicolon", async () => {
        const error = await wosFailure(
            owners().projects.create("acme", { name: 42 as unknown as string, description: 7 as unknown as string }),
        );
        expect(WosArgumentError.isInstance(error)).toBe(true);
        expect(error.message).toMatch(/^POST \S+: options\.name: [^;]+; options\.description: [^;]+$/);
    });
});

describe("a failed repeat is not taken for the work being done", () => {
    it("a DELETE whose repeat after a 503 meets a 503 again throws, and the project is still there", async () => {
        const client = owners({ maxRetries: 1 });
        const project = await client.projects.create("acme", { name: uniqueName("kept") });
        await server.addFault({ method: "DELETE", path: `^/api/v2/projects/${project.id}$`, status: 503, times: 2 });
        const error = await wosFailure(client.projects.delete(project.id));
        expect(WosServerError.isInstance(error)).toBe(true);
        expect(error.status).toBe(503);
        expect((await owners().projects.read(project.id)).name).toBe(project.name);
    });

    it("a confirm whose repeat after a 503 meets a 503 again throws it, and does not read the run", async () => {
        const setup = owners();
        const module = await enabledBucketModule(setup);
        const projectId = await projectIdOf(setup, "acme", "Apps");
        const workspace = await setup.noCodeModules.createWorkspace(module.id, {
            name: uniqueName(),
            projectId,
            vars: [{ key: "region", value: "us-east-1", category: "infra" }],
        });
        const upgrade = await setup.noCodeModules.initiateUpgrade(module.id, workspace.id, {
            vars: [{ key: "region", value: "eu-west-1", category: "infra" }],
        });
        const retries: RetryInfo[] = [];
        const client = owners({ maxRetries: 1, onRetry: (info) => retries.push(info) });
        await server.addFault({ method: "POST", path: `/upgrade/${upgrade.id}$`, status: 503, times: 2 });
        // Were the run read, this armed 503 would show as a retry of a GET.
        await server.addFault({ method: "GET", path: `/upgrade/${upgrade.id}$`, status: 503, times: 1 });
        const error = await wosFailure(client.noCodeModules.confirmUpgrade(module.id, workspace.id, upgrade.id));
        expect(WosServerError.isInstance(error)).toBe(true);
        expect(error.method).toBe("POST");
        expect(retries.map((retry) => retry.method)).toEqual(["POST"]);
        await server.clearFaults();
        expect((await setup.noCodeModules.readUpgrade(module.id, workspace.id, upgrade.id)).status).toBe("pending");
    });
});

describe("answers of a gateway in front of the service (a stand-in server)", () => {
    it("a 401 with no body and a Bearer challenge without error says no token reached the service", async () => {
        const gateway = await standIn((_request, response) => {
            response.writeHead(401, { "www-authenticate": 'Bearer realm="gateway"' });
            response.end();
        });
        try {
            const error = await wosFailure(new WosClient({ address: gateway.url, token: "gw-token-1234567" }).projects.read("prj-1"));
            expect(WosAuthenticationError.isInstance(error)).toBe(true);
            expect(error.errors).toEqual([]);
            expect(error.message).toBe("GET /projects/prj-1 failed with status 401: unauthorized: no token reached the service");
        } finally {
            await gateway.close();
        }
    });

    it("a 401 without any challenge keeps the plain message", async () => {
        const gateway = await standIn((_request, response) => {
            response.writeHead(401);
            response.end();
        });
        try {
            const error = await wosFailure(new WosClient({ address: gateway.url, token: "gw-token-1234567" }).projects.read("prj-1"));
            expect(WosAuthenticationError.isInstance(error)).toBe(true);
            expect(error.message).toBe("GET /projects/prj-1 failed with status 401");
        } finally {
            await gateway.close();
        }
    });

    it("an answer without a request id, or with an empty one, gives an error without requestId", async () => {
        const gateway = await standIn((request, response) => {
            response.writeHead(404, request.url?.endsWith("empty") ? { "x-request-id": "" } : {});
            response.end();
        });
        try {
            const client = new WosClient({ address: gateway.url, token: "gw-token-1234567" });
            for (const id of ["prj-none", "prj-empty"]) {
                const error = await wosFailure(client.projects.read(id));
                expect(error.status).toBe(404);
                expect(error.requestId).toBeUndefined();
                expect(Object.keys(error)).not.toContain("requestId");
            }
        } finally {
            await gateway.close();
        }
    });

    it("a 200 whose body is not JSON is a WosInvalidResponseError that says so", async () => {
        const gateway = await standIn((_request, response) => {
            response.writeHead(200, { "content-type": "text/html", "x-request-id": "req-html" });
            response.end("<html>maintenance</html>");
        });
        try {
            const error = await wosFailure(new WosClient({ address: gateway.url, token: "gw-token-1234567" }).projects.read("prj-1"));
            expect(WosInvalidResponseError.isInstance(error)).toBe(true);
            expect(error.message).toBe("GET /projects/prj-1: the service answered 200 with a body that is not JSON");
            expect(error.status).toBe(200);
            expect(error.requestId).toBe("req-html");
        } finally {
            await gateway.close();
        }
    });

    it("a body that is no document at all is described as (body)", async () => {
        const gateway = await standIn((_request, response) => {
            response.writeHead(200, { "content-type": "application/vnd.api+json" });
            response.end("42");
        });
        try {
            const error = await wosFailure(new WosClient({ address: gateway.url, token: "gw-token-1234567" }).projects.read("prj-1"));
            expect(WosInvalidResponseError.isInstance(error)).toBe(true);
            expect(error.message).toMatch(/^GET \/projects\/prj-1: unexpected response from the service: \(body\): /);
        } finally {
            await gateway.close();
        }
    });

    it("a body with many wrong fields names the first five, separated by semicolons", async () => {
        const attributes = Object.fromEntries(
            ["name", "description", "created-at", "workspace-count", "auto-destroy-activity-duration", "default-execution-mode"].map((key) => [key, [key]]),
        );
        const gateway = await standIn((_request, response) => {
            response.writeHead(200, { "content-type": "application/vnd.api+json" });
            response.end(JSON.stringify({ data: { id: 1, type: 2, attributes, links: 3, relationships: 4 } }));
        });
        try {
            const error = await wosFailure(new WosClient({ address: gateway.url, token: "gw-token-1234567" }).projects.read("prj-1"));
            expect(WosInvalidResponseError.isInstance(error)).toBe(true);
            const issues = error.message.replace(/^GET \/projects\/prj-1: unexpected response from the service: /, "").split("; ");
            expect(issues).toHaveLength(5);
            for (const issue of issues) expect(issue).toMatch(/^data(\.[a-z-]+)*: /);
        } finally {
            await gateway.close();
        }
    });
});

describe("the proxy's password never reaches a connection error", () => {
    const names = ["HTTP_PROXY", "http_proxy", "HTTPS_PROXY", "https_proxy", "ALL_PROXY", "all_proxy", "NO_PROXY", "no_proxy"];
    let saved: Record<string, string | undefined>;

    beforeEach(() => {
        saved = Object.fromEntries(names.map((name) => [name, process.env[name]]));
        for (const name of names) delete process.env[name];
    });

    afterEach(() => {
        for (const name of names) {
            if (saved[name] === undefined) delete process.env[name];
            else process.env[name] = saved[name];
        }
    });

    /** A client of a non-loopback address through a proxy (with `password`) on which nothing listens. */
    async function proxiedClient(password: string) {
        process.env.HTTP_PROXY = `http://user:${password}@127.0.0.1:${await freePort()}`;
        return new WosClient({ address: "http://wos.example.test", token: "proxied-token-12345", maxRetries: 0 });
    }

    it("as written in HTTP_PROXY, even when a caller pasted it into an id", async () => {
        const password = "proxy-pass-123456";
        const error = await wosFailure((await proxiedClient(password)).projects.read(password));
        expect(WosConnectionError.isInstance(error)).toBe(true);
        expect(error.message).toMatch(/^GET \/projects\/\[REDACTED\] /);
        expect(error.path).toBe("/projects/[REDACTED]");
        expectNoToken(error, password);
        expectNoToken(error, "proxied-token-12345");
    });

    it("nor percent-decoded", async () => {
        // Written `pr%6Fxy-pass-654321`: the proxy receives `proxy-pass-654321`.
        const error = await wosFailure((await proxiedClient("pr%6Fxy-pass-654321")).projects.read("proxy-pass-654321"));
        expect(WosConnectionError.isInstance(error)).toBe(true);
        expect(error.message).toMatch(/^GET \/projects\/\[REDACTED\] /);
        expect(error.path).toBe("/projects/[REDACTED]");
        expectNoToken(error, "proxy-pass-654321");
    });
});

describe("addresses", () => {
    it("accepts a service behind a path prefix, with or without /api/v2 and trailing slashes", () => {
        expect(normalizeAddress("https://gw.example.com/wos/api/v2/")).toBe("https://gw.example.com/wos/api/v2");
        expect(normalizeAddress("https://gw.example.com/wos//")).toBe("https://gw.example.com/wos/api/v2");
        expect(normalizeAddress("http://127.0.0.1:8787//")).toBe("http://127.0.0.1:8787/api/v2");
        expect(normalizeAddress("http://127.0.0.1:8787/api/v2/api/v2")).toBe("http://127.0.0.1:8787/api/v2/api/v2");
    });

    it("accepts an address pasted with non-breaking spaces around it", async () => {
        expect(normalizeAddress("\u00a0https://wos.example.com\u00a0\n")).toBe("https://wos.example.com/api/v2");
        const client = new WosClient({ address: `\u00a0${server.url}\u00a0`, token: TOKENS.owners });
        expect((await client.projects.list("acme", { names: ["Apps"] })).items.map((project) => project.name)).toEqual(["Apps"]);
    });

    it("refuses a user name alone in the address, as it refuses a password", () => {
        expect(() => normalizeAddress("https://alice@wos.example.com")).toThrow(
            new TypeError("WosClient: address must not contain credentials; pass the token as options.token"),
        );
        expect(() => normalizeAddress("https://:pw@wos.example.com")).toThrow(/must not contain credentials/);
    });
});

describe("the reason of a 401, from its WWW-Authenticate challenge", () => {
    const HINT = "(check options.token or WOS_TOKEN, and the address)";

    it.each([
        ['Bearer realm="wos", error="invalid_token", error_description="the bearer token is not known to this service"', `the bearer token is not known to this service ${HINT}`],
        ['Bearer realm="wos", error="invalid_token"', `the token is not valid ${HINT}`],
        ["Bearer error=invalid_token", `the token is not valid ${HINT}`],
        ['Bearer error = "invalid_token" , error_description = "spaced out"', `spaced out ${HINT}`],
        ["Bearer error=invalid_request, error_description=malformed", "malformed"],
        ['Bearer error="invalid_request"', "invalid_request"],
        ['Bearer error="insufficient_scope", error_description="needs admin"', "needs admin"],
        ['Bearer error="invalid_token", error_description="a \\"quoted\\" word"', `a "quoted" word ${HINT}`],
        ['  bearer realm="wos"', "no token reached the service"],
        ['Bearer realm="wos"', "no token reached the service"],
    ])("%s", (header, reason) => {
        expect(authenticationFailureOf(header)).toBe(reason);
    });

    it.each([undefined, "", 'Basic realm="wos"', 'Basic realm="Bearer zone"', 'NotBearer error="invalid_token"', 42])(
        "none for a challenge that is not Bearer: %p",
        (header) => {
            expect(authenticationFailureOf(header)).toBeUndefined();
        },
    );

    it("takes the Bearer challenge among several", () => {
        expect(authenticationFailureOf(['Basic realm="Bearer zone"', 'Bearer error="invalid_token", error_description="gone"'])).toBe(`gone ${HINT}`);
        expect(authenticationFailureOf(['XBearer realm="x"', 'Bearer error="invalid_request"'])).toBe("invalid_request");
        expect(authenticationFailureOf(['Bearer error="invalid_request"'])).toBe("invalid_request");
        expect(authenticationFailureOf(['Basic realm="wos"'])).toBeUndefined();
    });
});

describe("wire attributes", () => {
    it("are the options given, under their wire names; an undefined option is left out, a null one kept (it clears)", () => {
        const attributes = wireAttributes(
            { autoApply: true, description: undefined, name: null },
            { autoApply: "auto-apply", description: "description", name: "name" },
        );
        expect(attributes).toStrictEqual({ "auto-apply": true, name: null });
        expect(Object.keys(attributes)).toEqual(["auto-apply", "name"]);
    });
});

describe("the default User-Agent", () => {
    it("says pulumi-wos/dev when the package's own name does not resolve (running from source)", async () => {
        const recorded: string[] = [];
        const recorder = await standIn((request, response) => {
            recorded.push(String(request.headers["user-agent"]));
            response.writeHead(200, { "content-type": "application/vnd.api+json" });
            response.end(JSON.stringify({ data: [] }));
        });
        try {
            let isolated!: typeof import("../../sdk");
            jest.isolateModules(() => {
                jest.doMock(
                    "pulumi-wos/package.json",
                    () => {
                        throw new Error("Cannot find module 'pulumi-wos/package.json'");
                    },
                );
                isolated = require("../../sdk");
            });
            await new isolated.WosClient({ address: recorder.url, token: "t" }).projects.listTagBindings("prj-1");
            expect(recorded).toEqual([`pulumi-wos/dev node/${process.versions.node}`]);
        } finally {
            jest.dontMock("pulumi-wos/package.json");
            await recorder.close();
        }
    });
});
