/**
 * Errors thrown by {@link WosClient}, one class per kind of failure.
 *
 * Modelled on stripe-node's `Error.ts` (a base class carrying the status, the request id and the service's
 * raw error objects, with a subclass per kind) and octokit's `request-error` (nothing that can carry the
 * bearer token ever becomes part of an error). An error thrown here holds only plain data: the axios error
 * that caused it is never kept, because its `config.headers.Authorization` would put the token into every
 * log line, `JSON.stringify` and `util.inspect` of the error.
 *
 * Every class has a static `isInstance` that recognises errors by a brand rather than by prototype, so the
 * check works when a program loads two copies of this module (a Pulumi program and the provider host
 * resolving `pulumi-wos` from different folders).
 *
 * @module
 */
import type { ErrorObject } from "./model";

/** Brand every {@link WosError} carries; `Symbol.for` so that two copies of this module share it. */
const WOS_ERROR_BRAND: unique symbol = Symbol.for("pulumi-wos.WosError") as never;

/**
 * What kind of failure a {@link WosError} is. Each subclass sets one; the base class uses `"api"` for an
 * error status that has no subclass of its own (e.g. 405), `"response"` for an answer that does not parse.
 * `"plan_failed"` and `"plan_timeout"` are the kinds of {@link WosPlanFailedError} and
 * {@link WosPlanTimeoutError}, the two ways {@link NoCodeModules.waitForPlan} ends without a finished plan.
 */
export type WosErrorKind =
    | "api"
    | "bad_request"
    | "authentication"
    | "permission"
    | "not_found"
    | "conflict"
    | "validation"
    | "rate_limit"
    | "server"
    | "connection"
    | "invalid_response"
    | "invalid_argument"
    | "plan_failed"
    | "plan_timeout";

/** What every {@link WosError} constructor takes. Only plain data: never an axios error or a header bag. */
export interface WosErrorInit {
    /** The message; when absent it is built from {@link WosErrorInit.errors} by {@link describeErrorObjects}. */
    message?: string;
    /** HTTP status of the answer; absent when no answer arrived. */
    status?: number;
    /** The service's JSON:API error objects, as it sent them (token redacted). */
    errors?: ErrorObject[];
    /** HTTP method of the request, upper case. */
    method: string;
    /** Path of the request relative to `/api/v2`, without the query string. */
    path: string;
    /** The service's request id (`X-Request-Id`), when it sent one. */
    requestId?: string;
    /** Low-level error code for failures without an answer (`ECONNRESET`, `ECONNREFUSED`, `ETIMEDOUT`). */
    code?: string;
}

/**
 * Base class of every error the SDK throws for a request (the two outcomes of waiting for an upgrade plan,
 * {@link WosPlanFailedError} and {@link WosPlanTimeoutError}, are not failed requests and stand apart).
 *
 * Catch it to handle any failure of a {@link WosClient} call; test for a kind with the subclass's
 * `isInstance` (e.g. {@link WosNotFoundError.isInstance}), which survives two copies of this module.
 */
export class WosError extends Error {
    /** The kind this class stands for; `undefined` on the base class (any kind). */
    static readonly kind: WosErrorKind | undefined = undefined;

    /** The kind of failure (see {@link WosErrorKind}). */
    readonly kind: WosErrorKind;
    /** HTTP status of the answer; `undefined` when no answer arrived ({@link WosConnectionError}). */
    declare readonly status?: number;
    /** The service's JSON:API error objects (empty when it sent none). */
    readonly errors: ErrorObject[];
    /** HTTP method of the failed request. */
    readonly method: string;
    /** Path of the failed request relative to `/api/v2`, without its query string. */
    readonly path: string;
    /** The service's request id, when it sent one: quote it when reporting a problem. */
    declare readonly requestId?: string;
    /** Low-level error code when no answer arrived (`ECONNRESET`, `ECONNREFUSED`, `ETIMEDOUT`, ...). */
    declare readonly code?: string;
    /**
     * The service's machine-readable reason: the `code` of its first error object (`"upgrade_in_progress"`,
     * `"name_taken"`, `"not_found"`; each error object keeps its own in {@link WosError.errors}). Decide on it,
     * never on the words of the message. `undefined` when the service sent none (the hosted service, and the
     * local service's 401), or no answer arrived (see {@link WosError.code}). Every code of the local service:
     * the table "Error codes" of `docs/server.md`.
     */
    declare readonly errorCode?: string;
    /**
     * The `meta` of the first error object: the ids its {@link WosError.errorCode} concerns (`{ "run-id": "run-..." }`
     * of an `upgrade_in_progress`, `{ "holder-id": "prj-..." }` of a `name_taken`). `undefined` when it has none.
     */
    declare readonly errorMeta?: Record<string, unknown>;

    // Optional fields are `declare`d so that an error without them shows no `code: undefined` in logs.
    constructor(init: WosErrorInit, kind: WosErrorKind = "api") {
        const errors = init.errors ?? [];
        super(init.message ?? describeFailure(init.method, init.path, init.status, errors));
        // `name` from the concrete class so that logs and stacks say `WosNotFoundError: ...`.
        Object.defineProperty(this, "name", { value: new.target.name, enumerable: false, configurable: true });
        Object.defineProperty(this, WOS_ERROR_BRAND, { value: true, enumerable: false });
        this.kind = kind;
        if (init.status !== undefined) this.status = init.status;
        this.errors = errors;
        this.method = init.method;
        this.path = init.path;
        if (init.requestId !== undefined) this.requestId = init.requestId;
        if (init.code !== undefined) this.code = init.code;
        const first = errors[0];
        if (first?.code !== undefined) this.errorCode = first.code;
        if (first?.meta !== undefined) this.errorMeta = first.meta;
    }

    /**
     * Whether `value` is an error of this class (or a subclass), also when it comes from another copy of
     * this module. `WosError.isInstance(e)` matches every SDK error; `WosNotFoundError.isInstance(e)` only
     * not-found errors.
     */
    static isInstance<T extends WosError>(this: abstract new (...args: never[]) => T, value: unknown): value is T {
        if (typeof value !== "object" || value === null) return false;
        if ((value as Record<symbol, unknown>)[WOS_ERROR_BRAND] !== true) return false;
        const kind = (this as unknown as { kind: WosErrorKind | undefined }).kind;
        return kind === undefined || (value as { kind?: unknown }).kind === kind;
    }

    /** Plain data for logs: everything a person needs, nothing that could hold a token. */
    toJSON(): Record<string, unknown> {
        const json: Record<string, unknown> = { name: this.name, kind: this.kind, message: this.message };
        if (this.status !== undefined) json.status = this.status;
        json.method = this.method;
        json.path = this.path;
        if (this.requestId !== undefined) json.requestId = this.requestId;
        if (this.code !== undefined) json.code = this.code;
        if (this.errorCode !== undefined) json.errorCode = this.errorCode;
        if (this.errorMeta !== undefined) json.errorMeta = this.errorMeta;
        json.errors = this.errors;
        return json;
    }
}

/** 400: the request was malformed (not JSON, no `data`, a bad page number). */
export class WosBadRequestError extends WosError {
    static override readonly kind = "bad_request" as const;
    constructor(init: WosErrorInit) {
        super(init, "bad_request");
    }
}

/**
 * 401: the token is missing, malformed or unknown. The message says which when the service tells it in
 * `WWW-Authenticate` (the local service does: "not a bearer token" or "not known to this service"), and
 * never holds the token.
 */
export class WosAuthenticationError extends WosError {
    static override readonly kind = "authentication" as const;
    constructor(init: WosErrorInit) {
        super(init, "authentication");
    }
}

/** 403: the caller sees the resource but may not do this to it. */
export class WosPermissionError extends WosError {
    static override readonly kind = "permission" as const;
    constructor(init: WosErrorInit) {
        super(init, "permission");
    }
}

/**
 * 404: the resource does not exist, or the caller may not see it (the service does not say which). Also
 * thrown by {@link Variables.read} when the variable is gone.
 */
export class WosNotFoundError extends WosError {
    static override readonly kind = "not_found" as const;
    constructor(init: WosErrorInit) {
        super(init, "not_found");
    }
}

/** 409: the resource is in a state that forbids this (a project that still has workspaces). */
export class WosConflictError extends WosError {
    static override readonly kind = "conflict" as const;
    constructor(init: WosErrorInit) {
        super(init, "conflict");
    }
}

/** 422: a value broke a rule; each of {@link WosError.errors} names the field in `source.pointer`. */
export class WosValidationError extends WosError {
    static override readonly kind = "validation" as const;
    constructor(init: WosErrorInit) {
        super(init, "validation");
    }
}

/** 429: still rate limited after every retry the client was allowed ({@link WosClientOptions.maxRetries}). */
export class WosRateLimitError extends WosError {
    static override readonly kind = "rate_limit" as const;
    constructor(init: WosErrorInit) {
        super(init, "rate_limit");
    }
}

/** 5xx: the service failed; retried first when a repeat cannot duplicate work (see `sdk/retry.ts`). */
export class WosServerError extends WosError {
    static override readonly kind = "server" as const;
    constructor(init: WosErrorInit) {
        super(init, "server");
    }
}

/**
 * No answer arrived: the connection was refused or dropped, or the request timed out
 * ({@link WosError.code} says which). For a request that is not retried (a create), the service may or may
 * not have done the work.
 */
export class WosConnectionError extends WosError {
    static override readonly kind = "connection" as const;
    constructor(init: WosErrorInit) {
        super(init, "connection");
    }
}

/** The service answered with a body the client does not understand; the message names the field. */
export class WosInvalidResponseError extends WosError {
    static override readonly kind = "invalid_response" as const;
    constructor(init: WosErrorInit) {
        super(init, "invalid_response");
    }
}

/** An argument of an SDK method is unusable (an empty id); thrown before any request is sent. */
export class WosArgumentError extends WosError {
    static override readonly kind = "invalid_argument" as const;
    constructor(init: WosErrorInit) {
        super(init, "invalid_argument");
    }
}

/** Brand of the errors of {@link NoCodeModules.waitForPlan}; `Symbol.for` so that two copies of this module share it. */
const WOS_PLAN_ERROR_BRAND: unique symbol = Symbol.for("pulumi-wos.WosPlanError") as never;

/** Whether `value` carries the plan-error brand and the given kind (the `isInstance` of the plan errors). */
function isPlanError(value: unknown, kind: WosErrorKind): boolean {
    if (typeof value !== "object" || value === null) return false;
    return (value as Record<symbol, unknown>)[WOS_PLAN_ERROR_BRAND] === true && (value as { kind?: unknown }).kind === kind;
}

/** Marks `error` as a plan error and names it after its concrete class, as {@link WosError} does. */
function brandPlanError(error: Error, name: string): void {
    Object.defineProperty(error, "name", { value: name, enumerable: false, configurable: true });
    Object.defineProperty(error, WOS_PLAN_ERROR_BRAND, { value: true, enumerable: false });
}

/** What {@link WosPlanFailedError} is built from. */
export interface WosPlanFailedErrorInit {
    /** The run's end status (`errored`, `discarded`, `canceled`, `applied`, or one this client does not know). */
    status: string;
    /** The plan's run page, where the reason is shown. */
    planUrl: string;
    /** The upgrade's run id (`run-...`). */
    upgradeId: string;
}

/**
 * An upgrade plan ended without a plan to confirm: {@link NoCodeModules.waitForPlan} saw an end status other
 * than `planned`, `cost_estimated` or `planned_and_finished`. Nothing was applied; the plan's page
 * ({@link WosPlanFailedError.planUrl}) says why.
 *
 * Not a {@link WosError}: no request failed, and its {@link WosPlanFailedError.status} is the run's status,
 * not an HTTP status. Recognise it with {@link WosPlanFailedError.isInstance}.
 */
export class WosPlanFailedError extends Error {
    /** The kind of every error of this class: `"plan_failed"`. */
    static readonly kind = "plan_failed" as const;
    /** Always `"plan_failed"`. */
    readonly kind = "plan_failed" as const;
    /** The run's end status, e.g. `errored`. */
    readonly status: string;
    /** The plan's run page. */
    readonly planUrl: string;
    /** The upgrade's run id (`run-...`). */
    readonly upgradeId: string;

    constructor(init: WosPlanFailedErrorInit) {
        super(`upgrade ${init.upgradeId}: the plan ended with status "${init.status}", not a plan to confirm; see ${init.planUrl || "(no plan URL)"}`);
        brandPlanError(this, new.target.name);
        this.status = init.status;
        this.planUrl = init.planUrl;
        this.upgradeId = init.upgradeId;
    }

    /** Whether `value` is a {@link WosPlanFailedError}, also when it comes from another copy of this module. */
    static isInstance(value: unknown): value is WosPlanFailedError {
        return isPlanError(value, "plan_failed");
    }

    /** Plain data for logs. */
    toJSON(): Record<string, unknown> {
        return { name: this.name, kind: this.kind, message: this.message, status: this.status, planUrl: this.planUrl, upgradeId: this.upgradeId };
    }
}

/** What {@link WosPlanTimeoutError} is built from. */
export interface WosPlanTimeoutErrorInit {
    /** How long {@link NoCodeModules.waitForPlan} waited, in milliseconds. */
    waitedMs: number;
    /** The last status read, still one of the in-progress statuses. */
    lastStatus: string;
    /** The plan's run page. */
    planUrl: string;
    /** The upgrade's run id (`run-...`). */
    upgradeId: string;
}

/**
 * The deadline given to {@link NoCodeModules.waitForPlan} passed while the plan was still being made. The run
 * goes on in the service; nothing was applied. Not a {@link WosError} (no request failed); recognise it with
 * {@link WosPlanTimeoutError.isInstance}.
 */
export class WosPlanTimeoutError extends Error {
    /** The kind of every error of this class: `"plan_timeout"`. */
    static readonly kind = "plan_timeout" as const;
    /** Always `"plan_timeout"`. */
    readonly kind = "plan_timeout" as const;
    /** How long the wait lasted, in milliseconds. */
    readonly waitedMs: number;
    /** The last status read (`pending`, `fetching` or `planning`). */
    readonly lastStatus: string;
    /** The plan's run page. */
    readonly planUrl: string;
    /** The upgrade's run id (`run-...`). */
    readonly upgradeId: string;

    constructor(init: WosPlanTimeoutErrorInit) {
        super(
            `upgrade ${init.upgradeId}: gave up waiting for the plan after ${formatDuration(init.waitedMs)}; ` +
                `last status "${init.lastStatus}"; see ${init.planUrl || "(no plan URL)"}`,
        );
        brandPlanError(this, new.target.name);
        this.waitedMs = init.waitedMs;
        this.lastStatus = init.lastStatus;
        this.planUrl = init.planUrl;
        this.upgradeId = init.upgradeId;
    }

    /** Whether `value` is a {@link WosPlanTimeoutError}, also when it comes from another copy of this module. */
    static isInstance(value: unknown): value is WosPlanTimeoutError {
        return isPlanError(value, "plan_timeout");
    }

    /** Plain data for logs. */
    toJSON(): Record<string, unknown> {
        return {
            name: this.name,
            kind: this.kind,
            message: this.message,
            waitedMs: this.waitedMs,
            lastStatus: this.lastStatus,
            planUrl: this.planUrl,
            upgradeId: this.upgradeId,
        };
    }
}

/** `850 ms`, `12.3 s`, `2 min 5 s`: a wait as a person reads it. */
function formatDuration(ms: number): string {
    if (ms < 1000) return `${Math.round(ms)} ms`;
    if (ms < 60_000) return `${(ms / 1000).toFixed(1)} s`;
    const seconds = Math.round(ms / 1000);
    return `${Math.floor(seconds / 60)} min ${seconds % 60} s`;
}

/** The {@link WosError} subclass for an HTTP status. */
export function errorClassForStatus(status: number): new (init: WosErrorInit) => WosError {
    if (status === 400) return WosBadRequestError;
    if (status === 401) return WosAuthenticationError;
    if (status === 403) return WosPermissionError;
    if (status === 404) return WosNotFoundError;
    if (status === 409) return WosConflictError;
    if (status === 422) return WosValidationError;
    if (status === 429) return WosRateLimitError;
    if (status >= 500) return WosServerError;
    return WosError;
}

/**
 * One line per error object, in the words of the service: `detail` (or `title` when there is no detail),
 * prefixed with the field's pointer so a person knows what to fix, e.g.
 * `/data/attributes/name: must be at least 3 characters`. `describePointer` may say a pointer in other words (the
 * provider names the resource input a pointer stands for).
 */
export function describeErrorObjects(errors: readonly ErrorObject[], describePointer: (pointer: string) => string = (pointer) => pointer): string {
    return errors
        .map((error) => {
            const text = error.detail || error.title || `status ${error.status}`;
            const pointer = error.source?.pointer;
            const where = pointer !== undefined ? describePointer(pointer) : error.source?.parameter ? `parameter ${error.source.parameter}` : undefined;
            return where ? `${where}: ${text}` : text;
        })
        .join("; ");
}

function describeFailure(method: string, path: string, status: number | undefined, errors: readonly ErrorObject[]): string {
    const what = `${method} ${path}`;
    const detail = describeErrorObjects(errors);
    if (status === undefined) return detail ? `${what} failed: ${detail}` : `${what} failed`;
    return detail ? `${what} failed with status ${status}: ${detail}` : `${what} failed with status ${status}`;
}

/**
 * Replaces every occurrence of `secret` in `text` by `[REDACTED]`. The service never echoes a token, but an
 * error is the one place where a surprise would leak it into logs, so every string that reaches an error
 * passes through here (as octokit does with its authorization header).
 */
export function redact(text: string, secret: string | undefined): string {
    if (!secret) return text;
    return text.split(secret).join("[REDACTED]");
}

/** {@link redact} over every string of a JSON-like value. */
export function redactDeep<T>(value: T, secret: string | undefined): T {
    if (!secret) return value;
    if (typeof value === "string") return redact(value, secret) as T;
    if (Array.isArray(value)) return value.map((item) => redactDeep(item, secret)) as T;
    if (typeof value === "object" && value !== null) {
        const copy: Record<string, unknown> = {};
        for (const [key, item] of Object.entries(value)) copy[redact(key, secret)] = redactDeep(item, secret);
        return copy as T;
    }
    return value;
}

/**
 * Throws a {@link WosArgumentError} unless `value` is a non-empty string other than `.` and `..`: an empty id
 * would address a different endpoint (`/projects/` is not `/projects/:id`), and so would a dot segment, which
 * a URL's path resolves as a step (`/projects/../tag-bindings` is `/tag-bindings`; percent-encoding the dots
 * does not stop it, and an HTTP proxy agent parses the URL again): neither may reach the wire.
 */
export function requireId(value: unknown, name: string, method: string, path: string): asserts value is string {
    if (typeof value !== "string" || value.trim() === "") {
        throw new WosArgumentError({ method, path, message: `${method} ${path}: ${name} must be a non-empty string` });
    }
    if (value === "." || value === "..") {
        throw new WosArgumentError({ method, path, message: `${method} ${path}: ${name} must not be "${value}": a URL path reads it as a step, not a name` });
    }
}
