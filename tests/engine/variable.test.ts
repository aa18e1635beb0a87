/**
 * `wos.Variable` from the packed package, driven through `@pulumi/pulumi`'s provider host over gRPC in the
 * engine's order, against the local service: a plain variable and a sensitive one.
 *
 * Secrets, at the level that is real here: the host declares `acceptSecrets=false`, so it receives and
 * answers plain values, and the engine marks an output secret when the input of the same name was secret
 * (`annotateSecrets`) or when the registration lists it in `additionalSecretOutputs`. The tests prove the
 * program side (the registered `value` input is a secret, and listed), the host side (it answers plain
 * values, so the marking must come from the input), and the result the engine stores (the harness applies
 * the engine's rule).
 */
import { isSecret, ProviderCallError, secret, UNKNOWN, type PropertyMap } from "../support/providerHost";
import { TOKENS, WORKSPACES } from "../support/seed";
import { failure, tokensIn, TYPES, useEngineFixture } from "./fixture";

const fx = useEngineFixture();

/** The value the capture program gave its sensitive variable (as plain text: the class must protect it). */
const SENSITIVE_VALUE = "not-marked-secret-by-the-program";

const urn = (name: string) => fx.host.urn(TYPES.variable, name);
const programInputs = (name: string, overrides: PropertyMap = {}): PropertyMap => ({
    ...fx.registration(name).inputs,
    ...overrides,
});

/** The variables of the seeded workspace `web-app`, over raw HTTP. */
async function variablesOfWebApp(): Promise<Array<{ id: string; attributes: Record<string, unknown> }>> {
    const response = await fx.server.request(
        "GET",
        "/vars?filter%5Bworkspace%5D%5Bname%5D=web-app&filter%5Borganization%5D%5Bname%5D=acme",
        { token: TOKENS.owners },
    );
    expect(response.status).toBe(200);
    return response.body.data;
}

async function variable(id: string): Promise<Record<string, unknown> | undefined> {
    return (await variablesOfWebApp()).find((candidate) => candidate.id === id)?.attributes;
}

describe("wos:Variable registration", () => {
    test("the program registers the type token pulumi-nodejs:dynamic/wos:Variable", () => {
        expect(fx.registration("capture-plain").type).toBe("pulumi-nodejs:dynamic/wos:Variable");
        expect(fx.registration("capture-sensitive").type).toBe("pulumi-nodejs:dynamic/wos:Variable");
    });

    test("the serialized provider is plain text that loads the handlers by package name and holds no token", () => {
        for (const name of ["capture-plain", "capture-sensitive"]) {
            const provider = fx.registration(name).inputs.__provider;
            expect(typeof provider).toBe("string");
            expect(isSecret(provider)).toBe(false);
            expect(provider).toContain('require("pulumi-wos/dist/provider/handlers/variable")');
            expect(tokensIn(provider)).toEqual([]);
        }
    });

    test("a sensitive variable registers its value as a secret and lists it in additionalSecretOutputs", () => {
        const sensitive = fx.registration("capture-sensitive");
        expect(sensitive.inputs.value).toEqual(secret(SENSITIVE_VALUE));
        expect(sensitive.additionalSecretOutputs).toEqual(["value"]);
        const plain = fx.registration("capture-plain");
        expect(plain.inputs.value).toBe("info");
        expect(plain.additionalSecretOutputs).toEqual([]);
    });
});

describe("wos:Variable (plain) lifecycle through the provider host", () => {
    let id = "";
    let checked: PropertyMap = {};
    let state: PropertyMap = {};
    const name = "capture-plain";

    test("Check rejects invalid inputs, naming each property, before any request: the service sees no write", async () => {
        const before = await variablesOfWebApp();
        const result = await fx.host.check(
            urn(name),
            {},
            programInputs(name, {
                workspaceId: "prj-not-a-workspace",
                key: "",
                category: "terraform",
                description: "d".repeat(513),
                hcl: "yes",
            }),
        );
        expect(result.failures.map((f) => f.property).sort()).toEqual(
            expect.arrayContaining(["category", "description", "hcl", "key", "workspaceId"]),
        );
        for (const f of result.failures) expect(f.reason).toContain(f.property);
        const missing = await fx.host.check(urn(name), {}, { __provider: programInputs(name).__provider });
        expect(missing.failures.map((f) => f.property).sort()).toEqual(["category", "key", "workspaceId"]);
        expect(await variablesOfWebApp()).toEqual(before);
    });

    test("Check lets values that are unknown during preview pass, and fills the defaults", async () => {
        const unknown = await fx.host.check(urn(name), {}, programInputs(name, { workspaceId: UNKNOWN, value: UNKNOWN }));
        expect(unknown.failures).toEqual([]);
        const result = await fx.host.check(urn(name), {}, programInputs(name));
        expect(result.failures).toEqual([]);
        expect(result.inputs).toMatchObject({ key: "LOG_LEVEL", value: "info", category: "env", hcl: false, sensitive: false });
        checked = result.inputs;
    });

    test("Create makes the variable in the workspace; the outputs hold no token", async () => {
        const created = await fx.host.create(urn(name), checked);
        id = created.id;
        state = created.outputs;
        expect(id).toMatch(/^var-/);
        expect(state).toEqual({
            __provider: checked.__provider,
            workspaceId: WORKSPACES.appsWeb,
            key: "LOG_LEVEL",
            value: "info",
            category: "env",
            hcl: false,
            sensitive: false,
        });
        expect(tokensIn(state)).toEqual([]);
        expect(await variable(id)).toMatchObject({ key: "LOG_LEVEL", value: "info", category: "env", sensitive: false });
    });

    test("Diff reports no change when the program is unchanged", async () => {
        expect(await fx.host.diff(urn(name), id, state, checked, checked)).toMatchObject({ changes: "none", replaces: [] });
    });

    test("Diff changes value, key, category, description and hcl of a plain variable in place", async () => {
        for (const change of [
            { value: "debug" },
            { key: "LOG_LEVEL_2" },
            { category: "infra" },
            { description: "now described" },
            { hcl: true },
            { sensitive: true },
        ]) {
            const result = await fx.host.diff(urn(name), id, state, { ...checked, ...change }, checked);
            expect({ change, ...result }).toMatchObject({ change, changes: "some", replaces: [] });
        }
    });

    test("Diff replaces a variable moved to another workspace", async () => {
        const result = await fx.host.diff(urn(name), id, state, { ...checked, workspaceId: WORKSPACES.appsLegacy }, checked);
        expect(result).toMatchObject({ changes: "some", replaces: ["workspaceId"] });
    });

    test("Read reports drift made over raw HTTP", async () => {
        const patched = await fx.server.request("PATCH", `/vars/${id}`, {
            token: TOKENS.owners,
            body: { data: { type: "vars", id, attributes: { value: "trace", description: "by hand" } } },
        });
        expect(patched.status).toBe(200);
        const read = await fx.host.read(urn(name), id, state, checked);
        expect(read.id).toBe(id);
        expect(read.outputs).toMatchObject({ value: "trace", description: "by hand", key: "LOG_LEVEL" });
        expect((await fx.host.diff(urn(name), id, read.outputs, checked, read.inputs)).changes).toBe("some");
        state = read.outputs;
    });

    test("Update puts back the program's value and applies an hcl change", async () => {
        const news = { ...checked, hcl: true };
        const updated = await fx.host.update(urn(name), id, state, news, checked);
        expect(updated.outputs).toMatchObject({ value: "info", hcl: true, key: "LOG_LEVEL" });
        expect(await variable(id)).toMatchObject({ value: "info", hcl: true });
        state = updated.outputs;
        checked = news;
    });

    test("Read by id alone (a get: the state holds only the serialized provider) finds the variable among all readable ones", async () => {
        const read = await fx.host.read(urn("by-id"), id, { __provider: checked.__provider });
        expect(read.id).toBe(id);
        expect(read.outputs).toEqual(state);
    });

    test("a Create the service refuses fails with the service's reason and never the token", async () => {
        const error = await failure(fx.host.create(urn("duplicate"), checked));
        expect(error).toBeInstanceOf(ProviderCallError);
        expect(error.message).toContain("LOG_LEVEL");
        expect(tokensIn(error.message)).toEqual([]);
        expect((await variablesOfWebApp()).filter((v) => v.attributes.key === "LOG_LEVEL")).toHaveLength(1);
    });

    test("Delete removes the variable, deleting it again succeeds, and a Read then reports it gone", async () => {
        await fx.host.delete(urn(name), id, state, checked);
        expect(await variable(id)).toBeUndefined();
        await expect(fx.host.delete(urn(name), id, state, checked)).resolves.toBeUndefined();
        expect((await fx.host.read(urn(name), id, state, checked)).id).toBe("");
    });
});

describe("wos:Variable (sensitive) lifecycle through the provider host", () => {
    let id = "";
    let checked: PropertyMap = {};
    let state: PropertyMap = {};
    const name = "capture-sensitive";

    test("Check sends the host the plain value (acceptSecrets=false) and the engine keeps the checked value secret", async () => {
        const result = await fx.host.check(urn(name), {}, programInputs(name));
        expect(result.failures).toEqual([]);
        expect(result.rawInputs.value).toBe(SENSITIVE_VALUE);
        expect(result.inputs.value).toEqual(secret(SENSITIVE_VALUE));
        checked = result.inputs;
    });

    test("Create: the host answers the value plain, the engine stores it as a secret, the service never shows it", async () => {
        const created = await fx.host.create(urn(name), checked);
        id = created.id;
        state = created.outputs;
        expect(created.rawOutputs.value).toBe(SENSITIVE_VALUE);
        expect(state.value).toEqual(secret(SENSITIVE_VALUE));
        expect(state).toMatchObject({ key: "DB_PASSWORD", category: "env", sensitive: true, hcl: false });
        const stored = await variable(id);
        expect(stored).toMatchObject({ key: "DB_PASSWORD", sensitive: true });
        expect(stored?.value ?? null).toBeNull();
        expect(tokensIn(state)).toEqual([]);
    });

    test("Diff compares the program's value with the last one written, not with what the service hides", async () => {
        expect(await fx.host.diff(urn(name), id, state, checked, checked)).toMatchObject({ changes: "none", replaces: [] });
        const newValue = await fx.host.diff(urn(name), id, state, { ...checked, value: secret("rotated") }, checked);
        expect(newValue).toMatchObject({ changes: "some", replaces: [] });
    });

    test("Diff replaces a sensitive variable whose key or category changes, or that stops being sensitive; it deletes first only when both would hold the same key", async () => {
        const cases: Array<[PropertyMap, string, boolean]> = [
            [{ key: "DB_PASS" }, "key", false],
            [{ category: "infra" }, "category", false],
            [{ sensitive: false }, "sensitive", true],
            [{ workspaceId: WORKSPACES.appsLegacy }, "workspaceId", false],
            // During preview: the workspace may turn out to be the same one, where the key is taken.
            [{ workspaceId: UNKNOWN }, "workspaceId", true],
        ];
        for (const [change, property, deleteBeforeReplace] of cases) {
            const result = await fx.host.diff(urn(name), id, state, { ...checked, ...change }, checked);
            expect({ change, ...result }).toMatchObject({ change, changes: "some", replaces: [property], deleteBeforeReplace });
        }
    });

    test("Read keeps the last written value as a secret, because the service cannot return it", async () => {
        const read = await fx.host.read(urn(name), id, state, checked);
        expect(read.id).toBe(id);
        expect(read.rawOutputs.value).toBe(SENSITIVE_VALUE);
        expect(read.outputs.value).toEqual(secret(SENSITIVE_VALUE));
        expect(read.inputs?.value).toEqual(secret(SENSITIVE_VALUE));
        expect((await fx.host.diff(urn(name), id, read.outputs, checked, read.inputs)).changes).toBe("none");
    });

    test("Update writes a new value, which the engine keeps as a secret", async () => {
        const news = { ...checked, value: secret("rotated-value") };
        const updated = await fx.host.update(urn(name), id, state, news, checked);
        expect(updated.rawOutputs.value).toBe("rotated-value");
        expect(updated.outputs.value).toEqual(secret("rotated-value"));
        state = updated.outputs;
        checked = news;
    });

    test("a refused Create of a sensitive variable names the key and shows neither the value nor the token", async () => {
        const error = await failure(fx.host.create(urn("duplicate-sensitive"), checked));
        expect(error).toBeInstanceOf(ProviderCallError);
        expect(error.message).toContain("DB_PASSWORD");
        expect(error.message).not.toContain("rotated-value");
        expect(tokensIn(error.message)).toEqual([]);
    });

    test("Delete removes the variable and deleting it again succeeds", async () => {
        await fx.host.delete(urn(name), id, state, checked);
        expect(await variable(id)).toBeUndefined();
        await expect(fx.host.delete(urn(name), id, state, checked)).resolves.toBeUndefined();
    });

    test("the host's logs contain neither a token nor a sensitive value", () => {
        const logs = fx.host.logs();
        expect(tokensIn(logs)).toEqual([]);
        expect(logs).not.toContain(SENSITIVE_VALUE);
        expect(logs).not.toContain("rotated-value");
    });
});

describe("wos:Variable create whose answer is lost after the service committed it", () => {
    const CREATE_PATH = "^/api/v2/vars$";
    const name = "capture-plain";
    afterEach(async () => {
        await fx.server.clearFaults();
    });

    test("the provider finds the variable it made by key and category: one variable, no error", async () => {
        await fx.server.addFault({ method: "POST", path: CREATE_PATH, times: 1, status: 503, afterCommit: true });
        const inputs = programInputs(name, { key: "LOST_ANSWER", hcl: false, sensitive: false });
        const created = await fx.host.create(urn("lost"), inputs);
        expect(created.id).toMatch(/^var-/);
        expect(created.outputs).toMatchObject({ key: "LOST_ANSWER", value: "info" });
        expect((await variablesOfWebApp()).filter((v) => v.attributes.key === "LOST_ANSWER").map((v) => v.id)).toEqual([
            created.id,
        ]);
        await fx.host.delete(urn("lost"), created.id, created.outputs, inputs);
    });

    test("when finishing the found variable fails, the engine gets a partial success it can refresh and destroy later", async () => {
        await fx.server.addFault({ method: "POST", path: CREATE_PATH, times: 1, status: 503, afterCommit: true });
        await fx.server.addFault({ method: "PATCH", path: "^/api/v2/vars/var-[^/]+$", times: 1, status: 422 });
        const inputs = programInputs(name, { key: "HALF_MADE", hcl: false, sensitive: false });
        const error = await failure(fx.host.create(urn("half"), inputs));
        expect(error).toBeInstanceOf(ProviderCallError);
        const initFailure = (error as ProviderCallError).initFailure;
        const made = (await variablesOfWebApp()).filter((v) => v.attributes.key === "HALF_MADE");
        expect(made).toHaveLength(1);
        expect(initFailure?.id).toBe(made[0].id);
        expect(tokensIn(error.message)).toEqual([]);

        // The engine keeps these properties as the outputs; a later Read or Delete loads its provider from
        // their `__provider`, which the host does not add to a partial answer.
        expect(initFailure?.properties.__provider).toBe(inputs.__provider);
        const state = initFailure!.properties;
        expect((await fx.host.read(urn("half"), initFailure!.id, state, inputs)).id).toBe(initFailure!.id);
        await fx.host.delete(urn("half"), initFailure!.id, state, inputs);
        expect((await variablesOfWebApp()).filter((v) => v.attributes.key === "HALF_MADE")).toEqual([]);
    });

    test("a partial success of a sensitive variable leaves its value a secret in the state the engine stores", async () => {
        await fx.server.addFault({ method: "POST", path: CREATE_PATH, times: 1, status: 503, afterCommit: true });
        await fx.server.addFault({ method: "PATCH", path: "^/api/v2/vars/var-[^/]+$", times: 1, status: 422 });
        const inputs = programInputs("capture-sensitive", { key: "HALF_SECRET", hcl: false, sensitive: true });
        const error = await failure(fx.host.create(urn("half-secret"), inputs));
        const initFailure = (error as ProviderCallError).initFailure!;
        expect(initFailure.rawProperties.value).toBe(SENSITIVE_VALUE);
        expect(initFailure.properties.value).toEqual(secret(SENSITIVE_VALUE));
        expect(error.message).not.toContain(SENSITIVE_VALUE);
        await fx.host.delete(urn("half-secret"), initFailure.id, initFailure.properties, inputs);
        expect((await variablesOfWebApp()).filter((v) => v.attributes.key === "HALF_SECRET")).toEqual([]);
    });
});
