/**
 * The real logic of the `wos:NoCodeWorkspace` dynamic resource: a workspace made from a no-code module, its
 * settings, the vars it manages and the module version it runs. Called by the thin shell in
 * `provider/noCodeWorkspace.ts` through `require("pulumi-wos/dist/provider/handlers/noCodeWorkspace")`, a
 * stable module path: serialized providers in existing state load it by name, so never move or rename it.
 *
 * A change of `vars` or `moduleVersion` is an upgrade, run inside the update by `upgradeRunner.ts` (initiate a
 * plan, poll it, confirm only a finished plan). Whatever stops the upgrade fails the update with the status
 * and the plan URL, and leaves the vars and module version in state as they were, so the next `pulumi up`
 * starts a new upgrade.
 *
 * The resource manages only the vars it lists (by key and category): other variables of the workspace,
 * such as those of `wos.Variable` resources, are left alone. A sensitive var's value cannot be read back,
 * so the state keeps the last value written and it is never compared with the service.
 *
 * @module
 */
import type * as dynamic from "@pulumi/pulumi/dynamic";
import { z } from "zod";
import type { WosClient } from "../../sdk";
import { WosNotFoundError } from "../../sdk/errors";
import { noCodeWorkspaceVarShape } from "../../sdk/noCodeModules";
import {
    idRule,
    moduleVersionRule,
    workspaceNameRule,
    workspaceVarListProblems,
    type NoCodeModule,
    type NoCodeWorkspaceVar,
    type Variable,
    type Workspace,
} from "../../sdk/model";
import { clientFromCredentials } from "./credentials";
import { REPLACING_INPUTS } from "./replacingInputs";
import { isRecord, joinValues, setValuesApart } from "./varValuesApart";
import { inputFailures, objectList, withRequiredReason } from "./inputChecks";
import { createRecoveringLostAnswer } from "./lostCreateRecovery";
import { operationError, ProviderOperationError, safeMessage } from "./operationErrors";
import { plainOutputs } from "./plainOutputs";
import { differs, mayBeSameName, replacingChanges } from "./stateComparison";
import { containsUnknown, isUnknown, type PropertyBag, UNKNOWN } from "./unknownValues";
import { unlessGone } from "./unlessGone";
import {
    changedSettingProperties,
    changedSettings,
    NO_CODE_WORKSPACE_SETTINGS,
    settingsBesideName,
    settingsFrom,
    settingsPatch,
    SOURCE_SETTING_RULES,
    withAgentPoolRule,
    WORKSPACE_SETTING_RULES,
    type WorkspaceSetting,
    type WorkspaceSettingOutputs,
} from "./workspaceSettings";
import { DEFAULT_UPGRADE_TIMEOUT_SECONDS, logUpgrade, planUpgrade, runUpgrade, UpgradeFailure, type LastUpgrade } from "./upgradeRunner";

// The upgrade runner's knobs, where the tests, the benchmarks and earlier versions of this module have them.
export { DEFAULT_UPGRADE_POLL_MS, DEFAULT_UPGRADE_TIMEOUT_SECONDS, setUpgradeLogger, type LastUpgrade, type UpgradeLogger } from "./upgradeRunner";

// ---------------------------------------------------------------------------------------------------------
// check

// Built once: the handler module is loaded once per host process, and `check` runs for every resource of a
// program (building a zod rule, and zod's first parse of it, costs more than the check itself).
/**
 * The inputs of a `wos:NoCodeWorkspace` and their rules (see `NoCodeWorkspaceArgs` in
 * `provider/noCodeWorkspace.ts`), with the vars whole (their values put back from `sensitiveValues`). Whether
 * an `infra` key is a variable of the module, and whether `moduleVersion` is the module's pin, need the
 * service: create and update say so before changing anything.
 */
const NO_CODE_WORKSPACE_INPUTS = withAgentPoolRule(
    z.object({
        noCodeModuleId: withRequiredReason(idRule("nocode-"), "noCodeModuleId is required (the id of a no-code module, 'nocode-...')"),
        projectId: withRequiredReason(idRule("prj-"), "projectId is required (the id of a project, 'prj-...')"),
        name: workspaceNameRule(),
        ...WORKSPACE_SETTING_RULES,
        ...SOURCE_SETTING_RULES,
        /** The workspace's vars this resource manages; a key at most once per category. */
        vars: objectList({
            item: "vars ({ key, value?, category, description?, hcl?, sensitive? })",
            // The SDK's: the value rule's messages name the rule, never the value.
            fields: noCodeWorkspaceVarShape(),
            identity: ["key", "category"],
            listProblems: workspaceVarListProblems,
        }).optional(),
        moduleVersion: moduleVersionRule().optional(),
        /** A number of seconds over 0 (zod's `number` already refuses an infinity, as not a number). */
        upgradeTimeoutSeconds: z.number({ error: "must be a number of seconds" }).positive({ error: "must be greater than 0" }).optional(),
        /** `1 of 3`: the rollout wave a failed upgrade's message names, at most 100 characters. */
        rolloutWave: z.string({ error: "must be a string, e.g. '1 of 3'" }).max(100, { error: "must be at most 100 characters" }).optional(),
    }),
);

/** Inputs of a `wos:NoCodeWorkspace` once known and checked. */
export type NoCodeWorkspaceInputs = z.output<typeof NO_CODE_WORKSPACE_INPUTS>;

/** A managed var as state holds it: the SDK's var with its defaults filled, a sensitive value the last one written. */
export type NoCodeWorkspaceVarOutput = Required<Omit<NoCodeWorkspaceVar, "description">> & Pick<NoCodeWorkspaceVar, "description">;

/**
 * Outputs of a `wos:NoCodeWorkspace`: the inputs as the service holds them, the module version the workspace
 * runs, whether a newer no-code version exists, and the last upgrade this resource ran.
 */
export interface NoCodeWorkspaceOutputs extends WorkspaceSettingOutputs {
    noCodeModuleId: string;
    sourceName?: string;
    sourceUrl?: string;
    /** The vars this resource manages, in the program's order. */
    vars: NoCodeWorkspaceVarOutput[];
    moduleVersion?: string;
    upgradeTimeoutSeconds?: number;
    rolloutWave?: string;
    noCodeUpgradeAvailable: boolean;
    lastUpgrade?: LastUpgrade;
}

/** How messages name the resource: `wos:NoCodeWorkspace 'site-prod' (ws-…) of no-code module nocode-…`. */
function describe(props: Partial<NoCodeWorkspaceInputs> | undefined, id?: string): string {
    const known = (value: unknown): value is string => typeof value === "string" && !isUnknown(value);
    const name = known(props?.name) ? ` '${props!.name}'` : "";
    const where = id ? ` (${id})` : "";
    const module = known(props?.noCodeModuleId) ? ` of no-code module ${props!.noCodeModuleId}` : "";
    return `wos:NoCodeWorkspace${name}${where}${module}`;
}

// ---------------------------------------------------------------------------------------------------------
// diff

/**
 * A var with its defaults filled, as state keeps it and as it is compared (also by the native plugin, to say
 * which vars of the list changed).
 */
export function normalizedVar(value: NoCodeWorkspaceVar | NoCodeWorkspaceVarOutput): NoCodeWorkspaceVarOutput {
    return plainOutputs<NoCodeWorkspaceVarOutput>({
        key: value.key,
        value: value.value ?? "",
        category: value.category,
        description: value.description || undefined, // `""` and `null` both mean none
        hcl: value.hcl ?? false,
        sensitive: value.sensitive ?? false,
    });
}

/** The identity of a var: its key in its category. */
function varIdentity(value: { key: string; category: string }): string {
    return `${value.category}\u0000${value.key}`;
}

/** The vars as a list that compares equal whatever their order (a key is unique per category). */
function varsSignature(value: unknown): unknown {
    if (value === undefined || value === null) return [];
    // Anything but a list has already failed in `planUpdate`, which `diff` runs first.
    return (value as NoCodeWorkspaceVar[])
        .map((item) => normalizedVar(item))
        .sort((a, b) => varIdentity(a).localeCompare(varIdentity(b)));
}

/** What an update has to do, decided from state and inputs alone. */
interface UpdatePlan {
    move: boolean;
    /** The settings changed in place with one PATCH. */
    attributes: Set<WorkspaceSetting>;
    /** An upgrade runs: a var added or changed, or another module version asked for. */
    upgrade: boolean;
    /** Another module version asked for. */
    versionChanged: boolean;
    /** Vars in state that the program no longer lists: deleted after the upgrade, or alone. */
    removedVars: NoCodeWorkspaceVarOutput[];
}

function planUpdate(olds: PropertyBag, news: PropertyBag): UpdatePlan {
    const oldVars = ((olds.vars as NoCodeWorkspaceVarOutput[] | undefined) ?? []).map(normalizedVar);
    const newVarsUnknown = containsUnknown(news.vars);
    const newVars = newVarsUnknown ? [] : ((news.vars as NoCodeWorkspaceVar[] | undefined) ?? []).map(normalizedVar);
    const oldByIdentity = new Map(oldVars.map((item) => [varIdentity(item), JSON.stringify(item)]));
    const varsUpserted = newVarsUnknown || newVars.some((item) => oldByIdentity.get(varIdentity(item)) !== JSON.stringify(item));
    const listed = new Set(newVars.map(varIdentity));
    // No version in the program means "whatever the module pins": leaving it out starts no upgrade.
    const versionChanged = news.moduleVersion !== undefined && differs(olds.moduleVersion, news.moduleVersion);
    return {
        move: differs(olds.projectId, news.projectId),
        attributes: changedSettings(olds, news, NO_CODE_WORKSPACE_SETTINGS),
        upgrade: varsUpserted || versionChanged,
        versionChanged,
        removedVars: newVarsUnknown ? [] : oldVars.filter((item) => !listed.has(varIdentity(item))),
    };
}

/** Every input whose change {@link diffWholeVars} sees: replacing, moving, in place or upgrading. */
function changedWholeVars(olds: PropertyBag, news: PropertyBag): string[] {
    const plan = planUpdate(olds, news);
    return [
        ...(differs(olds.noCodeModuleId, news.noCodeModuleId) ? ["noCodeModuleId"] : []),
        ...(plan.move ? ["projectId"] : []),
        ...changedSettingProperties(olds, news, NO_CODE_WORKSPACE_SETTINGS),
        ...(differs(olds.vars, news.vars, varsSignature) ? ["vars"] : []),
        ...(plan.versionChanged ? ["moduleVersion"] : []),
    ];
}

/**
 * Compares state and inputs without a request. Another no-code module replaces the workspace, deleting the
 * old one first when the new one would have its name (names are unique in the organization). Another
 * project moves it; settings change in place; a change of `vars` (in any order) or `moduleVersion` is an
 * upgrade. `upgradeTimeoutSeconds` alone is never a change. Defaults equal absence.
 */
async function diffWholeVars(_id: string, olds: PropertyBag, news: PropertyBag): Promise<dynamic.DiffResult> {
    const replaces = replacingChanges(REPLACING_INPUTS.NoCodeWorkspace, olds, news);
    const plan = planUpdate(olds, news);
    const varsChanged = differs(olds.vars, news.vars, varsSignature);
    const changes = replaces.length > 0 || plan.move || plan.attributes.size > 0 || plan.upgrade || varsChanged;
    return { changes, replaces, deleteBeforeReplace: replaces.length > 0 && mayBeSameName(olds.name, news.name) };
}

// ---------------------------------------------------------------------------------------------------------
// outputs

/** The settings of the workspace as the service answered them, its upgrade flag with them. */
function noCodeSettingsFrom(workspace: Workspace) {
    return {
        ...settingsFrom(workspace),
        sourceName: workspace.sourceName ?? undefined,
        sourceUrl: workspace.sourceUrl ?? undefined,
        noCodeUpgradeAvailable: workspace.noCodeUpgradeAvailable,
    };
}

/** The vars of a request: what the program lists, defaults filled. */
function requestVars(vars: readonly NoCodeWorkspaceVar[] | undefined): NoCodeWorkspaceVar[] {
    // A normalized var has no `description` key at all when it has none (`plainOutputs`).
    return (vars ?? []).map(normalizedVar);
}

/** The module, or an error that names the workspace and what it needed the module for. */
async function readModule(client: WosClient, what: string, operation: string, noCodeModuleId: string): Promise<NoCodeModule> {
    try {
        return await client.noCodeModules.read(noCodeModuleId);
    } catch (failure) {
        throw operationError(what, `${operation} (reading no-code module ${noCodeModuleId})`, failure);
    }
}

/** Fails, before anything changes, when the program asks for a version the module does not pin. */
function requirePinnedVersion(what: string, operation: string, moduleVersion: string | undefined, module: NoCodeModule): void {
    if (moduleVersion === undefined || moduleVersion === module.versionPin) return;
    throw new ProviderOperationError(
        `${what}: ${operation} failed: moduleVersion '${moduleVersion}' is not the version no-code module ${module.id} ` +
            `pins ('${module.versionPin}'); change the module's versionPin to '${moduleVersion}' or moduleVersion to ` +
            `'${module.versionPin}'. Nothing was changed.`,
    );
}

// ---------------------------------------------------------------------------------------------------------
// create

/**
 * Creates the workspace from the module with its settings and vars in one request, after making sure that
 * `moduleVersion`, when given, is the version the module pins (otherwise it fails naming both, before
 * anything is written). A lost answer is recovered by the workspace's unique name (see
 * {@link createRecoveringLostAnswer}); a workspace that held the name before is never taken over.
 */
async function createWholeVars(news: PropertyBag): Promise<dynamic.CreateResult> {
    const inputs = news as unknown as NoCodeWorkspaceInputs;
    const what = describe(inputs);
    const client = clientFromCredentials();
    const module = await readModule(client, what, "create", inputs.noCodeModuleId);
    requirePinnedVersion(what, "create", inputs.moduleVersion, module);
    const vars = requestVars(inputs.vars);
    const outputs = (workspace: Workspace): NoCodeWorkspaceOutputs =>
        plainOutputs<NoCodeWorkspaceOutputs>({
            noCodeModuleId: inputs.noCodeModuleId,
            ...noCodeSettingsFrom(workspace),
            // The vars are written with the workspace, in the same transaction, exactly as sent.
            vars: vars.map(normalizedVar),
            // A new workspace runs the module's current version, whose pin was just read.
            moduleVersion: module.versionPin,
            upgradeTimeoutSeconds: inputs.upgradeTimeoutSeconds,
            rolloutWave: inputs.rolloutWave,
        });
    return createRecoveringLostAnswer<Workspace>({
        what,
        noun: "workspace",
        inputs: news,
        create: () =>
            client.noCodeModules.createWorkspace(inputs.noCodeModuleId, {
                name: inputs.name,
                projectId: inputs.projectId,
                // Settings left out (`undefined`) are not sent; an empty `vars` is the same as none to the service.
                description: inputs.description,
                autoApply: inputs.autoApply,
                executionMode: inputs.executionMode,
                agentPoolId: inputs.agentPoolId,
                sourceName: inputs.sourceName,
                sourceUrl: inputs.sourceUrl,
                vars,
            }),
        findByUniqueName: async () => {
            try {
                return await client.workspaces.readByName(module.organization, inputs.name);
            } catch (failure) {
                if (WosNotFoundError.isInstance(failure)) return undefined;
                throw failure;
            }
        },
        // Only a workspace made from this module's registry module, in the project asked for, can be this create's.
        couldBeMadeByThisCreate: (found) =>
            (found.sourceModuleId === null || found.sourceModuleId === module.registryModuleId) &&
            // An answer that names no project (`""`) does not rule the workspace out.
            (found.projectId || inputs.projectId) === inputs.projectId,
        // The create is one transaction (settings and vars); one PATCH makes sure of the settings.
        finish: (found) => client.workspaces.update(found.id, settingsPatch(inputs, settingsBesideName(NO_CODE_WORKSPACE_SETTINGS))),
        outputs,
        // The vars came with the workspace; the next `up` applies whatever settings differ.
        partialOutputs: outputs,
    });
}

// ---------------------------------------------------------------------------------------------------------
// read

/** The managed vars as the service holds them now, in the order of `managed`; sensitive values from state. */
function managedVarsFrom(variables: readonly Variable[], managed: readonly NoCodeWorkspaceVarOutput[] | undefined): NoCodeWorkspaceVarOutput[] {
    const toOutput = (variable: Variable, stateValue: string): NoCodeWorkspaceVarOutput =>
        normalizedVar({
            key: variable.key,
            // The service never shows a sensitive value again: the last one written stands for it.
            value: variable.sensitive || variable.value === null ? stateValue : variable.value,
            category: variable.category,
            description: variable.description ?? undefined,
            hcl: variable.hcl,
            sensitive: variable.sensitive,
        });
    if (managed === undefined) return variables.map((variable) => toOutput(variable, ""));
    const byIdentity = new Map(variables.map((variable) => [varIdentity(variable), variable]));
    return managed.flatMap((item) => {
        const variable = byIdentity.get(varIdentity(item));
        return variable ? [toOutput(variable, item.value ?? "")] : [];
    });
}

/** The no-code module a workspace was made from, found through its registry module (a read by id alone). */
async function moduleIdOf(client: WosClient, workspace: Workspace): Promise<string | undefined> {
    if (!workspace.sourceModuleId) return undefined;
    const registryModule = await client.registryModules.read(workspace.sourceModuleId);
    return registryModule.noCodeModuleIds[0];
}

/**
 * Reads the workspace as the service holds it now: settings, project, the managed vars (a var deleted
 * outside Pulumi disappears, so the next `up` puts it back), `noCodeUpgradeAvailable`, and the module version
 * it runs (the module's pin when the workspace is on the module's current version; otherwise the one in
 * state). Sensitive values stay as state has them and never show drift. A workspace that is gone reads as
 * gone. Without state (a read by id alone) every var of the workspace is read, and the module is found
 * through the workspace's registry module.
 */
async function readWholeVars(id: string, props?: PropertyBag): Promise<dynamic.ReadResult> {
    const state = (props ?? {}) as Partial<NoCodeWorkspaceOutputs>;
    const client = clientFromCredentials();
    const found = await unlessGone(describe(state, id), "read", async () => {
        const workspace = await client.workspaces.read(id);
        const variables = await client.variables.listByWorkspaceName(workspace.organization, workspace.name);
        const noCodeModuleId = state.noCodeModuleId ?? (await moduleIdOf(client, workspace).catch(() => undefined));
        let moduleVersion = state.moduleVersion;
        if (!workspace.noCodeUpgradeAvailable && noCodeModuleId) {
            // On the module's current version: that version's pin is the module's pin. A deleted module leaves state's.
            const module = await client.noCodeModules.read(noCodeModuleId).catch((failure) => {
                if (WosNotFoundError.isInstance(failure)) return undefined;
                throw failure;
            });
            if (module) moduleVersion = module.versionPin;
        }
        return { workspace, variables, noCodeModuleId, moduleVersion };
    });
    if (!found) return {};
    const { workspace, variables, noCodeModuleId, moduleVersion } = found;
    // With no state at all (a read by id alone) nothing says which vars are not wanted: all are read.
    const managed = props?.name === undefined ? undefined : (state.vars ?? []);
    const outs = plainOutputs<NoCodeWorkspaceOutputs>({
        noCodeModuleId: noCodeModuleId ?? "",
        ...noCodeSettingsFrom(workspace),
        vars: managedVarsFrom(variables, managed),
        moduleVersion,
        upgradeTimeoutSeconds: state.upgradeTimeoutSeconds,
        rolloutWave: state.rolloutWave,
        lastUpgrade: state.lastUpgrade,
    });
    // What the program would say to keep things as they are: the outputs that are not inputs left out.
    const { noCodeUpgradeAvailable: _available, lastUpgrade: _lastUpgrade, ...inputs } = outs;
    return { id, props: outs, inputs };
}

// ---------------------------------------------------------------------------------------------------------
// update

/**
 * Deletes the workspace's variables that have the identities (key and category) of `removed`; one already
 * gone counts as deleted. `onDeleted` is told after each, so a failure midway reports what is left.
 */
async function deleteVars(client: WosClient, workspace: Workspace, removed: readonly NoCodeWorkspaceVarOutput[], onDeleted: (item: NoCodeWorkspaceVarOutput) => void): Promise<void> {
    const variables = await client.variables.listByWorkspaceName(workspace.organization, workspace.name);
    for (const item of removed) {
        const variable = variables.find((candidate) => varIdentity(candidate) === varIdentity(item));
        if (variable) await client.variables.delete(workspace.id, variable.id);
        onDeleted(item);
    }
}

/**
 * Applies a change in this order: when an upgrade will run, check `moduleVersion` against the module's pin
 * first (a mismatch fails naming both versions, before anything changes); move the workspace to its new
 * project; change its settings in place (one PATCH of what differs); run the upgrade when `vars` or
 * `moduleVersion` changed; then delete the vars the program no longer lists.
 *
 * On failure, Pulumi keeps the state's outputs as they were when the error carries no resource, so a
 * failed upgrade leaves `vars` and `moduleVersion` in state as before and the next `up` tries again. When
 * the move or the settings were already changed, the error is a partial success carrying the outputs as
 * they now are (new project and settings, the old vars and version, the failed run as `lastUpgrade`), so
 * state tells the truth and the next `up` retries only the upgrade.
 */
async function updateWholeVars(id: string, olds: PropertyBag, news: PropertyBag): Promise<dynamic.UpdateResult> {
    const inputs = news as unknown as NoCodeWorkspaceInputs;
    const what = describe(inputs, id);
    const plan = planUpdate(olds, news);
    const client = clientFromCredentials();

    // What is true of the workspace so far; the outputs of a partial success once something changed.
    let progress = {
        ...(olds as unknown as NoCodeWorkspaceOutputs),
        upgradeTimeoutSeconds: inputs.upgradeTimeoutSeconds,
        rolloutWave: inputs.rolloutWave,
    };
    let changedSomething = false;
    const fail = (operation: string, failure: unknown): never => {
        throw operationError(
            what,
            operation,
            failure,
            changedSomething ? { id, properties: plainOutputs(progress) as Record<string, unknown>, inputs: news } : undefined,
        );
    };

    const module = plan.upgrade ? await readModule(client, what, "update", inputs.noCodeModuleId) : undefined;
    if (module) requirePinnedVersion(what, "update", inputs.moduleVersion, module);

    let workspace: Workspace | undefined;
    if (plan.move) {
        try {
            await client.projects.moveWorkspaces(inputs.projectId, [id]);
        } catch (failure) {
            fail(`update (moving the workspace to project ${inputs.projectId})`, failure);
        }
        progress = { ...progress, projectId: inputs.projectId };
        changedSomething = true;
    }
    if (plan.attributes.size > 0) {
        const changed = plan.attributes;
        try {
            workspace = await client.workspaces.update(id, settingsPatch(inputs, changed));
        } catch (failure) {
            fail("update", failure);
        }
        progress = { ...progress, ...noCodeSettingsFrom(workspace!) };
        changedSomething = true;
    }
    if (plan.upgrade && module) {
        const vars = requestVars(inputs.vars);
        try {
            const lastUpgrade = await runUpgrade({
                client,
                noCodeModuleId: inputs.noCodeModuleId,
                workspaceId: id,
                vars,
                timeoutSeconds: inputs.upgradeTimeoutSeconds ?? DEFAULT_UPGRADE_TIMEOUT_SECONDS,
                what,
            });
            // The listed vars are applied; vars still to be removed stay in state until they are.
            progress = {
                ...progress,
                vars: [...vars.map(normalizedVar), ...plan.removedVars],
                moduleVersion: module.versionPin,
                noCodeUpgradeAvailable: false,
                lastUpgrade,
            };
            changedSomething = true;
        } catch (failure) {
            if (failure instanceof UpgradeFailure && failure.run) progress = { ...progress, lastUpgrade: failure.run };
            if (inputs.rolloutWave === undefined) fail("update (upgrade)", failure);
            // The workspaces of later waves depend on this one: the engine attempts none of them.
            fail(
                `update (upgrade, rollout wave ${inputs.rolloutWave})`,
                new Error(
                    `${safeMessage(failure)}. The rollout stops at wave ${inputs.rolloutWave}: the workspaces of later waves are not ` +
                        "attempted and keep their version and vars; the next `pulumi up` resumes it",
                ),
            );
        }
    }
    // The PATCH answers the workspace as it now is; only a move alone (answered without a body), an upgrade
    // (which changes its vars, version and upgrade flag) or no change at all need it read.
    if (workspace === undefined || plan.upgrade) {
        try {
            workspace = await client.workspaces.read(id);
        } catch (failure) {
            fail("update (reading the workspace)", failure);
        }
    }
    if (plan.removedVars.length > 0) {
        try {
            await deleteVars(client, workspace!, plan.removedVars, (removed) => {
                progress = { ...progress, vars: progress.vars.filter((item) => varIdentity(item) !== varIdentity(removed)) };
                changedSomething = true;
            });
        } catch (failure) {
            fail("update (removing vars no longer listed)", failure);
        }
    }
    return {
        outs: plainOutputs<NoCodeWorkspaceOutputs>({
            ...progress,
            ...noCodeSettingsFrom(workspace!),
            noCodeModuleId: inputs.noCodeModuleId,
            vars: (inputs.vars ?? []).map(normalizedVar),
        }),
    };
}

// ---------------------------------------------------------------------------------------------------------
// the upgrade's plan in a preview

/**
 * What a preview of an update does when the provider plans upgrades in previews (the native plugin's
 * `planUpgradesInPreview`): when the update would upgrade the workspace, start its plan and wait until it has
 * finished planning (its status and plan URL in the log), never confirming it. A plan that errors, or the
 * deadline, fails the preview with the status and the plan URL; nothing else is changed. Answers the plan's
 * run, or nothing when no upgrade would run or none can be planned yet (said in the log):
 *
 * - a var or `moduleVersion` not known until the `up` (another resource's output);
 * - a `moduleVersion` the module does not pin yet: the service plans towards the module's pin, so a version
 *   the same `up` pins first cannot be planned before it (the pin raised first, `pulumi up --target`, can).
 */
async function planWholeVarsInPreview(id: string, olds: PropertyBag, news: PropertyBag): Promise<LastUpgrade | undefined> {
    const inputs = news as unknown as NoCodeWorkspaceInputs;
    const what = describe(inputs, id);
    const plan = planUpdate(olds, news);
    if (!plan.upgrade) return undefined;
    if (containsUnknown(news.vars) || isUnknown(news.moduleVersion) || isUnknown(news.noCodeModuleId)) {
        logUpgrade(what, "no upgrade plan in this preview: its vars or version are known only during the update; `pulumi up` plans it");
        return undefined;
    }
    const client = clientFromCredentials();
    const module = await readModule(client, what, "preview (upgrade plan)", inputs.noCodeModuleId);
    if (inputs.moduleVersion !== undefined && inputs.moduleVersion !== module.versionPin) {
        logUpgrade(
            what,
            `no upgrade plan in this preview: moduleVersion '${inputs.moduleVersion}' is not yet the version no-code module ` +
                `${module.id} pins ('${module.versionPin}'), and the service plans towards the pin; the update plans it once ` +
                "the pin is raised (raise it first with `pulumi up --target` on the module to see the plan in a preview)",
        );
        return undefined;
    }
    try {
        return await planUpgrade({
            client,
            noCodeModuleId: inputs.noCodeModuleId,
            workspaceId: id,
            vars: requestVars(inputs.vars),
            timeoutSeconds: inputs.upgradeTimeoutSeconds ?? DEFAULT_UPGRADE_TIMEOUT_SECONDS,
            what,
        });
    } catch (failure) {
        const wave = inputs.rolloutWave === undefined ? "" : `, rollout wave ${inputs.rolloutWave}`;
        throw operationError(what, `preview (upgrade plan${wave})`, failure);
    }
}

// ---------------------------------------------------------------------------------------------------------
// delete

/** Deletes the workspace; one already gone counts as deleted. */
export async function delete_(id: string, props?: PropertyBag): Promise<void> {
    const client = clientFromCredentials();
    await unlessGone(describe(props as Partial<NoCodeWorkspaceInputs>, id), "delete", () => client.workspaces.delete(id));
}

export { delete_ as delete };

// ---------------------------------------------------------------------------------------------------------
// secret values apart (see varValuesApart.ts): what the engine sees

/** A property bag with whole vars: values kept apart in `sensitiveValues` put back, that property gone. */
function withWholeVars(bag: PropertyBag | undefined): PropertyBag {
    const { sensitiveValues, ...rest } = bag ?? {};
    const vars = rest.vars;
    if (!Array.isArray(vars) || !vars.every((item) => isRecord(item))) return rest;
    return { ...rest, vars: joinValues(vars as unknown as NoCodeWorkspaceVarOutput[], sensitiveValues, UNKNOWN) };
}

/** The keys of the values a bag keeps apart (the program's secret values, besides the sensitive vars). */
function keysApart(bag: PropertyBag | undefined): Set<string> {
    const values = bag?.sensitiveValues;
    return new Set(isRecord(values) ? Object.keys(values) : []);
}

/**
 * Outputs (or inputs) with the values of sensitive vars, and of those `keys` names, apart in
 * `sensitiveValues`; a bag with neither has no `sensitiveValues`. Every bag given lists `vars`: the outputs of
 * a create, read or update, the inputs a read answers, and the outputs of a partial success (the state's, or
 * those of the workspace a create found).
 */
function withValuesApart(bag: Record<string, unknown>, keys: ReadonlySet<string>): Record<string, unknown> {
    const { vars, sensitiveValues } = setValuesApart(bag.vars as NoCodeWorkspaceVarOutput[], keys);
    return Object.keys(sensitiveValues).length > 0 || keys.size > 0 ? { ...bag, vars, sensitiveValues } : { ...bag, vars };
}

/** Runs `operation` on whole vars; a partial success keeps the values apart in the state it leaves too. */
async function apart<T>(news: PropertyBag, keys: ReadonlySet<string>, operation: () => Promise<T>): Promise<T> {
    try {
        return await operation();
    } catch (failure) {
        // A partial success carries both the resource's id and its outputs (ProviderOperationError sets them together).
        if (!(failure instanceof ProviderOperationError) || !failure.properties) throw failure;
        throw new ProviderOperationError(failure.message, {
            id: failure.id!,
            properties: withValuesApart(failure.properties, keys),
            inputs: news,
        });
    }
}

/**
 * Validates the inputs with the rules of `sdk/model` before any request: the ids and their prefixes, the
 * name, description and source rules, execution mode and its agent pool (required with `agent`, refused
 * with `remote`), each var (key, value, category, description, flags) and a key at most once per category,
 * the module version format and a positive timeout, with the vars whole; `sensitiveValues` must be a map of
 * strings. Unknown values pass. Reasons never quote a var's value. Answers the inputs as the program gave
 * them (values apart).
 */
export async function check(_olds: PropertyBag, news: PropertyBag): Promise<dynamic.CheckResult> {
    const failures = inputFailures(NO_CODE_WORKSPACE_INPUTS, withWholeVars(news));
    const values = news.sensitiveValues;
    if (values !== undefined && !isUnknown(values) && (!isRecord(values) || !Object.values(values).every((value) => typeof value === "string"))) {
        failures.push({ property: "sensitiveValues", reason: "sensitiveValues must be a map of strings (the values of sensitive vars, by 'category:key')" });
    }
    return { inputs: { ...news }, failures };
}

export async function diff(id: string, olds: PropertyBag, news: PropertyBag): Promise<dynamic.DiffResult> {
    return diffWholeVars(id, withWholeVars(olds), withWholeVars(news));
}

/**
 * Every input whose change {@link diff} sees (`vars` for a change of any var or of a secret value): what
 * the native plugin's detailed diff lists. Decided without a request.
 */
export function changedProperties(olds: PropertyBag, news: PropertyBag): string[] {
    return changedWholeVars(withWholeVars(olds), withWholeVars(news));
}

export async function create(news: PropertyBag): Promise<dynamic.CreateResult> {
    const keys = keysApart(news);
    const result = await apart(news, keys, () => createWholeVars(withWholeVars(news)));
    return { ...result, outs: withValuesApart(result.outs as Record<string, unknown>, keys) };
}

export async function read(id: string, props?: PropertyBag): Promise<dynamic.ReadResult> {
    const keys = keysApart(props);
    // No state (a read by id alone) reads as an empty bag: both say nothing of the vars.
    const result = await readWholeVars(id, withWholeVars(props));
    return {
        ...result,
        ...(result.props ? { props: withValuesApart(result.props as Record<string, unknown>, keys) } : {}),
        ...(result.inputs ? { inputs: withValuesApart(result.inputs as Record<string, unknown>, keys) } : {}),
    };
}

/**
 * The upgrade's plan of an update, made during a preview and left unconfirmed (see {@link planWholeVarsInPreview}):
 * the native plugin calls it when `planUpgradesInPreview` is set. The dynamic provider host never runs an
 * update during a preview, so the dynamic resource never gets here.
 */
export async function planInPreview(id: string, olds: PropertyBag, news: PropertyBag): Promise<LastUpgrade | undefined> {
    return planWholeVarsInPreview(id, withWholeVars(olds), withWholeVars(news));
}

export async function update(id: string, olds: PropertyBag, news: PropertyBag): Promise<dynamic.UpdateResult> {
    const keys = keysApart(news);
    const result = await apart(news, keys, () => updateWholeVars(id, withWholeVars(olds), withWholeVars(news)));
    // An update that does not fail always answers outputs.
    return { ...result, outs: withValuesApart(result.outs as Record<string, unknown>, keys) };
}
