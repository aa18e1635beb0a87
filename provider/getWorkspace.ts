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
import { lookUpWorkspace, type GetWorkspaceArgs, type GetWorkspaceResult } from "./handlers/lookups";
import { optionalInput, programLookupSettings } from "./lookupSupport";

export type { GetWorkspaceArgs, GetWorkspaceResult };

/** Arguments of {@link getWorkspaceOutput}: the same, as inputs. */
export interface GetWorkspaceOutputArgs {
    /** Name of the organization; default: the stack config `wos:organization`, else `WOS_ORGANIZATION`. */
    organization?: pulumi.Input<string>;
    /** The workspace's name. */
    name: pulumi.Input<string>;
}

/**
 * Finds the workspace named `name` in `organization` (the default organization when left out). Fails when
 * there is none (or the token may not read it).
 */
export async function getWorkspace(args: GetWorkspaceArgs): Promise<GetWorkspaceResult> {
    return lookUpWorkspace(programLookupSettings, args);
}

/** {@link getWorkspace} for inputs that may not be known yet; the result is an `Output`. */
export function getWorkspaceOutput(args: GetWorkspaceOutputArgs): pulumi.Output<GetWorkspaceResult> {
    return pulumi
        .all([optionalInput(args.organization), args.name])
        .apply(([organization, name]) => getWorkspace({ ...(organization === undefined ? {} : { organization }), name }));
}
