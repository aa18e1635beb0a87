/**
 * Projects, their tag bindings, and moving workspaces between them (the API's Projects endpoints, with the
 * local service's own decisions). Each handler: authorize, parse with the `sdk/model` schema, one
 * transaction, render; the rules that need the database are the functions below the routes.
 */
import type { FastifyInstance, FastifyRequest } from "fastify";
import {
    JSON_API_MEDIA_TYPE,
    LIMITS,
    createProjectRequestSchema,
    moveWorkspacesRequestSchema,
    tagSetProblems,
    updateProjectRequestSchema,
    updateTagBindingsRequestSchema,
    type Tag,
} from "../../sdk/model";
import { principalOf, type AppContext } from "../app";
import {
    moveDestination,
    requireOrganization,
    updatableProject,
    visibleProject,
    workspacePermissions,
    type Params,
} from "../access";
import { canCreateProjects, projectPermissions, type Principal } from "../auth";
import { ACCESS_LEVELS, now, readTransaction, sql, writeTransaction, type AccessLevel, type Db } from "../db";
import { abbreviated as abbreviatedText, badParameter, conflict, forbidden, httpError, parseBody, urlIdProblems, validationFailed, type Problem } from "../errors";
import { PAGE_BOUNDS_SQL, pageOf, pageOffset, pageRequest, singleParameter, substringLikeSql, substringPattern, type Query } from "../pagination";
import {
    findProject,
    findWorkspace,
    insertProject,
    projectCountsOf,
    tagBindingsOf,
    upsertTagBinding,
    type ProjectRow,
    type TagBindingRow,
} from "../records";
import { PROJECT_LIST_COLUMN_COUNT, projectListColumns, projectListRow, type ProjectListRow } from "../projectListRows";
import {
    projectListJson,
    renderEffectiveTagBinding,
    renderProject,
    renderTagBindingForList,
    renderTagBindingWritten,
    type PageLinks,
    type ProjectListMeta,
} from "../render";

/** The content type every JSON:API document is answered with (app.ts sets it on the others). */
const LIST_CONTENT_TYPE = `${JSON_API_MEDIA_TYPE}; charset=utf-8`;

/** Field labels of project bodies, for details such as "Tag key must be at most 128 characters". */
const LABELS = { key: "Tag key", value: "Tag value", "tag-bindings": "Tag bindings" };

/** Where the tag list of a project create or update is. */
const TAG_LIST_POINTER = ["data", "relationships", "tag-bindings", "data"] as const;

type ProjectAttributes = { name?: string; description?: string | null; "auto-destroy-activity-duration"?: string | null };
type TagItems = readonly { attributes: { key: string; value?: string | undefined } }[];

/** Registers the project, tag-binding and move-workspaces routes under `/api/v2`. */
export function registerProjectRoutes(api: FastifyInstance, { db }: AppContext): void {
    api.post<Params>("/organizations/:organization/projects", async (request, reply) => {
        const principal = principalOf(request);
        const data = writeTransaction(db, () => {
            requireOrganization(principal, request.params.organization);
            if (!canCreateProjects(principal)) {
                throw httpError(404, "Organization not found or you are not authorized to create projects in it");
            }
            const body = parseBody(createProjectRequestSchema(), request.body, LABELS);
            const tags = tagsFrom(body.data.relationships?.["tag-bindings"]?.data ?? []);
            return renderProject(createProject(db, principal.organization, body.data.attributes, tags), principal, "create");
        });
        return reply.code(201).send({ data });
    });

    // Written as JSON text by render.ts `projectListJson` (the bytes JSON.stringify writes, in a third of its time).
    api.get<Params>("/organizations/:organization/projects", async (request, reply) => {
        const principal = principalOf(request);
        requireOrganization(principal, request.params.organization);
        const query = listQuery(request.query as Query);
        if (query.includeEffectiveTagBindings) {
            // The page and its bindings from one snapshot. Written by JSON.stringify: the items are
            // renderProject's "full" view (the bytes projectListJson writes) with the relationship's data.
            const { list, bindings } = readTransaction(db, () => {
                const list = listPage(db, principal, query);
                return { list, bindings: effectiveTagBindingsOf(db, list.items) };
            });
            const page = pageOf(request, list.matching, query.page);
            const meta = { "status-counts": { total: list.total, matching: list.matching }, pagination: page.pagination };
            return reply.type(LIST_CONTENT_TYPE).send(JSON.stringify(listWithEffectiveTagBindings(list.items, bindings, principal, page.links, meta)));
        }
        const list = listPage(db, principal, query);
        const page = pageOf(request, list.matching, query.page);
        const meta = { "status-counts": { total: list.total, matching: list.matching }, pagination: page.pagination };
        return reply.type(LIST_CONTENT_TYPE).send(projectListJson(list.items, principal, page.links, meta));
    });

    // One statement (the project's row holds its counts): it reads one snapshot without a transaction around it.
    api.get<Params>("/projects/:id", async (request) => {
        const principal = principalOf(request);
        const project = visibleProject(db, principal, request.params.id);
        return { data: renderProject(project, principal, "show", projectCountsOf(project)) };
    });

    // Attributes left out stay; `tag-bindings`, when present, replace the whole set.
    api.patch<Params>("/projects/:id", async (request) => {
        const principal = principalOf(request);
        return writeTransaction(db, () => {
            const current = updatableProject(db, principal, request.params.id);
            const { data } = parseBody(updateProjectRequestSchema(), request.body, LABELS);
            const tags = data.relationships?.["tag-bindings"] ? tagsFrom(data.relationships["tag-bindings"].data) : undefined;
            const project = updateProject(db, current, data.id, data.attributes ?? {}, tags);
            return { data: renderProject(project, principal, "full", projectCountsOf(project)) };
        });
    });

    api.delete<Params>("/projects/:id", async (request, reply) => {
        const principal = principalOf(request);
        writeTransaction(db, () => deleteProject(db, principal, visibleProject(db, principal, request.params.id)));
        return reply.code(204).send();
    });

    // For a project, the effective bindings are its own bindings: the same set, under the hosted service's
    // type `effective-tag-bindings` (go-tfe refuses any other type there).
    const listTagBindings = (render: (binding: TagBindingRow) => object) => async (request: FastifyRequest<Params>) => {
        const principal = principalOf(request);
        return readTransaction(db, () => {
            const project = visibleProject(db, principal, request.params.id);
            return { data: tagBindingsOf(db, project.id).map((binding) => render(binding)) };
        });
    };
    api.get<Params>("/projects/:id/tag-bindings", listTagBindings(renderTagBindingForList));
    api.get<Params>("/projects/:id/effective-tag-bindings", listTagBindings((binding) => renderEffectiveTagBinding(binding)));

    api.patch<Params>("/projects/:id/tag-bindings", async (request) => {
        const principal = principalOf(request);
        return writeTransaction(db, () => {
            const project = updatableProject(db, principal, request.params.id);
            const body = parseBody(updateTagBindingsRequestSchema(), request.body, LABELS);
            return { data: addTagBindings(db, project, tagsFrom(body.data)).map(renderTagBindingWritten) };
        });
    });

    api.post<Params>("/projects/:id/relationships/workspaces", async (request, reply) => {
        const principal = principalOf(request);
        writeTransaction(db, () => {
            const destination = moveDestination(db, principal, request.params.id);
            const body = parseBody(moveWorkspacesRequestSchema(), request.body);
            moveWorkspaces(db, principal, destination, body.data.map((item) => item.id));
        });
        return reply.code(204).send();
    });
}

// ---------------------------------------------------------------------------------------------------------
// The rules that need the database. Each runs inside the caller's transaction and throws the refusal.

/** Creates a project with its tags; 422 for a name already taken or a tag set that breaks a rule. */
function createProject(db: Db, organization: string, attributes: ProjectAttributes & { name: string }, tags: readonly Tag[]): ProjectRow {
    const problems = [...nameProblems(db, organization, attributes.name), ...tagListProblems(tags, TAG_LIST_POINTER)];
    if (problems.length > 0) throw validationFailed(problems);
    return insertProject(
        db,
        {
            organization,
            name: attributes.name,
            description: attributes.description,
            autoDestroyActivityDuration: attributes["auto-destroy-activity-duration"],
        },
        tags,
    );
}

/**
 * Updates the attributes given (the others keep their value) and, when `tags` is given, replaces the whole
 * tag set. A new auto-destroy duration reaches the project's workspaces that inherit it.
 */
function updateProject(
    db: Db,
    current: ProjectRow,
    bodyId: string | undefined,
    attributes: ProjectAttributes,
    tags: readonly Tag[] | undefined,
): ProjectRow {
    const problems = [
        ...urlIdProblems(bodyId, current.id, "project"),
        ...(attributes.name === undefined ? [] : nameProblems(db, current.organization, attributes.name, current.id)),
        ...(tags === undefined ? [] : tagListProblems(tags, TAG_LIST_POINTER)),
    ];
    if (problems.length > 0) throw validationFailed(problems);
    const timestamp = now();
    const duration = keepIfAbsent(attributes["auto-destroy-activity-duration"], current.auto_destroy_activity_duration);
    sql(db, "UPDATE projects SET name = ?, description = ?, auto_destroy_activity_duration = ?, updated_at = ? WHERE id = ?").run(
        attributes.name ?? current.name,
        keepIfAbsent(attributes.description, current.description),
        duration,
        timestamp,
        current.id,
    );
    // Workspaces follow the project's value unless they set their own.
    sql(db, `UPDATE workspaces SET auto_destroy_activity_duration = ?, updated_at = ?
             WHERE project_id = ? AND auto_destroy_activity_inherited = 1 AND auto_destroy_activity_duration IS NOT ?`).run(
        duration,
        timestamp,
        current.id,
        duration,
    );
    if (tags) replaceTagBindings(db, current.id, tags, timestamp);
    return findProject(db, current.id)!;
}

/** Deletes a project: 403 without the permission, 409 for the default project or one that has workspaces. */
function deleteProject(db: Db, principal: Principal, project: ProjectRow): void {
    if (!projectPermissions(principal, project).canDestroy) throw forbidden("You are not authorized to delete this project");
    if (project.is_default === 1) throw conflict("The default project of an organization cannot be deleted");
    const workspaceCount = project.workspace_count;
    if (workspaceCount > 0) {
        throw conflict(
            `Project '${project.name}' still contains ${plural(workspaceCount, "workspace")}; move or delete them before deleting the project`,
        );
    }
    sql(db, "DELETE FROM projects WHERE id = ?").run(project.id);
}

/**
 * Adds tags or updates the values of existing keys, never removing any; answers the rows written in request
 * order. 422 for a key given twice, or more than ten tags on the project after the change.
 */
function addTagBindings(db: Db, project: ProjectRow, tags: readonly Tag[]): TagBindingRow[] {
    const after = new Set([...tagBindingsOf(db, project.id).map((binding) => binding.key), ...tags.map((tag) => tag.key)]).size;
    const problems = tagListProblems(tags, ["data"], after);
    if (problems.length > 0) throw validationFailed(problems);
    const timestamp = now();
    const rows = tags.map((tag) => upsertTagBinding(db, project.id, tag, timestamp));
    sql(db, "UPDATE projects SET updated_at = ? WHERE id = ?").run(timestamp, project.id);
    return rows;
}

/**
 * Moves workspaces into `destination`, all or nothing: 403 when any of them is unknown or may not be moved
 * out of its project. A moved workspace that inherits its auto-destroy duration takes the destination's.
 * Shared with `PATCH /workspaces/:id` and its `relationships.project` (routes/workspaces.ts), so both ways
 * of moving follow the same rules; the caller's transaction makes it all-or-nothing with its other writes.
 */
export function moveWorkspaces(db: Db, principal: Principal, destination: ProjectRow, workspaceIds: readonly string[]): void {
    const ids = [...new Set(workspaceIds)];
    const refused = ids.filter((id) => {
        const workspace = findWorkspace(db, id);
        return !workspace || !workspacePermissions(principal, workspace).canMoveWorkspaces;
    });
    if (refused.length > 0) {
        const them = refused.length === 1 ? "it out of its project" : "them out of their projects";
        throw forbidden(`${plural(refused.length, "workspace")} (${abbreviated(refused)}) not found or you are not authorized to move ${them}; nothing was moved`);
    }
    const timestamp = now();
    for (const id of ids) {
        sql(db, `UPDATE workspaces SET project_id = ?, updated_at = ?,
                     auto_destroy_activity_duration = CASE WHEN auto_destroy_activity_inherited = 1 THEN ? ELSE auto_destroy_activity_duration END
                 WHERE id = ?`).run(destination.id, timestamp, destination.auto_destroy_activity_duration, id);
    }
}

// ---------------------------------------------------------------------------------------------------------
// Helpers

/** The list's query: page, sort, name filter or search, permission filters; 400 for a bad one. */
function listQuery(query: Query) {
    const sort = singleParameter(query, "sort");
    if (sort !== undefined && sort !== "name" && sort !== "-name") {
        throw badParameter("sort", `sort must be 'name' or '-name', got '${sort}'`);
    }
    // A blank filter[names] filters nothing (and leaves `q` in force), like a blank `q`.
    const names = singleParameter(query, "filter[names]")
        ?.split(",")
        .map((name) => name.trim().toLowerCase())
        .filter((name) => name !== "");
    return {
        page: pageRequest(query),
        sort,
        names: names !== undefined && names.length > 0 ? [...new Set(names)] : undefined,
        search: singleParameter(query, "q")?.toLowerCase() || undefined,
        onlyCreateWorkspace: permissionFilter(query, "filter[permissions][create-workspace]"),
        onlyUpdate: permissionFilter(query, "filter[permissions][update]"),
        tagged: taggedParameter(query),
        includeEffectiveTagBindings: includesEffectiveTagBindings(query),
    };
}

/** One `filter[tagged][i]` of a list: a tag key, and the value it must have (`""`: any value). */
export interface TagFilter {
    key: string;
    value: string;
}

/** A parameter of the `filter[tagged]` family: every one must be `filter[tagged][<number>][key|value]`. */
const TAGGED_PARAMETER = /^filter\[tagged\]/;
const TAGGED_FORM = /^filter\[tagged\]\[([^\]]*)\]\[([^\]]*)\]$/;

/**
 * The hosted service's tag filters of a list (projects and workspaces): `filter[tagged][i][key]` and, optionally,
 * `filter[tagged][i][value]`, `i` a number that groups the two (indexes need not follow each other). Each
 * filter keeps what holds a binding with that key and, when the value is given and not empty, that value;
 * several filters combine with AND. Keys and values compare exactly (case included), as bindings are stored:
 * `Env` and `env` are two keys. An empty value filters by key alone, which is what go-tfe and pytfe send for
 * a key without a value (both always send the `[value]` parameter). 400 naming the parameter, before any
 * work, for anything else of the family: another form, an index that is not a number, an empty key, a
 * value without its key, a parameter given twice.
 */
export function taggedFilters(query: Query): TagFilter[] {
    const groups = new Map<string, { key?: string; value?: string; valueName?: string }>();
    for (const name of Object.keys(query)) {
        if (!TAGGED_PARAMETER.test(name)) continue;
        const shown = abbreviatedText(name);
        const form = TAGGED_FORM.exec(name);
        if (!form || (form[2] !== "key" && form[2] !== "value")) {
            throw badParameter(shown, `${shown} is not a tag filter: write filter[tagged][i][key] and, optionally, filter[tagged][i][value], with i a number`);
        }
        const index = form[1]!;
        if (!/^\d{1,9}$/.test(index)) {
            throw badParameter(shown, `The index of ${shown} must be a number (0, 1, 2...), got '${abbreviatedText(index)}'`);
        }
        // A name from Object.keys has a value: the query parser gives "" for a bare `?name`.
        const value = singleParameter(query, name)!;
        const group = groups.get(index) ?? {};
        if (form[2] === "key") {
            if (value === "") throw badParameter(shown, `${shown} must name a tag key; it is empty`);
            group.key = value;
        } else {
            group.value = value;
            group.valueName = shown;
        }
        groups.set(index, group);
    }
    const filters: TagFilter[] = [];
    for (const [index, group] of groups) {
        if (group.key === undefined) {
            throw badParameter(group.valueName!, `${group.valueName} is given without filter[tagged][${index}][key]: a tag filter needs its key`);
        }
        filters.push({ key: group.key, value: group.value ?? "" });
    }
    return filters;
}

/** The tag filters of a list as the JSON array of `[key, value]` pairs that {@link TAGGED_PROJECTS} reads; undefined for none. */
export function taggedParameter(query: Query): string | undefined {
    const filters = taggedFilters(query);
    return filters.length === 0 ? undefined : JSON.stringify(filters.map((filter) => [filter.key, filter.value]));
}

/**
 * The ids of the projects that every tag filter of `@tagged` (see {@link taggedParameter}) keeps: one
 * statement shape whatever the number of filters. Each filter finds its bindings on the
 * `tag_bindings_key_value` index (migration 6); a project is kept when as many filters found one of its
 * bindings as there are filters.
 */
export const TAGGED_PROJECTS = `SELECT t.project_id FROM json_each(@tagged) f CROSS JOIN tag_bindings t
        ON t.key = f.value ->> 0 AND ((f.value ->> 1) = '' OR t.value = f.value ->> 1)
        GROUP BY t.project_id HAVING COUNT(DISTINCT f.key) = json_array_length(@tagged)`;

/** The `include` values that ask for the effective tag bindings (go-tfe sends the first). */
const INCLUDE_VALUES = ["effective_tag_bindings", "effective-tag-bindings"];

/** Whether `include` asks for each project's effective tag bindings; any other value is a 400. */
function includesEffectiveTagBindings(query: Query): boolean {
    const include = singleParameter(query, "include");
    if (include === undefined) return false;
    for (const value of include.split(",").map((part) => part.trim())) {
        if (!INCLUDE_VALUES.includes(value)) {
            // go-tfe recognises this error by the words "include parameter" in the detail.
            throw badParameter("include", `Invalid include parameter: include must be 'effective_tag_bindings', got '${abbreviatedText(value)}'`);
        }
    }
    return true;
}

/** The effective tag bindings of a page's projects (a project's are its own), by project, in their order. */
function effectiveTagBindingsOf(db: Db, projects: readonly ProjectListRow[]): Map<string, TagBindingRow[]> {
    const byProject = new Map<string, TagBindingRow[]>(projects.map((project) => [project.id, []]));
    const rows = sql(db, `SELECT * FROM tag_bindings WHERE project_id IN (SELECT value FROM json_each(?))
                          ORDER BY project_id, created_at, rowid`).all(JSON.stringify(projects.map((project) => project.id))) as TagBindingRow[];
    for (const row of rows) byProject.get(row.project_id)?.push(row);
    return byProject;
}

/**
 * The list's document with `include=effective_tag_bindings`: each project as the list writes it, its
 * `effective-tag-bindings` relationship with `data` (identifier objects), and the bindings themselves in
 * a top-level `included` (type `effective-tag-bindings`, with their `tb-` ids), as JSON:API includes them
 * and go-tfe decodes them into `Project.EffectiveTagBindings`.
 */
function listWithEffectiveTagBindings(
    projects: readonly ProjectListRow[],
    bindings: Map<string, TagBindingRow[]>,
    principal: Principal,
    links: PageLinks,
    meta: ProjectListMeta,
) {
    const included: object[] = [];
    const data = projects.map((project) => {
        const resource = renderProject({ ...project, organization: principal.organization }, principal, "full", project);
        const own = bindings.get(project.id) ?? [];
        for (const binding of own) included.push({ id: binding.id, ...renderEffectiveTagBinding(binding) });
        const relationship = resource.relationships["effective-tag-bindings"];
        return {
            ...resource,
            relationships: {
                ...resource.relationships,
                "effective-tag-bindings": { data: own.map((binding) => ({ type: "effective-tag-bindings", id: binding.id })), links: relationship.links },
            },
        };
    });
    return { data, included, links, meta };
}

type ListQuery = ReturnType<typeof listQuery>;

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
interface ListPage {
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
function listPage(db: Db, principal: Principal, query: ListQuery): ListPage {
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

/** Whether a `filter[permissions][...]` parameter asks for filtering (present and not `false`). */
function permissionFilter(query: Query, name: string): boolean {
    const value = singleParameter(query, name);
    return value !== undefined && value.toLowerCase() !== "false";
}

/** 422 at the name when another project of the organization has it, in any case. */
function nameProblems(db: Db, organization: string, name: string, exceptId?: string): Problem[] {
    // The column is COLLATE NOCASE: this finds the name in any case.
    const row = sql(db, "SELECT id FROM projects WHERE organization = ? AND name = ?").get(organization, name) as { id: string } | undefined;
    return row !== undefined && row.id !== exceptId ? [{ path: ["data", "attributes", "name"], detail: "Name has already been taken" }] : [];
}

/**
 * Tag rules across a list, as problems under `base` (the list's pointer): a key given twice (at its second
 * item), and more than ten tags on the project once the change is made (`countAfter`, at the list).
 */
function tagListProblems(tags: readonly Tag[], base: readonly (string | number)[], countAfter = tags.length): Problem[] {
    const problems: Problem[] = tagSetProblems(tags)
        .filter((problem) => problem.index !== undefined)
        .map((problem) => ({
            path: [...base, problem.index!, "attributes", "key"],
            detail: problem.message.charAt(0).toUpperCase() + problem.message.slice(1),
        }));
    if (countAfter > LIMITS.tagsPerProject) {
        problems.push({ path: [...base], detail: `A project may have at most ${LIMITS.tagsPerProject} tags; this change would give it ${countAfter}` });
    }
    return problems;
}

function tagsFrom(items: TagItems): Tag[] {
    return items.map((item) => ({ key: item.attributes.key, value: item.attributes.value ?? "" }));
}

/** Makes the project's bindings exactly `tags`: keeps (and updates) listed keys, removes the rest, adds new ones. */
function replaceTagBindings(db: Db, projectId: string, tags: readonly Tag[], timestamp: string): void {
    const keep = new Set(tags.map((tag) => tag.key));
    for (const binding of tagBindingsOf(db, projectId)) {
        if (!keep.has(binding.key)) sql(db, "DELETE FROM tag_bindings WHERE id = ?").run(binding.id);
    }
    for (const tag of tags) upsertTagBinding(db, projectId, tag, timestamp);
}

/** `given` when the body has it (`null` included), else the stored value. */
function keepIfAbsent<T>(given: T | undefined, stored: T): T {
    return given === undefined ? stored : given;
}

function plural(count: number, noun: string): string {
    return `${count} ${noun}${count === 1 ? "" : "s"}`;
}

/** The first ids of a list, for an error detail that stays short whatever the request sent. */
function abbreviated(ids: readonly string[]): string {
    const shown = ids.slice(0, 5).map((id) => (id.length > 40 ? `${id.slice(0, 40)}…` : id));
    return ids.length > shown.length ? `${shown.join(", ")} and ${ids.length - shown.length} more` : shown.join(", ");
}
