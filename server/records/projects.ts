/**
 * Projects and their tag bindings in the database: the rows, and every statement that reads or writes them
 * outside the project list's own (`projectListQuery.ts`). A change of the `projects` or `tag_bindings`
 * tables is made here and there.
 */
import type { Tag } from "../../sdk/model";
import { newId, now, sql, type Db } from "../db";

/** A row of `projects`. */
export interface ProjectRow {
    id: string;
    organization: string;
    name: string;
    description: string | null;
    auto_destroy_activity_duration: string | null;
    is_default: number;
    created_at: string;
    updated_at: string;
    /** How many workspaces it holds, kept by triggers (migration 5). */
    workspace_count: number;
    /** How many teams have access to it (its `team_project_access` rows), kept by triggers (migration 5). */
    team_count: number;
}

/** A row of `tag_bindings`. */
export interface TagBindingRow {
    id: string;
    project_id: string;
    key: string;
    value: string;
    created_at: string;
    updated_at: string;
}

/** The project with this id, of any organization (callers check visibility). */
export function findProject(db: Db, id: string): ProjectRow | undefined {
    return sql(db, "SELECT * FROM projects WHERE id = ?").get(id) as ProjectRow | undefined;
}

/** Workspace and team counts of a project, as its row keeps them. */
export function projectCountsOf(project: Pick<ProjectRow, "workspace_count" | "team_count">): { workspaceCount: number; teamCount: number } {
    return { workspaceCount: project.workspace_count, teamCount: project.team_count };
}

/** A project's tag bindings in the order they were first bound. */
export function tagBindingsOf(db: Db, projectId: string): TagBindingRow[] {
    return sql(db, "SELECT * FROM tag_bindings WHERE project_id = ? ORDER BY created_at, rowid").all(projectId) as TagBindingRow[];
}

/** What a new project is made of; a `prj-` id is generated unless one is given (seeds keep theirs). */
export interface NewProject {
    id?: string;
    organization: string;
    name: string;
    description?: string | null;
    autoDestroyActivityDuration?: string | null;
    isDefault?: boolean;
}

/** Inserts a project and its tags (callers have checked the rules); answers the row as stored. */
export function insertProject(db: Db, project: NewProject, tags: readonly Tag[] = []): ProjectRow {
    const timestamp = now();
    const row: ProjectRow = {
        id: project.id ?? newId("prj-"),
        organization: project.organization,
        name: project.name,
        description: project.description ?? null,
        auto_destroy_activity_duration: project.autoDestroyActivityDuration ?? null,
        is_default: project.isDefault ? 1 : 0,
        created_at: timestamp,
        updated_at: timestamp,
        // A new project holds nothing yet; its tag bindings are not counted.
        workspace_count: 0,
        team_count: 0,
    };
    sql(db, `INSERT INTO projects (id, organization, name, description, auto_destroy_activity_duration, is_default, created_at, updated_at)
             VALUES (@id, @organization, @name, @description, @auto_destroy_activity_duration, @is_default, @created_at, @updated_at)`).run(row);
    for (const tag of tags) upsertTagBinding(db, row.id, tag, timestamp);
    return row;
}

/** Inserts or updates one binding of a project by key; answers the row as stored. */
export function upsertTagBinding(db: Db, projectId: string, tag: Tag, timestamp: string = now()): TagBindingRow {
    const existing = sql(db, "SELECT * FROM tag_bindings WHERE project_id = ? AND key = ?").get(projectId, tag.key) as TagBindingRow | undefined;
    if (existing) {
        // An unchanged value is not written again: the binding keeps the time of its last change. That time is
        // shown by no answer and read by no statement, so the comparison is the statement's (`value <> ?`).
        sql(db, "UPDATE tag_bindings SET value = ?, updated_at = ? WHERE id = ? AND value <> ?").run(tag.value, timestamp, existing.id, tag.value);
        return { ...existing, value: tag.value };
    }
    const row: TagBindingRow = { id: newId("tb-"), project_id: projectId, key: tag.key, value: tag.value, created_at: timestamp, updated_at: timestamp };
    sql(db, `INSERT INTO tag_bindings (id, project_id, key, value, created_at, updated_at)
             VALUES (@id, @project_id, @key, @value, @created_at, @updated_at)`).run(row);
    return row;
}

/** The id of the organization's project of this name, in any case (the column is COLLATE NOCASE). */
export function projectIdByName(db: Db, organization: string, name: string): string | undefined {
    return (sql(db, "SELECT id FROM projects WHERE organization = ? AND name = ?").get(organization, name) as { id: string } | undefined)?.id;
}

/** The id of the organization's `Default Project` (made with the organization, never deleted). */
export function defaultProjectId(db: Db, organization: string): string | undefined {
    const row = sql(db, "SELECT id FROM projects WHERE organization = ? AND is_default = 1").get(organization) as { id: string } | undefined;
    return row?.id;
}

/** Writes a project's attributes (every one: callers pass the stored value of those not changed). */
export function updateProjectAttributes(
    db: Db,
    id: string,
    attributes: { name: string; description: string | null; autoDestroyActivityDuration: string | null },
    timestamp: string,
): void {
    sql(db, "UPDATE projects SET name = ?, description = ?, auto_destroy_activity_duration = ?, updated_at = ? WHERE id = ?").run(
        attributes.name,
        attributes.description,
        attributes.autoDestroyActivityDuration,
        timestamp,
        id,
    );
}

/** Marks a project changed (its tag bindings were written). */
// Stryker disable next-line BlockStatement: no answer shows a project's updated_at and no statement reads it, so nothing can tell whether it moved
export function touchProject(db: Db, id: string, timestamp: string): void {
    sql(db, "UPDATE projects SET updated_at = ? WHERE id = ?").run(timestamp, id);
}

/** Deletes a project; its tag bindings go with it (foreign keys), its workspaces block it (callers check first). */
export function deleteProjectRow(db: Db, id: string): void {
    sql(db, "DELETE FROM projects WHERE id = ?").run(id);
}

/** Deletes one tag binding. */
export function deleteTagBinding(db: Db, id: string): void {
    sql(db, "DELETE FROM tag_bindings WHERE id = ?").run(id);
}

/** The tag bindings of several projects in one statement, by project and then in the order they were first bound. */
export function tagBindingsOfProjects(db: Db, projectIds: readonly string[]): TagBindingRow[] {
    return sql(db, `SELECT * FROM tag_bindings WHERE project_id IN (SELECT value FROM json_each(?))
                          ORDER BY project_id, created_at, rowid`).all(JSON.stringify(projectIds)) as TagBindingRow[];
}

/** The bindings each tag filter of `@tagged` finds: with its key, and its value unless any value will do. */
const TAG_FILTER_MATCHES = `json_each(@tagged) f CROSS JOIN tag_bindings t
        ON t.key = f.value ->> 0 AND ((f.value ->> 2) = 1 OR t.value = f.value ->> 1)`;

/**
 * The ids of the projects that every tag filter of `@tagged` (the JSON array of `[key, value, anyValue]`
 * triples that `tagFilters.ts` `taggedParameter` makes) keeps: one statement shape whatever the number of
 * filters. Each filter finds its bindings on the `tag_bindings_key_value` index (migration 6); a project is
 * kept when as many filters found one of its bindings as there are filters. A fragment of the project and
 * workspace lists.
 */
export const TAGGED_PROJECTS = `SELECT t.project_id FROM ${TAG_FILTER_MATCHES}
        GROUP BY t.project_id HAVING COUNT(DISTINCT f.key) = json_array_length(@tagged)`;

/** The ids of the projects that any tag filter of `@tagged` keeps (the workspace list's `filter[tag-union]`). */
export const ANY_TAGGED_PROJECTS = `SELECT DISTINCT t.project_id FROM ${TAG_FILTER_MATCHES}`;
