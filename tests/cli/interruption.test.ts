/**
 * A `pulumi up` killed (SIGKILL) in the middle, as a crashed laptop or a pipeline's timeout does, then
 * `pulumi cancel` and the next `pulumi up`, through the real CLI against the real `wos-server`. The killed
 * CLI leaves its language host and provider host running; they may finish the operation on their own. Each
 * case is run both ways, ending them at once or letting them finish, and must converge either way.
 */
import { killCliAlone, killProcesses, waitForOutput, type RunningCommand } from "../support/pulumiCli";
import { exampleStack, type ExampleStack } from "./exampleLifecycle";
import type { CliTestService } from "./localService";

/** Statuses of a run that has not ended (the local service's upgrade runs). */
const UNFINISHED = ["pending", "fetching", "planning", "planned", "cost_estimated"];
const WORKSPACES = { assets: "assets-prod", logs: "logs-prod" } as const;

/** The upgrade runs an output started, by workspace name (the CLI prints each log line twice: live and in its summary). */
function runsStarted(output: string): Record<string, string[]> {
    const runs: Record<string, string[]> = {};
    for (const [, name, run] of output.matchAll(/'([\w-]+)' \(ws-\w+\) of no-code module nocode-\w+: upgrade (run-\w+) started/g)) {
        const known = (runs[name!] ??= []);
        if (!known.includes(run!)) known.push(run!);
    }
    return runs;
}

async function runStatus(service: CliTestService, moduleId: string, workspaceId: string, run: string): Promise<string> {
    const response = await service.request("GET", `/no-code-modules/${moduleId}/workspaces/${workspaceId}/upgrade/${run}`);
    expect(response.status).toBe(200);
    return response.body.data.attributes.status;
}

/** Resolves once `condition` holds; after `timeoutMs`, rejects, or resolves false when `orGiveUp`. */
async function poll(condition: () => Promise<boolean>, timeoutMs = 60_000, orGiveUp = false): Promise<boolean> {
    const deadline = Date.now() + timeoutMs;
    while (!(await condition())) {
        if (Date.now() > deadline) {
            if (orGiveUp) return false;
            throw new Error("timed out");
        }
        await new Promise((resolve) => setTimeout(resolve, 200));
    }
    return true;
}

describe("a `pulumi up` killed while an upgrade polls", () => {
    // Plans that take seconds, so that the CLI is surely killed while it polls.
    const stack: ExampleStack = exampleStack({ example: "no-code", serviceArgs: ["--plan-step-ms", "1500"] });

    test.each([
        ["its hosts ended at once", false],
        ["its hosts left to finish the upgrade", true],
    ])("then `pulumi cancel` and `pulumi up` converge (%s): every run ended, none applied twice", async (_case, letHostsFinish) => {
        await stack.deployed();
        const program = stack.program();
        const service = stack.service();
        const { bucketNoCodeModuleId: moduleId, ...outputs } = await program.outputs();
        const workspaceIds: Record<string, string> = {
            [WORKSPACES.assets]: outputs.assetsWorkspaceId as string,
            [WORKSPACES.logs]: outputs.logsWorkspaceId as string,
        };
        const current = (await program.attempt(["config", "get", "bucketVersion"])).stdout.trim() || "1.0.0";
        const target = current === "1.0.0" ? "1.1.0" : "1.0.0";
        await program.setConfig("bucketVersion", target);

        const running: RunningCommand = program.start(["up", "--yes"]);
        await waitForOutput(running, (output) => (output.match(/upgrade run-\w+: fetching/g) ?? []).length >= 2);
        const orphans = await killCliAlone(running, program);
        const killedRuns = runsStarted(running.output());
        expect(Object.keys(killedRuns).sort()).toEqual(Object.values(WORKSPACES).sort());
        const statusesOf = (runs: Record<string, string[]>) =>
            Promise.all(
                Object.entries(runs).flatMap(([name, ids]) => ids.map((run) => runStatus(service, moduleId as string, workspaceIds[name]!, run))),
            );
        if (letHostsFinish) {
            // Orphaned hosts confirm some plans and not others (seen: one of two): give them time, whatever they do.
            await poll(async () => (await statusesOf(killedRuns)).every((status) => !UNFINISHED.includes(status)), 15_000, true);
        }
        killProcesses(orphans);

        const cancel = await program.pulumi(["cancel", "--yes"]);
        expect(cancel.output).toMatch(/has been canceled/);
        const up = await program.pulumi(["up", "--yes"]);
        expect(up.output).toMatch(/interrupted while updating/);

        // Every run of both `up`s has ended; each workspace had exactly one applied.
        const newRuns = runsStarted(up.output);
        for (const name of Object.values(WORKSPACES)) {
            const statuses = await statusesOf({ [name]: [...killedRuns[name]!, ...(newRuns[name] ?? [])] });
            expect(statuses.filter((status) => UNFINISHED.includes(status))).toEqual([]);
            expect(statuses.filter((status) => status === "applied")).toEqual(["applied"]);
            const workspace = await service.get(`/workspaces/${workspaceIds[name]}`);
            expect(workspace.attributes["no-code-upgrade-available"]).toBe(false);
        }
        const { deployment } = await program.exportStack();
        expect(deployment.deployment.pending_operations ?? []).toEqual([]);
        const versions = (deployment.deployment.resources ?? [])
            .filter((resource) => resource.type === "pulumi-nodejs:dynamic/wos:NoCodeWorkspace")
            .map((resource) => resource.outputs?.moduleVersion);
        expect(versions).toEqual([target, target]);
        // The vars as the program lists them, each once.
        const snapshot = await service.snapshot();
        const assets = snapshot.workspaces.find((workspace) => workspace.name === WORKSPACES.assets)!;
        expect(assets.vars.map((variable) => `${variable.category}/${variable.key}=${variable.value}`)).toEqual(["infra/region=eu-west-1", "infra/size=3"]);
        expect((await program.attempt(["preview", "--expect-no-changes"])).code).toBe(0);
    }, 240_000);
});

describe("a `pulumi up` killed while a create waits for its answer", () => {
    const stack: ExampleStack = exampleStack({ example: "quickstart" });

    test.each([
        ["its hosts ended at once", false],
        ["its hosts left to finish the create", true],
    ])("the service made the project: the next `up` takes nothing over and says how to go on, which converges (%s)", async (_case, letHostsFinish) => {
        const program = stack.program();
        const service = stack.service();
        // The first project create is done and committed at once; its answer comes 20 s later.
        await service.addFault({ method: "POST", path: "^/api/v2/organizations/acme/projects$", afterCommit: true, delayMs: 20_000, times: 1 });
        const running = program.start(["up", "--yes"]);
        const projectNames = async () => (await service.snapshot()).projects.map((project) => project.name);
        await poll(async () => (await projectNames()).includes("Platform") && (await projectNames()).includes("Data"));
        await waitForOutput(running, (output) => /Variable log-level created/.test(output));
        const orphans = await killCliAlone(running, program);
        if (letHostsFinish) await new Promise((resolve) => setTimeout(resolve, 21_000));
        killProcesses(orphans);
        await service.clearFaults();
        const before = await service.snapshot();

        await program.pulumi(["cancel", "--yes"]);
        const refused = await program.attempt(["up", "--yes"]);
        expect(refused.code).not.toBe(0);
        expect(refused.output).toMatch(/\* urn:pulumi:\S+::(?:platform|data), interrupted while creating/);
        const advice = /project (prj-\w+) holds that name\. If an interrupted `pulumi up` of this stack made it \(the update warns of a pending create\), clear the pending create with `pulumi refresh --clear-pending-creates`, then delete (prj-\w+) or choose another name/.exec(refused.output);
        expect(advice).not.toBeNull();
        expect(advice![2]).toBe(advice![1]);
        // Nothing taken over, nothing made twice: the project that holds the name is as it was, and no project
        // was made or lost. Not the whole service as it was: this `up` may still make what does not depend on
        // the refused create (Pulumi goes on with independent steps), such as the other project's tag
        // bindings when the kill came before them, which a loaded machine makes likely.
        const after = await service.snapshot();
        const holderIn = (snapshot: typeof before) => snapshot.projects.find((project) => project.id === advice![1]);
        expect(holderIn(before)).toBeDefined();
        expect(holderIn(after)).toEqual(holderIn(before));
        const ids = (snapshot: typeof before) => snapshot.projects.map((project) => project.id).sort();
        expect(ids(after)).toEqual(ids(before));

        // The advice, followed.
        await program.pulumi(["refresh", "--yes", "--clear-pending-creates"]);
        expect((await service.request("DELETE", `/projects/${advice![1]}`)).status).toBe(204);
        await program.pulumi(["up", "--yes"]);
        expect((await program.attempt(["preview", "--expect-no-changes"])).code).toBe(0);
        const { deployment } = await program.exportStack();
        expect(deployment.deployment.pending_operations ?? []).toEqual([]);
        const projects = (await service.snapshot()).projects;
        expect(projects.filter((project) => project.name === "Platform" || project.name === "Data")).toEqual([
            expect.objectContaining({ name: "Data", description: "Data pipelines and warehouses", tags: { "cost-center": "1234", owner: "data-team" } }),
            expect.objectContaining({ name: "Platform", description: "Shared platform services", tags: { team: "platform", env: "prod" } }),
        ]);
        await program.pulumi(["destroy", "--yes"]);
        expect((await service.snapshot()).projects.map((project) => project.name)).toEqual(["Apps", "Default Project"]);
    }, 240_000);
});
