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
        /** The HTTP status of the answer, as a string (`"422"`). */
        status: z.coerce.string(),
        /** A short summary that is the same for every error of its kind (`"invalid attribute"`); `""` when absent. */
        title: z.string().default(""),
        /** What is wrong, in words a person can act on. */
        detail: z.string().optional(),
        /** What the error is about in the request. */
        source: z
            .object({
                /** A JSON pointer into the request body (`/data/attributes/name`). */
                pointer: z.string().optional(),
                /** The query parameter (`page[size]`). */
                parameter: z.string().optional(),
            })
            .optional(),
        /** Anything else the service says about the error. */
        meta: z.record(z.string(), z.unknown()).optional(),
    });
}

/**
 * One JSON:API error object as the service returns it: what `errorObjectSchema` parses.
 *
 * @interface
 */
export type ErrorObject = z.output<ReturnType<typeof errorObjectSchema>>;

/** `{ "errors": [...] }`. */
export function errorDocumentSchema() {
    return z.object({ errors: z.array(errorObjectSchema()) });
}

/**
 * `{ data: {id, type} }`, a to-one relationship. The `type` of `data` is read but not checked against the
 * type the relationship points at, because response parsing is non-strict (the hosted service spells some
 * types differently, e.g. `project` and `projects`). Its `links` (`related`) are dropped: no reading uses
 * them, the id is what a client follows.
 */
export function toOneRelationshipSchema() {
    return z.object({
        data: z.object({ id: z.string(), type: z.string() }).nullable().optional(),
    });
}

/** `links` of a list response: absolute URLs; prev/next null when absent. */
export function listLinksSchema() {
    return z.object({
        /** This page. */
        self: z.string(),
        /** The first page. */
        first: z.string(),
        /** The page before; `null` on the first page. */
        prev: z.string().nullable(),
        /** The page after; `null` on the last page. */
        next: z.string().nullable(),
        /** The last page. */
        last: z.string(),
    });
}

/**
 * `links` of a list answer (absolute URLs), as `listLinksSchema` parses them.
 *
 * @interface
 */
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

/**
 * Pagination in client terms: what `paginationFromWire` makes of the list answer's `meta.pagination`.
 *
 * @interface
 */
export type Pagination = ReturnType<typeof paginationFromWire>;

/** {@link Pagination} from `meta.pagination` ({@link paginationSchema}); page numbers are 1-based. */
export function paginationFromWire(wire: z.output<ReturnType<typeof paginationSchema>>) {
    return {
        /** The number of this page, from 1. */
        currentPage: wire["current-page"],
        /** Items per page. */
        pageSize: wire["page-size"],
        /** The page before; `null` on the first page. */
        prevPage: wire["prev-page"],
        /** The page after; `null` on the last page. */
        nextPage: wire["next-page"],
        /** How many pages there are. */
        totalPages: wire["total-pages"],
        /** How many items there are on all pages. */
        totalCount: wire["total-count"],
    };
}

/**
 * Wire shape of a page of a list that counts its items (projects, workspaces): `data`, the page's `links`,
 * and `meta` with `pagination` and `status-counts` (`total`: what the caller sees; `matching`: what the
 * filters kept). `statusCounts` is how the counts are read: {@link statusCountsSchema}, or a lenient form of it.
 */
export function countedListDocumentSchema<T extends z.ZodType, C extends z.ZodType<StatusCounts | undefined>>(resource: T, statusCounts: C) {
    return z.object({
        data: z.array(resource),
        links: listLinksSchema(),
        meta: z.object({ "status-counts": statusCounts, pagination: paginationSchema() }),
    });
}

/** `meta.status-counts` of a counted list, optional (an answer without it is not refused). */
export function statusCountsSchema() {
    return z
        .object({
            /** Items of the organization that the caller sees. */
            total: z.number(),
            /** Those of them that the filters kept. */
            matching: z.number(),
        })
        .optional();
}

/**
 * The counts of a counted list in client terms.
 *
 * @interface
 */
export type StatusCounts = { total: number; matching: number };

/**
 * A page of a counted list ({@link countedListDocumentSchema}) in client terms, each item made by `fromWire`:
 * the items, {@link Pagination}, the links, and `statusCounts` when the answer had them.
 */
export function countedPageFromWire<W, T>(
    document: { data: W[]; links: ListLinks; meta: { "status-counts"?: StatusCounts; pagination: z.output<ReturnType<typeof paginationSchema>> } },
    fromWire: (item: W) => T,
) {
    const statusCounts = document.meta["status-counts"];
    return {
        /** The items of this page. */
        items: document.data.map(fromWire),
        /** Where this page is among all of them, and how many there are. */
        pagination: paginationFromWire(document.meta.pagination),
        /** Absolute URLs of this, the first, previous, next and last page; `prev`/`next` are `null` at the ends. */
        links: document.links,
        ...(statusCounts !== undefined && {
            /** `total`: items of the organization the caller sees; `matching`: those the filters kept. */
            statusCounts: {
                /** Items of the organization that the caller sees. */
                total: statusCounts.total,
                /** Those of them that the filters kept. */
                matching: statusCounts.matching,
            },
        }),
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
