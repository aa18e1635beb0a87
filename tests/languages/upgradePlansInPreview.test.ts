/**
 * Upgrade plans before apply (issue 29, point 2) through the real CLI: a YAML program on the plugin's
 * component (`wos:index:NoCodeProject`, two workspaces), the plugin installed from this machine's archive,
 * against the real `wos-server` behind a recording proxy. With the stack config `wos:planUpgradesInPreview`,
 * `pulumi preview` of a changed var starts the workspace's upgrade plan, shows its status and plan URL and
 * confirms nothing (the service's run reads `planned`, the workspace keeps its value); an errored plan fails
 * the preview; the `up` that follows plans again. Without the option a preview sends no upgrade request.
 */
import { startRecorder, type RecordedRequest, type Recorder } from "../support/recordingProxy";
import type { CliResult } from "../support/pulumiCli";
import { startCliTestService, type CliTestService, type OrganizationSnapshot } from "../cli/localService";
import { yamlStack, type ProgramStack } from "./pluginStacks";

jest.setTimeout(300_000);

const PROGRAM = `name: wos-yaml-plans
runtime: yaml
config:
  canaryRegion:
    type: string
    default: eu-west-1
resources:
  fleet:
    type: wos:index:NoCodeProject
    properties:
      project:
        name: Reviewed
      module:
        registryModuleId: mod-0000000000000001
        versionPin: 1.0.0
      vars:
        - key: region
          value: eu-west-1
          category: infra
      upgradeTimeoutSeconds: 120
      workspaces:
        canary:
          vars:
            - key: region
              value: \${canaryRegion}
              category: infra
        steady: {}
outputs:
  workspaceIds: \${fleet.workspaceIds}
  noCodeModuleId: \${fleet.noCodeModuleId}
`;

const INITIATE = /^\/api\/v2\/no-code-modules\/[^/]+\/workspaces\/(ws-\w+)\/upgrade$/;
const CONFIRM = /^\/api\/v2\/no-code-modules\/[^/]+\/workspaces\/ws-\w+\/upgrade\/run-\w+$/;
const posts = (requests: readonly RecordedRequest[], pattern: RegExp) => requests.filter((request) => request.method === "POST" && pattern.test(request.path));
/** The line a preview writes for the plan it made, with the run and its plan URL. */
const PLANNED = /wos:NoCodeWorkspace 'canary' \(ws-\w+\) of no-code module nocode-\w+: upgrade plan (run-\w+): planned, not confirmed: the preview applies nothing, and `pulumi up` plans again \(plan: (http:\/\/127\.0\.0\.1:\d+\/app\/acme\/workspaces\/canary\/runs\/run-\w+)\)/;

let service: CliTestService;
let recorder: Recorder;
let stack: ProgramStack;
let seeded: OrganizationSnapshot;
let ids: Record<string, string> = {};
let noCodeModuleId = "";
let previewRun = "";

const run = (args: string[]): Promise<CliResult> => stack.program.attempt(args);
const regionOf = async (name: string): Promise<unknown> => {
    const vars = (await service.get(`/vars?filter%5Bworkspace%5D%5Bname%5D=${name}&filter%5Borganization%5D%5Bname%5D=acme`)) as Array<{ attributes: Record<string, unknown> }>;
    return vars.find((variable) => variable.attributes.key === "region")?.attributes.value;
};
const runStatus = async (runId: string): Promise<string> =>
    (await service.get(`/no-code-modules/${noCodeModuleId}/workspaces/${ids.canary}/upgrade/${runId}`)).attributes.status;
/** Fails with everything the CLI printed in this file, so that a failure shows what the engine said. */
const withTranscript = async (body: () => Promise<void>) => {
    try {
        await body();
    } catch (failure) {
        throw new Error(`${(failure as Error).message}\n--- what the CLI printed ---\n${stack.transcript()}`);
    }
};

beforeAll(async () => {
    service = await startCliTestService();
    seeded = await service.snapshot();
    recorder = await startRecorder(service.url);
    stack = await yamlStack(service, { yaml: PROGRAM });
    await stack.program.setConfig("wos:address", recorder.url);
}, 600_000);
afterAll(async () => {
    await stack?.dispose();
    await recorder?.close();
    await service?.stop();
});
beforeEach(() => {
    recorder.requests.length = 0;
});

test("up makes the component's two workspaces", () =>
    withTranscript(async () => {
        expect((await run(["up", "--yes", "--skip-preview"])).code).toBe(0);
        const outputs = await stack.program.outputs();
        ids = outputs.workspaceIds as Record<string, string>;
        noCodeModuleId = outputs.noCodeModuleId as string;
        expect(Object.keys(ids).sort()).toEqual(["canary", "steady"]);
        expect(await regionOf("canary")).toBe("eu-west-1");
    }));

test("without wos:planUpgradesInPreview, a preview of a changed var sends no upgrade request", () =>
    withTranscript(async () => {
        await stack.program.setConfig("canaryRegion", "us-east-1");
        const preview = await run(["preview"]);
        expect(preview.code).toBe(0);
        expect(preview.output).toMatch(/~ 1 to update/);
        expect(posts(recorder.requests, INITIATE)).toEqual([]);
        expect(preview.output).not.toMatch(/upgrade plan run-/);
    }));

test("with it, the preview shows the canary's plan status and URL and confirms nothing: the service's run is planned, the workspace keeps its value", () =>
    withTranscript(async () => {
        await stack.program.setConfig("wos:planUpgradesInPreview", "true");
        const preview = await run(["preview"]);
        expect(preview.code).toBe(0);
        const [, runId, planUrl] = PLANNED.exec(preview.output) ?? [];
        expect(runId).toMatch(/^run-/);
        expect(planUrl).toContain(`/runs/${runId}`);
        // Under the workspace: among the lines the CLI shows for that resource.
        expect(preview.output).toMatch(new RegExp(`\n  wos:index:NoCodeWorkspace \\(fleet-canary\\):\n(?:    .*\n)*?    .*upgrade plan ${runId}: planned, not confirmed`));
        // Only the workspace whose var changed is planned.
        expect(posts(recorder.requests, INITIATE).map((request) => INITIATE.exec(request.path)![1])).toEqual([ids.canary]);
        expect(posts(recorder.requests, CONFIRM)).toEqual([]);
        expect(await runStatus(runId!)).toBe("planned");
        expect(await regionOf("canary")).toBe("eu-west-1");
        previewRun = runId!;
    }));

test("an errored plan fails the preview with its status and plan URL, and nothing is confirmed", () =>
    withTranscript(async () => {
        await service.addFault({ method: "POST", path: `/workspaces/${ids.canary}/upgrade$`, planOutcome: "errored" });
        try {
            const preview = await run(["preview"]);
            expect(preview.code).not.toBe(0);
            expect(preview.output).toMatch(
                /wos:NoCodeWorkspace 'canary' \(ws-\w+\) of no-code module nocode-\w+: preview \(upgrade plan\) failed: the upgrade plan run-\w+ ended 'errored' \(plan: http:\/\/127\.0\.0\.1:\d+\/app\/acme\/workspaces\/canary\/runs\/run-\w+\)/,
            );
        } finally {
            await service.clearFaults();
        }
        expect(posts(recorder.requests, CONFIRM)).toEqual([]);
        expect(await regionOf("canary")).toBe("eu-west-1");
    }));

test("the up that follows plans again: the preview's plan is discarded, a new one applied", () =>
    withTranscript(async () => {
        const up = await run(["up", "--yes", "--skip-preview"]);
        expect(up.code).toBe(0);
        expect(up.output).toMatch(/wos:NoCodeWorkspace 'canary' \(ws-\w+\) of no-code module nocode-\w+: upgrade run-\w+: planned, confirmed and applied/);
        expect(posts(recorder.requests, INITIATE)).toHaveLength(1);
        expect(posts(recorder.requests, CONFIRM)).toHaveLength(1);
        expect(await runStatus(previewRun)).toBe("discarded");
        expect(await regionOf("canary")).toBe("us-east-1");
        expect(await regionOf("steady")).toBe("eu-west-1");
    }));

test("destroy leaves the organization as the seed made it", () =>
    withTranscript(async () => {
        expect((await run(["destroy", "--yes", "--skip-preview"])).code).toBe(0);
        expect(await service.snapshot()).toEqual(seeded);
    }));
