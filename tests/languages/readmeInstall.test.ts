/**
 * The README's "Python, Go and YAML: the native plugin" as a user follows it (issue 21, section 4): its
 * commands install this version's plugin tarball into a fresh `PULUMI_HOME` with the real CLI, its YAML
 * example runs from a fresh directory against the real `wos-server` (`up` makes the project, `destroy` removes
 * it), its Python example declares that project on the generated SDK, and its Go line names the generated
 * module. What the README shows is read from the README itself (with markdown-it), so a change of either that
 * breaks the user's path fails here.
 */
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { builtDist, REPO_ROOT } from "../support/packedPackage";
import { pulumiProgram, type PulumiProgram } from "../support/pulumiCli";
import { PLATFORM_TOKEN, startCliTestService, type CliTestService } from "../cli/localService";
import { hostPlatformName, pythonEnvironmentWithSdk, runCommand } from "./languageTools";

// The real CLI starts the YAML host and the plugin (Node.js); pip installs the SDK: minutes on two busy cores.
jest.setTimeout(600_000);

const SECTION = "Python, Go and YAML: the native plugin";

/** The part of markdown-it's token this test reads. */
interface Token {
    type: string;
    tag: string;
    info: string;
    content: string;
}

/** markdown-it, as TypeDoc depends on it (as `tests/package/docLinks.test.ts` loads it). */
const MarkdownIt = require(require.resolve("markdown-it", { paths: [path.dirname(require.resolve("typedoc/package.json"))] })) as new () => {
    parse(source: string, env: object): Token[];
};

/** The fenced code blocks of the README's section {@link SECTION}, by language (`sh`, `yaml`, `python`), and its text. */
function readmeSection(): { blocks: Record<string, string>; text: string } {
    const source = fs.readFileSync(path.join(REPO_ROOT, "README.md"), "utf8");
    const tokens = new MarkdownIt().parse(source, {});
    const start = tokens.findIndex((token, index) => token.type === "heading_open" && token.tag === "h2" && tokens[index + 1]?.content === SECTION);
    if (start < 0) throw new Error(`README.md has no section "## ${SECTION}"`);
    const end = tokens.findIndex((token, index) => index > start && token.type === "heading_open" && token.tag === "h2");
    const inside = tokens.slice(start, end < 0 ? undefined : end);
    const blocks: Record<string, string> = {};
    for (const token of inside.filter((each) => each.type === "fence")) blocks[token.info.trim()] = token.content;
    const text = inside.map((token) => token.content).join("\n");
    return { blocks, text };
}

const version = (JSON.parse(fs.readFileSync(path.join(REPO_ROOT, "package.json"), "utf8")) as { version: string }).version;
const { blocks, text } = readmeSection();

test("the README's commands pack with the repository's own script and install this version's tarball by its name", () => {
    const lines = blocks.sh!.trim().split("\n");
    expect(lines).toEqual([
        "npm ci && npm run plugin:pack",
        `pulumi plugin install resource wos ${version} --file dist/plugin-pack/pulumi-resource-wos-v${version}-linux-amd64.tar.gz`,
    ]);
    const scripts = (JSON.parse(fs.readFileSync(path.join(REPO_ROOT, "package.json"), "utf8")) as { scripts: Record<string, string> }).scripts;
    // What the install test below runs after the build: the script's second half, as `npm run plugin:pack` does.
    expect(scripts["plugin:pack"]).toBe("npm run build && node dist/plugin/pack.js");
});

test("the README's Go line names the generated module and its package", () => {
    const module = /^module (\S+)$/m.exec(fs.readFileSync(path.join(REPO_ROOT, "sdks", "go", "go.mod"), "utf8"))![1]!;
    expect(text).toContain(`go mod edit -replace ${module}=<clone>/sdks/go`);
    expect(fs.existsSync(path.join(REPO_ROOT, "sdks", "go", "wos", "project.go"))).toBe(true);
    expect(text).toContain("pip install ./sdks/python");
});

describe("from a fresh directory, as the README says", () => {
    let service: CliTestService;
    let program: PulumiProgram;
    let source: string;

    beforeAll(async () => {
        service = await startCliTestService();
        await builtDist();
        // `npm run plugin:pack` after its build, for this machine's platform only (the archives of the others are
        // the release's, which tests/plugin/pack.test.ts checks): the tarball lands where the README's line looks for it.
        await runCommand(process.execPath, [path.join(REPO_ROOT, "dist", "plugin", "pack.js"), "--platform", hostPlatformName()], {
            cwd: REPO_ROOT,
            timeoutMs: 300_000,
        });
        source = fs.mkdtempSync(path.join(os.tmpdir(), "wos-readme-"));
        fs.writeFileSync(path.join(source, "Pulumi.yaml"), blocks.yaml!);
        program = await pulumiProgram({ source, packed: false });
    }, 600_000);

    afterAll(async () => {
        await program?.dispose();
        await service?.stop();
        if (source) fs.rmSync(source, { recursive: true, force: true });
    }, 60_000);

    test("the install line installs the plugin, and the YAML example's `up` makes its project on the service; `destroy` removes it", async () => {
        // The install line as written, run in the clone (its tarball path is relative to it), into this program's PULUMI_HOME.
        const install = blocks.sh!.trim().split("\n")[1]!.split(" ");
        expect(install[0]).toBe("pulumi");
        const tarball = install.at(-1)!;
        await program.pulumi([...install.slice(1, -1), path.join(REPO_ROOT, tarball)]);
        expect((await program.pulumi(["plugin", "ls"])).output).toMatch(new RegExp(`wos\\s+resource\\s+${version.replace(/\./g, "\\.")}`));

        await program.setConfig("wos:address", service.url);
        await program.setConfig("wos:token", PLATFORM_TOKEN, { secret: true });
        await program.pulumi(["up", "--yes"]);
        const id = (await program.outputs()).projectId as string;
        const project = await service.get(`/projects/${id}`);
        expect(project.attributes.name).toBe("Checkout");
        const bindings = (await service.get(`/projects/${id}/tag-bindings`)) as Array<{ attributes: { key: string; value: string } }>;
        expect(bindings.map(({ attributes }) => [attributes.key, attributes.value])).toEqual([["team", "payments"]]);

        await program.pulumi(["destroy", "--yes"]);
        expect((await service.request("GET", `/projects/${id}`)).status).toBe(404);
    });

    test("the README's Python example declares that project on the generated SDK (pip-installed), as a program would", async () => {
        const environment = await pythonEnvironmentWithSdk(path.join(source, "venv"));
        // Pulumi's own mocks stand in for the engine: what the snippet registers, with which inputs.
        const script = `
import json, pulumi

class Mocks(pulumi.runtime.Mocks):
    def new_resource(self, args):
        print(json.dumps({"type": args.typ, "name": args.name, "inputs": args.inputs}))
        return [args.name + "-id", args.inputs]
    def call(self, args):
        return {}

pulumi.runtime.set_mocks(Mocks(), preview=False)
${blocks.python!}
# Waits for the registrations the snippet started, as Pulumi's Python unit tests do.
pulumi.runtime.test(lambda: checkout.urn)()
`;
        const { stdout } = await runCommand(path.join(environment, "bin", "python"), ["-c", script], { cwd: source });
        const registered = stdout
            .trim()
            .split("\n")
            .map((line) => JSON.parse(line) as { type: string; name: string; inputs: Record<string, unknown> });
        expect(registered).toEqual([
            { type: "wos:index:Project", name: "checkout", inputs: { organization: "acme", name: "Checkout", tags: { team: "payments" } } },
        ]);
    });
});
