/**
 * The component example (`examples/no-code-project/`) as a user has it: compiled with its own
 * `tsconfig.json` against the packed package's published typings, run under `pulumi.runtime.setMocks` with
 * the packed package and the stack config its header sets (once as first deployed, once with the shared
 * `region` changed), and deployed against the local service loaded with the demo seed
 * (`examples/seed.json`) through `@pulumi/pulumi`'s provider host, the way `pulumi up`, a second `pulumi
 * up`, the shared var's `pulumi up`, `pulumi refresh` and `pulumi destroy` would.
 *
 * Under mocks the program is loaded through a small wrapper that also records, for each registration, the
 * parent URN the engine would receive, and the outputs the component registers.
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

const EXAMPLE_DIR = path.join(REPO_ROOT, "examples", "no-code-project");
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
const PROJECT = "wos-no-code-project";

const TYPE = {
    component: "wos:index:NoCodeProject",
    project: "pulumi-nodejs:dynamic/wos:Project",
    noCodeModule: "pulumi-nodejs:dynamic/wos:NoCodeModule",
    noCodeWorkspace: "pulumi-nodejs:dynamic/wos:NoCodeWorkspace",
} as const;

/** What the wrapper records besides the mock run: parents by `type::name`, and the component's registered outputs. */
interface Recorded {
    parents: Array<{ type: string; name: string; urn: string; parent: string }>;
    componentOutputs: Record<string, unknown>;
}

/**
 * Loads the compiled program under the mock runner (which has already called `setMocks` and wrapped the
 * monitor) after wrapping the monitor's `registerResource` once more, and writes what it saw when the
 * process exits (after the runner has drained every RPC).
 */
const WRAPPER_SOURCE = `"use strict";
const fs = require("fs");
const pulumi = require("@pulumi/pulumi");
const monitor = pulumi.runtime.getMonitor();
const parents = [];
const registerResource = monitor.registerResource.bind(monitor);
monitor.registerResource = (request, callback) =>
    registerResource(request, (error, response) => {
        if (!error) {
            parents.push({ type: request.getType(), name: request.getName(), urn: response.getUrn(), parent: request.getParent() });
        }
        callback(error, response);
    });
// The component's outputs as the monitor received them (the mock monitor's getRegisteredResources first
// shipped in @pulumi/pulumi 3.247, newer than the oldest version the package supports).
const outputsByUrn = new Map();
const registerResourceOutputs = monitor.registerResourceOutputs.bind(monitor);
monitor.registerResourceOutputs = (request, callback) => {
    const outputs = request.getOutputs();
    outputsByUrn.set(request.getUrn(), outputs && typeof outputs.toJavaScript === "function" ? outputs.toJavaScript() : outputs);
    return registerResourceOutputs(request, callback);
};
process.on("exit", () => {
    const component = parents.find((r) => r.type === "${TYPE.component}");
    const componentOutputs = component ? outputsByUrn.get(component.urn) : undefined;
    fs.writeFileSync(process.env.WOS_RECORD_FILE, JSON.stringify({ parents, componentOutputs }));
});
module.exports = require("./bin/index.js");
`;

let program: PackedProgram;
let workDir: string;
let diagnostics: string[] = [];
/** The program as first deployed, and with the shared `region` changed to us-east-1. */
let run: MockRun & Recorded;
let moved: MockRun & Recorded;

/**
 * Copies the example into the temporary program directory (so "pulumi-wos" resolves to the unpacked
 * tarball, typings included), type-checks it with its own tsconfig.json and compiles it; writes the wrapper.
 */
function compileExample(): string {
    workDir = fs.mkdtempSync(path.join(program.dir, "no-code-project-"));
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
    expect(parsed.options.outDir).toBe(path.join(workDir, "bin"));
    const compiled = ts.createProgram({ rootNames: parsed.fileNames, options: parsed.options });
    const emitted = compiled.emit();
    diagnostics = [...ts.getPreEmitDiagnostics(compiled), ...emitted.diagnostics].map((diagnostic) => {
        const where = diagnostic.file
            ? `${path.basename(diagnostic.file.fileName)}:${diagnostic.file.getLineAndCharacterOfPosition(diagnostic.start ?? 0).line + 1}: `
            : "";
        return where + ts.flattenDiagnosticMessageText(diagnostic.messageText, "\n");
    });
    const wrapper = path.join(workDir, "wrapper.js");
    fs.writeFileSync(wrapper, WRAPPER_SOURCE);
    return wrapper;
}

/** The local service loaded with the demo seed, planning upgrades fast. */
let server: TestServer;

beforeAll(async () => {
    program = await packedProgram();
    const seed = JSON.parse(fs.readFileSync(DEMO_SEED_PATH, "utf8")) as ServerOptions["seed"];
    server = await startTestServer({ seed, planStepMs: PLAN_STEP_MS });
    const wrapper = compileExample();
    // The stack config of the header's steps (`pulumi config set --secret wos:token ...`), plus the address.
    const runWith = async (extra: Record<string, string>, record: string): Promise<MockRun & Recorded> => {
        const recordFile = path.join(workDir, record);
        const result = await runUnderMocks(program.dir, wrapper, {
            project: PROJECT,
            stack: "dev",
            env: {
                PULUMI_CONFIG: JSON.stringify({ "wos:address": server.url, "wos:token": DEMO_TOKEN, ...extra }),
                PULUMI_CONFIG_SECRET_KEYS: JSON.stringify(["wos:token"]),
                WOS_RECORD_FILE: recordFile,
            },
        });
        return { ...result, ...(JSON.parse(fs.readFileSync(recordFile, "utf8")) as Recorded) };
    };
    run = await runWith({}, "first.json");
    // `pulumi config set region us-east-1`
    moved = await runWith({ [`${PROJECT}:region`]: "us-east-1" }, "moved.json");
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
/** The provider resources of a run, in registration order (the component is the engine's alone). */
const customs = (mockRun: MockRun) => mockRun.registrations.filter((registration) => registration.custom);

describe("examples/no-code-project as a program", () => {
    test("type-checks with its own tsconfig.json against the published typings of the packed package", () => {
        expect(diagnostics).toEqual([]);
    });

    test("is a Pulumi program of its own: runtime nodejs, pulumi-wos from the repository, the same tsconfig as the no-code example", () => {
        const own = fs.readFileSync(path.join(EXAMPLE_DIR, "Pulumi.yaml"), "utf8");
        expect(own).toMatch(/^name: wos-no-code-project$/m);
        expect(own).toMatch(/^runtime: nodejs$/m);
        const manifest = JSON.parse(fs.readFileSync(path.join(EXAMPLE_DIR, "package.json"), "utf8"));
        expect(manifest.dependencies).toMatchObject({ "pulumi-wos": "file:../..", "@pulumi/pulumi": expect.any(String) });
        expect(fs.readFileSync(path.join(EXAMPLE_DIR, "tsconfig.json"), "utf8")).toBe(
            fs.readFileSync(path.join(REPO_ROOT, "examples", "no-code", "tsconfig.json"), "utf8"),
        );
    });

    test("registers exactly the component, and its project, module and two workspaces, each parented to it", () => {
        expect(run.registrations.map((r) => `${r.type} ${r.name}`).sort()).toEqual([
            `${TYPE.noCodeModule} catalog-module`,
            `${TYPE.noCodeWorkspace} catalog-audit-logs`,
            `${TYPE.noCodeWorkspace} catalog-web-assets`,
            `${TYPE.project} catalog-project`,
            `${TYPE.component} catalog`,
        ]);
        const component = run.registrations.find((r) => r.type === TYPE.component)!;
        expect(component).toMatchObject({ custom: false, inputs: {} });
        const recorded = new Map(run.parents.map((r) => [r.name, r]));
        const componentUrn = recorded.get("catalog")!.urn;
        expect(componentUrn).toBe(`urn:pulumi:dev::${PROJECT}::${TYPE.component}::catalog`);
        for (const name of ["catalog-project", "catalog-module", "catalog-web-assets", "catalog-audit-logs"]) {
            expect({ name, parent: recorded.get(name)!.parent }).toEqual({ name, parent: componentUrn });
            expect(recorded.get(name)!.urn).toBe(`urn:pulumi:dev::${PROJECT}::${TYPE.component}$${byName(run, name).type}::${name}`);
        }
    });

    test("the project with its tags, and the seed's bucket enabled at the pin with the regions allowed", () => {
        expect(inputsOf(run, "catalog-project")).toEqual({
            organization: "acme",
            name: "Storage Catalog",
            description: "Buckets made from the no-code bucket module",
            tags: { team: "platform", env: "prod" },
        });
        expect(inputsOf(run, "catalog-module")).toEqual({
            organization: "acme",
            registryModuleId: DEMO_MODULE,
            versionPin: "1.0.0",
            enabled: true,
            variableOptions: [{ variableName: "region", variableType: "string", options: ["eu-west-1", "us-east-1"] }],
        });
    });

    test("two workspaces with the shared vars and their own (own wins), the shared settings and defaults; only the sensitive value secret, apart", () => {
        // The mock monitor gives each resource the id `<name>-id`, and its inputs as its outputs.
        const shared = { noCodeModuleId: "catalog-module-id", moduleVersion: "1.0.0", projectId: "catalog-project-id", sourceName: "platform storage catalog", executionMode: "remote", upgradeTimeoutSeconds: 900 };
        expect(inputsOf(run, "catalog-web-assets")).toEqual({
            ...shared,
            name: "web-assets",
            description: "Static assets of the web shop",
            autoApply: true,
            vars: [
                { key: "region", value: "eu-west-1", category: "infra" },
                { key: "size", value: "3", category: "infra", description: "Number of buckets" },
            ],
        });
        expect(byName(run, "catalog-web-assets").additionalSecretOutputs).toEqual([]);

        const { vars, sensitiveValues, ...rest } = inputsOf(run, "catalog-audit-logs");
        expect(rest).toEqual({ ...shared, name: "audit-logs", description: "Audit log archive", autoApply: false });
        // `vars` readable (a preview shows each var), the sensitive value apart in a secret.
        expect(isSecret(vars)).toBe(false);
        expect(vars).toEqual([
            { key: "region", value: "eu-west-1", category: "infra" },
            { key: "size", value: "1", category: "infra", description: "Number of buckets" },
            { key: "ARCHIVE_KEY", category: "env", sensitive: true },
        ]);
        expect(isSecret(sensitiveValues)).toBe(true);
        expect(revealSecrets(sensitiveValues)).toEqual({ "env:ARCHIVE_KEY": DEFAULT_ARCHIVE_KEY });
        expect(byName(run, "catalog-audit-logs").additionalSecretOutputs).toEqual(["sensitiveValues"]);
    });

    test("exports the component's outputs, which hold no var value; the component registers the same", () => {
        // Under mocks a workspace's outputs are its inputs: no `noCodeUpgradeAvailable` yet.
        expect(run.exports).toEqual({
            projectId: "catalog-project-id",
            noCodeModuleId: "catalog-module-id",
            workspaceIds: { "web-assets": "catalog-web-assets-id", "audit-logs": "catalog-audit-logs-id" },
            moduleVersions: { "web-assets": "1.0.0", "audit-logs": "1.0.0" },
            upgradesAvailable: {},
        });
        expect(run.componentOutputs).toMatchObject({
            projectId: "catalog-project-id",
            noCodeModuleId: "catalog-module-id",
            workspaceIds: { "web-assets": "catalog-web-assets-id", "audit-logs": "catalog-audit-logs-id" },
        });
        const component = JSON.stringify([run.componentOutputs, byName(run, "catalog").inputs, run.exports]);
        expect(component).not.toContain(DEFAULT_ARCHIVE_KEY);
    });

    test("with region us-east-1 the shared var changes in both workspaces' vars, and nothing else changes", () => {
        for (const registration of run.registrations) {
            const before = registration.inputs;
            const after = byName(moved, registration.name).inputs;
            const changed = Object.keys({ ...before, ...after }).filter((key) => JSON.stringify(before[key]) !== JSON.stringify(after[key]));
            const expected = registration.type === TYPE.noCodeWorkspace ? ["vars"] : [];
            expect({ name: registration.name, changed }).toEqual({ name: registration.name, changed: expected });
        }
        for (const name of ["catalog-web-assets", "catalog-audit-logs"]) {
            const region = (revealSecrets(inputsOf(moved, name).vars) as Array<{ key: string; value: string }>).find((v) => v.key === "region");
            expect(region?.value).toBe("us-east-1");
        }
    });
});

describe("examples/no-code-project deployed against the demo seed through the provider host", () => {
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
    /** The engine's URN of a child of the component. */
    const urnOf = (type: string, name: string) => host.urn(`${TYPE.component}$${type}`, name);

    beforeAll(async () => {
        host = await startProviderHost({
            programDir: program.dir,
            project: PROJECT,
            stack: "dev",
            env: { WOS_UPGRADE_POLL_MS: UPGRADE_POLL_MS },
        });
        await host.configure({ "wos:address": server.url, "wos:token": secret(DEMO_TOKEN) });
    }, 120_000);

    afterAll(async () => {
        await host?.close();
    });

    const { get, workspaceNamed, varsOf } = acmeReader(() => server, DEMO_TOKEN);

    test("pulumi up: the project with its tags, the module and both workspaces on the service, with the vars the program says", async () => {
        // A resource registers only once the ids it needs are known, so registration order is a valid
        // creation order, as the engine's.
        for (const registration of customs(run)) {
            const urn = urnOf(registration.type, registration.name);
            const checked = await host.check(urn, {}, resolve(registration.inputs) as PropertyMap);
            expect({ name: registration.name, failures: checked.failures }).toEqual({ name: registration.name, failures: [] });
            const created = await host.create(urn, checked.inputs);
            realIds.set(`${registration.name}-id`, created.id);
            state.set(registration.name, { urn, id: created.id, inputs: checked.inputs, outputs: created.outputs });
        }

        const projectId = state.get("catalog-project")!.id;
        expect((await get(`/projects/${projectId}`)).data.attributes).toMatchObject({ name: "Storage Catalog" });
        const bindings = (await get(`/projects/${projectId}/tag-bindings`)).data as Array<{ attributes: { key: string; value: string } }>;
        expect(Object.fromEntries(bindings.map((b) => [b.attributes.key, b.attributes.value]))).toEqual({ team: "platform", env: "prod" });
        const module = await get(`/no-code-modules/${state.get("catalog-module")!.id}?include=variable_options`);
        expect(module.data.attributes).toMatchObject({ enabled: true, "version-pin": "1.0.0" });
        expect(module.data.relationships["registry-module"].data.id).toBe(DEMO_MODULE);

        for (const [name, workspaceName, autoApply] of [
            ["catalog-web-assets", "web-assets", true],
            ["catalog-audit-logs", "audit-logs", false],
        ] as const) {
            const workspace = await workspaceNamed(workspaceName);
            expect(workspace.id).toBe(state.get(name)!.id);
            expect(workspace.attributes).toMatchObject({ source: "tfe-module", "source-module-id": DEMO_MODULE, "auto-apply": autoApply });
            expect(workspace.relationships.project.data.id).toBe(projectId);
            expect(state.get(name)!.outputs).toMatchObject({ moduleVersion: "1.0.0", noCodeUpgradeAvailable: false });
        }
        expect(await varsOf("web-assets")).toMatchObject({ region: { value: "eu-west-1" }, size: { value: "3" } });
        const auditVars = await varsOf("audit-logs");
        expect(auditVars).toMatchObject({ region: { value: "eu-west-1" }, size: { value: "1" } });
        expect(auditVars.ARCHIVE_KEY).toMatchObject({ category: "env", sensitive: true });
        expect(auditVars.ARCHIVE_KEY.value ?? null).toBeNull();
        expect(isSecret(state.get("catalog-audit-logs")!.outputs.sensitiveValues)).toBe(true);
        expect(JSON.stringify(state.get("catalog-audit-logs")!.outputs.vars)).not.toContain(DEFAULT_ARCHIVE_KEY);
        expect(isSecret(state.get("catalog-web-assets")!.outputs.vars)).toBe(false);
    });

    test("a second pulumi up of the same program changes nothing", async () => {
        for (const registration of customs(run)) {
            const previous = state.get(registration.name)!;
            const checked = await host.check(previous.urn, previous.inputs, resolve(registration.inputs) as PropertyMap);
            expect(checked.failures).toEqual([]);
            const diff = await host.diff(previous.urn, previous.id, previous.outputs, checked.inputs, previous.inputs);
            expect({ name: registration.name, changes: diff.changes }).toEqual({ name: registration.name, changes: "none" });
        }
    });

    test("pulumi up with the shared region changed: every workspace is upgraded to it, the project and module stay", async () => {
        const updated: string[] = [];
        for (const registration of customs(moved)) {
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
        expect(updated.sort()).toEqual(["catalog-audit-logs", "catalog-web-assets"]);

        for (const [name, workspaceName, size] of [
            ["catalog-web-assets", "web-assets", "3"],
            ["catalog-audit-logs", "audit-logs", "1"],
        ]) {
            expect(await varsOf(workspaceName)).toMatchObject({ region: { value: "us-east-1" }, size: { value: size } });
            const lastUpgrade = state.get(name)!.outputs.lastUpgrade as { id: string };
            expect(lastUpgrade.id).toMatch(/^run-/);
            const upgrade = await get(`/no-code-modules/${state.get("catalog-module")!.id}/workspaces/${state.get(name)!.id}/upgrade/${lastUpgrade.id}`);
            expect(upgrade.data.attributes.status).toBe("applied");
        }
        expect(isSecret(state.get("catalog-audit-logs")!.outputs.sensitiveValues)).toBe(true);
        expect(host.logs()).not.toContain(DEFAULT_ARCHIVE_KEY);
        expect(host.logs()).not.toContain(DEMO_TOKEN);
    });

    test("pulumi refresh finds no drift", async () => {
        for (const registration of customs(moved)) {
            const previous = state.get(registration.name)!;
            const read = await host.read(previous.urn, previous.id, previous.outputs, previous.inputs);
            expect(read.id).toBe(previous.id);
            expect({ name: registration.name, outputs: read.outputs }).toEqual({ name: registration.name, outputs: previous.outputs });
        }
    });

    test("pulumi destroy removes everything the component made and leaves the seed as it was", async () => {
        for (const registration of [...customs(moved)].reverse()) {
            const previous = state.get(registration.name)!;
            await host.delete(previous.urn, previous.id, previous.outputs, previous.inputs);
        }
        const names = (await get("/organizations/acme/projects?page%5Bsize%5D=100")).data.map(
            (p: { attributes: { name: string } }) => p.attributes.name,
        );
        expect(names.sort()).toEqual(["Apps", "Default Project"]);
        const registryModule = await get(`/registry-modules/${DEMO_MODULE}`);
        expect(registryModule.data.relationships["no-code-modules"].data).toEqual([]);
        for (const workspaceName of ["web-assets", "audit-logs"]) {
            const response = await server.request("GET", `/organizations/acme/workspaces/${workspaceName}`, { token: DEMO_TOKEN });
            expect(response.status).toBe(404);
        }
    });
});
