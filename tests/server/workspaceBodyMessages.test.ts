/**
 * The words of the workspace request-body rules (`sdk/model/workspace.ts`): each malformed part of a
 * workspace create (`POST /organizations/:org/workspaces`) or update (`PATCH /workspaces/:id`) is refused
 * with a 422 whose detail, at the part's pointer, says what the part must be; nothing is written. Among them
 * the hosted attributes that have one value here, whose detail names that value. (workspaces.test.ts,
 * workspaceCreateList.test.ts and clientsCompat.test.ts test the status and pointer; these read the detail.)
 */
import type { TestServer } from "../support/server";
import { WORKSPACES } from "../support/seed";
import {
    detailAt,
    expectNoWorkspaceNamed,
    expectUnchanged,
    expectValidation,
    snapshot,
    uniqueName,
    withSeededServer,
    type Client,
} from "./helpers";

const CREATE = "/organizations/acme/workspaces";

let server: TestServer;
let owners: Client;
withSeededServer((started) => ({ server, owners } = started));

/** Parts of a body that each rule refuses, for `data` of a create or an update (a function of the name a create uses). */
const REFUSED: [string, (name: string) => Record<string, unknown>, string, string][] = [
    ["a type other than workspaces", (name) => ({ type: "workspace", attributes: { name } }), "/data/type", "must be 'workspaces'"],
    [
        "an agent pool id that is not a string",
        (name) => ({ type: "workspaces", attributes: { name, "execution-mode": "agent", "agent-pool-id": 7 } }),
        "/data/attributes/agent-pool-id",
        "must be an agent pool id",
    ],
    [
        "a type among the attributes other than workspaces",
        (name) => ({ type: "workspaces", attributes: { name, type: "projects" } }),
        "/data/attributes/type",
        "must be 'workspaces' (the resource type) when given",
    ],
    [
        "setting-overwrites that are not an object",
        (name) => ({ type: "workspaces", attributes: { name, "setting-overwrites": true } }),
        "/data/attributes/setting-overwrites",
        "must be an object of booleans 'execution-mode' and 'agent-pool'",
    ],
    [
        "a project relationship of another type",
        (name) => ({ type: "workspaces", attributes: { name }, relationships: { project: { data: { type: "organizations", id: "acme" } } } }),
        "/data/relationships/project/data/type",
        "must be 'projects'",
    ],
    [
        "a project id that is not a string",
        (name) => ({ type: "workspaces", attributes: { name }, relationships: { project: { data: { type: "projects", id: 7 } } } }),
        "/data/relationships/project/data/id",
        "must be a project id",
    ],
    [
        "an empty project id",
        (name) => ({ type: "workspaces", attributes: { name }, relationships: { project: { data: { type: "projects", id: "" } } } }),
        "/data/relationships/project/data/id",
        "must be a project id",
    ],
    [
        "project data that is not an object",
        (name) => ({ type: "workspaces", attributes: { name }, relationships: { project: { data: "prj-1" } } }),
        "/data/relationships/project/data",
        "must be a project ({ type: 'projects', id }): a workspace always belongs to a project",
    ],
    [
        "tag bindings that are not a list",
        (name) => ({ type: "workspaces", attributes: { name }, relationships: { "tag-bindings": { data: { key: "team" } } } }),
        "/data/relationships/tag-bindings/data",
        "must be a list of tag bindings",
    ],
    [
        "a fixed boolean at its other value",
        (name) => ({ type: "workspaces", attributes: { name, "allow-destroy-plan": false } }),
        "/data/attributes/allow-destroy-plan",
        "must be true on this service, which has no such setting (every workspace has true); leave it out or send true",
    ],
    [
        "a fixed null at another value",
        (name) => ({ type: "workspaces", attributes: { name, "auto-destroy-at": "2030-01-01T00:00:00Z" } }),
        "/data/attributes/auto-destroy-at",
        "must be null on this service, which has no such setting (every workspace has null); leave it out or send null",
    ],
    [
        "a fixed empty list with an item",
        (name) => ({ type: "workspaces", attributes: { name, "trigger-patterns": ["*.tf"] } }),
        "/data/attributes/trigger-patterns",
        "must be [] on this service, which has no such setting (every workspace has []); leave it out or send []",
    ],
    [
        "a fixed empty list given as another empty value",
        (name) => ({ type: "workspaces", attributes: { name, "trigger-prefixes": "" } }),
        "/data/attributes/trigger-prefixes",
        "must be [] on this service",
    ],
];

describe("POST /organizations/:org/workspaces", () => {
    test.each(REFUSED)("refuses %s, saying what it must be; nothing written", async (_label, data, pointer, words) => {
        const name = uniqueName("words");
        const before = await snapshot(server);
        const errors = expectValidation(await owners.post(CREATE, { data: data(name) }), pointer);
        expect(detailAt(errors, pointer)).toContain(words);
        await expectNoWorkspaceNamed(server, name);
        await expectUnchanged(server, before);
    });

    test("refuses attributes that are not an object, saying a name is needed; nothing written", async () => {
        const before = await snapshot(server);
        const errors = expectValidation(await owners.post(CREATE, { data: { type: "workspaces", attributes: "name=web" } }), "/data/attributes");
        expect(detailAt(errors, "/data/attributes")).toContain("must be an object with at least a name");
        await expectUnchanged(server, before);
    });
});

describe("PATCH /workspaces/:id", () => {
    test.each(REFUSED)("refuses %s, saying what it must be; nothing written", async (_label, data, pointer, words) => {
        const before = await snapshot(server);
        // A rename to a new name would be a change: the refusal must write none of it.
        const errors = expectValidation(await owners.patch(`/workspaces/${WORKSPACES.staging}`, { data: data(uniqueName("renamed")) }), pointer);
        expect(detailAt(errors, pointer)).toContain(words);
        await expectUnchanged(server, before);
    });

    test("accepts every fixed attribute at its one value, and changes no setting with it", async () => {
        const settings = async () => {
            const response = await owners.get(`/workspaces/${WORKSPACES.staging}`);
            expect(response.status).toBe(200);
            // The update itself is a write (its times move); every setting stays.
            const { "updated-at": _updatedAt, "latest-change-at": _latestChangeAt, ...attributes } = response.body.data.attributes;
            return { attributes, relationships: response.body.data.relationships };
        };
        const before = await settings();
        const response = await owners.patch(`/workspaces/${WORKSPACES.staging}`, {
            data: {
                type: "workspaces",
                attributes: { "allow-destroy-plan": true, "auto-destroy-at": null, "trigger-patterns": [], "trigger-prefixes": [], operations: true, "queue-all-runs": false },
            },
        });
        expect(response.status).toBe(200);
        expect(await settings()).toEqual(before);
    });
});
