/**
 * `wos.getProjects` / `wos.getProjectsOutput`: the projects of an organization that the token can see,
 * filtered by a name search or exact names, every page of them, as the Terraform provider's `tfe_projects`
 * data source does.
 *
 * Runs the SDK in the program's process with the resources' credentials and default organization (see
 * `lookupSupport.ts`). Nothing here is serialized into state.
 *
 * @module
 */
import * as pulumi from "@pulumi/pulumi";
import { lookUpProjects, type GetProjectsArgs, type GetProjectsItem, type GetProjectsResult } from "./handlers/lookups";
import { optionalInput, programLookupSettings } from "./lookupSupport";

export type { GetProjectsArgs, GetProjectsItem, GetProjectsResult };

/** Arguments of {@link getProjectsOutput}: the same, as inputs. */
export interface GetProjectsOutputArgs {
    /** Name of the organization; default: the stack config `wos:organization`, else `WOS_ORGANIZATION`. */
    organization?: pulumi.Input<string>;
    /** Only projects whose name holds this text, in any case. */
    query?: pulumi.Input<string>;
    /** Only the projects of these names, in any case. */
    names?: pulumi.Input<pulumi.Input<string>[]>;
}



/**
 * Every project of `organization` (the default organization when left out) that the token can see and the
 * filters keep, across every page. None is not an error: the lists are empty.
 */
export async function getProjects(args: GetProjectsArgs = {}): Promise<GetProjectsResult> {
    return lookUpProjects(programLookupSettings, args);
}

/** {@link getProjects} for inputs that may not be known yet; the result is an `Output`. */
export function getProjectsOutput(args: GetProjectsOutputArgs = {}): pulumi.Output<GetProjectsResult> {
    return pulumi
        .all([optionalInput(args.organization), optionalInput(args.query), optionalInput(args.names)])
        .apply(([organization, query, names]) =>
            getProjects({
                ...(organization === undefined ? {} : { organization }),
                ...(query === undefined ? {} : { query }),
                ...(names === undefined ? {} : { names: [...names] }),
            }),
        );
}
