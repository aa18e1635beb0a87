/**
 * The real logic of the `wos:NoCodeModule` dynamic resource: a registry module enabled for no-code
 * provisioning, with its version pin and its variable-options sets. Called by the thin shell in
 * `provider/noCodeModule.ts` through `require("pulumi-wos/dist/provider/handlers/noCodeModule")`, a stable
 * module path: serialized providers in existing state load it by name, so never move or rename it.
 *
 * The resource owns the module's whole list of variable-options sets: an update sends the whole desired
 * list, and a set keeps its `ncvaropt-` id as long as its variable name stays listed.
 *
 * @module
 */
import type * as dynamic from "@pulumi/pulumi/dynamic";
import { z } from "zod";
import type { WosClient } from "../../sdk";
import { WosNotFoundError } from "../../sdk/errors";
import {
    booleanRule,
    idRule,
    moduleVariableNameRule,
    moduleVariableTypeRule,
    moduleVersionRule,
    organizationNameRule,
    variableOptionSetProblems,
    variableOptionValueRule,
    type NoCodeModule,
    type VariableOptions,
} from "../../sdk/model";
import { clientFromCredentials, MISSING_ORGANIZATION_REASON, withDefaultOrganization } from "./credentials";
import { inputFailures, objectList, withRequiredReason } from "./inputChecks";
import { createRecoveringLostAnswer } from "./lostCreateRecovery";
import { operationError } from "./operationErrors";
import { plainOutputs } from "./plainOutputs";
import { REPLACING_INPUTS } from "./replacingInputs";
import { differs, mayBeSame, replacingChanges } from "./stateComparison";
import { isUnknown, type PropertyBag } from "./unknownValues";
import { unlessGone } from "./unlessGone";

// Built once: the handler module is loaded once per host process, and `check` runs for every resource of a
// program (building a zod rule, and zod's first parse of it, costs more than the check itself).
/**
 * The inputs of a `wos:NoCodeModule` and their rules (see `NoCodeModuleArgs` in `provider/noCodeModule.ts`).
 * Whether the variables and types exist in the pinned version is the service's to say.
 */
const NO_CODE_MODULE_INPUTS = z.object({
    /** Filled in by `check` from the default organization when the program left it out. */
    organization: withRequiredReason(organizationNameRule(), MISSING_ORGANIZATION_REASON),
    registryModuleId: withRequiredReason(
        idRule("mod-"),
        "registryModuleId is required (the id of a module of the organization's registry, 'mod-...')",
    ),
    /** Default: the module's highest version, chosen by the service at create. */
    versionPin: moduleVersionRule().optional(),
    /** Default false. */
    enabled: booleanRule().optional(),
    /** The module's whole list of sets, one per variable name; absent means none. */
    variableOptions: objectList({
        item: "variable-options sets ({ variableName, variableType, options })",
        fields: {
            variableName: moduleVariableNameRule(),
            variableType: moduleVariableTypeRule(),
            /** Allowed values, at least one (a set with none allows nothing); numbers and booleans are kept as their text, as the service does. */
            options: z.array(variableOptionValueRule(), { error: "must be a list of allowed values" }).min(1, { error: "must not be empty" }),
        },
        identity: ["variableName"],
        listProblems: variableOptionSetProblems,
    }).optional(),
});

/** Inputs of a `wos:NoCodeModule` once known and checked. */
export type NoCodeModuleInputs = z.output<typeof NO_CODE_MODULE_INPUTS>;

/** One variable-options set as the program gives it, once checked. */
export type VariableOptionsInput = NonNullable<NoCodeModuleInputs["variableOptions"]>[number];

/**
 * Outputs of a `wos:NoCodeModule`: the inputs as the service holds them, `versionPin` resolved, each set
 * with its `ncvaropt-` id and its options as text.
 */
export interface NoCodeModuleOutputs {
    organization: string;
    registryModuleId: string;
    versionPin: string;
    enabled: boolean;
    variableOptions: VariableOptions[];
}

/** How messages name the resource: `wos:NoCodeModule nocode-… (registry module mod-…) in organization 'acme'`. */
function describe(props: Partial<NoCodeModuleInputs> | undefined, id?: string): string {
    const known = (value: unknown): value is string => typeof value === "string" && !isUnknown(value);
    const where = id ? ` ${id}` : "";
    const module = known(props?.registryModuleId) ? ` (registry module ${props!.registryModuleId})` : "";
    const organization = known(props?.organization) ? ` in organization '${props!.organization}'` : "";
    return `wos:NoCodeModule${where}${module}${organization}`;
}

/**
 * Validates the inputs with the rules of `sdk/model` before any request: organization (the default
 * organization's when left out), a `mod-` id, the version format, `enabled` a boolean, and each
 * variable-options set (a name, a type, a non-empty list of options; one set per variable name). Whether the variables and types exist in the pinned version is the
 * service's to say. Options given as numbers or booleans are returned as their text, which is what the
 * service keeps, so that state and program compare equal. Unknown values pass.
 */
export async function check(_olds: PropertyBag, given: PropertyBag): Promise<dynamic.CheckResult> {
    // An organization left out is the configured default's, written into the inputs (and so into state).
    const news = withDefaultOrganization(given);
    const failures = inputFailures(NO_CODE_MODULE_INPUTS, news);
    const inputs: PropertyBag = { ...news };
    if (Array.isArray(news.variableOptions)) inputs.variableOptions = news.variableOptions.map(optionsAsText);
    return { inputs, failures };
}

/** A set whose known options are turned into text (`3` -> `"3"`), the form the service answers. */
function optionsAsText(set: unknown): unknown {
    // Anything that is not a set with a list of options (null, text, a number) is left as it is, for check to name.
    if (!Array.isArray((set as PropertyBag | null | undefined)?.options)) return set;
    const options = (set as PropertyBag).options as unknown[];
    return {
        ...(set as PropertyBag),
        options: options.map((option) =>
            typeof option === "number" || typeof option === "boolean" ? String(option) : option,
        ),
    };
}

/**
 * The sets in a form that compares equal whatever their order in the list (a set per variable name, so the
 * order carries no meaning) and whatever their ids: name, type and options (as text, in their order, which
 * is the order a person picks them from). Absent means no set.
 */
function optionSetSignature(value: unknown): unknown {
    if (value === undefined || value === null) return [];
    if (!Array.isArray(value)) return value;
    return value
        .map((set) => {
            const item = (set ?? {}) as PropertyBag;
            const options = Array.isArray(item.options) ? item.options.map((option) => String(option)) : item.options;
            return { variableName: item.variableName, variableType: item.variableType, options };
        })
        .sort((a, b) => String(a.variableName).localeCompare(String(b.variableName)));
}

const asFlag = (value: unknown) => value ?? false;

/** The properties whose change `update` applies in place. */
function changedInPlace(olds: PropertyBag, news: PropertyBag): string[] {
    const changed: string[] = [];
    // No pin in the program means "the pin the service chose": leaving it out changes nothing.
    if (news.versionPin !== undefined && differs(olds.versionPin, news.versionPin)) changed.push("versionPin");
    if (differs(olds.enabled, news.enabled, asFlag)) changed.push("enabled");
    if (differs(olds.variableOptions, news.variableOptions, optionSetSignature)) changed.push("variableOptions");
    return changed;
}

/**
 * Every input whose change {@link diff} sees, replacing or in place: what the native plugin's detailed diff
 * lists. Decided without a request.
 */
export function changedProperties(olds: PropertyBag, news: PropertyBag): string[] {
    const replacing = ["organization", "registryModuleId"].filter((property) => differs(olds[property], news[property]));
    return [...replacing, ...changedInPlace(olds, news)];
}

/**
 * Compares state and inputs without a request. Another organization or registry module replaces the
 * resource; pin, `enabled` and the sets change in place. A reordered list of sets is no change. A registry
 * module has at most one no-code module, so the old one is deleted first when the new one would be made
 * from the same registry module.
 */
export async function diff(_id: string, olds: PropertyBag, news: PropertyBag): Promise<dynamic.DiffResult> {
    const changed = changedProperties(olds, news);
    const replaces = replacingChanges(REPLACING_INPUTS.NoCodeModule, olds, news);
    return {
        changes: changed.length > 0,
        replaces,
        deleteBeforeReplace: replaces.length > 0 && mayBeSame(olds.registryModuleId, news.registryModuleId),
    };
}

/** A set as a request item: options as text; without `id` (undefined), the SDK sends it as a new set. */
function requestedSet(set: VariableOptionsInput, id?: string) {
    return {
        id,
        variableName: set.variableName,
        variableType: set.variableType,
        options: set.options.map((option) => String(option)),
    };
}

/**
 * The module's sets with their ids. A read with `include` answers them; a create or update answer may
 * name only their ids, which the service lists in the order of the request's list, so they are paired with
 * what was sent. `undefined` when neither tells.
 */
function optionSetsOf(module: NoCodeModule, sent?: readonly VariableOptionsInput[]): VariableOptions[] | undefined {
    if (module.variableOptions.length === module.variableOptionIds.length) return module.variableOptions;
    if (sent?.length === module.variableOptionIds.length) {
        return module.variableOptionIds.map((id, index) => ({ ...requestedSet(sent[index]), id }));
    }
    return undefined;
}

/** The module with its sets, reading it with `include` when the answer did not tell them. */
async function withOptionSets(
    client: WosClient,
    module: NoCodeModule,
    sent?: readonly VariableOptionsInput[],
): Promise<NoCodeModule> {
    if (optionSetsOf(module, sent)) return { ...module, variableOptions: optionSetsOf(module, sent)! };
    return client.noCodeModules.read(module.id, { include: ["variable-options"] });
}

/**
 * Outputs from what the service answered; the sets in the order of `order` (the state's or the program's)
 * so that a refresh shows no reordering, and any other set after them.
 */
function outputsFrom(module: NoCodeModule, fallback: Partial<NoCodeModuleInputs>, order: readonly { variableName?: unknown }[] = []): NoCodeModuleOutputs {
    const rank = new Map(order.map((set, index) => [set.variableName, index]));
    const sets = [...module.variableOptions].sort(
        (a, b) => (rank.get(a.variableName) ?? Number.MAX_SAFE_INTEGER) - (rank.get(b.variableName) ?? Number.MAX_SAFE_INTEGER),
    );
    return plainOutputs<NoCodeModuleOutputs>({
        // Stryker disable next-line StringLiteral: this service names the organization of every no-code module it answers, so neither fallback is ever taken
        organization: module.organization || fallback.organization || "",
        // Stryker disable next-line StringLiteral: this service names the registry module of every no-code module it answers, so neither fallback is ever taken
        registryModuleId: module.registryModuleId || fallback.registryModuleId || "",
        versionPin: module.versionPin,
        enabled: module.enabled,
        variableOptions: sets.map((set) => ({
            id: set.id,
            variableName: set.variableName,
            variableType: set.variableType,
            options: [...set.options],
        })),
    });
}

/** The no-code module of a registry module, with its sets, if it has one (a registry module has at most one). */
async function findByRegistryModule(client: WosClient, registryModuleId: string): Promise<NoCodeModule | undefined> {
    try {
        const registryModule = await client.registryModules.read(registryModuleId);
        const id = registryModule.noCodeModuleIds[0];
        return id === undefined ? undefined : await client.noCodeModules.read(id, { include: ["variable-options"] });
    } catch (failure) {
        // No such registry module (or no longer such a no-code module): nothing holds it; the create says why.
        if (WosNotFoundError.isInstance(failure)) return undefined;
        throw failure;
    }
}

/**
 * Enables the registry module for no-code provisioning with its pin, `enabled` and sets, in one request. A
 * lost answer is recovered by the registry module, which has at most one no-code module (see
 * {@link createRecoveringLostAnswer}): one that existed before this create is never taken over.
 */
export async function create(news: PropertyBag): Promise<dynamic.CreateResult> {
    const inputs = news as unknown as NoCodeModuleInputs;
    const sets = inputs.variableOptions ?? [];
    const client = clientFromCredentials();
    return createRecoveringLostAnswer<NoCodeModule>({
        what: describe(inputs),
        noun: "no-code module",
        inputs: news,
        create: async () => {
            const made = await client.noCodeModules.create(inputs.organization, {
                // Options left undefined are left out of the request (the service's defaults apply).
                registryModuleId: inputs.registryModuleId,
                versionPin: inputs.versionPin,
                enabled: inputs.enabled,
                variableOptions: inputs.variableOptions?.map((set) => requestedSet(set)),
            });
            // The module exists now: a failed read must not turn it into an orphan, so ids are paired by order.
            return { ...made, variableOptions: optionSetsOf(made, sets) ?? [] };
        },
        findByUniqueName: () => findByRegistryModule(client, inputs.registryModuleId),
        // An answer that does not name the organization ("") cannot rule the module out.
        couldBeMadeByThisCreate: (found) =>
            found.organization === inputs.organization ||
            // Stryker disable next-line ConditionalExpression,StringLiteral: this service names the organization of every no-code module it answers, so the found module's organization is never empty and this test never decides
            found.organization === "",
        finish: async (found) => {
            const updated = await client.noCodeModules.update(found.id, {
                versionPin: inputs.versionPin,
                enabled: inputs.enabled ?? false,
                variableOptions: desiredSets(sets, found.variableOptions),
            });
            return withOptionSets(client, updated, sets);
        },
        outputs: (module) => outputsFrom(module, inputs, sets),
        partialOutputs: (found) => outputsFrom(found, inputs, sets),
    });
}

/**
 * The whole desired list for an update: each set of the program, with the id of the module's set of the
 * same variable name when there is one (so it is replaced in place and keeps its id). Sets not listed are
 * removed by the service.
 */
function desiredSets(sets: readonly VariableOptionsInput[], current: readonly VariableOptions[]) {
    const idByName = new Map(current.map((set) => [set.variableName, set.id]));
    return sets.map((set) => requestedSet(set, idByName.get(set.variableName)));
}

/**
 * Reads the module as the service holds it now, sets included, so `pulumi refresh` shows drift (also as new
 * inputs). A module that is gone reads as gone.
 */
export async function read(id: string, props?: PropertyBag): Promise<dynamic.ReadResult> {
    const state = (props ?? {}) as Partial<NoCodeModuleOutputs>;
    const client = clientFromCredentials();
    const module = await unlessGone(describe(state, id), "read", () =>
        client.noCodeModules.read(id, { include: ["variable-options"] }),
    );
    if (!module) return {};
    const outs = outputsFrom(module, state, state.variableOptions ?? []);
    return { id, props: outs, inputs: outs };
}

/**
 * Changes pin, `enabled` and the sets in place with one PATCH that sends only what changed. Changed sets
 * go as the whole desired list, each with the id of the module's current set of the same variable name (read
 * first, so a set changed outside Pulumi is still replaced rather than duplicated).
 */
export async function update(id: string, olds: PropertyBag, news: PropertyBag): Promise<dynamic.UpdateResult> {
    const inputs = news as unknown as NoCodeModuleInputs;
    const sets = inputs.variableOptions ?? [];
    const changed = new Set(changedInPlace(olds, news));
    const setsChanged = changed.has("variableOptions");
    const client = clientFromCredentials();
    try {
        let module: NoCodeModule;
        if (changed.size === 0) {
            module = await client.noCodeModules.read(id, { include: ["variable-options"] });
        } else {
            const current = setsChanged
                ? (await client.noCodeModules.read(id, { include: ["variable-options"] })).variableOptions
                : [];
            const updated = await client.noCodeModules.update(id, {
                // `changedInPlace` names versionPin only when the program gives one.
                ...(changed.has("versionPin") ? { versionPin: inputs.versionPin } : {}),
                ...(changed.has("enabled") ? { enabled: inputs.enabled ?? false } : {}),
                ...(setsChanged ? { variableOptions: desiredSets(sets, current) } : {}),
            });
            module = await withOptionSets(client, updated, setsChanged ? sets : undefined);
        }
        return { outs: outputsFrom(module, inputs, sets) };
    } catch (failure) {
        throw operationError(describe(inputs, id), "update", failure);
    }
}

/**
 * Disables no-code provisioning for the registry module (deletes the no-code module). Workspaces made from
 * it stay. One already gone counts as deleted.
 */
export async function delete_(id: string, props?: PropertyBag): Promise<void> {
    const client = clientFromCredentials();
    await unlessGone(describe(props as Partial<NoCodeModuleInputs>, id), "delete", () => client.noCodeModules.delete(id));
}

export { delete_ as delete };
