/**
 * `pulumi-wos/sdk`: a typed client of the Workspace Organization Service.
 *
 * Start with {@link WosClient}; failures are {@link WosError} subclasses; retries are described by
 * {@link RetryInfo}. Inputs and outputs are interfaces with every field documented, each exactly the type of
 * a zod schema: the options of each method are what its `*OptionsSchema` takes (e.g.
 * {@link projectCreateOptionsSchema}), checked before the request, and the results what the response schemas
 * of `sdk/model` make of an answer.
 *
 * @module
 */
import { warnOnceOnUnsupportedNode } from "./nodeSupport";

// On a Node.js older than the package supports: one process warning (code WOS_UNSUPPORTED_NODE), then it runs.
warnOnceOnUnsupportedNode();

export { WosClient } from "./client";
export { DEFAULT_ADDRESS, normalizeAddress, type WosClientOptions } from "./transport";
export {
    WosError,
    WosBadRequestError,
    WosAuthenticationError,
    WosPermissionError,
    WosNotFoundError,
    WosConflictError,
    WosValidationError,
    WosRateLimitError,
    WosServerError,
    WosConnectionError,
    WosInvalidResponseError,
    WosArgumentError,
    WosPlanFailedError,
    WosPlanTimeoutError,
    describeErrorObjects,
    type WosErrorKind,
    type WosErrorInit,
    type WosPlanFailedErrorInit,
    type WosPlanTimeoutErrorInit,
} from "./errors";
export { mayRepeat, retryDelay, type RetryInfo, type RetryReason, type RetryDelaySource } from "./retry";
export {
    Projects,
    projectCreateOptionsSchema,
    projectUpdateOptionsSchema,
    projectListOptionsSchema,
    tagListSchema,
    type ProjectCreateOptions,
    type ProjectUpdateOptions,
    type ProjectListOptions,
    type ProjectList,
    type ListLinks,
} from "./projects";
export {
    Variables,
    variableCreateOptionsSchema,
    variableUpdateOptionsSchema,
    type VariableCreateOptions,
    type VariableUpdateOptions,
} from "./variables";
export {
    Workspaces,
    workspaceCreateOptionsSchema,
    workspaceUpdateOptionsSchema,
    workspaceListOptionsSchema,
    type WorkspaceCreateOptions,
    type WorkspaceUpdateOptions,
    type WorkspaceListOptions,
    type WorkspaceList,
} from "./workspaces";
export {
    NoCodeModules,
    noCodeModuleCreateOptionsSchema,
    noCodeModuleUpdateOptionsSchema,
    noCodeModuleReadOptionsSchema,
    noCodeWorkspaceCreateOptionsSchema,
    noCodeWorkspaceVarListSchema,
    noCodeUpgradeOptionsSchema,
    waitForPlanOptionsSchema,
    planPollDelay,
    DEFAULT_PLAN_POLL_INITIAL_DELAY_MS,
    DEFAULT_PLAN_POLL_MAX_DELAY_MS,
    type NoCodeModuleCreateOptions,
    type NoCodeModuleUpdateOptions,
    type NoCodeModuleReadOptions,
    type NoCodeWorkspaceCreateOptions,
    type NoCodeUpgradeOptions,
    type WaitForPlanOptions,
    type NoCodeUpgrade,
} from "./noCodeModules";
export { RegistryModules, type RegistryModule } from "./registryModules";
export type {
    Project,
    TagBinding,
    Tag,
    Variable,
    VariableCategory,
    Workspace,
    ExecutionMode,
    Pagination,
    ErrorObject,
    NoCodeModule,
    NoCodeModuleVersion,
    VariableOptions,
    NoCodeWorkspaceVar,
    WorkspaceUpgrade,
} from "./model";
