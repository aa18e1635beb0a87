/**
 * `wos:index:getNoCodeModule`: the lookup `lookUpNoCodeModule` of `provider/handlers/lookups.ts` (what
 * `wos.getNoCodeModule` runs in a program) as an engine invoke. Its piece of the package schema mirrors
 * `GetNoCodeModuleArgs` and `GetNoCodeModuleResult`, descriptions included; the test
 * `tests/plugin/schema.test.ts` fails on any difference.
 *
 * @module
 */
import { lookUpNoCodeModule, type GetNoCodeModuleArgs } from "../../provider/handlers/lookups";
import type { FunctionBinding } from "../functionBinding";
import { VARIABLE_OPTION_SET_FIELDS } from "../resources/noCodeModule";
import { typeRef, type FunctionSchemaPiece } from "../schemaSpec";
import { getNoCodeModuleExample } from "../examples/getNoCodeModule";
import { describedWithExamples } from "../schemaExamples";

/** The tokens of the object types of its result. */
const TYPES = {
    getNoCodeModuleVariableOption: "wos:index:GetNoCodeModuleVariableOption",
    getNoCodeModuleWorkspace: "wos:index:GetNoCodeModuleWorkspace",
} as const;

/** The schema of `wos:index:getNoCodeModule`. */
export const getNoCodeModuleSchema: FunctionSchemaPiece = {
    token: "wos:index:getNoCodeModule",
    spec: {
        description: describedWithExamples("Finds a no-code module by its id, with its variable-options sets, as the Terraform provider's `tfe_no_code_module` data source does. Fails when there is none (or it is of another organization than the token's).", [getNoCodeModuleExample]),
        inputs: {
            type: "object",
            properties: {
                id: { type: "string", description: "The no-code module's id (`nocode-…`)." },
            },
            required: ["id"],
        },
        outputs: {
            type: "object",
            properties: {
                id: { type: "string", description: "`nocode-…`" },
                organization: { type: "string", description: "The organization's name." },
                registryModuleId: { type: "string", description: "The registry module (`mod-…`) it enables." },
                versionPin: { type: "string", description: "The module version no-code workspaces use." },
                enabled: { type: "boolean", description: "Whether workspaces may be made from it." },
                variableOptions: { type: "array", items: { $ref: typeRef(TYPES.getNoCodeModuleVariableOption) }, description: "Its variable-options sets, in the service's order." },
                workspaces: { type: "array", items: { $ref: typeRef(TYPES.getNoCodeModuleWorkspace) }, description: "The workspaces made from it that the token can read, in the order they were made: what each runs." },
                workspacesBehind: { type: "array", items: { type: "string" }, description: "The names of those of them that do not run the module's current version (an upgrade is available)." },
            },
            required: ["id", "organization", "registryModuleId", "versionPin", "enabled", "variableOptions", "workspaces", "workspacesBehind"],
        },
    },
    types: {
        [TYPES.getNoCodeModuleVariableOption]: {
            description: "One variable-options set of a `GetNoCodeModuleResult`.",
            ...VARIABLE_OPTION_SET_FIELDS,
        },
        [TYPES.getNoCodeModuleWorkspace]: {
            description: "A workspace made from a no-code module, as `getNoCodeModule` answers it.",
            type: "object",
            properties: {
                id: { type: "string", description: "`ws-…`" },
                name: { type: "string", description: "The workspace's name." },
                moduleVersion: { type: "string", description: "The module version it runs, e.g. `1.0.0`." },
                noCodeUpgradeAvailable: { type: "boolean", description: "Whether the module has a newer version than the one it runs." },
            },
            required: ["id", "name", "moduleVersion", "noCodeUpgradeAvailable"],
        },
    },
};

/** `wos:index:getNoCodeModule` served by its lookup. */
export const getNoCodeModuleBinding: FunctionBinding = {
    schema: getNoCodeModuleSchema,
    invoke: (settings, args) => lookUpNoCodeModule(settings, args as unknown as GetNoCodeModuleArgs),
};
