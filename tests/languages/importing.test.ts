/**
 * `pulumi import` through the real CLI on the native plugin (issue 21, section 3): a project, a workspace, two
 * variables (one of them sensitive) and a no-code module made outside any program, over HTTP with the client
 * `pulumi-wos/sdk`, are imported into a YAML program's stack with one `pulumi import --file`; the code the CLI
 * generates (`--out`) becomes the program, and `pulumi preview --expect-no-changes` passes on it.
 *
 * A sensitive variable's value is never answered by the service, so the import cannot know it: it reads as
 * `""`, a secret in state (as a refresh keeps the last value written, and there is none). The generated code
 * then says `value: ""`; that program changes nothing on the service, and writing the real value into it (as a
 * secret) is one in-place update, after which the stack holds it, secret.
 */
import { WosClient } from "../../sdk";
import { PLATFORM_TOKEN, startCliTestService, type CliTestService, type OrganizationSnapshot } from "../cli/localService";
import { resourcePathsHolding, yamlStack, type ProgramStack } from "./pluginStacks";
import * as fs from "node:fs";
import * as path from "node:path";

jest.setTimeout(300_000);

const API_KEY = "imported-api-key-7d41c9";
const HEADER = "name: wos-import\nruntime: yaml\ndescription: Resources made outside Pulumi, imported with pulumi import.\n";

let service: CliTestService;
let stack: ProgramStack;
/** The ids of what was made outside the program. */
let made: { project: string; workspace: string; region: string; apiKey: string; module: string };
/** The service once they were made. */
let before: OrganizationSnapshot;

beforeAll(async () => {
    service = await startCliTestService();
    const client = new WosClient({ address: service.url, token: PLATFORM_TOKEN });
    const project = await client.projects.create("acme", { name: "Imported Apps", description: "Made by hand" });
    await client.projects.addTagBindings(project.id, [{ key: "team", value: "platform" }]);
    const workspace = await client.workspaces.create("acme", { name: "imported-web", projectId: project.id, description: "The web app", autoApply: true });
    const region = await client.variables.create(workspace.id, { key: "region", value: "eu-west-1", category: "infra", hcl: false, sensitive: false });
    const apiKey = await client.variables.create(workspace.id, { key: "API_KEY", value: API_KEY, category: "env", hcl: false, sensitive: true, description: "The API's key" });
    const module = await client.noCodeModules.create("acme", {
        registryModuleId: "mod-0000000000000001",
        versionPin: "1.0.0",
        enabled: true,
        variableOptions: [{ variableName: "region", variableType: "string", options: ["eu-west-1", "us-east-1"] }],
    });
    made = { project: project.id, workspace: workspace.id, region: region.id, apiKey: apiKey.id, module: module.id };
    before = await service.snapshot();
    stack = await yamlStack(service, { yaml: HEADER });
}, 600_000);

afterAll(async () => {
    await stack?.dispose();
    await service?.stop();
}, 60_000);

/** The generated code, as `pulumi import --out` wrote it. */
let generated: string;

/** The block of one resource in YAML code: from `  <name>:` to the next resource. */
function block(code: string, name: string): string {
    const match = new RegExp(`^  ${name}:\\n(?:(?: {4}.*)?\\n)*`, "m").exec(`${code}\n`);
    if (!match) throw new Error(`no resource ${name} in:\n${code}`);
    return match[0];
}

test("one `pulumi import --file` takes the five into the stack, each read by its id alone, and writes their code", async () => {
    const program = stack.program;
    const importFile = path.join(program.dir, "..", "import.json");
    fs.writeFileSync(
        importFile,
        JSON.stringify({
            resources: [
                { type: "wos:index:Project", name: "apps", id: made.project },
                { type: "wos:index:Workspace", name: "web", id: made.workspace },
                { type: "wos:index:Variable", name: "region", id: made.region },
                { type: "wos:index:Variable", name: "apiKey", id: made.apiKey },
                { type: "wos:index:NoCodeModule", name: "bucket", id: made.module },
            ],
        }),
    );
    const out = path.join(program.dir, "..", "generated.yaml");
    const imported = await program.pulumi(["import", "--file", importFile, "--out", out, "--yes"]);
    expect(imported.output).toMatch(/Resources:\s+\+ 1 created\s+= 5 imported/);
    // Every imported input passes the plugin's Check: the CLI warns of none.
    expect(imported.output).not.toMatch(/warning|failed to validate/i);

    const { deployment } = await program.exportStack();
    const ids = Object.fromEntries((deployment.deployment.resources ?? []).filter((r) => r.type.startsWith("wos:")).map((r) => [r.urn.split("::").pop(), r.id]));
    expect(ids).toEqual({ apps: made.project, web: made.workspace, region: made.region, apiKey: made.apiKey, bucket: made.module });

    generated = fs.readFileSync(out, "utf8");
    // The short type tokens of Pulumi YAML (`wos:Project` for `wos:index:Project`), references between the
    // resources, and each input as the service holds it.
    expect(block(generated, "apps")).toMatch(/type: wos:Project\n[^]*name: Imported Apps\n[^]*team: platform/);
    expect(block(generated, "web")).toMatch(/type: wos:Workspace\n[^]*name: imported-web\n[^]*projectId: \$\{apps\.id\}/);
    expect(block(generated, "region")).toMatch(/type: wos:Variable\n[^]*value: eu-west-1\n[^]*workspaceId: \$\{web\.id\}/);
    expect(block(generated, "bucket")).toMatch(/type: wos:NoCodeModule\n[^]*variableName: region\n[^]*versionPin: 1\.0\.0/);
    expect(generated).not.toContain("ncvaropt-");
    // The sensitive value cannot be read: it imports as "" ...
    expect(block(generated, "apiKey")).toMatch(/key: API_KEY\n[^]*sensitive: true\n\s+value: ""\n/);
    // ... a secret in state all the same (`--show-secrets` shows it as plaintext: ""); the value itself is nowhere.
    const apiKey = deployment.deployment.resources!.find((r) => r.urn.endsWith("::apiKey"))!;
    expect(apiKey.outputs!.value).toEqual({ "4dabf18193072939515e22adb298388d": "1b47061264138c4ac30d75fd1eb44270", ciphertext: expect.any(String) });
    const shown = await program.exportStack({ showSecrets: true });
    expect(shown.deployment.deployment.resources!.find((r) => r.urn.endsWith("::apiKey"))!.outputs!.value).toEqual({
        "4dabf18193072939515e22adb298388d": "1b47061264138c4ac30d75fd1eb44270",
        plaintext: JSON.stringify(""),
    });
    expect(shown.text).not.toContain(API_KEY);
    // Importing changed nothing on the service.
    expect(await service.snapshot()).toEqual(before);
});

test("the generated code is the program: `pulumi preview --expect-no-changes` passes, and `up` with it changes nothing", async () => {
    expect(generated).toBeDefined();
    stack.writeYaml(`${HEADER}${generated}`);
    const preview = await stack.program.attempt(["preview", "--expect-no-changes", "--diff"]);
    expect({ code: preview.code, output: preview.output }).toEqual({ code: 0, output: expect.stringMatching(/6 unchanged/) });
    const up = await stack.program.attempt(["up", "--yes", "--expect-no-changes"]);
    expect({ code: up.code, output: up.output }).toEqual({ code: 0, output: expect.stringMatching(/6 unchanged/) });
    // The sensitive variable kept its value: nothing was written (and the service still holds it as sensitive).
    expect(await service.snapshot()).toEqual(before);
});

test("the sensitive value written into the program as a secret: one in-place update, secret in the output and in state", async () => {
    expect(generated).toBeDefined();
    const withValue = `${HEADER}${generated}`.replace(/(  apiKey:\n(?: {4}.*\n)*? {6})value: ""\n/, `$1value:\n        fn::secret: ${API_KEY}\n`);
    expect(withValue).toContain(`fn::secret: ${API_KEY}`);
    stack.writeYaml(withValue);

    const preview = await stack.program.pulumi(["preview", "--diff"]);
    expect(preview.output).toMatch(/~ wos:index:Variable: \(update\)[^]*?::apiKey\][^]*?~ value\s*: \[secret\] => \[secret\]/);
    expect(preview.output).toMatch(/Resources:\s+~ 1 to update\s+5 unchanged/);
    const up = await stack.program.pulumi(["up", "--yes"]);
    expect(up.output).toMatch(/Resources:\s+~ 1 updated\s+5 unchanged/);
    const again = await stack.program.attempt(["preview", "--expect-no-changes"]);
    expect(again.code).toBe(0);

    const variable = ((await service.snapshot()).workspaces.find((w) => w.name === "imported-web")!.vars).find((v) => v.key === "API_KEY");
    expect(variable).toMatchObject({ sensitive: true, value: null });
    // Secret everywhere Pulumi keeps it: in state only as ciphertext, and shown only at the variable's value.
    expect((await stack.program.exportStack()).text).not.toContain(API_KEY);
    expect(resourcePathsHolding((await stack.program.exportStack({ showSecrets: true })).deployment, API_KEY)).toEqual({
        apiKey: ["inputs.value.plaintext", "outputs.value.plaintext"],
    });
    expect(stack.transcript()).not.toContain(API_KEY);
    expect(stack.transcript()).not.toContain(PLATFORM_TOKEN);
});
