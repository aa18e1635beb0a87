/**
 * The JSON:API shapes every reading is built from (`sdk/model/jsonapi.ts`), called directly with wire
 * documents: what an error object or a relationship may leave out, and what an unknown member becomes.
 */
import { errorDocumentSchema, errorObjectSchema, paginationFromWire, paginationSchema, toOneRelationshipSchema } from "../../sdk/model/jsonapi";

describe("errorObjectSchema", () => {
    const ERROR = errorObjectSchema();

    it("reads a complete error object, the status as a string even when sent as a number", () => {
        expect(
            ERROR.parse({
                status: 422,
                title: "invalid attribute",
                detail: "Name has already been taken",
                source: { pointer: "/data/attributes/name", parameter: "page[size]" },
                meta: { limit: 128 },
                code: "name_taken",
                id: "dropped",
            }),
        ).toEqual({
            status: "422",
            title: "invalid attribute",
            code: "name_taken",
            detail: "Name has already been taken",
            source: { pointer: "/data/attributes/name", parameter: "page[size]" },
            meta: { limit: 128 },
        });
    });

    it("a code that is not text is dropped, and the error object read all the same", () => {
        expect(ERROR.parse({ status: "409", title: "conflict", code: 42, meta: { "run-id": "run-1" } })).toEqual({
            status: "409",
            title: "conflict",
            meta: { "run-id": "run-1" },
        });
        expect(ERROR.parse({ status: "409", title: "conflict", code: 42 }).code).toBeUndefined();
    });

    it("an error object without a title reads as the empty title, not undefined and not refused", () => {
        const parsed = ERROR.parse({ status: "404" });
        expect(parsed.title).toBe("");
        expect(parsed).toEqual({ status: "404", title: "" });
        expect(errorDocumentSchema().parse({ errors: [{ status: "500" }, { status: "409", title: "conflict" }] })).toEqual({
            errors: [
                { status: "500", title: "" },
                { status: "409", title: "conflict" },
            ],
        });
    });

    it("refuses an error object whose title is not a string", () => {
        const result = ERROR.safeParse({ status: "422", title: 7 });
        expect(result.success).toBe(false);
        expect(result.error?.issues[0].path).toEqual(["title"]);
    });
});

describe("toOneRelationshipSchema", () => {
    const RELATIONSHIP = toOneRelationshipSchema();

    it("keeps the identifier and drops the relationship's links, which no reading follows", () => {
        expect(RELATIONSHIP.parse({ data: { id: "prj-1", type: "project" }, links: { related: "/api/v2/projects/prj-1" } })).toEqual({
            data: { id: "prj-1", type: "project" },
        });
    });

    it("an empty relationship (data null or left out) reads as such", () => {
        expect(RELATIONSHIP.parse({ data: null })).toEqual({ data: null });
        expect(RELATIONSHIP.parse({})).toEqual({});
    });

    it("refuses an identifier without an id", () => {
        expect(RELATIONSHIP.safeParse({ data: { type: "projects" } }).success).toBe(false);
    });
});

describe("paginationFromWire", () => {
    it("maps every member of meta.pagination to its client name", () => {
        const wire = paginationSchema().parse({
            "current-page": 2,
            "page-size": 20,
            "prev-page": 1,
            "next-page": null,
            "total-pages": 2,
            "total-count": 27,
        });
        expect(paginationFromWire(wire)).toEqual({ currentPage: 2, pageSize: 20, prevPage: 1, nextPage: null, totalPages: 2, totalCount: 27 });
    });
});
