/**
 * The sensitive value through the real CLI (issue 21, section 3), for the native plugin (a YAML program) and
 * for the dynamic resources (a TypeScript program), each on a stack of its own against one `wos-server`: a
 * `Variable` with `sensitive: true` and a `NoCodeWorkspace` with one sensitive var beside a plain `region`,
 * both sensitive values written in plain text in the program (the resources make them secret themselves).
 *
 * Neither value is printed by `preview --diff`, `up --diff` or `stack output`, nor stored in plain text in
 * the state; `stack export --show-secrets` shows each exactly where it is kept. A change of the plain `region`
 * stays readable in `preview --diff` (`"eu-west-1" => "us-east-1"`) while the sensitive value shows as
 * `[secret]`, and the upgrade it makes prints no secret either.
 */
import * as path from "node:path";
import { WosClient } from "../../sdk";
import { REPO_ROOT } from "../support/packedPackage";
import { pulumiProgram } from "../support/pulumiCli";
import { PLATFORM_TOKEN, startCliTestService, type CliTestService } from "../cli/localService";
import { resourcePathsHolding, UPGRADE_POLL_MS, withTranscript, yamlStack, type ProgramStack } from "./pluginStacks";

jest.setTimeout(300_000);

/** The sensitive values, each a different text so that its place can be told. */
const SECRETS = {
    yaml: { archiveKey: "yaml-archive-key-51c0e2", password: "yaml-db-password-a93f17" },
    typescript: { archiveKey: "ts-archive-key-77b2d4", password: "ts-db-password-0c58e9" },
} as const;

const BUCKET_MODULE = "mod-0000000000000001";

/** The plugin's program: the same resources as {@link typescriptProgram}, in YAML. */
const yamlProgram = `name: wos-secrets-yaml
runtime: yaml
description: Sensitive values on the native plugin.
config:
  region:
    type: string
    default: eu-west-1
resources:
  storage:
    type: wos:index:Project
    properties:
      name: YAML Secret Storage
  bucket:
    type: wos:index:NoCodeModule
    properties:
      registryModuleId: ${BUCKET_MODULE}
      versionPin: 1.0.0
      enabled: true
  logs:
    type: wos:index:NoCodeWorkspace
    properties:
      noCodeModuleId: \${bucket.id}
      projectId: \${storage.id}
      name: yaml-logs
      vars:
        - key: region
          value: \${region}
          category: infra
        - key: ARCHIVE_KEY
          value: ${SECRETS.yaml.archiveKey}
          category: env
          sensitive: true
  password:
    type: wos:index:Variable
    properties:
      workspaceId: \${logs.id}
      key: DB_PASSWORD
      value: ${SECRETS.yaml.password}
      category: env
      sensitive: true
outputs:
  noCodeModuleId: \${bucket.id}
  password: \${password.value}
`;

/**
 * The dynamic resources' program (a registry module has one no-code module at most: it makes its workspace
 * from the YAML program's).
 */
const typescriptProgram = `import * as pulumi from "@pulumi/pulumi";
import * as wos from "pulumi-wos";

const config = new pulumi.Config();
const storage = new wos.Project("storage", { name: "TS Secret Storage" });
const logs = new wos.NoCodeWorkspace("logs", {
    noCodeModuleId: config.require("noCodeModuleId"),
    projectId: storage.id,
    name: "ts-logs",
    vars: [
        { key: "region", value: config.get("region") ?? "eu-west-1", category: "infra" },
        { key: "ARCHIVE_KEY", value: "${SECRETS.typescript.archiveKey}", category: "env", sensitive: true },
    ],
});
const password = new wos.Variable("password", {
    workspaceId: logs.id,
    key: "DB_PASSWORD",
    value: "${SECRETS.typescript.password}",
    category: "env",
    sensitive: true,
});
export const passwordValue = password.value;
`;

let service: CliTestService;

beforeAll(async () => {
    service = await startCliTestService();
}, 120_000);

afterAll(async () => {
    await service?.stop();
}, 60_000);

/** The sensitive var and variable of a workspace as the service holds them: sensitive, without a value. */
async function sensitiveOnService(workspace: string) {
    const snapshot = await service.snapshot();
    const vars = snapshot.workspaces.find((candidate) => candidate.name === workspace)!.vars;
    return vars.filter((variable) => variable.sensitive).map(({ key, value }) => ({ key, value }));
}

interface Case {
    /** How the CLI names the types: `wos:index:` (plugin) or `pulumi-nodejs:dynamic/wos:`. */
    typePrefix: string;
    workspace: string;
    secrets: { archiveKey: string; password: string };
    /** Where `stack export --show-secrets` shows each value, by resource name; the stack's own by `stack`. */
    secretPaths: { archiveKey: Record<string, string[]>; password: Record<string, string[]> };
    /** The stack's name in its URN. */
    stackResource: string;
    /**
     * How `preview --diff` of the workspace's update shows the sensitive var's value; `null` where the
     * unchanged sensitive var is not printed at all (the plugin's diff names only the vars that changed).
     */
    secretInDiff: RegExp | null;
    start(): Promise<ProgramStack>;
}

function secretTests(spec: Case): void {
    let stack: ProgramStack;

    beforeAll(async () => {
        stack = await spec.start();
    }, 600_000);

    afterAll(async () => {
        await stack?.dispose();
    }, 60_000);

    const secretsOf = () => Object.values(spec.secrets);
    const noSecretIn = (text: string) => expect(secretsOf().filter((value) => text.includes(value))).toEqual([]);

    /** The paths of the state at which each value is, the stack resource named `stack`. */
    const placesInState = async () => {
        const { deployment } = await stack.program.exportStack({ showSecrets: true });
        const rename = (found: Record<string, string[]>) =>
            Object.fromEntries(Object.entries(found).map(([name, paths]) => [name === spec.stackResource ? "stack" : name, paths]));
        return { archiveKey: rename(resourcePathsHolding(deployment, spec.secrets.archiveKey)), password: rename(resourcePathsHolding(deployment, spec.secrets.password)) };
    };

    test("`preview --diff` and `up --diff` show each sensitive value as [secret]; the service holds them as sensitive", async () => {
        const preview = await stack.program.pulumi(["preview", "--diff"]);
        expect(preview.output).toMatch(new RegExp(`\\+ ${spec.typePrefix.replace(/[/]/g, "\\/")}Variable: \\(create\\)[^]*?value\\s*: \\[secret\\]`));
        noSecretIn(preview.output);
        const up = await stack.program.pulumi(["up", "--yes", "--diff"]);
        expect(up.output).toMatch(/Resources:\s+\+ \d+ created/);
        expect(up.output).toMatch(/password(?:Value)?\s*: \[secret\]/);
        noSecretIn(up.output);
        expect(await sensitiveOnService(spec.workspace)).toEqual([
            { key: "ARCHIVE_KEY", value: null },
            { key: "DB_PASSWORD", value: null },
        ]);
        const outputs = await stack.program.outputs();
        expect(outputs.password ?? outputs.passwordValue).toBe("[secret]");
    });

    test("the state holds no sensitive value in plain text; `--show-secrets` shows each exactly where it is kept", async () => {
        const exported = await stack.program.exportStack();
        noSecretIn(exported.text);
        expect(exported.text).not.toContain(PLATFORM_TOKEN);
        expect(await placesInState()).toEqual(spec.secretPaths);
    });

    test("a change of `region` beside the sensitive var: `preview --diff` shows eu-west-1 => us-east-1 and the secret as [secret]; the upgrade prints no secret", async () => {
        await stack.program.setConfig("region", "us-east-1");
        const preview = await stack.program.pulumi(["preview", "--diff"]);
        expect(preview.output).toMatch(/::logs\][^]*?~ vars\s*: \[[^]*?key\s*: "region"\s+~ value\s*: "eu-west-1" => "us-east-1"/);
        if (spec.secretInDiff) expect(preview.output).toMatch(spec.secretInDiff);
        else expect(preview.output).not.toContain("ARCHIVE_KEY");
        expect(preview.output).not.toMatch(/vars\s*: \[secret\]/);
        noSecretIn(preview.output);

        const up = await stack.program.pulumi(["up", "--yes", "--diff"]);
        expect(up.output).toMatch(/confirmed and applied/);
        expect(up.output).toMatch(/Resources:\s+~ 1 updated/);
        noSecretIn(up.output);
        const region = (await service.snapshot()).workspaces.find((candidate) => candidate.name === spec.workspace)!.vars.find((v) => v.key === "region");
        expect(region!.value).toBe("us-east-1");
        expect(await sensitiveOnService(spec.workspace)).toEqual([
            { key: "ARCHIVE_KEY", value: null },
            { key: "DB_PASSWORD", value: null },
        ]);
        noSecretIn((await stack.program.exportStack()).text);
        expect(await placesInState()).toEqual(spec.secretPaths);
        noSecretIn(stack.transcript());
        expect(stack.transcript()).not.toContain(PLATFORM_TOKEN);
    });
}

/** The module the YAML program made, for the TypeScript program's workspace. */
let noCodeModuleId: string | undefined;

describe("the native plugin (a YAML program)", () => {
    secretTests({
        typePrefix: "wos:index:",
        workspace: "yaml-logs",
        secrets: SECRETS.yaml,
        stackResource: "wos-secrets-yaml-dev",
        // The plugin's diff names the changed var alone (`vars[0]`): the sensitive one, unchanged, is not printed.
        secretInDiff: null,
        secretPaths: {
            archiveKey: { logs: ["inputs.vars[1].value.plaintext", "outputs.sensitiveValues.plaintext"] },
            password: { password: ["inputs.value.plaintext", "outputs.value.plaintext"], stack: ["outputs.password.plaintext"] },
        },
        start: () => yamlStack(service, { yaml: yamlProgram }),
    });

    afterAll(async () => {
        noCodeModuleId = (await service.snapshot()).bucketNoCodeModules[0];
    });
});

describe("the dynamic resources (a TypeScript program)", () => {
    secretTests({
        typePrefix: "pulumi-nodejs:dynamic/wos:",
        workspace: "ts-logs",
        secrets: SECRETS.typescript,
        stackResource: "wos-secrets-ts-dev",
        // The dynamic resource's inputs keep the value apart, in the secret `sensitiveValues`.
        secretInDiff: /::logs\][^]*?sensitiveValues\s*: \[secret\]/,
        secretPaths: {
            archiveKey: { logs: ["inputs.sensitiveValues.plaintext", "outputs.sensitiveValues.plaintext"] },
            password: { password: ["inputs.value.plaintext", "outputs.value.plaintext"], stack: ["outputs.passwordValue.plaintext"] },
        },
        async start() {
            // A module of its own when this block runs alone.
            const moduleId = noCodeModuleId ?? (await service.snapshot()).bucketNoCodeModules[0] ?? (await makeModule());
            const program = await pulumiProgram({
                source: path.join(REPO_ROOT, "examples", "no-code"),
                files: { "index.ts": typescriptProgram, "Pulumi.yaml": "name: wos-secrets-ts\nruntime: nodejs\n" },
                env: { WOS_UPGRADE_POLL_MS: UPGRADE_POLL_MS },
            });
            const transcript = withTranscript(program);
            await program.setConfig("wos:address", service.url);
            await program.setConfig("wos:token", PLATFORM_TOKEN, { secret: true });
            await program.setConfig("wos:organization", "acme");
            await program.setConfig("noCodeModuleId", moduleId);
            return { program, transcript, writeYaml: () => undefined, dispose: () => program.dispose() };
        },
    });
});

/** Enables the bucket module for no-code provisioning over HTTP (when the YAML block did not run). */
async function makeModule(): Promise<string> {
    const client = new WosClient({ address: service.url, token: PLATFORM_TOKEN });
    return (await client.noCodeModules.create("acme", { registryModuleId: BUCKET_MODULE, versionPin: "1.0.0", enabled: true })).id;
}
