/**
 * `wos:index:NoCodeModule`, the plugin's door to the handler of `wos.NoCodeModule` (a registry module enabled
 * for no-code provisioning): `provider/handlers/noCodeModule.ts`, the module the dynamic resource's serialized
 * provider loads. Its piece of the package schema mirrors `NoCodeModuleArgs` and the outputs the class
 * `NoCodeModule` declares, descriptions included (their TSDoc); the test `tests/plugin/schema.test.ts` fails
 * on any difference.
 *
 * @module
 */
import * as handlers from "../../provider/handlers/noCodeModule";
import { isObject, type PropertyBag } from "../propertyValues";
import type { ResourceBinding } from "../resourceBinding";
import { typeRef, type ObjectTypeSpec, type ResourceSchemaPiece } from "../schemaSpec";
import { noCodeModuleExample } from "../examples/noCodeModule";
import { describedWithExamples } from "../schemaExamples";

/** The tokens of the object types of its properties. */
const TYPES = {
    noCodeModuleVariableOptionSet: "wos:index:NoCodeModuleVariableOptionSet",
    noCodeModuleVariableOptions: "wos:index:NoCodeModuleVariableOptions",
} as const;

/**
 * The fields of a variable-options set as the service holds it, with its id: the resource's output and the
 * lookup `getNoCodeModule` answer the same shape.
 */
export const VARIABLE_OPTION_SET_FIELDS: Omit<ObjectTypeSpec, "description"> = {
    type: "object",
    properties: {
        id: { type: "string", description: "`ncvaropt-…`" },
        variableName: { type: "string", description: "The module variable the set restricts." },
        variableType: { type: "string", description: "That variable's declared type (`string`, `number`, ...)." },
        options: { type: "array", items: { type: "string" }, description: "The allowed values, as text." },
    },
    required: ["id", "variableName", "variableType", "options"],
};

/** The schema of `wos:index:NoCodeModule`. */
export const noCodeModuleSchema: ResourceSchemaPiece = {
    token: "wos:index:NoCodeModule",
    spec: {
        description: describedWithExamples("A module of the organization's private registry enabled for no-code provisioning, with its version pin and the allowed values of some of its variables; its id is the `nocode-…` id. Deleting it disables no-code provisioning for the registry module; workspaces made from it stay.", [noCodeModuleExample]),
        properties: {
            organization: { type: "string", description: "The organization's name." },
            registryModuleId: { type: "string", description: "The registry module's id (`mod-…`)." },
            versionPin: { type: "string", description: "The pinned module version, also when the program left it out." },
            enabled: { type: "boolean", description: "Whether workspaces may be made from the module." },
            variableOptions: { type: "array", items: { $ref: typeRef(TYPES.noCodeModuleVariableOptionSet) }, description: "The variable-options sets, each with its id." },
        },
        required: ["organization", "registryModuleId", "versionPin", "enabled", "variableOptions"],
        inputProperties: {
            organization: { type: "string", description: "Name of the organization whose registry holds the module; default: the stack config `wos:organization`,\nelse the environment variable `WOS_ORGANIZATION`. Changing it replaces the no-code module." },
            registryModuleId: { type: "string", description: "Id of the registry module (`mod-…`); a registry module has at most one no-code module. Changing it replaces the no-code module." },
            versionPin: { type: "string", description: "The module version no-code workspaces use, an existing version such as `1.1.0`. Default: the module's\nhighest version when the no-code module is made; leaving it out later keeps the pin as it is." },
            enabled: { type: "boolean", description: "Whether workspaces may be made from the module; default false." },
            variableOptions: { type: "array", items: { $ref: typeRef(TYPES.noCodeModuleVariableOptions) }, description: "The module's whole list of variable-options sets, one per variable name. Their order does not matter;\na set keeps its id while its variable stays listed, and a set dropped from the list is removed." },
        },
        requiredInputs: ["registryModuleId"],
    },
    types: {
        [TYPES.noCodeModuleVariableOptionSet]: {
            description: "A variable-options set as the service holds it (`NoCodeModule.variableOptions`).",
            ...VARIABLE_OPTION_SET_FIELDS,
        },
        [TYPES.noCodeModuleVariableOptions]: {
            description: "One set of allowed values of a module variable (`NoCodeModuleArgs.variableOptions`).",
            type: "object",
            properties: {
                variableName: { type: "string", description: "A variable of the pinned module version." },
                variableType: { type: "string", description: "The variable's declared type, as the configuration language writes it: `string`, `number`, `map(string)`..." },
                options: { type: "array", items: { oneOf: [{ type: "string" }, { type: "number" }, { type: "boolean" }] }, description: "The allowed values, at least one; numbers and booleans are kept as their text." },
            },
            required: ["variableName", "variableType", "options"],
        },
    },
};

/**
 * The inputs as the schema declares them: the handler's read answers the sets as the service holds them, each
 * with its `ncvaropt-…` id, which is an output only (an input set has no `id`, and `Check` refuses one). So an
 * import answers inputs that check, and the code the CLI writes from them is the program's.
 */
function schemaInputs(plain: PropertyBag): PropertyBag {
    if (!Array.isArray(plain.variableOptions)) return plain;
    return {
        ...plain,
        variableOptions: plain.variableOptions.map((set: unknown) =>
            isObject(set) ? Object.fromEntries(Object.entries(set).filter(([key]) => key !== "id")) : set,
        ),
    };
}

/** `wos:index:NoCodeModule` served by its handler. */
export const noCodeModuleBinding: ResourceBinding = {
    schema: noCodeModuleSchema,
    handlers,
    schemaInputs,
    lists: { variableOptions: { identity: ["variableName"] } },
    previewUnknowns(news, olds) {
        // The service gives each new set its id, and resolves a pin left out when it makes the module.
        if (olds === undefined) return ["variableOptions", ...(news.versionPin === undefined ? ["versionPin"] : [])];
        return handlers.changedProperties(olds, news).includes("variableOptions") ? ["variableOptions"] : [];
    },
};
