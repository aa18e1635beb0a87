/**
 * Rows of the database as the routes use them, and the small queries several routes (and the seed) share:
 * load a project, a workspace, a variable; count what a project holds; insert a project with its tags.
 */
import type { Tag } from "../sdk/model";
import { newId, now, sql, type Db } from "./db";

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

/** A row of `workspaces`. */
export interface WorkspaceRow {
    id: string;
    organization: string;
    project_id: string;
    name: string;
    description: string | null;
    auto_apply: number;
    execution_mode: "remote" | "agent";
    agent_pool_id: string | null;
    execution_mode_overwritten: number;
    agent_pool_overwritten: number;
    source: string;
    source_name: string | null;
    source_url: string | null;
    source_module_id: string | null;
    no_code_module_version_id: string | null;
    auto_destroy_activity_duration: string | null;
    auto_destroy_activity_inherited: number;
    infra_version: string;
    working_directory: string | null;
    locked: number;
    created_at: string;
    updated_at: string;
}

/** A row of `variables`. */
export interface VariableRow {
    id: string;
    workspace_id: string;
    key: string;
    value: string;
    description: string | null;
    category: "infra" | "env";
    hcl: number;
    sensitive: number;
    version_id: string;
    created_at: string;
    updated_at: string;
}

/** The project with this id, of any organization (callers check visibility). */
export function findProject(db: Db, id: string): ProjectRow | undefined {
    return sql(db, "SELECT * FROM projects WHERE id = ?").get(id) as ProjectRow | undefined;
}

/** Projects of an organization in creation order. */
export function projectsOf(db: Db, organization: string): ProjectRow[] {
    return sql(db, "SELECT * FROM projects WHERE organization = ? ORDER BY rowid").all(organization) as ProjectRow[];
}

/** Workspace and team counts of projects, by project id. */
export function projectCounts(db: Db, organization: string): Map<string, { workspaceCount: number; teamCount: number }> {
    const rows = sql(db, `SELECT p.id,
                              (SELECT COUNT(*) FROM workspaces w WHERE w.project_id = p.id) AS workspace_count,
                              (SELECT COUNT(*) FROM team_project_access a WHERE a.project_id = p.id) AS team_count
                          FROM projects p WHERE p.organization = ?`).all(organization) as {
        id: string;
        workspace_count: number;
        team_count: number;
    }[];
    return new Map(rows.map((row) => [row.id, { workspaceCount: row.workspace_count, teamCount: row.team_count }]));
}

/** Workspace and team counts of one project. */
export function projectCountsOf(db: Db, projectId: string): { workspaceCount: number; teamCount: number } {
    const row = sql(db, `SELECT (SELECT COUNT(*) FROM workspaces WHERE project_id = ?) AS workspace_count,
                                (SELECT COUNT(*) FROM team_project_access WHERE project_id = ?) AS team_count`).get(
        projectId,
        projectId,
    ) as { workspace_count: number; team_count: number };
    return { workspaceCount: row.workspace_count, teamCount: row.team_count };
}

/** A project's tag bindings in the order they were first bound. */
export function tagBindingsOf(db: Db, projectId: string): TagBindingRow[] {
    return sql(db, "SELECT * FROM tag_bindings WHERE project_id = ? ORDER BY created_at, rowid").all(projectId) as TagBindingRow[];
}

/** The workspace with this id, of any organization (callers check visibility). */
export function findWorkspace(db: Db, id: string): WorkspaceRow | undefined {
    return sql(db, "SELECT * FROM workspaces WHERE id = ?").get(id) as WorkspaceRow | undefined;
}

/** A workspace of an organization by name (case-insensitive). */
export function findWorkspaceByName(db: Db, organization: string, name: string): WorkspaceRow | undefined {
    return sql(db, "SELECT * FROM workspaces WHERE organization = ? AND name = ?").get(organization, name) as WorkspaceRow | undefined;
}

/** The variable with this id (callers check visibility through its workspace). */
export function findVariable(db: Db, id: string): VariableRow | undefined {
    return sql(db, "SELECT * FROM variables WHERE id = ?").get(id) as VariableRow | undefined;
}

/** Variables of a workspace in creation order. */
export function variablesOf(db: Db, workspaceId: string): VariableRow[] {
    return sql(db, "SELECT * FROM variables WHERE workspace_id = ? ORDER BY rowid").all(workspaceId) as VariableRow[];
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
        if (existing.value !== tag.value) {
            sql(db, "UPDATE tag_bindings SET value = ?, updated_at = ? WHERE id = ?").run(tag.value, timestamp, existing.id);
        }
        return { ...existing, value: tag.value };
    }
    const row: TagBindingRow = { id: newId("tb-"), project_id: projectId, key: tag.key, value: tag.value, created_at: timestamp, updated_at: timestamp };
    sql(db, `INSERT INTO tag_bindings (id, project_id, key, value, created_at, updated_at)
             VALUES (@id, @project_id, @key, @value, @created_at, @updated_at)`).run(row);
    return row;
}
