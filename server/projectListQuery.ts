/**
 * The project list's query building: how a list request becomes the fewest statements on indexes that answer
 * its page and its counts. The strategy by caller and filters (one statement for the common lists of a
 * caller who sees every project, else a read transaction), the switch between the trigram index and `LIKE`
 * for a search, the `WHERE` of a filter, and the cache of built statement texts. The rows a page reads are
 * `projectListRows.ts`'s; the parameters are read by routes/projects.ts.
 */
import type { Principal } from "./auth";
import { ACCESS_LEVELS, readTransaction, sql, type AccessLevel, type Db } from "./db";
import { PAGE_BOUNDS_SQL, pageOffset, substringLikeSql, substringPattern } from "./pagination";
import { PROJECT_LIST_COLUMN_COUNT, projectListColumns, projectListRow, type ProjectListRow } from "./projectListRows";
import { TAGGED_PROJECTS } from "./records/projects";

/** What a list request asks for, read from its parameters by routes/projects.ts. */
export interface ProjectListQuery {
    page: { number: number; size: number };
    sort: string | undefined;
    /** `filter[names]`: exact names, lower-cased, without repeats; undefined for none. */
    names: string[] | undefined;
    /** `q`: a substring, lower-cased; undefined for none (`filter[names]` wins over it). */
    search: string | undefined;
    /** `filter[permissions][create-workspace]`: only projects the caller may create workspaces in. */
    onlyCreateWorkspace: boolean;
    /** `filter[permissions][update]`: only projects the caller may update. */
    onlyUpdate: boolean;
    /** The tag filters as the JSON `TAGGED_PROJECTS` reads (`tagFilters.ts` `taggedParameter`); undefined for none. */
    tagged: string | undefined;
}

type ListQuery = ProjectListQuery;

/**
 * How a list request narrows projects by name: not at all, to nothing, to exact names (a JSON array for
 * `json_each`, served by the `(organization, name)` index), or to a substring: `search` until the way is
 * chosen (by how many projects of the organization match, {@link SELECTIVE_SEARCH_MATCHES}), then through
 * the trigram index (`index`: `project_names`, an FTS5 phrase) or by `LIKE` (a pattern with `%`, `_` and `\`
 * escaped).
 */
type NameMatch = { kind: "all" } | { kind: "none" } | { kind: "names"; names: string } | Search | { kind: "index"; phrase: string } | LikeMatch;
type LikeMatch = { kind: "like"; pattern: string };
type Search = { kind: "search"; phrase: string; like: LikeMatch };
/** A {@link NameMatch} a filter is built from: a search is resolved to the index or `LIKE` first. */
type ResolvedMatch = Exclude<NameMatch, Search>;

/**
 * Below this many trigram matches in the organization a search runs on the trigram index; at or above it
 * (`q=proj` in an organization where every project is a "proj ...") the index would hand back most of the
 * table, and `LIKE` on the organization's name index, which can stop at the page, costs less.
 */
const SELECTIVE_SEARCH_MATCHES = 2000;

/** The trigram tokenizer needs three characters; a shorter search is a `LIKE`. */
const TRIGRAM = 3;

/** What a list page reads of each of its projects (a {@link ProjectListRow}), the projects aliased `page`. */
const PAGE_COLUMNS = projectListColumns("page");

/** The list's `total` for a caller who sees every project: the organization's kept count (0 before its first project). */
const ORGANIZATION_TOTAL = "COALESCE((SELECT project_count FROM organization_project_counts WHERE organization = @organization), 0)";

/** The rows of a statement in raw mode (arrays; see {@link projectListRow}). Only the list's own statements are raw. */
function rawRows(db: Db, text: string, params: Record<string, unknown>): unknown[][] {
    return sql(db, text).raw(true).all(params) as unknown[][];
}

const statementTexts = new Map<string, string>();

/**
 * The text of a list statement of one shape, built once: a page's statement is long, and building it anew
 * and hashing the new string to find its prepared statement took a measurable share of a page's time.
 */
function statementText(shape: string, build: () => string): string {
    return statementTexts.get(shape) ?? rememberedText(shape, build());
}

/** Keeps `text` as the statement of `shape` (see {@link statementText}) and answers it. */
function rememberedText(shape: string, text: string): string {
    statementTexts.set(shape, text);
    return text;
}

/** A list page's projects with the counts of `meta`. */
export interface ListPage {
    total: number;
    matching: number;
    items: ProjectListRow[];
}

/**
 * The page of projects a list request asks for, with the counts of `meta`: `total` (the projects the
 * caller can see) and `matching` (those the filters keep). Everything is SQL on indexes: the page's own
 * rows are the only projects read, whatever the size of the organization. What needs one statement runs
 * as one (a single statement reads one snapshot); what needs several runs them in one read transaction.
 */
export function listPage(db: Db, principal: Principal, query: ListQuery): ListPage {
    // A tag filter needs the filtered statement, whoever asks.
    if (seesEveryProject(principal) && query.tagged === undefined) {
        const match = nameMatch(query);
        // The common lists of a caller who sees everything, each one statement: the whole organization's
        // page, and a selective search.
        if (match.kind === "all") return wholeOrganizationPage(db, principal, query);
        if (match.kind === "search") {
            const found = selectiveSearchPage(db, principal.organization, match.phrase, query);
            if (found) return found;
        }
    }
    return readTransaction(db, () => filteredPage(db, principal, query));
}

/**
 * A page of the whole organization, for a caller who sees every project, in one statement: the page's rows,
 * each with the organization's kept count (a constant subquery, evaluated once). The organization's index
 * gives the rows in either order, and SQLite skips the `offset` rows before it reads any of their columns,
 * so no page reads more rows than it answers. A page past the end has no row to carry the count: that rare
 * case is answered by {@link filteredPage}, in one read transaction.
 */
function wholeOrganizationPage(db: Db, principal: Principal, query: ListQuery): ListPage {
    const text = statementText(`whole ${query.sort}`, () => {
        return `SELECT ${PAGE_COLUMNS}, ${ORGANIZATION_TOTAL} FROM projects page WHERE page.organization = @organization
                ORDER BY ${orderBy("page", query.sort)} ${PAGE_BOUNDS_SQL}`;
    });
    const rows = rawRows(db, text, { organization: principal.organization, limit: query.page.size, offset: pageOffset(query.page) });
    if (rows.length === 0) return readTransaction(db, () => filteredPage(db, principal, query));
    const total = rows[0]![PROJECT_LIST_COLUMN_COUNT] as number;
    return { total, matching: total, items: rows.map(projectListRow) };
}

/**
 * Any other list, inside the caller's read transaction: a caller who sees only some projects, exact names,
 * a search that is not selective, the permission filters.
 */
function filteredPage(db: Db, principal: Principal, query: ListQuery): ListPage {
    const seesAll = seesEveryProject(principal);
    // Owners and "manage projects" act as admin on every project: the permission filters keep them all.
    const required: AccessLevel = seesAll ? "read" : query.onlyUpdate ? "admin" : query.onlyCreateWorkspace ? "maintain" : "read";
    const total = seesAll
        ? (sql(db, `SELECT ${ORGANIZATION_TOTAL} AS n`).get({ organization: principal.organization }) as { n: number }).n
        : countProjects(db, listFilter(principal, "read", { kind: "all" }));
    let match = nameMatch(query);
    if (match.kind === "search") match = seesAll ? match.like : searchWay(db, principal.organization, match);
    if (match.kind === "none") return { total, matching: 0, items: [] };
    const filter = listFilter(principal, required, match, query.tagged);
    const matching = match.kind === "all" && required === "read" && query.tagged === undefined ? total : countProjects(db, filter);
    const offset = pageOffset(query.page);
    if (offset >= matching) return { total, matching, items: [] };
    // The page's rowids first (on an index or a short candidate list), then only those rows: skipping
    // `offset` rows and sorting candidates never reads whole rows.
    const sortsAfter = match.kind === "names" || match.kind === "index" || query.tagged !== undefined;
    const text = statementText(`filtered ${filter.where} ${query.sort}`, () => {
        const pageRowids = `SELECT p.rowid FROM projects p WHERE ${filter.where} ORDER BY ${orderBy("p", query.sort, sortsAfter)} ${PAGE_BOUNDS_SQL}`;
        return `SELECT ${PAGE_COLUMNS} FROM projects page WHERE page.rowid IN (${pageRowids}) ORDER BY ${orderBy("page", query.sort)}`;
    });
    const rows = rawRows(db, text, { ...filter.params, limit: query.page.size, offset });
    return { total, matching, items: rows.map(projectListRow) };
}

/**
 * A search for a caller who sees every project, in one statement: the organization's matches through the
 * trigram index (the index leads, and at most {@link SELECTIVE_SEARCH_MATCHES} are read), their count, the
 * organization's kept count, and the page among the matches with its counts. Undefined when the search is
 * not selective (the limit reached): the caller then searches by `LIKE`. One pass over the index instead
 * of one to count and one to page: the index's work is most of a selective search's cost.
 */
function selectiveSearchPage(db: Db, organization: string, phrase: string, query: ListQuery): ListPage | undefined {
    const text = statementText(`search ${query.sort}`, () => {
        const order = query.sort === undefined ? "hit" : `name COLLATE NOCASE${query.sort === "-name" ? " DESC" : ""}`;
        // The LEFT JOIN from the counts answers one row (its page columns NULL) when the page is empty; the
        // counts come after the page's columns.
        return `WITH hits AS MATERIALIZED (
                    SELECT p.rowid AS hit, p.name AS name FROM project_names f CROSS JOIN projects p ON p.rowid = f.rowid
                    WHERE f.project_names MATCH @phrase AND p.organization = @organization LIMIT ${SELECTIVE_SEARCH_MATCHES})
                SELECT ${PAGE_COLUMNS}, matches.n, matches.total
                FROM (SELECT COUNT(*) AS n, ${ORGANIZATION_TOTAL} AS total FROM hits) matches
                LEFT JOIN projects page ON page.rowid IN (SELECT hit FROM hits ORDER BY ${order} ${PAGE_BOUNDS_SQL})
                ORDER BY ${orderBy("page", query.sort)}`;
    });
    const rows = rawRows(db, text, { phrase, organization, limit: query.page.size, offset: pageOffset(query.page) });
    const matching = rows[0]![PROJECT_LIST_COLUMN_COUNT] as number;
    if (matching >= SELECTIVE_SEARCH_MATCHES) return undefined;
    return { total: rows[0]![PROJECT_LIST_COLUMN_COUNT + 1] as number, matching, items: rows[0]![0] === null ? [] : rows.map(projectListRow) };
}

/**
 * How a caller who sees only some projects searches: through the index when the organization's matches are
 * few (counted up to the limit, the index leading, so counting stops there), else by `LIKE`, which the
 * team's access rows drive; nothing when nothing in the organization matches.
 */
function searchWay(db: Db, organization: string, search: Search): ResolvedMatch {
    const hits = (
        sql(db, `SELECT COUNT(*) AS n FROM (SELECT 1 FROM project_names f CROSS JOIN projects p ON p.rowid = f.rowid
                 WHERE f.project_names MATCH ? AND p.organization = ? LIMIT ${SELECTIVE_SEARCH_MATCHES})`).get(search.phrase, organization) as {
            n: number;
        }
    ).n;
    if (hits === 0) return { kind: "none" };
    return hits < SELECTIVE_SEARCH_MATCHES ? { kind: "index", phrase: search.phrase } : search.like;
}

/**
 * The list's order over the projects aliased `alias`: creation order (rowid), or by name without regard to
 * case; names are unique in an organization in that sense (the column is NOCASE), so each order is total.
 * `sortsAfter`: the rows come from a short candidate list (exact names, a selective search) and are sorted
 * once found; `+` keeps SQLite from walking the whole organization in order instead, just to skip a sort.
 */
function orderBy(alias: string, sort: ListQuery["sort"], sortsAfter = false): string {
    const column = `${sortsAfter ? "+" : ""}${alias}.${sort === undefined ? "rowid" : "name COLLATE NOCASE"}`;
    return sort === "-name" ? `${column} DESC` : column;
}

/** Whether the principal acts as admin on every project of its organization (as {@link projectPermissions} says). */
function seesEveryProject(principal: Principal): boolean {
    return principal.owners || principal.manageProjects;
}

/**
 * The `WHERE` of the projects of the principal's organization that it holds at least `required` on (through
 * any of its teams: the strongest access wins, as in {@link projectPermissions}) and that `match` keeps.
 * Statements differ only by shape (a few dozen at most), so each is prepared once.
 */
function listFilter(
    principal: Principal,
    required: AccessLevel,
    match: ResolvedMatch,
    tagged?: string,
): { where: string; params: Record<string, unknown> } {
    const seesAll = seesEveryProject(principal);
    const params: Record<string, unknown> = { organization: principal.organization };
    // When the team's access rows, the trigram index or the tag index narrow more than the organization
    // does, `+` keeps SQLite from walking the whole organization instead (it has no statistics to tell).
    // Only a caller who sees some projects filters through the trigram index (one who sees all searches
    // in one statement, or by LIKE): `!seesAll` covers that case.
    const drivenElsewhere = !seesAll || tagged !== undefined;
    const clauses = [`${drivenElsewhere ? "+" : ""}p.organization = @organization`];
    if (!seesAll) {
        const levels = ACCESS_LEVELS.slice(ACCESS_LEVELS.indexOf(required));
        const levelClause = required === "read" ? "" : ` AND a.access IN (${levels.map((level) => `'${level}'`).join(", ")})`;
        clauses.push(`p.id IN (SELECT a.project_id FROM team_project_access a
                               WHERE a.team_id IN (SELECT value FROM json_each(@teams))${levelClause})`);
        params.teams = JSON.stringify(principal.teamIds);
    }
    switch (match.kind) {
        case "names":
            // `p.name` is NOCASE, so IN compares without regard to case.
            clauses.push("p.name IN (SELECT value FROM json_each(@names))");
            params.names = match.names;
            break;
        case "index":
            clauses.push("p.rowid IN (SELECT rowid FROM project_names WHERE project_names MATCH @phrase)");
            params.phrase = match.phrase;
            break;
        case "like":
            clauses.push(substringLikeSql("p.name"));
            params.pattern = match.pattern;
            break;
    }
    if (tagged !== undefined) {
        clauses.push(`p.id IN (${TAGGED_PROJECTS})`);
        params.tagged = tagged;
    }
    return { where: clauses.join(" AND "), params };
}

function countProjects(db: Db, filter: { where: string; params: Record<string, unknown> }): number {
    return (sql(db, `SELECT COUNT(*) AS n FROM projects p WHERE ${filter.where}`).get(filter.params) as { n: number }).n;
}

/**
 * What `filter[names]` or `q` (ignored when `filter[names]` is given) keeps, as SQL can ask it. Project
 * names are printable ASCII (the name rule, for the API and seeds alike), so a name or search holding
 * anything else (after lower-casing: `K`, the Kelvin sign, is a `k`) matches nothing, and what reaches SQL
 * is plain ASCII, where every case-insensitive comparison agrees.
 */
function nameMatch(query: ListQuery): NameMatch {
    if (query.names !== undefined) {
        const names = query.names.filter(isPrintableAscii);
        return names.length === 0 ? { kind: "none" } : { kind: "names", names: JSON.stringify(names) };
    }
    const search = query.search;
    if (search === undefined) return { kind: "all" };
    if (!isPrintableAscii(search)) return { kind: "none" };
    // Every character literal, for LIKE...
    const like: LikeMatch = { kind: "like", pattern: substringPattern(search) };
    if (search.length < TRIGRAM) return like;
    // ...and for FTS5 the search is one quoted phrase (a trigram phrase is a substring), `"` doubled, so
    // `*`, `-`, `:`, `^`, `(` or `OR` in it are text, not query syntax.
    return { kind: "search", phrase: `"${search.replace(/"/g, '""')}"`, like };
}

function isPrintableAscii(text: string): boolean {
    return /^[\x20-\x7e]*$/.test(text);
}
