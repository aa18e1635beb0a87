/**
 * `wos.getProject` / `wos.getProjectOutput`: look up an existing project by organization and name.
 *
 * Dynamic providers have no invokes, so the lookup runs the SDK right in the program's process, with the
 * same credentials as the resources: stack config `wos:address` / `wos:token`, else `WOS_ADDRESS` /
 * `WOS_TOKEN`, and the same default organization (see `lookupSupport.ts`). Nothing here is serialized into
 * state.
 *
 * @module
 */
import * as pulumi from "@pulumi/pulumi";
import { lookUpProject, type GetProjectArgs, type GetProjectResult } from "./handlers/lookups";
import { optionalInput, programLookupSettings } from "./lookupSupport";

export type { GetProjectArgs, GetProjectResult };

/** Arguments of {@link getProjectOutput}: the same, as inputs. */
export interface GetProjectOutputArgs {
    /** Name of the organization; default: the stack config `wos:organization`, else `WOS_ORGANIZATION`. */
    organization?: pulumi.Input<string>;
    /** The project's name. */
    name: pulumi.Input<string>;
}


/**
 * Finds the project named `name` in `organization` (the default organization when left out), with its
 * duration and tags. Fails when there is none (or the token may not see it).
 */
export async function getProject(args: GetProjectArgs): Promise<GetProjectResult> {
    return lookUpProject(programLookupSettings, args);
}

/** {@link getProject} for inputs that may not be known yet; the result is an `Output`. */
export function getProjectOutput(args: GetProjectOutputArgs): pulumi.Output<GetProjectResult> {
    return pulumi
        .all([optionalInput(args.organization), args.name])
        .apply(([organization, name]) => getProject({ ...(organization === undefined ? {} : { organization }), name }));
}
