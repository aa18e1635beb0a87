/**
 * `wos:index:getProjects`: the lookup `lookUpProjects` of `provider/handlers/lookups.ts` (what `wos.getProjects`
 * runs in a program) as an engine invoke. Its piece of the package schema takes its properties from
 * `GetProjectsArgs` and `GetProjectsResult` as the build writes them from their declarations
 * (`plugin/declared.ts`), descriptions (their TSDoc) included.
 *
 * @module
 */
import { lookUpProjects, type GetProjectsArgs } from "../../provider/handlers/lookups";
import type { FunctionBinding } from "../functionBinding";
import type { FunctionSchemaPiece } from "../schemaSpec";
import { getProjectsExample } from "../examples/getProjects";
import { declaredFunction } from "../declaredSchema";
import { describedWithExamples } from "../schemaExamples";

/** The schema of `wos:index:getProjects`. */
export const getProjectsSchema: FunctionSchemaPiece = declaredFunction("getProjects", {
    description: describedWithExamples("The projects of an organization that the token can see, filtered by a name search or exact names, every page of them, as the Terraform provider's `tfe_projects` data source does. None is not an error: the lists are empty.", [getProjectsExample]),
    types: {
        GetProjectsItem: "wos:index:GetProjectsProject",
    },
});

/** `wos:index:getProjects` served by its lookup. */
export const getProjectsBinding: FunctionBinding = {
    schema: getProjectsSchema,
    invoke: (settings, args) => lookUpProjects(settings, args as unknown as GetProjectsArgs),
};
