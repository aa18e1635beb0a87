/**
 * `wos:index:Variable`, the plugin's door to the handler of `wos.Variable` (a variable of a workspace,
 * optionally sensitive): `provider/handlers/variable.ts`, the module the dynamic resource's serialized
 * provider loads. Its piece of the package schema mirrors `VariableArgs` and the outputs the class `Variable`
 * declares, descriptions included (their TSDoc); the test `tests/plugin/schema.test.ts` fails on any
 * difference.
 *
 * @module
 */
import * as handlers from "../../provider/handlers/variable";
import { isObject, type PropertyBag, reveal, secret } from "../propertyValues";
import type { ResourceBinding } from "../resourceBinding";
import { type ResourceSchemaPiece } from "../schemaSpec";
import { variableExample } from "../examples/variable";
import { describedWithExamples } from "../schemaExamples";

/** The schema of `wos:index:Variable`. */
export const variableSchema: ResourceSchemaPiece = {
    token: "wos:index:Variable",
    spec: {
        description: describedWithExamples("A variable of a workspace, optionally sensitive: the value of a sensitive variable is write-only on the service and always a secret here.", [variableExample]),
        properties: {
            workspaceId: { type: "string", description: "The owning workspace's id." },
            key: { type: "string", description: "The variable's name." },
            value: { type: "string", description: "The value; for a sensitive variable the last one written, as a secret." },
            description: { type: "string", description: "The description, when it has one." },
            category: { type: "string", description: "`infra` or `env`." },
            hcl: { type: "boolean", description: "Whether the value is configuration-language code." },
            sensitive: { type: "boolean", description: "Whether the value is write-only." },
        },
        required: ["workspaceId", "key", "value", "category", "hcl", "sensitive"],
        inputProperties: {
            workspaceId: { type: "string", description: "Id of the owning workspace (`ws-…`). Changing it replaces the variable." },
            key: { type: "string", description: "The variable's name, unique per workspace and category. Changing it replaces a sensitive variable." },
            value: { type: "string", description: "The value; default `\"\"`. A sensitive variable's value is kept as a secret in state." },
            description: { type: "string", description: "At most 512 characters." },
            category: { type: "string", description: "`infra` (a configuration variable) or `env` (an environment variable). Changing it replaces a sensitive variable." },
            hcl: { type: "boolean", description: "Evaluate the value as configuration-language code; default false; no effect for `env`." },
            sensitive: { type: "boolean", description: "Write-once secrecy: the service never shows the value again. Default false. Turning it on changes the\nvariable in place; turning it off replaces it." },
        },
        requiredInputs: ["workspaceId", "key", "category"],
    },
    types: {},
};

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
