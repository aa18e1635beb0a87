/**
 * `wos.NoCodeProject`: a component (`pulumi.ComponentResource`) that a platform team would otherwise write
 * by hand: a project with its tags, one no-code module (an existing one, or a registry module enabled here)
 * and a set of no-code workspaces made from it, with vars shared by every workspace and vars of each one.
 *
 * It holds no provider logic of its own: its children are the ordinary resources ({@link Project},
 * {@link NoCodeModule}, {@link NoCodeWorkspace}), parented to it, so what they check, diff, upgrade and keep
 * secret is exactly what they do alone. The component only decides which children exist and with which
 * inputs, and it registers no inputs of its own with the engine (so no var value, sensitive or not, is
 * stored with it).
 *
 * @module
 */
import * as pulumi from "@pulumi/pulumi";
import { NoCodeModule, type NoCodeModuleArgs, type NoCodeModuleVariableOptionsArgs } from "../noCodeModule";
import { isPlainObject, NoCodeWorkspace, type NoCodeWorkspaceArgs, type NoCodeWorkspaceVarArgs } from "../noCodeWorkspace";
import { Project, type ProjectArgs } from "../project";

/** The component's type token: part of the URN of the component and of each of its children. Never rename it. */
export const NO_CODE_PROJECT_TYPE = "wos:index:NoCodeProject";

/**
 * What a workspace of a {@link NoCodeProject} gets when neither it nor the component says otherwise. They are
 * the defaults of {@link NoCodeWorkspace} itself, written into each child so that the state shows them.
 */
export const NO_CODE_PROJECT_DEFAULTS = {
    /** Runs are planned on the service's own workers. */
    executionMode: "remote",
    /** A plan waits for someone to apply it. */
    autoApply: false,
    /** The whole deadline of one workspace's upgrade: 30 minutes, as {@link NoCodeWorkspace}'s own default. */
    upgradeTimeoutSeconds: 1800,
} as const;

/** The project of a {@link NoCodeProject} ({@link NoCodeProjectArgs.project}): a {@link Project} without its organization. */
export interface NoCodeProjectProjectArgs {
    /** 3 to 40 characters: letters, numbers, spaces, `-` and `_`; unique per organization. */
    name: pulumi.Input<string>;
    /** At most 256 characters. */
    description?: pulumi.Input<string>;
    /** Inactivity period before each workspace of the project destroys its infrastructure, e.g. `14d`. */
    autoDestroyActivityDuration?: pulumi.Input<string>;
    /** The project's whole tag set (at most 10), inherited by its workspaces; absent: the tags are left alone. */
    tags?: pulumi.Input<Record<string, pulumi.Input<string>>>;
}

/** A no-code module that exists already ({@link NoCodeProjectArgs.module}): the component only uses it. */
export interface NoCodeProjectExistingModuleArgs {
    /** Id of the no-code module (`nocode-…`); it must be enabled. Changing it replaces every workspace. */
    noCodeModuleId: pulumi.Input<string>;
    /**
     * The module version every workspace must run: the module's pin when they are made or upgraded. A change
     * upgrades every workspace. Absent: they run the pin the module has.
     */
    moduleVersion?: pulumi.Input<string>;
    /** Not with `noCodeModuleId`. */
    registryModuleId?: never;
    /** Not with `noCodeModuleId`. */
    versionPin?: never;
    /** Not with `noCodeModuleId`. */
    variableOptions?: never;
}

/**
 * A registry module the component enables for no-code provisioning ({@link NoCodeProjectArgs.module}): a
 * child {@link NoCodeModule}, always enabled, whose pin every workspace follows (raising `versionPin`
 * upgrades them all).
 */
export interface NoCodeProjectRegistryModuleArgs {
    /** Id of the registry module (`mod-…`) of the organization; it must be no-code ready. Changing it replaces the module and every workspace. */
    registryModuleId: pulumi.Input<string>;
    /** The module version the workspaces run, e.g. `1.1.0`; default: the module's highest version when it is enabled. */
    versionPin?: pulumi.Input<string>;
    /** The allowed values of some module variables, one set per variable name. */
    variableOptions?: pulumi.Input<pulumi.Input<NoCodeModuleVariableOptionsArgs>[]>;
    /** Not with `registryModuleId`. */
    noCodeModuleId?: never;
    /** Not with `registryModuleId`: the workspaces follow `versionPin`. */
    moduleVersion?: never;
}

/**
 * Where the workspaces of a {@link NoCodeProject} are made from: exactly one of the two forms, an existing
 * no-code module (`noCodeModuleId`, `moduleVersion`) or a registry module enabled here (`registryModuleId`,
 * `versionPin`, `variableOptions`).
 */
export type NoCodeProjectModuleArgs = NoCodeProjectExistingModuleArgs | NoCodeProjectRegistryModuleArgs;

/**
 * Settings of every workspace of a {@link NoCodeProject}, unless a workspace sets its own
 * ({@link NoCodeProjectWorkspaceArgs}).
 */
export interface NoCodeProjectWorkspaceSettings {
    /** Apply automatically after a successful plan; default `false`. */
    autoApply?: pulumi.Input<boolean>;
    /** `remote` (default) or `agent`. */
    executionMode?: pulumi.Input<"remote" | "agent">;
    /**
     * The agent pool (`apool-…`), with `agent`. A workspace that sets its own `executionMode` does not take
     * the component's `agentPoolId` (the two go together).
     */
    agentPoolId?: pulumi.Input<string>;
    /** Shown on the workspace as the application that made it. */
    sourceName?: pulumi.Input<string>;
    /** A URL shown with `sourceName`. */
    sourceUrl?: pulumi.Input<string>;
    /** The deadline of one workspace's whole upgrade, in seconds; default 1800. Changing it alone changes nothing. */
    upgradeTimeoutSeconds?: pulumi.Input<number>;
}

/** One workspace of a {@link NoCodeProject} ({@link NoCodeProjectArgs.workspaces}); its name is its key there. */
export interface NoCodeProjectWorkspaceArgs extends NoCodeProjectWorkspaceSettings {
    /** At most 256 characters; default `""`. */
    description?: pulumi.Input<string>;
    /**
     * This workspace's own vars, added to the component's shared {@link NoCodeProjectArgs.vars}. A var here
     * wins over a shared var of the same key and category.
     */
    vars?: pulumi.Input<pulumi.Input<NoCodeWorkspaceVarArgs>[]>;
}

/**
 * How a change reaches the workspaces of a {@link NoCodeProject} ({@link NoCodeProjectArgs.rollout}): in
 * ordered waves, each workspace of a wave depending on every workspace of the wave before (`dependsOn`), so
 * that the engine starts a wave's creations and upgrades only once the wave before is done, and attempts no
 * later wave once one of them failed.
 */
export interface NoCodeProjectRolloutArgs {
    /**
     * The waves in order, each a list of workspace names (keys of {@link NoCodeProjectArgs.workspaces}); the
     * first is the canary. The workspaces no wave names form the last wave. A name that is not a workspace,
     * or that is named twice, is refused when the component is made. A plain value: it must be known when
     * the program runs.
     */
    waves: string[][];
}

/** Inputs of a {@link NoCodeProject}. */
export interface NoCodeProjectArgs extends NoCodeProjectWorkspaceSettings {
    /**
     * Name of the organization of the project and the module; default (as theirs): the stack config
     * `wos:organization`, else the environment variable `WOS_ORGANIZATION`. Changing it replaces everything.
     */
    organization?: pulumi.Input<string>;
    /** The project the workspaces live in, made by the component. */
    project: NoCodeProjectProjectArgs;
    /** The no-code module the workspaces are made from: an existing one, or a registry module enabled here. */
    module: NoCodeProjectModuleArgs;
    /**
     * Vars every workspace gets (a change upgrades every workspace that does not override the var). A
     * workspace's own var of the same key and category replaces the shared one for that workspace; the
     * others are added to its list. A sensitive var stays a secret in each workspace's state.
     */
    vars?: pulumi.Input<pulumi.Input<NoCodeWorkspaceVarArgs>[]>;
    /**
     * The workspaces, by workspace name (1 to 90 letters, numbers, `-`, `_`; unique in the organization).
     * A plain object: it decides which resources exist, so it must be known when the program runs. The name
     * is part of each child's resource name, so renaming a key makes a new workspace and deletes the old one.
     */
    workspaces: Record<string, NoCodeProjectWorkspaceArgs>;
    /**
     * Roll changes out in waves: a raised `versionPin` (or a changed shared var) upgrades the first wave's
     * workspaces, then, once every upgrade of it is applied, the next wave's, and so on. An upgrade that
     * fails stops the rollout at its wave; the next `pulumi up` resumes it. Absent: every workspace at once.
     */
    rollout?: NoCodeProjectRolloutArgs;
}

/**
 * The construction-time rules: what decides which children exist must be known and unambiguous. Throws
 * an error naming the field and the rule, before anything is registered.
 *
 * @internal Shared with the native plugin's `Construct` of `wos:index:NoCodeProject`.
 */
export function validateNoCodeProject(name: string, args: NoCodeProjectArgs | undefined): void {
    const fail = (field: string, rule: string): never => {
        throw new Error(`wos.NoCodeProject "${name}": ${field} ${rule}`);
    };
    if (!isPlainObject(args)) fail("args", "must be an object");
    const given = args as NoCodeProjectArgs;
    if (!isPlainObject(given.project)) fail("project", "must be an object known when the program runs ({ name, ... })");
    if (!isPlainObject(given.workspaces)) {
        fail("workspaces", "must be a plain object of workspace name to settings, known when the program runs (not an Output)");
    }
    for (const [workspaceName, workspace] of Object.entries(given.workspaces)) {
        if (workspace !== undefined && !isPlainObject(workspace)) {
            fail(`workspaces["${workspaceName}"]`, "must be an object of settings, known when the program runs");
        }
    }
    if (given.rollout !== undefined) validateRollout(given.rollout, Object.keys(given.workspaces), fail);
    if (!isPlainObject(given.module)) fail("module", "must be an object: { noCodeModuleId } or { registryModuleId, ... }");
    const module = given.module as unknown as Record<string, unknown>;
    const existing = module.noCodeModuleId !== undefined;
    const registry = module.registryModuleId !== undefined;
    if (existing === registry) fail("module", "must give exactly one of noCodeModuleId (an existing no-code module) and registryModuleId");
    if (existing) {
        for (const field of ["versionPin", "variableOptions"]) {
            if (module[field] !== undefined) fail(`module.${field}`, "is a setting of a module made here: not allowed with module.noCodeModuleId");
        }
    } else if (module.moduleVersion !== undefined) {
        fail("module.moduleVersion", "is not allowed with module.registryModuleId: the workspaces follow module.versionPin");
    }
}

/** The rules of {@link NoCodeProjectArgs.rollout}: waves of known workspace names, none named twice, none empty. */
function validateRollout(rollout: unknown, workspaceNames: readonly string[], fail: (field: string, rule: string) => never): void {
    const waves = isPlainObject(rollout) ? (rollout as { waves?: unknown }).waves : undefined;
    if (!Array.isArray(waves)) fail("rollout.waves", "must be a list of waves, each a list of workspace names, known when the program runs");
    const named = new Map<string, number>();
    (waves as unknown[]).forEach((wave, index) => {
        const field = `rollout.waves[${index}]`;
        if (!Array.isArray(wave) || wave.length === 0) fail(field, "must be a non-empty list of workspace names");
        (wave as unknown[]).forEach((workspaceName, at) => {
            if (typeof workspaceName !== "string") fail(`${field}[${at}]`, "must be a workspace name (a string)");
            const key = workspaceName as string;
            if (!workspaceNames.includes(key)) fail(`${field}[${at}]`, `names "${key}", which is not a key of workspaces`);
            if (named.has(key)) fail(`${field}[${at}]`, `names "${key}" again: it is already in rollout.waves[${named.get(key)}]`);
            named.set(key, index);
        });
    });
}

/**
 * The waves of the workspaces in order (see {@link NoCodeProjectRolloutArgs}): the rollout's, then the
 * workspaces it does not name as the last; without a rollout, every workspace in one wave. Names in the
 * order of `workspaces` within the last wave.
 */
function rolloutWaves(args: NoCodeProjectArgs): string[][] {
    const names = Object.keys(args.workspaces);
    const waves = args.rollout?.waves ?? [];
    const named = new Set(waves.flat());
    const rest = names.filter((workspaceName) => !named.has(workspaceName));
    return [...waves, ...(rest.length > 0 ? [rest] : [])];
}

/** A var's identity in a workspace: its category and key. */
const varIdentity = (item: { key: unknown; category: unknown }): string => `${String(item.category)}\u0000${String(item.key)}`;

/** Whether a var list and the identity of each of its vars are known while the program runs. */
function isKnownVarList(list: pulumi.Input<pulumi.Input<NoCodeWorkspaceVarArgs>[]>): list is NoCodeWorkspaceVarArgs[] {
    return (
        Array.isArray(list) &&
        list.every((item) => isPlainObject(item) && typeof item.key === "string" && typeof item.category === "string")
    );
}

/** The shared vars a workspace's own list does not override, then its own, each list in its own order. */
function mergeKnownVars<T extends { key: unknown; category: unknown }>(shared: T[], own: T[]): T[] {
    const overridden = new Set(own.map(varIdentity));
    return [...shared.filter((item) => !overridden.has(varIdentity(item))), ...own];
}

/**
 * The vars of one workspace: the shared ones and its own, its own winning on the same key and category.
 *
 * When both lists and every var's key and category are known while the program runs, the result is a plain
 * list of the very var objects given (values, `Output`s and secrets untouched), so each workspace sees its
 * vars as if the program had listed them: only a workspace with a sensitive var has secret `vars`. Otherwise
 * the lists are merged once known, and the workspace treats its whole list as possibly sensitive (secret).
 */
function mergeWorkspaceVars(
    shared: pulumi.Input<pulumi.Input<NoCodeWorkspaceVarArgs>[]> | undefined,
    own: pulumi.Input<pulumi.Input<NoCodeWorkspaceVarArgs>[]> | undefined,
): pulumi.Input<pulumi.Input<NoCodeWorkspaceVarArgs>[]> | undefined {
    if (shared === undefined) return own;
    if (own === undefined) return shared;
    if (isKnownVarList(shared) && isKnownVarList(own)) return mergeKnownVars(shared, own);
    return pulumi
        .all([pulumi.output(shared), pulumi.output(own)])
        .apply(([sharedVars, ownVars]) => mergeKnownVars(sharedVars, ownVars)) as pulumi.Output<NoCodeWorkspaceVarArgs[]>;
}

/** What the body of a {@link NoCodeProject} reads of its project child. @internal */
export interface NoCodeProjectProjectChild {
    readonly id: pulumi.Output<string>;
}

/** What the body of a {@link NoCodeProject} reads of its module child. @internal */
export interface NoCodeProjectModuleChild {
    readonly id: pulumi.Output<string>;
    readonly versionPin: pulumi.Output<string>;
}

/** What the body of a {@link NoCodeProject} reads of a workspace child: a resource the next wave can depend on. @internal */
export interface NoCodeProjectWorkspaceChild extends pulumi.Resource {
    readonly id: pulumi.Output<string>;
    readonly moduleVersion: pulumi.Output<string>;
    readonly noCodeUpgradeAvailable: pulumi.Output<boolean>;
}

/**
 * How the children of a {@link NoCodeProject} are made: each child's resource name, inputs and options in,
 * the resource out. The TypeScript component makes the dynamic resources ({@link Project},
 * {@link NoCodeModule}, {@link NoCodeWorkspace}); the native plugin's `Construct` makes its `wos:index:*`
 * resources of the same inputs, so that the two components cannot compose differently.
 *
 * @internal
 */
export interface NoCodeProjectChildFactory<
    P extends NoCodeProjectProjectChild,
    M extends NoCodeProjectModuleChild,
    W extends NoCodeProjectWorkspaceChild,
> {
    project(name: string, args: ProjectArgs, opts: pulumi.CustomResourceOptions): P;
    module(name: string, args: NoCodeModuleArgs, opts: pulumi.CustomResourceOptions): M;
    workspace(name: string, args: NoCodeWorkspaceArgs, opts: pulumi.CustomResourceOptions): W;
}

/** The outputs of a {@link NoCodeProject}, as it registers them. @internal */
export interface NoCodeProjectOutputs {
    projectId: pulumi.Output<string>;
    noCodeModuleId: pulumi.Output<string>;
    workspaceIds: pulumi.Output<Record<string, string>>;
    moduleVersions: pulumi.Output<Record<string, string>>;
    upgradesAvailable: pulumi.Output<Record<string, boolean>>;
}

/** What {@link composeNoCodeProject} made. @internal */
export interface NoCodeProjectComposition<P, M, W> {
    project: P;
    module: M | undefined;
    workspaces: Readonly<Record<string, W>>;
    outputs: NoCodeProjectOutputs;
}

/**
 * The body of a {@link NoCodeProject}: which children exist, with which inputs, each parented to
 * `component`, and the outputs made of theirs. `args` must have passed {@link validateNoCodeProject}.
 *
 * @internal Shared with the native plugin's `Construct` of `wos:index:NoCodeProject`.
 */
export function composeNoCodeProject<
    P extends NoCodeProjectProjectChild,
    M extends NoCodeProjectModuleChild,
    W extends NoCodeProjectWorkspaceChild,
>(component: pulumi.Resource, name: string, args: NoCodeProjectArgs, children: NoCodeProjectChildFactory<P, M, W>): NoCodeProjectComposition<P, M, W> {
    const parent = { parent: component };

    const project = children.project(
        `${name}-project`,
        {
            organization: args.organization,
            name: args.project.name,
            description: args.project.description,
            autoDestroyActivityDuration: args.project.autoDestroyActivityDuration,
            tags: args.project.tags,
        },
        parent,
    );

    let module: M | undefined;
    let noCodeModuleId: pulumi.Input<string>;
    let moduleVersion: pulumi.Input<string> | undefined;
    if (args.module.registryModuleId !== undefined) {
        const registry: NoCodeProjectRegistryModuleArgs = args.module;
        module = children.module(
            `${name}-module`,
            {
                organization: args.organization,
                registryModuleId: registry.registryModuleId,
                versionPin: registry.versionPin,
                // The component makes workspaces from it: a disabled module could make none.
                enabled: true,
                variableOptions: registry.variableOptions,
            },
            parent,
        );
        noCodeModuleId = module.id;
        // Following the pin: raising `versionPin` upgrades every workspace in the same `up`.
        moduleVersion = module.versionPin;
    } else {
        const existing = args.module as NoCodeProjectExistingModuleArgs;
        noCodeModuleId = existing.noCodeModuleId;
        moduleVersion = existing.moduleVersion;
    }

    // Wave by wave: each workspace of a wave depends on every workspace of the wave before, so the engine
    // orders the creations and upgrades, and attempts no later wave after a failure (a Ctrl-C, `--target`
    // and `--parallel` act on them as on any dependency).
    const made: Record<string, W> = {};
    const waves = rolloutWaves(args);
    waves.forEach((wave, index) => {
        const before = index === 0 ? [] : waves[index - 1]!.map((workspaceName) => made[workspaceName]!);
        for (const workspaceName of wave) made[workspaceName] = makeWorkspace(workspaceName, before, waves.length > 1 ? `${index + 1} of ${waves.length}` : undefined);
    });
    // Keyed in the program's order, whatever the waves.
    const workspaces: Record<string, W> = Object.fromEntries(Object.keys(args.workspaces).map((workspaceName) => [workspaceName, made[workspaceName]!]));

    function makeWorkspace(workspaceName: string, dependsOn: W[], rolloutWave: string | undefined): W {
        const own = args.workspaces[workspaceName] ?? {};
        // Execution mode and agent pool go together: a workspace with its own mode takes only its own pool.
        const ownMode = own.executionMode !== undefined;
        return children.workspace(
            `${name}-${workspaceName}`,
            {
                noCodeModuleId,
                moduleVersion,
                projectId: project.id,
                name: workspaceName,
                description: own.description,
                autoApply: own.autoApply ?? args.autoApply ?? NO_CODE_PROJECT_DEFAULTS.autoApply,
                executionMode: own.executionMode ?? args.executionMode ?? NO_CODE_PROJECT_DEFAULTS.executionMode,
                agentPoolId: ownMode ? own.agentPoolId : own.agentPoolId ?? args.agentPoolId,
                sourceName: own.sourceName ?? args.sourceName,
                sourceUrl: own.sourceUrl ?? args.sourceUrl,
                vars: mergeWorkspaceVars(args.vars, own.vars),
                upgradeTimeoutSeconds:
                    own.upgradeTimeoutSeconds ?? args.upgradeTimeoutSeconds ?? NO_CODE_PROJECT_DEFAULTS.upgradeTimeoutSeconds,
                rolloutWave,
            },
            dependsOn.length > 0 ? { ...parent, dependsOn } : parent,
        );
    }

    const byWorkspace = <T>(pick: (workspace: W) => pulumi.Output<T>): pulumi.Output<Record<string, T>> =>
        pulumi.all(
            Object.fromEntries(Object.entries(workspaces).map(([workspaceName, workspace]) => [workspaceName, pick(workspace)])),
        ) as pulumi.Output<Record<string, T>>;

    return {
        project,
        module,
        workspaces: Object.freeze(workspaces),
        outputs: {
            projectId: project.id,
            noCodeModuleId: pulumi.output(noCodeModuleId),
            workspaceIds: byWorkspace((workspace) => workspace.id),
            moduleVersions: byWorkspace((workspace) => workspace.moduleVersion),
            upgradesAvailable: byWorkspace((workspace) => workspace.noCodeUpgradeAvailable),
        },
    };
}

/** The TypeScript component's children: the dynamic resources. */
const DYNAMIC_CHILDREN: NoCodeProjectChildFactory<Project, NoCodeModule, NoCodeWorkspace> = {
    project: (name, args, opts) => new Project(name, args, opts),
    module: (name, args, opts) => new NoCodeModule(name, args, opts),
    workspace: (name, args, opts) => new NoCodeWorkspace(name, args, opts),
};

/**
 * A project, a no-code module and the no-code workspaces made from it, as one component (type token
 * `wos:index:NoCodeProject`). Its children are a {@link Project} (`<name>-project`), a {@link NoCodeModule}
 * (`<name>-module`, only when {@link NoCodeProjectArgs.module} names a registry module) and one
 * {@link NoCodeWorkspace} per entry of {@link NoCodeProjectArgs.workspaces} (`<name>-<workspace name>`), each
 * with `{ parent: this }`, so resource options given to the component (a provider, `protect`, …) reach them.
 *
 * ```ts
 * const storage = new wos.NoCodeProject("storage", {
 *     organization: "acme",
 *     project: { name: "Storage", tags: { team: "platform" } },
 *     module: { registryModuleId: "mod-0000000000000001", versionPin: "1.0.0" },
 *     vars: [{ key: "region", value: "eu-west-1", category: "infra" }],
 *     workspaces: {
 *         "assets-prod": { vars: [{ key: "size", value: "3", category: "infra" }] },
 *         "logs-prod": { autoApply: true },
 *     },
 * });
 * export const workspaceIds = storage.workspaceIds;
 * ```
 */
export class NoCodeProject extends pulumi.ComponentResource {
    /** The project (child `<name>-project`). */
    public readonly project: Project;
    /** The no-code module made here (child `<name>-module`); absent when the component uses an existing one. */
    public readonly module: NoCodeModule | undefined;
    /** The workspaces by workspace name (children `<name>-<workspace name>`). */
    public readonly workspaces: Readonly<Record<string, NoCodeWorkspace>>;
    /** The project's id (`prj-…`). */
    public readonly projectId: pulumi.Output<string>;
    /** The no-code module's id (`nocode-…`), made here or given. */
    public readonly noCodeModuleId: pulumi.Output<string>;
    /** Workspace name → workspace id (`ws-…`). */
    public readonly workspaceIds: pulumi.Output<Record<string, string>>;
    /** Workspace name → the module version it runs. */
    public readonly moduleVersions: pulumi.Output<Record<string, string>>;
    /** Workspace name → whether the module has a newer no-code version than the one the workspace runs. */
    public readonly upgradesAvailable: pulumi.Output<Record<string, boolean>>;

    /**
     * @param name The component's resource name; the prefix of its children's names.
     * @param args The project, the module, the shared settings and vars, and the workspaces.
     * @param opts Resource options, inherited by every child.
     */
    constructor(name: string, args: NoCodeProjectArgs, opts?: pulumi.ComponentResourceOptions) {
        validateNoCodeProject(name, args);
        // No inputs go to the engine: the component's state would otherwise hold every var value in plain
        // text (a sensitive value the program left unmarked included). The children hold what matters.
        super(NO_CODE_PROJECT_TYPE, name, {}, opts);
        const composed = composeNoCodeProject(this, name, args, DYNAMIC_CHILDREN);
        this.project = composed.project;
        this.module = composed.module;
        this.workspaces = composed.workspaces;
        this.projectId = composed.outputs.projectId;
        this.noCodeModuleId = composed.outputs.noCodeModuleId;
        this.workspaceIds = composed.outputs.workspaceIds;
        this.moduleVersions = composed.outputs.moduleVersions;
        this.upgradesAvailable = composed.outputs.upgradesAvailable;
        this.registerOutputs({ ...composed.outputs });
    }
}
