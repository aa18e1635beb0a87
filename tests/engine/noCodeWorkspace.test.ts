/**
 * `wos.NoCodeWorkspace` from the packed package, driven through `@pulumi/pulumi`'s provider host over gRPC
 * in the engine's order, against the local service: the whole life of a workspace made from a no-code
 * module, with its upgrades (by vars, by module version with cost estimation on, a failed plan, a plan
 * still running from elsewhere, a deadline), a move, a rename, a var removed and a delete.
 *
 * The service runs plans fast (`FAST_UPGRADES`), except for the deadline, which has its own service whose
 * plans never finish while the test runs. The no-code module of acme is made over raw HTTP; initech's
 * (cost estimation on) through the provider host, as a program would, with a host of its own token.
 *
 * Secrets: the shell registers `vars` without the sensitive value and that value in `sensitiveValues`, a secret
 * listed in `additionalSecretOutputs` (so that a preview shows every other value); the host answers plain
 * values (`acceptSecrets=false`) and the harness marks them as the engine does, so every answer is checked
 * for `sensitiveValues` being a secret, and `vars` not, in what the engine stores.
 */
import {
    isSecret,
    ProviderCallError,
    revealSecrets,
    secret,
    UNKNOWN,
    type PropertyMap,
    type ProviderHost,
} from "../support/providerHost";
import type { TestServer } from "../support/server";
import { REGISTRY_MODULES, TOKENS } from "../support/seed";
import { failure, NO_CODE_SENSITIVE_VALUE, tokensIn, TYPES, useNoCodeEngineFixture } from "./fixture";

const fx = useNoCodeEngineFixture();

/** A workspace var as the program writes it. */
interface WorkspaceVar {
    key: string;
    value?: string;
    category: "infra" | "env";
    description?: string;
    hcl?: boolean;
    sensitive?: boolean;
}

/** A new value of the sensitive var, written by an upgrade. */
const ROTATED_VALUE = "nocode-rotated-value-never-shown";
const UPGRADE_PATH = "^/api/v2/no-code-modules/[^/]+/workspaces/[^/]+/upgrade$";

const urn = (name = "capture-workspace", host: ProviderHost = fx.host) => host.urn(TYPES.noCodeWorkspace, name);

/** The key of a var's value in `sensitiveValues`. */
const valueKey = (item: { key: string; category: string }) => `${item.category}:${item.key}`;

/** The whole vars of a property bag (the values kept apart put back), without the secret markers. */
const varsIn = (bag: PropertyMap): WorkspaceVar[] => {
    const values = (revealSecrets(bag.sensitiveValues) ?? {}) as Record<string, string>;
    return (revealSecrets(bag.vars) as WorkspaceVar[]).map((item) =>
        values[valueKey(item)] === undefined ? item : { ...item, value: values[valueKey(item)] },
    );
};

/** Vars in a form that compares the same whatever the order and whichever defaults were filled in. */
function normalVars(vars: WorkspaceVar[]) {
    return vars
        .map((v) => ({
            key: v.key,
            value: v.value ?? "",
            category: v.category,
            description: v.description ?? "",
            hcl: v.hcl ?? false,
            sensitive: v.sensitive ?? false,
        }))
        .sort((a, b) => `${a.category}/${a.key}`.localeCompare(`${b.category}/${b.key}`));
}

/** `bag` with its vars replaced as the shell registers them: sensitive values apart, in a secret. */
const withVars = (bag: PropertyMap, vars: WorkspaceVar[]): PropertyMap => ({
    ...bag,
    vars: vars.map(({ value, ...item }) => (item.sensitive ? item : { ...item, value })),
    sensitiveValues: secret(Object.fromEntries(vars.filter((item) => item.sensitive).map((item) => [valueKey(item), item.value ?? ""]))),
});

/** `vars` with the var of this key changed. */
const changeVar = (vars: WorkspaceVar[], key: string, change: Partial<WorkspaceVar>): WorkspaceVar[] =>
    vars.map((v) => (v.key === key ? { ...v, ...change } : v));

/** The sensitive value is a secret in what the engine stores, and the given value there. */
function expectSecretVars(outputs: PropertyMap, sensitiveValue: string): void {
    expect(isSecret(outputs.sensitiveValues)).toBe(true);
    expect(revealSecrets(outputs.sensitiveValues)).toEqual({ "env:DB_PASSWORD": sensitiveValue });
    // `vars` is readable: no secret, and no sensitive value in it.
    expect(isSecret(outputs.vars)).toBe(false);
    expect(JSON.stringify(outputs.vars)).not.toContain(sensitiveValue);
    expect(varsIn(outputs).find((v) => v.key === "DB_PASSWORD")?.value).toBe(sensitiveValue);
}

/** Raw HTTP helpers on a service (owners token of the organization). */
function raw(server: TestServer, token: string = TOKENS.owners) {
    const get = (pathname: string) => server.request("GET", pathname, { token });
    return {
        async projectId(organization: string, name: string): Promise<string> {
            const response = await get(`/organizations/${organization}/projects?filter%5Bnames%5D=${encodeURIComponent(name)}`);
            expect(response.body.data).toHaveLength(1);
            return response.body.data[0].id as string;
        },
        /** The workspace document's data, or undefined when it is gone. */
        async workspace(id: string): Promise<any> {
            const response = await get(`/workspaces/${id}`);
            if (response.status === 404) return undefined;
            expect(response.status).toBe(200);
            return response.body.data;
        },
        /** Status of the show-by-name of a workspace (404: none of that name). */
        async workspaceNamed(organization: string, name: string): Promise<{ status: number; id?: string }> {
            const response = await get(`/organizations/${organization}/workspaces/${encodeURIComponent(name)}`);
            return { status: response.status, id: response.body?.data?.id };
        },
        /** The vars of a workspace by `category/key`. */
        async vars(workspaceId: string, organization = "acme"): Promise<Record<string, Record<string, unknown>>> {
            const workspace = await this.workspace(workspaceId);
            const response = await get(
                `/vars?filter%5Bworkspace%5D%5Bname%5D=${workspace.attributes.name}&filter%5Borganization%5D%5Bname%5D=${organization}`,
            );
            expect(response.status).toBe(200);
            return Object.fromEntries(
                (response.body.data as Array<{ attributes: Record<string, unknown> }>).map((v) => [
                    `${v.attributes.category}/${v.attributes.key}`,
                    v.attributes,
                ]),
            );
        },
        /** The status of an upgrade run. */
        async runStatus(moduleId: string, workspaceId: string, runId: string): Promise<string> {
            const response = await get(`/no-code-modules/${moduleId}/workspaces/${workspaceId}/upgrade/${runId}`);
            expect(response.status).toBe(200);
            return response.body.data.attributes.status as string;
        },
        /** A no-code module of the organization, made over raw HTTP: its id. */
        async makeModule(organization: string, registryModuleId: string, versionPin: string): Promise<string> {
            const response = await server.request("POST", `/organizations/${organization}/no-code-modules`, {
                token,
                body: {
                    data: {
                        type: "no-code-modules",
                        attributes: { "version-pin": versionPin, enabled: true },
                        relationships: {
                            "registry-module": { data: { type: "registry-module", id: registryModuleId } },
                            "variable-options": {
                                data: [
                                    {
                                        type: "variable-options",
                                        attributes: { "variable-name": "region", "variable-type": "string", options: ["eu-west-1", "us-east-1"] },
                                    },
                                    {
                                        type: "variable-options",
                                        attributes: { "variable-name": "size", "variable-type": "number", options: ["1", "2", "3"] },
                                    },
                                ],
                            },
                        },
                    },
                },
            });
            expect(response.status).toBe(200);
            return response.body.data.id as string;
        },
    };
}

/** The run id a failure message names (in its plan URL), if any. */
const runIdIn = (message: string): string | undefined => /run-[A-Za-z0-9]+/.exec(message)?.[0];

let acme: ReturnType<typeof raw>;
let moduleId = "";
let appsId = "";
let stagingId = "";

beforeAll(async () => {
    acme = raw(fx.server);
    moduleId = await acme.makeModule("acme", REGISTRY_MODULES.bucket, "1.0.0");
    appsId = await acme.projectId("acme", "Apps");
    stagingId = await acme.projectId("acme", "Staging");
});

afterEach(async () => {
    await fx.server.clearFaults();
});

/** The inputs the program registered (with its `__provider`) on the real module and project, with some replaced. */
const programInputs = (overrides: PropertyMap = {}): PropertyMap => ({
    ...fx.registration("capture-workspace").inputs,
    noCodeModuleId: moduleId,
    projectId: appsId,
    ...overrides,
});

describe("wos:NoCodeWorkspace registration", () => {
    test("the program registers the type token pulumi-nodejs:dynamic/wos:NoCodeWorkspace", () => {
        expect(fx.registration("capture-workspace").type).toBe("pulumi-nodejs:dynamic/wos:NoCodeWorkspace");
        expect(urn()).toBe("urn:pulumi:test::wos-engine-test::pulumi-nodejs:dynamic/wos:NoCodeWorkspace::capture-workspace");
    });

    test("the serialized provider is plain text that loads the handlers by package name and holds no token", () => {
        const provider = fx.registration("capture-workspace").inputs.__provider;
        expect(typeof provider).toBe("string");
        expect(isSecret(provider)).toBe(false);
        expect(provider).toContain('require("pulumi-wos/dist/provider/handlers/noCodeWorkspace")');
        expect(tokensIn(provider)).toEqual([]);
    });

    test("the vars register readable, the sensitive value apart in the secret sensitiveValues (in additionalSecretOutputs); the module version follows the module", () => {
        const registration = fx.registration("capture-workspace");
        expect(isSecret(registration.inputs.vars)).toBe(false);
        expect(registration.inputs.vars).toEqual([
            { key: "region", value: "eu-west-1", category: "infra" },
            { key: "size", value: "2", category: "infra", description: "number of buckets" },
            { key: "DB_PASSWORD", category: "env", sensitive: true },
        ]);
        expect(isSecret(registration.inputs.sensitiveValues)).toBe(true);
        expect(revealSecrets(registration.inputs.sensitiveValues)).toEqual({ "env:DB_PASSWORD": NO_CODE_SENSITIVE_VALUE });
        expect(registration.additionalSecretOutputs).toEqual(["sensitiveValues"]);
        // Under mocks the module's outputs are its inputs: its id and its pin.
        expect(registration.inputs).toMatchObject({ noCodeModuleId: "capture-module-id", moduleVersion: "1.0.0" });
    });
});

describe("wos:NoCodeWorkspace lifecycle through the provider host", () => {
    let id = "";
    let checked: PropertyMap = {};
    let state: PropertyMap = {};

    /** `pulumi up` of new inputs: Check, Diff (must be an in-place change), Update; the engine's new state. */
    async function up(news: PropertyMap): Promise<PropertyMap> {
        const result = await fx.host.check(urn(), checked, news);
        expect(result.failures).toEqual([]);
        const diff = await fx.host.diff(urn(), id, state, result.inputs, checked);
        expect(diff).toMatchObject({ changes: "some", replaces: [] });
        const updated = await fx.host.update(urn(), id, state, result.inputs, checked);
        expect(tokensIn(updated.outputs)).toEqual([]);
        checked = result.inputs;
        state = updated.outputs;
        return state;
    }

    test("Check rejects invalid inputs, naming each property, before any request: the service sees no write", async () => {
        const result = await fx.host.check(
            urn(),
            {},
            programInputs({
                noCodeModuleId: "mod-not-a-no-code-module",
                projectId: "ws-not-a-project",
                name: "not a valid name!",
                executionMode: "local",
                moduleVersion: "latest",
                vars: [
                    { key: "region", value: "eu-west-1", category: "terraform" },
                    { key: "size", value: "1", category: "infra" },
                    { key: "size", value: "2", category: "infra" },
                ],
            }),
        );
        const properties = [...new Set(result.failures.map((f) => f.property))].sort();
        expect(properties).toEqual(["executionMode", "moduleVersion", "name", "noCodeModuleId", "projectId", "vars"]);
        for (const f of result.failures) expect(f.reason).toContain(f.property);
        const varReasons = result.failures.filter((f) => f.property === "vars").map((f) => f.reason).join("\n");
        expect(varReasons).toContain("size");
        expect(varReasons).toContain("category");

        const pool = await fx.host.check(urn(), {}, programInputs({ executionMode: "remote", agentPoolId: "apool-0000000000000001" }));
        expect(pool.failures.map((f) => f.property)).toEqual(["agentPoolId"]);
        const noPool = await fx.host.check(urn(), {}, programInputs({ executionMode: "agent" }));
        expect(noPool.failures.map((f) => f.property)).toEqual(["agentPoolId"]);

        const missing = await fx.host.check(urn(), {}, { __provider: programInputs().__provider });
        expect(missing.failures.map((f) => f.property).sort()).toEqual(["name", "noCodeModuleId", "projectId"]);

        expect((await acme.workspaceNamed("acme", "capture-site")).status).toBe(404);
    });

    test("Check lets values that are unknown during preview pass", async () => {
        const result = await fx.host.check(
            urn(),
            {},
            programInputs({ noCodeModuleId: UNKNOWN, projectId: UNKNOWN, moduleVersion: UNKNOWN, vars: UNKNOWN }),
        );
        expect(result.failures).toEqual([]);
    });

    test("Check sends the host plain values (acceptSecrets=false) and the engine keeps the checked sensitive values secret", async () => {
        const result = await fx.host.check(urn(), {}, programInputs());
        expect(result.failures).toEqual([]);
        expect(result.inputs.__provider).toBe(programInputs().__provider);
        expect(isSecret(result.rawInputs.sensitiveValues)).toBe(false);
        expect(isSecret(result.inputs.sensitiveValues)).toBe(true);
        expect(isSecret(result.inputs.vars)).toBe(false);
        expect(normalVars(varsIn(result.inputs))).toEqual(normalVars(varsIn(programInputs())));
        checked = result.inputs;
    });

    test("a Create whose moduleVersion is not the module's pin fails naming both versions, and writes nothing", async () => {
        const inputs = { ...checked, name: "capture-mismatch", moduleVersion: "1.1.0" };
        const error = await failure(fx.host.create(urn("mismatch"), inputs));
        expect(error).toBeInstanceOf(ProviderCallError);
        expect((error as ProviderCallError).initFailure).toBeUndefined();
        expect(error.message).toContain("1.1.0");
        expect(error.message).toContain("1.0.0");
        expect(error.message).not.toContain(NO_CODE_SENSITIVE_VALUE);
        expect(tokensIn(error.message)).toEqual([]);
        expect((await acme.workspaceNamed("acme", "capture-mismatch")).status).toBe(404);
    });

    test("a Create the service refuses (a value outside the options) fails with its reason, shows neither value nor token, and writes nothing", async () => {
        const inputs = withVars({ ...checked, name: "capture-refused" }, changeVar(varsIn(checked), "region", { value: "mars-1" }));
        const error = await failure(fx.host.create(urn("refused"), inputs));
        expect(error).toBeInstanceOf(ProviderCallError);
        expect(error.message).toContain("region");
        expect(error.message).not.toContain(NO_CODE_SENSITIVE_VALUE);
        expect(tokensIn(error.message)).toEqual([]);
        expect((await acme.workspaceNamed("acme", "capture-refused")).status).toBe(404);
    });

    test("Create makes the workspace from the module with its settings and vars; the sensitive value is a secret the service never shows", async () => {
        const created = await fx.host.create(urn(), checked);
        id = created.id;
        state = created.outputs;
        expect(id).toMatch(/^ws-/);
        // Every input as the service holds it (defaults filled in), the version it runs, and no upgrade yet.
        expect(state).toEqual({
            __provider: checked.__provider,
            noCodeModuleId: moduleId,
            projectId: appsId,
            name: "capture-site",
            description: "made by the engine tests",
            autoApply: true,
            executionMode: "remote",
            sourceName: "engine tests",
            sourceUrl: "https://example.com/engine-tests",
            vars: [
                { key: "region", value: "eu-west-1", category: "infra", hcl: false, sensitive: false },
                { key: "size", value: "2", category: "infra", description: "number of buckets", hcl: false, sensitive: false },
                { key: "DB_PASSWORD", category: "env", hcl: false, sensitive: true },
            ],
            sensitiveValues: secret({ "env:DB_PASSWORD": NO_CODE_SENSITIVE_VALUE }),
            moduleVersion: "1.0.0",
            noCodeUpgradeAvailable: false,
            upgradeTimeoutSeconds: 120,
        });
        expect(isSecret(created.rawOutputs.sensitiveValues)).toBe(false);
        expectSecretVars(state, NO_CODE_SENSITIVE_VALUE);
        expect(tokensIn(state)).toEqual([]);

        const workspace = await acme.workspace(id);
        expect(workspace.attributes).toMatchObject({
            name: "capture-site",
            description: "made by the engine tests",
            "auto-apply": true,
            "execution-mode": "remote",
            source: "tfe-module",
            "source-name": "engine tests",
            "source-url": "https://example.com/engine-tests",
            "source-module-id": REGISTRY_MODULES.bucket,
            "no-code-upgrade-available": false,
        });
        expect(workspace.relationships.project.data.id).toBe(appsId);
        expect(workspace.relationships["no-code-module-version"].data.id).toMatch(/^nocodever-/);
        const vars = await acme.vars(id);
        expect(Object.keys(vars).sort()).toEqual(["env/DB_PASSWORD", "infra/region", "infra/size"]);
        expect(vars["infra/region"]).toMatchObject({ value: "eu-west-1", sensitive: false });
        expect(vars["infra/size"]).toMatchObject({ value: "2", description: "number of buckets" });
        expect(vars["env/DB_PASSWORD"]).toMatchObject({ sensitive: true });
        expect(vars["env/DB_PASSWORD"].value ?? null).toBeNull();
    });

    test("Diff reports no change when the program is unchanged, lists its vars in another order, or only changes the deadline", async () => {
        expect(await fx.host.diff(urn(), id, state, checked, checked)).toMatchObject({ changes: "none", replaces: [] });
        const reordered = withVars(checked, [...varsIn(checked)].reverse());
        expect((await fx.host.diff(urn(), id, state, reordered, checked)).changes).toBe("none");
        const deadline = { ...checked, upgradeTimeoutSeconds: 60 };
        expect((await fx.host.diff(urn(), id, state, deadline, checked)).changes).toBe("none");
    });

    test("Diff changes name, description, auto-apply, source, project, vars and module version in place", async () => {
        for (const change of [
            { name: "capture-site-2" },
            { description: "another description" },
            { autoApply: false },
            { sourceName: "elsewhere" },
            { projectId: stagingId },
            { moduleVersion: "1.1.0" },
            withVars({}, changeVar(varsIn(checked), "region", { value: "us-east-1" })),
            withVars({}, changeVar(varsIn(checked), "DB_PASSWORD", { value: ROTATED_VALUE })),
            withVars({}, varsIn(checked).filter((v) => v.key !== "size")),
        ]) {
            const result = await fx.host.diff(urn(), id, state, { ...checked, ...change }, checked);
            expect({ change: Object.keys(change), ...result }).toMatchObject({ change: Object.keys(change), changes: "some", replaces: [] });
        }
    });

    test("Diff replaces a workspace made from another module, deleting first when the new one would take its name", async () => {
        const sameName = await fx.host.diff(urn(), id, state, { ...checked, noCodeModuleId: "nocode-another" }, checked);
        expect(sameName).toMatchObject({ changes: "some", replaces: ["noCodeModuleId"], deleteBeforeReplace: true });
        const otherName = await fx.host.diff(urn(), id, state, { ...checked, noCodeModuleId: "nocode-another", name: "elsewhere" }, checked);
        expect(otherName).toMatchObject({ changes: "some", replaces: ["noCodeModuleId"], deleteBeforeReplace: false });
    });

    test("Read with no drift reports exactly the state, the sensitive value kept as a secret", async () => {
        const read = await fx.host.read(urn(), id, state, checked);
        expect(read.id).toBe(id);
        expect(read.outputs).toEqual(state);
        expectSecretVars(read.outputs, NO_CODE_SENSITIVE_VALUE);
        expect((await fx.host.diff(urn(), id, read.outputs, checked, read.inputs ?? checked)).changes).toBe("none");
    });

    test("Read reports drift made over raw HTTP (description), and Update puts it back in place without an upgrade", async () => {
        const patched = await fx.server.request("PATCH", `/workspaces/${id}`, {
            token: TOKENS.owners,
            body: { data: { type: "workspaces", attributes: { description: "changed by hand" } } },
        });
        expect(patched.status).toBe(200);
        const versionBefore = (await acme.workspace(id)).relationships["no-code-module-version"].data.id;

        const read = await fx.host.read(urn(), id, state, checked);
        expect(read.outputs).toMatchObject({ description: "changed by hand", name: "capture-site" });
        expect(tokensIn(read.outputs)).toEqual([]);
        expectSecretVars(read.outputs, NO_CODE_SENSITIVE_VALUE);
        if (read.inputs) expect(read.inputs).toMatchObject({ description: "changed by hand" });
        expect((await fx.host.diff(urn(), id, read.outputs, checked, read.inputs ?? checked)).changes).toBe("some");

        const updated = await fx.host.update(urn(), id, read.outputs, checked, read.inputs ?? checked);
        expect(updated.outputs).toMatchObject({ description: "made by the engine tests", moduleVersion: "1.0.0" });
        expect(updated.outputs.lastUpgrade).toBeUndefined();
        expectSecretVars(updated.outputs, NO_CODE_SENSITIVE_VALUE);
        const workspace = await acme.workspace(id);
        expect(workspace.attributes.description).toBe("made by the engine tests");
        expect(workspace.relationships["no-code-module-version"].data.id).toBe(versionBefore);
        state = updated.outputs;
    });

    test("an upgrade by vars: new values are planned, confirmed and applied; the rotated sensitive value stays a secret", async () => {
        const news = withVars(
            checked,
            changeVar(changeVar(varsIn(checked), "region", { value: "us-east-1" }), "DB_PASSWORD", { value: ROTATED_VALUE }),
        );
        const outputs = await up(news);
        expect(outputs).toMatchObject({ moduleVersion: "1.0.0", noCodeUpgradeAvailable: false, name: "capture-site" });
        expectSecretVars(outputs, ROTATED_VALUE);
        const lastUpgrade = outputs.lastUpgrade as { id: string; status: string; planUrl: string };
        expect(lastUpgrade).toEqual({ id: expect.stringMatching(/^run-/), status: "applied", planUrl: expect.stringMatching(/^https?:\/\//) });

        expect(await acme.runStatus(moduleId, id, lastUpgrade.id)).toBe("applied");
        const vars = await acme.vars(id);
        expect(vars["infra/region"]).toMatchObject({ value: "us-east-1" });
        expect(vars["infra/size"]).toMatchObject({ value: "2" });
        expect(vars["env/DB_PASSWORD"].value ?? null).toBeNull();
        // The progress went to the Pulumi log, with the plan URL.
        expect(fx.host.logs()).toContain(lastUpgrade.planUrl);
    });

    test("a plan that fails (errored) fails the update with its status and plan URL, and leaves state and service as they were", async () => {
        await fx.server.addFault({ method: "POST", path: UPGRADE_PATH, times: 1, planOutcome: "errored" });
        const before = { vars: await acme.vars(id), workspace: await acme.workspace(id) };
        const news = withVars(checked, changeVar(varsIn(checked), "region", { value: "eu-west-1" }));
        const result = await fx.host.check(urn(), checked, news);

        const error = await failure(fx.host.update(urn(), id, state, result.inputs, checked));
        expect(error).toBeInstanceOf(ProviderCallError);
        expect(error.message).toContain("errored");
        expect(error.message).toMatch(/https?:\/\/\S+/);
        expect(error.message).not.toContain(ROTATED_VALUE);
        expect(tokensIn(error.message)).toEqual([]);
        const runId = runIdIn(error.message);
        expect(runId).toBeDefined();
        expect(await acme.runStatus(moduleId, id, runId!)).toBe("errored");

        // What the engine keeps: the old vars (the host either fails plainly or reports the old state).
        const initFailure = (error as ProviderCallError).initFailure;
        if (initFailure) {
            expect(initFailure.id).toBe(id);
            expect(initFailure.properties.__provider).toBe(checked.__provider);
            expect(normalVars(varsIn(initFailure.properties))).toEqual(normalVars(varsIn(state)));
            expect(initFailure.properties.moduleVersion).toBe("1.0.0");
            expectSecretVars(initFailure.properties, ROTATED_VALUE);
            expect(tokensIn(initFailure)).toEqual([]);
            state = initFailure.properties;
        }
        expect(await acme.vars(id)).toEqual(before.vars);
        expect((await acme.workspace(id)).relationships["no-code-module-version"]).toEqual(
            before.workspace.relationships["no-code-module-version"],
        );
        // So the next `pulumi up` tries again, and this time the plan succeeds.
        expect((await fx.host.diff(urn(), id, state, result.inputs, checked)).changes).toBe("some");
        const outputs = await up(news);
        expect((await acme.vars(id))["infra/region"]).toMatchObject({ value: "eu-west-1" });
        expect((outputs.lastUpgrade as { id: string }).id).not.toBe(runId);
        expectSecretVars(outputs, ROTATED_VALUE);
    });

    test("an upgrade started elsewhere and never confirmed is not confirmed by the provider: its own plan replaces it", async () => {
        const started = await fx.server.request("POST", `/no-code-modules/${moduleId}/workspaces/${id}/upgrade`, {
            token: TOKENS.owners,
            body: {
                data: {
                    type: "workspaces",
                    relationships: { vars: { data: [{ type: "vars", attributes: { key: "size", value: "1", category: "infra" } }] } },
                },
            },
        });
        expect(started.status).toBe(200);
        const elsewhere = started.body.data.id as string;

        const outputs = await up(withVars(checked, changeVar(varsIn(checked), "size", { value: "3" })));
        const own = (outputs.lastUpgrade as { id: string }).id;
        expect(own).not.toBe(elsewhere);
        expect(await acme.runStatus(moduleId, id, elsewhere)).toBe("discarded");
        expect(await acme.runStatus(moduleId, id, own)).toBe("applied");
        expect((await acme.vars(id))["infra/size"]).toMatchObject({ value: "3" });
    });

    test("an update whose moduleVersion is not the module's pin fails naming both versions before anything changes", async () => {
        const before = { vars: await acme.vars(id), workspace: await acme.workspace(id) };
        const news = withVars({ ...checked, moduleVersion: "1.1.0" }, changeVar(varsIn(checked), "size", { value: "1" }));
        const result = await fx.host.check(urn(), checked, news);
        expect(result.failures).toEqual([]);
        const error = await failure(fx.host.update(urn(), id, state, result.inputs, checked));
        expect(error.message).toContain("1.1.0");
        expect(error.message).toContain("1.0.0");
        expect(tokensIn(error.message)).toEqual([]);
        const initFailure = (error as ProviderCallError).initFailure;
        if (initFailure) expect(initFailure.properties).toMatchObject({ moduleVersion: "1.0.0", lastUpgrade: state.lastUpgrade });
        expect(await acme.vars(id)).toEqual(before.vars);
        expect(await acme.workspace(id)).toEqual(before.workspace);
    });

    test("a projectId change moves the workspace in place: same id, no upgrade", async () => {
        const lastUpgrade = state.lastUpgrade;
        const outputs = await up({ ...checked, projectId: stagingId });
        expect(outputs).toMatchObject({ projectId: stagingId, name: "capture-site", lastUpgrade });
        expectSecretVars(outputs, ROTATED_VALUE);
        const workspace = await acme.workspace(id);
        expect(workspace.id).toBe(id);
        expect(workspace.relationships.project.data.id).toBe(stagingId);
    });

    test("a rename changes the workspace in place: same id, the old name free, the vars kept", async () => {
        const outputs = await up({ ...checked, name: "capture-site-renamed" });
        expect(outputs).toMatchObject({ name: "capture-site-renamed", projectId: stagingId });
        expectSecretVars(outputs, ROTATED_VALUE);
        expect(await acme.workspaceNamed("acme", "capture-site-renamed")).toEqual({ status: 200, id });
        expect((await acme.workspaceNamed("acme", "capture-site")).status).toBe(404);
        expect(Object.keys(await acme.vars(id)).sort()).toEqual(["env/DB_PASSWORD", "infra/region", "infra/size"]);
    });

    test("a var removed from the program is deleted from the workspace; the others stay", async () => {
        const outputs = await up(withVars(checked, varsIn(checked).filter((v) => v.key !== "size")));
        expect(varsIn(outputs).map((v) => v.key).sort()).toEqual(["DB_PASSWORD", "region"]);
        expectSecretVars(outputs, ROTATED_VALUE);
        const vars = await acme.vars(id);
        expect(Object.keys(vars).sort()).toEqual(["env/DB_PASSWORD", "infra/region"]);
        expect(vars["infra/region"]).toMatchObject({ value: "eu-west-1" });
        expect((await fx.host.diff(urn(), id, state, checked, checked)).changes).toBe("none");
    });

    test("Delete removes the workspace, deleting it again succeeds, and a Read then reports it gone", async () => {
        await fx.host.delete(urn(), id, state, checked);
        expect(await acme.workspace(id)).toBeUndefined();
        await expect(fx.host.delete(urn(), id, state, checked)).resolves.toBeUndefined();
        expect((await fx.host.read(urn(), id, state, checked)).id).toBe("");
    });

    test("the host's logs contain neither a token nor a sensitive value", () => {
        const logs = fx.host.logs();
        expect(tokensIn(logs)).toEqual([]);
        expect(logs).not.toContain(NO_CODE_SENSITIVE_VALUE);
        expect(logs).not.toContain(ROTATED_VALUE);
    });
});

describe("wos:NoCodeWorkspace create whose answer is lost after the service committed it", () => {
    test("the provider finds the workspace it made by its unique name: one workspace, no error", async () => {
        await fx.server.addFault({
            method: "POST",
            path: "^/api/v2/no-code-modules/[^/]+/workspaces$",
            times: 1,
            status: 503,
            afterCommit: true,
        });
        const inputs = programInputs({ name: "lost-answer" });
        const checked = (await fx.host.check(urn("lost"), {}, inputs)).inputs;
        const created = await fx.host.create(urn("lost"), checked);
        expect(created.id).toMatch(/^ws-/);
        expect(created.outputs).toMatchObject({ name: "lost-answer", noCodeModuleId: moduleId, moduleVersion: "1.0.0" });
        expectSecretVars(created.outputs, NO_CODE_SENSITIVE_VALUE);
        expect(await acme.workspaceNamed("acme", "lost-answer")).toEqual({ status: 200, id: created.id });
        await fx.host.delete(urn("lost"), created.id, created.outputs, checked);
        expect((await acme.workspaceNamed("acme", "lost-answer")).status).toBe(404);
    });
});

describe("an upgrade by module version in an organization with cost estimation (initech)", () => {
    let initech: ProviderHost;
    let infra: ReturnType<typeof raw>;
    let infraId = "";
    const module = { id: "", checked: {} as PropertyMap, state: {} as PropertyMap };
    const workspace = { id: "", checked: {} as PropertyMap, state: {} as PropertyMap };
    const moduleUrn = () => initech.urn(TYPES.noCodeModule, "initech-module");
    const workspaceUrn = () => urn("initech-workspace", initech);

    beforeAll(async () => {
        initech = await fx.anotherHost(TOKENS.initechOwners);
        infra = raw(fx.server, TOKENS.initechOwners);
        infraId = await infra.projectId("initech", "Infra");
    }, 120_000);

    test("the module and a workspace from it are made through the provider host with initech's token", async () => {
        const moduleInputs = {
            ...fx.registration("capture-module").inputs,
            organization: "initech",
            registryModuleId: REGISTRY_MODULES.initechBucket,
            versionPin: "1.0.0",
            variableOptions: [{ variableName: "region", variableType: "string", options: ["eu-west-1", "us-east-1"] }],
        };
        module.checked = (await initech.check(moduleUrn(), {}, moduleInputs)).inputs;
        const madeModule = await initech.create(moduleUrn(), module.checked);
        module.id = madeModule.id;
        module.state = madeModule.outputs;
        expect(module.state).toMatchObject({ organization: "initech", versionPin: "1.0.0", enabled: true });

        const checkedWorkspace = await initech.check(
            workspaceUrn(),
            {},
            programInputs({ noCodeModuleId: module.id, projectId: infraId, name: "initech-site", moduleVersion: "1.0.0" }),
        );
        expect(checkedWorkspace.failures).toEqual([]);
        workspace.checked = checkedWorkspace.inputs;
        const made = await initech.create(workspaceUrn(), workspace.checked);
        workspace.id = made.id;
        workspace.state = made.outputs;
        expect(workspace.state).toMatchObject({ moduleVersion: "1.0.0", noCodeUpgradeAvailable: false, projectId: infraId });
        expectSecretVars(workspace.state, NO_CODE_SENSITIVE_VALUE);
        expect(tokensIn([module.state, workspace.state])).toEqual([]);
    });

    test("raising the module's pin makes an upgrade available, which a Read of the workspace reports", async () => {
        const news = { ...module.checked, versionPin: "1.1.0" };
        const diff = await initech.diff(moduleUrn(), module.id, module.state, news, module.checked);
        expect(diff).toMatchObject({ changes: "some", replaces: [] });
        const updated = await initech.update(moduleUrn(), module.id, module.state, news, module.checked);
        expect(updated.outputs).toMatchObject({ versionPin: "1.1.0" });
        module.state = updated.outputs;
        module.checked = news;

        const read = await initech.read(workspaceUrn(), workspace.id, workspace.state, workspace.checked);
        // Still on the old version: the state's moduleVersion stands, and the program's pin differs now.
        expect(read.outputs).toMatchObject({ moduleVersion: "1.0.0", noCodeUpgradeAvailable: true });
        expectSecretVars(read.outputs, NO_CODE_SENSITIVE_VALUE);
        expect((await infra.workspace(workspace.id)).attributes["no-code-upgrade-available"]).toBe(true);
        workspace.state = read.outputs;
    });

    test("moduleVersion following the pin upgrades the workspace; a plan that reaches cost_estimated is confirmed", async () => {
        const versionBefore = (await infra.workspace(workspace.id)).relationships["no-code-module-version"].data.id;
        const news = { ...workspace.checked, moduleVersion: "1.1.0" };
        const checked = await initech.check(workspaceUrn(), workspace.checked, news);
        expect(checked.failures).toEqual([]);
        const diff = await initech.diff(workspaceUrn(), workspace.id, workspace.state, checked.inputs, workspace.checked);
        expect(diff).toMatchObject({ changes: "some", replaces: [] });

        // The initiate's answer arrives late, so the plan has already passed `planned` (3 steps) and reached
        // `cost_estimated` (4 steps) when the provider first polls it.
        await fx.server.addFault({ method: "POST", path: UPGRADE_PATH, times: 1, delayMs: 1000 });
        const updated = await initech.update(workspaceUrn(), workspace.id, workspace.state, checked.inputs, workspace.checked);
        expect(updated.outputs).toMatchObject({ moduleVersion: "1.1.0", noCodeUpgradeAvailable: false });
        expectSecretVars(updated.outputs, NO_CODE_SENSITIVE_VALUE);
        expect(tokensIn(updated.outputs)).toEqual([]);
        const lastUpgrade = updated.outputs.lastUpgrade as { id: string; status: string; planUrl: string };
        expect(lastUpgrade.status).toBe("applied");
        expect(await infra.runStatus(module.id, workspace.id, lastUpgrade.id)).toBe("applied");
        expect(initech.logs()).toContain("cost_estimated");
        expect(initech.logs()).toContain(lastUpgrade.planUrl);

        const shown = await infra.workspace(workspace.id);
        expect(shown.attributes["no-code-upgrade-available"]).toBe(false);
        expect(shown.relationships["no-code-module-version"].data.id).not.toBe(versionBefore);
        workspace.state = updated.outputs;
        workspace.checked = checked.inputs;

        // Refresh agrees, and a second `up` has nothing to do.
        const read = await initech.read(workspaceUrn(), workspace.id, workspace.state, workspace.checked);
        expect(read.outputs).toEqual(workspace.state);
        expect((await initech.diff(workspaceUrn(), workspace.id, workspace.state, workspace.checked, workspace.checked)).changes).toBe("none");
    });

    test("destroy: the workspace, then the module, each deleted twice without error", async () => {
        for (const [resourceUrn, resource] of [
            [workspaceUrn(), workspace],
            [moduleUrn(), module],
        ] as const) {
            await initech.delete(resourceUrn, resource.id, resource.state, resource.checked);
            await expect(initech.delete(resourceUrn, resource.id, resource.state, resource.checked)).resolves.toBeUndefined();
        }
        expect(await infra.workspace(workspace.id)).toBeUndefined();
        expect((await fx.server.request("GET", `/no-code-modules/${module.id}`, { token: TOKENS.initechOwners })).status).toBe(404);
    });

    test("the host's logs contain neither a token nor the sensitive value", () => {
        const logs = initech.logs();
        expect(tokensIn(logs)).toEqual([]);
        expect(logs).not.toContain(NO_CODE_SENSITIVE_VALUE);
    });
});

describe("an upgrade that outlives upgradeTimeoutSeconds", () => {
    // A service of its own whose plans take ten minutes a step: the deadline always comes first.
    const slow = useNoCodeEngineFixture({ server: { planStepMs: 600_000 } });

    test("the update fails at the deadline with the last status and the plan URL; state and service stay as they were", async () => {
        const service = raw(slow.server);
        const slowModuleId = await service.makeModule("acme", REGISTRY_MODULES.bucket, "1.0.0");
        const inputs = {
            ...fx.registration("capture-workspace").inputs,
            noCodeModuleId: slowModuleId,
            projectId: await service.projectId("acme", "Apps"),
            upgradeTimeoutSeconds: 1,
        };
        const workspaceUrn = urn("deadline", slow.host);
        const checked = (await slow.host.check(workspaceUrn, {}, inputs)).inputs;
        const created = await slow.host.create(workspaceUrn, checked);
        const before = await service.vars(created.id);

        const news = withVars(checked, changeVar(varsIn(checked), "region", { value: "us-east-1" }));
        const error = await failure(slow.host.update(workspaceUrn, created.id, created.outputs, news, checked));
        expect(error).toBeInstanceOf(ProviderCallError);
        expect(error.message).toContain("pending");
        expect(error.message).toMatch(/https?:\/\/\S+/);
        expect(error.message).not.toContain(NO_CODE_SENSITIVE_VALUE);
        expect(tokensIn(error.message)).toEqual([]);
        const initFailure = (error as ProviderCallError).initFailure;
        if (initFailure) {
            expect(normalVars(varsIn(initFailure.properties))).toEqual(normalVars(varsIn(created.outputs)));
            expectSecretVars(initFailure.properties, NO_CODE_SENSITIVE_VALUE);
        }
        // The plan was left running, never confirmed.
        const runId = runIdIn(error.message);
        expect(runId).toBeDefined();
        expect(await service.runStatus(slowModuleId, created.id, runId!)).toBe("pending");
        expect(await service.vars(created.id)).toEqual(before);
        expect(tokensIn(slow.host.logs())).toEqual([]);
        expect(slow.host.logs()).not.toContain(NO_CODE_SENSITIVE_VALUE);
    });
});
