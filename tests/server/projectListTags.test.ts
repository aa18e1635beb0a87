/**
 * Contract of the tag filters and the effective-tag-bindings include of the lists (issue 6 section 1: a field
 * the hosted service applies is applied, never dropped): `filter[tagged][i][key]` / `[value]` on
 * `GET /organizations/:org/projects` and `GET /organizations/:org/workspaces`, and
 * `include=effective_tag_bindings` on the project list, as go-tfe and pytfe send them. Raw HTTP against the
 * real service.
 *
 * acme holds its four seeded projects (Apps and Staging tagged env=prod here) and five made here:
 *   Tag A env=prod team=web, Tag B env=dev team=web, Tag C env=prod, Tag D Env=prod, Tag E flag="".
 */
import { migrate, openDatabase } from "../../server/db";
import { TAGGED_PROJECTS } from "../../server/records/projects";
import type { TestServer } from "../support/server";
import { TOKENS, WORKSPACES } from "../support/seed";
import { clientFor, createProject, expectErrors, expectStatus, namesOf, snapshot, expectUnchanged, sorted, withSeededServer, type AcmeProjectIds, type Client } from "./helpers";

const LIST = "/organizations/acme/projects";
const WORKSPACE_LIST = "/organizations/acme/workspaces";

let server: TestServer;
let owners: Client;
let ids: AcmeProjectIds;
const made: Record<string, string> = {};

withSeededServer((started) => ({ server, owners, ids } = started));
beforeAll(async () => {
    made["Tag A"] = await createProject(server, { name: "Tag A" }, [
        { key: "env", value: "prod" },
        { key: "team", value: "web" },
    ]);
    made["Tag B"] = await createProject(server, { name: "Tag B" }, [
        { key: "env", value: "dev" },
        { key: "team", value: "web" },
    ]);
    made["Tag C"] = await createProject(server, { name: "Tag C" }, [{ key: "env", value: "prod" }]);
    made["Tag D"] = await createProject(server, { name: "Tag D" }, [{ key: "Env", value: "prod" }]);
    made["Tag E"] = await createProject(server, { name: "Tag E" }, [{ key: "flag", value: "" }]);
    for (const id of [ids.Apps, ids.Staging]) {
        const response = await owners.patch(`/projects/${id}/tag-bindings`, { data: [{ type: "tag-bindings", attributes: { key: "env", value: "prod" } }] });
        expectStatus(response, 200);
    }
});

/** `filter[tagged][i][key]` (and `[value]` when given) for each `[key, value?]`, percent-encoded as go-tfe sends them. */
function tagged(...filters: [string, string?][]): string {
    return filters
        .map(([key, value], index) => {
            const name = (part: string) => encodeURIComponent(`filter[tagged][${index}][${part}]`);
            return `${name("key")}=${encodeURIComponent(key)}` + (value === undefined ? "" : `&${name("value")}=${encodeURIComponent(value)}`);
        })
        .join("&");
}

async function namesFor(query: string, client: Client = owners): Promise<string[]> {
    const response = await client.get(`${LIST}?page%5Bsize%5D=100&${query}`);
    expectStatus(response, 200);
    return sorted(namesOf(response));
}

describe("filter[tagged] on the project list", () => {
    test("a key alone keeps the projects bound to that key, whatever the value", async () => {
        expect(await namesFor(tagged(["env"]))).toEqual(["Apps", "Staging", "Tag A", "Tag B", "Tag C"]);
        expect(await namesFor(tagged(["team"]))).toEqual(["Tag A", "Tag B"]);
    });

    test("an empty value filters by the key alone (go-tfe and pytfe always send the value parameter)", async () => {
        expect(await namesFor(tagged(["env", ""]))).toEqual(["Apps", "Staging", "Tag A", "Tag B", "Tag C"]);
    });

    test("a key and a value keep only the projects with that binding", async () => {
        expect(await namesFor(tagged(["env", "prod"]))).toEqual(["Apps", "Staging", "Tag A", "Tag C"]);
        expect(await namesFor(tagged(["env", "dev"]))).toEqual(["Tag B"]);
        expect(await namesFor(tagged(["env", "qa"]))).toEqual([]);
        expect(await namesFor(tagged(["nope"]))).toEqual([]);
    });

    test("several filters combine with AND", async () => {
        expect(await namesFor(tagged(["env", "prod"], ["team", "web"]))).toEqual(["Tag A"]);
        expect(await namesFor(tagged(["env"], ["team"]))).toEqual(["Tag A", "Tag B"]);
        expect(await namesFor(tagged(["env", "prod"], ["env", "dev"]))).toEqual([]);
        // The same filter twice is still that filter.
        expect(await namesFor(tagged(["env", "prod"], ["env", "prod"]))).toEqual(["Apps", "Staging", "Tag A", "Tag C"]);
    });

    test("indexes group a key with its value, in any order and with gaps", async () => {
        const query = "filter%5Btagged%5D%5B7%5D%5Bvalue%5D=dev&filter%5Btagged%5D%5B3%5D%5Bkey%5D=team&filter%5Btagged%5D%5B7%5D%5Bkey%5D=env";
        expect(await namesFor(query)).toEqual(["Tag B"]);
        // Unencoded brackets are the same parameters.
        expect(await namesFor("filter[tagged][0][key]=env&filter[tagged][0][value]=dev")).toEqual(["Tag B"]);
    });

    test("keys and values compare exactly, case included (Env and env are two keys)", async () => {
        expect(await namesFor(tagged(["Env"]))).toEqual(["Tag D"]);
        expect(await namesFor(tagged(["ENV"]))).toEqual([]);
        expect(await namesFor(tagged(["env", "PROD"]))).toEqual([]);
        expect(await namesFor(tagged(["flag"]))).toEqual(["Tag E"]);
    });

    test("the filter follows the bindings as they change", async () => {
        const id = await createProject(server, { name: "Tag Moving" }, [{ key: "phase", value: "one" }]);
        expect(await namesFor(tagged(["phase", "one"]))).toEqual(["Tag Moving"]);
        expectStatus(await owners.patch(`/projects/${id}`, { data: { type: "projects", relationships: { "tag-bindings": { data: [{ type: "tag-bindings", attributes: { key: "phase", value: "two" } }] } } } }), 200);
        expect(await namesFor(tagged(["phase", "one"]))).toEqual([]);
        expect(await namesFor(tagged(["phase", "two"]))).toEqual(["Tag Moving"]);
        expectStatus(await owners.delete(`/projects/${id}`), 204);
        expect(await namesFor(tagged(["phase"]))).toEqual([]);
    });

    test("it combines with q, filter[names], sort and the permission filters", async () => {
        expect(await namesFor(`${tagged(["env", "prod"])}&q=tag%20`)).toEqual(["Tag A", "Tag C"]);
        expect(await namesFor(`${tagged(["env"])}&filter%5Bnames%5D=Apps,Tag%20B,Empty`)).toEqual(["Apps", "Tag B"]);
        const reversed = await owners.get(`${LIST}?${tagged(["env", "prod"])}&sort=-name`);
        expectStatus(reversed, 200);
        expect(namesOf(reversed)).toEqual(["Tag C", "Tag A", "Staging", "Apps"]);
        // apps-admin: admin on Apps, read on Default Project; it can update only Apps.
        const admin = clientFor(server, TOKENS.appsAdmin);
        expect(await namesFor(`${tagged(["env", "prod"])}&filter%5Bpermissions%5D%5Bupdate%5D=true`, admin)).toEqual(["Apps"]);
    });

    test("paging and counts are those of the filtered list; total stays every visible project", async () => {
        const seen: string[] = [];
        const all = await owners.get(`${LIST}?page%5Bsize%5D=100`);
        const total = all.body.meta["status-counts"].total;
        expect(total).toBe(9);
        for (let number = 1; number <= 3; number++) {
            const response = await owners.get(`${LIST}?${tagged(["env"])}&page%5Bsize%5D=2&page%5Bnumber%5D=${number}`);
            expectStatus(response, 200);
            expect(response.body.meta["status-counts"]).toEqual({ total: 9, matching: 5 });
            expect(response.body.meta.pagination).toEqual({
                "current-page": number,
                "page-size": 2,
                "prev-page": number === 1 ? null : number - 1,
                "next-page": number === 3 ? null : number + 1,
                "total-pages": 3,
                "total-count": 5,
            });
            expect(response.body.data).toHaveLength(number === 3 ? 1 : 2);
            seen.push(...namesOf(response));
        }
        // Creation order: the seeded projects first.
        expect(seen).toEqual(["Apps", "Staging", "Tag A", "Tag B", "Tag C"]);
        const past = await owners.get(`${LIST}?${tagged(["env"])}&page%5Bsize%5D=2&page%5Bnumber%5D=4`);
        expectStatus(past, 200);
        expect(past.body.data).toEqual([]);
        expect(past.body.meta["status-counts"]).toEqual({ total: 9, matching: 5 });
        const none = await owners.get(`${LIST}?${tagged(["nope"])}`);
        expect(none.body.meta["status-counts"]).toEqual({ total: 9, matching: 0 });
        expect(none.body.meta.pagination["total-count"]).toBe(0);
    });

    test("every link carries the filter", async () => {
        const response = await owners.get(`${LIST}?${tagged(["env", "prod"], ["team"])}&page%5Bsize%5D=1&page%5Bnumber%5D=1`);
        expectStatus(response, 200);
        for (const name of ["self", "first", "last"]) {
            const query = new URL(response.body.links[name]).searchParams;
            expect(query.get("filter[tagged][0][key]")).toBe("env");
            expect(query.get("filter[tagged][0][value]")).toBe("prod");
            expect(query.get("filter[tagged][1][key]")).toBe("team");
            expect(query.get("page[size]")).toBe("1");
        }
        // One project matches in all: one page.
        expect(response.body.links.next).toBeNull();
        expect(namesOf(response)).toEqual(["Tag A"]);
        const paged = await owners.get(`${LIST}?${tagged(["env", "prod"])}&page%5Bsize%5D=1&page%5Bnumber%5D=2`);
        for (const name of ["self", "first", "prev", "next", "last"]) {
            const query = new URL(paged.body.links[name]).searchParams;
            expect(query.get("filter[tagged][0][key]")).toBe("env");
            expect(query.get("filter[tagged][0][value]")).toBe("prod");
        }
        // Following next gives the filtered list's next page.
        const next = await owners.get(paged.body.links.next);
        expectStatus(next, 200);
        expect(next.body.meta.pagination["current-page"]).toBe(3);
        expect(next.body.meta["status-counts"].matching).toBe(4);
    });
});

describe("visibility", () => {
    test("a team sees through the filter only the projects it can see, and counts only those", async () => {
        const appsRead = clientFor(server, TOKENS.appsRead);
        const response = await appsRead.get(`${LIST}?${tagged(["env", "prod"])}`);
        expectStatus(response, 200);
        expect(namesOf(response)).toEqual(["Apps"]);
        expect(response.body.meta["status-counts"]).toEqual({ total: 1, matching: 1 });
        // maintain on Apps and Staging.
        expect(await namesFor(tagged(["env", "prod"]), clientFor(server, TOKENS.appsMaintain))).toEqual(["Apps", "Staging"]);
        const nobody = await clientFor(server, TOKENS.noAccess).get(`${LIST}?${tagged(["env"])}&include=effective_tag_bindings`);
        expectStatus(nobody, 200);
        expect(nobody.body.data).toEqual([]);
        expect(nobody.body.included).toEqual([]);
        expect(nobody.body.meta["status-counts"]).toEqual({ total: 0, matching: 0 });
    });

    test("the include never carries the bindings of a project the caller cannot see", async () => {
        const response = await clientFor(server, TOKENS.appsRead).get(`${LIST}?include=effective_tag_bindings&page%5Bsize%5D=100`);
        expectStatus(response, 200);
        expect(namesOf(response)).toEqual(["Apps"]);
        expect(response.body.included.map((item: any) => [item.attributes.key, item.attributes.value])).toEqual([["env", "prod"]]);
        expect(response.text).not.toContain('"key":"team"');
        expect(response.text).not.toContain(made["Tag A"]!);
    });

    test("another organization's token gets 404, filter or not", async () => {
        const response = await clientFor(server, TOKENS.globexOwners).get(`${LIST}?${tagged(["env"])}`);
        expectErrors(response, 404);
        const theirs = await clientFor(server, TOKENS.globexOwners).get(`/organizations/globex/projects?${tagged(["env"])}&include=effective_tag_bindings`);
        expectStatus(theirs, 200);
        expect(theirs.body.data).toEqual([]);
        expect(theirs.body.included).toEqual([]);
    });
});

describe("include=effective_tag_bindings", () => {
    test("each project carries its bindings as relationship data, and the document includes them", async () => {
        const response = await owners.get(`${LIST}?include=effective_tag_bindings&page%5Bsize%5D=100`);
        expectStatus(response, 200);
        expect(response.headers["content-type"]).toBe("application/vnd.api+json; charset=utf-8");
        const included = new Map<string, any>(response.body.included.map((item: any) => [item.id, item]));
        expect(included.size).toBe(response.body.included.length);
        const byName = new Map<string, [string, string][]>();
        for (const project of response.body.data) {
            const relationship = project.relationships["effective-tag-bindings"];
            expect(relationship.links).toEqual({ related: `/api/v2/projects/${project.id}/effective-tag-bindings` });
            const pairs: [string, string][] = relationship.data.map((identifier: any) => {
                expect(Object.keys(identifier).sort()).toEqual(["id", "type"]);
                expect(identifier.type).toBe("effective-tag-bindings");
                expect(identifier.id).toMatch(/^tb-/);
                const item = included.get(identifier.id);
                expect(item).toBeDefined();
                expect(item.type).toBe("effective-tag-bindings");
                expect(Object.keys(item.attributes).sort()).toEqual(["created-at", "key", "value"]);
                return [item.attributes.key, item.attributes.value];
            });
            byName.set(project.attributes.name, pairs);
        }
        expect(byName.get("Tag A")).toEqual([
            ["env", "prod"],
            ["team", "web"],
        ]);
        expect(byName.get("Tag E")).toEqual([["flag", ""]]);
        expect(byName.get("Empty")).toEqual([]);
        expect(byName.get("Apps")).toEqual([["env", "prod"]]);
        // Every included binding belongs to a project of the page.
        const referenced = response.body.data.flatMap((project: any) => project.relationships["effective-tag-bindings"].data.map((identifier: any) => identifier.id));
        expect(sorted(referenced)).toEqual(sorted([...included.keys()]));
    });

    test("the included bindings are the ones the effective-tag-bindings endpoint answers", async () => {
        const response = await owners.get(`${LIST}?include=effective_tag_bindings&${tagged(["team"])}`);
        expectStatus(response, 200);
        for (const project of response.body.data) {
            const endpoint = await owners.get(`/projects/${project.id}/effective-tag-bindings`);
            const ids = project.relationships["effective-tag-bindings"].data.map((identifier: any) => identifier.id);
            const items = ids.map((id: string) => response.body.included.find((item: any) => item.id === id));
            expect(items.map(({ id: _id, ...rest }: any) => rest)).toEqual(endpoint.body.data);
        }
    });

    test("apart from the relationship data and included, the document is the list's, and without include the list is unchanged", async () => {
        const query = `${tagged(["env"])}&page%5Bsize%5D=3&page%5Bnumber%5D=2&sort=name`;
        const plain = await owners.get(`${LIST}?${query}`);
        const withInclude = await owners.get(`${LIST}?${query}&include=effective_tag_bindings`);
        expectStatus(plain, 200);
        expectStatus(withInclude, 200);
        expect(plain.body.included).toBeUndefined();
        expect(plain.text).not.toContain('"effective-tag-bindings":{"data"');
        const stripped = withInclude.body.data.map((project: any) => {
            const { data: _data, ...relationship } = project.relationships["effective-tag-bindings"];
            return { ...project, relationships: { ...project.relationships, "effective-tag-bindings": relationship } };
        });
        expect(stripped).toEqual(plain.body.data);
        expect(withInclude.body.meta).toEqual(plain.body.meta);
        // The include stays in the links (the next page is asked for the same way).
        expect(new URL(withInclude.body.links.prev).searchParams.get("include")).toBe("effective_tag_bindings");
        // Only the page's projects' bindings: by name the matches are Apps, Staging, Tag A | Tag B, Tag C.
        expect(namesOf(withInclude)).toEqual(["Tag B", "Tag C"]);
        expect(withInclude.body.included.map((item: any) => `${item.attributes.key}=${item.attributes.value}`)).toEqual(["env=dev", "team=web", "env=prod"]);
    });

    test("the relationship member name is accepted too", async () => {
        const response = await owners.get(`${LIST}?include=effective-tag-bindings&${tagged(["Env"])}`);
        expectStatus(response, 200);
        expect(response.body.included.map((item: any) => item.attributes.key)).toEqual(["Env"]);
    });
});

describe("malformed parameters: 400 naming the parameter, nothing answered but the error", () => {
    const cases: [string, string, string][] = [
        ["a value without its key", "filter%5Btagged%5D%5B0%5D%5Bvalue%5D=prod", "filter[tagged][0][value]"],
        ["a value whose key has another index", "filter%5Btagged%5D%5B0%5D%5Bkey%5D=env&filter%5Btagged%5D%5B1%5D%5Bvalue%5D=prod", "filter[tagged][1][value]"],
        ["an index that is not a number", "filter%5Btagged%5D%5Bx%5D%5Bkey%5D=env", "filter[tagged][x][key]"],
        ["a negative index", "filter%5Btagged%5D%5B-1%5D%5Bkey%5D=env", "filter[tagged][-1][key]"],
        ["an empty index", "filter%5Btagged%5D%5B%5D%5Bkey%5D=env", "filter[tagged][][key]"],
        ["an empty key", "filter%5Btagged%5D%5B0%5D%5Bkey%5D=", "filter[tagged][0][key]"],
        ["an empty key with a value", "filter%5Btagged%5D%5B0%5D%5Bkey%5D=&filter%5Btagged%5D%5B0%5D%5Bvalue%5D=prod", "filter[tagged][0][key]"],
        ["another member than key or value", "filter%5Btagged%5D%5B0%5D%5Bname%5D=env", "filter[tagged][0][name]"],
        ["no member", "filter%5Btagged%5D%5B0%5D=env", "filter[tagged][0]"],
        ["a key given twice", "filter%5Btagged%5D%5B0%5D%5Bkey%5D=env&filter%5Btagged%5D%5B0%5D%5Bkey%5D=team", "filter[tagged][0][key]"],
    ];

    test("no index (filter[tagged]=env): 400 at filter[tagged] from the project list; the workspace list takes it, the published description's flat form", async () => {
        const refused = await owners.get(`${LIST}?filter%5Btagged%5D=env`);
        expect(expectErrors(refused, 400).map((error) => error.source)).toEqual([{ parameter: "filter[tagged]" }]);
        expectStatus(await owners.get(`${WORKSPACE_LIST}?filter%5Btagged%5D=env`), 200);
    });

    for (const [what, query, parameter] of cases) {
        test(`${what}: 400 at ${parameter}`, async () => {
            for (const list of [LIST, WORKSPACE_LIST]) {
                const response = await owners.get(`${list}?${query}`);
                const errors = expectErrors(response, 400);
                expect(errors).toHaveLength(1);
                expect(errors[0].source).toEqual({ parameter });
                expect(errors[0].detail).toContain(parameter);
                expect(response.body.data).toBeUndefined();
                expect(response.body.links).toBeUndefined();
                expect(response.body.meta).toBeUndefined();
            }
        });
    }

    test("an include other than effective_tag_bindings: 400 'invalid include parameter', as the no-code module read", async () => {
        for (const include of ["workspaces", "effective_tag_bindings,organization", "", "tag_bindings"]) {
            const response = await owners.get(`${LIST}?include=${encodeURIComponent(include)}&${tagged(["env"])}`);
            const errors = expectErrors(response, 400);
            expect(errors[0].source).toEqual({ parameter: "include" });
            expect(errors[0].detail.toLowerCase()).toContain("invalid include parameter");
            expect(response.body.included).toBeUndefined();
            expect(response.body.data).toBeUndefined();
        }
    });

    test("a malformed filter is refused before the organization's projects are read, and changes nothing", async () => {
        const before = await snapshot(server);
        const response = await clientFor(server, TOKENS.appsRead).get(`${LIST}?filter%5Btagged%5D%5B0%5D%5Bvalue%5D=prod&include=effective_tag_bindings`);
        expectErrors(response, 400);
        expect(response.text).not.toContain("Apps");
        await expectUnchanged(server, before);
    });
});

describe("filter[tagged] on the workspace list (a workspace's tags are its project's)", () => {
    async function workspaceNames(query: string, client: Client = owners): Promise<string[]> {
        const response = await client.get(`${WORKSPACE_LIST}?page%5Bsize%5D=100&${query}`);
        expectStatus(response, 200);
        return sorted(response.body.data.map((workspace: any) => workspace.attributes.name));
    }

    test("keeps the workspaces whose project has the binding, with AND and exact comparison", async () => {
        expect(await workspaceNames(tagged(["env", "prod"]))).toEqual(["legacy-app", "staging-app", "web-app"]);
        expect(await workspaceNames(tagged(["env"]))).toEqual(["legacy-app", "staging-app", "web-app"]);
        expect(await workspaceNames(tagged(["env", "prod"], ["team"]))).toEqual([]);
        expect(await workspaceNames(tagged(["ENV"]))).toEqual([]);
        const all = await owners.get(`${WORKSPACE_LIST}?page%5Bsize%5D=100`);
        const filtered = await owners.get(`${WORKSPACE_LIST}?${tagged(["env", "prod"])}&page%5Bsize%5D=2`);
        expectStatus(filtered, 200);
        expect(filtered.body.meta["status-counts"]).toEqual({ total: all.body.meta["status-counts"].total, matching: 3 });
        expect(filtered.body.meta.pagination["total-pages"]).toBe(2);
        expect(new URL(filtered.body.links.next).searchParams.get("filter[tagged][0][key]")).toBe("env");
    });

    test("an include other than no-code-module-version: 400 'invalid include parameter' naming it (the hosted list would include it; this one has it not), no list", async () => {
        for (const include of ["project", "current_run", "effective_tag_bindings", "", "no-code-module-version,project"]) {
            const response = await owners.get(`${WORKSPACE_LIST}?include=${encodeURIComponent(include)}`);
            const errors = expectErrors(response, 400);
            expect(errors).toHaveLength(1);
            expect(errors[0].source).toEqual({ parameter: "include" });
            expect(errors[0].detail.toLowerCase()).toContain("invalid include parameter");
            expect(response.body.data).toBeUndefined();
            expect(response.body.included).toBeUndefined();
        }
        // Without it, the same list answers.
        expectStatus(await owners.get(WORKSPACE_LIST), 200);
    });

    test("a team sees only the workspaces of projects it can read", async () => {
        expect(await workspaceNames(tagged(["env", "prod"]), clientFor(server, TOKENS.appsRead))).toEqual(["legacy-app", "web-app"]);
        expect(await workspaceNames(tagged(["env"]), clientFor(server, TOKENS.noAccess))).toEqual([]);
    });

    test("moving a workspace moves it in or out of the filter", async () => {
        const move = (project: string) => owners.post(`/projects/${project}/relationships/workspaces`, { data: [{ type: "workspaces", id: WORKSPACES.defaultProject }] });
        expect(await workspaceNames(tagged(["team", "web"]))).toEqual([]);
        expectStatus(await move(made["Tag A"]!), 204);
        expect(await workspaceNames(tagged(["team", "web"]))).toEqual(["scratch"]);
        expectStatus(await move(ids["Default Project"]), 204);
        expect(await workspaceNames(tagged(["team", "web"]))).toEqual([]);
    });
});

describe("the index the filter reads (migration 6)", () => {
    const plan = (db: ReturnType<typeof openDatabase>) =>
        (db.prepare(`EXPLAIN QUERY PLAN SELECT COUNT(*) FROM projects p WHERE p.id IN (${TAGGED_PROJECTS})`).all({ tagged: '[["env","prod"]]' }) as { detail: string }[])
            .map((row) => row.detail)
            .join("\n");

    test("each filter finds its bindings by key on tag_bindings_key_value, not by reading every binding", () => {
        const db = openDatabase(":memory:");
        try {
            expect(plan(db)).toMatch(/SEARCH t USING COVERING INDEX tag_bindings_key_value \(key=\?/);
            expect(plan(db)).not.toMatch(/SCAN t\b/);
        } finally {
            db.close();
        }
    });

    test("a database of schema 5 gets the index on start, its bindings kept", () => {
        const db = openDatabase(":memory:");
        try {
            db.exec("DROP INDEX tag_bindings_key_value");
            db.pragma("user_version = 5");
            db.exec("INSERT INTO organizations (name, created_at) VALUES ('o1', 'now')");
            db.exec("INSERT INTO projects (id, organization, name, created_at, updated_at) VALUES ('prj-m1', 'o1', 'Old', 'now', 'now')");
            db.exec("INSERT INTO tag_bindings (id, project_id, key, value, created_at, updated_at) VALUES ('tb-m1', 'prj-m1', 'env', 'prod', 'now', 'now')");
            expect(plan(db)).not.toContain("tag_bindings_key_value");
            migrate(db);
            expect(db.pragma("user_version", { simple: true })).toBeGreaterThanOrEqual(6);
            expect(plan(db)).toContain("tag_bindings_key_value");
            expect(db.prepare(`SELECT project_id FROM (${TAGGED_PROJECTS})`).all({ tagged: '[["env","prod"]]' })).toEqual([{ project_id: "prj-m1" }]);
        } finally {
            db.close();
        }
    });
});
