/**
 * `npm run release`: every artifact of one version, from one build, in `dist/release/v<version>/`, with one
 * version source, the root `package.json` (the plugin, its schema and the SDKs generated from it take theirs
 * from there):
 *
 * - the npm tarballs `pulumi-wos-<version>.tgz` and `pulumi-wos-server-<version>.tgz` (`npm pack`);
 * - `schema.json`, the plugin's package schema;
 * - `openapi.json`, the OpenAPI description of the service (server/openapi), as `@pulumi-wos/server` ships it;
 * - the plugin's archives, one per platform (`pulumi-resource-wos-v<version>-<os>-<arch>.tar.gz`, plugin/pack.ts):
 *   the assets the CLI downloads from the GitHub release the schema's `pluginDownloadURL` names;
 * - the Python SDK as a wheel and an sdist (`python -m build` of `sdks/python`, with the license);
 * - the Go SDK as the module version `v<version>` in the layout of a Go module proxy, under `goproxy/`
 *   (`GOPROXY=file://…/goproxy` serves it; tools/gomodproxy);
 * - `SHA256SUMS` over all of them (`sha256sum -c SHA256SUMS` checks them).
 *
 * It needs Python 3 with `venv` (the build tools are installed once, pinned, into `.release/python`) and Go; the
 * plugin's executables need this Node.js to be `.nvmrc`'s. `npm run release` builds afresh first; run alone,
 * `node dist/plugin/release.js [output-directory]` takes the build as it is.
 *
 * @module
 */
import { createHash } from "node:crypto";
import { execFileSync } from "node:child_process";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { packPlugin } from "./pack";
import { pluginVersion } from "./pluginVersion";
import { openApiText } from "../server/openapi/write";
import { wosPackageSchema } from "./schema";

/** The repository's root: `dist/plugin/` is two folders down. */
const ROOT = path.resolve(__dirname, "..", "..");

/** The Python build tools, pinned: what `python -m build` of the SDK runs on, without build isolation. */
export const PYTHON_BUILD_REQUIREMENTS = ["build==1.3.0", "setuptools==80.9.0", "wheel==0.45.1", "packaging==25.0", "pyproject_hooks==1.2.0"];

/** The checksum file's name. */
export const CHECKSUMS = "SHA256SUMS";

/** Runs a command to its end, its output kept for the error it throws on failure. */
function run(command: string, args: string[], options: { cwd?: string; env?: NodeJS.ProcessEnv } = {}): string {
    try {
        return execFileSync(command, args, { cwd: options.cwd ?? ROOT, env: options.env ?? process.env, encoding: "utf8", stdio: ["ignore", "pipe", "pipe"] });
    } catch (error) {
        const failed = error as { stdout?: string; stderr?: string; message: string };
        throw new Error(`${command} ${args.join(" ")} failed: ${failed.message.split("\n")[0]}\n${failed.stdout ?? ""}${failed.stderr ?? ""}`);
    }
}

/** A virtual environment with {@link PYTHON_BUILD_REQUIREMENTS}, made once in `.release/python`; its python. */
function pythonBuildEnvironment(): string {
    const venv = path.join(ROOT, ".release", "python");
    const python = path.join(venv, "bin", "python");
    const stamp = path.join(venv, ".requirements");
    const wanted = PYTHON_BUILD_REQUIREMENTS.join(" ");
    if (fs.existsSync(python) && fs.existsSync(stamp) && fs.readFileSync(stamp, "utf8") === wanted) return python;
    fs.rmSync(venv, { recursive: true, force: true });
    run("python3", ["-m", "venv", venv]);
    run(python, ["-m", "pip", "install", "--quiet", "--disable-pip-version-check", ...PYTHON_BUILD_REQUIREMENTS]);
    fs.writeFileSync(stamp, wanted);
    return python;
}

/** The wheel and the sdist of `sdks/python`, with the repository's license, into `out`. */
function buildPythonSdk(out: string): void {
    const copy = fs.mkdtempSync(path.join(os.tmpdir(), "wos-release-python-"));
    try {
        fs.cpSync(path.join(ROOT, "sdks", "python"), copy, { recursive: true });
        // setuptools puts a LICENSE found at the project's root into both (its default license-files).
        fs.copyFileSync(path.join(ROOT, "LICENSE"), path.join(copy, "LICENSE"));
        run(pythonBuildEnvironment(), ["-m", "build", "--no-isolation", "--sdist", "--wheel", "--outdir", out, copy]);
    } finally {
        fs.rmSync(copy, { recursive: true, force: true });
    }
}

/** tools/gomodproxy built once per content of its sources, into `.release/gomodproxy/<hash>/`; its path. */
function goModuleProxyWriter(): string {
    const source = path.join(ROOT, "tools", "gomodproxy");
    const hash = createHash("sha256");
    for (const name of ["go.mod", "go.sum", "main.go"]) hash.update(fs.readFileSync(path.join(source, name)));
    const dir = path.join(ROOT, ".release", "gomodproxy", hash.digest("hex").slice(0, 16));
    const binary = path.join(dir, "gomodproxy");
    if (!fs.existsSync(binary)) {
        fs.mkdirSync(dir, { recursive: true });
        run("go", ["build", "-o", `${binary}.tmp`, "."], { cwd: source });
        fs.renameSync(`${binary}.tmp`, binary);
    }
    return binary;
}

/** The time of the commit being released (so that a release made again writes the same Go `.info`), else now. */
function commitTime(): string {
    try {
        return new Date(run("git", ["log", "-1", "--format=%cI"]).trim()).toISOString().replace(/\.\d{3}Z$/, "Z");
    } catch {
        return new Date().toISOString().replace(/\.\d{3}Z$/, "Z");
    }
}

/** Every file under `dir`, as `/`-separated paths relative to it, sorted. */
function filesUnder(dir: string): string[] {
    return (fs.readdirSync(dir, { recursive: true, encoding: "utf8" }) as string[])
        .filter((entry) => fs.statSync(path.join(dir, entry)).isFile())
        .map((entry) => entry.split(path.sep).join("/"))
        .sort();
}

/** `SHA256SUMS` in `sha256sum`'s format over every file of `dir` but itself. */
function writeChecksums(dir: string): void {
    const lines = filesUnder(dir)
        .filter((file) => file !== CHECKSUMS)
        .map((file) => `${createHash("sha256").update(fs.readFileSync(path.join(dir, file))).digest("hex")}  ${file}`);
    fs.writeFileSync(path.join(dir, CHECKSUMS), `${lines.join("\n")}\n`);
}

/** Writes the release of the built version into `outputRoot/v<version>/` (emptied first); answers that folder. */
export async function writeRelease(outputRoot = path.join(ROOT, "dist", "release")): Promise<string> {
    const version = pluginVersion();
    const out = path.join(outputRoot, `v${version}`);
    fs.rmSync(out, { recursive: true, force: true });
    fs.mkdirSync(out, { recursive: true });
    for (const workspace of [[], ["--workspace", "server"]]) {
        run("npm", ["pack", "--ignore-scripts", "--silent", "--pack-destination", out, ...workspace]);
    }
    fs.writeFileSync(path.join(out, "schema.json"), `${JSON.stringify(wosPackageSchema, null, 2)}\n`);
    fs.writeFileSync(path.join(out, "openapi.json"), openApiText());
    await packPlugin(out);
    buildPythonSdk(out);
    run(goModuleProxyWriter(), ["-dir", path.join(ROOT, "sdks", "go"), "-version", `v${version}`, "-time", commitTime(), "-out", path.join(out, "goproxy")]);
    writeChecksums(out);
    return out;
}

if (require.main === module) {
    writeRelease(process.argv[2] ? path.resolve(process.argv[2]) : undefined).then(
        (out) => process.stdout.write(`${out}\n`),
        (failure: unknown) => {
            process.stderr.write(`release: ${failure instanceof Error ? failure.message : String(failure)}\n`);
            process.exit(1);
        },
    );
}
