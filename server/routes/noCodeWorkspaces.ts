/**
 * Workspaces made from a no-code module, and their upgrades (the API's No-code provisioning endpoints, with
 * the local service's own decisions on upgrades): create a workspace from a module; start an upgrade (a plan
 * run towards the module's current version and new var values), read it, confirm it.
 *
 * A run's status is derived from the time on every read, never moved by a timer: one step every
 * `--plan-step-ms` from its start, `pending` -> `fetching` -> `planning` -> its end (`planned`, then
 * `cost_estimated` one step later where the organization has cost estimation; `planned_and_finished` when
 * nothing would change; `errored` when a `planOutcome` fault matched the initiate). Only a confirm or a newer
 * run writes a run's final state (`applied`, `discarded`). Nothing changes the workspace before the confirm.
 */
import type { FastifyInstance, FastifyRequest } from "fastify";
import type { z } from "zod";
import {
    UPGRADE_CONFIRMABLE_STATUSES,
    UPGRADE_IN_PROGRESS_STATUSES,
    createNoCodeWorkspaceRequestSchema,
    upgradeWorkspaceRequestSchema,
    workspaceVarListProblems,
    type noCodeWorkspaceVarsRelationshipSchema,
} from "../../sdk/model";
import { principalOf, type AppContext } from "../context";
import { noCodeWorkspace, refuseOrganizationToken, visibleNoCodeModule, workspaceCreatableProject, type Params } from "../access";
import { newId, now, readTransaction, writeTransaction, type Db } from "../db";
import { abbreviated, capitalized, conflict, ERROR_CODES, httpError, nameTaken, listOrNone, parseBody, validationFailed, type Problem } from "../errors";
import { absoluteUrl } from "../pagination";
import { moduleVariablesOf, optionValues, variableOptionsOf, type NoCodeModuleRow } from "../records/noCodeModules";
import type { ProjectRow } from "../records/projects";
import { upsertVariable, variablesOf, withPlainValue, type VariableRow, type VariableValues } from "../records/variables";
import {
    findWorkspaceUpgrade,
    finishWorkspaceUpgrade,
    insertWorkspaceUpgrade,
    openUpgradesOf,
    organizationCostEstimation,
    upgradeVarsOf,
    upgradeVarsText,
    type WorkspaceUpgradeRow,
} from "../records/workspaceUpgrades";
import { findWorkspaceByName, insertWorkspace, setNoCodeModuleVersion, type WorkspaceRow } from "../records/workspaces";
import { paths, renderWorkspaceUpgrade } from "../render";
import { executionProblems, workspaceDocument } from "../workspaceRules";

type CreateData = z.output<ReturnType<typeof createNoCodeWorkspaceRequestSchema>>["data"];
type VarItems = z.output<ReturnType<typeof noCodeWorkspaceVarsRelationshipSchema>>["data"];

/** A status of an upgrade run (`UPGRADE_STATUSES` but `canceled`, which the local service never reaches). */
export type UpgradeStatus =
    | (typeof UPGRADE_IN_PROGRESS_STATUSES)[number]
    | (typeof UPGRADE_CONFIRMABLE_STATUSES)[number]
    | WorkspaceUpgradeRow["plan_outcome"]
    | NonNullable<WorkspaceUpgradeRow["final_state"]>;

const VARS_POINTER = ["data", "relationships", "vars"] as const;

/** What a confirm answers, as the hosted service does. */
export const CONFIRMED = { message: "Workspace update completed" } as const;

/** Registers the no-code workspace and upgrade routes under `/api/v2`. */
export function registerNoCodeWorkspaceRoutes(api: FastifyInstance, { db, options, faults }: AppContext): void {
    api.post<Params>("/no-code-modules/:id/workspaces", async (request) => {
        const principal = principalOf(request);
        return writeTransaction(db, () => {
            const module = visibleNoCodeModule(db, principal, request.params.id);
            refuseOrganizationToken(principal);
            const { data } = parseBody(createNoCodeWorkspaceRequestSchema(), request.body);
            const project = workspaceCreatableProject(db, principal, data.relationships.project.data.id);
            return workspaceDocument(db, principal, createNoCodeWorkspace(db, module, project, data));
        });
    });

    // An organization token may start, read and confirm upgrades: the API refuses it only for the three above.
    api.post<Params>("/no-code-modules/:id/workspaces/:workspace/upgrade", async (request) => {
        const principal = principalOf(request);
        return writeTransaction(db, () => {
            const { module, workspace } = noCodeWorkspace(db, principal, request.params.id, request.params.workspace, "manage");
            const { data } = parseBody(upgradeWorkspaceRequestSchema(), request.body);
            const items = data.relationships?.vars?.data ?? [];
            // In clear: a var left without a value keeps the stored one, and the plan compares values.
            const current = plainVariablesOf(db, workspace.id);
            const problems = varProblems(db, module, items, current);
            if (problems.length > 0) throw validationFailed(problems);
            const startedAtMs = Date.now();
            const wanted = items.map((item) => varValues(item, current.find((variable) => sameVariable(variable, item.attributes))));
            const run = startUpgrade(db, module, workspace, wanted, startedAtMs, options.planStepMs, () =>
                faults.takePlanOutcome(request.method, pathOf(request)),
            );
            return upgradeDocument(request, workspace, run, startedAtMs);
        });
    });

    api.get<Params>("/no-code-modules/:id/workspaces/:workspace/upgrade/:run", async (request) => {
        const principal = principalOf(request);
        return readTransaction(db, () => {
            const { workspace } = noCodeWorkspace(db, principal, request.params.id, request.params.workspace, "read");
            return upgradeDocument(request, workspace, upgradeOf(db, workspace, request.params.run), Date.now());
        });
    });

    // Confirm: no body, an empty body or `null` (what the public clients send); whatever is sent is ignored.
    api.post<Params>("/no-code-modules/:id/workspaces/:workspace/upgrade/:run", async (request) => {
        const principal = principalOf(request);
        writeTransaction(db, () => {
            const { workspace } = noCodeWorkspace(db, principal, request.params.id, request.params.workspace, "manage");
            confirmUpgrade(db, workspace, upgradeOf(db, workspace, request.params.run), Date.now());
        });
        return CONFIRMED;
    });
}

/** The status of a run at `nowMs`: its final state once it has one, else the step its time has reached. */
export function upgradeStatus(run: WorkspaceUpgradeRow, nowMs: number): UpgradeStatus {
    if (run.final_state !== null) return run.final_state;
    // A step of 0 ms ends the plan at once; a clock set back reads as the run's start.
    const steps = run.step_ms <= 0 ? Number.POSITIVE_INFINITY : Math.max(0, Math.floor((nowMs - run.started_at_ms) / run.step_ms));
    if (steps < 1) return "pending";
    if (steps < 2) return "fetching";
    if (steps < 3) return "planning";
    if (run.plan_outcome !== "planned") return run.plan_outcome;
    return run.cost_estimation === 1 && steps >= 4 ? "cost_estimated" : "planned";
}

function isInProgress(status: UpgradeStatus): boolean {
    return (UPGRADE_IN_PROGRESS_STATUSES as readonly string[]).includes(status);
}

function isConfirmable(status: UpgradeStatus): boolean {
    return (UPGRADE_CONFIRMABLE_STATUSES as readonly string[]).includes(status);
}

/** A workspace-upgrade document: the run as it is at `nowMs`, with the absolute URL of its plan. */
function upgradeDocument(request: FastifyRequest, workspace: WorkspaceRow, run: WorkspaceUpgradeRow, nowMs: number) {
    const planUrl = absoluteUrl(request, paths.runHtml(workspace.organization, workspace.name, run.id));
    return { data: renderWorkspaceUpgrade(run, upgradeStatus(run, nowMs), planUrl) };
}

/** The URL path of a request, as fault rules match it. */
function pathOf(request: FastifyRequest): string {
    return request.url.split("?")[0]!;
}

// ---------------------------------------------------------------------------------------------------------
// The rules that need the database. Each runs inside the caller's transaction and throws the refusal before
// anything is written.

/**
 * Creates a workspace from a no-code module: `source` `tfe-module`, on the module's current version, with
 * its vars. 422 for a module not enabled, a name taken, execution settings or vars that break a rule.
 */
function createNoCodeWorkspace(db: Db, module: NoCodeModuleRow, project: ProjectRow, data: CreateData): WorkspaceRow {
    const attributes = data.attributes;
    const items = data.relationships.vars?.data ?? [];
    const problems: Problem[] = [];
    if (module.enabled !== 1) {
        problems.push({ path: ["data"], detail: "No-code provisioning is not enabled for this module; enable it (enabled: true) before creating workspaces from it" });
    }
    // The column is COLLATE NOCASE: names are unique in any case.
    const holder = findWorkspaceByName(db, module.organization, attributes.name);
    if (holder) problems.push(nameTaken(holder.id));
    const modeGiven = attributes["execution-mode"] !== undefined;
    const mode = attributes["execution-mode"] ?? "remote";
    const agentPoolGiven = attributes["agent-pool-id"] !== undefined;
    const agentPoolId = attributes["agent-pool-id"] ?? null;
    problems.push(...executionProblems(db, module.organization, mode, agentPoolId, agentPoolGiven));
    problems.push(...varProblems(db, module, items, []));
    if (problems.length > 0) throw validationFailed(problems);

    const workspace = insertWorkspace(db, {
        organization: module.organization,
        projectId: project.id,
        name: attributes.name,
        description: attributes.description ?? "",
        // `auto-apply` is go-tfe's spelling, `auto_apply` the API's.
        autoApply: attributes["auto-apply"] ?? attributes.auto_apply ?? false,
        executionMode: mode,
        agentPoolId,
        executionModeOverwritten: modeGiven,
        agentPoolOverwritten: modeGiven || agentPoolGiven,
        source: "tfe-module",
        sourceName: attributes["source-name"] ?? null,
        sourceUrl: attributes["source-url"] ?? null,
        sourceModuleId: module.registry_module_id,
        noCodeModuleVersionId: module.current_version_id,
    });
    const timestamp = now();
    for (const item of items) upsertVariable(db, workspace.id, varValues(item), timestamp);
    return workspace;
}

/**
 * Starts an upgrade run towards the module's current version with `vars` (upserts by key and category).
 * 409 while another run of the workspace is still planning; a finished plan nobody confirmed is discarded.
 * `forcedOutcome` is asked only once the run is sure to start, so a refused request uses no fault rule.
 */
function startUpgrade(
    db: Db,
    module: NoCodeModuleRow,
    workspace: WorkspaceRow,
    vars: readonly VariableValues[],
    startedAtMs: number,
    stepMs: number,
    forcedOutcome: () => "errored" | undefined,
): WorkspaceUpgradeRow {
    const open = openUpgradesOf(db, workspace.id).map((run) => ({ run, status: upgradeStatus(run, startedAtMs) }));
    const unfinished = open.find(({ status }) => isInProgress(status));
    if (unfinished) {
        throw conflict(
            ERROR_CODES.upgradeInProgress,
            `An upgrade of this workspace (${unfinished.run.id}) is still '${unfinished.status}'; wait until its plan has finished before starting another`,
            { "run-id": unfinished.run.id, status: unfinished.status },
        );
    }
    const timestamp = now();
    for (const { run, status } of open) {
        if (isConfirmable(status)) {
            finishWorkspaceUpgrade(db, run.id, "discarded", timestamp);
        }
    }
    const unchanged = module.current_version_id === workspace.no_code_module_version_id && varsUnchanged(plainVariablesOf(db, workspace.id), vars);
    const id = newId("run-");
    insertWorkspaceUpgrade(db, {
        id,
        workspace_id: workspace.id,
        no_code_module_id: module.id,
        target_version_id: module.current_version_id,
        vars: upgradeVarsText(db, vars),
        plan_outcome: forcedOutcome() ?? (unchanged ? "planned_and_finished" : "planned"),
        cost_estimation: organizationCostEstimation(db, workspace.organization),
        started_at_ms: startedAtMs,
        step_ms: stepMs,
        final_state: null,
        created_at: timestamp,
        updated_at: timestamp,
    });
    return findWorkspaceUpgrade(db, id)!;
}

/**
 * Confirms a run: in `planned` or `cost_estimated` writes its vars and moves the workspace to its version,
 * and the run reads `applied`; in `planned_and_finished` there is nothing to apply. Any other status is a 409.
 */
function confirmUpgrade(db: Db, workspace: WorkspaceRow, run: WorkspaceUpgradeRow, nowMs: number): void {
    const status = upgradeStatus(run, nowMs);
    if (status === "planned_and_finished") return;
    if (!isConfirmable(status)) {
        const why = isInProgress(status) ? "its plan has not finished yet" : "only a plan in 'planned' or 'cost_estimated' can be confirmed";
        throw conflict(ERROR_CODES.upgradeNotConfirmable, `The upgrade ${run.id} cannot be confirmed: its status is '${status}' (${why})`, {
            "run-id": run.id,
            status,
        });
    }
    const timestamp = now();
    for (const values of upgradeVarsOf(db, run)) upsertVariable(db, workspace.id, values, timestamp);
    setNoCodeModuleVersion(db, workspace.id, run.target_version_id, timestamp);
    finishWorkspaceUpgrade(db, run.id, "applied", timestamp);
}

/**
 * The run `runId` of this workspace; 404 for any other. The workspace was made from the path's module
 * (`noCodeWorkspace` checked it), and a workspace's runs are all made through its own module, so the run's
 * module needs no check of its own.
 */
function upgradeOf(db: Db, workspace: WorkspaceRow, runId: string | undefined): WorkspaceUpgradeRow {
    const run = runId === undefined ? undefined : findWorkspaceUpgrade(db, runId);
    if (!run || run.workspace_id !== workspace.id) {
        throw httpError(404, ERROR_CODES.notFound, "Workspace upgrade not found or you are not authorized to access it");
    }
    return run;
}

/**
 * The var rules of a create or an upgrade, judged against the module's pinned version: a key once per
 * category; each `infra` key a variable of that version; every required variable given as an `infra` var
 * (by the body, or by `existing` vars of the workspace for an upgrade); a value of a variable that has a
 * non-empty options set one of its options; a sensitive var made plain only with a new value (the stored one
 * would become readable). Each var is judged as it would be written (attributes left out keep the stored
 * ones). A sensitive value never appears in a detail.
 */
function varProblems(db: Db, module: NoCodeModuleRow, items: VarItems, existing: readonly VariableRow[]): Problem[] {
    const variables = moduleVariablesOf(db, module.registry_module_id, module.version_pin);
    const sets = new Map(variableOptionsOf(db, module.id).map((set) => [set.variable_name, optionValues(set)]));
    const at = (index: number, field: string) => [...VARS_POINTER, "data", index, "attributes", field];
    const problems: Problem[] = workspaceVarListProblems(items.map((item) => item.attributes)).map((problem) => ({
        path: at(problem.index, "key"),
        detail: capitalized(problem.message),
    }));
    items.forEach((item, index) => {
        const stored = existing.find((variable) => sameVariable(variable, item.attributes));
        // An attribute left out keeps the stored one (see varValues): the rules judge what would be written.
        const { key, category, value, sensitive } = varValues(item, stored);
        if (stored?.sensitive === 1 && !sensitive && item.attributes.value == null) {
            // The stored value would become readable: making a var plain needs a new value.
            problems.push({ path: at(index, "value"), detail: `Value of '${abbreviated(key)}' must be given to make the sensitive var plain` });
        }
        if (category !== "infra") return;
        if (!variables.some((variable) => variable.name === key)) {
            problems.push({
                path: at(index, "key"),
                detail: `Key '${abbreviated(key)}' is not a variable of the module's version ${module.version_pin} (its variables: ${listOrNone(variables.map((v) => v.name))})`,
            });
            return;
        }
        const options = sets.get(key);
        // An empty set (go-tfe leaves `options` out when empty) restricts nothing.
        if (options && options.length > 0 && !options.includes(value)) {
            const allowed = options.map((option) => `'${option}'`).join(", ");
            problems.push({
                path: at(index, "value"),
                detail: sensitive
                    ? `Value of '${key}' must be one of the allowed values: ${allowed}`
                    : `Value '${abbreviated(value)}' of '${key}' is not allowed; it must be one of: ${allowed}`,
            });
        }
    });
    const given = new Set([
        ...items.filter((item) => item.attributes.category === "infra").map((item) => item.attributes.key),
        ...existing.filter((variable) => variable.category === "infra").map((variable) => variable.key),
    ]);
    const missing = variables.filter((variable) => variable.required === 1 && !given.has(variable.name)).map((variable) => variable.name);
    if (missing.length > 0) {
        problems.push({
            path: [...VARS_POINTER],
            detail: `Required variables of the module's version ${module.version_pin} must be given as infra vars: ${missing.join(", ")}`,
        });
    }
    return problems;
}

/**
 * The values a var item writes. For a var the workspace already has (`existing`, same key and category), an
 * attribute left out keeps its value, as `PATCH /vars` does: pytfe leaves out every attribute it was not
 * given, and an upgrade that only sets a new value must not make a sensitive var plain or drop its
 * description. A new var takes the API's defaults.
 */
function varValues(item: VarItems[number], existing?: VariableRow): VariableValues {
    const attributes = item.attributes;
    return {
        key: attributes.key,
        value: attributes.value ?? existing?.value ?? "",
        description: attributes.description === undefined ? (existing?.description ?? null) : attributes.description,
        category: attributes.category,
        hcl: attributes.hcl ?? (existing ? existing.hcl === 1 : false),
        sensitive: attributes.sensitive ?? (existing ? existing.sensitive === 1 : false),
    };
}

/** A workspace's variables with their values in clear (sensitive ones opened), for the upgrade's rules and plan. */
function plainVariablesOf(db: Db, workspaceId: string): VariableRow[] {
    return variablesOf(db, workspaceId).map((variable) => withPlainValue(db, variable));
}

/** Whether a stored variable is the one a var item names: the same key and category. */
function sameVariable(variable: VariableRow, attributes: { key: string; category: string }): boolean {
    return variable.key === attributes.key && variable.category === attributes.category;
}

/**
 * Whether writing `vars` would leave the workspace's vars as they are: each one already there, by key and
 * category, with the same value, description, hcl and sensitive. No description and an empty one are the
 * same (go-tfe sends `""` for none).
 */
function varsUnchanged(current: readonly VariableRow[], vars: readonly VariableValues[]): boolean {
    return vars.every((wanted) => {
        const variable = current.find((candidate) => candidate.key === wanted.key && candidate.category === wanted.category);
        return (
            variable !== undefined &&
            variable.value === wanted.value &&
            (variable.description ?? "") === (wanted.description ?? "") &&
            (variable.hcl === 1) === wanted.hcl &&
            (variable.sensitive === 1) === wanted.sensitive
        );
    });
}
