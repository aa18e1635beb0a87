/**
 * No-code provisioning (the API's No-code provisioning endpoints): no-code modules and their variable options,
 * workspaces created from a no-code module, and workspace upgrades (initiate a plan, wait for it, confirm it).
 *
 * @module
 */
import { setTimeout as sleep } from "node:timers/promises";
import { z } from "zod";
import {
    booleanRule,
    checkAgentPool,
    moduleVariableNameRule,
    moduleVariableTypeRule,
    moduleVersionRule,
    noCodeModuleDocumentSchema,
    noCodeModuleVersionSchema,
    singleDocumentSchema,
    UPGRADE_IN_PROGRESS_STATUSES,
    variableCategoryRule,
    variableDescriptionRule,
    variableKeyRule,
    variableOptionSetProblems,
    variableOptionValueRule,
    variableValueRule,
    workspaceSchema,
    workspaceUpgradeSchema,
    workspaceVarListProblems,
    type NoCodeModule,
    type NoCodeModuleVersion,
    type NoCodeWorkspaceVar,
    type Workspace,
    type WorkspaceUpgrade,
} from "./model";
import { segment, wireAttributes, type Transport } from "./transport";
import { requireId, WosPlanFailedError, WosPlanTimeoutError } from "./errors";
import { idOptionRule } from "./optionRules";
import { workspaceCreateOptionsShape, type WorkspaceCreateOptions } from "./workspaces";

export type { NoCodeModule, NoCodeModuleVersion, NoCodeWorkspaceVar, VariableOptions, WorkspaceUpgrade } from "./model";

// The TSDoc of each field is on the options interface, the schema's fields inherit it, and a type-level test
// proves the two the same type (see `sdk/projects.ts`).

/**
 * One variable-options set ({@link VariableOptionsSetOptions}): the variable's name and declared type, and the
 * values allowed for it.
 */
function variableOptionsSetSchema() {
    // No `{@inheritDoc}` here: the API reference inlines the interface, which leaves nothing to inherit from
    // (`typedoc.json` names these fields as documented elsewhere).
    return z.object({
        variableName: moduleVariableNameRule(),
        variableType: moduleVariableTypeRule(),
        options: z.array(variableOptionValueRule(), { error: "must be a list of values" }),
    });
}

/**
 * One variable-options set of {@link NoCodeModuleCreateOptions.variableOptions}: the variable's name and
 * declared type, and the values allowed for it.
 *
 * @inline
 */
interface VariableOptionsSetOptions {
    /** A variable of the pinned module version. */
    variableName: string;
    /** The variable's type as the module declares it (`string`, `number`, `map(string)`...). */
    variableType: string;
    /** Allowed values; numbers and booleans are sent as their text, as the service keeps them. */
    options: (string | number | boolean)[];
}

/**
 * One item of {@link NoCodeModuleUpdateOptions.variableOptions}: a set, and the set it replaces if any.
 *
 * @inline
 */
interface VariableOptionsSetUpdateOptions extends VariableOptionsSetOptions {
    /** `ncvaropt-...` of the set this item replaces; without it, the item adds a set. */
    id?: string;
}

/** A list of variable-options sets (each by `set`), at most one per variable. */
function variableOptionsListSchema<T extends z.ZodType<{ variableName: string }>>(set: T) {
    return z.array(set, { error: "must be a list of variable options" }).superRefine((sets, context) => {
        // Element issues do not stop a refinement: judge the list only once every set has a name.
        if (!sets.every((item) => typeof item?.variableName === "string")) return;
        for (const problem of variableOptionSetProblems(sets)) {
            context.addIssue({ code: "custom", message: problem.message, path: [problem.index, "variableName"] });
        }
    });
}

/** What {@link NoCodeModules.create} takes: the rules of `sdk/model`, checked before the request. */
export function noCodeModuleCreateOptionsSchema() {
    return z.object({
        /** {@inheritDoc NoCodeModuleCreateOptions.registryModuleId} */
        registryModuleId: idOptionRule("a registry module id"),
        /** {@inheritDoc NoCodeModuleCreateOptions.versionPin} */
        versionPin: moduleVersionRule().optional(),
        /** {@inheritDoc NoCodeModuleCreateOptions.enabled} */
        enabled: booleanRule().optional(),
        /** {@inheritDoc NoCodeModuleCreateOptions.variableOptions} */
        variableOptions: variableOptionsListSchema(variableOptionsSetSchema()).optional(),
    });
}

/** Options of {@link NoCodeModules.create}, checked by {@link noCodeModuleCreateOptionsSchema} before the request. */
export interface NoCodeModuleCreateOptions {
    /** The registry module to enable (`mod-...`), no-code ready, in the organization's private registry. */
    registryModuleId: string;
    /** `MAJOR.MINOR.PATCH` of an existing version; default the module's highest version. */
    versionPin?: string;
    /** Whether workspaces may be created from the module; default false. */
    enabled?: boolean;
    /** Allowed values per variable of the pinned version, at most one set per variable. */
    variableOptions?: VariableOptionsSetOptions[];
}

/** What {@link NoCodeModules.update} takes. Omitted fields stay as they are. */
export function noCodeModuleUpdateOptionsSchema() {
    return z.object({
        /** {@inheritDoc NoCodeModuleUpdateOptions.registryModuleId} */
        registryModuleId: idOptionRule("a registry module id").optional(),
        /** {@inheritDoc NoCodeModuleUpdateOptions.versionPin} */
        versionPin: moduleVersionRule().optional(),
        /** {@inheritDoc NoCodeModuleUpdateOptions.enabled} */
        enabled: booleanRule().optional(),
        /** {@inheritDoc NoCodeModuleUpdateOptions.variableOptions} */
        variableOptions: variableOptionsListSchema(
            variableOptionsSetSchema().extend({ id: idOptionRule("a variable-options id").optional() }),
        ).optional(),
    });
}

/**
 * Options of {@link NoCodeModules.update}, checked by {@link noCodeModuleUpdateOptionsSchema} before the
 * request. Omitted fields stay as they are.
 */
export interface NoCodeModuleUpdateOptions {
    /** Another registry module; without {@link NoCodeModuleUpdateOptions.versionPin} the pin becomes its highest version. */
    registryModuleId?: string;
    /** `MAJOR.MINOR.PATCH` of an existing version of the module. */
    versionPin?: string;
    /** Whether workspaces may be created from the module. */
    enabled?: boolean;
    /**
     * The whole desired list of sets: an item with the `id` of an existing set replaces that set, an item
     * without one adds a set, a set left out is removed (`[]` removes them all).
     */
    variableOptions?: VariableOptionsSetUpdateOptions[];
}

/** What {@link NoCodeModules.read} takes. */
export function noCodeModuleReadOptionsSchema() {
    return z.object({
        /** {@inheritDoc NoCodeModuleReadOptions.include} */
        include: z.array(z.enum(["variable-options"], { error: "must be 'variable-options'" })).optional(),
    });
}

/** Options of {@link NoCodeModules.read}, checked by {@link noCodeModuleReadOptionsSchema} before the request. */
export interface NoCodeModuleReadOptions {
    /** Related resources to include: `variable-options` fills {@link NoCodeModule.variableOptions}. */
    include?: "variable-options"[];
}

/**
 * The fields of one var of {@link noCodeWorkspaceVarListSchema}, each by the variable rules.
 *
 * @internal shared with the `check` of `wos:NoCodeWorkspace` (`provider/handlers/noCodeWorkspace.ts`).
 */
export function noCodeWorkspaceVarShape() {
    return {
        /** {@inheritDoc NoCodeWorkspaceVar.key} */
        key: variableKeyRule(),
        /** {@inheritDoc NoCodeWorkspaceVar.value} */
        value: variableValueRule().optional(),
        /** {@inheritDoc NoCodeWorkspaceVar.category} */
        category: variableCategoryRule(),
        /** {@inheritDoc NoCodeWorkspaceVar.description} */
        description: variableDescriptionRule().optional(),
        /** {@inheritDoc NoCodeWorkspaceVar.hcl} */
        hcl: booleanRule().optional(),
        /** {@inheritDoc NoCodeWorkspaceVar.sensitive} */
        sensitive: booleanRule().optional(),
    };
}

/** Vars of a no-code workspace create or upgrade: each var by the variable rules, a key once per category. */
export function noCodeWorkspaceVarListSchema() {
    return z.array(z.object(noCodeWorkspaceVarShape()), { error: "must be a list of vars" }).superRefine((vars, context) => {
        if (!vars.every((item) => typeof item?.key === "string" && typeof item?.category === "string")) return;
        for (const problem of workspaceVarListProblems(vars)) {
            context.addIssue({ code: "custom", message: problem.message, path: [problem.index, "key"] });
        }
    }) satisfies z.ZodType<NoCodeWorkspaceVar[]>;
}

/**
 * What {@link NoCodeModules.createWorkspace} takes: the options of a workspace create with the project
 * required, and the vars; the rules of `sdk/model`, checked before the request.
 */
export function noCodeWorkspaceCreateOptionsSchema() {
    return z
        .object({
            ...workspaceCreateOptionsShape(),
            /** {@inheritDoc NoCodeWorkspaceCreateOptions.projectId} */
            projectId: idOptionRule("a project id"),
            /** {@inheritDoc NoCodeWorkspaceCreateOptions.vars} */
            vars: noCodeWorkspaceVarListSchema().optional(),
        })
        .superRefine(checkAgentPool);
}

/**
 * Options of {@link NoCodeModules.createWorkspace}, checked by {@link noCodeWorkspaceCreateOptionsSchema}
 * before the request: those of a workspace create, the project required, and the vars.
 */
export interface NoCodeWorkspaceCreateOptions extends Omit<WorkspaceCreateOptions, "projectId"> {
    /** The project to create it in (`prj-...`); the caller must be allowed to create workspaces there. */
    projectId: string;
    /** The workspace's vars; every required variable of the pinned version as an `infra` var. */
    vars?: NoCodeWorkspaceVar[];
}

/** What {@link NoCodeModules.initiateUpgrade} takes. */
export function noCodeUpgradeOptionsSchema() {
    return z.object({
        /** {@inheritDoc NoCodeUpgradeOptions.vars} */
        vars: noCodeWorkspaceVarListSchema().optional(),
    });
}

/** Options of {@link NoCodeModules.initiateUpgrade}, checked by {@link noCodeUpgradeOptionsSchema} before the request. */
export interface NoCodeUpgradeOptions {
    /** Upserts by key and category; vars left out stay as they are. None: only the module version moves. */
    vars?: NoCodeWorkspaceVar[];
}

/** What {@link NoCodeModules.waitForPlan} takes. */
export function waitForPlanOptionsSchema() {
    const delay = z.number({ error: "must be a whole number of milliseconds" }).int({ error: "must be a whole number of milliseconds" }).min(1, {
        error: "must be at least 1 millisecond",
    });
    return z.object({
        /** {@inheritDoc WaitForPlanOptions.deadline} */
        deadline: z.number({ error: "must be a time in epoch milliseconds" }).refine(Number.isFinite, {
            error: "must be a time in epoch milliseconds",
        }),
        /** {@inheritDoc WaitForPlanOptions.onStatus} */
        onStatus: z
            .custom<(upgrade: WorkspaceUpgrade) => void>((value) => typeof value === "function", { error: "must be a function" })
            .optional(),
        /** {@inheritDoc WaitForPlanOptions.initialDelayMs} */
        initialDelayMs: delay.optional(),
        /** {@inheritDoc WaitForPlanOptions.maxDelayMs} */
        maxDelayMs: delay.optional(),
        /** {@inheritDoc WaitForPlanOptions.signal} */
        signal: z.custom<AbortSignal>((value) => value instanceof AbortSignal, { error: "must be an AbortSignal" }).optional(),
    });
}

/** Options of {@link NoCodeModules.waitForPlan}, checked by {@link waitForPlanOptionsSchema} before the first poll. */
export interface WaitForPlanOptions {
    /** When to give up, in epoch milliseconds (`Date.now() + ...`). */
    deadline: number;
    /** Called with the upgrade each time its status changes, the first status seen included. */
    onStatus?: (upgrade: WorkspaceUpgrade) => void;
    /** Wait before the first poll, in whole milliseconds (at least 1); default 1000. */
    initialDelayMs?: number;
    /** Upper bound of any wait between polls, in whole milliseconds (at least 1); default 10000. */
    maxDelayMs?: number;
    /**
     * Stops the wait when aborted (a program interrupted): the promise rejects with the signal's reason (an
     * `AbortError` unless the caller gave another), and nothing more is read. The plan itself runs on.
     */
    signal?: AbortSignal;
}

/**
 * An upgrade as {@link NoCodeModules.initiateUpgrade} and {@link NoCodeModules.readUpgrade} answer it: with the
 * module it belongs to.
 */
export interface NoCodeUpgrade extends WorkspaceUpgrade {
    /** The no-code module (`nocode-...`) whose workspace is upgraded. */
    noCodeModuleId: string;
}

/** Default first wait of {@link NoCodeModules.waitForPlan}, in milliseconds. */
export const DEFAULT_PLAN_POLL_INITIAL_DELAY_MS = 1000;
/** Default longest wait of {@link NoCodeModules.waitForPlan}, in milliseconds. */
export const DEFAULT_PLAN_POLL_MAX_DELAY_MS = 10_000;
/** Growth of the wait per poll. */
const PLAN_POLL_GROWTH = 1.5;

/**
 * The wait before poll number `poll` (1-based) of {@link NoCodeModules.waitForPlan}: `initialDelayMs`, growing
 * x1.5 per poll, never more than `maxDelayMs` (1000, 1500, 2250, ... 10000 with the defaults).
 */
export function planPollDelay(
    poll: number,
    initialDelayMs = DEFAULT_PLAN_POLL_INITIAL_DELAY_MS,
    maxDelayMs = DEFAULT_PLAN_POLL_MAX_DELAY_MS,
): number {
    return Math.min(Math.round(initialDelayMs * PLAN_POLL_GROWTH ** Math.max(0, poll - 1)), maxDelayMs);
}

/** Statuses of a finished plan: `waitForPlan` returns on these. `planned_and_finished` needs no confirm. */
const PLAN_FINISHED_STATUSES: ReadonlySet<string> = new Set(["planned", "cost_estimated", "planned_and_finished"]);
const PLAN_IN_PROGRESS_STATUSES: ReadonlySet<string> = new Set(UPGRADE_IN_PROGRESS_STATUSES);

// Built once: the module is loaded once per process, and a schema is immutable.
const CREATE_OPTIONS = noCodeModuleCreateOptionsSchema();
const UPDATE_OPTIONS = noCodeModuleUpdateOptionsSchema();
const READ_OPTIONS = noCodeModuleReadOptionsSchema();
const WORKSPACE_OPTIONS = noCodeWorkspaceCreateOptionsSchema();
const UPGRADE_OPTIONS = noCodeUpgradeOptionsSchema();
const WAIT_OPTIONS = waitForPlanOptionsSchema();
const MODULE_DOCUMENT = noCodeModuleDocumentSchema();
const WORKSPACE_DOCUMENT = singleDocumentSchema(workspaceSchema());
const UPGRADE_DOCUMENT = singleDocumentSchema(workspaceUpgradeSchema());
const VERSION_DOCUMENT = singleDocumentSchema(noCodeModuleVersionSchema());

/** Wire names of the no-code module attributes an option sets. */
const MODULE_ATTRIBUTES = { versionPin: "version-pin", enabled: "enabled" } as const;

/** Wire names of the workspace attributes a no-code workspace create sets (`auto_apply` as the service's API spells it). */
const WORKSPACE_ATTRIBUTES = {
    name: "name",
    description: "description",
    autoApply: "auto_apply",
    executionMode: "execution-mode",
    agentPoolId: "agent-pool-id",
    sourceName: "source-name",
    sourceUrl: "source-url",
} as const;

/** The var attributes, which have the same names in options and on the wire. */
const VAR_ATTRIBUTES = { key: "key", value: "value", description: "description", category: "category", hcl: "hcl", sensitive: "sensitive" } as const;

/** `include` values of {@link NoCodeModuleReadOptions} by their wire names (the service's API spells it `variable_options`). */
const INCLUDE_WIRE_NAMES = { "variable-options": "variable_options" } as const;

/** The no-code module endpoints. Reach it as {@link WosClient.noCodeModules}. */
export class NoCodeModules {
    readonly #transport: Transport;

    /** @internal Built by {@link WosClient}. */
    constructor(transport: Transport) {
        this.#transport = transport;
    }

    /** Enables no-code provisioning for a registry module: `POST /organizations/:organization/no-code-modules`. */
    async create(organization: string, options: NoCodeModuleCreateOptions): Promise<NoCodeModule> {
        const endpoint = "/organizations/:organization/no-code-modules";
        requireId(organization, "organization", "POST", endpoint);
        const valid = this.#transport.validate(CREATE_OPTIONS, options, "POST", endpoint);
        return this.#transport.request({
            method: "POST",
            path: `/organizations/${segment(organization)}/no-code-modules`,
            body: { data: noCodeModuleData(valid) },
            schema: MODULE_DOCUMENT,
        });
    }

    /** Shows a no-code module, with its variable options when `include` asks: `GET /no-code-modules/:id`. */
    async read(noCodeModuleId: string, options: NoCodeModuleReadOptions = {}): Promise<NoCodeModule> {
        const endpoint = "/no-code-modules/:id";
        requireId(noCodeModuleId, "noCodeModuleId", "GET", endpoint);
        const valid = this.#transport.validate(READ_OPTIONS, options, "GET", endpoint);
        const include = [...new Set(valid.include ?? [])].map((name) => INCLUDE_WIRE_NAMES[name]);
        return this.#transport.request({
            method: "GET",
            path: `/no-code-modules/${segment(noCodeModuleId)}`,
            query: { include: include.length ? include : undefined },
            schema: MODULE_DOCUMENT,
        });
    }

    /**
     * Updates a no-code module; `variableOptions`, when given, is the whole desired list of sets:
     * `PATCH /no-code-modules/:id`.
     */
    async update(noCodeModuleId: string, options: NoCodeModuleUpdateOptions): Promise<NoCodeModule> {
        const endpoint = "/no-code-modules/:id";
        requireId(noCodeModuleId, "noCodeModuleId", "PATCH", endpoint);
        const valid = this.#transport.validate(UPDATE_OPTIONS, options, "PATCH", endpoint);
        return this.#transport.request({
            method: "PATCH",
            path: `/no-code-modules/${segment(noCodeModuleId)}`,
            body: { data: { id: noCodeModuleId, ...noCodeModuleData(valid) } },
            schema: MODULE_DOCUMENT,
        });
    }

    /**
     * Shows a version of a no-code module (what a workspace made from it runs: its `noCodeModuleVersionId`), with
     * the module version it pins: `GET /no-code-module-versions/:id`.
     */
    async readVersion(versionId: string): Promise<NoCodeModuleVersion> {
        requireId(versionId, "versionId", "GET", "/no-code-module-versions/:id");
        const document = await this.#transport.request({
            method: "GET",
            path: `/no-code-module-versions/${segment(versionId)}`,
            schema: VERSION_DOCUMENT,
        });
        return document.data;
    }

    /** Turns no-code provisioning off for the module; its workspaces stay: `DELETE /no-code-modules/:id`. */
    async delete(noCodeModuleId: string): Promise<void> {
        requireId(noCodeModuleId, "noCodeModuleId", "DELETE", "/no-code-modules/:id");
        await this.#transport.request({
            method: "DELETE",
            path: `/no-code-modules/${segment(noCodeModuleId)}`,
            schema: undefined,
            notFoundAfterRetryIsSuccess: true,
        });
    }

    /**
     * Creates a workspace from a no-code module (never repeated after a lost answer: look for it by name):
     * `POST /no-code-modules/:id/workspaces`.
     */
    async createWorkspace(noCodeModuleId: string, options: NoCodeWorkspaceCreateOptions): Promise<Workspace> {
        const endpoint = "/no-code-modules/:id/workspaces";
        requireId(noCodeModuleId, "noCodeModuleId", "POST", endpoint);
        const valid = this.#transport.validate(WORKSPACE_OPTIONS, options, "POST", endpoint);
        const relationships: Record<string, unknown> = { project: { data: { type: "project", id: valid.projectId } } };
        if (valid.vars !== undefined) relationships.vars = { data: varItems(valid.vars) };
        const document = await this.#transport.request({
            method: "POST",
            path: `/no-code-modules/${segment(noCodeModuleId)}/workspaces`,
            body: { data: { type: "workspaces", attributes: wireAttributes(valid, WORKSPACE_ATTRIBUTES), relationships } },
            schema: WORKSPACE_DOCUMENT,
        });
        return document.data;
    }

    /**
     * Starts an upgrade plan of a workspace made from the module, to the module's current version and with
     * the vars given: `POST /no-code-modules/:id/workspaces/:workspace_id/upgrade`.
     */
    async initiateUpgrade(noCodeModuleId: string, workspaceId: string, options: NoCodeUpgradeOptions = {}): Promise<NoCodeUpgrade> {
        const endpoint = "/no-code-modules/:id/workspaces/:workspace_id/upgrade";
        requireId(noCodeModuleId, "noCodeModuleId", "POST", endpoint);
        requireId(workspaceId, "workspaceId", "POST", endpoint);
        const valid = this.#transport.validate(UPGRADE_OPTIONS, options, "POST", endpoint);
        const data: Record<string, unknown> = { type: "workspaces" };
        if (valid.vars !== undefined) data.relationships = { vars: { data: varItems(valid.vars) } };
        const document = await this.#transport.request({
            method: "POST",
            path: upgradePath(noCodeModuleId, workspaceId),
            body: { data },
            schema: UPGRADE_DOCUMENT,
        });
        return withModule(document.data, noCodeModuleId, workspaceId);
    }

    /** Reads an upgrade's status and plan URL: `GET /no-code-modules/:id/workspaces/:workspace_id/upgrade/:upgrade_id`. */
    async readUpgrade(noCodeModuleId: string, workspaceId: string, upgradeId: string): Promise<NoCodeUpgrade> {
        const document = await this.#transport.request({
            method: "GET",
            path: upgradeRunPath("GET", noCodeModuleId, workspaceId, upgradeId),
            schema: UPGRADE_DOCUMENT,
        });
        return withModule(document.data, noCodeModuleId, workspaceId);
    }

    /**
     * Confirms a finished plan, which applies its vars and module version:
     * `POST /no-code-modules/:id/workspaces/:workspace_id/upgrade/:upgrade_id`.
     *
     * Repeated after a 5xx or a dropped connection (the answer may be lost after the work was done). The
     * service refuses a second confirm with a 409, so a 409 after such a repeat is resolved by reading the
     * run: `applied` means the first attempt applied it (success); anything else throws the 409.
     */
    async confirmUpgrade(noCodeModuleId: string, workspaceId: string, upgradeId: string): Promise<void> {
        await this.#transport.request({
            method: "POST",
            path: upgradeRunPath("POST", noCodeModuleId, workspaceId, upgradeId),
            // The answer is only a message ("Workspace update completed"): nothing to parse.
            schema: undefined,
            conflictAfterRetryIsSuccess: async () => (await this.readUpgrade(noCodeModuleId, workspaceId, upgradeId)).status === "applied",
        });
    }

    /**
     * Polls an upgrade ({@link NoCodeModules.readUpgrade}) until its plan ends, waiting
     * {@link WaitForPlanOptions.initialDelayMs} first and x1.5 longer each poll up to
     * {@link WaitForPlanOptions.maxDelayMs}, never past the deadline. Calls `onStatus` on each status change.
     *
     * Resolves with the upgrade in `planned`, `cost_estimated` (confirm it) or `planned_and_finished`
     * (nothing to apply). A `planned` plan is returned at once even where `cost_estimated` follows: a confirm
     * is valid in both. Throws {@link WosPlanFailedError} on any other end (`errored`, `discarded`, ...),
     * {@link WosPlanTimeoutError} when the deadline passes first; a read that fails after the transport's
     * retries throws its {@link WosError}; an aborted {@link WaitForPlanOptions.signal} rejects with its reason.
     */
    async waitForPlan(
        upgrade: { noCodeModuleId: string; workspaceId: string; id: string; status?: string; planUrl?: string },
        options: WaitForPlanOptions,
    ): Promise<NoCodeUpgrade> {
        const endpoint = "/no-code-modules/:id/workspaces/:workspace_id/upgrade/:upgrade_id";
        requireId(upgrade?.noCodeModuleId, "upgrade.noCodeModuleId", "GET", endpoint);
        requireId(upgrade.workspaceId, "upgrade.workspaceId", "GET", endpoint);
        requireId(upgrade.id, "upgrade.id", "GET", endpoint);
        const valid = this.#transport.validate(WAIT_OPTIONS, options, "GET", endpoint);
        const initialDelayMs = valid.initialDelayMs ?? DEFAULT_PLAN_POLL_INITIAL_DELAY_MS;
        const maxDelayMs = valid.maxDelayMs ?? DEFAULT_PLAN_POLL_MAX_DELAY_MS;
        const started = Date.now();
        let lastStatus: string | undefined;
        const observe = (seen: NoCodeUpgrade): NoCodeUpgrade => {
            if (seen.status === lastStatus) return seen;
            lastStatus = seen.status;
            // A throwing callback (a logger) must not turn a plan into a failure.
            try {
                valid.onStatus?.(seen);
            } catch {
                /* ignored on purpose */
            }
            return seen;
        };
        const signal = valid.signal;
        const read = async () => {
            signal?.throwIfAborted();
            const seen = await this.readUpgrade(upgrade.noCodeModuleId, upgrade.workspaceId, upgrade.id);
            // An answer that arrives after the abort is not reported: the caller has stopped listening.
            signal?.throwIfAborted();
            return observe(seen);
        };
        // The answer of the initiate is the first status seen: a read right after it would only repeat it.
        let current =
            upgrade.status !== undefined && PLAN_IN_PROGRESS_STATUSES.has(upgrade.status)
                ? observe({
                      id: upgrade.id,
                      status: upgrade.status,
                      planUrl: upgrade.planUrl ?? "",
                      workspaceId: upgrade.workspaceId,
                      noCodeModuleId: upgrade.noCodeModuleId,
                  })
                : await read();
        for (let poll = 1; ; poll++) {
            if (PLAN_FINISHED_STATUSES.has(current.status)) return current;
            if (!PLAN_IN_PROGRESS_STATUSES.has(current.status)) {
                throw new WosPlanFailedError({ status: current.status, planUrl: current.planUrl, upgradeId: current.id });
            }
            const remaining = valid.deadline - Date.now();
            if (remaining <= 0) {
                throw new WosPlanTimeoutError({
                    waitedMs: Date.now() - started,
                    lastStatus: current.status,
                    planUrl: current.planUrl,
                    upgradeId: current.id,
                });
            }
            // Cut at the deadline, then read once more: the plan may have finished in the meantime.
            await sleep(Math.min(planPollDelay(poll, initialDelayMs, maxDelayMs), remaining), undefined, { signal });
            current = await read();
        }
    }
}

/** `/no-code-modules/:id/workspaces/:workspace_id/upgrade` with both segments encoded. */
function upgradePath(noCodeModuleId: string, workspaceId: string): string {
    return `/no-code-modules/${segment(noCodeModuleId)}/workspaces/${segment(workspaceId)}/upgrade`;
}

/** `/no-code-modules/:id/workspaces/:workspace_id/upgrade/:upgrade_id` with its segments encoded, each id checked first. */
function upgradeRunPath(method: "GET" | "POST", noCodeModuleId: string, workspaceId: string, upgradeId: string): string {
    const endpoint = "/no-code-modules/:id/workspaces/:workspace_id/upgrade/:upgrade_id";
    requireId(noCodeModuleId, "noCodeModuleId", method, endpoint);
    requireId(workspaceId, "workspaceId", method, endpoint);
    requireId(upgradeId, "upgradeId", method, endpoint);
    return `${upgradePath(noCodeModuleId, workspaceId)}/${segment(upgradeId)}`;
}

/** The upgrade with its module, and its workspace when the answer did not name it. */
function withModule(upgrade: WorkspaceUpgrade, noCodeModuleId: string, workspaceId: string): NoCodeUpgrade {
    return { ...upgrade, workspaceId: upgrade.workspaceId || workspaceId, noCodeModuleId };
}

/**
 * `data` of a no-code module create or update: the attributes given, the module relationship typed
 * `registry-module` as the service's API writes it, and the variable-options sets when given.
 */
function noCodeModuleData(options: z.output<typeof UPDATE_OPTIONS>) {
    const data: Record<string, unknown> = { type: "no-code-modules", attributes: wireAttributes(options, MODULE_ATTRIBUTES) };
    const relationships: Record<string, unknown> = {};
    if (options.registryModuleId !== undefined) {
        relationships["registry-module"] = { data: { type: "registry-module", id: options.registryModuleId } };
    }
    if (options.variableOptions !== undefined) {
        relationships["variable-options"] = {
            data: options.variableOptions.map((set) => ({
                type: "variable-options",
                // With an id the item replaces that set; without one it adds a set.
                ...(set.id !== undefined ? { id: set.id } : {}),
                attributes: { "variable-name": set.variableName, "variable-type": set.variableType, options: set.options },
            })),
        };
    }
    if (Object.keys(relationships).length > 0) data.relationships = relationships;
    return data;
}

function varItems(vars: readonly NoCodeWorkspaceVar[]) {
    return vars.map((variable) => ({ type: "vars", attributes: wireAttributes(variable, VAR_ATTRIBUTES) }));
}
