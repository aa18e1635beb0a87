/**
 * The quickstart example (`examples/quickstart/`, which the root `Pulumi.yaml` runs) as a user has it:
 * compiled with its own `tsconfig.json` against the packed package's published typings, run under
 * `pulumi.runtime.setMocks` with the packed package and the stack config the README sets (its lookup,
 * `getProjectOutput`, reaches the real service), and deployed against the local service loaded with
 * the demo seed (`examples/seed.json`) through `@pulumi/pulumi`'s provider host, the way `pulumi up`,
 * a second `pulumi up`, `pulumi refresh` and `pulumi destroy` would.
 */
import * as fs from "node:fs";
import * as path from "node:path";
import * as ts from "typescript";
import type { ServerOptions } from "../../server/app";
import { packedProgram, REPO_ROOT, runUnderMocks, type MockRun, type PackedProgram } from "../support/packedPackage";
import { isSecret, secret, startProviderHost, type PropertyMap, type ProviderHost } from "../support/providerHost";
import { startTestServer, type TestServer } from "../support/server";

const EXAMPLE_DIR = path.join(REPO_ROOT, "examples", "quickstart");
const DEMO_SEED_PATH = path.join(REPO_ROOT, "examples", "seed.json");
/** The seed's `platform` team: manages every project and the variables of every workspace. */
const DEMO_TOKEN = "team-platform-secret";
const DEMO_WORKSPACE = "ws-0000000000000001";

let program: PackedProgram;
let workDir: string;
let diagnostics: string[] = [];
let run: MockRun;

/**
 * Copies the example into the temporary program directory (so "pulumi-wos" resolves to the unpacked
 * tarball, typings included), type-checks it with its own tsconfig.json and compiles it.
 */
function compileExample(): string {
    workDir = fs.mkdtempSync(path.join(program.dir, "quickstart-"));
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

/** The local service loaded with the demo seed: `getProjectOutput` reaches it while the program runs. */
let server: TestServer;

beforeAll(async () => {
    program = await packedProgram();
    const seed = JSON.parse(fs.readFileSync(DEMO_SEED_PATH, "utf8")) as ServerOptions["seed"];
    server = await startTestServer({ seed });
    const compiled = compileExample();
    // The stack config of the README's steps (`pulumi config set --secret wos:token ...`), plus the address.
    run = await runUnderMocks(program.dir, compiled, {
        project: "wos-quickstart",
        stack: "dev",
        env: {
            PULUMI_CONFIG: JSON.stringify({ "wos:address": server.url, "wos:token": DEMO_TOKEN }),
            PULUMI_CONFIG_SECRET_KEYS: JSON.stringify(["wos:token"]),
        },
    });
}, 240_000);

afterAll(async () => {
    await server?.close();
    if (workDir) fs.rmSync(workDir, { recursive: true, force: true });
});

/** Registrations as `type name` lines and by name. */
const byName = (name: string) => {
    const found = run.registrations.find((registration) => registration.name === name);
    if (!found) throw new Error(`the example registers no resource named ${name}`);
    return found;
};

describe("examples/quickstart as a program", () => {
    test("type-checks with its own tsconfig.json against the published typings of the packed package", () => {
        expect(diagnostics).toEqual([]);
    });

    test("the root Pulumi.yaml runs it: runtime nodejs, main examples/quickstart/", () => {
        const root = fs.readFileSync(path.join(REPO_ROOT, "Pulumi.yaml"), "utf8");
        expect(root).toMatch(/^runtime: nodejs$/m);
        expect(root).toMatch(/^main: examples\/quickstart\/?$/m);
        const own = fs.readFileSync(path.join(EXAMPLE_DIR, "Pulumi.yaml"), "utf8");
        expect(own).toMatch(/^runtime: nodejs$/m);
        const manifest = JSON.parse(fs.readFileSync(path.join(EXAMPLE_DIR, "package.json"), "utf8"));
        expect(manifest.dependencies).toMatchObject({ "pulumi-wos": "file:../..", "@pulumi/pulumi": expect.any(String) });
    });

    test("registers exactly two projects, one set of tag bindings and three variables", () => {
        // Registration order follows when inputs resolve, not the program's lines: compare as a set.
        expect(run.registrations.map((r) => `${r.type} ${r.name}`).sort()).toEqual([
            "pulumi-nodejs:dynamic/wos:Project data",
            "pulumi-nodejs:dynamic/wos:Project platform",
            "pulumi-nodejs:dynamic/wos:ProjectTagBindings data-cost-center",
            "pulumi-nodejs:dynamic/wos:Variable db-password",
            "pulumi-nodejs:dynamic/wos:Variable instance-tags",
            "pulumi-nodejs:dynamic/wos:Variable log-level",
        ]);
    });

    test("the project 'Platform' owns its whole tag set", () => {
        const { __provider, ...inputs } = byName("platform").inputs;
        expect(typeof __provider).toBe("string");
        expect(inputs).toEqual({
            organization: "acme",
            name: "Platform",
            description: "Shared platform services",
            autoDestroyActivityDuration: "14d",
            tags: { team: "platform", env: "prod" },
        });
    });

    test("the project 'Data' leaves its tags to a ProjectTagBindings bound to its id", () => {
        const { __provider: _, ...data } = byName("data").inputs;
        expect(data).toEqual({ organization: "acme", name: "Data", description: "Data pipelines and warehouses" });
        const { __provider: __, ...bindings } = byName("data-cost-center").inputs;
        // The mock monitor gives each resource the id `<name>-id`.
        expect(bindings).toEqual({ projectId: "data-id", tags: { "cost-center": "1234", owner: "data-team" } });
    });

    test("the variables of the seeded workspace: a plain env var, an hcl infra var and a sensitive secret", () => {
        const { __provider: _a, ...logLevel } = byName("log-level").inputs;
        expect(logLevel).toEqual({
            workspaceId: DEMO_WORKSPACE,
            key: "LOG_LEVEL",
            value: "info",
            category: "env",
            description: "Log level of the application",
        });
        const { __provider: _b, ...instanceTags } = byName("instance-tags").inputs;
        expect(instanceTags).toEqual({
            workspaceId: DEMO_WORKSPACE,
            key: "instance_tags",
            value: '{ team = "platform", env = "prod" }',
            category: "infra",
            hcl: true,
            description: "Tags for every instance",
        });
        const dbPassword = byName("db-password");
        const { __provider: _c, ...password } = dbPassword.inputs;
        expect(password).toEqual({
            workspaceId: DEMO_WORKSPACE,
            key: "DB_PASSWORD",
            value: secret("change-me-please"),
            category: "env",
            sensitive: true,
        });
        expect(dbPassword.additionalSecretOutputs).toEqual(["value"]);
    });

    test("exports the ids of both projects, and the seed's project 'Apps' found by getProjectOutput in the service", async () => {
        const listed = await server.request("GET", "/organizations/acme/projects?filter%5Bnames%5D=Apps", { token: DEMO_TOKEN });
        const apps = listed.body.data[0];
        expect(run.exports).toEqual({
            platformProjectId: "platform-id",
            dataProjectId: "data-id",
            appsProject: {
                id: apps.id,
                organization: "acme",
                name: "Apps",
                workspaceCount: 1,
                teamCount: apps.attributes["team-count"],
                tags: {},
            },
        });
    });

    test("targets the demo seed: its organization and workspace exist in examples/seed.json", () => {
        const seed = JSON.parse(fs.readFileSync(DEMO_SEED_PATH, "utf8"));
        const acme = seed.organizations.find((org: { name: string }) => org.name === "acme");
        expect(acme).toBeDefined();
        expect(acme.workspaces.map((w: { id: string }) => w.id)).toContain(DEMO_WORKSPACE);
        const platformTeam = acme.teams.find((team: { tokens: string[] }) => team.tokens.includes(DEMO_TOKEN));
        expect(platformTeam).toMatchObject({ manageProjects: true });
    });
});

describe("examples/quickstart deployed against the demo seed through the provider host", () => {
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
        host = await startProviderHost({ programDir: program.dir, project: "wos-quickstart", stack: "dev" });
        await host.configure({ "wos:address": server.url, "wos:token": secret(DEMO_TOKEN) });
    }, 120_000);

    afterAll(async () => {
        await host?.close();
    });

    const raw = async (pathname: string) => {
        const response = await server.request("GET", pathname, { token: DEMO_TOKEN });
        expect(response.status).toBe(200);
        return response.body;
    };
    const projectNamed = async (name: string) =>
        (await raw(`/organizations/acme/projects?filter%5Bnames%5D=${encodeURIComponent(name)}`)).data[0];
    const workspaceVariables = async () =>
        (await raw("/vars?filter%5Bworkspace%5D%5Bname%5D=legacy-app&filter%5Borganization%5D%5Bname%5D=acme")).data as Array<{
            attributes: Record<string, unknown>;
        }>;

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

        const platform = await projectNamed("Platform");
        expect(platform.attributes).toMatchObject({ description: "Shared platform services" });
        const platformTags = (await raw(`/projects/${platform.id}/tag-bindings`)).data.map(
            (b: { attributes: { key: string; value: string } }) => `${b.attributes.key}=${b.attributes.value}`,
        );
        expect(platformTags.sort()).toEqual(["env=prod", "team=platform"]);
        const data = await projectNamed("Data");
        const dataTags = (await raw(`/projects/${data.id}/tag-bindings`)).data.map(
            (b: { attributes: { key: string; value: string } }) => `${b.attributes.key}=${b.attributes.value}`,
        );
        expect(dataTags.sort()).toEqual(["cost-center=1234", "owner=data-team"]);

        const variables = Object.fromEntries((await workspaceVariables()).map((v) => [v.attributes.key as string, v.attributes]));
        expect(variables.LOG_LEVEL).toMatchObject({ value: "info", category: "env", hcl: false, sensitive: false });
        expect(variables.instance_tags).toMatchObject({ category: "infra", hcl: true, sensitive: false });
        expect(variables.DB_PASSWORD).toMatchObject({ category: "env", sensitive: true });
        expect(variables.DB_PASSWORD.value ?? null).toBeNull();
        expect(isSecret(state.get("db-password")!.outputs.value)).toBe(true);
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

    test("pulumi refresh finds no drift", async () => {
        for (const registration of run.registrations) {
            const previous = state.get(registration.name)!;
            const read = await host.read(previous.urn, previous.id, previous.outputs, previous.inputs);
            expect(read.id).toBe(previous.id);
            expect({ name: registration.name, outputs: read.outputs }).toEqual({ name: registration.name, outputs: previous.outputs });
        }
    });

    test("pulumi destroy removes everything the program made and leaves the seed as it was", async () => {
        for (const registration of [...run.registrations].reverse()) {
            const previous = state.get(registration.name)!;
            await host.delete(previous.urn, previous.id, previous.outputs, previous.inputs);
        }
        const names = (await raw("/organizations/acme/projects?page%5Bsize%5D=100")).data.map(
            (p: { attributes: { name: string } }) => p.attributes.name,
        );
        expect(names.sort()).toEqual(["Apps", "Default Project"]);
        expect(await workspaceVariables()).toEqual([]);
    });
});
