/**
 * The CLI fetches the plugin itself (issue 28, point 2): the package schema's `pluginDownloadURL`
 * (`github://api.github.com/pulumi-wos/pulumi-wos`, the project's release downloads) reaches the generated
 * SDKs, so a program on an SDK needs no `pulumi plugin install`. Proved offline with the CLI's own override: a
 * local HTTP server serves the release folder (`npm run release`) as GitHub serves its assets, and `PULUMI_PLUGIN_DOWNLOAD_URL_OVERRIDES`
 * maps `^github://api.github.com/pulumi-wos/pulumi-wos` to it (the regular expression is matched against the
 * download URL the SDK gives, not the plugin's name). Each program runs with a fresh `PULUMI_HOME`, no plugin
 * installed and automatic acquisition on: `pulumi up` downloads the archive (the server saw the request, the
 * CLI says so) and makes its project on `wos-server`; `destroy` removes it.
 *
 * - Python: the release's wheel installed with pip (its `pulumi-plugin.json` carries the URL as `server`).
 * - Go: the SDK module taken by `go get` from the release's proxy (`GOPROXY=file://…`); its resources carry the URL.
 * - YAML: a program has no SDK; the package declaration beside it (what `pulumi package add` writes for YAML,
 *   `packageDeclarationVersion: 1`, with the URL as `downloadUrl`) says where the plugin is.
 * - `pulumi plugin install resource wos <version> --server <URL>`, for a machine that installs ahead: the
 *   release's archive is what it installs, and `--checksum` with a wrong sum is refused.
 *
 * A wrong URL in the schema (or none) leaves the CLI asking elsewhere, and the override no longer matches: the
 * download, and the test, fail.
 */
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { PLATFORM_TOKEN, startCliTestService, type CliTestService } from "../cli/localService";
import { pulumiBinDir, pulumiProgram, type PulumiProgram } from "../support/pulumiCli";
import { releaseOnce, serveRelease, type Release, type ReleaseDownloads } from "../support/release";
import { goProgramOnRelease, hostPlatformName, packageSchema, pythonEnvironmentInstalling, runCommand, SDKS_DIR } from "./languageTools";

jest.setTimeout(300_000);

/** The download URL every SDK must carry, written out. */
const DOWNLOAD_URL = "github://api.github.com/pulumi-wos/pulumi-wos";

let service: CliTestService;
let release: Release;
/** This machine's archive in the release: what the CLI must download. */
let archiveName: string;
/** The release's files, served as the GitHub release serves them. */
let downloads: ReleaseDownloads;
let scratch: string;

beforeAll(async () => {
    scratch = fs.mkdtempSync(path.join(os.tmpdir(), "wos-plugin-download-"));
    service = await startCliTestService();
    release = await releaseOnce();
    archiveName = `pulumi-resource-wos-v${release.version}-${hostPlatformName()}.tar.gz`;
    downloads = await serveRelease(release);
}, 600_000);

afterAll(async () => {
    await downloads?.close();
    await service?.stop();
    if (scratch) fs.rmSync(scratch, { recursive: true, force: true });
}, 60_000);

/** The environment of a program whose plugin the CLI must fetch: acquisition on, the release mapped to the server. */
function downloadEnvironment(): Record<string, string> {
    return {
        PULUMI_DISABLE_AUTOMATIC_PLUGIN_ACQUISITION: "false",
        PULUMI_PLUGIN_DOWNLOAD_URL_OVERRIDES: `^github://api\\.github\\.com/pulumi-wos/pulumi-wos=${downloads.url}`,
    };
}

test("the schema names the release downloads, and the generated SDKs carry them", () => {
    expect(packageSchema()).toMatchObject({ pluginDownloadURL: DOWNLOAD_URL });
    const sdks = path.join(__dirname, "..", "..", "sdks");
    for (const file of [path.join(sdks, "python", "pulumi_wos", "pulumi-plugin.json"), path.join(sdks, "go", "wos", "pulumi-plugin.json")]) {
        expect({ file, plugin: JSON.parse(fs.readFileSync(file, "utf8")) }).toEqual({
            file,
            plugin: { resource: true, name: "wos", version: release.version, server: DOWNLOAD_URL },
        });
    }
    expect(fs.readFileSync(path.join(sdks, "go", "wos", "internal", "pulumiUtilities.go"), "utf8")).toContain(`pulumi.PluginDownloadURL("${DOWNLOAD_URL}")`);
});

/** `up` on a fresh PULUMI_HOME: the plugin is downloaded, the project made; then `destroy`. */
async function upDownloadsThePlugin(program: PulumiProgram, projectName: string): Promise<void> {
    const before = downloads.requested.length;
    expect((await program.pulumi(["plugin", "ls"])).output).not.toMatch(/\bwos\b/);
    await program.setConfig("wos:address", service.url);
    await program.setConfig("wos:token", PLATFORM_TOKEN, { secret: true });
    await program.setConfig("wos:organization", "acme");
    const up = await program.pulumi(["up", "--yes", "--skip-preview"]);
    expect(downloads.requested.slice(before)).toContain(`/${archiveName}`);
    expect(up.output).toMatch(/[Dd]ownloading.*wos|wos.*[Dd]ownload/);
    expect((await program.pulumi(["plugin", "ls"])).output).toMatch(new RegExp(`wos\\s+resource\\s+${release.version.replace(/\./g, "\\.")}`));
    const id = (await program.outputs()).projectId as string;
    expect((await service.get(`/projects/${id}`)).attributes.name).toBe(projectName);
    await program.pulumi(["destroy", "--yes", "--skip-preview"]);
    expect((await service.request("GET", `/projects/${id}`)).status).toBe(404);
}

test("a Python program on the release's wheel: pulumi up downloads the plugin from the SDK's URL, with nothing installed before", async () => {
    const source = path.join(scratch, "python-download");
    fs.mkdirSync(source);
    fs.writeFileSync(path.join(source, "Pulumi.yaml"), "name: wos-python-download\nruntime: python\n");
    fs.writeFileSync(
        path.join(source, "__main__.py"),
        'import pulumi\nimport pulumi_wos as wos\n\nproject = wos.Project("downloaded", name="Downloaded By Python")\npulumi.export("projectId", project.id)\n',
    );
    // The wheel from the file; pulumi and the SDK's other dependencies from the tests' cached environment.
    const wheel = path.join(release.dir, `pulumi_wos-${release.version}-py3-none-any.whl`);
    const venv = await pythonEnvironmentInstalling(path.join(scratch, "venv"), ["install", "--no-index", wheel]);
    const program = await pulumiProgram({
        source,
        packed: false,
        env: { ...downloadEnvironment(), PATH: [path.join(venv, "bin"), pulumiBinDir(), process.env.PATH ?? ""].join(path.delimiter) },
    });
    try {
        await upDownloadsThePlugin(program, "Downloaded By Python");
    } finally {
        await program.dispose();
    }
});

test("a YAML program with the package declaration: pulumi up downloads the plugin from its URL", async () => {
    const source = path.join(scratch, "yaml-download");
    fs.mkdirSync(source);
    fs.writeFileSync(
        path.join(source, "Pulumi.yaml"),
        [
            "name: wos-yaml-download",
            "runtime: yaml",
            "resources:",
            "  downloaded:",
            "    type: wos:index:Project",
            "    properties:",
            "      name: Downloaded By YAML",
            "outputs:",
            "  projectId: ${downloaded.id}",
            "",
        ].join("\n"),
    );
    fs.writeFileSync(
        path.join(source, "wos.yaml"),
        `packageDeclarationVersion: 1\nname: wos\nversion: ${release.version}\ndownloadUrl: ${DOWNLOAD_URL}\n`,
    );
    const program = await pulumiProgram({ source, packed: false, env: downloadEnvironment() });
    try {
        await upDownloadsThePlugin(program, "Downloaded By YAML");
    } finally {
        await program.dispose();
    }
});

test("a Go program on the SDK module from the release's proxy: pulumi up downloads the plugin from the SDK's URL", async () => {
    const source = path.join(scratch, "go-download");
    fs.mkdirSync(source);
    fs.writeFileSync(path.join(source, "Pulumi.yaml"), "name: wos-go-download\nruntime: go\n");
    const goEnvironment = await goProgramOnRelease(source, release.dir, release.version, "Downloaded By Go");
    const program = await pulumiProgram({ source, packed: false, env: { ...downloadEnvironment(), ...goEnvironment } });
    try {
        await upDownloadsThePlugin(program, "Downloaded By Go");
    } finally {
        await program.dispose();
    }
});

test("pulumi plugin install --server installs the release's archive, byte for byte, and --checksum refuses a wrong sum", async () => {
    const sums = fs.readFileSync(path.join(release.dir, "SHA256SUMS"), "utf8");
    const checksum = new RegExp(`^([0-9a-f]{64})  ${archiveName.replace(/\./g, "\\.")}$`, "m").exec(sums)![1]!;
    const home = path.join(scratch, "install-home");
    const pulumi = path.join(pulumiBinDir(), "pulumi");
    const env = { PULUMI_HOME: home, PULUMI_SKIP_UPDATE_CHECK: "1" };
    const installed = path.join(home, "plugins", `resource-wos-v${release.version}`, "pulumi-resource-wos");

    const wrong = checksum.replace(/^./, (first) => (first === "0" ? "1" : "0"));
    await expect(
        runCommand(pulumi, ["plugin", "install", "resource", "wos", release.version, "--server", downloads.url, "--checksum", wrong], { cwd: scratch, env }),
    ).rejects.toThrow(/invalid checksum, expected/);
    expect(fs.existsSync(installed)).toBe(false);
    // CLI 3.248 refuses the right sum too: its check hashes every read of the body but the last, which ends it and
    // carries data whenever the answer has a Content-Length (which the CLI requires). So the sums are checked with
    // sha256sum (the release test does), and the installed plugin is compared with the archive's own file.
    await runCommand(pulumi, ["plugin", "install", "resource", "wos", release.version, "--server", downloads.url], { cwd: scratch, env });
    const unpacked = path.join(scratch, "archive");
    fs.mkdirSync(unpacked);
    await runCommand("tar", ["-xzf", path.join(release.dir, archiveName), "-C", unpacked], { cwd: scratch });
    expect(fs.readFileSync(installed).equals(fs.readFileSync(path.join(unpacked, "pulumi-resource-wos")))).toBe(true);
    const { stdout } = await runCommand(pulumi, ["plugin", "ls"], { cwd: scratch, env });
    expect(stdout).toMatch(new RegExp(`wos\\s+resource\\s+${release.version.replace(/\./g, "\\.")}`));
});
