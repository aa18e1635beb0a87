/**
 * The real logic of the `wos:Variable` dynamic resource, a workspace variable of the `/vars` interface.
 * Called by the thin shell in `provider/variable.ts` through
 * `require("pulumi-wos/dist/provider/handlers/variable")`, a stable module path.
 *
 * A sensitive variable's value cannot be read back, so its value in state is always the last one written
 * by this provider, and `diff` compares the program's value with that, never with the service's `null`.
 *
 * @module
 */
import type * as dynamic from "@pulumi/pulumi/dynamic";
import { z } from "zod";
import type { WosClient } from "../../sdk";
import {
    booleanRule,
    idRule,
    variableCategoryRule,
    variableDescriptionRule,
    variableKeyRule,
    variableValueRule,
    type Variable,
    type VariableCategory,
} from "../../sdk/model";
import { clientFromCredentials } from "./credentials";
import { inputFailures, withRequiredReason } from "./inputChecks";
import { createRecoveringLostAnswer } from "./lostCreateRecovery";
import { operationError } from "./operationErrors";
import { plainOutputs } from "./plainOutputs";
import { REPLACING_INPUTS } from "./replacingInputs";
import { differs, mayBeSame, optionalText, replacingChanges } from "./stateComparison";
import { isUnknown, type PropertyBag } from "./unknownValues";
import { unlessGone } from "./unlessGone";

// Built once: the handler module is loaded once per host process, and `check` runs for every resource of a
// program (building a zod rule, and zod's first parse of it, costs more than the check itself).
/** The inputs of a `wos:Variable` and their rules: the SDK's create options and the workspace. */
const VARIABLE_INPUTS = z.object({
    workspaceId: withRequiredReason(idRule("ws-"), "workspaceId is required (the id of a workspace, 'ws-...')"),
    key: variableKeyRule(),
    /** Default `""`. Reasons never quote it: the rule's messages name the rule, never the value. */
    value: variableValueRule().optional(),
    description: variableDescriptionRule().optional(),
    category: withRequiredReason(variableCategoryRule(), "category is required ('infra' or 'env')"),
    /** Default false. */
    hcl: booleanRule().optional(),
    /** Default false. Write-once: true to false replaces the variable. */
    sensitive: booleanRule().optional(),
});

/** Inputs of a `wos:Variable` once known and checked. */
export type VariableInputs = z.output<typeof VARIABLE_INPUTS>;

/** Outputs: the inputs as the service holds them; `value` of a sensitive variable is the last one written. */
export interface VariableOutputs {
    workspaceId: string;
    key: string;
    value: string;
    description?: string;
    category: VariableCategory;
    hcl: boolean;
    sensitive: boolean;
}

function describe(props: Partial<VariableInputs> | undefined, id?: string): string {
    const known = (value: unknown) => typeof value === "string" && !isUnknown(value);
    const key = known(props?.key) ? ` '${props!.key}'` : "";
    const category = known(props?.category) ? ` (${props!.category})` : "";
    const where = id ? ` ${id}` : "";
    const workspace = known(props?.workspaceId) ? ` in workspace ${props!.workspaceId}` : "";
    return `wos:Variable${key}${category}${where}${workspace}`;
}

/**
 * Validates the inputs with the rules of `sdk/model` before any request (workspace id, key, value and
 * description lengths, category, booleans) and fills the defaults (`value` `""`, `hcl` and `sensitive`
 * false) so that state and program compare equal. Unknown values pass. Reasons never quote the value.
 */
export async function check(_olds: PropertyBag, news: PropertyBag): Promise<dynamic.CheckResult> {
    const failures = inputFailures(VARIABLE_INPUTS, news);
    const inputs: PropertyBag = { ...news };
    if (inputs.value === undefined || inputs.value === null) inputs.value = "";
    if (inputs.hcl === undefined || inputs.hcl === null) inputs.hcl = false;
    if (inputs.sensitive === undefined || inputs.sensitive === null) inputs.sensitive = false;
    return { inputs, failures };
}

const asValue = (value: unknown) => value ?? "";
const asFlag = (value: unknown) => value ?? false;

/** The in-place changes between state and inputs (replacement cases are decided by {@link diff}). */
function changedInPlace(olds: PropertyBag, news: PropertyBag): string[] {
    const changed: string[] = [];
    if (differs(olds.key, news.key)) changed.push("key");
    if (differs(olds.value, news.value, asValue)) changed.push("value");
    if (differs(olds.description, news.description, optionalText)) changed.push("description");
    if (differs(olds.category, news.category)) changed.push("category");
    if (differs(olds.hcl, news.hcl, asFlag)) changed.push("hcl");
    if (differs(olds.sensitive, news.sensitive, asFlag)) changed.push("sensitive");
    return changed;
}

/**
 * Every input whose change {@link diff} sees, replacing or in place: what the native plugin's detailed diff
 * lists. Decided without a request.
 */
export function changedProperties(olds: PropertyBag, news: PropertyBag): string[] {
    const changed = changedInPlace(olds, news);
    return differs(olds.workspaceId, news.workspaceId) ? ["workspaceId", ...changed] : changed;
}

/**
 * Compares state and inputs without a request. Replacement: another workspace; the key or category of a
 * sensitive variable (the service refuses to rename one); sensitive true to false (write-once). The new
 * variable is made after the old one is deleted when both would have the same key and category in the same
 * workspace, which the service allows only once.
 */
export async function diff(_id: string, olds: PropertyBag, news: PropertyBag): Promise<dynamic.DiffResult> {
    const replaces = replacingChanges(REPLACING_INPUTS.Variable, olds, news);
    // What replaces only a sensitive variable is no input's own rule, so it is said here rather than by a tag.
    if (olds.sensitive === true) {
        if (differs(olds.key, news.key)) replaces.push("key");
        if (differs(olds.category, news.category)) replaces.push("category");
        if (news.sensitive !== true) replaces.push("sensitive");
    }
    const changes = changedProperties(olds, news).length > 0;
    const deleteBeforeReplace =
        replaces.length > 0 &&
        mayBeSame(olds.workspaceId, news.workspaceId) &&
        mayBeSame(olds.key, news.key) &&
        mayBeSame(olds.category, news.category);
    return { changes, replaces, deleteBeforeReplace };
}

/**
 * Outputs from what the service answered; a sensitive value comes back as `null`, so the value written
 * (or, on read, the one in state) stands in for it.
 */
function outputsFrom(variable: Variable, writtenValue: string, workspaceId: string): VariableOutputs {
    return plainOutputs<VariableOutputs>({
        workspaceId: variable.workspaceId || workspaceId,
        key: variable.key,
        value: variable.sensitive || variable.value === null ? writtenValue : variable.value,
        description: variable.description ?? undefined,
        category: variable.category,
        hcl: variable.hcl,
        sensitive: variable.sensitive,
    });
}

/**
 * The variable of the workspace with this key and category, if any: one request when the client already
 * knows the workspace's name and the workspace has variables, else two (see `Variables.list`).
 */
async function findByKey(client: WosClient, inputs: VariableInputs): Promise<Variable | undefined> {
    const variables = await client.variables.list(inputs.workspaceId);
    return variables.find((variable) => variable.key === inputs.key && variable.category === inputs.category);
}

/**
 * Creates the variable. A lost answer is recovered by the variable's key and category in the workspace (see
 * {@link createRecoveringLostAnswer}); a refusal is reported as the service said it.
 */
export async function create(news: PropertyBag): Promise<dynamic.CreateResult> {
    const inputs = news as unknown as VariableInputs;
    const value = inputs.value ?? "";
    const client = clientFromCredentials();
    return createRecoveringLostAnswer<Variable>({
        what: describe(inputs),
        noun: "variable",
        inputs: news,
        create: () =>
            client.variables.create(inputs.workspaceId, {
                key: inputs.key,
                value,
                // Left out of the request when undefined (the SDK sends only the options given).
                description: inputs.description,
                category: inputs.category,
                hcl: inputs.hcl ?? false,
                sensitive: inputs.sensitive ?? false,
            }),
        findByUniqueName: () => findByKey(client, inputs),
        // A sensitive variable where the program asked for a plain one was not made by this create.
        couldBeMadeByThisCreate: (found) => !found.sensitive || inputs.sensitive === true,
        finish: (found) =>
            client.variables.update(inputs.workspaceId, found.id, {
                value,
                description: inputs.description ?? null,
                hcl: inputs.hcl ?? false,
                sensitive: inputs.sensitive ?? false,
            }),
        outputs: (variable) => outputsFrom(variable, value, inputs.workspaceId),
        partialOutputs: (found) => outputsFrom(found, value, inputs.workspaceId),
    });
}

/**
 * Reads the variable as the service holds it now (drift shows in `pulumi refresh`, also as new inputs).
 * A sensitive value cannot be read: the one in state is kept. A variable, or workspace, that is gone reads
 * as gone. Without a workspace id in state (a read by id alone), the variable is looked up among all
 * readable ones.
 */
export async function read(id: string, props?: PropertyBag): Promise<dynamic.ReadResult> {
    const state = (props ?? {}) as Partial<VariableOutputs>;
    const client = clientFromCredentials();
    const variable = await unlessGone(describe(state, id), "read", async () =>
        typeof state.workspaceId === "string" && state.workspaceId !== ""
            ? await client.variables.read(state.workspaceId, id)
            : (await client.variables.listEveryReadable()).find((candidate) => candidate.id === id),
    );
    if (!variable) return {};
    const writtenValue = typeof state.value === "string" ? state.value : "";
    // Stryker disable next-line StringLiteral: the service names every variable's workspace, so variable.workspaceId is never empty and this fallback is never used
    const outs = outputsFrom(variable, writtenValue, state.workspaceId ?? "");
    return { id, props: outs, inputs: outs };
}

/**
 * Changes what differs in place with one PATCH: value, description, hcl, sensitive false to true, and for
 * a variable that is not sensitive also key and category. Only changed fields are sent.
 */
export async function update(id: string, olds: PropertyBag, news: PropertyBag): Promise<dynamic.UpdateResult> {
    const inputs = news as unknown as VariableInputs;
    const value = inputs.value ?? "";
    const changed = new Set(changedInPlace(olds, news));
    const client = clientFromCredentials();
    try {
        const variable =
            changed.size === 0
                ? await client.variables.read(inputs.workspaceId, id)
                : await client.variables.update(inputs.workspaceId, id, {
                      ...(changed.has("key") ? { key: inputs.key } : {}),
                      ...(changed.has("value") ? { value } : {}),
                      ...(changed.has("description") ? { description: inputs.description ?? null } : {}),
                      ...(changed.has("category") ? { category: inputs.category } : {}),
                      ...(changed.has("hcl") ? { hcl: inputs.hcl ?? false } : {}),
                      ...(changed.has("sensitive") ? { sensitive: inputs.sensitive ?? false } : {}),
                  });
        return { outs: outputsFrom(variable, value, inputs.workspaceId) };
    } catch (failure) {
        throw operationError(describe(inputs, id), "update", failure);
    }
}

/** Deletes the variable; one already gone counts as deleted. */
export async function delete_(id: string, props?: PropertyBag): Promise<void> {
    const state = (props ?? {}) as Partial<VariableInputs>;
    const client = clientFromCredentials();
    // Every state of a variable holds its workspace id: it is a required input, and an output.
    await unlessGone(describe(state, id), "delete", () => client.variables.delete(state.workspaceId as string, id));
}

export { delete_ as delete };
