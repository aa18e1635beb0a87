/**
 * `wos:index:Variable`, the plugin's door to the handler of `wos.Variable` (a variable of a workspace,
 * optionally sensitive): `provider/handlers/variable.ts`, the module the dynamic resource's serialized provider
 * loads. Its piece of the package schema takes its properties from `VariableArgs` and the outputs the class
 * `Variable` declares as the build writes them from their declarations (`plugin/declared.ts`), descriptions
 * (their TSDoc) included.
 *
 * @module
 */
import * as handlers from "../../provider/handlers/variable";
import { isObject, type PropertyBag, reveal, secret } from "../propertyValues";
import type { ResourceBinding } from "../resourceBinding";
import type { ResourceSchemaPiece } from "../schemaSpec";
import { variableExample } from "../examples/variable";
import { declaredResource } from "../declaredSchema";
import { describedWithExamples } from "../schemaExamples";

/** The schema of `wos:index:Variable`. */
export const variableSchema: ResourceSchemaPiece = declaredResource("Variable", {
    description: describedWithExamples("A variable of a workspace, optionally sensitive: the value of a sensitive variable is write-only on the service and always a secret here.", [variableExample]),
});

/**
 * Whether `sensitive` may be true: anything but a plain `false` or nothing. One not known yet (a preview)
 * counts as possibly true, so the value is protected in any case, as the dynamic resource's class does.
 */
function maybeSensitive(sensitive: unknown): boolean {
    const plain = reveal(sensitive);
    return plain !== undefined && plain !== null && plain !== false;
}

/** The bag with its `value` a secret when the variable is (or may be) sensitive. */
function valueSecretWhenSensitive(bag: PropertyBag): PropertyBag {
    if (!isObject(bag) || bag.value === undefined || !maybeSensitive(bag.sensitive)) return bag;
    return { ...bag, value: secret(bag.value) };
}

/** `wos:index:Variable` served by its handler; the value of a sensitive variable is always a secret. */
export const variableBinding: ResourceBinding = {
    schema: variableSchema,
    handlers,
    secretInputs: valueSecretWhenSensitive,
    secretOutputs: valueSecretWhenSensitive,
};
