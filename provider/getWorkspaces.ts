/**
 * `wos.getWorkspaces` / `wos.getWorkspacesOutput`: the workspaces of an organization that the token can
 * read, filtered by a name search and a project, every page of them, as the Terraform provider's
 * `tfe_workspace_ids` data source does.
 *
 * Runs the SDK in the program's process with the resources' credentials and default organization (see
 * `lookupSupport.ts`). Nothing here is serialized into state.
 *
 * @module
 */
import * as pulumi from "@pulumi/pulumi";
import { workspaceResult, type GetWorkspaceResult } from "./getWorkspace";
import { lookupClient, lookupOrganization, optionalInput } from "./lookupSupport";

/** Arguments of {@link getWorkspaces}. */
export interface GetWorkspacesArgs {
    /** Name of the organization; default: the stack config `wos:organization`, else `WOS_ORGANIZATION`. */
    organization?: string;
    /** Only workspaces whose name holds this text, in any case (every character literal). */
    search?: string;
    /** Only the workspaces of this project (`prj-…`). */
    projectId?: string;
}

/** Arguments of {@link getWorkspacesOutput}: the same, as inputs. */
export interface GetWorkspacesOutputArgs {
    /** Name of the organization; default: the stack config `wos:organization`, else `WOS_ORGANIZATION`. */
    organization?: pulumi.Input<string>;
    /** Only workspaces whose name holds this text, in any case. */
    search?: pulumi.Input<string>;
    /** Only the workspaces of this project. */
    projectId?: pulumi.Input<string>;
}

/** What {@link getWorkspaces} finds. */
export interface GetWorkspacesResult {
    /** The organization that was searched. */
    organization: string;
    /** The workspaces, in the order they were made. */
    workspaces: GetWorkspaceResult[];
    /** Their names, in the same order. */
    names: string[];
    /** Their ids by name. */
    ids: Record<string, string>;
}

/** Page size of the lookup: the service's largest, so that few requests cover an organization. */
const PAGE_SIZE = 100;

/**
 * Every workspace of `organization` (the default organization when left out) that the token can read and
 * the filters keep, across every page. None is not an error: the lists are empty.
 */
export async function getWorkspaces(args: GetWorkspacesArgs = {}): Promise<GetWorkspacesResult> {
    const organization = lookupOrganization("wos.getWorkspaces", args.organization);
    const client = lookupClient("wos.getWorkspaces");
    const workspaces: GetWorkspaceResult[] = [];
    const options = {
        pageSize: PAGE_SIZE,
        ...(args.search !== undefined ? { search: args.search } : {}),
        ...(args.projectId !== undefined ? { projectId: args.projectId } : {}),
    };
    for await (const workspace of client.workspaces.listAll(organization, options)) workspaces.push(workspaceResult(workspace, organization));
    return {
        organization,
        workspaces,
        names: workspaces.map((workspace) => workspace.name),
        ids: Object.fromEntries(workspaces.map((workspace) => [workspace.name, workspace.id])),
    };
}

/** {@link getWorkspaces} for inputs that may not be known yet; the result is an `Output`. */
export function getWorkspacesOutput(args: GetWorkspacesOutputArgs = {}): pulumi.Output<GetWorkspacesResult> {
    return pulumi
        .all([optionalInput(args.organization), optionalInput(args.search), optionalInput(args.projectId)])
        .apply(([organization, search, projectId]) =>
            getWorkspaces({
                ...(organization === undefined ? {} : { organization }),
                ...(search === undefined ? {} : { search }),
                ...(projectId === undefined ? {} : { projectId }),
            }),
        );
}
