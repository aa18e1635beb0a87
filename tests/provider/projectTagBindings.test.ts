/**
 * The `wos:ProjectTagBindings` handlers called directly against the real local service: they manage only
 * the keys they list.
 */
import * as project from "../../provider/handlers/project";
import * as bindings from "../../provider/handlers/projectTagBindings";
import { configureUnreachable, projectTags, rejection, TOKEN, UNKNOWN, uniqueName, useServer, checkedInputs } from "./helpers";

const server = useServer();

/** A fresh project with tags set by someone else (`owner`), which the bindings must never touch. */
async function projectWithForeignTag(): Promise<string> {
    const created = await project.create({ organization: "acme", name: uniqueName("Tagged") });
    const written = await server().request("PATCH", `/projects/${created.id}/tag-bindings`, {
        token: TOKEN,
        body: { data: [{ type: "tag-bindings", attributes: { key: "owner", value: "someone" } }] },
    });
    expect(written.status).toBe(200);
    return created.id;
}

const checked = (news: Record<string, unknown>) => checkedInputs(bindings, news);

describe("check", () => {
    it.each([
        ["a missing project id", { tags: { a: "b" } }, "projectId", /required/],
        ["a project id without the prj- prefix", { projectId: "ws-123", tags: { a: "b" } }, "projectId", /starting with 'prj-'/],
        ["missing tags", { projectId: "prj-1" }, "tags", /required/],
        ["a reserved key prefix", { projectId: "prj-1", tags: { "hc:x": "y" } }, "tags", /reserved prefix/],
        ["a bad key character", { projectId: "prj-1", tags: { "a/b": "y" } }, "tags", /tag key 'a\/b' may contain only/],
        ["a value over 256 characters", { projectId: "prj-1", tags: { a: "v".repeat(257) } }, "tags", /at most 256/],
        [
            "more than ten tags",
            { projectId: "prj-1", tags: Object.fromEntries(Array.from({ length: 11 }, (_, i) => [`k${i}`, "v"])) },
            "tags",
            /at most 10 tags/,
        ],
    ])("rejects %s, naming the property", async (_what, news, property, reason) => {
        await configureUnreachable();
        const failures = (await bindings.check({}, news)).failures;
        expect(failures).toContainEqual({ property, reason: expect.stringMatching(reason) });
    });

    it("lets unknown values pass", async () => {
        expect((await bindings.check({}, { projectId: UNKNOWN, tags: UNKNOWN })).failures).toEqual([]);
        expect((await bindings.check({}, { projectId: "prj-1", tags: { a: UNKNOWN } })).failures).toEqual([]);
    });
});

describe("diff", () => {
    const state = { projectId: "prj-1", tags: { a: "1", b: "2" }, __provider: "x" };

    beforeEach(configureUnreachable);

    it("reports no change for the same tags in another order", async () => {
        expect(await bindings.diff("prj-1", state, { projectId: "prj-1", tags: { b: "2", a: "1" } })).toEqual({
            changes: false,
            replaces: [],
            deleteBeforeReplace: false,
        });
    });

    it.each([
        ["a changed value", { a: "1", b: "3" }],
        ["a removed key", { a: "1" }],
        ["an added key", { a: "1", b: "2", c: "3" }],
        ["a value not known yet", { a: "1", b: UNKNOWN }],
    ])("changes %s in place", async (_what, tags) => {
        expect(await bindings.diff("prj-1", state, { projectId: "prj-1", tags })).toEqual({
            changes: true,
            replaces: [],
            deleteBeforeReplace: false,
        });
    });

    it("replaces the bindings when the project changes", async () => {
        expect(await bindings.diff("prj-1", state, { ...state, projectId: "prj-2" })).toEqual({
            changes: true,
            replaces: ["projectId"],
            deleteBeforeReplace: false,
        });
    });

    it("deletes first when an unknown project may be the same one", async () => {
        const result = await bindings.diff("prj-1", state, { ...state, projectId: UNKNOWN });
        expect(result).toEqual({ changes: true, replaces: ["projectId"], deleteBeforeReplace: true });
    });
});

describe("create, read, update, delete", () => {
    it("adds its tags to the project and leaves the others alone", async () => {
        const projectId = await projectWithForeignTag();
        const created = await bindings.create(await checked({ projectId, tags: { "cost-center": "1234", env: "prod" } }));
        expect(created).toEqual({ id: projectId, outs: { projectId, tags: { "cost-center": "1234", env: "prod" } } });
        expect(await projectTags(server(), projectId)).toEqual({ owner: "someone", "cost-center": "1234", env: "prod" });
        const read = await bindings.read(created.id, created.outs);
        expect(read).toEqual({ id: projectId, props: created.outs, inputs: created.outs });
    });

    it("updates a value with the upsert and removes a dropped key, and only that key", async () => {
        const projectId = await projectWithForeignTag();
        const created = await bindings.create(await checked({ projectId, tags: { a: "1", b: "2" } }));
        const news = await checked({ projectId, tags: { a: "10", c: "3" } });
        const updated = await bindings.update(created.id, created.outs, news);
        expect(updated.outs).toEqual({ projectId, tags: { a: "10", c: "3" } });
        expect(await projectTags(server(), projectId)).toEqual({ owner: "someone", a: "10", c: "3" });

        const upserted = await bindings.update(created.id, updated.outs!, await checked({ projectId, tags: { a: "11", c: "3" } }));
        expect(upserted.outs).toEqual({ projectId, tags: { a: "11", c: "3" } });
        expect(await projectTags(server(), projectId)).toEqual({ owner: "someone", a: "11", c: "3" });
    });

    it("reads drift of its own keys only: a changed value and a removed key show, other keys do not", async () => {
        const projectId = await projectWithForeignTag();
        const created = await bindings.create(await checked({ projectId, tags: { a: "1", b: "2" } }));
        const replaced = await server().request("PATCH", `/projects/${projectId}`, {
            token: TOKEN,
            body: {
                data: {
                    type: "projects",
                    relationships: {
                        "tag-bindings": {
                            data: [
                                { type: "tag-bindings", attributes: { key: "a", value: "changed" } },
                                { type: "tag-bindings", attributes: { key: "other", value: "x" } },
                            ],
                        },
                    },
                },
            },
        });
        expect(replaced.status).toBe(200);
        const read = await bindings.read(created.id, created.outs);
        expect(read).toEqual({ id: projectId, props: { projectId, tags: { a: "changed" } }, inputs: { projectId, tags: { a: "changed" } } });
        expect((await bindings.diff(projectId, read.props, created.outs)).changes).toBe(true);
    });

    it("reads the bindings by the project's id alone (a get or an import): every binding of the project", async () => {
        const projectId = await projectWithForeignTag();
        await bindings.create(await checked({ projectId, tags: { a: "1" } }));
        const read = await bindings.read(projectId, {});
        const expected = { projectId, tags: { owner: "someone", a: "1" } };
        expect(read).toEqual({ id: projectId, props: expected, inputs: expected });
    });

    it("deletes its keys only, and deleting again succeeds", async () => {
        const projectId = await projectWithForeignTag();
        const created = await bindings.create(await checked({ projectId, tags: { a: "1", b: "2" } }));
        await bindings.delete(created.id, created.outs);
        expect(await projectTags(server(), projectId)).toEqual({ owner: "someone" });
        await expect(bindings.delete(created.id, created.outs)).resolves.toBeUndefined();
        expect(await projectTags(server(), projectId)).toEqual({ owner: "someone" });
    });

    it("reads a deleted project as gone, and deleting then succeeds", async () => {
        const projectId = await projectWithForeignTag();
        const created = await bindings.create(await checked({ projectId, tags: { a: "1" } }));
        await project.delete(projectId, {});
        expect((await bindings.read(created.id, created.outs)).id).toBeUndefined();
        await expect(bindings.delete(created.id, created.outs)).resolves.toBeUndefined();
    });

    it("reports the service's refusal when the project would exceed ten tags, naming the resource", async () => {
        const projectId = await projectWithForeignTag();
        const tags = Object.fromEntries(Array.from({ length: 10 }, (_, i) => [`k${i}`, "v"]));
        const error = await rejection(bindings.create(await checked({ projectId, tags })));
        expect(error.message).toMatch(new RegExp(`wos:ProjectTagBindings of project ${projectId}: create failed`));
        expect(error.message).toMatch(/10/);
        expect(await projectTags(server(), projectId)).toEqual({ owner: "someone" });
    });

    it("fails to create on a project that does not exist", async () => {
        const error = await rejection(bindings.create(await checked({ projectId: "prj-doesnotexist1", tags: { a: "1" } })));
        expect(error.message).toMatch(/create failed.*404/);
    });
});
