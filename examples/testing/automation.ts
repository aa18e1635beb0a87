/**
 * The real `pulumi up` in a pipeline, against a local service started in the pipeline's own process: Pulumi's
 * Automation API (`LocalWorkspace`) drives the Pulumi CLI on this program, with its state in a temporary
 * directory (`PULUMI_BACKEND_URL=file://…`, what `pulumi login --local` does) and its `wos:address` /
 * `wos:token` pointing at `startLocalService()`. The provider host the CLI starts reaches the service over
 * 127.0.0.1, as it would reach a remote one.
 *
 * It needs the Pulumi CLI on the PATH (https://www.pulumi.com/docs/install/); `npm install` in this
 * directory provides the rest. Run it with:
 *
 *     npx ts-node automation.ts [PROGRAM_DIR]     # default: the current directory
 *
 * (In the pulumi-wos repository the test suite runs this file with a Pulumi CLI it builds for its own tests.)
 */
import * as assert from "node:assert/strict";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { LocalWorkspace } from "@pulumi/pulumi/automation";
import { WosClient } from "pulumi-wos/sdk";
import { startLocalService } from "pulumi-wos/testing";

/**
 * Deploys the program in `programDir` to a fresh local service, checks what it made, checks that a second
 * deployment and a refresh change nothing, destroys it and checks that it is gone.
 */
export async function deployAgainstLocalService(programDir: string): Promise<void> {
    const service = await startLocalService();
    const stateDir = fs.mkdtempSync(path.join(os.tmpdir(), "pulumi-state-"));
    try {
        const stack = await LocalWorkspace.createOrSelectStack(
            { stackName: "ci", workDir: programDir },
            {
                envVars: {
                    // `pulumi login --local`, in a directory of its own: no Pulumi Cloud account, nothing left behind.
                    PULUMI_BACKEND_URL: `file://${stateDir}`,
                    // The local backend encrypts the stack's secrets (here `wos:token`) with a passphrase.
                    PULUMI_CONFIG_PASSPHRASE: "only-for-this-pipeline",
                },
            },
        );
        await stack.setAllConfig({
            "wos:address": { value: service.address },
            "wos:token": { value: service.tokens.platform, secret: true },
        });

        const up = await stack.up({ onOutput: (text) => process.stdout.write(text) });
        assert.equal(up.summary.result, "succeeded");

        // What the program made, read back from the service.
        const client = new WosClient({ address: service.address, token: service.tokens.platform });
        const projectId = up.outputs.checkoutProjectId.value as string;
        const project = await client.projects.read(projectId);
        assert.equal(project.name, "Checkout");

        // A second `up` and a `refresh` find nothing to do: the provider reads back what it wrote.
        await stack.preview({ expectNoChanges: true });
        await stack.refresh({ expectNoChanges: true });

        await stack.destroy({ onOutput: (text) => process.stdout.write(text) });
        const left = await client.projects.list("acme", { names: ["Checkout"] });
        assert.equal(left.items.length, 0);
        await stack.workspace.removeStack("ci");
    } finally {
        await service.stop();
        fs.rmSync(stateDir, { recursive: true, force: true });
    }
}

if (require.main === module) {
    deployAgainstLocalService(path.resolve(process.argv[2] ?? ".")).then(
        () => console.log("deployed, checked and destroyed against the local service"),
        (error: unknown) => {
            console.error(error);
            process.exitCode = 1;
        },
    );
}
