/**
 * `wos:index:getNoCodeModule`: the lookup `lookUpNoCodeModule` of `provider/handlers/lookups.ts` (what
 * `wos.getNoCodeModule` runs in a program) as an engine invoke. Its piece of the package schema takes its
 * properties from `GetNoCodeModuleArgs` and `GetNoCodeModuleResult` as the build writes them from their
 * declarations (`plugin/declared.ts`), descriptions (their TSDoc) included.
 *
 * @module
 */
import { lookUpNoCodeModule, type GetNoCodeModuleArgs } from "../../provider/handlers/lookups";
import type { FunctionBinding } from "../functionBinding";
import type { FunctionSchemaPiece } from "../schemaSpec";
import { getNoCodeModuleExample } from "../examples/getNoCodeModule";
import { declaredFunction } from "../declaredSchema";
import { describedWithExamples } from "../schemaExamples";

/** The schema of `wos:index:getNoCodeModule`. */
export const getNoCodeModuleSchema: FunctionSchemaPiece = declaredFunction("getNoCodeModule", {
    description: describedWithExamples("Finds a no-code module by its id, with its variable-options sets, as the Terraform provider's `tfe_no_code_module` data source does. Fails when there is none (or it is of another organization than the token's).", [getNoCodeModuleExample]),
    types: {
        GetNoCodeModuleVariableOptions: "wos:index:GetNoCodeModuleVariableOption",
        GetNoCodeModuleWorkspace: "wos:index:GetNoCodeModuleWorkspace",
    },
});

/** `wos:index:getNoCodeModule` served by its lookup. */
export const getNoCodeModuleBinding: FunctionBinding = {
    schema: getNoCodeModuleSchema,
    invoke: (settings, args) => lookUpNoCodeModule(settings, args as unknown as GetNoCodeModuleArgs),
};
