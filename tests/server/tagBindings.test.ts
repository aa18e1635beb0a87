/**
 * Contract of project tag bindings: the list and effective reads, the upsert-only
 * `PATCH /projects/:id/tag-bindings`, replacement through `PATCH /projects/:id`, every tag rule on each of
 * the three ways to write tags (nothing written when refused), and a workspace's effective tags following
 * its project, including after a move.
 */
import type { TestServer } from "../support/server";
import { TOKENS, WORKSPACES } from "../support/seed";
import {
    clientFor,
    createProject,
    expectErrors,
    expectStatus,
    expectUnchanged,
    expectValidation,
    expectValidationUnder,
    moveDocument,
    projectDocument,
    projectId,
    snapshot,
    tagItems,
    tagsOf,
    withSeededServer,
    type AcmeProjectIds,
    type Client,
    type TagInput,
} from "./helpers";

let server: TestServer;
let owners: Client;
let counter = 0;

withSeededServer((started) => ({ server, owners } = started));

/** A fresh project with the given tags, so each test owns its tag set. */
async function projectWithTags(tags: TagInput[]): Promise<string> {
    counter += 1;
    return createProject(server, { name: `Tagged ${counter}` }, tags);
}

function tags(count: number, prefix = "k"): TagInput[] {
    return Array.from({ length: count }, (_, index) => ({ key: `${prefix}${index}`, value: `v${index}` }));
}

describe("GET /projects/:id/tag-bindings", () => {
    test("lists the bindings as tag-bindings resources with key, value and an ISO 8601 created-at, without id", async () => {
        const id = await projectWithTags([
            { key: "env", value: "prod" },
            { key: "team", value: "platform" },
        ]);
        const response = await owners.get(`/projects/${id}/tag-bindings`);
        expectStatus(response, 200);
        expect(response.body.data).toHaveLength(2);
        for (const binding of response.body.data) {
            expect(binding.type).toBe("tag-bindings");
            expect(binding).not.toHaveProperty("id");
            expect(Number.isNaN(Date.parse(binding.attributes["created-at"]))).toBe(false);
            expect(binding.attributes["created-at"]).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}/);
        }
        expect(await tagsOf(server, id)).toEqual([
            ["env", "prod"],
            ["team", "platform"],
        ]);
    });

    test("lists bindings in creation order (the default order of lists)", async () => {
        const id = await projectWithTags([
            { key: "zeta", value: "1" },
            { key: "alpha", value: "2" },
            { key: "mu", value: "3" },
        ]);
        expectStatus(await owners.patch(`/projects/${id}/tag-bindings`, { data: tagItems([{ key: "beta", value: "4" }]) }), 200);
        const response = await owners.get(`/projects/${id}/tag-bindings`);
        expect(response.body.data.map((binding: any) => binding.attributes.key)).toEqual(["zeta", "alpha", "mu", "beta"]);
    });

    test("a deleted project's tag bindings are gone with it (404)", async () => {
        const id = await projectWithTags([{ key: "short", value: "lived" }]);
        expectStatus(await owners.delete(`/projects/${id}`), 204);
        expectErrors(await owners.get(`/projects/${id}/tag-bindings`), 404);
        expectErrors(await owners.get(`/projects/${id}/effective-tag-bindings`), 404);
    });

    test("a project created without tags has none", async () => {
        const id = await createProject(server, { name: "Untagged" });
        expect(await tagsOf(server, id)).toEqual([]);
    });

    test("answers 404 for a project that does not exist", async () => {
        expectErrors(await owners.get("/projects/prj-doesnotexist0000/tag-bindings"), 404);
    });

    test("answers 404 for a project of another organization", async () => {
        const globex = await projectId(server, "Globex Apps", "globex");
        expectErrors(await owners.get(`/projects/${globex}/tag-bindings`), 404);
    });
});

describe("GET /projects/:id/effective-tag-bindings", () => {
    test("answers the same result set as tag-bindings (as the API says), as items of the hosted type effective-tag-bindings", async () => {
        const id = await projectWithTags([
            { key: "a", value: "1" },
            { key: "b", value: "2" },
        ]);
        const response = await owners.get(`/projects/${id}/effective-tag-bindings`);
        expectStatus(response, 200);
        expect(response.body.data).toHaveLength(2);
        // go-tfe refuses any type but effective-tag-bindings here; the bindings are the project's own (no link).
        const own = (await owners.get(`/projects/${id}/tag-bindings`)).body.data;
        expect(response.body.data).toEqual(own.map((binding: any) => ({ ...binding, type: "effective-tag-bindings" })));
        for (const binding of response.body.data) {
            expect(binding.type).toBe("effective-tag-bindings");
            expect(Object.keys(binding.attributes).sort()).toEqual(["created-at", "key", "value"]);
            expect(binding.links).toBeUndefined();
        }
    });

    test("answers 404 for a project that does not exist", async () => {
        expectErrors(await owners.get("/projects/prj-doesnotexist0000/effective-tag-bindings"), 404);
    });
});

describe("PATCH /projects/:id/tag-bindings (adds or updates, never removes)", () => {
    test("adds new keys and updates values of existing ones; bindings not listed stay", async () => {
        const id = await projectWithTags([
            { key: "a", value: "1" },
            { key: "b", value: "2" },
        ]);
        const response = await owners.patch(`/projects/${id}/tag-bindings`, {
            data: tagItems([
                { key: "b", value: "20" },
                { key: "c", value: "3" },
            ]),
        });
        expectStatus(response, 200);
        expect(await tagsOf(server, id)).toEqual([
            ["a", "1"],
            ["b", "20"],
            ["c", "3"],
        ]);
    });

    test("answers the bindings it wrote, in request order, each with a tb- id", async () => {
        const id = await projectWithTags([{ key: "m", value: "old" }]);
        const response = await owners.patch(`/projects/${id}/tag-bindings`, {
            data: tagItems([
                { key: "z", value: "26" },
                { key: "a", value: "1" },
                { key: "m", value: "13" },
            ]),
        });
        expectStatus(response, 200);
        expect(response.body.data.map((binding: any) => [binding.attributes.key, binding.attributes.value])).toEqual([
            ["z", "26"],
            ["a", "1"],
            ["m", "13"],
        ]);
        for (const binding of response.body.data) {
            expect(binding.type).toBe("tag-bindings");
            expect(binding.id).toMatch(/^tb-/);
        }
    });

    test("an empty list removes nothing", async () => {
        const id = await projectWithTags([{ key: "keep", value: "me" }]);
        const response = await owners.patch(`/projects/${id}/tag-bindings`, { data: [] });
        expectStatus(response, 200);
        expect(response.body.data).toEqual([]);
        expect(await tagsOf(server, id)).toEqual([["keep", "me"]]);
    });

    test("answers 404 for a project that does not exist", async () => {
        expectErrors(
            await owners.patch("/projects/prj-doesnotexist0000/tag-bindings", { data: tagItems([{ key: "a", value: "b" }]) }),
            404,
        );
    });
});

describe("PATCH /projects/:id with the tag-bindings relationship", () => {
    test("replaces the whole set", async () => {
        const id = await projectWithTags([
            { key: "a", value: "1" },
            { key: "b", value: "2" },
        ]);
        const response = await owners.patch(`/projects/${id}`, projectDocument({}, [
            { key: "b", value: "22" },
            { key: "c", value: "3" },
        ]));
        expectStatus(response, 200);
        expect(await tagsOf(server, id)).toEqual([
            ["b", "22"],
            ["c", "3"],
        ]);
    });

    test("data [] clears the set", async () => {
        const id = await projectWithTags([{ key: "a", value: "1" }]);
        expectStatus(await owners.patch(`/projects/${id}`, projectDocument({}, [])), 200);
        expect(await tagsOf(server, id)).toEqual([]);
    });

    test("leaving the relationship out changes nothing", async () => {
        const id = await projectWithTags([{ key: "a", value: "1" }]);
        expectStatus(await owners.patch(`/projects/${id}`, projectDocument({ description: "only this" })), 200);
        expect(await tagsOf(server, id)).toEqual([["a", "1"]]);
    });

    test("relationships without tag-bindings changes nothing", async () => {
        const id = await projectWithTags([{ key: "a", value: "1" }]);
        expectStatus(
            await owners.patch(`/projects/${id}`, { data: { type: "projects", attributes: {}, relationships: {} } }),
            200,
        );
        expect(await tagsOf(server, id)).toEqual([["a", "1"]]);
    });

    test("ten tags replacing ten others is allowed (the limit counts the set after the change)", async () => {
        const id = await projectWithTags(tags(10, "old"));
        expectStatus(await owners.patch(`/projects/${id}`, projectDocument({}, tags(10, "new"))), 200);
        expect((await tagsOf(server, id)).map(([key]) => key)).toEqual(tags(10, "new").map((tag) => tag.key).sort());
    });
});

describe("POST /organizations/:org/projects with the tag-bindings relationship", () => {
    test("binds the given tags to the new project", async () => {
        const response = await owners.post(
            "/organizations/acme/projects",
            projectDocument({ name: "Born Tagged" }, [
                { key: "env", value: "dev" },
                { key: "owner", value: "ops@example.com" },
            ]),
        );
        expectStatus(response, 201);
        expect(await tagsOf(server, response.body.data.id)).toEqual([
            ["env", "dev"],
            ["owner", "ops@example.com"],
        ]);
    });

    test("accepts ten tags", async () => {
        const id = await projectWithTags(tags(10));
        expect(await tagsOf(server, id)).toHaveLength(10);
    });
});

describe("tag rules: accepted boundaries", () => {
    test.each([
        ["a key of 128 characters", { key: "k".repeat(128), value: "v" }],
        ["a value of 256 characters", { key: "long-value", value: "v".repeat(256) }],
        ["every allowed character in key and value", { key: "a_b.c=d+e-f@g:h9", value: "A_B.C=D+E-F@G:H9" }],
        ["a key that only looks like a reserved prefix", { key: "hcx:thing", value: "ok" }],
        ["a key starting with hc without a colon", { key: "hc-thing", value: "ok" }],
    ])("accepts %s", async (_label, tag) => {
        const id = await projectWithTags([]);
        const response = await owners.patch(`/projects/${id}/tag-bindings`, { data: tagItems([tag]) });
        expectStatus(response, 200);
        expect(await tagsOf(server, id)).toEqual([[tag.key, tag.value]]);
    });
});

/**
 * Each tag rule of the local service, as a list of tags that breaks it and where the error points
 * relative to the list (`/<index>/...`) or at the list itself (`null`: any pointer under the list).
 */
const BROKEN_TAG_SETS: [string, TagInput[], string | null][] = [
    ["a key with a space", [{ key: "ok", value: "1" }, { key: "bad key", value: "1" }], "/1/attributes/key"],
    ["a key with a slash", [{ key: "a/b", value: "1" }], "/0/attributes/key"],
    ["a key with an exclamation mark", [{ key: "wow!", value: "1" }], "/0/attributes/key"],
    ["a value with a space", [{ key: "k", value: "two words" }], "/0/attributes/value"],
    ["a value with a comma", [{ key: "k", value: "a,b" }], "/0/attributes/value"],
    ["a key of 129 characters", [{ key: "k".repeat(129), value: "1" }], "/0/attributes/key"],
    ["a value of 257 characters", [{ key: "k", value: "v".repeat(257) }], "/0/attributes/value"],
    ["an empty key", [{ key: "", value: "1" }], "/0/attributes/key"],
    ["a key starting with hc:", [{ key: "hc:owner", value: "1" }], "/0/attributes/key"],
    ["a key starting with HC:", [{ key: "HC:owner", value: "1" }], "/0/attributes/key"],
    ["a key starting with hcp:", [{ key: "hcp:owner", value: "1" }], "/0/attributes/key"],
    ["a key starting with HcP:", [{ key: "HcP:owner", value: "1" }], "/0/attributes/key"],
    ["the same key twice", [{ key: "dup", value: "1" }, { key: "dup", value: "2" }], null],
    ["eleven tags", tags(11), null],
];

describe.each([
    [
        "POST /organizations/:org/projects",
        "/data/relationships/tag-bindings/data",
        async (items: unknown[]) =>
            owners.post("/organizations/acme/projects", {
                data: {
                    type: "projects",
                    attributes: { name: `Refused ${++counter}` },
                    relationships: { "tag-bindings": { data: items } },
                },
            }),
    ],
    [
        "PATCH /projects/:id",
        "/data/relationships/tag-bindings/data",
        async (items: unknown[], id?: string) =>
            // A valid attribute beside the broken tags: the whole PATCH is one transaction, so neither is written.
            owners.patch(`/projects/${id}`, {
                data: {
                    type: "projects",
                    attributes: { description: "must not be written" },
                    relationships: { "tag-bindings": { data: items } },
                },
            }),
    ],
    [
        "PATCH /projects/:id/tag-bindings",
        "/data",
        async (items: unknown[], id?: string) => owners.patch(`/projects/${id}/tag-bindings`, { data: items }),
    ],
])("tag rules through %s: 422, pointer, nothing written", (_endpoint, base, send) => {
    test.each(BROKEN_TAG_SETS)("refuses %s", async (_label, set, pointer) => {
        const id = await projectWithTags([{ key: "existing", value: "tag" }]);
        const before = await snapshot(server);
        const response = await send(tagItems(set), id);
        if (pointer === null) expectValidationUnder(response, base);
        else expectValidation(response, base + pointer);
        await expectUnchanged(server, before);
    });

    test("refuses an item whose type is not tag-bindings at .../0/type", async () => {
        const id = await projectWithTags([{ key: "existing", value: "tag" }]);
        const before = await snapshot(server);
        const response = await send([{ type: "tags", attributes: { key: "a", value: "b" } }], id);
        expectValidation(response, `${base}/0/type`);
        await expectUnchanged(server, before);
    });
});

describe("at most 10 tags on a project after the change (upsert PATCH)", () => {
    test("refuses adding 2 new keys to 9, and writes neither", async () => {
        const id = await projectWithTags(tags(9));
        const before = await snapshot(server);
        const response = await owners.patch(`/projects/${id}/tag-bindings`, {
            data: tagItems([
                { key: "new1", value: "1" },
                { key: "new2", value: "2" },
            ]),
        });
        expectValidationUnder(response, "/data");
        await expectUnchanged(server, before);
        expect(await tagsOf(server, id)).toHaveLength(9);
    });

    test("allows reaching exactly 10, then updating a value at 10, then refuses an 11th", async () => {
        const id = await projectWithTags(tags(9));
        expectStatus(await owners.patch(`/projects/${id}/tag-bindings`, { data: tagItems([{ key: "tenth", value: "10" }]) }), 200);
        expectStatus(await owners.patch(`/projects/${id}/tag-bindings`, { data: tagItems([{ key: "k0", value: "changed" }]) }), 200);
        const tagsAtTen = await tagsOf(server, id);
        expect(tagsAtTen).toHaveLength(10);
        expect(tagsAtTen).toContainEqual(["k0", "changed"]);
        const response = await owners.patch(`/projects/${id}/tag-bindings`, { data: tagItems([{ key: "eleventh", value: "11" }]) });
        expectValidationUnder(response, "/data");
        expect(await tagsOf(server, id)).toEqual(tagsAtTen);
    });

    test("a request with one valid and one invalid tag writes neither", async () => {
        const id = await projectWithTags([]);
        const response = await owners.patch(`/projects/${id}/tag-bindings`, {
            data: tagItems([
                { key: "good", value: "1" },
                { key: "hcp:bad", value: "2" },
            ]),
        });
        expectValidation(response, "/data/1/attributes/key");
        expect(await tagsOf(server, id)).toEqual([]);
    });
});

describe("workspace effective tags follow the project", () => {
    let local: TestServer;
    let localOwners: Client;
    let ids: AcmeProjectIds;

    // Moves and tag changes on the seeded projects: a server of its own.
    withSeededServer((started) => ({ server: local, owners: localOwners, ids } = started));
    beforeAll(async () => {
        expectStatus(await localOwners.patch(`/projects/${ids.Apps}`, projectDocument({}, [{ key: "tier", value: "apps" }])), 200);
        expectStatus(
            await localOwners.patch(`/projects/${ids.Staging}`, projectDocument({}, [{ key: "tier", value: "staging" }, { key: "env", value: "test" }])),
            200,
        );
    });

    async function effectiveTags(workspaceId: string, client = localOwners): Promise<[string, string][]> {
        const response = await client.get(`/workspaces/${workspaceId}/effective-tag-bindings`);
        expectStatus(response, 200);
        return response.body.data
            .map((binding: any) => [binding.attributes.key, binding.attributes.value] as [string, string])
            .sort();
    }

    test("a workspace's effective tags are its project's bindings, as effective-tag-bindings items linking to the project", async () => {
        const response = await localOwners.get(`/workspaces/${WORKSPACES.staging}/effective-tag-bindings`);
        expectStatus(response, 200);
        const own = (await localOwners.get(`/projects/${ids.Staging}/tag-bindings`)).body.data;
        expect(own).toHaveLength(2);
        expect(response.body.data).toEqual(
            own.map((binding: any) => ({
                ...binding,
                type: "effective-tag-bindings",
                relationships: { "inherited-from": { data: { type: "projects", id: ids.Staging } } },
                links: { "inherited-from": `/api/v2/projects/${ids.Staging}` },
            })),
        );
    });

    test("a workspace's effective tags are its project's bindings", async () => {
        expect(await effectiveTags(WORKSPACES.appsLegacy)).toEqual([["tier", "apps"]]);
        expect(await effectiveTags(WORKSPACES.staging)).toEqual([
            ["env", "test"],
            ["tier", "staging"],
        ]);
    });

    test("a workspace in a project without tags has no effective tags", async () => {
        expect(await effectiveTags(WORKSPACES.defaultProject)).toEqual([]);
    });

    test("a change of the project's tags shows on its workspaces", async () => {
        expectStatus(
            await localOwners.patch(`/projects/${ids.Apps}/tag-bindings`, { data: tagItems([{ key: "cost", value: "42" }]) }),
            200,
        );
        expect(await effectiveTags(WORKSPACES.appsWeb)).toEqual([
            ["cost", "42"],
            ["tier", "apps"],
        ]);
    });

    test("moving a workspace changes its effective tags to the new project's", async () => {
        expectStatus(
            await localOwners.post(`/projects/${ids.Staging}/relationships/workspaces`, moveDocument([WORKSPACES.appsLegacy])),
            204,
        );
        expect(await effectiveTags(WORKSPACES.appsLegacy)).toEqual([
            ["env", "test"],
            ["tier", "staging"],
        ]);
    });

    test("a team that reads the project sees its workspaces' effective tags", async () => {
        expect(await effectiveTags(WORKSPACES.appsWeb, clientFor(local, TOKENS.appsRead))).toContainEqual(["tier", "apps"]);
    });

    test("answers 404 for a workspace that does not exist", async () => {
        expectErrors(await localOwners.get("/workspaces/ws-doesnotexist0000/effective-tag-bindings"), 404);
    });

    test("answers 404 for a workspace of another organization", async () => {
        expectErrors(await localOwners.get(`/workspaces/${WORKSPACES.globex}/effective-tag-bindings`), 404);
    });
});
