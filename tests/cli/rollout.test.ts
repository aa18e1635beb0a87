/**
 * A rollout in waves from a TypeScript program on the dynamic resources (`wos.NoCodeProject` with
 * `rollout.waves`), through the real CLI: {@link rolloutTests}. The YAML program on the plugin's component lives
 * the same scenario in `tests/languages/rollout.test.ts`.
 */
import * as path from "node:path";
import { REPO_ROOT } from "../support/packedPackage";
import { pulumiProgram } from "../support/pulumiCli";
import { UPGRADE_POLL_MS } from "./exampleLifecycle";
import { rolloutTests } from "./rolloutScenario";

const PROGRAM = `import * as pulumi from "@pulumi/pulumi";
import * as wos from "pulumi-wos";

const config = new pulumi.Config();
const fleet = new wos.NoCodeProject("fleet", {
    organization: "acme",
    project: { name: "Fleet" },
    module: { registryModuleId: "mod-0000000000000001", versionPin: config.get("bucketVersion") ?? "1.0.0" },
    vars: [{ key: "region", value: "eu-west-1", category: "infra" }],
    upgradeTimeoutSeconds: 120,
    workspaces: { "tail-d": {}, canary: {}, "wave-b": {}, "wave-c": {} },
    rollout: { waves: [["canary"], ["wave-b", "wave-c"]] },
});

export const workspaceIds = fleet.workspaceIds;
`;

rolloutTests({
    versionKey: "wos-no-code-project:bucketVersion",
    program: () =>
        pulumiProgram({
            source: path.join(REPO_ROOT, "examples", "no-code-project"),
            files: { "index.ts": PROGRAM },
            env: { WOS_UPGRADE_POLL_MS: UPGRADE_POLL_MS },
        }),
});
