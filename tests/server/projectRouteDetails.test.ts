/**
 * Details of the project routes (`server/routes/projects.ts`) that the contract tests of projects.test.ts,
 * tagBindings.test.ts, moveWorkspaces.test.ts and projectListTags.test.ts leave open: the exact error objects
 * of their own refusals (a create by a caller who may not create projects, a delete by one who may not
 * delete, of the Default Project or of a project holding one or several workspaces, a move of one, several
 * or many workspaces that may not be moved, with long ids cut short; a key given twice, more than ten tags;
 * a bad `sort`, a malformed `filter[tagged]`), what reads back after allowed writes (a tag without a value,
 * a tag set replaced with its keys in another order), and the list's `filter[tagged]` and `include` forms
 * that are accepted (a two-digit index, a space after a comma).
 */
import { TOKENS, WORKSPACES } from "../support/seed";
import type { TestServer } from "../support/server";
import {
    clientFor,
    createProject,
    expectErrors,
    expectStatus,
    expectUnchanged,
    moveDocument,
    namesOf,
    projectDocument,
    snapshot,
    tagsOf,
    withSeededServer,
    type AcmeProjectIds,
    type Client,
    type HttpResponse,
    type TagInput,
    uniqueName,
} from "./helpers";

const CREATE = "/organizations/acme/projects";
const LIST = "/organizations/acme/projects";
const TAG_LIST = "/data/relationships/tag-bindings/data";

let server: TestServer;
let owners: Client;
let ids: AcmeProjectIds;

withSeededServer((started) => ({ server, owners, ids } = started));


/** The one error object of a refusal (the answer must hold exactly one). */
function onlyError(response: HttpResponse, status: number): any {
    const errors = expectErrors(response, status);
    expect(errors).toHaveLength(1);
    return errors[0];
}

/** Sends a request that must be refused with exactly the error objects `expected`, and proves it wrote nothing. */
async function expectRefused(send: () => Promise<HttpResponse>, status: number, expected: unknown[]): Promise<void> {
    const before = await snapshot(server);
    const response = await send();
    expect(expectErrors(response, status)).toEqual(expected);
    await expectUnchanged(server, before);
}

/** `n` distinct tags `k1=v1` ... `kn=vn`. */
function distinctTags(n: number): TagInput[] {
    return Array.from({ length: n }, (_, index) => ({ key: `k${index + 1}`, value: `v${index + 1}` }));
}

/** The project's tag bindings as `GET /projects/:id/tag-bindings` lists them (in its order): key, value, created-at. */
async function bindingsInOrder(id: string): Promise<{ key: string; value: string; createdAt: string }[]> {
    const response = await owners.get(`/projects/${id}/tag-bindings`);
    expectStatus(response, 200);
    return response.body.data.map((binding: any) => ({
        key: binding.attributes.key,
        value: binding.attributes.value,
        createdAt: binding.attributes["created-at"],
    }));
}

describe("POST /organizations/:org/projects: its own refusals, exactly", () => {
    test("a team that may not create projects: one 404 saying so; nothing written", async () => {
        const name = uniqueName("detail");
        await expectRefused(() => clientFor(server, TOKENS.appsAdmin).post(CREATE, projectDocument({ name })), 404, [
            { status: "404", title: "not found", detail: "Organization not found or you are not authorized to create projects in it" },
        ]);
    });

    test("a key given twice: one 422 at the second item's key, the detail starting with a capital; nothing written", async () => {
        const name = uniqueName("detail");
        const tags = [
            { key: "env", value: "a" },
            { key: "team", value: "b" },
            { key: "env", value: "c" },
        ];
        await expectRefused(() => owners.post(CREATE, projectDocument({ name }, tags)), 422, [
            {
                status: "422",
                title: "invalid attribute",
                detail: "Tag key 'env' appears more than once",
                source: { pointer: `${TAG_LIST}/2/attributes/key` },
            },
        ]);
    });

    test("eleven tags: exactly one 422, at the tag list, saying ten is the most; nothing written", async () => {
        const name = uniqueName("detail");
        await expectRefused(() => owners.post(CREATE, projectDocument({ name }, distinctTags(11))), 422, [
            {
                status: "422",
                title: "invalid attribute",
                detail: "A project may have at most 10 tags; this change would give it 11",
                source: { pointer: TAG_LIST },
            },
        ]);
    });

    test("ten tags are accepted, and all ten read back", async () => {
        const id = await createProject(server, { name: uniqueName("detail") }, distinctTags(10));
        expect(await tagsOf(server, id)).toEqual(
            distinctTags(10)
                .map((tag) => [tag.key, tag.value])
                .sort((a, b) => (a[0]! < b[0]! ? -1 : 1)),
        );
    });

    test("a tag without a value is stored with the empty value, and reads back so", async () => {
        const response = await owners.post(CREATE, {
            data: {
                type: "projects",
                attributes: { name: uniqueName("detail") },
                relationships: { "tag-bindings": { data: [{ type: "tag-bindings", attributes: { key: "flag" } }] } },
            },
        });
        expectStatus(response, 201);
        expect(await tagsOf(server, response.body.data.id)).toEqual([["flag", ""]]);
    });
});

describe("PATCH /projects/:id/tag-bindings: more than ten tags, exactly", () => {
    test("eleven tags in the body: exactly one 422 at /data; nothing written", async () => {
        const id = await createProject(server, { name: uniqueName("detail") });
        await expectRefused(() => owners.patch(`/projects/${id}/tag-bindings`, { data: distinctTags(11).map((tag) => ({ type: "tag-bindings", attributes: tag })) }), 422, [
            {
                status: "422",
                title: "invalid attribute",
                detail: "A project may have at most 10 tags; this change would give it 11",
                source: { pointer: "/data" },
            },
        ]);
    });
});

describe("PATCH /projects/:id with tag-bindings: the set is replaced, kept keys keep their binding", () => {
    test("the same keys in another order: the bindings keep their order and creation time, a new value reads back", async () => {
        const id = await createProject(server, { name: uniqueName("detail") }, [
            { key: "alpha", value: "1" },
            { key: "beta", value: "2" },
        ]);
        const before = await bindingsInOrder(id);
        expect(before.map((binding) => binding.key)).toEqual(["alpha", "beta"]);
        // A later timestamp for anything written anew.
        await new Promise((resolve) => setTimeout(resolve, 20));
        const response = await owners.patch(
            `/projects/${id}`,
            projectDocument({}, [
                { key: "beta", value: "2" },
                { key: "alpha", value: "one" },
            ]),
        );
        expectStatus(response, 200);
        expect(await bindingsInOrder(id)).toEqual([
            { key: "alpha", value: "one", createdAt: before[0]!.createdAt },
            { key: "beta", value: "2", createdAt: before[1]!.createdAt },
        ]);
    });

    test("a key left out is removed, a new one added after the kept ones", async () => {
        const id = await createProject(server, { name: uniqueName("detail") }, [
            { key: "alpha", value: "1" },
            { key: "beta", value: "2" },
        ]);
        const before = await bindingsInOrder(id);
        expectStatus(await owners.patch(`/projects/${id}`, projectDocument({}, [{ key: "gamma", value: "3" }, { key: "beta", value: "2" }])), 200);
        const after = await bindingsInOrder(id);
        expect(after.map((binding) => [binding.key, binding.value])).toEqual([
            ["beta", "2"],
            ["gamma", "3"],
        ]);
        expect(after[0]!.createdAt).toBe(before[1]!.createdAt);
    });
});

describe("DELETE /projects/:id: its own refusals, exactly", () => {
    test("a team that may not delete the project (maintain on Staging): one 403 saying so; nothing written", async () => {
        await expectRefused(() => clientFor(server, TOKENS.appsMaintain).delete(`/projects/${ids.Staging}`), 403, [
            { status: "403", title: "forbidden", detail: "You are not authorized to delete this project" },
        ]);
    });

    test("the Default Project: one 409 saying the default project cannot be deleted; nothing written", async () => {
        await expectRefused(() => owners.delete(`/projects/${ids["Default Project"]}`), 409, [
            { status: "409", title: "conflict", detail: "The default project of an organization cannot be deleted" },
        ]);
    });

    test("a project with one workspace: the 409 says '1 workspace'; nothing written", async () => {
        await expectRefused(() => owners.delete(`/projects/${ids.Staging}`), 409, [
            {
                status: "409",
                title: "conflict",
                detail: "Project 'Staging' still contains 1 workspace; move or delete them before deleting the project",
            },
        ]);
    });

    test("a project with two workspaces: the 409 says '2 workspaces'; nothing written", async () => {
        await expectRefused(() => owners.delete(`/projects/${ids.Apps}`), 409, [
            {
                status: "409",
                title: "conflict",
                detail: "Project 'Apps' still contains 2 workspaces; move or delete them before deleting the project",
            },
        ]);
    });
});

describe("POST /projects/:id/relationships/workspaces: the 403 names what was refused", () => {
    const move = (workspaceIds: string[]) => () => owners.post(`/projects/${ids.Empty}/relationships/workspaces`, moveDocument(workspaceIds));
    const forbidden = (detail: string) => [{ status: "403", title: "forbidden", detail }];

    test("one unknown workspace beside a movable one: '1 workspace', 'it out of its project'; nothing moved", async () => {
        await expectRefused(
            move([WORKSPACES.appsWeb, "ws-unknown00000000001"]),
            403,
            forbidden(
                "1 workspace (ws-unknown00000000001) not found or you are not authorized to move it out of its project; nothing was moved",
            ),
        );
    });

    test("two refused (unknown, another organization's): both listed, 'them out of their projects'; nothing moved", async () => {
        await expectRefused(
            move(["ws-unknown00000000001", WORKSPACES.appsLegacy, WORKSPACES.globex]),
            403,
            forbidden(
                `2 workspaces (ws-unknown00000000001, ${WORKSPACES.globex}) not found or you are not authorized to move them out of their projects; nothing was moved`,
            ),
        );
    });

    test("five refused: all five listed, no 'more'", async () => {
        const refused = ["ws-u1", "ws-u2", "ws-u3", "ws-u4", "ws-u5"];
        await expectRefused(
            move(refused),
            403,
            forbidden(
                "5 workspaces (ws-u1, ws-u2, ws-u3, ws-u4, ws-u5) not found or you are not authorized to move them out of their projects; nothing was moved",
            ),
        );
    });

    test("seven refused, with ids of 41 and 40 characters: the first five, the 41-character one cut at 40, and '2 more'", async () => {
        const id41 = "ws-" + "a".repeat(38); // 41 characters
        const id40 = "ws-" + "b".repeat(37); // 40 characters
        expect([id41.length, id40.length]).toEqual([41, 40]);
        const refused = [id41, id40, "ws-u3", "ws-u4", "ws-u5", "ws-u6", "ws-u7"];
        await expectRefused(
            move(refused),
            403,
            forbidden(
                `7 workspaces (ws-${"a".repeat(37)}…, ${id40}, ws-u3, ws-u4, ws-u5 and 2 more) not found or you are not authorized to move them out of their projects; nothing was moved`,
            ),
        );
    });

    test("an id given twice counts once", async () => {
        await expectRefused(
            move(["ws-unknown00000000001", "ws-unknown00000000001"]),
            403,
            forbidden(
                "1 workspace (ws-unknown00000000001) not found or you are not authorized to move it out of its project; nothing was moved",
            ),
        );
    });
});

describe("GET /organizations/:org/projects: the query", () => {
    test("a sort other than name or -name: one 400 naming sort and the value given", async () => {
        const response = await owners.get(`${LIST}?sort=size`);
        expect(onlyError(response, 400)).toEqual({
            status: "400",
            title: "bad request",
            detail: "sort must be 'name' or '-name', got 'size'",
            source: { parameter: "sort" },
        });
    });

    describe("filter[tagged]", () => {
        let tagged: string;

        beforeAll(async () => {
            tagged = uniqueName("tagged");
            await createProject(server, { name: tagged }, [{ key: "detail-key", value: "on" }]);
        });

        const notAFilter = (parameter: string) => ({
            status: "400",
            title: "bad request",
            detail: `${parameter} is not a tag filter: write filter[tagged][i][key] and, optionally, filter[tagged][i][value], with i a number`,
            source: { parameter },
        });
        const badIndex = (parameter: string, index: string) => ({
            status: "400",
            title: "bad request",
            detail: `The index of ${parameter} must be a number (0, 1, 2...), got '${index}'`,
            source: { parameter },
        });

        test("a two-digit index is a number: the filter applies", async () => {
            const response = await owners.get(`${LIST}?filter[tagged][12][key]=detail-key&filter[tagged][12][value]=on`);
            expectStatus(response, 200);
            expect(namesOf(response)).toEqual([tagged]);
        });

        test("a nine-digit index is a number: the filter applies", async () => {
            const response = await owners.get(`${LIST}?filter[tagged][123456789][key]=detail-key`);
            expectStatus(response, 200);
            expect(namesOf(response)).toEqual([tagged]);
        });

        test.each([
            ["text after the last bracket", "filter[tagged][0][key]x"],
            ["a part other than key or value", "filter[tagged][0][name]"],
            ["no part", "filter[tagged][0]"],
        ])("%s: one 400 saying it is not a tag filter", async (_label, parameter) => {
            expect(onlyError(await owners.get(`${LIST}?${parameter}=detail-key`), 400)).toEqual(notAFilter(parameter));
        });

        test.each([
            ["a number followed by a letter", "1a"],
            ["empty", ""],
            ["a negative number", "-1"],
        ])("an index that is %s: one 400 saying the index must be a number", async (_label, index) => {
            const parameter = `filter[tagged][${index}][key]`;
            expect(onlyError(await owners.get(`${LIST}?${parameter}=detail-key`), 400)).toEqual(badIndex(parameter, index));
        });
    });

    test("include with a space after the comma: both spellings accepted, the bindings included", async () => {
        const name = uniqueName("include");
        const id = await createProject(server, { name }, [{ key: "inc", value: "yes" }]);
        const response = await owners.get(`${LIST}?filter%5Bnames%5D=${encodeURIComponent(name)}&include=effective_tag_bindings,%20effective-tag-bindings`);
        expectStatus(response, 200);
        expect(namesOf(response)).toEqual([name]);
        expect(response.body.data[0].id).toBe(id);
        expect(response.body.included.map((binding: any) => [binding.type, binding.attributes.key, binding.attributes.value])).toEqual([
            ["effective-tag-bindings", "inc", "yes"],
        ]);
    });
});
