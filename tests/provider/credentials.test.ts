/**
 * Credentials of the handlers: `wos:address` / `wos:token` from `configure`, the `WOS_ADDRESS` /
 * `WOS_TOKEN` fallback, the default address, and a clear error without a token.
 */
import {
    clearConfiguredCredentials,
    clientFromCredentials,
    configure,
    currentAddress,
    currentToken,
    DEFAULT_WOS_ADDRESS,
} from "../../provider/handlers/credentials";
import * as project from "../../provider/handlers/project";
import { startTestServer, type TestServer } from "../support/server";
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
    process.env.WOS_ADDRESS = server.url;
    process.env.WOS_TOKEN = TOKEN;
    await configure(configureRequest({}));
    await expect(clientFromCredentials().ping()).resolves.toBeUndefined();
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
