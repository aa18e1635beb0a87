/**
 * `pulumi-wos/sdk`: a typed client of the Workspace Organization Service.
 *
 * Start with {@link WosClient}; failures are {@link WosError} subclasses; retries are described by
 * {@link RetryInfo}.
 *
 * @module
 */
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
    describeErrorObjects,
    type WosErrorKind,
    type WosErrorInit,
} from "./errors";
export { mayRepeat, retryDelay, type RetryInfo, type RetryReason, type RetryDelaySource } from "./retry";
export {
    Projects,
    type ProjectCreateOptions,
    type ProjectUpdateOptions,
    type ProjectListOptions,
    type ProjectList,
    type ListLinks,
} from "./projects";
export { Variables, type VariableCreateOptions, type VariableUpdateOptions, type VariableListOptions } from "./variables";
export { Workspaces, type WorkspaceUpdateOptions } from "./workspaces";
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
} from "./model";
