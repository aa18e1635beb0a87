/**
 * `wos.getNoCodeModule` / `wos.getNoCodeModuleOutput`: look up a no-code module by its id, with its
 * variable-options sets, as the Terraform provider's `tfe_no_code_module` data source does.
 *
 * Runs the SDK in the program's process with the resources' credentials (see `lookupSupport.ts`). Nothing
 * here is serialized into state.
 *
 * @module
 */
import * as pulumi from "@pulumi/pulumi";
import {
    lookUpNoCodeModule,
    type GetNoCodeModuleArgs,
    type GetNoCodeModuleResult,
    type GetNoCodeModuleVariableOptions,
    type GetNoCodeModuleWorkspace,
} from "./handlers/lookups";
import { programLookupSettings } from "./lookupSupport";

export type { GetNoCodeModuleArgs, GetNoCodeModuleResult, GetNoCodeModuleVariableOptions, GetNoCodeModuleWorkspace };

/** Arguments of {@link getNoCodeModuleOutput}: the same, as inputs. */
export interface GetNoCodeModuleOutputArgs {
    /** The no-code module's id (`nocode-…`). */
    id: pulumi.Input<string>;
}


/** Finds the no-code module with this id. Fails when there is none (or it is of another organization than the token's). */
export async function getNoCodeModule(args: GetNoCodeModuleArgs): Promise<GetNoCodeModuleResult> {
    return lookUpNoCodeModule(programLookupSettings, args);
}

/** {@link getNoCodeModule} for an id that may not be known yet; the result is an `Output`. */
export function getNoCodeModuleOutput(args: GetNoCodeModuleOutputArgs): pulumi.Output<GetNoCodeModuleResult> {
    return pulumi.output(args.id).apply((id) => getNoCodeModule({ id }));
}
