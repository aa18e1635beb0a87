/**
 * Contract of `GET /organizations/:organization/projects`: search, name filter, permission filters, sort,
 * pagination (`meta`, absolute `links`, default 20, clamp at 100, 400 for bad page parameters) and
 * percent-encoded brackets.
 *
 * The organization holds the four seeded projects and 25 made here ("Item 01" to "Item 25"): 29 in all.
 */
import type { TestServer } from "../support/server";
import { TOKENS } from "../support/seed";
import {
    ACME_PROJECTS,
    clientFor,
    createProject,
    expectErrors,
    expectStatus,
    http,
    namesOf,
    sorted,
    withSeededServer,
    type Client,
    type HttpResponse,
} from "./helpers";

const ITEMS = Array.from({ length: 25 }, (_, index) => `Item ${String(index + 1).padStart(2, "0")}`);
const ALL = [...ACME_PROJECTS, ...ITEMS];
const LIST = "/organizations/acme/projects";

let server: TestServer;
let owners: Client;

withSeededServer((started) => ({ server, owners } = started));
beforeAll(async () => {
    for (const name of ITEMS) await createProject(server, { name });
});

function pagination(response: HttpResponse): any {
    return response.body.meta.pagination;
}

/** Asserts `url` is absolute, on this server, on the list path, and returns its query. */
function absoluteListLink(url: string): URLSearchParams {
    expect(typeof url).toBe("string");
    expect(url.startsWith(`${server.url}/api/v2/organizations/acme/projects`)).toBe(true);
    return new URL(url).searchParams;
}

describe("pagination", () => {
    test("the first page holds 20 projects by default, with meta.pagination and status-counts", async () => {
        const response = await owners.get(LIST);
        expectStatus(response, 200);
        expect(response.body.data).toHaveLength(20);
        expect(pagination(response)).toEqual({
            "current-page": 1,
            "page-size": 20,
            "prev-page": null,
            "next-page": 2,
            "total-pages": 2,
            "total-count": 29,
        });
        expect(response.body.meta["status-counts"]).toEqual({ total: 29, matching: 29 });
    });

    test("links are absolute URLs; prev is null on the first page and next points at page 2", async () => {
        const response = await owners.get(LIST);
        const links = response.body.links;
        absoluteListLink(links.self);
        expect(absoluteListLink(links.first).get("page[number]") ?? "1").toBe("1");
        expect(absoluteListLink(links.last).get("page[number]")).toBe("2");
        expect(links.prev).toBeNull();
        expect(absoluteListLink(links.next).get("page[number]")).toBe("2");
    });

    test("every link names its page and keeps the page size and the other parameters: self is the page asked for", async () => {
        const response = await owners.get(`${LIST}?page[size]=5&page[number]=3&sort=name`);
        expectStatus(response, 200);
        const pageOf = (name: string) => {
            const query = absoluteListLink(response.body.links[name]);
            expect(query.get("page[size]")).toBe("5");
            expect(query.get("sort")).toBe("name");
            return query.get("page[number]");
        };
        // 29 projects by 5: six pages.
        expect({ self: pageOf("self"), first: pageOf("first"), prev: pageOf("prev"), next: pageOf("next"), last: pageOf("last") }).toEqual({
            self: "3",
            first: "1",
            prev: "2",
            next: "4",
            last: "6",
        });
        // Following self answers the same page.
        const again = await http(server, "GET", response.body.links.self, { token: TOKENS.owners });
        expectStatus(again, 200);
        expect(namesOf(again)).toEqual(namesOf(response));
    });

    test("the last page holds the remainder; next is null and prev points back", async () => {
        const response = await owners.get(`${LIST}?page[number]=2`);
        expectStatus(response, 200);
        expect(namesOf(response)).toEqual(ALL.slice(20));
        expect(pagination(response)).toEqual(
            expect.objectContaining({ "current-page": 2, "prev-page": 1, "next-page": null, "total-pages": 2 }),
        );
        expect(response.body.links.next).toBeNull();
        expect(absoluteListLink(response.body.links.prev).get("page[number]")).toBe("1");
    });

    test("following links.next walks every project exactly once, keeping page size and query", async () => {
        const seen: string[] = [];
        let url: string | null = `${server.url}/api/v2${LIST}?q=item&page[size]=7`;
        let pages = 0;
        while (url !== null && pages < 10) {
            const response = await http(server, "GET", url, { token: TOKENS.owners });
            expectStatus(response, 200);
            seen.push(...namesOf(response));
            url = response.body.links.next;
            pages += 1;
        }
        expect(pages).toBe(4);
        expect(seen).toEqual(ITEMS);
    });

    test("default order is creation order: Default Project (made with the organization), the seeded ones, then ours", async () => {
        const response = await owners.get(`${LIST}?page[size]=100`);
        expectStatus(response, 200);
        expect(namesOf(response)).toEqual(ALL);
    });

    test("page[size] above 100 is clamped to 100", async () => {
        const response = await owners.get(`${LIST}?page[size]=1000`);
        expectStatus(response, 200);
        expect(pagination(response)["page-size"]).toBe(100);
        expect(response.body.data).toHaveLength(29);
    });

    test("page[size] and page[number] select the slice", async () => {
        const response = await owners.get(`${LIST}?page[size]=5&page[number]=3`);
        expectStatus(response, 200);
        expect(namesOf(response)).toEqual(ALL.slice(10, 15));
        expect(pagination(response)).toEqual({
            "current-page": 3,
            "page-size": 5,
            "prev-page": 2,
            "next-page": 4,
            "total-pages": 6,
            "total-count": 29,
        });
    });

    test.each([
        ["page[number]=0"],
        ["page[number]=-1"],
        ["page[number]=abc"],
        ["page[number]=1.5"],
        ["page[number]="],
        ["page[size]=0"],
        ["page[size]=-3"],
        ["page[size]=ten"],
        ["page[size]=2.5"],
        ["page%5Bsize%5D=0"],
    ])("answers 400 with a JSON:API error for %s", async (query) => {
        expectErrors(await owners.get(`${LIST}?${query}`), 400);
    });

    test.each([
        ["page[size]=5&page[size]=6", "page[size]"],
        ["page[number]=1&page[number]=2", "page[number]"],
        ["page[number]=1&page%5Bnumber%5D=2", "page[number]"],
        ["q=a&q=b", "q"],
        ["filter[names]=Apps&filter[names]=Empty", "filter[names]"],
        ["sort=name&sort=-name", "sort"],
        ["sort=created-at", "sort"],
        ["page[number]=99999999999999999999", "page[number]"],
    ])("a hostile query (%s) answers 400 with source.parameter %s, not a 5xx", async (query, parameter) => {
        const [error] = expectErrors(await owners.get(`${LIST}?${query}`), 400);
        expect(error.source).toEqual({ parameter });
    });

    test("a page past the last one is empty; prev-page is the page before it (as the hosted service answers), next-page null", async () => {
        const response = await owners.get(`${LIST}?page[size]=10&page[number]=7`);
        expectStatus(response, 200);
        expect(response.body.data).toEqual([]);
        expect(pagination(response)).toEqual({
            "current-page": 7,
            "page-size": 10,
            "prev-page": 6,
            "next-page": null,
            "total-pages": 3,
            "total-count": 29,
        });
        expect(absoluteListLink(response.body.links.prev).get("page[number]")).toBe("6");
        expect(response.body.links.next).toBeNull();
        expect(absoluteListLink(response.body.links.last).get("page[number]")).toBe("3");
    });

    test("a list that matches nothing has one empty page", async () => {
        const response = await owners.get(`${LIST}?q=zzz-nothing`);
        expect(pagination(response)).toEqual({
            "current-page": 1,
            "page-size": 20,
            "prev-page": null,
            "next-page": null,
            "total-pages": 1,
            "total-count": 0,
        });
        expect(response.body.links.prev).toBeNull();
        expect(response.body.links.next).toBeNull();
    });

    test("percent-encoded brackets (%5B %5D) work exactly like literal ones for page parameters", async () => {
        const encoded = await owners.get(`${LIST}?page%5Bsize%5D=5&page%5Bnumber%5D=2`);
        const literal = await owners.get(`${LIST}?page[size]=5&page[number]=2`);
        expectStatus(encoded, 200);
        expect(namesOf(encoded)).toEqual(ALL.slice(5, 10));
        expect(namesOf(encoded)).toEqual(namesOf(literal));
        expect(pagination(encoded)).toEqual(pagination(literal));
    });
});

describe("q: case-insensitive search by name", () => {
    test("matches part of a name in any case", async () => {
        const response = await owners.get(`${LIST}?q=APP`);
        expectStatus(response, 200);
        expect(namesOf(response)).toEqual(["Apps"]);
    });

    test("meta.status-counts.matching counts matches across pages; total counts the whole organization", async () => {
        const response = await owners.get(`${LIST}?q=iTeM&page[size]=10`);
        expectStatus(response, 200);
        expect(response.body.data).toHaveLength(10);
        expect(response.body.meta["status-counts"]).toEqual({ total: 29, matching: 25 });
        expect(pagination(response)["total-count"]).toBe(25);
        expect(pagination(response)["total-pages"]).toBe(3);
    });

    test("a search with a space (percent-encoded) narrows further", async () => {
        const response = await owners.get(`${LIST}?q=item%200`);
        expect(namesOf(response)).toEqual(ITEMS.slice(0, 9));
    });

    test("% and _ in q are literal characters, not wildcards", async () => {
        for (const q of ["%25", "_", "A%25s", "A_ps"]) {
            const response = await owners.get(`${LIST}?q=${q}`);
            expectStatus(response, 200);
            expect(response.body.data).toEqual([]);
        }
    });

    test("a search that matches nothing answers an empty list", async () => {
        const response = await owners.get(`${LIST}?q=zzz-nothing`);
        expectStatus(response, 200);
        expect(response.body.data).toEqual([]);
        expect(response.body.meta["status-counts"]).toEqual({ total: 29, matching: 0 });
        expect(pagination(response)["total-count"]).toBe(0);
    });
});

describe("filter[names]: case-insensitive exact match, comma-separated values match any", () => {
    test("matches each listed name exactly, in any case", async () => {
        const response = await owners.get(`${LIST}?filter[names]=apps,STAGING`);
        expectStatus(response, 200);
        expect(sorted(namesOf(response))).toEqual(["Apps", "Staging"]);
    });

    test("a part of a name is not a match", async () => {
        const response = await owners.get(`${LIST}?filter[names]=App`);
        expectStatus(response, 200);
        expect(response.body.data).toEqual([]);
    });

    test("matches a name with a space", async () => {
        const response = await owners.get(`${LIST}?filter[names]=default%20project`);
        expect(namesOf(response)).toEqual(["Default Project"]);
    });

    test("q is ignored when filter[names] is also given", async () => {
        const response = await owners.get(`${LIST}?q=item&filter[names]=Empty`);
        expectStatus(response, 200);
        expect(namesOf(response)).toEqual(["Empty"]);
    });

    test("a blank filter[names] filters nothing, and q then applies", async () => {
        const blank = await owners.get(`${LIST}?filter[names]=&page[size]=100`);
        expectStatus(blank, 200);
        expect(namesOf(blank)).toEqual(ALL);
        const withSearch = await owners.get(`${LIST}?filter[names]=%20,%20&q=staG`);
        expect(namesOf(withSearch)).toEqual(["Staging"]);
    });

    test("names in the list may carry spaces around the commas", async () => {
        const response = await owners.get(`${LIST}?filter[names]=%20apps%20,%20empty`);
        expect(sorted(namesOf(response))).toEqual(["Apps", "Empty"]);
    });

    test("works with percent-encoded brackets", async () => {
        const response = await owners.get(`${LIST}?filter%5Bnames%5D=apps`);
        expectStatus(response, 200);
        expect(namesOf(response)).toEqual(["Apps"]);
    });
});

describe("filter[permissions][...]: filters by the caller's own permissions", () => {
    test("filter[permissions][update] keeps only projects the caller can update (admin team: Apps)", async () => {
        const response = await clientFor(server, TOKENS.appsAdmin).get(`${LIST}?filter[permissions][update]=true`);
        expectStatus(response, 200);
        expect(namesOf(response)).toEqual(["Apps"]);
    });

    test("filter[permissions][update] keeps every project for the owners", async () => {
        const response = await owners.get(`${LIST}?filter[permissions][update]=true&page[size]=100`);
        expect(namesOf(response)).toEqual(ALL);
    });

    test("filter[permissions][update] keeps nothing for a team that can only maintain", async () => {
        const response = await clientFor(server, TOKENS.appsMaintain).get(`${LIST}?filter[permissions][update]=true`);
        expectStatus(response, 200);
        expect(response.body.data).toEqual([]);
    });

    test("filter[permissions][create-workspace] keeps projects where the caller can create workspaces (maintain team: Apps, Staging)", async () => {
        const response = await clientFor(server, TOKENS.appsMaintain).get(
            `${LIST}?filter[permissions][create-workspace]=true`,
        );
        expectStatus(response, 200);
        expect(sorted(namesOf(response))).toEqual(["Apps", "Staging"]);
    });

    test("filter[permissions][create-workspace] keeps nothing for a read team", async () => {
        const response = await clientFor(server, TOKENS.appsRead).get(`${LIST}?filter[permissions][create-workspace]=true`);
        expectStatus(response, 200);
        expect(response.body.data).toEqual([]);
    });

    test("permission filters work with percent-encoded brackets", async () => {
        const response = await clientFor(server, TOKENS.appsAdmin).get(
            `${LIST}?filter%5Bpermissions%5D%5Bupdate%5D=true`,
        );
        expectStatus(response, 200);
        expect(namesOf(response)).toEqual(["Apps"]);
    });
});

describe("sort", () => {
    test("sort=name orders by name ascending", async () => {
        const response = await owners.get(`${LIST}?sort=name&page[size]=100`);
        expectStatus(response, 200);
        expect(namesOf(response)).toEqual(sorted(ALL));
    });

    test("sort=-name orders by name descending", async () => {
        const response = await owners.get(`${LIST}?sort=-name&page[size]=100`);
        expectStatus(response, 200);
        expect(namesOf(response)).toEqual(sorted(ALL).reverse());
    });

    test("sort applies before pagination", async () => {
        const response = await owners.get(`${LIST}?sort=name&page[size]=2&page[number]=2`);
        expect(namesOf(response)).toEqual(sorted(ALL).slice(2, 4));
    });
});

describe("list items", () => {
    test("carry the update attribute set: name, description, counts, three permissions, relationships and links", async () => {
        const response = await owners.get(`${LIST}?filter[names]=Apps`);
        const apps = response.body.data[0];
        expect(apps.type).toBe("projects");
        expect(apps.id).toMatch(/^prj-/);
        expect(Object.keys(apps.attributes).sort()).toEqual(["description", "name", "permissions", "team-count", "workspace-count"]);
        expect(apps.attributes["workspace-count"]).toBe(2);
        expect(apps.attributes["team-count"]).toBe(4);
        expect(typeof apps.attributes["team-count"]).toBe("number");
        expect(apps.attributes.permissions).toEqual(
            expect.objectContaining({ "can-update": true, "can-destroy": true, "can-create-workspace": true }),
        );
        expect(apps.relationships.organization.data).toEqual({ id: "acme", type: "organizations" });
        expect(apps.relationships["tag-bindings"].links.related).toMatch(new RegExp(`/projects/${apps.id}/tag-bindings$`));
        expect(apps.relationships["effective-tag-bindings"].links.related).toMatch(
            new RegExp(`/projects/${apps.id}/effective-tag-bindings$`),
        );
        expect(apps.links.self).toMatch(new RegExp(`/projects/${apps.id}$`));
    });

    test("permissions are the caller's own (maintain team on Apps: create workspaces only)", async () => {
        const response = await clientFor(server, TOKENS.appsMaintain).get(`${LIST}?filter[names]=Apps`);
        expect(response.body.data[0].attributes.permissions).toEqual(
            expect.objectContaining({ "can-update": false, "can-destroy": false, "can-create-workspace": true }),
        );
    });
});

describe("organization", () => {
    test("answers 404 for an organization that does not exist", async () => {
        expectErrors(await owners.get("/organizations/nowhere/projects"), 404);
    });

    test("answers 404 for another organization", async () => {
        expectErrors(await owners.get("/organizations/globex/projects"), 404);
    });
});
