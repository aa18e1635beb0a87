/**
 * The client's defaults from the environment, as the providers read them: `WOS_ADDRESS` and `WOS_TOKEN`
 * when no option is given (options win; blank values count as unset), a clear `TypeError` when there is no
 * token anywhere or the address is not http(s), never showing the token. And the message of a 401, which
 * says why from the service's `WWW-Authenticate` (no token reached it, not a bearer token, unknown token),
 * against the real local service.
 */
import * as http from "node:http";
import type { AddressInfo } from "node:net";
import { WosAuthenticationError, WosClient, WosError } from "../../sdk";
import { startTestServer, type TestServer } from "../support/server";
import { TOKENS } from "../support/seed";
import { expectNoToken, failure } from "./helpers";

let server: TestServer;
const saved = { WOS_ADDRESS: process.env.WOS_ADDRESS, WOS_TOKEN: process.env.WOS_TOKEN };

beforeAll(async () => {
    server = await startTestServer();
});

afterAll(async () => {
    await server?.close();
});

beforeEach(() => {
    delete process.env.WOS_ADDRESS;
    delete process.env.WOS_TOKEN;
});

afterEach(() => {
    for (const [name, value] of Object.entries(saved)) {
        if (value === undefined) delete process.env[name];
        else process.env[name] = value;
    }
});

/** The names of acme's projects, as `client` lists them. */
async function projectNames(client: WosClient): Promise<string[]> {
    return (await client.projects.list("acme", { pageSize: 100 })).items.map((project) => project.name).sort();
}

/** The `TypeError` the constructor throws for `options`, failing the test when it builds a client. */
function constructorError(...options: ConstructorParameters<typeof WosClient>): TypeError {
    try {
        new WosClient(...options);
    } catch (error) {
        expect(error).toBeInstanceOf(TypeError);
        return error as TypeError;
    }
    throw new Error("expected the constructor to throw");
}

describe("WOS_ADDRESS and WOS_TOKEN", () => {
    it("a client made with no options at all talks to WOS_ADDRESS with WOS_TOKEN", async () => {
        process.env.WOS_ADDRESS = server.url;
        process.env.WOS_TOKEN = TOKENS.owners;
        const client = new WosClient();
        expect(client.baseUrl).toBe(`${server.url}/api/v2`);
        expect(await projectNames(client)).toEqual(["Apps", "Default Project", "Empty", "Staging"]);
    });

    it("an empty options object reads the environment too, and values are trimmed as the providers trim them", async () => {
        process.env.WOS_ADDRESS = ` ${server.url}/ `;
        process.env.WOS_TOKEN = `${TOKENS.appsRead}\n`;
        // The read team sees Apps only: the token really is the environment's.
        expect(await projectNames(new WosClient({}))).toEqual(["Apps"]);
    });

    it("options win over the environment", async () => {
        process.env.WOS_ADDRESS = "http://127.0.0.1:1";
        process.env.WOS_TOKEN = "env-token-that-is-unknown";
        const client = new WosClient({ address: server.url, token: TOKENS.appsRead });
        expect(await projectNames(client)).toEqual(["Apps"]);
    });

    it("the token alone from the environment, the address from the options (and the other way round)", async () => {
        process.env.WOS_TOKEN = TOKENS.appsRead;
        expect(await projectNames(new WosClient({ address: server.url }))).toEqual(["Apps"]);
        delete process.env.WOS_TOKEN;
        process.env.WOS_ADDRESS = server.url;
        expect(await projectNames(new WosClient({ token: TOKENS.owners }))).toEqual(["Apps", "Default Project", "Empty", "Staging"]);
    });

    it("without WOS_ADDRESS the address is the local service's default", () => {
        process.env.WOS_TOKEN = TOKENS.owners;
        expect(new WosClient().baseUrl).toBe("http://127.0.0.1:8787/api/v2");
        process.env.WOS_ADDRESS = "   ";
        expect(new WosClient().baseUrl).toBe("http://127.0.0.1:8787/api/v2");
    });

    it("no token anywhere is a TypeError that says where to put one", () => {
        const messages = [constructorError(), constructorError({}), constructorError({ address: server.url })].map((error) => error.message);
        process.env.WOS_TOKEN = "  ";
        messages.push(constructorError().message);
        expect(new Set(messages)).toEqual(
            new Set(["WosClient: a token is required: pass options.token or set the environment variable WOS_TOKEN"]),
        );
    });

    it("a token option that is empty or not a string is a TypeError, even when WOS_TOKEN is set (null counts as left out)", async () => {
        process.env.WOS_TOKEN = TOKENS.appsRead;
        for (const token of ["", 42, {}] as unknown as string[]) {
            expect(constructorError({ token }).message).toBe("WosClient: options.token must be a non-empty string");
        }
        expect(await projectNames(new WosClient({ address: server.url, token: null as never }))).toEqual(["Apps"]);
    });

    it("options that are not an object are a TypeError", () => {
        process.env.WOS_TOKEN = TOKENS.owners;
        expect(constructorError("token" as never).message).toBe("WosClient: options must be an object");
        expect(constructorError(null as never).message).toBe("WosClient: options must be an object");
    });

    it("a WOS_ADDRESS that is not an http(s) URL is a TypeError naming the variable, never the token", () => {
        process.env.WOS_TOKEN = "env-secret-token-0123";
        for (const address of ["ftp://wos.example.test", "not a url", "https://user:pw@wos.example.test"]) {
            process.env.WOS_ADDRESS = address;
            const error = constructorError();
            expect(error.message).toMatch(/^WosClient: the environment variable WOS_ADDRESS must /);
            expect(error.message).not.toContain("env-secret-token-0123");
        }
        // The same address as an option is named as the option.
        expect(constructorError({ address: "ftp://wos.example.test" }).message).toMatch(/^WosClient: address must /);
    });
});

/** A reverse proxy in front of the service that drops the `Authorization` header on the way. */
async function headerDroppingProxy(): Promise<{ url: string; close(): Promise<void> }> {
    const target = new URL(server.url);
    const proxy = http.createServer((request, response) => {
        const headers = { ...request.headers };
        delete headers.authorization;
        const forwarded = http.request(
            { hostname: target.hostname, port: target.port, method: request.method, path: request.url, headers },
            (answer) => {
                response.writeHead(answer.statusCode!, answer.headers);
                answer.pipe(response);
            },
        );
        request.pipe(forwarded);
    });
    await new Promise<void>((resolve) => proxy.listen(0, "127.0.0.1", resolve));
    return {
        url: `http://127.0.0.1:${(proxy.address() as AddressInfo).port}`,
        close: () => new Promise((resolve) => proxy.close(() => resolve())),
    };
}

describe("the message of a 401 says why, from WWW-Authenticate", () => {
    it("an unknown token: 'not known to this service', where to fix it, and the token nowhere", async () => {
        const token = "unknown-token-5b1e77c2";
        const error = await failure(new WosClient({ address: server.url, token }).projects.list("acme"));
        expect(WosAuthenticationError.isInstance(error)).toBe(true);
        expect((error as WosError).message).toBe(
            "GET /organizations/acme/projects failed with status 401: unauthorized: " +
                "the bearer token is not known to this service (check options.token or WOS_TOKEN, and the address)",
        );
        expect((error as WosError).errors).toEqual([{ status: "401", title: "unauthorized" }]);
        expectNoToken(error, token);
    });

    it("an unknown token from WOS_TOKEN says the same", async () => {
        process.env.WOS_TOKEN = "unknown-env-token-91c4";
        const error = await failure(new WosClient({ address: server.url }).projects.list("acme"));
        expect((error as WosError).message).toContain("the bearer token is not known to this service");
        expectNoToken(error, "unknown-env-token-91c4");
    });

    it("a token that does not make a bearer header (a space inside): 'not a bearer token', the token nowhere", async () => {
        const token = "pasted-twice-7d2f pasted-twice-7d2f";
        const error = await failure(new WosClient({ address: server.url, token }).projects.list("acme"));
        expect(WosAuthenticationError.isInstance(error)).toBe(true);
        expect((error as WosError).message).toContain("failed with status 401: unauthorized: the Authorization header is not a bearer token");
        expectNoToken(error, token);
        expectNoToken(error, "pasted-twice-7d2f");
    });

    it("a token dropped on the way (a proxy that removes the header): 'no token reached the service'", async () => {
        const proxy = await headerDroppingProxy();
        try {
            const error = await failure(new WosClient({ address: proxy.url, token: TOKENS.owners }).projects.list("acme"));
            expect(WosAuthenticationError.isInstance(error)).toBe(true);
            expect((error as WosError).message).toBe(
                "GET /organizations/acme/projects failed with status 401: unauthorized: no token reached the service",
            );
            expectNoToken(error, TOKENS.owners);
        } finally {
            await proxy.close();
        }
    });

    it("a 401 without a Bearer challenge (another service) keeps the plain message", async () => {
        const stand = http.createServer((_request, response) => {
            response.writeHead(401, { "content-type": "application/vnd.api+json", "www-authenticate": 'Basic realm="x"' });
            response.end(JSON.stringify({ errors: [{ status: "401", title: "unauthorized" }] }));
        });
        await new Promise<void>((resolve) => stand.listen(0, "127.0.0.1", resolve));
        try {
            const address = `http://127.0.0.1:${(stand.address() as AddressInfo).port}`;
            const error = await failure(new WosClient({ address, token: "some-token-123" }).projects.list("acme"));
            expect((error as WosError).message).toBe("GET /organizations/acme/projects failed with status 401: unauthorized");
        } finally {
            await new Promise((resolve) => stand.close(resolve));
        }
    });
});
