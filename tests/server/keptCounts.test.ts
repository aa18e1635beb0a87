/**
 * The counts a project keeps (schema migration 5: `projects.workspace_count` and `projects.team_count`, kept by
 * triggers) and the list's hand-written answer (issue 6 "Scale").
 *
 * Every way a workspace or a team's access comes or goes is driven through the real service over HTTP (or a
 * seed, or a direct change to the file where the API has no such request), and each time the counts are read
 * back twice: through the API (show and list, with the numbers the seed and the test make) and straight from
 * the file, every project's kept columns against a count of its rows. A refused request changes neither. A
 * database written by schema 4 gets its counts filled by the migration. The list's bytes are compared with
 * what the update writes through `JSON.stringify` (same view) and its links with what `URLSearchParams` writes.
 */
import { randomBytes } from "node:crypto";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import Database from "better-sqlite3";
import { startServer } from "../../server/app";
import { migrate, openDatabase, SCHEMA_VERSION, type Db } from "../../server/db";
import { applySeed } from "../../server/seed";
import { secretsFromKey } from "../../server/secrets";
import { TOKENS, WORKSPACES } from "../support/seed";
import {
    clientFor,
    createNoCodeModule,
    createNoCodeWorkspace,
    expectErrors,
    expectStatus,
    expectValidation,
    moveDocument,
    noCodeTestSeed,
    poolModuleId,
    projectDocument,
    type Client,
    type Target,
} from "./helpers";

interface Service extends Target {
    db: Db;
    owners: Client;
    /** Ids of the seeded acme projects by name. */
    ids: Record<"Default Project" | "Apps" | "Staging" | "Empty", string>;
    close(): Promise<void>;
}

/** A service of its own for each test (the no-code seed: the test seed and a pool of registry modules). */
async function startService(): Promise<Service> {
    const started = await startServer({ dataPath: ":memory:", seed: noCodeTestSeed(), logLevel: "silent" });
    const db = started.app.wos.db;
    const idOf = (name: string) => (db.prepare("SELECT id FROM projects WHERE organization = 'acme' AND name = ?").get(name) as { id: string }).id;
    return {
        url: started.url,
        db,
        owners: clientFor({ url: started.url }, TOKENS.owners),
        ids: { "Default Project": idOf("Default Project"), Apps: idOf("Apps"), Staging: idOf("Staging"), Empty: idOf("Empty") },
        close: started.close,
    };
}

let service: Service | undefined;
afterEach(async () => {
    await service?.close();
    service = undefined;
});

/**
 * Every project whose kept counts differ from a count of its rows, as `[id, kept, counted]`; throws when any
 * does, naming them (so that a failing test says which project drifted and how).
 */
function expectCountsKept(db: Db): void {
    const drifted = db
        .prepare(
            `SELECT id, workspace_count, team_count,
                    (SELECT COUNT(*) FROM workspaces w WHERE w.project_id = p.id) AS workspaces,
                    (SELECT COUNT(*) FROM team_project_access a WHERE a.project_id = p.id) AS teams
             FROM projects p`,
        )
        .all()
        .filter((row: any) => row.workspace_count !== row.workspaces || row.team_count !== row.teams);
    if (drifted.length > 0) throw new Error(`kept counts out of step: ${JSON.stringify(drifted)}`);
}

/** A project's `[workspace-count, team-count]` in its show, its update's answer and its list item, which must agree. */
async function countsOf(target: Service, projectId: string): Promise<[number, number]> {
    const show = await target.owners.get(`/projects/${projectId}`);
    expectStatus(show, 200);
    const list = await target.owners.get("/organizations/acme/projects?page%5Bsize%5D=100");
    expectStatus(list, 200);
    const item = list.body.data.find((project: any) => project.id === projectId);
    const counts: [number, number] = [show.body.data.attributes["workspace-count"], show.body.data.attributes["team-count"]];
    expect([item.attributes["workspace-count"], item.attributes["team-count"]]).toEqual(counts);
    return counts;
}

/** `POST /organizations/acme/workspaces` in a project; answers the new workspace's id. */
async function createWorkspace(target: Service, name: string, projectId: string): Promise<string> {
    const response = await target.owners.post("/organizations/acme/workspaces", {
        data: { type: "workspaces", attributes: { name }, relationships: { project: { data: { type: "projects", id: projectId } } } },
    });
    expectStatus(response, 201);
    return response.body.data.id;
}

describe("the seed's counts, kept", () => {
    test("as the seed makes them: Apps 2 workspaces and 4 teams, Staging 1 and 1, Default Project 1 and 1, Empty 0 and 0", async () => {
        service = await startService();
        expect(await countsOf(service, service.ids.Apps)).toEqual([2, 4]);
        expect(await countsOf(service, service.ids.Staging)).toEqual([1, 1]);
        expect(await countsOf(service, service.ids["Default Project"])).toEqual([1, 1]);
        expect(await countsOf(service, service.ids.Empty)).toEqual([0, 0]);
        expectCountsKept(service.db);
    });
});

describe("workspaces coming, going and moving keep their projects' counts", () => {
    test("a create counts in its project, a delete leaves it", async () => {
        service = await startService();
        const id = await createWorkspace(service, "counted-one", service.ids.Empty);
        expect(await countsOf(service, service.ids.Empty)).toEqual([1, 0]);
        await createWorkspace(service, "counted-two", service.ids.Empty);
        expect(await countsOf(service, service.ids.Empty)).toEqual([2, 0]);
        expectCountsKept(service.db);

        expectStatus(await service.owners.delete(`/workspaces/${id}`), 204);
        expect(await countsOf(service, service.ids.Empty)).toEqual([1, 0]);
        expect(await countsOf(service, service.ids.Apps)).toEqual([2, 4]);
        expectCountsKept(service.db);
    });

    test("a create in no project counts in the default project", async () => {
        service = await startService();
        const response = await service.owners.post("/organizations/acme/workspaces", { data: { type: "workspaces", attributes: { name: "defaulted" } } });
        expectStatus(response, 201);
        expect(await countsOf(service, service.ids["Default Project"])).toEqual([2, 1]);
        expectCountsKept(service.db);
    });

    test("a refused create (the name taken) counts nothing", async () => {
        service = await startService();
        const response = await service.owners.post("/organizations/acme/workspaces", {
            data: { type: "workspaces", attributes: { name: "legacy-app" }, relationships: { project: { data: { type: "projects", id: service.ids.Empty } } } },
        });
        expectValidation(response, "/data/attributes/name");
        expect(await countsOf(service, service.ids.Empty)).toEqual([0, 0]);
        expect(await countsOf(service, service.ids.Apps)).toEqual([2, 4]);
        expectCountsKept(service.db);
    });

    test("a move through the move endpoint: the source loses them, the destination gains them", async () => {
        service = await startService();
        const moved = await service.owners.post(`/projects/${service.ids.Empty}/relationships/workspaces`, moveDocument([WORKSPACES.appsLegacy, WORKSPACES.staging]));
        expectStatus(moved, 204);
        expect(await countsOf(service, service.ids.Empty)).toEqual([2, 0]);
        expect(await countsOf(service, service.ids.Apps)).toEqual([1, 4]);
        expect(await countsOf(service, service.ids.Staging)).toEqual([0, 1]);
        expectCountsKept(service.db);

        // Into the project a workspace is already in: nothing changes.
        expectStatus(await service.owners.post(`/projects/${service.ids.Empty}/relationships/workspaces`, moveDocument([WORKSPACES.appsLegacy])), 204);
        expect(await countsOf(service, service.ids.Empty)).toEqual([2, 0]);
        expectCountsKept(service.db);
    });

    test("a refused move (one workspace unknown) moves and counts nothing", async () => {
        service = await startService();
        const refused = await service.owners.post(`/projects/${service.ids.Empty}/relationships/workspaces`, moveDocument([WORKSPACES.appsLegacy, "ws-doesnotexist0001"]));
        expectErrors(refused, 403);
        expect(await countsOf(service, service.ids.Empty)).toEqual([0, 0]);
        expect(await countsOf(service, service.ids.Apps)).toEqual([2, 4]);
        expectCountsKept(service.db);
    });

    test("a move by PATCH /workspaces/:id relationships.project (go-tfe's way)", async () => {
        service = await startService();
        const response = await service.owners.patch(`/workspaces/${WORKSPACES.appsWeb}`, {
            data: { type: "workspaces", relationships: { project: { data: { type: "projects", id: service.ids.Staging } } } },
        });
        expectStatus(response, 200);
        expect(response.body.data.relationships.project.data.id).toBe(service.ids.Staging);
        expect(await countsOf(service, service.ids.Apps)).toEqual([1, 4]);
        expect(await countsOf(service, service.ids.Staging)).toEqual([2, 1]);
        expectCountsKept(service.db);
    });

    test("a no-code workspace counts in its project", async () => {
        service = await startService();
        const module = await createNoCodeModule(service, { registryModuleId: poolModuleId("acme", "bucket", 1), enabled: true });
        const workspace = await createNoCodeWorkspace(service, module.id, { projectId: service.ids.Empty });
        expect(workspace.relationships.project.data.id).toBe(service.ids.Empty);
        expect(await countsOf(service, service.ids.Empty)).toEqual([1, 0]);
        expectCountsKept(service.db);
    });

    test("a project that holds a workspace is not deleted, and its counts stay; an emptied one is deleted", async () => {
        service = await startService();
        expectErrors(await service.owners.delete(`/projects/${service.ids.Staging}`), 409);
        expect(await countsOf(service, service.ids.Staging)).toEqual([1, 1]);
        expectStatus(await service.owners.delete(`/workspaces/${WORKSPACES.staging}`), 204);
        expect(await countsOf(service, service.ids.Staging)).toEqual([0, 1]);
        // Its team access goes with it (a cascade), and nothing else's counts move.
        expectStatus(await service.owners.delete(`/projects/${service.ids.Staging}`), 204);
        expect(service.db.prepare("SELECT COUNT(*) AS n FROM team_project_access WHERE project_id = ?").get(service.ids.Staging)).toEqual({ n: 0 });
        expect(await countsOf(service, service.ids.Apps)).toEqual([2, 4]);
        expectCountsKept(service.db);
    });
});

describe("team access coming and going keeps its projects' team counts", () => {
    test("a seed that grants access counts it; one that changes a level counts nothing more", async () => {
        service = await startService();
        const seed = noCodeTestSeed();
        const teams = seed.organizations[0]!.teams!;
        teams.find((team) => team.name === "nobody")!.projectAccess = { Empty: "read", Staging: "write" };
        applySeed(service.db, seed);
        expect(await countsOf(service, service.ids.Empty)).toEqual([0, 1]);
        expect(await countsOf(service, service.ids.Staging)).toEqual([1, 2]);

        teams.find((team) => team.name === "nobody")!.projectAccess = { Empty: "admin", Staging: "write" };
        applySeed(service.db, seed);
        expect(await countsOf(service, service.ids.Empty)).toEqual([0, 1]);
        expectCountsKept(service.db);
    });

    test("access removed (no request of the API removes it: straight from the file) and a team deleted with its access", async () => {
        service = await startService();
        const team = (name: string) => (service!.db.prepare("SELECT id FROM teams WHERE organization = 'acme' AND name = ?").get(name) as { id: string }).id;
        service.db.prepare("DELETE FROM team_project_access WHERE team_id = ? AND project_id = ?").run(team("apps-read"), service.ids.Apps);
        expect(await countsOf(service, service.ids.Apps)).toEqual([2, 3]);
        // Access moved to another project (an update of the row's project), then a team deleted: its rows cascade.
        service.db.prepare("UPDATE team_project_access SET project_id = ? WHERE team_id = ? AND project_id = ?").run(service.ids.Empty, team("apps-write"), service.ids.Apps);
        expect(await countsOf(service, service.ids.Apps)).toEqual([2, 2]);
        expect(await countsOf(service, service.ids.Empty)).toEqual([0, 1]);
        service.db.prepare("DELETE FROM teams WHERE id = ?").run(team("apps-maintain"));
        expect(await countsOf(service, service.ids.Apps)).toEqual([2, 1]);
        expect(await countsOf(service, service.ids.Staging)).toEqual([1, 0]);
        expectCountsKept(service.db);
    });
});

describe("the check used above", () => {
    test("fails on counts out of step (a workspace created with its trigger gone)", () => {
        const db = openDatabase(":memory:");
        try {
            db.exec("INSERT INTO organizations (name, created_at) VALUES ('o', 'now')");
            db.exec("INSERT INTO projects (id, organization, name, created_at, updated_at) VALUES ('prj-x', 'o', 'x', 'now', 'now')");
            db.exec("INSERT INTO workspaces (id, organization, project_id, name, created_at, updated_at) VALUES ('ws-1', 'o', 'prj-x', 'one', 'now', 'now')");
            expectCountsKept(db);
            expect(db.prepare("SELECT workspace_count FROM projects WHERE id = 'prj-x'").get()).toEqual({ workspace_count: 1 });
            db.exec("DROP TRIGGER workspaces_count_insert");
            db.exec("INSERT INTO workspaces (id, organization, project_id, name, created_at, updated_at) VALUES ('ws-2', 'o', 'prj-x', 'two', 'now', 'now')");
            expect(() => expectCountsKept(db)).toThrow(/prj-x/);
        } finally {
            db.close();
        }
    });
});

describe("migration 5 on a database written by schema 4", () => {
    let workDir: string;
    beforeAll(() => {
        workDir = mkdtempSync(join(tmpdir(), "wos-kept-counts-"));
    });
    afterAll(() => {
        rmSync(workDir, { recursive: true, force: true });
    });

    test("fills the counts from the rows already there, and the service answers them and keeps them from then on", async () => {
        const path = join(workDir, `v4-${randomBytes(4).toString("hex")}.db`);
        const key = randomBytes(32);
        writeFileSync(`${path}.key`, key.toString("hex"), { mode: 0o600 });
        const old = new Database(path);
        try {
            old.pragma("journal_mode = WAL");
            old.pragma("foreign_keys = ON");
            migrate(old, secretsFromKey(key), 4);
            expect(old.pragma("user_version", { simple: true })).toBe(4);
            const run = (text: string, ...values: unknown[]) => old.prepare(text).run(...values);
            run("INSERT INTO organizations (name, created_at) VALUES ('old', 'now')");
            for (const [id, name] of [["prj-old-a", "Alpha"], ["prj-old-b", "Beta"], ["prj-old-c", "Gamma"]]) {
                run("INSERT INTO projects (id, organization, name, created_at, updated_at) VALUES (?, 'old', ?, 'now', 'now')", id, name);
            }
            // Alpha: 3 workspaces and 2 teams; Beta: 1 workspace, no team; Gamma: nothing.
            for (const [id, project] of [["ws-old-1", "prj-old-a"], ["ws-old-2", "prj-old-a"], ["ws-old-3", "prj-old-a"], ["ws-old-4", "prj-old-b"]]) {
                run("INSERT INTO workspaces (id, organization, project_id, name, created_at, updated_at) VALUES (?, 'old', ?, ?, 'now', 'now')", id, project, id);
            }
            for (const team of ["team-old-1", "team-old-2"]) {
                run("INSERT INTO teams (id, organization, name, created_at) VALUES (?, 'old', ?, 'now')", team, team);
                run("INSERT INTO team_project_access (team_id, project_id, access) VALUES (?, 'prj-old-a', 'write')", team);
            }
        } finally {
            old.close();
        }

        const started = await startServer({
            dataPath: path,
            logLevel: "silent",
            seed: { organizations: [{ name: "old", teams: [{ name: "owners", owners: true, tokens: ["old-owners-token"] }] }] },
        });
        try {
            const db = started.app.wos.db;
            expect(db.pragma("user_version", { simple: true })).toBe(SCHEMA_VERSION);
            expect(db.prepare("SELECT id, workspace_count, team_count FROM projects WHERE id LIKE 'prj-old-%' ORDER BY id").all()).toEqual([
                { id: "prj-old-a", workspace_count: 3, team_count: 2 },
                { id: "prj-old-b", workspace_count: 1, team_count: 0 },
                { id: "prj-old-c", workspace_count: 0, team_count: 0 },
            ]);
            const owners = clientFor({ url: started.url }, "old-owners-token");
            const list = await owners.get("/organizations/old/projects?sort=name");
            expectStatus(list, 200);
            expect(list.body.data.map((item: any) => [item.attributes.name, item.attributes["workspace-count"], item.attributes["team-count"]])).toEqual([
                ["Alpha", 3, 2],
                ["Beta", 1, 0],
                ["Default Project", 0, 0],
                ["Gamma", 0, 0],
            ]);
            // From then on the triggers keep them: a move through the API.
            expectStatus(await owners.post("/projects/prj-old-c/relationships/workspaces", moveDocument(["ws-old-1"])), 204);
            const show = await owners.get("/projects/prj-old-c");
            expect(show.body.data.attributes["workspace-count"]).toBe(1);
            expect((await owners.get("/projects/prj-old-a")).body.data.attributes["workspace-count"]).toBe(2);
            expectCountsKept(db);
        } finally {
            await started.close();
        }
    });
});

describe("the list's answer is written by hand: the update's bytes for each item, URLSearchParams' for each link", () => {
    test("each item's text is the update's answer's text (same view, JSON.stringify), key order included", async () => {
        service = await startService();
        const descriptions = ['quote " backslash \\ slash /', "line\nbreak\ttab\u0001\u001f\u007f", "\u2028 \u00e9 \u65e5 \u{1F600}", null];
        const ids = [service.ids.Apps, service.ids.Staging, service.ids.Empty, service.ids["Default Project"]];
        for (let i = 0; i < ids.length; i++) {
            expectStatus(await service.owners.patch(`/projects/${ids[i]}`, projectDocument({ description: descriptions[i] })), 200);
        }
        // A name with characters JSON escapes: the API's name rule refuses them, so it is written straight into the file.
        service.db.prepare("UPDATE projects SET name = ? WHERE id = ?").run('Em"pty\\', service.ids.Empty);
        for (const token of [TOKENS.owners, TOKENS.bob, TOKENS.appsAdmin, TOKENS.acmeOrganization]) {
            const client = clientFor(service, token);
            const list = await client.get("/organizations/acme/projects?page%5Bsize%5D=100");
            expectStatus(list, 200);
            expect(list.headers["content-type"]).toBe("application/vnd.api+json; charset=utf-8");
            const items = JSON.parse(list.text).data as any[];
            expect(items.length).toBeGreaterThan(0);
            for (const item of items) {
                // The update answers the same view; an owner's update of an empty body changes nothing.
                const update = await clientFor(service, TOKENS.owners).patch(`/projects/${item.id}`, projectDocument({}));
                expectStatus(update, 200);
                const updated = JSON.parse(update.text).data;
                // The permissions are the caller's: taken from the list, the rest must be the update's bytes.
                updated.attributes.permissions = item.attributes.permissions;
                expect(JSON.stringify(item)).toBe(JSON.stringify(updated));
            }
            expect(list.text).toBe(JSON.stringify(JSON.parse(list.text)));
        }
    });

    test("a page past the end answers no item and the organization's counts", async () => {
        service = await startService();
        const response = await service.owners.get("/organizations/acme/projects?page%5Bnumber%5D=9&page%5Bsize%5D=2");
        expectStatus(response, 200);
        expect(response.body.data).toEqual([]);
        expect(response.body.meta["status-counts"]).toEqual({ total: 4, matching: 4 });
        expect(response.body.meta.pagination).toEqual({
            "current-page": 9,
            "page-size": 2,
            "prev-page": 8,
            "next-page": null,
            "total-pages": 2,
            "total-count": 4,
        });
    });

    /** The links `URLSearchParams` writes for a query: its other parameters kept, the page's set after them. */
    function expectedLink(base: string, query: string, number: number, size: number): string {
        const params = new URLSearchParams(query.split("?", 2)[0]);
        params.delete("page[number]");
        params.delete("page[size]");
        params.set("page[number]", String(number));
        params.set("page[size]", String(size));
        return `${base}/api/v2/organizations/acme/projects?${params.toString()}`;
    }

    test.each([
        ["nothing", ""],
        ["the page's own parameters only", "page%5Bnumber%5D=2&page%5Bsize%5D=1"],
        ["raw brackets and lower-case escapes", "page[size]=1&page%5bnumber%5d=2&sort=name"],
        ["a search and a sort", "q=a&sort=-name&page%5Bsize%5D=1"],
        ["characters the form encoding rewrites", "q=%70%72o+j&sort=name&x=%2A%7E!'()&page%5Bsize%5D=1"],
        ["empty parts, a lone name, an empty name and a second '='", "&&q=&flag&=v&a=b=c&page%5Bsize%5D=1&"],
        ["a parameter given twice and non-ASCII", "z=1&z=2&filter%5Bnames%5D=Apps,%C3%A9t%C3%A9&page%5Bsize%5D=1"],
        ["a bad escape and a '?' in a value", "q=%zz%&page%5Bsize%5D=1&x=a?b"],
    ])("links with %s are URLSearchParams' bytes", async (_name, query) => {
        service = await startService();
        const response = await service.owners.get(`/organizations/acme/projects?${query}`);
        expectStatus(response, 200);
        const { "current-page": number, "page-size": size, "total-pages": last } = response.body.meta.pagination;
        const links = response.body.links;
        expect(links.self).toBe(expectedLink(service.url, query, number, size));
        expect(links.first).toBe(expectedLink(service.url, query, 1, size));
        expect(links.last).toBe(expectedLink(service.url, query, last, size));
        expect(links.prev).toBe(number > 1 ? expectedLink(service.url, query, number - 1, size) : null);
        expect(links.next).toBe(number < last ? expectedLink(service.url, query, number + 1, size) : null);
    });
});
