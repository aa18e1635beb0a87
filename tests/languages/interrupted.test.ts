/**
 * A `pulumi up` interrupted with Ctrl-C (SIGINT) while an upgrade waits for its plan, through the real CLI on
 * the native plugin: the engine sends the plugin `Cancel`, and the upgrade stops waiting at once instead of at
 * its deadline. The CLI ends with the update failed saying the run is left unconfirmed; nothing is applied, the
 * stack needs no `pulumi cancel` and its state keeps the old vars; the next `pulumi up` waits for that run to end,
 * never confirms it, and applies its own, once. (The dynamic resources' host ignores `Cancel`: there the upgrade
 * runs to its end, as `tests/cli/interruption.test.ts` shows for a killed CLI.)
 */
import { startCliTestService, type CliTestService } from "../cli/localService";
import { waitForOutput } from "../support/pulumiCli";
import { yamlStack, type ProgramStack } from "./pluginStacks";

jest.setTimeout(300_000);

const WORKSPACE = "interrupted-site";

const PROGRAM = `name: wos-interrupted
runtime: yaml
description: A no-code workspace whose upgrade is interrupted.
config:
  region:
    type: string
    default: eu-west-1
resources:
  platform:
    type: wos:index:Project
    properties:
      name: Interrupted
  bucket:
    type: wos:index:NoCodeModule
    properties:
      registryModuleId: mod-0000000000000001
      versionPin: 1.0.0
      enabled: true
  site:
    type: wos:index:NoCodeWorkspace
    properties:
      noCodeModuleId: \${bucket.id}
      projectId: \${platform.id}
      name: ${WORKSPACE}
      vars:
        - key: region
          value: \${region}
          category: infra
      upgradeTimeoutSeconds: 1800
outputs:
  workspaceId: \${site.id}
  moduleId: \${bucket.id}
`;

let service: CliTestService;
let stack: ProgramStack;

beforeAll(async () => {
    // Plans of about 12 s (4 steps of 3 s): an upgrade surely still waits when Ctrl-C comes, and one that is not
    // canceled would be confirmed and applied long before the upgrade's deadline, failing the test.
    service = await startCliTestService(["--plan-step-ms", "3000"]);
    stack = await yamlStack(service, { yaml: PROGRAM });
    await stack.program.pulumi(["up", "--yes"]);
}, 600_000);

afterAll(async () => {
    await stack?.dispose();
    await service?.stop();
}, 60_000);

async function runsOf(moduleId: string, workspaceId: string, runs: string[]): Promise<string[]> {
    return Promise.all(runs.map(async (run) => (await service.get(`/no-code-modules/${moduleId}/workspaces/${workspaceId}/upgrade/${run}`)).attributes.status));
}

test("Ctrl-C while an upgrade waits: the plugin stops at once, nothing is applied, the state keeps the old vars, and the next `up` converges", async () => {
    const { program } = stack;
    const { workspaceId, moduleId } = (await program.outputs()) as { workspaceId: string; moduleId: string };
    await program.setConfig("region", "us-east-1");

    const running = program.start(["up", "--yes"]);
    await waitForOutput(running, (output) => /upgrade (run-\w+) started: pending/.test(output));
    running.child.kill("SIGINT");
    const interrupted = await running.done;
    expect(interrupted.code).not.toBe(0);
    const run = /upgrade (run-\w+) started/.exec(interrupted.output)![1]!;
    expect(interrupted.output).toMatch(new RegExp(`Pulumi canceled the update: the upgrade plan ${run} is left unconfirmed in status '(pending|fetching)'`));

    // Nothing applied, and the stack is not locked: no `pulumi cancel` is needed.
    const vars = await service.get(`/vars?filter%5Bworkspace%5D%5Bname%5D=${WORKSPACE}&filter%5Borganization%5D%5Bname%5D=acme`);
    expect(vars.map((item: { attributes: { key: string; value: string } }) => [item.attributes.key, item.attributes.value])).toEqual([["region", "eu-west-1"]]);
    const { deployment } = await program.exportStack();
    expect(deployment.deployment.pending_operations ?? []).toEqual([]);
    const site = (deployment.deployment.resources ?? []).find((resource) => resource.urn.endsWith("::site"))!;
    expect(site.outputs?.vars).toEqual([expect.objectContaining({ key: "region", value: "eu-west-1" })]);

    // The next up waits for the interrupted run to end (never confirming it), then applies its own.
    const up = await program.pulumi(["up", "--yes"]);
    expect(up.output).toMatch(new RegExp(`an earlier upgrade \\(${run}\\) of the workspace is unfinished: waiting for it to end`));
    const own = [...up.output.matchAll(/upgrade (run-\w+) started/g)].map((match) => match[1]!).filter((id) => id !== run);
    expect(new Set(own).size).toBe(1);
    // The interrupted run ended unconfirmed (`planned`, then discarded when the next one started).
    expect(await runsOf(moduleId, workspaceId, [run, own[0]!])).toEqual([expect.stringMatching(/^(planned|discarded)$/), "applied"]);
    const after = await service.get(`/vars?filter%5Bworkspace%5D%5Bname%5D=${WORKSPACE}&filter%5Borganization%5D%5Bname%5D=acme`);
    expect(after.map((item: { attributes: { value: string } }) => item.attributes.value)).toEqual(["us-east-1"]);
    expect((await program.attempt(["preview", "--expect-no-changes"])).code).toBe(0);
});
