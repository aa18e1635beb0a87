/**
 * JSON:API errors of the local service: one error class every handler throws, and the helpers that build
 * the local service's error documents (401 exact body, 404 "not found or unauthorized", 422 with
 * pointers and a detail a person can act on). Every error object but the 401's carries a `code` of
 * {@link ERROR_CODES} (JSON:API's "application-specific error code"), the one thing a client decides on: the
 * words (`title`, `detail`) are for people and may change.
 */
import type { z } from "zod";
import { jsonPointer, type ErrorObject } from "../sdk/model";

/**
 * Every `code` the service answers, by the name the code uses. The table "Error codes" of `docs/server.md`
 * lists each one with its status, when it is answered and what `meta` holds; `tests/server/errorCodes.test.ts`
 * fails when the two differ or when a code here is never used. A code, once shipped, keeps its meaning.
 */
export const ERROR_CODES = {
    // One per status, for an answer a client need not tell apart from others of its status.
    badRequest: "bad_request",
    forbidden: "forbidden",
    notFound: "not_found",
    methodNotAllowed: "method_not_allowed",
    requestTimeout: "request_timeout",
    payloadTooLarge: "payload_too_large",
    unsupportedMediaType: "unsupported_media_type",
    expectationFailed: "expectation_failed",
    invalidAttribute: "invalid_attribute",
    invalidParameter: "invalid_parameter",
    rateLimited: "rate_limited",
    headerFieldsTooLarge: "header_fields_too_large",
    clientError: "client_error",
    internalError: "internal_error",
    serviceUnavailable: "service_unavailable",
    // Where a client may need to decide.
    routeNotFound: "route_not_found",
    organizationTokenNotAllowed: "organization_token_not_allowed",
    nameTaken: "name_taken",
    keyTaken: "key_taken",
    noCodeModuleExists: "no_code_module_exists",
    tooManyErrors: "too_many_errors",
    tooManyItems: "too_many_items",
    projectHasWorkspaces: "project_has_workspaces",
    defaultProjectUndeletable: "default_project_undeletable",
    upgradeInProgress: "upgrade_in_progress",
    upgradeNotConfirmable: "upgrade_not_confirmable",
    concurrentChange: "concurrent_change",
    databaseBusy: "database_busy",
} as const;

/** One of {@link ERROR_CODES}. */
export type ErrorCode = (typeof ERROR_CODES)[keyof typeof ERROR_CODES];

/** Standard titles by status. */
const TITLES: Record<number, string> = {
    400: "bad request",
    401: "unauthorized",
    403: "forbidden",
    404: "not found",
    405: "method not allowed",
    409: "conflict",
    413: "payload too large",
    415: "unsupported media type",
    422: "invalid attribute",
    429: "too many requests",
    500: "internal server error",
    503: "service unavailable",
};

/** The title of a status (`"not found"`), or a generic one. */
export function titleFor(status: number): string {
    return TITLES[status] ?? (status >= 500 ? "server error" : "error");
}

/** The general code of each status the service answers without a more specific one. */
const STATUS_CODES: Record<number, ErrorCode> = {
    400: ERROR_CODES.badRequest,
    403: ERROR_CODES.forbidden,
    404: ERROR_CODES.notFound,
    405: ERROR_CODES.methodNotAllowed,
    408: ERROR_CODES.requestTimeout,
    413: ERROR_CODES.payloadTooLarge,
    415: ERROR_CODES.unsupportedMediaType,
    417: ERROR_CODES.expectationFailed,
    422: ERROR_CODES.invalidAttribute,
    429: ERROR_CODES.rateLimited,
    431: ERROR_CODES.headerFieldsTooLarge,
    500: ERROR_CODES.internalError,
    503: ERROR_CODES.serviceUnavailable,
};

/**
 * The general code of a status: for answers whose status comes from elsewhere (Fastify's own errors, Node's
 * parser). A status without one is `client_error` or `internal_error` by its class.
 */
export function codeForStatus(status: number): ErrorCode {
    return STATUS_CODES[status] ?? (status >= 500 ? ERROR_CODES.internalError : ERROR_CODES.clientError);
}

/** An error with its HTTP status and JSON:API error objects; the error handler renders it as is. */
export class HttpError extends Error {
    readonly statusCode: number;
    readonly errors: ErrorObject[];
    readonly headers: Record<string, string>;

    constructor(statusCode: number, errors: ErrorObject[], headers: Record<string, string> = {}) {
        super(errors.map((error) => error.detail ?? error.title).join("; ") || titleFor(statusCode));
        this.name = "HttpError";
        this.statusCode = statusCode;
        this.errors = errors;
        this.headers = headers;
    }

    /** `{ "errors": [...] }`. */
    toDocument(): { errors: ErrorObject[] } {
        return { errors: this.errors };
    }
}

/** What an error object may add to its status, title, code and detail. */
type ErrorExtra = Partial<Omit<ErrorObject, "status" | "code">>;

/** One error object of a status with its code, an optional detail and more members (`source`, `meta`, a title). */
export function httpError(status: number, code: ErrorCode, detail?: string, extra: ErrorExtra = {}): HttpError {
    const error: ErrorObject = { status: String(status), title: titleFor(status), code, ...extra };
    if (detail !== undefined) error.detail = detail;
    return new HttpError(status, [error]);
}

/**
 * 401 with exactly the local service's body, the same for every failure, and no `code`: the body is the
 * hosted service's, pinned word for word by the service's contract, and the status says all a client can
 * act on (the reason is in `WWW-Authenticate`).
 */
export function unauthorized(): HttpError {
    return new HttpError(401, [{ status: "401", title: "unauthorized" }]);
}

/** 404: the thing does not exist, belongs to another organization, or the caller may not see or do this. */
export function notFound(what: string): HttpError {
    return httpError(404, ERROR_CODES.notFound, `${what} not found or you are not authorized to access it`);
}

/** 403: visible, but the caller may not do this (only where the service's API lists 403). */
export function forbidden(detail: string, meta?: Record<string, unknown>): HttpError {
    return httpError(403, ERROR_CODES.forbidden, detail, meta ? { meta } : {});
}

/** 409 with the code that says why, a detail for people and the ids it concerns in `meta`. */
export function conflict(code: ErrorCode, detail: string, meta?: Record<string, unknown>): HttpError {
    return httpError(409, code, detail, meta ? { meta } : {});
}

/** 400 about a query parameter. */
export function badParameter(parameter: string, detail: string): HttpError {
    return httpError(400, ERROR_CODES.badRequest, detail, { source: { parameter } });
}

/** One validation problem: where (pointer segments) and what to do (a full sentence). */
export interface Problem {
    path: readonly (string | number)[];
    detail: string;
    /** The code of its error object when it is not the general `invalid_attribute` (a name taken). */
    code?: ErrorCode;
    /** The ids the problem concerns (the holder of a name taken). */
    meta?: Record<string, unknown>;
}

/**
 * The problem of a name another resource of the organization holds (names are unique in any case), with
 * the holder's id in `meta`: a client that meant that resource can take it up without a search.
 */
export function nameTaken(holderId: string): Problem {
    return { path: ["data", "attributes", "name"], detail: "Name has already been taken", code: ERROR_CODES.nameTaken, meta: { "holder-id": holderId } };
}

/**
 * Most error objects one answer lists. A request under the body limit can hold a hundred thousand problems
 * (a lone surrogate in every item of a long list); listing them all made answers of 18 MB that took the event
 * loop for seconds, and a person fixes the first few before sending again anyway.
 */
export const MAX_ERRORS_PER_ANSWER = 20;

/**
 * 422 with one error object per problem, each with its `source.pointer`: the first
 * {@link MAX_ERRORS_PER_ANSWER}, then one error object that says how many more there were, pointing at the
 * first of those. `total` is how many problems there were in all when the caller passed only the first ones
 * (pass at least one more than the maximum, so that the last error object has a pointer).
 */
export function validationFailed(problems: readonly Problem[], total: number = problems.length): HttpError {
    const errors: ErrorObject[] = problems.slice(0, MAX_ERRORS_PER_ANSWER).map((problem) => ({
        status: "422",
        title: "invalid attribute",
        code: problem.code ?? ERROR_CODES.invalidAttribute,
        detail: problem.detail,
        source: { pointer: jsonPointer(problem.path) },
        ...(problem.meta ? { meta: problem.meta } : {}),
    }));
    const more = Math.max(total, problems.length) - errors.length;
    if (more > 0) {
        const next = problems[errors.length];
        errors.push({
            status: "422",
            title: "too many errors",
            code: ERROR_CODES.tooManyErrors,
            meta: { "unlisted-count": more },
            detail:
                `${more} more ${more === 1 ? "problem was" : "problems were"} found and not listed (an answer lists at most ` +
                `${MAX_ERRORS_PER_ANSWER}); the first of them is at this pointer: fix the ones listed and send again`,
            // A pointer on every 422 error, as the local service decided; the document's root when the caller only counted.
            source: { pointer: next === undefined ? "" : jsonPointer(next.path) },
        });
    }
    return new HttpError(422, errors);
}

/** 422 about query parameters (`source.parameter`), e.g. one of two linked filters without the other. */
export function invalidParameter(parameter: string, detail: string): HttpError {
    return httpError(422, ERROR_CODES.invalidParameter, detail, { source: { parameter }, title: "invalid parameter" });
}

/** `auto-destroy-activity-duration` -> `Auto destroy activity duration`. */
export function labelOf(segment: string): string {
    const words = segment.replace(/[-_]/g, " ").trim();
    return words.charAt(0).toUpperCase() + words.slice(1);
}

/**
 * The 422 of a failed zod parse: one problem per issue, the detail prefixed with the field's label
 * ("Name must be at least 3 characters"); a missing required field says so ("Name is required").
 * `labels` overrides the label of a field by its last path segment (e.g. `key` -> `Tag key`). Only the
 * first `limit` issues become problems.
 */
export function problemsFromZodError(
    error: z.ZodError,
    body: unknown,
    labels: Record<string, string> = {},
    limit: number = Number.POSITIVE_INFINITY,
): Problem[] {
    // Only the problems an answer can list are worded (`limit`); the caller counts the rest from `error.issues`.
    return error.issues.slice(0, limit).map((issue) => {
        const path = issue.path.map((segment) => (typeof segment === "symbol" ? String(segment) : segment));
        // Unknown keys of a strict object are reported on the parent with the key names.
        const keys = issue.code === "unrecognized_keys" ? (issue as { keys?: string[] }).keys : undefined;
        const label = labelAt(path, labels);
        if (keys && keys.length > 0) {
            // Named, but not all of them: a body can hold a hundred thousand unknown names.
            const named = keys.slice(0, UNKNOWN_KEYS_NAMED).map(abbreviated).join(", ");
            const more = keys.length > UNKNOWN_KEYS_NAMED ? ` and ${keys.length - UNKNOWN_KEYS_NAMED} more` : "";
            return { path, detail: `${label} has unknown attribute(s): ${named}${more}` };
        }
        const present = valueAt(body, path) !== undefined;
        if (!present && issue.code === "invalid_type") return { path, detail: `${label} is required` };
        if (issue.code === "invalid_type" && issue.message.startsWith("Invalid input")) {
            // zod's own wording; say what is expected instead.
            const expected = String((issue as { expected?: string }).expected ?? "another type");
            return { path, detail: `${label} must be ${expected === "array" ? "a list" : expected === "object" ? "an object" : `a ${expected}`}` };
        }
        return { path, detail: `${label} ${issue.message}` };
    });
}

/** How many unknown member names one detail names. */
const UNKNOWN_KEYS_NAMED = 10;

function valueAt(root: unknown, path: readonly (string | number)[]): unknown {
    let current: unknown = root;
    for (const segment of path) {
        if (current === null || typeof current !== "object") return undefined;
        current = (current as Record<string | number, unknown>)[segment];
    }
    return current;
}

/** A UTF-16 surrogate without its other half. */
const UNPAIRED_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

/**
 * Most list items one request may hold, counted over every list its schema reads (tag bindings, workspaces to
 * move, variable-options sets and their options, vars). zod's cost grows with the problems it finds, several
 * microseconds each: a body under the size limit can hold 200,000 bad items, a second of work, where the
 * largest real request (a module's option sets, a workspace's vars) holds a few dozen.
 */
export const MAX_LIST_ITEMS = 1000;

/** The zod definition fields the walk reads (zod 4's `_zod.def`, the documented way to walk a schema). */
interface SchemaDef {
    type: string;
    shape?: Record<string, { _zod: { def: SchemaDef } }>;
    element?: { _zod: { def: SchemaDef } };
    innerType?: { _zod: { def: SchemaDef } };
}

/** Wrappers whose inner schema reads the same value. */
const WRAPPERS = new Set(["optional", "nullable", "default", "prefault", "readonly", "nonoptional", "catch"]);

/** Schemas of a single value: a list or an object in their place is a problem the schema reports, not text to walk. */
const LEAVES = new Set(["string", "number", "int", "boolean", "bigint", "literal", "enum", "null", "undefined", "void", "date", "nan", "never", "symbol", "template_literal", "file"]);

/** What {@link inspectBody} found: the list that takes the request over {@link MAX_LIST_ITEMS}, or the text problems. */
interface Inspection {
    tooManyItems?: Problem;
    /** The first `limit` text problems. */
    text: Problem[];
    /** How many text problems there are in all. */
    textTotal: number;
}

/**
 * Walks what `schema` reads of `body`, once: the members of its objects' shapes, the items of its lists, and
 * whole whatever sits under another kind of schema (a union, a transform, `z.unknown()`). Members the schema
 * does not read (a top-level `meta`, an attribute a schema strips) are never visited, whatever they hold;
 * the names of the members of an object it reads are all checked, one test a name. Stops at the list that
 * takes the request over {@link MAX_LIST_ITEMS}. Without a schema, the whole body is walked.
 *
 * Text problems are strings that are not well-formed Unicode (an unpaired surrogate, which JSON's `\uD800`
 * escapes can carry): SQLite stores text as UTF-8, so such a string would read back as something else than
 * was written, and two different keys could read back the same. One problem per string (or object key), at
 * its pointer; the first `limit` are worded, the others counted.
 */
function inspectBody(schema: z.ZodType | undefined, body: unknown, limit: number): Inspection {
    // Iterative, and paths as links to the parent: a body may nest deeper than the call stack allows, and
    // copying a path at each level would cost the square of the depth.
    interface Node {
        value: unknown;
        /** The schema at this place; undefined where the value is read whole. */
        def: SchemaDef | undefined;
        parent?: Node;
        segment?: string | number;
    }
    const pathOf = (node: Node): (string | number)[] => {
        const path: (string | number)[] = [];
        for (let at: Node | undefined = node; at?.segment !== undefined; at = at.parent) path.unshift(at.segment);
        return path;
    };
    const text: Problem[] = [];
    let textTotal = 0;
    const report = (node: Node, detail: (label: string) => string) => {
        textTotal += 1;
        if (text.length < limit) {
            const path = pathOf(node);
            text.push({ path, detail: detail(labelAt(path)) });
        }
    };
    let items = 0;
    const root = schema === undefined ? undefined : (schema as unknown as { _zod: { def: SchemaDef } })._zod.def;
    const pending: Node[] = [{ value: body, def: root }];
    while (pending.length > 0) {
        const node = pending.pop()!;
        const { value } = node;
        let def = node.def;
        while (def && WRAPPERS.has(def.type) && def.innerType) def = def.innerType._zod.def;
        if (typeof value === "string") {
            if (UNPAIRED_SURROGATE.test(value)) report(node, (label) => `${label} must be valid Unicode text (it contains an unpaired surrogate)`);
        } else if (Array.isArray(value)) {
            // A list where the schema wants an object or a single value is its problem to report; one under
            // another kind of schema (a union, a transform, `z.unknown()`) or none is read whole.
            if (def && def.type !== "array") {
                if (def.type === "object" || LEAVES.has(def.type)) continue;
                def = undefined;
            }
            if (def) {
                items += value.length;
                if (items > MAX_LIST_ITEMS) {
                    const path = pathOf(node);
                    return {
                        tooManyItems: {
                            path,
                            code: ERROR_CODES.tooManyItems,
                            meta: { "item-limit": MAX_LIST_ITEMS },
                            detail:
                                `This list has ${value.length} items, which takes the request over ${MAX_LIST_ITEMS} list items in all; ` +
                                `a request may hold at most ${MAX_LIST_ITEMS}: send fewer at a time`,
                        },
                        text,
                        textTotal,
                    };
                }
            }
            const element = def?.element?._zod.def;
            // Children pushed last-first, so problems come out in document order.
            for (let index = value.length - 1; index >= 0; index--) pending.push({ value: value[index], def: element, parent: node, segment: index });
        } else if (value !== null && typeof value === "object") {
            if (def && def.type !== "object") {
                if (def.type === "array" || LEAVES.has(def.type)) continue;
                def = undefined;
            }
            const shape = def?.shape;
            const keys = Object.keys(value);
            for (let index = keys.length - 1; index >= 0; index--) {
                const key = keys[index]!;
                if (UNPAIRED_SURROGATE.test(key)) {
                    report(node, (label) => `${label} has an attribute name that is not valid Unicode text`);
                } else if (shape === undefined) {
                    pending.push({ value: (value as Record<string, unknown>)[key], def: undefined, parent: node, segment: key });
                } else if (Object.prototype.hasOwnProperty.call(shape, key)) {
                    pending.push({ value: (value as Record<string, unknown>)[key], def: shape[key]!._zod.def, parent: node, segment: key });
                }
            }
        }
    }
    return { text, textTotal };
}

/**
 * The text problems of a whole value (see {@link inspectBody}): every string and member name, at its
 * pointer. Returns the first `limit` problems and how many there are in all.
 */
export function malformedTextProblems(body: unknown, limit: number = Number.POSITIVE_INFINITY): { problems: Problem[]; total: number } {
    const { text, textTotal } = inspectBody(undefined, body, limit);
    return { problems: text, total: textTotal };
}

/** The label of the field at `path`: its last named segment (`/data/0/attributes/key` -> `Key`), or `labels`' name for it. */
function labelAt(path: readonly (string | number)[], labels: Record<string, string> = {}): string {
    const lastName = [...path].reverse().find((segment): segment is string => typeof segment === "string");
    return lastName === undefined ? "Body" : (labels[lastName] ?? labelOf(lastName));
}

/** A 422 problem when a body's `data.id` is given and is not the id in the URL. */
export function urlIdProblems(given: string | undefined, expected: string, what: string): Problem[] {
    return given === undefined || given === expected
        ? []
        : [{ path: ["data", "id"], detail: `Id must be the id of the ${what} in the URL (${expected})` }];
}

/**
 * Validates a JSON:API request body: no body, a body that is not an object, or no `data` is a 400;
 * a schema failure or text that is not valid Unicode is a 422 with one error per problem (at most
 * {@link MAX_ERRORS_PER_ANSWER}, then a count of the rest). Nothing is written before this passes.
 *
 * Members the schema does not read are ignored, as JSON:API asks of a server ("MUST ignore members not
 * recognized") and as the hosted service does: a top-level `meta`, `links`, `jsonapi` or `included`, and an
 * attribute a schema strips. They are never walked, so what they hold costs nothing. Lists the schema reads
 * may hold {@link MAX_LIST_ITEMS} items in all; more is refused before the schema runs.
 */
export function parseBody<T extends z.ZodType>(schema: T, body: unknown, labels: Record<string, string> = {}): z.output<T> {
    if (body === undefined || body === null || typeof body !== "object" || Array.isArray(body) || !("data" in body) || (body as { data: unknown }).data === null) {
        throw httpError(400, ERROR_CODES.badRequest, "The request body must be a JSON:API document with a 'data' member");
    }
    // One more than an answer lists, so that the count of the rest can point at the first unlisted one.
    const limit = MAX_ERRORS_PER_ANSWER + 1;
    const inspection = inspectBody(schema, body, limit);
    if (inspection.tooManyItems) throw validationFailed([inspection.tooManyItems]);
    const result = schema.safeParse(body);
    if (result.success && inspection.textTotal === 0) return result.data;
    const issues = result.success ? 0 : result.error.issues.length;
    const problems = [...(result.success ? [] : problemsFromZodError(result.error, body, labels, limit)), ...inspection.text];
    throw validationFailed(problems.slice(0, limit), issues + inspection.textTotal);
}

/** `a, b, c`, or `none` for an empty list: a list inside an error detail. */
export function listOrNone(values: readonly string[]): string {
    return values.length === 0 ? "none" : values.join(", ");
}

/** A message with its first letter upper-cased, to stand as a detail of its own. */
export function capitalized(message: string): string {
    return message.charAt(0).toUpperCase() + message.slice(1);
}

/** A value from the request, shortened to 60 characters so that a detail stays short whatever was sent. */
export function abbreviated(value: string): string {
    return value.length > 60 ? `${value.slice(0, 60)}…` : value;
}

/** `1 workspace`, `2 workspaces`: a count and its noun, for a detail. */
export function plural(count: number, noun: string): string {
    return `${count} ${noun}${count === 1 ? "" : "s"}`;
}
