/**
 * The package schema's examples of one language run as a user runs them (issue 28, point 6): each program
 * exactly as the schema's description holds it (what the SDK's docstrings show), on a stack of its own with a
 * fresh `PULUMI_HOME`, the plugin installed from this machine's archive, through the real CLI against the real
 * `wos-server` with the demo seed the examples are written for (`examples/seed.json`). For each: `pulumi up`
 * exports what the program says it exports, every id it exports is one the service holds (read back over
 * HTTP), a resource's example changed the organization and a function's did not, the stack's secret config
 * (the variable example's `dbPassword`) is nowhere in the state in plain text, and `pulumi destroy` leaves the
 * organization as it found it, with every id the program made gone.
 */
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { pulumiProgram } from "../support/pulumiCli";
import { exportedNames, schemaExamples, type ExampleOf, type Language } from "../support/schemaExamples";
import { BUCKET_MODULE, PLATFORM_TOKEN, startCliTestService, type CliTestService } from "../cli/localService";
import { installPlugin, packageSchema, pluginTarball } from "./languageTools";
import { UPGRADE_POLL_MS, withTranscript } from "./pluginStacks";

// Each example is an `up` and a `destroy` of the real CLI, a language host and the plugin: seconds alone, more
// on two busy cores.
jest.setTimeout(300_000);

/** The stack secret the variable example reads (`pulumi config set --secret dbPassword ...`). */
const DB_PASSWORD = "example-db-password-7c1e49";

export interface ExampleRunSpec {
    language: Extract<Language, "yaml" | "python">;
    /** Writes the program `code` of the project `name` into `dir` (its `Pulumi.yaml` and sources). */
    writeProgram(dir: string, name: string, code: string): void;
    /** Environment of every command, made once before the first stack (e.g. a PATH with a Python environment first). */
    environment?: () => Promise<Record<string, string>>;
}

/** Every string anywhere in `value`. */
function stringsIn(value: unknown): string[] {
    if (typeof value === "string") return [value];
    if (Array.isArray(value)) return value.flatMap(stringsIn);
    if (value !== null && typeof value === "object") return Object.values(value).flatMap(stringsIn);
    return [];
}

/** The ids of the service's resources among `values`, by kind. */
const ID = /^(prj|ws|var|nocode|mod)-[A-Za-z0-9]+$/;

/** Whether the service holds the resource of `id` now (the owners' token sees every one of the organization). */
async function serviceHolds(service: CliTestService, id: string): Promise<boolean> {
    const kind = ID.exec(id)![1]!;
    if (kind === "var") {
        const variables = (await service.get("/vars")) as Array<{ id: string }>;
        return variables.some((variable) => variable.id === id);
    }
    const paths = { prj: `/projects/${id}`, ws: `/workspaces/${id}`, nocode: `/no-code-modules/${id}`, mod: `/registry-modules/${id}` };
    const path = paths[kind as keyof typeof paths];
    const { status } = await service.request("GET", path);
    if (status !== 200 && status !== 404) throw new Error(`GET ${path} answered ${status}`);
    return status === 200;
}

/** The tests of every example of the schema in `spec.language`, in one file, one service, one after the other. */
export function schemaExampleRunTests(spec: ExampleRunSpec): void {
    const examples = schemaExamples(packageSchema());
    let service: CliTestService;
    let environment: Record<string, string> = {};

    beforeAll(async () => {
        [service, environment] = await Promise.all([startCliTestService(), spec.environment?.() ?? {}]);
    }, 600_000);
    afterAll(async () => {
        await service?.stop();
    });

    test("there is an example of each of the six resources, the component and the five functions", () => {
        expect(examples.filter((example) => !example.isFunction)).toHaveLength(7);
        expect(examples.filter((example) => example.isFunction)).toHaveLength(5);
    });

    test.each(examples.map((example) => [example.token, example] as const))(
        `%s: the ${spec.language} example runs up and destroy as written, and leaves the organization as it was`,
        async (_token, example: ExampleOf) => {
            const code = example.code[spec.language];
            const source = fs.mkdtempSync(path.join(os.tmpdir(), `wos-example-${spec.language}-`));
            spec.writeProgram(source, `example-${example.name.toLowerCase()}`, code);
            const program = await pulumiProgram({ source, packed: false, env: { ...environment, WOS_UPGRADE_POLL_MS: UPGRADE_POLL_MS } });
            fs.rmSync(source, { recursive: true, force: true });
            const transcript = withTranscript(program);
            try {
                await installPlugin(program, await pluginTarball());
                // One command for the three keys: each CLI start counts, twelve times over.
                await program.pulumi(["config", "set-all", "--plaintext", `wos:address=${service.url}`, "--secret", `wos:token=${PLATFORM_TOKEN}`, "--secret", `dbPassword=${DB_PASSWORD}`]);
                const before = await service.snapshot();

                await program.pulumi(["up", "--yes", "--skip-preview"]);
                const outputs = await program.outputs({ showSecrets: true });
                expect(Object.keys(outputs).sort()).toEqual(exportedNames(spec.language, code).sort());
                const ids = stringsIn(outputs).filter((value) => ID.test(value));
                expect(ids.length).toBeGreaterThan(0);
                for (const id of ids) expect({ id, held: await serviceHolds(service, id) }).toEqual({ id, held: true });
                const after = await service.snapshot();
                if (example.isFunction && !/\bnew wos\./.test(example.code.typescript)) expect(after).toEqual(before);
                else expect(after).not.toEqual(before);
                expect((await program.exportStack()).text).not.toContain(DB_PASSWORD);

                await program.pulumi(["destroy", "--yes", "--skip-preview"]);
                expect(await service.snapshot()).toEqual(before);
                // What the service held before (the seed's registry module too, which no program makes) stays.
                const known = new Set([...stringsIn(before), BUCKET_MODULE]);
                for (const id of ids.filter((value) => !known.has(value))) {
                    expect({ id, held: await serviceHolds(service, id) }).toEqual({ id, held: false });
                }
            } catch (failure) {
                throw new Error(`${(failure as Error).message}\n--- what the CLI printed ---\n${transcript()}`);
            } finally {
                await program.dispose();
            }
        },
    );
}
