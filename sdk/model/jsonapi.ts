/**
 * JSON:API document shapes shared by the server (to render) and the client (to parse).
 *
 * Response schemas are non-strict on purpose: a newer server may add fields and an older client must
 * keep working, so unknown keys are dropped, never refused.
 */
import { z } from "zod";

/** Media type of every request and response body. */
export const JSON_API_MEDIA_TYPE = "application/vnd.api+json";

/**
 * One JSON:API error object: `status` (the HTTP status as a string), `title`, and optionally a `detail` a
 * person can act on and the `source` (`pointer` into the body, or the query `parameter`) it is about.
 * Unknown keys are dropped; a missing title reads as `""`.
 */
export function errorObjectSchema() {
    return z.object({
        status: z.coerce.string(),
        title: z.string().default(""),
        detail: z.string().optional(),
        source: z.object({ pointer: z.string().optional(), parameter: z.string().optional() }).optional(),
        meta: z.record(z.string(), z.unknown()).optional(),
    });
}

/** One JSON:API error object as the service returns it: what {@link errorObjectSchema} parses. */
export type ErrorObject = z.output<ReturnType<typeof errorObjectSchema>>;

/** `{ "errors": [...] }`. */
export function errorDocumentSchema() {
    return z.object({ errors: z.array(errorObjectSchema()) });
}

/**
 * `{ data: {id, type}, links: {related} }`, a to-one relationship. `type` names the resource type the
 * relationship points at, for the reader: it is not enforced, because response parsing is non-strict (the
 * hosted service spells some types differently, e.g. `project` and `projects`).
 */
export function toOneRelationshipSchema(type?: string) {
    void type;
    return z.object({
        data: z.object({ id: z.string(), type: z.string() }).nullable().optional(),
        links: z.object({ related: z.string().optional() }).optional(),
    });
}

/** `links` of a list response: absolute URLs; prev/next null when absent. */
export function listLinksSchema() {
    return z.object({
        self: z.string(),
        first: z.string(),
        prev: z.string().nullable(),
        next: z.string().nullable(),
        last: z.string(),
    });
}

/** `links` of a list answer, as {@link listLinksSchema} parses them. */
export type ListLinks = z.output<ReturnType<typeof listLinksSchema>>;

/** `meta.pagination` of a list response. */
export function paginationSchema() {
    return z.object({
        "current-page": z.number(),
        "page-size": z.number(),
        "prev-page": z.number().nullable(),
        "next-page": z.number().nullable(),
        "total-pages": z.number(),
        "total-count": z.number(),
    });
}

/** Pagination in client terms: what {@link paginationFromWire} makes of {@link paginationSchema}. */
export type Pagination = ReturnType<typeof paginationFromWire>;

/** {@link Pagination} from `meta.pagination` ({@link paginationSchema}); page numbers are 1-based. */
export function paginationFromWire(wire: z.output<ReturnType<typeof paginationSchema>>) {
    return {
        currentPage: wire["current-page"],
        pageSize: wire["page-size"],
        /** `null` on the first page. */
        prevPage: wire["prev-page"],
        /** `null` on the last page. */
        nextPage: wire["next-page"],
        totalPages: wire["total-pages"],
        totalCount: wire["total-count"],
    };
}

/** Wraps a resource schema as `{ data: resource }`. */
export function singleDocumentSchema<T extends z.ZodType>(resource: T) {
    return z.object({ data: resource });
}

/** Wraps a resource schema as `{ data: resource[] }`. */
export function listDocumentSchema<T extends z.ZodType>(resource: T) {
    return z.object({ data: z.array(resource) });
}
