/**
 * `wos:index:Workspace`, the plugin's door to the handler of `wos.Workspace` (a workspace made through the API):
 * `provider/handlers/workspace.ts`, the module the dynamic resource's serialized provider loads. Its piece of
 * the package schema takes its properties from `WorkspaceArgs` and the outputs the class `Workspace` declares as
 * the build writes them from their declarations (`plugin/declared.ts`), descriptions (their TSDoc) included.
 *
 * @module
 */
import * as handlers from "../../provider/handlers/workspace";
import type { ResourceBinding } from "../resourceBinding";
import type { ResourceSchemaPiece } from "../schemaSpec";
import { workspaceExample } from "../examples/workspace";
import { declaredResource } from "../declaredSchema";
import { describedWithExamples } from "../schemaExamples";

/** The schema of `wos:index:Workspace`. */
export const workspaceSchema: ResourceSchemaPiece = declaredResource("Workspace", {
    description: describedWithExamples("A workspace of an organization, in a project, with its description, auto-apply and execution settings; its id (`ws-…`) is what a `Variable` takes. A change of project moves it (its variables stay); nothing but the organization replaces it.", [workspaceExample]),
});

/** `wos:index:Workspace` served by its handler. */
export const workspaceBinding: ResourceBinding = {
    schema: workspaceSchema,
    handlers,
    // Left out, the project is the organization's default one, which only the service knows.
    previewUnknowns: (news, olds) => (olds === undefined && news.projectId === undefined ? ["projectId"] : []),
};
