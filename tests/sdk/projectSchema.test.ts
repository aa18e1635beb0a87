/**
 * The client's reading of project and tag-binding answers (`sdk/model/project.ts`), called directly with wire
 * documents: what each field becomes, and that a field an answer does not carry is left out of the result
 * (not present as `undefined`: `toStrictEqual` tells the two apart), as the types promise.
 */
import { effectiveTagBindingSchema, projectSchema, tagBindingSchema } from "../../sdk/model/project";

const READ = projectSchema();

describe("projectSchema", () => {
    test("a complete answer: every field", () => {
        expect(
            READ.parse({
                id: "prj-1",
                type: "projects",
                attributes: {
                    name: "Apps",
                    description: "the apps",
                    "auto-destroy-activity-duration": "14d",
                    "workspace-count": 2,
                    "team-count": 3,
                    permissions: { "can-update": true, "can-destroy": false, "can-create-workspace": true },
                },
                relationships: { organization: { data: { id: "acme", type: "organizations" } } },
                links: { self: "/api/v2/projects/prj-1" },
            }),
        ).toStrictEqual({
            id: "prj-1",
            name: "Apps",
            description: "the apps",
            permissions: { canUpdate: true, canDestroy: false, canCreateWorkspace: true },
            autoDestroyActivityDuration: "14d",
            workspaceCount: 2,
            teamCount: 3,
            organization: "acme",
        });
    });

    test("an answer with only a name (a create's): no description, no permissions, and nothing else present", () => {
        expect(READ.parse({ id: "prj-1", type: "projects", attributes: { name: "Apps" } })).toStrictEqual({
            id: "prj-1",
            name: "Apps",
            description: null,
            permissions: {},
        });
    });

    test("each permission is present only where the answer carries it", () => {
        const permissionsOf = (permissions: Record<string, boolean>) =>
            READ.parse({ id: "prj-1", type: "projects", attributes: { name: "Apps", permissions } }).permissions;
        expect(permissionsOf({ "can-update": false })).toStrictEqual({ canUpdate: false });
        expect(permissionsOf({ "can-destroy": true })).toStrictEqual({ canDestroy: true });
        expect(permissionsOf({ "can-create-workspace": false })).toStrictEqual({ canCreateWorkspace: false });
    });

    test("each count and the organization present alone; a null duration is kept as null (none set)", () => {
        const read = (attributes: Record<string, unknown>, relationships?: unknown) =>
            READ.parse({ id: "prj-1", type: "projects", attributes: { name: "Apps", ...attributes }, ...(relationships ? { relationships } : {}) });
        expect(read({ "team-count": 0 })).toStrictEqual({ id: "prj-1", name: "Apps", description: null, permissions: {}, teamCount: 0 });
        expect(read({ "workspace-count": 0 })).toStrictEqual({ id: "prj-1", name: "Apps", description: null, permissions: {}, workspaceCount: 0 });
        expect(read({ "auto-destroy-activity-duration": null })).toStrictEqual({
            id: "prj-1",
            name: "Apps",
            description: null,
            permissions: {},
            autoDestroyActivityDuration: null,
        });
        expect(read({}, { organization: { data: { id: "acme", type: "organizations" } } })).toStrictEqual({
            id: "prj-1",
            name: "Apps",
            description: null,
            permissions: {},
            organization: "acme",
        });
        // A relationship without data names no organization.
        expect(read({}, { organization: { data: null } })).toStrictEqual({ id: "prj-1", name: "Apps", description: null, permissions: {} });
    });
});

describe("tagBindingSchema and effectiveTagBindingSchema", () => {
    test("a binding with an id, a value and a creation time", () => {
        expect(
            tagBindingSchema().parse({ id: "tb-1", type: "tag-bindings", attributes: { key: "team", value: "web", "created-at": "2026-01-01T00:00:00Z" } }),
        ).toStrictEqual({ id: "tb-1", key: "team", value: "web", createdAt: "2026-01-01T00:00:00Z" });
    });

    test("no id, no creation time: both absent; a null or missing value reads as the empty string", () => {
        expect(tagBindingSchema().parse({ type: "tag-bindings", attributes: { key: "team", value: null } })).toStrictEqual({ key: "team", value: "" });
        expect(tagBindingSchema().parse({ type: "tag-bindings", attributes: { key: "team" } })).toStrictEqual({ key: "team", value: "" });
    });

    test("an effective binding reads like any other, under its own type only", () => {
        expect(effectiveTagBindingSchema().parse({ id: "tb-1", type: "effective-tag-bindings", attributes: { key: "team", value: "web" } })).toStrictEqual({
            id: "tb-1",
            key: "team",
            value: "web",
        });
        expect(effectiveTagBindingSchema().safeParse({ type: "tag-bindings", attributes: { key: "team" } }).success).toBe(false);
        expect(tagBindingSchema().safeParse({ type: "effective-tag-bindings", attributes: { key: "team" } }).success).toBe(false);
    });
});
