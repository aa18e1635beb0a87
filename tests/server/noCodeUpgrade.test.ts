/**
 * Contract of the workspace upgrade (the API's No-code provisioning endpoints and their states and
 * transitions; the local service's decisions on upgrades and its fault injection): initiate, read, confirm,
 * driven by the run's state machine (one step every `planStepMs`: pending -> fetching -> planning -> planned, cost_estimated after it
 * where the organization has cost estimation, planned_and_finished when nothing changes, errored through a
 * `planOutcome` fault), the 409 cases, the discard of an unconfirmed plan, and the core promise: nothing
 * changes on the workspace before the confirm, and the confirm applies the vars and the no-code version
 * together.
 *
 * Three services: a fast one (50 ms steps) for most tests, one with 400 ms steps where every status is
 * observed by polling, and one whose runs never leave `pending` (a step of an hour) for the "before the
 * end" cases. Tests poll; none asserts how long anything took.
 */
import { TOKENS, WORKSPACES } from "../support/seed";
import type { TestServer } from "../support/server";
import {
    clientFor,
    createNoCodeWorkspace,
    expectErrors,
    expectNoCodeUnchanged,
    expectStatus,
    expectValidation,
    initiateUpgrade,
    moduleWithWorkspace,
    noCodePaths,
    noCodeSnapshot,
    noCodeVersionOf,
    pollRun,
    runStatus,
    updateNoCodeModule,
    upgradeAvailable,
    upgradeDocument,
    varContents,
    workspaceVars,
    withNoCodeServer,
    type NoCodeServer,
} from "./helpers";

const CONFIRMED = { message: "Workspace update completed" };

/** Polls until the run has ended and returns its last status. */
async function endOf(server: TestServer, moduleId: string, workspaceId: string, runId: string, token: string = TOKENS.owners): Promise<string> {
    const seen = await pollRun(server, { moduleId, workspaceId, runId }, { token });
    return seen[seen.length - 1];
}

/** Lets `steps` more plan steps pass (for proving that an end is an end, never for a timing assertion). */
function afterSteps(steps: number, stepMs: number): Promise<void> {
    return new Promise((resolve) => setTimeout(resolve, steps * stepMs));
}

function confirm(server: TestServer, moduleId: string, workspaceId: string, runId: string, token: string = TOKENS.owners) {
    return clientFor(server, token).post(noCodePaths.run(moduleId, workspaceId, runId));
}

/** Asserts a 409 whose detail names the run's status. */
function expectConflictNaming(response: Awaited<ReturnType<typeof confirm>>, status: string): void {
    const errors = expectErrors(response, 409);
    expect(errors.map((error: any) => error.detail ?? "").join(" ")).toContain(status);
}

/** `seen` is `expected` with possibly some statuses left out (a poll can fall between two steps), never reordered. */
function expectInOrder(seen: readonly string[], expected: readonly string[]): void {
    let position = 0;
    for (const status of seen) {
        const found = expected.indexOf(status, position);
        if (found === -1) throw new Error(`statuses ${JSON.stringify(seen)} are not in the order ${JSON.stringify(expected)}`);
        position = found + 1;
    }
}

describe("a fast service (50 ms steps)", () => {
    const STEP_MS = 50;
    let started: NoCodeServer;
    let server: TestServer;
    withNoCodeServer(
        (value) => {
            started = value;
            server = value.server;
        },
        { planStepMs: STEP_MS },
    );

    test("initiate answers the run as it is: run- id, workspace-upgrade type, a status, an absolute plan URL, the workspace", async () => {
        const { moduleId, workspace } = await moduleWithWorkspace(started);
        const response = await clientFor(server, TOKENS.owners).post(
            noCodePaths.upgrade(moduleId, workspace.id),
            upgradeDocument([{ key: "size", value: "2", category: "infra" }]),
        );
        expectStatus(response, 200);
        const data = response.body.data;
        expect(data.id).toMatch(/^run-/);
        expect(data.type).toBe("workspace-upgrade");
        expect(["pending", "fetching", "planning", "planned"]).toContain(data.attributes.status);
        expect(new URL(data.attributes["plan-url"]).protocol).toMatch(/^https?:$/);
        expect(data.relationships.workspace.data).toEqual({ id: workspace.id, type: "workspaces" });

        const read = await clientFor(server, TOKENS.owners).get(noCodePaths.run(moduleId, workspace.id, data.id));
        expectStatus(read, 200);
        expect(read.body.data.id).toBe(data.id);
        expect(read.body.data.attributes["plan-url"]).toBe(data.attributes["plan-url"]);
        expect(read.body.data.relationships.workspace.data).toEqual({ id: workspace.id, type: "workspaces" });
    });

    test("nothing changes on the workspace before the confirm; the confirm applies the vars and the version together", async () => {
        const { moduleId, workspace } = await moduleWithWorkspace(started, {
            module: { versionPin: "1.0.0" },
            workspace: {
                vars: [
                    { key: "region", value: "eu-west-1", category: "infra" },
                    { key: "FOO", value: "bar", category: "env" },
                ],
            },
        });
        const oldVersion = await noCodeVersionOf(server, workspace.id);
        await updateNoCodeModule(server, moduleId, { versionPin: "1.1.0" });
        expect(await upgradeAvailable(server, workspace.id)).toBe(true);

        const known = { modules: [moduleId], workspaces: [workspace.id] };
        const before = await noCodeSnapshot(server, known);
        const run = await initiateUpgrade(server, moduleId, workspace.id, [
            { key: "region", value: "us-east-1", category: "infra" },
            { key: "tags", value: "{ team = \"web\" }", category: "infra", hcl: true },
        ]);
        await expectNoCodeUnchanged(server, before, known);
        expect(await endOf(server, moduleId, workspace.id, run.id)).toBe("planned");
        await expectNoCodeUnchanged(server, before, known);
        // A finished plan is not applied by time passing either.
        await afterSteps(3, STEP_MS);
        expect(await runStatus(server, moduleId, workspace.id, run.id)).toBe("planned");
        await expectNoCodeUnchanged(server, before, known);

        const response = await confirm(server, moduleId, workspace.id, run.id);
        expectStatus(response, 200);
        expect(response.body).toEqual(CONFIRMED);

        expect(varContents(await workspaceVars(server, workspace.id))).toEqual([
            { key: "FOO", category: "env", value: "bar", description: null, hcl: false, sensitive: false },
            { key: "region", category: "infra", value: "us-east-1", description: null, hcl: false, sensitive: false },
            { key: "tags", category: "infra", value: "{ team = \"web\" }", description: null, hcl: true, sensitive: false },
        ]);
        const newVersion = await noCodeVersionOf(server, workspace.id);
        expect(newVersion).not.toBe(oldVersion);
        const probe = await createNoCodeWorkspace(server, moduleId, { projectId: started.ids.Apps });
        expect(newVersion).toBe(probe.relationships["no-code-module-version"].data.id);
        expect(await upgradeAvailable(server, workspace.id)).toBe(false);
        expect(await runStatus(server, moduleId, workspace.id, run.id)).toBe("applied");
    });

    test("an upgrade by a new module version only (a body without relationships): planned, and the confirm moves the version, no var changes", async () => {
        const { moduleId, workspace } = await moduleWithWorkspace(started, { module: { versionPin: "1.0.0" } });
        const vars = varContents(await workspaceVars(server, workspace.id));
        const oldVersion = await noCodeVersionOf(server, workspace.id);
        await updateNoCodeModule(server, moduleId, { versionPin: "1.1.0" });
        const run = await initiateUpgrade(server, moduleId, workspace.id);
        expect(await endOf(server, moduleId, workspace.id, run.id)).toBe("planned");
        expect(await noCodeVersionOf(server, workspace.id)).toBe(oldVersion);
        expectStatus(await confirm(server, moduleId, workspace.id, run.id), 200);
        expect(await noCodeVersionOf(server, workspace.id)).not.toBe(oldVersion);
        expect(await upgradeAvailable(server, workspace.id)).toBe(false);
        expect(varContents(await workspaceVars(server, workspace.id))).toEqual(vars);
    });

    test("vars not listed stay; a listed one is updated in place by key and category", async () => {
        const { moduleId, workspace } = await moduleWithWorkspace(started, {
            workspace: {
                vars: [
                    { key: "region", value: "eu-west-1", category: "infra" },
                    { key: "size", value: "2", category: "infra" },
                    { key: "size", value: "env-size", category: "env" },
                    { key: "FOO", value: "bar", category: "env", description: "kept" },
                ],
            },
        });
        const run = await initiateUpgrade(server, moduleId, workspace.id, [{ key: "size", value: "3", category: "infra" }]);
        expect(await endOf(server, moduleId, workspace.id, run.id)).toBe("planned");
        expectStatus(await confirm(server, moduleId, workspace.id, run.id), 200);
        const vars = await workspaceVars(server, workspace.id);
        expect(vars).toHaveLength(4);
        expect(varContents(vars)).toEqual([
            { key: "FOO", category: "env", value: "bar", description: "kept", hcl: false, sensitive: false },
            { key: "size", category: "env", value: "env-size", description: null, hcl: false, sensitive: false },
            { key: "region", category: "infra", value: "eu-west-1", description: null, hcl: false, sensitive: false },
            { key: "size", category: "infra", value: "3", description: null, hcl: false, sensitive: false },
        ]);
    });

    test("a sensitive var is applied write-only: its value never reads back", async () => {
        const { moduleId, workspace } = await moduleWithWorkspace(started);
        const run = await initiateUpgrade(server, moduleId, workspace.id, [
            { key: "TOKEN", value: "upgrade-secret-value", category: "env", sensitive: true },
        ]);
        expect(await endOf(server, moduleId, workspace.id, run.id)).toBe("planned");
        expectStatus(await confirm(server, moduleId, workspace.id, run.id), 200);
        const vars = await workspaceVars(server, workspace.id);
        const token = vars.find((variable) => variable.attributes.key === "TOKEN");
        expect(token.attributes).toEqual(expect.objectContaining({ sensitive: true, value: null }));
        expect(JSON.stringify(vars)).not.toContain("upgrade-secret-value");
    });

    describe("planned_and_finished: nothing would change", () => {
        test("no var changes and the workspace already on the module's version; confirm answers 200 and changes nothing", async () => {
            const { moduleId, workspace } = await moduleWithWorkspace(started);
            const run = await initiateUpgrade(server, moduleId, workspace.id);
            expect(await endOf(server, moduleId, workspace.id, run.id)).toBe("planned_and_finished");
            const known = { modules: [moduleId], workspaces: [workspace.id] };
            const before = await noCodeSnapshot(server, known);
            const response = await confirm(server, moduleId, workspace.id, run.id);
            expectStatus(response, 200);
            expect(response.body).toEqual(CONFIRMED);
            await expectNoCodeUnchanged(server, before, known);
        });

        test("vars listed with the values the workspace already has", async () => {
            const { moduleId, workspace } = await moduleWithWorkspace(started, {
                workspace: {
                    vars: [
                        { key: "region", value: "eu-west-1", category: "infra" },
                        { key: "size", value: "2", category: "infra", description: "two" },
                    ],
                },
            });
            const run = await initiateUpgrade(server, moduleId, workspace.id, [
                { key: "size", value: "2", category: "infra", description: "two" },
                { key: "region", value: "eu-west-1", category: "infra" },
            ]);
            expect(await endOf(server, moduleId, workspace.id, run.id)).toBe("planned_and_finished");
        });

        test.each([
            ["another value", { value: "3" }],
            ["another description", { description: "changed" }],
            ["hcl", { hcl: true }],
        ])("a var with %s is a change: planned", async (_label, change) => {
            const { moduleId, workspace } = await moduleWithWorkspace(started, {
                workspace: { vars: [{ key: "region", value: "eu-west-1", category: "infra" }, { key: "size", value: "2", category: "infra" }] },
            });
            const run = await initiateUpgrade(server, moduleId, workspace.id, [{ key: "size", value: "2", category: "infra", ...change }]);
            expect(await endOf(server, moduleId, workspace.id, run.id)).toBe("planned");
        });
    });

    test("with cost estimation (initech), a plan with nothing to change ends planned_and_finished, without a cost estimate", async () => {
        const { moduleId, workspace } = await moduleWithWorkspace(started, { organization: "initech" });
        const token = TOKENS.initechOwners;
        const run = await initiateUpgrade(server, moduleId, workspace.id, undefined, token);
        const seen = await pollRun(server, { moduleId, workspaceId: workspace.id, runId: run.id }, { token });
        expectInOrder(seen, ["pending", "fetching", "planning", "planned_and_finished"]);
        expect(seen[seen.length - 1]).toBe("planned_and_finished");
        await afterSteps(3, STEP_MS);
        expect(await runStatus(server, moduleId, workspace.id, run.id, token)).toBe("planned_and_finished");
    });

    test("a failed plan ends errored (planOutcome fault); its confirm is a 409 naming the status; nothing changes; a new upgrade may start", async () => {
        const { moduleId, workspace } = await moduleWithWorkspace(started);
        await server.addFault({ method: "POST", path: `/no-code-modules/${moduleId}/workspaces/${workspace.id}/upgrade$`, planOutcome: "errored" });
        try {
            const known = { modules: [moduleId], workspaces: [workspace.id] };
            const before = await noCodeSnapshot(server, known);
            const run = await initiateUpgrade(server, moduleId, workspace.id, [{ key: "size", value: "5", category: "infra" }]);
            expect(await endOf(server, moduleId, workspace.id, run.id)).toBe("errored");
            await afterSteps(2, STEP_MS);
            expect(await runStatus(server, moduleId, workspace.id, run.id)).toBe("errored");
            expectConflictNaming(await confirm(server, moduleId, workspace.id, run.id), "errored");
            await expectNoCodeUnchanged(server, before, known);

            const next = await initiateUpgrade(server, moduleId, workspace.id, [{ key: "size", value: "5", category: "infra" }]);
            expect(await endOf(server, moduleId, workspace.id, next.id)).toBe("planned");
        } finally {
            await server.clearFaults();
        }
    });

    test("a new initiate discards an unconfirmed cost_estimated run (initech)", async () => {
        const { moduleId, workspace } = await moduleWithWorkspace(started, { organization: "initech" });
        const token = TOKENS.initechOwners;
        const first = await initiateUpgrade(server, moduleId, workspace.id, [{ key: "size", value: "2", category: "infra" }], token);
        await pollRun(server, { moduleId, workspaceId: workspace.id, runId: first.id }, { token, until: ["cost_estimated", "errored", "planned_and_finished"] });
        await initiateUpgrade(server, moduleId, workspace.id, [{ key: "size", value: "3", category: "infra" }], token);
        expect(await runStatus(server, moduleId, workspace.id, first.id, token)).toBe("discarded");
        expectConflictNaming(await confirm(server, moduleId, workspace.id, first.id, token), "discarded");
    });

    test("a sensitive value outside the options: 422 at its value, and the value appears nowhere in the answer", async () => {
        const { moduleId, workspace } = await moduleWithWorkspace(started, {
            module: { variableOptions: [{ variableName: "region", variableType: "string", options: ["eu-west-1", "us-east-1"] }] },
        });
        const response = await clientFor(server, TOKENS.owners).post(
            noCodePaths.upgrade(moduleId, workspace.id),
            upgradeDocument([{ key: "region", value: "hidden-region-value", category: "infra", sensitive: true }]),
        );
        expectValidation(response, "/data/relationships/vars/data/0/attributes/value");
        expect(response.text).not.toContain("hidden-region-value");
    });

    test("confirm twice: 200, then 409 naming applied; the run reads applied", async () => {
        const { moduleId, workspace } = await moduleWithWorkspace(started);
        const run = await initiateUpgrade(server, moduleId, workspace.id, [{ key: "size", value: "4", category: "infra" }]);
        expect(await endOf(server, moduleId, workspace.id, run.id)).toBe("planned");
        expectStatus(await confirm(server, moduleId, workspace.id, run.id), 200);
        const known = { modules: [moduleId], workspaces: [workspace.id] };
        const before = await noCodeSnapshot(server, known);
        expectConflictNaming(await confirm(server, moduleId, workspace.id, run.id), "applied");
        await expectNoCodeUnchanged(server, before, known);
        expect(await runStatus(server, moduleId, workspace.id, run.id)).toBe("applied");
    });

    test("a new initiate discards an unconfirmed planned run: it reads discarded, its confirm is a 409, the new run's vars are the ones applied", async () => {
        const { moduleId, workspace } = await moduleWithWorkspace(started);
        const first = await initiateUpgrade(server, moduleId, workspace.id, [{ key: "size", value: "10", category: "infra" }]);
        expect(await endOf(server, moduleId, workspace.id, first.id)).toBe("planned");
        const second = await initiateUpgrade(server, moduleId, workspace.id, [{ key: "size", value: "20", category: "infra" }]);
        expect(second.id).not.toBe(first.id);
        expect(await runStatus(server, moduleId, workspace.id, first.id)).toBe("discarded");

        const known = { modules: [moduleId], workspaces: [workspace.id] };
        const before = await noCodeSnapshot(server, known);
        expectConflictNaming(await confirm(server, moduleId, workspace.id, first.id), "discarded");
        await expectNoCodeUnchanged(server, before, known);

        expect(await endOf(server, moduleId, workspace.id, second.id)).toBe("planned");
        expectStatus(await confirm(server, moduleId, workspace.id, second.id), 200);
        const size = (await workspaceVars(server, workspace.id)).find((variable) => variable.attributes.key === "size");
        expect(size.attributes.value).toBe("20");
        expect(await runStatus(server, moduleId, workspace.id, first.id)).toBe("discarded");
    });

    test("a plan that ended planned_and_finished is not what blocks or is discarded: a new upgrade starts and ends", async () => {
        const { moduleId, workspace } = await moduleWithWorkspace(started);
        const first = await initiateUpgrade(server, moduleId, workspace.id);
        expect(await endOf(server, moduleId, workspace.id, first.id)).toBe("planned_and_finished");
        const second = await initiateUpgrade(server, moduleId, workspace.id, [{ key: "size", value: "7", category: "infra" }]);
        expect(await endOf(server, moduleId, workspace.id, second.id)).toBe("planned");
    });

    describe("var rules, judged against the module's current pin", () => {
        test("an infra var the pinned version does not declare: 422 at its key, nothing written", async () => {
            const { moduleId, workspace } = await moduleWithWorkspace(started, { module: { versionPin: "1.0.0" } });
            const known = { modules: [moduleId], workspaces: [workspace.id] };
            const before = await noCodeSnapshot(server, known);
            const response = await clientFor(server, TOKENS.owners).post(
                noCodePaths.upgrade(moduleId, workspace.id),
                upgradeDocument([
                    { key: "size", value: "2", category: "infra" },
                    { key: "tags", value: "{}", category: "infra", hcl: true },
                ]),
            );
            expectValidation(response, "/data/relationships/vars/data/1/attributes/key");
            await expectNoCodeUnchanged(server, before, known);
        });

        test("a variable of the new pin is accepted once the module's pin moved (tags at 1.1.0)", async () => {
            const { moduleId, workspace } = await moduleWithWorkspace(started, { module: { versionPin: "1.0.0" } });
            await updateNoCodeModule(server, moduleId, { versionPin: "1.1.0" });
            const run = await initiateUpgrade(server, moduleId, workspace.id, [{ key: "tags", value: "{}", category: "infra", hcl: true }]);
            expect(await endOf(server, moduleId, workspace.id, run.id)).toBe("planned");
            expectStatus(await confirm(server, moduleId, workspace.id, run.id), 200);
            expect((await workspaceVars(server, workspace.id)).map((variable) => variable.attributes.key).sort()).toEqual(["region", "tags"]);
        });

        test("a required variable of the module's new version must be given by the body when the workspace lacks it", async () => {
            const { moduleId, workspace } = await moduleWithWorkspace(started);
            await updateNoCodeModule(server, moduleId, { registryModuleId: started.registryModule("network") });
            const known = { modules: [moduleId], workspaces: [workspace.id] };
            const before = await noCodeSnapshot(server, known);
            const missing = await clientFor(server, TOKENS.owners).post(noCodePaths.upgrade(moduleId, workspace.id), upgradeDocument());
            const errors = expectValidation(missing, "/data/relationships/vars");
            expect(errors.find((error: any) => error.source.pointer === "/data/relationships/vars").detail).toContain("cidr");
            await expectNoCodeUnchanged(server, before, known);
            const run = await initiateUpgrade(server, moduleId, workspace.id, [{ key: "cidr", value: "10.0.0.0/16", category: "infra" }]);
            expect(await endOf(server, moduleId, workspace.id, run.id)).toBe("planned");
        });

        test("a value outside the variable's options: 422 at its value, nothing written", async () => {
            const { moduleId, workspace } = await moduleWithWorkspace(started, {
                module: { variableOptions: [{ variableName: "size", variableType: "number", options: ["1", "2"] }] },
            });
            const known = { modules: [moduleId], workspaces: [workspace.id] };
            const before = await noCodeSnapshot(server, known);
            const response = await clientFor(server, TOKENS.owners).post(
                noCodePaths.upgrade(moduleId, workspace.id),
                upgradeDocument([{ key: "size", value: "3", category: "infra" }]),
            );
            const errors = expectValidation(response, "/data/relationships/vars/data/0/attributes/value");
            expect(errors.map((error: any) => error.detail).join(" ")).toContain("2");
            await expectNoCodeUnchanged(server, before, known);
        });

        test("options added after the workspace was made apply to its upgrade", async () => {
            const { moduleId, workspace } = await moduleWithWorkspace(started);
            await updateNoCodeModule(server, moduleId, {
                variableOptions: [{ variableName: "region", variableType: "string", options: ["us-east-1"] }],
            });
            const response = await clientFor(server, TOKENS.owners).post(
                noCodePaths.upgrade(moduleId, workspace.id),
                upgradeDocument([{ key: "region", value: "eu-central-1", category: "infra" }]),
            );
            expectValidation(response, "/data/relationships/vars/data/0/attributes/value");
        });

        test("a key twice in one category: 422, nothing written", async () => {
            const { moduleId, workspace } = await moduleWithWorkspace(started);
            const known = { modules: [moduleId], workspaces: [workspace.id] };
            const before = await noCodeSnapshot(server, known);
            const response = await clientFor(server, TOKENS.owners).post(
                noCodePaths.upgrade(moduleId, workspace.id),
                upgradeDocument([
                    { key: "size", value: "1", category: "infra" },
                    { key: "size", value: "2", category: "infra" },
                ]),
            );
            expectValidation(response);
            await expectNoCodeUnchanged(server, before, known);
        });

        test("a wrong data.type: 422 at /data/type", async () => {
            const { moduleId, workspace } = await moduleWithWorkspace(started);
            expectValidation(
                await clientFor(server, TOKENS.owners).post(noCodePaths.upgrade(moduleId, workspace.id), { data: { type: "vars" } }),
                "/data/type",
            );
        });
    });

    describe("404: the run, the workspace and the module must belong together", () => {
        test("a run read or confirmed through another module or another workspace: 404, nothing changes", async () => {
            const a = await moduleWithWorkspace(started);
            const other = await createNoCodeWorkspace(server, a.moduleId, { projectId: started.ids.Apps });
            const b = await moduleWithWorkspace(started);
            const run = await initiateUpgrade(server, a.moduleId, a.workspace.id, [{ key: "size", value: "9", category: "infra" }]);
            expect(await endOf(server, a.moduleId, a.workspace.id, run.id)).toBe("planned");
            const known = { modules: [a.moduleId, b.moduleId], workspaces: [a.workspace.id, other.id, b.workspace.id] };
            const before = await noCodeSnapshot(server, known);
            const owners = clientFor(server, TOKENS.owners);
            for (const [moduleId, workspaceId, runId] of [
                [b.moduleId, a.workspace.id, run.id],
                [a.moduleId, other.id, run.id],
                [b.moduleId, b.workspace.id, run.id],
                [a.moduleId, a.workspace.id, "run-doesnotexist0000"],
            ]) {
                expectErrors(await owners.get(noCodePaths.run(moduleId, workspaceId, runId)), 404);
                expectErrors(await owners.post(noCodePaths.run(moduleId, workspaceId, runId)), 404);
            }
            await expectNoCodeUnchanged(server, before, known);
            expect(await runStatus(server, a.moduleId, a.workspace.id, run.id)).toBe("planned");
        });

        test("an initiate for a workspace not made from this module: 404, nothing written", async () => {
            const a = await moduleWithWorkspace(started);
            const b = await moduleWithWorkspace(started);
            const known = { modules: [a.moduleId, b.moduleId], workspaces: [a.workspace.id, b.workspace.id] };
            const before = await noCodeSnapshot(server, known);
            const owners = clientFor(server, TOKENS.owners);
            const body = upgradeDocument([{ key: "size", value: "2", category: "infra" }]);
            expectErrors(await owners.post(noCodePaths.upgrade(b.moduleId, a.workspace.id), body), 404);
            expectErrors(await owners.post(noCodePaths.upgrade(a.moduleId, WORKSPACES.appsLegacy), body), 404);
            expectErrors(await owners.post(noCodePaths.upgrade(a.moduleId, "ws-doesnotexist0000"), body), 404);
            expectErrors(await owners.post(noCodePaths.upgrade("nocode-doesnotexist00", a.workspace.id), body), 404);
            await expectNoCodeUnchanged(server, before, known);
        });

        test("after the module is deleted, its workspaces' upgrade endpoints answer 404", async () => {
            const { moduleId, workspace } = await moduleWithWorkspace(started);
            const run = await initiateUpgrade(server, moduleId, workspace.id, [{ key: "size", value: "2", category: "infra" }]);
            expect(await endOf(server, moduleId, workspace.id, run.id)).toBe("planned");
            expectStatus(await clientFor(server, TOKENS.owners).delete(noCodePaths.module(moduleId)), 204);
            const owners = clientFor(server, TOKENS.owners);
            expectErrors(await owners.get(noCodePaths.run(moduleId, workspace.id, run.id)), 404);
            expectErrors(await owners.post(noCodePaths.run(moduleId, workspace.id, run.id)), 404);
            expectErrors(await owners.post(noCodePaths.upgrade(moduleId, workspace.id), upgradeDocument()), 404);
            expect(varContents(await workspaceVars(server, workspace.id)).map((variable) => variable.key)).toEqual(["region"]);
        });
    });
});

describe("every status is observed (400 ms steps)", () => {
    const STEP_MS = 400;
    let started: NoCodeServer;
    let server: TestServer;
    withNoCodeServer(
        (value) => {
            started = value;
            server = value.server;
        },
        { planStepMs: STEP_MS },
    );

    test("acme (no cost estimation): pending -> fetching -> planning -> planned, and planned stays", async () => {
        const { moduleId, workspace } = await moduleWithWorkspace(started);
        const run = await initiateUpgrade(server, moduleId, workspace.id, [{ key: "size", value: "2", category: "infra" }]);
        expect(run.attributes.status).toBe("pending");
        const seen = await pollRun(server, { moduleId, workspaceId: workspace.id, runId: run.id });
        expect(["pending", ...seen.filter((status) => status !== "pending")]).toEqual(["pending", "fetching", "planning", "planned"]);
        await afterSteps(2, STEP_MS);
        expect(await runStatus(server, moduleId, workspace.id, run.id)).toBe("planned");
    });

    test("initech (cost estimation on): ... -> planned -> cost_estimated, which may be confirmed", async () => {
        const { moduleId, workspace } = await moduleWithWorkspace(started, { organization: "initech" });
        const token = TOKENS.initechOwners;
        const run = await initiateUpgrade(server, moduleId, workspace.id, [{ key: "size", value: "2", category: "infra" }], token);
        const seen = await pollRun(server, { moduleId, workspaceId: workspace.id, runId: run.id }, { token, until: ["cost_estimated", "errored", "planned_and_finished"] });
        expect(["pending", ...seen.filter((status) => status !== "pending")]).toEqual(["pending", "fetching", "planning", "planned", "cost_estimated"]);
        await afterSteps(2, STEP_MS);
        expect(await runStatus(server, moduleId, workspace.id, run.id, token)).toBe("cost_estimated");
        const response = await confirm(server, moduleId, workspace.id, run.id, token);
        expectStatus(response, 200);
        expect(response.body).toEqual(CONFIRMED);
        expect(await runStatus(server, moduleId, workspace.id, run.id, token)).toBe("applied");
        const size = (await workspaceVars(server, workspace.id, "initech")).find((variable) => variable.attributes.key === "size");
        expect(size.attributes.value).toBe("2");
    });

});

describe("runs that never finish planning (a step of an hour)", () => {
    let started: NoCodeServer;
    let server: TestServer;
    withNoCodeServer(
        (value) => {
            started = value;
            server = value.server;
        },
        { planStepMs: 3_600_000 },
    );

    test("initiate answers pending, and the run stays pending", async () => {
        const { moduleId, workspace } = await moduleWithWorkspace(started);
        const run = await initiateUpgrade(server, moduleId, workspace.id, [{ key: "size", value: "2", category: "infra" }]);
        expect(run.attributes.status).toBe("pending");
        expect(await runStatus(server, moduleId, workspace.id, run.id)).toBe("pending");
    });

    test("confirm before the plan ends: 409 naming the status, nothing changes", async () => {
        const { moduleId, workspace } = await moduleWithWorkspace(started);
        const known = { modules: [moduleId], workspaces: [workspace.id] };
        const before = await noCodeSnapshot(server, known);
        const run = await initiateUpgrade(server, moduleId, workspace.id, [{ key: "size", value: "2", category: "infra" }]);
        expectConflictNaming(await confirm(server, moduleId, workspace.id, run.id), "pending");
        await expectNoCodeUnchanged(server, before, known);
        expect(await runStatus(server, moduleId, workspace.id, run.id)).toBe("pending");
    });

    test("a second initiate while the first is unfinished: 409, the first run goes on, nothing changes", async () => {
        const { moduleId, workspace } = await moduleWithWorkspace(started);
        const run = await initiateUpgrade(server, moduleId, workspace.id, [{ key: "size", value: "2", category: "infra" }]);
        const known = { modules: [moduleId], workspaces: [workspace.id] };
        const before = await noCodeSnapshot(server, known);
        expectErrors(
            await clientFor(server, TOKENS.owners).post(noCodePaths.upgrade(moduleId, workspace.id), upgradeDocument([{ key: "size", value: "3", category: "infra" }])),
            409,
        );
        expectErrors(await clientFor(server, TOKENS.owners).post(noCodePaths.upgrade(moduleId, workspace.id), upgradeDocument()), 409);
        await expectNoCodeUnchanged(server, before, known);
        expect(await runStatus(server, moduleId, workspace.id, run.id)).toBe("pending");
    });

    test("an unfinished run of one workspace does not block another workspace of the module", async () => {
        const { moduleId, workspace } = await moduleWithWorkspace(started);
        const other = await createNoCodeWorkspace(server, moduleId, { projectId: started.ids.Apps });
        await initiateUpgrade(server, moduleId, workspace.id, [{ key: "size", value: "2", category: "infra" }]);
        const run = await initiateUpgrade(server, moduleId, other.id, [{ key: "size", value: "2", category: "infra" }]);
        expect(run.attributes.status).toBe("pending");
    });

    test("a refused initiate starts no run: the next valid initiate is not blocked", async () => {
        const { moduleId, workspace } = await moduleWithWorkspace(started);
        expectValidation(
            await clientFor(server, TOKENS.owners).post(
                noCodePaths.upgrade(moduleId, workspace.id),
                upgradeDocument([{ key: "colour", value: "red", category: "infra" }]),
            ),
            "/data/relationships/vars/data/0/attributes/key",
        );
        const run = await initiateUpgrade(server, moduleId, workspace.id, [{ key: "size", value: "2", category: "infra" }]);
        expect(run.attributes.status).toBe("pending");
    });
});
