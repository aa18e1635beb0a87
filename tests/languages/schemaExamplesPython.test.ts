/**
 * The Python example of every resource, component and function of the package schema (what the Python SDK's
 * docstrings show), run through the real CLI on the generated SDK (sdks/python, installed with pip into a fresh
 * environment) as a user runs it ({@link schemaExampleRunTests}).
 */
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { pulumiBinDir } from "../support/pulumiCli";
import { pythonEnvironmentWithSdk } from "./languageTools";
import { schemaExampleRunTests } from "./schemaExampleRuns";

let environmentDir: string | undefined;
afterAll(() => {
    if (environmentDir) fs.rmSync(environmentDir, { recursive: true, force: true });
});

schemaExampleRunTests({
    language: "python",
    writeProgram: (dir, name, code) => {
        fs.writeFileSync(path.join(dir, "Pulumi.yaml"), `name: ${name}\nruntime: python\n`);
        fs.writeFileSync(path.join(dir, "__main__.py"), code);
    },
    // The language host finds the environment's pulumi only with the environment's bin first on PATH.
    environment: async () => {
        environmentDir = fs.mkdtempSync(path.join(os.tmpdir(), "wos-python-examples-"));
        const venv = await pythonEnvironmentWithSdk(path.join(environmentDir, "venv"));
        return { PATH: [path.join(venv, "bin"), pulumiBinDir(), process.env.PATH ?? ""].join(path.delimiter) };
    },
});
