/**
 * Details of the no-code workspace and upgrade routes (`server/routes/noCodeWorkspaces.ts`) that the contract
 * tests of noCodeWorkspaces.test.ts and noCodeUpgrade.test.ts leave open: the exact error objects of their
 * refusals (a module not enabled, a key twice, a value outside the options, missing required variables, a
 * confirm in a status that cannot be confirmed, an unknown run); the `setting-overwrites` a create records;
 * that an empty options set restricts nothing; that an existing `env` var is not the `infra` var of the same
 * key (neither for the required-variables rule, nor for the attributes it keeps, nor for "nothing changes");
 * that `hcl` and `sensitive` count for `planned_and_finished`; and the run's status at the exact step
 * boundaries: a plan step of 0 is at its end on the first read (even at the very millisecond of the start,
 * or with the clock set back), and with cost estimation the run reads `cost_estimated` from exactly 4 steps.
 *
 * The boundaries are placed by holding the clock of this process (the service runs in it) at chosen instants
 * with a spy on `Date.now`: the start of a run and every read are then exact, not timed. `upgradeStatus` is
 * also asked directly with literal rows, for the same boundaries.
 */
import { TOKENS } from "../support/seed";
import type { TestServer } from "../support/server";
import type { WorkspaceUpgradeRow } from "../../server/records/workspaceUpgrades";
import { upgradeStatus } from "../../server/routes/noCodeWorkspaces";
import {
    clientFor,
    createNoCodeModule,
    createNoCodeWorkspace,
    createVariable,
    expectErrors,
    expectNoCodeUnchanged,
    expectNoWorkspaceNamed,
    expectStatus,
    initiateUpgrade,
    moduleWithWorkspace,
    noCodePaths,
    noCodeSnapshot,
    noCodeTestSeed,
    noCodeVersionOf,
    noCodeWorkspaceDocument,
    uniqueWorkspaceName,
    updateNoCodeModule,
    upgradeDocument,
    varContents,
    workspaceVars,
    withNoCodeServer,
    type HttpResponse,
    type NoCodeServer,
} from "./helpers";

const CONFIRMED = { message: "Workspace update completed" };
const VARS = "/data/relationships/vars";

/** acme registry modules (added to the seed by this file) whose version 3.0.0 has two required variables. */
const TWO_REQUIRED_MODULES = ["mod-tworequired00001", "mod-tworequired00002"] as const;

/** {@link noCodeTestSeed} plus {@link TWO_REQUIRED_MODULES}. */
function seedWithTwoRequired() {
    const seed = noCodeTestSeed();
    const acme = seed.organizations.find((organization) => organization.name === "acme")!;
    for (const [index, id] of TWO_REQUIRED_MODULES.entries()) {
        acme.registryModules!.push({
            id,
            name: `tworequired-${index + 1}`,
            provider: "aws",
            noCodeReady: true,
            versions: [
                {
                    version: "3.0.0",
                    variables: [
                        { name: "alpha", type: "string", required: true },
                        { name: "beta", type: "string", required: true },
                        { name: "gamma", type: "string", required: false, default: "g" },
                    ],
                },
            ],
        });
    }
    return seed;
}

/** The one error object of a refusal (the answer must hold exactly one). */
function onlyError(response: HttpResponse, status: number): any {
    const errors = expectErrors(response, status);
    expect(errors).toHaveLength(1);
    return errors[0];
}

/** Confirms a run as the acme owners (unless told). */
function confirm(server: TestServer, moduleId: string, workspaceId: string, runId: string, token: string = TOKENS.owners) {
    return clientFor(server, token).post(noCodePaths.run(moduleId, workspaceId, runId));
}

/** Reads a run as the acme owners (unless told) and returns its status. */
async function statusOf(server: TestServer, moduleId: string, workspaceId: string, runId: string, token: string = TOKENS.owners): Promise<string> {
    const response = await clientFor(server, token).get(noCodePaths.run(moduleId, workspaceId, runId));
    expectStatus(response, 200);
    return response.body.data.attributes.status;
}

/** A workspace's `setting-overwrites`, read back. */
async function settingOverwritesOf(server: TestServer, workspaceId: string): Promise<unknown> {
    const response = await clientFor(server, TOKENS.owners).get(`/workspaces/${workspaceId}`);
    expectStatus(response, 200);
    return response.body.data.attributes["setting-overwrites"];
}

/**
 * Runs `action` with this process's clock (the service's too: it runs in-process) held at `atMs`, so that a
 * run started in it starts at `atMs` and a read in it reads at `atMs`.
 */
async function atClock<T>(atMs: number, action: () => Promise<T>): Promise<T> {
    const spy = jest.spyOn(Date, "now").mockReturnValue(atMs);
    try {
        return await action();
    } finally {
        spy.mockRestore();
    }
}

describe("upgradeStatus at the step boundaries (literal rows)", () => {
    /** A run started at 1,000,000 ms with steps of 1000 ms. */
    function row(overrides: Partial<WorkspaceUpgradeRow>): WorkspaceUpgradeRow {
        return {
            id: "run-boundaries000000",
            workspace_id: "ws-boundaries0000000",
            no_code_module_id: "nocode-boundaries000",
            target_version_id: "nocodever-boundaries",
            vars: "[]",
            plan_outcome: "planned",
            cost_estimation: 0,
            started_at_ms: 1_000_000,
            step_ms: 1000,
            final_state: null,
            created_at: "2026-01-01T00:00:00.000Z",
            updated_at: "2026-01-01T00:00:00.000Z",
            ...overrides,
        };
    }

    test("with cost estimation: planned from 3 steps, cost_estimated from exactly 4 steps (4000 ms), not before", () => {
        const run = row({ cost_estimation: 1 });
        expect(upgradeStatus(run, 1_000_000 + 2999)).toBe("planning");
        expect(upgradeStatus(run, 1_000_000 + 3000)).toBe("planned");
        expect(upgradeStatus(run, 1_000_000 + 3999)).toBe("planned");
        expect(upgradeStatus(run, 1_000_000 + 4000)).toBe("cost_estimated");
        expect(upgradeStatus(run, 1_000_000 + 4999)).toBe("cost_estimated");
        expect(upgradeStatus(run, 1_000_000 + 5000)).toBe("cost_estimated");
    });

    test("without cost estimation: planned at 4 steps and after", () => {
        const run = row({ cost_estimation: 0 });
        expect(upgradeStatus(run, 1_000_000 + 4000)).toBe("planned");
        expect(upgradeStatus(run, 1_000_000 + 400_000)).toBe("planned");
    });

    test("a step of 0 ms is at the end at once: at the start's very millisecond, later, and with the clock set back", () => {
        for (const nowMs of [1_000_000, 1_000_001, 999_000]) {
            expect(upgradeStatus(row({ step_ms: 0, cost_estimation: 1 }), nowMs)).toBe("cost_estimated");
            expect(upgradeStatus(row({ step_ms: 0, cost_estimation: 0 }), nowMs)).toBe("planned");
            expect(upgradeStatus(row({ step_ms: 0, cost_estimation: 1, plan_outcome: "planned_and_finished" }), nowMs)).toBe("planned_and_finished");
        }
    });

    test("a positive step with the clock set back reads as the start: pending", () => {
        expect(upgradeStatus(row({ step_ms: 1000, cost_estimation: 1 }), 999_000)).toBe("pending");
        expect(upgradeStatus(row({ step_ms: 1, cost_estimation: 1 }), 999_999)).toBe("pending");
    });
});

describe("plan steps of 0 ms: the run is at its end on the first read", () => {
    let started: NoCodeServer;
    let server: TestServer;
    withNoCodeServer(
        (value) => {
            started = value;
            server = value.server;
        },
        { planStepMs: 0, seed: seedWithTwoRequired() },
    );

    test("with cost estimation (initech): the initiate's answer (read at the start's very millisecond) and every read are cost_estimated; the confirm applies", async () => {
        const { moduleId, workspace } = await moduleWithWorkspace(started, { organization: "initech" });
        const token = TOKENS.initechOwners;
        const run = await initiateUpgrade(server, moduleId, workspace.id, [{ key: "size", value: "4", category: "infra" }], token);
        expect(run.attributes.status).toBe("cost_estimated");
        expect(await statusOf(server, moduleId, workspace.id, run.id, token)).toBe("cost_estimated");
        // The clock set back an hour: a plan of 0 ms steps is still at its end.
        expect(await atClock(Date.now() - 3_600_000, () => statusOf(server, moduleId, workspace.id, run.id, token))).toBe("cost_estimated");
        const response = await confirm(server, moduleId, workspace.id, run.id, token);
        expectStatus(response, 200);
        expect(response.body).toEqual(CONFIRMED);
        expect(varContents(await workspaceVars(server, workspace.id, "initech"))).toEqual([
            { key: "region", category: "infra", value: "eu-west-1", description: null, hcl: false, sensitive: false },
            { key: "size", category: "infra", value: "4", description: null, hcl: false, sensitive: false },
        ]);
        expect(await statusOf(server, moduleId, workspace.id, run.id, token)).toBe("applied");
    });

    test("without cost estimation (acme): planned at once, also with the clock set back; the confirm applies", async () => {
        const { moduleId, workspace } = await moduleWithWorkspace(started);
        const run = await initiateUpgrade(server, moduleId, workspace.id, [{ key: "size", value: "5", category: "infra" }]);
        expect(run.attributes.status).toBe("planned");
        expect(await atClock(Date.now() - 3_600_000, () => statusOf(server, moduleId, workspace.id, run.id))).toBe("planned");
        expect(await statusOf(server, moduleId, workspace.id, run.id)).toBe("planned");
        expectStatus(await confirm(server, moduleId, workspace.id, run.id), 200);
        expect(varContents(await workspaceVars(server, workspace.id))).toEqual([
            { key: "region", category: "infra", value: "eu-west-1", description: null, hcl: false, sensitive: false },
            { key: "size", category: "infra", value: "5", description: null, hcl: false, sensitive: false },
        ]);
    });

    describe("create refusals: the exact error object, nothing written", () => {
        test("a module that is not enabled: 422 at /data", async () => {
            const module = await createNoCodeModule(server, { registryModuleId: started.registryModule(), enabled: false });
            const name = uniqueWorkspaceName();
            const known = { modules: [module.id] };
            const before = await noCodeSnapshot(server, known);
            const response = await started.owners.post(
                noCodePaths.workspaces(module.id),
                noCodeWorkspaceDocument({ name, projectId: started.ids.Apps, vars: [{ key: "region", value: "eu-west-1", category: "infra" }] }),
            );
            expect(onlyError(response, 422)).toEqual({
                status: "422",
                title: "invalid attribute",
                detail: "No-code provisioning is not enabled for this module; enable it (enabled: true) before creating workspaces from it",
                source: { pointer: "/data" },
            });
            await expectNoWorkspaceNamed(server, name);
            await expectNoCodeUnchanged(server, before, known);
        });

        test("a key twice in one category: 422 at the second one's key", async () => {
            const module = await createNoCodeModule(server, { registryModuleId: started.registryModule(), enabled: true });
            const name = uniqueWorkspaceName();
            const response = await started.owners.post(
                noCodePaths.workspaces(module.id),
                noCodeWorkspaceDocument({
                    name,
                    projectId: started.ids.Apps,
                    vars: [
                        { key: "region", value: "eu-west-1", category: "infra" },
                        { key: "FOO", value: "a", category: "env" },
                        { key: "FOO", value: "b", category: "env" },
                    ],
                }),
            );
            expect(onlyError(response, 422)).toEqual({
                status: "422",
                title: "invalid attribute",
                detail: "Var 'FOO' (env) appears more than once",
                source: { pointer: `${VARS}/data/2/attributes/key` },
            });
            await expectNoWorkspaceNamed(server, name);
        });

        test("a value outside the options: 422 at its value listing every allowed value", async () => {
            const module = await createNoCodeModule(server, {
                registryModuleId: started.registryModule(),
                enabled: true,
                variableOptions: [{ variableName: "size", variableType: "number", options: ["1", "2", "3"] }],
            });
            const name = uniqueWorkspaceName();
            const response = await started.owners.post(
                noCodePaths.workspaces(module.id),
                noCodeWorkspaceDocument({
                    name,
                    projectId: started.ids.Apps,
                    vars: [
                        { key: "region", value: "eu-west-1", category: "infra" },
                        { key: "size", value: "9", category: "infra" },
                    ],
                }),
            );
            expect(onlyError(response, 422)).toEqual({
                status: "422",
                title: "invalid attribute",
                detail: "Value '9' of 'size' is not allowed; it must be one of: '1', '2', '3'",
                source: { pointer: `${VARS}/data/1/attributes/value` },
            });
            await expectNoWorkspaceNamed(server, name);
        });

        test("two required variables missing: 422 at the vars naming both", async () => {
            const module = await createNoCodeModule(server, { registryModuleId: TWO_REQUIRED_MODULES[0], enabled: true });
            const name = uniqueWorkspaceName();
            const response = await started.owners.post(
                noCodePaths.workspaces(module.id),
                noCodeWorkspaceDocument({ name, projectId: started.ids.Apps, vars: [{ key: "gamma", value: "x", category: "infra" }] }),
            );
            expect(onlyError(response, 422)).toEqual({
                status: "422",
                title: "invalid attribute",
                detail: "Required variables of the module's version 3.0.0 must be given as infra vars: alpha, beta",
                source: { pointer: VARS },
            });
            await expectNoWorkspaceNamed(server, name);
            // Both given: the create goes through, and the vars read back.
            const made = await createNoCodeWorkspace(server, module.id, {
                projectId: started.ids.Apps,
                vars: [
                    { key: "alpha", value: "a", category: "infra" },
                    { key: "beta", value: "b", category: "infra" },
                ],
            });
            expect(varContents(await workspaceVars(server, made.id)).map((variable) => variable.key)).toEqual(["alpha", "beta"]);
        });
    });

    test("an options set with no options restricts nothing: any value is accepted and reads back", async () => {
        const module = await createNoCodeModule(server, {
            registryModuleId: started.registryModule(),
            enabled: true,
            variableOptions: [{ variableName: "size", variableType: "number" }],
        });
        const made = await createNoCodeWorkspace(server, module.id, {
            projectId: started.ids.Apps,
            vars: [
                { key: "region", value: "eu-west-1", category: "infra" },
                { key: "size", value: "42", category: "infra" },
            ],
        });
        expect(varContents(await workspaceVars(server, made.id))).toEqual([
            { key: "region", category: "infra", value: "eu-west-1", description: null, hcl: false, sensitive: false },
            { key: "size", category: "infra", value: "42", description: null, hcl: false, sensitive: false },
        ]);
        // An upgrade to yet another value is accepted too.
        const run = await initiateUpgrade(server, module.id, made.id, [{ key: "size", value: "43", category: "infra" }]);
        expect(run.attributes.status).toBe("planned");
    });

    describe("setting-overwrites of a created workspace: what the create named", () => {
        test.each([
            ["neither execution mode nor agent pool", {}, { "execution-mode": false, "agent-pool": false }],
            ["execution mode remote", { "execution-mode": "remote" }, { "execution-mode": true, "agent-pool": true }],
            ["execution mode agent with a pool", { "execution-mode": "agent", "agent-pool-id": "apool-0000000000000001" }, { "execution-mode": true, "agent-pool": true }],
            ["agent pool null alone", { "agent-pool-id": null }, { "execution-mode": false, "agent-pool": true }],
        ])("%s", async (_label, attributes, expected) => {
            const module = await createNoCodeModule(server, { registryModuleId: started.registryModule(), enabled: true });
            const made = await createNoCodeWorkspace(server, module.id, { projectId: started.ids.Apps, attributes });
            expect(made.attributes["setting-overwrites"]).toEqual(expected);
            expect(await settingOverwritesOf(server, made.id)).toEqual(expected);
        });
    });

    describe("an env var is not the infra var of the same key", () => {
        test("an env var named like the new version's required variable does not satisfy it: 422 naming it, nothing written", async () => {
            const { moduleId, workspace } = await moduleWithWorkspace(started);
            await createVariable(server, workspace.id, { key: "cidr", value: "10.0.0.0/16", category: "env" });
            await updateNoCodeModule(server, moduleId, { registryModuleId: started.registryModule("network") });
            const known = { modules: [moduleId], workspaces: [workspace.id] };
            const before = await noCodeSnapshot(server, known);
            const response = await started.owners.post(noCodePaths.upgrade(moduleId, workspace.id), upgradeDocument());
            expect(onlyError(response, 422)).toEqual({
                status: "422",
                title: "invalid attribute",
                detail: "Required variables of the module's version 2.0.0 must be given as infra vars: cidr",
                source: { pointer: VARS },
            });
            await expectNoCodeUnchanged(server, before, known);
            // No run was started: the next initiate (with cidr as infra var) is planned at once, not refused as a second run.
            const run = await initiateUpgrade(server, moduleId, workspace.id, [{ key: "cidr", value: "10.1.0.0/16", category: "infra" }]);
            expect(run.attributes.status).toBe("planned");
        });

        test("an infra var new to the workspace takes the defaults, not the attributes of the env var of that key", async () => {
            const { moduleId, workspace } = await moduleWithWorkspace(started, {
                workspace: {
                    vars: [
                        { key: "size", value: "env-size", category: "env", description: "the env one", hcl: true, sensitive: true },
                        { key: "region", value: "eu-west-1", category: "infra" },
                    ],
                },
            });
            const run = await initiateUpgrade(server, moduleId, workspace.id, [{ key: "size", value: "3", category: "infra" }]);
            expect(run.attributes.status).toBe("planned");
            expectStatus(await confirm(server, moduleId, workspace.id, run.id), 200);
            expect(varContents(await workspaceVars(server, workspace.id))).toEqual([
                { key: "size", category: "env", value: null, description: "the env one", hcl: true, sensitive: true },
                { key: "region", category: "infra", value: "eu-west-1", description: null, hcl: false, sensitive: false },
                { key: "size", category: "infra", value: "3", description: null, hcl: false, sensitive: false },
            ]);
        });

        test("an infra var with the value of an env var of that key is a change: planned, and the confirm adds it", async () => {
            const { moduleId, workspace } = await moduleWithWorkspace(started, {
                workspace: {
                    vars: [
                        { key: "region", value: "eu-west-1", category: "infra" },
                        { key: "size", value: "2", category: "env" },
                    ],
                },
            });
            const run = await initiateUpgrade(server, moduleId, workspace.id, [{ key: "size", value: "2", category: "infra" }]);
            expect(run.attributes.status).toBe("planned");
            expectStatus(await confirm(server, moduleId, workspace.id, run.id), 200);
            expect(varContents(await workspaceVars(server, workspace.id))).toEqual([
                { key: "size", category: "env", value: "2", description: null, hcl: false, sensitive: false },
                { key: "region", category: "infra", value: "eu-west-1", description: null, hcl: false, sensitive: false },
                { key: "size", category: "infra", value: "2", description: null, hcl: false, sensitive: false },
            ]);
        });
    });

    describe("hcl and sensitive count for planned_and_finished", () => {
        test("an hcl var sent again as it is (hcl true): planned_and_finished, and the confirm changes nothing", async () => {
            const { moduleId, workspace } = await moduleWithWorkspace(started, {
                workspace: {
                    vars: [
                        { key: "region", value: "eu-west-1", category: "infra" },
                        { key: "tags", value: "{}", category: "infra", hcl: true },
                    ],
                },
            });
            const run = await initiateUpgrade(server, moduleId, workspace.id, [{ key: "tags", value: "{}", category: "infra", hcl: true }]);
            expect(run.attributes.status).toBe("planned_and_finished");
            const known = { modules: [moduleId], workspaces: [workspace.id] };
            const before = await noCodeSnapshot(server, known);
            expectStatus(await confirm(server, moduleId, workspace.id, run.id), 200);
            await expectNoCodeUnchanged(server, before, known);
        });

        test("a sensitive var sent again as it is (same value, sensitive true): planned_and_finished", async () => {
            const { moduleId, workspace } = await moduleWithWorkspace(started, {
                workspace: {
                    vars: [
                        { key: "region", value: "eu-west-1", category: "infra" },
                        { key: "TOKEN", value: "same-secret", category: "env", sensitive: true },
                    ],
                },
            });
            const run = await initiateUpgrade(server, moduleId, workspace.id, [{ key: "TOKEN", value: "same-secret", category: "env", sensitive: true }]);
            expect(run.attributes.status).toBe("planned_and_finished");
        });

        test("a plain var made sensitive with the same value is a change: planned, and the confirm makes it write-only", async () => {
            const { moduleId, workspace } = await moduleWithWorkspace(started, {
                workspace: {
                    vars: [
                        { key: "region", value: "eu-west-1", category: "infra" },
                        { key: "FOO", value: "bar", category: "env" },
                    ],
                },
            });
            const run = await initiateUpgrade(server, moduleId, workspace.id, [{ key: "FOO", value: "bar", category: "env", sensitive: true }]);
            expect(run.attributes.status).toBe("planned");
            expectStatus(await confirm(server, moduleId, workspace.id, run.id), 200);
            expect(varContents(await workspaceVars(server, workspace.id))).toEqual([
                { key: "FOO", category: "env", value: null, description: null, hcl: false, sensitive: true },
                { key: "region", category: "infra", value: "eu-west-1", description: null, hcl: false, sensitive: false },
            ]);
        });
    });

    describe("confirm refusals: 409 naming the status and why; nothing written", () => {
        test("an errored run (planOutcome fault): only a planned or cost_estimated plan can be confirmed", async () => {
            const { moduleId, workspace } = await moduleWithWorkspace(started);
            await server.addFault({ method: "POST", path: `/no-code-modules/${moduleId}/workspaces/${workspace.id}/upgrade$`, planOutcome: "errored" });
            let run: any;
            try {
                run = await initiateUpgrade(server, moduleId, workspace.id, [{ key: "size", value: "5", category: "infra" }]);
            } finally {
                await server.clearFaults();
            }
            expect(run.attributes.status).toBe("errored");
            const known = { modules: [moduleId], workspaces: [workspace.id] };
            const before = await noCodeSnapshot(server, known);
            expect(onlyError(await confirm(server, moduleId, workspace.id, run.id), 409)).toEqual({
                status: "409",
                title: "conflict",
                detail: `The upgrade ${run.id} cannot be confirmed: its status is 'errored' (only a plan in 'planned' or 'cost_estimated' can be confirmed)`,
            });
            await expectNoCodeUnchanged(server, before, known);
            expect(await statusOf(server, moduleId, workspace.id, run.id)).toBe("errored");
        });

        test("an applied run confirmed again: the same reason, and the workspace keeps what the first confirm wrote", async () => {
            const { moduleId, workspace } = await moduleWithWorkspace(started);
            const run = await initiateUpgrade(server, moduleId, workspace.id, [{ key: "size", value: "6", category: "infra" }]);
            expectStatus(await confirm(server, moduleId, workspace.id, run.id), 200);
            const known = { modules: [moduleId], workspaces: [workspace.id] };
            const before = await noCodeSnapshot(server, known);
            expect(onlyError(await confirm(server, moduleId, workspace.id, run.id), 409)).toEqual({
                status: "409",
                title: "conflict",
                detail: `The upgrade ${run.id} cannot be confirmed: its status is 'applied' (only a plan in 'planned' or 'cost_estimated' can be confirmed)`,
            });
            await expectNoCodeUnchanged(server, before, known);
        });
    });

    test("a run unknown, or of another workspace: 404 with the exact error object on read and confirm, nothing written", async () => {
        const a = await moduleWithWorkspace(started);
        const b = await moduleWithWorkspace(started);
        const run = await initiateUpgrade(server, a.moduleId, a.workspace.id, [{ key: "size", value: "7", category: "infra" }]);
        const known = { modules: [a.moduleId, b.moduleId], workspaces: [a.workspace.id, b.workspace.id] };
        const before = await noCodeSnapshot(server, known);
        const expected = { status: "404", title: "not found", detail: "Workspace upgrade not found or you are not authorized to access it" };
        for (const [moduleId, workspaceId, runId] of [
            [a.moduleId, a.workspace.id, "run-doesnotexist0000"],
            [b.moduleId, b.workspace.id, run.id],
        ]) {
            expect(onlyError(await started.owners.get(noCodePaths.run(moduleId, workspaceId, runId)), 404)).toEqual(expected);
            expect(onlyError(await started.owners.post(noCodePaths.run(moduleId, workspaceId, runId)), 404)).toEqual(expected);
        }
        await expectNoCodeUnchanged(server, before, known);
        expect(await statusOf(server, a.moduleId, a.workspace.id, run.id)).toBe("planned");
    });
});

describe("plan steps of an hour, the clock held at chosen instants", () => {
    const STEP_MS = 3_600_000;
    /** The instant every run of this block starts at. */
    const START_MS = Date.UTC(2026, 0, 1);
    let started: NoCodeServer;
    let server: TestServer;
    withNoCodeServer(
        (value) => {
            started = value;
            server = value.server;
        },
        { planStepMs: STEP_MS },
    );

    test("with cost estimation (initech): planned from 3 steps, cost_estimated from exactly 4 steps, not a millisecond before", async () => {
        const { moduleId, workspace } = await moduleWithWorkspace(started, { organization: "initech" });
        const token = TOKENS.initechOwners;
        const run = await atClock(START_MS, () =>
            initiateUpgrade(server, moduleId, workspace.id, [{ key: "size", value: "2", category: "infra" }], token),
        );
        expect(run.attributes.status).toBe("pending");
        const at = (offsetMs: number) => atClock(START_MS + offsetMs, () => statusOf(server, moduleId, workspace.id, run.id, token));
        expect(await at(-1)).toBe("pending");
        expect(await at(STEP_MS - 1)).toBe("pending");
        expect(await at(STEP_MS)).toBe("fetching");
        expect(await at(2 * STEP_MS)).toBe("planning");
        expect(await at(3 * STEP_MS)).toBe("planned");
        expect(await at(4 * STEP_MS - 1)).toBe("planned");
        expect(await at(4 * STEP_MS)).toBe("cost_estimated");
        expect(await at(5 * STEP_MS - 1)).toBe("cost_estimated");
        // Confirmed at exactly 4 steps: it applies, and the var reads back.
        const response = await atClock(START_MS + 4 * STEP_MS, () => confirm(server, moduleId, workspace.id, run.id, token));
        expectStatus(response, 200);
        expect(response.body).toEqual(CONFIRMED);
        expect((await workspaceVars(server, workspace.id, "initech")).find((variable) => variable.attributes.key === "size").attributes.value).toBe("2");
        expect(await at(4 * STEP_MS)).toBe("applied");
    });

    test("without cost estimation (acme): planned at 4 steps and long after", async () => {
        const { moduleId, workspace } = await moduleWithWorkspace(started);
        const run = await atClock(START_MS, () => initiateUpgrade(server, moduleId, workspace.id, [{ key: "size", value: "2", category: "infra" }]));
        const at = (offsetMs: number) => atClock(START_MS + offsetMs, () => statusOf(server, moduleId, workspace.id, run.id));
        expect(await at(3 * STEP_MS - 1)).toBe("planning");
        expect(await at(4 * STEP_MS)).toBe("planned");
        expect(await at(100 * STEP_MS)).toBe("planned");
    });

    test("confirm before the plan ends: 409 saying the plan has not finished; nothing written", async () => {
        const { moduleId, workspace } = await moduleWithWorkspace(started);
        const version = await noCodeVersionOf(server, workspace.id);
        const run = await initiateUpgrade(server, moduleId, workspace.id, [{ key: "size", value: "2", category: "infra" }]);
        const known = { modules: [moduleId], workspaces: [workspace.id] };
        const before = await noCodeSnapshot(server, known);
        expect(onlyError(await confirm(server, moduleId, workspace.id, run.id), 409)).toEqual({
            status: "409",
            title: "conflict",
            detail: `The upgrade ${run.id} cannot be confirmed: its status is 'pending' (its plan has not finished yet)`,
        });
        await expectNoCodeUnchanged(server, before, known);
        expect(await noCodeVersionOf(server, workspace.id)).toBe(version);
        expect(await statusOf(server, moduleId, workspace.id, run.id)).toBe("pending");
    });
});
