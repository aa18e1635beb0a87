/**
 * `wos:index:getWorkspaces`: the lookup `lookUpWorkspaces` of `provider/handlers/lookups.ts` (what
 * `wos.getWorkspaces` runs in a program) as an engine invoke. Its piece of the package schema mirrors
 * `GetWorkspacesArgs` and `GetWorkspacesResult`, descriptions included; the test `tests/plugin/schema.test.ts`
 * fails on any difference.
 *
 * @module
 */
import { lookUpWorkspaces, type GetWorkspacesArgs } from "../../provider/handlers/lookups";
import type { FunctionBinding } from "../functionBinding";
import { getWorkspaceSchema } from "./getWorkspace";
import { typeRef, type FunctionSchemaPiece } from "../schemaSpec";
import { getWorkspacesExample } from "../examples/getWorkspaces";
import { describedWithExamples } from "../schemaExamples";

/** The tokens of the object types of its result. */
const TYPES = {
    getWorkspacesWorkspace: "wos:index:GetWorkspacesWorkspace",
} as const;

/** The schema of `wos:index:getWorkspaces`. */
export const getWorkspacesSchema: FunctionSchemaPiece = {
    token: "wos:index:getWorkspaces",
    spec: {
        description: describedWithExamples("The workspaces of an organization that the token can read, filtered by a name search and a project, every page of them, as the Terraform provider's `tfe_workspace_ids` data source does. None is not an error: the lists are empty.", [getWorkspacesExample]),
        inputs: {
            type: "object",
            properties: {
                organization: { type: "string", description: "Name of the organization; default: the stack config `wos:organization`, else `WOS_ORGANIZATION`." },
                search: { type: "string", description: "Only workspaces whose name holds this text, in any case (every character literal)." },
                projectId: { type: "string", description: "Only the workspaces of this project (`prj-…`)." },
                noCodeModuleId: { type: "string", description: "Only the workspaces made from this no-code module (`nocode-…`), whichever of its versions they run." },
            },
            required: [],
        },
        outputs: {
            type: "object",
            properties: {
                organization: { type: "string", description: "The organization that was searched." },
                workspaces: { type: "array", items: { $ref: typeRef(TYPES.getWorkspacesWorkspace) }, description: "The workspaces, in the order they were made." },
                names: { type: "array", items: { type: "string" }, description: "Their names, in the same order." },
                ids: { type: "object", additionalProperties: { type: "string" }, description: "Their ids by name." },
            },
            required: ["organization", "workspaces", "names", "ids"],
        },
    },
    types: {
        [TYPES.getWorkspacesWorkspace]: {
            description: "A workspace as a lookup answers it (`getWorkspace`, `getWorkspaces`). Absent optional fields are left out.",
            // The same fields, described the same, as `getWorkspace`'s result: both lookups answer one shape.
            type: "object",
            properties: getWorkspaceSchema.spec.outputs.properties,
            required: getWorkspaceSchema.spec.outputs.required,
        },
    },
};

/** `wos:index:getWorkspaces` served by its lookup. */
export const getWorkspacesBinding: FunctionBinding = {
    schema: getWorkspacesSchema,
    invoke: (settings, args) => lookUpWorkspaces(settings, args as unknown as GetWorkspacesArgs),
};
