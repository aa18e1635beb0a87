/**
 * `wos:index:NoCodeProject`, the plugin's door to the component `wos.NoCodeProject` of
 * `provider/components/noCodeProject.ts`: a multi-language component, which the engine asks the plugin to
 * `Construct` (`plugin/construct.ts`) and whose children are the plugin's own `wos:index:*` resources. Its piece
 * of the package schema takes its properties from `NoCodeProjectArgs` and the outputs the class `NoCodeProject`
 * declares as the build writes them from their declarations (`plugin/declared.ts`), descriptions (their TSDoc)
 * included.
 *
 * This module holds the schema only, so that the plugin loads the Pulumi runtime (which `Construct` needs)
 * only when it constructs a component.
 *
 * @module
 */
import { noCodeProjectExample } from "../examples/noCodeProject";
import { declaredComponent } from "../declaredSchema";
import { describedWithExamples } from "../schemaExamples";
import type { ResourceSchemaPiece } from "../schemaSpec";

/** The component's type token (`NO_CODE_PROJECT_TYPE` of the TypeScript component). */
export const NO_CODE_PROJECT_TOKEN = "wos:index:NoCodeProject";

/** The schema of `wos:index:NoCodeProject`: a component resource. */
export const noCodeProjectSchema: ResourceSchemaPiece = declaredComponent("NoCodeProject", {
    description: describedWithExamples(
        "A project, a no-code module and the no-code workspaces made from it, as one component: a `Project` (`<name>-project`), " +
        "a `NoCodeModule` (`<name>-module`, only when `module` names a registry module) and one `NoCodeWorkspace` per entry of " +
        "`workspaces` (`<name>-<workspace name>`), each a child of the component, so that its resource options (a provider, " +
        "`protect`, …) reach them. Every workspace gets the shared `vars`, except where its own vars have the same key and " +
        "category. The component keeps no input of its own in state (no var value is stored with it).",
        [noCodeProjectExample],
    ),
    types: {
        NoCodeProjectProjectArgs: "wos:index:NoCodeProjectProject",
        NoCodeProjectModuleArgs: "wos:index:NoCodeProjectModule",
        NoCodeProjectWorkspaceArgs: "wos:index:NoCodeProjectWorkspace",
        NoCodeProjectRolloutArgs: "wos:index:NoCodeProjectRollout",
        // The children's own: a var and a set of variable options are the same objects there.
        NoCodeWorkspaceVarArgs: "wos:index:NoCodeWorkspaceVar",
        NoCodeModuleVariableOptionsArgs: "wos:index:NoCodeModuleVariableOptions",
    },
});
