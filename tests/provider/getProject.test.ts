/**
 * `getProject` / `getProjectOutput`: the invoke-free lookup that runs the SDK in the program's process,
 * with credentials from the `wos` stack config or the environment.
 */
import * as pulumi from "@pulumi/pulumi";
import { getProject, getProjectOutput } from "../../provider/getProject";
import { startTestServer, type TestServer } from "../support/server";
import { rejection, TOKEN } from "./helpers";

let server: TestServer;

beforeAll(async () => {
    server = await startTestServer();
});
afterAll(async () => {
    await server.close();
});
// No credentials but those a test sets: a WOS_TOKEN from the shell that runs jest must not leak in.
beforeEach(() => {
    delete process.env.WOS_ADDRESS;
    delete process.env.WOS_TOKEN;
    pulumi.runtime.setAllConfig({});
});
afterEach(() => {
    delete process.env.WOS_ADDRESS;
    delete process.env.WOS_TOKEN;
    pulumi.runtime.setAllConfig({});
});

it("finds a project by name, case-insensitively, with its counts and tags (credentials from the environment)", async () => {
    process.env.WOS_ADDRESS = server.url;
    process.env.WOS_TOKEN = TOKEN;
    const apps = (await server.request("GET", "/organizations/acme/projects?filter%5Bnames%5D=Apps", { token: TOKEN })).body.data[0];
    await server.request("PATCH", `/projects/${apps.id}/tag-bindings`, {
        token: TOKEN,
        body: { data: [{ type: "tag-bindings", attributes: { key: "team", value: "platform" } }] },
    });
    const found = await getProject({ organization: "acme", name: "apps" });
    expect(found).toEqual({
        id: apps.id,
        organization: "acme",
        name: "Apps",
        workspaceCount: 2,
        teamCount: expect.any(Number),
        tags: { team: "platform" },
    });
});

it("reads its credentials from the wos stack config first", async () => {
    process.env.WOS_ADDRESS = "http://127.0.0.1:9";
    process.env.WOS_TOKEN = "not-this-one";
    pulumi.runtime.setAllConfig({ "wos:address": server.url, "wos:token": TOKEN }, ["wos:token"]);
    const found = await getProject({ organization: "acme", name: "Staging" });
    expect(found.name).toBe("Staging");
});

it("resolves getProjectOutput from inputs", async () => {
    process.env.WOS_ADDRESS = server.url;
    process.env.WOS_TOKEN = TOKEN;
    const output = getProjectOutput({ organization: pulumi.output("acme"), name: "Empty" });
    const found = await new Promise<{ name: string; workspaceCount: number }>((resolve) => output.apply(resolve));
    expect(found).toMatchObject({ name: "Empty", workspaceCount: 0 });
});

it("fails with a message naming the project when there is none", async () => {
    process.env.WOS_ADDRESS = server.url;
    process.env.WOS_TOKEN = TOKEN;
    const error = await rejection(getProject({ organization: "acme", name: "Nope Nope" }));
    expect(error.message).toBe("wos.getProject: no project named 'Nope Nope' in organization 'acme'");
});

it("fails without a token, naming wos:token and WOS_TOKEN", async () => {
    const error = await rejection(getProject({ organization: "acme", name: "Apps" }));
    expect(error.message).toMatch(/wos:token.*WOS_TOKEN/);
});
