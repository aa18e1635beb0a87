/**
 * The whole no-code life of a program of another language on the native plugin `pulumi-resource-wos` (issue 21,
 * section 3), through the real CLI (`tests/cli/setup.sh` builds it with the YAML, Python and Go language hosts)
 * against the real `wos-server`, as `tests/cli/noCode.test.ts` lives it for the TypeScript example on the dynamic
 * resources: the plugin installed as a user installs it (`pulumi plugin install resource wos <version> --file
 * <tarball>` of the tarball that `npm run plugin:pack` makes) into the test's own PULUMI_HOME, then
 * `preview --diff` (nothing written), `up` (everything read back over HTTP), a `preview` with no changes, the
 * upgrade of both workspaces by raising the module's pin, a change made outside the program that `refresh`
 * shows and the next `up` undoes, no secret printed or stored in plain text, and `destroy` leaving the service
 * as the seed made it.
 *
 * Each program is examples/no-code in its language. It declares, for `<language>` of {@link LifecycleSpec.language}:
 *
 * - `storage`, a `wos:index:Project` named `<language>-storage` with the description
 *   {@link LifecycleSpec.projectDescription} and the tags `{ team: platform, language: <language> }`;
 * - `bucket`, a `wos:index:NoCodeModule` of the seed's registry module `bucket`, enabled, its `versionPin` the
 *   project config `bucketVersion` (default `1.0.0`), with the options `eu-west-1`, `us-east-1` for `region`;
 * - `assets`, a `wos:index:NoCodeWorkspace` from it (`moduleVersion` its pin) named `<language>-assets`,
 *   described `Static assets of the web shop`, `autoApply`, with the vars `region` = `eu-west-1` and `size` = `3`
 *   (described `Number of buckets`), both `infra`;
 * - `logs`, the same named `<language>-logs`, described `Log archive`, with the vars `region` = `us-east-1`
 *   (`infra`) and `ARCHIVE_KEY` = {@link LifecycleSpec.archiveKey} (`env`, sensitive, in plain text in the
 *   program: the plugin makes it secret);
 *
 * and exports `projectId`, `projectTags`, `noCodeModuleId`, `versionPin`, `assetsWorkspaceId`, `logsWorkspaceId`.
 *
 * The tests share one deployment and run in file order. Upgrades step fast: the service's plan step is
 * `PLAN_STEP_MS` (`tests/cli/localService.ts`) and the plugin's first poll `WOS_UPGRADE_POLL_MS`.
 */
import { WosClient } from "../../sdk";
import { pulumiProgram, type PulumiProgram } from "../support/pulumiCli";
import {
    BUCKET_MODULE,
    OWNERS_TOKEN,
    PLATFORM_TOKEN,
    startCliTestService,
    type CliTestService,
    type OrganizationSnapshot,
} from "../cli/localService";
import { installPlugin, pluginTarball } from "./languageTools";
import { resourcePathsHolding, UPGRADE_POLL_MS, withTranscript } from "./pluginStacks";

// Each test runs the real CLI, which starts a language host and the plugin (Node.js): seconds alone, more on two
// busy cores.
jest.setTimeout(300_000);

export interface LifecycleSpec {
    /** The program's directory (copied whole into a temporary directory). */
    source: string;
    /** `yaml`, `python`, `go`: the prefix of every name the program gives, and its project's tag `language`. */
    language: string;
    /** The description of the program's project. */
    projectDescription: string;
    /** The value of `logs`' sensitive var `ARCHIVE_KEY`, as the program writes it. */
    archiveKey: string;
    /** Environment of every command (e.g. a PATH with a Python environment first), made before the stack. */
    environment?: () => Promise<Record<string, string>>;
    /** Readies the program's copy before the first command (e.g. a Go program's `go.mod`). */
    prepare?: (dir: string) => Promise<void>;
}

/** The program's resources that make a workspace, by their Pulumi names. */
const WORKSPACES = ["assets", "logs"] as const;
type WorkspaceName = (typeof WORKSPACES)[number];

/** The block the CLI prints for one resource in a `--diff` output: from its `[urn=...::<name>]` line on. */
function resourceBlock(output: string, name: string): string {
    const start = output.search(new RegExp(`\\[urn=\\S+::${name}\\]`));
    if (start < 0) throw new Error(`no resource ${name} in:\n${output}`);
    const rest = output.slice(start + 1);
    const end = rest.search(/\[urn=|\nResources:/);
    return end < 0 ? rest : rest.slice(0, end);
}

export function programLifecycleTests(spec: LifecycleSpec): void {
    const names = {
        project: `${spec.language}-storage`,
        assets: `${spec.language}-assets`,
        logs: `${spec.language}-logs`,
    };
    const tags = { team: "platform", language: spec.language };
    let service: CliTestService;
    let client: WosClient;
    let seeded: OrganizationSnapshot;
    let program: PulumiProgram;
    let transcript: () => string;

    beforeAll(async () => {
        service = await startCliTestService();
        // Reads with the owners' token, which reads everything and is not the program's.
        client = new WosClient({ address: service.url, token: OWNERS_TOKEN });
        seeded = await service.snapshot();
        program = await pulumiProgram({
            source: spec.source,
            packed: false,
            env: { ...(await spec.environment?.()), WOS_UPGRADE_POLL_MS: UPGRADE_POLL_MS },
        });
        transcript = withTranscript(program);
        await spec.prepare?.(program.dir);
        await installPlugin(program, await pluginTarball());
        await program.setConfig("wos:address", service.url);
        await program.setConfig("wos:token", PLATFORM_TOKEN, { secret: true });
        await program.setConfig("wos:organization", "acme");
    }, 600_000);

    afterAll(async () => {
        await program?.dispose();
        await service?.stop();
    }, 60_000);

    /** A workspace of the program as the service holds it, with its vars by key. */
    async function workspaceOnService(name: WorkspaceName) {
        const workspace = await client.workspaces.readByName("acme", names[name]);
        const vars = await client.variables.list(workspace.id);
        return { workspace, vars: Object.fromEntries(vars.map((variable) => [variable.key, variable])) };
    }

    /** Each workspace resource of the stack's state: its `moduleVersion` and `lastUpgrade` outputs. */
    async function workspacesInState(): Promise<Record<string, { moduleVersion: unknown; lastUpgrade: unknown }>> {
        const { deployment } = await program.exportStack();
        return Object.fromEntries(
            (deployment.deployment.resources ?? [])
                .filter((resource) => resource.type === "wos:index:NoCodeWorkspace")
                .map((resource) => [
                    resource.urn.split("::").pop(),
                    { moduleVersion: resource.outputs?.moduleVersion, lastUpgrade: resource.outputs?.lastUpgrade },
                ]),
        );
    }

    test("`pulumi preview --diff` shows the project, the module and both workspaces with their inputs, and writes nothing", async () => {
        const preview = await program.pulumi(["preview", "--diff"]);
        expect(preview.output).toMatch(/\+ wos:index:Project: \(create\)/);
        expect(resourceBlock(preview.output, "storage")).toMatch(
            new RegExp(`name\\s+: "${names.project}"[^]*?tags\\s+: \\{\\s+language: "${spec.language}"\\s+team\\s+: "platform"\\s+\\}`),
        );
        expect(resourceBlock(preview.output, "bucket")).toMatch(
            /registryModuleId: "mod-0000000000000001"[^]*?options\s+: \[\s+\[0\]: "eu-west-1"\s+\[1\]: "us-east-1"\s+\][^]*?variableName: "region"[^]*?versionPin\s+: "1\.0\.0"/,
        );
        expect(resourceBlock(preview.output, "assets")).toMatch(
            new RegExp(`moduleVersion\\s+: "1\\.0\\.0"\\s+name\\s+: "${names.assets}"[^]*?key\\s+: "region"\\s+value\\s+: "eu-west-1"[^]*?key\\s+: "size"\\s+value\\s+: "3"`),
        );
        // The sensitive value is a secret from the first preview on.
        expect(resourceBlock(preview.output, "logs")).toMatch(
            new RegExp(`name\\s+: "${names.logs}"[^]*?key\\s+: "region"\\s+value\\s+: "us-east-1"[^]*?key\\s+: "ARCHIVE_KEY"\\s+sensitive: true\\s+value\\s+: \\[secret\\]`),
        );
        expect(preview.output).toMatch(/Resources:\s+\+ 5 to create/);
        expect(preview.output).not.toContain(spec.archiveKey);
        expect(await service.snapshot()).toEqual(seeded);
    });

    test("`pulumi up` makes them all, as the service then holds them; a second preview finds nothing to do", async () => {
        const up = await program.pulumi(["up", "--yes"]);
        expect(up.output).toMatch(/Resources:\s+\+ 5 created/);
        const outputs = await program.outputs();

        const project = await client.projects.read(outputs.projectId as string);
        expect(project).toMatchObject({ name: names.project, description: spec.projectDescription });
        const bindings = await client.projects.listTagBindings(project.id);
        expect(Object.fromEntries(bindings.map(({ key, value }) => [key, value]))).toEqual(tags);
        expect(outputs.projectTags).toEqual(tags);

        const module = await client.noCodeModules.read(outputs.noCodeModuleId as string, { include: ["variable-options"] });
        expect(module).toMatchObject({ organization: "acme", registryModuleId: BUCKET_MODULE, versionPin: "1.0.0", enabled: true });
        expect(module.variableOptions.map(({ variableName, variableType, options }) => ({ variableName, variableType, options }))).toEqual([
            { variableName: "region", variableType: "string", options: ["eu-west-1", "us-east-1"] },
        ]);
        expect(outputs.versionPin).toBe("1.0.0");
        expect((await service.snapshot()).bucketNoCodeModules).toEqual([module.id]);

        const assets = await workspaceOnService("assets");
        expect(assets.workspace).toMatchObject({
            id: outputs.assetsWorkspaceId,
            description: "Static assets of the web shop",
            autoApply: true,
            projectId: project.id,
            source: "tfe-module",
            sourceModuleId: BUCKET_MODULE,
            noCodeModuleVersionId: expect.stringMatching(/^nocodever-/),
            noCodeUpgradeAvailable: false,
        });
        expect(assets.vars).toEqual({
            region: expect.objectContaining({ value: "eu-west-1", category: "infra", sensitive: false }),
            size: expect.objectContaining({ value: "3", category: "infra", sensitive: false, description: "Number of buckets" }),
        });
        const logs = await workspaceOnService("logs");
        expect(logs.workspace).toMatchObject({
            id: outputs.logsWorkspaceId,
            description: "Log archive",
            autoApply: false,
            projectId: project.id,
            sourceModuleId: BUCKET_MODULE,
            noCodeModuleVersionId: assets.workspace.noCodeModuleVersionId,
            noCodeUpgradeAvailable: false,
        });
        // The service holds the sensitive var and never shows its value.
        expect(logs.vars).toEqual({
            region: expect.objectContaining({ value: "us-east-1", category: "infra", sensitive: false }),
            ARCHIVE_KEY: expect.objectContaining({ value: null, category: "env", sensitive: true }),
        });
        const listed = await service.request("GET", `/vars?filter%5Bworkspace%5D%5Bname%5D=${names.logs}&filter%5Borganization%5D%5Bname%5D=acme`);
        expect(listed.status).toBe(200);
        expect(JSON.stringify(listed.body)).toContain('"key":"ARCHIVE_KEY"');
        expect(JSON.stringify(listed.body)).not.toContain(spec.archiveKey);

        const again = await program.attempt(["preview", "--expect-no-changes", "--diff"]);
        expect({ code: again.code, output: again.output }).toEqual({ code: 0, output: expect.stringMatching(/5 unchanged/) });
    });

    test("raising the pin upgrades both workspaces in one `up`: each status under its resource, both on the new version, each run applied", async () => {
        const before = { assets: await workspaceOnService("assets"), logs: await workspaceOnService("logs") };
        await program.setConfig("bucketVersion", "1.1.0");
        const up = await program.pulumi(["up", "--yes"]);
        expect(up.output).toMatch(/Resources:\s+~ 3 updated\s+2 unchanged/);

        const outputs = await program.outputs();
        const module = await client.noCodeModules.read(outputs.noCodeModuleId as string, { include: ["variable-options"] });
        expect(module).toMatchObject({ versionPin: "1.1.0", enabled: true });
        expect(module.variableOptions).toHaveLength(1);
        expect(outputs.versionPin).toBe("1.1.0");

        // The CLI's diagnostics, each resource's log lines under it.
        const diagnostics = up.output.slice(up.output.indexOf("Diagnostics:"));
        const state = await workspacesInState();
        for (const name of WORKSPACES) {
            const { workspace, vars } = await workspaceOnService(name);
            const under = new RegExp(`^  wos:index:NoCodeWorkspace \\(${name}\\):\\n((?:    .*\\n)+)`, "m").exec(diagnostics);
            expect(under).not.toBeNull();
            const lines = under![1]!;
            const line = (status: string) =>
                new RegExp(
                    `wos:NoCodeWorkspace '${names[name]}' \\(${workspace.id}\\) of no-code module ${module.id}: upgrade (run-\\w+)(?: started)?: ${status} \\(plan: ${service.url.replace(/[.]/g, "\\.")}/app/acme/workspaces/${names[name]}/runs/run-\\w+\\)`,
                );
            // The start and the end; each status in between is logged when a poll sees it.
            expect(lines).toMatch(line("pending"));
            expect(lines).toMatch(line("planned, confirmed and applied"));
            const seen = [...lines.matchAll(/: upgrade run-\w+(?: started)?: ([a-z_, ]+) \(plan:/g)].map((match) => match[1]!);
            const order = ["pending", "fetching", "planning", "planned", "planned, confirmed and applied"];
            const firstSeen = [...new Set(seen)].map((status) => order.indexOf(status));
            expect(firstSeen).not.toContain(-1);
            expect(firstSeen).toEqual([...firstSeen].sort((a, b) => a - b));

            // On the new no-code version, with nothing left to upgrade, the vars as the program lists them.
            expect(workspace.noCodeModuleVersionId).toMatch(/^nocodever-/);
            expect(workspace.noCodeModuleVersionId).not.toBe(before[name].workspace.noCodeModuleVersionId);
            expect(workspace.noCodeUpgradeAvailable).toBe(false);
            const values = (of: Record<string, { value: string | null; category: string; sensitive: boolean }>) =>
                Object.fromEntries(Object.entries(of).map(([key, { value, category, sensitive }]) => [key, { value, category, sensitive }]));
            expect(values(vars)).toEqual(values(before[name].vars));

            // Every run the log names ended applied on the service; the state's last upgrade is one of them.
            const runs = [...new Set([...lines.matchAll(/: upgrade (run-\w+)/g)].map((match) => match[1]!))];
            expect(runs).toHaveLength(1);
            const run = await client.noCodeModules.readUpgrade(module.id, workspace.id, runs[0]!);
            expect(run.status).toBe("applied");
            expect(state[name]).toEqual({ moduleVersion: "1.1.0", lastUpgrade: expect.objectContaining({ id: runs[0], status: "applied" }) });
        }
        expect((await workspaceOnService("assets")).workspace.noCodeModuleVersionId).toBe((await workspaceOnService("logs")).workspace.noCodeModuleVersionId);

        const again = await program.attempt(["preview", "--expect-no-changes"]);
        expect({ code: again.code, output: again.output }).toEqual({ code: 0, output: expect.stringMatching(/5 unchanged/) });
    });

    test("a change made outside the program: `refresh` shows it, `preview` proposes to undo it, `up` undoes it", async () => {
        const outputs = await program.outputs();
        const { workspace, vars } = await workspaceOnService("assets");
        const region = vars.region!;
        await client.variables.update(workspace.id, region.id, { value: "us-east-1" });
        await client.workspaces.update(workspace.id, { description: "changed by hand" });
        await client.projects.update(outputs.projectId as string, { description: "changed by hand too" });

        const refresh = await program.pulumi(["refresh", "--yes", "--diff"]);
        expect(resourceBlock(refresh.output, "storage")).toMatch(new RegExp(`~ description\\s*: "${spec.projectDescription}" => "changed by hand too"`));
        expect(resourceBlock(refresh.output, "assets")).toMatch(/~ description\s*: "Static assets of the web shop" => "changed by hand"/);
        expect(resourceBlock(refresh.output, "assets")).toMatch(/~ value\s*: "eu-west-1" => "us-east-1"/);
        expect(refresh.output).toMatch(/Resources:\s+~ 2 updated\s+3 unchanged/);
        // Only the var changed by hand, with its key; the other var is not shown.
        expect(resourceBlock(refresh.output, "assets")).toMatch(/~ \[0\]: \{[^}]*key\s*: "region"[^}]*~ value\s*: "eu-west-1" => "us-east-1"\s*\}\s*\]/);
        expect(resourceBlock(refresh.output, "assets")).not.toMatch(/"size"/);

        const preview = await program.attempt(["preview", "--diff", "--expect-no-changes"]);
        expect(preview.code).not.toBe(0);
        expect(resourceBlock(preview.output, "storage")).toMatch(new RegExp(`~ description\\s*: "changed by hand too" => "${spec.projectDescription}"`));
        expect(resourceBlock(preview.output, "assets")).toMatch(/~ description\s*: "changed by hand" => "Static assets of the web shop"/);
        expect(resourceBlock(preview.output, "assets")).toMatch(/~ value\s*: "us-east-1" => "eu-west-1"/);
        // The refresh stored the inputs as the program writes them: no default spelled out (`- hcl: false`).
        expect(resourceBlock(preview.output, "assets")).not.toMatch(/[-+]\s*(hcl|sensitive)\s*:/);
        expect(resourceBlock(preview.output, "assets")).toMatch(/~ \[0\]: \{\s*category\s*: "infra"\s*key\s*: "region"\s*~ value\s*: "us-east-1" => "eu-west-1"\s*\}\s*\]/);
        // `--json` names the var that changed: the detailed diff says exactly what a reviewer must see.
        const json = await program.attempt(["preview", "--json"]);
        const steps = (JSON.parse(json.stdout) as { steps: Array<{ urn: string; detailedDiff?: Record<string, { kind: string }> }> }).steps;
        const assetsStep = steps.find((step) => step.urn.endsWith("::assets"))!;
        expect(assetsStep.detailedDiff).toEqual({ description: expect.objectContaining({ kind: "update" }), "vars[0]": expect.objectContaining({ kind: "update" }) });

        await program.pulumi(["up", "--yes"]);
        const restored = await workspaceOnService("assets");
        expect(restored.workspace.description).toBe("Static assets of the web shop");
        expect(restored.vars.region!.value).toBe("eu-west-1");
        expect(restored.workspace.noCodeUpgradeAvailable).toBe(false);
        expect((await client.projects.read(outputs.projectId as string)).description).toBe(spec.projectDescription);
        const settled = await program.attempt(["preview", "--expect-no-changes"]);
        expect({ code: settled.code, output: settled.output }).toEqual({ code: 0, output: expect.stringMatching(/5 unchanged/) });
    });

    test("the token and the sensitive value are never printed, and stored only as secrets: the value only where `logs` keeps it", async () => {
        const exported = await program.exportStack();
        for (const hidden of [PLATFORM_TOKEN, spec.archiveKey]) {
            expect(exported.text).not.toContain(hidden);
            expect(transcript()).not.toContain(hidden);
        }
        // The same state with --show-secrets holds each: the checks above looked where they are.
        const revealed = (await program.exportStack({ showSecrets: true })).deployment;
        expect(resourcePathsHolding(revealed, spec.archiveKey)).toEqual({
            logs: ["inputs.vars[1].value.plaintext", "outputs.sensitiveValues.plaintext"],
        });
        // The token only in the default provider's configuration.
        const providers = (revealed.deployment.resources ?? []).filter((resource) => resource.type === "pulumi:providers:wos");
        expect(Object.keys(resourcePathsHolding(revealed, PLATFORM_TOKEN))).toEqual(providers.map((provider) => provider.urn.split("::").pop()));
        expect(providers).toHaveLength(1);
    });

    test("`pulumi destroy` leaves the service as the seed made it", async () => {
        const destroy = await program.pulumi(["destroy", "--yes"]);
        expect(destroy.output).toMatch(/Resources:\s+- 5 deleted/);
        expect(await service.snapshot()).toEqual(seeded);
    });
}
