/**
 * Variables of workspaces in the database: the rows, their values at rest (a sensitive one sealed with the
 * database's key), and every statement that reads or writes them.
 */
import { newId, now, secretsOf, sql, type Db } from "../db";

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

/** The variable with this id (callers check visibility through its workspace). */
export function findVariable(db: Db, id: string): VariableRow | undefined {
    return sql(db, "SELECT * FROM variables WHERE id = ?").get(id) as VariableRow | undefined;
}

/** Variables of a workspace in creation order. */
export function variablesOf(db: Db, workspaceId: string): VariableRow[] {
    return sql(db, "SELECT * FROM variables WHERE workspace_id = ? ORDER BY rowid").all(workspaceId) as VariableRow[];
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
    const existingId = variableIdByKey(db, workspaceId, values.category, values.key);
    const attributes = {
        key: values.key,
        value: storedVariableValue(db, values.value, values.sensitive),
        description: values.description,
        category: values.category,
        hcl: values.hcl ? 1 : 0,
        sensitive: values.sensitive ? 1 : 0,
    };
    // The key and category found it (the key compares exactly): writing them again leaves them as they are.
    if (existingId !== undefined) updateVariableAttributes(db, existingId, attributes, timestamp);
    else insertVariable(db, { id: newId("var-"), workspace_id: workspaceId, ...attributes, version_id: newId(""), created_at: timestamp, updated_at: timestamp });
}

/** The id of the workspace's variable with this key in this category (a key is unique per category). */
export function variableIdByKey(db: Db, workspaceId: string, category: string, key: string): string | undefined {
    const row = sql(db, "SELECT id FROM variables WHERE workspace_id = ? AND category = ? AND key = ?").get(workspaceId, category, key) as
        | { id: string }
        | undefined;
    return row?.id;
}

/** Inserts a variable row as given (its value as stored: callers seal a sensitive one with {@link storedVariableValue}). */
export function insertVariable(db: Db, row: VariableRow): void {
    sql(db, `INSERT INTO variables (id, workspace_id, key, value, description, category, hcl, sensitive, version_id, created_at, updated_at)
             VALUES (@id, @workspace_id, @key, @value, @description, @category, @hcl, @sensitive, @version_id, @created_at, @updated_at)`).run(row);
}

/** Writes a variable's attributes (`value` as stored) with a new version id. */
export function updateVariableAttributes(
    db: Db,
    id: string,
    attributes: Pick<VariableRow, "key" | "value" | "description" | "category" | "hcl" | "sensitive">,
    timestamp: string,
): void {
    sql(db, `UPDATE variables SET key = ?, value = ?, description = ?, category = ?, hcl = ?, sensitive = ?, version_id = ?, updated_at = ?
             WHERE id = ?`).run(
        attributes.key,
        attributes.value,
        attributes.description,
        attributes.category,
        attributes.hcl,
        attributes.sensitive,
        newId(""),
        timestamp,
        id,
    );
}

/** Deletes a variable. */
export function deleteVariable(db: Db, id: string): void {
    sql(db, "DELETE FROM variables WHERE id = ?").run(id);
}

/** Every variable of every workspace of an organization, in creation order. */
export function variablesOfOrganization(db: Db, organization: string): VariableRow[] {
    return sql(db, `SELECT v.* FROM variables v JOIN workspaces w ON w.id = v.workspace_id
                               WHERE w.organization = ? ORDER BY v.rowid`).all(organization) as VariableRow[];
}
