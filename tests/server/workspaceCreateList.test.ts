/**
 * Contract of `POST /organizations/:org/workspaces` (the hosted service's create: name rules, unique in the
 * organization, the project relationship with `Default Project` as its default, settings, authorization at
 * each access level, nothing written on a refusal) and `GET /organizations/:org/workspaces` (`search[name]`,
 * `filter[project][id]`, `sort`, pagination as for projects, only what the caller can read), over raw HTTP.
 */
import type { TestServer } from "../support/server";
import { TOKENS, WORKSPACES } from "../support/seed";
import {
    AGENT_POOL,
    clientFor,
    createProject,
    expectErrors,
    expectNoWorkspaceNamed,
    expectStatus,
    expectUnauthorized,
    expectUnchanged,
    expectValidation,
    http,
    snapshot,
    withSeededServer,
    workspaceCount,
    type AcmeProjectIds,
    type Client,
    type HttpResponse,
} from "./helpers";

const CREATE = "/organizations/acme/workspaces";
const LIST = "/organizations/acme/workspaces";

let counter = 0;
/** A workspace name no other request of this file uses. */
function uniqueName(prefix = "ws"): string {
    counter += 1;
    return `${prefix}-${process.pid}-${counter}`;
}

/** `POST /organizations/:org/workspaces` body; `project` is left out unless given. */
function createDocument(attributes: Record<string, unknown>, project?: { id: string; type?: string } | null): unknown {
    const data: Record<string, unknown> = { type: "workspaces", attributes };
    if (project !== undefined) data.relationships = { project: { data: project === null ? null : { type: project.type ?? "projects", id: project.id } } };
    return { data };
}

function namesOf(response: HttpResponse): string[] {
    return response.body.data.map((workspace: any) => workspace.attributes.name);
}

describe("POST /organizations/:organization/workspaces", () => {
    let server: TestServer;
    let owners: Client;
    let ids: AcmeProjectIds;
    withSeededServer((started) => ({ server, owners, ids } = started));

    /**
     * Asserts that a refused create wrote nothing: the state (every project's workspace count included) is as
     * before, and no workspace has the name sent (when it is one a workspace could have and none had).
     */
    async function expectRefusedWithoutWrite(request: () => Promise<HttpResponse>, status: number, name: string | undefined, pointer?: string) {
        const before = await snapshot(server);
        const response = await request();
        if (status === 422) expectValidation(response, ...(pointer ? [pointer] : []));
        else expectErrors(response, status);
        await expectUnchanged(server, before);
        if (name !== undefined) await expectNoWorkspaceNamed(server, name);
        return response;
    }

    test("creates a workspace with every setting: 201, the workspace resource, and it reads back by id and by name", async () => {
        const name = uniqueName("full");
        const attributes = {
            name,
            description: "made by a contract test",
            "auto-apply": true,
            "execution-mode": "agent",
            "agent-pool-id": AGENT_POOL,
            "source-name": "contract tests",
            "source-url": "https://example.com/contract-tests",
        };
        const response = await owners.post(CREATE, createDocument(attributes, { id: ids.Apps }));
        expectStatus(response, 201);
        const data = response.body.data;
        expect(data.type).toBe("workspaces");
        expect(data.id).toMatch(/^ws-[A-Za-z0-9]{16}$/);
        const { "agent-pool-id": _pool, ...shown } = attributes;
        expect(data.attributes).toEqual(expect.objectContaining({ ...shown, source: "tfe-api", "source-module-id": null }));
        expect(data.attributes["setting-overwrites"]).toEqual({ "execution-mode": true, "agent-pool": true });
        expect(data.relationships.project.data).toEqual({ id: ids.Apps, type: "projects" });
        expect(data.relationships.organization.data).toEqual({ id: "acme", type: "organizations" });
        expect(data.relationships["agent-pool"].data).toEqual({ id: AGENT_POOL, type: "agent-pools" });
        expect(data.relationships["no-code-module-version"].data).toBeNull();
        expect(data.attributes.permissions["can-update"]).toBe(true);

        const byId = await owners.get(`/workspaces/${data.id}`);
        expectStatus(byId, 200);
        expect(byId.body.data.attributes).toEqual(expect.objectContaining(shown));
        const byName = await owners.get(`/organizations/acme/workspaces/${name.toUpperCase()}`);
        expectStatus(byName, 200);
        expect(byName.body.data.id).toBe(data.id);
    });

    test("without a project relationship the workspace goes to the organization's Default Project, with the defaults", async () => {
        const before = await workspaceCount(server, ids["Default Project"]);
        const response = await owners.post(CREATE, createDocument({ name: uniqueName("default") }));
        expectStatus(response, 201);
        const data = response.body.data;
        expect(data.relationships.project.data.id).toBe(ids["Default Project"]);
        expect(data.attributes).toEqual(
            expect.objectContaining({
                description: null,
                "auto-apply": false,
                "execution-mode": "remote",
                "source-name": null,
                "source-url": null,
                "setting-overwrites": { "execution-mode": false, "agent-pool": false },
            }),
        );
        expect(data.relationships["agent-pool"].data).toBeNull();
        expect(await workspaceCount(server, ids["Default Project"])).toBe(before + 1);
    });

    test("accepts the project relationship typed 'projects' (go-tfe) and 'project' (the API's no-code spelling)", async () => {
        for (const type of ["projects", "project"]) {
            const response = await owners.post(CREATE, createDocument({ name: uniqueName(type) }, { id: ids.Staging, type }));
            expectStatus(response, 201);
            expect(response.body.data.relationships.project.data.id).toBe(ids.Staging);
        }
    });

    test("a new workspace inherits its project's auto-destroy-activity-duration", async () => {
        const projectId = await createProject(server, { name: "Ws Duration", "auto-destroy-activity-duration": "9d" });
        const response = await owners.post(CREATE, createDocument({ name: uniqueName("dur") }, { id: projectId }));
        expectStatus(response, 201);
        expect(response.body.data.attributes["auto-destroy-activity-duration"]).toBe("9d");
    });

    test("accepts a name of 1 and of 90 characters, and the name of a workspace of another organization", async () => {
        for (const name of ["a", "n".repeat(90), "globex-app"]) {
            const response = await owners.post(CREATE, createDocument({ name }, { id: ids.Empty }));
            expectStatus(response, 201);
            expect(response.body.data.attributes.name).toBe(name);
        }
    });

    test.each([
        ["the name of another workspace of the organization", { name: "legacy-app" }, "/data/attributes/name"],
        ["that name in another case", { name: "LEGACY-APP" }, "/data/attributes/name"],
        ["a name of 91 characters", { name: "x".repeat(91) }, "/data/attributes/name"],
        ["an empty name", { name: "" }, "/data/attributes/name"],
        ["a name with a space", { name: "two words" }, "/data/attributes/name"],
        ["a name with a dot", { name: "a.b" }, "/data/attributes/name"],
        ["no name", { name: undefined }, "/data/attributes/name"],
        ["a description of 257 characters", { description: "d".repeat(257) }, "/data/attributes/description"],
        ["auto-apply as a string", { "auto-apply": "yes" }, "/data/attributes/auto-apply"],
        ["an execution mode that does not exist", { "execution-mode": "local" }, "/data/attributes/execution-mode"],
        ["agent execution without an agent pool", { "execution-mode": "agent" }, "/data/attributes/agent-pool-id"],
        ["remote execution with an agent pool", { "execution-mode": "remote", "agent-pool-id": AGENT_POOL }, "/data/attributes/agent-pool-id"],
        ["an agent pool without execution mode (remote by default)", { "agent-pool-id": AGENT_POOL }, "/data/attributes/agent-pool-id"],
        ["an agent pool that does not exist", { "execution-mode": "agent", "agent-pool-id": "apool-doesnotexist00" }, "/data/attributes/agent-pool-id"],
        ["a source-url that is not a URL", { "source-url": "not a url" }, "/data/attributes/source-url"],
        ["a source-name of 257 characters", { "source-name": "s".repeat(257) }, "/data/attributes/source-name"],
        ["a hosted setting this service does not have, at another value", { "queue-all-runs": true }, "/data/attributes/queue-all-runs"],
        ["another infra version than a new workspace has", { "terraform-version": "1.5.0" }, "/data/attributes/terraform-version"],
        ["a working directory", { "working-directory": "infra" }, "/data/attributes/working-directory"],
        ["a duration other than the project's", { "auto-destroy-activity-duration": "3d" }, "/data/attributes/auto-destroy-activity-duration"],
        ["a VCS repository", { "vcs-repo": { identifier: "acme/infra" } }, "/data/attributes/vcs-repo"],
        ["an execution-mode overwrite without the mode", { "setting-overwrites": { "execution-mode": true } }, "/data/attributes/setting-overwrites/execution-mode"],
    ])("refuses %s: 422 at its pointer, nothing written", async (_label, attributes, pointer) => {
        // A row without a name gets a fresh valid one, so that the name's absence afterwards proves something.
        const sent: unknown = "name" in attributes ? attributes.name : uniqueName("refused");
        const body = createDocument({ description: "valid but must not be written", ...attributes, name: sent }, { id: ids.Apps });
        const lookable = typeof sent === "string" && sent !== "" && sent.toLowerCase() !== "legacy-app" ? sent : undefined;
        await expectRefusedWithoutWrite(() => owners.post(CREATE, body), 422, lookable, pointer);
    });

    test("answers one error object per problem", async () => {
        const name = uniqueName("many");
        const response = await expectRefusedWithoutWrite(
            () => owners.post(CREATE, createDocument({ name, description: "d".repeat(257), "execution-mode": "local", "source-url": "nope" })),
            422,
            name,
        );
        expectValidation(response, "/data/attributes/description", "/data/attributes/execution-mode", "/data/attributes/source-url");
    });

    test("refuses workspace tag bindings (a workspace's tags are its project's): 422, nothing written", async () => {
        const name = uniqueName("tags");
        const body = {
            data: {
                type: "workspaces",
                attributes: { name },
                relationships: { "tag-bindings": { data: [{ type: "tag-bindings", attributes: { key: "a", value: "b" } }] } },
            },
        };
        await expectRefusedWithoutWrite(() => owners.post(CREATE, body), 422, name, "/data/relationships/tag-bindings/data");
    });

    test("refuses a project relationship with data null: 422, nothing written", async () => {
        const name = uniqueName("nullproject");
        await expectRefusedWithoutWrite(() => owners.post(CREATE, createDocument({ name }, null)), 422, name, "/data/relationships/project/data");
    });

    test("refuses a data.type other than workspaces: 422 at /data/type, nothing written", async () => {
        const name = uniqueName("type");
        await expectRefusedWithoutWrite(() => owners.post(CREATE, { data: { type: "projects", attributes: { name } } }), 422, name, "/data/type");
    });

    test("answers 400 to a body that is not JSON or has no data, nothing written", async () => {
        const before = await snapshot(server);
        expectErrors(await owners.raw("POST", CREATE, "{not json"), 400);
        expectErrors(await owners.post(CREATE, { attributes: { name: "x" } }), 400);
        await expectUnchanged(server, before);
    });

    test("accepts the hosted settings at the one value this service has, and the new workspace's own values", async () => {
        const response = await owners.post(
            CREATE,
            createDocument({
                name: uniqueName("hosted"),
                type: "workspaces",
                "queue-all-runs": false,
                "allow-destroy-plan": true,
                "terraform-version": "1.9.0",
                "working-directory": null,
                "vcs-repo": {},
                "setting-overwrites": {},
            }),
        );
        expectStatus(response, 201);
        expect(response.body.data.attributes["infra-version"]).toBe("1.9.0");
    });

    describe("authorization", () => {
        test.each([
            ["the owners team", TOKENS.owners, "Empty"],
            ["a user on the owners team", TOKENS.alice, "Empty"],
            ["a team with manage projects", TOKENS.platform, "Empty"],
            ["the organization token (acts like manage projects)", TOKENS.acmeOrganization, "Empty"],
            ["a team with maintain on the project", TOKENS.appsMaintain, "Apps"],
            ["a team with admin on the project", TOKENS.appsAdmin, "Apps"],
            ["a user whose teams' union gives maintain", TOKENS.bob, "Staging"],
        ] as const)("%s may create a workspace in the project: 201, and it exists", async (_label, token, project) => {
            const name = uniqueName("allowed");
            const response = await clientFor(server, token).post(CREATE, createDocument({ name }, { id: ids[project] }));
            expectStatus(response, 201);
            const read = await owners.get(`/workspaces/${response.body.data.id}`);
            expectStatus(read, 200);
            expect(read.body.data.attributes.name).toBe(name);
            expect(read.body.data.relationships.project.data.id).toBe(ids[project]);
        });

        test.each([
            ["a team with write on the project", TOKENS.appsWrite, "Apps"],
            ["a team with read on the project", TOKENS.appsRead, "Apps"],
            ["a team with maintain elsewhere only", TOKENS.appsMaintain, "Empty"],
            ["a team with admin elsewhere and read here", TOKENS.appsAdmin, "Default Project"],
            ["a team with no project access", TOKENS.noAccess, "Apps"],
            ["a team that manages modules only", TOKENS.modules, "Apps"],
        ] as const)("%s may not: 404, nothing written", async (_label, token, project) => {
            const name = uniqueName("refused");
            await expectRefusedWithoutWrite(() => clientFor(server, token).post(CREATE, createDocument({ name }, { id: ids[project] })), 404, name);
        });

        test("a team that may not create workspaces in Default Project is refused a create without a project: 404, nothing written", async () => {
            const name = uniqueName("nodefault");
            for (const token of [TOKENS.appsMaintain, TOKENS.appsAdmin, TOKENS.appsRead]) {
                await expectRefusedWithoutWrite(() => clientFor(server, token).post(CREATE, createDocument({ name })), 404, name);
            }
        });

        test("a project that does not exist, or is of another organization: 404, nothing written", async () => {
            const globexProject = (await clientFor(server, TOKENS.globexOwners).get("/organizations/globex/projects")).body.data[0].id;
            for (const id of ["prj-doesnotexist0000", globexProject]) {
                const name = uniqueName("elsewhere");
                await expectRefusedWithoutWrite(() => owners.post(CREATE, createDocument({ name }, { id })), 404, name);
            }
        });

        test("another organization's path: 404, nothing written in either organization", async () => {
            const name = uniqueName("otherorg");
            const before = await snapshot(server);
            expectErrors(await owners.post("/organizations/globex/workspaces", createDocument({ name })), 404);
            expectErrors(await clientFor(server, TOKENS.globexOwners).post(CREATE, createDocument({ name })), 404);
            expectErrors(await owners.post("/organizations/nope/workspaces", createDocument({ name })), 404);
            await expectUnchanged(server, before);
            await expectNoWorkspaceNamed(server, name);
            await expectNoWorkspaceNamed(server, name, "globex");
        });

        test("no token, or an unknown one: 401 with the exact body, nothing written", async () => {
            const name = uniqueName("anonymous");
            const before = await snapshot(server);
            expectUnauthorized(await clientFor(server, undefined).post(CREATE, createDocument({ name })));
            expectUnauthorized(await clientFor(server, "not-a-token-of-this-service").post(CREATE, createDocument({ name })));
            await expectUnchanged(server, before);
            await expectNoWorkspaceNamed(server, name);
        });

        test("what a maintain team made it may change and delete, and a read team may see but not change", async () => {
            const maintain = clientFor(server, TOKENS.appsMaintain);
            const created = await maintain.post(CREATE, createDocument({ name: uniqueName("lifecycle") }, { id: ids.Apps }));
            expectStatus(created, 201);
            const id = created.body.data.id;
            expectStatus(await clientFor(server, TOKENS.appsRead).get(`/workspaces/${id}`), 200);
            expectErrors(await clientFor(server, TOKENS.appsRead).delete(`/workspaces/${id}`), 404);
            expectStatus(await maintain.patch(`/workspaces/${id}`, { data: { type: "workspaces", attributes: { description: "changed" } } }), 200);
            expectStatus(await maintain.delete(`/workspaces/${id}`), 204);
            expectErrors(await owners.get(`/workspaces/${id}`), 404);
        });
    });
});

describe("GET /organizations/:organization/workspaces", () => {
    let server: TestServer;
    let owners: Client;
    let ids: AcmeProjectIds;
    withSeededServer((started) => ({ server, owners, ids } = started));

    // The seed's four acme workspaces (legacy-app and web-app in Apps, staging-app in Staging, scratch in
    // Default Project), then 25 made here in Empty: 29 in all.
    const SEEDED = ["legacy-app", "web-app", "staging-app", "scratch"];
    const ITEMS = Array.from({ length: 25 }, (_, index) => `item-${String(index + 1).padStart(2, "0")}`);
    const ALL = [...SEEDED, ...ITEMS];

    beforeAll(async () => {
        for (const name of ITEMS) expectStatus(await owners.post(CREATE, createDocument({ name }, { id: ids.Empty })), 201);
        // Names whose characters are LIKE wildcards elsewhere: a search must take them literally.
        expectStatus(await owners.post(CREATE, createDocument({ name: "under_score" }, { id: ids.Staging })), 201);
        expectStatus(await owners.post(CREATE, createDocument({ name: "underXscore" }, { id: ids.Staging })), 201);
        ALL.push("under_score", "underXscore");
    });

    function pagination(response: HttpResponse): any {
        return response.body.meta.pagination;
    }

    test("the first page holds 20 workspaces by default in creation order, with meta.pagination, status-counts and absolute links", async () => {
        const response = await owners.get(LIST);
        expectStatus(response, 200);
        expect(namesOf(response)).toEqual(ALL.slice(0, 20));
        expect(pagination(response)).toEqual({
            "current-page": 1,
            "page-size": 20,
            "prev-page": null,
            "next-page": 2,
            "total-pages": 2,
            "total-count": 31,
        });
        expect(response.body.meta["status-counts"]).toEqual({ total: 31, matching: 31 });
        const links = response.body.links;
        expect(links.prev).toBeNull();
        for (const link of [links.self, links.first, links.next, links.last]) {
            expect(link.startsWith(`${server.url}/api/v2/organizations/acme/workspaces?`)).toBe(true);
        }
        expect(new URL(links.next).searchParams.get("page[number]")).toBe("2");
        expect(new URL(links.last).searchParams.get("page[number]")).toBe("2");
    });

    test("each item is the full workspace resource with the caller's own permissions", async () => {
        const response = await clientFor(server, TOKENS.appsRead).get(LIST);
        expectStatus(response, 200);
        const legacy = response.body.data.find((item: any) => item.id === WORKSPACES.appsLegacy);
        expect(legacy.type).toBe("workspaces");
        expect(legacy.relationships.project.data).toEqual({ id: ids.Apps, type: "projects" });
        expect(legacy.attributes.permissions).toEqual(expect.objectContaining({ "can-update": false, "can-read-variable": true }));
        const asOwners = (await owners.get(`/workspaces/${WORKSPACES.appsLegacy}`)).body.data;
        expect(asOwners.attributes.permissions["can-update"]).toBe(true);
    });

    test("following links.next walks every workspace exactly once, keeping the page size and the filters", async () => {
        const seen: string[] = [];
        let url: string | null = `${server.url}/api/v2${LIST}?search%5Bname%5D=item&page%5Bsize%5D=7`;
        let pages = 0;
        while (url !== null && pages < 10) {
            const response = await http(server, "GET", url, { token: TOKENS.owners });
            expectStatus(response, 200);
            seen.push(...namesOf(response));
            url = response.body.links.next;
            pages += 1;
        }
        expect(pages).toBe(4);
        expect(seen).toEqual(ITEMS);
    });

    test("page[size] and page[number] select the slice; above 100 is clamped; past the last page is empty", async () => {
        const slice = await owners.get(`${LIST}?page[size]=5&page[number]=3`);
        expectStatus(slice, 200);
        expect(namesOf(slice)).toEqual(ALL.slice(10, 15));
        expect(pagination(slice)).toEqual(expect.objectContaining({ "current-page": 3, "prev-page": 2, "next-page": 4, "total-pages": 7 }));
        const clamped = await owners.get(`${LIST}?page[size]=1000`);
        expect(pagination(clamped)["page-size"]).toBe(100);
        expect(namesOf(clamped)).toEqual(ALL);
        const past = await owners.get(`${LIST}?page[number]=9`);
        expectStatus(past, 200);
        expect(past.body.data).toEqual([]);
        expect(pagination(past)).toEqual(expect.objectContaining({ "current-page": 9, "prev-page": 8, "next-page": null, "total-count": 31 }));
    });

    test.each([["page[number]=0"], ["page[size]=0"], ["page[number]=-1"], ["page[size]=abc"], ["page[number]=1.5"]])(
        "%s: 400 naming the parameter",
        async (query) => {
            const response = await owners.get(`${LIST}?${query}`);
            const [error] = expectErrors(response, 400);
            expect(error.source.parameter).toBe(query.split("=")[0]);
        },
    );

    test("search[name] keeps names holding it, in any case, percent-encoded brackets or not", async () => {
        for (const path of [`${LIST}?search[name]=APP`, `${LIST}?search%5Bname%5D=app`]) {
            const response = await owners.get(path);
            expectStatus(response, 200);
            expect(namesOf(response)).toEqual(["legacy-app", "web-app", "staging-app"]);
            expect(response.body.meta["status-counts"]).toEqual({ total: 31, matching: 3 });
            expect(pagination(response)["total-count"]).toBe(3);
        }
    });

    test("search[name] takes every character literally: '_' and '%' are not wildcards", async () => {
        expect(namesOf(await owners.get(`${LIST}?search[name]=r_s`))).toEqual(["under_score"]);
        expect(namesOf(await owners.get(`${LIST}?search[name]=${encodeURIComponent("%")}`))).toEqual([]);
        expect(namesOf(await owners.get(`${LIST}?search[name]=nothing-like-it`))).toEqual([]);
    });

    test("a blank search[name] or filter[project][id] filters nothing", async () => {
        const response = await owners.get(`${LIST}?search[name]=&filter[project][id]=&page[size]=100`);
        expectStatus(response, 200);
        expect(namesOf(response)).toEqual(ALL);
    });

    test("filter[project][id] keeps the project's workspaces; with search[name] both apply", async () => {
        const apps = await owners.get(`${LIST}?filter%5Bproject%5D%5Bid%5D=${ids.Apps}`);
        expectStatus(apps, 200);
        expect(namesOf(apps)).toEqual(["legacy-app", "web-app"]);
        expect(apps.body.meta["status-counts"]).toEqual({ total: 31, matching: 2 });
        const both = await owners.get(`${LIST}?filter[project][id]=${ids.Empty}&search[name]=item-2`);
        expect(namesOf(both)).toEqual(["item-20", "item-21", "item-22", "item-23", "item-24", "item-25"]);
    });

    test("filter[project][id] of a project that does not exist, or of another organization, keeps nothing", async () => {
        const globexProject = (await clientFor(server, TOKENS.globexOwners).get("/organizations/globex/projects")).body.data[0].id;
        for (const id of ["prj-doesnotexist0000", globexProject]) {
            const response = await owners.get(`${LIST}?filter[project][id]=${id}`);
            expectStatus(response, 200);
            expect(response.body.data).toEqual([]);
            expect(response.body.meta["status-counts"]).toEqual({ total: 31, matching: 0 });
        }
    });

    test("sort=name and sort=-name order by name without regard to case; another sort: 400", async () => {
        // Byte order of the lower-cased names, as SQLite's NOCASE compares (no locale: '_' sorts before letters).
        const byName = [...ALL].sort((a, b) => (a.toLowerCase() < b.toLowerCase() ? -1 : a.toLowerCase() > b.toLowerCase() ? 1 : 0));
        expect(namesOf(await owners.get(`${LIST}?sort=name&page[size]=100`))).toEqual(byName);
        expect(namesOf(await owners.get(`${LIST}?sort=-name&page[size]=100`))).toEqual([...byName].reverse());
        const [error] = expectErrors(await owners.get(`${LIST}?sort=latest-change-at`), 400);
        expect(error.source.parameter).toBe("sort");
    });

    test.each([["search[tags]=a"], ["filter[agent-pool][id]=apool-1"], ["filter[tag-union]=maybe"], ["search[name]=a&search[name]=b"]])(
        "%s: 400 naming the parameter (a filter this service cannot apply is never dropped)",
        async (query) => {
            const response = await owners.get(`${LIST}?${query}`);
            const [error] = expectErrors(response, 400);
            expect(error.source.parameter).toBe(query.split("=")[0]);
        },
    );

    describe("only the workspaces the caller can read", () => {
        const listedBy = async (token: string, query = "") => {
            const response = await clientFor(server, token).get(`${LIST}?page[size]=100${query}`);
            expectStatus(response, 200);
            return response;
        };

        test.each([
            ["the owners team", TOKENS.owners, () => ALL],
            ["a team with manage projects", TOKENS.platform, () => ALL],
            ["the organization token", TOKENS.acmeOrganization, () => ALL],
            ["a team with read on Apps", TOKENS.appsRead, () => ["legacy-app", "web-app"]],
            ["a team with write on Apps", TOKENS.appsWrite, () => ["legacy-app", "web-app"]],
            ["a team with maintain on Apps and Staging", TOKENS.appsMaintain, () => ["legacy-app", "web-app", "staging-app", "under_score", "underXscore"]],
            ["a team with admin on Apps and read on Default Project", TOKENS.appsAdmin, () => ["legacy-app", "web-app", "scratch"]],
            ["a user on the read and maintain teams", TOKENS.bob, () => ["legacy-app", "web-app", "staging-app", "under_score", "underXscore"]],
            ["a team with no project access", TOKENS.noAccess, () => []],
            ["a team that manages modules only", TOKENS.modules, () => []],
        ] as const)("%s", async (_label, token, expected) => {
            const response = await listedBy(token);
            expect(namesOf(response)).toEqual(expected());
            expect(response.body.meta["status-counts"]).toEqual({ total: expected().length, matching: expected().length });
            expect(pagination(response)["total-count"]).toBe(expected().length);
        });

        test("a project filter names nothing the caller cannot read: another team's project keeps nothing", async () => {
            const response = await listedBy(TOKENS.appsRead, `&filter[project][id]=${ids.Empty}`);
            expect(response.body.data).toEqual([]);
            expect(response.body.meta["status-counts"]).toEqual({ total: 2, matching: 0 });
        });

        test("another organization's list: 404; no token or an unknown one: 401 with the exact body", async () => {
            expectErrors(await owners.get("/organizations/globex/workspaces"), 404);
            expectErrors(await clientFor(server, TOKENS.globexOwners).get(LIST), 404);
            expectErrors(await owners.get("/organizations/nope/workspaces"), 404);
            expectUnauthorized(await clientFor(server, undefined).get(LIST));
            expectUnauthorized(await clientFor(server, "not-a-token-of-this-service").get(LIST));
        });

        test("globex's owners see only globex's workspace", async () => {
            const response = await clientFor(server, TOKENS.globexOwners).get("/organizations/globex/workspaces");
            expectStatus(response, 200);
            expect(namesOf(response)).toEqual(["globex-app"]);
        });
    });

    test("a workspace moved, renamed or deleted is listed as it now is", async () => {
        const created = await owners.post(CREATE, createDocument({ name: "moving-one" }, { id: ids.Apps }));
        expectStatus(created, 201);
        const id = created.body.data.id;
        expect(namesOf(await owners.get(`${LIST}?filter[project][id]=${ids.Apps}`))).toContain("moving-one");
        expectStatus(await owners.post(`/projects/${ids.Staging}/relationships/workspaces`, { data: [{ type: "workspaces", id }] }), 204);
        expect(namesOf(await owners.get(`${LIST}?filter[project][id]=${ids.Apps}`))).not.toContain("moving-one");
        expect(namesOf(await owners.get(`${LIST}?filter[project][id]=${ids.Staging}`))).toContain("moving-one");
        expectStatus(await owners.patch(`/workspaces/${id}`, { data: { type: "workspaces", attributes: { name: "moved-one" } } }), 200);
        expect(namesOf(await owners.get(`${LIST}?search[name]=moving`))).toEqual([]);
        expect(namesOf(await owners.get(`${LIST}?search[name]=moved`))).toEqual(["moved-one"]);
        expectStatus(await owners.delete(`/workspaces/${id}`), 204);
        expect(namesOf(await owners.get(`${LIST}?search[name]=moved`))).toEqual([]);
    });
});
