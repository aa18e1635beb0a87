/**
 * `wos:index:NoCodeProject` as a multi-language component (issue 21, section 1): a Pulumi YAML program
 * (`tests/languages/no-code-project-yaml`) and a Python one on the generated SDK (`no-code-project-python`)
 * declare the component, and the native plugin, installed from the tarball of `npm run plugin:pack` as a user
 * installs it, constructs it (`Construct`) through the real CLI
 * against the real `wos-server`: its children are the plugin's own resources (`wos:index:Project`,
 * `wos:index:NoCodeModule`, `wos:index:NoCodeWorkspace`) under the component, on the component's provider,
 * never dynamic resources (which a YAML program could not run). `up` makes the project, the module and the
 * workspaces (read back over HTTP), a `preview` finds nothing to do, raising the module's pin upgrades every
 * workspace, `destroy` leaves the service as the seed made it; then the YAML program with an explicit provider
 * given to the component, whose children use it.
 */
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { BUCKET_MODULE, PLATFORM_TOKEN, startCliTestService, type CliTestService, type OrganizationSnapshot } from "../cli/localService";
import { pulumiBinDir, pulumiProgram, type PulumiProgram, type StackExport } from "../support/pulumiCli";
import { installPlugin, pluginTarball, pythonEnvironmentWithSdk, type PluginTarball } from "./languageTools";

// The real CLI, the YAML language host and the plugin (Node.js, with the Pulumi runtime for Construct).
jest.setTimeout(300_000);

const COMPONENT = "wos:index:NoCodeProject";

/** One of the programs: each declares the same component, its names and values prefixed by its language. */
interface ComponentProgram {
    language: "yaml" | "python";
    source: string;
    /** The project's name (`<Language> Catalog`). */
    projectName: string;
    /** The sensitive var's value, a secret of the program. */
    archiveKey: string;
    /** Environment of every command (the Python environment first on PATH), made before the stack. */
    environment?: () => Promise<Record<string, string>>;
}

const YAML: ComponentProgram = {
    language: "yaml",
    source: path.join(__dirname, "no-code-project-yaml"),
    projectName: "YAML Catalog",
    archiveKey: "yaml-archive-key-5e1f",
};

let pythonDir: string | undefined;
const PYTHON: ComponentProgram = {
    language: "python",
    source: path.join(__dirname, "no-code-project-python"),
    projectName: "Python Catalog",
    archiveKey: "python-archive-key-3c9b",
    environment: async () => {
        pythonDir = fs.mkdtempSync(path.join(os.tmpdir(), "wos-python-component-"));
        const venv = await pythonEnvironmentWithSdk(path.join(pythonDir, "venv"));
        return { PATH: [path.join(venv, "bin"), pulumiBinDir(), process.env.PATH ?? ""].join(path.delimiter) };
    },
};

const workspacesOf = (spec: ComponentProgram) => [`${spec.language}-assets`, `${spec.language}-logs`];

let service: CliTestService;
let seeded: OrganizationSnapshot;
let plugin: PluginTarball;

beforeAll(async () => {
    service = await startCliTestService();
    seeded = await service.snapshot();
    plugin = await pluginTarball();
}, 600_000);

afterAll(async () => {
    await service?.stop();
    for (const dir of [pythonDir]) if (dir) fs.rmSync(dir, { recursive: true, force: true });
}, 60_000);

/** A stack of the program (or of `files` over it), with the plugin installed and the service's address and token. */
async function componentProgram(spec: ComponentProgram, files?: Record<string, string>): Promise<PulumiProgram> {
    const program = await pulumiProgram({ source: spec.source, packed: false, files, env: await spec.environment?.() });
    await installPlugin(program, plugin);
    await program.setConfig("wos:address", service.url);
    await program.setConfig("wos:token", PLATFORM_TOKEN, { secret: true });
    return program;
}

type StackResource = NonNullable<StackExport["deployment"]["resources"]>[number] & { parent?: string; provider?: string };

/** The stack's resources by type and name. */
async function stackResources(program: PulumiProgram): Promise<{ text: string; resources: StackResource[] }> {
    const { text, deployment } = await program.exportStack();
    return { text, resources: (deployment.deployment.resources ?? []) as StackResource[] };
}

const nameOf = (resource: { urn: string }) => resource.urn.split("::").pop()!;

/** The component and its children in the stack: native type tokens, each child's parent the component, each on `provider`. */
function expectComponentTree(spec: ComponentProgram, resources: StackResource[], provider: RegExp): void {
    const component = resources.find((resource) => resource.type === COMPONENT);
    expect(component).toBeDefined();
    expect(component!.inputs ?? {}).toEqual({});
    const children = resources.filter((resource) => resource.parent === component!.urn);
    expect(children.map((child) => `${child.type} ${nameOf(child)}`).sort()).toEqual([
        "wos:index:NoCodeModule catalog-module",
        `wos:index:NoCodeWorkspace catalog-${spec.language}-assets`,
        `wos:index:NoCodeWorkspace catalog-${spec.language}-logs`,
        "wos:index:Project catalog-project",
    ]);
    for (const child of children) {
        expect(child.urn).toContain(`::${COMPONENT}$${child.type}::`);
        expect(child.provider).toMatch(provider);
    }
    expect(resources.filter((resource) => resource.type.startsWith("pulumi-nodejs:dynamic"))).toEqual([]);
}

/** What the service holds of the program's project, module and workspaces, checked against the stack's outputs. */
async function expectOnService(spec: ComponentProgram, outputs: Record<string, unknown>, versionPin: string): Promise<void> {
    const [assetsName, logsName] = workspacesOf(spec) as [string, string];
    const snapshot = await service.snapshot();
    const project = snapshot.projects.find((found) => found.name === spec.projectName);
    expect(project).toMatchObject({
        id: outputs.projectId,
        description: `Made by a Pulumi ${spec.projectName.split(" ")[0]} program through Construct`,
        tags: { team: "platform", language: spec.language },
    });
    expect(snapshot.bucketNoCodeModules).toEqual([...seeded.bucketNoCodeModules, outputs.noCodeModuleId]);
    const module = await service.get(`/no-code-modules/${outputs.noCodeModuleId as string}`);
    expect(module.attributes).toMatchObject({ enabled: true, "version-pin": versionPin });
    expect(module.relationships["registry-module"].data.id).toBe(BUCKET_MODULE);

    const workspaces = Object.fromEntries(
        snapshot.workspaces.filter((found) => workspacesOf(spec).includes(found.name)).map((found) => [found.name, found]),
    );
    expect(Object.keys(workspaces).sort()).toEqual(workspacesOf(spec));
    expect(outputs.workspaceIds).toEqual({ [assetsName]: workspaces[assetsName]!.id, [logsName]: workspaces[logsName]!.id });
    expect(outputs.moduleVersions).toEqual({ [assetsName]: versionPin, [logsName]: versionPin });
    for (const workspace of Object.values(workspaces)) expect(workspace.project).toBe(outputs.projectId);
    const vars = (name: string) => workspaces[name]!.vars.map(({ key, category, value, sensitive }) => ({ key, category, value, sensitive }));
    // The shared vars, the workspace's own winning on the same key and category.
    expect(vars(assetsName)).toEqual([
        { key: "region", category: "infra", value: "eu-west-1", sensitive: false },
        { key: "size", category: "infra", value: "3", sensitive: false },
    ]);
    expect(vars(logsName)).toEqual([
        { key: "ARCHIVE_KEY", category: "env", value: expect.not.stringContaining(spec.archiveKey), sensitive: true },
        { key: "region", category: "infra", value: "eu-west-1", sensitive: false },
        { key: "size", category: "infra", value: "1", sensitive: false },
    ]);
    const assets = await service.get(`/workspaces/${workspaces[assetsName]!.id}`);
    const logs = await service.get(`/workspaces/${workspaces[logsName]!.id}`);
    const sourceName = `${spec.language} catalog`;
    expect(assets.attributes).toMatchObject({ "auto-apply": true, "execution-mode": "remote", "source-name": sourceName, description: "Assets, one bucket size of their own" });
    expect(logs.attributes).toMatchObject({ "auto-apply": false, "execution-mode": "remote", "source-name": sourceName });
}

function componentLifecycle(spec: ComponentProgram): void {
    const WORKSPACES = workspacesOf(spec);
    const [assetsName, logsName] = WORKSPACES as [string, string];
    let program: PulumiProgram;
    let destroyed = false;

    beforeAll(async () => {
        program = await componentProgram(spec);
    }, 600_000);

    afterAll(async () => {
        // What a failed test left on the service would fail the next program's module (one per registry module).
        if (program && !destroyed) await program.attempt(["destroy", "--yes"]);
        await program?.dispose();
    }, 120_000);

    test("`pulumi preview --diff`: the component and, under it, the plugin's project, module and two workspaces; the secret hidden; nothing written", async () => {
        const preview = await program.pulumi(["preview", "--diff"]);
        expect(preview.output).toMatch(/\+ wos:index:NoCodeProject: \(create\)\s+\[urn=\S+::wos:index:NoCodeProject::catalog\]/);
        expect(preview.output).toMatch(/\+ wos:index:Project: \(create\)\s+\[urn=\S+::wos:index:NoCodeProject\$wos:index:Project::catalog-project\]/);
        expect(preview.output).toContain(`"${spec.projectName}"`);
        expect(preview.output).toMatch(/\+ wos:index:NoCodeModule: \(create\)\s+\[urn=\S+::wos:index:NoCodeProject\$wos:index:NoCodeModule::catalog-module\]/);
        for (const name of WORKSPACES) {
            expect(preview.output).toMatch(new RegExp(`\\+ wos:index:NoCodeWorkspace: \\(create\\)\\s+\\[urn=\\S+::wos:index:NoCodeProject\\$wos:index:NoCodeWorkspace::catalog-${name}\\]`));
        }
        expect(preview.output).toMatch(/\+ 6 to create/);
        expect(preview.output).not.toContain("pulumi-nodejs:dynamic");
        expect(preview.output).not.toContain(spec.archiveKey);
        expect(await service.snapshot()).toEqual(seeded);
    });

    test("`pulumi up` makes the project with its tags, the module and the two workspaces with their merged vars, on the service", async () => {
        const up = await program.pulumi(["up", "--yes"]);
        expect(up.output).toMatch(/Resources:\s+\+ 6 created/);
        expect(up.output).not.toContain(spec.archiveKey);
        const outputs = await program.outputs();
        // The workspaces run the module's pin: no newer no-code version for them.
        expect(outputs.upgradesAvailable).toEqual({ [assetsName]: false, [logsName]: false });
        await expectOnService(spec, outputs, "1.0.0");
    });

    test("the stack: the children with the plugin's type tokens under the component, on the default provider; the secret only encrypted", async () => {
        const { text, resources } = await stackResources(program);
        // An SDK's default provider is named for its version and the download URL its package carries (YAML's: neither).
        expectComponentTree(spec, resources, /::pulumi:providers:wos::default(_\d+_\d+_\d+_github_\/api\.github\.com\/pulumi-wos\/pulumi-wos)?::/);
        expect(text).not.toContain(spec.archiveKey);
        expect((await program.exportStack({ showSecrets: true })).text).toContain(spec.archiveKey);
        expect(text).not.toContain(PLATFORM_TOKEN);
    });

    test("`pulumi preview --expect-no-changes` passes", async () => {
        const again = await program.attempt(["preview", "--expect-no-changes", "--diff"]);
        expect({ code: again.code, output: again.output }).toEqual({ code: 0, output: expect.stringMatching(/6 unchanged/) });
    });

    test("raising the module's pin upgrades both workspaces in one `up`, each upgrade's progress under its workspace", async () => {
        await program.setConfig("bucketVersion", "1.1.0");
        const up = await program.pulumi(["up", "--yes"]);
        expect(up.output).toMatch(/~ 3 updated/);
        for (const name of WORKSPACES) {
            expect(up.output).toMatch(new RegExp(`'${name}' \\(ws-\\w+\\) of no-code module nocode-\\w+: upgrade run-\\w+: planned, confirmed and applied`));
        }
        const outputs = await program.outputs();
        expect(outputs.upgradesAvailable).toEqual({ [assetsName]: false, [logsName]: false });
        await expectOnService(spec, outputs, "1.1.0");
        expect((await program.attempt(["preview", "--expect-no-changes"])).code).toBe(0);
    });

    test("`pulumi destroy` removes the workspaces, the module and the project: the service is as the seed made it", async () => {
        const destroy = await program.pulumi(["destroy", "--yes"]);
        expect(destroy.output).toMatch(/Resources:\s+- 6 deleted/);
        destroyed = true;
        expect(await service.snapshot()).toEqual(seeded);
    });
}

describe("a YAML program declaring wos:index:NoCodeProject, constructed by the plugin", () => componentLifecycle(YAML));

describe("a Python program declaring wos.NoCodeProject of the generated SDK, constructed by the plugin", () => componentLifecycle(PYTHON));

/** The program with an explicit provider `acme` (its own address and token) given to the component. */
function withExplicitProvider(source: string): string {
    const variant = source
        .replace(/\nresources:\n  catalog:\n    type: wos:index:NoCodeProject\n/, [
            "",
            "  explicitAddress:",
            "    type: string",
            "  explicitToken:",
            "    type: string",
            "    secret: true",
            "resources:",
            "  acme:",
            "    type: pulumi:providers:wos",
            "    properties:",
            "      address: ${explicitAddress}",
            "      token: ${explicitToken}",
            "  catalog:",
            "    type: wos:index:NoCodeProject",
            "    options:",
            "      provider: ${acme}",
            "",
        ].join("\n"));
    if (variant === source) throw new Error(`${YAML.source}/Pulumi.yaml no longer declares the component where this test adds the provider`);
    return variant;
}

describe("the component given an explicit provider", () => {
    let program: PulumiProgram;

    beforeAll(async () => {
        program = await componentProgram(YAML, { "Pulumi.yaml": withExplicitProvider(fs.readFileSync(path.join(YAML.source, "Pulumi.yaml"), "utf8")) });
        // The default provider points nowhere and has no token: only the explicit one can make the children.
        await program.setConfig("wos:address", "http://127.0.0.1:9");
        await program.pulumi(["config", "rm", "wos:token"]);
        await program.setConfig("explicitAddress", service.url);
        await program.setConfig("explicitToken", PLATFORM_TOKEN, { secret: true });
    }, 120_000);

    afterAll(async () => {
        await program?.dispose();
    }, 60_000);

    test("`pulumi up`: every child on the component's provider; `destroy` leaves the service as seeded", async () => {
        const up = await program.pulumi(["up", "--yes"]);
        expect(up.output).toMatch(/Resources:\s+\+ 7 created/);
        const { resources } = await stackResources(program);
        expectComponentTree(YAML, resources, /::pulumi:providers:wos::acme::/);
        await expectOnService(YAML, await program.outputs(), "1.0.0");

        const destroy = await program.pulumi(["destroy", "--yes"]);
        expect(destroy.output).toMatch(/Resources:\s+- 7 deleted/);
        expect(await service.snapshot()).toEqual(seeded);
    });
});
