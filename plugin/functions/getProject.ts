/**
 * `wos:index:getProject`: the lookup `lookUpProject` of `provider/handlers/lookups.ts` (what `wos.getProject`
 * runs in a program) as an engine invoke. Its piece of the package schema takes its properties from
 * `GetProjectArgs` and `GetProjectResult` as the build writes them from their declarations
 * (`plugin/declared.ts`), descriptions (their TSDoc) included.
 *
 * @module
 */
import { lookUpProject, type GetProjectArgs } from "../../provider/handlers/lookups";
import type { FunctionBinding } from "../functionBinding";
import type { FunctionSchemaPiece } from "../schemaSpec";
import { getProjectExample } from "../examples/getProject";
import { declaredFunction } from "../declaredSchema";
import { describedWithExamples } from "../schemaExamples";

/** The schema of `wos:index:getProject`. */
export const getProjectSchema: FunctionSchemaPiece = declaredFunction("getProject", {
    description: describedWithExamples("Finds the project of an organization by its name (in any case), with its duration and tags. Fails when there is none (or the token may not see it).", [getProjectExample]),
});

/** `wos:index:getProject` served by its lookup. */
export const getProjectBinding: FunctionBinding = {
    schema: getProjectSchema,
    invoke: (settings, args) => lookUpProject(settings, args as unknown as GetProjectArgs),
};
