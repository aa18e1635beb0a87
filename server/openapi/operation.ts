/**
 * The words an operation of the OpenAPI description is written in: what {@link Operation} says of one route
 * (its parameters, body and answers, each a zod schema: most from `sdk/model`, where each rule is written
 * once), and the answers every family shares. `document.ts` turns them into OpenAPI 3.1; the families'
 * files (`projects.ts`, `workspaces.ts`...) say their routes in these words.
 */
import { z } from "zod";
import { LIMITS, errorObjectSchema } from "../../sdk/model";
import { ERROR_CODES } from "../errors";

/** An HTTP method the service's routes answer, in OpenAPI's spelling. */
export type Method = "get" | "post" | "patch" | "delete";

/** One query parameter: its value's schema (what the route accepts) and what it does. */
export interface QueryParameter {
    schema: z.ZodType;
    description: string;
}

/** One answer of an operation: what it means and, unless it has none (204), its body. */
export interface Answer {
    description: string;
    /** A document schema; {@link ERROR_BODY} for the error document. Absent: no body. */
    body?: z.ZodType;
    /** The body's media type; JSON:API unless said. */
    mediaType?: string;
    /** OpenAPI links from this answer to other operations (by operationId): parameter name to runtime expression. */
    links?: Record<string, { operationId: string; parameters: Record<string, string>; description: string }>;
}

/** One route of the service as the description says it. */
export interface Operation {
    method: Method;
    /** The route's path as Fastify writes it (`/api/v2/projects/:id`). */
    path: string;
    operationId: string;
    summary: string;
    description?: string;
    /** The family, as the description's tag. */
    tag: string;
    /** Who may call it: a token of the service (the default), anyone (`ping`, the description), or the admin token. */
    caller?: "token" | "anyone" | "admin";
    /** What each `:name` of the path is; every one must be said. */
    pathParameters: Record<string, string>;
    query?: Record<string, QueryParameter>;
    body?: { schema: z.ZodType; description: string; required: boolean };
    responses: Record<number, Answer>;
}

/** The error document with the codes the service answers (every error object but the 401's carries one). */
export const ERROR_BODY = z.object({
    errors: z.array(errorObjectSchema().extend({ code: z.enum(Object.values(ERROR_CODES)).optional() })),
});

/** An error answer. */
export function error(description: string): Answer {
    return { description, body: ERROR_BODY };
}

/**
 * The answers every authenticated operation may give whatever it is asked: no or a bad token, what is not
 * found or not the token's to see, the rate limit (with `--rate-limit`), a busy database.
 */
export function commonAnswers(notFound: string): Record<number, Answer> {
    return {
        401: error("No token, or a token the service does not know"),
        404: error(notFound),
        429: error("Over the rate limit (`wos-server --rate-limit`); `Retry-After` says when to try again"),
        503: error("The database is busy; `Retry-After: 1`"),
    };
}

/** The answer of every operation that reads query parameters to a bad one (a bad value, or one given twice). */
export function queryAnswers(): Record<number, Answer> {
    return { 400: error("A bad query parameter, or one given twice; `source.parameter` names it") };
}

/** The answers of every operation that reads a JSON:API body: a body that is not JSON, too large, or breaking a rule. */
export function bodyAnswers(): Record<number, Answer> {
    return {
        400: error("No body, a body that is not JSON, not UTF-8 text, or without `data`"),
        413: error("The body is larger than the service accepts"),
        415: error("The body's content type is one the service does not read"),
        422: error("The body breaks a rule; `source.pointer` names the member and `detail` the rule"),
    };
}

/** A query parameter whose value is a comma-separated list of `values` (spaces around each allowed). */
export function commaSeparated(values: readonly string[], description: string): QueryParameter {
    const one = values.map((value) => value.replace(/[.*+?^${}()|[\]\\-]/g, "\\$&")).join("|");
    return { schema: z.string().regex(new RegExp(`^\\s*(${one})\\s*(,\\s*(${one})\\s*)*$`)), description };
}

/** `page[number]` and `page[size]` of a paged list. */
export function pageParameters(): Record<string, QueryParameter> {
    return {
        "page[number]": { schema: z.int().min(1), description: "The page, from 1 (default 1). Past the last page, an empty page." },
        "page[size]": { schema: z.int().min(1), description: `Items per page (default ${LIMITS.pageSizeDefault}); above ${LIMITS.pageSizeMax}, ${LIMITS.pageSizeMax}.` },
    };
}

/** The JSON:API body of a write, required. */
export function body(schema: z.ZodType, description: string): Operation["body"] {
    return { schema, description, required: true };
}
