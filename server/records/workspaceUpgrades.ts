/**
 * Upgrade runs of workspaces made from a no-code module, in the database: the rows, their vars at rest (a
 * sensitive value sealed with the database's key), and every statement that reads or writes them.
 */
import { secretsOf, sql, type Db } from "../db";
import { storedVariableValue, type VariableValues } from "./variables";

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

/** Inserts an upgrade run as given (`vars` as stored: see {@link upgradeVarsText}). */
export function insertWorkspaceUpgrade(db: Db, row: WorkspaceUpgradeRow): void {
    sql(db, `INSERT INTO workspace_upgrades (id, workspace_id, no_code_module_id, target_version_id, vars, plan_outcome, cost_estimation,
                 started_at_ms, step_ms, final_state, created_at, updated_at)
             VALUES (@id, @workspace_id, @no_code_module_id, @target_version_id, @vars, @plan_outcome, @cost_estimation,
                 @started_at_ms, @step_ms, @final_state, @created_at, @updated_at)`).run(row);
}

/** Writes a run's final state: `applied` by its confirm, `discarded` by a newer run. */
export function finishWorkspaceUpgrade(db: Db, id: string, finalState: "applied" | "discarded", timestamp: string): void {
    sql(db, "UPDATE workspace_upgrades SET final_state = ?, updated_at = ? WHERE id = ?").run(finalState, timestamp, id);
}

/**
 * Whether the organization has cost estimation (its runs then pass `cost_estimated`). Organizations are made
 * by seeds; an upgrade run is all that reads this setting.
 */
export function organizationCostEstimation(db: Db, organization: string): number {
    return (sql(db, "SELECT cost_estimation FROM organizations WHERE name = ?").get(organization) as { cost_estimation: number }).cost_estimation;
}
