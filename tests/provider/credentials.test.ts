/**
 * Credentials of the handlers: `wos:address` / `wos:token` from `configure`, the `WOS_ADDRESS` /
 * `WOS_TOKEN` fallback, the default address, a clear error without a token, and the one client kept per
 * address and token (reused by every operation, the token never enumerable).
 */
import { inspect } from "node:util";
import { WosAuthenticationError } from "../../sdk";
import * as credentialsModule from "../../provider/handlers/credentials";
import {
    clearConfiguredCredentials,
    clientCache,
    clientFromCredentials,
    configure,
    currentAddress,
    currentToken,
    DEFAULT_WOS_ADDRESS,
} from "../../provider/handlers/credentials";
import * as project from "../../provider/handlers/project";
import { startTestServer, type TestServer } from "../support/server";
import { TOKENS } from "../support/seed";
import { configureRequest, rejection, TOKEN } from "./helpers";

let server: TestServer;
const savedEnv = { address: process.env.WOS_ADDRESS, token: process.env.WOS_TOKEN };

beforeAll(async () => {
    server = await startTestServer();
});
afterAll(async () => {
    await server.close();
});
beforeEach(() => {
    clearConfiguredCredentials();
    delete process.env.WOS_ADDRESS;
    delete process.env.WOS_TOKEN;
});
afterEach(() => {
    clearConfiguredCredentials();
    if (savedEnv.address === undefined) delete process.env.WOS_ADDRESS;
    else process.env.WOS_ADDRESS = savedEnv.address;
    if (savedEnv.token === undefined) delete process.env.WOS_TOKEN;
    else process.env.WOS_TOKEN = savedEnv.token;
});

it("uses wos:address and wos:token from configure, and the handlers reach the service with them", async () => {
    await configure(configureRequest({ "wos:address": server.url, "wos:token": TOKEN }));
    expect(currentAddress()).toBe(server.url);
    expect(currentToken()).toBe(TOKEN);
    await expect(clientFromCredentials().ping()).resolves.toBeUndefined();
    const read = await project.read("prj-doesnotexist1", {});
    expect(read.id).toBeUndefined();
});

it("prefers configure over the environment", async () => {
    process.env.WOS_ADDRESS = "http://127.0.0.1:9";
    process.env.WOS_TOKEN = "env-token";
    await configure(configureRequest({ "wos:address": server.url, "wos:token": TOKEN }));
    expect(currentAddress()).toBe(server.url);
    expect(currentToken()).toBe(TOKEN);
});

it("falls back to WOS_ADDRESS and WOS_TOKEN when the stack config has neither", async () => {
    // A token that sees one project only: what the service answers proves which token was sent (ping ignores it).
    process.env.WOS_ADDRESS = server.url;
    process.env.WOS_TOKEN = TOKENS.appsRead;
    await configure(configureRequest({}));
    expect(currentAddress()).toBe(server.url);
    expect(currentToken()).toBe(TOKENS.appsRead);
    const client = clientFromCredentials();
    expect(client.baseUrl).toBe(`${server.url}/api/v2`);
    expect((await client.projects.list("acme", { pageSize: 100 })).items.map((item) => item.name)).toEqual(["Apps"]);
    // And a handler's operation goes out with it: the read team may not delete Apps.
    const apps = (await client.projects.list("acme", { names: ["Apps"] })).items[0]!;
    const refused = await rejection(project.delete(apps.id, { organization: "acme", name: "Apps" }));
    expect(refused.message).toMatch(/403/);
});

it("falls back to each of WOS_ADDRESS and WOS_TOKEN on its own, next to the other from the stack config", async () => {
    process.env.WOS_TOKEN = TOKENS.appsRead;
    await configure(configureRequest({ "wos:address": server.url }));
    expect(currentToken()).toBe(TOKENS.appsRead);
    expect((await clientFromCredentials().projects.list("acme")).items.map((item) => item.name)).toEqual(["Apps"]);
    clearConfiguredCredentials();
    delete process.env.WOS_TOKEN;
    process.env.WOS_ADDRESS = server.url;
    await configure(configureRequest({ "wos:token": TOKENS.appsRead }));
    expect(currentAddress()).toBe(server.url);
    expect((await clientFromCredentials().projects.list("acme")).items.map((item) => item.name)).toEqual(["Apps"]);
});

it("defaults the address to the local service on 127.0.0.1:8787", async () => {
    await configure(configureRequest({ "wos:token": TOKEN }));
    expect(DEFAULT_WOS_ADDRESS).toBe("http://127.0.0.1:8787");
    expect(currentAddress()).toBe("http://127.0.0.1:8787");
});

it("fails an operation without a token with an error naming wos:token and WOS_TOKEN", async () => {
    await configure(configureRequest({ "wos:address": server.url }));
    const error = await rejection(project.create({ organization: "acme", name: "No Token" }));
    expect(error.message).toMatch(/wos:token/);
    expect(error.message).toMatch(/WOS_TOKEN/);
});

it("never puts a rejected token into an error message", async () => {
    const token = "a-token-the-service-does-not-know";
    await configure(configureRequest({ "wos:address": server.url, "wos:token": token }));
    const error = await rejection(project.create({ organization: "acme", name: "Bad Token" }));
    expect(error.message).toMatch(/401/);
    expect(error.message).not.toContain(token);
    expect(JSON.stringify(error)).not.toContain(token);
});

describe("one client per address and token", () => {
    it("answers the same client for every operation while the credentials stay, and the handlers use it", async () => {
        await configure(configureRequest({ "wos:address": server.url, "wos:token": TOKEN }));
        const client = clientFromCredentials();
        expect(clientFromCredentials()).toBe(client);
        // A handler's operation goes through the kept client: its methods see the call.
        const read = jest.spyOn(client.projects, "read");
        const delete_ = jest.spyOn(client.projects, "delete");
        try {
            expect((await project.read("prj-doesnotexist1", {})).id).toBeUndefined();
            await project.delete("prj-doesnotexist2", {});
            expect(read).toHaveBeenCalledWith("prj-doesnotexist1");
            expect(delete_).toHaveBeenCalledWith("prj-doesnotexist2");
        } finally {
            read.mockRestore();
            delete_.mockRestore();
        }
        expect(clientFromCredentials()).toBe(client);
        // The same values configured again (the host calls configure once per serialized provider) keep it.
        await configure(configureRequest({ "wos:address": server.url, "wos:token": TOKEN }));
        expect(clientFromCredentials()).toBe(client);
    });

    it("makes a new client for a new token or a new address, and each reaches the service with its own", async () => {
        await configure(configureRequest({ "wos:address": server.url, "wos:token": TOKEN }));
        const first = clientFromCredentials();

        await configure(configureRequest({ "wos:token": TOKENS.appsRead }));
        const otherToken = clientFromCredentials();
        expect(otherToken).not.toBe(first);
        expect(otherToken.baseUrl).toBe(first.baseUrl);
        // The new client carries the new token: apps-read sees Apps only, the owners every project.
        const seenByReader = (await otherToken.projects.list("acme")).items.map((item) => item.name);
        expect(seenByReader).toEqual(["Apps"]);
        expect(clientFromCredentials()).toBe(otherToken);

        const elsewhere = await startTestServer();
        try {
            await configure(configureRequest({ "wos:address": elsewhere.url }));
            const otherAddress = clientFromCredentials();
            expect(otherAddress).not.toBe(otherToken);
            expect(otherAddress.baseUrl).toBe(`${elsewhere.url}/api/v2`);
            await expect(otherAddress.projects.list("acme")).resolves.toBeDefined();
        } finally {
            await elsewhere.close();
        }

        await configure(configureRequest({ "wos:address": server.url, "wos:token": TOKEN }));
        const back = clientFromCredentials();
        expect(back).not.toBe(first);
        expect(back.baseUrl).toBe(first.baseUrl);
        expect((await back.projects.list("acme", { pageSize: 100 })).items.length).toBeGreaterThan(1);
    });

    it("follows a changed WOS_TOKEN when the stack config has no token", async () => {
        process.env.WOS_ADDRESS = server.url;
        process.env.WOS_TOKEN = TOKEN;
        const first = clientFromCredentials();
        expect(clientFromCredentials()).toBe(first);
        process.env.WOS_TOKEN = TOKENS.appsRead;
        const second = clientFromCredentials();
        expect(second).not.toBe(first);
        expect((await second.projects.list("acme")).items.map((item) => item.name)).toEqual(["Apps"]);
    });

    it("forgets the kept client with the credentials", async () => {
        await configure(configureRequest({ "wos:address": server.url, "wos:token": TOKEN }));
        const first = clientFromCredentials();
        clearConfiguredCredentials();
        await configure(configureRequest({ "wos:address": server.url, "wos:token": TOKEN }));
        expect(clientFromCredentials()).not.toBe(first);
    });

    it("keeps the token out of every rendering of the cache, the kept client and the configured credentials", async () => {
        const token = "a-token-that-must-stay-in-memory-only";
        await configure(configureRequest({ "wos:address": server.url, "wos:token": token }));
        const client = clientFromCredentials();
        // The client really holds it: the service is asked with it (and refuses it).
        const refused = await rejection(client.projects.list("acme"));
        expect(WosAuthenticationError.isInstance(refused)).toBe(true);
        // The cache and the client hold it in private fields: not even a look at hidden properties finds it.
        for (const holder of [clientCache, client, credentialsModule]) {
            expect(JSON.stringify(holder) ?? "").not.toContain(token);
            expect(inspect(holder, { showHidden: true, depth: Infinity, getters: true })).not.toContain(token);
            expect(Object.values(holder as object).map(String).join(" ")).not.toContain(token);
        }
        // The configured credentials, shared with other copies of the package by a plain property: not enumerable.
        const slot = (globalThis as unknown as Record<symbol, object>)[Symbol.for("pulumi-wos.provider.credentials")];
        expect(JSON.stringify(slot)).not.toContain(token);
        expect(inspect(slot, { depth: Infinity })).not.toContain(token);
        expect(Object.values(slot).map(String).join(" ")).not.toContain(token);
        expect(currentToken()).toBe(token);
    });
});
