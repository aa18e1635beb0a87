/**
 * JSON:API errors of the local service: one error class every handler throws, and the helpers that build
 * the error documents of `local-service.md` (401 exact body, 404 "not found or unauthorized", 422 with
 * pointers and a detail a person can act on).
 */
import type { z } from "zod";
import { jsonPointer, type ErrorObject } from "../sdk/model";

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

/** One error object of a status, with an optional detail. */
export function httpError(status: number, detail?: string, extra: Partial<ErrorObject> = {}): HttpError {
    const error: ErrorObject = { status: String(status), title: titleFor(status), ...extra };
    if (detail !== undefined) error.detail = detail;
    return new HttpError(status, [error]);
}

/** 401 with exactly the body of `local-service.md`. */
export function unauthorized(): HttpError {
    return new HttpError(401, [{ status: "401", title: "unauthorized" }]);
}

/** 404: the thing does not exist, belongs to another organization, or the caller may not see or do this. */
export function notFound(what: string): HttpError {
    return httpError(404, `${what} not found or you are not authorized to access it`);
}

/** 403: visible, but the caller may not do this (only where api.md lists 403). */
export function forbidden(detail: string): HttpError {
    return httpError(403, detail);
}

/** 409 with a detail that says why. */
export function conflict(detail: string): HttpError {
    return httpError(409, detail);
}

/** 400 about a query parameter. */
export function badParameter(parameter: string, detail: string): HttpError {
    return httpError(400, detail, { source: { parameter } });
}

/** One validation problem: where (pointer segments) and what to do (a full sentence). */
export interface Problem {
    path: readonly (string | number)[];
    detail: string;
}

/** 422 with one error object per problem, each with its `source.pointer`. */
export function validationFailed(problems: readonly Problem[]): HttpError {
    return new HttpError(
        422,
        problems.map((problem) => ({
            status: "422",
            title: "invalid attribute",
            detail: problem.detail,
            source: { pointer: jsonPointer(problem.path) },
        })),
    );
}

/** 422 about query parameters (`source.parameter`), e.g. one of two linked filters without the other. */
export function invalidParameter(parameter: string, detail: string): HttpError {
    return httpError(422, detail, { source: { parameter }, title: "invalid parameter" });
}

/** `auto-destroy-activity-duration` -> `Auto destroy activity duration`. */
export function labelOf(segment: string): string {
    const words = segment.replace(/[-_]/g, " ").trim();
    return words.charAt(0).toUpperCase() + words.slice(1);
}

/**
 * The 422 of a failed zod parse: one problem per issue, the detail prefixed with the field's label
 * ("Name must be at least 3 characters"); a missing required field says so ("Name is required").
 * `labels` overrides the label of a field by its last path segment (e.g. `key` -> `Tag key`).
 */
export function problemsFromZodError(error: z.ZodError, body: unknown, labels: Record<string, string> = {}): Problem[] {
    return error.issues.map((issue) => {
        const path = issue.path.map((segment) => (typeof segment === "symbol" ? String(segment) : segment));
        // Unknown keys of a strict object are reported on the parent with the key names.
        const keys = issue.code === "unrecognized_keys" ? (issue as { keys?: string[] }).keys : undefined;
        const label = labelAt(path, labels);
        if (keys && keys.length > 0) {
            return { path, detail: `${label} has unknown attribute(s): ${keys.join(", ")}` };
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
 * Strings that are not well-formed Unicode (an unpaired surrogate, which JSON's `\uD800` escapes can
 * carry): SQLite stores text as UTF-8, so such a string would read back as something else than was written,
 * and two different keys could read back the same. One problem per string (or object key), at its pointer.
 */
export function malformedTextProblems(body: unknown): Problem[] {
    // Iterative, and paths as links to the parent: a body may nest deeper than the call stack allows, and
    // copying a path at each level would cost the square of the depth.
    interface Node {
        value: unknown;
        parent?: Node;
        segment?: string | number;
    }
    const pathOf = (node: Node): (string | number)[] => {
        const path: (string | number)[] = [];
        for (let at: Node | undefined = node; at?.segment !== undefined; at = at.parent) path.unshift(at.segment);
        return path;
    };
    const problems: Problem[] = [];
    const pending: Node[] = [{ value: body }];
    while (pending.length > 0) {
        const node = pending.pop()!;
        const { value } = node;
        if (typeof value === "string") {
            if (UNPAIRED_SURROGATE.test(value)) {
                const path = pathOf(node);
                problems.push({ path, detail: `${labelAt(path)} must be valid Unicode text (it contains an unpaired surrogate)` });
            }
        } else if (Array.isArray(value)) {
            // Children pushed last-first, so problems come out in document order.
            for (let index = value.length - 1; index >= 0; index--) pending.push({ value: value[index], parent: node, segment: index });
        } else if (value !== null && typeof value === "object") {
            for (const [key, child] of Object.entries(value).reverse()) {
                if (UNPAIRED_SURROGATE.test(key)) {
                    const path = pathOf(node);
                    problems.push({ path, detail: `${labelAt(path)} has an attribute name that is not valid Unicode text` });
                } else pending.push({ value: child, parent: node, segment: key });
            }
        }
    }
    return problems;
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
 * a schema failure or text that is not valid Unicode is a 422 with one error per problem. Nothing is
 * written before this passes.
 */
export function parseBody<T extends z.ZodType>(schema: T, body: unknown, labels: Record<string, string> = {}): z.output<T> {
    if (body === undefined || body === null || typeof body !== "object" || Array.isArray(body) || !("data" in body) || (body as { data: unknown }).data === null) {
        throw httpError(400, "The request body must be a JSON:API document with a 'data' member");
    }
    const result = schema.safeParse(body);
    const problems = [...(result.success ? [] : problemsFromZodError(result.error, body, labels)), ...malformedTextProblems(body)];
    if (!result.success || problems.length > 0) throw validationFailed(problems);
    return result.data;
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
