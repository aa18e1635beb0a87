/**
 * The API reference (`npm run docs`: TypeDoc over the entry points `pulumi-wos`, `pulumi-wos/sdk` and
 * `pulumi-wos/testing`, configured by `typedoc.json`) builds without a warning: every exported name and
 * field has TSDoc, every `{@link}` resolves, and nothing public refers to a name left out of the reference.
 * It is built into a temporary folder; and the same configuration is shown to fail on an undocumented
 * export, so the check cannot pass by being lenient.
 */
import { execFile } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";

const ROOT = resolve(__dirname, "../..");
const TYPEDOC = join(ROOT, "node_modules/typedoc/bin/typedoc");

let workDir: string;

beforeAll(() => {
    workDir = mkdtempSync(join(tmpdir(), "wos-docs-"));
});

afterAll(() => {
    rmSync(workDir, { recursive: true, force: true });
});

/** Runs the TypeDoc CLI in the repository with `args`; answers its exit code and output (colours off). */
function typedoc(args: string[]): Promise<{ code: number; output: string }> {
    return new Promise((done) => {
        execFile(
            process.execPath,
            [TYPEDOC, ...args],
            { cwd: ROOT, env: { ...process.env, NO_COLOR: "1", FORCE_COLOR: "0" }, maxBuffer: 64 * 1024 * 1024 },
            (error, stdout, stderr) => {
                const code = error ? (typeof error.code === "number" ? error.code : 1) : 0;
                done({ code, output: `${stdout}${stderr}`.replace(/\x1b\[[0-9;]*m/g, "") });
            },
        );
    });
}

describe("npm run docs", () => {
    test("package.json's docs script is TypeDoc with the repository's typedoc.json, into api-reference/ (ignored by git)", () => {
        const pkg = JSON.parse(readFileSync(join(ROOT, "package.json"), "utf8")) as { scripts: Record<string, string> };
        expect(pkg.scripts.docs).toBe("typedoc");
        const config = JSON.parse(readFileSync(join(ROOT, "typedoc.json"), "utf8")) as Record<string, unknown>;
        expect(config).toMatchObject({
            out: "api-reference",
            entryPoints: ["provider/index.ts", "sdk/index.ts", "testing/index.ts"],
            treatWarningsAsErrors: true,
            validation: { notExported: true, invalidLink: true, notDocumented: true },
        });
        expect(readFileSync(join(ROOT, ".gitignore"), "utf8").split("\n")).toContain("api-reference/");
    });

    // TypeDoc compiles the whole package: a generous limit for a loaded 2-core machine.
    test("builds the reference of every entry point without a single warning", async () => {
        const out = join(workDir, "reference");
        const { code, output } = await typedoc(["--out", out]);
        expect({ code, warnings: output.split("\n").filter((line) => /\[(warning|error)\]/.test(line)) }).toEqual({ code: 0, warnings: [] });
        // The three entry points, and a page for the main names of each.
        const index = readFileSync(join(out, "index.html"), "utf8");
        for (const module of ["provider", "sdk", "testing"]) expect(index).toContain(module);
        for (const page of [
            "classes/sdk.WosClient.html",
            "classes/provider.Project.html",
            "interfaces/sdk.Project.html",
            "interfaces/sdk.WosClientOptions.html",
            "classes/sdk.WosAuthenticationError.html",
        ]) {
            expect({ page, exists: existsSync(join(out, page)) }).toEqual({ page, exists: true });
        }
        // A zod-derived type shows its fields with their TSDoc.
        const project = readFileSync(join(out, "interfaces/sdk.Project.html"), "utf8");
        expect(project).toContain("workspaceCount");
        expect(project).toContain("How many workspaces the project holds");
    }, 240_000);

    test("the same configuration fails on an export without TSDoc, naming it", async () => {
        const entry = join(workDir, "undocumented.ts");
        writeFileSync(entry, "/** A documented export. */\nexport const documented = 1;\nexport const forgotten = 2;\n");
        writeFileSync(
            join(workDir, "tsconfig.json"),
            JSON.stringify({ compilerOptions: { strict: true, module: "commonjs", target: "ES2022", types: [] }, files: [entry] }),
        );
        // The repository's settings (validation, warnings as errors) over this one file instead of the package.
        const { tsconfig: _tsconfig, entryPoints: _entryPoints, out: _out, intentionallyNotDocumented: _names, ...settings } = JSON.parse(
            readFileSync(join(ROOT, "typedoc.json"), "utf8"),
        ) as Record<string, unknown>;
        expect(settings).toMatchObject({ treatWarningsAsErrors: true, validation: { notDocumented: true } });
        writeFileSync(join(workDir, "typedoc.json"), JSON.stringify(settings));
        const { code, output } = await typedoc([
            "--options", join(workDir, "typedoc.json"),
            "--tsconfig", join(workDir, "tsconfig.json"),
            "--entryPoints", entry,
            "--out", join(workDir, "failed"),
        ]);
        expect(code).not.toBe(0);
        expect(output).toMatch(/forgotten \(Variable\).*does not have any documentation/);
        expect(output).not.toMatch(/\bdocumented \(Variable\).*does not have any documentation/);
        expect(existsSync(join(workDir, "failed", "index.html"))).toBe(false);
    }, 240_000);
});
