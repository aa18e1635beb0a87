/**
 * The plugin as a user installs it (issues 21 and 28): `npm run plugin:pack` (and `npm run release`, whose
 * archives these are) writes one archive per platform
 * Pulumi publishes plugins for, named as the CLI expects; where the npm registry has a Node.js of `.nvmrc`'s
 * version for the platform, the archive holds one executable (that Node.js with the bundle injected: a single
 * executable application), else a launcher of the Node.js on `PATH` beside the bundle.
 *
 * - every archive: its name, its files at the root, the executable's format and architecture read from its
 *   header (ELF, PE), the bundle inside (the fuse Node.js reads flipped, the bundle's own text present);
 * - the Linux x64 executable, installed by the real `pulumi plugin install --file`, run with no `node` on
 *   `PATH`: the whole provider (its version, a project made, read back and deleted, the bundled runtime);
 * - a launcher, run here: without Node.js on `PATH`, and with the machine's older one, it exits 1 at once with
 *   one line naming the Node.js it needs; with Node.js of `.nvmrc` it is the provider.
 *
 * The expected lines are written out, not taken from the code under test.
 */
import { execFileSync } from "node:child_process";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { findOldNode } from "../support/oldNode";
import { childEnv } from "../support/packedPackage";
import { pulumiBinDir } from "../support/pulumiCli";
import { startPluginHost, type ProviderHost } from "../support/providerHost";
import { releaseOnce } from "../support/release";
import { startTestServer, type TestServer } from "../support/server";
import { TOKENS } from "../support/seed";
import { createResource } from "./engineSteps";
import { providerConfig, SETUP_TIMEOUT_MS, TOKEN, TYPES } from "./pluginFixture";

const VERSION = require("../../package.json").version as string;

/** What each platform's archive must hold: `sea` one executable, `launcher` a script beside the bundle. */
const EXPECTED: Record<string, { kind: "sea" | "launcher"; executable: string; format?: "elf" | "pe"; machine?: number }> = {
    // ELF e_machine: 0x3e x86-64, 0xb7 AArch64; PE machine: 0x8664 x64.
    "linux-amd64": { kind: "sea", executable: "pulumi-resource-wos", format: "elf", machine: 0x3e },
    "linux-arm64": { kind: "sea", executable: "pulumi-resource-wos", format: "elf", machine: 0xb7 },
    "windows-amd64": { kind: "sea", executable: "pulumi-resource-wos.exe", format: "pe", machine: 0x8664 },
    "windows-arm64": { kind: "launcher", executable: "pulumi-resource-wos.cmd" },
    "darwin-amd64": { kind: "launcher", executable: "pulumi-resource-wos" },
    "darwin-arm64": { kind: "launcher", executable: "pulumi-resource-wos" },
};

/** The line a launcher prints without Node.js on PATH. */
const NO_NODE_LINE =
    "pulumi-resource-wos needs Node.js 22 or later on PATH, and none is there. Install Node.js 22, 24 or 26 (https://nodejs.org/en/download, or `nvm install 24`).";

let workDir: string;
/** Archive path by platform (`linux-amd64`). */
const archives: Record<string, string> = {};
/** Each archive unpacked, by platform. */
const unpacked: Record<string, string> = {};
let server: TestServer;
const hosts: ProviderHost[] = [];

beforeAll(async () => {
    workDir = fs.mkdtempSync(path.join(os.tmpdir(), "wos-plugin-pack-"));
    // The archives of the release (plugin/release.ts packs every platform with plugin/pack.ts), made once for
    // every test file that reads them.
    const release = await releaseOnce();
    for (const name of fs.readdirSync(release.dir).filter((file) => file.startsWith("pulumi-resource-wos-v"))) {
        const file = path.join(release.dir, name);
        const platform = /-v[^-]+-(\w+-\w+)\.tar\.gz$/.exec(name)?.[1] ?? name;
        archives[platform] = file;
        unpacked[platform] = path.join(workDir, "unpacked", platform);
        fs.mkdirSync(unpacked[platform]!, { recursive: true });
        execFileSync("tar", ["-xzf", file, "-C", unpacked[platform]!]);
    }
    server = await startTestServer();
}, SETUP_TIMEOUT_MS);

afterAll(async () => {
    for (const host of hosts) await host.close();
    await server?.close();
    if (workDir) fs.rmSync(workDir, { recursive: true, force: true });
});

/** Runs `bin args` with `env`, whatever its exit: status, signal and output. */
function runQuietly(bin: string, args: string[], env: NodeJS.ProcessEnv): { status: number | null; stdout: string; stderr: string } {
    try {
        const stdout = execFileSync(bin, args, { env, encoding: "utf8", stdio: ["ignore", "pipe", "pipe"], timeout: 30_000 });
        return { status: 0, stdout, stderr: "" };
    } catch (error) {
        const failed = error as { status: number | null; stdout: string; stderr: string };
        return { status: failed.status, stdout: failed.stdout, stderr: failed.stderr };
    }
}

/** A directory holding only links to `commands` (from the machine's own), for a PATH with nothing else. */
function pathOf(name: string, commands: Record<string, string>): string {
    const dir = path.join(workDir, name);
    fs.mkdirSync(dir, { recursive: true });
    for (const [command, target] of Object.entries(commands)) fs.symlinkSync(target, path.join(dir, command));
    return dir;
}

test("every platform Pulumi publishes for has an archive named as the CLI expects", () => {
    expect(Object.keys(archives).sort()).toEqual(Object.keys(EXPECTED).sort());
    for (const [platform, file] of Object.entries(archives)) {
        expect(path.basename(file)).toBe(`pulumi-resource-wos-v${VERSION}-${platform}.tar.gz`);
    }
});

describe.each(Object.keys(EXPECTED))("the %s archive", (platform) => {
    const expected = EXPECTED[platform]!;

    test(`holds ${expected.kind === "sea" ? "one executable" : "a launcher beside the bundle"} and the license at its root`, () => {
        const listing = execFileSync("tar", ["-tvzf", archives[platform]!], { encoding: "utf8" }).trim().split("\n");
        const names = listing.map((line) => line.split(/\s+/).pop()).sort();
        expect(names).toEqual(
            expected.kind === "sea" ? ["LICENSE", expected.executable].sort() : ["LICENSE", expected.executable, "pulumi-resource-wos.js"].sort(),
        );
        expect(listing.find((line) => line.endsWith(` ${expected.executable}`))).toMatch(/^-rwxr-xr-x/);
    });

    if (expected.kind === "sea") {
        test("its executable is the platform's format and architecture, with the bundle injected", () => {
            const binary = fs.readFileSync(path.join(unpacked[platform]!, expected.executable));
            if (expected.format === "elf") {
                expect(binary.subarray(0, 4)).toEqual(Buffer.from([0x7f, 0x45, 0x4c, 0x46]));
                expect(binary[4]).toBe(2); // 64-bit
                expect(binary.readUInt16LE(18)).toBe(expected.machine);
            } else {
                expect(binary.subarray(0, 2).toString("latin1")).toBe("MZ");
                const header = binary.readUInt32LE(0x3c);
                expect(binary.subarray(header, header + 4)).toEqual(Buffer.from("PE\0\0", "latin1"));
                expect(binary.readUInt16LE(header + 4)).toBe(expected.machine);
            }
            // The fuse Node.js reads at start is flipped (a blob is injected), and the blob is this version's bundle.
            expect(binary.includes("NODE_SEA_FUSE_fce680ab2cc467b6e072b8b5df1996b2:1")).toBe(true);
            expect(binary.includes("pulumi-resource-wos: missing the engine's address")).toBe(true);
            expect(binary.includes(JSON.stringify(VERSION))).toBe(true);
        });
    } else {
        test("its launcher runs the bundle beside it with the node of PATH, after checking that there is one", () => {
            const launcher = fs.readFileSync(path.join(unpacked[platform]!, expected.executable), "utf8");
            if (expected.executable.endsWith(".cmd")) {
                expect(launcher.split("\r\n")).toEqual(expect.arrayContaining(['node "%~dp0pulumi-resource-wos.js" %*', "where node >nul 2>nul"]));
                expect(launcher).toMatch(/\r\nif errorlevel 1 \(echo pulumi-resource-wos needs Node\.js 22 or later on PATH.* 1>&2& exit \/b 1\)\r\n/);
                expect(launcher).not.toMatch(/[^\r]\n/);
            } else {
                expect(launcher).toMatch(/^#!\/bin\/sh\n/);
                expect(launcher).toContain("if ! command -v node >/dev/null 2>&1; then");
                expect(launcher).toContain('exec node "$(dirname "$0")/pulumi-resource-wos.js" "$@"');
            }
            expect(fs.readFileSync(path.join(unpacked[platform]!, "pulumi-resource-wos.js"), "utf8")).toContain(JSON.stringify(VERSION));
        });
    }
});

describe("the sh launcher, run here (the darwin archives')", () => {
    const launcher = () => path.join(unpacked["darwin-arm64"]!, "pulumi-resource-wos");

    test("with no node on PATH, it exits 1 at once with one line naming the Node.js it needs", () => {
        const bin = pathOf("path-without-node", { dirname: execFileSync("sh", ["-c", "command -v dirname"], { encoding: "utf8" }).trim() });
        const ended = runQuietly(launcher(), ["127.0.0.1:1"], childEnv({ PATH: bin }));
        expect(ended).toEqual({ status: 1, stdout: "", stderr: `${NO_NODE_LINE}\n` });
    });

    test("with a Node.js older than 22 on PATH (the machine's own), it exits 1 with one line naming both", () => {
        const { bin: machineNode, version } = findOldNode();
        expect(Number(version.split(".")[0])).toBeLessThan(22);
        const dirname = execFileSync("sh", ["-c", "command -v dirname"], { encoding: "utf8" }).trim();
        const bin = pathOf("path-with-old-node", { dirname, node: machineNode });
        const ended = runQuietly(launcher(), ["127.0.0.1:1"], childEnv({ PATH: bin }));
        expect(ended).toEqual({
            status: 1,
            stdout: "",
            stderr: `pulumi-resource-wos needs Node.js 22 or later; this is Node.js ${version}. Install Node.js 22, 24 or 26 (https://nodejs.org/en/download, or \`nvm install 24\`).\n`,
        });
    });

    test("with the Node.js of .nvmrc on PATH, it is the provider", async () => {
        const host = await startPluginHost({
            executable: launcher(),
            cwd: fs.mkdtempSync(path.join(workDir, "launched-")),
            env: { PATH: `${path.dirname(process.execPath)}${path.delimiter}${process.env.PATH ?? ""}` },
        });
        hosts.push(host);
        expect(await host.getPluginInfo()).toEqual({ version: VERSION });
    });
});

test("the Linux x64 archive, installed by pulumi plugin install, is the whole provider with no node on PATH", async () => {
    const home = path.join(workDir, "pulumi-home");
    const pulumi = path.join(pulumiBinDir(), "pulumi");
    const env = childEnv({ PULUMI_HOME: home, PULUMI_SKIP_UPDATE_CHECK: "1" });
    execFileSync(pulumi, ["plugin", "install", "resource", "wos", VERSION, "--file", archives["linux-amd64"]!], { env, encoding: "utf8", stdio: "pipe" });
    const installed = path.join(home, "plugins", `resource-wos-v${VERSION}`, "pulumi-resource-wos");
    expect(fs.statSync(installed).mode & 0o111).not.toBe(0);
    expect(execFileSync(pulumi, ["plugin", "ls"], { env, encoding: "utf8" })).toMatch(new RegExp(`wos\\s+resource\\s+${VERSION.replace(/\./g, "\\.")}`));

    // As the engine runs it: from the program's directory (here one with nothing in it), and no node to find.
    const empty = fs.mkdtempSync(path.join(workDir, "program-"));
    const nothing = pathOf("path-of-nothing", {});
    const plugin = await startPluginHost({ executable: installed, cwd: empty, env: { PATH: nothing } });
    hosts.push(plugin);
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

test("the Linux arm64 executable answers the engine's GetPluginInfo and GetSchema under user-mode emulation", async () => {
    // qemu-user and the arm64 C and C++ libraries from Debian's packages (.ci/run installs them).
    const sysroot = "/usr/aarch64-linux-gnu";
    const qemu = execFileSync("sh", ["-c", "command -v qemu-aarch64 || true"], { encoding: "utf8" }).trim();
    expect({ qemu: qemu !== "", sysroot: fs.existsSync(path.join(sysroot, "lib", "ld-linux-aarch64.so.1")) }).toEqual({ qemu: true, sysroot: true });
    const wrapper = path.join(workDir, "pulumi-resource-wos-arm64");
    fs.writeFileSync(wrapper, `#!/bin/sh\nexec ${qemu} -L ${sysroot} "${path.join(unpacked["linux-arm64"]!, "pulumi-resource-wos")}" "$@"\n`, { mode: 0o755 });
    const plugin = await startPluginHost({
        executable: wrapper,
        cwd: fs.mkdtempSync(path.join(workDir, "emulated-")),
        env: { PATH: pathOf("path-of-nothing-arm64", {}) },
        // Emulated, the whole Node.js starts in seconds rather than milliseconds.
        startTimeoutMs: 120_000,
        callTimeoutMs: 120_000,
    });
    hosts.push(plugin);
    expect(await plugin.getPluginInfo()).toEqual({ version: VERSION });
    const schema = await plugin.getSchema();
    expect(schema).toMatchObject({ name: "wos", version: VERSION });
    expect(Object.keys(schema.resources)).toEqual(expect.arrayContaining(["wos:index:Project", "wos:index:NoCodeWorkspace"]));
}, 300_000);
