/**
 * `wos.NoCodeProject`, the component: a project, a no-code module (existing, or enabled from a registry
 * module) and no-code workspaces made from it, with shared and per-workspace vars.
 *
 * First under `pulumi.runtime.setMocks` in this process, with the mock monitor's `registerResource`
 * wrapped to see what the engine would receive: which children register, with which parent, inputs (as
 * serialized for the engine, secrets marked), resource options and `additionalSecretOutputs`, and what the
 * component registers as its own inputs and outputs.
 *
 * Then through `@pulumi/pulumi`'s provider host against the local service: a program using an existing
 * no-code module (made over raw HTTP) is captured from the packed package under mocks and deployed as the
 * engine would (`up`, a second `up`, a change of a shared var that one workspace overrides, `refresh`,
 * `destroy`). The same component from a registry module is deployed by `tests/examples/noCodeProject.test.ts`.
 */
import * as pulumi from "@pulumi/pulumi";

/** One `registerResource` request as the engine would receive it, with the URN the monitor answered. */
interface Registered {
    type: string;
    name: string;
    custom: boolean;
    urn: string;
    parent: string;
    protect: boolean;
    /** The serialized inputs: secrets as `{4dabf18193072939515e22adb298388d: …, value}`. */
    inputs: Record<string, unknown>;
    additionalSecretOutputs: string[];
    /** The URNs it depends on (`dependsOn`, and what its inputs come from). */
    dependencies: string[];
}

const registered: Registered[] = [];
const WORKSPACE_TYPE = "pulumi-nodejs:dynamic/wos:NoCodeWorkspace";

pulumi.runtime.setMocks(
    {
        newResource(args) {
            // A workspace reports an upgrade available when its name says so, to follow the output through.
            const extra = args.type === WORKSPACE_TYPE ? { noCodeUpgradeAvailable: String(args.inputs.name).startsWith("stale") } : {};
            return { id: args.custom ? `${args.name}-id` : undefined, state: { ...args.inputs, ...extra } };
        },
        call() {
            return {};
        },
    },
    "project",
    "stack",
    false,
);

const monitor = pulumi.runtime.getMonitor() as any;
const registerResource = monitor.registerResource.bind(monitor);
monitor.registerResource = (request: any, callback: (error: unknown, response: any) => void) =>
    registerResource(request, (error: unknown, response: any) => {
        if (!error) {
            registered.push({
                type: request.getType(),
                name: request.getName(),
                custom: request.getCustom(),
                urn: response.getUrn(),
                parent: request.getParent(),
                protect: request.getProtect(),
                inputs: request.getObject()?.toJavaScript() ?? {},
                additionalSecretOutputs: request.getAdditionalsecretoutputsList(),
                dependencies: request.getDependenciesList(),
            });
        }
        callback(error, response);
    });

// Loaded after setMocks, as a program would be.
import * as wos from "../../provider";
import { DEFAULT_UPGRADE_TIMEOUT_SECONDS } from "../../provider/handlers/noCodeWorkspace";
import {
    isSecret,
    revealSecrets,
    SECRET_SIG,
    SECRET_SIG_KEY,
    type PropertyMap,
    type ProviderHost,
} from "../support/providerHost";
import type { TestServer } from "../support/server";
import { REGISTRY_MODULES, TOKENS } from "../support/seed";
import { captureRegistrations, FAST_UPGRADES, tokensIn, TYPES, useEngineFixture } from "./fixture";

/** Waits until every registration (and `registerOutputs`) sent so far has been answered. */
const settleRpcs = (): Promise<void> => require("@pulumi/pulumi/runtime/settings").waitForRPCs();

/** The resolved value and secrecy of an output. */
function settle<T>(output: pulumi.Output<T>): Promise<{ value: T; secret: boolean }> {
    return new Promise((resolve) => {
        pulumi.all([output, pulumi.isSecret(output)]).apply(([value, secret]) => resolve({ value: value as T, secret }));
    });
}

const COMPONENT = "wos:index:NoCodeProject";

/** The component of this name and its children (by parent URN), once every registration is answered. */
async function tree(name: string): Promise<{ component: Registered; children: Registered[] }> {
    await settleRpcs();
    const component = registered.find((r) => r.type === COMPONENT && r.name === name);
    if (!component) throw new Error(`no component named ${name} registered`);
    return { component, children: registered.filter((r) => r.parent === component.urn) };
}

const child = (children: Registered[], name: string): Registered => {
    const found = children.find((r) => r.name === name);
    if (!found) throw new Error(`no child named ${name}`);
    return found;
};

/** A registration's inputs without the serialized provider (checked to be one). */
function inputsOf(registration: Registered): PropertyMap {
    const { __provider, ...inputs } = registration.inputs;
    expect(typeof __provider).toBe("string");
    return inputs;
}

/**
 * The outputs each resource registered (`registerOutputs`), by URN, as the monitor received them. Read off the
 * requests, not asked of the mock monitor: its `getRegisteredResources` first shipped in @pulumi/pulumi 3.247,
 * newer than the oldest version the package supports.
 */
const registeredOutputs = new Map<string, PropertyMap>();
const registerResourceOutputs = monitor.registerResourceOutputs.bind(monitor);
monitor.registerResourceOutputs = (request: any, callback: (error: unknown, response: any) => void) => {
    const outputs = request.getOutputs();
    registeredOutputs.set(request.getUrn(), typeof outputs?.toJavaScript === "function" ? outputs.toJavaScript() : outputs);
    return registerResourceOutputs(request, callback);
};

/** The outputs the component registered (`registerOutputs`). */
function componentOutputs(component: Registered): PropertyMap {
    return registeredOutputs.get(component.urn)!;
}

/** A value the program leaves unmarked on a sensitive var: the children must protect it. */
const UNMARKED = "unmarked-sensitive-value-of-the-component-test";

describe("wos.NoCodeProject under setMocks", () => {
    test("from a registry module: the component, its project, its module and one workspace per entry, all parented to it", async () => {
        const storage = new wos.NoCodeProject("storage", {
            organization: "acme",
            project: { name: "Storage", description: "made by the component", autoDestroyActivityDuration: "14d", tags: { team: "platform" } },
            module: {
                registryModuleId: REGISTRY_MODULES.bucket,
                versionPin: "1.0.0",
                variableOptions: [{ variableName: "region", variableType: "string", options: ["eu-west-1", "us-east-1"] }],
            },
            vars: [
                { key: "region", value: "eu-west-1", category: "infra" },
                { key: "size", value: "1", category: "infra" },
                { key: "size", value: "env-size", category: "env" },
            ],
            sourceName: "platform catalog",
            upgradeTimeoutSeconds: 900,
            workspaces: {
                "assets-prod": { description: "Static assets", vars: [{ key: "size", value: "3", category: "infra", description: "more" }] },
                "logs-prod": { autoApply: true, vars: [{ key: "ARCHIVE_KEY", value: UNMARKED, category: "env", sensitive: true }] },
                "stale-prod": { executionMode: "agent", agentPoolId: "apool-0000000000000001", upgradeTimeoutSeconds: 60 },
            },
        });
        await settle(storage.workspaceIds);
        const { component, children } = await tree("storage");

        expect(component).toMatchObject({ custom: false, urn: "urn:pulumi:stack::project::wos:index:NoCodeProject::storage" });
        // No inputs go to the engine: nothing of the vars is stored with the component.
        expect(component.inputs).toEqual({});
        expect(children.map((r) => `${r.type} ${r.name}`).sort()).toEqual([
            `${TYPES.noCodeModule} storage-module`,
            `${TYPES.noCodeWorkspace} storage-assets-prod`,
            `${TYPES.noCodeWorkspace} storage-logs-prod`,
            `${TYPES.noCodeWorkspace} storage-stale-prod`,
            `${TYPES.project} storage-project`,
        ]);
        // Nothing of this tree registered outside it, and the children's URNs carry the component's type.
        expect(registered.filter((r) => r.name.startsWith("storage")).length).toBe(6);
        for (const r of children) {
            expect(r.custom).toBe(true);
            expect(r.urn).toBe(`urn:pulumi:stack::project::${COMPONENT}$${r.type}::${r.name}`);
        }

        expect(inputsOf(child(children, "storage-project"))).toEqual({
            organization: "acme",
            name: "Storage",
            description: "made by the component",
            autoDestroyActivityDuration: "14d",
            tags: { team: "platform" },
        });
        expect(inputsOf(child(children, "storage-module"))).toEqual({
            organization: "acme",
            registryModuleId: REGISTRY_MODULES.bucket,
            versionPin: "1.0.0",
            enabled: true,
            variableOptions: [{ variableName: "region", variableType: "string", options: ["eu-west-1", "us-east-1"] }],
        });

        // Shared vars first, less the ones the workspace overrides (same key and category), then its own.
        const assets = child(children, "storage-assets-prod");
        expect(inputsOf(assets)).toEqual({
            noCodeModuleId: "storage-module-id",
            moduleVersion: "1.0.0",
            projectId: "storage-project-id",
            name: "assets-prod",
            description: "Static assets",
            autoApply: false,
            executionMode: "remote",
            sourceName: "platform catalog",
            vars: [
                { key: "region", value: "eu-west-1", category: "infra" },
                { key: "size", value: "env-size", category: "env" },
                { key: "size", value: "3", category: "infra", description: "more" },
            ],
            upgradeTimeoutSeconds: 900,
        });
        expect(assets.additionalSecretOutputs).toEqual([]);

        const logs = child(children, "storage-logs-prod");
        const { vars, sensitiveValues, ...logsRest } = inputsOf(logs);
        expect(logsRest).toEqual({
            noCodeModuleId: "storage-module-id",
            moduleVersion: "1.0.0",
            projectId: "storage-project-id",
            name: "logs-prod",
            autoApply: true,
            executionMode: "remote",
            sourceName: "platform catalog",
            upgradeTimeoutSeconds: 900,
        });
        // `vars` readable, the sensitive value apart in a secret (kept out of `logsRest` above).
        expect(isSecret(vars)).toBe(false);
        expect(vars).toEqual([
            { key: "region", value: "eu-west-1", category: "infra" },
            { key: "size", value: "1", category: "infra" },
            { key: "size", value: "env-size", category: "env" },
            { key: "ARCHIVE_KEY", category: "env", sensitive: true },
        ]);
        expect(isSecret(sensitiveValues)).toBe(true);
        expect(revealSecrets(sensitiveValues)).toEqual({ "env:ARCHIVE_KEY": UNMARKED });
        expect(logs.additionalSecretOutputs).toEqual(["sensitiveValues"]);

        expect(inputsOf(child(children, "storage-stale-prod"))).toMatchObject({
            name: "stale-prod",
            executionMode: "agent",
            agentPoolId: "apool-0000000000000001",
            autoApply: false,
            upgradeTimeoutSeconds: 60,
            vars: [
                { key: "region", value: "eu-west-1", category: "infra" },
                { key: "size", value: "1", category: "infra" },
                { key: "size", value: "env-size", category: "env" },
            ],
        });

        // The children are reachable, and a sensitive value is a secret in the workspace's outputs, apart.
        expect(Object.keys(storage.workspaces).sort()).toEqual(["assets-prod", "logs-prod", "stale-prod"]);
        expect((await settle(storage.workspaces["logs-prod"].sensitiveValues)).secret).toBe(true);
        expect((await settle(storage.workspaces["logs-prod"].vars)).secret).toBe(false);
        expect((await settle(storage.workspaces["assets-prod"].vars)).secret).toBe(false);
        expect(storage.module).toBeInstanceOf(wos.NoCodeModule);
        expect(storage.project).toBeInstanceOf(wos.Project);
    });

    test("outputs a program can export: ids, the workspace-name maps; none secret, none holding a var value", async () => {
        const storage = new wos.NoCodeProject("outputs", {
            organization: "acme",
            project: { name: "Outputs" },
            module: { registryModuleId: REGISTRY_MODULES.bucket, versionPin: "1.1.0" },
            vars: [{ key: "SECRET", value: UNMARKED, category: "env", sensitive: true }],
            workspaces: { "fresh-ws": {}, "stale-ws": {} },
        });
        expect(await settle(storage.projectId)).toEqual({ value: "outputs-project-id", secret: false });
        expect(await settle(storage.noCodeModuleId)).toEqual({ value: "outputs-module-id", secret: false });
        expect(await settle(storage.workspaceIds)).toEqual({
            value: { "fresh-ws": "outputs-fresh-ws-id", "stale-ws": "outputs-stale-ws-id" },
            secret: false,
        });
        expect(await settle(storage.moduleVersions)).toEqual({ value: { "fresh-ws": "1.1.0", "stale-ws": "1.1.0" }, secret: false });
        expect(await settle(storage.upgradesAvailable)).toEqual({ value: { "fresh-ws": false, "stale-ws": true }, secret: false });

        const { component } = await tree("outputs");
        const outputs = componentOutputs(component);
        expect(outputs).toEqual({
            projectId: "outputs-project-id",
            noCodeModuleId: "outputs-module-id",
            workspaceIds: { "fresh-ws": "outputs-fresh-ws-id", "stale-ws": "outputs-stale-ws-id" },
            moduleVersions: { "fresh-ws": "1.1.0", "stale-ws": "1.1.0" },
            upgradesAvailable: { "fresh-ws": false, "stale-ws": true },
        });
        expect(JSON.stringify(outputs)).not.toContain(UNMARKED);
        expect(JSON.stringify(component.inputs)).not.toContain(UNMARKED);
        // Each workspace holds the shared sensitive value as a secret, apart from its readable vars.
        for (const name of ["outputs-fresh-ws", "outputs-stale-ws"]) {
            const workspace = registered.find((r) => r.name === name)!;
            expect(isSecret(workspace.inputs.sensitiveValues)).toBe(true);
            expect(JSON.stringify(workspace.inputs.vars)).not.toContain(UNMARKED);
            expect(workspace.additionalSecretOutputs).toEqual(["sensitiveValues"]);
        }
    });

    test("from an existing no-code module: no module child; the id and version given; execution mode and pool go together", async () => {
        const existing = new wos.NoCodeProject("existing", {
            organization: "acme",
            project: { name: "Existing" },
            module: { noCodeModuleId: "nocode-given", moduleVersion: "1.1.0" },
            executionMode: "agent",
            agentPoolId: "apool-0000000000000001",
            autoApply: true,
            workspaces: {
                "on-agents": { description: "inherits the agent pool" },
                "on-remote": { executionMode: "remote" },
                "own-pool": { agentPoolId: "apool-0000000000000002", autoApply: false },
            },
        });
        expect(existing.module).toBeUndefined();
        expect(await settle(existing.noCodeModuleId)).toEqual({ value: "nocode-given", secret: false });
        const { children } = await tree("existing");
        expect(children.map((r) => r.name).sort()).toEqual(["existing-on-agents", "existing-on-remote", "existing-own-pool", "existing-project"]);
        const common = { noCodeModuleId: "nocode-given", moduleVersion: "1.1.0", projectId: "existing-project-id", upgradeTimeoutSeconds: 1800 };
        expect(inputsOf(child(children, "existing-on-agents"))).toEqual({
            ...common,
            name: "on-agents",
            description: "inherits the agent pool",
            autoApply: true,
            executionMode: "agent",
            agentPoolId: "apool-0000000000000001",
        });
        // A workspace with its own mode does not take the component's pool (remote refuses one).
        expect(inputsOf(child(children, "existing-on-remote"))).toEqual({ ...common, name: "on-remote", autoApply: true, executionMode: "remote" });
        expect(inputsOf(child(children, "existing-own-pool"))).toEqual({
            ...common,
            name: "own-pool",
            autoApply: false,
            executionMode: "agent",
            agentPoolId: "apool-0000000000000002",
        });
    });

    test("the defaults are NoCodeWorkspace's own: remote, no auto-apply, the provider's upgrade deadline; no vars given, none sent", async () => {
        expect(wos.NO_CODE_PROJECT_DEFAULTS).toEqual({ executionMode: "remote", autoApply: false, upgradeTimeoutSeconds: 1800 });
        expect(wos.NO_CODE_PROJECT_DEFAULTS.upgradeTimeoutSeconds).toBe(DEFAULT_UPGRADE_TIMEOUT_SECONDS);
        expect(wos.NO_CODE_PROJECT_TYPE).toBe(COMPONENT);
        new wos.NoCodeProject("defaults", {
            organization: "acme",
            project: { name: "Defaults" },
            module: { noCodeModuleId: "nocode-given" },
            workspaces: { bare: {} },
        });
        const { children } = await tree("defaults");
        expect(inputsOf(child(children, "defaults-bare"))).toEqual({
            noCodeModuleId: "nocode-given",
            projectId: "defaults-project-id",
            name: "bare",
            autoApply: false,
            executionMode: "remote",
            upgradeTimeoutSeconds: 1800,
        });
    });

    test("vars not known while the program runs are merged once known; a sensitive value among them is kept apart, a secret", async () => {
        new wos.NoCodeProject("later", {
            organization: "acme",
            project: { name: "Later" },
            module: { noCodeModuleId: "nocode-given" },
            vars: pulumi.output([
                { key: "region", value: "eu-west-1", category: "infra" as const },
                { key: "size", value: "1", category: "infra" as const },
            ]),
            workspaces: {
                one: { vars: [{ key: "size", value: pulumi.output("2"), category: "infra" }] },
                two: { vars: [{ key: pulumi.output("LOG_LEVEL") as unknown as string, value: "debug", category: "env" }] },
                three: { vars: pulumi.output([{ key: "API_KEY", value: UNMARKED, category: "env" as const, sensitive: true }]) },
            },
        });
        const { children } = await tree("later");
        const one = child(children, "later-one");
        // Not known at registration: the list may hold a sensitive var, so its values are split once known
        // (none is sensitive here, and `vars` is no secret).
        expect(one.additionalSecretOutputs).toEqual(["sensitiveValues"]);
        expect(isSecret(one.inputs.vars)).toBe(false);
        expect(revealSecrets(one.inputs.sensitiveValues)).toEqual({});
        expect(revealSecrets(one.inputs.vars)).toEqual([
            { key: "region", value: "eu-west-1", category: "infra" },
            { key: "size", value: "2", category: "infra" },
        ]);
        expect(revealSecrets(child(children, "later-two").inputs.vars)).toEqual([
            { key: "region", value: "eu-west-1", category: "infra" },
            { key: "size", value: "1", category: "infra" },
            { key: "LOG_LEVEL", value: "debug", category: "env" },
        ]);
        // A sensitive var in a list known only later: its value apart, a secret.
        const three = child(children, "later-three");
        expect(isSecret(three.inputs.sensitiveValues)).toBe(true);
        expect(three.additionalSecretOutputs).toEqual(["sensitiveValues"]);
        expect(revealSecrets(three.inputs.vars)).toEqual([
            { key: "region", value: "eu-west-1", category: "infra" },
            { key: "size", value: "1", category: "infra" },
            { key: "API_KEY", category: "env", sensitive: true },
        ]);
        expect(revealSecrets(three.inputs.sensitiveValues)).toEqual({ "env:API_KEY": UNMARKED });
    });

    test("a secret value of a var that is not sensitive is kept apart, a secret; the var itself stays readable", async () => {
        new wos.NoCodeProject("marked", {
            organization: "acme",
            project: { name: "Marked" },
            module: { noCodeModuleId: "nocode-given" },
            vars: [{ key: "TOKEN", value: pulumi.secret("marked-by-the-program"), category: "env" }],
            workspaces: { one: {} },
        });
        const { component, children } = await tree("marked");
        const inputs = child(children, "marked-one").inputs;
        expect(inputs.vars).toEqual([{ key: "TOKEN", category: "env" }]);
        expect(inputs.sensitiveValues).toEqual({ [SECRET_SIG_KEY]: SECRET_SIG, value: { "env:TOKEN": "marked-by-the-program" } });
        expect(JSON.stringify(component.inputs)).not.toContain("marked-by-the-program");
    });

    test("resource options of the component reach every child (protect)", async () => {
        new wos.NoCodeProject(
            "guarded",
            { organization: "acme", project: { name: "Guarded" }, module: { registryModuleId: REGISTRY_MODULES.bucket }, workspaces: { one: {} } },
            { protect: true },
        );
        const { component, children } = await tree("guarded");
        expect(component.protect).toBe(true);
        expect(children.map((r) => [r.name, r.protect]).sort()).toEqual([
            ["guarded-module", true],
            ["guarded-one", true],
            ["guarded-project", true],
        ]);
        // Without a pin the workspaces follow whatever the module resolves (under mocks: nothing yet).
        expect(inputsOf(child(children, "guarded-one"))).not.toHaveProperty("moduleVersion");
    });

    test("no organization: none is sent to the project or the module, which take the default organization", async () => {
        new wos.NoCodeProject("default-org", {
            project: { name: "Default Org" },
            module: { registryModuleId: REGISTRY_MODULES.bucket },
            workspaces: { one: {} },
        });
        const { children } = await tree("default-org");
        expect(inputsOf(child(children, "default-org-project"))).toEqual({ name: "Default Org" });
        expect(inputsOf(child(children, "default-org-module"))).toEqual({ registryModuleId: REGISTRY_MODULES.bucket, enabled: true });
    });

    test("a rollout: each workspace of a wave depends on every workspace of the wave before, the unnamed ones are the last wave, each names its wave", async () => {
        const fleet = new wos.NoCodeProject("fleet", {
            organization: "acme",
            project: { name: "Fleet" },
            module: { noCodeModuleId: "nocode-fleet" },
            workspaces: { "late-one": {}, canary: {}, "wave-b": {}, "wave-c": {}, "late-two": {} },
            rollout: { waves: [["canary"], ["wave-b", "wave-c"]] },
        });
        const { children } = await tree("fleet");
        const urn = (name: string) => child(children, `fleet-${name}`).urn;
        const workspaceDependencies = (name: string) => {
            const workspaceUrns = new Set(children.filter((r) => r.type === WORKSPACE_TYPE).map((r) => r.urn));
            return child(children, `fleet-${name}`).dependencies.filter((dependency) => workspaceUrns.has(dependency)).sort();
        };
        expect(workspaceDependencies("canary")).toEqual([]);
        expect(workspaceDependencies("wave-b")).toEqual([urn("canary")]);
        expect(workspaceDependencies("wave-c")).toEqual([urn("canary")]);
        expect(workspaceDependencies("late-one")).toEqual([urn("wave-b"), urn("wave-c")].sort());
        expect(workspaceDependencies("late-two")).toEqual([urn("wave-b"), urn("wave-c")].sort());
        expect(
            Object.fromEntries(["canary", "wave-b", "wave-c", "late-one", "late-two"].map((name) => [name, inputsOf(child(children, `fleet-${name}`)).rolloutWave])),
        ).toEqual({ canary: "1 of 3", "wave-b": "2 of 3", "wave-c": "2 of 3", "late-one": "3 of 3", "late-two": "3 of 3" });
        // Every workspace still depends on the project it is made in; the outputs keep the program's order.
        for (const name of ["canary", "late-one"]) expect(child(children, `fleet-${name}`).dependencies).toContain(urn("project"));
        expect(Object.keys((await settle(fleet.workspaceIds)).value)).toEqual(["late-one", "canary", "wave-b", "wave-c", "late-two"]);
    });

    test("no rollout: no workspace depends on another, and none names a wave", async () => {
        new wos.NoCodeProject("flat", {
            organization: "acme",
            project: { name: "Flat" },
            module: { noCodeModuleId: "nocode-flat" },
            workspaces: { one: {}, two: {} },
        });
        const { children } = await tree("flat");
        const workspaces = children.filter((r) => r.type === WORKSPACE_TYPE);
        expect(workspaces).toHaveLength(2);
        for (const workspace of workspaces) {
            expect(workspace.dependencies.filter((dependency) => workspaces.some((other) => other.urn === dependency))).toEqual([]);
            expect(inputsOf(workspace)).not.toHaveProperty("rolloutWave");
        }
    });

    test("no workspaces: a project and a module, and empty maps", async () => {
        const empty = new wos.NoCodeProject("empty", {
            organization: "acme",
            project: { name: "Empty" },
            module: { registryModuleId: REGISTRY_MODULES.bucket },
            workspaces: {},
        });
        expect(await settle(empty.workspaceIds)).toEqual({ value: {}, secret: false });
        const { children } = await tree("empty");
        expect(children.map((r) => r.name).sort()).toEqual(["empty-module", "empty-project"]);
    });

    test.each([
        ["neither module id", { module: {} }, 'wos.NoCodeProject "bad": module must give exactly one of noCodeModuleId'],
        [
            "both module ids",
            { module: { noCodeModuleId: "nocode-x", registryModuleId: REGISTRY_MODULES.bucket } },
            "module must give exactly one of noCodeModuleId (an existing no-code module) and registryModuleId",
        ],
        ["a pin with an existing module", { module: { noCodeModuleId: "nocode-x", versionPin: "1.0.0" } }, "module.versionPin is a setting of a module made here"],
        [
            "options with an existing module",
            { module: { noCodeModuleId: "nocode-x", variableOptions: [] } },
            "module.variableOptions is a setting of a module made here",
        ],
        [
            "a module version with a registry module",
            { module: { registryModuleId: REGISTRY_MODULES.bucket, moduleVersion: "1.0.0" } },
            "module.moduleVersion is not allowed with module.registryModuleId",
        ],
        ["workspaces not known", { workspaces: pulumi.output({ one: {} }) }, "workspaces must be a plain object of workspace name to settings"],
        ["workspaces a list", { workspaces: [{}] }, "workspaces must be a plain object"],
        ["a workspace not an object", { workspaces: { one: "x" } }, 'workspaces["one"] must be an object of settings'],
        ["no project", { project: undefined }, "project must be an object"],
        ["a wave naming no workspace", { rollout: { waves: [["one"], ["nope"]] } }, 'rollout.waves[1][0] names "nope", which is not a key of workspaces'],
        [
            "a workspace in two waves",
            { workspaces: { one: {}, two: {} }, rollout: { waves: [["one"], ["two", "one"]] } },
            'rollout.waves[1][1] names "one" again: it is already in rollout.waves[0]',
        ],
        ["an empty wave", { rollout: { waves: [[]] } }, "rollout.waves[0] must be a non-empty list of workspace names"],
        ["a wave's name not a string", { rollout: { waves: [[1]] } }, "rollout.waves[0][0] must be a workspace name (a string)"],
        ["waves not a list", { rollout: { waves: "one" } }, "rollout.waves must be a list of waves"],
        ["a rollout not known", { rollout: pulumi.output({ waves: [["one"]] }) }, "rollout.waves must be a list of waves"],
    ])("%s: a clear error naming the field, and nothing registered", async (_what, change, message) => {
        const before = registered.length;
        const args = {
            organization: "acme",
            project: { name: "Bad" },
            module: { noCodeModuleId: "nocode-x" },
            workspaces: { one: {} },
            ...change,
        } as unknown as wos.NoCodeProjectArgs;
        expect(() => new wos.NoCodeProject("bad", args)).toThrow(message);
        await settleRpcs();
        expect(registered.length).toBe(before);
    });
});

// -------------------------------------------------------------------------------------------------------
// Through the provider host against the local service

/** The sensitive shared var's value, left unmarked by the program. */
const SHARED_SECRET = "component-shared-secret-never-shown";
/** What the capture program uses for the no-code module: the test puts in the real id. */
const MODULE_PLACEHOLDER = "nocode-replaced-by-the-tests";

/**
 * A program of the component on an existing no-code module: three workspaces, one of which overrides the
 * shared `size`; `size` is the shared value of `size`.
 */
const captureProgram = (size: string) => `"use strict";
const pulumi = require("@pulumi/pulumi");
const wos = require("pulumi-wos");
new pulumi.Config("wos").requireSecret("token");
const catalog = new wos.NoCodeProject("catalog", {
    organization: "acme",
    project: { name: "Catalog Engine", description: "made by the component engine test", tags: { team: "platform" } },
    module: { noCodeModuleId: "${MODULE_PLACEHOLDER}" },
    vars: [
        { key: "region", value: "eu-west-1", category: "infra" },
        { key: "size", value: "${size}", category: "infra" },
        { key: "DB_PASSWORD", value: "${SHARED_SECRET}", category: "env", sensitive: true },
    ],
    autoApply: true,
    upgradeTimeoutSeconds: 120,
    workspaces: {
        "catalog-a": { description: "takes every shared var" },
        "catalog-b": { vars: [{ key: "size", value: "3", category: "infra" }] },
        "catalog-c": { vars: [{ key: "LOG_LEVEL", value: "debug", category: "env" }] },
    },
});
exports.workspaceIds = catalog.workspaceIds;
`;

describe("wos.NoCodeProject on an existing no-code module through the provider host", () => {
    const fx = useEngineFixture({
        captureProgram: captureProgram("1"),
        server: { planStepMs: FAST_UPGRADES.planStepMs },
        hostEnv: { WOS_UPGRADE_POLL_MS: String(FAST_UPGRADES.pollMs) },
    });

    /** What the "engine" keeps per resource. */
    const state = new Map<string, { urn: string; id: string; inputs: PropertyMap; outputs: PropertyMap }>();
    /** Placeholders of the mock run (`<name>-id`, the module placeholder) to the real ids. */
    const realIds = new Map<string, string>();
    let moduleId = "";
    let changed: Array<{ type: string; name: string; custom: boolean; inputs: PropertyMap }> = [];
    let seedProjects: unknown[] = [];

    const resolve = (value: unknown): unknown => {
        if (typeof value === "string") return realIds.get(value) ?? value;
        if (Array.isArray(value)) return value.map(resolve);
        if (typeof value === "object" && value !== null) return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, resolve(v)]));
        return value;
    };
    /** The engine's URN of a child of the component. */
    const childUrn = (host: ProviderHost, type: string, name: string) => host.urn(`${COMPONENT}$${type}`, name);

    const get = async (server: TestServer, pathname: string) => {
        const response = await server.request("GET", pathname, { token: TOKENS.owners });
        expect(response.status).toBe(200);
        return response.body;
    };
    /** Projects of acme with their workspace counts: what `destroy` must give back. */
    const projects = async () =>
        ((await get(fx.server, "/organizations/acme/projects?page%5Bsize%5D=100")).data as Array<{ id: string; attributes: any }>)
            .map((p) => ({ id: p.id, name: p.attributes.name, workspaces: p.attributes["workspace-count"] }))
            .sort((a, b) => a.id.localeCompare(b.id));
    const varsOf = async (workspaceName: string) =>
        Object.fromEntries(
            ((await get(fx.server, `/vars?filter%5Bworkspace%5D%5Bname%5D=${workspaceName}&filter%5Borganization%5D%5Bname%5D=acme`))
                .data as Array<{ attributes: Record<string, unknown> }>).map((v) => [`${v.attributes.category}/${v.attributes.key}`, v.attributes]),
        );

    beforeAll(async () => {
        const made = await fx.server.request("POST", "/organizations/acme/no-code-modules", {
            token: TOKENS.owners,
            body: {
                data: {
                    type: "no-code-modules",
                    attributes: { "version-pin": "1.0.0", enabled: true },
                    relationships: { "registry-module": { data: { type: "registry-module", id: REGISTRY_MODULES.bucket } } },
                },
            },
        });
        expect(made.status).toBe(200);
        moduleId = made.body.data.id;
        realIds.set(MODULE_PLACEHOLDER, moduleId);
        seedProjects = await projects();
        changed = await captureRegistrations(fx.program, captureProgram("2"));
    }, 240_000);

    const customs = (registrations: typeof changed) => registrations.filter((r) => r.custom);

    test("the packed program registers the component with no inputs, and its children", () => {
        const component = fx.registrations.find((r) => r.type === COMPONENT)!;
        expect(component).toMatchObject({ name: "catalog", custom: false, inputs: {} });
        expect(customs(fx.registrations).map((r) => `${r.type} ${r.name}`).sort()).toEqual([
            `${TYPES.noCodeWorkspace} catalog-catalog-a`,
            `${TYPES.noCodeWorkspace} catalog-catalog-b`,
            `${TYPES.noCodeWorkspace} catalog-catalog-c`,
            `${TYPES.project} catalog-project`,
        ]);
        expect(JSON.stringify(component)).not.toContain(SHARED_SECRET);
    });

    test("pulumi up: the project and three workspaces on the service, each with the shared vars and its own", async () => {
        for (const registration of customs(fx.registrations)) {
            const urn = childUrn(fx.host, registration.type, registration.name);
            const checked = await fx.host.check(urn, {}, resolve(registration.inputs) as PropertyMap);
            expect({ name: registration.name, failures: checked.failures }).toEqual({ name: registration.name, failures: [] });
            const created = await fx.host.create(urn, checked.inputs);
            expect(tokensIn(created.outputs)).toEqual([]);
            realIds.set(`${registration.name}-id`, created.id);
            state.set(registration.name, { urn, id: created.id, inputs: checked.inputs, outputs: created.outputs });
        }
        const projectId = state.get("catalog-project")!.id;
        expect((await get(fx.server, `/projects/${projectId}`)).data.attributes).toMatchObject({ name: "Catalog Engine" });
        const expectedSize = { "catalog-a": "1", "catalog-b": "3", "catalog-c": "1" } as const;
        for (const [workspaceName, size] of Object.entries(expectedSize)) {
            const workspace = (await get(fx.server, `/organizations/acme/workspaces/${workspaceName}`)).data;
            expect(workspace.id).toBe(state.get(`catalog-${workspaceName}`)!.id);
            expect(workspace.relationships.project.data.id).toBe(projectId);
            expect(workspace.attributes).toMatchObject({ "auto-apply": true, "execution-mode": "remote" });
            const vars = await varsOf(workspaceName);
            expect(vars["infra/region"]).toMatchObject({ value: "eu-west-1" });
            expect(vars["infra/size"]).toMatchObject({ value: size });
            expect(vars["env/DB_PASSWORD"]).toMatchObject({ sensitive: true });
            expect(vars["env/DB_PASSWORD"].value ?? null).toBeNull();
            // The shared sensitive value is a secret in every workspace's state, apart from its readable vars.
            const outputs = state.get(`catalog-${workspaceName}`)!.outputs;
            expect(isSecret(outputs.sensitiveValues)).toBe(true);
            expect(isSecret(outputs.vars)).toBe(false);
            expect(outputs).toMatchObject({ noCodeModuleId: moduleId, moduleVersion: "1.0.0", noCodeUpgradeAvailable: false });
        }
        expect(Object.keys(await varsOf("catalog-c")).sort()).toEqual(["env/DB_PASSWORD", "env/LOG_LEVEL", "infra/region", "infra/size"]);
    });

    test("a second pulumi up of the same program changes nothing", async () => {
        for (const registration of customs(fx.registrations)) {
            const previous = state.get(registration.name)!;
            const checked = await fx.host.check(previous.urn, previous.inputs, resolve(registration.inputs) as PropertyMap);
            expect(checked.failures).toEqual([]);
            const diff = await fx.host.diff(previous.urn, previous.id, previous.outputs, checked.inputs, previous.inputs);
            expect({ name: registration.name, changes: diff.changes }).toEqual({ name: registration.name, changes: "none" });
        }
    });

    test("pulumi up with the shared size changed: the workspaces that take it upgrade, the one that overrides it does not", async () => {
        const updated: string[] = [];
        for (const registration of customs(changed)) {
            const previous = state.get(registration.name)!;
            const checked = await fx.host.check(previous.urn, previous.inputs, resolve(registration.inputs) as PropertyMap);
            expect(checked.failures).toEqual([]);
            const diff = await fx.host.diff(previous.urn, previous.id, previous.outputs, checked.inputs, previous.inputs);
            expect(diff.replaces).toEqual([]);
            if (diff.changes === "none") continue;
            const result = await fx.host.update(previous.urn, previous.id, previous.outputs, checked.inputs, previous.inputs);
            expect(tokensIn(result.outputs)).toEqual([]);
            updated.push(registration.name);
            state.set(registration.name, { ...previous, inputs: checked.inputs, outputs: result.outputs });
        }
        expect(updated.sort()).toEqual(["catalog-catalog-a", "catalog-catalog-c"]);
        for (const [workspaceName, size] of Object.entries({ "catalog-a": "2", "catalog-b": "3", "catalog-c": "2" })) {
            expect((await varsOf(workspaceName))["infra/size"]).toMatchObject({ value: size });
        }
        for (const name of updated) {
            const outputs = state.get(name)!.outputs;
            const lastUpgrade = outputs.lastUpgrade as { id: string; status: string };
            expect(lastUpgrade.status).toBe("applied");
            const run = await get(fx.server, `/no-code-modules/${moduleId}/workspaces/${state.get(name)!.id}/upgrade/${lastUpgrade.id}`);
            expect(run.data.attributes.status).toBe("applied");
            expect(isSecret(outputs.sensitiveValues)).toBe(true);
        }
        expect(state.get("catalog-catalog-b")!.outputs.lastUpgrade).toBeUndefined();
    });

    test("pulumi refresh finds no drift", async () => {
        for (const registration of customs(changed)) {
            const previous = state.get(registration.name)!;
            const read = await fx.host.read(previous.urn, previous.id, previous.outputs, previous.inputs);
            expect({ name: registration.name, id: read.id, outputs: read.outputs }).toEqual({
                name: registration.name,
                id: previous.id,
                outputs: previous.outputs,
            });
        }
    });

    test("pulumi destroy: the workspaces, then the project; the organization is as seeded and the module left alone", async () => {
        for (const registration of [...customs(changed)].reverse()) {
            const previous = state.get(registration.name)!;
            await fx.host.delete(previous.urn, previous.id, previous.outputs, previous.inputs);
        }
        expect(await projects()).toEqual(seedProjects);
        for (const workspaceName of ["catalog-a", "catalog-b", "catalog-c"]) {
            const response = await fx.server.request("GET", `/organizations/acme/workspaces/${workspaceName}`, { token: TOKENS.owners });
            expect(response.status).toBe(404);
        }
        expect((await get(fx.server, `/no-code-modules/${moduleId}`)).data.attributes).toMatchObject({ enabled: true });
    });

    test("the host's logs contain neither a token nor the shared sensitive value", () => {
        expect(tokensIn(fx.host.logs())).toEqual([]);
        expect(fx.host.logs()).not.toContain(SHARED_SECRET);
    });
});
