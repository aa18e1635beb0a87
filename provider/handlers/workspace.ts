/**
 * The real logic of the `wos:Workspace` dynamic resource: a workspace made through the API (not from a
 * no-code module), its project and its settings. Called by the thin shell in `provider/workspace.ts` through
 * `require("pulumi-wos/dist/provider/handlers/workspace")`, a stable module path: serialized providers in
 * existing state load it by name, so never move or rename it.
 *
 * A change of `projectId` moves the workspace with the move endpoint (`POST
 * /projects/:id/relationships/workspaces`), never replacing it: its variables and history stay. Leaving
 * `projectId` out means "whatever project it is in" (the organization's `Default Project` when it is made),
 * as the Terraform provider's optional and computed `project_id`.
 *
 * @module
 */
import type * as dynamic from "@pulumi/pulumi/dynamic";
import { z } from "zod";
import type { WosClient } from "../../sdk";
import { WosNotFoundError } from "../../sdk/errors";
import { idRule, organizationNameRule, workspaceNameRule, type Workspace } from "../../sdk/model";
import { clientFromCredentials, MISSING_ORGANIZATION_REASON, withDefaultOrganization } from "./credentials";
import { inputFailures, withRequiredReason } from "./inputChecks";
import { createRecoveringLostAnswer } from "./lostCreateRecovery";
import { operationError } from "./operationErrors";
import { plainOutputs } from "./plainOutputs";
import { REPLACING_INPUTS } from "./replacingInputs";
import { differs, mayBeSameName, replacingChanges } from "./stateComparison";
import { isUnknown, type PropertyBag } from "./unknownValues";
import { unlessGone } from "./unlessGone";
import {
    changedSettingProperties,
    changedSettings,
    settingsBesideName,
    settingsFrom,
    settingsPatch,
    withAgentPoolRule,
    WORKSPACE_SETTING_RULES,
    WORKSPACE_SETTINGS,
    type WorkspaceSetting,
    type WorkspaceSettingOutputs,
} from "./workspaceSettings";

// Built once: the handler module is loaded once per host process, and `check` runs for every resource of a
// program (building a zod rule, and zod's first parse of it, costs more than the check itself).
/** The inputs of a `wos:Workspace` and their rules (see `WorkspaceArgs` in `provider/workspace.ts`). */
const WORKSPACE_INPUTS = withAgentPoolRule(
    z.object({
        /** Filled in by `check` from the default organization when the program left it out. */
        organization: withRequiredReason(organizationNameRule(), MISSING_ORGANIZATION_REASON),
        name: workspaceNameRule(),
        /** Default: the project it is in (the organization's `Default Project` when it is made). */
        projectId: idRule("prj-").optional(),
        ...WORKSPACE_SETTING_RULES,
    }),
);

/** Inputs of a `wos:Workspace` once known and checked. */
export type WorkspaceInputs = z.output<typeof WORKSPACE_INPUTS>;

/** Outputs of a `wos:Workspace`: the inputs as the service holds them, the project always named. */
export interface WorkspaceOutputs extends WorkspaceSettingOutputs {
    organization: string;
}

/** How messages name the resource: `wos:Workspace 'web' (ws-…) in organization 'acme'`. */
function describe(props: Partial<WorkspaceInputs> | undefined, id?: string): string {
    const known = (value: unknown): value is string => typeof value === "string" && !isUnknown(value);
    const name = known(props?.name) ? ` '${props!.name}'` : "";
    const where = id ? ` (${id})` : "";
    const organization = known(props?.organization) ? ` in organization '${props!.organization}'` : "";
    return `wos:Workspace${name}${where}${organization}`;
}

// ---------------------------------------------------------------------------------------------------------
// check

/**
 * Validates the inputs with the rules of `sdk/model` before any request: organization (the default
 * organization's when left out, written into the inputs so that state holds it) and name required, the
 * name pattern and length, the `prj-` and `apool-` ids, description length, `autoApply` a boolean, the
 * execution mode and its agent pool (required with `agent`, refused with `remote`). Whether the project and
 * the pool exist, and the name is free, is the service's to say. Unknown values pass.
 */
export async function check(_olds: PropertyBag, given: PropertyBag): Promise<dynamic.CheckResult> {
    const news = withDefaultOrganization(given);
    return { inputs: { ...news }, failures: inputFailures(WORKSPACE_INPUTS, news) };
}

// ---------------------------------------------------------------------------------------------------------
// diff

/** What an update has to do, decided from state and inputs alone. */
interface UpdatePlan {
    /** Another project named: move the workspace there. */
    move: boolean;
    /** The settings changed in place with one PATCH. */
    attributes: Set<WorkspaceSetting>;
}

function planUpdate(olds: PropertyBag, news: PropertyBag): UpdatePlan {
    const attributes = changedSettings(olds, news, WORKSPACE_SETTINGS);
    // No project in the program means "the one it is in": leaving it out never moves the workspace.
    return { move: news.projectId !== undefined && news.projectId !== null && differs(olds.projectId, news.projectId), attributes };
}

/**
 * Every input whose change {@link diff} sees, replacing, moving or in place: what the native plugin's
 * detailed diff lists. Decided without a request.
 */
export function changedProperties(olds: PropertyBag, news: PropertyBag): string[] {
    const plan = planUpdate(olds, news);
    return [
        ...(differs(olds.organization, news.organization) ? ["organization"] : []),
        ...(plan.move ? ["projectId"] : []),
        ...changedSettingProperties(olds, news, WORKSPACE_SETTINGS),
    ];
}

/**
 * Compares state and the checked inputs (organization resolved) without a request. Another organization
 * replaces the workspace, deleting the old one first when the new one could take its name in the same
 * organization; another project moves it; the settings change in place. Defaults equal absence.
 */
export async function diff(_id: string, olds: PropertyBag, news: PropertyBag): Promise<dynamic.DiffResult> {
    const replaces = replacingChanges(REPLACING_INPUTS.Workspace, olds, news);
    const plan = planUpdate(olds, news);
    const changes = replaces.length > 0 || plan.move || plan.attributes.size > 0;
    const deleteBeforeReplace =
        replaces.length > 0 && mayBeSameName(olds.organization, news.organization) && mayBeSameName(olds.name, news.name);
    return { changes, replaces, deleteBeforeReplace };
}

// ---------------------------------------------------------------------------------------------------------
// create, read, update, delete

/** Outputs from the workspace as the service answered it. */
function outputsFrom(organization: string, workspace: Workspace): WorkspaceOutputs {
    return plainOutputs<WorkspaceOutputs>({ organization, ...settingsFrom(workspace) });
}

/** The workspace of the organization that has the name (names are unique in any case), if any. */
async function findByName(client: WosClient, organization: string, name: string): Promise<Workspace | undefined> {
    try {
        return await client.workspaces.readByName(organization, name);
    } catch (failure) {
        if (WosNotFoundError.isInstance(failure)) return undefined;
        throw failure;
    }
}

/**
 * Creates the workspace with its project and settings in one request. A lost answer is recovered by the
 * workspace's unique name (see {@link createRecoveringLostAnswer}): only a workspace made through the API
 * (not from a no-code module), in the project asked for when one was, can be this create's; a workspace that
 * held the name before is never taken over. A refusal is reported as the service worded it.
 */
export async function create(news: PropertyBag): Promise<dynamic.CreateResult> {
    const inputs = news as unknown as WorkspaceInputs;
    const client = clientFromCredentials();
    // `null` means absent, as in `check`: the create request leaves such a setting to the service's default.
    const projectId = inputs.projectId ?? undefined;
    return createRecoveringLostAnswer<Workspace>({
        what: describe(inputs),
        noun: "workspace",
        inputs: news,
        create: () =>
            client.workspaces.create(inputs.organization, {
                name: inputs.name,
                projectId,
                description: inputs.description ?? undefined,
                autoApply: inputs.autoApply ?? undefined,
                executionMode: inputs.executionMode ?? undefined,
                agentPoolId: inputs.agentPoolId ?? undefined,
            }),
        findByUniqueName: () => findByName(client, inputs.organization, inputs.name),
        // A workspace made from a no-code module has the source `tfe-module` (and names the module in
        // `sourceModuleId`); the source alone tells it, so it is the one thing compared. Both services name a
        // workspace's project in every answer: one in another project than asked for is someone else's.
        couldBeMadeByThisCreate: (found) => found.source !== "tfe-module" && (projectId === undefined || found.projectId === projectId),
        // The create is one transaction, so the workspace should be as requested; one PATCH makes sure of it.
        finish: (found) => client.workspaces.update(found.id, settingsPatch(inputs, settingsBesideName(WORKSPACE_SETTINGS))),
        outputs: (workspace) => outputsFrom(inputs.organization, workspace),
        // What the found workspace is: the next `up` applies whatever settings differ.
        partialOutputs: (found) => outputsFrom(inputs.organization, found),
    });
}

/**
 * Reads the workspace as the service holds it now (name, project, settings), so that `pulumi refresh` shows
 * drift, also as new inputs so that the next `up` puts back what the program says. A workspace that is gone
 * reads as gone. The organization is state's, else the one the service names (a read by id alone).
 */
export async function read(id: string, props?: PropertyBag): Promise<dynamic.ReadResult> {
    const state = (props ?? {}) as Partial<WorkspaceOutputs>;
    const client = clientFromCredentials();
    const workspace = await unlessGone(describe(state, id), "read", () => client.workspaces.read(id));
    if (!workspace) return {};
    const outs = outputsFrom(state.organization ?? workspace.organization, workspace);
    return { id, props: outs, inputs: outs };
}

/**
 * Moves the workspace when the program names another project (the move endpoint, under its rules: the
 * caller needs `maintain` on both projects), then changes the settings that differ in one PATCH, sending
 * only what changed so that concurrent edits of other fields survive. When the move succeeded and the PATCH
 * failed, the error is a partial success whose outputs name the new project, so state tells the truth.
 */
export async function update(id: string, olds: PropertyBag, news: PropertyBag): Promise<dynamic.UpdateResult> {
    const inputs = news as unknown as WorkspaceInputs;
    const what = describe(inputs, id);
    const plan = planUpdate(olds, news);
    const client = clientFromCredentials();
    let moved = false;
    if (plan.move) {
        try {
            await client.projects.moveWorkspaces(inputs.projectId!, [id]);
            moved = true;
        } catch (failure) {
            throw operationError(what, `update (moving the workspace to project ${inputs.projectId})`, failure);
        }
    }
    const changed = plan.attributes;
    try {
        const workspace =
            changed.size === 0
                ? await client.workspaces.read(id)
                : await client.workspaces.update(id, settingsPatch(inputs, changed));
        return { outs: outputsFrom(inputs.organization, workspace) };
    } catch (failure) {
        const partial = moved
            ? { id, properties: plainOutputs({ ...(olds as object), projectId: inputs.projectId }) as Record<string, unknown>, inputs: news }
            : undefined;
        throw operationError(what, "update", failure, partial);
    }
}

/** Deletes the workspace (and with it its variables); one already gone counts as deleted. */
export async function delete_(id: string, props?: PropertyBag): Promise<void> {
    const client = clientFromCredentials();
    await unlessGone(describe(props as Partial<WorkspaceInputs>, id), "delete", () => client.workspaces.delete(id));
}

export { delete_ as delete };
