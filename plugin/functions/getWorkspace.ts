/**
 * `wos:index:getWorkspace`: the lookup `lookUpWorkspace` of `provider/handlers/lookups.ts` (what
 * `wos.getWorkspace` runs in a program) as an engine invoke. Its piece of the package schema takes its
 * properties from `GetWorkspaceArgs` and `GetWorkspaceResult` as the build writes them from their declarations
 * (`plugin/declared.ts`), descriptions (their TSDoc) included.
 *
 * @module
 */
import { lookUpWorkspace, type GetWorkspaceArgs } from "../../provider/handlers/lookups";
import type { FunctionBinding } from "../functionBinding";
import type { FunctionSchemaPiece } from "../schemaSpec";
import { getWorkspaceExample } from "../examples/getWorkspace";
import { declaredFunction } from "../declaredSchema";
import { describedWithExamples } from "../schemaExamples";

/** The schema of `wos:index:getWorkspace`. */
export const getWorkspaceSchema: FunctionSchemaPiece = declaredFunction("getWorkspace", {
    description: describedWithExamples("Finds a workspace of an organization by its name (in any case), as the Terraform provider's `tfe_workspace` data source does. Fails when there is none (or the token may not read it).", [getWorkspaceExample]),
});

/** `wos:index:getWorkspace` served by its lookup. */
export const getWorkspaceBinding: FunctionBinding = {
    schema: getWorkspaceSchema,
    invoke: (settings, args) => lookUpWorkspace(settings, args as unknown as GetWorkspaceArgs),
};
