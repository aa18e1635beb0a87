/**
 * No-code modules, workspaces made from them and their upgrades through {@link WosClient} against the real
 * local service; option rules refused before any request; registry modules and workspaces by name.
 *
 * Each test gets its own service: a registry module can be enabled by one no-code module only, so tests that
 * create one must not meet another test's.
 */
import {
    WosArgumentError,
    WosClient,
    WosConflictError,
    WosNotFoundError,
    WosServerError,
    WosValidationError,
    type WosError,
} from "../../sdk";
import { startTestServer, type TestServer } from "../support/server";
import { REGISTRY_MODULES, TOKENS, WORKSPACES } from "../support/seed";
import { enabledBucketModule, expectNoToken, failure, infraValue, moduleWithWorkspace, projectIdOf, uniqueName } from "./helpers";

let server: TestServer;
let owners: WosClient;

beforeEach(async () => {
    server = await startTestServer({ planStepMs: 10 });
    owners = new WosClient({ address: server.url, token: TOKENS.owners, maxRetryDelayMs: 10 });
});

afterEach(async () => {
    await server?.close();
});

/** A quick wait for a plan: the service takes a step every 10 ms here. */
const quickly = () => ({ deadline: Date.now() + 20_000, initialDelayMs: 10, maxDelayMs: 30 });

describe("create and read", () => {
    it("creates a module pinned to the highest version, disabled by default, and reads it back", async () => {
        const created = await owners.noCodeModules.create("acme", { registryModuleId: REGISTRY_MODULES.bucket });
        expect(created.id).toMatch(/^nocode-/);
        expect(created).toMatchObject({
            enabled: false,
            versionPin: "1.1.0",
            organization: "acme",
            registryModuleId: REGISTRY_MODULES.bucket,
            variableOptionIds: [],
            variableOptions: [],
        });
        expect(await owners.noCodeModules.read(created.id)).toEqual(created);
    });

    it("creates with a pin, enabled and option sets (numbers kept as text); include returns the sets in order", async () => {
        const created = await owners.noCodeModules.create("acme", {
            registryModuleId: REGISTRY_MODULES.bucket,
            versionPin: "1.0.0",
            enabled: true,
            variableOptions: [
                { variableName: "size", variableType: "number", options: [1, 2, 3] },
                { variableName: "region", variableType: "string", options: ["us-east-1", "eu-west-1"] },
            ],
        });
        expect(created).toMatchObject({ enabled: true, versionPin: "1.0.0" });
        expect(created.variableOptionIds).toHaveLength(2);
        expect(created.variableOptionIds.every((id) => id.startsWith("ncvaropt-"))).toBe(true);

        const plain = await owners.noCodeModules.read(created.id);
        expect(plain.variableOptionIds).toEqual(created.variableOptionIds);
        expect(plain.variableOptions).toEqual([]);

        const full = await owners.noCodeModules.read(created.id, { include: ["variable-options"] });
        expect(full.variableOptions).toEqual([
            { id: created.variableOptionIds[0], variableName: "size", variableType: "number", options: ["1", "2", "3"] },
            { id: created.variableOptionIds[1], variableName: "region", variableType: "string", options: ["us-east-1", "eu-west-1"] },
        ]);
    });

    it("any token of the organization may read, the organization token too; another organization's may not", async () => {
        const created = await enabledBucketModule(owners);
        const organization = new WosClient({ address: server.url, token: TOKENS.acmeOrganization });
        expect((await organization.noCodeModules.read(created.id)).id).toBe(created.id);
        const outsider = new WosClient({ address: server.url, token: TOKENS.globexOwners, maxRetries: 0 });
        const error = await failure(outsider.noCodeModules.read(created.id));
        expect(WosNotFoundError.isInstance(error)).toBe(true);
    });

    it("passes the service's refusals on with their pointers: a module that is not no-code ready, a version that does not exist", async () => {
        const notReady = (await failure(owners.noCodeModules.create("acme", { registryModuleId: REGISTRY_MODULES.notReady }))) as WosError;
        expect(WosValidationError.isInstance(notReady)).toBe(true);
        expect(notReady.errors[0]?.source?.pointer).toBe("/data/relationships/registry-module/data/id");

        const badPin = (await failure(
            owners.noCodeModules.create("acme", { registryModuleId: REGISTRY_MODULES.bucket, versionPin: "9.9.9" }),
        )) as WosError;
        expect(WosValidationError.isInstance(badPin)).toBe(true);
        expect(badPin.errors[0]?.source?.pointer).toBe("/data/attributes/version-pin");
        // Nothing was written: the registry module is still free.
        expect((await owners.registryModules.read(REGISTRY_MODULES.bucket)).noCodeModuleIds).toEqual([]);
    });

    it("refuses the organization token for a create, with a detail that says why", async () => {
        const organization = new WosClient({ address: server.url, token: TOKENS.acmeOrganization, maxRetries: 0 });
        const error = (await failure(organization.noCodeModules.create("acme", { registryModuleId: REGISTRY_MODULES.bucket }))) as WosError;
        expect(WosNotFoundError.isInstance(error)).toBe(true);
        expect(error.message).toMatch(/organization token/i);
        expectNoToken(error, TOKENS.acmeOrganization);
        expect((await owners.registryModules.read(REGISTRY_MODULES.bucket)).noCodeModuleIds).toEqual([]);
    });
});

describe("update and delete", () => {
    it("treats variableOptions as the whole list: an item with id replaces that set, one without adds, one left out goes", async () => {
        const created = await owners.noCodeModules.create("acme", {
            registryModuleId: REGISTRY_MODULES.bucket,
            variableOptions: [
                { variableName: "region", variableType: "string", options: ["us-east-1"] },
                { variableName: "size", variableType: "number", options: [1] },
            ],
        });
        const [regionId] = created.variableOptionIds;
        const updated = await owners.noCodeModules.update(created.id, {
            variableOptions: [
                { id: regionId, variableName: "region", variableType: "string", options: ["ap-south-1", "eu-west-1"] },
                { variableName: "tags", variableType: "map(string)", options: ['{"team":"a"}'] },
            ],
        });
        expect(updated.variableOptionIds).toHaveLength(2);
        expect(updated.variableOptionIds[0]).toBe(regionId);

        const read = await owners.noCodeModules.read(created.id, { include: ["variable-options"] });
        expect(read.variableOptions.map(({ variableName, options }) => ({ variableName, options }))).toEqual([
            { variableName: "region", options: ["ap-south-1", "eu-west-1"] },
            { variableName: "tags", options: ['{"team":"a"}'] },
        ]);
        expect(read.variableOptions[0]!.id).toBe(regionId);
        expect(read.variableOptionIds).not.toContain(created.variableOptionIds[1]);
    });

    it("leaves what an update does not name as it was: enabling keeps the pin and the sets", async () => {
        const created = await owners.noCodeModules.create("acme", {
            registryModuleId: REGISTRY_MODULES.bucket,
            versionPin: "1.0.0",
            variableOptions: [{ variableName: "region", variableType: "string", options: ["us-east-1"] }],
        });
        const updated = await owners.noCodeModules.update(created.id, { enabled: true });
        expect(updated).toMatchObject({ enabled: true, versionPin: "1.0.0", variableOptionIds: created.variableOptionIds });
        const cleared = await owners.noCodeModules.update(created.id, { variableOptions: [] });
        expect(cleared.variableOptionIds).toEqual([]);
        expect((await owners.noCodeModules.read(created.id)).variableOptionIds).toEqual([]);
    });

    it("moves a module to another registry module, whose highest version becomes the pin", async () => {
        const created = await enabledBucketModule(owners);
        const moved = await owners.noCodeModules.update(created.id, { registryModuleId: REGISTRY_MODULES.network });
        expect(moved).toMatchObject({ registryModuleId: REGISTRY_MODULES.network, versionPin: "2.0.0", enabled: true });
        expect((await owners.registryModules.read(REGISTRY_MODULES.network)).noCodeModuleIds).toEqual([created.id]);
        expect((await owners.registryModules.read(REGISTRY_MODULES.bucket)).noCodeModuleIds).toEqual([]);
    });

    it("refuses an option set for a variable the pinned version does not have, and changes nothing", async () => {
        const created = await enabledBucketModule(owners);
        const error = (await failure(
            owners.noCodeModules.update(created.id, {
                variableOptions: [{ variableName: "tags", variableType: "map(string)", options: ["{}"] }],
            }),
        )) as WosError;
        expect(WosValidationError.isInstance(error)).toBe(true);
        expect(error.errors[0]?.source?.pointer).toBe("/data/relationships/variable-options/data/0/attributes/variable-name");
        expect((await owners.noCodeModules.read(created.id)).variableOptionIds).toEqual([]);
    });

    it("deletes a module: reading it is a WosNotFoundError, its workspaces stay, a second delete is a WosNotFoundError", async () => {
        const { module, workspace } = await moduleWithWorkspace(owners);
        await owners.noCodeModules.delete(module.id);
        expect(WosNotFoundError.isInstance(await failure(owners.noCodeModules.read(module.id)))).toBe(true);
        const kept = await owners.workspaces.read(workspace.id);
        expect(kept.noCodeUpgradeAvailable).toBe(false);
        expect((await owners.registryModules.read(REGISTRY_MODULES.bucket)).noCodeModuleIds).toEqual([]);
        const again = new WosClient({ address: server.url, token: TOKENS.owners, maxRetries: 0 });
        expect(WosNotFoundError.isInstance(await failure(again.noCodeModules.delete(module.id)))).toBe(true);
    });
});

describe("createWorkspace", () => {
    it("creates a workspace from the module with its vars and source, and finds it by name", async () => {
        const module = await enabledBucketModule(owners, {
            variableOptions: [{ variableName: "region", variableType: "string", options: ["us-east-1", "eu-west-1"] }],
        });
        const projectId = await projectIdOf(owners, "acme", "Apps");
        const name = uniqueName("bucket");
        const workspace = await owners.noCodeModules.createWorkspace(module.id, {
            name,
            projectId,
            description: "made from a no-code module",
            autoApply: true,
            sourceName: "sdk tests",
            sourceUrl: "https://example.com/sdk",
            vars: [
                { key: "region", value: "eu-west-1", category: "infra" },
                { key: "size", value: "3", category: "infra", description: "disks" },
                { key: "TOKEN", value: "s3cr3t-value", category: "env", sensitive: true },
            ],
        });
        expect(workspace.id).toMatch(/^ws-/);
        expect(workspace).toMatchObject({
            name,
            projectId,
            organization: "acme",
            description: "made from a no-code module",
            autoApply: true,
            executionMode: "remote",
            agentPoolId: null,
            sourceName: "sdk tests",
            sourceUrl: "https://example.com/sdk",
            sourceModuleId: REGISTRY_MODULES.bucket,
            noCodeUpgradeAvailable: false,
        });
        expect(workspace.noCodeModuleVersionId).toMatch(/^nocodever-/);

        expect(await owners.workspaces.readByName("acme", name)).toEqual(workspace);
        const vars = await owners.variables.listByWorkspaceName("acme", name);
        expect(vars.map(({ key, value, category, sensitive }) => ({ key, value, category, sensitive })).sort((a, b) => (a.key < b.key ? -1 : 1))).toEqual([
            { key: "TOKEN", value: null, category: "env", sensitive: true },
            { key: "region", value: "eu-west-1", category: "infra", sensitive: false },
            { key: "size", value: "3", category: "infra", sensitive: false },
        ]);
    });

    it("creates an agent workspace in the seeded pool", async () => {
        const module = await enabledBucketModule(owners);
        const workspace = await owners.noCodeModules.createWorkspace(module.id, {
            name: uniqueName("agent"),
            projectId: await projectIdOf(owners, "acme", "Staging"),
            executionMode: "agent",
            agentPoolId: "apool-0000000000000001",
            vars: [{ key: "region", value: "us-east-1", category: "infra" }],
        });
        expect(workspace).toMatchObject({ executionMode: "agent", agentPoolId: "apool-0000000000000001" });
    });

    it("refuses a value outside the options with the var's pointer, writes nothing, and does not echo a sensitive value", async () => {
        const module = await enabledBucketModule(owners, {
            variableOptions: [{ variableName: "region", variableType: "string", options: ["us-east-1"] }],
        });
        const name = uniqueName("refused");
        const error = (await failure(
            owners.noCodeModules.createWorkspace(module.id, {
                name,
                projectId: await projectIdOf(owners, "acme", "Apps"),
                vars: [{ key: "region", value: "not-an-option-secret", category: "infra", sensitive: true }],
            }),
        )) as WosError;
        expect(WosValidationError.isInstance(error)).toBe(true);
        expect(error.errors[0]?.source?.pointer).toBe("/data/relationships/vars/data/0/attributes/value");
        expect(error.message).toContain("us-east-1");
        expect(error.message).not.toContain("not-an-option-secret");
        expect(WosNotFoundError.isInstance(await failure(owners.workspaces.readByName("acme", name)))).toBe(true);
    });

    it("refuses a workspace from a module that is not enabled, and one without a required var", async () => {
        const module = await owners.noCodeModules.create("acme", { registryModuleId: REGISTRY_MODULES.bucket, versionPin: "1.0.0" });
        const projectId = await projectIdOf(owners, "acme", "Apps");
        const disabled = (await failure(
            owners.noCodeModules.createWorkspace(module.id, {
                name: uniqueName("off"),
                projectId,
                vars: [{ key: "region", value: "us-east-1", category: "infra" }],
            }),
        )) as WosError;
        expect(WosValidationError.isInstance(disabled)).toBe(true);
        expect(disabled.message).toMatch(/not enabled/);

        await owners.noCodeModules.update(module.id, { enabled: true });
        const name = uniqueName("missing");
        const missing = (await failure(owners.noCodeModules.createWorkspace(module.id, { name, projectId }))) as WosError;
        expect(WosValidationError.isInstance(missing)).toBe(true);
        expect(missing.errors[0]?.source?.pointer).toBe("/data/relationships/vars");
        expect(missing.message).toContain("region");
        expect(WosNotFoundError.isInstance(await failure(owners.workspaces.readByName("acme", name)))).toBe(true);
    });

    it("is refused to a caller who may not create workspaces in the project, and to the organization token", async () => {
        const module = await enabledBucketModule(owners);
        const projectId = await projectIdOf(owners, "acme", "Apps");
        const options = { name: uniqueName("denied"), projectId, vars: [{ key: "region", value: "us-east-1", category: "infra" as const }] };
        for (const token of [TOKENS.appsWrite, TOKENS.acmeOrganization, TOKENS.modules]) {
            const client = new WosClient({ address: server.url, token, maxRetries: 0 });
            const error = await failure(client.noCodeModules.createWorkspace(module.id, options));
            expect(WosNotFoundError.isInstance(error)).toBe(true);
            expectNoToken(error, token);
        }
        expect(WosNotFoundError.isInstance(await failure(owners.workspaces.readByName("acme", options.name)))).toBe(true);
        // What the refused may do, a maintainer of the project may.
        const maintain = new WosClient({ address: server.url, token: TOKENS.appsMaintain });
        expect((await maintain.noCodeModules.createWorkspace(module.id, options)).name).toBe(options.name);
    });
});

describe("upgrades", () => {
    it("initiates, reads, waits for and confirms an upgrade: nothing changes before the confirm, everything after", async () => {
        const { module, workspace } = await moduleWithWorkspace(owners);
        await owners.noCodeModules.update(module.id, { versionPin: "1.1.0" });
        expect((await owners.workspaces.read(workspace.id)).noCodeUpgradeAvailable).toBe(true);

        const upgrade = await owners.noCodeModules.initiateUpgrade(module.id, workspace.id, {
            vars: [{ key: "region", value: "eu-west-1", category: "infra" }],
        });
        expect(upgrade.id).toMatch(/^run-/);
        expect(upgrade).toMatchObject({ noCodeModuleId: module.id, workspaceId: workspace.id });
        expect(upgrade.planUrl).toMatch(/^http:\/\/127\.0\.0\.1:\d+\//);
        expect(["pending", "fetching", "planning", "planned"]).toContain(upgrade.status);

        const read = await owners.noCodeModules.readUpgrade(module.id, workspace.id, upgrade.id);
        expect(read).toMatchObject({ id: upgrade.id, planUrl: upgrade.planUrl, workspaceId: workspace.id, noCodeModuleId: module.id });

        const planned = await owners.noCodeModules.waitForPlan(upgrade, quickly());
        expect(planned.status).toBe("planned");
        // A finished plan applies nothing by itself.
        expect(await infraValue(owners, workspace, "region")).toBe("us-east-1");
        const before = await owners.workspaces.read(workspace.id);
        expect(before.noCodeModuleVersionId).toBe(workspace.noCodeModuleVersionId);

        await owners.noCodeModules.confirmUpgrade(module.id, workspace.id, upgrade.id);
        expect((await owners.noCodeModules.readUpgrade(module.id, workspace.id, upgrade.id)).status).toBe("applied");
        const after = await owners.workspaces.read(workspace.id);
        expect(after.noCodeUpgradeAvailable).toBe(false);
        expect(after.noCodeModuleVersionId).not.toBe(workspace.noCodeModuleVersionId);
        expect(await infraValue(owners, workspace, "region")).toBe("eu-west-1");
    });

    it("initiates without vars (only the module version moves) and keeps the vars as they were", async () => {
        const { module, workspace } = await moduleWithWorkspace(owners);
        await owners.noCodeModules.update(module.id, { versionPin: "1.1.0" });
        const upgrade = await owners.noCodeModules.initiateUpgrade(module.id, workspace.id);
        expect((await owners.noCodeModules.waitForPlan(upgrade, quickly())).status).toBe("planned");
        await owners.noCodeModules.confirmUpgrade(module.id, workspace.id, upgrade.id);
        expect((await owners.workspaces.read(workspace.id)).noCodeUpgradeAvailable).toBe(false);
        expect(await infraValue(owners, workspace, "region")).toBe("us-east-1");
    });

    it("refuses a second confirm of an applied run with a WosConflictError (a first attempt's 409 is never taken as done)", async () => {
        const { module, workspace } = await moduleWithWorkspace(owners);
        const upgrade = await owners.noCodeModules.initiateUpgrade(module.id, workspace.id, {
            vars: [{ key: "region", value: "eu-west-1", category: "infra" }],
        });
        await owners.noCodeModules.waitForPlan(upgrade, quickly());
        await owners.noCodeModules.confirmUpgrade(module.id, workspace.id, upgrade.id);
        const error = (await failure(owners.noCodeModules.confirmUpgrade(module.id, workspace.id, upgrade.id))) as WosError;
        expect(WosConflictError.isInstance(error)).toBe(true);
        expect(error.message).toContain("applied");
        expectNoToken(error, TOKENS.owners);
    });

    it("reads an upgrade only under its own module and workspace", async () => {
        const { module, workspace } = await moduleWithWorkspace(owners);
        const upgrade = await owners.noCodeModules.initiateUpgrade(module.id, workspace.id, {
            vars: [{ key: "region", value: "eu-west-1", category: "infra" }],
        });
        const error = await failure(owners.noCodeModules.readUpgrade(module.id, WORKSPACES.appsLegacy, upgrade.id));
        expect(WosNotFoundError.isInstance(error)).toBe(true);
        const other = await failure(owners.noCodeModules.initiateUpgrade(module.id, WORKSPACES.appsLegacy));
        expect(WosNotFoundError.isInstance(other)).toBe(true);
    });

    it("refuses an upgrade to a reader of the project, and lets the organization token start one", async () => {
        const { module, workspace } = await moduleWithWorkspace(owners);
        const reader = new WosClient({ address: server.url, token: TOKENS.appsRead, maxRetries: 0 });
        const error = await failure(reader.noCodeModules.initiateUpgrade(module.id, workspace.id));
        expect(WosNotFoundError.isInstance(error)).toBe(true);
        const organization = new WosClient({ address: server.url, token: TOKENS.acmeOrganization });
        const upgrade = await organization.noCodeModules.initiateUpgrade(module.id, workspace.id, {
            vars: [{ key: "region", value: "eu-west-1", category: "infra" }],
        });
        expect((await reader.noCodeModules.readUpgrade(module.id, workspace.id, upgrade.id)).id).toBe(upgrade.id);
    });
});

describe("registry modules and workspaces by name", () => {
    it("reads a registry module with its no-code module", async () => {
        const module = await enabledBucketModule(owners);
        expect(await owners.registryModules.read(REGISTRY_MODULES.bucket)).toEqual({
            id: REGISTRY_MODULES.bucket,
            name: "bucket",
            provider: "aws",
            organization: "acme",
            noCodeReady: true,
            noCodeModuleIds: [module.id],
        });
        expect(await owners.registryModules.read(REGISTRY_MODULES.notReady)).toMatchObject({ noCodeReady: false, noCodeModuleIds: [] });
    });

    it("does not show another organization's registry module or workspace", async () => {
        const client = new WosClient({ address: server.url, token: TOKENS.owners, maxRetries: 0 });
        expect(WosNotFoundError.isInstance(await failure(client.registryModules.read(REGISTRY_MODULES.initechBucket)))).toBe(true);
        expect(WosNotFoundError.isInstance(await failure(client.workspaces.readByName("globex", "globex-app")))).toBe(true);
    });

    it("reads a seeded workspace by organization and name", async () => {
        const workspace = await owners.workspaces.readByName("acme", "legacy-app");
        expect(workspace).toMatchObject({ id: WORKSPACES.appsLegacy, name: "legacy-app", organization: "acme" });
        expect(await owners.workspaces.read(WORKSPACES.appsLegacy)).toEqual(workspace);
    });
});

describe("options are checked before any request", () => {
    // Nothing listens on port 1: a request would end in a WosConnectionError, not a WosArgumentError.
    const offline = () => new WosClient({ address: "http://127.0.0.1:1", token: TOKENS.owners, maxRetries: 0 });
    const ready = { registryModuleId: REGISTRY_MODULES.bucket };
    const region = { key: "region", value: "us-east-1", category: "infra" as const };

    async function refused(call: (client: WosClient) => Promise<unknown>): Promise<WosError> {
        const error = await failure(call(offline()));
        expect(WosArgumentError.isInstance(error)).toBe(true);
        expect((error as WosError).status).toBeUndefined();
        return error as WosError;
    }

    it.each([
        ["a pin that is not MAJOR.MINOR.PATCH", { ...ready, versionPin: "1.1" }, "options.versionPin: must be a module version such as '1.1.0'"],
        ["an empty registry module id", { registryModuleId: " " }, "options.registryModuleId: must be a registry module id"],
        ["enabled that is not a boolean", { ...ready, enabled: "yes" }, "options.enabled: must be true or false"],
        [
            "two sets for one variable",
            {
                ...ready,
                variableOptions: [
                    { variableName: "region", variableType: "string", options: ["a"] },
                    { variableName: "region", variableType: "string", options: ["b"] },
                ],
            },
            "options.variableOptions[1].variableName: variable 'region' has more than one set of options",
        ],
        [
            "an option that is an object",
            { ...ready, variableOptions: [{ variableName: "region", variableType: "string", options: [{}] }] },
            "options.variableOptions[0].options[0]: must be a string, a number or a boolean",
        ],
        [
            "a set without a type",
            { ...ready, variableOptions: [{ variableName: "region", variableType: "", options: [] }] },
            "options.variableOptions[0].variableType: must not be empty",
        ],
    ])("create refuses %s", async (_what, options, message) => {
        const error = await refused((client) => client.noCodeModules.create("acme", options as never));
        expect(error.message).toContain(message);
        expect(error.path).toBe("/organizations/:organization/no-code-modules");
    });

    it("create refuses before the service sees it: an armed fault is still there afterwards", async () => {
        await server.addFault({ method: "POST", path: "^/api/v2/organizations/acme/no-code-modules$", times: 1, status: 503 });
        const client = new WosClient({ address: server.url, token: TOKENS.owners, maxRetries: 0 });
        const error = await failure(client.noCodeModules.create("acme", { ...ready, versionPin: "latest" }));
        expect(WosArgumentError.isInstance(error)).toBe(true);
        const probed = await failure(client.noCodeModules.create("acme", ready));
        expect(WosServerError.isInstance(probed)).toBe(true);
        expect((await owners.registryModules.read(REGISTRY_MODULES.bucket)).noCodeModuleIds).toEqual([]);
    });

    it("update refuses an empty set id and an empty module id, naming both", async () => {
        const error = await refused((client) =>
            client.noCodeModules.update("nocode-x", {
                registryModuleId: "",
                variableOptions: [{ id: "", variableName: "region", variableType: "string", options: [] }],
            }),
        );
        expect(error.message).toContain("options.registryModuleId: must be a registry module id");
        expect(error.message).toContain("options.variableOptions[0].id: must be a variable-options id");
    });

    it("read refuses an include it does not know", async () => {
        const error = await refused((client) => client.noCodeModules.read("nocode-x", { include: ["workspaces" as "variable-options"] }));
        expect(error.message).toContain("options.include[0]: must be 'variable-options'");
    });

    it.each([
        ["a name with a space", { name: "bad name" }, "options.name: may contain only letters, numbers, '-' and '_'"],
        ["an empty project id", { projectId: "" }, "options.projectId: must be a project id"],
        ["agent mode without a pool", { executionMode: "agent" }, "options.agentPoolId: is required when executionMode is 'agent'"],
        ["a pool with remote mode", { agentPoolId: "apool-0000000000000001" }, "options.agentPoolId: must not be given when executionMode is 'remote'"],
        ["a source URL that is not a URL", { sourceUrl: "not a url" }, "options.sourceUrl: must be a URL"],
        ["a var of an unknown category", { vars: [{ key: "k", category: "terraform" }] }, "options.vars[0].category: must be 'infra' or 'env'"],
        ["a var key twice in one category", { vars: [region, { ...region, value: "x" }] }, "options.vars[1].key: var 'region' (infra) appears more than once"],
    ])("createWorkspace refuses %s", async (_what, options, message) => {
        const error = await refused((client) =>
            client.noCodeModules.createWorkspace("nocode-x", { name: "fine", projectId: "prj-x", vars: [region], ...(options as object) } as never),
        );
        expect(error.message).toContain(message);
    });

    it("initiateUpgrade refuses a var whose sensitive flag is not a boolean", async () => {
        const error = await refused((client) =>
            client.noCodeModules.initiateUpgrade("nocode-x", "ws-x", { vars: [{ ...region, sensitive: "yes" as never }] }),
        );
        expect(error.message).toContain("options.vars[0].sensitive: must be true or false");
    });

    it.each([
        ["a deadline that is not a number", { deadline: "soon" }, "options.deadline: must be a time in epoch milliseconds"],
        ["a deadline of NaN", { deadline: Number.NaN }, "options.deadline: must be a time in epoch milliseconds"],
        ["a first delay of 0", { deadline: 1, initialDelayMs: 0 }, "options.initialDelayMs: must be at least 1 millisecond"],
        ["a fractional longest delay", { deadline: 1, maxDelayMs: 1.5 }, "options.maxDelayMs: must be a whole number of milliseconds"],
        ["an onStatus that is not a function", { deadline: 1, onStatus: "log" }, "options.onStatus: must be a function"],
        ["a signal that is not an AbortSignal", { deadline: 1, signal: new AbortController() }, "options.signal: must be an AbortSignal"],
    ])("waitForPlan refuses %s", async (_what, options, message) => {
        const error = await refused((client) =>
            client.noCodeModules.waitForPlan({ noCodeModuleId: "nocode-x", workspaceId: "ws-x", id: "run-x" }, options as never),
        );
        expect(error.message).toContain(message);
    });

    it.each([
        ["create", (client: WosClient) => client.noCodeModules.create("", ready), "organization must be a non-empty string"],
        ["read", (client: WosClient) => client.noCodeModules.read(""), "noCodeModuleId must be a non-empty string"],
        ["delete", (client: WosClient) => client.noCodeModules.delete(" "), "noCodeModuleId must be a non-empty string"],
        ["readUpgrade", (client: WosClient) => client.noCodeModules.readUpgrade("nocode-x", "ws-x", ""), "upgradeId must be a non-empty string"],
        ["confirmUpgrade", (client: WosClient) => client.noCodeModules.confirmUpgrade("nocode-x", "", "run-x"), "workspaceId must be a non-empty string"],
        [
            "waitForPlan",
            (client: WosClient) => client.noCodeModules.waitForPlan({ noCodeModuleId: "nocode-x", workspaceId: "ws-x", id: "" }, { deadline: 1 }),
            "upgrade.id must be a non-empty string",
        ],
        ["readByName", (client: WosClient) => client.workspaces.readByName("acme", ""), "name must be a non-empty string"],
        ["registryModules.read", (client: WosClient) => client.registryModules.read(""), "registryModuleId must be a non-empty string"],
    ])("%s refuses an empty id", async (_what, call, message) => {
        const error = await refused(call);
        expect(error.message).toContain(message);
    });

    it("a token pasted into a duplicated var key stays out of the refusal", async () => {
        const token = TOKENS.owners;
        const error = await refused((client) =>
            client.noCodeModules.initiateUpgrade("nocode-x", "ws-x", {
                vars: [
                    { key: token, category: "env" },
                    { key: token, category: "env" },
                ],
            }),
        );
        expect(error.message).toContain("var '[REDACTED]' (env) appears more than once");
        expectNoToken(error, token);
    });
});
