/**
 * The README's "Python, Go and YAML: the native plugin" as a user of a released version follows it (issues 21
 * and 28): its commands and files, read from the README itself (with markdown-it) and run as written, with the
 * registries they reach replaced by the release that `npm run release` writes (the files PyPI, the Go module
 * proxy and the GitHub release would serve): `pip install pulumi-wos==<version>` from the release's folder
 * (`PIP_FIND_LINKS`, no index), `go get …@v<version>` from its Go proxy (`GOPROXY`), and the plugin downloaded by
 * the CLI from the GitHub release's URL, which `PULUMI_PLUGIN_DOWNLOAD_URL_OVERRIDES` points at a local server of
 * the release. The YAML program runs `up` (its project made on the real `wos-server`) and `destroy` from a
 * fresh directory and a fresh `PULUMI_HOME` with its package declaration; the Python example declares that
 * project on the SDK pip installed.
 */
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { REPO_ROOT } from "../support/packedPackage";
import { pulumiProgram, type PulumiProgram } from "../support/pulumiCli";
import { releaseOnce, serveRelease, type Release, type ReleaseDownloads } from "../support/release";
import { PLATFORM_TOKEN, startCliTestService, type CliTestService } from "../cli/localService";
import { goSdkModule, pythonEnvironmentInstalling, releaseGoEnvironment, runCommand } from "./languageTools";

// The real CLI starts the YAML host and the plugin; pip and go install: minutes on two busy cores.
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

/** The fenced code blocks of the README's section {@link SECTION}, by their info (`sh`, `yaml wos.yaml`, ...), and its text. */
function readmeSection(): { blocks: Record<string, string>; text: string } {
    const source = fs.readFileSync(path.join(REPO_ROOT, "README.md"), "utf8");
    const tokens = new MarkdownIt().parse(source, {});
    const start = tokens.findIndex((token, index) => token.type === "heading_open" && tokens[index + 1]?.content === SECTION);
    if (start < 0) throw new Error(`README.md has no section "## ${SECTION}"`);
    const end = tokens.findIndex((token, index) => index > start && token.type === "heading_open" && token.tag === "h2");
    const inside = tokens.slice(start, end < 0 ? undefined : end);
    const blocks: Record<string, string> = {};
    for (const token of inside.filter((each) => each.type === "fence")) blocks[token.info.trim()] = token.content;
    const text = inside.map((token) => token.content).join("\n");
    return { blocks, text };
}

const version = (JSON.parse(fs.readFileSync(path.join(REPO_ROOT, "package.json"), "utf8")) as { version: string }).version;
const { blocks } = readmeSection();
/** The install commands, without their comments. */
const commands = blocks.sh!
    .trim()
    .split("\n")
    .map((line) => line.replace(/\s+#.*$/, ""));

test("the README installs this version: pip the package of the wheel, go get the SDK's module; YAML declares the plugin's release", () => {
    expect(commands).toEqual([`pip install pulumi-wos==${version}`, `go get ${goSdkModule()}@v${version}`]);
    expect(blocks["yaml wos.yaml"]).toBe(
        `packageDeclarationVersion: 1\nname: wos\nversion: ${version}\ndownloadUrl: github://api.github.com/pulumi-wos/pulumi-wos\n`,
    );
    expect(Object.keys(blocks).sort()).toEqual(["python", "sh", "yaml Pulumi.yaml", "yaml wos.yaml"]);
});

describe("from a fresh directory, as the README says, with the release in place of the registries", () => {
    let release: Release;
    let service: CliTestService;
    let downloads: ReleaseDownloads;
    let scratch: string;

    beforeAll(async () => {
        release = await releaseOnce();
        service = await startCliTestService();
        scratch = fs.mkdtempSync(path.join(os.tmpdir(), "wos-readme-"));
        downloads = await serveRelease(release);
    }, 20 * 60_000);

    afterAll(async () => {
        await downloads?.close();
        await service?.stop();
        if (scratch) fs.rmSync(scratch, { recursive: true, force: true });
    }, 60_000);

    test("the YAML program with its package declaration: up downloads the plugin and makes the project; destroy removes it", async () => {
        const source = path.join(scratch, "yaml");
        fs.mkdirSync(source);
        fs.writeFileSync(path.join(source, "Pulumi.yaml"), blocks["yaml Pulumi.yaml"]!);
        fs.writeFileSync(path.join(source, "wos.yaml"), blocks["yaml wos.yaml"]!);
        const program: PulumiProgram = await pulumiProgram({
            source,
            packed: false,
            env: {
                PULUMI_DISABLE_AUTOMATIC_PLUGIN_ACQUISITION: "false",
                PULUMI_PLUGIN_DOWNLOAD_URL_OVERRIDES: `^github://api\\.github\\.com/pulumi-wos/pulumi-wos=${downloads.url}`,
            },
        });
        try {
            await program.setConfig("wos:address", service.url);
            await program.setConfig("wos:token", PLATFORM_TOKEN, { secret: true });
            const up = await program.pulumi(["up", "--yes"]);
            expect(up.output).toMatch(/[Dd]ownloading.*wos|wos.*[Dd]ownload/);
            const id = (await program.outputs()).projectId as string;
            const project = await service.get(`/projects/${id}`);
            expect(project.attributes.name).toBe("Checkout");
            const bindings = (await service.get(`/projects/${id}/tag-bindings`)) as Array<{ attributes: { key: string; value: string } }>;
            expect(bindings.map(({ attributes }) => [attributes.key, attributes.value])).toEqual([["team", "payments"]]);
            await program.pulumi(["destroy", "--yes"]);
            expect((await service.request("GET", `/projects/${id}`)).status).toBe(404);
        } finally {
            await program.dispose();
        }
    });

    test("the pip line installs the SDK, on which the README's Python example declares that project", async () => {
        // pip, pulumi and the SDK's other dependencies from the tests' cached environment; the package from the release.
        const [pip, ...pipArgs] = commands[0]!.split(" ");
        expect(pip).toBe("pip");
        const venv = await pythonEnvironmentInstalling(path.join(scratch, "venv"), pipArgs, { PIP_NO_INDEX: "1", PIP_FIND_LINKS: release.dir });
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
        const { stdout } = await runCommand(path.join(venv, "bin", "python"), ["-c", script], { cwd: scratch });
        const registered = stdout
            .trim()
            .split("\n")
            .map((line) => JSON.parse(line) as { type: string; name: string; inputs: Record<string, unknown> });
        expect(registered).toEqual([
            { type: "wos:index:Project", name: "checkout", inputs: { organization: "acme", name: "Checkout", tags: { team: "payments" } } },
        ]);
    });

    test("the go get line takes the SDK's module, and a program on its package builds", async () => {
        const dir = path.join(scratch, "go");
        fs.mkdirSync(dir);
        fs.writeFileSync(path.join(dir, "go.mod"), "module example.com/readme\n\ngo 1.25\n");
        fs.copyFileSync(path.join(REPO_ROOT, "sdks", "go", "go.sum"), path.join(dir, "go.sum"));
        const env = releaseGoEnvironment(release.dir);
        const [go, ...goArgs] = commands[1]!.split(" ");
        await runCommand(go!, goArgs, { cwd: dir, env, timeoutMs: 5 * 60_000 });
        fs.writeFileSync(
            path.join(dir, "main.go"),
            `package main\n\nimport (\n\t"${goSdkModule()}/wos"\n\t"github.com/pulumi/pulumi/sdk/v3/go/pulumi"\n)\n\nfunc main() {\n\tpulumi.Run(func(ctx *pulumi.Context) error {\n\t\t_, err := wos.NewProject(ctx, "checkout", &wos.ProjectArgs{Name: pulumi.String("Checkout")})\n\t\treturn err\n\t})\n}\n`,
        );
        await runCommand("go", ["mod", "tidy"], { cwd: dir, env, timeoutMs: 5 * 60_000 });
        await runCommand("go", ["build", "-o", path.join(dir, "program"), "."], { cwd: dir, env, timeoutMs: 5 * 60_000 });
        expect(fs.statSync(path.join(dir, "program")).isFile()).toBe(true);
    });
});
