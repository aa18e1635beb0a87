/**
 * JSON:API document shapes shared by the server (to render) and the client (to parse).
 *
 * Response schemas are non-strict on purpose: a newer server may add fields and an older client must
 * keep working, so unknown keys are dropped, never refused.
 */
import { z } from "zod";

/** Media type of every request and response body. */
export const JSON_API_MEDIA_TYPE = "application/vnd.api+json";

/** One JSON:API error object as the service returns it. */
export interface ErrorObject {
    status: string;
    title: string;
    detail?: string;
    source?: { pointer?: string; parameter?: string };
    meta?: Record<string, unknown>;
}

export function errorObjectSchema() {
    return z.object({
        status: z.coerce.string(),
        title: z.string().default(""),
        detail: z.string().optional(),
        source: z.object({ pointer: z.string().optional(), parameter: z.string().optional() }).optional(),
        meta: z.record(z.string(), z.unknown()).optional(),
    });
}

/** `{ "errors": [...] }`. */
export function errorDocumentSchema() {
    return z.object({ errors: z.array(errorObjectSchema()) });
}

/** `{ data: {type, id} }` relationship with an optional related link. */
export function toOneRelationshipSchema(type?: string) {
    return z.object({
        data: z
            .object({ id: z.string(), type: type ? z.string() : z.string() })
            .nullable()
            .optional(),
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

/** Pagination in client terms. */
export interface Pagination {
    currentPage: number;
    pageSize: number;
    prevPage: number | null;
    nextPage: number | null;
    totalPages: number;
    totalCount: number;
}

export function paginationFromWire(wire: z.output<ReturnType<typeof paginationSchema>>): Pagination {
    return {
        currentPage: wire["current-page"],
        pageSize: wire["page-size"],
        prevPage: wire["prev-page"],
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
