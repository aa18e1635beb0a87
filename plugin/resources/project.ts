/**
 * `wos:index:Project`, the plugin's door to the handler of `wos.Project` (a project of an organization, with
 * its description, auto-destroy duration and, optionally, its whole tag set): `provider/handlers/project.ts`,
 * the module the dynamic resource's serialized provider loads. Its piece of the package schema mirrors
 * `ProjectArgs` and the outputs the class `Project` declares, descriptions included (their TSDoc); the test
 * `tests/plugin/schema.test.ts` fails on any difference.
 *
 * @module
 */
import * as handlers from "../../provider/handlers/project";
import type { ResourceBinding } from "../resourceBinding";
import { type ResourceSchemaPiece } from "../schemaSpec";
import { projectExample } from "../examples/project";
import { describedWithExamples } from "../schemaExamples";

/** The schema of `wos:index:Project`. */
export const projectSchema: ResourceSchemaPiece = {
    token: "wos:index:Project",
    spec: {
        description: describedWithExamples("A project of an organization of the Workspace Organization Service, with its description, auto-destroy duration and, optionally, its whole tag set. Changing its organization replaces it; everything else changes in place.", [projectExample]),
        properties: {
            organization: { type: "string", description: "The organization's name." },
            name: { type: "string", description: "The project's name." },
            description: { type: "string", description: "The description, when it has one." },
            autoDestroyActivityDuration: { type: "string", description: "The auto-destroy activity duration, when set." },
            tags: { type: "object", additionalProperties: { type: "string" }, description: "The tag set, when `ProjectArgs.tags` manages it." },
        },
        required: ["organization", "name"],
        inputProperties: {
            organization: { type: "string", description: "Name of the organization that owns the project; default: the stack config `wos:organization`, else the\nenvironment variable `WOS_ORGANIZATION`. Changing it replaces the project." },
            name: { type: "string", description: "3 to 40 characters: letters, numbers, spaces, `-` and `_`; no leading or trailing space. Unique per organization." },
            description: { type: "string", description: "At most 256 characters." },
            autoDestroyActivityDuration: { type: "string", description: "Default inactivity period before each workspace of the project destroys its infrastructure, e.g. `14d` or `12h`." },
            tags: { type: "object", additionalProperties: { type: "string" }, description: "The project's whole tag set (at most 10), inherited by its workspaces. When given, tags added\nelsewhere are removed at the next `up`; when absent, the project's tags are left alone. Use either\nthis or `ProjectTagBindings` for one project, not both." },
        },
        requiredInputs: ["name"],
    },
    types: {},
};

/** `wos:index:Project` served by its handler. */
export const projectBinding: ResourceBinding = {
    schema: projectSchema,
    handlers,
};
