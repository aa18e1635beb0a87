/**
 * A project's tag bindings at the paths of the hosted service's published description, which go-tfe v2 (a
 * client generated from it) calls: `GET /projects/:id/relationships/tag-bindings` lists them, `POST` adds or
 * updates without removing, `PATCH` replaces the whole set; both writes answer 204 with no body. The rules are
 * those of the service's own tag paths (at most ten, no key twice, nothing written when refused), and only a
 * team that may update the project (`admin`) may write. The requests are go-tfe v2's as its request builder
 * of this path makes them (`Accept` and `Content-Type` `application/vnd.api+json`, a
 * `tag-bindings-collection` body).
 */
import type { TestServer } from "../support/server";
import { TOKENS } from "../support/seed";
import { clientFor, createProject, expectStatus, expectUnchanged, expectValidation, snapshot, tagItems, tagsOf, withSeededServer, type AcmeProjectIds, type Client } from "./helpers";

let server: TestServer;
let owners: Client;
let ids: AcmeProjectIds;
let counter = 0;

withSeededServer((started) => ({ server, owners, ids } = started));

const path = (id: string) => `/projects/${id}/relationships/tag-bindings`;

async function projectWith(tags: Array<{ key: string; value: string }>): Promise<string> {
    counter += 1;
    return createProject(server, { name: `Relationships ${counter}` }, tags);
}

test("GET lists the project's bindings exactly as /projects/:id/tag-bindings does", async () => {
    const id = await projectWith([
        { key: "env", value: "prod" },
        { key: "team", value: "web" },
    ]);
    const listed = await owners.get(path(id));
    expectStatus(listed, 200);
    expect(listed.body).toEqual((await owners.get(`/projects/${id}/tag-bindings`)).body);
    expect(listed.body.data.map((item: any) => [item.type, item.attributes.key, item.attributes.value])).toEqual([
        ["tag-bindings", "env", "prod"],
        ["tag-bindings", "team", "web"],
    ]);
});

test("POST adds new keys and updates existing values, removes nothing, and answers 204 with no body", async () => {
    const id = await projectWith([
        { key: "env", value: "prod" },
        { key: "team", value: "web" },
    ]);
    const added = await owners.post(path(id), { data: tagItems([{ key: "env", value: "staging" }, { key: "cost", value: "42" }]) });
    expectStatus(added, 204);
    expect(added.text).toBe("");
    expect(await tagsOf(server, id)).toEqual([
        ["cost", "42"],
        ["env", "staging"],
        ["team", "web"],
    ]);
});

test("PATCH replaces the whole set and answers 204; data [] clears it", async () => {
    const id = await projectWith([
        { key: "env", value: "prod" },
        { key: "team", value: "web" },
    ]);
    const replaced = await owners.patch(path(id), { data: tagItems([{ key: "team", value: "api" }, { key: "tier", value: "1" }]) });
    expectStatus(replaced, 204);
    expect(replaced.text).toBe("");
    expect(await tagsOf(server, id)).toEqual([
        ["team", "api"],
        ["tier", "1"],
    ]);
    expectStatus(await owners.patch(path(id), { data: [] }), 204);
    expect(await tagsOf(server, id)).toEqual([]);
});

test("the tag rules hold: 11 tags after a POST, 11 in a PATCH, a key twice, a bad type: 422 at the pointer, nothing written", async () => {
    const id = await projectWith(Array.from({ length: 9 }, (_, index) => ({ key: `k${index}`, value: `v${index}` })));
    const before = await snapshot(server);
    const two = tagItems([{ key: "n1", value: "a" }, { key: "n2", value: "b" }]);
    expectValidation(await owners.post(path(id), { data: two }), "/data");
    const eleven = tagItems(Array.from({ length: 11 }, (_, index) => ({ key: `r${index}`, value: "x" })));
    expectValidation(await owners.patch(path(id), { data: eleven }), "/data");
    expectValidation(await owners.patch(path(id), { data: tagItems([{ key: "dup", value: "a" }, { key: "dup", value: "b" }]) }), "/data/1/attributes/key");
    expectValidation(await owners.post(path(id), { data: [{ type: "tags", attributes: { key: "a", value: "b" } }] }), "/data/0/type");
    await expectUnchanged(server, before);
    // Exactly ten after the change is allowed, as on the other paths.
    expectStatus(await owners.patch(path(id), { data: tagItems(Array.from({ length: 10 }, (_, index) => ({ key: `t${index}`, value: "y" }))) }), 204);
    expect(await tagsOf(server, id)).toHaveLength(10);
});

test("a team with admin on the project may write; maintain, write and read may list but not write, and nothing is written", async () => {
    const admin = clientFor(server, TOKENS.appsAdmin);
    expectStatus(await admin.post(path(ids.Apps), { data: tagItems([{ key: "owner", value: "admin" }]) }), 204);
    expect(await tagsOf(server, ids.Apps)).toContainEqual(["owner", "admin"]);
    const before = await snapshot(server);
    for (const token of [TOKENS.appsMaintain, TOKENS.appsWrite, TOKENS.appsRead]) {
        const team = clientFor(server, token);
        expectStatus(await team.get(path(ids.Apps)), 200);
        expectStatus(await team.post(path(ids.Apps), { data: tagItems([{ key: "owner", value: "other" }]) }), 404);
        expectStatus(await team.patch(path(ids.Apps), { data: [] }), 404);
    }
    await expectUnchanged(server, before);
});

test("a project that does not exist, or of another organization, is 404 for all three", async () => {
    const globex = clientFor(server, TOKENS.globexOwners);
    for (const [client, id] of [
        [owners, "prj-doesnotexist0000"],
        [globex, ids.Apps],
    ] as const) {
        expectStatus(await client.get(path(id)), 404);
        expectStatus(await client.post(path(id), { data: [] }), 404);
        expectStatus(await client.patch(path(id), { data: [] }), 404);
    }
});
