/**
 * `wos:index:getWorkspaces`: the lookup `lookUpWorkspaces` of `provider/handlers/lookups.ts` (what
 * `wos.getWorkspaces` runs in a program) as an engine invoke. Its piece of the package schema takes its
 * properties from `GetWorkspacesArgs` and `GetWorkspacesResult` as the build writes them from their declarations
 * (`plugin/declared.ts`), descriptions (their TSDoc) included.
 *
 * @module
 */
import { lookUpWorkspaces, type GetWorkspacesArgs } from "../../provider/handlers/lookups";
import type { FunctionBinding } from "../functionBinding";
import type { FunctionSchemaPiece } from "../schemaSpec";
import { getWorkspacesExample } from "../examples/getWorkspaces";
import { declaredFunction } from "../declaredSchema";
import { describedWithExamples } from "../schemaExamples";

/** The schema of `wos:index:getWorkspaces`. */
export const getWorkspacesSchema: FunctionSchemaPiece = declaredFunction("getWorkspaces", {
    description: describedWithExamples("The workspaces of an organization that the token can read, filtered by a name search and a project, every page of them, as the Terraform provider's `tfe_workspace_ids` data source does. None is not an error: the lists are empty.", [getWorkspacesExample]),
    types: {
        GetWorkspaceResult: "wos:index:GetWorkspacesWorkspace",
    },
});

/** `wos:index:getWorkspaces` served by its lookup. */
export const getWorkspacesBinding: FunctionBinding = {
    schema: getWorkspacesSchema,
    invoke: (settings, args) => lookUpWorkspaces(settings, args as unknown as GetWorkspacesArgs),
};
