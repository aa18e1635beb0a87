/**
 * Upgrade plans in a preview (issue 29, point 2), through the plugin as the engine drives it: a provider
 * configured `planUpgradesInPreview` answers a preview's `Update` of a no-code workspace whose vars change
 * only once the upgrade's plan has finished planning, its status and plan URL in the engine's log under the
 * workspace's URN, the run left unconfirmed on the service; a plan that errors fails the preview. A provider
 * without it starts nothing. Every request reaches the service through a recording proxy, so the test sees
 * each initiate and confirm the plugin sent.
 */
import { acmeReader } from "../examples/serviceReader";
import { startRecorder, type RecordedRequest, type Recorder } from "../support/recordingProxy";
import { UNKNOWN, type PropertyMap, type ProviderHost } from "../support/providerHost";
import { REGISTRY_MODULES, TOKENS } from "../support/seed";
import { createResource, failure, updateResource, type Held } from "./engineSteps";
import { FAST_UPGRADES, TOKEN, TYPES, usePluginFixture } from "./pluginFixture";

const fx = usePluginFixture({
    server: { planStepMs: FAST_UPGRADES.planStepMs },
    env: { WOS_UPGRADE_POLL_MS: String(FAST_UPGRADES.pollMs) },
});
const acme = acmeReader(() => fx.server, TOKENS.owners);

const INITIATE = /^\/api\/v2\/no-code-modules\/nocode-\w+\/workspaces\/ws-\w+\/upgrade$/;
const CONFIRM = /^\/api\/v2\/no-code-modules\/nocode-\w+\/workspaces\/ws-\w+\/upgrade\/run-\w+$/;
const posts = (requests: readonly RecordedRequest[], pattern: RegExp) => requests.filter((request) => request.method === "POST" && pattern.test(request.path));

let recorder: Recorder;
/** Configured `planUpgradesInPreview: "true"`, as the stack config and the SDKs' explicit providers send it. */
let planner: ProviderHost;
/** Configured without it. */
let plain: ProviderHost;
let bucket: Held;
let workspace: Held;
const urn = () => fx.urn(TYPES.noCodeWorkspace, "site");

const withRegion = (region: string): PropertyMap => ({
    ...workspace.inputs,
    vars: [{ key: "region", value: region, category: "infra" }],
});

/** A preview's `Check`, `Diff` and `Update` of `news`, as the engine runs them; answers the update's outputs. */
async function preview(plugin: ProviderHost, news: PropertyMap): Promise<PropertyMap> {
    const checked = await plugin.check(urn(), workspace.inputs, news);
    expect(checked.failures).toEqual([]);
    const diff = await plugin.diff(urn(), workspace.id, workspace.outputs, checked.inputs, workspace.inputs);
    expect(diff.changes).toBe("some");
    return (await plugin.update(urn(), workspace.id, workspace.outputs, checked.inputs, workspace.inputs, { preview: true })).outputs;
}

/** The lines the engine's log got for the workspace since `from`. */
const linesSince = (from: number) => fx.engine.lines.slice(from).filter((line) => line.urn === urn()).map((line) => line.message);

async function regionOnService(): Promise<unknown> {
    return (await acme.varsOf("preview-site")).region?.value;
}

async function runOnService(runId: string): Promise<{ status: string; "plan-url": string }> {
    return (await acme.get(`/no-code-modules/${bucket.id}/workspaces/${workspace.id}/upgrade/${runId}`)).data.attributes;
}

beforeAll(async () => {
    recorder = await startRecorder(fx.server.url);
    planner = await fx.anotherPlugin(TOKEN, undefined, recorder.url, { planUpgradesInPreview: "true" });
    plain = await fx.anotherPlugin(TOKEN, undefined, recorder.url);
    bucket = await createResource(fx.plugin, fx.urn(TYPES.noCodeModule, "bucket"), {
        organization: "acme",
        registryModuleId: REGISTRY_MODULES.bucket,
        versionPin: "1.0.0",
        enabled: true,
    });
    const apps = (await acme.get("/organizations/acme/projects?filter%5Bnames%5D=Apps")).data[0].id;
    workspace = await createResource(fx.plugin, urn(), {
        noCodeModuleId: bucket.id,
        projectId: apps,
        name: "preview-site",
        vars: [{ key: "region", value: "eu-west-1", category: "infra" }],
        upgradeTimeoutSeconds: 120,
    });
}, 120_000);
afterAll(async () => {
    await recorder?.close();
});
beforeEach(() => {
    recorder.requests.length = 0;
});

test("without planUpgradesInPreview, a preview of a var change sends nothing to the service and logs nothing", async () => {
    const from = fx.engine.lines.length;
    const outputs = await preview(plain, withRegion("us-east-1"));
    expect(outputs).toMatchObject({ lastUpgrade: UNKNOWN });
    expect(recorder.requests).toEqual([]);
    expect(linesSince(from)).toEqual([]);
    expect(await regionOnService()).toBe("eu-west-1");
});

let previewRun = "";

test("with it, the preview starts the plan, answers once it has finished planning with its status and URL under the workspace, and confirms nothing", async () => {
    const from = fx.engine.lines.length;
    const outputs = await preview(planner, withRegion("us-east-1"));
    // The preview's outputs are a preview's: what the update will answer is still unknown.
    expect(outputs).toMatchObject({ lastUpgrade: UNKNOWN, vars: [{ key: "region", value: "us-east-1" }] });
    expect(posts(recorder.requests, INITIATE)).toHaveLength(1);
    expect(posts(recorder.requests, CONFIRM)).toEqual([]);

    const lines = linesSince(from);
    const last = lines.at(-1)!;
    const [, runId, planUrl] = /upgrade plan (run-\w+): planned, not confirmed: the preview applies nothing, and `pulumi up` plans again \(plan: (\S+)\)$/.exec(last) ?? [];
    expect({ last, runId }).toEqual({ last, runId: expect.stringMatching(/^run-/) });
    expect(lines[0]).toMatch(new RegExp(`^wos:NoCodeWorkspace 'preview-site' \\(${workspace.id}\\) of no-code module ${bucket.id}: upgrade ${runId} started: pending`));
    expect(lines.join("\n")).not.toContain("confirmed and applied");

    // The service has the plan, unconfirmed, and the workspace its old value.
    const run = await runOnService(runId!);
    expect(run).toMatchObject({ status: "planned", "plan-url": planUrl });
    expect(await regionOnService()).toBe("eu-west-1");
    previewRun = runId!;
});

test("the update that follows plans again: the preview's plan is discarded, a new one confirmed, the service has the new value", async () => {
    const { held } = await updateResource(planner, workspace, withRegion("us-east-1"));
    const lastUpgrade = held.outputs.lastUpgrade as { id: string; status: string };
    expect(lastUpgrade).toMatchObject({ id: expect.stringMatching(/^run-/), status: "applied" });
    expect(lastUpgrade.id).not.toBe(previewRun);
    expect(posts(recorder.requests, INITIATE)).toHaveLength(1);
    expect(posts(recorder.requests, CONFIRM)).toHaveLength(1);
    expect((await runOnService(previewRun)).status).toBe("discarded");
    expect((await runOnService(lastUpgrade.id)).status).toBe("applied");
    expect(await regionOnService()).toBe("us-east-1");
    workspace = held;
});

test("an errored plan fails the preview with its status and plan URL, and nothing is confirmed or changed", async () => {
    await fx.server.addFault({ method: "POST", path: "^/api/v2/no-code-modules/[^/]+/workspaces/[^/]+/upgrade$", times: 1, planOutcome: "errored" });
    try {
        const error = await failure(preview(planner, withRegion("eu-west-1")));
        expect(error.message).toMatch(
            new RegExp(`wos:NoCodeWorkspace 'preview-site' \\(${workspace.id}\\) of no-code module ${bucket.id}: preview \\(upgrade plan\\) failed: the upgrade plan run-\\w+ ended 'errored' \\(plan: https?://\\S+\\)`),
        );
    } finally {
        await fx.server.clearFaults();
    }
    expect(posts(recorder.requests, INITIATE)).toHaveLength(1);
    expect(posts(recorder.requests, CONFIRM)).toEqual([]);
    expect(await regionOnService()).toBe("us-east-1");
});

test("a moduleVersion the module does not pin yet is not planned: the log says why and how to see its plan", async () => {
    const from = fx.engine.lines.length;
    await preview(planner, { ...workspace.inputs, moduleVersion: "1.1.0" });
    expect(posts(recorder.requests, INITIATE)).toEqual([]);
    expect(linesSince(from)).toEqual([
        expect.stringMatching(/no upgrade plan in this preview: moduleVersion '1\.1\.0' is not yet the version no-code module nocode-\w+ pins \('1\.0\.0'\).*pulumi up --target/),
    ]);
});

test("a var known only during the update is not planned, and the log says so", async () => {
    const from = fx.engine.lines.length;
    await preview(planner, withRegion(UNKNOWN));
    expect(posts(recorder.requests, INITIATE)).toEqual([]);
    expect(linesSince(from)).toEqual([expect.stringMatching(/no upgrade plan in this preview: its vars or version are known only during the update/)]);
});

test("a change that upgrades nothing (the description) starts no plan", async () => {
    const from = fx.engine.lines.length;
    await preview(planner, { ...workspace.inputs, description: "reviewed" });
    expect(recorder.requests).toEqual([]);
    expect(linesSince(from)).toEqual([]);
});
