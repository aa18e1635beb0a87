/**
 * What the plugin knows of one function (an engine invoke): its piece of the schema and the lookup of
 * `provider/handlers/lookups.ts` it runs, the same one the dynamic resources' package runs in the program.
 * Each function's file under `plugin/functions/` makes one.
 *
 * @module
 */
import type { LookupSettings } from "../provider/handlers/lookups";
import type { FunctionSchemaPiece } from "./schemaSpec";

/** One function of the plugin. */
export interface FunctionBinding {
    /** Its schema piece; `schema.token` is its token, `wos:index:get<Name>`. */
    schema: FunctionSchemaPiece;
    /** Runs the lookup with the plugin's settings and the invoke's arguments (plain). */
    invoke(settings: LookupSettings, args: Record<string, unknown>): Promise<object>;
}
