/**
 * Query-string parameters of list endpoints: `page[number]` / `page[size]` (default 20, at most 100,
 * anything but a positive integer is a 400), and the `links` / `meta.pagination` of a page with absolute
 * URLs on the service's public base ({@link absoluteUrl}).
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
    const start = pageOffset(page);
    return { items: items.slice(start, start + page.size), ...pageOf(request, items.length, page) };
}

/**
 * The `LIMIT`/`OFFSET` clause of a page's SQL, its values bound as `@limit` and `@offset`. The unary `+` is
 * what makes a prepared statement reusable: SQLite reads a bound `LIMIT` or `OFFSET` value while it plans
 * (`sqlite3ExprIsInteger`), marks the statement as depending on it, and then prepares the statement anew on
 * every run whose parameters were bound, as better-sqlite3 binds them on every run: 15 to 25 µs of parsing
 * and planning, a third of the first page's statement. `+@limit` is no bare variable, so the plan does not
 * depend on it; the values and the plan are the same.
 */
export const PAGE_BOUNDS_SQL = "LIMIT +@limit OFFSET +@offset";

/**
 * The `LIKE` clause of a name search on `column`, its pattern ({@link substringPattern}) bound as `@pattern`.
 * The `+` for the reason of {@link PAGE_BOUNDS_SQL}: SQLite reads a bare bound pattern while it plans (its
 * prefix optimization) and prepares the statement anew on every run; a substring pattern starts with `%`,
 * so that optimization could never narrow the plan. LIKE is case-insensitive for ASCII, which is all a
 * project or workspace name holds.
 */
export function substringLikeSql(column: string): string {
    return `${column} LIKE +@pattern ESCAPE '\\'`;
}

/** The `LIKE` pattern of names that hold `search`: every character literal (`%`, `_` and `\` escaped). */
export function substringPattern(search: string): string {
    return `%${search.replace(/[\\%_]/g, (character) => `\\${character}`)}%`;
}

/** How many items come before the page asked for (the SQL `OFFSET`); may exceed the total. */
export function pageOffset(page: { number: number; size: number }): number {
    return (page.number - 1) * page.size;
}

/**
 * The `links` (absolute URLs) and `meta.pagination` of one page of a list of `totalCount` items, for a list
 * that reads only the page itself (the project list pages in SQL).
 */
export function pageOf(request: FastifyRequest, totalCount: number, page: { number: number; size: number }) {
    const totalPages = Math.max(1, Math.ceil(totalCount / page.size));
    // As the hosted service: the page before the one asked for, even past the last page.
    const prevPage = page.number > 1 ? page.number - 1 : null;
    const nextPage = page.number < totalPages ? page.number + 1 : null;
    // The five links differ only by their page number: what comes before it is worked out once.
    const start = pageUrlStart(request);
    const end = `&page%5Bsize%5D=${page.size}`;
    return {
        links: {
            self: start + page.number + end,
            first: start + 1 + end,
            prev: prevPage === null ? null : start + prevPage + end,
            next: nextPage === null ? null : start + nextPage + end,
            last: start + totalPages + end,
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

/**
 * The request's URL, absolute, up to the value of `page[number]`: its other parameters kept in order, the
 * page's two appended after them (`...&page%5Bnumber%5D=` and then the number, `&page%5Bsize%5D=` and the
 * size), byte for byte what `URLSearchParams` writes after deleting and setting the two. The parameters are
 * taken one by one: one that `URLSearchParams` would write back unchanged (letters, digits, `*-._`, one `=`)
 * is kept as it came, the page's own are dropped, and only the others go through `URLSearchParams` (the
 * form encoding parses and writes each `&`-separated part on its own, so a part's bytes are the same alone
 * as among the others).
 */
function pageUrlStart(request: FastifyRequest): string {
    const [path, search = ""] = request.url.split("?", 2) as [string, string?];
    let kept = "";
    for (const part of search.split("&")) {
        if (part === "") continue;
        const equals = part.indexOf("=");
        const name = equals === -1 ? part : part.slice(0, equals);
        if (PAGE_PARAMETER_NAMES.has(name)) continue;
        let written: string;
        if (UNCHANGED_PARAMETER.test(part)) {
            written = part;
        } else {
            const params = new URLSearchParams(part);
            if (params.has("page[number]") || params.has("page[size]")) continue;
            written = params.toString();
        }
        kept += `${written}&`;
    }
    return `${linkBase(request)}${path}?${kept}page%5Bnumber%5D=`;
}

/** The page's parameters as a client may write them (the names `URLSearchParams` deletes). */
const PAGE_PARAMETER_NAMES = new Set(["page%5Bnumber%5D", "page%5Bsize%5D", "page[number]", "page[size]"]);

/** A parameter `URLSearchParams` writes back byte for byte: nothing it decodes (`%`, `+`) or encodes. */
const UNCHANGED_PARAMETER = /^[A-Za-z0-9*._-]+=[A-Za-z0-9*._-]*$/;

/**
 * `path` as an absolute URL (the base of every absolute link the service answers): on the `--public-url`
 * when one was given, else on the address the service listens on. Never on the request's `Host` header,
 * which any client may set (`Host: evil.example.com` must not put links to it into answers).
 */
export function absoluteUrl(request: FastifyRequest, path: string): string {
    return `${linkBase(request)}${path}`;
}

function linkBase(request: FastifyRequest): string {
    const configured = request.server.wos.linkBase.url;
    if (configured !== undefined) return configured;
    // Listening without startServer (app.listen): the address itself.
    const address = request.server.server.address();
    if (address !== null && typeof address === "object") {
        const host = address.family === "IPv6" ? `[${address.address}]` : address.address;
        return `http://${host}:${address.port}`;
    }
    return "http://localhost";
}

/**
 * A public URL option as the base of links: an absolute `http:` or `https:` URL with no credentials, query
 * or fragment (a path prefix is kept, without its trailing `/`). Anything else throws, naming `name`.
 */
export function publicBaseUrl(value: string, name: string): string {
    let url: URL | undefined;
    try {
        url = new URL(value);
    } catch {
        url = undefined;
    }
    if (!url || (url.protocol !== "http:" && url.protocol !== "https:") || url.username || url.password || url.search || url.hash || value.includes("?") || value.includes("#")) {
        throw new Error(`${name} must be an absolute http:// or https:// URL without credentials, query or fragment, got '${value}'`);
    }
    return `${url.origin}${url.pathname.replace(/\/+$/, "")}`;
}
