/**
 * The CLI fetches the plugin itself (issue 28, point 2): the package schema's `pluginDownloadURL`
 * (`github://api.github.com/pulumi-wos/pulumi-wos`, the project's release downloads) reaches the generated
 * SDKs, so a program on an SDK needs no `pulumi plugin install`. Proved offline with the CLI's own override: a
 * local HTTP server serves this machine's archive as the release would, and `PULUMI_PLUGIN_DOWNLOAD_URL_OVERRIDES`
 * maps `^github://api.github.com/pulumi-wos/pulumi-wos` to it (the regular expression is matched against the
 * download URL the SDK gives, not the plugin's name). Each program runs with a fresh `PULUMI_HOME`, no plugin
 * installed and automatic acquisition on: `pulumi up` downloads the archive (the server saw the request, the
 * CLI says so) and makes its project on `wos-server`; `destroy` removes it.
 *
 * - Python: the generated SDK installed with pip (its `pulumi-plugin.json` carries the URL as `server`).
 * - YAML: a program has no SDK; the package declaration beside it (what `pulumi package add` writes for YAML,
 *   `packageDeclarationVersion: 1`, with the URL as `downloadUrl`) says where the plugin is.
 *
 * A wrong URL in the schema (or none) leaves the CLI asking elsewhere, and the override no longer matches: the
 * download, and the test, fail.
 */
import * as fs from "node:fs";
import * as http from "node:http";
import type { AddressInfo } from "node:net";
import * as os from "node:os";
import * as path from "node:path";
import { PLATFORM_TOKEN, startCliTestService, type CliTestService } from "../cli/localService";
import { pulumiBinDir, pulumiProgram, type PulumiProgram } from "../support/pulumiCli";
import { packageSchema, pluginTarball, pythonEnvironmentWithSdk, type PluginTarball } from "./languageTools";

jest.setTimeout(300_000);

/** The download URL every SDK must carry, written out. */
const DOWNLOAD_URL = "github://api.github.com/pulumi-wos/pulumi-wos";

let service: CliTestService;
let plugin: PluginTarball;
let downloads: http.Server;
let downloadsUrl: string;
/** Paths the download server was asked for. */
const requested: string[] = [];
let scratch: string;

beforeAll(async () => {
    scratch = fs.mkdtempSync(path.join(os.tmpdir(), "wos-plugin-download-"));
    service = await startCliTestService();
    plugin = await pluginTarball();
    // The release's downloads, as a folder: the CLI asks for <url>/pulumi-resource-wos-v<version>-<os>-<arch>.tar.gz.
    downloads = http.createServer((request, response) => {
        requested.push(request.url ?? "");
        const name = path.basename(plugin.file);
        if (request.method === "GET" && request.url === `/${name}`) {
            response.writeHead(200, { "content-type": "application/gzip", "content-length": fs.statSync(plugin.file).size });
            fs.createReadStream(plugin.file).pipe(response);
            return;
        }
        response.writeHead(404).end();
    });
    await new Promise<void>((resolve) => downloads.listen(0, "127.0.0.1", resolve));
    downloadsUrl = `http://127.0.0.1:${(downloads.address() as AddressInfo).port}`;
}, 600_000);

afterAll(async () => {
    await new Promise((resolve) => downloads?.close(resolve));
    await service?.stop();
    if (scratch) fs.rmSync(scratch, { recursive: true, force: true });
}, 60_000);

/** The environment of a program whose plugin the CLI must fetch: acquisition on, the release mapped to the server. */
function downloadEnvironment(): Record<string, string> {
    return {
        PULUMI_DISABLE_AUTOMATIC_PLUGIN_ACQUISITION: "false",
        PULUMI_PLUGIN_DOWNLOAD_URL_OVERRIDES: `^github://api\\.github\\.com/pulumi-wos/pulumi-wos=${downloadsUrl}`,
    };
}

test("the schema names the release downloads, and the generated SDKs carry them", () => {
    expect(packageSchema()).toMatchObject({ pluginDownloadURL: DOWNLOAD_URL });
    const sdks = path.join(__dirname, "..", "..", "sdks");
    for (const file of [path.join(sdks, "python", "pulumi_wos", "pulumi-plugin.json"), path.join(sdks, "go", "wos", "pulumi-plugin.json")]) {
        expect({ file, plugin: JSON.parse(fs.readFileSync(file, "utf8")) }).toEqual({
            file,
            plugin: { resource: true, name: "wos", version: plugin.version, server: DOWNLOAD_URL },
        });
    }
    expect(fs.readFileSync(path.join(sdks, "go", "wos", "internal", "pulumiUtilities.go"), "utf8")).toContain(`pulumi.PluginDownloadURL("${DOWNLOAD_URL}")`);
});

/** `up` on a fresh PULUMI_HOME: the plugin is downloaded, the project made; then `destroy`. */
async function upDownloadsThePlugin(program: PulumiProgram, projectName: string): Promise<void> {
    const before = requested.length;
    expect((await program.pulumi(["plugin", "ls"])).output).not.toMatch(/\bwos\b/);
    await program.setConfig("wos:address", service.url);
    await program.setConfig("wos:token", PLATFORM_TOKEN, { secret: true });
    await program.setConfig("wos:organization", "acme");
    const up = await program.pulumi(["up", "--yes", "--skip-preview"]);
    expect(requested.slice(before)).toContain(`/${path.basename(plugin.file)}`);
    expect(up.output).toMatch(/[Dd]ownloading.*wos|wos.*[Dd]ownload/);
    expect((await program.pulumi(["plugin", "ls"])).output).toMatch(new RegExp(`wos\\s+resource\\s+${plugin.version.replace(/\./g, "\\.")}`));
    const id = (await program.outputs()).projectId as string;
    expect((await service.get(`/projects/${id}`)).attributes.name).toBe(projectName);
    await program.pulumi(["destroy", "--yes", "--skip-preview"]);
    expect((await service.request("GET", `/projects/${id}`)).status).toBe(404);
}

test("a Python program on the SDK: pulumi up downloads the plugin from the SDK's URL, with nothing installed before", async () => {
    const source = path.join(scratch, "python-download");
    fs.mkdirSync(source);
    fs.writeFileSync(path.join(source, "Pulumi.yaml"), "name: wos-python-download\nruntime: python\n");
    fs.writeFileSync(
        path.join(source, "__main__.py"),
        'import pulumi\nimport pulumi_wos as wos\n\nproject = wos.Project("downloaded", name="Downloaded By Python")\npulumi.export("projectId", project.id)\n',
    );
    const venv = await pythonEnvironmentWithSdk(path.join(scratch, "venv"));
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
        `packageDeclarationVersion: 1\nname: wos\nversion: ${plugin.version}\ndownloadUrl: ${DOWNLOAD_URL}\n`,
    );
    const program = await pulumiProgram({ source, packed: false, env: downloadEnvironment() });
    try {
        await upDownloadsThePlugin(program, "Downloaded By YAML");
    } finally {
        await program.dispose();
    }
});
