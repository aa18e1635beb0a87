/**
 * Variables (`/vars`) through {@link WosClient} against the real local service.
 */
import { WosClient, WosNotFoundError, WosValidationError } from "../../sdk";
import { startTestServer, type TestServer } from "../support/server";
import { TOKENS, WORKSPACES } from "../support/seed";

let server: TestServer;
let client: WosClient;

beforeAll(async () => {
    server = await startTestServer();
    client = new WosClient({ address: server.url, token: TOKENS.platform, maxRetryDelayMs: 10 });
});

afterAll(async () => {
    await server?.close();
});

describe("Variables", () => {
    it("creates a variable and finds it in the workspace's list", async () => {
        const created = await client.variables.create(WORKSPACES.appsLegacy, {
            key: "region",
            value: "eu-west-1",
            description: "where it runs",
            category: "infra",
        });
        expect(created).toMatchObject({
            key: "region",
            value: "eu-west-1",
            description: "where it runs",
            category: "infra",
            hcl: false,
            sensitive: false,
            workspaceId: WORKSPACES.appsLegacy,
        });
        expect(created.id).toMatch(/^var-/);

        const listed = await client.variables.listByWorkspaceName("acme", "legacy-app");
        expect(listed.find((variable) => variable.id === created.id)).toEqual(created);
    });

    it("lists variables of every readable workspace without filters", async () => {
        const made = await client.variables.create(WORKSPACES.staging, { key: "STAGE", value: "1", category: "env" });
        const all = await client.variables.listEveryReadable();
        expect(all.map((variable) => variable.id)).toContain(made.id);
    });

    it("reads one variable by workspace and id (there is no GET /vars/:id)", async () => {
        const made = await client.variables.create(WORKSPACES.appsLegacy, {
            key: "config",
            value: '{ a = 1 }',
            category: "infra",
            hcl: true,
        });
        const read = await client.variables.read(WORKSPACES.appsLegacy, made.id);
        expect(read).toEqual(made);
        expect(read.hcl).toBe(true);
    });

    it("never returns a sensitive value: create and read both answer null", async () => {
        const made = await client.variables.create(WORKSPACES.appsLegacy, {
            key: "DB_PASSWORD",
            value: "s3cret-value",
            category: "env",
            sensitive: true,
        });
        expect(made.sensitive).toBe(true);
        expect(made.value).toBeNull();
        const read = await client.variables.read(WORKSPACES.appsLegacy, made.id);
        expect(read.value).toBeNull();
    });

    it("updates value, description and hcl, leaving the rest as it was", async () => {
        const made = await client.variables.create(WORKSPACES.appsLegacy, {
            key: "size",
            value: "1",
            description: "nodes",
            category: "infra",
        });
        const updated = await client.variables.update(WORKSPACES.appsLegacy, made.id, { value: "3", description: null, hcl: true });
        expect(updated).toMatchObject({ id: made.id, key: "size", value: "3", category: "infra", hcl: true });
        expect(updated.description ?? null).toBeNull();
        expect(await client.variables.read(WORKSPACES.appsLegacy, made.id)).toEqual(updated);
    });

    it("refuses to make a sensitive variable non-sensitive with a WosValidationError", async () => {
        const made = await client.variables.create(WORKSPACES.appsLegacy, {
            key: "TOKEN_X",
            value: "x",
            category: "env",
            sensitive: true,
        });
        const error = await client.variables.update(WORKSPACES.appsLegacy, made.id, { sensitive: false }).catch((e: unknown) => e);
        expect(WosValidationError.isInstance(error)).toBe(true);
        expect((error as WosValidationError).status).toBe(422);
    });

    it("deletes a variable; reading it afterwards is a WosNotFoundError that names it", async () => {
        const made = await client.variables.create(WORKSPACES.appsLegacy, { key: "gone", category: "env" });
        await client.variables.delete(WORKSPACES.appsLegacy, made.id);
        const error = await client.variables.read(WORKSPACES.appsLegacy, made.id).catch((e: unknown) => e);
        expect(WosNotFoundError.isInstance(error)).toBe(true);
        expect((error as WosNotFoundError).message).toContain(made.id);
        expect((error as WosNotFoundError).status).toBe(404);
    });

    it("reading a variable of a workspace that does not exist is a WosNotFoundError", async () => {
        await expect(client.variables.read("ws-doesnotexist0001", "var-x")).rejects.toBeInstanceOf(WosNotFoundError);
    });
});
