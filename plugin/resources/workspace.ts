/**
 * `wos:index:Workspace`, the plugin's door to the handler of `wos.Workspace` (a workspace made through the
 * API): `provider/handlers/workspace.ts`, the module the dynamic resource's serialized provider loads. Its
 * piece of the package schema mirrors `WorkspaceArgs` and the outputs the class `Workspace` declares,
 * descriptions included (their TSDoc); the test `tests/plugin/schema.test.ts` fails on any difference.
 *
 * @module
 */
import * as handlers from "../../provider/handlers/workspace";
import type { ResourceBinding } from "../resourceBinding";
import { type ResourceSchemaPiece } from "../schemaSpec";
import { workspaceExample } from "../examples/workspace";
import { describedWithExamples } from "../schemaExamples";

/** The schema of `wos:index:Workspace`. */
export const workspaceSchema: ResourceSchemaPiece = {
    token: "wos:index:Workspace",
    spec: {
        description: describedWithExamples("A workspace of an organization, in a project, with its description, auto-apply and execution settings; its id (`ws-…`) is what a `Variable` takes. A change of project moves it (its variables stay); nothing but the organization replaces it.", [workspaceExample]),
        properties: {
            organization: { type: "string", description: "The organization's name (the default organization's when the program left it out)." },
            name: { type: "string", description: "The workspace's name." },
            projectId: { type: "string", description: "The project the workspace is in, also when the program left it out." },
            description: { type: "string", description: "The description, when it has one." },
            autoApply: { type: "boolean", description: "Whether runs apply automatically." },
            executionMode: { type: "string", description: "`remote` or `agent`." },
            agentPoolId: { type: "string", description: "The agent pool, with `agent`." },
        },
        required: ["organization", "name", "projectId", "autoApply", "executionMode"],
        inputProperties: {
            organization: { type: "string", description: "Name of the organization; default: the stack config `wos:organization`, else the environment variable\n`WOS_ORGANIZATION`. Changing it replaces the workspace." },
            name: { type: "string", description: "1 to 90 letters, numbers, `-` and `_`; unique in the organization (in any case). Changes in place." },
            projectId: { type: "string", description: "Id of the project (`prj-…`); the caller must be allowed to create workspaces in it. Changing it moves the\nworkspace (the caller needs that right on both projects). Default: the organization's `Default Project`\nwhen the workspace is made; leaving it out later never moves it." },
            description: { type: "string", description: "At most 256 characters." },
            autoApply: { type: "boolean", description: "Apply automatically after a successful plan; default false." },
            executionMode: { type: "string", description: "`remote` (default) or `agent`." },
            agentPoolId: { type: "string", description: "The agent pool (`apool-…`): required with `agent`, refused with `remote`." },
        },
        requiredInputs: ["name"],
    },
    types: {},
};

/** `wos:index:Workspace` served by its handler. */
export const workspaceBinding: ResourceBinding = {
    schema: workspaceSchema,
    handlers,
    // Left out, the project is the organization's default one, which only the service knows.
    previewUnknowns: (news, olds) => (olds === undefined && news.projectId === undefined ? ["projectId"] : []),
};
