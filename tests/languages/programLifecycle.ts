/**
 * The life of a program of another language on the native plugin `pulumi-resource-wos` (issue 21, section 3),
 * through the real CLI (`tests/cli/setup.sh` builds it with the YAML and Python language hosts) against the real
 * `wos-server`: the plugin installed as a user installs it (`pulumi plugin install resource wos <version> --file
 * <tarball>` of the tarball that `npm run plugin:pack` makes) into the test's own PULUMI_HOME, then
 * `preview --diff`, `up`, the project read back over HTTP, a `preview` with no changes, and `destroy` leaving the
 * service as the seed made it.
 *
 * Each program declares one `wos:index:Project` named {@link LifecycleSpec.projectName} with the description
 * {@link LifecycleSpec.description} and the tags {@link LifecycleSpec.tags}, and exports `projectId` and
 * `projectTags`.
 */
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { pulumiProgram, type PulumiProgram } from "../support/pulumiCli";
import { PLATFORM_TOKEN, startCliTestService, type CliTestService, type OrganizationSnapshot } from "../cli/localService";
import { installPlugin, pluginTarball } from "./languageTools";

// Each test runs the real CLI, which starts a language host and the plugin (Node.js): seconds alone, more on two
// busy cores.
jest.setTimeout(300_000);

export interface LifecycleSpec {
    /** The program's directory (copied whole into a temporary directory). */
    source: string;
    projectName: string;
    description: string;
    tags: Record<string, string>;
    /** Environment of every command (e.g. a PATH with a Python environment first), made before the stack. */
    environment?: () => Promise<Record<string, string>>;
}

export function programLifecycleTests(spec: LifecycleSpec): void {
    let service: CliTestService;
    let seeded: OrganizationSnapshot;
    let program: PulumiProgram;
    let transcript = "";
    let pluginDir: string | undefined;

    beforeAll(async () => {
        service = await startCliTestService();
        seeded = await service.snapshot();
        program = await pulumiProgram({ source: spec.source, packed: false, env: await spec.environment?.() });
        pluginDir = fs.mkdtempSync(path.join(os.tmpdir(), "wos-plugin-"));
        const plugin = await pluginTarball(pluginDir);
        // Every command's output, for the check that the token was never printed.
        for (const run of ["pulumi", "attempt"] as const) {
            const original = program[run];
            program[run] = async (args, options) => {
                const result = await original(args, options);
                transcript += `$ pulumi ${args.join(" ")}\n${result.output}\n`;
                return result;
            };
        }
        await installPlugin(program, plugin);
        await program.setConfig("wos:address", service.url);
        await program.setConfig("wos:token", PLATFORM_TOKEN, { secret: true });
        await program.setConfig("wos:organization", "acme");
    }, 600_000);

    afterAll(async () => {
        await program?.dispose();
        await service?.stop();
        if (pluginDir) fs.rmSync(pluginDir, { recursive: true, force: true });
    }, 60_000);

    test("`pulumi preview --diff` shows the project with its inputs and writes nothing", async () => {
        const preview = await program.pulumi(["preview", "--diff"]);
        expect(preview.output).toMatch(/\+ wos:index:Project/);
        expect(preview.output).toContain(`"${spec.projectName}"`);
        for (const value of Object.values(spec.tags)) expect(preview.output).toContain(`"${value}"`);
        expect(await service.snapshot()).toEqual(seeded);
    });

    test("`pulumi up` makes the project with its tags; the service holds it; a second preview finds nothing to do", async () => {
        const up = await program.pulumi(["up", "--yes"]);
        expect(up.output).toMatch(/Resources:\s+\+ 2 created/);
        const outputs = await program.outputs();
        const id = outputs.projectId as string;
        const project = await service.get(`/projects/${id}`);
        expect(project.attributes).toMatchObject({ name: spec.projectName, description: spec.description });
        const bindings = (await service.get(`/projects/${id}/tag-bindings`)) as Array<{ attributes: { key: string; value: string } }>;
        expect(Object.fromEntries(bindings.map(({ attributes }) => [attributes.key, attributes.value]))).toEqual(spec.tags);
        expect(outputs.projectTags).toEqual(spec.tags);

        const again = await program.attempt(["preview", "--expect-no-changes", "--diff"]);
        expect({ code: again.code, output: again.output }).toEqual({ code: 0, output: expect.stringMatching(/2 unchanged/) });
    });

    test("the token is never printed nor stored in plain text", async () => {
        const exported = await program.exportStack();
        expect(exported.text).not.toContain(PLATFORM_TOKEN);
        expect(transcript).not.toContain(PLATFORM_TOKEN);
        // The same state with --show-secrets holds it: the check above looked where it is.
        expect((await program.exportStack({ showSecrets: true })).text).toContain(PLATFORM_TOKEN);
    });

    test("`pulumi destroy` leaves the service as the seed made it", async () => {
        const destroy = await program.pulumi(["destroy", "--yes"]);
        expect(destroy.output).toMatch(/Resources:\s+- 2 deleted/);
        expect(await service.snapshot()).toEqual(seeded);
    });
}
