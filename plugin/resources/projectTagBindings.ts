/**
 * `wos:index:ProjectTagBindings`, the plugin's door to the handler of `wos.ProjectTagBindings` (some tags of a
 * project, managed key by key): `provider/handlers/projectTagBindings.ts`, the module the dynamic resource's
 * serialized provider loads. Its piece of the package schema mirrors `ProjectTagBindingsArgs` and the outputs
 * the class `ProjectTagBindings` declares, descriptions included (their TSDoc); the test
 * `tests/plugin/schema.test.ts` fails on any difference.
 *
 * @module
 */
import * as handlers from "../../provider/handlers/projectTagBindings";
import type { ResourceBinding } from "../resourceBinding";
import { type ResourceSchemaPiece } from "../schemaSpec";
import { projectTagBindingsExample } from "../examples/projectTagBindings";
import { describedWithExamples } from "../schemaExamples";

/** The schema of `wos:index:ProjectTagBindings`. */
export const projectTagBindingsSchema: ResourceSchemaPiece = {
    token: "wos:index:ProjectTagBindings",
    spec: {
        description: describedWithExamples("Tags bound to a project, managed key by key: bindings of keys it does not list are never touched. Its id is the project's id. Use either this or a `Project`'s `tags` for one project, not both.", [projectTagBindingsExample]),
        properties: {
            projectId: { type: "string", description: "The project's id." },
            tags: { type: "object", additionalProperties: { type: "string" }, description: "The managed keys and their values as the service holds them." },
        },
        required: ["projectId", "tags"],
        inputProperties: {
            projectId: { type: "string", description: "Id of the project (`prj-…`). Changing it replaces the resource." },
            tags: { type: "object", additionalProperties: { type: "string" }, description: "The keys managed here and their values. Removing a key from the map removes that binding from the\nproject; bindings of other keys are never touched." },
        },
        requiredInputs: ["projectId", "tags"],
    },
    types: {},
};

/** `wos:index:ProjectTagBindings` served by its handler. */
export const projectTagBindingsBinding: ResourceBinding = {
    schema: projectTagBindingsSchema,
    handlers,
};
