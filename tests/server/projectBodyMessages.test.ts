/**
 * The words of the project request-body rules (`sdk/model/project.ts`): each malformed part of a project
 * create or update, a tag-bindings update or a move of workspaces is refused with a 422 whose detail, at the
 * part's pointer, says what the part must be; nothing is written. (projects.test.ts, tagBindings.test.ts and
 * moveWorkspaces.test.ts test the status and pointer of such refusals; these tests read the detail.)
 */
import type { TestServer } from "../support/server";
import { WORKSPACES } from "../support/seed";
import { detailAt, expectUnchanged, expectValidation, snapshot, withSeededServer, type AcmeProjectIds, type Client } from "./helpers";

let server: TestServer;
let owners: Client;
let ids: AcmeProjectIds;

withSeededServer((started) => ({ server, owners, ids } = started));

/** Sends the request and checks the words at `pointer` and that nothing changed. */
async function expectRefusal(send: () => Promise<any>, pointer: string, words: string): Promise<void> {
    const before = await snapshot(server);
    const errors = expectValidation(await send(), pointer);
    expect(detailAt(errors, pointer)).toContain(words);
    await expectUnchanged(server, before);
}

describe("POST /organizations/:org/projects", () => {
    test("refuses a type other than projects, saying so; nothing written", async () => {
        await expectRefusal(() => owners.post("/organizations/acme/projects", { data: { type: "project", attributes: { name: "Words One" } } }), "/data/type", "must be 'projects'");
    });

    test("refuses attributes that are not an object, saying what they must be; nothing written", async () => {
        await expectRefusal(
            () => owners.post("/organizations/acme/projects", { data: { type: "projects", attributes: "name=Words Two" } }),
            "/data/attributes",
            "must be an object with at least a name",
        );
    });
});

describe("project attributes and tag bindings, on create and on update", () => {
    const TAGS = "/data/relationships/tag-bindings/data";
    test.each<[string, Record<string, unknown>, string, string]>([
        ["tag bindings that are not a list", { relationships: { "tag-bindings": { data: { key: "team" } } } }, TAGS, "must be a list of tag bindings"],
        [
            "a tag binding whose attributes are not an object",
            { relationships: { "tag-bindings": { data: [{ type: "tag-bindings", attributes: "team=web" }] } } },
            `${TAGS}/0/attributes`,
            "must be an object with a key and a value",
        ],
        [
            "setting-overwrites that are not an object",
            { attributes: { "setting-overwrites": true } },
            "/data/attributes/setting-overwrites",
            "must be an object of booleans 'default-execution-mode' and 'default-agent-pool'",
        ],
        [
            "a default execution mode said to be overwritten",
            { attributes: { "setting-overwrites": { "default-execution-mode": true } } },
            "/data/attributes/setting-overwrites/default-execution-mode",
            "must be false: a project here has no default execution mode of its own to overwrite the organization's with",
        ],
        [
            "a default agent pool said to be overwritten",
            { attributes: { "setting-overwrites": { "default-agent-pool": true } } },
            "/data/attributes/setting-overwrites/default-agent-pool",
            "must be false: a project here has no default agent pool of its own to overwrite the organization's with",
        ],
    ])("refuses %s, saying what it must be; nothing written", async (_label, parts, pointer, words) => {
        const attributes = { ...(parts.attributes as object) };
        const relationships = parts.relationships;
        await expectRefusal(
            () => owners.post("/organizations/acme/projects", { data: { type: "projects", attributes: { name: "Words Three", ...attributes }, relationships } }),
            pointer,
            words,
        );
        await expectRefusal(
            () => owners.patch(`/projects/${ids.Staging}`, { data: { type: "projects", id: ids.Staging, attributes, relationships } }),
            pointer,
            words,
        );
    });
});

describe("PATCH /projects/:id", () => {
    test("refuses a type other than projects, saying so; nothing written", async () => {
        await expectRefusal(
            () => owners.patch(`/projects/${ids.Staging}`, { data: { type: "project", id: ids.Staging, attributes: { description: "changed" } } }),
            "/data/type",
            "must be 'projects'",
        );
    });
});

describe("PATCH /projects/:id/tag-bindings", () => {
    test("refuses data that is not a list, saying it must be a list of tag bindings; nothing written", async () => {
        await expectRefusal(
            () => owners.patch(`/projects/${ids.Staging}/tag-bindings`, { data: { type: "tag-bindings", attributes: { key: "team", value: "x" } } }),
            "/data",
            "must be a list of tag bindings",
        );
    });
});

describe("POST /projects/:id/relationships/workspaces", () => {
    const move = (body: unknown) => () => owners.post(`/projects/${ids.Staging}/relationships/workspaces`, body);

    test("refuses data that is not a list, saying it must be a list of workspaces; nothing moves", async () => {
        await expectRefusal(move({ data: { type: "workspaces", id: WORKSPACES.appsLegacy } }), "/data", "must be a list of workspaces");
    });

    test("refuses an item of another type, saying so; nothing moves", async () => {
        await expectRefusal(move({ data: [{ type: "projects", id: WORKSPACES.appsLegacy }] }), "/data/0/type", "must be 'workspaces'");
    });

    test.each([
        ["an id that is not a string", 7],
        ["an empty id", ""],
    ])("refuses %s, saying it must be a workspace id; nothing moves", async (_label, id) => {
        await expectRefusal(move({ data: [{ type: "workspaces", id: WORKSPACES.appsLegacy }, { type: "workspaces", id }] }), "/data/1/id", "must be a workspace id");
    });
});
