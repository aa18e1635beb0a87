/**
 * `wos:index:ProjectTagBindings`, the plugin's door to the handler of `wos.ProjectTagBindings` (some tags of a
 * project, managed key by key): `provider/handlers/projectTagBindings.ts`, the module the dynamic resource's
 * serialized provider loads. Its piece of the package schema takes its properties from `ProjectTagBindingsArgs`
 * and the outputs the class `ProjectTagBindings` declares as the build writes them from their declarations
 * (`plugin/declared.ts`), descriptions (their TSDoc) included.
 *
 * @module
 */
import * as handlers from "../../provider/handlers/projectTagBindings";
import type { ResourceBinding } from "../resourceBinding";
import type { ResourceSchemaPiece } from "../schemaSpec";
import { projectTagBindingsExample } from "../examples/projectTagBindings";
import { declaredResource } from "../declaredSchema";
import { describedWithExamples } from "../schemaExamples";

/** The schema of `wos:index:ProjectTagBindings`. */
export const projectTagBindingsSchema: ResourceSchemaPiece = declaredResource("ProjectTagBindings", {
    description: describedWithExamples("Tags bound to a project, managed key by key: bindings of keys it does not list are never touched. Its id is the project's id. Use either this or a `Project`'s `tags` for one project, not both.", [projectTagBindingsExample]),
});

/** `wos:index:ProjectTagBindings` served by its handler. */
export const projectTagBindingsBinding: ResourceBinding = {
    schema: projectTagBindingsSchema,
    handlers,
};
