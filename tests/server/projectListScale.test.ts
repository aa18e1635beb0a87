/**
 * The project list in SQL at scale (issue 6 section 5): with a few thousand projects written straight into
 * the database of an in-process service, every answer of `GET /organizations/:organization/projects` (`q`,
 * `filter[names]`, the permission filters, both sorts, pages, counts) is the one a straightforward
 * computation over the rows gives; the trigram index of `q` stays in step with creates, renames and deletes
 * (and migration 4 fills it from the rows already there); searches shorter than three characters (no
 * trigram) and searches full of `%`, `_`, `"`, `*` or `\` find exactly the names that hold them, literally.
 * Also: tokens resolve afresh the moment a seed changes what they may do (the principal cache).
 *
 * Never a timing: the figures are `npm run bench`'s.
 */
import { unsafeUniformIntDistribution, xoroshiro128plus } from "pure-rand";
import { startServer } from "../../server/app";
import { forgetPrincipals } from "../../server/auth";
import { migrate, openDatabase, SCHEMA_VERSION, type Db } from "../../server/db";
import { applySeed } from "../../server/seed";
import { TOKENS, testSeed } from "../support/seed";
import { clientFor, expectErrors, expectStatus, projectDocument, type HttpResponse, type Target } from "./helpers";

const LIST = "/organizations/acme/projects";
/** Projects written into acme (besides the four of the seed), and into globex (which acme must never see). */
const ACME_COUNT = 3000;
const GLOBEX_COUNT = 300;

/**
 * Names the API refuses (the name rule allows letters, digits, spaces, `-` and `_`), written straight into
 * the database, so that a search is proven literal on names that hold the characters, not only by finding
 * nothing. Each has a twin where the special character is an `X`, which a wildcard would also match.
 */
const SPECIAL_NAMES = [
    "rate 50% off",
    "rate 50X off",
    'say "hi" now',
    "say XhiX now",
    "star*gazer",
    "starXgazer",
    "back\\slash",
    "backXslash",
    "under_score",
    "underXscore",
    "q:col^(x) OR y NEAR",
];

const LEVELS = ["read", "write", "maintain", "admin"] as const;
type Level = (typeof LEVELS)[number];

/** The teams each token acts as; `all` for the tokens that see every project (owners, organization token). */
const TOKEN_TEAMS: Record<string, readonly string[] | "all"> = {
    [TOKENS.owners]: "all",
    [TOKENS.acmeOrganization]: "all",
    [TOKENS.appsRead]: ["apps-read"],
    [TOKENS.appsMaintain]: ["apps-maintain"],
    [TOKENS.appsAdmin]: ["apps-admin"],
    [TOKENS.bob]: ["apps-read", "apps-maintain"],
    [TOKENS.noAccess]: ["nobody"],
};

let service: { url: string; db: Db; close(): Promise<void> };
let target: Target;

beforeAll(async () => {
    const started = await startServer({ dataPath: ":memory:", seed: testSeed(), logLevel: "silent" });
    service = { url: started.url, db: started.app.wos.db, close: started.close };
    target = { url: started.url };
    seedAtScale(service.db);
});

afterAll(async () => {
    await service?.close();
});

/** A seeded generator of numbers in [0, 1): the same projects and queries on every run. */
function random(seed: number): () => number {
    const generator = xoroshiro128plus(seed);
    return () => unsafeUniformIntDistribution(0, 0xffffffff, generator) / 0x100000000;
}

const WORDS = ["alpha", "Beta", "GAMMA", "delta", "Echo", "fox_trot", "golf", "Hotel", "india", "Juliet", "kilo", "LIMA", "mike", "Nova", "oscar", "papa-q"];

/** Generated name `i`: mixed case, spaces, `-` and `_`; four in five hold "svc-" (a search too broad for the index). */
function generatedName(i: number, next: () => number): string {
    const word = () => WORDS[Math.floor(next() * WORDS.length)]!;
    return `${word()} ${i % 5 === 0 ? "" : "svc-"}${word()}_${i.toString(36).padStart(3, "0")}`;
}

/**
 * Writes the projects, their workspaces and team access straight into the database (through its triggers,
 * as any insert goes), in one transaction.
 */
function seedAtScale(db: Db): void {
    const next = random(6);
    const timestamp = new Date().toISOString();
    const insertProject = db.prepare("INSERT INTO projects (id, organization, name, created_at, updated_at) VALUES (?, ?, ?, ?, ?)");
    const insertWorkspace = db.prepare(
        "INSERT INTO workspaces (id, organization, project_id, name, created_at, updated_at) VALUES (?, 'acme', ?, ?, ?, ?)",
    );
    const grant = db.prepare("INSERT INTO team_project_access (team_id, project_id, access) VALUES (?, ?, ?)");
    const team = (name: string) => (db.prepare("SELECT id FROM teams WHERE organization = 'acme' AND name = ?").get(name) as { id: string }).id;
    const [read, maintain, admin] = [team("apps-read"), team("apps-maintain"), team("apps-admin")];
    let workspaces = 0;
    db.transaction(() => {
        for (let i = 0; i < ACME_COUNT; i++) {
            const id = `prj-sc${String(i).padStart(14, "0")}`;
            insertProject.run(id, "acme", generatedName(i, next), timestamp, timestamp);
            if (i % 7 === 0) grant.run(read, id, "read");
            if (i % 11 === 0) grant.run(maintain, id, LEVELS[i % 4]);
            if (i % 13 === 0) grant.run(admin, id, i % 2 === 0 ? "admin" : "maintain");
            for (let w = 0; w < (i % 50 === 0 ? 1 + (i % 3) : 0); w++) {
                insertWorkspace.run(`ws-sc${String(workspaces).padStart(14, "0")}`, id, `scale-ws-${workspaces}`, timestamp, timestamp);
                workspaces += 1;
            }
        }
        SPECIAL_NAMES.forEach((name, i) => insertProject.run(`prj-sp${String(i).padStart(14, "0")}`, "acme", name, timestamp, timestamp));
        // Globex holds names acme searches for: they must never reach acme's answers or counts.
        for (let i = 0; i < GLOBEX_COUNT; i++) {
            insertProject.run(`prj-gx${String(i).padStart(14, "0")}`, "globex", generatedName(i, next), timestamp, timestamp);
        }
    })();
    // The access written above is newer than anything a token resolved to before.
    forgetPrincipals(db);
}

// ---------------------------------------------------------------------------------------------------------
// The straightforward computation the answers are checked against

interface Row {
    id: string;
    name: string;
}

interface ListParams {
    q?: string;
    names?: string;
    sort?: "name" | "-name";
    update?: boolean;
    createWorkspace?: boolean;
    size?: number;
    number?: number;
}

/** acme's projects in creation order, read from the database now. */
function acmeRows(): Row[] {
    return service.db.prepare("SELECT id, name FROM projects WHERE organization = 'acme' ORDER BY rowid").all() as Row[];
}

/** The strongest level the token holds on each project through its teams, or `all` (owners, organization token). */
function accessOf(token: string): Map<string, Level> | "all" {
    const teams = TOKEN_TEAMS[token]!;
    if (teams === "all") return "all";
    const rows = service.db
        .prepare(
            `SELECT a.project_id, a.access FROM team_project_access a JOIN teams t ON t.id = a.team_id
             WHERE t.organization = 'acme' AND t.name IN (SELECT value FROM json_each(?))`,
        )
        .all(JSON.stringify(teams)) as { project_id: string; access: Level }[];
    const access = new Map<string, Level>();
    for (const row of rows) {
        const held = access.get(row.project_id);
        if (held === undefined || LEVELS.indexOf(row.access) > LEVELS.indexOf(held)) access.set(row.project_id, row.access);
    }
    return access;
}

/** What the list must answer, computed over every row in memory as the contract states it. */
function expectedList(token: string, params: ListParams) {
    const access = accessOf(token);
    const level = (row: Row) => (access === "all" ? 3 : LEVELS.indexOf(access.get(row.id) ?? ("none" as Level)));
    const visible = acmeRows().filter((row) => level(row) >= 0);
    const names = (params.names ?? "")
        .split(",")
        .map((name) => name.trim().toLowerCase())
        .filter((name) => name !== "");
    const search = params.q?.toLowerCase() ?? "";
    let matching = visible.filter((row) => {
        const name = row.name.toLowerCase();
        if (names.length > 0 ? !names.includes(name) : search !== "" && !name.includes(search)) return false;
        if (params.update && level(row) < LEVELS.indexOf("admin")) return false;
        if (params.createWorkspace && level(row) < LEVELS.indexOf("maintain")) return false;
        return true;
    });
    if (params.sort) {
        const direction = params.sort === "name" ? 1 : -1;
        matching = [...matching].sort((a, b) => {
            const [left, right] = [a.name.toLowerCase(), b.name.toLowerCase()];
            return direction * (left < right ? -1 : left > right ? 1 : 0);
        });
    }
    const size = Math.min(params.size ?? 20, 100);
    const number = params.number ?? 1;
    const totalPages = Math.max(1, Math.ceil(matching.length / size));
    return {
        page: matching.slice((number - 1) * size, number * size),
        statusCounts: { total: visible.length, matching: matching.length },
        pagination: {
            "current-page": number,
            "page-size": size,
            "prev-page": number > 1 ? number - 1 : null,
            "next-page": number < totalPages ? number + 1 : null,
            "total-pages": totalPages,
            "total-count": matching.length,
        },
        level,
    };
}

function listPath(params: ListParams): string {
    const query: string[] = [];
    const add = (name: string, value: string) => query.push(`${encodeURIComponent(name)}=${encodeURIComponent(value)}`);
    if (params.q !== undefined) add("q", params.q);
    if (params.names !== undefined) add("filter[names]", params.names);
    if (params.sort !== undefined) add("sort", params.sort);
    if (params.update) add("filter[permissions][update]", "true");
    if (params.createWorkspace) add("filter[permissions][create-workspace]", "true");
    if (params.size !== undefined) add("page[size]", String(params.size));
    if (params.number !== undefined) add("page[number]", String(params.number));
    return query.length === 0 ? LIST : `${LIST}?${query.join("&")}`;
}

/** Workspace and team counts of projects, counted from the rows. */
function countsOf(ids: readonly string[]): Map<string, { workspaces: number; teams: number }> {
    const counts = new Map<string, { workspaces: number; teams: number }>();
    for (const id of ids) {
        const workspaces = (service.db.prepare("SELECT COUNT(*) AS n FROM workspaces WHERE project_id = ?").get(id) as { n: number }).n;
        const teams = (service.db.prepare("SELECT COUNT(*) AS n FROM team_project_access WHERE project_id = ?").get(id) as { n: number }).n;
        counts.set(id, { workspaces, teams });
    }
    return counts;
}

/** Requests the list and checks the whole answer against {@link expectedList}: items, their counts and permissions, meta. */
async function expectListAsComputed(token: string, params: ListParams): Promise<HttpResponse> {
    const response = await clientFor(target, token).get(listPath(params));
    expectStatus(response, 200);
    const expected = expectedList(token, params);
    const label = `${token} ${listPath(params)}`;
    expect({ label, items: response.body.data.map((item: any) => [item.id, item.attributes.name]) }).toEqual({
        label,
        items: expected.page.map((row) => [row.id, row.name]),
    });
    expect({ label, meta: response.body.meta }).toEqual({
        label,
        meta: { "status-counts": expected.statusCounts, pagination: expected.pagination },
    });
    const counts = countsOf(expected.page.map((row) => row.id));
    for (const [index, item] of (response.body.data as any[]).entries()) {
        const level = expected.level(expected.page[index]!);
        expect({ label, id: item.id, attributes: item.attributes }).toEqual({
            label,
            id: item.id,
            attributes: expect.objectContaining({
                "workspace-count": counts.get(item.id)!.workspaces,
                "team-count": counts.get(item.id)!.teams,
                permissions: {
                    "can-update": level >= LEVELS.indexOf("admin"),
                    "can-destroy": level >= LEVELS.indexOf("admin"),
                    "can-create-workspace": level >= LEVELS.indexOf("maintain"),
                },
            }),
        });
    }
    return response;
}

/** The project ids the trigram index finds for a phrase, straight from the index. */
function indexed(phrase: string): string[] {
    const rows = service.db
        .prepare(
            `SELECT p.id FROM project_names f JOIN projects p ON p.rowid = f.rowid
             WHERE f.project_names MATCH ? ORDER BY p.rowid`,
        )
        .all(`"${phrase.replace(/"/g, '""')}"`) as { id: string }[];
    return rows.map((row) => row.id);
}

/** Checks the trigram index against the projects table; throws (SQLITE_CORRUPT_VTAB) when they differ. */
function checkIndexAgainstTable(db: Db): void {
    db.prepare("INSERT INTO project_names (project_names, rank) VALUES ('integrity-check', 1)").run();
}

// ---------------------------------------------------------------------------------------------------------

describe("the list at scale gives the answers of a computation over every row", () => {
    test("the seeded organization is as large as intended, and globex's projects are apart", () => {
        expect(acmeRows()).toHaveLength(4 + ACME_COUNT + SPECIAL_NAMES.length);
        expect(expectedList(TOKENS.owners, { q: "svc" }).statusCounts.matching).toBeGreaterThanOrEqual(2000);
    });

    test("every page in creation order, for the owners, the organization token and a user on two teams", async () => {
        for (const token of [TOKENS.owners, TOKENS.acmeOrganization, TOKENS.bob]) {
            const pages = expectedList(token, { size: 100 }).pagination["total-pages"];
            for (let number = 1; number <= pages + 1; number++) await expectListAsComputed(token, { size: 100, number });
        }
    });

    test("sorted by name and by -name: first, middle, last and past-the-end pages, case ignored", async () => {
        for (const sort of ["name", "-name"] as const) {
            for (const number of [1, 2, 76, 151, 152, 153, 400]) await expectListAsComputed(TOKENS.owners, { sort, size: 20, number });
        }
        // Mixed case orders as lower case (alpha before Beta), unlike a plain code-unit sort.
        const response = await clientFor(target, TOKENS.owners).get(listPath({ sort: "name", size: 100 }));
        const names: string[] = response.body.data.map((item: any) => item.attributes.name);
        expect(names).not.toEqual([...names].sort());
    });

    test("a page size above 100 is clamped; the default is 20", async () => {
        await expectListAsComputed(TOKENS.owners, { size: 1000, number: 3 });
        await expectListAsComputed(TOKENS.owners, {});
    });

    test("q: broad, narrow, short, spaced, cased and absent searches, with sorts and pages", async () => {
        const searches = ["svc", "SVC-", "alpha", "ALPHA svc", "a", "z", "zz", "_0", "-", " ", "lima_", "fox_trot", "papa-q", "nothing here", "1", "_01"];
        for (const q of searches) {
            await expectListAsComputed(TOKENS.owners, { q });
            await expectListAsComputed(TOKENS.owners, { q, sort: "name", size: 7, number: 3 });
            await expectListAsComputed(TOKENS.owners, { q, sort: "-name", size: 100, number: 2 });
        }
    });

    test("q: sixty random parts of names, for random callers, sorts, filters and pages", async () => {
        const next = random(66);
        const rows = acmeRows();
        const tokens = Object.keys(TOKEN_TEAMS);
        for (let i = 0; i < 60; i++) {
            const name = rows[Math.floor(next() * rows.length)]!.name;
            const length = 1 + Math.floor(next() * 6);
            const start = Math.floor(next() * Math.max(1, name.length - length));
            const part = name.slice(start, start + length);
            const q = next() < 0.5 ? part.toUpperCase() : part;
            const token = tokens[Math.floor(next() * tokens.length)]!;
            const sort = (["name", "-name", undefined] as const)[Math.floor(next() * 3)];
            const size = [5, 20, 100][Math.floor(next() * 3)]!;
            const pages = expectedList(token, { q, size }).pagination["total-pages"];
            const number = 1 + Math.floor(next() * (pages + 1));
            await expectListAsComputed(token, { q, sort, size, number, update: next() < 0.2, createWorkspace: next() < 0.2 });
        }
    });

    test("filter[names]: many names in any case, with spaces, blanks, unknown and non-ASCII ones; q then ignored", async () => {
        const rows = acmeRows();
        const picked = [rows[10]!, rows[500]!, rows[2999]!, rows[3003]!].map((row) => row.name);
        await expectListAsComputed(TOKENS.owners, { names: picked.map((name) => name.toUpperCase()).join(" , ") });
        await expectListAsComputed(TOKENS.owners, { names: `${picked[0]},no such project,,`, q: "svc", sort: "-name" });
        await expectListAsComputed(TOKENS.owners, { names: " , ", q: "lima" });
        await expectListAsComputed(TOKENS.owners, { names: "\u00e9t\u00e9,\u212Ailo" });
        await expectListAsComputed(TOKENS.bob, { names: picked.join(",") });
        await expectListAsComputed(TOKENS.appsMaintain, { names: rows.slice(0, 400).map((row) => row.name).join(","), sort: "name", size: 100 });
    });

    test("permission filters: each team level, a user on two teams (the strongest access wins), and no access at all", async () => {
        for (const token of [TOKENS.appsRead, TOKENS.appsMaintain, TOKENS.appsAdmin, TOKENS.bob, TOKENS.noAccess, TOKENS.owners]) {
            for (const filters of [{}, { update: true }, { createWorkspace: true }, { update: true, createWorkspace: true }]) {
                await expectListAsComputed(token, { ...filters, size: 100 });
                await expectListAsComputed(token, { ...filters, sort: "name", size: 10, number: 2 });
                await expectListAsComputed(token, { ...filters, q: "svc", sort: "-name", size: 5, number: 4 });
                await expectListAsComputed(token, { ...filters, q: "a", size: 50 });
            }
        }
        // The computation is not vacuous: these callers see different, non-empty parts of the organization.
        expect(expectedList(TOKENS.bob, {}).statusCounts.total).toBeGreaterThan(expectedList(TOKENS.appsMaintain, {}).statusCounts.total);
        expect(expectedList(TOKENS.appsAdmin, { update: true }).statusCounts.matching).toBeGreaterThan(100);
        expect(expectedList(TOKENS.noAccess, {}).statusCounts.total).toBe(0);
    });
});

describe("a search for a caller who sees every project (one statement: the matches, their count, the page)", () => {
    test("every sort, the first, a middle, the last and a past-the-end page, for the owners and the organization token", async () => {
        const q = "alpha";
        const { matching } = expectedList(TOKENS.owners, { q }).statusCounts;
        // Selective (under the 2,000 matches where LIKE takes over), yet many pages of 7.
        expect(matching).toBeGreaterThan(100);
        expect(matching).toBeLessThan(2000);
        const pages = Math.ceil(matching / 7);
        for (const token of [TOKENS.owners, TOKENS.acmeOrganization]) {
            for (const sort of [undefined, "name", "-name"] as const) {
                for (const number of [1, Math.ceil(pages / 2), pages, pages + 1, pages + 50]) await expectListAsComputed(token, { q, sort, size: 7, number });
            }
        }
    });

    test("matches in another organization only: nothing, with the counts of acme", async () => {
        service.db
            .prepare("INSERT INTO projects (id, organization, name, created_at, updated_at) VALUES ('prj-gxonly00000001', 'globex', 'Zebracorn Globex Only', 'now', 'now')")
            .run();
        expect(indexed("zebracorn")).toEqual(["prj-gxonly00000001"]);
        const response = await expectListAsComputed(TOKENS.owners, { q: "zebracorn", sort: "name" });
        expect(response.body.data).toEqual([]);
        expect(response.body.meta["status-counts"].matching).toBe(0);
    });
});

describe("the list is written by its response schema: JSON.stringify's bytes, nothing dropped", () => {
    /** Descriptions that take every path of the schema's string writer: escapes, control characters, long text. */
    const DESCRIPTIONS = [
        "",
        'quote " and backslash \\ and slash /',
        "line\nbreak\ttab\rreturn",
        "\u0001 control \u001f characters \u007f",
        "separators \u2028 \u2029, accents \u00e9\u00e8, CJK \u65e5\u672c, an emoji \u{1F600}",
        "x".repeat(41),
        `${"y".repeat(41)}"`,
        `${"z".repeat(6000)}\\`,
        "w".repeat(6000),
    ];

    test("each list's body is what JSON.stringify writes for it, and each item is the show's answer without the duration", async () => {
        const rows = acmeRows().slice(0, DESCRIPTIONS.length);
        const setDescription = service.db.prepare("UPDATE projects SET description = ? WHERE id = ?");
        rows.forEach((row, i) => setDescription.run(DESCRIPTIONS[i]!, row.id));
        for (const token of [TOKENS.owners, TOKENS.bob, TOKENS.appsMaintain]) {
            const client = clientFor(target, token);
            for (const params of [{}, { sort: "-name", size: 100, number: 2 } as const, { q: "alpha", sort: "name", size: 7, number: 2 } as const, { q: "svc", number: 3 }, { number: 999 }]) {
                const response = await client.get(listPath(params));
                expectStatus(response, 200);
                expect(response.text).toBe(JSON.stringify(JSON.parse(response.text)));
            }
            const page = await client.get(listPath({ size: 100 }));
            const items = page.body.data as any[];
            expect(items.length).toBeGreaterThan(0);
            for (const item of items.slice(0, 30)) {
                const show = await client.get(`/projects/${item.id}`);
                expectStatus(show, 200);
                const { "auto-destroy-activity-duration": duration, ...attributes } = show.body.data.attributes;
                expect(duration).not.toBeUndefined();
                expect(item).toEqual({ ...show.body.data, attributes });
            }
            if (token === TOKENS.owners) {
                // The written descriptions came back as written, and the page holds counts and permissions that vary.
                expect(items.slice(0, DESCRIPTIONS.length).map((item) => item.attributes.description)).toEqual(DESCRIPTIONS);
                expect(new Set(items.map((item) => item.attributes["workspace-count"])).size).toBeGreaterThan(1);
                expect(new Set(items.map((item) => item.attributes["team-count"])).size).toBeGreaterThan(1);
            }
        }
    });
});

describe("ids that need escaping in JSON (a seed may give a project any id after 'prj-')", () => {
    const IDS = ['prj-quote"d', "prj-back\\slash", "prj-tab\there", "prj-\u00e9 \u2028 \u{1F600}"];

    test("each item's id and links are written as JSON.stringify writes them, the id unchanged", async () => {
        const timestamp = new Date().toISOString();
        const insert = service.db.prepare("INSERT INTO projects (id, organization, name, created_at, updated_at) VALUES (?, 'acme', ?, ?, ?)");
        IDS.forEach((id, i) => insert.run(id, `escaped-id-${i}`, timestamp, timestamp));
        try {
            const client = clientFor(target, TOKENS.owners);
            // Both list statements: a search (its own statement) and the whole organization's last page.
            const whole = await client.get(listPath({ size: 100, number: Math.ceil(acmeRows().length / 100) }));
            for (const response of [await client.get(listPath({ q: "escaped-id", size: 100 })), whole]) {
                expectStatus(response, 200);
                expect(response.text).toBe(JSON.stringify(JSON.parse(response.text)));
                const items = (response.body.data as any[]).filter((item) => IDS.includes(item.id));
                expect(items.map((item) => item.id).sort()).toEqual([...IDS].sort());
                for (const item of items) {
                    expect(item.links.self).toBe(`/api/v2/projects/${item.id}`);
                    expect(item.relationships["tag-bindings"].links.related).toBe(`/api/v2/projects/${item.id}/tag-bindings`);
                    expect(item.relationships["effective-tag-bindings"].links.related).toBe(`/api/v2/projects/${item.id}/effective-tag-bindings`);
                }
            }
        } finally {
            service.db.prepare(`DELETE FROM projects WHERE id IN (${IDS.map(() => "?").join(", ")})`).run(...IDS);
        }
    });
});

describe("q is literal: %, _, \", *, \\ and query syntax find the names that hold them, nothing else", () => {
    test.each([
        ["%", ["rate 50% off"]],
        ["50%", ["rate 50% off"]],
        ["0% o", ["rate 50% off"]],
        ['"', ['say "hi" now']],
        ['"hi"', ['say "hi" now']],
        ['y "h', ['say "hi" now']],
        ["*", ["star*gazer"]],
        ["r*g", ["star*gazer"]],
        ["*gazer", ["star*gazer"]],
        ["\\", ["back\\slash"]],
        ["k\\s", ["back\\slash"]],
        ["back\\", ["back\\slash"]],
        ["r_s", ["under_score"]],
        ["^(x", ["q:col^(x) OR y NEAR"]],
        ["x) or", ["q:col^(x) OR y NEAR"]],
        ["q:col", ["q:col^(x) OR y NEAR"]],
        ["%_", []],
        ["*\"", []],
        ["\u0000ab", []],
        ["\t", []],
    ])("q=%j", async (q, names) => {
        const response = await expectListAsComputed(TOKENS.owners, { q, size: 100 });
        expect(response.body.data.map((item: any) => item.attributes.name)).toEqual(names);
    });

    test("_ matches only an underscore: every answer holds one, and a name with X in its place is left out", async () => {
        const response = await expectListAsComputed(TOKENS.owners, { q: "_", size: 100, number: 2 });
        const names: string[] = response.body.data.map((item: any) => item.attributes.name);
        expect(names.length).toBe(100);
        for (const name of names) expect(name).toContain("_");
        const all = await expectListAsComputed(TOKENS.owners, { q: "er_", size: 100 });
        expect(all.body.data.map((item: any) => item.attributes.name)).toEqual(["under_score"]);
    });

    test("NEAR, OR and other FTS words are text", async () => {
        await expectListAsComputed(TOKENS.owners, { q: "or y near" });
        await expectListAsComputed(TOKENS.owners, { q: "NEAR(" });
        await expectListAsComputed(TOKENS.owners, { q: "alpha OR beta" });
    });
});

describe("the trigram index stays in step with the projects", () => {
    const owners = () => clientFor(target, TOKENS.owners);

    test("a project created through the API is found by q at once", async () => {
        const created = await owners().post(LIST, projectDocument({ name: "Quokka Unique Trigram" }));
        expectStatus(created, 201);
        expect(indexed("kka uniq")).toEqual([created.body.data.id]);
        await expectListAsComputed(TOKENS.owners, { q: "KKA UNIQ" });
        const response = await owners().get(listPath({ q: "okka" }));
        expect(response.body.data.map((item: any) => item.id)).toEqual([created.body.data.id]);
    });

    test("a rename through the API: the new name is found, the old one no longer", async () => {
        const id = acmeRows()[1234]!.id;
        const before = acmeRows()[1234]!.name;
        const renamed = await owners().patch(`/projects/${id}`, { data: { type: "projects", id, attributes: { name: "Wombat Renamed Here" } } });
        expectStatus(renamed, 200);
        expect(indexed("wombat")).toEqual([id]);
        expect(indexed(before)).toEqual([]);
        for (const q of ["wombat", "bat ren", before, before.slice(-5)]) await expectListAsComputed(TOKENS.owners, { q, size: 100 });
        const found = await owners().get(listPath({ q: "ombat renamed" }));
        expect(found.body.data.map((item: any) => item.id)).toEqual([id]);
    });

    test("a rename that only changes case keeps the project findable in any case", async () => {
        const created = await owners().post(LIST, projectDocument({ name: "echidna spines" }));
        const id = created.body.data.id;
        expectStatus(await owners().patch(`/projects/${id}`, { data: { type: "projects", id, attributes: { name: "ECHIDNA Spines" } } }), 200);
        expect(indexed("echidna")).toEqual([id]);
        const found = await owners().get(listPath({ q: "chidna sp" }));
        expect(found.body.data.map((item: any) => [item.id, item.attributes.name])).toEqual([[id, "ECHIDNA Spines"]]);
    });

    test("a delete through the API removes the project from search and from the counts", async () => {
        const created = await owners().post(LIST, projectDocument({ name: "Platypus Doomed" }));
        const id = created.body.data.id;
        expect(indexed("platypus")).toEqual([id]);
        const totalBefore = (await owners().get(LIST)).body.meta["status-counts"].total;
        expectStatus(await owners().delete(`/projects/${id}`), 204);
        expect(indexed("platypus")).toEqual([]);
        const after = await expectListAsComputed(TOKENS.owners, { q: "platypus" });
        expect(after.body.data).toEqual([]);
        expect(after.body.meta["status-counts"].total).toBe(totalBefore - 1);
    });

    test("writes straight to the table (as a seed makes them) are followed too, and the index matches the table", async () => {
        const db = service.db;
        const rows = acmeRows();
        db.prepare("UPDATE projects SET name = 'Numbat Direct' WHERE id = ?").run(rows[2000]!.id);
        db.prepare("DELETE FROM projects WHERE id = ?").run(rows[2001]!.id);
        expect(indexed("numbat")).toEqual([rows[2000]!.id]);
        expect(indexed(rows[2001]!.name)).toEqual([]);
        await expectListAsComputed(TOKENS.owners, { q: "numbat" });
        await expectListAsComputed(TOKENS.owners, { q: rows[2001]!.name.slice(-6), size: 100 });
        await expectListAsComputed(TOKENS.owners, { size: 100, number: 21 });
        checkIndexAgainstTable(db);
        const total = (db.prepare("SELECT COUNT(*) AS n FROM projects WHERE organization = 'acme'").get() as { n: number }).n;
        expect(db.prepare("SELECT organization, project_count FROM organization_project_counts ORDER BY organization").all()).toEqual(
            (db.prepare("SELECT organization, COUNT(*) AS project_count FROM projects GROUP BY organization ORDER BY organization").all()),
        );
        expect((await clientFor(target, TOKENS.owners).get(LIST)).body.meta["status-counts"].total).toBe(total);
    });

    test("the index check used above does fail on an index out of step (a rename with its trigger gone)", () => {
        const db = openDatabase(":memory:");
        try {
            db.exec("INSERT INTO organizations (name, created_at) VALUES ('o', 'now')");
            db.exec("INSERT INTO projects (id, organization, name, created_at, updated_at) VALUES ('prj-x', 'o', 'kept in step', 'now', 'now')");
            checkIndexAgainstTable(db);
            db.exec("DROP TRIGGER projects_names_rename");
            db.exec("UPDATE projects SET name = 'drifted' WHERE id = 'prj-x'");
            expect(() => checkIndexAgainstTable(db)).toThrow();
        } finally {
            db.close();
        }
    });
});

describe("migration 4 on a database that already has projects", () => {
    test("fills the trigram index and the project counts from the rows already there", () => {
        const path = ":memory:";
        const db = openDatabase(path);
        try {
            // Back to schema 3, as a database written before this change: migration 5's and 4's objects gone.
            db.exec(`DROP TRIGGER workspaces_count_insert; DROP TRIGGER workspaces_count_delete; DROP TRIGGER workspaces_count_move;
                     DROP TRIGGER team_access_count_insert; DROP TRIGGER team_access_count_delete; DROP TRIGGER team_access_count_move;
                     ALTER TABLE projects DROP COLUMN workspace_count; ALTER TABLE projects DROP COLUMN team_count;`);
            db.exec(`DROP TRIGGER projects_names_insert; DROP TRIGGER projects_names_delete; DROP TRIGGER projects_names_rename;
                     DROP TRIGGER projects_count_insert; DROP TRIGGER projects_count_delete; DROP TRIGGER projects_count_move;
                     DROP TABLE project_names; DROP TABLE organization_project_counts;
                     DROP INDEX projects_organization; DROP INDEX team_project_access_project;`);
            db.pragma("user_version = 3");
            db.exec("INSERT INTO organizations (name, created_at) VALUES ('o1', 'now'), ('o2', 'now')");
            const insert = db.prepare("INSERT INTO projects (id, organization, name, created_at, updated_at) VALUES (?, ?, ?, 'now', 'now')");
            for (let i = 0; i < 50; i++) insert.run(`prj-m${i}`, i % 5 === 0 ? "o2" : "o1", `Old Project ${i}`);

            migrate(db);

            expect(db.pragma("user_version", { simple: true })).toBe(SCHEMA_VERSION);
            checkIndexAgainstTable(db);
            const found = db
                .prepare("SELECT p.id FROM project_names f JOIN projects p ON p.rowid = f.rowid WHERE f.project_names MATCH ? ORDER BY p.rowid")
                .all('"project 4"') as { id: string }[];
            expect(found.map((row) => row.id)).toEqual(["prj-m4", "prj-m40", "prj-m41", "prj-m42", "prj-m43", "prj-m44", "prj-m45", "prj-m46", "prj-m47", "prj-m48", "prj-m49"]);
            expect(db.prepare("SELECT organization, project_count FROM organization_project_counts ORDER BY organization").all()).toEqual([
                { organization: "o1", project_count: 40 },
                { organization: "o2", project_count: 10 },
            ]);
            // And from then on the triggers keep both.
            insert.run("prj-late", "o2", "Late Arrival");
            db.prepare("DELETE FROM projects WHERE id = 'prj-m0'").run();
            checkIndexAgainstTable(db);
            expect((db.prepare("SELECT project_count FROM organization_project_counts WHERE organization = 'o2'").get() as any).project_count).toBe(10);
        } finally {
            db.close();
        }
    });
});

describe("authentication's cache never outlives a seed", () => {
    test("a token resolved a moment ago sees what a newly applied seed grants it, at once", async () => {
        const appsRead = clientFor(target, TOKENS.appsRead);
        const empty = (service.db.prepare("SELECT id FROM projects WHERE organization = 'acme' AND name = 'Empty'").get() as { id: string }).id;
        // Resolved (and so cached) now: no access to Empty.
        expectErrors(await appsRead.get(`/projects/${empty}`), 404);
        expect((await appsRead.get(listPath({ names: "Empty" }))).body.data).toEqual([]);

        const seed = testSeed();
        const team = seed.organizations[0]!.teams!.find((candidate) => candidate.name === "apps-read")!;
        team.projectAccess = { ...team.projectAccess, Empty: "admin" };
        applySeed(service.db, seed);

        const show = await appsRead.get(`/projects/${empty}`);
        expectStatus(show, 200);
        expect(show.body.data.attributes.permissions["can-update"]).toBe(true);
        await expectListAsComputed(TOKENS.appsRead, { names: "Empty" });
        await expectListAsComputed(TOKENS.appsRead, { update: true, size: 100 });
    });
});
