/**
 * `wos.Project` from the packed package, driven through `@pulumi/pulumi`'s provider host over gRPC in the
 * engine's order, against the local service. The service is inspected over raw HTTP, never through the
 * code under test.
 */
import { isSecret, ProviderCallError, UNKNOWN, type PropertyMap } from "../support/providerHost";
import { TOKENS } from "../support/seed";
import { failure, tagsOf as tagsOfProject, tokensIn, TYPES, useEngineFixture } from "./fixture";

const fx = useEngineFixture();

const urn = (name = "capture-project") => fx.host.urn(TYPES.project, name);
/** The inputs the program registered (with its `__provider`), with some replaced. */
const programInputs = (overrides: PropertyMap = {}): PropertyMap => ({
    ...fx.registration("capture-project").inputs,
    ...overrides,
});

/** The organization's project names, as the service lists them (raw HTTP, owners token). */
async function projectNames(): Promise<string[]> {
    const response = await fx.server.request("GET", "/organizations/acme/projects?page%5Bsize%5D=100", {
        token: TOKENS.owners,
    });
    expect(response.status).toBe(200);
    return (response.body.data as Array<{ attributes: { name: string } }>).map((p) => p.attributes.name).sort();
}

async function projectIdNamed(name: string): Promise<string> {
    const response = await fx.server.request("GET", `/organizations/acme/projects?filter%5Bnames%5D=${encodeURIComponent(name)}`, {
        token: TOKENS.owners,
    });
    expect(response.body.data).toHaveLength(1);
    return response.body.data[0].id as string;
}

const tagsOf = (projectId: string) => tagsOfProject(fx.server, projectId);

describe("wos:Project registration", () => {
    test("the program registers the type token pulumi-nodejs:dynamic/wos:Project", () => {
        expect(fx.registration("capture-project").type).toBe("pulumi-nodejs:dynamic/wos:Project");
        expect(urn()).toBe("urn:pulumi:test::wos-engine-test::pulumi-nodejs:dynamic/wos:Project::capture-project");
    });

    test("the serialized provider is plain text that loads the handlers by package name and holds no token", () => {
        const provider = fx.registration("capture-project").inputs.__provider;
        expect(typeof provider).toBe("string");
        expect(isSecret(provider)).toBe(false);
        expect(provider).toContain('require("pulumi-wos/dist/provider/handlers/project")');
        // The program ran with the token in its stack config and environment.
        expect(tokensIn(provider)).toEqual([]);
    });

    test("the host answers Configure with acceptSecrets=false, so the engine marks secrets itself", () => {
        expect(fx.configured.acceptSecrets).toBe(false);
        expect(fx.configured.supportsPreview).toBe(false);
    });
});

describe("wos:Project lifecycle through the provider host", () => {
    let id = "";
    let checked: PropertyMap = {};
    let state: PropertyMap = {};

    test("Check rejects invalid inputs, naming each property, before any request: the service sees no write", async () => {
        const before = await projectNames();
        const result = await fx.host.check(
            urn(),
            {},
            programInputs({
                organization: "",
                name: "x",
                description: "d".repeat(257),
                autoDestroyActivityDuration: "0d",
                tags: { "hc:owner": "me", "bad key": "v" },
            }),
        );
        const properties = result.failures.map((f) => f.property).sort();
        expect(properties).toEqual(
            expect.arrayContaining(["autoDestroyActivityDuration", "description", "name", "organization", "tags"]),
        );
        for (const f of result.failures) expect(f.reason).toContain(f.property);
        const tagReasons = result.failures.filter((f) => f.property === "tags").map((f) => f.reason).join("\n");
        expect(tagReasons).toContain("hc:owner");
        expect(tagReasons).toContain("bad key");

        const elevenTags = Object.fromEntries(Array.from({ length: 11 }, (_, i) => [`k${i}`, "v"]));
        const tooMany = await fx.host.check(urn(), {}, programInputs({ tags: elevenTags }));
        expect(tooMany.failures.map((f) => f.property)).toEqual(["tags"]);

        const missing = await fx.host.check(urn(), {}, { __provider: programInputs().__provider });
        expect(missing.failures.map((f) => f.property).sort()).toEqual(["name", "organization"]);

        expect(await projectNames()).toEqual(before);
    });

    test("Check lets values that are unknown during preview pass", async () => {
        const result = await fx.host.check(urn(), {}, programInputs({ name: UNKNOWN, tags: UNKNOWN, description: UNKNOWN }));
        expect(result.failures).toEqual([]);
    });

    test("Check accepts the program's inputs and keeps the serialized provider", async () => {
        const result = await fx.host.check(urn(), {}, programInputs());
        expect(result.failures).toEqual([]);
        expect(result.inputs.__provider).toBe(programInputs().__provider);
        checked = result.inputs;
    });

    test("Create makes the project with its description, duration and tags; the outputs hold no token", async () => {
        const created = await fx.host.create(urn(), checked);
        id = created.id;
        state = created.outputs;
        expect(id).toMatch(/^prj-/);
        expect(state).toEqual({
            __provider: checked.__provider,
            organization: "acme",
            name: "Capture Project",
            description: "made by the engine tests",
            autoDestroyActivityDuration: "14d",
            tags: { team: "platform" },
        });
        expect(tokensIn(state)).toEqual([]);

        const shown = await fx.server.request("GET", `/projects/${id}`, { token: TOKENS.owners });
        expect(shown.status).toBe(200);
        expect(shown.body.data.attributes).toMatchObject({
            name: "Capture Project",
            description: "made by the engine tests",
            "auto-destroy-activity-duration": "14d",
        });
        expect(await tagsOf(id)).toEqual({ team: "platform" });
    });

    test("Diff reports no change when the program is unchanged", async () => {
        const result = await fx.host.diff(urn(), id, state, checked, checked);
        expect(result).toMatchObject({ changes: "none", replaces: [] });
    });

    test("Diff changes name, description, duration and tags in place", async () => {
        for (const change of [
            { name: "Capture Renamed" },
            { description: "another description" },
            { autoDestroyActivityDuration: "12h" },
            { tags: { team: "data" } },
            { tags: { team: "platform", env: "prod" } },
        ]) {
            const result = await fx.host.diff(urn(), id, state, { ...checked, ...change }, checked);
            expect({ change, ...result }).toMatchObject({ change, changes: "some", replaces: [] });
        }
    });

    test("Diff replaces a project moved to another organization", async () => {
        const result = await fx.host.diff(urn(), id, state, { ...checked, organization: "globex" }, checked);
        expect(result.changes).toBe("some");
        expect(result.replaces).toEqual(["organization"]);
    });

    test("Diff of tags given in another order is no change", async () => {
        const two = { ...state, tags: { a: "1", b: "2" } };
        const result = await fx.host.diff(urn(), id, two, { ...checked, tags: { b: "2", a: "1" } }, checked);
        expect(result.changes).toBe("none");
    });

    test("Read reports drift made over raw HTTP (description and tags)", async () => {
        const patched = await fx.server.request("PATCH", `/projects/${id}`, {
            token: TOKENS.owners,
            body: {
                data: {
                    type: "projects",
                    attributes: { description: "changed by hand" },
                    relationships: {
                        "tag-bindings": { data: [{ type: "tag-bindings", attributes: { key: "team", value: "hand" } }] },
                    },
                },
            },
        });
        expect(patched.status).toBe(200);

        const read = await fx.host.read(urn(), id, state, checked);
        expect(read.id).toBe(id);
        expect(read.outputs).toMatchObject({
            __provider: checked.__provider,
            name: "Capture Project",
            description: "changed by hand",
            tags: { team: "hand" },
        });
        // The drifted values also become the inputs the next diff compares with.
        expect(read.inputs).toMatchObject({ description: "changed by hand", tags: { team: "hand" } });
        const diff = await fx.host.diff(urn(), id, read.outputs, checked, read.inputs);
        expect(diff.changes).toBe("some");
        state = read.outputs;
    });

    test("Update puts back what the program says and renames the project", async () => {
        const renamed = { ...checked, name: "Capture Renamed" };
        const updated = await fx.host.update(urn(), id, state, renamed, checked);
        expect(updated.outputs).toMatchObject({
            name: "Capture Renamed",
            description: "made by the engine tests",
            autoDestroyActivityDuration: "14d",
            tags: { team: "platform" },
        });
        expect(tokensIn(updated.outputs)).toEqual([]);
        const shown = await fx.server.request("GET", `/projects/${id}`, { token: TOKENS.owners });
        expect(shown.body.data.attributes).toMatchObject({ name: "Capture Renamed", description: "made by the engine tests" });
        expect(await tagsOf(id)).toEqual({ team: "platform" });
        state = updated.outputs;
        checked = renamed;
    });

    test("Read by id alone (a get: the state holds only the serialized provider) reports the whole project", async () => {
        const read = await fx.host.read(urn("by-id"), id, { __provider: checked.__provider });
        expect(read.id).toBe(id);
        expect(read.outputs).toEqual(state);
        expect(read.inputs).toEqual(state);
    });

    test("a Create the service refuses fails with the service's reason and never the token", async () => {
        const error = await failure(fx.host.create(urn("duplicate"), { ...checked, name: "Apps", tags: {} }));
        expect(error).toBeInstanceOf(ProviderCallError);
        expect(error.message).toMatch(/already been taken/i);
        expect(error.message).toContain("Apps");
        expect(tokensIn(error.message)).toEqual([]);
        expect((await projectNames()).filter((name) => name === "Apps")).toHaveLength(1);
    });

    test("Delete of a project that still has workspaces fails with the service's message and deletes nothing", async () => {
        const appsId = await projectIdNamed("Apps");
        const error = await failure(fx.host.delete(urn("apps"), appsId, { ...checked, name: "Apps" }));
        expect(error.message).toMatch(/workspace/i);
        expect(tokensIn(error.message)).toEqual([]);
        expect(await projectNames()).toContain("Apps");
    });

    test("Delete removes the project, deleting it again succeeds, and a Read then reports it gone", async () => {
        await fx.host.delete(urn(), id, state, checked);
        const shown = await fx.server.request("GET", `/projects/${id}`, { token: TOKENS.owners });
        expect(shown.status).toBe(404);
        await expect(fx.host.delete(urn(), id, state, checked)).resolves.toBeUndefined();
        const read = await fx.host.read(urn(), id, state, checked);
        expect(read.id).toBe("");
    });

});

describe("wos:Project create whose answer is lost after the service committed it", () => {
    const CREATE_PATH = "^/api/v2/organizations/[^/]+/projects$";
    afterEach(async () => {
        await fx.server.clearFaults();
    });

    test("the provider finds the project it made and takes it into state: one project, no error", async () => {
        await fx.server.addFault({ method: "POST", path: CREATE_PATH, times: 1, status: 503, afterCommit: true });
        const inputs = programInputs({ name: "Lost Answer" });
        const created = await fx.host.create(urn("lost"), inputs);
        expect(created.id).toMatch(/^prj-/);
        expect(created.outputs).toMatchObject({ name: "Lost Answer", tags: { team: "platform" } });
        expect((await projectNames()).filter((name) => name === "Lost Answer")).toHaveLength(1);
        expect(await projectIdNamed("Lost Answer")).toBe(created.id);
        await fx.host.delete(urn("lost"), created.id, created.outputs, inputs);
    });

    test("when finishing the found project fails, the engine gets a partial success it can refresh and destroy later", async () => {
        await fx.server.addFault({ method: "POST", path: CREATE_PATH, times: 1, status: 503, afterCommit: true });
        await fx.server.addFault({ method: "PATCH", path: "^/api/v2/projects/prj-[^/]+$", times: 1, status: 422 });
        const inputs = programInputs({ name: "Half Made" });
        const error = await failure(fx.host.create(urn("half"), inputs));
        expect(error).toBeInstanceOf(ProviderCallError);
        const initFailure = (error as ProviderCallError).initFailure;
        expect(initFailure?.id).toBe(await projectIdNamed("Half Made"));
        expect(initFailure?.properties).toMatchObject({ organization: "acme", name: "Half Made" });
        expect(tokensIn(error.message)).toEqual([]);
        expect(tokensIn(initFailure)).toEqual([]);

        // The engine stores these properties as the resource's outputs, and the host loads the provider of
        // a later Read or Delete from the outputs' `__provider`. Unlike a successful answer, the host does
        // not add it to a partial one: the error's properties must carry it themselves.
        expect(initFailure?.properties.__provider).toBe(inputs.__provider);
        const state = initFailure!.properties;
        expect((await fx.host.read(urn("half"), initFailure!.id, state, inputs)).id).toBe(initFailure!.id);
        await fx.host.delete(urn("half"), initFailure!.id, state, inputs);
        expect(await projectNames()).not.toContain("Half Made");
    });
});

describe("wos:Project host output", () => {
    test("the host's logs never contain a token", () => {
        expect(tokensIn(fx.host.logs())).toEqual([]);
    });
});
