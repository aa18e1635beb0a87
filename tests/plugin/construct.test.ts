/**
 * `Construct` of the multi-language component `wos:index:NoCodeProject` (issue 21), at the gRPC level: the
 * plugin, started as the engine starts it, is asked to construct the component against a fake resource monitor
 * of this test (which records every registration and answers each child with made-up outputs) and a fake engine.
 * The component registers itself, then its children as this plugin's own resources (`wos:index:*`, custom, never
 * `pulumi-nodejs:dynamic`), each under the component and on the provider of the request's providers map, with
 * the TypeScript component's names, inputs and defaults; a secret var value stays a secret at its own place; each
 * child depends on what the component's inputs depend on; the answer is the component's URN and outputs. A broken
 * shape fails before anything is registered. The real engine's side is
 * `tests/languages/noCodeProjectComponent.test.ts` (a YAML program through the real CLI).
 */
import * as grpc from "@grpc/grpc-js";
import { builtDist } from "../support/packedPackage";
import { secret, startPluginHost, type PropertyMap, type ProviderHost } from "../support/providerHost";
import { SETUP_TIMEOUT_MS, startFakeEngine, type FakeEngine } from "./pluginFixture";

const COMPONENT = "wos:index:NoCodeProject";
const STACK_URN = "urn:pulumi:test::wos-tests::pulumi:pulumi:Stack::wos-tests-test";
const PROVIDER_URN = "urn:pulumi:test::wos-tests::pulumi:providers:wos::acme";
const PROVIDER_REF = `${PROVIDER_URN}::0b5e7c1e-provider-id`;
const UPSTREAM = "urn:pulumi:test::wos-tests::wos:index:Project::upstream";

/** One `RegisterResource` the monitor received. */
interface Registration {
    type: string;
    name: string;
    custom: boolean;
    parent: string;
    provider: string;
    protect: boolean;
    /** The alias URNs the runtime computed (the monitor does not take alias specs). */
    aliases: string[];
    dependencies: string[];
    inputs: PropertyMap;
    urn: string;
}

/** A fake resource monitor: answers every feature question about secrets yes, records registrations. */
interface FakeMonitor {
    address: string;
    registrations: Registration[];
    /** The outputs registered for each component (`RegisterResourceOutputs`), by URN. */
    registeredOutputs: Map<string, PropertyMap>;
    /** A resource name whose registration the monitor refuses, as the engine does when the child's create fails. */
    refuse: string | undefined;
    close(): Promise<void>;
}

/** Made-up outputs of a child, as the engine would answer them after the plugin's Create. */
function outputsOf(type: string, name: string, inputs: PropertyMap): PropertyMap {
    if (type === "wos:index:NoCodeModule") return { ...inputs, versionPin: inputs.versionPin ?? "1.1.0" };
    if (type === "wos:index:NoCodeWorkspace") return { ...inputs, moduleVersion: inputs.moduleVersion ?? "1.1.0", noCodeUpgradeAvailable: name.endsWith("logs") };
    return inputs;
}

async function startFakeMonitor(): Promise<FakeMonitor> {
    const { ResourceMonitorService } = require("@pulumi/pulumi/proto/resource_grpc_pb");
    const resourceproto = require("@pulumi/pulumi/proto/resource_pb");
    const { Struct } = require("google-protobuf/google/protobuf/struct_pb");
    const { Empty } = require("google-protobuf/google/protobuf/empty_pb");
    const registrations: Registration[] = [];
    const registeredOutputs = new Map<string, PropertyMap>();
    const server = new grpc.Server();
    const fake: FakeMonitor = {
        address: "",
        registrations,
        registeredOutputs,
        refuse: undefined,
        close: () => new Promise<void>((resolve) => server.tryShutdown(() => resolve())),
    };
    const urnOf = new Map<string, string>([[STACK_URN, "pulumi:pulumi:Stack"]]);
    server.addService(ResourceMonitorService, {
        supportsFeature: (call: any, callback: (error: null, response: unknown) => void) => {
            callback(null, new resourceproto.SupportsFeatureResponse().setHassupport(call.request.getId() === "secrets"));
        },
        registerResource: (call: any, callback: (error: Partial<grpc.StatusObject> | null, response?: unknown) => void) => {
            const request = call.request;
            if (request.getName() === fake.refuse) {
                callback({ code: grpc.status.UNKNOWN, details: `creating ${request.getName()} failed: the service answered 500` });
                return;
            }
            const type: string = request.getType();
            const name: string = request.getName();
            const parentType = urnOf.get(request.getParent());
            const qualified = parentType && parentType !== "pulumi:pulumi:Stack" ? `${parentType}$${type}` : type;
            const urn = `urn:pulumi:test::wos-tests::${qualified}::${name}`;
            urnOf.set(urn, qualified);
            const inputs = (request.getObject()?.toJavaScript() ?? {}) as PropertyMap;
            registrations.push({
                type,
                name,
                custom: request.getCustom(),
                parent: request.getParent(),
                provider: request.getProvider(),
                protect: request.getProtect(),
                aliases: request.getAliasurnsList(),
                dependencies: request.getDependenciesList(),
                inputs,
                urn,
            });
            const response = new resourceproto.RegisterResourceResponse().setUrn(urn);
            if (request.getCustom()) response.setId(`${name}-id`).setObject(Struct.fromJavaScript(outputsOf(type, name, inputs)));
            callback(null, response);
        },
        registerResourceOutputs: (call: any, callback: (error: null, response: unknown) => void) => {
            registeredOutputs.set(call.request.getUrn(), (call.request.getOutputs()?.toJavaScript() ?? {}) as PropertyMap);
            callback(null, new Empty());
        },
    });
    const port = await new Promise<number>((resolve, reject) =>
        server.bindAsync("127.0.0.1:0", grpc.ServerCredentials.createInsecure(), (error, bound) => (error ? reject(error) : resolve(bound))),
    );
    fake.address = `127.0.0.1:${port}`;
    return fake;
}

let engine: FakeEngine;
let monitor: FakeMonitor;
let plugin: ProviderHost;

beforeAll(async () => {
    await builtDist();
    engine = await startFakeEngine();
    monitor = await startFakeMonitor();
    plugin = await startPluginHost({ engineAddress: engine.address });
}, SETUP_TIMEOUT_MS);

afterAll(async () => {
    await plugin?.close();
    await monitor?.close();
    await engine?.close();
});

beforeEach(() => {
    monitor.registrations.length = 0;
    monitor.registeredOutputs.clear();
    monitor.refuse = undefined;
});

/** The component's inputs as a YAML program sends them: a registry module, shared vars, two workspaces, one secret value. */
const INPUTS: PropertyMap = {
    organization: "acme",
    project: { name: "Storage Catalog", tags: { team: "platform" } },
    module: { registryModuleId: "mod-0000000000000001", versionPin: "1.1.0" },
    vars: [
        { key: "region", value: "eu-west-1", category: "infra" },
        { key: "size", value: "1", category: "infra" },
    ],
    upgradeTimeoutSeconds: 900,
    workspaces: {
        "web-assets": { autoApply: true, vars: [{ key: "size", value: "3", category: "infra" }] },
        "audit-logs": { executionMode: "agent", vars: [{ key: "ARCHIVE_KEY", value: secret("archive-key-7f3a"), category: "env", sensitive: true }] },
    },
};

const construct = (inputs: PropertyMap, options: Partial<Parameters<ProviderHost["construct"]>[3]> = {}) =>
    plugin.construct(COMPONENT, "catalog", inputs, { monitor: monitor.address, parent: STACK_URN, providers: { wos: PROVIDER_REF }, ...options });

test("the component registers itself, then the plugin's project, module and workspaces under it, on the component's provider", async () => {
    const answer = await construct(INPUTS);
    const component = monitor.registrations[0]!;
    expect(component).toMatchObject({ type: COMPONENT, name: "catalog", custom: false, parent: STACK_URN, inputs: {} });
    expect(answer.urn).toBe(component.urn);
    expect(monitor.registrations.slice(1).map(({ type, name, custom, parent, provider }) => ({ type, name, custom, parent, provider }))).toEqual(
        [
            ["wos:index:Project", "catalog-project"],
            ["wos:index:NoCodeModule", "catalog-module"],
            ["wos:index:NoCodeWorkspace", "catalog-web-assets"],
            ["wos:index:NoCodeWorkspace", "catalog-audit-logs"],
        ].map(([type, name]) => ({ type, name, custom: true, parent: component.urn, provider: PROVIDER_REF })),
    );
    expect(monitor.registrations.filter(({ type }) => type.startsWith("pulumi-nodejs:"))).toEqual([]);
});

test("the children's inputs are the TypeScript component's: names, defaults, merged vars; the secret value a secret at its place only", async () => {
    await construct(INPUTS);
    const byName = Object.fromEntries(monitor.registrations.map((registration) => [registration.name, registration.inputs]));
    expect(byName["catalog-project"]).toEqual({ organization: "acme", name: "Storage Catalog", tags: { team: "platform" } });
    expect(byName["catalog-module"]).toEqual({ organization: "acme", registryModuleId: "mod-0000000000000001", versionPin: "1.1.0", enabled: true });
    expect(byName["catalog-web-assets"]).toEqual({
        noCodeModuleId: "catalog-module-id",
        moduleVersion: "1.1.0",
        projectId: "catalog-project-id",
        name: "web-assets",
        autoApply: true,
        executionMode: "remote",
        upgradeTimeoutSeconds: 900,
        vars: [
            { key: "region", value: "eu-west-1", category: "infra" },
            { key: "size", value: "3", category: "infra" },
        ],
    });
    expect(byName["catalog-audit-logs"]).toMatchObject({ name: "audit-logs", autoApply: false, executionMode: "agent" });
    expect(byName["catalog-audit-logs"]!.vars).toEqual([
        { key: "region", value: "eu-west-1", category: "infra" },
        { key: "size", value: "1", category: "infra" },
        { key: "ARCHIVE_KEY", value: secret("archive-key-7f3a"), category: "env", sensitive: true },
    ]);
});

test("the answer: the component's outputs, also registered as its outputs; none holds a var value", async () => {
    const answer = await construct(INPUTS);
    const expected = {
        projectId: "catalog-project-id",
        noCodeModuleId: "catalog-module-id",
        workspaceIds: { "web-assets": "catalog-web-assets-id", "audit-logs": "catalog-audit-logs-id" },
        moduleVersions: { "web-assets": "1.1.0", "audit-logs": "1.1.0" },
        upgradesAvailable: { "web-assets": false, "audit-logs": true },
    };
    expect(answer.state).toEqual(expected);
    expect(monitor.registeredOutputs.get(answer.urn)).toEqual(expected);
    expect(JSON.stringify(answer)).not.toContain("archive-key-7f3a");
    // Each output depends on the children it is made of.
    expect(answer.stateDependencies.projectId).toEqual([`urn:pulumi:test::wos-tests::${COMPONENT}$wos:index:Project::catalog-project`]);
});

test("every child depends on what the component's inputs depend on, and on the component's own dependencies", async () => {
    const other = "urn:pulumi:test::wos-tests::wos:index:Project::other";
    await construct(
        { ...INPUTS, module: { noCodeModuleId: "nocode-0000000000000001" } },
        { inputDependencies: { module: [UPSTREAM] }, dependencies: [other] },
    );
    const children = monitor.registrations.slice(1);
    expect(children.map(({ name }) => name)).toEqual(["catalog-project", "catalog-web-assets", "catalog-audit-logs"]);
    for (const child of children) expect(child.dependencies).toEqual(expect.arrayContaining([UPSTREAM, other]));
    expect(children[1]!.inputs.noCodeModuleId).toBe("nocode-0000000000000001");
});

test("a rollout: each workspace of a wave depends on every workspace of the wave before, besides the component's own dependencies; each names its wave", async () => {
    const other = "urn:pulumi:test::wos-tests::wos:index:Project::other";
    await construct(
        {
            ...INPUTS,
            workspaces: { ...(INPUTS.workspaces as PropertyMap), "cdn-cache": {} },
            rollout: { waves: [["audit-logs"], ["web-assets"]] },
        },
        { dependencies: [other] },
    );
    const byName = Object.fromEntries(monitor.registrations.map((registration) => [registration.name, registration]));
    const workspaceUrn = (name: string) => byName[`catalog-${name}`]!.urn;
    const onWorkspaces = (name: string) =>
        byName[`catalog-${name}`]!.dependencies.filter((dependency) => dependency.includes("wos:index:NoCodeWorkspace::")).sort();
    expect(onWorkspaces("audit-logs")).toEqual([]);
    expect(onWorkspaces("web-assets")).toEqual([workspaceUrn("audit-logs")]);
    expect(onWorkspaces("cdn-cache")).toEqual([workspaceUrn("web-assets")]);
    for (const name of ["audit-logs", "web-assets", "cdn-cache"]) expect(byName[`catalog-${name}`]!.dependencies).toContain(other);
    expect(["audit-logs", "web-assets", "cdn-cache"].map((name) => byName[`catalog-${name}`]!.inputs.rolloutWave)).toEqual(["1 of 3", "2 of 3", "3 of 3"]);
});

test("a rollout naming a workspace the component does not have fails naming it, before anything is registered", async () => {
    await expect(construct({ ...INPUTS, rollout: { waves: [["web-assets"], ["web-asset"]] } })).rejects.toThrow(
        /rollout.waves\[1\]\[0\] names "web-asset", which is not a key of workspaces/,
    );
    expect(monitor.registrations).toEqual([]);
});

test("the component's protect reaches every child", async () => {
    await construct(INPUTS, { protect: true });
    expect(monitor.registrations.map(({ name, protect }) => ({ name, protect }))).toEqual(monitor.registrations.map(({ name }) => ({ name, protect: true })));
    expect(monitor.registrations).toHaveLength(5);
});

test("the component's aliases, an old URN or an old name, are the component's", async () => {
    const oldUrn = `urn:pulumi:test::wos-tests::${COMPONENT}::older-catalog`;
    await construct(INPUTS, { aliases: [oldUrn, { name: "old-catalog" }] });
    expect(monitor.registrations[0]!.aliases).toEqual(expect.arrayContaining([oldUrn, expect.stringMatching(new RegExp(`::${COMPONENT}::old-catalog$`))]));
});

test("a preview: values not known yet reach the children unknown", async () => {
    const UNKNOWN = "04da6b54-80e4-46f7-96ec-b56ff0331ba9";
    await construct({ ...INPUTS, module: { noCodeModuleId: UNKNOWN } }, { dryRun: true });
    const workspace = monitor.registrations.find(({ name }) => name === "catalog-web-assets")!;
    expect(workspace.inputs.noCodeModuleId).toBe(UNKNOWN);
});

test("a broken shape fails naming the field, before anything is registered", async () => {
    await expect(construct({ ...INPUTS, module: { registryModuleId: "mod-0000000000000001", noCodeModuleId: "nocode-1" } })).rejects.toThrow(
        /wos.NoCodeProject "catalog": module must give exactly one of noCodeModuleId/,
    );
    await expect(construct({ ...INPUTS, workspaces: ["web-assets"] })).rejects.toThrow(/workspaces must be a plain object/);
    expect(monitor.registrations).toEqual([]);
});

test("a child the engine refuses fails the Construct with the engine's message; the plugin lives on and constructs again", async () => {
    monitor.refuse = "catalog-audit-logs";
    await expect(construct(INPUTS)).rejects.toThrow(/catalog-audit-logs.*the service answered 500/);
    monitor.refuse = undefined;
    monitor.registrations.length = 0;
    expect((await construct(INPUTS)).state.projectId).toBe("catalog-project-id");
});

test("another type: a clear error", async () => {
    await expect(plugin.construct("wos:index:Project", "p", {}, { monitor: monitor.address })).rejects.toThrow(
        /unknown component type wos:index:Project \(the plugin has wos:index:NoCodeProject\)/,
    );
});
