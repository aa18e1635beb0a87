/**
 * The private registry and no-code provisioning in the database: registry modules (their versions and
 * declared variables, made by seeds), no-code modules, their variable-options sets and their versions; the
 * rows and every statement that reads or writes them.
 */
import { sql, type Db } from "../db";
import type { WorkspaceRow } from "./workspaces";

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

/** The registry module with this id, of any organization (callers check the organization). */
export function findRegistryModule(db: Db, id: string): RegistryModuleRow | undefined {
    return sql(db, "SELECT * FROM registry_modules WHERE id = ?").get(id) as RegistryModuleRow | undefined;
}

/**
 * `"1.10.0"` -> `[1, 10, 0]`: versions compare by number, part by part, never as text. Every stored version
 * has exactly these three parts of digits: a seed is the only writer, and it refuses any other (server/seed.ts).
 */
function versionParts(version: string): number[] {
    return version.split(".").map(Number);
}

/** Negative, zero or positive as `a` is below, equal to or above `b` (MAJOR, then MINOR, then PATCH, numerically). */
export function compareVersions(a: string, b: string): number {
    const [left, right] = [versionParts(a), versionParts(b)];
    return left[0] - right[0] || left[1] - right[1] || left[2] - right[2];
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

/** Inserts a no-code module row (its sets and first version are written by the caller, in the same transaction). */
export function insertNoCodeModule(db: Db, row: NoCodeModuleRow): void {
    sql(db, `INSERT INTO no_code_modules (id, organization, registry_module_id, version_pin, enabled, current_version_id, created_at, updated_at)
             VALUES (@id, @organization, @registry_module_id, @version_pin, @enabled, @current_version_id, @created_at, @updated_at)`).run(row);
}

/** Writes a no-code module's settings. */
export function updateNoCodeModuleSettings(
    db: Db,
    id: string,
    settings: Pick<NoCodeModuleRow, "registry_module_id" | "version_pin" | "enabled">,
    timestamp: string,
): void {
    sql(db, `UPDATE no_code_modules SET registry_module_id = @registry_module_id, version_pin = @version_pin, enabled = @enabled,
                 updated_at = @timestamp WHERE id = @id`).run({ ...settings, timestamp, id });
}

/** Makes `versionId` the module's current version. */
export function setCurrentNoCodeModuleVersion(db: Db, id: string, versionId: string): void {
    sql(db, "UPDATE no_code_modules SET current_version_id = ? WHERE id = ?").run(versionId, id);
}

/**
 * Deletes a no-code module; its sets and upgrade runs go with it (foreign keys). Workspaces made from it stay
 * (their upgrade endpoints answer 404 from then on).
 */
export function deleteNoCodeModule(db: Db, id: string): void {
    sql(db, "DELETE FROM no_code_modules WHERE id = ?").run(id);
}

/** A variable-options set as written: its variable, type, allowed values and place in the module's list. */
export interface VariableOptionsValues {
    variableName: string;
    variableType: string;
    options: readonly string[];
    position: number;
}

/** Replaces the set `id` in place. */
export function updateVariableOptions(db: Db, id: string, set: VariableOptionsValues, timestamp: string): void {
    sql(db, `UPDATE no_code_variable_options SET variable_name = ?, variable_type = ?, options = ?, position = ?, updated_at = ?
                     WHERE id = ?`).run(set.variableName, set.variableType, JSON.stringify(set.options), set.position, timestamp, id);
}

/** Adds a set `id` to a no-code module. */
export function insertVariableOptions(db: Db, id: string, moduleId: string, set: VariableOptionsValues, timestamp: string): void {
    sql(db, `INSERT INTO no_code_variable_options (id, no_code_module_id, variable_name, variable_type, options, position, created_at, updated_at)
                     VALUES (?, ?, ?, ?, ?, ?, ?, ?)`).run(id, moduleId, set.variableName, set.variableType, JSON.stringify(set.options), set.position, timestamp, timestamp);
}

/** Deletes one variable-options set. */
export function deleteVariableOptions(db: Db, id: string): void {
    sql(db, "DELETE FROM no_code_variable_options WHERE id = ?").run(id);
}

/** Records a no-code module version: the registry module, the pin, and the sets (their JSON text) at that time. */
export function insertNoCodeModuleVersion(db: Db, row: NoCodeModuleVersionRow): void {
    sql(db, `INSERT INTO no_code_module_versions (id, no_code_module_id, registry_module_id, version_pin, variable_options, created_at)
             VALUES (?, ?, ?, ?, ?, ?)`).run(row.id, row.no_code_module_id, row.registry_module_id, row.version_pin, row.variable_options, row.created_at);
}
