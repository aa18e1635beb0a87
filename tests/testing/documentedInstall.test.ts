/**
 * "Testing your program" as a new user follows it today: the README's install commands typed in an empty
 * project, with `pulumi-wos` and `@pulumi-wos/server` from the packed tarballs and everything else as npm
 * resolves those commands from the registry now; then the example's files (`examples/testing/`) and its
 * jest test, run with the jest that was installed. The commands are read from the README, so the test
 * follows what it says.
 */
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { childEnv, packedPackages, REPO_ROOT, run, SERVER_PACKAGE } from "../support/packedPackage";

/** The `npm install` lines of the first `sh` block of the README's "Testing your program". */
function documentedInstallCommands(): string[][] {
    const readme = fs.readFileSync(path.join(REPO_ROOT, "README.md"), "utf8");
    const section = readme.slice(readme.indexOf("## Testing your program"));
    const block = /```sh\n([^]*?)```/.exec(section);
    if (!block) throw new Error("README's 'Testing your program' has no sh block");
    return block[1]!
        .split("\n")
        .map((line) => line.trim())
        .filter((line) => line.startsWith("npm install"))
        .map((line) => line.split(/\s+/).slice(2));
}

test("the README's install commands, typed in an empty project, give a setup whose example jest test passes", async () => {
    const packed = await packedPackages();
    const project = fs.mkdtempSync(path.join(os.tmpdir(), "wos-documented-install-"));
    try {
        fs.writeFileSync(path.join(project, "package.json"), JSON.stringify({ name: "my-infra", private: true }));
        const commands = documentedInstallCommands();
        expect(commands.length).toBe(2);
        for (const args of commands) {
            // The two packages of this repository from their tarballs, as `npm publish` would upload them.
            const resolved = args.map((arg) => (arg === "pulumi-wos" ? packed.tarballs.resources : arg === SERVER_PACKAGE ? packed.tarballs.server : arg));
            // --ignore-scripts: as npm will install by default once it stops running unapproved install scripts.
            await run("npm", ["install", ...resolved, "--ignore-scripts", "--prefer-offline", "--no-audit", "--no-fund", "--loglevel=error"], {
                cwd: project,
                what: `npm install ${args.join(" ")}`,
                timeoutMs: 600_000,
            });
        }
        for (const file of ["index.ts", "index.test.ts", "refused.test.ts", "automation.ts", "tsconfig.json", "jest.config.js"]) {
            fs.copyFileSync(path.join(REPO_ROOT, "examples", "testing", file), path.join(project, file));
        }
        const installed = (name: string) => JSON.parse(fs.readFileSync(path.join(project, "node_modules", name, "package.json"), "utf8")).version as string;
        // What npm resolved: the majors the README asks for.
        expect(installed("jest")).toMatch(/^29\./);
        expect(installed("typescript")).toMatch(/^5\./);
        const { stdout, stderr } = await run(process.execPath, [path.join(project, "node_modules", "jest", "bin", "jest.js"), "--ci"], {
            cwd: project,
            what: "the example's jest test in the documented setup",
            timeoutMs: 300_000,
            env: childEnv(),
        });
        expect(stdout + stderr).toMatch(/Tests:\s+\d+ passed, \d+ total/);
        expect(stdout + stderr).not.toMatch(/failed/);
    } finally {
        fs.rmSync(project, { recursive: true, force: true });
    }
}, 900_000);
