/**
 * `wos.NoCodeModule` from the packed package, driven through `@pulumi/pulumi`'s provider host over gRPC in
 * the engine's order, against the local service. The service is inspected over raw HTTP, never through the
 * code under test.
 */
import { isSecret, ProviderCallError, UNKNOWN, type PropertyMap } from "../support/providerHost";
import { REGISTRY_MODULES, TOKENS } from "../support/seed";
import { failure, tokensIn, TYPES, useNoCodeEngineFixture } from "./fixture";

const fx = useNoCodeEngineFixture();

const urn = (name = "capture-module") => fx.host.urn(TYPES.noCodeModule, name);
/** The inputs the program registered (with its `__provider`), with some replaced. */
const programInputs = (overrides: PropertyMap = {}): PropertyMap => ({
    ...fx.registration("capture-module").inputs,
    ...overrides,
});

/** Ids of the no-code modules of a registry module, as the service lists them (raw HTTP, owners token). */
async function noCodeModulesOf(registryModuleId: string): Promise<string[]> {
    const response = await fx.server.request("GET", `/registry-modules/${registryModuleId}`, { token: TOKENS.owners });
    expect(response.status).toBe(200);
    return (response.body.data.relationships["no-code-modules"].data as Array<{ id: string }>).map((item) => item.id);
}

/** A no-code module with its variable-options sets, over raw HTTP: status, attributes and the sets by name. */
async function rawModule(id: string): Promise<{
    status: number;
    attributes?: Record<string, unknown>;
    sets?: Record<string, { id: string; type: string; options: string[] }>;
}> {
    const response = await fx.server.request("GET", `/no-code-modules/${id}?include=variable_options`, { token: TOKENS.owners });
    if (response.status !== 200) return { status: response.status };
    const sets: Record<string, { id: string; type: string; options: string[] }> = {};
    for (const item of response.body.included ?? []) {
        sets[item.attributes["variable-name"]] = {
            id: item.id,
            type: item.attributes["variable-type"],
            options: item.attributes.options ?? [],
        };
    }
    return { status: 200, attributes: response.body.data.attributes, sets };
}

/** `variableOptions` of outputs as `name -> { id, options }`, whatever their order. */
function setsOf(outputs: PropertyMap): Record<string, { id: string; options: unknown }> {
    const sets = outputs.variableOptions as Array<{ id: string; variableName: string; options: unknown }>;
    return Object.fromEntries(sets.map((set) => [set.variableName, { id: set.id, options: set.options }]));
}

describe("wos:NoCodeModule registration", () => {
    test("the program registers the type token pulumi-nodejs:dynamic/wos:NoCodeModule", () => {
        expect(fx.registration("capture-module").type).toBe("pulumi-nodejs:dynamic/wos:NoCodeModule");
        expect(urn()).toBe("urn:pulumi:test::wos-engine-test::pulumi-nodejs:dynamic/wos:NoCodeModule::capture-module");
    });

    test("the serialized provider is plain text that loads the handlers by package name and holds no token", () => {
        const provider = fx.registration("capture-module").inputs.__provider;
        expect(typeof provider).toBe("string");
        expect(isSecret(provider)).toBe(false);
        expect(provider).toContain('require("pulumi-wos/dist/provider/handlers/noCodeModule")');
        // The program ran with the token in its stack config and environment.
        expect(tokensIn(provider)).toEqual([]);
    });

    test("the program's inputs are registered as written", () => {
        const { __provider: _, ...inputs } = fx.registration("capture-module").inputs;
        expect(inputs).toEqual({
            organization: "acme",
            registryModuleId: REGISTRY_MODULES.bucket,
            versionPin: "1.0.0",
            enabled: true,
            variableOptions: [
                { variableName: "region", variableType: "string", options: ["eu-west-1", "us-east-1"] },
                { variableName: "size", variableType: "number", options: ["1", "2", "3"] },
            ],
        });
    });
});

describe("wos:NoCodeModule lifecycle through the provider host", () => {
    let id = "";
    let checked: PropertyMap = {};
    let state: PropertyMap = {};

    test("Check rejects invalid inputs, naming each property, before any request: the service sees no write", async () => {
        const result = await fx.host.check(
            urn(),
            {},
            programInputs({
                organization: "",
                registryModuleId: "nocode-not-a-registry-module",
                versionPin: "latest",
                enabled: "yes",
                variableOptions: [
                    { variableName: "region", variableType: "string", options: [] },
                    { variableName: "region", variableType: "string", options: ["eu-west-1"] },
                ],
            }),
        );
        const properties = [...new Set(result.failures.map((f) => f.property))].sort();
        expect(properties).toEqual(["enabled", "organization", "registryModuleId", "variableOptions", "versionPin"]);
        for (const f of result.failures) expect(f.reason).toContain(f.property);
        const optionReasons = result.failures.filter((f) => f.property === "variableOptions").map((f) => f.reason);
        // Both rules of the list: a non-empty list of options, and one set per variable name.
        expect(optionReasons.length).toBeGreaterThanOrEqual(2);
        expect(optionReasons.join("\n")).toContain("region");

        const missing = await fx.host.check(urn(), {}, { __provider: programInputs().__provider });
        expect(missing.failures.map((f) => f.property).sort()).toEqual(["organization", "registryModuleId"]);

        expect(await noCodeModulesOf(REGISTRY_MODULES.bucket)).toEqual([]);
    });

    test("Check lets values that are unknown during preview pass", async () => {
        const result = await fx.host.check(
            urn(),
            {},
            programInputs({ registryModuleId: UNKNOWN, versionPin: UNKNOWN, variableOptions: UNKNOWN }),
        );
        expect(result.failures).toEqual([]);
    });

    test("Check accepts the program's inputs and keeps the serialized provider", async () => {
        const result = await fx.host.check(urn(), {}, programInputs());
        expect(result.failures).toEqual([]);
        expect(result.inputs.__provider).toBe(programInputs().__provider);
        checked = result.inputs;
    });

    test("a Create the service refuses (a module that is not no-code ready) fails with the service's reason, writes nothing and shows no token", async () => {
        const error = await failure(
            fx.host.create(urn("not-ready"), programInputs({ registryModuleId: REGISTRY_MODULES.notReady, variableOptions: [] })),
        );
        expect(error).toBeInstanceOf(ProviderCallError);
        expect((error as ProviderCallError).initFailure).toBeUndefined();
        expect(error.message).toContain(REGISTRY_MODULES.notReady);
        expect(error.message).toMatch(/no-code/i);
        expect(tokensIn(error.message)).toEqual([]);
        expect(await noCodeModulesOf(REGISTRY_MODULES.notReady)).toEqual([]);
    });

    test("a Create pinned to a version the module does not have fails naming the version, and writes nothing", async () => {
        const error = await failure(fx.host.create(urn("no-such-version"), { ...checked, versionPin: "9.9.9" }));
        expect(error).toBeInstanceOf(ProviderCallError);
        expect(error.message).toContain("9.9.9");
        expect(tokensIn(error.message)).toEqual([]);
        expect(await noCodeModulesOf(REGISTRY_MODULES.bucket)).toEqual([]);
    });

    test("Create enables the module with its pin and options sets; the outputs hold the set ids and no token", async () => {
        const created = await fx.host.create(urn(), checked);
        id = created.id;
        state = created.outputs;
        expect(id).toMatch(/^nocode-/);
        expect(state).toEqual({
            __provider: checked.__provider,
            organization: "acme",
            registryModuleId: REGISTRY_MODULES.bucket,
            versionPin: "1.0.0",
            enabled: true,
            variableOptions: [
                {
                    id: expect.stringMatching(/^ncvaropt-/),
                    variableName: "region",
                    variableType: "string",
                    options: ["eu-west-1", "us-east-1"],
                },
                { id: expect.stringMatching(/^ncvaropt-/), variableName: "size", variableType: "number", options: ["1", "2", "3"] },
            ],
        });
        expect(tokensIn(state)).toEqual([]);

        const shown = await rawModule(id);
        expect(shown.attributes).toMatchObject({ enabled: true, "version-pin": "1.0.0" });
        expect(shown.sets).toEqual({
            region: { id: setsOf(state).region.id, type: "string", options: ["eu-west-1", "us-east-1"] },
            size: { id: setsOf(state).size.id, type: "number", options: ["1", "2", "3"] },
        });
        expect(await noCodeModulesOf(REGISTRY_MODULES.bucket)).toEqual([id]);
    });

    test("Create without a pin resolves it to the module's highest version; enabled defaults to false", async () => {
        const inputs = programInputs({ registryModuleId: REGISTRY_MODULES.network, variableOptions: [] });
        delete inputs.versionPin;
        delete inputs.enabled;
        const result = await fx.host.check(urn("network"), {}, inputs);
        expect(result.failures).toEqual([]);
        const created = await fx.host.create(urn("network"), result.inputs);
        expect(created.outputs).toMatchObject({ registryModuleId: REGISTRY_MODULES.network, versionPin: "2.0.0", enabled: false });
        expect((await rawModule(created.id)).attributes).toMatchObject({ "version-pin": "2.0.0", enabled: false });
        // A second `up` of a program that still leaves the pin out changes nothing.
        const again = await fx.host.check(urn("network"), result.inputs, inputs);
        expect((await fx.host.diff(urn("network"), created.id, created.outputs, again.inputs, result.inputs)).changes).toBe("none");
        await fx.host.delete(urn("network"), created.id, created.outputs, result.inputs);
        expect(await noCodeModulesOf(REGISTRY_MODULES.network)).toEqual([]);
    });

    test("Diff reports no change when the program is unchanged", async () => {
        expect(await fx.host.diff(urn(), id, state, checked, checked)).toMatchObject({ changes: "none", replaces: [] });
    });

    test("Diff of variableOptions given in another order is no change", async () => {
        const reordered = [...(checked.variableOptions as unknown[])].reverse();
        const result = await fx.host.diff(urn(), id, state, { ...checked, variableOptions: reordered }, checked);
        expect(result.changes).toBe("none");
    });

    test("Diff changes the pin, enabled and the options sets in place", async () => {
        const region = { variableName: "region", variableType: "string", options: ["eu-west-1", "us-east-1"] };
        for (const change of [
            { versionPin: "1.1.0" },
            { enabled: false },
            { variableOptions: [region] },
            { variableOptions: [{ ...region, options: ["eu-west-1"] }, (checked.variableOptions as unknown[])[1]] },
            { variableOptions: [...(checked.variableOptions as unknown[]), { variableName: "tags", variableType: "map(string)", options: ["{}"] }] },
        ]) {
            const result = await fx.host.diff(urn(), id, state, { ...checked, ...change }, checked);
            expect({ change, ...result }).toMatchObject({ change, changes: "some", replaces: [] });
        }
    });

    test("Diff replaces a module moved to another organization or another registry module", async () => {
        for (const [change, property] of [
            [{ organization: "globex" }, "organization"],
            [{ registryModuleId: REGISTRY_MODULES.network }, "registryModuleId"],
        ] as const) {
            const result = await fx.host.diff(urn(), id, state, { ...checked, ...change }, checked);
            expect({ change, ...result }).toMatchObject({ change, changes: "some", replaces: [property] });
        }
    });

    test("Read with no drift reports exactly the state", async () => {
        const read = await fx.host.read(urn(), id, state, checked);
        expect(read.id).toBe(id);
        expect(read.outputs).toEqual(state);
    });

    test("Read reports drift made over raw HTTP (enabled, pin)", async () => {
        const patched = await fx.server.request("PATCH", `/no-code-modules/${id}`, {
            token: TOKENS.owners,
            body: { data: { type: "no-code-modules", attributes: { enabled: false, "version-pin": "1.1.0" } } },
        });
        expect(patched.status).toBe(200);

        const read = await fx.host.read(urn(), id, state, checked);
        expect(read.id).toBe(id);
        expect(read.outputs).toMatchObject({ __provider: checked.__provider, enabled: false, versionPin: "1.1.0" });
        expect(setsOf(read.outputs)).toEqual(setsOf(state));
        expect(read.inputs).toMatchObject({ enabled: false, versionPin: "1.1.0" });
        expect(tokensIn(read.outputs)).toEqual([]);
        const diff = await fx.host.diff(urn(), id, read.outputs, checked, read.inputs);
        expect(diff).toMatchObject({ changes: "some", replaces: [] });
        state = read.outputs;
    });

    test("Update puts back the program's settings; a set still listed keeps its id, a dropped one is removed", async () => {
        const news = {
            ...checked,
            variableOptions: [{ variableName: "region", variableType: "string", options: ["eu-west-1", "us-east-1", "ap-south-1"] }],
        };
        const regionId = setsOf(state).region.id;
        const updated = await fx.host.update(urn(), id, state, news, checked);
        expect(updated.outputs).toEqual({
            __provider: checked.__provider,
            organization: "acme",
            registryModuleId: REGISTRY_MODULES.bucket,
            versionPin: "1.0.0",
            enabled: true,
            variableOptions: [
                { id: regionId, variableName: "region", variableType: "string", options: ["eu-west-1", "us-east-1", "ap-south-1"] },
            ],
        });
        expect(tokensIn(updated.outputs)).toEqual([]);
        const shown = await rawModule(id);
        expect(shown.attributes).toMatchObject({ enabled: true, "version-pin": "1.0.0" });
        expect(shown.sets).toEqual({ region: { id: regionId, type: "string", options: ["eu-west-1", "us-east-1", "ap-south-1"] } });
        state = updated.outputs;
        checked = news;
    });

    test("Update raises the pin and adds a set: the new set gets a new id, the kept one its old id", async () => {
        const news = {
            ...checked,
            versionPin: "1.1.0",
            variableOptions: [
                ...(checked.variableOptions as unknown[]),
                { variableName: "size", variableType: "number", options: ["5"] },
            ],
        };
        const regionId = setsOf(state).region.id;
        const updated = await fx.host.update(urn(), id, state, news, checked);
        expect(updated.outputs).toMatchObject({ versionPin: "1.1.0", enabled: true });
        const sets = setsOf(updated.outputs);
        expect(sets.region.id).toBe(regionId);
        expect(sets.size.id).toMatch(/^ncvaropt-/);
        expect(sets.size.id).not.toBe(regionId);
        const shown = await rawModule(id);
        expect(shown.attributes).toMatchObject({ "version-pin": "1.1.0" });
        expect(shown.sets).toEqual({
            region: { id: regionId, type: "string", options: ["eu-west-1", "us-east-1", "ap-south-1"] },
            size: { id: sets.size.id, type: "number", options: ["5"] },
        });
        expect((await fx.host.diff(urn(), id, updated.outputs, news, news)).changes).toBe("none");
        state = updated.outputs;
        checked = news;
    });

    test("an Update the service refuses (a set whose type is not the variable's) fails with its reason and changes nothing", async () => {
        const before = await rawModule(id);
        const news = {
            ...checked,
            enabled: false,
            variableOptions: [{ variableName: "region", variableType: "number", options: ["1"] }],
        };
        const error = await failure(fx.host.update(urn(), id, state, news, checked));
        expect(error).toBeInstanceOf(ProviderCallError);
        expect(error.message).toContain("region");
        expect(tokensIn(error.message)).toEqual([]);
        expect(await rawModule(id)).toEqual(before);
    });

    test("Read by id alone (the state holds only the serialized provider) reports the whole module", async () => {
        const read = await fx.host.read(urn("by-id"), id, { __provider: checked.__provider });
        expect(read.id).toBe(id);
        expect(read.outputs).toEqual(state);
    });

    test("Delete disables no-code provisioning, deleting it again succeeds, and a Read then reports it gone", async () => {
        await fx.host.delete(urn(), id, state, checked);
        expect((await rawModule(id)).status).toBe(404);
        expect(await noCodeModulesOf(REGISTRY_MODULES.bucket)).toEqual([]);
        await expect(fx.host.delete(urn(), id, state, checked)).resolves.toBeUndefined();
        const read = await fx.host.read(urn(), id, state, checked);
        expect(read.id).toBe("");
    });
});

describe("wos:NoCodeModule create whose answer is lost after the service committed it", () => {
    const CREATE_PATH = "^/api/v2/organizations/[^/]+/no-code-modules$";
    afterEach(async () => {
        await fx.server.clearFaults();
    });

    test("the provider finds the module it made through its registry module: one no-code module, no error", async () => {
        await fx.server.addFault({ method: "POST", path: CREATE_PATH, times: 1, status: 503, afterCommit: true });
        const inputs = programInputs({
            registryModuleId: REGISTRY_MODULES.network,
            versionPin: "2.0.0",
            variableOptions: [{ variableName: "cidr", variableType: "string", options: ["10.0.0.0/16"] }],
        });
        const created = await fx.host.create(urn("lost"), inputs);
        expect(created.id).toMatch(/^nocode-/);
        expect(created.outputs).toMatchObject({ registryModuleId: REGISTRY_MODULES.network, versionPin: "2.0.0", enabled: true });
        expect(setsOf(created.outputs).cidr.options).toEqual(["10.0.0.0/16"]);
        expect(await noCodeModulesOf(REGISTRY_MODULES.network)).toEqual([created.id]);
        expect(tokensIn(created.outputs)).toEqual([]);
        await fx.host.delete(urn("lost"), created.id, created.outputs, inputs);
        expect(await noCodeModulesOf(REGISTRY_MODULES.network)).toEqual([]);
    });
});

describe("wos:NoCodeModule host output", () => {
    test("the host's logs never contain a token", () => {
        expect(tokensIn(fx.host.logs())).toEqual([]);
    });
});
