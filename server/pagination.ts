/**
 * Query-string parameters of list endpoints: `page[number]` / `page[size]` (default 20, at most 100,
 * anything but a positive integer is a 400), and the `links` / `meta.pagination` of a page with absolute
 * URLs built from the request's own host.
 */
import type { FastifyRequest } from "fastify";
import { LIMITS } from "../sdk/model";
import { badParameter } from "./errors";

/** The query string as Fastify parsed it (`page[number]` stays a flat key). */
export type Query = Record<string, string | string[] | undefined>;

/** A single-valued query parameter; given twice is a 400. */
export function singleParameter(query: Query, name: string): string | undefined {
    const value = query[name];
    if (Array.isArray(value)) throw badParameter(name, `${name} may be given only once`);
    return value;
}

function positiveInteger(query: Query, name: string): number | undefined {
    const value = singleParameter(query, name);
    if (value === undefined) return undefined;
    if (!/^\d+$/.test(value) || Number(value) < 1 || !Number.isSafeInteger(Number(value))) {
        throw badParameter(name, `${name} must be a positive integer, got '${value}'`);
    }
    return Number(value);
}

/** The page asked for: number from 1, size 1..100 (larger is clamped to 100). */
export function pageRequest(query: Query): { number: number; size: number } {
    const number = positiveInteger(query, "page[number]") ?? 1;
    const size = Math.min(positiveInteger(query, "page[size]") ?? LIMITS.pageSizeDefault, LIMITS.pageSizeMax);
    return { number, size };
}

/** One page of `items`, with `links` (absolute URLs) and `meta.pagination`. */
export function paginate<T>(request: FastifyRequest, items: readonly T[], page: { number: number; size: number }) {
    const totalCount = items.length;
    const totalPages = Math.max(1, Math.ceil(totalCount / page.size));
    const start = (page.number - 1) * page.size;
    // As the hosted service: the page before the one asked for, even past the last page.
    const prevPage = page.number > 1 ? page.number - 1 : null;
    const nextPage = page.number < totalPages ? page.number + 1 : null;
    const link = (number: number) => pageUrl(request, number, page.size);
    return {
        items: items.slice(start, start + page.size),
        links: {
            self: link(page.number),
            first: link(1),
            prev: prevPage === null ? null : link(prevPage),
            next: nextPage === null ? null : link(nextPage),
            last: link(totalPages),
        },
        pagination: {
            "current-page": page.number,
            "page-size": page.size,
            "prev-page": prevPage,
            "next-page": nextPage,
            "total-pages": totalPages,
            "total-count": totalCount,
        },
    };
}

/** The request's URL, absolute, with its other parameters kept and the page replaced. */
function pageUrl(request: FastifyRequest, number: number, size: number): string {
    const [path, search = ""] = request.url.split("?", 2) as [string, string?];
    const params = new URLSearchParams(search);
    params.delete("page[number]");
    params.delete("page[size]");
    params.set("page[number]", String(number));
    params.set("page[size]", String(size));
    return absoluteUrl(request, `${path}?${params.toString()}`);
}

/** `path` as an absolute URL on the host the request came to (the base of every absolute link the service answers). */
export function absoluteUrl(request: FastifyRequest, path: string): string {
    return `${request.protocol}://${request.host}${path}`;
}
