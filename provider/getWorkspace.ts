/**
 * `wos.getWorkspace` / `wos.getWorkspaceOutput`: look up an existing workspace by organization and name, as
 * the Terraform provider's `tfe_workspace` data source does.
 *
 * Runs the SDK in the program's process with the resources' credentials and default organization (see
 * `lookupSupport.ts`). Nothing here is serialized into state.
 *
 * @module
 */
import * as pulumi from "@pulumi/pulumi";
import { WosNotFoundError, type Workspace } from "../sdk";
import { lookupClient, lookupOrganization, optionalInput } from "./lookupSupport";

/** Arguments of {@link getWorkspace}. */
export interface GetWorkspaceArgs {
    /** Name of the organization; default: the stack config `wos:organization`, else `WOS_ORGANIZATION`. */
    organization?: string;
    /** The workspace's name (compared case-insensitively, as the service does). */
    name: string;
}

/** Arguments of {@link getWorkspaceOutput}: the same, as inputs. */
export interface GetWorkspaceOutputArgs {
    /** Name of the organization; default: the stack config `wos:organization`, else `WOS_ORGANIZATION`. */
    organization?: pulumi.Input<string>;
    /** The workspace's name. */
    name: pulumi.Input<string>;
}

/** A workspace as a lookup answers it ({@link getWorkspace}, {@link getWorkspaces}). Absent optional fields are left out. */
export interface GetWorkspaceResult {
    /** The workspace's id (`ws-…`): what a `wos.Variable` takes as `workspaceId`. */
    id: string;
    /** The organization's name. */
    organization: string;
    /** The workspace's name. */
    name: string;
    /** The project the workspace is in (`prj-…`). */
    projectId: string;
    /** The description; left out when none is set. */
    description?: string;
    /** Whether a successful plan is applied without a confirm. */
    autoApply: boolean;
    /** Where its runs execute: `remote` (on the service) or `agent` (on an agent pool). */
    executionMode: "remote" | "agent";
    /** The agent pool (`apool-…`), with `agent`. */
    agentPoolId?: string;
    /** How it was made: `tfe-api` (the API or a seed) or `tfe-module` (a no-code module). */
    source?: string;
    /** The application shown as having made the workspace; left out when none. */
    sourceName?: string;
    /** A URL of that application; left out when none. */
    sourceUrl?: string;
    /** The registry module (`mod-…`) of the no-code module it was made from, if any. */
    sourceModuleId?: string;
    /** Whether its no-code module has a newer version than the one it runs. */
    noCodeUpgradeAvailable: boolean;
    /** The keys of the tags it inherits from its project. */
    tagNames: string[];
    /** The auto-destroy duration it inherits from its project, when set. */
    autoDestroyActivityDuration?: string;
}

/**
 * A workspace of the SDK as a lookup answers it: plain data, absent values left out.
 *
 * @internal shared by the workspace lookups.
 */
export function workspaceResult(workspace: Workspace, organization: string): GetWorkspaceResult {
    const result: GetWorkspaceResult = {
        id: workspace.id,
        organization: workspace.organization || organization,
        name: workspace.name,
        projectId: workspace.projectId,
        autoApply: workspace.autoApply,
        executionMode: workspace.executionMode,
        noCodeUpgradeAvailable: workspace.noCodeUpgradeAvailable,
        tagNames: [...workspace.tagNames],
    };
    if (workspace.description) result.description = workspace.description;
    if (workspace.agentPoolId) result.agentPoolId = workspace.agentPoolId;
    if (workspace.source) result.source = workspace.source;
    if (workspace.sourceName) result.sourceName = workspace.sourceName;
    if (workspace.sourceUrl) result.sourceUrl = workspace.sourceUrl;
    if (workspace.sourceModuleId) result.sourceModuleId = workspace.sourceModuleId;
    if (workspace.autoDestroyActivityDuration) result.autoDestroyActivityDuration = workspace.autoDestroyActivityDuration;
    return result;
}

/**
 * Finds the workspace named `name` in `organization` (the default organization when left out). Fails when
 * there is none (or the token may not read it).
 */
export async function getWorkspace(args: GetWorkspaceArgs): Promise<GetWorkspaceResult> {
    const organization = lookupOrganization("wos.getWorkspace", args.organization);
    const client = lookupClient("wos.getWorkspace");
    try {
        return workspaceResult(await client.workspaces.readByName(organization, args.name), organization);
    } catch (failure) {
        if (WosNotFoundError.isInstance(failure)) {
            throw new Error(`wos.getWorkspace: no workspace named '${args.name}' in organization '${organization}' (or the token may not read it)`);
        }
        throw failure;
    }
}

/** {@link getWorkspace} for inputs that may not be known yet; the result is an `Output`. */
export function getWorkspaceOutput(args: GetWorkspaceOutputArgs): pulumi.Output<GetWorkspaceResult> {
    return pulumi
        .all([optionalInput(args.organization), args.name])
        .apply(([organization, name]) => getWorkspace({ ...(organization === undefined ? {} : { organization }), name }));
}
