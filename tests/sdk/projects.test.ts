/**
 * Projects, tag bindings and workspaces through {@link WosClient} against the real local service.
 */
import { WosAuthenticationError, WosClient, WosConflictError, WosNotFoundError, type Project } from "../../sdk";
import { startTestServer, type TestServer } from "../support/server";
import { TOKENS, WORKSPACES } from "../support/seed";

let server: TestServer;
let owners: WosClient;

beforeAll(async () => {
    server = await startTestServer();
    owners = new WosClient({ address: server.url, token: TOKENS.owners, maxRetryDelayMs: 10 });
});

afterAll(async () => {
    await server?.close();
});

let counter = 0;
/** A project name no other test uses. */
function uniqueName(prefix = "sdk") {
    counter += 1;
    return `${prefix}-${counter}-${Date.now() % 100000}`;
}

describe("WosClient", () => {
    it("pings the service with an address given with /api/v2 and a trailing slash", async () => {
        const client = new WosClient({ address: `${server.apiUrl}/`, token: TOKENS.owners });
        await expect(client.ping()).resolves.toBeUndefined();
    });

    it("pings without checking the token: a wrong one is reported by the first other call", async () => {
        const client = new WosClient({ address: server.url, token: "not-a-token-of-this-service", maxRetries: 0 });
        await expect(client.ping()).resolves.toBeUndefined();
        const failure = await client.projects.list("acme").catch((error: unknown) => error);
        expect(WosAuthenticationError.isInstance(failure)).toBe(true);
    });
});

describe("Projects", () => {
    it("creates a project with description, auto-destroy duration and tags, and reads it back", async () => {
        const name = uniqueName();
        const created = await owners.projects.create("acme", {
            name,
            description: "made by the SDK",
            autoDestroyActivityDuration: "14d",
            tagBindings: [
                { key: "team", value: "platform" },
                { key: "env", value: "prod" },
            ],
        });
        expect(created.id).toMatch(/^prj-/);
        expect(created.name).toBe(name);
        expect(created.description).toBe("made by the SDK");
        expect(created.organization).toBe("acme");
        // The create answer carries only can-update and no counts: what it lacks is left out, not `undefined`.
        expect(created.permissions).toEqual({ canUpdate: true });
        expect(Object.keys(created.permissions)).toEqual(["canUpdate"]);
        expect(created).not.toHaveProperty("workspaceCount");
        expect(created).not.toHaveProperty("autoDestroyActivityDuration");

        const read = await owners.projects.read(created.id);
        expect(read).toMatchObject({ id: created.id, name, description: "made by the SDK", autoDestroyActivityDuration: "14d" });
        expect(read.workspaceCount).toBe(0);
        expect(read.permissions).toMatchObject({ canUpdate: true, canDestroy: true, canCreateWorkspace: true });

        const tags = await owners.projects.listTagBindings(created.id);
        expect(tags.map(({ key, value }) => ({ key, value })).sort(byKey)).toEqual([
            { key: "env", value: "prod" },
            { key: "team", value: "platform" },
        ]);
        expect(tags.every((tag) => typeof tag.createdAt === "string")).toBe(true);
    });

    it("updates name and description, clears them with null, and replaces the whole tag set", async () => {
        const project = await owners.projects.create("acme", {
            name: uniqueName(),
            description: "before",
            autoDestroyActivityDuration: "2h",
            tagBindings: [{ key: "a", value: "1" }],
        });
        const renamed = uniqueName("renamed");
        const updated = await owners.projects.update(project.id, {
            name: renamed,
            description: null,
            autoDestroyActivityDuration: null,
            tagBindings: [{ key: "b", value: "2" }],
        });
        expect(updated.name).toBe(renamed);
        expect(updated.description).toBeNull();
        const read = await owners.projects.read(project.id);
        expect(read.autoDestroyActivityDuration ?? null).toBeNull();
        expect((await owners.projects.listTagBindings(project.id)).map((tag) => tag.key)).toEqual(["b"]);

        // Leaving tagBindings out changes nothing; [] clears them.
        await owners.projects.update(project.id, { description: "after" });
        expect((await owners.projects.listTagBindings(project.id)).map((tag) => tag.key)).toEqual(["b"]);
        await owners.projects.update(project.id, { tagBindings: [] });
        expect(await owners.projects.listTagBindings(project.id)).toEqual([]);
    });

    it("adds and updates tags with addTagBindings without removing others, answering ids in request order", async () => {
        const project = await owners.projects.create("acme", {
            name: uniqueName(),
            tagBindings: [
                { key: "keep", value: "yes" },
                { key: "change", value: "old" },
            ],
        });
        const written = await owners.projects.addTagBindings(project.id, [
            { key: "change", value: "new" },
            { key: "added", value: "x" },
        ]);
        expect(written.map(({ key, value }) => ({ key, value }))).toEqual([
            { key: "change", value: "new" },
            { key: "added", value: "x" },
        ]);
        expect(written.every((binding) => binding.id?.startsWith("tb-"))).toBe(true);
        const all = await owners.projects.listTagBindings(project.id);
        expect(all.map(({ key, value }) => ({ key, value })).sort(byKey)).toEqual([
            { key: "added", value: "x" },
            { key: "change", value: "new" },
            { key: "keep", value: "yes" },
        ]);
        const effective = await owners.projects.listEffectiveTagBindings(project.id);
        expect(effective.map((tag) => tag.key).sort()).toEqual(["added", "change", "keep"]);
    });

    it("lists one page with pagination, links and status counts", async () => {
        const page = await owners.projects.list("acme", { pageSize: 2, pageNumber: 1 });
        expect(page.items).toHaveLength(2);
        expect(page.pagination.currentPage).toBe(1);
        expect(page.pagination.pageSize).toBe(2);
        expect(page.pagination.totalCount).toBeGreaterThanOrEqual(4);
        expect(page.pagination.nextPage).toBe(2);
        expect(page.links.next).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/api\/v2\/organizations\/acme\/projects\?/);
        expect(page.links.prev).toBeNull();
        expect(page.statusCounts?.total).toBe(page.pagination.totalCount);
    });

    it("sends bracketed filters the server understands: filter[names] with a space and a comma list", async () => {
        const page = await owners.projects.list("acme", { names: ["default project", "Apps"], sort: "name" });
        expect(page.items.map((project) => project.name)).toEqual(["Apps", "Default Project"]);
        expect(page.statusCounts?.matching).toBe(2);
    });

    it("searches by name with q, and sorts descending", async () => {
        const prefix = uniqueName("Search Me");
        await owners.projects.create("acme", { name: `${prefix} a` });
        await owners.projects.create("acme", { name: `${prefix} b` });
        const found = await owners.projects.list("acme", { query: prefix.toLowerCase(), sort: "-name" });
        expect(found.items.map((project) => project.name)).toEqual([`${prefix} b`, `${prefix} a`]);
    });

    it("filters by the caller's permissions", async () => {
        const admin = new WosClient({ address: server.url, token: TOKENS.appsAdmin });
        const updatable = await admin.projects.list("acme", { canUpdate: true });
        expect(updatable.items.map((project) => project.name)).toEqual(["Apps"]);
        const all = await admin.projects.list("acme");
        expect(all.items.map((project) => project.name).sort()).toEqual(["Apps", "Default Project"]);
        const maintain = new WosClient({ address: server.url, token: TOKENS.appsMaintain });
        const creatable = await maintain.projects.list("acme", { canCreateWorkspace: true, sort: "name" });
        expect(creatable.items.map((project) => project.name)).toEqual(["Apps", "Staging"]);
    });

    it("iterates over every page with listAll, each project once", async () => {
        const org = "globex";
        const client = new WosClient({ address: server.url, token: TOKENS.globexOwners });
        const made: Project[] = [];
        for (let i = 0; i < 7; i++) made.push(await client.projects.create(org, { name: uniqueName("page") }));
        const firstPage = await client.projects.list(org, { pageSize: 3 });
        expect(firstPage.pagination.totalPages).toBeGreaterThan(2);

        const seen: string[] = [];
        for await (const project of client.projects.listAll(org, { pageSize: 3 })) seen.push(project.id);
        expect(seen).toHaveLength(firstPage.pagination.totalCount);
        expect(new Set(seen).size).toBe(seen.length);
        for (const project of made) expect(seen).toContain(project.id);
    });

    it("deletes a project; reading it afterwards is a WosNotFoundError", async () => {
        const project = await owners.projects.create("acme", { name: uniqueName() });
        await owners.projects.delete(project.id);
        const error = await owners.projects.read(project.id).catch((e: unknown) => e);
        expect(WosNotFoundError.isInstance(error)).toBe(true);
    });

    it("refuses to delete a project that has workspaces with a WosConflictError carrying the service's message", async () => {
        const staging = (await owners.projects.list("acme", { names: ["Staging"] })).items[0];
        const error = await owners.projects.delete(staging.id).catch((e: unknown) => e);
        expect(WosConflictError.isInstance(error)).toBe(true);
        const conflict = error as WosConflictError;
        expect(conflict.status).toBe(409);
        expect(conflict.errors[0].status).toBe("409");
        expect(conflict.message).toContain(conflict.errors[0].detail ?? conflict.errors[0].title);
    });

    it("moves workspaces into a project, which changes their effective tags", async () => {
        const target = await owners.projects.create("acme", {
            name: uniqueName("target"),
            tagBindings: [{ key: "moved", value: "yes" }],
        });
        await owners.projects.moveWorkspaces(target.id, [WORKSPACES.defaultProject]);
        const workspace = await owners.workspaces.read(WORKSPACES.defaultProject);
        expect(workspace.projectId).toBe(target.id);
        expect((await owners.projects.read(target.id)).workspaceCount).toBe(1);
        const tags = await owners.workspaces.listEffectiveTagBindings(WORKSPACES.defaultProject);
        expect(tags.map(({ key, value }) => ({ key, value }))).toEqual([{ key: "moved", value: "yes" }]);
    });
});

describe("Workspaces", () => {
    it("reads a seeded workspace with its project and organization", async () => {
        const workspace = await owners.workspaces.read(WORKSPACES.appsLegacy);
        expect(workspace).toMatchObject({ id: WORKSPACES.appsLegacy, name: "legacy-app", organization: "acme" });
        expect(workspace.projectId).toMatch(/^prj-/);
    });

    it("updates a workspace's name, description and auto-apply", async () => {
        const updated = await owners.workspaces.update(WORKSPACES.appsWeb, {
            name: "web-app-renamed",
            description: "front end",
            autoApply: true,
        });
        expect(updated).toMatchObject({ name: "web-app-renamed", description: "front end", autoApply: true });
        expect(await owners.workspaces.read(WORKSPACES.appsWeb)).toMatchObject({ name: "web-app-renamed", autoApply: true });
        const cleared = await owners.workspaces.update(WORKSPACES.appsWeb, { name: "web-app", description: null });
        expect(cleared.description ?? null).toBeNull();
    });

    it("deletes a workspace; reading it afterwards is a WosNotFoundError", async () => {
        const client = new WosClient({ address: server.url, token: TOKENS.globexOwners });
        await client.workspaces.delete(WORKSPACES.globex);
        await expect(client.workspaces.read(WORKSPACES.globex)).rejects.toBeInstanceOf(WosNotFoundError);
    });
});

function byKey(a: { key: string }, b: { key: string }) {
    return a.key.localeCompare(b.key);
}
