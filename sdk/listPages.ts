/**
 * The walk through a paginated list that the `listAll` methods share.
 *
 * @module
 */
import type { Pagination } from "./model";

/**
 * Every item of a list, page after page from page 1, following `meta.pagination.next-page`: `listPage`
 * answers one page. A page is asked for only when the items before it have been taken.
 */
export async function* everyItem<T>(listPage: (pageNumber: number) => Promise<{ items: T[]; pagination: Pick<Pagination, "nextPage"> }>): AsyncIterableIterator<T> {
    let pageNumber: number | null = 1;
    while (pageNumber !== null) {
        const page = await listPage(pageNumber);
        yield* page.items;
        const next = page.pagination.nextPage;
        // A next page that does not move forward would loop forever; the service never sends one.
        pageNumber = next !== null && next > pageNumber ? next : null;
    }
}
