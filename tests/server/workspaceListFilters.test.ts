/**
 * The workspace list's searches and filters of the hosted service's published description (what go-tfe v2,
 * generated from it, sends, its parameter names percent-encoded as Kiota writes them): `search[wildcard-name]`,
 * `filter[tag-union]`, `filter[tag-value-default-null]`, the flat `filter[tagged]` / `filter[tagged][value]`,
 * `filter[current-run][status]` and the sort by the current run's creation; each a filter the database
 * applies, or a 400 naming the parameter for a value it cannot take.
 */
import type { TestServer } from "../support/server";
import { createProject, expectErrors, expectStatus, namesOf, withSeededServer, type Client } from "./helpers";

let server: TestServer;
let owners: Client;
withSeededServer((started) => ({ server, owners } = started));

const LIST = "/organizations/acme/workspaces";
/** The workspaces this file makes, by project: red (color=red, team=web), blue (color=blue, flag=""), plain (no tags). */
const MADE = { red: ["red-one", "red-two"], blue: ["blue-one"], plain: ["wild_card", "wildXcard", "WILD-prod"] };
const ALL_MADE = [...MADE.red, ...MADE.blue, ...MADE.plain];

beforeAll(async () => {
    const projects = {
        red: await createProject(server, { name: "Filters Red" }, [
            { key: "color", value: "red" },
            { key: "team", value: "web" },
        ]),
        blue: await createProject(server, { name: "Filters Blue" }, [
            { key: "color", value: "blue" },
            { key: "flag", value: "" },
        ]),
        plain: await createProject(server, { name: "Filters Plain" }),
    };
    for (const [project, names] of Object.entries(MADE)) {
        for (const name of names) {
            const body = { data: { type: "workspaces", attributes: { name }, relationships: { project: { data: { type: "projects", id: projects[project as keyof typeof projects] } } } } };
            expectStatus(await owners.post(LIST, body), 201);
        }
    }
});

/** The names a list answers (page size 100), only those this file made when `mine`. */
async function listed(query: string, mine = true): Promise<string[]> {
    const response = await owners.get(`${LIST}?page%5Bsize%5D=100&${query}`);
    expectStatus(response, 200);
    const names = namesOf(response);
    return mine ? names.filter((name) => ALL_MADE.includes(name)) : names;
}

/** `filter[tagged][i][key]` (and `[value]` when given) for each pair, percent-encoded. */
const tagged = (...filters: Array<[string, string?]>) =>
    filters
        .map(([key, value], index) => `filter%5Btagged%5D%5B${index}%5D%5Bkey%5D=${key}` + (value === undefined ? "" : `&filter%5Btagged%5D%5B${index}%5D%5Bvalue%5D=${value}`))
        .join("&");

describe("filter[tag-union]", () => {
    test("false or absent: a workspace is kept when every tag filter keeps it", async () => {
        expect(await listed(tagged(["color", "red"], ["team"]))).toEqual(MADE.red);
        expect(await listed(`${tagged(["color", "blue"], ["team"])}&filter%5Btag%2Dunion%5D=false`)).toEqual([]);
    });

    test("true: a workspace is kept when any tag filter keeps it, and the counts say so", async () => {
        expect(await listed(`${tagged(["color", "blue"], ["team"])}&filter%5Btag%2Dunion%5D=true`)).toEqual([...MADE.red, ...MADE.blue]);
        const response = await owners.get(`${LIST}?${tagged(["color", "blue"], ["team"])}&filter%5Btag%2Dunion%5D=TRUE`);
        expect(response.body.meta["status-counts"].matching).toBe(3);
    });

    test("a value other than true or false: 400 naming it", async () => {
        const [error] = expectErrors(await owners.get(`${LIST}?${tagged(["color"])}&filter%5Btag%2Dunion%5D=yes`), 400);
        expect(error).toMatchObject({ detail: "filter[tag-union] must be true or false, got 'yes'", source: { parameter: "filter[tag-union]" } });
    });
});

describe("filter[tagged] and filter[tagged][value], the flat forms", () => {
    test("filter[tagged] names keys, comma-separated: each a filter by key alone", async () => {
        expect(await listed("filter%5Btagged%5D=color")).toEqual([...MADE.red, ...MADE.blue]);
        expect(await listed("filter%5Btagged%5D=color,%20team")).toEqual(MADE.red);
        expect(await listed("filter%5Btagged%5D=flag,team&filter%5Btag%2Dunion%5D=true")).toEqual([...MADE.red, ...MADE.blue]);
    });

    test("filter[tagged][value] is the value of its one key", async () => {
        expect(await listed("filter%5Btagged%5D=color&filter%5Btagged%5D%5Bvalue%5D=blue")).toEqual(MADE.blue);
    });

    test("a value with no key or with several: 400 naming filter[tagged][value]", async () => {
        for (const query of ["filter%5Btagged%5D%5Bvalue%5D=blue", "filter%5Btagged%5D=color,team&filter%5Btagged%5D%5Bvalue%5D=blue"]) {
            const [error] = expectErrors(await owners.get(`${LIST}?${query}`), 400);
            expect(error.source).toEqual({ parameter: "filter[tagged][value]" });
            expect(error.detail).toMatch(/^filter\[tagged\]\[value\] is the value of one tag key: give exactly one key in filter\[tagged\], got [02]$/);
        }
    });

    test("the project list does not take them: 400 as before", async () => {
        const [error] = expectErrors(await owners.get("/organizations/acme/projects?filter%5Btagged%5D=color"), 400);
        expect(error.source).toEqual({ parameter: "filter[tagged]" });
    });
});

describe("filter[tag-value-default-null]", () => {
    test("absent: a filter without a value keeps a binding of the key whatever its value", async () => {
        expect(await listed(tagged(["flag"]))).toEqual(MADE.blue);
        expect(await listed(tagged(["color", ""]))).toEqual([...MADE.red, ...MADE.blue]);
    });

    test("true: a filter without a value keeps only bindings that have none", async () => {
        expect(await listed(`${tagged(["flag"])}&filter%5Btag%2Dvalue%2Ddefault%2Dnull%5D=true`)).toEqual(MADE.blue);
        expect(await listed(`${tagged(["color", ""])}&filter%5Btag%2Dvalue%2Ddefault%2Dnull%5D=true`)).toEqual([]);
        expect(await listed(`filter%5Btagged%5D=color&filter%5Btag%2Dvalue%2Ddefault%2Dnull%5D=true`)).toEqual([]);
        // A filter with a value is unchanged by it.
        expect(await listed(`${tagged(["color", "red"])}&filter%5Btag%2Dvalue%2Ddefault%2Dnull%5D=true`)).toEqual(MADE.red);
    });

    test("a value other than true or false: 400 naming it", async () => {
        const [error] = expectErrors(await owners.get(`${LIST}?filter%5Btag%2Dvalue%2Ddefault%2Dnull%5D=1`), 400);
        expect(error.source).toEqual({ parameter: "filter[tag-value-default-null]" });
    });
});

describe("search[wildcard-name]", () => {
    test("* matches any characters, at the start, the end or both; the rest compares without regard to case", async () => {
        expect(await listed("search%5Bwildcard%2Dname%5D=*card")).toEqual(["wild_card", "wildXcard"]);
        expect(await listed("search%5Bwildcard%2Dname%5D=red-*")).toEqual(MADE.red);
        expect(await listed("search%5Bwildcard%2Dname%5D=*-PROD")).toEqual(["WILD-prod"]);
        expect(await listed("search%5Bwildcard%2Dname%5D=*i*d*")).toEqual(["wild_card", "wildXcard", "WILD-prod"]);
    });

    test("without * it is the whole name; _ and % are literal characters", async () => {
        expect(await listed("search%5Bwildcard%2Dname%5D=wild_card", false)).toEqual(["wild_card"]);
        expect(await listed("search%5Bwildcard%2Dname%5D=wild_*", false)).toEqual(["wild_card"]);
        expect(await listed("search%5Bwildcard%2Dname%5D=*%25*", false)).toEqual([]);
        expect(await listed("search%5Bwildcard%2Dname%5D=red", false)).toEqual([]);
    });

    test("blank filters nothing; with search[name] both apply", async () => {
        expect(await listed("search%5Bwildcard%2Dname%5D=%20", false)).toEqual(await listed("", false));
        expect(await listed("search%5Bwildcard%2Dname%5D=*card&search%5Bname%5D=X")).toEqual(["wildXcard"]);
    });
});

describe("filter[current-run][status]", () => {
    test("no workspace here has a current run, so a status keeps none; the total still counts them all", async () => {
        const everything = await owners.get(`${LIST}?page%5Bsize%5D=100`);
        const response = await owners.get(`${LIST}?filter%5Bcurrent%2Drun%5D%5Bstatus%5D=applied,planned`);
        expectStatus(response, 200);
        expect(response.body.data).toEqual([]);
        expect(response.body.meta["status-counts"]).toEqual({ total: everything.body.meta["status-counts"].total, matching: 0 });
        expect(everything.body.data.every((workspace: any) => workspace.relationships["current-run"].data === null)).toBe(true);
    });

    test("blank filters nothing", async () => {
        expect(await listed("filter%5Bcurrent%2Drun%5D%5Bstatus%5D=", false)).toEqual(await listed("", false));
    });
});

test("sort=current-run.created-at and its descending form: no workspace has a current run, so both keep the creation order", async () => {
    const created = await listed("", false);
    expect(await listed("sort=current-run.created-at", false)).toEqual(created);
    expect(await listed("sort=-current-run.created-at", false)).toEqual(created);
});
