/**
 * `wos:index:NoCodeWorkspace`, the plugin's door to the handler of `wos.NoCodeWorkspace` (a workspace made from
 * a no-code module, upgraded inside `pulumi up`): `provider/handlers/noCodeWorkspace.ts`, the module the dynamic
 * resource's serialized provider loads. Its piece of the package schema takes its properties from
 * `NoCodeWorkspaceArgs` and the outputs the class `NoCodeWorkspace` declares as the build writes them from their
 * declarations (`plugin/declared.ts`), descriptions (their TSDoc) included.
 *
 * @module
 */
import * as handlers from "../../provider/handlers/noCodeWorkspace";
import { joinValues, setValuesApart, valueKey } from "../../provider/handlers/varValuesApart";
import { isObject, isSecret, isUnknown, type PropertyBag, reveal, secret, UNKNOWN } from "../propertyValues";
import type { ResourceBinding } from "../resourceBinding";
import type { ResourceSchemaPiece } from "../schemaSpec";
import { noCodeWorkspaceExample } from "../examples/noCodeWorkspace";
import { declaredResource } from "../declaredSchema";
import { describedWithExamples } from "../schemaExamples";

/** The schema of `wos:index:NoCodeWorkspace`. */
export const noCodeWorkspaceSchema: ResourceSchemaPiece = declaredResource("NoCodeWorkspace", {
    description: describedWithExamples("A workspace made from a no-code module. A change of `vars` or `moduleVersion` upgrades it during `pulumi up`: the plan is started, watched (its statuses and URL in the log of the resource) and confirmed; a failed plan or the deadline fails the update and leaves the vars and version in state as they were, so the next `up` tries again. The value of each sensitive var is a secret.", [noCodeWorkspaceExample]),
    types: {
        NoCodeWorkspaceVar: "wos:index:NoCodeWorkspaceManagedVar",
        NoCodeWorkspaceUpgrade: "wos:index:NoCodeWorkspaceUpgrade",
        NoCodeWorkspaceVarArgs: "wos:index:NoCodeWorkspaceVar",
    },
});

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

/**
 * `wos:index:NoCodeWorkspace` served by its handler. Its inputs are the program's whole vars, secrets where the
 * program put them and each sensitive var's value; its outputs are the dynamic resource's: `vars` without the
 * secret values, `sensitiveValues` with them (a secret: its declaration says `@secret`).
 */
export const noCodeWorkspaceBinding: ResourceBinding = {
    schema: noCodeWorkspaceSchema,
    handlers,
    handlerInputs,
    schemaInputs,
    secretInputs,
    lists: { vars: { identity: ["category", "key"], comparable: (item) => handlers.normalizedVar(item as never) } },
    previewUnknowns(news, olds) {
        const versionLeftOut = news.moduleVersion === undefined ? ["moduleVersion"] : [];
        if (olds === undefined) return ["noCodeUpgradeAvailable", ...versionLeftOut];
        const changed = handlers.changedProperties(olds, news);
        // An upgrade: its run, the version it lands on and the module's newer versions are the service's to tell.
        return changed.includes("vars") || changed.includes("moduleVersion") ? ["noCodeUpgradeAvailable", "lastUpgrade", ...versionLeftOut] : [];
    },
};
