/**
 * The project list's SQL in detail (issue 6 section 5, issue 8): which statements a list request runs and how
 * SQLite plans them. The rows are proven elsewhere (projectList, projectListScale, projectListTags); here the
 * promises of "the project list in SQL" are: a whole-organization page and a selective search are one
 * statement each; a count already known is not counted again; a page past the end reads no page; a search
 * that matches nothing in the organization stops after its count; a search of 3 or more characters with few
 * matches runs on the trigram index, a shorter one by LIKE; the organization's index drives a list only when
 * nothing narrows more (team access rows, the trigram index, tags); candidates are sorted once found. Also
 * `filter[permissions][...]=false` (in any case) filters nothing.
 *
 * The statements are seen by watching `sql` (the database module's statement cache) while the real service
 * answers over HTTP; nothing is replaced. The seed's organization acme holds four projects; nothing here
 * adds any.
 */
import { startServer } from "../../server/app";
import * as database from "../../server/db";
import { TOKENS, testSeed } from "../support/seed";
import {
    ACME_PROJECTS,
    clientFor,
    createProject,
    expectStatus,
    namesOf,
    sorted,
    withSeededServer,
    type HttpResponse,
    type SeededServer,
    type Target,
} from "./helpers";

const LIST = "/organizations/acme/projects";

let started: SeededServer;
withSeededServer((value) => (started = value));

interface Seen {
    db: database.Db;
    text: string;
}

/** A list request's answer and the list statements (those on projects, their names or counts) it ran, in order. */
async function listed(token: string, query: string, server: Target = started.server): Promise<{ response: HttpResponse; body: any; statements: Seen[] }> {
    const spy = jest.spyOn(database, "sql");
    try {
        const response = await clientFor(server, token).get(`${LIST}${query}`);
        expectStatus(response, 200);
        const statements = spy.mock.calls
            .map(([db, text]) => ({ db, text: text.replace(/\s+/g, " ") }))
            .filter((statement) => /\bprojects\b|project_names|organization_project_counts/.test(statement.text));
        return { response, body: response.body, statements };
    } finally {
        spy.mockRestore();
    }
}

/** Values like a request's for the named parameters of a list statement (a `LIKE` is planned by its pattern). */
const PLAN_PARAMETERS: Record<string, unknown> = { pattern: "%x%", phrase: '"xyz"', teams: "[]", names: "[]", tagged: "[]", limit: 20, offset: 0 };

/** SQLite's plan of a statement, its named parameters bound to {@link PLAN_PARAMETERS}. */
function planOf(statement: Seen): string[] {
    const names = [...new Set([...statement.text.matchAll(/@(\w+)/g)].map((found) => found[1]!))];
    const params = Object.fromEntries(names.map((name) => [name, PLAN_PARAMETERS[name] ?? "x"]));
    return (statement.db.prepare(`EXPLAIN QUERY PLAN ${statement.text}`).all(params) as { detail: string }[]).map((row) => row.detail);
}

/** A plan line where the organization's index (or a scan of every project) drives `p`. */
const ORGANIZATION_DRIVES = /^(SCAN p\b|SEARCH p USING (COVERING )?INDEX \w+ \(organization=\?)/;

/** The list statements with a page (`LIMIT +@limit`). */
function pages(statements: Seen[]): Seen[] {
    return statements.filter((statement) => statement.text.includes("LIMIT +@limit"));
}

describe("statements of a caller who sees every project", () => {
    test("a whole-organization page is one statement", async () => {
        const { response, body, statements } = await listed(TOKENS.owners, "");
        expect(namesOf(response)).toEqual([...ACME_PROJECTS]);
        expect(statements).toHaveLength(1);
        expect(body.meta["status-counts"]).toEqual({ total: 4, matching: 4 });
    });

    test("a search of 3 characters with few matches is one statement on the trigram index", async () => {
        const { response, body, statements } = await listed(TOKENS.owners, "?q=App");
        expect(namesOf(response)).toEqual(["Apps"]);
        expect(statements).toHaveLength(1);
        expect(statements[0]!.text).toContain("project_names MATCH @phrase");
        expect(statements[0]!.text).not.toContain("LIKE");
    });

    test("a search of 2 characters is a LIKE, on the organization's index", async () => {
        const { response, body, statements } = await listed(TOKENS.owners, "?q=Ap&sort=name");
        expect(namesOf(response)).toEqual(["Apps"]);
        expect(statements.some((statement) => statement.text.includes("MATCH"))).toBe(false);
        const [page] = pages(statements);
        expect(page!.text).toContain("LIKE +@pattern");
        expect(planOf(page!).some((line) => ORGANIZATION_DRIVES.test(line) && line.startsWith("SEARCH"))).toBe(true);
    });

    test("a LIKE in creation order walks the organization's index in that order; by name it sorts the page once", async () => {
        for (const sort of ["", "&sort=name", "&sort=-name"]) {
            const { statements } = await listed(TOKENS.owners, `?q=Ap${sort}`);
            const plan = planOf(pages(statements)[0]!);
            expect(plan.filter((line) => line === "USE TEMP B-TREE FOR ORDER BY")).toHaveLength(sort === "" ? 0 : 1);
        }
    });

    test("exact names none of which is printable ASCII match nothing, without a statement on the projects", async () => {
        // U+00DC and U+00E9 (names are compared lower-cased: the Kelvin sign would be a "k").
        const { response, body, statements } = await listed(TOKENS.owners, `?filter[names]=${encodeURIComponent("\u00dcber,caf\u00e9")}`);
        expect(body.data).toEqual([]);
        expect(body.meta["status-counts"]).toEqual({ total: 4, matching: 0 });
        expect(statements).toHaveLength(1);
        expect(statements[0]!.text).not.toContain("FROM projects");
    });

    test("exact names: the printable ASCII ones are kept, the others dropped", async () => {
        const { response, body } = await listed(TOKENS.owners, `?filter[names]=${encodeURIComponent("apps,\u00dcber")}`);
        expect(namesOf(response)).toEqual(["Apps"]);
        expect(body.meta["status-counts"]).toEqual({ total: 4, matching: 1 });
    });

    test("a page that starts exactly at the end reads no page: the page of the organization, then its kept count", async () => {
        // 4 projects, pages of 2: page 3 starts at offset 4.
        const { response, body, statements } = await listed(TOKENS.owners, "?page[size]=2&page[number]=3");
        expect(body.data).toEqual([]);
        expect(body.meta["status-counts"]).toEqual({ total: 4, matching: 4 });
        expect(statements).toHaveLength(2);
        expect(pages(statements)).toHaveLength(1);
    });

    test("exact names are found on the (organization, name) index and sorted once found", async () => {
        for (const sort of ["", "&sort=name", "&sort=-name"]) {
            const { response, body, statements } = await listed(TOKENS.owners, `?filter[names]=Staging,Apps${sort}`);
            expect(sorted(namesOf(response))).toEqual(["Apps", "Staging"]);
            const [page] = pages(statements);
            const plan = planOf(page!);
            // An index on both columns finds each name (SQLite names the one of the UNIQUE constraint itself,
            // so the name is not pinned), and the projects are never scanned.
            expect(plan.filter((line) => /^SEARCH p USING (COVERING )?INDEX \w+ \(organization=\? AND name=\?\)$/.test(line))).toHaveLength(1);
            expect(plan.filter((line) => /^SCAN p\b/.test(line))).toEqual([]);
            expect(plan.filter((line) => line === "USE TEMP B-TREE FOR ORDER BY")).toHaveLength(sort === "" ? 1 : 2);
        }
    });

    test("a tag filter is driven by the tag index, never the organization's", async () => {
        const { statements } = await listed(TOKENS.owners, "?filter[tagged][0][key]=env&sort=name");
        expect(statements.length).toBeGreaterThan(0);
        for (const statement of statements.filter((each) => each.text.includes("tag_bindings"))) {
            expect(planOf(statement).filter((line) => ORGANIZATION_DRIVES.test(line))).toEqual([]);
        }
    });
});

describe("statements of a caller who sees only some projects (admin on Apps, read on Default Project)", () => {
    test("the whole list counts once (the total is the matching count) and asks the access rows for no level", async () => {
        const { response, body, statements } = await listed(TOKENS.appsAdmin, "");
        expect(sorted(namesOf(response))).toEqual(["Apps", "Default Project"]);
        expect(body.meta["status-counts"]).toEqual({ total: 2, matching: 2 });
        expect(statements).toHaveLength(2);
        for (const statement of statements) {
            expect(statement.text).not.toContain("a.access");
            expect(planOf(statement).filter((line) => ORGANIZATION_DRIVES.test(line))).toEqual([]);
        }
    });

    test("a search that nothing in the organization matches stops after counting the matches", async () => {
        const { response, body, statements } = await listed(TOKENS.appsAdmin, "?q=zzzz");
        expect(body.data).toEqual([]);
        expect(body.meta["status-counts"]).toEqual({ total: 2, matching: 0 });
        expect(statements).toHaveLength(2);
    });

    test("a search with few matches runs on the trigram index, driven by it and the access rows, sorted once found", async () => {
        for (const sort of ["", "&sort=name", "&sort=-name"]) {
            const { response, body, statements } = await listed(TOKENS.appsAdmin, `?q=App${sort}`);
            expect(namesOf(response)).toEqual(["Apps"]);
            const [page] = pages(statements);
            expect(page!.text).toContain("project_names MATCH @phrase");
            expect(page!.text).not.toContain("LIKE");
            const plan = planOf(page!);
            expect(plan.filter((line) => ORGANIZATION_DRIVES.test(line))).toEqual([]);
            expect(plan.filter((line) => line === "USE TEMP B-TREE FOR ORDER BY")).toHaveLength(sort === "" ? 1 : 2);
        }
    });
});

describe("filter[permissions][...]=false filters nothing, whatever its case", () => {
    test.each(["false", "FALSE", "False"])("filter[permissions][update]=%s keeps every project the caller reads", async (value) => {
        const response = await clientFor(started.server, TOKENS.appsAdmin).get(`${LIST}?filter[permissions][update]=${value}`);
        expectStatus(response, 200);
        expect(sorted(namesOf(response))).toEqual(["Apps", "Default Project"]);
    });

    test.each(["false", "FALSE"])("filter[permissions][create-workspace]=%s keeps every project the caller reads", async (value) => {
        const response = await clientFor(started.server, TOKENS.appsRead).get(`${LIST}?filter[permissions][create-workspace]=${value}`);
        expectStatus(response, 200);
        expect(namesOf(response)).toEqual(["Apps"]);
    });

    test("filter[permissions][update]=true keeps only what the caller can update", async () => {
        const response = await clientFor(started.server, TOKENS.appsAdmin).get(`${LIST}?filter[permissions][update]=true`);
        expectStatus(response, 200);
        expect(namesOf(response)).toEqual(["Apps"]);
    });
});

describe("lists that need projects of their own (a service of their own)", () => {
    let service: { url: string; db: database.Db; close(): Promise<void> };

    beforeAll(async () => {
        const running = await startServer({ dataPath: ":memory:", seed: testSeed(), logLevel: "silent" });
        service = { url: running.url, db: running.app.wos.db, close: running.close };
        await createProject(service, { name: "tagged one" }, [{ key: "tier", value: "gold" }]);
        await createProject(service, { name: "tagged two" }, [{ key: "tier", value: "gold" }]);
        // 2000 projects that `q=bulk` matches (the spec's limit of a selective search), and Apps, read by
        // the apps-read team, which matches too.
        const insert = service.db.prepare("INSERT INTO projects (id, organization, name, created_at, updated_at) VALUES (?, 'acme', ?, 'now', 'now')");
        service.db.transaction(() => {
            for (let index = 0; index < 2000; index += 1) insert.run(`prj-bulk${String(index).padStart(12, "0")}`, `bulk ${index}`);
        })();
        service.db.prepare("UPDATE projects SET name = 'Apps bulk' WHERE organization = 'acme' AND name = 'Apps'").run();
    });

    afterAll(async () => {
        await service?.close();
    });

    test("a tag filter's page is found through the tags and sorted once found", async () => {
        for (const sort of ["", "&sort=name", "&sort=-name"]) {
            const { response, body, statements } = await listed(TOKENS.owners, `?filter[tagged][0][key]=tier${sort}`, service);
            expect(sorted(namesOf(response))).toEqual(["tagged one", "tagged two"]);
            const plan = planOf(pages(statements)[0]!);
            expect(plan.filter((line) => ORGANIZATION_DRIVES.test(line))).toEqual([]);
            expect(plan.filter((line) => line === "USE TEMP B-TREE FOR ORDER BY")).toHaveLength(sort === "" ? 1 : 2);
        }
    });

    test("a search that 2000 projects of the organization match is a LIKE for a caller who sees some projects", async () => {
        const { response, body, statements } = await listed(TOKENS.appsRead, "?q=bulk", service);
        expect(namesOf(response)).toEqual(["Apps bulk"]);
        expect(body.meta["status-counts"]).toEqual({ total: 1, matching: 1 });
        const [page] = pages(statements);
        expect(page!.text).toContain("LIKE +@pattern");
        expect(page!.text).not.toContain("MATCH");
    });

    test("a search that 2000 projects of the organization match is a LIKE for a caller who sees every project", async () => {
        const { response, body, statements } = await listed(TOKENS.owners, "?q=bulk&page[size]=1", service);
        expect(body.meta["status-counts"]).toEqual({ total: 2006, matching: 2001 });
        expect(pages(statements).map((statement) => statement.text.includes("LIKE +@pattern"))).toEqual([false, true]);
    });
});

describe("values SQLite plans by are never bare variables", () => {
    // SQLite reads a bound LIMIT, OFFSET or LIKE pattern while it plans and then prepares the statement anew on
    // every run whose parameters were bound (every run, under better-sqlite3): 15 to 25 µs a statement, a
    // third of the first page's SQL. A `+` before the variable keeps the plan independent of it
    // (PAGE_BOUNDS_SQL in server/pagination.ts).
    const BARE_PLANNED_VARIABLE = /\b(LIMIT|OFFSET|LIKE)\s+[@?:$]/i;

    test.each([
        [TOKENS.owners, `${LIST}`, false],
        [TOKENS.owners, `${LIST}?page[size]=2&page[number]=2&sort=-name`, false],
        [TOKENS.owners, `${LIST}?q=App`, false],
        [TOKENS.owners, `${LIST}?q=Ap&sort=name`, true],
        [TOKENS.appsAdmin, `${LIST}?q=Ap`, true],
        [TOKENS.owners, `${LIST}?filter[names]=apps`, false],
        [TOKENS.appsAdmin, `${LIST}?filter[permissions][update]=true`, false],
        [TOKENS.owners, "/organizations/acme/workspaces?page[size]=1&page[number]=2", false],
        [TOKENS.appsAdmin, "/organizations/acme/workspaces?search[name]=app", true],
    ])("%s's GET %s binds no LIMIT, OFFSET or LIKE pattern as a bare variable", async (token, path, searchesByLike) => {
        const spy = jest.spyOn(database, "sql");
        try {
            expectStatus(await clientFor(started.server, token).get(path), 200);
            const texts = spy.mock.calls.map(([, text]) => text.replace(/\s+/g, " "));
            expect(texts.filter((text) => BARE_PLANNED_VARIABLE.test(text))).toEqual([]);
            const paged = texts.filter((text) => /\bLIMIT\b/.test(text) && !/\bLIMIT \d+\)?$/.test(text));
            expect(paged.length).toBeGreaterThan(0);
            expect(paged.every((text) => text.includes("LIMIT +@limit OFFSET +@offset"))).toBe(true);
            expect(texts.some((text) => text.includes("LIKE +@pattern"))).toBe(searchesByLike);
        } finally {
            spy.mockRestore();
        }
    });
});
