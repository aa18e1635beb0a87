/**
 * No-code provisioning (the API's No-code provisioning endpoints): no-code modules and their variable-options sets,
 * workspaces created from a no-code module, and workspace upgrades (a plan, then a confirm).
 *
 * Request schemas accept what the official public clients send (go-tfe 1.111, pytfe 1.5), which is wider
 * than the service's API in a few places: the module relationship typed `registry-module` or `registry-modules`, a
 * workspace body typed `workspaces` or `no-code-module-workspace`, `auto_apply` or `auto-apply`, a project
 * typed `project` or `projects`, variable options given as strings, numbers or booleans (kept as their
 * text), and vars items with empty `description` / `version-id` strings.
 */
import { z } from "zod";
import {
    booleanRule,
    executionModeRule,
    variableCategoryRule,
    variableDescriptionRule,
    variableKeyRule,
    variableValueRule,
    workspaceDescriptionRule,
    workspaceNameRule,
    workspaceSourceNameRule,
    workspaceSourceUrlRule,
    type VariableCategory,
} from "./rules";
import { toOneRelationshipSchema } from "./jsonapi";

// ---------------------------------------------------------------------------------------------------------
// Rules

/** A registry module version: `MAJOR.MINOR.PATCH`, as the private registry publishes them. */
const MODULE_VERSION_PATTERN = /^\d+\.\d+\.\d+$/;

/** Module version (`version-pin`, a workspace's `moduleVersion`): `MAJOR.MINOR.PATCH`, e.g. `1.1.0`. */
export function moduleVersionRule() {
    return z.string({ error: "must be a string" }).regex(MODULE_VERSION_PATTERN, { error: "must be a module version such as '1.1.0'" });
}

/** A variable name of a module (`variable-name` of a variable-options set): not empty. */
export function moduleVariableNameRule() {
    return z.string({ error: "must be a string" }).min(1, { error: "must not be empty" });
}

/** A module variable's type as the configuration language writes it (`string`, `number`, `map(string)`...). */
export function moduleVariableTypeRule() {
    return z.string({ error: "must be a string" }).min(1, { error: "must not be empty" });
}

/**
 * One allowed value of a variable-options set. Both public clients decode options as strings, so a number or
 * a boolean given by a client is kept as its text (`3` -> `"3"`, `true` -> `"true"`).
 */
export function variableOptionValueRule() {
    return z
        .union([z.string(), z.number(), z.boolean()], { error: "must be a string, a number or a boolean" })
        .transform((value) => String(value));
}

/**
 * Problems of a whole list of variable-options sets, beyond each set's own rules: one set per variable name.
 * Returns one message per problem with the index of the offending set.
 */
export function variableOptionSetProblems(sets: readonly { variableName: string }[]): { index: number; message: string }[] {
    const problems: { index: number; message: string }[] = [];
    const seen = new Set<string>();
    sets.forEach((set, index) => {
        if (seen.has(set.variableName)) {
            problems.push({ index, message: `variable '${set.variableName}' has more than one set of options` });
        }
        seen.add(set.variableName);
    });
    return problems;
}

/**
 * Problems of a list of workspace vars beyond each var's own rules: a key at most once per category.
 * Returns one message per problem with the index of the offending var.
 */
export function workspaceVarListProblems(vars: readonly { key: string; category: string }[]): { index: number; message: string }[] {
    const problems: { index: number; message: string }[] = [];
    const seen = new Set<string>();
    vars.forEach((variable, index) => {
        const identity = `${variable.category}\u0000${variable.key}`;
        if (seen.has(identity)) {
            problems.push({ index, message: `var '${variable.key}' (${variable.category}) appears more than once` });
        }
        seen.add(identity);
    });
    return problems;
}

// ---------------------------------------------------------------------------------------------------------
// Requests

/** `relationships.registry-module` of a no-code module write: `registry-module` (the API's) or `registry-modules`. */
export function registryModuleRelationshipSchema() {
    return z.object({
        data: z.object({
            type: z.enum(["registry-module", "registry-modules"], { error: "must be 'registry-module'" }),
            // An empty id gets the same words: a schema's `error` also words its checks (zod 4).
            id: z.string({ error: "must be a registry module id" }).min(1),
        }),
    });
}

/**
 * One item of `relationships.variable-options.data[]`: with `id` it replaces that set, without it adds one.
 * An item with an `id` and no `attributes` keeps that set as it is: go-tfe's encoder writes a set it already
 * knows (one with an id) as `{ id, type }` only, so that is its only way to keep a set in an update.
 */
export function variableOptionsInputSchema() {
    return z
        .object({
            type: z.literal("variable-options", { error: "must be 'variable-options'" }),
            id: z.string({ error: "must be a variable-options id" }).optional(),
            attributes: z
                .object(
                    {
                        "variable-name": moduleVariableNameRule(),
                        "variable-type": moduleVariableTypeRule(),
                        // go-tfe leaves `options` out when the list is empty.
                        options: z.array(variableOptionValueRule(), { error: "must be a list" }).optional(),
                    },
                    { error: "must be an object with a variable-name and a variable-type" },
                )
                .optional(),
        })
        .superRefine((item, context) => {
            if (item.id === undefined && item.attributes === undefined) {
                context.addIssue({
                    code: "custom",
                    path: ["attributes"],
                    message: "is required (a variable-name, a variable-type and options) unless the item names an existing set by id",
                });
            }
        })
        // The refinement as JSON Schema, for the OpenAPI description.
        .meta({ anyOf: [{ required: ["id"] }, { required: ["attributes"] }] });
}

/** `relationships.variable-options` of a no-code module write. */
export function variableOptionsRelationshipSchema() {
    return z.object({ data: z.array(variableOptionsInputSchema(), { error: "must be a list of variable options" }) });
}

/** Body of `POST /organizations/:org/no-code-modules`. */
export function createNoCodeModuleRequestSchema() {
    return z.object({
        data: z.object({
            type: z.literal("no-code-modules", { error: "must be 'no-code-modules'" }),
            attributes: z
                .object({
                    "version-pin": moduleVersionRule().optional(),
                    enabled: booleanRule().optional(),
                })
                .optional(),
            relationships: z.object(
                {
                    "registry-module": registryModuleRelationshipSchema(),
                    "variable-options": variableOptionsRelationshipSchema().optional(),
                },
                { error: "must be an object with a registry-module relationship" },
            ),
        }),
    });
}

/** Body of `PATCH /no-code-modules/:id`: everything optional; `variable-options`, when given, is the whole desired list. */
export function updateNoCodeModuleRequestSchema() {
    return z.object({
        data: z.object({
            type: z.literal("no-code-modules", { error: "must be 'no-code-modules'" }),
            id: z.string().optional(),
            attributes: z
                .object({
                    "version-pin": moduleVersionRule().optional(),
                    enabled: booleanRule().optional(),
                })
                .optional(),
            relationships: z
                .object({
                    "registry-module": registryModuleRelationshipSchema().optional(),
                    "variable-options": variableOptionsRelationshipSchema().optional(),
                })
                .optional(),
        }),
    });
}

/**
 * One item of `relationships.vars.data[]` of a no-code workspace create or upgrade. pytfe sends every
 * attribute, with `""` for an absent description and a `version-id` that means nothing here (ignored).
 */
export function noCodeWorkspaceVarInputSchema() {
    return z.object({
        type: z.literal("vars", { error: "must be 'vars'" }),
        id: z.string().optional(),
        attributes: z.object(
            {
                key: variableKeyRule(),
                value: variableValueRule().nullable().optional(),
                description: variableDescriptionRule().nullable().optional(),
                // pytfe (and go-tfe's `CategoryTerraform`) name the `infra` category `terraform`, the hosted service's word.
                category: z.preprocess((value) => (value === "terraform" ? "infra" : value), variableCategoryRule()),
                hcl: booleanRule().optional(),
                sensitive: booleanRule().optional(),
                "version-id": z.string().nullable().optional(),
            },
            { error: "must be an object with at least a key and a category" },
        ),
    });
}

/** `relationships.vars` of a no-code workspace create or upgrade. */
export function noCodeWorkspaceVarsRelationshipSchema() {
    return z.object({ data: z.array(noCodeWorkspaceVarInputSchema(), { error: "must be a list of vars" }) });
}

/** `data.type` of a no-code workspace create or upgrade: `workspaces` (the API's) or `no-code-module-workspace` (go-tfe). */
function noCodeWorkspaceTypeRule() {
    return z.enum(["workspaces", "no-code-module-workspace"], { error: "must be 'workspaces'" });
}

/** Body of `POST /no-code-modules/:id/workspaces`. `auto_apply` (the API's) and `auto-apply` (go-tfe) both work. */
export function createNoCodeWorkspaceRequestSchema() {
    return z.object({
        data: z.object({
            type: noCodeWorkspaceTypeRule(),
            attributes: z.object(
                {
                    name: workspaceNameRule(),
                    description: workspaceDescriptionRule().nullable().optional(),
                    auto_apply: booleanRule().optional(),
                    "auto-apply": booleanRule().optional(),
                    "execution-mode": executionModeRule().optional(),
                    "agent-pool-id": z.string({ error: "must be an agent pool id" }).nullable().optional(),
                    "source-name": workspaceSourceNameRule().nullable().optional(),
                    "source-url": workspaceSourceUrlRule().nullable().optional(),
                },
                { error: "must be an object with at least a name" },
            ),
            relationships: z.object(
                {
                    project: z.object({
                        data: z.object({
                            type: z.enum(["project", "projects"], { error: "must be 'project'" }),
                            // An empty id gets the same words: a schema's `error` also words its checks (zod 4).
                            id: z.string({ error: "must be a project id" }).min(1),
                        }),
                    }),
                    vars: noCodeWorkspaceVarsRelationshipSchema().optional(),
                },
                { error: "must be an object with a project relationship" },
            ),
        }),
    });
}

/** Body of `POST /no-code-modules/:id/workspaces/:ws/upgrade`: no relationships means no var changes. */
export function upgradeWorkspaceRequestSchema() {
    return z.object({
        data: z.object({
            type: noCodeWorkspaceTypeRule(),
            relationships: z.object({ vars: noCodeWorkspaceVarsRelationshipSchema().optional() }).optional(),
        }),
    });
}

// ---------------------------------------------------------------------------------------------------------
// Responses

/** Wire shape of a no-code module resource. */
export function noCodeModuleResourceSchema() {
    return z.object({
        id: z.string(),
        type: z.literal("no-code-modules"),
        attributes: z.object({
            enabled: z.boolean().optional(),
            "version-pin": z.string().nullable().optional(),
        }),
        relationships: z
            .object({
                organization: toOneRelationshipSchema().optional(),
                "registry-module": toOneRelationshipSchema().optional(),
                "variable-options": z
                    .object({ data: z.array(z.object({ id: z.string(), type: z.string() })).nullable().optional() })
                    .optional(),
            })
            .optional(),
        // `links` is not read: a module is always addressed by its id.
    });
}

/** Wire shape of a variable-options resource (in `included`). `options` are strings, as both public clients decode them. */
export function variableOptionsResourceSchema() {
    return z.object({
        id: z.string(),
        type: z.literal("variable-options"),
        attributes: z.object({
            "variable-name": z.string(),
            "variable-type": z.string(),
            options: z.array(z.string()).nullable().optional(),
        }),
        // Its `no-code-allowed-module` relationship is not read: a set is only ever found through its module.
    });
}

/** A variable-options set in client terms. */
export interface VariableOptions {
    /** `ncvaropt-...` */
    id: string;
    /** The module variable the set restricts. */
    variableName: string;
    /** That variable's declared type (`string`, `number`, ...). */
    variableType: string;
    /** Allowed values, as text. */
    options: string[];
}

/** {@link VariableOptions} from the wire shape of {@link variableOptionsResourceSchema}. */
export function variableOptionsFromWire(wire: z.output<ReturnType<typeof variableOptionsResourceSchema>>): VariableOptions {
    return {
        id: wire.id,
        variableName: wire.attributes["variable-name"],
        variableType: wire.attributes["variable-type"],
        options: wire.attributes.options ?? [],
    };
}

/**
 * A no-code module document, `{ data, included? }`, parsed into client terms ({@link NoCodeModule}). The sets
 * of `variableOptions` are filled from `included` when the read asked for them; otherwise only their ids
 * are known (`variableOptionIds`).
 */
export function noCodeModuleDocumentSchema() {
    // Built with the document schema, not on each parse: the client builds its schemas once (issue 6, Scale).
    const optionSchema = variableOptionsResourceSchema();
    return z
        .object({
            data: noCodeModuleResourceSchema(),
            // Other included types (a newer server's) are skipped, not refused.
            included: z.array(z.unknown()).optional(),
        })
        .transform(({ data, included }) => {
            const setsById = new Map<string, VariableOptions>();
            if (included !== undefined) {
                for (const item of included) {
                    const parsed = optionSchema.safeParse(item);
                    if (parsed.success) setsById.set(parsed.data.id, variableOptionsFromWire(parsed.data));
                }
            }
            return noCodeModuleFromWire(data, setsById);
        });
}

// An interface carries the TSDoc of the fields, which a type inferred from the parsing function would not
// carry into the published `.d.ts` (see `jsonapi.ts`).

/** A no-code module in client terms: what `noCodeModuleDocumentSchema` makes of a no-code module answer. */
export interface NoCodeModule {
    /** `nocode-...` */
    id: string;
    /** Whether workspaces may be made from the module. */
    enabled: boolean;
    /** The module version no-code workflows use. */
    versionPin: string;
    /** The organization's name; `""` when the answer does not name it. */
    organization: string;
    /** `mod-...`; `""` when the answer does not name it. */
    registryModuleId: string;
    /** Ids of the module's variable-options sets (`ncvaropt-...`), always present. */
    variableOptionIds: string[];
    /** The sets themselves, in relationship order, when the read included them (`include: ["variable-options"]`). */
    variableOptions: VariableOptions[];
}

/** {@link NoCodeModule} from its wire shape and the variable-options sets that were included, by id. */
export function noCodeModuleFromWire(
    wire: z.output<ReturnType<typeof noCodeModuleResourceSchema>>,
    includedSetsById: ReadonlyMap<string, VariableOptions>,
) {
    const relationships = wire.relationships;
    const optionIds = (relationships?.["variable-options"]?.data ?? []).map((item) => item.id);
    return {
        id: wire.id,
        enabled: wire.attributes.enabled ?? false,
        versionPin: wire.attributes["version-pin"] ?? "",
        organization: relationships?.organization?.data?.id ?? "",
        registryModuleId: relationships?.["registry-module"]?.data?.id ?? "",
        variableOptionIds: optionIds,
        variableOptions: optionIds.map((id) => includedSetsById.get(id)).filter((set): set is VariableOptions => set !== undefined),
    };
}

/**
 * Statuses of a workspace upgrade run. The service's API lists the first six; `errored`, `discarded`, `canceled` and
 * `applied` are the run's other ends (a failed plan; a plan superseded by a newer upgrade; a cancel; a
 * confirmed plan).
 */
export const UPGRADE_STATUSES = [
    "pending",
    "fetching",
    "planning",
    "planned",
    "cost_estimated",
    "planned_and_finished",
    "errored",
    "discarded",
    "canceled",
    "applied",
] as const;

/** Wire shape of a no-code module version (`GET /no-code-module-versions/:id`): what a workspace made from a module runs. */
export function noCodeModuleVersionResourceSchema() {
    return z.object({
        id: z.string(),
        type: z.literal("no-code-module-versions"),
        attributes: z.object({ "module-version": z.string() }),
        relationships: z.object({ "no-code-module": toOneRelationshipSchema().optional() }).optional(),
    });
}

/** A no-code module version parsed into client terms ({@link NoCodeModuleVersion}). */
export function noCodeModuleVersionSchema() {
    return noCodeModuleVersionResourceSchema().transform((wire) => ({
        id: wire.id,
        moduleVersion: wire.attributes["module-version"],
        noCodeModuleId: wire.relationships?.["no-code-module"]?.data?.id ?? "",
    }));
}

/**
 * A version of a no-code module in client terms: each change of a module's pin (or options) makes one, and a
 * workspace made from the module runs one of them ({@link Workspace.noCodeModuleVersionId}).
 */
export interface NoCodeModuleVersion {
    /** `nocodever-...` */
    id: string;
    /** The registry module's version it pins, e.g. `1.1.0`. */
    moduleVersion: string;
    /** `nocode-...` of the module it is a version of; `""` when the answer does not name it. */
    noCodeModuleId: string;
}

/** The statuses in which a plan is still being made: anything else is an end (possibly one to confirm). */
export const UPGRADE_IN_PROGRESS_STATUSES = ["pending", "fetching", "planning"] as const;

/** The statuses in which a plan is finished and may be confirmed. */
export const UPGRADE_CONFIRMABLE_STATUSES = ["planned", "cost_estimated"] as const;

/** Wire shape of a workspace-upgrade resource. `status` is any string: a newer service may add statuses. */
export function workspaceUpgradeResourceSchema() {
    return z.object({
        id: z.string(),
        type: z.string(),
        attributes: z.object({
            status: z.string(),
            "plan-url": z.string().nullable().optional(),
        }),
        relationships: z.object({ workspace: toOneRelationshipSchema().optional() }).optional(),
    });
}

/** A workspace-upgrade document parsed into client terms ({@link WorkspaceUpgrade}). */
export function workspaceUpgradeSchema() {
    return workspaceUpgradeResourceSchema().transform((wire) => ({
        id: wire.id,
        status: wire.attributes.status,
        planUrl: wire.attributes["plan-url"] ?? "",
        workspaceId: wire.relationships?.workspace?.data?.id ?? "",
    }));
}

/** A workspace upgrade (a run) in client terms: what `workspaceUpgradeSchema` makes of an upgrade answer. */
export interface WorkspaceUpgrade {
    /** `run-...` */
    id: string;
    /**
     * `pending`, `fetching`, `planning` (in progress); `planned`, `cost_estimated` (to confirm);
     * `planned_and_finished` (nothing to change); `errored`, `discarded`, `canceled`, `applied`; or a
     * status this client does not know yet.
     */
    status: string;
    /** The plan's run page; `""` when the answer has none. */
    planUrl: string;
    /** `ws-...`; `""` when the answer does not name it. */
    workspaceId: string;
}

/** A var of a no-code workspace create or upgrade, in client terms. */
export interface NoCodeWorkspaceVar {
    /** The variable's name, 1 to 128 characters; for `infra`, a variable of the module's pinned version. */
    key: string;
    /** Default `""`; one of the options when the module has a set for this variable. */
    value?: string;
    /** `infra` (a module variable) or `env` (an environment variable of the runs). */
    category: VariableCategory;
    /** At most 512 characters. */
    description?: string;
    /** Evaluate the value as configuration-language code; default false. */
    hcl?: boolean;
    /** Write-only once written; default false. */
    sensitive?: boolean;
}
