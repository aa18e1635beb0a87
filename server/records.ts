/**
 * Rows of the database as the routes use them, and the small queries several routes (and the seed) share:
 * load a project, a workspace, a variable; count what a project holds; insert a project with its tags, a
 * workspace, a variable by key; and the private registry and no-code rows (modules, their option sets and
 * versions, upgrade runs).
 */
import type { Tag } from "../sdk/model";
import { newId, now, sql, type Db } from "./db";
import { secretsOf } from "./secrets";

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
    /** As stored: sealed when `sensitive` (see {@link withPlainValue}), plain otherwise. */
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

/** Workspace and team counts of a project, as its row keeps them. */
export function projectCountsOf(project: Pick<ProjectRow, "workspace_count" | "team_count">): { workspaceCount: number; teamCount: number } {
    return { workspaceCount: project.workspace_count, teamCount: project.team_count };
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

/** What a new workspace is made of (callers have checked the rules); a `ws-` id is generated unless one is given. */
export interface NewWorkspace {
    id?: string;
    organization: string;
    projectId: string;
    name: string;
    description?: string | null;
    autoApply?: boolean;
    executionMode?: "remote" | "agent";
    agentPoolId?: string | null;
    executionModeOverwritten?: boolean;
    agentPoolOverwritten?: boolean;
    /** `tfe-api` (made through the API or a seed) unless told: `tfe-module` for a no-code workspace. */
    source?: "tfe-api" | "tfe-module";
    sourceName?: string | null;
    sourceUrl?: string | null;
    sourceModuleId?: string | null;
    noCodeModuleVersionId?: string | null;
}

/** Inserts a workspace; its auto-destroy duration is inherited from its project. Answers the row as stored. */
export function insertWorkspace(db: Db, workspace: NewWorkspace): WorkspaceRow {
    const timestamp = now();
    const duration = (sql(db, "SELECT auto_destroy_activity_duration AS d FROM projects WHERE id = ?").get(workspace.projectId) as
        | { d: string | null }
        | undefined)?.d ?? null;
    const id = workspace.id ?? newId("ws-");
    sql(db, `INSERT INTO workspaces (id, organization, project_id, name, description, auto_apply, execution_mode, agent_pool_id,
                 execution_mode_overwritten, agent_pool_overwritten, source, source_name, source_url, source_module_id,
                 no_code_module_version_id, auto_destroy_activity_duration, created_at, updated_at)
             VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`).run(
        id,
        workspace.organization,
        workspace.projectId,
        workspace.name,
        workspace.description ?? null,
        workspace.autoApply ? 1 : 0,
        workspace.executionMode ?? "remote",
        workspace.agentPoolId ?? null,
        workspace.executionModeOverwritten ? 1 : 0,
        workspace.agentPoolOverwritten ? 1 : 0,
        workspace.source ?? "tfe-api",
        workspace.sourceName ?? null,
        workspace.sourceUrl ?? null,
        workspace.sourceModuleId ?? null,
        workspace.noCodeModuleVersionId ?? null,
        duration,
        timestamp,
        timestamp,
    );
    return findWorkspace(db, id)!;
}

/** What a variable is made of when a no-code create or upgrade writes it. */
export interface VariableValues {
    key: string;
    value: string;
    description: string | null;
    category: "infra" | "env";
    hcl: boolean;
    sensitive: boolean;
}

/**
 * The text stored for a variable's value: sealed when the variable is sensitive (AES-256-GCM, server/secrets.ts),
 * plain otherwise, so that plain values stay listable and a copy of the file reveals no sensitive one.
 */
export function storedVariableValue(db: Db, value: string, sensitive: boolean | number): string {
    return sensitive === true || sensitive === 1 ? secretsOf(db).seal(value) : value;
}

/**
 * The variable with its value in clear (a sensitive one's opened). Only what compares or keeps a sensitive
 * value needs it (an update that keeps it, an upgrade's vars); answers never show one.
 * @throws SealedValueError (an internal error) when the stored value does not open.
 */
export function withPlainValue(db: Db, variable: VariableRow): VariableRow {
    return variable.sensitive === 1 ? { ...variable, value: secretsOf(db).open(variable.value) } : variable;
}

/**
 * Writes a variable of a workspace by (key, category): updates the one that has them, or inserts one.
 * `values.value` is in clear; a sensitive one is stored sealed. Callers have checked the rules.
 */
export function upsertVariable(db: Db, workspaceId: string, values: VariableValues, timestamp: string = now()): void {
    const existing = sql(db, "SELECT id FROM variables WHERE workspace_id = ? AND category = ? AND key = ?").get(
        workspaceId,
        values.category,
        values.key,
    ) as { id: string } | undefined;
    if (existing) {
        sql(db, `UPDATE variables SET value = ?, description = ?, hcl = ?, sensitive = ?, version_id = ?, updated_at = ? WHERE id = ?`).run(
            storedVariableValue(db, values.value, values.sensitive),
            values.description,
            values.hcl ? 1 : 0,
            values.sensitive ? 1 : 0,
            newId(""),
            timestamp,
            existing.id,
        );
        return;
    }
    sql(db, `INSERT INTO variables (id, workspace_id, key, value, description, category, hcl, sensitive, version_id, created_at, updated_at)
             VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`).run(
        newId("var-"),
        workspaceId,
        values.key,
        storedVariableValue(db, values.value, values.sensitive),
        values.description,
        values.category,
        values.hcl ? 1 : 0,
        values.sensitive ? 1 : 0,
        newId(""),
        timestamp,
        timestamp,
    );
}

// ---------------------------------------------------------------------------------------------------------
// The private registry and no-code provisioning

/** A row of `registry_modules`. */
export interface RegistryModuleRow {
    id: string;
    organization: string;
    name: string;
    provider: string;
    no_code_ready: number;
    created_at: string;
}

/** A variable a registry module version declares. */
export interface ModuleVariableRow {
    name: string;
    type: string;
    required: number;
    default_value: string | null;
}

/** A row of `no_code_modules`. */
export interface NoCodeModuleRow {
    id: string;
    organization: string;
    registry_module_id: string;
    version_pin: string;
    enabled: number;
    current_version_id: string;
    created_at: string;
    updated_at: string;
}

/** A row of `no_code_variable_options`; `options` is the JSON text of a list of strings. */
export interface VariableOptionsRow {
    id: string;
    no_code_module_id: string;
    variable_name: string;
    variable_type: string;
    options: string;
    position: number;
    created_at: string;
    updated_at: string;
}

/** A row of `no_code_module_versions`; `variable_options` is the JSON text of the sets at that version. */
export interface NoCodeModuleVersionRow {
    id: string;
    no_code_module_id: string;
    registry_module_id: string;
    version_pin: string;
    variable_options: string;
    created_at: string;
}

/**
 * A row of `workspace_upgrades`; `vars` is the JSON text of the {@link VariableValues} the run writes on
 * confirm, sensitive values sealed (read and write it with {@link upgradeVarsOf} and {@link upgradeVarsText}).
 */
export interface WorkspaceUpgradeRow {
    id: string;
    workspace_id: string;
    no_code_module_id: string;
    target_version_id: string;
    vars: string;
    plan_outcome: "planned" | "planned_and_finished" | "errored";
    cost_estimation: number;
    started_at_ms: number;
    step_ms: number;
    final_state: "applied" | "discarded" | null;
    created_at: string;
    updated_at: string;
}

/** The registry module with this id, of any organization (callers check the organization). */
export function findRegistryModule(db: Db, id: string): RegistryModuleRow | undefined {
    return sql(db, "SELECT * FROM registry_modules WHERE id = ?").get(id) as RegistryModuleRow | undefined;
}

/** `"1.10.0"` -> `[1, 10, 0]`: versions compare by number, part by part, never as text. */
function versionParts(version: string): number[] {
    return version.split(".").map((part) => Number.parseInt(part, 10) || 0);
}

/** Negative, zero or positive as `a` is below, equal to or above `b` (MAJOR.MINOR.PATCH, numerically). */
export function compareVersions(a: string, b: string): number {
    const [left, right] = [versionParts(a), versionParts(b)];
    for (let i = 0; i < Math.max(left.length, right.length); i++) {
        const difference = (left[i] ?? 0) - (right[i] ?? 0);
        if (difference !== 0) return difference;
    }
    return 0;
}

/** The versions a registry module publishes, lowest first. */
export function registryModuleVersions(db: Db, moduleId: string): string[] {
    const rows = sql(db, "SELECT version FROM registry_module_versions WHERE module_id = ?").all(moduleId) as { version: string }[];
    return rows.map((row) => row.version).sort(compareVersions);
}

/** The variables one version of a registry module declares, in declaration order. */
export function moduleVariablesOf(db: Db, moduleId: string, version: string): ModuleVariableRow[] {
    return sql(db, `SELECT name, type, required, default_value FROM registry_module_version_variables
                    WHERE module_id = ? AND version = ? ORDER BY position`).all(moduleId, version) as ModuleVariableRow[];
}

/** The no-code module with this id, of any organization (callers check visibility). */
export function findNoCodeModule(db: Db, id: string): NoCodeModuleRow | undefined {
    return sql(db, "SELECT * FROM no_code_modules WHERE id = ?").get(id) as NoCodeModuleRow | undefined;
}

/** The no-code module made from a registry module, if there is one (at most one). */
export function noCodeModuleOfRegistryModule(db: Db, registryModuleId: string): NoCodeModuleRow | undefined {
    return sql(db, "SELECT * FROM no_code_modules WHERE registry_module_id = ?").get(registryModuleId) as NoCodeModuleRow | undefined;
}

/** A no-code module's variable-options sets, in their order. */
export function variableOptionsOf(db: Db, noCodeModuleId: string): VariableOptionsRow[] {
    return sql(db, "SELECT * FROM no_code_variable_options WHERE no_code_module_id = ? ORDER BY position, rowid").all(
        noCodeModuleId,
    ) as VariableOptionsRow[];
}

/** The allowed values of a set, as stored (JSON text of strings). */
export function optionValues(set: Pick<VariableOptionsRow, "options">): string[] {
    return JSON.parse(set.options) as string[];
}

/** The no-code module version with this id. */
export function findNoCodeModuleVersion(db: Db, id: string): NoCodeModuleVersionRow | undefined {
    return sql(db, "SELECT * FROM no_code_module_versions WHERE id = ?").get(id) as NoCodeModuleVersionRow | undefined;
}

/**
 * The no-code module a workspace was made from, when it still exists: through the version the workspace
 * runs (undefined for a workspace not made from a no-code module, or whose module was deleted).
 */
export function noCodeModuleOfWorkspace(db: Db, workspace: WorkspaceRow): NoCodeModuleRow | undefined {
    if (workspace.no_code_module_version_id === null) return undefined;
    const version = findNoCodeModuleVersion(db, workspace.no_code_module_version_id);
    return version ? findNoCodeModule(db, version.no_code_module_id) : undefined;
}

/** The upgrade run with this id. */
export function findWorkspaceUpgrade(db: Db, id: string): WorkspaceUpgradeRow | undefined {
    return sql(db, "SELECT * FROM workspace_upgrades WHERE id = ?").get(id) as WorkspaceUpgradeRow | undefined;
}

/** Upgrade runs of a workspace that have not been applied or discarded, oldest first. */
export function openUpgradesOf(db: Db, workspaceId: string): WorkspaceUpgradeRow[] {
    return sql(db, "SELECT * FROM workspace_upgrades WHERE workspace_id = ? AND final_state IS NULL ORDER BY started_at_ms, rowid").all(
        workspaceId,
    ) as WorkspaceUpgradeRow[];
}

/** The stored text of an upgrade run's vars: their JSON, each sensitive value sealed. */
export function upgradeVarsText(db: Db, vars: readonly VariableValues[]): string {
    return JSON.stringify(vars.map((values) => (values.sensitive ? { ...values, value: storedVariableValue(db, values.value, true) } : values)));
}

/**
 * The vars of an upgrade run, each sensitive value opened.
 * @throws SealedValueError (an internal error) when a stored value does not open.
 */
export function upgradeVarsOf(db: Db, run: Pick<WorkspaceUpgradeRow, "vars">): VariableValues[] {
    const secrets = secretsOf(db);
    return (JSON.parse(run.vars) as VariableValues[]).map((values) => (values.sensitive ? { ...values, value: secrets.open(values.value) } : values));
}
