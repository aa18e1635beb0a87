/**
 * The `wos:NoCodeModule` handlers called directly, as the provider host calls them, against the real local
 * service. A registry module has at most one no-code module, so every test removes the ones it made.
 */
import * as noCodeModule from "../../provider/handlers/noCodeModule";
import { REGISTRY_MODULES } from "../support/seed";
import { configureUnreachable, rejection, TOKEN, UNKNOWN, useServer, checkFailures, checkedInputs } from "./helpers";

const server = useServer();

/** Inputs after `check`, as the host hands them to `create`. */
const checked = (news: Record<string, unknown>) => checkedInputs(noCodeModule, news);

const failuresOf = (news: Record<string, unknown>) => checkFailures(noCodeModule, news);

/** The no-code module over raw HTTP, its sets included; `undefined` when it is gone. */
async function rawModule(id: string): Promise<{ data: any; included: any[] } | undefined> {
    const response = await server().request("GET", `/no-code-modules/${id}?include=variable_options`, { token: TOKEN });
    if (response.status === 404) return undefined;
    expect(response.status).toBe(200);
    return { data: response.body.data, included: response.body.included ?? [] };
}

/** The ids of the no-code modules that enable a registry module (none or one), over raw HTTP. */
async function noCodeModulesOf(registryModuleId: string): Promise<string[]> {
    const response = await server().request("GET", `/registry-modules/${registryModuleId}`, { token: TOKEN });
    expect(response.status).toBe(200);
    return (response.body.data.relationships["no-code-modules"].data ?? []).map((item: { id: string }) => item.id);
}

/** Raw sets of a module as `name -> { id, type, options }`. */
async function rawSets(id: string): Promise<Record<string, { id: string; type: string; options: string[] }>> {
    const module = await rawModule(id);
    return Object.fromEntries(
        (module?.included ?? []).map((set) => [
            set.attributes["variable-name"],
            { id: set.id, type: set.attributes["variable-type"], options: set.attributes.options },
        ]),
    );
}

// Every no-code module of the seed's registry modules is removed after each test: each test starts from none.
afterEach(async () => {
    for (const registryModuleId of [REGISTRY_MODULES.bucket, REGISTRY_MODULES.network]) {
        for (const id of await noCodeModulesOf(registryModuleId)) {
            expect((await server().request("DELETE", `/no-code-modules/${id}`, { token: TOKEN })).status).toBe(204);
        }
    }
});

const valid = { organization: "acme", registryModuleId: REGISTRY_MODULES.bucket };
const region = { variableName: "region", variableType: "string", options: ["eu-west-1", "us-east-1"] };

describe("check", () => {
    it.each([
        ["a missing organization", { registryModuleId: REGISTRY_MODULES.bucket }, "organization", /organization is required/],
        ["a blank organization", { ...valid, organization: " " }, "organization", /organization must not be empty/],
        ["a missing registry module", { organization: "acme" }, "registryModuleId", /registryModuleId is required/],
        ["a registry module id without the mod- prefix", { ...valid, registryModuleId: "nocode-1" }, "registryModuleId", /starting with 'mod-'/],
        ["a version that is not MAJOR.MINOR.PATCH", { ...valid, versionPin: "1.1" }, "versionPin", /versionPin must be a module version such as '1.1.0'/],
        ["a version that is not a string", { ...valid, versionPin: 1.1 }, "versionPin", /versionPin must be a string/],
        ["enabled that is not a boolean", { ...valid, enabled: "yes" }, "enabled", /enabled must be true or false/],
        ["variableOptions that are not a list", { ...valid, variableOptions: region }, "variableOptions", /variableOptions must be a list/],
        ["a set that is not an object", { ...valid, variableOptions: ["region"] }, "variableOptions", /variableOptions\[0\] must be/],
        ["a set without a variable name", { ...valid, variableOptions: [{ variableType: "string", options: ["a"] }] }, "variableOptions", /variableOptions\[0\]\.variableName is required/],
        ["a set with an empty variable name", { ...valid, variableOptions: [{ ...region, variableName: "" }] }, "variableOptions", /variableOptions\[0\]\.variableName must not be empty/],
        ["a set without a type", { ...valid, variableOptions: [{ variableName: "region", options: ["a"] }] }, "variableOptions", /variableOptions\[0\]\.variableType is required/],
        ["a set without options", { ...valid, variableOptions: [{ variableName: "region", variableType: "string" }] }, "variableOptions", /variableOptions\[0\]\.options is required/],
        ["a set with an empty list of options", { ...valid, variableOptions: [{ ...region, options: [] }] }, "variableOptions", /variableOptions\[0\]\.options must not be empty/],
        ["options that are not a list", { ...valid, variableOptions: [{ ...region, options: "eu-west-1" }] }, "variableOptions", /variableOptions\[0\]\.options must be a list/],
        ["an option that is an object", { ...valid, variableOptions: [{ ...region, options: ["a", { b: 1 }] }] }, "variableOptions", /variableOptions\[0\]\.options\[1\] must be a string, a number or a boolean/],
        ["two sets for one variable", { ...valid, variableOptions: [region, { ...region, options: ["x"] }] }, "variableOptions", /variableOptions\[1\]: variable 'region' has more than one set of options/],
        ["a set with a misspelt field", { ...valid, variableOptions: [{ ...region, variable_name: "region" }] }, "variableOptions", /variableOptions\[0\] has an unknown field 'variable_name'/],
    ])("rejects %s, naming the property and the rule", async (_what, news, property, reason) => {
        const failures = await failuresOf(news);
        expect(failures).toContainEqual({ property, reason: expect.stringMatching(reason) });
        expect(failures.every((failure) => failure.reason.startsWith(failure.property))).toBe(true);
    });

    it("accepts valid inputs, turning numbers and booleans among the options into the text the service keeps", async () => {
        const news = {
            ...valid,
            versionPin: "1.1.0",
            enabled: true,
            variableOptions: [region, { variableName: "size", variableType: "number", options: [1, 2.5, true] }],
            __provider: "serialized",
        };
        const result = await noCodeModule.check({}, news);
        expect(result.failures).toEqual([]);
        expect(result.inputs).toEqual({
            ...news,
            variableOptions: [region, { variableName: "size", variableType: "number", options: ["1", "2.5", "true"] }],
        });
    });

    it("lets unknown values pass during preview", async () => {
        expect(
            await failuresOf({ organization: UNKNOWN, registryModuleId: UNKNOWN, versionPin: UNKNOWN, enabled: UNKNOWN, variableOptions: UNKNOWN }),
        ).toEqual([]);
        expect(await failuresOf({ ...valid, variableOptions: [UNKNOWN, { variableName: UNKNOWN, variableType: "string", options: UNKNOWN }] })).toEqual([]);
        // Two sets of which one name is not known yet cannot be judged as duplicates.
        expect(await failuresOf({ ...valid, variableOptions: [region, { ...region, variableName: UNKNOWN }] })).toEqual([]);
    });

    it("sends no request: an unreachable address does not matter and nothing is written", async () => {
        await configureUnreachable();
        expect(await failuresOf({ ...valid, versionPin: "x" })).toHaveLength(1);
        await checked({ ...valid, enabled: true });
        expect(await noCodeModulesOf(REGISTRY_MODULES.bucket)).toEqual([]);
    });
});

describe("diff", () => {
    const state = {
        organization: "acme",
        registryModuleId: REGISTRY_MODULES.bucket,
        versionPin: "1.1.0",
        enabled: true,
        variableOptions: [
            { id: "ncvaropt-1", ...region },
            { id: "ncvaropt-2", variableName: "size", variableType: "number", options: ["1", "2"] },
        ],
        __provider: "serialized",
    };
    const program = {
        organization: "acme",
        registryModuleId: REGISTRY_MODULES.bucket,
        versionPin: "1.1.0",
        enabled: true,
        variableOptions: [region, { variableName: "size", variableType: "number", options: ["1", "2"] }],
    };
    const noChange = { changes: false, replaces: [], deleteBeforeReplace: false };
    const inPlace = { changes: true, replaces: [], deleteBeforeReplace: false };

    beforeEach(configureUnreachable);

    it("reports no change for the same program, whatever the sets' ids in state", async () => {
        expect(await noCodeModule.diff("nocode-1", state, program)).toEqual(noChange);
    });

    it.each([
        ["the sets in another order", { variableOptions: [...program.variableOptions].reverse() }],
        ["no versionPin (the pin the service chose stays)", { versionPin: undefined }],
        ["options given as numbers, which the service keeps as text", { variableOptions: [region, { variableName: "size", variableType: "number", options: [1, 2] }] }],
    ])("reports no change for %s", async (_what, change) => {
        expect(await noCodeModule.diff("nocode-1", state, { ...program, ...change })).toEqual(noChange);
    });

    it("reports no change when defaults are given one way and omitted the other", async () => {
        const bare = { organization: "acme", registryModuleId: REGISTRY_MODULES.bucket, versionPin: "1.1.0", enabled: false, variableOptions: [] };
        expect(await noCodeModule.diff("nocode-1", bare, { organization: "acme", registryModuleId: REGISTRY_MODULES.bucket })).toEqual(noChange);
        const absent = { organization: "acme", registryModuleId: REGISTRY_MODULES.bucket, versionPin: "1.1.0" };
        expect(await noCodeModule.diff("nocode-1", absent, { ...absent, enabled: false, variableOptions: [] })).toEqual(noChange);
    });

    it.each([
        ["versionPin", { versionPin: "1.0.0" }],
        ["enabled", { enabled: false }],
        ["enabled left out (default false)", { enabled: undefined }],
        ["the options of a set", { variableOptions: [{ ...region, options: ["eu-west-1"] }, program.variableOptions[1]] }],
        ["the order of the options in a set (the order people pick from)", { variableOptions: [{ ...region, options: ["us-east-1", "eu-west-1"] }, program.variableOptions[1]] }],
        ["the type of a set", { variableOptions: [{ ...region, variableType: "any" }, program.variableOptions[1]] }],
        ["a set added", { variableOptions: [...program.variableOptions, { variableName: "tags", variableType: "map(string)", options: ["{}"] }] }],
        ["a set removed", { variableOptions: [region] }],
        ["every set removed", { variableOptions: undefined }],
        ["sets not known yet", { variableOptions: UNKNOWN }],
        ["a version not known yet", { versionPin: UNKNOWN }],
    ])("changes %s in place", async (_what, change) => {
        expect(await noCodeModule.diff("nocode-1", state, { ...program, ...change })).toEqual(inPlace);
    });

    it.each([
        ["another registry module: the new no-code module is made first", { registryModuleId: REGISTRY_MODULES.network }, ["registryModuleId"], false],
        ["a registry module not known yet (it may be the same, which has one no-code module at most)", { registryModuleId: UNKNOWN }, ["registryModuleId"], true],
        ["another organization with the same registry module id: the old one is deleted first", { organization: "globex" }, ["organization"], true],
    ])("replaces the no-code module for %s", async (_what, change, replaces, deleteBeforeReplace) => {
        expect(await noCodeModule.diff("nocode-1", state, { ...program, ...change })).toEqual({ changes: true, replaces, deleteBeforeReplace });
    });
});

describe("create, read, update, delete", () => {
    it("enables a registry module with its pin and sets, whose outputs are plain JSON and compare equal to the program", async () => {
        const inputs = await checked({
            ...valid,
            versionPin: "1.0.0",
            enabled: true,
            variableOptions: [region, { variableName: "size", variableType: "number", options: [1, 2] }],
        });
        const created = await noCodeModule.create(inputs);
        expect(created.id).toMatch(/^nocode-/);
        expect(created.outs).toEqual({
            organization: "acme",
            registryModuleId: REGISTRY_MODULES.bucket,
            versionPin: "1.0.0",
            enabled: true,
            variableOptions: [
                { id: expect.stringMatching(/^ncvaropt-/), ...region },
                { id: expect.stringMatching(/^ncvaropt-/), variableName: "size", variableType: "number", options: ["1", "2"] },
            ],
        });
        expect(JSON.parse(JSON.stringify(created.outs))).toEqual(created.outs);

        const raw = await rawModule(created.id);
        expect(raw?.data.attributes).toEqual({ enabled: true, "version-pin": "1.0.0" });
        const sets = await rawSets(created.id);
        expect(sets).toEqual({
            region: { id: created.outs.variableOptions[0].id, type: "string", options: ["eu-west-1", "us-east-1"] },
            size: { id: created.outs.variableOptions[1].id, type: "number", options: ["1", "2"] },
        });
        expect(await noCodeModulesOf(REGISTRY_MODULES.bucket)).toEqual([created.id]);

        // A second `up` of the same program does nothing, and a refresh right after reads the same outputs.
        expect((await noCodeModule.diff(created.id, created.outs, inputs)).changes).toBe(false);
        expect(await noCodeModule.read(created.id, created.outs)).toEqual({ id: created.id, props: created.outs, inputs: created.outs });
    });

    it("resolves the pin to the module's highest version when the program leaves it out", async () => {
        const inputs = await checked({ ...valid });
        const created = await noCodeModule.create(inputs);
        expect(created.outs).toEqual({ ...valid, versionPin: "1.1.0", enabled: false, variableOptions: [] });
        expect((await rawModule(created.id))?.data.attributes["version-pin"]).toBe("1.1.0");
        expect((await noCodeModule.diff(created.id, created.outs, inputs)).changes).toBe(false);
    });

    it.each([
        ["a registry module that is not no-code ready", { registryModuleId: REGISTRY_MODULES.notReady }, REGISTRY_MODULES.notReady, /: registryModuleId: Registry module 'legacy'/],
        ["a version the module does not have", { versionPin: "9.9.9" }, REGISTRY_MODULES.bucket, /: versionPin: Version pin '9\.9\.9' is not a version/],
        ["a set for a variable the pinned version does not have", { versionPin: "1.0.0", variableOptions: [{ variableName: "tags", variableType: "map(string)", options: ["{}"] }] }, REGISTRY_MODULES.bucket, /: variableOptions\[0\]\.variableName: Variable name 'tags' is not a vari/],
        ["a set with another type than the variable's", { variableOptions: [{ ...region, variableType: "number" }] }, REGISTRY_MODULES.bucket, /: variableOptions\[0\]\.variableType: Variable type of 'region' must be/],
        // Each names the input as the program wrote it, not the wire format's pointer.
    ])("reports the service's refusal of %s, naming the resource, and writes nothing", async (_what, change, registryModuleId, pointer) => {
        const error = await rejection(noCodeModule.create(await checked({ ...valid, ...change })));
        expect(error.message).toContain(`wos:NoCodeModule (registry module ${registryModuleId}) in organization 'acme': create failed`);
        expect(error.message).toMatch(/422/);
        expect(error.message).toMatch(pointer);
        expect(error.message).not.toContain(TOKEN);
        expect(await noCodeModulesOf(registryModuleId)).toEqual([]);
    });

    it("refuses a second no-code module for a registry module that has one, leaving the first alone", async () => {
        const first = await noCodeModule.create(await checked({ ...valid, enabled: true }));
        const error = await rejection(noCodeModule.create(await checked({ ...valid, versionPin: "1.0.0" })));
        expect(error.message).toMatch(/create failed.*422/);
        expect(await noCodeModulesOf(REGISTRY_MODULES.bucket)).toEqual([first.id]);
        expect((await rawModule(first.id))?.data.attributes).toEqual({ enabled: true, "version-pin": "1.1.0" });
    });

    it("reads drift made outside Pulumi, keeping the state's order of the sets", async () => {
        const created = await noCodeModule.create(
            await checked({ ...valid, versionPin: "1.1.0", variableOptions: [region, { variableName: "size", variableType: "number", options: ["1"] }] }),
        );
        const [regionId, sizeId] = created.outs.variableOptions.map((set: { id: string }) => set.id);
        const patched = await server().request("PATCH", `/no-code-modules/${created.id}`, {
            token: TOKEN,
            body: {
                data: {
                    type: "no-code-modules",
                    attributes: { enabled: true, "version-pin": "1.0.0" },
                    relationships: {
                        "variable-options": {
                            data: [
                                { type: "variable-options", id: sizeId, attributes: { "variable-name": "size", "variable-type": "number", options: ["3"] } },
                                { type: "variable-options", id: regionId, attributes: { "variable-name": "region", "variable-type": "string", options: ["ap-south-1"] } },
                            ],
                        },
                    },
                },
            },
        });
        expect(patched.status).toBe(200);
        const read = await noCodeModule.read(created.id, created.outs);
        const expected = {
            ...valid,
            versionPin: "1.0.0",
            enabled: true,
            variableOptions: [
                { id: regionId, variableName: "region", variableType: "string", options: ["ap-south-1"] },
                { id: sizeId, variableName: "size", variableType: "number", options: ["3"] },
            ],
        };
        expect(read).toEqual({ id: created.id, props: expected, inputs: expected });
        // The next `up` puts the program's settings back.
        expect((await noCodeModule.diff(created.id, read.props!, created.outs)).changes).toBe(true);
    });

    it("reads a module by its id alone (an import), with its organization and registry module", async () => {
        const created = await noCodeModule.create(await checked({ ...valid, variableOptions: [region] }));
        const read = await noCodeModule.read(created.id, {});
        expect(read.props).toEqual(created.outs);
    });

    it("reads a module deleted outside Pulumi as gone, and deleting it then succeeds", async () => {
        const created = await noCodeModule.create(await checked({ ...valid }));
        expect((await server().request("DELETE", `/no-code-modules/${created.id}`, { token: TOKEN })).status).toBe(204);
        expect(await noCodeModule.read(created.id, created.outs)).toEqual({});
        await expect(noCodeModule.delete(created.id, created.outs)).resolves.toBeUndefined();
    });

    it("updates pin, enabled and sets in place: a set still listed keeps its id, a dropped one goes, a new one is added", async () => {
        const created = await noCodeModule.create(
            await checked({ ...valid, versionPin: "1.0.0", variableOptions: [region, { variableName: "size", variableType: "number", options: ["1"] }] }),
        );
        const [regionId, sizeId] = created.outs.variableOptions.map((set: { id: string }) => set.id);
        const news = await checked({
            ...valid,
            versionPin: "1.1.0",
            enabled: true,
            variableOptions: [
                { variableName: "tags", variableType: "map(string)", options: ['{"team":"a"}'] },
                { ...region, options: ["eu-west-1", "eu-central-1"] },
            ],
        });
        expect((await noCodeModule.diff(created.id, created.outs, news)).changes).toBe(true);
        const updated = await noCodeModule.update(created.id, created.outs, news);
        expect(updated.outs).toEqual({
            ...valid,
            versionPin: "1.1.0",
            enabled: true,
            variableOptions: [
                { id: expect.stringMatching(/^ncvaropt-/), variableName: "tags", variableType: "map(string)", options: ['{"team":"a"}'] },
                { id: regionId, ...region, options: ["eu-west-1", "eu-central-1"] },
            ],
        });
        const sets = await rawSets(created.id);
        expect(Object.keys(sets).sort()).toEqual(["region", "tags"]);
        expect(sets.region).toEqual({ id: regionId, type: "string", options: ["eu-west-1", "eu-central-1"] });
        expect(sets.tags.id).toBe(updated.outs!.variableOptions[0].id);
        expect(sets.tags.id).not.toBe(sizeId);
        expect((await rawModule(created.id))?.data.attributes).toEqual({ enabled: true, "version-pin": "1.1.0" });
        expect((await noCodeModule.diff(created.id, updated.outs!, news)).changes).toBe(false);
        expect((await noCodeModule.read(created.id, updated.outs)).props).toEqual(updated.outs);
    });

    it("keeps a set's id by its variable name even when the state's id is stale (the set was replaced outside Pulumi)", async () => {
        const created = await noCodeModule.create(await checked({ ...valid, variableOptions: [region] }));
        // Someone replaced the set with a new one (a new id) outside Pulumi.
        const replaced = await server().request("PATCH", `/no-code-modules/${created.id}`, {
            token: TOKEN,
            body: {
                data: {
                    type: "no-code-modules",
                    relationships: {
                        "variable-options": {
                            data: [{ type: "variable-options", attributes: { "variable-name": "region", "variable-type": "string", options: ["x"] } }],
                        },
                    },
                },
            },
        });
        expect(replaced.status).toBe(200);
        const currentId = (await rawSets(created.id)).region.id;
        expect(currentId).not.toBe(created.outs.variableOptions[0].id);
        const news = await checked({ ...valid, variableOptions: [{ ...region, options: ["eu-west-1"] }] });
        const updated = await noCodeModule.update(created.id, created.outs, news);
        expect(updated.outs!.variableOptions).toEqual([{ id: currentId, ...region, options: ["eu-west-1"] }]);
        expect(await rawSets(created.id)).toEqual({ region: { id: currentId, type: "string", options: ["eu-west-1"] } });
    });

    it("removes every set when the program drops variableOptions", async () => {
        const created = await noCodeModule.create(await checked({ ...valid, variableOptions: [region] }));
        const news = await checked({ ...valid });
        const updated = await noCodeModule.update(created.id, created.outs, news);
        expect(updated.outs!.variableOptions).toEqual([]);
        expect(await rawSets(created.id)).toEqual({});
    });

    it("reports an update the service refuses with its message, naming the module, and changes nothing", async () => {
        const created = await noCodeModule.create(await checked({ ...valid, variableOptions: [region] }));
        const news = await checked({ ...valid, versionPin: "1.0.0", enabled: true, variableOptions: [region, { variableName: "tags", variableType: "map(string)", options: ["{}"] }] });
        const error = await rejection(noCodeModule.update(created.id, created.outs, news));
        expect(error.message).toContain(`wos:NoCodeModule ${created.id} (registry module ${REGISTRY_MODULES.bucket}) in organization 'acme': update failed`);
        expect(error.message).toMatch(/422: variableOptions\[1\]\.variableName: /);
        expect((await rawModule(created.id))?.data.attributes).toEqual({ enabled: false, "version-pin": "1.1.0" });
        expect(Object.keys(await rawSets(created.id))).toEqual(["region"]);
    });

    it("deletes a module, and deleting it again succeeds", async () => {
        const created = await noCodeModule.create(await checked({ ...valid, enabled: true }));
        await noCodeModule.delete(created.id, created.outs);
        expect(await rawModule(created.id)).toBeUndefined();
        expect(await noCodeModulesOf(REGISTRY_MODULES.bucket)).toEqual([]);
        await expect(noCodeModule.delete(created.id, created.outs)).resolves.toBeUndefined();
    });
});

describe("a create whose answer is lost", () => {
    const createPath = "^/api/v2/organizations/acme/no-code-modules$";

    it.each([
        ["a 503 after the commit", { status: 503 }],
        ["a dropped connection after the commit", { reset: true }],
    ])("recovers the module the service made on %s, through its registry module: one module, its id and sets in state", async (_what, fault) => {
        await server().addFault({ method: "POST", path: createPath, times: 1, afterCommit: true, ...fault });
        const created = await noCodeModule.create(await checked({ ...valid, versionPin: "1.0.0", enabled: true, variableOptions: [region] }));
        const ids = await noCodeModulesOf(REGISTRY_MODULES.bucket);
        expect(ids).toEqual([created.id]);
        const sets = await rawSets(created.id);
        expect(created.outs).toEqual({
            ...valid,
            versionPin: "1.0.0",
            enabled: true,
            variableOptions: [{ id: sets.region.id, ...region }],
        });
    });

    it.each([
        ["a 503 before the commit", { status: 503 }],
        ["a dropped connection before the commit", { reset: true }],
    ])("never takes over a no-code module that existed before the create (%s): it fails and leaves that one alone", async (_what, fault) => {
        const theirs = await server().request("POST", "/organizations/acme/no-code-modules", {
            token: TOKEN,
            body: {
                data: {
                    type: "no-code-modules",
                    attributes: { "version-pin": "1.0.0" },
                    relationships: { "registry-module": { data: { type: "registry-module", id: REGISTRY_MODULES.bucket } } },
                },
            },
        });
        expect(theirs.status).toBe(200);
        await server().addFault({ method: "POST", path: createPath, times: 1, ...fault });
        const error = await rejection(noCodeModule.create(await checked({ ...valid, enabled: true, variableOptions: [region] })));
        expect(error.message).toMatch(/create failed/);
        expect(error.message).toMatch(/existed before this create, so it is left alone/);
        expect((error as { id?: string }).id).toBeUndefined();
        expect(await noCodeModulesOf(REGISTRY_MODULES.bucket)).toEqual([theirs.body.data.id]);
        expect((await rawModule(theirs.body.data.id))?.data.attributes).toEqual({ enabled: false, "version-pin": "1.0.0" });
        expect(await rawSets(theirs.body.data.id)).toEqual({});
    });

    it("fails, without inventing a module, when the service failed before committing", async () => {
        await server().addFault({ method: "POST", path: createPath, times: 1, status: 503 });
        const error = await rejection(noCodeModule.create(await checked({ ...valid })));
        expect(error.message).toMatch(/wos:NoCodeModule .* create failed.*503/);
        expect(await noCodeModulesOf(REGISTRY_MODULES.bucket)).toEqual([]);
    });
});
