/**
 * The retry policy of {@link WosClient}, on top of `axios-retry`.
 *
 * - 429 is always retried: the service refused the request before doing anything. The wait is the
 *   `Retry-After` header (seconds or an HTTP date), else `X-RateLimit-Reset` (seconds, may be fractional),
 *   else exponential backoff with jitter.
 * - 5xx answers and connection failures (reset, refused, timeout) are retried only for requests whose
 *   repeat cannot duplicate work ({@link mayRepeat}): the first attempt may have been done by the service
 *   even though its answer was lost.
 * - Every wait is capped by `maxRetryDelayMs`; at most `maxRetries` repeats.
 *
 * @module
 */
import type { AxiosError, AxiosInstance, AxiosRequestConfig } from "axios";
import axiosRetry from "axios-retry";

/** Why a request is repeated. */
export type RetryReason = "rate_limited" | "server_error" | "connection_failed";

/** Where the wait of a retry came from. */
export type RetryDelaySource = "retry-after" | "x-ratelimit-reset" | "backoff";

/** What {@link WosClientOptions.onRetry} is told before each repeat. */
export interface RetryInfo {
    /** 1 for the first repeat, 2 for the second, ... */
    attempt: number;
    /** How long the client waits before the repeat, in milliseconds (after the `maxRetryDelayMs` cap). */
    delayMs: number;
    /** Where {@link RetryInfo.delayMs} came from. */
    delaySource: RetryDelaySource;
    /** Why the request is repeated (see {@link RetryReason}). */
    reason: RetryReason;
    /** HTTP method, upper case. */
    method: string;
    /** Path relative to `/api/v2`, without the query string. */
    path: string;
    /** Status of the failed answer; absent for a connection failure. */
    status?: number;
    /** Error code of a connection failure (`ECONNRESET`, `ECONNREFUSED`, `ETIMEDOUT`, ...). */
    code?: string;
}

/** The retry settings of a client. */
export interface RetryPolicy {
    /** Repeats after the first attempt; 0 turns retrying off. */
    maxRetries: number;
    /** Upper bound of any single wait, in milliseconds. */
    maxRetryDelayMs: number;
    onRetry?: (info: RetryInfo) => void;
    /** Applied to the path given to `onRetry`, which usually ends in a log (removes the token). */
    redactText?: (text: string) => string;
}

/** First backoff step; doubled per attempt (250, 500, 1000, ... ms) before jitter and the cap. */
const BACKOFF_BASE_MS = 250;

/**
 * POST endpoints whose repeat cannot duplicate work. Every other POST creates something (a project, a
 * workspace, an upgrade run), so a repeat after a lost answer would create it twice.
 */
const REPEATABLE_POST_PATHS: readonly RegExp[] = [
    // Moving workspaces into a project is a "set": doing it twice leaves them where once did.
    /^\/projects\/[^/]+\/relationships\/workspaces$/,
    // Confirming an upgrade run applies that one run: a repeat cannot apply anything twice, because an
    // applied run refuses a second confirm with a 409 (`NoCodeModules.confirmUpgrade` reads the run to tell
    // "the lost first attempt applied it" from a real conflict).
    /^\/no-code-modules\/[^/]+\/workspaces\/[^/]+\/upgrade\/[^/]+$/,
];

/**
 * The one place that says which requests may be sent again after a 5xx or a connection failure.
 *
 * GET reads; PATCH sets the values it carries, so a second identical PATCH changes nothing (and the
 * tag-bindings PATCH is an upsert); DELETE leaves the resource gone either way. POST is repeatable only on
 * two paths: moving workspaces into a project (`/projects/:id/relationships/workspaces`, a "set") and
 * confirming an upgrade run (`/no-code-modules/:id/workspaces/:ws/upgrade/:run`, which applies that run once).
 * (A 429 is retried for every request: the service refused it before doing anything.)
 */
export function mayRepeat(method: string, path: string): boolean {
    switch (method.toUpperCase()) {
        case "GET":
        case "HEAD":
        case "PATCH":
        case "DELETE":
            return true;
        case "POST":
            return REPEATABLE_POST_PATHS.some((pattern) => pattern.test(pathWithoutQuery(path)));
        default:
            return false;
    }
}

/** Connection-level failures worth a repeat; anything else without an answer (a cancel) is final. */
const CONNECTION_FAILURE_CODES = new Set([
    "ECONNRESET",
    "ECONNREFUSED",
    "ETIMEDOUT",
    "ECONNABORTED", // axios' code for its own timeout when `clarifyTimeoutError` is off
    "EPIPE",
    "ENOTFOUND",
    "EAI_AGAIN",
    "EHOSTUNREACH",
    "ENETUNREACH",
    "ERR_SOCKET_CONNECTION_TIMEOUT",
]);

/** Why `error` should be retried, or `undefined` when it must not be (the policy of this module). */
export function retryReason(error: Pick<AxiosError, "response" | "code" | "config">): RetryReason | undefined {
    // As axios sends it (lower case): mayRepeat reads any case.
    const method = error.config?.method ?? "get";
    // Stryker disable next-line StringLiteral: without a URL no text is a repeatable POST path, whichever stands in for it
    const path = error.config?.url ?? "";
    const status = error.response?.status;
    if (status === 429) return "rate_limited";
    if (status !== undefined) return status >= 500 && mayRepeat(method, path) ? "server_error" : undefined;
    if (error.code && CONNECTION_FAILURE_CODES.has(error.code) && mayRepeat(method, path)) return "connection_failed";
    return undefined;
}

/**
 * The wait before repeat number `attempt` (1-based): the answer's `Retry-After`, else its
 * `X-RateLimit-Reset`, else exponential backoff with jitter; never more than `maxRetryDelayMs`. `random`
 * and `now` stand in for `Math.random` and `Date.now`.
 */
export function retryDelay(
    attempt: number,
    headers: Record<string, unknown> | undefined,
    maxRetryDelayMs: number,
    random: () => number = Math.random,
    now: () => number = Date.now,
): {
    /** How long to wait, in milliseconds. */
    delayMs: number;
    /** Where the wait came from. */
    source: RetryDelaySource;
} {
    const cap = (ms: number) => Math.max(0, Math.min(Math.ceil(ms), maxRetryDelayMs));
    const retryAfter = parseRetryAfter(headerValue(headers, "retry-after"), now);
    if (retryAfter !== undefined) return { delayMs: cap(retryAfter), source: "retry-after" };
    const reset = parseSeconds(headerValue(headers, "x-ratelimit-reset"));
    if (reset !== undefined) return { delayMs: cap(reset * 1000), source: "x-ratelimit-reset" };
    // Half fixed, half random ("equal jitter"): spreads clients that failed together without ever waiting
    // less than half the step.
    const step = BACKOFF_BASE_MS * 2 ** Math.max(0, attempt - 1);
    return { delayMs: cap(step / 2 + (random() * step) / 2), source: "backoff" };
}

/**
 * Installs the policy on `instance`. Returns nothing: the interceptors live as long as the instance (one per
 * client, never shared).
 */
export function installRetry(instance: AxiosInstance, policy: RetryPolicy): void {
    // axios-retry computes the delay and calls onRetry separately; remember the delay per request so the
    // callback reports exactly what is waited.
    const lastDelay = new WeakMap<AxiosRequestConfig, { delayMs: number; source: RetryDelaySource }>();
    axiosRetry(instance, {
        retries: policy.maxRetries,
        // Each attempt gets the full per-request timeout; otherwise axios-retry shortens it by the time spent.
        shouldResetTimeout: true,
        retryCondition: (error) => retryReason(error) !== undefined,
        retryDelay: (attempt, error) => {
            const delay = retryDelay(attempt, headersOf(error), policy.maxRetryDelayMs);
            if (error.config) lastDelay.set(error.config, delay);
            return delay.delayMs;
        },
        onRetry: (attempt, error, config) => {
            const reason = retryReason(error) ?? "server_error";
            // A 429 was refused before any work; anything else may have been done by the service.
            if (reason !== "rate_limited") (config as Record<string, unknown>)[OUTCOME_UNKNOWN] = true;
            if (!policy.onRetry) return;
            const delay = lastDelay.get(config) ?? retryDelay(attempt, headersOf(error), policy.maxRetryDelayMs);
            const info: RetryInfo = {
                attempt,
                delayMs: delay.delayMs,
                delaySource: delay.source,
                reason,
                // Stryker disable next-line StringLiteral: axios sets the method of every request it sends (lower case, default get): the fallback is never taken
                method: (config.method ?? "get").toUpperCase(),
                // Stryker disable next-line StringLiteral: the client sends every request with a URL (sdk/transport.ts passes the path of each): the fallback is never taken
                path: (policy.redactText ?? ((text: string) => text))(pathWithoutQuery(config.url ?? "")),
            };
            // Without an answer, retryReason retried it for its code: there always is one.
            if (error.response) info.status = error.response.status;
            else info.code = error.code;
            // A throwing callback must not turn a retry into an unrelated failure.
            try {
                policy.onRetry(info);
            } catch {
                /* ignored on purpose */
            }
        },
    });
}

/**
 * Config key marking a request of which an earlier attempt failed with a 5xx or a dropped connection, so the
 * service may have done the work. A string key: axios copies a request's config per attempt and keeps
 * string keys (symbols would be lost).
 */
// Stryker disable next-line StringLiteral: the key is written and read only here, and axios carries the empty key of the mutant from attempt to attempt as it carries this one
const OUTCOME_UNKNOWN = "wosOutcomeUnknown";

/**
 * Whether an earlier attempt of this request failed in a way that may have done the work (a 5xx or a
 * dropped connection, not a 429): a DELETE repeated after one that answers 404 did succeed.
 */
export function outcomeWasUnknown(config: AxiosRequestConfig | undefined): boolean {
    return (config as Record<string, unknown> | undefined)?.[OUTCOME_UNKNOWN] === true;
}

/** `path` without `?query`. */
export function pathWithoutQuery(path: string): string {
    const index = path.indexOf("?");
    return index === -1 ? path : path.slice(0, index);
}

/** The headers of the failed answer; none without an answer. */
function headersOf(error: AxiosError): Record<string, unknown> | undefined {
    // axios hands every answer's headers over as an AxiosHeaders, which holds each header as an own
    // enumerable property: headerValue reads it as the plain object it is.
    return error.response?.headers as Record<string, unknown> | undefined;
}

/** The value of the header `name` (lower case) of an answer's headers, trimmed; `undefined` when absent. */
export function headerValue(headers: Record<string, unknown> | undefined, name: string): string | undefined {
    if (!headers) return undefined;
    for (const [key, value] of Object.entries(headers)) {
        if (key.toLowerCase() !== name) continue;
        const text: unknown = Array.isArray(value) ? value[0] : value;
        // A header without a value (undefined or null) has none.
        return (text as { toString(): string } | null | undefined)?.toString().trim();
    }
    return undefined;
}

/** `Retry-After` as milliseconds: delay-seconds or an HTTP date (RFC 9110 §10.2.3). */
function parseRetryAfter(value: string | undefined, now: () => number): number | undefined {
    // An empty value falls through: it is neither seconds nor a date.
    if (value === undefined) return undefined;
    const seconds = parseSeconds(value);
    if (seconds !== undefined) return seconds * 1000;
    const date = Date.parse(value);
    return Number.isNaN(date) ? undefined : Math.max(0, date - now());
}

function parseSeconds(value: string | undefined): number | undefined {
    if (value === undefined || !/^\d+(\.\d+)?$/.test(value)) return undefined;
    return Number(value);
}
