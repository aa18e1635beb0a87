/**
 * `wos.ProjectTagBindings` from the packed package, driven through `@pulumi/pulumi`'s provider host over
 * gRPC in the engine's order, against the local service. It manages only the keys it lists; the project
 * and its other bindings are made and inspected over raw HTTP.
 */
import { isSecret, ProviderCallError, UNKNOWN, type PropertyMap } from "../support/providerHost";
import { TOKENS } from "../support/seed";
import { failure, tagsOf as tagsOfProject, tokensIn, TYPES, useEngineFixture } from "./fixture";

const fx = useEngineFixture();
let projectId = "";
let otherProjectId = "";

/** A project made over raw HTTP, with a binding that someone else manages. */
async function makeProject(name: string): Promise<string> {
    const response = await fx.server.request("POST", "/organizations/acme/projects", {
        token: TOKENS.owners,
        body: {
            data: {
                type: "projects",
                attributes: { name },
                relationships: {
                    "tag-bindings": { data: [{ type: "tag-bindings", attributes: { key: "owner", value: "someone-else" } }] },
                },
            },
        },
    });
    expect(response.status).toBe(201);
    return response.body.data.id as string;
}

beforeAll(async () => {
    projectId = await makeProject("Tagged");
    otherProjectId = await makeProject("Tagged Too");
});

const urn = (name = "capture-tags") => fx.host.urn(TYPES.projectTagBindings, name);
const programInputs = (overrides: PropertyMap = {}): PropertyMap => ({
    ...fx.registration("capture-tags").inputs,
    projectId,
    ...overrides,
});

const tagsOf = (id: string) => tagsOfProject(fx.server, id);

describe("wos:ProjectTagBindings registration", () => {
    test("the program registers the type token pulumi-nodejs:dynamic/wos:ProjectTagBindings", () => {
        expect(fx.registration("capture-tags").type).toBe("pulumi-nodejs:dynamic/wos:ProjectTagBindings");
    });

    test("the serialized provider is plain text that loads the handlers by package name and holds no token", () => {
        const provider = fx.registration("capture-tags").inputs.__provider;
        expect(typeof provider).toBe("string");
        expect(isSecret(provider)).toBe(false);
        expect(provider).toContain('require("pulumi-wos/dist/provider/handlers/projectTagBindings")');
        expect(tokensIn(provider)).toEqual([]);
    });
});

describe("wos:ProjectTagBindings lifecycle through the provider host", () => {
    let id = "";
    let checked: PropertyMap = {};
    let state: PropertyMap = {};

    test("Check rejects invalid inputs, naming each property, before any request: the project keeps its tags", async () => {
        const result = await fx.host.check(
            urn(),
            {},
            programInputs({ projectId: "ws-not-a-project", tags: { "hcp:team": "x", ok: "bad value!" } }),
        );
        expect(result.failures.map((f) => f.property).sort()).toEqual(expect.arrayContaining(["projectId", "tags"]));
        const tagReasons = result.failures.filter((f) => f.property === "tags").map((f) => f.reason).join("\n");
        expect(tagReasons).toContain("hcp:team");
        expect(tagReasons).toContain("ok");

        const elevenTags = Object.fromEntries(Array.from({ length: 11 }, (_, i) => [`k${i}`, "v"]));
        const tooMany = await fx.host.check(urn(), {}, programInputs({ tags: elevenTags }));
        expect(tooMany.failures.map((f) => f.property)).toEqual(["tags"]);

        const missing = await fx.host.check(urn(), {}, { __provider: programInputs().__provider });
        expect(missing.failures.map((f) => f.property).sort()).toEqual(["projectId", "tags"]);

        expect(await tagsOf(projectId)).toEqual({ owner: "someone-else" });
    });

    test("Check lets values that are unknown during preview pass", async () => {
        const result = await fx.host.check(urn(), {}, programInputs({ projectId: UNKNOWN, tags: { "cost-center": UNKNOWN } }));
        expect(result.failures).toEqual([]);
    });

    test("Create binds the listed keys and leaves the project's other bindings alone", async () => {
        const result = await fx.host.check(urn(), {}, programInputs({ tags: { "cost-center": "1234", env: "prod" } }));
        expect(result.failures).toEqual([]);
        checked = result.inputs;
        const created = await fx.host.create(urn(), checked);
        id = created.id;
        state = created.outputs;
        expect(id).toBe(projectId);
        expect(state).toEqual({ __provider: checked.__provider, projectId, tags: { "cost-center": "1234", env: "prod" } });
        expect(tokensIn(state)).toEqual([]);
        expect(await tagsOf(projectId)).toEqual({ owner: "someone-else", "cost-center": "1234", env: "prod" });
    });

    test("Diff reports no change when the program is unchanged, whatever the order of the keys", async () => {
        expect(await fx.host.diff(urn(), id, state, checked, checked)).toMatchObject({ changes: "none", replaces: [] });
        const reordered = { ...checked, tags: { env: "prod", "cost-center": "1234" } };
        expect((await fx.host.diff(urn(), id, state, reordered, checked)).changes).toBe("none");
    });

    test("Diff changes tags in place and replaces the bindings of another project", async () => {
        const retagged = await fx.host.diff(urn(), id, state, { ...checked, tags: { "cost-center": "9999" } }, checked);
        expect(retagged).toMatchObject({ changes: "some", replaces: [] });
        const moved = await fx.host.diff(urn(), id, state, { ...checked, projectId: otherProjectId }, checked);
        expect(moved).toMatchObject({ changes: "some", replaces: ["projectId"] });
    });

    test("Read reports drift of a managed key and never reports keys it does not manage", async () => {
        const patched = await fx.server.request("PATCH", `/projects/${projectId}/tag-bindings`, {
            token: TOKENS.owners,
            body: { data: [{ type: "tag-bindings", attributes: { key: "cost-center", value: "by-hand" } }] },
        });
        expect(patched.status).toBe(200);
        const read = await fx.host.read(urn(), id, state, checked);
        expect(read.id).toBe(id);
        expect(read.outputs).toEqual({ __provider: checked.__provider, projectId, tags: { "cost-center": "by-hand", env: "prod" } });
        expect((await fx.host.diff(urn(), id, read.outputs, checked, read.inputs)).changes).toBe("some");
        state = read.outputs;
    });

    test("Update writes the program's values and removes a key dropped from the map, and only that key", async () => {
        const news = { ...checked, tags: { "cost-center": "1234", tier: "gold" } };
        const updated = await fx.host.update(urn(), id, state, news, checked);
        expect(updated.outputs).toEqual({ __provider: checked.__provider, projectId, tags: { "cost-center": "1234", tier: "gold" } });
        expect(await tagsOf(projectId)).toEqual({ owner: "someone-else", "cost-center": "1234", tier: "gold" });
        state = updated.outputs;
        checked = news;
    });

    test("Read by the project's id alone (a get) reports every binding of the project", async () => {
        const read = await fx.host.read(urn("by-id"), projectId, { __provider: checked.__provider });
        expect(read.id).toBe(projectId);
        expect(read.outputs).toEqual({
            __provider: checked.__provider,
            projectId,
            tags: { owner: "someone-else", "cost-center": "1234", tier: "gold" },
        });
    });

    test("a Create the service refuses fails with the service's reason and never the token", async () => {
        // Ten more keys would take the project over its limit: only the service can know that.
        const tenMore = Object.fromEntries(Array.from({ length: 10 }, (_, i) => [`extra-${i}`, "v"]));
        const error = await failure(fx.host.create(urn("too-many"), { ...checked, tags: tenMore }));
        expect(error).toBeInstanceOf(ProviderCallError);
        expect(error.message).toMatch(/10|ten/i);
        expect(tokensIn(error.message)).toEqual([]);
        expect(await tagsOf(projectId)).toEqual({ owner: "someone-else", "cost-center": "1234", tier: "gold" });
    });

    test("Delete removes only the managed keys, and deleting again succeeds", async () => {
        await fx.host.delete(urn(), id, state, checked);
        expect(await tagsOf(projectId)).toEqual({ owner: "someone-else" });
        await expect(fx.host.delete(urn(), id, state, checked)).resolves.toBeUndefined();
        expect(await tagsOf(projectId)).toEqual({ owner: "someone-else" });
    });

    test("Read of bindings whose project is gone reports them gone, and Delete succeeds", async () => {
        const deleted = await fx.server.request("DELETE", `/projects/${otherProjectId}`, { token: TOKENS.owners });
        expect(deleted.status).toBe(204);
        const orphan = { ...state, projectId: otherProjectId };
        const read = await fx.host.read(urn("orphan"), otherProjectId, orphan, orphan);
        expect(read.id).toBe("");
        await expect(fx.host.delete(urn("orphan"), otherProjectId, orphan, orphan)).resolves.toBeUndefined();
    });

    test("the host's logs never contain a token", () => {
        expect(tokensIn(fx.host.logs())).toEqual([]);
    });
});
