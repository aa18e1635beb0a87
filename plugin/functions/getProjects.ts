/**
 * `wos:index:getProjects`: the lookup `lookUpProjects` of `provider/handlers/lookups.ts` (what
 * `wos.getProjects` runs in a program) as an engine invoke. Its piece of the package schema mirrors
 * `GetProjectsArgs` and `GetProjectsResult`, descriptions included; the test `tests/plugin/schema.test.ts`
 * fails on any difference.
 *
 * @module
 */
import { lookUpProjects, type GetProjectsArgs } from "../../provider/handlers/lookups";
import type { FunctionBinding } from "../functionBinding";
import { typeRef, type FunctionSchemaPiece } from "../schemaSpec";
import { getProjectsExample } from "../examples/getProjects";
import { describedWithExamples } from "../schemaExamples";

/** The tokens of the object types of its result. */
const TYPES = {
    getProjectsProject: "wos:index:GetProjectsProject",
} as const;

/** The schema of `wos:index:getProjects`. */
export const getProjectsSchema: FunctionSchemaPiece = {
    token: "wos:index:getProjects",
    spec: {
        description: describedWithExamples("The projects of an organization that the token can see, filtered by a name search or exact names, every page of them, as the Terraform provider's `tfe_projects` data source does. None is not an error: the lists are empty.", [getProjectsExample]),
        inputs: {
            type: "object",
            properties: {
                organization: { type: "string", description: "Name of the organization; default: the stack config `wos:organization`, else `WOS_ORGANIZATION`." },
                query: { type: "string", description: "Only projects whose name holds this text, in any case (ignored when `names` is given, as the service does)." },
                names: { type: "array", items: { type: "string" }, description: "Only the projects of these names, in any case." },
            },
            required: [],
        },
        outputs: {
            type: "object",
            properties: {
                organization: { type: "string", description: "The organization that was searched." },
                projects: { type: "array", items: { $ref: typeRef(TYPES.getProjectsProject) }, description: "The projects, in the order they were made." },
                names: { type: "array", items: { type: "string" }, description: "Their names, in the same order." },
                ids: { type: "object", additionalProperties: { type: "string" }, description: "Their ids by name." },
            },
            required: ["organization", "projects", "names", "ids"],
        },
    },
    types: {
        [TYPES.getProjectsProject]: {
            description: "One project as `getProjects` answers it. Absent optional fields are left out.",
            type: "object",
            properties: {
                id: { type: "string", description: "The project's id (`prj-…`)." },
                name: { type: "string", description: "The project's name." },
                description: { type: "string", description: "The description; left out when none is set." },
                workspaceCount: { type: "number", description: "Number of workspaces in the project at the time of the lookup." },
                teamCount: { type: "number", description: "Number of teams with access to the project." },
            },
            required: ["id", "name", "workspaceCount", "teamCount"],
        },
    },
};

/** `wos:index:getProjects` served by its lookup. */
export const getProjectsBinding: FunctionBinding = {
    schema: getProjectsSchema,
    invoke: (settings, args) => lookUpProjects(settings, args as unknown as GetProjectsArgs),
};
