/**
 * `wos:index:getProject`: the lookup `lookUpProject` of `provider/handlers/lookups.ts` (what `wos.getProject`
 * runs in a program) as an engine invoke. Its piece of the package schema mirrors `GetProjectArgs` and
 * `GetProjectResult`, descriptions included; the test `tests/plugin/schema.test.ts` fails on any difference.
 *
 * @module
 */
import { lookUpProject, type GetProjectArgs } from "../../provider/handlers/lookups";
import type { FunctionBinding } from "../functionBinding";
import { type FunctionSchemaPiece } from "../schemaSpec";
import { getProjectExample } from "../examples/getProject";
import { describedWithExamples } from "../schemaExamples";

/** The schema of `wos:index:getProject`. */
export const getProjectSchema: FunctionSchemaPiece = {
    token: "wos:index:getProject",
    spec: {
        description: describedWithExamples("Finds the project of an organization by its name (in any case), with its duration and tags. Fails when there is none (or the token may not see it).", [getProjectExample]),
        inputs: {
            type: "object",
            properties: {
                organization: { type: "string", description: "Name of the organization; default: the stack config `wos:organization`, else `WOS_ORGANIZATION`." },
                name: { type: "string", description: "The project's name (compared case-insensitively, as the service does)." },
            },
            required: ["name"],
        },
        outputs: {
            type: "object",
            properties: {
                id: { type: "string", description: "The project's id (`prj-…`)." },
                organization: { type: "string", description: "The organization's name." },
                name: { type: "string", description: "The project's name as the service holds it." },
                description: { type: "string", description: "The description; left out when none is set." },
                autoDestroyActivityDuration: { type: "string", description: "Inactivity after which its workspaces are destroyed (`14d`, `12h`); left out when none is set." },
                workspaceCount: { type: "number", description: "Number of workspaces in the project at the time of the lookup." },
                teamCount: { type: "number", description: "Number of teams with access to the project." },
                tags: { type: "object", additionalProperties: { type: "string" }, description: "The project's tag bindings." },
            },
            required: ["id", "organization", "name", "workspaceCount", "teamCount", "tags"],
        },
    },
    types: {},
};

/** `wos:index:getProject` served by its lookup. */
export const getProjectBinding: FunctionBinding = {
    schema: getProjectSchema,
    invoke: (settings, args) => lookUpProject(settings, args as unknown as GetProjectArgs),
};
