/**
 * Contract of `GET`, `PATCH` and `DELETE /workspaces/:id` (the hosted service's workspace endpoints that
 * the local service adds for seeded workspaces), the project's auto-destroy duration reaching its
 * workspaces, and `GET /ping`.
 */
import { startTestServer, type TestServer } from "../support/server";
import { TOKENS, WORKSPACES } from "../support/seed";
import {
    acmeProjectIds,
    clientFor,
    createVariable,
    expectErrors,
    expectStatus,
    expectUnchanged,
    expectValidation,
    projectDocument,
    snapshot,
    withSeededServer,
    workspaceCount,
    type AcmeProjectIds,
    type Client,
} from "./helpers";

const AGENT_POOL = "apool-0000000000000001";

let server: TestServer;
let owners: Client;
let ids: AcmeProjectIds;

withSeededServer((started) => ({ server, owners, ids } = started));

function workspaceDocument(attributes: Record<string, unknown>): unknown {
    return { data: { type: "workspaces", attributes } };
}

describe("GET /workspaces/:id", () => {
    test("answers 200 with the workspace resource: name, settings, project and organization, self link", async () => {
        const response = await owners.get(`/workspaces/${WORKSPACES.appsLegacy}`);
        expectStatus(response, 200);
        const data = response.body.data;
        expect(data.type).toBe("workspaces");
        expect(data.id).toBe(WORKSPACES.appsLegacy);
        expect(data.attributes.name).toBe("legacy-app");
        expect(typeof data.attributes["auto-apply"]).toBe("boolean");
        expect(data.attributes["execution-mode"]).toBe("remote");
        expect(data.relationships.project.data).toEqual({ id: ids.Apps, type: "projects" });
        expect(data.relationships.organization.data).toEqual({ id: "acme", type: "organizations" });
        expect(data.links.self).toMatch(new RegExp(`/workspaces/${WORKSPACES.appsLegacy}$`));
    });

    test("a team that reads the project sees its workspaces", async () => {
        expectStatus(await clientFor(server, TOKENS.appsRead).get(`/workspaces/${WORKSPACES.appsWeb}`), 200);
    });

    test("answers 404 to a team without access to the workspace's project", async () => {
        expectErrors(await clientFor(server, TOKENS.appsRead).get(`/workspaces/${WORKSPACES.defaultProject}`), 404);
        expectErrors(await clientFor(server, TOKENS.noAccess).get(`/workspaces/${WORKSPACES.appsWeb}`), 404);
    });

    test("answers 404 for a workspace that does not exist", async () => {
        expectErrors(await owners.get("/workspaces/ws-doesnotexist0000"), 404);
    });

    test("answers 404 for a workspace of another organization", async () => {
        expectErrors(await owners.get(`/workspaces/${WORKSPACES.globex}`), 404);
    });
});

describe("PATCH /workspaces/:id", () => {
    test("changes name, description, auto-apply, source-name and source-url: 200, and reads back", async () => {
        const attributes = {
            name: "legacy-app-renamed",
            description: "renamed by a test",
            "auto-apply": true,
            "source-name": "console",
            "source-url": "https://example.com/console",
        };
        const response = await owners.patch(`/workspaces/${WORKSPACES.appsLegacy}`, workspaceDocument(attributes));
        expectStatus(response, 200);
        expect(response.body.data.type).toBe("workspaces");
        expect(response.body.data.attributes).toEqual(expect.objectContaining(attributes));
        const show = await owners.get(`/workspaces/${WORKSPACES.appsLegacy}`);
        expect(show.body.data.attributes).toEqual(expect.objectContaining(attributes));
    });

    test("omitted attributes keep their value", async () => {
        expectStatus(await owners.patch(`/workspaces/${WORKSPACES.appsWeb}`, workspaceDocument({ description: "first" })), 200);
        expectStatus(await owners.patch(`/workspaces/${WORKSPACES.appsWeb}`, workspaceDocument({ "auto-apply": true })), 200);
        const show = await owners.get(`/workspaces/${WORKSPACES.appsWeb}`);
        expect(show.body.data.attributes).toEqual(
            expect.objectContaining({ name: "web-app", description: "first", "auto-apply": true }),
        );
    });

    test("switches to agent execution with an agent pool of the organization, and back to remote", async () => {
        const agent = await owners.patch(
            `/workspaces/${WORKSPACES.staging}`,
            workspaceDocument({ "execution-mode": "agent", "agent-pool-id": AGENT_POOL }),
        );
        expectStatus(agent, 200);
        expect(agent.body.data.attributes["execution-mode"]).toBe("agent");
        expect(agent.body.data.relationships["agent-pool"].data.id).toBe(AGENT_POOL);

        const remote = await owners.patch(
            `/workspaces/${WORKSPACES.staging}`,
            workspaceDocument({ "execution-mode": "remote", "agent-pool-id": null }),
        );
        expectStatus(remote, 200);
        expect(remote.body.data.attributes["execution-mode"]).toBe("remote");
        expect(remote.body.data.relationships?.["agent-pool"]?.data ?? null).toBeNull();
    });

    test("accepts a name of 90 characters", async () => {
        const name = "w".repeat(90);
        const response = await owners.patch(`/workspaces/${WORKSPACES.defaultProject}`, workspaceDocument({ name }));
        expectStatus(response, 200);
        expect(response.body.data.attributes.name).toBe(name);
        expectStatus(await owners.patch(`/workspaces/${WORKSPACES.defaultProject}`, workspaceDocument({ name: "scratch" })), 200);
    });

    test("accepts the name of a workspace of another organization", async () => {
        expectStatus(await owners.patch(`/workspaces/${WORKSPACES.defaultProject}`, workspaceDocument({ name: "globex-app" })), 200);
        expectStatus(await owners.patch(`/workspaces/${WORKSPACES.defaultProject}`, workspaceDocument({ name: "scratch" })), 200);
    });

    test.each([
        ["the name of another workspace of the organization", { name: "staging-app" }, "/data/attributes/name"],
        ["a name of 91 characters", { name: "w".repeat(91) }, "/data/attributes/name"],
        ["an empty name", { name: "" }, "/data/attributes/name"],
        ["a name with a space", { name: "two words" }, "/data/attributes/name"],
        ["a description of 257 characters", { description: "d".repeat(257) }, "/data/attributes/description"],
        ["auto-apply as a string", { "auto-apply": "yes" }, "/data/attributes/auto-apply"],
        ["an execution mode that does not exist", { "execution-mode": "local" }, "/data/attributes/execution-mode"],
        ["a source-url that is not a URL", { "source-url": "not a url" }, "/data/attributes/source-url"],
    ])("refuses %s: 422 at its pointer, nothing written", async (_label, attributes, pointer) => {
        const before = await snapshot(server);
        const response = await owners.patch(
            `/workspaces/${WORKSPACES.defaultProject}`,
            workspaceDocument({ description: "valid but must not be written", ...attributes }),
        );
        expectValidation(response, pointer);
        await expectUnchanged(server, before);
    });

    test.each([
        ["agent execution without an agent pool", { "execution-mode": "agent" }],
        ["remote execution with an agent pool", { "execution-mode": "remote", "agent-pool-id": AGENT_POOL }],
        ["an agent pool that does not exist", { "execution-mode": "agent", "agent-pool-id": "apool-doesnotexist00" }],
    ])("refuses %s: 422 under /data/attributes, nothing written", async (_label, attributes) => {
        const before = await snapshot(server);
        const response = await owners.patch(`/workspaces/${WORKSPACES.defaultProject}`, workspaceDocument(attributes));
        const errors = expectValidation(response);
        for (const error of errors) expect(error.source.pointer).toMatch(/^\/data\/attributes\//);
        await expectUnchanged(server, before);
    });

    test("refuses a data.type other than workspaces: 422 at /data/type, nothing written", async () => {
        const before = await snapshot(server);
        const response = await owners.patch(`/workspaces/${WORKSPACES.defaultProject}`, {
            data: { type: "projects", attributes: { description: "x" } },
        });
        expectValidation(response, "/data/type");
        await expectUnchanged(server, before);
    });

    test("answers 404 to a team that may only read the project, nothing written", async () => {
        const before = await snapshot(server);
        expectErrors(
            await clientFor(server, TOKENS.appsRead).patch(`/workspaces/${WORKSPACES.appsWeb}`, workspaceDocument({ description: "no" })),
            404,
        );
        await expectUnchanged(server, before);
    });

    test("answers 404 for a workspace of another organization, nothing written", async () => {
        const before = await snapshot(server);
        expectErrors(await owners.patch(`/workspaces/${WORKSPACES.globex}`, workspaceDocument({ description: "no" })), 404);
        await expectUnchanged(server, before);
    });

    test("answers 404 for a workspace that does not exist", async () => {
        expectErrors(await owners.patch("/workspaces/ws-doesnotexist0000", workspaceDocument({ description: "no" })), 404);
    });
});

describe("project auto-destroy-activity-duration reaches the project's workspaces", () => {
    async function durationOf(workspace: string): Promise<string | null> {
        const show = await owners.get(`/workspaces/${workspace}`);
        expectStatus(show, 200);
        return show.body.data.attributes["auto-destroy-activity-duration"];
    }

    function move(workspace: string, project: string) {
        return owners.post(`/projects/${project}/relationships/workspaces`, { data: [{ type: "workspaces", id: workspace }] });
    }

    test("a change on the project shows on each of its workspaces, and only there", async () => {
        expectStatus(await owners.patch(`/projects/${ids.Apps}`, projectDocument({ "auto-destroy-activity-duration": "7d" })), 200);
        expect(await durationOf(WORKSPACES.appsLegacy)).toBe("7d");
        expect(await durationOf(WORKSPACES.appsWeb)).toBe("7d");
        expect(await durationOf(WORKSPACES.staging)).toBeNull();
    });

    test("a workspace moved into another project takes that project's duration, and the first one's back when moved back", async () => {
        expectStatus(await owners.patch(`/projects/${ids.Apps}`, projectDocument({ "auto-destroy-activity-duration": "7d" })), 200);
        expectStatus(await owners.patch(`/projects/${ids.Empty}`, projectDocument({ "auto-destroy-activity-duration": "36h" })), 200);
        expectStatus(await move(WORKSPACES.appsWeb, ids.Empty), 204);
        expect(await durationOf(WORKSPACES.appsWeb)).toBe("36h");
        expectStatus(await move(WORKSPACES.appsWeb, ids.Staging), 204);
        expect(await durationOf(WORKSPACES.appsWeb)).toBeNull();
        expectStatus(await move(WORKSPACES.appsWeb, ids.Apps), 204);
        expect(await durationOf(WORKSPACES.appsWeb)).toBe("7d");
    });

    test("null on the project clears it on its workspaces", async () => {
        expectStatus(await owners.patch(`/projects/${ids.Apps}`, projectDocument({ "auto-destroy-activity-duration": "7d" })), 200);
        expect(await durationOf(WORKSPACES.appsLegacy)).toBe("7d");
        expectStatus(await owners.patch(`/projects/${ids.Apps}`, projectDocument({ "auto-destroy-activity-duration": null })), 200);
        expect(await durationOf(WORKSPACES.appsLegacy)).toBeNull();
        expect(await durationOf(WORKSPACES.appsWeb)).toBeNull();
    });
});

describe("DELETE /workspaces/:id", () => {
    // A fresh service per test: each one deletes what it needs, so every test runs alone as well as after the others.
    let server: TestServer;
    let owners: Client;
    let ids: AcmeProjectIds;
    beforeEach(async () => {
        server = await startTestServer();
        owners = clientFor(server, TOKENS.owners);
        ids = await acmeProjectIds(server);
    });
    afterEach(async () => {
        await server?.close();
    });

    test("answers 404 to a team that may only read the project, nothing deleted", async () => {
        const before = await snapshot(server);
        expectErrors(await clientFor(server, TOKENS.appsRead).delete(`/workspaces/${WORKSPACES.appsWeb}`), 404);
        await expectUnchanged(server, before);
    });

    test("answers 404 for a workspace of another organization, nothing deleted", async () => {
        const before = await snapshot(server);
        expectErrors(await owners.delete(`/workspaces/${WORKSPACES.globex}`), 404);
        await expectUnchanged(server, before);
    });

    test("deletes: 204 with no body; the workspace, its variables and its count in the project are gone", async () => {
        const variable = await createVariable(server, WORKSPACES.staging, { key: "GOES_AWAY", category: "env" });
        expect(await workspaceCount(server, ids.Staging)).toBe(1);
        const response = await owners.delete(`/workspaces/${WORKSPACES.staging}`);
        expectStatus(response, 204);
        expect(response.text).toBe("");
        expectErrors(await owners.get(`/workspaces/${WORKSPACES.staging}`), 404);
        expect(await workspaceCount(server, ids.Staging)).toBe(0);
        const all = await owners.get("/vars");
        expect(all.body.data.map((item: any) => item.id)).not.toContain(variable.id);
        expectErrors(await owners.delete(`/vars/${variable.id}`), 404);
    });

    test("a project whose last workspace was deleted can be deleted", async () => {
        // With its workspace, Staging cannot be deleted; once the workspace is deleted, it can.
        expectErrors(await owners.delete(`/projects/${ids.Staging}`), 409);
        expectStatus(await owners.delete(`/workspaces/${WORKSPACES.staging}`), 204);
        expectStatus(await owners.delete(`/projects/${ids.Staging}`), 204);
        expectErrors(await owners.get(`/projects/${ids.Staging}`), 404);
    });

    test("deleting the same workspace twice answers 404 the second time, and nothing else is deleted", async () => {
        expectStatus(await owners.delete(`/workspaces/${WORKSPACES.staging}`), 204);
        const before = await snapshot(server);
        expectErrors(await owners.delete(`/workspaces/${WORKSPACES.staging}`), 404);
        await expectUnchanged(server, before);
    });
});

describe("GET /ping", () => {
    test("answers 204 with X-RateLimit-Limit (0: no limit by default), even without a token", async () => {
        for (const response of [await owners.get("/ping"), await clientFor(server, undefined).get("/ping")]) {
            expectStatus(response, 204);
            expect(response.headers["x-ratelimit-limit"]).toBe("0");
        }
    });
});
