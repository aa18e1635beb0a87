/**
 * `examples/testing/automation.ts`, the Automation API recipe of docs/reference.md, run for real: compiled as a user
 * compiles it, against the packed packages, with the Pulumi CLI that `tests/cli/setup.sh` builds on the PATH.
 * It starts its own local service (`pulumi-wos/testing`), deploys `examples/testing`, checks what it made,
 * previews and refreshes with no changes expected, destroys and checks that nothing is left; any failed
 * check exits non-zero.
 */
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import * as ts from "typescript";
import { childEnv, packedProgram, REPO_ROOT, run } from "../support/packedPackage";
import { pulumiBinDir } from "../support/pulumiCli";

const EXAMPLE_DIR = path.join(REPO_ROOT, "examples", "testing");

test("deploys, checks and destroys the example against a local service it starts itself", async () => {
    const program = await packedProgram();
    const dir = fs.mkdtempSync(path.join(program.dir, "automation-"));
    const home = fs.mkdtempSync(path.join(os.tmpdir(), "wos-automation-home-"));
    try {
        for (const file of ["index.ts", "automation.ts", "Pulumi.yaml", "package.json", "tsconfig.json"]) {
            fs.copyFileSync(path.join(EXAMPLE_DIR, file), path.join(dir, file));
        }
        const source = fs.readFileSync(path.join(dir, "automation.ts"), "utf8");
        const compiled = ts.transpileModule(source, {
            compilerOptions: { module: ts.ModuleKind.CommonJS, target: ts.ScriptTarget.ES2020, esModuleInterop: true },
        });
        fs.writeFileSync(path.join(dir, "automation.js"), compiled.outputText);

        const { stdout, stderr } = await run(process.execPath, ["automation.js", "."], {
            cwd: dir,
            what: "node automation.js",
            timeoutMs: 240_000,
            env: childEnv({
                PATH: `${pulumiBinDir()}${path.delimiter}${process.env.PATH ?? ""}`,
                PULUMI_HOME: home,
                PULUMI_SKIP_UPDATE_CHECK: "1",
                PULUMI_DISABLE_AUTOMATIC_PLUGIN_ACQUISITION: "true",
            }),
        });
        expect(stdout).toMatch(/Resources:\s+\+ \d+ created/);
        expect(stdout).toMatch(/Resources:\s+- \d+ deleted/);
        expect(stdout).toMatch(/^deployed, checked and destroyed against the local service$/m);
        expect(stdout + stderr).not.toMatch(/team-platform-secret/);
    } finally {
        fs.rmSync(dir, { recursive: true, force: true });
        fs.rmSync(home, { recursive: true, force: true });
    }
}, 300_000);
