/**
 * The authorization matrix of the no-code endpoints (the API's authentication rules, the local service's
 * authorization): 401 with the exact body for a missing, malformed or unknown token; 404 for anything of
 * another organization; and for each kind of caller what it may and may not do: manage no-code modules
 * (owners or manageModules, never an organization token), read them (any token of the organization), create
 * workspaces from them (maintain or more on the project, owners or manageProjects; never an organization
 * token), start and confirm upgrades (maintain or more; the organization token too), read upgrade runs
 * (read or more). Every refusal is proven to have written nothing; every allowed write is read back.
 *
 * Seed (tests/support/seed.ts): apps-read/-write/-maintain/-admin have that level on Apps; maintain also on
 * Staging; admin also read on Default Project; bob is on apps-read and apps-maintain; modules has
 * manageModules and no project access; platform has manageProjects and manageModules.
 */
import { TOKENS } from "../support/seed";
import type { TestServer } from "../support/server";
import {
    ACME_PROJECTS,
    BUCKET_VARS,
    clientFor,
    createNoCodeModule,
    createNoCodeWorkspace,
    expectErrors,
    expectNoCodeUnchanged,
    expectNoWorkspaceNamed,
    expectOrganizationTokenRefused,
    expectStatus,
    expectUnauthorized,
    http,
    initiateUpgrade,
    moduleWithWorkspace,
    noCodeModuleDocument,
    noCodePaths,
    noCodeSnapshot,
    noCodeWorkspaceDocument,
    pollRun,
    readNoCodeModule,
    runStatus,
    uniqueWorkspaceName,
    upgradeDocument,
    workspaceVars,
    withNoCodeServer,
    type HttpResponse,
    type NoCodeKnown,
    type NoCodeServer,
} from "./helpers";

type ProjectName = (typeof ACME_PROJECTS)[number];

interface Caller {
    label: string;
    token: string;
    /** Creates, updates and deletes no-code modules. */
    managesModules: boolean;
    /** Projects in which it may create workspaces from a module. */
    createsWorkspacesIn: ProjectName[];
    /** Starts and confirms upgrades of a workspace in Apps. */
    upgradesApps: boolean;
    /** Reads upgrade runs of a workspace in Apps. */
    readsAppsRuns: boolean;
    /** The organization token: its refusals say why. */
    organizationToken?: boolean;
}

const ALL: ProjectName[] = [...ACME_PROJECTS];

const CALLERS: Caller[] = [
    { label: "owners team", token: TOKENS.owners, managesModules: true, createsWorkspacesIn: ALL, upgradesApps: true, readsAppsRuns: true },
    { label: "user on the owners team", token: TOKENS.alice, managesModules: true, createsWorkspacesIn: ALL, upgradesApps: true, readsAppsRuns: true },
    { label: "manageProjects and manageModules team", token: TOKENS.platform, managesModules: true, createsWorkspacesIn: ALL, upgradesApps: true, readsAppsRuns: true },
    { label: "organization token", token: TOKENS.acmeOrganization, managesModules: false, createsWorkspacesIn: [], upgradesApps: true, readsAppsRuns: true, organizationToken: true },
    { label: "manageModules team without project access", token: TOKENS.modules, managesModules: true, createsWorkspacesIn: [], upgradesApps: false, readsAppsRuns: false },
    { label: "read team", token: TOKENS.appsRead, managesModules: false, createsWorkspacesIn: [], upgradesApps: false, readsAppsRuns: true },
    { label: "write team", token: TOKENS.appsWrite, managesModules: false, createsWorkspacesIn: [], upgradesApps: false, readsAppsRuns: true },
    { label: "maintain team", token: TOKENS.appsMaintain, managesModules: false, createsWorkspacesIn: ["Apps", "Staging"], upgradesApps: true, readsAppsRuns: true },
    { label: "admin team", token: TOKENS.appsAdmin, managesModules: false, createsWorkspacesIn: ["Apps"], upgradesApps: true, readsAppsRuns: true },
    { label: "team without project access", token: TOKENS.noAccess, managesModules: false, createsWorkspacesIn: [], upgradesApps: false, readsAppsRuns: false },
    { label: "user on the read and maintain teams (union)", token: TOKENS.bob, managesModules: false, createsWorkspacesIn: ["Apps", "Staging"], upgradesApps: true, readsAppsRuns: true },
];

/** A refusal: 404, and for the organization token a detail that names the reason. */
function expectRefusal(caller: Caller, response: HttpResponse): void {
    if (caller.organizationToken) expectOrganizationTokenRefused(response);
    else expectErrors(response, 404);
}

/** A module, a workspace of Apps made from it, and a finished (planned) upgrade run of that workspace. */
interface Fixture {
    moduleId: string;
    registryModuleId: string;
    workspace: any;
    runId: string;
    known: NoCodeKnown;
}

async function fixture(started: NoCodeServer): Promise<Fixture> {
    const { moduleId, registryModuleId, workspace } = await moduleWithWorkspace(started);
    const run = await initiateUpgrade(started.server, moduleId, workspace.id, [{ key: "size", value: "2", category: "infra" }]);
    await pollRun(started.server, { moduleId, workspaceId: workspace.id, runId: run.id });
    return {
        moduleId,
        registryModuleId,
        workspace,
        runId: run.id,
        known: { modules: [moduleId], workspaces: [workspace.id], registryModules: [registryModuleId] },
    };
}

/** Every no-code endpoint once, against the fixture (writes with valid bodies, so only authorization can refuse). */
function everyEndpoint(started: NoCodeServer, f: Fixture, spareRegistryModule: string): [string, string, unknown][] {
    return [
        ["POST", noCodePaths.modules("acme"), noCodeModuleDocument({ registryModuleId: spareRegistryModule })],
        ["GET", `${noCodePaths.module(f.moduleId)}?include=variable_options`, undefined],
        ["PATCH", noCodePaths.module(f.moduleId), noCodeModuleDocument({ enabled: false })],
        ["DELETE", noCodePaths.module(f.moduleId), undefined],
        [
            "POST",
            noCodePaths.workspaces(f.moduleId),
            noCodeWorkspaceDocument({ name: uniqueWorkspaceName("intruder"), projectId: started.ids.Apps, vars: BUCKET_VARS }),
        ],
        ["POST", noCodePaths.upgrade(f.moduleId, f.workspace.id), upgradeDocument([{ key: "size", value: "9", category: "infra" }])],
        ["GET", noCodePaths.run(f.moduleId, f.workspace.id, f.runId), undefined],
        ["POST", noCodePaths.run(f.moduleId, f.workspace.id, f.runId), undefined],
        ["GET", noCodePaths.registryModule(f.registryModuleId), undefined],
        ["GET", noCodePaths.workspaceByName("acme", f.workspace.attributes.name), undefined],
    ];
}

describe("401: missing, malformed or unknown bearer token", () => {
    let started: NoCodeServer;
    let f: Fixture;
    let spare: string;

    withNoCodeServer((value) => (started = value), { planStepMs: 20 });
    beforeAll(async () => {
        f = await fixture(started);
        spare = started.registryModule();
        f.known = { ...f.known, registryModules: [...(f.known.registryModules ?? []), spare] };
    });

    test.each([
        ["no Authorization header", {}],
        ["the Bearer scheme without a token", { Authorization: "Bearer" }],
        ["a known token under another scheme", { Authorization: `Token ${TOKENS.owners}` }],
        ["an unknown token", { Authorization: "Bearer team-unknown-token" }],
        ["the admin token (not an API token)", { Authorization: "Bearer admin-token" }],
    ])("%s: every no-code endpoint answers 401 with the exact body, and nothing is written", async (_label, headers) => {
        const before = await noCodeSnapshot(started.server, f.known);
        for (const [method, path, body] of everyEndpoint(started, f, spare)) {
            const response = await http(started.server, method, path, { headers, body });
            if (response.status !== 401) throw new Error(`${method} ${path}: expected 401, got ${response.status} ${response.text}`);
            expectUnauthorized(response);
        }
        // Authentication comes before validation: a broken body is a 401 too.
        expectUnauthorized(await http(started.server, "POST", noCodePaths.modules("acme"), { headers, body: { data: { type: "wrong" } } }));
        await expectNoCodeUnchanged(started.server, before, f.known);
        expect(await runStatus(started.server, f.moduleId, f.workspace.id, f.runId)).toBe("planned");
    });
});

describe("404: anything of another organization", () => {
    let started: NoCodeServer;
    let f: Fixture;
    let spare: string;

    withNoCodeServer((value) => (started = value), { planStepMs: 20 });
    beforeAll(async () => {
        f = await fixture(started);
        spare = started.registryModule();
        f.known = { ...f.known, registryModules: [...(f.known.registryModules ?? []), spare] };
    });

    test.each([
        ["the globex owners team", TOKENS.globexOwners],
        ["the globex organization token", TOKENS.globexOrganization],
        ["the initech owners team", TOKENS.initechOwners],
    ])("%s gets 404 from every no-code endpoint for acme's resources, and writes nothing", async (_label, token) => {
        const before = await noCodeSnapshot(started.server, f.known);
        for (const [method, path, body] of everyEndpoint(started, f, spare)) {
            const response = await http(started.server, method, path, { token, body });
            if (response.status !== 404) throw new Error(`${method} ${path}: expected 404, got ${response.status} ${response.text}`);
            expectErrors(response, 404);
        }
        await expectNoCodeUnchanged(started.server, before, f.known);
        expect(await runStatus(started.server, f.moduleId, f.workspace.id, f.runId)).toBe("planned");
    });

    test("an acme token cannot use an initech module in its own organization's path either", async () => {
        const initech = await createNoCodeModule(
            started.server,
            { enabled: true, registryModuleId: started.registryModule("bucket", "initech") },
            "initech",
        );
        const before = await noCodeSnapshot(started.server, { modules: [initech.id] });
        const name = uniqueWorkspaceName("cross");
        expectErrors(
            await clientFor(started.server, TOKENS.owners).post(
                noCodePaths.workspaces(initech.id),
                noCodeWorkspaceDocument({ name, projectId: started.ids.Apps, vars: BUCKET_VARS }),
            ),
            404,
        );
        await expectNoCodeUnchanged(started.server, before, { modules: [initech.id] });
        await expectNoWorkspaceNamed(started.server, name);
    });
});

describe("what each caller may do", () => {
    let started: NoCodeServer;
    let server: TestServer;

    withNoCodeServer(
        (value) => {
            started = value;
            server = value.server;
        },
        { planStepMs: 20 },
    );

    describe.each(CALLERS)("$label", (caller) => {
        test(
            caller.managesModules ? "creates a no-code module (read back)" : "cannot create a no-code module: 404, nothing written",
            async () => {
                const registryModuleId = started.registryModule();
                const known = { registryModules: [registryModuleId] };
                const before = await noCodeSnapshot(server, known);
                const response = await clientFor(server, caller.token).post(
                    noCodePaths.modules("acme"),
                    noCodeModuleDocument({ registryModuleId, enabled: true, versionPin: "1.0.0" }),
                );
                if (caller.managesModules) {
                    expectStatus(response, 200);
                    const { data } = await readNoCodeModule(server, response.body.data.id);
                    expect(data.attributes).toEqual({ enabled: true, "version-pin": "1.0.0" });
                    expect(data.relationships["registry-module"].data.id).toBe(registryModuleId);
                } else {
                    expectRefusal(caller, response);
                    await expectNoCodeUnchanged(server, before, known);
                }
            },
        );

        test(
            caller.managesModules
                ? "updates and deletes a no-code module (read back)"
                : "cannot update or delete a no-code module: 404, nothing written",
            async () => {
                const registryModuleId = started.registryModule();
                const module = await createNoCodeModule(server, { registryModuleId });
                const client = clientFor(server, caller.token);
                const known = { modules: [module.id], registryModules: [registryModuleId] };
                const before = await noCodeSnapshot(server, known);
                const update = await client.patch(
                    noCodePaths.module(module.id),
                    noCodeModuleDocument({
                        enabled: true,
                        versionPin: "1.0.0",
                        variableOptions: [{ variableName: "region", variableType: "string", options: ["eu-west-1"] }],
                    }),
                );
                if (!caller.managesModules) {
                    expectRefusal(caller, update);
                    expectRefusal(caller, await client.delete(noCodePaths.module(module.id)));
                    await expectNoCodeUnchanged(server, before, known);
                    return;
                }
                expectStatus(update, 200);
                const { data, sets } = await readNoCodeModule(server, module.id);
                expect(data.attributes).toEqual({ enabled: true, "version-pin": "1.0.0" });
                expect(sets).toHaveLength(1);
                expectStatus(await client.delete(noCodePaths.module(module.id)), 204);
                expectErrors(await clientFor(server, TOKENS.owners).get(noCodePaths.module(module.id)), 404);
            },
        );

        test("reads a no-code module with its sets and the registry module (any token of the organization)", async () => {
            const registryModuleId = started.registryModule();
            const module = await createNoCodeModule(server, {
                registryModuleId,
                variableOptions: [{ variableName: "region", variableType: "string", options: ["eu-west-1"] }],
            });
            const client = clientFor(server, caller.token);
            const read = await client.get(`${noCodePaths.module(module.id)}?include=variable_options`);
            expectStatus(read, 200);
            expect(read.body.data.id).toBe(module.id);
            expect(read.body.included).toHaveLength(1);
            const registry = await client.get(noCodePaths.registryModule(registryModuleId));
            expectStatus(registry, 200);
            expect(registry.body.data.relationships["no-code-modules"].data).toEqual([{ id: module.id, type: "no-code-modules" }]);
        });

        for (const project of ALL) {
            const allowed = caller.createsWorkspacesIn.includes(project);
            test(
                allowed
                    ? `creates a workspace from a module in ${project} (read back)`
                    : `cannot create a workspace from a module in ${project}: 404, nothing written`,
                async () => {
                    const module = await createNoCodeModule(server, { enabled: true, registryModuleId: started.registryModule() });
                    const name = uniqueWorkspaceName("authz");
                    const known = { modules: [module.id] };
                    const before = await noCodeSnapshot(server, known);
                    const response = await clientFor(server, caller.token).post(
                        noCodePaths.workspaces(module.id),
                        noCodeWorkspaceDocument({ name, projectId: started.ids[project], vars: BUCKET_VARS }),
                    );
                    if (allowed) {
                        expectStatus(response, 200);
                        const show = await clientFor(server, TOKENS.owners).get(noCodePaths.workspaceByName("acme", name));
                        expectStatus(show, 200);
                        expect(show.body.data.id).toBe(response.body.data.id);
                        expect(show.body.data.relationships.project.data.id).toBe(started.ids[project]);
                        expect(show.body.data.attributes.source).toBe("tfe-module");
                        // The permissions answered are the creator's own.
                        expect(response.body.data.attributes.permissions["can-update"]).toBe(true);
                    } else {
                        expectRefusal(caller, response);
                        await expectNoCodeUnchanged(server, before, known);
                        await expectNoWorkspaceNamed(server, name);
                    }
                },
            );
        }

        test(
            caller.upgradesApps
                ? "starts and confirms an upgrade of an Apps workspace (read back)"
                : "cannot start or confirm an upgrade of an Apps workspace: 404, nothing written",
            async () => {
                const { moduleId, workspace } = await moduleWithWorkspace(started);
                const client = clientFor(server, caller.token);
                const body = upgradeDocument([{ key: "size", value: "3", category: "infra" }]);
                if (caller.upgradesApps) {
                    const initiated = await client.post(noCodePaths.upgrade(moduleId, workspace.id), body);
                    expectStatus(initiated, 200);
                    const runId = initiated.body.data.id;
                    expect(await pollRun(server, { moduleId, workspaceId: workspace.id, runId })).toContain("planned");
                    expectStatus(await client.post(noCodePaths.run(moduleId, workspace.id, runId)), 200);
                    expect(await runStatus(server, moduleId, workspace.id, runId)).toBe("applied");
                    const size = (await workspaceVars(server, workspace.id)).find((variable) => variable.attributes.key === "size");
                    expect(size.attributes.value).toBe("3");
                    return;
                }
                // A planned run started by the owners, which this caller must not be able to confirm.
                const run = await initiateUpgrade(server, moduleId, workspace.id, [{ key: "size", value: "4", category: "infra" }]);
                await pollRun(server, { moduleId, workspaceId: workspace.id, runId: run.id });
                const known = { modules: [moduleId], workspaces: [workspace.id] };
                const before = await noCodeSnapshot(server, known);
                expectErrors(await client.post(noCodePaths.upgrade(moduleId, workspace.id), body), 404);
                expectErrors(await client.post(noCodePaths.run(moduleId, workspace.id, run.id)), 404);
                await expectNoCodeUnchanged(server, before, known);
                // The refused initiate did not discard the owners' plan.
                expect(await runStatus(server, moduleId, workspace.id, run.id)).toBe("planned");
            },
        );

        test(caller.readsAppsRuns ? "reads an upgrade run of an Apps workspace" : "cannot read an upgrade run of an Apps workspace: 404", async () => {
            const { moduleId, workspace } = await moduleWithWorkspace(started);
            const run = await initiateUpgrade(server, moduleId, workspace.id, [{ key: "size", value: "5", category: "infra" }]);
            const response = await clientFor(server, caller.token).get(noCodePaths.run(moduleId, workspace.id, run.id));
            if (caller.readsAppsRuns) {
                expectStatus(response, 200);
                expect(response.body.data.id).toBe(run.id);
            } else {
                expectErrors(response, 404);
            }
        });
    });

    test("the maintain team may upgrade in Staging but neither read nor upgrade a workspace of Default Project", async () => {
        const staging = await moduleWithWorkspace(started, { projectId: started.ids.Staging });
        const maintain = clientFor(server, TOKENS.appsMaintain);
        const run = await maintain.post(noCodePaths.upgrade(staging.moduleId, staging.workspace.id), upgradeDocument([{ key: "size", value: "2", category: "infra" }]));
        expectStatus(run, 200);

        const other = await moduleWithWorkspace(started, { projectId: started.ids["Default Project"] });
        const ownersRun = await initiateUpgrade(server, other.moduleId, other.workspace.id, [{ key: "size", value: "2", category: "infra" }]);
        const known = { modules: [other.moduleId], workspaces: [other.workspace.id] };
        const before = await noCodeSnapshot(server, known);
        expectErrors(await maintain.get(noCodePaths.run(other.moduleId, other.workspace.id, ownersRun.id)), 404);
        await pollRun(server, { moduleId: other.moduleId, workspaceId: other.workspace.id, runId: ownersRun.id });
        expectErrors(await maintain.post(noCodePaths.run(other.moduleId, other.workspace.id, ownersRun.id)), 404);
        await expectNoCodeUnchanged(server, before, known);
    });

    test("the admin team reads a run of a Default Project workspace (read there) but may not start or confirm one", async () => {
        const other = await moduleWithWorkspace(started, { projectId: started.ids["Default Project"] });
        const run = await initiateUpgrade(server, other.moduleId, other.workspace.id, [{ key: "size", value: "2", category: "infra" }]);
        await pollRun(server, { moduleId: other.moduleId, workspaceId: other.workspace.id, runId: run.id });
        const admin = clientFor(server, TOKENS.appsAdmin);
        expectStatus(await admin.get(noCodePaths.run(other.moduleId, other.workspace.id, run.id)), 200);
        const known = { modules: [other.moduleId], workspaces: [other.workspace.id] };
        const before = await noCodeSnapshot(server, known);
        expectErrors(await admin.post(noCodePaths.run(other.moduleId, other.workspace.id, run.id)), 404);
        expectErrors(
            await admin.post(noCodePaths.upgrade(other.moduleId, other.workspace.id), upgradeDocument([{ key: "size", value: "3", category: "infra" }])),
            404,
        );
        await expectNoCodeUnchanged(server, before, known);
        expect(await runStatus(server, other.moduleId, other.workspace.id, run.id)).toBe("planned");
    });

    test("a workspace made by the maintain team is readable by the read team and not by a team without access", async () => {
        const module = await createNoCodeModule(server, { enabled: true, registryModuleId: started.registryModule() });
        const created = await createNoCodeWorkspace(server, module.id, { projectId: started.ids.Apps }, TOKENS.appsMaintain);
        expectStatus(await clientFor(server, TOKENS.appsRead).get(`/workspaces/${created.id}`), 200);
        expectErrors(await clientFor(server, TOKENS.noAccess).get(`/workspaces/${created.id}`), 404);
    });
});
