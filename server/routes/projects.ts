/**
 * Projects, their tag bindings, and moving workspaces between them (`api.md` "Projects" with the decisions
 * of `local-service.md`). Each handler: authorize, parse with the `sdk/model` schema, one transaction, render.
 */
import type { FastifyInstance, FastifyRequest } from "fastify";
import {
    LIMITS,
    createProjectRequestSchema,
    moveWorkspacesRequestSchema,
    tagSetProblems,
    updateProjectRequestSchema,
    updateTagBindingsRequestSchema,
    type Tag,
} from "../../sdk/model";
import { principalOf, type AppContext } from "../app";
import { canCreateProjects, projectPermissions, type Principal } from "../auth";
import { newId, now, sql, type Db } from "../db";
import { badParameter, conflict, forbidden, httpError, parseBody, validationFailed, type Problem } from "../errors";
import { pageRequest, paginate, singleParameter, type Query } from "../pagination";
import {
    findProject,
    findWorkspace,
    projectCounts,
    projectCountsOf,
    projectsOf,
    tagBindingsOf,
    type ProjectRow,
    type TagBindingRow,
} from "../records";
import { renderProject, renderTagBindingForList, renderTagBindingWritten } from "../render";

/** Field labels of project bodies, for details such as "Tag key must be at most 128 characters". */
const LABELS = { key: "Tag key", value: "Tag value", "tag-bindings": "Tag bindings" };

type Params = { Params: Record<string, string> };

/** The caller's organization, by name; another organization (or none of that name) is a 404. */
export function requireOrganization(principal: Principal, name: string, detail?: string): void {
    if (name !== principal.organization) {
        throw httpError(404, detail ?? "Organization not found or you are not authorized to access it");
    }
}

/** A project the caller can see; anything else is a 404. */
export function visibleProject(db: Db, principal: Principal, id: string): ProjectRow {
    const project = findProject(db, id);
    if (!project || !projectPermissions(principal, project).canRead) {
        throw httpError(404, "Project not found or you are not authorized to access it");
    }
    return project;
}

function capitalize(text: string): string {
    return text.charAt(0).toUpperCase() + text.slice(1);
}

/** Tag rules across a list (more than ten, a key twice), as problems under `base` (the list's pointer). */
function tagListProblems(tags: readonly Tag[], base: readonly (string | number)[]): Problem[] {
    return tagSetProblems(tags).map((problem) => ({
        path: problem.index === undefined ? base : [...base, problem.index, "attributes", "key"],
        detail: capitalize(problem.message),
    }));
}

function tagsFrom(items: readonly { attributes: { key: string; value?: string | undefined } }[]): Tag[] {
    return items.map((item) => ({ key: item.attributes.key, value: item.attributes.value ?? "" }));
}

function nameTaken(db: Db, organization: string, name: string, exceptId?: string): boolean {
    const row = sql(db, "SELECT id FROM projects WHERE organization = ? AND name = ?").get(organization, name) as
        | { id: string }
        | undefined;
    return row !== undefined && row.id !== exceptId;
}

/** Inserts or updates one binding by key; returns the row as stored. */
function upsertTagBinding(db: Db, projectId: string, tag: Tag, timestamp: string): TagBindingRow {
    const existing = sql(db, "SELECT * FROM tag_bindings WHERE project_id = ? AND key = ?").get(projectId, tag.key) as
        | TagBindingRow
        | undefined;
    if (existing) {
        if (existing.value !== tag.value) {
            sql(db, "UPDATE tag_bindings SET value = ?, updated_at = ? WHERE id = ?").run(tag.value, timestamp, existing.id);
        }
        return { ...existing, value: tag.value };
    }
    const row: TagBindingRow = {
        id: newId("tb-"),
        project_id: projectId,
        key: tag.key,
        value: tag.value,
        created_at: timestamp,
        updated_at: timestamp,
    };
    sql(db, "INSERT INTO tag_bindings (id, project_id, key, value, created_at, updated_at) VALUES (?, ?, ?, ?, ?, ?)").run(
        row.id,
        row.project_id,
        row.key,
        row.value,
        row.created_at,
        row.updated_at,
    );
    return row;
}

/** Whether a `filter[permissions][...]` parameter asks for filtering (present and not `false`). */
function filterRequested(query: Query, name: string): boolean {
    const value = singleParameter(query, name);
    return value !== undefined && value.toLowerCase() !== "false";
}

/** Registers the project, tag-binding and move-workspaces routes under `/api/v2`. */
export function registerProjectRoutes(api: FastifyInstance, { db }: AppContext): void {
    // Create.
    api.post<Params>("/organizations/:organization/projects", async (request, reply) => {
        const principal = principalOf(request);
        requireOrganization(principal, request.params.organization!);
        if (!canCreateProjects(principal)) {
            throw httpError(404, "Organization not found or you are not authorized to create projects in it");
        }
        const body = parseBody(createProjectRequestSchema(), request.body, LABELS);
        const { attributes, relationships } = body.data;
        const tags = tagsFrom(relationships?.["tag-bindings"]?.data ?? []);
        const problems = tagListProblems(tags, ["data", "relationships", "tag-bindings", "data"]);
        if (nameTaken(db, principal.organization, attributes.name)) {
            problems.unshift({ path: ["data", "attributes", "name"], detail: "Name has already been taken" });
        }
        if (problems.length > 0) throw validationFailed(problems);

        const project = db
            .transaction(() => {
                const timestamp = now();
                const id = newId("prj-");
                sql(db, `INSERT INTO projects (id, organization, name, description, auto_destroy_activity_duration, created_at, updated_at)
                         VALUES (?, ?, ?, ?, ?, ?, ?)`).run(
                    id,
                    principal.organization,
                    attributes.name,
                    attributes.description ?? null,
                    attributes["auto-destroy-activity-duration"] ?? null,
                    timestamp,
                    timestamp,
                );
                for (const tag of tags) upsertTagBinding(db, id, tag, timestamp);
                return findProject(db, id)!;
            })
            .immediate();
        return reply.code(201).send({ data: renderProject(project, principal, "create") });
    });

    // List.
    api.get<Params>("/organizations/:organization/projects", async (request) => {
        const principal = principalOf(request);
        requireOrganization(principal, request.params.organization!);
        const query = request.query as Query;
        const page = pageRequest(query);
        const sort = singleParameter(query, "sort");
        if (sort !== undefined && sort !== "name" && sort !== "-name") {
            throw badParameter("sort", `sort must be 'name' or '-name', got '${sort}'`);
        }
        const names = singleParameter(query, "filter[names]");
        const search = singleParameter(query, "q");
        const onlyCreateWorkspace = filterRequested(query, "filter[permissions][create-workspace]");
        const onlyUpdate = filterRequested(query, "filter[permissions][update]");

        const visible = projectsOf(db, principal.organization).filter(
            (project) => projectPermissions(principal, project).canRead,
        );
        let matching = visible;
        if (names !== undefined) {
            // `q` is ignored when `filter[names]` is given.
            const wanted = new Set(names.split(",").map((name) => name.trim().toLowerCase()).filter((name) => name !== ""));
            matching = matching.filter((project) => wanted.has(project.name.toLowerCase()));
        } else if (search !== undefined && search !== "") {
            const needle = search.toLowerCase();
            matching = matching.filter((project) => project.name.toLowerCase().includes(needle));
        }
        if (onlyCreateWorkspace) matching = matching.filter((project) => projectPermissions(principal, project).canCreateWorkspace);
        if (onlyUpdate) matching = matching.filter((project) => projectPermissions(principal, project).canUpdate);
        if (sort !== undefined) {
            const direction = sort === "-name" ? -1 : 1;
            matching = [...matching].sort((a, b) => {
                const byName = a.name.toLowerCase() < b.name.toLowerCase() ? -1 : a.name.toLowerCase() > b.name.toLowerCase() ? 1 : 0;
                return direction * (byName || (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
            });
        }

        const result = paginate(request, matching, page);
        const counts = projectCounts(db, principal.organization);
        return {
            data: result.items.map((project) => renderProject(project, principal, "full", counts.get(project.id))),
            links: result.links,
            meta: {
                "status-counts": { total: visible.length, matching: matching.length },
                pagination: result.pagination,
            },
        };
    });

    // Show.
    api.get<Params>("/projects/:id", async (request) => {
        const principal = principalOf(request);
        const project = visibleProject(db, principal, request.params.id!);
        return { data: renderProject(project, principal, "show", projectCountsOf(db, project.id)) };
    });

    // Update: attributes left out stay; `tag-bindings`, when present, replace the whole set.
    api.patch<Params>("/projects/:id", async (request) => {
        const principal = principalOf(request);
        const current = updatableProject(db, principal, request.params.id!);
        const body = parseBody(updateProjectRequestSchema(), request.body, LABELS);
        const { attributes = {}, relationships, id } = body.data;
        const problems: Problem[] = [];
        if (id !== undefined && id !== current.id) {
            problems.push({ path: ["data", "id"], detail: `Id must be the id of the project in the URL (${current.id})` });
        }
        if (attributes.name !== undefined && nameTaken(db, current.organization, attributes.name, current.id)) {
            problems.push({ path: ["data", "attributes", "name"], detail: "Name has already been taken" });
        }
        const replacement = relationships?.["tag-bindings"] ? tagsFrom(relationships["tag-bindings"].data) : undefined;
        if (replacement) problems.push(...tagListProblems(replacement, ["data", "relationships", "tag-bindings", "data"]));
        if (problems.length > 0) throw validationFailed(problems);

        const project = db
            .transaction(() => {
                const timestamp = now();
                const next = {
                    name: attributes.name ?? current.name,
                    description: attributes.description === undefined ? current.description : attributes.description,
                    duration:
                        attributes["auto-destroy-activity-duration"] === undefined
                            ? current.auto_destroy_activity_duration
                            : attributes["auto-destroy-activity-duration"],
                };
                sql(db, `UPDATE projects SET name = ?, description = ?, auto_destroy_activity_duration = ?, updated_at = ? WHERE id = ?`).run(
                    next.name,
                    next.description,
                    next.duration,
                    timestamp,
                    current.id,
                );
                if (next.duration !== current.auto_destroy_activity_duration) {
                    // Workspaces follow the project's value unless they set their own.
                    sql(db, `UPDATE workspaces SET auto_destroy_activity_duration = ?, updated_at = ?
                             WHERE project_id = ? AND auto_destroy_activity_inherited = 1`).run(next.duration, timestamp, current.id);
                }
                if (replacement) replaceTagBindings(db, current.id, replacement, timestamp);
                return findProject(db, current.id)!;
            })
            .immediate();
        return { data: renderProject(project, principal, "full", projectCountsOf(db, project.id)) };
    });

    // Delete: never a project with workspaces, never the default project.
    api.delete<Params>("/projects/:id", async (request, reply) => {
        const principal = principalOf(request);
        db.transaction(() => {
            const project = visibleProject(db, principal, request.params.id!);
            if (!projectPermissions(principal, project).canDestroy) {
                throw forbidden("You are not authorized to delete this project");
            }
            if (project.is_default === 1) throw conflict("The default project of an organization cannot be deleted");
            const { workspaceCount } = projectCountsOf(db, project.id);
            if (workspaceCount > 0) {
                throw conflict(
                    `Project '${project.name}' still contains ${workspaceCount} workspace${workspaceCount === 1 ? "" : "s"}; move or delete them before deleting the project`,
                );
            }
            sql(db, "DELETE FROM projects WHERE id = ?").run(project.id);
        }).immediate();
        return reply.code(204).send();
    });

    // Tag bindings: the list, the effective list (the same for projects), and the upsert-only update.
    const listTagBindings = async (request: FastifyRequest<Params>) => {
        const principal = principalOf(request);
        const project = visibleProject(db, principal, request.params.id!);
        return { data: tagBindingsOf(db, project.id).map(renderTagBindingForList) };
    };
    api.get<Params>("/projects/:id/tag-bindings", listTagBindings);
    api.get<Params>("/projects/:id/effective-tag-bindings", listTagBindings);

    api.patch<Params>("/projects/:id/tag-bindings", async (request) => {
        const principal = principalOf(request);
        const project = updatableProject(db, principal, request.params.id!);
        const body = parseBody(updateTagBindingsRequestSchema(), request.body, LABELS);
        const tags = tagsFrom(body.data);
        // Duplicate keys within the request; the count rule applies to the set after the change.
        const problems = tagSetProblems(tags)
            .filter((problem) => problem.index !== undefined)
            .map((problem) => ({ path: ["data", problem.index!, "attributes", "key"], detail: capitalize(problem.message) }));
        const existingKeys = new Set(tagBindingsOf(db, project.id).map((binding) => binding.key));
        const after = new Set([...existingKeys, ...tags.map((tag) => tag.key)]).size;
        if (after > LIMITS.tagsPerProject) {
            problems.push({
                path: ["data"],
                detail: `A project may have at most ${LIMITS.tagsPerProject} tags; this change would give it ${after}`,
            });
        }
        if (problems.length > 0) throw validationFailed(problems);
        const written = db
            .transaction(() => {
                const timestamp = now();
                const rows = tags.map((tag) => upsertTagBinding(db, project.id, tag, timestamp));
                sql(db, "UPDATE projects SET updated_at = ? WHERE id = ?").run(timestamp, project.id);
                return rows;
            })
            .immediate();
        return { data: written.map(renderTagBindingWritten) };
    });

    // Move workspaces into this project: all or nothing.
    api.post<Params>("/projects/:id/relationships/workspaces", async (request, reply) => {
        const principal = principalOf(request);
        const destination = findProject(db, request.params.id!);
        if (!destination || !projectPermissions(principal, destination).canMoveWorkspaces) {
            throw httpError(404, "Project not found or you are not authorized to move workspaces into it");
        }
        const body = parseBody(moveWorkspacesRequestSchema(), request.body);
        const ids = [...new Set(body.data.map((item) => item.id))];
        db.transaction(() => {
            const refused = ids.filter((id) => {
                const workspace = findWorkspace(db, id);
                if (!workspace) return true;
                const source = { id: workspace.project_id, organization: workspace.organization };
                return !projectPermissions(principal, source).canMoveWorkspaces;
            });
            if (refused.length > 0) {
                throw forbidden(
                    `Workspace${refused.length === 1 ? "" : "s"} ${refused.join(", ")} not found or you are not authorized to move ${refused.length === 1 ? "it" : "them"} out of ${refused.length === 1 ? "its project" : "their projects"}; nothing was moved`,
                );
            }
            const timestamp = now();
            for (const id of ids) {
                sql(db, "UPDATE workspaces SET project_id = ?, updated_at = ? WHERE id = ?").run(destination.id, timestamp, id);
            }
        }).immediate();
        return reply.code(204).send();
    });
}

/** A project the caller may update (admin); visible but not permitted is a 404 as for any unseen project. */
function updatableProject(db: Db, principal: Principal, id: string): ProjectRow {
    const project = visibleProject(db, principal, id);
    if (!projectPermissions(principal, project).canUpdate) {
        throw httpError(404, "Project not found or you are not authorized to update it");
    }
    return project;
}

/** Makes the project's bindings exactly `tags`: keeps (and updates) listed keys, removes the rest, adds new ones. */
function replaceTagBindings(db: Db, projectId: string, tags: readonly Tag[], timestamp: string): void {
    const keep = new Set(tags.map((tag) => tag.key));
    for (const binding of tagBindingsOf(db, projectId)) {
        if (!keep.has(binding.key)) sql(db, "DELETE FROM tag_bindings WHERE id = ?").run(binding.id);
    }
    for (const tag of tags) upsertTagBinding(db, projectId, tag, timestamp);
}
