/**
 * The words of the `/vars` body rules (`sdk/model/variable.ts`): each malformed part of a create or update
 * body is refused with a 422 whose detail, at the part's pointer, says what the part must be; nothing is
 * written. (The status and pointer alone are tested in variables.test.ts; these tests read the detail.)
 */
import type { TestServer } from "../support/server";
import { WORKSPACES } from "../support/seed";
import { detailAt, expectUnchanged, expectValidation, snapshot, withSeededServer, type Client } from "./helpers";

let server: TestServer;
let owners: Client;

withSeededServer((started) => ({ server, owners } = started));

const RELATIONSHIP = { workspace: { data: { type: "workspaces", id: WORKSPACES.appsLegacy } } };
const ATTRIBUTES = { key: "MESSAGE_KEY", category: "env" };

describe("POST /vars", () => {
    test.each([
        ["a type other than vars", { data: { type: "variables", attributes: ATTRIBUTES, relationships: RELATIONSHIP } }, "/data/type", "must be 'vars'"],
        ["attributes that are not an object", { data: { type: "vars", attributes: "key=value", relationships: RELATIONSHIP } }, "/data/attributes", "must be an object with at least a key and a category"],
        [
            "a workspace relationship of another type",
            { data: { type: "vars", attributes: ATTRIBUTES, relationships: { workspace: { data: { type: "projects", id: WORKSPACES.appsLegacy } } } } },
            "/data/relationships/workspace/data/type",
            "must be 'workspaces'",
        ],
        [
            "a workspace relationship whose id is not a string",
            { data: { type: "vars", attributes: ATTRIBUTES, relationships: { workspace: { data: { type: "workspaces", id: 7 } } } } },
            "/data/relationships/workspace/data/id",
            "must be a workspace id",
        ],
        [
            "a filter whose workspace name is not a string",
            { data: { type: "vars", attributes: ATTRIBUTES }, filter: { workspace: { name: 7 }, organization: { name: "acme" } } },
            "/filter/workspace/name",
            "must be a workspace name",
        ],
        [
            "a filter whose organization name is not a string",
            { data: { type: "vars", attributes: ATTRIBUTES }, filter: { workspace: { name: "legacy-app" }, organization: { name: 7 } } },
            "/filter/organization/name",
            "must be an organization name",
        ],
    ])("refuses %s, saying what it must be; nothing written", async (_label, body, pointer, words) => {
        const before = await snapshot(server);
        const errors = expectValidation(await owners.post("/vars", body), pointer);
        expect(detailAt(errors, pointer)).toContain(words);
        await expectUnchanged(server, before);
    });
});

describe("PATCH /vars/:id", () => {
    test("refuses a type other than vars, saying so; nothing written", async () => {
        const created = await owners.post("/vars", { data: { type: "vars", attributes: { key: "PATCHED_KEY", category: "env" }, relationships: RELATIONSHIP } });
        expect(created.status).toBe(201);
        const id = created.body.data.id;
        const before = await snapshot(server);
        const errors = expectValidation(await owners.patch(`/vars/${id}`, { data: { type: "variables", id, attributes: { value: "x" } } }), "/data/type");
        expect(detailAt(errors, "/data/type")).toContain("must be 'vars'");
        await expectUnchanged(server, before);
    });
});
