/**
 * `examples/no-code` through the real `pulumi` against the real `wos-server` loaded with the demo seed: its
 * lifecycle ({@link exampleLifecycleTests}), then the upgrade a user runs by raising the module's pin
 * (`pulumi config set bucketVersion 1.1.0`), and an upgrade whose plan fails.
 */
import * as fs from "node:fs";
import * as path from "node:path";
import { exampleLifecycleTests, type ExampleStack } from "./exampleLifecycle";
import type { CliTestService } from "./localService";

const ARCHIVE_KEY = "no-code-archive-key-5b1c";
const VERSIONS = ["1.0.0", "1.1.0"] as const;

/** The service's view of a workspace made by the example: its document and its vars by key. */
async function workspaceNamed(service: CliTestService, name: string) {
    const workspace = await service.get(`/organizations/acme/workspaces/${name}`);
    const vars = (await service.get(`/vars?filter%5Bworkspace%5D%5Bname%5D=${name}&filter%5Borganization%5D%5Bname%5D=acme`)) as Array<{
        id: string;
        attributes: Record<string, unknown>;
    }>;
    return { workspace, vars: Object.fromEntries(vars.map((variable) => [variable.attributes.key as string, variable])) };
}

/** The no-code version each workspace of the example runs, and whether a newer one is available. */
async function versionsOnService(service: CliTestService) {
    const versions: Record<string, unknown> = {};
    for (const name of ["assets-prod", "logs-prod"]) {
        const { workspace } = await workspaceNamed(service, name);
        versions[name] = {
            noCodeVersion: workspace.relationships["no-code-module-version"].data.id,
            upgradeAvailable: workspace.attributes["no-code-upgrade-available"],
        };
    }
    return versions;
}

/** `moduleVersion` of each workspace in the stack's state. */
async function versionsInState(stack: ExampleStack) {
    const { deployment } = await stack.program().exportStack();
    return Object.fromEntries(
        (deployment.deployment.resources ?? [])
            .filter((resource) => resource.type === "pulumi-nodejs:dynamic/wos:NoCodeWorkspace")
            .map((resource) => [resource.urn.split("::").pop(), resource.outputs?.moduleVersion]),
    );
}

/** The pin the stack's config asks for now (the example's default when unset). */
async function configuredVersion(stack: ExampleStack): Promise<string> {
    const result = await stack.program().attempt(["config", "get", "bucketVersion"]);
    return result.code === 0 ? result.stdout.trim() : "1.0.0";
}

const UPGRADE_LOG = (name: string, status: string) =>
    new RegExp(`wos:NoCodeWorkspace '${name}' \\(ws-\\w+\\) of no-code module nocode-\\w+: upgrade run-\\w+(?: started)?: ${status} \\(plan: http://127\\.0\\.0\\.1:\\d+/app/acme/workspaces/${name}/runs/run-\\w+\\)`);

exampleLifecycleTests(
    {
        example: "no-code",
        config: { "wos-no-code:archiveKey": { value: ARCHIVE_KEY, secret: true } },
        previewShows: [
            /\+ pulumi-nodejs:dynamic\/wos:NoCodeModule: \(create\)[^]*?registryModuleId: "mod-0000000000000001"[^]*?versionPin\s+: "1\.0\.0"/,
            /\[urn=\S+::assets\][^]*?name\s+: "assets-prod"[^]*?key\s+: "region"\s+value\s+: "eu-west-1"/,
            /\[urn=\S+::logs\][^]*?name\s+: "logs-prod"/,
            /Resources:\s+\+ 5 to create/,
        ],
        async drift(service) {
            const { workspace, vars } = await workspaceNamed(service, "assets-prod");
            const region = vars.region!;
            const changed = await service.request("PATCH", `/vars/${region.id}`, {
                body: { data: { type: "vars", id: region.id, attributes: { value: "us-east-1" } } },
            });
            expect(changed.status).toBe(200);
            const renamed = await service.request("PATCH", `/workspaces/${workspace.id}`, {
                body: { data: { type: "workspaces", attributes: { description: "changed by hand" } } },
            });
            expect(renamed.status).toBe(200);
        },
        refreshShows: [/~ description\s+: "Static assets of the web shop" => "changed by hand"/, /~ value\s+: "eu-west-1" => "us-east-1"/],
        restoreShows: [/~ description\s+: "changed by hand" => "Static assets of the web shop"/, /~ value\s+: "us-east-1" => "eu-west-1"/],
        async expectRestored(service) {
            const { workspace, vars } = await workspaceNamed(service, "assets-prod");
            expect(workspace.attributes.description).toBe("Static assets of the web shop");
            expect(vars.region!.attributes.value).toBe("eu-west-1");
        },
        secrets: [ARCHIVE_KEY],
    },
    (stack) => {
        test("raising `bucketVersion` upgrades both workspaces in one `up`, each status and plan URL in the output", async () => {
            await stack.deployed();
            const program = stack.program();
            const from = await configuredVersion(stack);
            const to = VERSIONS.find((version) => version !== from)!;
            await program.setConfig("bucketVersion", to);

            const up = await program.pulumi(["up", "--yes"]);
            for (const name of ["assets-prod", "logs-prod"]) {
                // The start and the end; each status in between is logged when a poll sees it (under load a
                // poll may fall after a step or two).
                expect(up.output).toMatch(UPGRADE_LOG(name, "pending"));
                expect(up.output).toMatch(UPGRADE_LOG(name, "planned, confirmed and applied"));
                const seen = [...up.output.matchAll(new RegExp(`'${name}' \\(ws-\\w+\\) [^\\n]*?: upgrade run-\\w+(?: started)?: ([a-z_, ]+) \\(plan:`, "g"))].map((match) => match[1]);
                const order = ["pending", "fetching", "planning", "planned", "planned, confirmed and applied"];
                const firstSeen = [...new Set(seen)].map((status) => order.indexOf(status!));
                expect(firstSeen).toEqual([...firstSeen].sort((a, b) => a - b));
                expect(firstSeen).not.toContain(-1);
            }
            expect(up.output).toMatch(/Resources:\s+~ 3 updated/);
            expect(await versionsInState(stack)).toEqual({ assets: to, logs: to });
            const onService = await versionsOnService(stack.service());
            expect(onService).toEqual({
                "assets-prod": { noCodeVersion: expect.stringMatching(/^nocodever-/), upgradeAvailable: false },
                "logs-prod": { noCodeVersion: expect.stringMatching(/^nocodever-/), upgradeAvailable: false },
            });
            // The vars came through the upgrade as the program lists them.
            expect((await workspaceNamed(stack.service(), "assets-prod")).vars.size!.attributes).toMatchObject({ value: "3", category: "infra" });
            expect((await program.attempt(["preview", "--expect-no-changes"])).code).toBe(0);
        });

        test("`preview --diff` and `--json` of a workspace with a sensitive var show each other var's change; the secret stays secret", async () => {
            await stack.deployed();
            const program = stack.program();
            const index = path.join(program.dir, "index.ts");
            const original = fs.readFileSync(index, "utf8");
            // The `logs` workspace (its ARCHIVE_KEY is sensitive) moves from us-east-1 to eu-west-1.
            const moved = original.replace(`{ key: "region", value: "us-east-1", category: "infra" }`, `{ key: "region", value: "eu-west-1", category: "infra" }`);
            expect(moved).not.toBe(original);
            fs.writeFileSync(index, moved);
            try {
                const preview = await program.pulumi(["preview", "--diff"]);
                expect(preview.output).toMatch(
                    /\[urn=\S+::logs\][^]*?sensitiveValues\s+: \[secret\][^]*?~ vars\s+: \[\s+~ \[0\]: \{\s+category: "infra"\s+key\s+: "region"\s+~ value\s+: "us-east-1" => "eu-west-1"\s+\}\s+\[1\]: \{\s+category\s+: "env"\s+key\s+: "ARCHIVE_KEY"\s+sensitive: true\s+\}/,
                );
                expect(preview.output).not.toMatch(/vars\s+: \[secret\]/);
                expect(preview.output).not.toContain(ARCHIVE_KEY);

                const json = await program.pulumi(["preview", "--json"]);
                const steps = (JSON.parse(json.stdout) as { steps: Array<{ urn: string; op: string; oldState?: any; newState?: any; diffs?: string[] }> }).steps;
                const logs = steps.find((step) => step.urn.endsWith("::logs"))!;
                expect(logs.op).toBe("update");
                expect(logs.oldState.inputs.vars[0]).toMatchObject({ key: "region", value: "us-east-1" });
                expect(logs.newState.inputs.vars[0]).toMatchObject({ key: "region", value: "eu-west-1" });
                expect(logs.newState.inputs.vars[1]).toEqual({ key: "ARCHIVE_KEY", category: "env", sensitive: true });
                expect(logs.newState.inputs.sensitiveValues).toBe("[secret]");
                expect(json.stdout).not.toContain(ARCHIVE_KEY);
            } finally {
                fs.writeFileSync(index, original);
            }
        });

        test("with wos:planUpgradesInPreview set, a preview of the dynamic resources warns once that it plans nothing, and plans nothing", async () => {
            await stack.deployed();
            const program = stack.program();
            const service = stack.service();
            const from = await configuredVersion(stack);
            await program.setConfig("wos:planUpgradesInPreview", "true");
            try {
                const before = await versionsOnService(service);
                await program.setConfig("bucketVersion", VERSIONS.find((version) => version !== from)!);
                const preview = await program.pulumi(["preview"]);
                expect(preview.output).toMatch(/~ 3 to update/);
                // Once among the stack's diagnostics (the CLI's progress lines show it as it comes, too).
                const diagnostics = preview.output.slice(preview.output.indexOf("Diagnostics:"));
                const warnings = diagnostics.match(/wos:planUpgradesInPreview is set, but pulumi-wos's dynamic resources cannot plan upgrades in a preview/g) ?? [];
                expect(warnings).toHaveLength(1);
                // Under the stack, among its other lines (a newer Node.js adds its own warnings there).
                expect(diagnostics).toMatch(/pulumi:pulumi:Stack \(wos-no-code-dev\):\n(?:(?: {4}.*)?\n)*? {4}warning: wos:planUpgradesInPreview is set/);
                expect(preview.output).toContain("https://github.com/pulumi-wos/pulumi-wos/blob/HEAD/docs/reference.md#upgrade-plans-in-a-preview");
                expect(preview.output).not.toMatch(/upgrade (plan )?run-/);
                expect(await versionsOnService(service)).toEqual(before);
            } finally {
                await program.pulumi(["config", "rm", "wos:planUpgradesInPreview"]);
                await program.setConfig("bucketVersion", from);
            }
        });

        test("a failed plan fails the `up` with its status and plan URL, changes neither state nor workspaces, and the next `up` converges", async () => {
            await stack.deployed();
            const program = stack.program();
            const service = stack.service();
            const from = await configuredVersion(stack);
            const to = VERSIONS.find((version) => version !== from)!;
            const stateBefore = await versionsInState(stack);
            const workspacesBefore = (await service.snapshot()).workspaces;
            const versionsBefore = await versionsOnService(service);

            await service.addFault({ method: "POST", path: "/upgrade$", planOutcome: "errored", times: 2 });
            await program.setConfig("bucketVersion", to);
            const failed = await program.attempt(["up", "--yes"]);
            expect(failed.code).not.toBe(0);
            for (const name of ["assets-prod", "logs-prod"]) {
                expect(failed.output).toMatch(
                    new RegExp(`error: wos:NoCodeWorkspace '${name}' \\(ws-\\w+\\) of no-code module nocode-\\w+: update \\(upgrade\\) failed: the upgrade plan run-\\w+ ended 'errored' \\(plan: http://127\\.0\\.0\\.1:\\d+/app/acme/workspaces/${name}/runs/run-\\w+\\)`),
                );
            }
            expect(await versionsInState(stack)).toEqual(stateBefore);
            expect((await service.snapshot()).workspaces).toEqual(workspacesBefore);
            const versionsAfter = await versionsOnService(service);
            for (const name of ["assets-prod", "logs-prod"]) {
                // Same no-code version as before; the module moved on, so an upgrade is now available.
                expect(versionsAfter[name]).toEqual({ ...(versionsBefore[name] as object), upgradeAvailable: true });
            }

            await service.clearFaults();
            await program.pulumi(["up", "--yes"]);
            expect(await versionsInState(stack)).toEqual({ assets: to, logs: to });
            expect(Object.values(await versionsOnService(service)).map((v) => (v as { upgradeAvailable: boolean }).upgradeAvailable)).toEqual([false, false]);
            expect((await program.attempt(["preview", "--expect-no-changes"])).code).toBe(0);
        });
    },
);
