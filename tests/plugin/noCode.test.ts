/**
 * `wos:index:NoCodeModule` and `wos:index:NoCodeWorkspace` through the plugin: checks before writes, previews,
 * the no-code life read back from the service (module, workspace from it, an upgrade with its progress in
 * the engine's log under the workspace's URN, import, delete), secrets nested in the vars (exactly the
 * sensitive and program-secret values secret), and an update that moved the workspace and then failed its
 * upgrade kept by the engine as a partial failure.
 */
import { acmeReader } from "../examples/serviceReader";
import { ProviderCallError, secret, UNKNOWN, type PropertyMap } from "../support/providerHost";
import { REGISTRY_MODULES, TOKENS } from "../support/seed";
import { createResource, failure, secretPaths, updateResource, type Held } from "./engineSteps";
import { FAST_UPGRADES, TOKEN, TYPES, usePluginFixture } from "./pluginFixture";

// The engine handles each log line 30 ms after it arrives, as a busy engine may: the plugin's lines must still
// arrive in order, and an update's last line before its answer.
const fx = usePluginFixture({
    server: { planStepMs: FAST_UPGRADES.planStepMs },
    env: { WOS_UPGRADE_POLL_MS: String(FAST_UPGRADES.pollMs) },
    engine: { answerDelayMs: () => 30 },
});
const acme = acmeReader(() => fx.server, TOKENS.owners);

const UPGRADE_PATH = "^/api/v2/no-code-modules/[^/]+/workspaces/[^/]+/upgrade$";
const moduleUrn = (name: string) => fx.urn(TYPES.noCodeModule, name);
const workspaceUrn = (name: string) => fx.urn(TYPES.noCodeWorkspace, name);

async function projectId(name: string): Promise<string> {
    return (await acme.get(`/organizations/acme/projects?filter%5Bnames%5D=${encodeURIComponent(name)}`)).data[0].id;
}

let bucket: Held;

describe("wos:index:NoCodeModule", () => {
    test("Check names each broken rule by its path before anything is written", async () => {
        const result = await fx.plugin.check(moduleUrn("broken"), {}, {
            organization: "acme",
            registryModuleId: "module-1",
            variableOptions: [{ variableName: "region", variableType: "string", options: [] }],
        });
        expect(result.failures).toEqual(
            expect.arrayContaining([
                { property: "registryModuleId", reason: expect.stringMatching(/^registryModuleId .*mod-/) },
                { property: "variableOptions", reason: expect.stringMatching(/^variableOptions\[0\]\.options /) },
            ]),
        );
    });

    test("a preview shows the pin and the sets' ids unknown; create, read, a detailed diff, update and an import, read back from the service", async () => {
        const news = {
            organization: "acme",
            registryModuleId: REGISTRY_MODULES.bucket,
            enabled: true,
            variableOptions: [{ variableName: "region", variableType: "string", options: ["eu-west-1", "us-east-1"] }],
        };
        const checked = await fx.plugin.check(moduleUrn("bucket"), {}, news);
        const preview = await fx.plugin.create(moduleUrn("bucket"), checked.inputs, { preview: true });
        expect(preview.outputs).toMatchObject({ versionPin: UNKNOWN, variableOptions: UNKNOWN, enabled: true });

        bucket = await createResource(fx.plugin, moduleUrn("bucket"), { ...news, versionPin: "1.0.0" });
        expect(bucket.id).toMatch(/^nocode-/);
        expect(bucket.outputs).toMatchObject({
            versionPin: "1.0.0",
            enabled: true,
            variableOptions: [{ id: expect.stringMatching(/^ncvaropt-/), variableName: "region", options: ["eu-west-1", "us-east-1"] }],
        });
        const onService = await acme.get(`/no-code-modules/${bucket.id}`);
        expect(onService.data.attributes).toMatchObject({ enabled: true, "version-pin": "1.0.0" });

        const { diff, held } = await updateResource(fx.plugin, bucket, { ...bucket.inputs, versionPin: "1.1.0" });
        expect(diff).toMatchObject({ changes: "some", replaces: [], detailedDiff: { versionPin: "UPDATE" } });
        expect((await acme.get(`/no-code-modules/${bucket.id}`)).data.attributes["version-pin"]).toBe("1.1.0");
        bucket = held;

        const imported = await fx.plugin.read(moduleUrn("imported"), bucket.id);
        expect(imported.outputs).toEqual(bucket.outputs);
        // The inputs of an import are what a program writes: the sets without their ids (an output only), so they check.
        expect(imported.inputs!.variableOptions).toEqual([{ variableName: "region", variableType: "string", options: ["eu-west-1", "us-east-1"] }]);
        const again = await fx.plugin.check(moduleUrn("imported"), {}, imported.inputs!);
        expect(again.failures).toEqual([]);
        expect((await fx.plugin.diff(moduleUrn("imported"), bucket.id, imported.outputs, again.inputs, imported.inputs)).changes).toBe("none");
    });
});

describe("wos:index:NoCodeWorkspace", () => {
    let workspace: Held;
    const vars = () => [
        { key: "region", value: "eu-west-1", category: "infra" },
        { key: "size", value: "2", category: "infra" },
        { key: "DB_PASSWORD", value: "sensitive-but-plain", category: "env", sensitive: true },
        { key: "API_KEY", value: secret("secret-by-the-program"), category: "env" },
    ];

    test("create: exactly the sensitive and program-secret values are secret, in inputs and outputs, and the service has the workspace", async () => {
        const apps = await projectId("Apps");
        workspace = await createResource(fx.plugin, workspaceUrn("site"), {
            noCodeModuleId: bucket.id,
            moduleVersion: "1.1.0",
            projectId: apps,
            name: "plugin-site",
            vars: vars(),
            upgradeTimeoutSeconds: 120,
        });
        expect(workspace.id).toMatch(/^ws-/);
        expect(secretPaths(workspace.inputs)).toEqual(["vars[2].value", "vars[3].value"]);
        expect(secretPaths(workspace.outputs)).toEqual(["sensitiveValues"]);
        expect(workspace.outputs.sensitiveValues).toEqual(secret({ "env:DB_PASSWORD": "sensitive-but-plain", "env:API_KEY": "secret-by-the-program" }));
        expect(JSON.stringify({ ...workspace.outputs, sensitiveValues: undefined })).not.toMatch(/sensitive-but-plain|secret-by-the-program/);
        expect(workspace.outputs).toMatchObject({ name: "plugin-site", projectId: apps, moduleVersion: "1.1.0", noCodeUpgradeAvailable: false });

        const onService = await acme.varsOf("plugin-site");
        expect(onService.region).toMatchObject({ value: "eu-west-1", category: "infra" });
        expect(onService.DB_PASSWORD).toMatchObject({ sensitive: true, value: null });
        expect(onService.API_KEY).toMatchObject({ value: "secret-by-the-program" });
        expect((await fx.plugin.diff(workspaceUrn("site"), workspace.id, workspace.outputs, workspace.inputs, workspace.inputs)).changes).toBe("none");
    });

    test("a preview of a changed var with an unknown value writes nothing and shows the upgrade's results unknown", async () => {
        const news = { ...workspace.inputs, vars: vars().map((item) => (item.key === "size" ? { ...item, value: UNKNOWN } : item)) };
        const checked = await fx.plugin.check(workspaceUrn("site"), workspace.inputs, news);
        expect(checked.failures).toEqual([]);
        const diff = await fx.plugin.diff(workspaceUrn("site"), workspace.id, workspace.outputs, checked.inputs, workspace.inputs);
        // The detailed diff names the var that changed, so the CLI shows only that one.
        expect(diff).toMatchObject({ changes: "some", detailedDiff: { "vars[1]": "UPDATE" } });
        expect(Object.keys(diff.detailedDiff!)).toEqual(["vars[1]"]);
        const preview = await fx.plugin.update(workspaceUrn("site"), workspace.id, workspace.outputs, checked.inputs, workspace.inputs, { preview: true });
        expect(preview.outputs).toMatchObject({ lastUpgrade: UNKNOWN, noCodeUpgradeAvailable: UNKNOWN });
        expect((await acme.varsOf("plugin-site")).size).toMatchObject({ value: "2" });
    });

    test("an upgrade runs inside the update, its progress in the engine's log under the workspace's URN, and the service has the new values", async () => {
        const before = fx.engine.lines.length;
        const news = { ...workspace.inputs, vars: vars().map((item) => (item.key === "region" ? { ...item, value: "us-east-1" } : item)) };
        const { diff, held } = await updateResource(fx.plugin, workspace, news);
        expect(diff).toMatchObject({ changes: "some", replaces: [], detailedDiff: { "vars[0]": "UPDATE" } });
        const lastUpgrade = held.outputs.lastUpgrade as { id: string; status: string; planUrl: string };
        expect(lastUpgrade).toEqual({ id: expect.stringMatching(/^run-/), status: "applied", planUrl: expect.stringMatching(/^https?:\/\//) });
        expect((await acme.varsOf("plugin-site")).region).toMatchObject({ value: "us-east-1" });
        expect(secretPaths(held.outputs)).toEqual(["sensitiveValues"]);

        // Every line is there when the update answers, the start first and the confirm last, in status order.
        const lines = fx.engine.lines.slice(before);
        expect(lines.every((line) => line.urn === workspaceUrn("site") && line.severity === 1)).toBe(true);
        expect(lines[0]!.message).toMatch(/upgrade run-\w+ started: pending/);
        expect(lines.at(-1)!.message).toContain(`upgrade ${lastUpgrade.id}: planned, confirmed and applied (plan: ${lastUpgrade.planUrl})`);
        const order = ["pending", "fetching", "planning", "planned", "planned, confirmed and applied"];
        const statuses = lines.map((line) => order.indexOf(/: ([a-z_, ]+) \(plan:/.exec(line.message)![1]!));
        expect(statuses).not.toContain(-1);
        expect(statuses).toEqual([...statuses].sort((a, b) => a - b));
        expect(lines.map((line) => line.message).join("\n")).not.toMatch(/sensitive-but-plain|secret-by-the-program/);
        workspace = held;
    });

    test("a refresh after changes made outside: the inputs read are the program's with only those changes, no default spelled out that it left out", async () => {
        const onService = await acme.workspaceNamed("plugin-site");
        const listed = await acme.get("/vars?filter%5Bworkspace%5D%5Bname%5D=plugin-site&filter%5Borganization%5D%5Bname%5D=acme");
        const regionVar = listed.data.find((item: { attributes: { key: string } }) => item.attributes.key === "region");
        const patched = await fx.server.request("PATCH", `/vars/${regionVar.id}`, {
            token: TOKENS.owners,
            body: { data: { type: "vars", id: regionVar.id, attributes: { value: "ap-south-1" } } },
        });
        expect(patched.status).toBe(200);
        const described = await fx.server.request("PATCH", `/workspaces/${onService.id}`, {
            token: TOKENS.owners,
            body: { data: { type: "workspaces", attributes: { description: "written by hand" } } },
        });
        expect(described.status).toBe(200);

        const refreshed = await fx.plugin.read(workspaceUrn("site"), workspace.id, workspace.outputs, workspace.inputs);
        const expectedVars = (workspace.inputs.vars as PropertyMap[]).map((item) => (item.key === "region" ? { ...item, value: "ap-south-1" } : item));
        // Each var exactly as the program wrote it (no `hcl: false`, no `sensitive: false`), secrets where they were.
        expect(refreshed.inputs!.vars).toEqual(expectedVars);
        // A setting the program left out: set by hand, it is read (the next up takes it back); its default is not spelled out.
        expect(refreshed.inputs).toEqual({ ...workspace.inputs, vars: expectedVars, description: "written by hand" });
        expect(refreshed.inputs).not.toHaveProperty("autoApply");
        expect(refreshed.outputs).toMatchObject({ description: "written by hand", autoApply: false });

        // The program as it was proposes to undo exactly what changed by hand.
        const diff = await fx.plugin.diff(workspaceUrn("site"), workspace.id, refreshed.outputs, workspace.inputs, refreshed.inputs!);
        expect(diff.changes).toBe("some");
        expect(diff.detailedDiff).toEqual({ "vars[0]": "UPDATE", description: "DELETE" });
        const { held } = await updateResource(fx.plugin, { ...workspace, inputs: refreshed.inputs!, outputs: refreshed.outputs }, workspace.inputs);
        expect((await acme.varsOf("plugin-site")).region).toMatchObject({ value: "us-east-1" });
        expect((await acme.workspaceNamed("plugin-site")).attributes.description).toBeNull();
        const settled = await fx.plugin.read(workspaceUrn("site"), workspace.id, held.outputs, held.inputs);
        expect(settled.inputs).toEqual(workspace.inputs);
        workspace = held;
    });

    test("an import reads the workspace from its id alone, every var with its value as the schema declares it, and diffs to no change", async () => {
        const imported = await fx.plugin.read(workspaceUrn("imported"), workspace.id);
        expect(imported.id).toBe(workspace.id);
        expect(imported.outputs).toMatchObject({ noCodeModuleId: bucket.id, name: "plugin-site", moduleVersion: "1.1.0" });
        const inputVars = imported.inputs!.vars as PropertyMap[];
        expect(inputVars.find((item) => item.key === "region")).toMatchObject({ value: "us-east-1" });
        expect(inputVars.find((item) => item.key === "DB_PASSWORD")).toMatchObject({ sensitive: true, value: secret("") });
        expect(imported.inputs!.sensitiveValues).toBeUndefined();
        const checked = await fx.plugin.check(workspaceUrn("imported"), {}, imported.inputs!);
        expect(checked.failures).toEqual([]);
        expect((await fx.plugin.diff(workspaceUrn("imported"), workspace.id, imported.outputs, checked.inputs, imported.inputs)).changes).toBe("none");
    });

    test("a move then a failed upgrade is a partial failure: the engine keeps the new project with the old vars, secrets still secret", async () => {
        await fx.server.addFault({ method: "POST", path: UPGRADE_PATH, times: 1, planOutcome: "errored" });
        const staging = await projectId("Staging");
        const news = { ...workspace.inputs, projectId: staging, vars: vars().map((item) => (item.key === "size" ? { ...item, value: "3" } : item)) };
        const checked = await fx.plugin.check(workspaceUrn("site"), workspace.inputs, news);
        const error = await failure(fx.plugin.update(workspaceUrn("site"), workspace.id, workspace.outputs, checked.inputs, workspace.inputs));
        expect(error).toBeInstanceOf(ProviderCallError);
        expect(error.message).toContain("errored");
        expect(error.message).not.toContain(TOKEN);
        const initFailure = (error as ProviderCallError).initFailure!;
        expect(initFailure.id).toBe(workspace.id);
        expect(initFailure.properties).toMatchObject({ projectId: staging });
        expect(secretPaths(initFailure.properties)).toEqual(["sensitiveValues"]);
        expect((initFailure.properties.vars as PropertyMap[]).find((item) => item.key === "size")).toMatchObject({ value: "2" });
        expect((await acme.get(`/workspaces/${workspace.id}`)).data.relationships.project.data.id).toBe(staging);
        expect((await acme.varsOf("plugin-site")).size).toMatchObject({ value: "2" });
        workspace = { ...workspace, outputs: initFailure.properties };
    });

    test("delete removes the workspace, then the module; both read as gone", async () => {
        await fx.plugin.delete(workspaceUrn("site"), workspace.id, workspace.outputs, workspace.inputs);
        expect((await fx.server.request("GET", `/workspaces/${workspace.id}`, { token: TOKENS.owners })).status).toBe(404);
        expect((await fx.plugin.read(workspaceUrn("site"), workspace.id, workspace.outputs, workspace.inputs)).id).toBe("");
        await fx.plugin.delete(moduleUrn("bucket"), bucket.id, bucket.outputs, bucket.inputs);
        expect((await fx.server.request("GET", `/no-code-modules/${bucket.id}`, { token: TOKENS.owners })).status).toBe(404);
    });
});
