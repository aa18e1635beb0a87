/**
 * JSON:API document shapes shared by the server (to render) and the client (to parse).
 *
 * Response schemas are non-strict on purpose: a newer server may add fields and an older client must
 * keep working, so unknown keys are dropped, never refused.
 */
import { z } from "zod";

/** Media type of every request and response body. */
export const JSON_API_MEDIA_TYPE = "application/vnd.api+json";

// Each type the client answers is an interface that carries the TSDoc of its fields, because a type inferred
// from a zod schema (or from the function that parses one) reaches the published `.d.ts` without the comments
// written inside it, and an editor then shows nothing on hover. `tests/sdk/schemaTypes.test.ts` proves each
// interface the very type that its schema's parse answers (`z.output`), so the two cannot drift apart.

/**
 * One JSON:API error object, whose fields {@link ErrorObject} describes: `status`, `title`, and optionally a
 * `code`, a `detail`, the `source` it is about and `meta`. Unknown keys are dropped; a missing title reads as
 * `""`; a `code` that is not a string is dropped (the hosted service sends none, and an odd one must not make
 * an error answer unreadable).
 */
export function errorObjectSchema() {
    return z.object({
        status: z.coerce.string(),
        title: z.string().default(""),
        code: z.string().optional().catch(undefined),
        detail: z.string().optional(),
        source: z.object({ pointer: z.string().optional(), parameter: z.string().optional() }).optional(),
        meta: z.record(z.string(), z.unknown()).optional(),
    });
}

/** One JSON:API error object as the service returns it: what `errorObjectSchema` parses. */
export interface ErrorObject {
    /** The HTTP status of the answer, as a string (`"422"`). */
    status: string;
    /** A short summary that is the same for every error of its kind (`"invalid attribute"`); `""` when absent. */
    title: string;
    /**
     * The machine-readable reason (`"upgrade_in_progress"`, `"not_found"`): stable, unlike the words, so a
     * client decides on it. The local service sends one on every error but its 401; the hosted service sends
     * none. Every code: the table "Error codes" of `docs/server.md`.
     */
    code?: string;
    /** What is wrong, in words a person can act on. */
    detail?: string;
    /** What the error is about in the request. */
    source?: {
        /** A JSON pointer into the request body (`/data/attributes/name`). */
        pointer?: string;
        /** The query parameter (`page[size]`). */
        parameter?: string;
    };
    /** Anything else the service says about the error; with a `code`, the ids it concerns (`{ "run-id": "run-..." }`). */
    meta?: Record<string, unknown>;
}

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

/** `links` of a list response ({@link ListLinks}): absolute URLs; prev/next null when absent. */
export function listLinksSchema() {
    return z.object({
        self: z.string(),
        first: z.string(),
        prev: z.string().nullable(),
        next: z.string().nullable(),
        last: z.string(),
    });
}

/** `links` of a list answer (absolute URLs), as `listLinksSchema` parses them. */
export interface ListLinks {
    /** This page. */
    self: string;
    /** The first page. */
    first: string;
    /** The page before; `null` on the first page. */
    prev: string | null;
    /** The page after; `null` on the last page. */
    next: string | null;
    /** The last page. */
    last: string;
}

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

/** Pagination in client terms: what `paginationFromWire` makes of the list answer's `meta.pagination`. */
export interface Pagination {
    /** The number of this page, from 1. */
    currentPage: number;
    /** Items per page. */
    pageSize: number;
    /** The page before; `null` on the first page. */
    prevPage: number | null;
    /** The page after; `null` on the last page. */
    nextPage: number | null;
    /** How many pages there are. */
    totalPages: number;
    /** How many items there are on all pages. */
    totalCount: number;
}

/** {@link Pagination} from `meta.pagination` ({@link paginationSchema}); page numbers are 1-based. */
export function paginationFromWire(wire: z.output<ReturnType<typeof paginationSchema>>) {
    return {
        currentPage: wire["current-page"],
        pageSize: wire["page-size"],
        prevPage: wire["prev-page"],
        nextPage: wire["next-page"],
        totalPages: wire["total-pages"],
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

/** `meta.status-counts` of a counted list ({@link StatusCounts}), optional (an answer without it is not refused). */
export function statusCountsSchema() {
    return z.object({ total: z.number(), matching: z.number() }).optional();
}

/**
 * The counts of a counted list in client terms.
 *
 * @inline
 */
export interface StatusCounts {
    /** Items of the organization that the caller sees. */
    total: number;
    /** Those of them that the filters kept. */
    matching: number;
}

/**
 * A page of a counted list in client terms: the items, {@link Pagination}, the links, and `statusCounts`
 * when the answer had them.
 *
 * @inline
 */
export interface CountedPage<Item> {
    /** The items of this page. */
    items: Item[];
    /** Where this page is among all of them, and how many there are. */
    pagination: Pagination;
    /** Absolute URLs of this, the first, previous, next and last page; `prev`/`next` are `null` at the ends. */
    links: ListLinks;
    /** `total`: items of the organization the caller sees; `matching`: those the filters kept. */
    statusCounts?: StatusCounts;
}

/**
 * A page of a counted list ({@link countedListDocumentSchema}) in client terms ({@link CountedPage}), each item
 * made by `fromWire`.
 */
export function countedPageFromWire<W, T>(
    document: { data: W[]; links: ListLinks; meta: { "status-counts"?: StatusCounts; pagination: z.output<ReturnType<typeof paginationSchema>> } },
    fromWire: (item: W) => T,
) {
    const statusCounts = document.meta["status-counts"];
    return {
        items: document.data.map(fromWire),
        pagination: paginationFromWire(document.meta.pagination),
        links: document.links,
        ...(statusCounts !== undefined && { statusCounts }),
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
