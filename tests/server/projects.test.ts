/**
 * Contract of project create, show, update and delete (the API's Projects endpoints, the local service's decisions):
 * statuses, the attribute set each endpoint returns, every name/description/duration rule, case-insensitive
 * uniqueness, and the 409 cases of delete. Every refusal is followed by a read-back proving nothing changed.
 */
import type { TestServer } from "../support/server";
import { WORKSPACES } from "../support/seed";
import {
    acmeProjectIds,
    createProject,
    expectErrors,
    expectStatus,
    expectUnchanged,
    expectValidation,
    moveDocument,
    projectDocument,
    projectId,
    projectOf,
    snapshot,
    withSeededServer,
    type Client,
} from "./helpers";

/** Attributes every project response carries (the API: `permissions.can-update` in all of them). */
function expectProjectCore(data: any, name: string): void {
    expect(data.type).toBe("projects");
    expect(data.id).toMatch(/^prj-/);
    expect(data.attributes.name).toBe(name);
    expect(data.attributes).toHaveProperty("description");
    expect(typeof data.attributes.permissions["can-update"]).toBe("boolean");
    expect(data.relationships.organization.data).toEqual({ id: "acme", type: "organizations" });
    expect(data.relationships.organization.links.related).toMatch(/\/organizations\/acme$/);
    expect(data.relationships["tag-bindings"].links.related).toMatch(new RegExp(`/projects/${data.id}/tag-bindings$`));
    expect(data.relationships["effective-tag-bindings"].links.related).toMatch(
        new RegExp(`/projects/${data.id}/effective-tag-bindings$`),
    );
    expect(data.links.self).toMatch(new RegExp(`/projects/${data.id}$`));
}

/** The update/list/show attribute set: counts and all three permissions. */
function expectProjectFull(data: any, name: string): void {
    expectProjectCore(data, name);
    expect(typeof data.attributes["workspace-count"]).toBe("number");
    expect(typeof data.attributes["team-count"]).toBe("number");
    expect(typeof data.attributes.permissions["can-destroy"]).toBe("boolean");
    expect(typeof data.attributes.permissions["can-create-workspace"]).toBe("boolean");
}

/**
 * The attribute set of each answer, exactly (as the API lists them): create answers name, description and can-update;
 * update and list add the counts and all three permissions; show adds auto-destroy-activity-duration.
 */
const ATTRIBUTE_SETS = {
    create: { attributes: ["description", "name", "permissions"], permissions: ["can-update"] },
    full: {
        attributes: ["description", "name", "permissions", "team-count", "workspace-count"],
        permissions: ["can-create-workspace", "can-destroy", "can-update"],
    },
    show: {
        attributes: ["auto-destroy-activity-duration", "description", "name", "permissions", "team-count", "workspace-count"],
        permissions: ["can-create-workspace", "can-destroy", "can-update"],
    },
};

function expectAttributeSet(data: any, view: keyof typeof ATTRIBUTE_SETS): void {
    expect(Object.keys(data.attributes).sort()).toEqual(ATTRIBUTE_SETS[view].attributes);
    expect(Object.keys(data.attributes.permissions).sort()).toEqual(ATTRIBUTE_SETS[view].permissions);
}

let server: TestServer;
let owners: Client;

withSeededServer((started) => ({ server, owners } = started));

describe("POST /organizations/:organization/projects", () => {
    test("creates a project: 201 with prj- id, name, description, can-update, organization, tag-binding links and self link", async () => {
        const response = await owners.post(
            "/organizations/acme/projects",
            projectDocument({ name: "Created One", description: "made by a test" }),
        );
        expectStatus(response, 201);
        expectProjectCore(response.body.data, "Created One");
        expectAttributeSet(response.body.data, "create");
        expect(response.body.data.attributes.description).toBe("made by a test");
        expect(response.body.data.attributes.permissions["can-update"]).toBe(true);
        expect(response.headers["content-type"]).toMatch(/json/);

        const show = await owners.get(`/projects/${response.body.data.id}`);
        expectStatus(show, 200);
        expect(show.body.data.attributes.name).toBe("Created One");
        expect(show.body.data.attributes.description).toBe("made by a test");
    });

    test("stores auto-destroy-activity-duration given at creation, returned by show", async () => {
        const id = await createProject(server, { name: "With Duration", "auto-destroy-activity-duration": "14d" });
        const show = await owners.get(`/projects/${id}`);
        expectStatus(show, 200);
        expect(show.body.data.attributes["auto-destroy-activity-duration"]).toBe("14d");
    });

    test("a project created without a description reads back with no description", async () => {
        const id = await createProject(server, { name: "No Description" });
        const show = await owners.get(`/projects/${id}`);
        expect(show.body.data.attributes.description ?? null).toBeNull();
        expect(show.body.data.attributes["auto-destroy-activity-duration"] ?? null).toBeNull();
    });

    test("a new project has no workspaces", async () => {
        const id = await createProject(server, { name: "Counted" });
        const show = await owners.get(`/projects/${id}`);
        expect(show.body.data.attributes["workspace-count"]).toBe(0);
    });

    test("answers 404 for an organization that does not exist, and writes nothing", async () => {
        const before = await snapshot(server);
        const response = await owners.post("/organizations/nowhere/projects", projectDocument({ name: "Lost" }));
        expectErrors(response, 404);
        await expectUnchanged(server, before);
    });

    test("answers 404 when creating in another organization (acme owners on globex), and writes nothing", async () => {
        const before = await snapshot(server);
        const response = await owners.post("/organizations/globex/projects", projectDocument({ name: "Intruder" }));
        expectErrors(response, 404);
        await expectUnchanged(server, before);
    });

    describe("name rule: 3 to 40 characters; letters, numbers, spaces, '-', '_'; no leading or trailing space", () => {
        test.each([
            ["three characters", "abc"],
            ["forty characters", "n".repeat(40)],
            ["letters, digits, spaces, dashes and underscores", "Team 9 - web_app"],
        ])("accepts %s", async (_label, name) => {
            const response = await owners.post("/organizations/acme/projects", projectDocument({ name }));
            expectStatus(response, 201);
            expect(response.body.data.attributes.name).toBe(name);
        });

        test.each([
            ["two characters", "ab"],
            ["41 characters", "n".repeat(41)],
            ["an empty string", ""],
            ["a leading space", " Leading"],
            ["a trailing space", "Trailing "],
            ["a slash", "bad/name"],
            ["a dot", "bad.name"],
            ["a tab", "tab\tname"],
            ["an exclamation mark", "wow!"],
            ["a number instead of a string", 12345],
            ["null", null],
        ])("refuses %s with 422 at /data/attributes/name, and writes nothing", async (_label, name) => {
            const before = await snapshot(server);
            const response = await owners.post("/organizations/acme/projects", projectDocument({ name }));
            expectValidation(response, "/data/attributes/name");
            await expectUnchanged(server, before);
        });

        test("refuses a missing name with 422 at /data/attributes/name", async () => {
            const before = await snapshot(server);
            const response = await owners.post("/organizations/acme/projects", projectDocument({ description: "x" }));
            expectValidation(response, "/data/attributes/name");
            await expectUnchanged(server, before);
        });
    });

    describe("names are unique per organization, case-insensitive", () => {
        test("refuses a name that differs from an existing project only in case: 422 'Name has already been taken'", async () => {
            const before = await snapshot(server);
            const response = await owners.post("/organizations/acme/projects", projectDocument({ name: "aPPs" }));
            const errors = expectValidation(response, "/data/attributes/name");
            expect(errors.map((error: any) => error.detail).join(" ")).toMatch(/has already been taken/i);
            await expectUnchanged(server, before);
        });

        test("refuses the exact name of an existing project", async () => {
            const before = await snapshot(server);
            const response = await owners.post("/organizations/acme/projects", projectDocument({ name: "Staging" }));
            expectValidation(response, "/data/attributes/name");
            await expectUnchanged(server, before);
        });

        test("allows a name that another organization already uses", async () => {
            const response = await owners.post("/organizations/acme/projects", projectDocument({ name: "Globex Apps" }));
            expectStatus(response, 201);
        });
    });

    describe("description rule: at most 256 characters", () => {
        test("accepts 256 characters", async () => {
            const response = await owners.post(
                "/organizations/acme/projects",
                projectDocument({ name: "Long Description", description: "d".repeat(256) }),
            );
            expectStatus(response, 201);
            expect(response.body.data.attributes.description).toBe("d".repeat(256));
        });

        test.each([
            ["257 characters", "d".repeat(257)],
            ["a number", 42],
            ["a list", ["a"]],
        ])("refuses %s with 422 at /data/attributes/description, and writes nothing", async (_label, description) => {
            const before = await snapshot(server);
            const response = await owners.post(
                "/organizations/acme/projects",
                projectDocument({ name: "Bad Description", description }),
            );
            expectValidation(response, "/data/attributes/description");
            await expectUnchanged(server, before);
        });
    });

    describe("auto-destroy-activity-duration rule: ^\\d{1,4}[dh]$ with a value over 0", () => {
        test.each(["1d", "1h", "14d", "12h", "9999d", "9999h"])("accepts %j", async (duration) => {
            const response = await owners.post(
                "/organizations/acme/projects",
                projectDocument({ name: `Duration ${duration}`, "auto-destroy-activity-duration": duration }),
            );
            expectStatus(response, 201);
            const show = await owners.get(`/projects/${response.body.data.id}`);
            expect(show.body.data.attributes["auto-destroy-activity-duration"]).toBe(duration);
        });

        test.each([
            ["zero days", "0d"],
            ["zero hours in four digits", "0000h"],
            ["five digits", "10000d"],
            ["no unit", "14"],
            ["no number", "d"],
            ["minutes", "14m"],
            ["an upper-case unit", "14D"],
            ["a negative number", "-1d"],
            ["a fraction", "1.5d"],
            ["a leading space", " 14d"],
            ["a trailing space", "14d "],
            ["a number instead of a string", 14],
        ])("refuses %s with 422 at /data/attributes/auto-destroy-activity-duration, and writes nothing", async (_label, duration) => {
            const before = await snapshot(server);
            const response = await owners.post(
                "/organizations/acme/projects",
                projectDocument({ name: "Bad Duration", "auto-destroy-activity-duration": duration }),
            );
            expectValidation(response, "/data/attributes/auto-destroy-activity-duration");
            await expectUnchanged(server, before);
        });
    });

    test("answers one error object per problem, each with its own pointer", async () => {
        const before = await snapshot(server);
        const response = await owners.post(
            "/organizations/acme/projects",
            projectDocument({ name: "x", description: "d".repeat(300), "auto-destroy-activity-duration": "0d" }),
        );
        const errors = expectValidation(
            response,
            "/data/attributes/name",
            "/data/attributes/description",
            "/data/attributes/auto-destroy-activity-duration",
        );
        expect(errors).toHaveLength(3);
        await expectUnchanged(server, before);
    });
});

describe("GET /projects/:id", () => {
    test("shows the update attribute set plus auto-destroy-activity-duration, with the seeded workspace count", async () => {
        const ids = await acmeProjectIds(server);
        const response = await owners.get(`/projects/${ids.Apps}`);
        expectStatus(response, 200);
        expectProjectFull(response.body.data, "Apps");
        expectAttributeSet(response.body.data, "show");
        expect(response.body.data.id).toBe(ids.Apps);
        expect(response.body.data.attributes).toHaveProperty("auto-destroy-activity-duration");
        expect(response.body.data.attributes["workspace-count"]).toBe(2);
        expect(response.body.data.attributes.permissions).toEqual(
            expect.objectContaining({ "can-update": true, "can-destroy": true, "can-create-workspace": true }),
        );
    });

    test("team-count is the number of teams given access to the project; workspace-count its workspaces", async () => {
        // Seed: apps-read, -write, -maintain and -admin on Apps; apps-maintain on Staging; apps-admin on Default Project.
        const ids = await acmeProjectIds(server);
        const counts: Record<string, [number, number]> = {};
        for (const name of ["Default Project", "Apps", "Staging", "Empty"] as const) {
            const show = await owners.get(`/projects/${ids[name]}`);
            counts[name] = [show.body.data.attributes["team-count"], show.body.data.attributes["workspace-count"]];
        }
        expect(counts).toEqual({ "Default Project": [1, 1], Apps: [4, 2], Staging: [1, 1], Empty: [0, 0] });
        // The list answers the same counts, for each of the four (other tests of the file add projects).
        const list = await owners.get("/organizations/acme/projects?page%5Bsize%5D=100");
        expectStatus(list, 200);
        const listed: Record<string, [number, number]> = {};
        for (const project of list.body.data.filter((item: any) => item.attributes.name in counts)) {
            listed[project.attributes.name] = [project.attributes["team-count"], project.attributes["workspace-count"]];
        }
        expect(listed).toEqual({ "Default Project": [1, 1], Apps: [4, 2], Staging: [1, 1], Empty: [0, 0] });
    });

    test("answers 404 for an id that does not exist", async () => {
        expectErrors(await owners.get("/projects/prj-doesnotexist0000"), 404);
    });

    test("answers 404 for a project of another organization", async () => {
        const globexProject = await projectId(server, "Globex Apps", "globex");
        expectErrors(await owners.get(`/projects/${globexProject}`), 404);
    });
});

describe("PATCH /projects/:id", () => {
    test("answers 200 with name, description, workspace-count, team-count, all three permissions, relationships and links", async () => {
        const id = await createProject(server, { name: "Patch Shape", description: "before" });
        const response = await owners.patch(`/projects/${id}`, projectDocument({ name: "Patch Shape Renamed" }));
        expectStatus(response, 200);
        expectProjectFull(response.body.data, "Patch Shape Renamed");
        expectAttributeSet(response.body.data, "full");
        expect(response.body.data.id).toBe(id);
    });

    test("changes only the attributes given; omitted ones keep their value", async () => {
        const id = await createProject(server, {
            name: "Partial",
            description: "keep me",
            "auto-destroy-activity-duration": "3d",
        });
        const response = await owners.patch(`/projects/${id}`, projectDocument({ name: "Partial Renamed" }));
        expectStatus(response, 200);
        expect(response.body.data.attributes.description).toBe("keep me");
        const show = await owners.get(`/projects/${id}`);
        expect(show.body.data.attributes).toEqual(
            expect.objectContaining({
                name: "Partial Renamed",
                description: "keep me",
                "auto-destroy-activity-duration": "3d",
            }),
        );
    });

    test("a body with no attributes at all changes nothing and answers 200", async () => {
        const id = await createProject(server, { name: "Untouched", description: "same" });
        const response = await owners.patch(`/projects/${id}`, { data: { type: "projects" } });
        expectStatus(response, 200);
        const show = await owners.get(`/projects/${id}`);
        expect(show.body.data.attributes.name).toBe("Untouched");
        expect(show.body.data.attributes.description).toBe("same");
    });

    test("description null clears the description", async () => {
        const id = await createProject(server, { name: "Clear Description", description: "gone soon" });
        expectStatus(await owners.patch(`/projects/${id}`, projectDocument({ description: null })), 200);
        const show = await owners.get(`/projects/${id}`);
        expect(show.body.data.attributes.description ?? null).toBeNull();
    });

    test("changes auto-destroy-activity-duration, and null clears it", async () => {
        const id = await createProject(server, { name: "Duration Patch", "auto-destroy-activity-duration": "14d" });
        expectStatus(
            await owners.patch(`/projects/${id}`, projectDocument({ "auto-destroy-activity-duration": "48h" })),
            200,
        );
        expect((await owners.get(`/projects/${id}`)).body.data.attributes["auto-destroy-activity-duration"]).toBe("48h");
        expectStatus(await owners.patch(`/projects/${id}`, projectDocument({ "auto-destroy-activity-duration": null })), 200);
        const show = await owners.get(`/projects/${id}`);
        expect(show.body.data.attributes["auto-destroy-activity-duration"] ?? null).toBeNull();
    });

    test("renaming a project to its own name in another case is allowed (it does not clash with itself)", async () => {
        const id = await createProject(server, { name: "Case Change" });
        const response = await owners.patch(`/projects/${id}`, projectDocument({ name: "CASE change" }));
        expectStatus(response, 200);
        expect(response.body.data.attributes.name).toBe("CASE change");
    });

    test("refuses renaming to another project's name in another case: 422 at /data/attributes/name, nothing written", async () => {
        const id = await createProject(server, { name: "Would Clash" });
        const before = await snapshot(server);
        const response = await owners.patch(`/projects/${id}`, projectDocument({ name: "STAGING" }));
        const errors = expectValidation(response, "/data/attributes/name");
        expect(errors.map((error: any) => error.detail).join(" ")).toMatch(/has already been taken/i);
        await expectUnchanged(server, before);
    });

    test.each([
        ["a name of two characters", { name: "ab" }, "/data/attributes/name"],
        ["a name with a trailing space", { name: "Apps2 " }, "/data/attributes/name"],
        ["a name with a bad character", { name: "a*b*c" }, "/data/attributes/name"],
        ["a null name", { name: null }, "/data/attributes/name"],
        ["a description of 257 characters", { description: "d".repeat(257) }, "/data/attributes/description"],
        ["a duration of zero", { "auto-destroy-activity-duration": "0h" }, "/data/attributes/auto-destroy-activity-duration"],
        ["a duration in weeks", { "auto-destroy-activity-duration": "2w" }, "/data/attributes/auto-destroy-activity-duration"],
    ])("refuses %s with 422 at its pointer, and writes nothing (not even the valid attributes beside it)", async (_label, attributes, pointer) => {
        const ids = await acmeProjectIds(server);
        const before = await snapshot(server);
        const response = await owners.patch(
            `/projects/${ids.Empty}`,
            projectDocument({ description: "valid but must not be written", ...attributes }),
        );
        expectValidation(response, pointer);
        await expectUnchanged(server, before);
    });

    test("answers 404 for an id that does not exist", async () => {
        expectErrors(await owners.patch("/projects/prj-doesnotexist0000", projectDocument({ description: "x" })), 404);
    });

    test("answers 404 for a project of another organization, and writes nothing", async () => {
        const globexProject = await projectId(server, "Globex Apps", "globex");
        const before = await snapshot(server);
        expectErrors(await owners.patch(`/projects/${globexProject}`, projectDocument({ description: "x" })), 404);
        await expectUnchanged(server, before);
    });
});

describe("DELETE /projects/:id", () => {
    let local: TestServer;
    let localOwners: Client;

    // Deletes and moves change the seeded projects: a server of its own.
    withSeededServer((started) => ({ server: local, owners: localOwners } = started));

    test("deletes an empty project: 204 with no body, then show is 404 and the list no longer has it", async () => {
        const id = await createProject(local, { name: "Short Lived" });
        const response = await localOwners.delete(`/projects/${id}`);
        expectStatus(response, 204);
        expect(response.text).toBe("");
        expectErrors(await localOwners.get(`/projects/${id}`), 404);
        const list = await localOwners.get("/organizations/acme/projects?page%5Bsize%5D=100");
        expect(list.body.data.map((project: any) => project.id)).not.toContain(id);
    });

    test("deleting the same project twice answers 404 the second time", async () => {
        const id = await createProject(local, { name: "Deleted Twice" });
        expectStatus(await localOwners.delete(`/projects/${id}`), 204);
        expectErrors(await localOwners.delete(`/projects/${id}`), 404);
    });

    test("answers 409 for a project that has workspaces, and deletes nothing", async () => {
        const ids = await acmeProjectIds(local);
        const before = await snapshot(local);
        expectErrors(await localOwners.delete(`/projects/${ids.Apps}`), 409);
        await expectUnchanged(local, before);
    });

    test("answers 409 for the Default Project even once it has no workspaces, and deletes nothing", async () => {
        const ids = await acmeProjectIds(local);
        expectStatus(
            await localOwners.post(`/projects/${ids.Empty}/relationships/workspaces`, moveDocument([WORKSPACES.defaultProject])),
            204,
        );
        expect((await localOwners.get(`/projects/${ids["Default Project"]}`)).body.data.attributes["workspace-count"]).toBe(0);
        const before = await snapshot(local);
        expectErrors(await localOwners.delete(`/projects/${ids["Default Project"]}`), 409);
        await expectUnchanged(local, before);
    });

    test("a project emptied by moving its workspaces out can then be deleted", async () => {
        const ids = await acmeProjectIds(local);
        expectStatus(
            await localOwners.post(`/projects/${ids.Apps}/relationships/workspaces`, moveDocument([WORKSPACES.staging])),
            204,
        );
        expect(await projectOf(local, WORKSPACES.staging)).toBe(ids.Apps);
        expectStatus(await localOwners.delete(`/projects/${ids.Staging}`), 204);
        expectErrors(await localOwners.get(`/projects/${ids.Staging}`), 404);
        // The moved workspace survived the delete of its former project.
        expect(await projectOf(local, WORKSPACES.staging)).toBe(ids.Apps);
    });


    test("answers 404 for an id that does not exist", async () => {
        expectErrors(await localOwners.delete("/projects/prj-doesnotexist0000"), 404);
    });

    test("answers 404 (not 403) for a project of another organization, and deletes nothing", async () => {
        const globexProject = await projectId(local, "Globex Apps", "globex");
        const before = await snapshot(local);
        expectErrors(await localOwners.delete(`/projects/${globexProject}`), 404);
        await expectUnchanged(local, before);
    });
});
