/**
 * Details of the `wos:ProjectTagBindings` handlers that the main test file leaves open: how messages name
 * the resource, which request each path sends (and which it must not), and a delete with nothing to remove.
 * All against the real local service over HTTP; a fault on a path proves that no request went there.
 */
import * as project from "../../provider/handlers/project";
import * as bindings from "../../provider/handlers/projectTagBindings";
import { projectTags, rejection, TOKEN, UNKNOWN, uniqueName, useServer } from "./helpers";

const server = useServer();
const PROJECT_PATCH = "^/api/v2/projects/prj-[^/]+$";
const TAGS_PATH = "^/api/v2/projects/prj-[^/]+/tag-bindings$";

/** A new project of `acme` with the tags `tags`, written over raw HTTP. */
async function projectWith(tags: Record<string, string>): Promise<string> {
    const created = await project.create({ organization: "acme", name: uniqueName("Bound") });
    if (Object.keys(tags).length > 0) {
        const written = await server().request("PATCH", `/projects/${created.id}/tag-bindings`, {
            token: TOKEN,
            body: { data: Object.entries(tags).map(([key, value]) => ({ type: "tag-bindings", attributes: { key, value } })) },
        });
        expect(written.status).toBe(200);
    }
    return created.id;
}

describe("how messages name the resource", () => {
    it("names no project when the inputs give none", async () => {
        const error = await rejection(bindings.create({ tags: {} }));
        expect(error.message.startsWith("wos:ProjectTagBindings: create failed: ")).toBe(true);
    });

    it("names the project and the operation of a read that failed", async () => {
        await server().addFault({ method: "GET", path: TAGS_PATH, times: 1, status: 403 });
        const error = await rejection(bindings.read("prj-named1", { projectId: "prj-named1", tags: { a: "1" } }));
        expect(error.message.startsWith("wos:ProjectTagBindings of project prj-named1: read failed: ")).toBe(true);
    });

    it("names the project of the inputs and the operation of an update that failed", async () => {
        const projectId = await projectWith({});
        await server().addFault({ method: "PATCH", path: TAGS_PATH, times: 1, status: 403 });
        const error = await rejection(bindings.update("prj-otherid", { projectId, tags: {} }, { projectId, tags: { a: "1" } }));
        expect(error.message.startsWith(`wos:ProjectTagBindings of project ${projectId}: update failed: `)).toBe(true);
        expect(await projectTags(server(), projectId)).toEqual({});
    });

    it("names the project and the operation of a delete that failed", async () => {
        const projectId = await projectWith({ a: "1" });
        await server().addFault({ method: "GET", path: TAGS_PATH, times: 1, status: 403 });
        const error = await rejection(bindings.delete(projectId, { projectId, tags: { a: "1" } }));
        expect(error.message.startsWith(`wos:ProjectTagBindings of project ${projectId}: delete failed: `)).toBe(true);
        expect(await projectTags(server(), projectId)).toEqual({ a: "1" });
    });
});

describe("diff", () => {
    it("deletes first only for a project id not known yet", async () => {
        const olds = { projectId: "prj-1", tags: { a: "1" } };
        expect(await bindings.diff("prj-1", olds, { ...olds, tags: { a: "2" } })).toEqual({ changes: true, replaces: [], deleteBeforeReplace: false });
        expect(await bindings.diff("prj-1", olds, { ...olds, projectId: "prj-2" })).toEqual({
            changes: true,
            replaces: ["projectId"],
            deleteBeforeReplace: false,
        });
        expect(await bindings.diff("prj-1", olds, { ...olds, projectId: UNKNOWN })).toEqual({
            changes: true,
            replaces: ["projectId"],
            deleteBeforeReplace: true,
        });
    });
});

describe("requests sent", () => {
    it("create with no tags only checks the project exists, writing nothing", async () => {
        const projectId = await projectWith({ theirs: "1" });
        await server().addFault({ method: "PATCH", path: TAGS_PATH, times: 1, status: 403 });
        await server().addFault({ method: "PATCH", path: PROJECT_PATCH, times: 1, status: 403 });
        const created = await bindings.create({ projectId, tags: {} });
        expect(created).toEqual({ id: projectId, outs: { projectId, tags: {} } });
        expect(await projectTags(server(), projectId)).toEqual({ theirs: "1" });
    });

    it("update that removes no key upserts with the tag-bindings PATCH, never rewriting the project's set", async () => {
        const projectId = await projectWith({ theirs: "1", a: "1" });
        await server().addFault({ method: "PATCH", path: PROJECT_PATCH, times: 1, status: 403 });
        const updated = await bindings.update(projectId, { projectId, tags: { a: "1" } }, { projectId, tags: { a: "2", b: "3" } });
        expect(updated.outs).toEqual({ projectId, tags: { a: "2", b: "3" } });
        expect(await projectTags(server(), projectId)).toEqual({ theirs: "1", a: "2", b: "3" });
    });

    it("delete with no managed keys sends no request", async () => {
        const projectId = await projectWith({ theirs: "1" });
        await server().addFault({ method: "GET", path: TAGS_PATH, times: 1, status: 403 });
        await expect(bindings.delete(projectId, { projectId, tags: {} })).resolves.toBeUndefined();
        await expect(bindings.delete(projectId, { projectId })).resolves.toBeUndefined();
    });

    it("delete whose keys are already gone sends no write", async () => {
        const projectId = await projectWith({ theirs: "1" });
        await server().addFault({ method: "PATCH", path: PROJECT_PATCH, times: 1, status: 403 });
        await expect(bindings.delete(projectId, { projectId, tags: { gone: "1" } })).resolves.toBeUndefined();
        expect(await projectTags(server(), projectId)).toEqual({ theirs: "1" });
    });
});
