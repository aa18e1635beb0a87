/**
 * A fault in the middle, through the real CLI on the native plugin (issue 21, section 3): the real `wos-server`
 * (fault injection on, `/_admin/faults`) answers 500 or closes the connection during a create, an update and an
 * upgrade's confirm of a YAML program's `pulumi up`. Each time the CLI fails naming the resource, the state
 * stays true (what it says is what the service holds: after a failed update or upgrade, `pulumi refresh
 * --expect-no-changes` once the fault is cleared; after the create, the partial success the reference
 * promises, the resource kept in state with what the service showed of it), and the next `pulumi up`
 * converges with nothing made twice on the service.
 *
 * Each fault outlasts the client's retries (a PATCH, a GET and an upgrade's confirm are repeated up to 5
 * times; a create never is), so the failure reaches the CLI.
 */
import { startCliTestService, type CliTestService } from "../cli/localService";
import type { CliResult } from "../support/pulumiCli";
import { yamlStack, type ProgramStack } from "./pluginStacks";

jest.setTimeout(300_000);

const PROJECT = "Fault Tolerant";
const WORKSPACE = "fault-site";
/** More than the first attempt and the client's 5 repeats. */
const OUTLASTING_RETRIES = 6;

const PROGRAM = `name: wos-faults
runtime: yaml
description: A project, a no-code module and a workspace made from it, while the service fails.
config:
  description:
    type: string
    default: The first description
  region:
    type: string
    default: eu-west-1
resources:
  platform:
    type: wos:index:Project
    properties:
      name: ${PROJECT}
      description: \${description}
      tags:
        team: platform
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
        - key: size
          value: "2"
          category: infra
outputs:
  projectId: \${platform.id}
  workspaceId: \${site.id}
`;

let service: CliTestService;
let stack: ProgramStack;

beforeAll(async () => {
    service = await startCliTestService();
    stack = await yamlStack(service, { yaml: PROGRAM });
}, 600_000);

afterAll(async () => {
    await stack?.dispose();
    await service?.stop();
}, 60_000);

/** What the service holds of the program's resources: each name with how many there are, and the workspace's vars. */
async function onService() {
    const snapshot = await service.snapshot();
    const projects = snapshot.projects.filter((project) => project.name === PROJECT);
    const workspaces = snapshot.workspaces.filter((workspace) => workspace.name === WORKSPACE);
    return {
        projects: projects.map(({ id, description, tags }) => ({ id, description, tags })),
        noCodeModules: snapshot.bucketNoCodeModules.length,
        workspaces: workspaces.map(({ id, project, vars }) => ({ id, project, vars: vars.map(({ key, value }) => ({ key, value })) })),
    };
}

/** The program's resources in the stack's state, by name: id and the outputs a test reads. */
async function inState() {
    const { deployment } = await stack.program.exportStack();
    return Object.fromEntries(
        (deployment.deployment.resources ?? [])
            .filter((resource) => resource.type.startsWith("wos:index:"))
            .map((resource) => [resource.urn.split("::").pop()!, { id: resource.id, outputs: resource.outputs ?? {} }]),
    );
}

/** The block of the CLI's `Diagnostics:` under a resource (`  wos:index:Project (platform):` to the next block). */
function diagnosticsOf(output: string, resource: string): string {
    const diagnostics = output.slice(output.lastIndexOf("Diagnostics:"));
    const match = new RegExp(`^  wos:index:\\w+ \\(${resource}\\):\\n((?:(?: {4}|\\t).*\\n|\\n)*)`, "m").exec(diagnostics);
    return match?.[1] ?? "";
}

/** A failed `up`: non-zero, and the error the CLI reports under the resource names it as the plugin does. */
function expectFailure(result: CliResult, resource: string, message: RegExp): void {
    expect(result.code).not.toBe(0);
    expect(diagnosticsOf(result.output, resource)).toMatch(new RegExp(`error: [^]*${message.source}`));
}

/** Once the fault is gone, the state is what the service holds: a refresh finds nothing to change. */
async function expectStateTrue(): Promise<void> {
    const refresh = await stack.program.attempt(["refresh", "--yes", "--expect-no-changes"]);
    expect({ code: refresh.code, output: refresh.output }).toEqual({ code: 0, output: expect.stringMatching(/unchanged/) });
}

test("a create whose answer is lost (500 after the commit) and whose finishing PATCH fails: the CLI names the project, the state keeps it, the next `up` completes it", async () => {
    await service.addFault({ method: "POST", path: "^/api/v2/organizations/acme/projects$", status: 500, afterCommit: true });
    await service.addFault({ method: "PATCH", path: "^/api/v2/projects/prj-[^/]+$", status: 500, times: OUTLASTING_RETRIES });
    const failed = await stack.program.attempt(["up", "--yes"]);
    await service.clearFaults();
    expectFailure(failed, "platform", /wos:Project 'Fault Tolerant' in organization 'acme': create \(finishing the project found after a lost answer\) failed/);

    // The project the lost answer made is in state (a partial success), under its id, and only once on the service.
    const held = await onService();
    expect(held.projects).toHaveLength(1);
    const state = await inState();
    expect(state.platform?.id).toBe(held.projects[0]!.id);
    // The workspace, which needs the project, was not made; the module, which does not, was.
    expect(state.site).toBeUndefined();
    expect(held.workspaces).toEqual([]);
    expect(state.bucket?.id).toMatch(/^nocode-/);
    // What the state says of the project is what the service holds; the tags, which the lost answer did not
    // show, are left for the next \`up\` to make sure of (the reference: "the next \`up\` completes it").
    expect(state.platform!.outputs).toEqual({ organization: "acme", name: PROJECT, description: held.projects[0]!.description });

    const up = await stack.program.pulumi(["up", "--yes"]);
    expect(up.output).toMatch(/Resources:\s+\+ 1 created\s+~ 1 updated/);
    const converged = await onService();
    expect(converged).toEqual({
        projects: [{ id: held.projects[0]!.id, description: "The first description", tags: { team: "platform" } }],
        noCodeModules: 1,
        workspaces: [
            {
                id: expect.stringMatching(/^ws-/),
                project: held.projects[0]!.id,
                vars: [
                    { key: "region", value: "eu-west-1" },
                    { key: "size", value: "2" },
                ],
            },
        ],
    });
    expect((await stack.program.attempt(["preview", "--expect-no-changes"])).code).toBe(0);
});

test("an update whose connection is closed every time: the CLI names the project, state and service keep the old description, the next `up` applies it", async () => {
    const before = await onService();
    expect(before.workspaces).toHaveLength(1);
    await stack.program.setConfig("description", "The second description");
    await service.addFault({ method: "PATCH", path: "^/api/v2/projects/prj-[^/]+$", reset: true, times: OUTLASTING_RETRIES });
    const failed = await stack.program.attempt(["up", "--yes"]);
    await service.clearFaults();
    expectFailure(failed, "platform", /wos:Project 'Fault Tolerant' \(prj-\w+\) in organization 'acme': update failed: PATCH \/projects\/prj-\w+ connection failed \(ECONNRESET\)/);

    expect(await onService()).toEqual(before);
    expect((await inState()).platform!.outputs.description).toBe("The first description");
    await expectStateTrue();

    const up = await stack.program.pulumi(["up", "--yes"]);
    expect(up.output).toMatch(/Resources:\s+~ 1 updated/);
    expect(await onService()).toEqual({ ...before, projects: [{ ...before.projects[0]!, description: "The second description" }] });
    expect((await inState()).platform!.outputs.description).toBe("The second description");
});

test("an upgrade whose confirm answers 500 every time: the CLI names the workspace and the plan, nothing is applied, the next `up` upgrades once", async () => {
    const before = await onService();
    const workspaceId = before.workspaces[0]!.id;
    await stack.program.setConfig("region", "us-east-1");
    await service.addFault({ method: "POST", path: "^/api/v2/no-code-modules/[^/]+/workspaces/[^/]+/upgrade/[^/]+$", status: 500, times: OUTLASTING_RETRIES });
    const failed = await stack.program.attempt(["up", "--yes"]);
    await service.clearFaults();
    expectFailure(
        failed,
        "site",
        new RegExp(`wos:NoCodeWorkspace '${WORKSPACE}' \\(${workspaceId}\\) of no-code module nocode-\\w+: update \\(upgrade\\) failed: confirming the upgrade plan run-\\w+ \\(planned\\) failed`),
    );
    const unconfirmed = /confirming the upgrade plan (run-\w+)/.exec(failed.output)![1]!;

    // Nothing applies before a confirm: the service and the state keep the old region.
    expect(await onService()).toEqual(before);
    const site = (await inState()).site!;
    expect(site.outputs.vars).toEqual(expect.arrayContaining([expect.objectContaining({ key: "region", value: "eu-west-1" })]));
    await expectStateTrue();

    const up = await stack.program.pulumi(["up", "--yes"]);
    expect(up.output).toMatch(/upgrade run-\w+: planned, confirmed and applied/);
    expect(up.output).toMatch(/Resources:\s+~ 1 updated/);
    const after = await onService();
    expect(after).toEqual({
        ...before,
        workspaces: [{ ...before.workspaces[0]!, vars: [{ key: "region", value: "us-east-1" }, { key: "size", value: "2" }] }],
    });
    // The plan the failed confirm left behind was never applied by the next run, which made its own.
    const applied = /upgrade (run-\w+): planned, confirmed and applied/.exec(up.output)![1];
    expect(applied).not.toBe(unconfirmed);
    const left = await service.request("GET", `/no-code-modules/${site.outputs.noCodeModuleId}/workspaces/${workspaceId}/upgrade/${unconfirmed}`);
    expect(left.status).toBe(200);
    expect(left.body.data.attributes.status).not.toBe("applied");
    expect((await inState()).site!.outputs.lastUpgrade).toMatchObject({ id: applied, status: "applied" });
    expect((await stack.program.attempt(["preview", "--expect-no-changes"])).code).toBe(0);
});
