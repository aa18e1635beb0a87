/**
 * The no-code example (`examples/no-code/`) as a user has it: compiled with its own `tsconfig.json` against
 * the packed package's published typings, run under `pulumi.runtime.setMocks` with the packed package and
 * the stack config its header sets (once as first deployed, once with the pin raised), and deployed
 * against the local service loaded with the demo seed (`examples/seed.json`) through `@pulumi/pulumi`'s
 * provider host, the way `pulumi up`, a second `pulumi up`, the upgrade's `pulumi up`, `pulumi refresh` and
 * `pulumi destroy` would.
 */
import * as fs from "node:fs";
import * as path from "node:path";
import * as ts from "typescript";
import type { ServerOptions } from "../../server/app";
import { packedProgram, REPO_ROOT, runUnderMocks, type MockRun, type PackedProgram } from "../support/packedPackage";
import {
    isSecret,
    revealSecrets,
    secret,
    startProviderHost,
    type PropertyMap,
    type ProviderHost,
} from "../support/providerHost";
import { startTestServer, type TestServer } from "../support/server";
import { acmeReader } from "./serviceReader";

const EXAMPLE_DIR = path.join(REPO_ROOT, "examples", "no-code");
const DEMO_SEED_PATH = path.join(REPO_ROOT, "examples", "seed.json");
/** The seed's `platform` team: manages projects and no-code modules. */
const DEMO_TOKEN = "team-platform-secret";
/** The seed's registry module `bucket`: versions 1.0.0 and 1.1.0. */
const DEMO_MODULE = "mod-0000000000000001";
/** The value the example gives its sensitive var when the stack sets none. */
const DEFAULT_ARCHIVE_KEY = "change-me-please";
/** Upgrades made fast on both sides: the service's plan step and the provider's first poll. */
const PLAN_STEP_MS = 50;
const UPGRADE_POLL_MS = "20";

const TYPE = {
    project: "pulumi-nodejs:dynamic/wos:Project",
    noCodeModule: "pulumi-nodejs:dynamic/wos:NoCodeModule",
    noCodeWorkspace: "pulumi-nodejs:dynamic/wos:NoCodeWorkspace",
} as const;

let program: PackedProgram;
let workDir: string;
let diagnostics: string[] = [];
/** The program as first deployed, and with `bucketVersion` raised to 1.1.0. */
let run: MockRun;
let raised: MockRun;

/**
 * Copies the example into the temporary program directory (so "pulumi-wos" resolves to the unpacked
 * tarball, typings included), type-checks it with its own tsconfig.json and compiles it.
 */
function compileExample(): string {
    workDir = fs.mkdtempSync(path.join(program.dir, "no-code-"));
    for (const file of ["index.ts", "tsconfig.json", "package.json", "Pulumi.yaml"]) {
        fs.copyFileSync(path.join(EXAMPLE_DIR, file), path.join(workDir, file));
    }
    const configPath = path.join(workDir, "tsconfig.json");
    const parsed = ts.getParsedCommandLineOfConfigFile(configPath, {}, {
        ...ts.sys,
        onUnRecoverableConfigFileDiagnostic: (diagnostic) => {
            throw new Error(ts.flattenDiagnosticMessageText(diagnostic.messageText, "\n"));
        },
    });
    if (!parsed) throw new Error(`cannot read ${configPath}`);
    const compiled = ts.createProgram({ rootNames: parsed.fileNames, options: parsed.options });
    const emitted = compiled.emit();
    diagnostics = [...ts.getPreEmitDiagnostics(compiled), ...emitted.diagnostics].map((diagnostic) => {
        const where = diagnostic.file
            ? `${path.basename(diagnostic.file.fileName)}:${diagnostic.file.getLineAndCharacterOfPosition(diagnostic.start ?? 0).line + 1}: `
            : "";
        return where + ts.flattenDiagnosticMessageText(diagnostic.messageText, "\n");
    });
    return path.join(path.resolve(workDir, parsed.options.outDir ?? "."), "index.js");
}

/** The local service loaded with the demo seed, planning upgrades fast. */
let server: TestServer;

beforeAll(async () => {
    program = await packedProgram();
    const seed = JSON.parse(fs.readFileSync(DEMO_SEED_PATH, "utf8")) as ServerOptions["seed"];
    server = await startTestServer({ seed, planStepMs: PLAN_STEP_MS });
    const compiled = compileExample();
    // The stack config of the header's steps (`pulumi config set --secret wos:token ...`), plus the address.
    const stackConfig = (extra: Record<string, string>) => ({
        project: "wos-no-code",
        stack: "dev",
        env: {
            PULUMI_CONFIG: JSON.stringify({ "wos:address": server.url, "wos:token": DEMO_TOKEN, ...extra }),
            PULUMI_CONFIG_SECRET_KEYS: JSON.stringify(["wos:token"]),
        },
    });
    run = await runUnderMocks(program.dir, compiled, stackConfig({}));
    // `pulumi config set bucketVersion 1.1.0`
    raised = await runUnderMocks(program.dir, compiled, stackConfig({ "wos-no-code:bucketVersion": "1.1.0" }));
}, 240_000);

afterAll(async () => {
    await server?.close();
    if (workDir) fs.rmSync(workDir, { recursive: true, force: true });
});

const byName = (mockRun: MockRun, name: string) => {
    const found = mockRun.registrations.find((registration) => registration.name === name);
    if (!found) throw new Error(`the example registers no resource named ${name}`);
    return found;
};
/** A registration's inputs without the serialized provider (checked to be one). */
const inputsOf = (mockRun: MockRun, name: string): PropertyMap => {
    const { __provider, ...inputs } = byName(mockRun, name).inputs;
    expect(typeof __provider).toBe("string");
    return inputs;
};

describe("examples/no-code as a program", () => {
    test("type-checks with its own tsconfig.json against the published typings of the packed package", () => {
        expect(diagnostics).toEqual([]);
    });

    test("is a Pulumi program of its own: runtime nodejs, pulumi-wos from the repository", () => {
        const own = fs.readFileSync(path.join(EXAMPLE_DIR, "Pulumi.yaml"), "utf8");
        expect(own).toMatch(/^name: wos-no-code$/m);
        expect(own).toMatch(/^runtime: nodejs$/m);
        const manifest = JSON.parse(fs.readFileSync(path.join(EXAMPLE_DIR, "package.json"), "utf8"));
        expect(manifest.dependencies).toMatchObject({ "pulumi-wos": "file:../..", "@pulumi/pulumi": expect.any(String) });
    });

    test("registers exactly a project, a no-code module and two workspaces", () => {
        // Registration order follows when inputs resolve, not the program's lines: compare as a set.
        expect(run.registrations.map((r) => `${r.type} ${r.name}`).sort()).toEqual([
            `${TYPE.noCodeModule} bucket`,
            `${TYPE.noCodeWorkspace} assets`,
            `${TYPE.noCodeWorkspace} logs`,
            `${TYPE.project} storage`,
        ]);
    });

    test("the project 'Storage' and the no-code module of the seed's bucket, pinned, enabled, with the regions allowed", () => {
        expect(inputsOf(run, "storage")).toEqual({
            organization: "acme",
            name: "Storage",
            description: "Buckets made from the no-code bucket module",
        });
        expect(inputsOf(run, "bucket")).toEqual({
            organization: "acme",
            registryModuleId: DEMO_MODULE,
            versionPin: "1.0.0",
            enabled: true,
            variableOptions: [{ variableName: "region", variableType: "string", options: ["eu-west-1", "us-east-1"] }],
        });
    });

    test("two workspaces from the module in the project, following its pin; only the one with a sensitive var has a secret, its sensitive value apart", () => {
        // The mock monitor gives each resource the id `<name>-id`, and its inputs as its outputs.
        const assets = byName(run, "assets");
        expect(inputsOf(run, "assets")).toEqual({
            noCodeModuleId: "bucket-id",
            moduleVersion: "1.0.0",
            projectId: "storage-id",
            name: "assets-prod",
            description: "Static assets of the web shop",
            autoApply: true,
            vars: [
                { key: "region", value: "eu-west-1", category: "infra" },
                { key: "size", value: "3", category: "infra", description: "Number of buckets" },
            ],
            upgradeTimeoutSeconds: 900,
        });
        expect(assets.additionalSecretOutputs).toEqual([]);

        const logs = byName(run, "logs");
        const { vars, sensitiveValues, ...rest } = inputsOf(run, "logs");
        expect(rest).toEqual({
            noCodeModuleId: "bucket-id",
            moduleVersion: "1.0.0",
            projectId: "storage-id",
            name: "logs-prod",
            description: "Log archive",
            upgradeTimeoutSeconds: 900,
        });
        // `vars` readable (a preview shows each var), the sensitive value apart in a secret.
        expect(isSecret(vars)).toBe(false);
        expect(vars).toEqual([
            { key: "region", value: "us-east-1", category: "infra" },
            { key: "ARCHIVE_KEY", category: "env", sensitive: true },
        ]);
        expect(isSecret(sensitiveValues)).toBe(true);
        expect(revealSecrets(sensitiveValues)).toEqual({ "env:ARCHIVE_KEY": DEFAULT_ARCHIVE_KEY });
        expect(logs.additionalSecretOutputs).toEqual(["sensitiveValues"]);
    });

    test("exports the ids of what it made and the module's pin", () => {
        expect(run.exports).toEqual({
            storageProjectId: "storage-id",
            bucketNoCodeModuleId: "bucket-id",
            bucketVersionPin: "1.0.0",
            assetsWorkspaceId: "assets-id",
            logsWorkspaceId: "logs-id",
        });
    });

    test("with bucketVersion 1.1.0 the module's pin and both workspaces' moduleVersion rise, and nothing else changes", () => {
        for (const name of ["storage", "bucket", "assets", "logs"]) {
            const before = byName(run, name).inputs;
            const after = byName(raised, name).inputs;
            const changed = Object.keys({ ...before, ...after }).filter(
                (key) => JSON.stringify(before[key]) !== JSON.stringify(after[key]),
            );
            const expected = name === "storage" ? [] : name === "bucket" ? ["versionPin"] : ["moduleVersion"];
            expect({ name, changed }).toEqual({ name, changed: expected });
        }
        expect(inputsOf(raised, "bucket").versionPin).toBe("1.1.0");
        expect(inputsOf(raised, "assets").moduleVersion).toBe("1.1.0");
        expect(raised.exports.bucketVersionPin).toBe("1.1.0");
    });

    test("targets the demo seed: its module is no-code ready with versions 1.0.0 and 1.1.0, and the token's team may manage projects and modules", () => {
        const seed = JSON.parse(fs.readFileSync(DEMO_SEED_PATH, "utf8"));
        const acme = seed.organizations.find((org: { name: string }) => org.name === "acme");
        const bucket = acme.registryModules.find((module: { id: string }) => module.id === DEMO_MODULE);
        expect(bucket).toMatchObject({ noCodeReady: true });
        expect(bucket.versions.map((version: { version: string }) => version.version)).toEqual(["1.0.0", "1.1.0"]);
        const platformTeam = acme.teams.find((team: { tokens: string[] }) => team.tokens.includes(DEMO_TOKEN));
        expect(platformTeam).toMatchObject({ manageProjects: true, manageModules: true });
    });
});

describe("examples/no-code deployed against the demo seed through the provider host", () => {
    let host: ProviderHost;
    /** What the "engine" keeps per resource: id, checked inputs, outputs. */
    const state = new Map<string, { urn: string; id: string; inputs: PropertyMap; outputs: PropertyMap }>();
    /** Mock ids (`<name>-id`) to the real ids, to resolve dependencies as the engine does. */
    const realIds = new Map<string, string>();

    const resolve = (value: unknown): unknown => {
        if (typeof value === "string") return realIds.get(value) ?? value;
        if (Array.isArray(value)) return value.map(resolve);
        if (typeof value === "object" && value !== null) {
            return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, resolve(v)]));
        }
        return value;
    };

    beforeAll(async () => {
        host = await startProviderHost({
            programDir: program.dir,
            project: "wos-no-code",
            stack: "dev",
            env: { WOS_UPGRADE_POLL_MS: UPGRADE_POLL_MS },
        });
        await host.configure({ "wos:address": server.url, "wos:token": secret(DEMO_TOKEN) });
    }, 120_000);

    afterAll(async () => {
        await host?.close();
    });

    const { get, workspaceNamed, varsOf } = acmeReader(() => server, DEMO_TOKEN);

    test("pulumi up: every resource checks and creates, and the service holds what the program says", async () => {
        // A resource registers only once the ids it needs are known, so registration order is a valid
        // creation order, as the engine's.
        for (const registration of run.registrations) {
            const urn = host.urn(registration.type, registration.name);
            const news = resolve(registration.inputs) as PropertyMap;
            const checked = await host.check(urn, {}, news);
            expect({ name: registration.name, failures: checked.failures }).toEqual({ name: registration.name, failures: [] });
            const created = await host.create(urn, checked.inputs);
            realIds.set(`${registration.name}-id`, created.id);
            state.set(registration.name, { urn, id: created.id, inputs: checked.inputs, outputs: created.outputs });
        }

        const projectId = state.get("storage")!.id;
        expect((await get(`/projects/${projectId}`)).data.attributes).toMatchObject({ name: "Storage" });
        const module = await get(`/no-code-modules/${state.get("bucket")!.id}?include=variable_options`);
        expect(module.data.attributes).toMatchObject({ enabled: true, "version-pin": "1.0.0" });
        expect(module.data.relationships["registry-module"].data.id).toBe(DEMO_MODULE);
        expect(module.included.map((set: { attributes: unknown }) => set.attributes)).toEqual([
            { "variable-name": "region", "variable-type": "string", options: ["eu-west-1", "us-east-1"] },
        ]);

        for (const [name, workspaceName] of [
            ["assets", "assets-prod"],
            ["logs", "logs-prod"],
        ]) {
            const workspace = await workspaceNamed(workspaceName);
            expect(workspace.id).toBe(state.get(name)!.id);
            expect(workspace.attributes).toMatchObject({ source: "tfe-module", "source-module-id": DEMO_MODULE });
            expect(workspace.relationships.project.data.id).toBe(projectId);
            expect(state.get(name)!.outputs).toMatchObject({ moduleVersion: "1.0.0", noCodeUpgradeAvailable: false });
        }
        expect(await varsOf("assets-prod")).toMatchObject({ region: { value: "eu-west-1" }, size: { value: "3" } });
        const logsVars = await varsOf("logs-prod");
        expect(logsVars.region).toMatchObject({ value: "us-east-1", category: "infra" });
        expect(logsVars.ARCHIVE_KEY).toMatchObject({ category: "env", sensitive: true });
        expect(logsVars.ARCHIVE_KEY.value ?? null).toBeNull();
        expect(isSecret(state.get("logs")!.outputs.sensitiveValues)).toBe(true);
        expect(JSON.stringify(state.get("logs")!.outputs.vars)).not.toContain(DEFAULT_ARCHIVE_KEY);
    });

    test("a second pulumi up of the same program changes nothing", async () => {
        for (const registration of run.registrations) {
            const previous = state.get(registration.name)!;
            const checked = await host.check(previous.urn, previous.inputs, resolve(registration.inputs) as PropertyMap);
            expect(checked.failures).toEqual([]);
            const diff = await host.diff(previous.urn, previous.id, previous.outputs, checked.inputs, previous.inputs);
            expect({ name: registration.name, changes: diff.changes }).toEqual({ name: registration.name, changes: "none" });
        }
    });

    test("pulumi up with the pin raised to 1.1.0: the module is updated, then each workspace upgraded to it", async () => {
        const updated: string[] = [];
        for (const registration of raised.registrations) {
            const previous = state.get(registration.name)!;
            const checked = await host.check(previous.urn, previous.inputs, resolve(registration.inputs) as PropertyMap);
            expect(checked.failures).toEqual([]);
            const diff = await host.diff(previous.urn, previous.id, previous.outputs, checked.inputs, previous.inputs);
            expect(diff.replaces).toEqual([]);
            if (diff.changes === "none") continue;
            const result = await host.update(previous.urn, previous.id, previous.outputs, checked.inputs, previous.inputs);
            updated.push(registration.name);
            state.set(registration.name, { ...previous, inputs: checked.inputs, outputs: result.outputs });
        }
        expect(updated.sort()).toEqual(["assets", "bucket", "logs"]);

        const module = await get(`/no-code-modules/${state.get("bucket")!.id}`);
        expect(module.data.attributes["version-pin"]).toBe("1.1.0");
        expect(state.get("bucket")!.outputs.versionPin).toBe("1.1.0");
        for (const [name, workspaceName] of [
            ["assets", "assets-prod"],
            ["logs", "logs-prod"],
        ]) {
            const outputs = state.get(name)!.outputs;
            expect(outputs).toMatchObject({ moduleVersion: "1.1.0", noCodeUpgradeAvailable: false });
            const lastUpgrade = outputs.lastUpgrade as { id: string };
            expect(lastUpgrade.id).toMatch(/^run-/);
            const upgrade = await get(`/no-code-modules/${state.get("bucket")!.id}/workspaces/${state.get(name)!.id}/upgrade/${lastUpgrade.id}`);
            expect(upgrade.data.attributes.status).toBe("applied");
            expect((await workspaceNamed(workspaceName)).attributes["no-code-upgrade-available"]).toBe(false);
        }
        expect(isSecret(state.get("logs")!.outputs.sensitiveValues)).toBe(true);
        expect(JSON.stringify(state.get("logs")!.outputs.vars)).not.toContain(DEFAULT_ARCHIVE_KEY);
        expect(host.logs()).not.toContain(DEFAULT_ARCHIVE_KEY);
        expect(host.logs()).not.toContain(DEMO_TOKEN);
    });

    test("pulumi refresh finds no drift", async () => {
        for (const registration of raised.registrations) {
            const previous = state.get(registration.name)!;
            const read = await host.read(previous.urn, previous.id, previous.outputs, previous.inputs);
            expect(read.id).toBe(previous.id);
            expect({ name: registration.name, outputs: read.outputs }).toEqual({ name: registration.name, outputs: previous.outputs });
        }
    });

    test("pulumi destroy removes everything the program made and leaves the seed as it was", async () => {
        for (const registration of [...raised.registrations].reverse()) {
            const previous = state.get(registration.name)!;
            await host.delete(previous.urn, previous.id, previous.outputs, previous.inputs);
        }
        const names = (await get("/organizations/acme/projects?page%5Bsize%5D=100")).data.map(
            (p: { attributes: { name: string } }) => p.attributes.name,
        );
        expect(names.sort()).toEqual(["Apps", "Default Project"]);
        const registryModule = await get(`/registry-modules/${DEMO_MODULE}`);
        expect(registryModule.data.relationships["no-code-modules"].data).toEqual([]);
        for (const workspaceName of ["assets-prod", "logs-prod"]) {
            const response = await server.request("GET", `/organizations/acme/workspaces/${workspaceName}`, { token: DEMO_TOKEN });
            expect(response.status).toBe(404);
        }
    });
});
