/**
 * A rollout in waves from a YAML program on the plugin's component (`wos:index:NoCodeProject` with
 * `rollout.waves`, constructed by the plugin, installed from this machine's archive), through the real CLI:
 * {@link rolloutTests}, the scenario `tests/cli/rollout.test.ts` lives with the TypeScript component.
 */
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { pulumiProgram } from "../support/pulumiCli";
import { rolloutTests } from "../cli/rolloutScenario";
import { installPlugin, pluginTarball } from "./languageTools";
import { UPGRADE_POLL_MS } from "./pluginStacks";

const PROGRAM = `name: wos-yaml-rollout
runtime: yaml
config:
  bucketVersion:
    type: string
    default: 1.0.0
resources:
  fleet:
    type: wos:index:NoCodeProject
    properties:
      organization: acme
      project:
        name: Fleet
      module:
        registryModuleId: mod-0000000000000001
        versionPin: \${bucketVersion}
      vars:
        - key: region
          value: eu-west-1
          category: infra
      upgradeTimeoutSeconds: 120
      workspaces:
        tail-d: {}
        canary: {}
        wave-b: {}
        wave-c: {}
      rollout:
        waves:
          - [canary]
          - [wave-b, wave-c]
outputs:
  workspaceIds: \${fleet.workspaceIds}
`;

rolloutTests({
    versionKey: "bucketVersion",
    program: async () => {
        const source = fs.mkdtempSync(path.join(os.tmpdir(), "wos-yaml-rollout-"));
        fs.writeFileSync(path.join(source, "Pulumi.yaml"), PROGRAM);
        try {
            const program = await pulumiProgram({ source, packed: false, env: { WOS_UPGRADE_POLL_MS: UPGRADE_POLL_MS } });
            await installPlugin(program, await pluginTarball());
            return program;
        } finally {
            fs.rmSync(source, { recursive: true, force: true });
        }
    },
});
