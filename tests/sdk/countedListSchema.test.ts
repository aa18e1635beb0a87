/**
 * The client's reading of the counted lists (projects, workspaces: `sdk/model/jsonapi.ts`
 * `countedListDocumentSchema` / `countedPageFromWire`), called directly with wire documents: items, pagination,
 * links, and `status-counts` present, absent, with the hosted service's extra members, or malformed.
 */
import { projectListSchema } from "../../sdk/model/project";
import { workspaceListSchema } from "../../sdk/model/workspace";

const LINKS = { self: "http://h/a?page%5Bnumber%5D=2", first: "http://h/a?page%5Bnumber%5D=1", prev: "http://h/a?page%5Bnumber%5D=1", next: null, last: "http://h/a?page%5Bnumber%5D=2" };
const PAGINATION = { "current-page": 2, "page-size": 1, "prev-page": 1, "next-page": null, "total-pages": 2, "total-count": 2 };
const PROJECT = { id: "prj-1", type: "projects", attributes: { name: "Apps" } };
const WORKSPACE = { id: "ws-1", type: "workspaces", attributes: { name: "web" } };

function document(item: unknown, statusCounts?: unknown) {
    return { data: [item], links: LINKS, meta: { pagination: PAGINATION, ...(statusCounts === undefined ? {} : { "status-counts": statusCounts }) } };
}

describe.each([
    ["projects", projectListSchema(), PROJECT],
    ["workspaces", workspaceListSchema(), WORKSPACE],
])("the %s list", (_name, schema, item) => {
    it("reads the items, the pagination in client terms, the links and the counts", () => {
        const page = schema.parse(document(item, { total: 7, matching: 2 }));
        expect(page.items.map((each) => each.id)).toEqual([item.id]);
        expect(page.pagination).toEqual({ currentPage: 2, pageSize: 1, prevPage: 1, nextPage: null, totalPages: 2, totalCount: 2 });
        expect(page.links).toEqual(LINKS);
        expect(page.statusCounts).toEqual({ total: 7, matching: 2 });
    });

    it("an answer without counts has no statusCounts member at all", () => {
        const page = schema.parse(document(item));
        expect("statusCounts" in page).toBe(false);
    });

    it("members of the counts other than total and matching are dropped", () => {
        expect(schema.parse(document(item, { total: 7, matching: 2, planning: 1 })).statusCounts).toEqual({ total: 7, matching: 2 });
    });

    it("refuses an answer without pagination or links", () => {
        expect(schema.safeParse({ data: [item], links: LINKS, meta: {} }).success).toBe(false);
        expect(schema.safeParse({ data: [item], meta: { pagination: PAGINATION } }).success).toBe(false);
    });
});

describe("malformed counts", () => {
    it("the project list refuses them (a project list always counts both; a malformed count is a broken answer)", () => {
        expect(projectListSchema().safeParse(document(PROJECT, { total: "7" })).success).toBe(false);
    });

    it("the workspace list reads the page without them (the hosted service's counts are of run statuses)", () => {
        const page = workspaceListSchema().parse(document(WORKSPACE, { pending: 3, planning: 1 }));
        expect(page.items.map((each) => each.id)).toEqual(["ws-1"]);
        expect("statusCounts" in page).toBe(false);
    });
});
