/**
 * `pulumi-wos`: Pulumi resources for the Workspace Organization Service.
 *
 * Resources: {@link Project}, {@link ProjectTagBindings}, {@link Variable}, {@link NoCodeModule},
 * {@link NoCodeWorkspace}. Lookup: {@link getProject} /
 * {@link getProjectOutput}. Credentials: stack config `wos:address` (default `http://127.0.0.1:8787`, the
 * local service) and `wos:token`, else the environment variables `WOS_ADDRESS` and `WOS_TOKEN`. The
 * typed client is in `pulumi-wos/sdk`.
 *
 * @packageDocumentation
 */
export { Project, type ProjectArgs } from "./project";
export { ProjectTagBindings, type ProjectTagBindingsArgs } from "./projectTagBindings";
export { Variable, type VariableArgs } from "./variable";
export {
    NoCodeModule,
    type NoCodeModuleArgs,
    type NoCodeModuleVariableOptionsArgs,
    type NoCodeModuleVariableOptions,
} from "./noCodeModule";
export {
    NoCodeWorkspace,
    type NoCodeWorkspaceArgs,
    type NoCodeWorkspaceVarArgs,
    type NoCodeWorkspaceVar,
    type NoCodeWorkspaceUpgrade,
} from "./noCodeWorkspace";
export {
    getProject,
    getProjectOutput,
    type GetProjectArgs,
    type GetProjectOutputArgs,
    type GetProjectResult,
} from "./getProject";
