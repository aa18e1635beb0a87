/**
 * The official public clients of the hosted API, unchanged, against the local service (issue 5 section 1,
 * issue 6 section 1): go-tfe 1.111 (a Go program built from `tests/compat/gotfe`) and pytfe 1.5
 * (`tests/compat/pytfe/compat.py` in the `.compat/venv` virtual environment) each run the no-code calls a
 * user makes, in order: create a no-code module with variable options, read it with its options, update it
 * (enable, options with and without id, then the version pin), create a workspace from it, upgrade the
 * workspace with vars and without, watch each plan end, confirm it, read the workspace, delete the module.
 *
 * Each client prints what it sent, what it got and what it decoded; this file asserts that every call
 * succeeded and decoded the values it should, then reads back over raw HTTP that the service holds what the
 * client wrote. The toolchains are installed by `.ci/run` (see `INSTALL` in ./clients.ts); when one is
 * missing the test fails and names the command to run.
 *
 * More areas (projects, tags, vars) add a scenario to both programs and a `describe` here.
 */
import { REGISTRY_MODULES, TOKENS } from "../support/seed";
import { startTestServer, type TestServer } from "../support/server";
import {
    describeCall,
    prepareGoTfe,
    preparePytfe,
    succeeded,
    type ClientReport,
    type PublicClient,
} from "./clients";

const AGENT_POOL = "apool-0000000000000001";
/** The sensitive env var's value: sent by the clients, never answered by the service. */
const SECRET = "compat-secret-value-4e1f9b";
/** A small step keeps the plans short; the clients poll faster than it. */
const PLAN_STEP_MS = 20;

interface ClientSpec {
    name: "go-tfe" | "pytfe";
    prepare: () => Promise<PublicClient>;
    /**
     * The category a client sends for a module (configuration) variable. go-tfe's `CategoryType` is a string,
     * so it sends the local service's `infra`; pytfe's is an enum of the hosted values, so `terraform` is the
     * only configuration category it can send.
     */
    configCategory: string;
    /**
     * Whether an update's variable-options item that has an id carries its attributes. go-tfe's JSON:API
     * encoder writes an identified related resource as `{id, type}` only, so the one thing go-tfe can say of an
     * existing set is "keep it as it is"; pytfe sends the id with the attributes (replace the set).
     */
    identifiedSetHasAttributes: boolean;
    /** Whether the client can send an include the service does not know (pytfe's include is an enum). */
    sendsAnyInclude: boolean;
    /**
     * The description an upgrade leaves on a var whose item had none: go-tfe sends every attribute (so `""`);
     * pytfe leaves out what is unset, and a left-out attribute of an upsert stays, as in `PATCH /vars`.
     */
    descriptionAfterUpgrade: (given: string) => string;
}

const CLIENTS: ClientSpec[] = [
    {
        name: "go-tfe",
        prepare: prepareGoTfe,
        configCategory: "infra",
        identifiedSetHasAttributes: false,
        sendsAnyInclude: true,
        descriptionAfterUpgrade: () => "",
    },
    {
        name: "pytfe",
        prepare: preparePytfe,
        configCategory: "terraform",
        identifiedSetHasAttributes: true,
        sendsAnyInclude: false,
        descriptionAfterUpgrade: (given) => given,
    },
];

/** The calls of scenario `nocode`, in order. */
function noCodeCalls(spec: ClientSpec): string[] {
    const upgrade = (label: string) => [
        `noCodeModules.upgradeWorkspace(${label})`,
        `readUpgrade(${label}) until the plan ends`,
        `confirmUpgrade(${label})`,
    ];
    return [
        "noCodeModules.create",
        "noCodeModules.read(include variable-options)",
        ...(spec.sendsAnyInclude ? ["noCodeModules.read(invalid include)"] : []),
        "noCodeModules.update(enable, options with and without id)",
        "noCodeModules.createWorkspace",
        "workspaces.readByID(created)",
        ...upgrade("vars"),
        "noCodeModules.update(version pin)",
        "workspaces.readByID(upgrade available)",
        ...upgrade("no vars"),
        "workspaces.readByID(upgraded)",
    ];
}

/** What scenario `nocode` does (both programs read the same parameters). */
function noCodePlan(spec: ClientSpec, projectId: string) {
    const config = spec.configCategory;
    return {
        organization: "acme",
        registryModuleId: REGISTRY_MODULES.bucket,
        projectId,
        agentPoolId: AGENT_POOL,
        create: {
            versionPin: "1.0.0",
            enabled: false,
            variableOptions: [{ variableName: "region", variableType: "string", options: ["us-east-1", "eu-west-1"] }],
        },
        update: {
            enabled: true,
            replace: { variableName: "region", variableType: "string", options: ["us-east-1", "eu-west-1", "ap-south-1"] },
            add: { variableName: "size", variableType: "number", options: ["1", "2", "3"] },
        },
        workspace: {
            name: `${spec.name}-nocode`,
            description: `made by ${spec.name}`,
            autoApply: true,
            executionMode: "agent",
            sourceName: "compat",
            sourceUrl: "https://example.com/compat",
            vars: [
                { key: "region", value: "eu-west-1", category: config, description: "", hcl: false, sensitive: false },
                { key: "size", value: "2", category: config, description: "instances", hcl: false, sensitive: false },
                { key: "API_TOKEN", value: SECRET, category: "env", description: "", hcl: false, sensitive: true },
            ],
        },
        upgradeVars: [{ key: "size", value: "3", category: config }],
        upgradePin: "1.1.0",
        pollIntervalMs: 25,
        deadlineMs: 30_000,
    };
}

describe.each(CLIENTS)("$name, unchanged, against the local service: no-code calls", (spec) => {
    let client: PublicClient;
    let server: TestServer;
    let projectId: string;
    let report: ClientReport;
    let stdout: string;
    let plan: ReturnType<typeof noCodePlan>;
    /** Ids the scenario made (from the report's output). */
    let moduleId: string;
    let workspaceId: string;

    const get = (path: string) => server.request("GET", path, { token: TOKENS.owners });
    const call = (name: string) => succeeded(report, name);

    beforeAll(async () => {
        // Toolchains first: a missing one fails here with the install command, before any service runs.
        client = await spec.prepare();
        server = await startTestServer({ planStepMs: PLAN_STEP_MS });
        const projects = await get("/organizations/acme/projects");
        projectId = projects.body.data.find((project: any) => project.attributes.name === "Apps").id;
        plan = noCodePlan(spec, projectId);
        ({ report, stdout } = await client.run("nocode", { address: server.url, token: TOKENS.owners, input: plan }));
        moduleId = String(report.output.noCodeModuleId ?? "");
        workspaceId = String(report.output.workspaceId ?? "");
    }, 600_000);

    afterAll(async () => {
        await server?.close();
        client?.dispose();
    });

    test("the client is the pinned version", () => {
        expect(report.client).toBe(spec.name);
        expect(report.version).toBe(client.pinnedVersion);
    });

    test("every call succeeded (each failure listed with the client's error and the exchanges)", () => {
        const failed = report.calls.filter((c) => !c.ok);
        expect(failed.map((c) => describeCall(report.client, c)).join("\n\n")).toBe("");
        expect(report.calls.map((c) => c.name)).toEqual(noCodeCalls(spec));
    });

    test("noCodeModules.create: sends the registry module and the options; decodes the module", () => {
        const result = call("noCodeModules.create").result;
        expect(result).toMatchObject({
            id: expect.stringMatching(/^nocode-/),
            enabled: false,
            versionPin: "1.0.0",
            organization: "acme",
            registryModuleId: REGISTRY_MODULES.bucket,
        });
        expect(result.variableOptions).toEqual([expect.objectContaining({ id: expect.stringMatching(/^ncvaropt-/) })]);
    });

    test("noCodeModules.read with the variable-options include: decodes each set's name, type and options as strings", () => {
        const created = call("noCodeModules.create").result;
        const read = call("noCodeModules.read(include variable-options)").result;
        expect(read).toMatchObject({ id: created.id, enabled: false, versionPin: "1.0.0", registryModuleId: REGISTRY_MODULES.bucket });
        expect(read.variableOptions).toEqual([
            { id: created.variableOptions[0].id, variableName: "region", variableType: "string", options: ["us-east-1", "eu-west-1"] },
        ]);
    });

    if (spec.sendsAnyInclude) {
        test("noCodeModules.read with an unknown include: the client's typed ErrInvalidIncludeValue", () => {
            expect(call("noCodeModules.read(invalid include)").result).toEqual({ error: "ErrInvalidIncludeValue" });
        });
    }

    test("noCodeModules.update (enable; one set with its id, one without): the answer shows both sets, the listed one keeps its id", () => {
        const created = call("noCodeModules.create").result;
        const updated = call("noCodeModules.update(enable, options with and without id)").result;
        expect(updated).toMatchObject({ id: created.id, enabled: true, versionPin: "1.0.0", registryModuleId: REGISTRY_MODULES.bucket });
        const ids = updated.variableOptions.map((set: any) => set.id);
        expect(ids).toHaveLength(2);
        expect(ids).toContain(created.variableOptions[0].id);
        expect(ids.every((id: string) => /^ncvaropt-/.test(id))).toBe(true);
    });

    test("the wire shape the client uses for an update's sets (what the service must accept)", () => {
        const update = report.calls.find((c) => c.name === "noCodeModules.update(enable, options with and without id)");
        const patch = update?.exchanges.find((exchange) => exchange.method === "PATCH");
        const items = (patch?.requestBody as any)?.data?.relationships?.["variable-options"]?.data;
        expect(items).toHaveLength(2);
        const [identified, added] = items;
        expect(identified.id).toMatch(/^ncvaropt-/);
        expect("attributes" in identified).toBe(spec.identifiedSetHasAttributes);
        expect(added.id).toBeUndefined();
        expect(added.attributes).toEqual({ "variable-name": "size", "variable-type": "number", options: ["1", "2", "3"] });
    });

    /** What every read of the created workspace decodes (upgrade availability aside). */
    const workspaceValues = () => ({
        id: workspaceId,
        name: plan.workspace.name,
        description: plan.workspace.description,
        source: "tfe-module",
        sourceName: plan.workspace.sourceName,
        sourceUrl: plan.workspace.sourceUrl,
        sourceModuleId: REGISTRY_MODULES.bucket,
        autoApply: true,
        executionMode: "agent",
        agentPoolId: AGENT_POOL,
        projectId,
        organization: "acme",
    });

    test("noCodeModules.createWorkspace (vars, project, auto-apply, agent execution): decodes the workspace made from the module", () => {
        const result = call("noCodeModules.createWorkspace").result;
        expect(workspaceId).toMatch(/^ws-/);
        expect(result).toMatchObject({ ...workspaceValues(), noCodeUpgradeAvailable: false });
        expect(result.varIds).toHaveLength(3);
    });

    test("workspaces.readByID decodes source tfe-module, the source fields and no upgrade available", () => {
        expect(call("workspaces.readByID(created)").result).toMatchObject({ ...workspaceValues(), noCodeUpgradeAvailable: false });
    });

    for (const label of ["vars", "no vars"]) {
        test(`upgrade with ${label}: initiate answers a run, reads follow it to planned, confirm succeeds`, () => {
            const started = call(`noCodeModules.upgradeWorkspace(${label})`).result;
            expect(started.id).toMatch(/^run-/);
            expect(started.status).toBe("pending");
            expect(started.planUrl).toMatch(/^https?:\/\//);
            expect(started.planUrl).toContain(started.id);
            if (spec.name === "pytfe") expect(started.workspaceId).toBe(workspaceId);

            const ended = call(`readUpgrade(${label}) until the plan ends`).result;
            expect(ended).toMatchObject({ id: started.id, status: "planned", planUrl: started.planUrl });
            // The statuses the reads saw, in the state machine's order.
            const order = ["pending", "fetching", "planning", "planned"];
            expect(ended.statuses.at(-1)).toBe("planned");
            expect(ended.statuses.map((status: string) => order.indexOf(status))).toEqual(
                [...ended.statuses.map((status: string) => order.indexOf(status))].sort((a, b) => a - b),
            );
            expect(ended.statuses.every((status: string) => order.includes(status))).toBe(true);

            call(`confirmUpgrade(${label})`);
        });
    }

    test("noCodeModules.update of the version pin alone keeps enabled and the sets; the workspace then has an upgrade available", () => {
        const before = call("noCodeModules.update(enable, options with and without id)").result;
        const updated = call("noCodeModules.update(version pin)").result;
        expect(updated).toMatchObject({ enabled: true, versionPin: "1.1.0", registryModuleId: REGISTRY_MODULES.bucket });
        expect(updated.variableOptions.map((set: any) => set.id).sort()).toEqual(before.variableOptions.map((set: any) => set.id).sort());
        expect(call("workspaces.readByID(upgrade available)").result).toMatchObject({ ...workspaceValues(), noCodeUpgradeAvailable: true });
    });

    test("after the confirmed upgrade to the new version the workspace reads no upgrade available", () => {
        expect(call("workspaces.readByID(upgraded)").result).toMatchObject({ ...workspaceValues(), noCodeUpgradeAvailable: false });
    });

    test("raw HTTP: the service holds the module as the client wrote it", async () => {
        const created = call("noCodeModules.create").result;
        const regionOptions = spec.identifiedSetHasAttributes ? plan.update.replace.options : plan.create.variableOptions[0].options;
        const response = await get(`/no-code-modules/${moduleId}?include=variable-options`);
        expect(response.status).toBe(200);
        expect(response.body.data.attributes).toEqual({ enabled: true, "version-pin": "1.1.0" });
        expect(response.body.data.relationships["registry-module"].data).toEqual({ id: REGISTRY_MODULES.bucket, type: "registry-modules" });
        const sets = Object.fromEntries(
            response.body.included.map((set: any) => [set.attributes["variable-name"], { id: set.id, ...set.attributes }]),
        );
        expect(sets).toEqual({
            region: {
                id: created.variableOptions[0].id,
                "variable-name": "region",
                "variable-type": "string",
                options: regionOptions,
            },
            size: { id: expect.stringMatching(/^ncvaropt-/), "variable-name": "size", "variable-type": "number", options: ["1", "2", "3"] },
        });
    });

    test("raw HTTP: the service holds the workspace and its vars as the client wrote them, the upgrades applied", async () => {
        const workspace = await get(`/workspaces/${workspaceId}`);
        expect(workspace.status).toBe(200);
        expect(workspace.body.data.attributes).toMatchObject({
            name: plan.workspace.name,
            description: plan.workspace.description,
            "auto-apply": true,
            "execution-mode": "agent",
            source: "tfe-module",
            "source-name": plan.workspace.sourceName,
            "source-url": plan.workspace.sourceUrl,
            "source-module-id": REGISTRY_MODULES.bucket,
            "no-code-upgrade-available": false,
        });
        expect(workspace.body.data.relationships.project.data).toEqual({ id: projectId, type: "projects" });
        expect(workspace.body.data.relationships["agent-pool"].data).toEqual({ id: AGENT_POOL, type: "agent-pools" });
        expect(workspace.body.data.relationships["no-code-module-version"].data).toEqual({
            id: expect.stringMatching(/^nocodever-/),
            type: expect.any(String),
        });

        const vars = await get(`/vars?filter[organization][name]=acme&filter[workspace][name]=${plan.workspace.name}`);
        expect(vars.status).toBe(200);
        const byKey = Object.fromEntries(vars.body.data.map((v: any) => [v.attributes.key, v.attributes]));
        expect(Object.keys(byKey).sort()).toEqual(["API_TOKEN", "region", "size"]);
        expect(byKey.region).toMatchObject({ value: "eu-west-1", category: "infra", sensitive: false });
        // The upgrade by vars changed size from 2 to 3.
        expect(byKey.size).toMatchObject({
            value: "3",
            category: "infra",
            sensitive: false,
            description: spec.descriptionAfterUpgrade(plan.workspace.vars[1].description),
        });
        expect(byKey.API_TOKEN).toMatchObject({ value: null, category: "env", sensitive: true });
    });

    test("the sensitive value appears in no answer the client got (its own requests are redacted in the report)", async () => {
        expect(stdout).not.toContain(SECRET);
        const workspace = await get(`/workspaces/${workspaceId}`);
        expect(JSON.stringify(workspace.body)).not.toContain(SECRET);
    });

    describe("then noCodeModules.delete", () => {
        let deleted: ClientReport;

        beforeAll(async () => {
            ({ report: deleted } = await client.run("nocode-delete", {
                address: server.url,
                token: TOKENS.owners,
                input: { noCodeModuleId: moduleId },
            }));
        }, 120_000);

        test("delete succeeds and a read after it is the client's typed not-found", () => {
            succeeded(deleted, "noCodeModules.delete");
            expect(succeeded(deleted, "noCodeModules.read(deleted)").result).toEqual({
                error: spec.name === "go-tfe" ? "ErrResourceNotFound" : "NotFound",
            });
        });

        test("raw HTTP: the module is gone, the workspace made from it stays with no upgrade available", async () => {
            expect((await get(`/no-code-modules/${moduleId}`)).status).toBe(404);
            const workspace = await get(`/workspaces/${workspaceId}`);
            expect(workspace.status).toBe(200);
            expect(workspace.body.data.attributes).toMatchObject({ source: "tfe-module", "no-code-upgrade-available": false });
        });
    });
});
