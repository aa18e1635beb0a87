/**
 * `wos:index:NoCodeModule`, the plugin's door to the handler of `wos.NoCodeModule` (a registry module enabled
 * for no-code provisioning): `provider/handlers/noCodeModule.ts`, the module the dynamic resource's serialized
 * provider loads. Its piece of the package schema takes its properties from `NoCodeModuleArgs` and the outputs
 * the class `NoCodeModule` declares as the build writes them from their declarations (`plugin/declared.ts`),
 * descriptions (their TSDoc) included.
 *
 * @module
 */
import * as handlers from "../../provider/handlers/noCodeModule";
import { isObject, type PropertyBag } from "../propertyValues";
import type { ResourceBinding } from "../resourceBinding";
import type { ResourceSchemaPiece } from "../schemaSpec";
import { noCodeModuleExample } from "../examples/noCodeModule";
import { declaredResource } from "../declaredSchema";
import { describedWithExamples } from "../schemaExamples";

/** The schema of `wos:index:NoCodeModule`. */
export const noCodeModuleSchema: ResourceSchemaPiece = declaredResource("NoCodeModule", {
    description: describedWithExamples("A module of the organization's private registry enabled for no-code provisioning, with its version pin and the allowed values of some of its variables; its id is the `nocode-…` id. Deleting it disables no-code provisioning for the registry module; workspaces made from it stay.", [noCodeModuleExample]),
    types: {
        NoCodeModuleVariableOptions: "wos:index:NoCodeModuleVariableOptionSet",
        NoCodeModuleVariableOptionsArgs: "wos:index:NoCodeModuleVariableOptions",
    },
});

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
