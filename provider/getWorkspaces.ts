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
import { lookUpWorkspaces, type GetWorkspacesArgs, type GetWorkspacesResult } from "./handlers/lookups";
import { optionalInput, programLookupSettings } from "./lookupSupport";

export type { GetWorkspacesArgs, GetWorkspacesResult };

/** Arguments of {@link getWorkspacesOutput}: the same, as inputs. */
export interface GetWorkspacesOutputArgs {
    /** Name of the organization; default: the stack config `wos:organization`, else `WOS_ORGANIZATION`. */
    organization?: pulumi.Input<string>;
    /** Only workspaces whose name holds this text, in any case. */
    search?: pulumi.Input<string>;
    /** Only the workspaces of this project. */
    projectId?: pulumi.Input<string>;
    /** Only the workspaces made from this no-code module, whichever of its versions they run. */
    noCodeModuleId?: pulumi.Input<string>;
}



/**
 * Every workspace of `organization` (the default organization when left out) that the token can read and
 * the filters keep, across every page. None is not an error: the lists are empty.
 */
export async function getWorkspaces(args: GetWorkspacesArgs = {}): Promise<GetWorkspacesResult> {
    return lookUpWorkspaces(programLookupSettings, args);
}

/** {@link getWorkspaces} for inputs that may not be known yet; the result is an `Output`. */
export function getWorkspacesOutput(args: GetWorkspacesOutputArgs = {}): pulumi.Output<GetWorkspacesResult> {
    return pulumi
        .all([optionalInput(args.organization), optionalInput(args.search), optionalInput(args.projectId), optionalInput(args.noCodeModuleId)])
        .apply(([organization, search, projectId, noCodeModuleId]) =>
            getWorkspaces({
                ...(organization === undefined ? {} : { organization }),
                ...(search === undefined ? {} : { search }),
                ...(projectId === undefined ? {} : { projectId }),
                ...(noCodeModuleId === undefined ? {} : { noCodeModuleId }),
            }),
        );
}
