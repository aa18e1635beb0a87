/**
 * The HTTP layer under {@link WosClient}: one axios instance per client with the base URL, the bearer token,
 * the JSON:API media type, the timeout and the retry policy; every response parsed with a zod schema from
 * `sdk/model`; every failure turned into a {@link WosError} that carries no token.
 *
 * @module
 */
import axios, { AxiosError, type AxiosInstance, type AxiosResponse } from "axios";
import { z } from "zod";
import { errorDocumentSchema, JSON_API_MEDIA_TYPE, type ErrorObject } from "./model";
import {
    describeErrorObjects,
    errorClassForStatus,
    redact,
    redactDeep,
    WosArgumentError,
    WosConnectionError,
    WosError,
    WosInvalidResponseError,
} from "./errors";
import { environmentProxy, nodeHttpAdapter, proxiedAdapter } from "./httpAdapter";
import { pacerFor } from "./requestPacing";
import { installRetry, outcomeWasUnknown, pathWithoutQuery, type RetryInfo } from "./retry";

/** The proxy secrets of a client without a proxy: none. */
// Stryker disable next-line ArrayDeclaration: a list of the one phrase "Stryker was here" would redact only a connection error whose text holds it, and none can: its path is percent-encoded (no spaces), the rest is the address and the words of Node and axios
const NO_PROXY_SECRETS: readonly string[] = [];

/** Address of the local service, the default target. */
export const DEFAULT_ADDRESS = "http://127.0.0.1:8787";

/** Version prefix of every path (the API's versioning). */
export const API_PREFIX = "/api/v2";

/**
 * Options of {@link WosClient}. Every one may be left out: the address and the token then come from the
 * environment, as for the providers (`WOS_ADDRESS`, `WOS_TOKEN`), and proxies always do (`HTTPS_PROXY`,
 * `HTTP_PROXY`, `NO_PROXY`: see {@link WosClient}).
 */
export interface WosClientOptions {
    /**
     * Address of the service, e.g. `https://wos.example.com`; a trailing `/` or `/api/v2` is accepted.
     * Default: the environment variable `WOS_ADDRESS`, else {@link DEFAULT_ADDRESS} (the local service).
     */
    address?: string;
    /**
     * Bearer token (user, team or organization token). Never logged, never part of an error. Default: the
     * environment variable `WOS_TOKEN`; with neither, the constructor throws a `TypeError`.
     */
    token?: string;
    /** Deadline of each attempt, from its start to the answer's last byte, in milliseconds. Default 30000. */
    timeoutMs?: number;
    /** Repeats after the first attempt, for requests the retry policy allows. Default 5. */
    maxRetries?: number;
    /** Upper bound of any single wait between attempts, in milliseconds. Default 30000. */
    maxRetryDelayMs?: number;
    /** `User-Agent` header. Default `pulumi-wos/<version> node/<version>`. */
    userAgent?: string;
    /** Called before each repeat, e.g. to log progress. */
    onRetry?: (info: RetryInfo) => void;
}

/** Query parameters: `undefined` values are left out; arrays are joined with commas (`filter[names]`). */
export type Query = Record<string, string | number | boolean | readonly string[] | undefined>;

/** One request: method, path relative to `/api/v2`, optional query and body, and the response schema. */
export interface RequestSpec<S extends z.ZodType | undefined> {
    /** HTTP method; with the path it decides whether a failed attempt may be repeated (`mayRepeat` in `sdk/retry.ts`). */
    method: "GET" | "POST" | "PATCH" | "DELETE";
    /** Path relative to `/api/v2`, its segments already encoded with {@link segment}. */
    path: string;
    /** Query parameters, encoded by {@link queryString}. */
    query?: Query;
    /** Request body, sent as JSON. */
    body?: unknown;
    /** Schema of the response body; `undefined` for answers without a body (204). */
    schema: S;
    /**
     * For a DELETE: when a repeat after an attempt whose outcome is unknown (a 5xx or a dropped connection,
     * not a 429) answers 404, the earlier attempt did the work, so the delete succeeded.
     */
    notFoundAfterRetryIsSuccess?: boolean;
    /**
     * For a repeatable POST that a second time answers 409 (a confirm): when a repeat after an attempt whose
     * outcome is unknown answers 409, asks whether the earlier attempt did the work; `true` makes the
     * request succeed, `false` throws the 409. Not asked for a 409 of a first attempt or after a 429.
     */
    conflictAfterRetryIsSuccess?: () => Promise<boolean>;
}

/** Sends requests for {@link WosClient} and its resource classes. One per client. */
export class Transport {
    /** Base URL, `ADDRESS/api/v2`, without a trailing slash. */
    readonly baseUrl: string;
    readonly #http: AxiosInstance;
    // `#` keeps the token out of enumeration, JSON.stringify and util.inspect of the transport and client.
    readonly #token: string;
    /** The password of the environment's proxy (as written and decoded), kept out of connection errors. */
    readonly #proxySecrets: readonly string[];

    constructor(options: WosClientOptions = {}) {
        if (typeof options !== "object" || options === null) throw new TypeError("WosClient: options must be an object");
        const token = options.token ?? environmentValue("WOS_TOKEN");
        if (token === undefined) {
            throw new TypeError("WosClient: a token is required: pass options.token or set the environment variable WOS_TOKEN");
        }
        if (typeof token !== "string" || token === "") throw new TypeError("WosClient: options.token must be a non-empty string");
        this.#token = token;
        const address = options.address ?? environmentValue("WOS_ADDRESS");
        try {
            this.baseUrl = normalizeAddress(address ?? DEFAULT_ADDRESS);
        } catch (error) {
            // Name where a bad address came from when it was not the caller's own option: then it is the
            // environment's (the default address is valid), and what `normalizeAddress` throws for a string
            // (an environment value always is one) is a TypeError.
            if (options.address === undefined) {
                throw new TypeError((error as TypeError).message.replace("WosClient: address", "WosClient: the environment variable WOS_ADDRESS"));
            }
            throw error;
        }
        // Decided once: every request of a client goes to the same origin. Loopback is never proxied.
        const proxy = environmentProxy(this.baseUrl);
        // An empty password (none) redacts nothing: `redact` leaves the text alone for an empty secret.
        this.#proxySecrets = proxy ? [proxy.password, decodedOrSelf(proxy.password)] : NO_PROXY_SECRETS;
        const timeoutMs = wholeNumberOption(options, "timeoutMs", 30_000, 1);
        const maxRetries = wholeNumberOption(options, "maxRetries", 5, 0);
        const maxRetryDelayMs = wholeNumberOption(options, "maxRetryDelayMs", 30_000, 0);
        const headers = {
            Authorization: `Bearer ${token}`,
            "Content-Type": JSON_API_MEDIA_TYPE,
            Accept: JSON_API_MEDIA_TYPE,
            "User-Agent": options.userAgent ?? DEFAULT_USER_AGENT,
        };
        this.#http = axios.create({
            baseURL: this.baseUrl,
            timeout: timeoutMs,
            // Node's own http.request under axios' interceptors, through the environment's proxy if any:
            // see `sdk/httpAdapter.ts`. It reads the answer as text (parsed here: an answer that is not JSON
            // must become a WosError), times out as ETIMEDOUT, and never follows a redirect (it would re-send
            // the Authorization header elsewhere; the service never redirects).
            adapter: proxy ? proxiedAdapter(proxy, new URL(this.baseUrl).protocol) : nodeHttpAdapter,
        });
        // axios merges its instance's defaults into every request's config, objects deeply (its transitional
        // flags, the form-data classes, XSRF names, size limits, transforms, redirect and proxy settings):
        // all of them are for its own adapters and body transforms, which this client does not use (the body
        // is JSON text already). The instance keeps only what the adapter and the retry policy read; a warm
        // loop of requests costs 12 µs of axios each instead of 18.
        const defaults = this.#http.defaults as unknown as Record<string, unknown>;
        for (const key of Object.keys(defaults)) if (!AXIOS_DEFAULTS_KEPT.has(key)) delete defaults[key];
        // One flat set of default headers, ours: axios' defaults keep a `common` set and one per method, which
        // it merges into each request's headers and then deletes from them, on every request. The service
        // needs none of theirs (their `Accept` is ours above; no method set holds anything in axios 1).
        defaults.headers = headers;
        // Every attempt (a retry's too) waits its turn on the address's and token's one pacer, which every
        // answer (a failed one's too) feeds: see `sdk/requestPacing.ts`. Installed before the retry policy,
        // so that a 429 has paused the pacer before the policy repeats the request.
        const pacer = pacerFor(this.baseUrl, token);
        this.#http.interceptors.request.use(async (config) => {
            await pacer.acquire();
            return config;
        });
        this.#http.interceptors.response.use(
            (response) => {
                pacer.observe(response.status, response.headers as Record<string, unknown>);
                return response;
            },
            (error: unknown) => {
                const response = error instanceof AxiosError ? error.response : undefined;
                pacer.observe(response?.status, response?.headers as Record<string, unknown> | undefined);
                throw error;
            },
        );
        installRetry(this.#http, {
            maxRetries,
            maxRetryDelayMs,
            onRetry: options.onRetry,
            redactText: (text) => redact(text, token),
        });
    }

    /** Sends one request (with the retries the policy allows) and returns its parsed body. */
    async request<S extends z.ZodType>(spec: RequestSpec<S>): Promise<z.output<S>>;
    async request(spec: RequestSpec<undefined>): Promise<void>;
    async request(spec: RequestSpec<z.ZodType | undefined>): Promise<unknown> {
        const url = spec.path + queryString(spec.query);
        // `undefined` (no body) when there is none: that is what `JSON.stringify(undefined)` gives.
        const data = JSON.stringify(spec.body) as string | undefined;
        let response: AxiosResponse<string>;
        try {
            response = await this.#http.request<string>({ method: spec.method, url, data });
        } catch (error) {
            if (
                spec.notFoundAfterRetryIsSuccess &&
                error instanceof AxiosError &&
                error.response?.status === 404 &&
                outcomeWasUnknown(error.config)
            ) {
                return undefined;
            }
            if (
                spec.conflictAfterRetryIsSuccess &&
                error instanceof AxiosError &&
                error.response?.status === 409 &&
                outcomeWasUnknown(error.config) &&
                (await spec.conflictAfterRetryIsSuccess())
            ) {
                return undefined;
            }
            throw this.#toWosError(error, spec);
        }
        if (spec.schema === undefined) return undefined;
        return this.#parse(response, spec, spec.schema);
    }

    /**
     * `value` parsed with `schema` (a rule of `sdk/model`), or a {@link WosArgumentError} naming every field
     * that breaks a rule, thrown before any request is sent. `name` is how the caller knows the argument.
     */
    validate<S extends z.ZodType>(schema: S, value: unknown, method: string, path: string, name = "options"): z.output<S> {
        const parsed = schema.safeParse(value);
        if (parsed.success) return parsed.data;
        const problems = parsed.error.issues.map((issue) => `${argumentPath(name, issue.path)}: ${issue.message}`);
        // A rule's message may quote the value (a duplicate tag key): the token must not ride along.
        throw new WosArgumentError({ method, path, message: redact(`${method} ${path}: ${problems.join("; ")}`, this.#token) });
    }

    #parse(response: AxiosResponse<string>, spec: RequestSpec<z.ZodType | undefined>, schema: z.ZodType): unknown {
        let body: unknown;
        try {
            body = JSON.parse(response.data);
        } catch {
            throw this.#invalidResponse(response, spec, (path) => `${spec.method} ${path}: the service answered ${response.status} with a body that is not JSON`);
        }
        const parsed = schema.safeParse(body);
        if (!parsed.success) {
            throw this.#invalidResponse(response, spec, (path) =>
                redact(`${spec.method} ${path}: unexpected response from the service: ${describeZodIssues(parsed.error)}`, this.#token),
            );
        }
        return parsed.data;
    }

    /**
     * The error of an answer that could not be read, `message` given the request's path without its query
     * (and without the token). Built only on failure: a read that succeeds needs neither.
     */
    #invalidResponse(response: AxiosResponse<string>, spec: RequestSpec<z.ZodType | undefined>, message: (path: string) => string): WosInvalidResponseError {
        const path = redact(pathWithoutQuery(spec.path), this.#token);
        return new WosInvalidResponseError({
            method: spec.method,
            path,
            status: response.status,
            requestId: this.#requestIdOf(response),
            message: message(path),
        });
    }

    /** Maps any failure of axios to a {@link WosError}, keeping only plain, token-free data. */
    #toWosError(error: unknown, spec: RequestSpec<z.ZodType | undefined>): WosError {
        const method = spec.method;
        // An id is caller input: a token (or the proxy's password) pasted into one must not come back in the error.
        const path = this.#withoutSecrets(pathWithoutQuery(spec.path));
        if (!(error instanceof AxiosError)) {
            const text = error instanceof Error ? error.message : String(error);
            return new WosConnectionError({ method, path, message: this.#withoutSecrets(`${method} ${path} failed: ${text}`) });
        }
        const response = error.response;
        if (!response) {
            const code = error.code;
            // Every timeout is ETIMEDOUT here (the adapter's code for it); axios' own adapter says ECONNABORTED without `clarifyTimeoutError`.
            // Stryker disable next-line StringLiteral: every failure without an answer has a code: Node's socket and TLS errors carry one, the adapter gives its own (ETIMEDOUT, ERR_BAD_RESPONSE)
            const codeText = code ?? "unknown";
            const reason = code === "ETIMEDOUT" ? "timed out" : `connection failed (${codeText})`;
            return new WosConnectionError({
                method,
                path,
                code,
                message: this.#withoutSecrets(`${method} ${path} ${reason}: ${error.message} (${this.baseUrl})`),
            });
        }
        const errors = redactDeep(errorObjectsOf(response), this.#token);
        const ErrorClass = errorClassForStatus(response.status);
        const requestId = this.#requestIdOf(response);
        if (response.status === 401) {
            const reason = authenticationFailureOf(response.headers["www-authenticate"]);
            if (reason !== undefined) {
                const detail = describeErrorObjects(errors) || "unauthorized";
                const message = redact(`${method} ${path} failed with status 401: ${detail}: ${reason}`, this.#token);
                return new ErrorClass({ status: 401, errors, method, path, requestId, message });
            }
        }
        return new ErrorClass({ status: response.status, errors, method, path, requestId });
    }

    /** `text` without the token or the proxy's password: what may reach a connection error's message. */
    #withoutSecrets(text: string): string {
        return this.#proxySecrets.reduce((redacted, secret) => redact(redacted, secret), redact(text, this.#token));
    }

    /** The answer's `X-Request-Id`; redacted like everything else that reaches an error. */
    #requestIdOf(response: AxiosResponse): string | undefined {
        const value: unknown = response.headers["x-request-id"];
        return typeof value === "string" && value !== "" ? redact(value, this.#token) : undefined;
    }
}

/**
 * `ADDRESS/api/v2` from an address given with or without a trailing slash or the `/api/v2` prefix.
 * Refuses anything that is not an http(s) URL, and credentials in the URL (they would end up in errors).
 */
export function normalizeAddress(address: string): string {
    let url: URL;
    try {
        url = new URL(address.trim());
    } catch {
        throw new TypeError(`WosClient: address must be an http(s) URL such as ${DEFAULT_ADDRESS}`);
    }
    if (url.protocol !== "http:" && url.protocol !== "https:") {
        throw new TypeError(`WosClient: address must be an http(s) URL such as ${DEFAULT_ADDRESS}`);
    }
    if (url.username || url.password) {
        throw new TypeError("WosClient: address must not contain credentials; pass the token as options.token");
    }
    let path = url.pathname.replace(/\/+$/, "");
    if (path.endsWith(API_PREFIX)) path = path.slice(0, -API_PREFIX.length);
    return `${url.origin}${path}${API_PREFIX}`;
}

/**
 * `?a=b&c=d` with every key and value percent-encoded, brackets included (`filter%5Bnames%5D`): the service's
 * API asks for it, and it reaches every server and proxy intact. axios' own serializer would send raw `[`, `]`
 * and a space as `+`.
 */
export function queryString(query: Query | undefined): string {
    if (!query) return "";
    const parts: string[] = [];
    for (const [key, value] of Object.entries(query)) {
        if (value === undefined) continue;
        const text = Array.isArray(value) ? value.join(",") : String(value);
        parts.push(`${encodeURIComponent(key)}=${encodeURIComponent(text)}`);
    }
    return parts.length ? `?${parts.join("&")}` : "";
}

/**
 * The wire attributes of `options`: each option that is not `undefined`, under its wire name (`null` is
 * sent: it clears). `wireNames` maps option names to attribute names, e.g. `{ autoApply: "auto-apply" }`.
 */
export function wireAttributes<T extends object>(options: T, wireNames: { readonly [K in keyof T]?: string }): Record<string, unknown> {
    const attributes: Record<string, unknown> = {};
    // `for...in` over the map (a literal of own keys): `Object.entries` built an array of pairs per call.
    for (const option in wireNames) {
        const value = options[option];
        if (value !== undefined) attributes[wireNames[option]!] = value;
    }
    return attributes;
}

/** A path segment (an id or an organization name), encoded so it cannot change the path. */
export function segment(value: string): string {
    return encodeURIComponent(value);
}

/** `options.tagBindings[0].key` from the argument's name and a zod issue path. */
function argumentPath(name: string, path: readonly PropertyKey[]): string {
    return path.reduce<string>(
        (text, segment) => (typeof segment === "number" ? `${text}[${segment}]` : `${text}.${String(segment)}`),
        name,
    );
}

/** A whole-number option of {@link WosClientOptions} at least `min`, or its default; a TypeError otherwise. */
function wholeNumberOption(options: WosClientOptions, name: "timeoutMs" | "maxRetries" | "maxRetryDelayMs", fallback: number, min: number): number {
    const value = options[name];
    if (value === undefined) return fallback;
    if (!Number.isInteger(value) || value < min) {
        throw new TypeError(`WosClient: options.${name} must be a whole number of at least ${min}`);
    }
    return value;
}

/** `data.attributes.name: expected string, received number` for each issue; never the values themselves. */
function describeZodIssues(error: z.ZodError): string {
    return error.issues
        .slice(0, 5)
        .map((issue) => {
            const path = issue.path.length ? issue.path.map(String).join(".") : "(body)";
            return `${path}: ${issue.message}`;
        })
        .join("; ");
}

/** Built once, as every schema of the SDK: see `sdk/projects.ts`. */
const ERROR_DOCUMENT = errorDocumentSchema();

/** The error objects of an answer's body (always text: the adapter reads it so); none when it has none. */
function errorObjectsOf(response: AxiosResponse<string>): ErrorObject[] {
    let body: unknown;
    try {
        body = JSON.parse(response.data);
    } catch {
        // Not JSON: `body` stays undefined, which the schema refuses (no error objects).
    }
    const parsed = ERROR_DOCUMENT.safeParse(body);
    return parsed.success ? parsed.data.errors : [];
}

/**
 * Why a 401 happened, in words for a {@link WosAuthenticationError}'s message, from the answer's
 * `WWW-Authenticate` challenge (RFC 6750 section 3): a `Bearer` challenge without an `error` means no token
 * reached the service; with one, its `error_description` says what was wrong (the local service: "not a
 * bearer token" or "unknown token"). `undefined` without a `Bearer` challenge (the message stays as it was).
 */
export function authenticationFailureOf(header: unknown): string | undefined {
    // A header is undefined, a string, or (repeated) an array of strings.
    const values: unknown[] = Array.isArray(header) ? header : [header];
    const challenge = values.map(String).find((value) => /^\s*Bearer\b/i.test(value));
    if (challenge === undefined) return undefined;
    const parameters = new Map<string, string>();
    for (const match of challenge.matchAll(/([A-Za-z_]+)\s*=\s*(?:"((?:[^"\\]|\\.)*)"|([^\s,]+))/g)) {
        // One of the two alternatives of the value always takes part in a match: the other group is undefined.
        parameters.set(match[1]!.toLowerCase(), (match[2] ?? match[3]!).replace(/\\(.)/g, "$1"));
    }
    const error = parameters.get("error");
    // The client always sends one: something on the way (a proxy) removed the header.
    if (error === undefined) return "no token reached the service";
    const description = parameters.get("error_description") ?? (error === "invalid_token" ? "the token is not valid" : error);
    return error === "invalid_token" ? `${description} (check options.token or WOS_TOKEN, and the address)` : description;
}

/** `text` percent-decoded, or as it is when it is not valid percent-encoding. */
function decodedOrSelf(text: string): string {
    try {
        return decodeURIComponent(text);
    } catch {
        return text;
    }
}

/** The value of an environment variable, trimmed; `undefined` when unset or blank (as the providers read them). */
function environmentValue(name: string): string | undefined {
    const value = process.env[name]?.trim();
    return value ? value : undefined;
}

/** `pulumi-wos/<version> node/<version>`: read once, when this module loads. */
const DEFAULT_USER_AGENT = defaultUserAgent();

/** What the client's axios instance keeps of its defaults: what the adapter and the retry policy read. */
const AXIOS_DEFAULTS_KEPT: ReadonlySet<string> = new Set(["adapter", "baseURL", "timeout", "validateStatus", "headers"]);

function defaultUserAgent(): string {
    let version = "dev";
    try {
        // Self-reference through the package's own `exports` (works from dist/ when installed).
        version = (require("pulumi-wos/package.json") as { version: string }).version;
    } catch {
        /* running from source without the package name resolvable */
    }
    return `pulumi-wos/${version} node/${process.versions.node}`;
}
