/**
 * The `wos:Project` handlers called directly, as the provider host calls them, against the real local
 * service.
 */
import * as project from "../../provider/handlers/project";
import { WORKSPACES } from "../support/seed";
import {
    configureUnreachable,
    projectCount,
    projectsNamed,
    projectTags,
    rejection,
    TOKEN,
    UNKNOWN,
    uniqueName,
    useServer,
    checkFailures,
    checkedInputs,
} from "./helpers";

const server = useServer();

/** Inputs after `check`, as the host hands them to `create`. */
const checked = (news: Record<string, unknown>) => checkedInputs(project, news);

/** The failures `check` reports for `news`, as `property: reason` lines. */
const failuresOf = (news: Record<string, unknown>) => checkFailures(project, news);

const valid = { organization: "acme", name: "Valid Name" };

describe("check", () => {
    it.each([
        ["a missing organization", { name: "Apps Two" }, "organization", /required/],
        ["a missing name", { organization: "acme" }, "name", /required/],
        ["a blank organization", { ...valid, organization: "  " }, "organization", /must not be empty/],
        ["a name under 3 characters", { ...valid, name: "ab" }, "name", /at least 3 characters/],
        ["a name over 40 characters", { ...valid, name: "a".repeat(41) }, "name", /at most 40 characters/],
        ["a name with a bad character", { ...valid, name: "apps/prod" }, "name", /only letters, numbers, spaces/],
        ["a name with a leading space", { ...valid, name: " Apps" }, "name", /must not start or end with a space/],
        ["a description over 256 characters", { ...valid, description: "d".repeat(257) }, "description", /at most 256/],
        ["a duration without unit", { ...valid, autoDestroyActivityDuration: "14" }, "autoDestroyActivityDuration", /'d' or 'h'/],
        ["a duration of zero", { ...valid, autoDestroyActivityDuration: "0d" }, "autoDestroyActivityDuration", /greater than 0/],
        ["a duration of five digits", { ...valid, autoDestroyActivityDuration: "10000h" }, "autoDestroyActivityDuration", /four digits/],
        ["a tag key with a bad character", { ...valid, tags: { "team name": "x" } }, "tags", /tag key 'team name' may contain only/],
        ["a tag value with a bad character", { ...valid, tags: { team: "a b" } }, "tags", /value of tag 'team' may contain only/],
        ["a tag key over 128 characters", { ...valid, tags: { ["k".repeat(129)]: "x" } }, "tags", /at most 128 characters/],
        ["a tag value over 256 characters", { ...valid, tags: { team: "v".repeat(257) } }, "tags", /at most 256 characters/],
        ["a reserved tag key prefix", { ...valid, tags: { "hc:owner": "x" } }, "tags", /reserved prefix/],
        ["a reserved prefix in upper case", { ...valid, tags: { "HCP:owner": "x" } }, "tags", /reserved prefix/],
        ["an empty tag key", { ...valid, tags: { "": "x" } }, "tags", /must not be empty/],
        [
            "more than ten tags",
            { ...valid, tags: Object.fromEntries(Array.from({ length: 11 }, (_, i) => [`k${i}`, "v"])) },
            "tags",
            /at most 10 tags; 11 were given/,
        ],
        ["tags that are not a map", { ...valid, tags: ["team"] }, "tags", /map of tag keys/],
        ["a name that is not a string", { ...valid, name: 42 }, "name", /must be a string/],
    ])("rejects %s, naming the property and the rule", async (_what, news, property, reason) => {
        const failures = await failuresOf(news);
        expect(failures.length).toBeGreaterThan(0);
        expect(failures).toContainEqual({ property, reason: expect.stringMatching(reason) });
        expect(failures.every((failure) => failure.reason.startsWith(failure.property))).toBe(true);
    });

    it("reports every broken rule at once", async () => {
        const failures = await failuresOf({ organization: "acme", name: "x", autoDestroyActivityDuration: "soon" });
        expect(failures.map((failure) => failure.property).sort()).toEqual(["autoDestroyActivityDuration", "name"]);
    });

    it("accepts valid inputs and returns them unchanged", async () => {
        const news = {
            organization: "acme",
            name: "Apps_2-b",
            description: "d".repeat(256),
            autoDestroyActivityDuration: "9999h",
            tags: { "team.name": "plat_form", "a=b+c-d@e:f": "", ...Object.fromEntries(Array.from({ length: 8 }, (_, i) => [`k${i}`, "v"])) },
            __provider: "serialized",
        };
        const result = await project.check({}, news);
        expect(result.failures).toEqual([]);
        expect(result.inputs).toEqual(news);
    });

    it("lets unknown values pass during preview", async () => {
        const failures = await failuresOf({
            organization: UNKNOWN,
            name: UNKNOWN,
            description: UNKNOWN,
            autoDestroyActivityDuration: UNKNOWN,
            tags: { team: UNKNOWN },
        });
        expect(failures).toEqual([]);
        expect(await failuresOf({ organization: "acme", name: "Apps Three", tags: UNKNOWN })).toEqual([]);
    });

    it("sends no request, even for invalid inputs: an unreachable address does not matter and nothing is written", async () => {
        const before = await projectCount(server());
        await configureUnreachable();
        const failures = await failuresOf({ organization: "acme", name: "x" });
        expect(failures).toHaveLength(1);
        await checked({ organization: "acme", name: "Never Created" });
        expect(await projectCount(server())).toBe(before);
        expect(await projectsNamed(server(), "Never Created")).toEqual([]);
    });
});

describe("diff", () => {
    const state = {
        organization: "acme",
        name: "Apps",
        description: "Customer apps",
        autoDestroyActivityDuration: "14d",
        tags: { team: "platform", env: "prod" },
        __provider: "serialized",
    };

    beforeEach(async () => {
        // diff must not send requests: any request to this address would fail the call.
        await configureUnreachable();
    });

    it("reports no change for identical inputs, tags in any order", async () => {
        const news = { ...state, tags: { env: "prod", team: "platform" } };
        expect(await project.diff("prj-1", state, news)).toEqual({ changes: false, replaces: [], deleteBeforeReplace: false });
    });

    it("reports no change when an absent description meets an empty state and tags are not managed", async () => {
        const olds = { organization: "acme", name: "Apps", __provider: "x" };
        const result = await project.diff("prj-1", olds, { organization: "acme", name: "Apps", description: "" });
        expect(result.changes).toBe(false);
    });

    it("leaves tags alone when the program stops managing them", async () => {
        const { tags: _tags, ...news } = state;
        expect((await project.diff("prj-1", state, news)).changes).toBe(false);
    });

    it.each([
        ["name", { name: "Apps Renamed" }],
        ["name in another case", { name: "APPS" }],
        ["description", { description: "Other" }],
        ["description removed", { description: undefined }],
        ["autoDestroyActivityDuration", { autoDestroyActivityDuration: "12h" }],
        ["autoDestroyActivityDuration removed", { autoDestroyActivityDuration: undefined }],
        ["tags value", { tags: { team: "platform", env: "dev" } }],
        ["tags key removed", { tags: { team: "platform" } }],
        ["tags key added", { tags: { team: "platform", env: "prod", cost: "1" } }],
        ["a name not known yet", { name: UNKNOWN }],
    ])("changes %s in place", async (_what, change) => {
        const result = await project.diff("prj-1", state, { ...state, ...change });
        expect(result).toEqual({ changes: true, replaces: [], deleteBeforeReplace: false });
    });

    it("reports tags as a change when the program starts managing them", async () => {
        const { tags: _tags, ...olds } = state;
        expect((await project.diff("prj-1", olds, state)).changes).toBe(true);
    });

    it("replaces the project when the organization changes, creating the new one first", async () => {
        const result = await project.diff("prj-1", state, { ...state, organization: "globex" });
        expect(result).toEqual({ changes: true, replaces: ["organization"], deleteBeforeReplace: false });
    });

    it("deletes first when an unknown organization may turn out to be the same one (names are unique per organization)", async () => {
        const result = await project.diff("prj-1", state, { ...state, organization: UNKNOWN });
        expect(result).toEqual({ changes: true, replaces: ["organization"], deleteBeforeReplace: true });
    });
});

describe("create, read, update, delete", () => {
    it("creates a project with its settings and tags and returns plain JSON outputs", async () => {
        const name = uniqueName("Created");
        const inputs = await checked({
            organization: "acme",
            name,
            description: "made by the provider",
            autoDestroyActivityDuration: "14d",
            tags: { team: "platform", env: "prod" },
        });
        const result = await project.create(inputs);
        expect(result.id).toMatch(/^prj-/);
        expect(result.outs).toEqual({
            organization: "acme",
            name,
            description: "made by the provider",
            autoDestroyActivityDuration: "14d",
            tags: { team: "platform", env: "prod" },
        });
        expect(JSON.parse(JSON.stringify(result.outs))).toEqual(result.outs);

        const shown = await server().request("GET", `/projects/${result.id}`, { token: TOKEN });
        expect(shown.body.data.attributes).toMatchObject({
            name,
            description: "made by the provider",
            "auto-destroy-activity-duration": "14d",
        });
        expect(await projectTags(server(), result.id)).toEqual({ team: "platform", env: "prod" });

        // A second `up` of the same program: the state compared with the same inputs shows nothing.
        expect((await project.diff(result.id, { ...result.outs, __provider: "x" }, inputs)).changes).toBe(false);
        // And a refresh right after reads back the same outputs.
        const read = await project.read(result.id, result.outs);
        expect(read).toEqual({ id: result.id, props: result.outs, inputs: result.outs });
    });

    it("creates a minimal project whose outputs compare equal to its inputs", async () => {
        const inputs = await checked({ organization: "acme", name: uniqueName("Minimal") });
        const result = await project.create(inputs);
        expect(result.outs).toEqual({ organization: "acme", name: inputs.name });
        expect((await project.diff(result.id, result.outs, inputs)).changes).toBe(false);
        const read = await project.read(result.id, result.outs);
        expect(read.props).toEqual(result.outs);
    });

    it("reports a refusal (a name already taken) with the service's message and creates nothing", async () => {
        const before = await projectCount(server());
        const error = await rejection(project.create(await checked({ organization: "acme", name: "apps" })));
        expect(error.message).toMatch(/wos:Project 'apps' in organization 'acme'/);
        expect(error.message).toMatch(/create failed/);
        expect(error.message).toMatch(/already been taken/);
        // Which project holds the name, and what to do if a killed `pulumi up` of this stack made it.
        expect(error.message).toMatch(
            /; project (prj-\w+) holds that name\. If an interrupted `pulumi up` of this stack made it \(the update warns of a pending create\), clear the pending create with `pulumi refresh --clear-pending-creates`, then delete \1 or choose another name; otherwise choose another name$/,
        );
        expect(error.message).not.toContain(TOKEN);
        expect(await projectCount(server())).toBe(before);
    });

    it("reads drift: changes made outside Pulumi show in the outputs and in the inputs", async () => {
        const created = await project.create(
            await checked({ organization: "acme", name: uniqueName("Drift"), description: "before", tags: { team: "a" } }),
        );
        const patched = await server().request("PATCH", `/projects/${created.id}`, {
            token: TOKEN,
            body: {
                data: {
                    type: "projects",
                    attributes: { name: "Drifted Name", description: "after", "auto-destroy-activity-duration": "3h" },
                    relationships: { "tag-bindings": { data: [{ type: "tag-bindings", attributes: { key: "team", value: "b" } }] } },
                },
            },
        });
        expect(patched.status).toBe(200);
        const read = await project.read(created.id, created.outs);
        const expected = {
            organization: "acme",
            name: "Drifted Name",
            description: "after",
            autoDestroyActivityDuration: "3h",
            tags: { team: "b" },
        };
        expect(read).toEqual({ id: created.id, props: expected, inputs: expected });
        // The next `up` puts the program's values back.
        expect((await project.diff(created.id, read.props, created.outs)).changes).toBe(true);
    });

    it("does not read tags it does not manage", async () => {
        const created = await project.create(await checked({ organization: "acme", name: uniqueName("Unmanaged") }));
        await server().request("PATCH", `/projects/${created.id}/tag-bindings`, {
            token: TOKEN,
            body: { data: [{ type: "tag-bindings", attributes: { key: "team", value: "x" } }] },
        });
        const read = await project.read(created.id, created.outs);
        expect(read.props).toEqual({ organization: "acme", name: created.outs.name });
    });

    it("reads a project by its id alone (a get or an import): organization, settings and every tag", async () => {
        const created = await project.create(
            await checked({ organization: "acme", name: uniqueName("Imported"), description: "d", autoDestroyActivityDuration: "2h" }),
        );
        await server().request("PATCH", `/projects/${created.id}/tag-bindings`, {
            token: TOKEN,
            body: { data: [{ type: "tag-bindings", attributes: { key: "team", value: "x" } }] },
        });
        const read = await project.read(created.id, {});
        const expected = { organization: "acme", name: created.outs.name, description: "d", autoDestroyActivityDuration: "2h", tags: { team: "x" } };
        expect(read).toEqual({ id: created.id, props: expected, inputs: expected });
        // A program that declares the same project sees no change.
        expect((await project.diff(created.id, read.props!, await checked({ ...expected }))).changes).toBe(false);
    });

    it("reads a project deleted outside Pulumi as gone (no id)", async () => {
        const created = await project.create(await checked({ organization: "acme", name: uniqueName("Gone") }));
        expect((await server().request("DELETE", `/projects/${created.id}`, { token: TOKEN })).status).toBe(204);
        const read = await project.read(created.id, created.outs);
        expect(read.id).toBeUndefined();
    });

    it("updates name, description, duration and the whole tag set in place", async () => {
        const inputs = await checked({
            organization: "acme",
            name: uniqueName("Before"),
            description: "one",
            autoDestroyActivityDuration: "1d",
            tags: { team: "a", env: "prod" },
        });
        const created = await project.create(inputs);
        const news = await checked({
            organization: "acme",
            name: uniqueName("After"),
            autoDestroyActivityDuration: "48h",
            tags: { team: "b", cost: "12" },
        });
        const updated = await project.update(created.id, created.outs, news);
        expect(updated.outs).toEqual({
            organization: "acme",
            name: news.name,
            autoDestroyActivityDuration: "48h",
            tags: { team: "b", cost: "12" },
        });
        const shown = await server().request("GET", `/projects/${created.id}`, { token: TOKEN });
        expect(shown.body.data.attributes).toMatchObject({
            name: news.name,
            description: null,
            "auto-destroy-activity-duration": "48h",
        });
        expect(await projectTags(server(), created.id)).toEqual({ team: "b", cost: "12" });
        expect((await project.diff(created.id, updated.outs!, news)).changes).toBe(false);
    });

    it("sends only what changed: a rename keeps a description, duration and tags changed by hand", async () => {
        const inputs = await checked({
            organization: "acme",
            name: uniqueName("Keep"),
            description: "from the program",
            autoDestroyActivityDuration: "2d",
            tags: { team: "a" },
        });
        const created = await project.create(inputs);
        // Someone changes the description and the duration by hand; the program then changes only the name.
        const byHand = await server().request("PATCH", `/projects/${created.id}`, {
            token: TOKEN,
            body: { data: { type: "projects", attributes: { description: "changed by hand", "auto-destroy-activity-duration": "9h" } } },
        });
        expect(byHand.status).toBe(200);
        const tagged = await server().request("PATCH", `/projects/${created.id}/tag-bindings`, {
            token: TOKEN,
            body: { data: [{ type: "tag-bindings", attributes: { key: "extra", value: "by-hand" } }] },
        });
        expect(tagged.status).toBe(200);
        const news = { ...inputs, name: uniqueName("Renamed") };
        expect((await project.diff(created.id, created.outs, news)).changes).toBe(true);
        await project.update(created.id, created.outs, news);
        const shown = await server().request("GET", `/projects/${created.id}`, { token: TOKEN });
        expect(shown.body.data.attributes).toMatchObject({
            name: news.name,
            description: "changed by hand",
            "auto-destroy-activity-duration": "9h",
        });
        expect(await projectTags(server(), created.id)).toEqual({ team: "a", extra: "by-hand" });
    });

    it("reports an update the service refuses with its message, naming the project", async () => {
        const created = await project.create(await checked({ organization: "acme", name: uniqueName("Clash") }));
        const error = await rejection(project.update(created.id, created.outs, { ...created.outs, name: "Staging" }));
        expect(error.message).toMatch(new RegExp(`wos:Project 'Staging' \\(${created.id}\\)`));
        expect(error.message).toMatch(/update failed.*already been taken/);
    });

    it("deletes a project, and deleting it again succeeds", async () => {
        const created = await project.create(await checked({ organization: "acme", name: uniqueName("Deleted") }));
        await project.delete(created.id, created.outs);
        expect((await server().request("GET", `/projects/${created.id}`, { token: TOKEN })).status).toBe(404);
        await expect(project.delete(created.id, created.outs)).resolves.toBeUndefined();
    });

    it("refuses to delete a project that has workspaces, with the service's message, and deletes nothing", async () => {
        const created = await project.create(await checked({ organization: "acme", name: uniqueName("Busy") }));
        const moved = await server().request("POST", `/projects/${created.id}/relationships/workspaces`, {
            token: TOKEN,
            body: { data: [{ type: "workspaces", id: WORKSPACES.staging }] },
        });
        expect(moved.status).toBe(204);
        try {
            const error = await rejection(project.delete(created.id, created.outs));
            expect(error.message).toMatch(new RegExp(`wos:Project '${created.outs.name}' \\(${created.id}\\).*delete failed`));
            expect(error.message).toMatch(/409/);
            expect(error.message).toMatch(/workspace/i);
            expect((await server().request("GET", `/projects/${created.id}`, { token: TOKEN })).status).toBe(200);
        } finally {
            const staging = await projectsNamed(server(), "Staging");
            await server().request("POST", `/projects/${staging[0].id}/relationships/workspaces`, {
                token: TOKEN,
                body: { data: [{ type: "workspaces", id: WORKSPACES.staging }] },
            });
        }
    });
});

describe("a create whose answer is lost", () => {
    it.each([
        ["a 503 after the commit", { status: 503 }],
        ["a dropped connection after the commit", { reset: true }],
    ])("recovers the project the service made on %s: same id, exactly one project, tags applied", async (_what, fault) => {
        const name = uniqueName("Lost");
        await server().addFault({
            method: "POST",
            path: "^/api/v2/organizations/acme/projects$",
            times: 1,
            afterCommit: true,
            ...fault,
        });
        const result = await project.create(
            await checked({ organization: "acme", name, description: "kept", tags: { team: "platform" } }),
        );
        const found = await projectsNamed(server(), name);
        expect(found).toHaveLength(1);
        expect(result.id).toBe(found[0].id);
        expect(result.outs).toEqual({ organization: "acme", name, description: "kept", tags: { team: "platform" } });
        expect(await projectTags(server(), result.id)).toEqual({ team: "platform" });
    });

    it.each([
        ["a 503 before the commit", { status: 503 }],
        ["a dropped connection before the commit", { reset: true }],
    ])("never takes over a project that held the name before the create (%s): it fails and leaves that project alone", async (_what, fault) => {
        const name = uniqueName("Theirs");
        const theirs = await server().request("POST", "/organizations/acme/projects", {
            token: TOKEN,
            body: {
                data: {
                    type: "projects",
                    attributes: { name, description: "someone else's", "auto-destroy-activity-duration": "7d" },
                    relationships: { "tag-bindings": { data: [{ type: "tag-bindings", attributes: { key: "owner", value: "them" } }] } },
                },
            },
        });
        expect(theirs.status).toBe(201);
        await server().addFault({ method: "POST", path: "^/api/v2/organizations/acme/projects$", times: 1, ...fault });
        const error = await rejection(
            project.create(await checked({ organization: "acme", name, description: "mine", tags: { team: "platform" } })),
        );
        expect(error.message).toMatch(new RegExp(`wos:Project '${name}' in organization 'acme': create failed`));
        expect(error.message).toMatch(/existed before this create, so it is left alone/);
        expect((error as { id?: string }).id).toBeUndefined();
        const shown = await server().request("GET", `/projects/${theirs.body.data.id}`, { token: TOKEN });
        expect(shown.body.data.attributes).toMatchObject({ description: "someone else's", "auto-destroy-activity-duration": "7d" });
        expect(await projectTags(server(), theirs.body.data.id)).toEqual({ owner: "them" });
        expect(await projectsNamed(server(), name)).toHaveLength(1);
    });

    it("keeps a project it found but could not finish as a partial success that carries the serialized provider", async () => {
        const name = uniqueName("Half");
        await server().addFault({ method: "POST", path: "^/api/v2/organizations/acme/projects$", times: 1, status: 503, afterCommit: true });
        await server().addFault({ method: "PATCH", path: "^/api/v2/projects/prj-[^/]+$", times: 1, status: 422 });
        const inputs = await checked({ organization: "acme", name, autoDestroyActivityDuration: "3d", tags: { team: "a" }, __provider: "serialized" });
        const error = (await rejection(project.create(inputs))) as Error & { id?: string; properties?: Record<string, unknown> };
        const found = await projectsNamed(server(), name);
        expect(found).toHaveLength(1);
        expect(error.message).toMatch(/create \(finishing the project found after a lost answer\) failed/);
        expect(error.id).toBe(found[0].id);
        expect(error.properties).toEqual({ organization: "acme", name, __provider: "serialized" });
        // The next `up` compares the program with these outputs and applies what they lack.
        const next = await project.diff(found[0].id, error.properties!, inputs);
        expect(next).toEqual({ changes: true, replaces: [], deleteBeforeReplace: false });
    });

    it("fails, without inventing a project, when the service failed before committing", async () => {
        const name = uniqueName("Never");
        await server().addFault({ method: "POST", path: "^/api/v2/organizations/acme/projects$", times: 1, status: 503 });
        const error = await rejection(project.create(await checked({ organization: "acme", name })));
        expect(error.message).toMatch(/wos:Project .* create failed.*503/);
        expect(await projectsNamed(server(), name)).toEqual([]);
    });
});
