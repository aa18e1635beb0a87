/**
 * The release workflow (issue 28, point 5): `.github/workflows/release.yml` runs `npm run release` on a tag
 * `v<version>` and publishes the files it writes. It runs only on GitHub, so here it is checked with actionlint
 * (built by `tests/cli/setup.sh`; it also checks the inputs of the actions it knows), which is shown to catch a
 * planted mistake, and read for what it publishes: every file name it names is one `npm run release` writes
 * (tests/plugin/release.test.ts lists them).
 */
import { execFileSync } from "node:child_process";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { REPO_ROOT } from "../support/packedPackage";
import { pulumiVersion } from "../support/pulumiCli";

const WORKFLOW = path.join(REPO_ROOT, ".github", "workflows", "release.yml");
const text = fs.readFileSync(WORKFLOW, "utf8");

/** actionlint's findings on `file` (one a line), empty when it passes. */
function actionlint(file: string): { status: number; findings: string } {
    const binary = path.join(REPO_ROOT, ".pulumi-cli", `v${pulumiVersion()}`, "tools", "actionlint-1.7.12");
    try {
        execFileSync(binary, ["-no-color", "-oneline", file], { encoding: "utf8", stdio: ["ignore", "pipe", "pipe"] });
        return { status: 0, findings: "" };
    } catch (error) {
        const failed = error as { status: number; stdout: string };
        return { status: failed.status, findings: failed.stdout };
    }
}

test("actionlint finds nothing in the release workflow", () => {
    expect(actionlint(WORKFLOW)).toEqual({ status: 0, findings: "" });
});

test("actionlint catches a planted mistake (an input the checkout action does not have): the check is real", () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "wos-workflow-"));
    try {
        const planted = path.join(dir, "release.yml");
        fs.writeFileSync(planted, text.replace("          fetch-depth: 0\n", "          fetch-depth: 0\n          fetch-everything: true\n"));
        const { status, findings } = actionlint(planted);
        expect(status).toBe(1);
        expect(findings).toMatch(/input "fetch-everything" is not defined in action "actions\/checkout@v4"/);
    } finally {
        fs.rmSync(dir, { recursive: true, force: true });
    }
});

test("it runs on a tag v<version> checked against package.json, on the Node.js of .nvmrc, and makes the release with npm run release", () => {
    expect(text).toMatch(/on:\n {2}push:\n {4}tags: \["v\*"\]/);
    expect(text).toContain('if [ "$GITHUB_REF_NAME" != "v$version" ]; then');
    expect(text).toContain("node-version-file: .nvmrc");
    expect(text).toContain("run: npm run release\n");
    expect(text).toContain("sha256sum --check --quiet SHA256SUMS");
});

test("it publishes what npm run release writes: both npm tarballs, the wheel and the sdist, the archives, the schema and the sums, and tags the Go module", () => {
    for (const name of ["pulumi-wos-$VERSION.tgz", "pulumi-wos-server-$VERSION.tgz"]) {
        expect(text).toMatch(new RegExp(`npm publish --provenance --access public "dist/release/v\\$VERSION/${name.replace(/[.$]/g, "\\$&")}"`));
    }
    expect(text).toContain('"dist/release/v$VERSION/pulumi_wos-$VERSION-py3-none-any.whl" "dist/release/v$VERSION/pulumi_wos-$VERSION.tar.gz" dist/pypi/');
    expect(text).toContain("uses: pypa/gh-action-pypi-publish@release/v1");
    expect(text).toContain('pulumi-resource-wos-v"$VERSION"-*.tar.gz schema.json SHA256SUMS');
    // The Go module lives in sdks/go: its versions are tags with that prefix.
    expect(fs.readFileSync(path.join(REPO_ROOT, "sdks", "go", "go.mod"), "utf8")).toMatch(/^module github\.com\/pulumi-wos\/pulumi-wos\/sdks\/go$/m);
    expect(text).toContain('git tag "sdks/go/v$VERSION" "$GITHUB_SHA"');
});
