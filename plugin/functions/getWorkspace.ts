/**
 * `wos:index:getWorkspace`: the lookup `lookUpWorkspace` of `provider/handlers/lookups.ts` (what
 * `wos.getWorkspace` runs in a program) as an engine invoke. Its piece of the package schema mirrors
 * `GetWorkspaceArgs` and `GetWorkspaceResult`, descriptions included; the test `tests/plugin/schema.test.ts`
 * fails on any difference.
 *
 * @module
 */
import { lookUpWorkspace, type GetWorkspaceArgs } from "../../provider/handlers/lookups";
import type { FunctionBinding } from "../functionBinding";
import { type FunctionSchemaPiece } from "../schemaSpec";
import { getWorkspaceExample } from "../examples/getWorkspace";
import { describedWithExamples } from "../schemaExamples";

/** The schema of `wos:index:getWorkspace`. */
export const getWorkspaceSchema: FunctionSchemaPiece = {
    token: "wos:index:getWorkspace",
    spec: {
        description: describedWithExamples("Finds a workspace of an organization by its name (in any case), as the Terraform provider's `tfe_workspace` data source does. Fails when there is none (or the token may not read it).", [getWorkspaceExample]),
        inputs: {
            type: "object",
            properties: {
                organization: { type: "string", description: "Name of the organization; default: the stack config `wos:organization`, else `WOS_ORGANIZATION`." },
                name: { type: "string", description: "The workspace's name (compared case-insensitively, as the service does)." },
            },
            required: ["name"],
        },
        outputs: {
            type: "object",
            properties: {
                id: { type: "string", description: "The workspace's id (`ws-…`): what a `wos.Variable` takes as `workspaceId`." },
                organization: { type: "string", description: "The organization's name." },
                name: { type: "string", description: "The workspace's name." },
                projectId: { type: "string", description: "The project the workspace is in (`prj-…`)." },
                description: { type: "string", description: "The description; left out when none is set." },
                autoApply: { type: "boolean", description: "Whether a successful plan is applied without a confirm." },
                executionMode: { type: "string", description: "Where its runs execute: `remote` (on the service) or `agent` (on an agent pool)." },
                agentPoolId: { type: "string", description: "The agent pool (`apool-…`), with `agent`." },
                source: { type: "string", description: "How it was made: `tfe-api` (the API or a seed) or `tfe-module` (a no-code module)." },
                sourceName: { type: "string", description: "The application shown as having made the workspace; left out when none." },
                sourceUrl: { type: "string", description: "A URL of that application; left out when none." },
                sourceModuleId: { type: "string", description: "The registry module (`mod-…`) of the no-code module it was made from, if any." },
                noCodeUpgradeAvailable: { type: "boolean", description: "Whether its no-code module has a newer version than the one it runs." },
                noCodeModuleId: { type: "string", description: "The no-code module (`nocode-…`) it was made from; left out for a workspace not made from one." },
                moduleVersion: { type: "string", description: "The module version it runs (e.g. `1.0.0`), of the no-code module it was made from; left out for a workspace not made from one." },
                tagNames: { type: "array", items: { type: "string" }, description: "The keys of the tags it inherits from its project." },
                autoDestroyActivityDuration: { type: "string", description: "The auto-destroy duration it inherits from its project, when set." },
            },
            required: ["id", "organization", "name", "projectId", "autoApply", "executionMode", "noCodeUpgradeAvailable", "tagNames"],
        },
    },
    types: {},
};

/** `wos:index:getWorkspace` served by its lookup. */
export const getWorkspaceBinding: FunctionBinding = {
    schema: getWorkspaceSchema,
    invoke: (settings, args) => lookUpWorkspace(settings, args as unknown as GetWorkspaceArgs),
};
