/**
 * `pulumi-wos`: Pulumi resources for the Workspace Organization Service.
 *
 * Resources: {@link Project}, {@link ProjectTagBindings}, {@link Workspace}, {@link Variable},
 * {@link NoCodeModule}, {@link NoCodeWorkspace}. Component: {@link NoCodeProject} (a project, a no-code
 * module and workspaces made from it, with shared and per-workspace vars). Lookups, each with its `…Output`
 * form: {@link getProject}, {@link getProjects}, {@link getWorkspace}, {@link getWorkspaces},
 * {@link getNoCodeModule}. Credentials: stack config `wos:address` (default `http://127.0.0.1:8787`, the
 * local service) and `wos:token`, else the environment variables `WOS_ADDRESS` and `WOS_TOKEN`; the default
 * organization of resources and lookups that leave `organization` out: `wos:organization`, else
 * `WOS_ORGANIZATION`. The typed client is in `pulumi-wos/sdk`.
 *
 * @packageDocumentation
 */
// First: a missing @pulumi/pulumi is reported with what to install, before any module below needs it.
import "./requirePulumi";
// Second: on a Node.js older than the package supports, one warning in the program's output, before any module
// below could say it in another form.
import "./warnUnsupportedNode";
export { Project, type ProjectArgs } from "./project";
export { ProjectTagBindings, type ProjectTagBindingsArgs } from "./projectTagBindings";
export { Workspace, type WorkspaceArgs } from "./workspace";
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
export {
    NoCodeProject,
    NO_CODE_PROJECT_DEFAULTS,
    NO_CODE_PROJECT_TYPE,
    type NoCodeProjectArgs,
    type NoCodeProjectProjectArgs,
    type NoCodeProjectModuleArgs,
    type NoCodeProjectExistingModuleArgs,
    type NoCodeProjectRegistryModuleArgs,
    type NoCodeProjectWorkspaceSettings,
    type NoCodeProjectWorkspaceArgs,
    type NoCodeProjectRolloutArgs,
} from "./components/noCodeProject";
export {
    getProjects,
    getProjectsOutput,
    type GetProjectsArgs,
    type GetProjectsOutputArgs,
    type GetProjectsResult,
    type GetProjectsItem,
} from "./getProjects";
export {
    getWorkspace,
    getWorkspaceOutput,
    type GetWorkspaceArgs,
    type GetWorkspaceOutputArgs,
    type GetWorkspaceResult,
} from "./getWorkspace";
export {
    getWorkspaces,
    getWorkspacesOutput,
    type GetWorkspacesArgs,
    type GetWorkspacesOutputArgs,
    type GetWorkspacesResult,
} from "./getWorkspaces";
export {
    getNoCodeModule,
    getNoCodeModuleOutput,
    type GetNoCodeModuleArgs,
    type GetNoCodeModuleOutputArgs,
    type GetNoCodeModuleResult,
    type GetNoCodeModuleVariableOptions,
    type GetNoCodeModuleWorkspace,
} from "./getNoCodeModule";
