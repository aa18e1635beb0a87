/**
 * `wos:index:NoCodeProject`, the plugin's door to the component `wos.NoCodeProject` of
 * `provider/components/noCodeProject.ts`: a multi-language component, which the engine asks the plugin to
 * `Construct` (`plugin/construct.ts`) and whose children are the plugin's own `wos:index:*` resources. Its
 * piece of the package schema mirrors `NoCodeProjectArgs` and the outputs the class `NoCodeProject` declares,
 * descriptions included (their TSDoc); the test `tests/plugin/schema.test.ts` fails on any difference.
 *
 * This module holds the schema only, so that the plugin loads the Pulumi runtime (which `Construct` needs)
 * only when it constructs a component.
 *
 * @module
 */
import { noCodeProjectExample } from "../examples/noCodeProject";
import { noCodeModuleSchema } from "../resources/noCodeModule";
import { noCodeWorkspaceSchema } from "../resources/noCodeWorkspace";
import { describedWithExamples } from "../schemaExamples";
import { typeRef, type ObjectTypeSpec, type PropertySpec, type ResourceSpec } from "../schemaSpec";

/** The component's type token (`NO_CODE_PROJECT_TYPE` of the TypeScript component). */
export const NO_CODE_PROJECT_TOKEN = "wos:index:NoCodeProject";

/** The tokens of the object types of its inputs. */
const TYPES = {
    project: "wos:index:NoCodeProjectProject",
    module: "wos:index:NoCodeProjectModule",
    workspace: "wos:index:NoCodeProjectWorkspace",
    rollout: "wos:index:NoCodeProjectRollout",
    // Those of the children, shared: a var and a set of variable options are the same objects there.
    workspaceVar: "wos:index:NoCodeWorkspaceVar",
    variableOptions: "wos:index:NoCodeModuleVariableOptions",
} as const;

/** The settings of every workspace, which a workspace may set for itself. */
const WORKSPACE_SETTINGS: Record<string, PropertySpec> = {
    autoApply: { type: "boolean", description: "Apply automatically after a successful plan; default `false`." },
    executionMode: { type: "string", description: "`remote` (default) or `agent`." },
    agentPoolId: { type: "string", description: "The agent pool (`apool-…`), with `agent`. A workspace that sets its own `executionMode` does not take\nthe component's `agentPoolId` (the two go together)." },
    sourceName: { type: "string", description: "Shown on the workspace as the application that made it." },
    sourceUrl: { type: "string", description: "A URL shown with `sourceName`." },
    upgradeTimeoutSeconds: { type: "number", description: "The deadline of one workspace's whole upgrade, in seconds; default 1800. Changing it alone changes nothing." },
};

/** The schema of `wos:index:NoCodeProject`: a component resource. */
export const noCodeProjectSchema: { token: string; spec: ResourceSpec; types: Record<string, ObjectTypeSpec> } = {
    token: NO_CODE_PROJECT_TOKEN,
    spec: {
        description: describedWithExamples(
            "A project, a no-code module and the no-code workspaces made from it, as one component: a `Project` (`<name>-project`), " +
            "a `NoCodeModule` (`<name>-module`, only when `module` names a registry module) and one `NoCodeWorkspace` per entry of " +
            "`workspaces` (`<name>-<workspace name>`), each a child of the component, so that its resource options (a provider, " +
            "`protect`, …) reach them. Every workspace gets the shared `vars`, except where its own vars have the same key and " +
            "category. The component keeps no input of its own in state (no var value is stored with it).",
            [noCodeProjectExample],
        ),
        isComponent: true,
        properties: {
            projectId: { type: "string", description: "The project's id (`prj-…`)." },
            noCodeModuleId: { type: "string", description: "The no-code module's id (`nocode-…`), made here or given." },
            workspaceIds: { type: "object", additionalProperties: { type: "string" }, description: "Workspace name → workspace id (`ws-…`)." },
            moduleVersions: { type: "object", additionalProperties: { type: "string" }, description: "Workspace name → the module version it runs." },
            upgradesAvailable: { type: "object", additionalProperties: { type: "boolean" }, description: "Workspace name → whether the module has a newer no-code version than the one the workspace runs." },
        },
        required: ["projectId", "noCodeModuleId", "workspaceIds", "moduleVersions", "upgradesAvailable"],
        inputProperties: {
            organization: { type: "string", description: "Name of the organization of the project and the module; default (as theirs): the stack config\n`wos:organization`, else the environment variable `WOS_ORGANIZATION`. Changing it replaces everything." },
            project: { $ref: typeRef(TYPES.project), plain: true, description: "The project the workspaces live in, made by the component." },
            module: { $ref: typeRef(TYPES.module), plain: true, description: "The no-code module the workspaces are made from: an existing one, or a registry module enabled here." },
            vars: { type: "array", items: { $ref: typeRef(TYPES.workspaceVar) }, description: "Vars every workspace gets (a change upgrades every workspace that does not override the var). A\nworkspace's own var of the same key and category replaces the shared one for that workspace; the\nothers are added to its list. A sensitive var stays a secret in each workspace's state." },
            workspaces: { type: "object", additionalProperties: { $ref: typeRef(TYPES.workspace), plain: true }, plain: true, description: "The workspaces, by workspace name (1 to 90 letters, numbers, `-`, `_`; unique in the organization).\nA plain object: it decides which resources exist, so it must be known when the program runs. The name\nis part of each child's resource name, so renaming a key makes a new workspace and deletes the old one." },
            rollout: { $ref: typeRef(TYPES.rollout), plain: true, description: "Roll changes out in waves: a raised `versionPin` (or a changed shared var) upgrades the first wave's\nworkspaces, then, once every upgrade of it is applied, the next wave's, and so on. An upgrade that\nfails stops the rollout at its wave; the next `pulumi up` resumes it. Absent: every workspace at once." },
            ...WORKSPACE_SETTINGS,
        },
        requiredInputs: ["project", "module", "workspaces"],
    },
    types: {
        [TYPES.project]: {
            description: "The project of a `NoCodeProject` (`NoCodeProjectArgs.project`): a `Project` without its organization.",
            type: "object",
            properties: {
                name: { type: "string", description: "3 to 40 characters: letters, numbers, spaces, `-` and `_`; unique per organization." },
                description: { type: "string", description: "At most 256 characters." },
                autoDestroyActivityDuration: { type: "string", description: "Inactivity period before each workspace of the project destroys its infrastructure, e.g. `14d`." },
                tags: { type: "object", additionalProperties: { type: "string" }, description: "The project's whole tag set (at most 10), inherited by its workspaces; absent: the tags are left alone." },
            },
            required: ["name"],
        },
        [TYPES.module]: {
            description:
                "Where the workspaces of a `NoCodeProject` are made from: exactly one of the two forms, an existing\nno-code module (`noCodeModuleId`, `moduleVersion`) or a registry module enabled here (`registryModuleId`,\n`versionPin`, `variableOptions`).",
            type: "object",
            properties: {
                noCodeModuleId: { type: "string", description: "Id of the no-code module (`nocode-…`); it must be enabled. Changing it replaces every workspace." },
                moduleVersion: { type: "string", description: "The module version every workspace must run: the module's pin when they are made or upgraded. A change\nupgrades every workspace. Absent: they run the pin the module has." },
                registryModuleId: { type: "string", description: "Id of the registry module (`mod-…`) of the organization; it must be no-code ready. Changing it replaces the module and every workspace." },
                versionPin: { type: "string", description: "The module version the workspaces run, e.g. `1.1.0`; default: the module's highest version when it is enabled." },
                variableOptions: { type: "array", items: { $ref: typeRef(TYPES.variableOptions) }, description: "The allowed values of some module variables, one set per variable name." },
            },
        },
        [TYPES.workspace]: {
            description: "One workspace of a `NoCodeProject` (`NoCodeProjectArgs.workspaces`); its name is its key there.",
            type: "object",
            properties: {
                description: { type: "string", description: "At most 256 characters; default `\"\"`." },
                vars: { type: "array", items: { $ref: typeRef(TYPES.workspaceVar) }, description: "This workspace's own vars, added to the component's shared `NoCodeProjectArgs.vars`. A var here\nwins over a shared var of the same key and category." },
                ...WORKSPACE_SETTINGS,
            },
        },
        [TYPES.rollout]: {
            description:
                "How a change reaches the workspaces of a `NoCodeProject` (`NoCodeProjectArgs.rollout`): in\nordered waves, each workspace of a wave depending on every workspace of the wave before (`dependsOn`), so\nthat the engine starts a wave's creations and upgrades only once the wave before is done, and attempts no\nlater wave once one of them failed.",
            type: "object",
            properties: {
                waves: {
                    type: "array",
                    items: { type: "array", items: { type: "string", plain: true }, plain: true },
                    plain: true,
                    description: "The waves in order, each a list of workspace names (keys of `NoCodeProjectArgs.workspaces`); the\nfirst is the canary. The workspaces no wave names form the last wave. A name that is not a workspace,\nor that is named twice, is refused when the component is made. A plain value: it must be known when\nthe program runs.",
                },
            },
            required: ["waves"],
        },
        // The children's own, so that this piece stands alone.
        [TYPES.workspaceVar]: noCodeWorkspaceSchema.types[TYPES.workspaceVar]!,
        [TYPES.variableOptions]: noCodeModuleSchema.types[TYPES.variableOptions]!,
    },
};
