/**
 * One release, one version (issue 28, points 1 and 5): `npm run release` (plugin/release.ts) writes every artifact of
 * the version of the root `package.json` into `dist/release/v<version>/`, and each one says that version: the two
 * npm tarballs, `schema.json`, the plugin's archives (by name, and the executable's own `GetPluginInfo`), the
 * Python wheel and sdist (their metadata and `pulumi-plugin.json`), the Go module (its proxy files and the SDK's
 * own version). `SHA256SUMS` covers every other file. The wheel and the sdist install with pip from the file;
 * `go get` takes the Go module from the release's proxy at `v<version>`, and a program builds on it.
 */
import { createHash } from "node:crypto";
import { execFileSync } from "node:child_process";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { REPO_ROOT } from "../support/packedPackage";
import { startPluginHost } from "../support/providerHost";
import { releaseOnce, type Release } from "../support/release";
import { goProgramOnRelease, pythonEnvironmentInstalling, runCommand, SDKS_DIR } from "../languages/languageTools";

jest.setTimeout(300_000);

/** The one version source. */
const VERSION = (JSON.parse(fs.readFileSync(path.join(REPO_ROOT, "package.json"), "utf8")) as { version: string }).version;
/** The Go SDK's module path, as its go.mod names it. */
const GO_MODULE = "github.com/pulumi-wos/pulumi-wos/sdks/go";
const PLATFORMS = ["darwin-amd64", "darwin-arm64", "linux-amd64", "linux-arm64", "windows-amd64", "windows-arm64"];

let release: Release;
let scratch: string;

beforeAll(async () => {
    release = await releaseOnce();
    scratch = fs.mkdtempSync(path.join(os.tmpdir(), "wos-release-test-"));
}, 20 * 60_000);

afterAll(() => {
    if (scratch) fs.rmSync(scratch, { recursive: true, force: true });
});

/** Every file of the release, relative, `/`-separated, sorted. */
function releaseFiles(): string[] {
    return (fs.readdirSync(release.dir, { recursive: true, encoding: "utf8" }) as string[])
        .filter((entry) => fs.statSync(path.join(release.dir, entry)).isFile())
        .map((entry) => entry.split(path.sep).join("/"))
        .sort();
}

/** A member of a zip file (a wheel, the Go module), read with Python's zipfile. */
function zipMember(zip: string, member: string): string {
    return execFileSync("python3", ["-c", "import sys, zipfile; sys.stdout.write(zipfile.ZipFile(sys.argv[1]).read(sys.argv[2]).decode())", zip, member], {
        encoding: "utf8",
    });
}

/** A member of a gzipped tarball. */
function tarMember(tarball: string, member: string): string {
    return execFileSync("tar", ["-xzOf", tarball, member], { encoding: "utf8" });
}

test("the release is the version's folder with every artifact, and nothing else", () => {
    expect(path.basename(release.dir)).toBe(`v${VERSION}`);
    const goVersions = `goproxy/${GO_MODULE}/@v`;
    expect(releaseFiles()).toEqual(
        [
            "SHA256SUMS",
            `${goVersions}/list`,
            `${goVersions}/v${VERSION}.info`,
            `${goVersions}/v${VERSION}.mod`,
            `${goVersions}/v${VERSION}.zip`,
            ...PLATFORMS.map((platform) => `pulumi-resource-wos-v${VERSION}-${platform}.tar.gz`),
            `pulumi-wos-${VERSION}.tgz`,
            `pulumi-wos-server-${VERSION}.tgz`,
            `pulumi_wos-${VERSION}-py3-none-any.whl`,
            `pulumi_wos-${VERSION}.tar.gz`,
            "openapi.json",
            "schema.json",
        ].sort(),
    );
});

test("SHA256SUMS holds the right checksum of every other file, in sha256sum's format", () => {
    const lines = fs.readFileSync(path.join(release.dir, "SHA256SUMS"), "utf8").trimEnd().split("\n");
    const listed = Object.fromEntries(lines.map((line) => /^([0-9a-f]{64})  (.+)$/.exec(line)!.slice(1, 3).reverse()));
    expect(Object.keys(listed).sort()).toEqual(releaseFiles().filter((file) => file !== "SHA256SUMS"));
    for (const [file, sum] of Object.entries(listed)) {
        expect({ file, sum: createHash("sha256").update(fs.readFileSync(path.join(release.dir, file))).digest("hex") }).toEqual({ file, sum });
    }
    expect(execFileSync("sha256sum", ["--check", "--quiet", "SHA256SUMS"], { cwd: release.dir, encoding: "utf8" })).toBe("");
});

test("every artifact says the version of the root package.json", async () => {
    const said: Record<string, string> = {};
    for (const tarball of [`pulumi-wos-${VERSION}.tgz`, `pulumi-wos-server-${VERSION}.tgz`]) {
        said[tarball] = JSON.parse(tarMember(path.join(release.dir, tarball), "package/package.json")).version;
    }
    said["schema.json"] = JSON.parse(fs.readFileSync(path.join(release.dir, "schema.json"), "utf8")).version;
    // The archives as the release names them (the CLI asks for them by these names).
    const archives = fs.readdirSync(release.dir).filter((name) => name.startsWith("pulumi-resource-wos-v"));
    expect(archives).toHaveLength(PLATFORMS.length);
    for (const name of archives) said[name] = /^pulumi-resource-wos-v(.+)-\w+-\w+\.tar\.gz$/.exec(name)![1]!;
    const wheel = path.join(release.dir, `pulumi_wos-${VERSION}-py3-none-any.whl`);
    said["wheel METADATA"] = /^Version: (.+)$/m.exec(zipMember(wheel, `pulumi_wos-${VERSION}.dist-info/METADATA`))![1]!;
    said["wheel pulumi-plugin.json"] = JSON.parse(zipMember(wheel, "pulumi_wos/pulumi-plugin.json")).version;
    const sdist = path.join(release.dir, `pulumi_wos-${VERSION}.tar.gz`);
    said["sdist PKG-INFO"] = /^Version: (.+)$/m.exec(tarMember(sdist, `pulumi_wos-${VERSION}/PKG-INFO`))![1]!;
    const goVersions = path.join(release.dir, "goproxy", ...GO_MODULE.split("/"), "@v");
    said["go .info"] = JSON.parse(fs.readFileSync(path.join(goVersions, `v${VERSION}.info`), "utf8")).Version.replace(/^v/, "");
    const goZip = path.join(goVersions, `v${VERSION}.zip`);
    said["go pulumi-plugin.json"] = JSON.parse(zipMember(goZip, `${GO_MODULE}@v${VERSION}/wos/pulumi-plugin.json`)).version;
    said["go SDK version"] = /semver\.MustParse\("([^"]+)"\)/.exec(zipMember(goZip, `${GO_MODULE}@v${VERSION}/wos/internal/pulumiUtilities.go`))![1]!;

    // The plugin itself, as the engine asks it: the Linux x64 executable of the release.
    const unpacked = path.join(scratch, "linux-amd64");
    fs.mkdirSync(unpacked);
    execFileSync("tar", ["-xzf", path.join(release.dir, `pulumi-resource-wos-v${VERSION}-linux-amd64.tar.gz`), "-C", unpacked]);
    const host = await startPluginHost({ executable: path.join(unpacked, "pulumi-resource-wos"), cwd: unpacked });
    try {
        said["GetPluginInfo"] = (await host.getPluginInfo()).version;
        said["GetSchema"] = (await host.getSchema()).version;
    } finally {
        await host.close();
    }
    expect(said).toEqual(Object.fromEntries(Object.keys(said).map((artifact) => [artifact, VERSION])));
});

test("openapi.json is the description the server package ships, at the release's version", () => {
    const released = fs.readFileSync(path.join(release.dir, "openapi.json"), "utf8");
    expect(released).toBe(tarMember(path.join(release.dir, `pulumi-wos-server-${VERSION}.tgz`), "package/openapi.json"));
    const description = JSON.parse(released) as { openapi: string; info: { version: string }; paths: Record<string, unknown> };
    expect(description.openapi).toBe("3.1.0");
    expect(description.info.version).toBe(VERSION);
    expect(Object.keys(description.paths)).toEqual(expect.arrayContaining(["/api/v2/projects/{id}", "/_admin/faults"]));
});

test("the wheel carries the README, the license and pulumi-plugin.json with the download URL", () => {
    const wheel = path.join(release.dir, `pulumi_wos-${VERSION}-py3-none-any.whl`);
    const metadata = zipMember(wheel, `pulumi_wos-${VERSION}.dist-info/METADATA`);
    expect(metadata).toContain("Description-Content-Type: text/markdown");
    expect(metadata).toContain(fs.readFileSync(path.join(SDKS_DIR, "python", "README.md"), "utf8").trim().split("\n")[0]!);
    expect(zipMember(wheel, `pulumi_wos-${VERSION}.dist-info/licenses/LICENSE`)).toBe(fs.readFileSync(path.join(REPO_ROOT, "LICENSE"), "utf8"));
    expect(JSON.parse(zipMember(wheel, "pulumi_wos/pulumi-plugin.json"))).toEqual({
        resource: true,
        name: "wos",
        version: VERSION,
        server: "github://api.github.com/pulumi-wos/pulumi-wos",
    });
});

test.each([`pulumi_wos-${VERSION}-py3-none-any.whl`, `pulumi_wos-${VERSION}.tar.gz`])("pip installs %s from the file, at the version", async (artifact) => {
    // The dependencies (pulumi, parver, semver) come from the tests' cached environment; the package from the file.
    const venv = await pythonEnvironmentInstalling(path.join(scratch, `venv-${artifact}`), [
        "install",
        "--no-index",
        "--no-build-isolation",
        path.join(release.dir, artifact),
    ]);
    const { stdout } = await runCommand(
        path.join(venv, "bin", "python"),
        ["-c", "import importlib.metadata, pulumi_wos; print(importlib.metadata.version('pulumi_wos')); print(pulumi_wos.Project.__name__)"],
        { cwd: scratch },
    );
    expect(stdout.trim().split("\n")).toEqual([VERSION, "Project"]);
});

test("go get takes the SDK module at v<version> from the release's proxy, and a program builds on it", async () => {
    const program = path.join(scratch, "go-program");
    fs.mkdirSync(program);
    const env = await goProgramOnRelease(program, release.dir, VERSION, "Released");
    expect(fs.readFileSync(path.join(program, "go.mod"), "utf8")).toContain(`${GO_MODULE} v${VERSION}`);
    await runCommand("go", ["build", "-o", path.join(program, "program"), "."], { cwd: program, env, timeoutMs: 5 * 60_000 });
    expect(fs.statSync(path.join(program, "program")).isFile()).toBe(true);
});
