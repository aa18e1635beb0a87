/**
 * Details of the `wos:Project` handlers that the main test file leaves open: the organization rule's
 * reasons, how messages name the project, the look-up by name after a lost answer among many projects,
 * the PATCH that finishes a project found after a lost answer, and update without changes. All against the real local service over HTTP.
 */
import * as diagnosticsChannel from "node:diagnostics_channel";
import type { IncomingMessage } from "node:http";
import * as project from "../../provider/handlers/project";
import { projectsNamed, projectTags, rejection, TOKEN, UNKNOWN, uniqueName, useServer } from "./helpers";

const server = useServer();
const PROJECTS_PATH = "^/api/v2/organizations/acme/projects$";

/** Makes a project of `acme` over raw HTTP, as someone other than the provider would. */
async function rawCreate(attributes: Record<string, unknown>): Promise<string> {
    const response = await server().request("POST", "/organizations/acme/projects", {
        token: TOKEN,
        body: { data: { type: "projects", attributes } },
    });
    expect(response.status).toBe(201);
    return response.body.data.id;
}

/** The raw project resource, as `show` answers it. */
async function rawProject(id: string): Promise<any> {
    const response = await server().request("GET", `/projects/${id}`, { token: TOKEN });
    expect(response.status).toBe(200);
    return response.body.data;
}

/**
 * Runs `create` while the provider's POST is refused with a 503 (nothing written) held back a while, and makes
 * `theirs` over raw HTTP the moment that POST arrives: the look-up after the lost answer then finds it.
 */
async function createWhileSomeoneMakes(news: Record<string, unknown>, theirs: Record<string, unknown>) {
    await server().addFault({ method: "POST", path: PROJECTS_PATH, times: 1, status: 503, delayMs: 1500 });
    let made: Promise<string> | undefined;
    const onRequest = (message: unknown) => {
        const request = (message as { request: IncomingMessage }).request;
        if (!/^pulumi-wos\//.test(String(request.headers["user-agent"] ?? ""))) return;
        if (request.method === "POST" && request.url === "/api/v2/organizations/acme/projects" && made === undefined) {
            made = rawCreate(theirs);
        }
    };
    diagnosticsChannel.subscribe("http.server.request.start", onRequest);
    try {
        const created = await project.create(news);
        expect(made).toBeDefined();
        return { created, theirId: await made! };
    } finally {
        diagnosticsChannel.unsubscribe("http.server.request.start", onRequest);
    }
}

describe("check", () => {
    it("says an organization that is not a string must be a string", async () => {
        const failures = (await project.check({}, { organization: 5, name: "Some Name" })).failures ?? [];
        expect(failures).toEqual([{ property: "organization", reason: "organization must be a string" }]);
    });
});

describe("tags given as null", () => {
    it("are tags not given: check leaves them out, and the project's tags are left alone", async () => {
        const result = await project.check({}, { organization: "acme", name: "Null Tags", tags: null });
        expect(result.failures).toEqual([]);
        expect(result.inputs).toEqual({ organization: "acme", name: "Null Tags" });
        const kept = await project.check({}, { organization: "acme", name: "Some Tags", tags: { team: "a" } });
        expect(kept.inputs).toEqual({ organization: "acme", name: "Some Tags", tags: { team: "a" } });
    });

    it("create and update work with them, touching no tag", async () => {
        const name = uniqueName("Null Tags");
        const created = await project.create((await project.check({}, { organization: "acme", name, tags: null })).inputs);
        expect(created.outs).toEqual({ organization: "acme", name });
        const tagged = await server().request("PATCH", `/projects/${created.id}/tag-bindings`, {
            token: TOKEN,
            body: { data: [{ type: "tag-bindings", attributes: { key: "theirs", value: "1" } }] },
        });
        expect(tagged.status).toBe(200);
        const news = (await project.check({}, { organization: "acme", name, description: "d", tags: null })).inputs;
        expect((await project.diff(created.id, created.outs, news)).changes).toBe(true);
        const updated = await project.update(created.id, created.outs, news);
        expect(updated.outs).toEqual({ organization: "acme", name, description: "d" });
        expect(await projectTags(server(), created.id)).toEqual({ theirs: "1" });
    });
});

describe("how messages name the project", () => {
    beforeEach(async () => {
        await server().addFault({ method: "DELETE", path: "^/api/v2/projects/", times: 1, status: 403 });
    });

    it("names name, id and organization when they are known", async () => {
        const error = await rejection(project.delete("prj-named1", { organization: "acme", name: "Named" }));
        expect(error.message.startsWith("wos:Project 'Named' (prj-named1) in organization 'acme': delete failed: ")).toBe(true);
    });

    it("leaves out what is missing or not known yet", async () => {
        const unknown = await rejection(project.delete("prj-named2", { organization: UNKNOWN, name: UNKNOWN }));
        expect(unknown.message.startsWith("wos:Project (prj-named2): delete failed: ")).toBe(true);
        await server().addFault({ method: "DELETE", path: "^/api/v2/projects/", times: 1, status: 403 });
        const missing = await rejection(project.delete("prj-named3", {}));
        expect(missing.message.startsWith("wos:Project (prj-named3): delete failed: ")).toBe(true);
    });

    it("names a read that failed as a read", async () => {
        await server().clearFaults();
        await server().addFault({ method: "GET", path: "^/api/v2/projects/", times: 1, status: 403 });
        const error = await rejection(project.read("prj-named4", { organization: "acme", name: "Named" }));
        expect(error.message.startsWith("wos:Project 'Named' (prj-named4) in organization 'acme': read failed: ")).toBe(true);
    });
});

describe("diff", () => {
    it("sees an empty tag set in the program as a change when state manages no tags", async () => {
        const olds = { organization: "acme", name: "Tagless" };
        expect(await project.diff("prj-1", olds, { ...olds, tags: {} })).toEqual({ changes: true, replaces: [], deleteBeforeReplace: false });
    });
});

describe("create after a lost answer", () => {
    it("finds its project by name among more than a hundred others", async () => {
        for (let i = 0; i < 101; i += 1) await rawCreate({ name: `Filler ${String(i).padStart(3, "0")}` });
        const name = uniqueName("Zz Lost");
        await server().addFault({ method: "POST", path: PROJECTS_PATH, times: 1, status: 503, afterCommit: true });
        const created = await project.create({ organization: "acme", name });
        const raw = await projectsNamed(server(), name);
        expect(raw).toHaveLength(1);
        expect(created.id).toBe(raw[0].id);
    }, 60_000);

    it("brings a project found after a lost answer in line with the inputs: description, duration and tags", async () => {
        const name = uniqueName("Finish");
        const news = { organization: "acme", name, description: "mine", autoDestroyActivityDuration: "3d", tags: { team: "mine" } };
        const { created, theirId } = await createWhileSomeoneMakes(news, { name, description: "theirs" });
        expect(created.id).toBe(theirId);
        const raw = await rawProject(theirId);
        expect(raw.attributes.description).toBe("mine");
        expect(raw.attributes["auto-destroy-activity-duration"]).toBe("3d");
        expect(await projectTags(server(), theirId)).toEqual({ team: "mine" });
    });

    it("clears the duration of a found project when the inputs give none", async () => {
        const name = uniqueName("Finish None");
        const { created } = await createWhileSomeoneMakes(
            { organization: "acme", name },
            { name, description: "theirs", "auto-destroy-activity-duration": "5d" },
        );
        const raw = await rawProject(created.id);
        expect(raw.attributes["auto-destroy-activity-duration"]).toBeNull();
        expect(raw.attributes.description).toBeNull();
    });
});

describe("update", () => {
    it("sends no write when nothing changed, and answers the project as the service shows it", async () => {
        const name = uniqueName("Same");
        const created = await project.create({ organization: "acme", name, autoDestroyActivityDuration: "1d" });
        const patched = await server().request("PATCH", `/projects/${created.id}`, {
            token: TOKEN,
            body: { data: { type: "projects", attributes: { "auto-destroy-activity-duration": "2d" } } },
        });
        expect(patched.status).toBe(200);
        await server().addFault({ method: "PATCH", path: "^/api/v2/projects/", times: 1, status: 403 });
        const updated = await project.update(created.id, created.outs, { ...created.outs, __provider: "x" });
        // The duration is the one the service shows, not the one in the inputs.
        expect(updated.outs).toEqual({ organization: "acme", name, autoDestroyActivityDuration: "2d" });
        // The PATCH fault is still armed: no PATCH reached the service.
        const probe = await server().request("PATCH", `/projects/${created.id}`, {
            token: TOKEN,
            body: { data: { type: "projects", attributes: { description: "probe" } } },
        });
        expect(probe.status).toBe(403);
    });
});
