/**
 * A Pulumi Python program (`tests/languages/python-project`) on the generated SDK (sdks/python, installed with pip
 * into a fresh environment) and the native plugin, through the real CLI: the whole no-code life against the real
 * `wos-server` ({@link programLifecycleTests}). The Python language host of sdk 3.68 finds the environment's
 * `pulumi` only with the environment's bin first on PATH (its `virtualenv` option alone did not), as here.
 */
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { pulumiBinDir } from "../support/pulumiCli";
import { programLifecycleTests } from "./programLifecycle";
import { pythonEnvironmentWithSdk } from "./languageTools";

let environmentDir: string | undefined;
afterAll(() => {
    if (environmentDir) fs.rmSync(environmentDir, { recursive: true, force: true });
});

programLifecycleTests({
    source: path.join(__dirname, "python-project"),
    language: "python",
    projectDescription: "Buckets made by a Pulumi Python program",
    archiveKey: "python-archive-key-8e2d47",
    environment: async () => {
        environmentDir = fs.mkdtempSync(path.join(os.tmpdir(), "wos-python-program-"));
        const venv = await pythonEnvironmentWithSdk(path.join(environmentDir, "venv"));
        return { PATH: [path.join(venv, "bin"), pulumiBinDir(), process.env.PATH ?? ""].join(path.delimiter) };
    },
});
