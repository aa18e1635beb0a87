/**
 * Contract of `POST /projects/:id/relationships/workspaces`: 204 on success with the counts following;
 * all-or-nothing under every permission case (403 when a workspace is unknown or cannot be moved out of
 * its project, 404 when the destination is unknown or cannot be moved into), other organizations, and
 * body validation.
 *
 * Every test moves seeded workspaces, so every test gets a freshly seeded server.
 */
import { startTestServer, type TestServer } from "../support/server";
import { TOKENS, WORKSPACES } from "../support/seed";
import {
    acmeProjectIds,
    clientFor,
    expectErrors,
    expectStatus,
    expectUnchanged,
    expectValidation,
    moveDocument,
    projectId,
    projectOf,
    snapshot,
    workspaceCount,
} from "./helpers";

let server: TestServer;
let ids: Awaited<ReturnType<typeof acmeProjectIds>>;

beforeEach(async () => {
    server = await startTestServer();
    ids = await acmeProjectIds(server);
});

afterEach(async () => {
    await server?.close();
});

function move(token: string, destination: string, workspaceIds: string[]) {
    return clientFor(server, token).post(`/projects/${destination}/relationships/workspaces`, moveDocument(workspaceIds));
}

/** Sends a move that must be refused with `status`, and proves nothing moved. */
async function expectRefusedMove(token: string, destination: string, workspaceIds: string[], status: number): Promise<void> {
    const before = await snapshot(server);
    expectErrors(await move(token, destination, workspaceIds), status);
    await expectUnchanged(server, before);
}

describe("success", () => {
    test("owners move two workspaces: 204 with no body; both are in the destination and the counts follow", async () => {
        const response = await move(TOKENS.owners, ids.Staging, [WORKSPACES.appsLegacy, WORKSPACES.appsWeb]);
        expectStatus(response, 204);
        expect(response.text).toBe("");
        expect(await projectOf(server, WORKSPACES.appsLegacy)).toBe(ids.Staging);
        expect(await projectOf(server, WORKSPACES.appsWeb)).toBe(ids.Staging);
        expect(await workspaceCount(server, ids.Apps)).toBe(0);
        expect(await workspaceCount(server, ids.Staging)).toBe(3);
    });

    test("moves workspaces from different source projects in one request", async () => {
        expectStatus(await move(TOKENS.owners, ids.Empty, [WORKSPACES.appsWeb, WORKSPACES.staging, WORKSPACES.defaultProject]), 204);
        expect(await workspaceCount(server, ids.Empty)).toBe(3);
        expect(await workspaceCount(server, ids.Apps)).toBe(1);
        expect(await workspaceCount(server, ids.Staging)).toBe(0);
        expect(await workspaceCount(server, ids["Default Project"])).toBe(0);
    });

    test.each([
        ["the manageProjects team", TOKENS.platform],
        ["the organization token", TOKENS.acmeOrganization],
        ["an owners user", TOKENS.alice],
    ])("%s may move any workspace into any project", async (_label, token) => {
        expectStatus(await move(token, ids.Empty, [WORKSPACES.defaultProject, WORKSPACES.appsLegacy]), 204);
        expect(await projectOf(server, WORKSPACES.defaultProject)).toBe(ids.Empty);
        expect(await projectOf(server, WORKSPACES.appsLegacy)).toBe(ids.Empty);
    });

    test("a team with maintain on both projects moves a workspace from one to the other", async () => {
        expectStatus(await move(TOKENS.appsMaintain, ids.Staging, [WORKSPACES.appsWeb]), 204);
        expect(await projectOf(server, WORKSPACES.appsWeb)).toBe(ids.Staging);
    });

    test("a user whose two teams together give maintain on both projects may move (union of teams)", async () => {
        expectStatus(await move(TOKENS.bob, ids.Staging, [WORKSPACES.appsLegacy]), 204);
        expect(await projectOf(server, WORKSPACES.appsLegacy)).toBe(ids.Staging);
    });

    test("a team with admin on source and destination (Apps to Apps) may move", async () => {
        expectStatus(await move(TOKENS.appsAdmin, ids.Apps, [WORKSPACES.appsLegacy]), 204);
        expect(await projectOf(server, WORKSPACES.appsLegacy)).toBe(ids.Apps);
    });
});

describe("403: a workspace unknown or not movable out of its project; nothing moves", () => {
    test("an unknown workspace id beside valid ones", async () => {
        await expectRefusedMove(TOKENS.owners, ids.Staging, [WORKSPACES.appsLegacy, "ws-doesnotexist0000", WORKSPACES.appsWeb], 403);
    });

    test("a workspace of another organization beside a valid one", async () => {
        await expectRefusedMove(TOKENS.owners, ids.Staging, [WORKSPACES.appsLegacy, WORKSPACES.globex], 403);
    });

    test("a workspace in a project the caller cannot see (maintain team moving a Default Project workspace)", async () => {
        await expectRefusedMove(TOKENS.appsMaintain, ids.Staging, [WORKSPACES.appsWeb, WORKSPACES.defaultProject], 403);
    });

    test("a workspace in a project the caller may only read (admin team on Apps, read on Default Project)", async () => {
        await expectRefusedMove(TOKENS.appsAdmin, ids.Apps, [WORKSPACES.defaultProject], 403);
    });
});

describe("404: destination unknown or not movable into; nothing moves", () => {
    test("a destination project that does not exist", async () => {
        await expectRefusedMove(TOKENS.owners, "prj-doesnotexist0000", [WORKSPACES.appsLegacy], 404);
    });

    test("a destination project of another organization", async () => {
        const globex = await projectId(server, "Globex Apps", "globex");
        await expectRefusedMove(TOKENS.owners, globex, [WORKSPACES.appsLegacy], 404);
    });

    test("a destination the caller may only read (admin team on Apps moving into Default Project)", async () => {
        await expectRefusedMove(TOKENS.appsAdmin, ids["Default Project"], [WORKSPACES.appsWeb], 404);
    });
});

describe("body", () => {
    test("an item whose type is not workspaces: 422 at /data/0/type, nothing moves", async () => {
        const before = await snapshot(server);
        const response = await clientFor(server, TOKENS.owners).post(`/projects/${ids.Staging}/relationships/workspaces`, {
            data: [{ type: "projects", id: WORKSPACES.appsLegacy }],
        });
        expectValidation(response, "/data/0/type");
        await expectUnchanged(server, before);
    });

    test("an item without an id: 422 at /data/1/id, nothing moves", async () => {
        const before = await snapshot(server);
        const response = await clientFor(server, TOKENS.owners).post(`/projects/${ids.Staging}/relationships/workspaces`, {
            data: [{ type: "workspaces", id: WORKSPACES.appsLegacy }, { type: "workspaces" }],
        });
        expectValidation(response, "/data/1/id");
        await expectUnchanged(server, before);
    });

    test("data that is not a list: 422 at /data, nothing moves", async () => {
        const before = await snapshot(server);
        const response = await clientFor(server, TOKENS.owners).post(`/projects/${ids.Staging}/relationships/workspaces`, {
            data: { type: "workspaces", id: WORKSPACES.appsLegacy },
        });
        expectValidation(response, "/data");
        await expectUnchanged(server, before);
    });
});
