/**
 * `wos:index:Project`, the plugin's door to the handler of `wos.Project` (a project of an organization, with its
 * description, auto-destroy duration and, optionally, its whole tag set): `provider/handlers/project.ts`, the
 * module the dynamic resource's serialized provider loads. Its piece of the package schema takes its properties
 * from `ProjectArgs` and the outputs the class `Project` declares as the build writes them from their
 * declarations (`plugin/declared.ts`), descriptions (their TSDoc) included.
 *
 * @module
 */
import * as handlers from "../../provider/handlers/project";
import type { ResourceBinding } from "../resourceBinding";
import type { ResourceSchemaPiece } from "../schemaSpec";
import { projectExample } from "../examples/project";
import { declaredResource } from "../declaredSchema";
import { describedWithExamples } from "../schemaExamples";

/** The schema of `wos:index:Project`. */
export const projectSchema: ResourceSchemaPiece = declaredResource("Project", {
    description: describedWithExamples("A project of an organization of the Workspace Organization Service, with its description, auto-destroy duration and, optionally, its whole tag set. Changing its organization replaces it; everything else changes in place.", [projectExample]),
});

/** `wos:index:Project` served by its handler. */
export const projectBinding: ResourceBinding = {
    schema: projectSchema,
    handlers,
};
