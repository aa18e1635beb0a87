/**
 * `wos:index:NoCodeWorkspace`, the plugin's door to the handler of `wos.NoCodeWorkspace` (a workspace made
 * from a no-code module, upgraded inside `pulumi up`): `provider/handlers/noCodeWorkspace.ts`, the module the
 * dynamic resource's serialized provider loads. Its piece of the package schema mirrors `NoCodeWorkspaceArgs`
 * and the outputs the class `NoCodeWorkspace` declares, descriptions included (their TSDoc); the test
 * `tests/plugin/schema.test.ts` fails on any difference.
 *
 * @module
 */
import * as handlers from "../../provider/handlers/noCodeWorkspace";
import { joinValues, setValuesApart, valueKey } from "../../provider/handlers/varValuesApart";
import { isObject, isSecret, isUnknown, type PropertyBag, reveal, secret, UNKNOWN } from "../propertyValues";
import type { ResourceBinding } from "../resourceBinding";
import { typeRef, type ObjectTypeSpec, type ResourceSchemaPiece } from "../schemaSpec";
import { noCodeWorkspaceExample } from "../examples/noCodeWorkspace";
import { describedWithExamples } from "../schemaExamples";

/** The tokens of the object types of its properties. */
const TYPES = {
    noCodeWorkspaceManagedVar: "wos:index:NoCodeWorkspaceManagedVar",
    noCodeWorkspaceUpgrade: "wos:index:NoCodeWorkspaceUpgrade",
    noCodeWorkspaceVar: "wos:index:NoCodeWorkspaceVar",
} as const;

/** The fields of a var, described alike where the program gives them and where the state holds them. */
const VAR_PROPERTIES: ObjectTypeSpec["properties"] = {
    key: { type: "string", description: "The variable's name, 1 to 128 characters; for `infra`, a variable of the module's pinned version." },
    value: { type: "string", description: "Default `\"\"`; one of the options when the module has a set for this variable." },
    category: { type: "string", description: "`infra` (a module variable) or `env` (an environment variable of the runs)." },
    description: { type: "string", description: "At most 512 characters." },
    hcl: { type: "boolean", description: "Evaluate the value as configuration-language code; default false." },
    sensitive: { type: "boolean", description: "Write-only once written; default false." },
};

/** The schema of `wos:index:NoCodeWorkspace`. */
export const noCodeWorkspaceSchema: ResourceSchemaPiece = {
    token: "wos:index:NoCodeWorkspace",
    spec: {
        description: describedWithExamples("A workspace made from a no-code module. A change of `vars` or `moduleVersion` upgrades it during `pulumi up`: the plan is started, watched (its statuses and URL in the log of the resource) and confirmed; a failed plan or the deadline fails the update and leaves the vars and version in state as they were, so the next `up` tries again. The value of each sensitive var is a secret.", [noCodeWorkspaceExample]),
        properties: {
            noCodeModuleId: { type: "string", description: "The no-code module the workspace was made from." },
            projectId: { type: "string", description: "The project the workspace is in." },
            name: { type: "string", description: "The workspace's name." },
            description: { type: "string", description: "The description, when it has one." },
            autoApply: { type: "boolean", description: "Whether runs apply automatically." },
            executionMode: { type: "string", description: "`remote` or `agent`." },
            agentPoolId: { type: "string", description: "The agent pool, with `agent`." },
            sourceName: { type: "string", description: "Where the workspace says it was made." },
            sourceUrl: { type: "string", description: "The URL shown with the source name." },
            vars: { type: "array", items: { $ref: typeRef(TYPES.noCodeWorkspaceManagedVar) }, description: "The vars this resource manages, as the service holds them, without their secret values (those are in\n`NoCodeWorkspace.sensitiveValues`; of a sensitive var, the last value written)." },
            sensitiveValues: { type: "object", additionalProperties: { type: "string" }, description: "The secret values of the vars (of sensitive vars, the last ones written), by `category:key` (e.g.\n`env:ARCHIVE_KEY`): a secret, kept apart so that `pulumi preview --diff` shows every other value.", secret: true },
            moduleVersion: { type: "string", description: "The module version the workspace runs, also when the program left it out." },
            upgradeTimeoutSeconds: { type: "number", description: "The upgrade deadline the program gave, in seconds." },
            rolloutWave: { type: "string", description: "The rollout wave the program gave." },
            noCodeUpgradeAvailable: { type: "boolean", description: "Whether the module has a newer no-code version than the one the workspace runs." },
            lastUpgrade: { $ref: typeRef(TYPES.noCodeWorkspaceUpgrade), description: "The last upgrade this resource ran, if any." },
        },
        required: ["noCodeModuleId", "projectId", "name", "autoApply", "executionMode", "vars", "moduleVersion", "noCodeUpgradeAvailable"],
        inputProperties: {
            noCodeModuleId: { type: "string", description: "Id of the no-code module (`nocode-…`) to make the workspace from. Changing it replaces the workspace." },
            projectId: { type: "string", description: "Id of the project (`prj-…`); the caller must be allowed to create workspaces in it. Changing it moves the workspace." },
            name: { type: "string", description: "1 to 90 letters, numbers, `-` and `_`; unique in the organization. Changes in place." },
            description: { type: "string", description: "At most 256 characters; default `\"\"`." },
            autoApply: { type: "boolean", description: "Apply automatically after a successful plan; default false." },
            executionMode: { type: "string", description: "`remote` (default) or `agent`." },
            agentPoolId: { type: "string", description: "The agent pool (`apool-…`): required with `agent`, refused with `remote`." },
            sourceName: { type: "string", description: "Shown on the workspace as the application that made it." },
            sourceUrl: { type: "string", description: "A URL shown with `NoCodeWorkspaceArgs.sourceName`." },
            vars: { type: "array", items: { $ref: typeRef(TYPES.noCodeWorkspaceVar) }, description: "The vars this resource manages (other variables of the workspace are left alone). A change here, in\nanything but their order, upgrades the workspace; a var removed from the list is deleted. The value of\na sensitive var is a secret in state." },
            moduleVersion: { type: "string", description: "The module version the workspace must run. When given it must be the no-code module's pinned version\nwhen the workspace is made or upgraded (otherwise the create or update fails before anything changes).\nA change here upgrades the workspace." },
            upgradeTimeoutSeconds: { type: "number", description: "The whole upgrade's deadline, in seconds; default 1800. Changing it alone changes nothing." },
            rolloutWave: { type: "string", description: "The rollout wave the workspace is in, e.g. `1 of 3`, which the message of a failed upgrade names (a\nwave's workspaces depend on the wave before, so the rollout stops there). Set by `NoCodeProject`'s\n`rollout`; at most 100 characters. Changing it alone changes nothing." },
        },
        requiredInputs: ["noCodeModuleId", "projectId", "name"],
    },
    types: {
        [TYPES.noCodeWorkspaceManagedVar]: {
            description: "A var as the state holds it (`NoCodeWorkspace.vars`): the client's var with `hcl` and `sensitive`\nalways given. Its `value` is absent when it is secret (a sensitive var, or a value the program made\nsecret): that value is in `NoCodeWorkspace.sensitiveValues`.",
            type: "object",
            properties: VAR_PROPERTIES,
            required: ["key", "category", "hcl", "sensitive"],
        },
        [TYPES.noCodeWorkspaceUpgrade]: {
            description: "The last upgrade a `NoCodeWorkspace` ran.",
            type: "object",
            properties: {
                id: { type: "string", description: "`run-…`" },
                status: { type: "string", description: "How it ended: `applied`, `planned_and_finished`, or the status that failed it." },
                planUrl: { type: "string", description: "The plan's run page." },
            },
            required: ["id", "status", "planUrl"],
        },
        [TYPES.noCodeWorkspaceVar]: {
            description: "One var of a no-code workspace (`NoCodeWorkspaceArgs.vars`): the client's var, each field an input.",
            type: "object",
            properties: VAR_PROPERTIES,
            required: ["key", "category"],
        },
    },
};

/** The part of a var this binding reads. */
interface VarLike {
    key: string;
    category: string;
    value?: string;
    sensitive?: boolean;
}

/** Whether a var is (or may be: not known yet) sensitive. */
function maybeSensitive(item: unknown): boolean {
    const sensitive = isObject(item) ? reveal(item.sensitive) : undefined;
    return sensitive === true || isUnknown(sensitive);
}

/**
 * The inputs as the handler takes them (see `varValuesApart.ts`): `vars` without the values that are secret
 * (a sensitive var's, one the program made secret, or any value of a var or list secret as a whole) and
 * those values in `sensitiveValues`, as the dynamic resource's class sends them. Its outputs then keep the
 * same values apart, in the secret `sensitiveValues`.
 */
function handlerInputs(marked: PropertyBag): PropertyBag {
    const plain = reveal(marked);
    if (!Array.isArray(plain.vars)) return plain;
    const wholeListSecret = isSecret(marked.vars);
    const markedItems = (isSecret(marked.vars) ? marked.vars.value : marked.vars) as unknown[];
    const secretKeys = new Set<string>();
    (plain.vars as unknown[]).forEach((item, index) => {
        if (!isObject(item)) return;
        const markedItem = markedItems[index];
        const valueSecret = wholeListSecret || isSecret(markedItem) || (isObject(markedItem) && isSecret(markedItem.value));
        if (valueSecret || maybeSensitive(item)) secretKeys.add(valueKey(item as unknown as VarLike));
    });
    // Malformed items are kept as they are, for the handler's check to name.
    const wellFormed = (plain.vars as unknown[]).every((item) => isObject(item));
    if (!wellFormed) return plain;
    const { vars, sensitiveValues } = setValuesApart(plain.vars as VarLike[], secretKeys);
    return Object.keys(sensitiveValues).length > 0 || secretKeys.size > 0 ? { ...plain, vars, sensitiveValues } : { ...plain, vars };
}

/** The inputs as the schema declares them: each var whole again, no `sensitiveValues`. */
function schemaInputs(plain: PropertyBag): PropertyBag {
    const { sensitiveValues, ...rest } = plain;
    if (!Array.isArray(rest.vars) || !rest.vars.every((item) => isObject(item))) return rest;
    return { ...rest, vars: joinValues(rest.vars as unknown as VarLike[], sensitiveValues, UNKNOWN) };
}

/** The inputs with the value of each sensitive var a secret. */
function secretInputs(inputs: PropertyBag): PropertyBag {
    if (!Array.isArray(inputs.vars)) return inputs;
    const vars = inputs.vars.map((item: unknown) =>
        isObject(item) && item.value !== undefined && maybeSensitive(item) ? { ...item, value: secret(item.value) } : item,
    );
    return { ...inputs, vars };
}

/** The outputs with `sensitiveValues` a secret: it holds nothing else than secret values. */
function secretOutputs(outputs: PropertyBag): PropertyBag {
    return outputs.sensitiveValues === undefined ? outputs : { ...outputs, sensitiveValues: secret(outputs.sensitiveValues) };
}

/**
 * `wos:index:NoCodeWorkspace` served by its handler. Its inputs are the program's whole vars, secrets where the
 * program put them and each sensitive var's value; its outputs are the dynamic resource's: `vars` without the
 * secret values, `sensitiveValues` with them, a secret.
 */
export const noCodeWorkspaceBinding: ResourceBinding = {
    schema: noCodeWorkspaceSchema,
    handlers,
    handlerInputs,
    schemaInputs,
    secretInputs,
    secretOutputs,
    lists: { vars: { identity: ["category", "key"], comparable: (item) => handlers.normalizedVar(item as never) } },
    previewUnknowns(news, olds) {
        const versionLeftOut = news.moduleVersion === undefined ? ["moduleVersion"] : [];
        if (olds === undefined) return ["noCodeUpgradeAvailable", ...versionLeftOut];
        const changed = handlers.changedProperties(olds, news);
        // An upgrade: its run, the version it lands on and the module's newer versions are the service's to tell.
        return changed.includes("vars") || changed.includes("moduleVersion") ? ["noCodeUpgradeAvailable", "lastUpgrade", ...versionLeftOut] : [];
    },
};
