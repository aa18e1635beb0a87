/**
 * The plugin as a user installs it (issue 21): `npm run plugin:pack`'s tarball holds the executable
 * `pulumi-resource-wos` (a launcher of Node.js) and one bundle, which the real `pulumi plugin install
 * resource wos <version> --file <tarball>` takes; the installed plugin, run from a directory without any
 * `node_modules`, is the whole provider: it answers its version, makes, reads and deletes a project, and loads
 * the Pulumi runtime bundled for `Construct`.
 */
import { execFileSync } from "node:child_process";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { builtDist, childEnv, REPO_ROOT } from "../support/packedPackage";
import { pulumiBinDir } from "../support/pulumiCli";
import { startPluginHost, type ProviderHost } from "../support/providerHost";
import { startTestServer, type TestServer } from "../support/server";
import { TOKENS } from "../support/seed";
import { createResource } from "./engineSteps";
import { providerConfig, SETUP_TIMEOUT_MS, TOKEN, TYPES } from "./pluginFixture";

const VERSION = require("../../package.json").version as string;

let workDir: string;
let tarball: string;
let installed: string;
let server: TestServer;
let plugin: ProviderHost | undefined;

beforeAll(async () => {
    await builtDist();
    workDir = fs.mkdtempSync(path.join(os.tmpdir(), "wos-plugin-pack-"));
    tarball = execFileSync(process.execPath, [path.join(REPO_ROOT, "dist", "plugin", "pack.js"), path.join(workDir, "out")], { encoding: "utf8" }).trim();
    server = await startTestServer();
}, SETUP_TIMEOUT_MS);

afterAll(async () => {
    await plugin?.close();
    await server?.close();
    fs.rmSync(workDir, { recursive: true, force: true });
});

test("the tarball is named for the version and platform, and holds the launcher, the bundle and the license at its root", () => {
    expect(path.basename(tarball)).toBe(`pulumi-resource-wos-v${VERSION}-linux-amd64.tar.gz`);
    const listing = execFileSync("tar", ["-tvzf", tarball], { encoding: "utf8" }).trim().split("\n");
    expect(listing.map((line) => line.split(/\s+/).pop()).sort()).toEqual(["LICENSE", "pulumi-resource-wos", "pulumi-resource-wos.js"]);
    expect(listing.find((line) => line.endsWith(" pulumi-resource-wos"))).toMatch(/^-rwxr-xr-x/);
    // The Pulumi runtime is in the bundle (Construct needs it), without TypeScript and an npm client (plugin/pack.ts LEFT_OUT):
    // about 5 MB; TypeScript alone would add 9.
    const bundleBytes = Number(listing.find((line) => line.endsWith(" pulumi-resource-wos.js"))!.split(/\s+/)[2]);
    expect(bundleBytes).toBeLessThan(8 * 1024 * 1024);
    const launcher = execFileSync("tar", ["-xzOf", tarball, "pulumi-resource-wos"], { encoding: "utf8" });
    expect(launcher).toMatch(/^#!\/bin\/sh\n/);
    expect(launcher).toContain('exec node "$(dirname "$0")/pulumi-resource-wos.js" "$@"');
});

test("pulumi plugin install takes it, and the installed plugin alone (no node_modules) is the provider", async () => {
    const home = path.join(workDir, "pulumi-home");
    const pulumi = path.join(pulumiBinDir(), "pulumi");
    const env = childEnv({ PULUMI_HOME: home, PULUMI_SKIP_UPDATE_CHECK: "1" });
    execFileSync(pulumi, ["plugin", "install", "resource", "wos", VERSION, "--file", tarball], { env, encoding: "utf8", stdio: "pipe" });
    installed = path.join(home, "plugins", `resource-wos-v${VERSION}`, "pulumi-resource-wos");
    expect(fs.statSync(installed).mode & 0o111).not.toBe(0);
    expect(execFileSync(pulumi, ["plugin", "ls"], { env, encoding: "utf8" })).toMatch(new RegExp(`wos\\s+resource\\s+${VERSION.replace(/\./g, "\\.")}`));

    // As the engine runs it: from the program's directory (here one with nothing in it), Node.js on PATH.
    const empty = fs.mkdtempSync(path.join(workDir, "program-"));
    plugin = await startPluginHost({
        executable: installed,
        cwd: empty,
        env: { PATH: `${path.dirname(process.execPath)}${path.delimiter}${process.env.PATH ?? ""}` },
    });
    expect(await plugin.getPluginInfo()).toEqual({ version: VERSION });
    const { args, variables } = providerConfig(server.url, TOKEN, "acme");
    expect(await plugin.configure(variables, 10_000, args)).toMatchObject({ acceptSecrets: true, supportsPreview: true });
    const urn = plugin.urn(TYPES.project, "packed");
    const project = await createResource(plugin, urn, { name: "Made By The Packed Plugin" });
    const shown = await server.request("GET", `/projects/${project.id}`, { token: TOKENS.owners });
    expect(shown.body.data.attributes.name).toBe("Made By The Packed Plugin");
    await plugin.delete(urn, project.id, project.outputs, project.inputs);
    expect((await server.request("GET", `/projects/${project.id}`, { token: TOKENS.owners })).status).toBe(404);

    // Construct loads the Pulumi runtime, from the bundle alone: it answers (here, that it makes no such component).
    await expect(plugin.construct("wos:index:Project", "p", {}, { monitor: "127.0.0.1:1" })).rejects.toThrow(
        /unknown component type wos:index:Project \(the plugin has wos:index:NoCodeProject\)/,
    );
});
