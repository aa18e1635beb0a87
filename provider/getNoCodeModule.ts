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
import { WosNotFoundError } from "../sdk";
import { lookupClient } from "./lookupSupport";

/** Arguments of {@link getNoCodeModule}. */
export interface GetNoCodeModuleArgs {
    /** The no-code module's id (`nocode-…`). */
    id: string;
}

/** Arguments of {@link getNoCodeModuleOutput}: the same, as inputs. */
export interface GetNoCodeModuleOutputArgs {
    /** The no-code module's id (`nocode-…`). */
    id: pulumi.Input<string>;
}

/** One variable-options set of a {@link GetNoCodeModuleResult}. */
export interface GetNoCodeModuleVariableOptions {
    /** `ncvaropt-…` */
    id: string;
    /** The module variable the set restricts. */
    variableName: string;
    /** That variable's declared type (`string`, `number`, ...). */
    variableType: string;
    /** The allowed values, as text. */
    options: string[];
}

/** What {@link getNoCodeModule} finds. */
export interface GetNoCodeModuleResult {
    /** `nocode-…` */
    id: string;
    /** The organization's name. */
    organization: string;
    /** The registry module (`mod-…`) it enables. */
    registryModuleId: string;
    /** The module version no-code workspaces use. */
    versionPin: string;
    /** Whether workspaces may be made from it. */
    enabled: boolean;
    /** Its variable-options sets, in the service's order. */
    variableOptions: GetNoCodeModuleVariableOptions[];
}

/** Finds the no-code module with this id. Fails when there is none (or it is of another organization than the token's). */
export async function getNoCodeModule(args: GetNoCodeModuleArgs): Promise<GetNoCodeModuleResult> {
    if (typeof args.id !== "string" || args.id.trim() === "") throw new Error("wos.getNoCodeModule: id must be a no-code module id ('nocode-…')");
    const client = lookupClient("wos.getNoCodeModule");
    try {
        const module = await client.noCodeModules.read(args.id, { include: ["variable-options"] });
        return {
            id: module.id,
            organization: module.organization,
            registryModuleId: module.registryModuleId,
            versionPin: module.versionPin,
            enabled: module.enabled,
            variableOptions: module.variableOptions.map((set) => ({
                id: set.id,
                variableName: set.variableName,
                variableType: set.variableType,
                options: [...set.options],
            })),
        };
    } catch (failure) {
        if (WosNotFoundError.isInstance(failure)) throw new Error(`wos.getNoCodeModule: no no-code module ${args.id} (or the token may not see it)`);
        throw failure;
    }
}

/** {@link getNoCodeModule} for an id that may not be known yet; the result is an `Output`. */
export function getNoCodeModuleOutput(args: GetNoCodeModuleOutputArgs): pulumi.Output<GetNoCodeModuleResult> {
    return pulumi.output(args.id).apply((id) => getNoCodeModule({ id }));
}
