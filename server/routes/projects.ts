/**
 * Projects, their tag bindings, and moving workspaces between them (the API's Projects endpoints, with the
 * local service's own decisions). Each handler: authorize, parse with the `sdk/model` schema, one
 * transaction, render; the rules that need the database are the functions below the routes. The list's
 * statements are built by `projectListQuery.ts`, moving workspaces is `workspaceRules.ts`'s (shared with a
 * workspace update), and every other statement is in `records/projects.ts`.
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
import { principalOf, type AppContext } from "../context";
import { moveDestination, requireOrganization, updatableProject, visibleProject, type Params } from "../access";
import { canCreateProjects, projectPermissions, type Principal } from "../auth";
import { now, readTransaction, writeTransaction, type Db } from "../db";
import { abbreviated as abbreviatedText, badParameter, conflict, ERROR_CODES, forbidden, httpError, nameTaken, parseBody, plural, urlIdProblems, validationFailed, type Problem } from "../errors";
import { pageOf, pageRequest, singleParameter, type Query } from "../pagination";
import { listPage, type ProjectListQuery } from "../projectListQuery";
import type { ProjectListRow } from "../projectListRows";
import {
    deleteProjectRow,
    deleteTagBinding,
    findProject,
    insertProject,
    projectCountsOf,
    projectIdByName,
    tagBindingsOf,
    tagBindingsOfProjects,
    touchProject,
    updateProjectAttributes,
    upsertTagBinding,
    type ProjectRow,
    type TagBindingRow,
} from "../records/projects";
import { inheritProjectDuration } from "../records/workspaces";
import {
    projectListJson,
    renderEffectiveTagBinding,
    renderProject,
    renderTagBindingForList,
    renderTagBindingWritten,
    type PageLinks,
    type ProjectListMeta,
} from "../render";
import { taggedParameter } from "../tagFilters";
import { moveWorkspaces } from "../workspaceRules";

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
                throw httpError(404, ERROR_CODES.notFound, "Organization not found or you are not authorized to create projects in it");
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

    // The same set at the paths of the hosted service's published description (go-tfe v2 calls them): GET
    // lists it, POST adds or updates and never removes, PATCH replaces it whole; both writes answer 204.
    api.get<Params>("/projects/:id/relationships/tag-bindings", listTagBindings(renderTagBindingForList));
    api.post<Params>("/projects/:id/relationships/tag-bindings", async (request, reply) => {
        const principal = principalOf(request);
        writeTransaction(db, () => {
            const project = updatableProject(db, principal, request.params.id);
            addTagBindings(db, project, tagsFrom(parseBody(updateTagBindingsRequestSchema(), request.body, LABELS).data));
        });
        return reply.code(204).send();
    });
    api.patch<Params>("/projects/:id/relationships/tag-bindings", async (request, reply) => {
        const principal = principalOf(request);
        writeTransaction(db, () => {
            const project = updatableProject(db, principal, request.params.id);
            replaceAllTagBindings(db, project, tagsFrom(parseBody(updateTagBindingsRequestSchema(), request.body, LABELS).data));
        });
        return reply.code(204).send();
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
    updateProjectAttributes(
        db,
        current.id,
        {
            name: attributes.name ?? current.name,
            description: keepIfAbsent(attributes.description, current.description),
            autoDestroyActivityDuration: duration,
        },
        timestamp,
    );
    // Workspaces follow the project's value unless they set their own.
    inheritProjectDuration(db, current.id, duration, timestamp);
    if (tags) replaceTagBindings(db, current.id, tags, timestamp);
    return findProject(db, current.id)!;
}

/** Deletes a project: 403 without the permission, 409 for the default project or one that has workspaces. */
function deleteProject(db: Db, principal: Principal, project: ProjectRow): void {
    if (!projectPermissions(principal, project).canDestroy) throw forbidden("You are not authorized to delete this project");
    if (project.is_default === 1) throw conflict(ERROR_CODES.defaultProjectUndeletable, "The default project of an organization cannot be deleted", { "project-id": project.id });
    const workspaceCount = project.workspace_count;
    if (workspaceCount > 0) {
        throw conflict(
            ERROR_CODES.projectHasWorkspaces,
            `Project '${project.name}' still contains ${plural(workspaceCount, "workspace")}; move or delete them before deleting the project`,
            { "workspace-count": workspaceCount },
        );
    }
    deleteProjectRow(db, project.id);
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
    touchProject(db, project.id, timestamp);
    return rows;
}

/** Makes the project's bindings exactly `tags` (an empty list clears them); 422 for a key given twice or more than ten. */
function replaceAllTagBindings(db: Db, project: ProjectRow, tags: readonly Tag[]): void {
    const problems = tagListProblems(tags, ["data"]);
    if (problems.length > 0) throw validationFailed(problems);
    const timestamp = now();
    replaceTagBindings(db, project.id, tags, timestamp);
    touchProject(db, project.id, timestamp);
}

// ---------------------------------------------------------------------------------------------------------
// Helpers

/** The list's query: page, sort, name filter or search, permission filters, include; 400 for a bad one. */
function listQuery(query: Query): ProjectListQuery & { includeEffectiveTagBindings: boolean } {
    const sort = singleParameter(query, "sort");
    if (sort !== undefined && !(PROJECT_LIST_SORTS as readonly string[]).includes(sort)) {
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

/** The orders of the list: by name, either way. */
export const PROJECT_LIST_SORTS = ["name", "-name"] as const;

/** The `include` values that ask for the effective tag bindings (go-tfe sends the first). */
export const PROJECT_LIST_INCLUDES = ["effective_tag_bindings", "effective-tag-bindings"];

/** Whether `include` asks for each project's effective tag bindings; any other value is a 400. */
function includesEffectiveTagBindings(query: Query): boolean {
    const include = singleParameter(query, "include");
    if (include === undefined) return false;
    for (const value of include.split(",").map((part) => part.trim())) {
        if (!PROJECT_LIST_INCLUDES.includes(value)) {
            // go-tfe recognises this error by the words "include parameter" in the detail.
            throw badParameter("include", `Invalid include parameter: include must be 'effective_tag_bindings', got '${abbreviatedText(value)}'`);
        }
    }
    return true;
}

/** The effective tag bindings of a page's projects (a project's are its own), by project, in their order. */
function effectiveTagBindingsOf(db: Db, projects: readonly ProjectListRow[]): Map<string, TagBindingRow[]> {
    const byProject = new Map<string, TagBindingRow[]>(projects.map((project) => [project.id, []]));
    for (const row of tagBindingsOfProjects(db, projects.map((project) => project.id))) byProject.get(row.project_id)?.push(row);
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

/** Whether a `filter[permissions][...]` parameter asks for filtering (present and not `false`). */
function permissionFilter(query: Query, name: string): boolean {
    const value = singleParameter(query, name);
    return value !== undefined && value.toLowerCase() !== "false";
}

/** 422 at the name when another project of the organization has it, in any case. */
function nameProblems(db: Db, organization: string, name: string, exceptId?: string): Problem[] {
    const id = projectIdByName(db, organization, name);
    return id !== undefined && id !== exceptId ? [nameTaken(id)] : [];
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
        if (!keep.has(binding.key)) deleteTagBinding(db, binding.id);
    }
    for (const tag of tags) upsertTagBinding(db, projectId, tag, timestamp);
}

/** `given` when the body has it (`null` included), else the stored value. */
function keepIfAbsent<T>(given: T | undefined, stored: T): T {
    return given === undefined ? stored : given;
}
