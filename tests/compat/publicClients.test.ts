/**
 * The official public clients of the hosted API, unchanged, against the local service (issue 5 section 1,
 * issue 6 section 1): go-tfe 1.111 (a Go program built from `tests/compat/gotfe`) and pytfe 1.5
 * (`tests/compat/pytfe/compat.py` in the `.compat/venv` virtual environment), each running two scenarios on
 * a service of its own:
 *
 * - `nocode`: the no-code calls a user makes, in order: create a no-code module with variable options, read
 *   it with its options, update it (enable, options with and without id, then the version pin), create a
 *   workspace from it, upgrade the workspace with vars and without, watch each plan end, confirm it, read the
 *   workspace, delete the module.
 * - `projects`: every other call of theirs that this API covers: projects (create with tag bindings, read,
 *   update, list with a search over pages, a name filter, tag filters and the effective tag bindings
 *   included, delete), tag bindings (list, add or update,
 *   remove all, effective for a project and a workspace), workspaces (read by id and by name, update, move by
 *   an update's project and by pytfe's move call, a refused move, delete) and `/vars` (create, list, update,
 *   delete; neither client has a service for the standalone endpoints, so those go through the client's own
 *   request machinery and types).
 *
 * Each client prints what it sent, what it got and what it decoded; this file asserts that every call
 * succeeded and decoded the values it should, then reads back over raw HTTP that the service holds what the
 * client wrote. The toolchains are installed by `.ci/run` (see `INSTALL` in ./clients.ts); when one is
 * missing the test fails and names the command to run.
 *
 * Not covered because this API does not have the endpoints: go-tfe's `Variables` (`/workspaces/:id/vars`),
 * the by-name workspace update and delete of both clients (`PATCH`/`DELETE
 * /organizations/:org/workspaces/:name`), a workspace's own tag bindings (`/workspaces/:id/tag-bindings`),
 * workspace creates, and workspace lists other than by tag.
 */
import { REGISTRY_MODULES, TOKENS, WORKSPACES } from "../support/seed";
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
    /** The client's typed not-found, as the programs name it. */
    notFound: string;
    /**
     * How the client moves a second workspace: go-tfe has no call for the move endpoint (an update with the
     * project is its only way); pytfe has `projects.move_workspaces`.
     */
    secondMove: string;
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
        notFound: "ErrResourceNotFound",
        secondMove: "workspaces.updateByID(project only)",
        descriptionAfterUpgrade: () => "",
    },
    {
        name: "pytfe",
        prepare: preparePytfe,
        configCategory: "terraform",
        identifiedSetHasAttributes: true,
        sendsAnyInclude: false,
        notFound: "NotFound",
        secondMove: "projects.moveWorkspaces",
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
                error: spec.notFound,
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

/** The calls of scenario `projects`, in order. */
function projectCalls(spec: ClientSpec): string[] {
    return [
        "projects.create(tag bindings)",
        "projects.create",
        "projects.read",
        "projects.update(name, description, tag bindings)",
        "projects.list(q, every page)",
        "projects.list(filter names)",
        "projects.listTagBindings",
        "projects.addTagBindings",
        "projects.listEffectiveTagBindings",
        "projects.list(tag bindings filter)",
        "projects.list(tag key filter)",
        "projects.list(q, include effective tag bindings)",
        "projects.list(invalid include)",
        "workspaces.readByID",
        "workspaces.read(by name)",
        "workspaces.updateByID(attributes)",
        "workspaces.updateByID(project and description)",
        spec.secondMove,
        "workspaces.updateByID(unknown project and description)",
        "workspaces.listEffectiveTagBindings",
        "workspaces.list(tag bindings filter)",
        "vars.create",
        "vars.create(sensitive)",
        "vars.list",
        "vars.update",
        "vars.delete",
        "vars.list(after delete)",
        "projects.deleteAllTagBindings",
        "projects.listTagBindings(after delete all)",
        "workspaces.deleteByID",
        "workspaces.readByID(deleted)",
        "projects.delete",
        "projects.read(deleted)",
    ];
}

/** What scenario `projects` does (both programs read the same parameters). */
function projectsPlan(spec: ClientSpec) {
    const prefix = `${spec.name} compat`;
    return {
        organization: "acme",
        create: {
            name: `${prefix} one`,
            description: `made by ${spec.name}`,
            autoDestroyActivityDuration: "14d",
            tags: [
                { key: "team", value: "platform" },
                { key: "env", value: "dev" },
            ],
        },
        second: { name: `${prefix} two`, tags: [{ key: "scratch", value: "yes" }] },
        update: {
            name: `${prefix} uno`,
            description: `renamed by ${spec.name}`,
            tags: [
                { key: "team", value: "apps" },
                { key: "tier", value: "1" },
            ],
        },
        // `q` is case-insensitive: the search is the prefix in upper case, and it matches both projects.
        search: prefix.toUpperCase(),
        pageSize: 1,
        listNames: "Apps,Staging",
        addTags: [
            { key: "team", value: "web" },
            { key: "owner", value: "ops" },
        ],
        workspace: {
            id: WORKSPACES.appsWeb,
            name: "web-app",
            update: { description: `updated by ${spec.name}`, autoApply: true, executionMode: "agent", agentPoolId: AGENT_POOL },
            moveDescription: `moved by ${spec.name}`,
            refusedDescription: "a refused move must not write this",
        },
        secondWorkspaceId: WORKSPACES.appsLegacy,
        unknownProjectId: "prj-doesnotexist0000",
        vars: {
            plain: { key: "compat_region", value: "eu-west-1", description: "a region", category: "infra", hcl: false, sensitive: false },
            sensitive: { key: "COMPAT_TOKEN", value: SECRET, description: "", category: "env", hcl: false, sensitive: true },
            updateValue: '"eu-central-1"',
            updateHcl: true,
        },
        deleteWorkspaceId: WORKSPACES.defaultProject,
        // Lists by tag, once the tags are final (the update's set with the added ones upserted): two filters
        // (AND), the second by key alone (an empty value); then one key alone, the second project's.
        tagFilter: [
            { key: "team", value: "web" },
            { key: "tier", value: "" },
        ],
        keyTagFilter: "scratch",
        // After the moves: the two workspaces moved into the created project carry its tags.
        workspaceTagFilter: [{ key: "owner", value: "ops" }],
        invalidInclude: "workspaces",
    };
}

describe.each(CLIENTS)("$name, unchanged, against the local service: projects, tag bindings, workspaces, moves and /vars", (spec) => {
    let client: PublicClient;
    let server: TestServer;
    let report: ClientReport;
    let stdout: string;
    let plan: ReturnType<typeof projectsPlan>;
    /** Ids the scenario made (from the report's output). */
    let projectId: string;
    let secondProjectId: string;
    let appsId: string;

    const get = (path: string) => server.request("GET", path, { token: TOKENS.owners });
    const call = (name: string) => succeeded(report, name);
    const byKey = (tags: { key: string; value: string }[]) => [...tags].sort((a, b) => a.key.localeCompare(b.key));
    /** The tags the created project has at the end: the update's set, then the added ones upserted. */
    const finalTags = () => {
        const tags = new Map(plan.update.tags.map((tag) => [tag.key, tag.value]));
        for (const tag of plan.addTags) tags.set(tag.key, tag.value);
        return byKey([...tags].map(([key, value]) => ({ key, value })));
    };
    /** A project's tag bindings over raw HTTP, as sorted key/value pairs. */
    const rawTags = async (id: string) => {
        const response = await get(`/projects/${id}/tag-bindings`);
        expect(response.status).toBe(200);
        return byKey(response.body.data.map((binding: any) => ({ key: binding.attributes.key, value: binding.attributes.value })));
    };

    beforeAll(async () => {
        client = await spec.prepare();
        server = await startTestServer();
        const projects = await get("/organizations/acme/projects");
        appsId = projects.body.data.find((project: any) => project.attributes.name === "Apps").id;
        plan = projectsPlan(spec);
        ({ report, stdout } = await client.run("projects", { address: server.url, token: TOKENS.owners, input: plan }));
        projectId = String(report.output.projectId ?? "");
        secondProjectId = String(report.output.secondProjectId ?? "");
    }, 600_000);

    afterAll(async () => {
        await server?.close();
        client?.dispose();
    });

    test("every call succeeded (each failure listed with the client's error and the exchanges)", () => {
        expect(report.version).toBe(client.pinnedVersion);
        const failed = report.calls.filter((c) => !c.ok);
        expect(failed.map((c) => describeCall(report.client, c)).join("\n\n")).toBe("");
        expect(report.calls.map((c) => c.name)).toEqual(projectCalls(spec));
    });

    describe("projects", () => {
        test("create with tag bindings sends them in the relationship and decodes the project", () => {
            const created = call("projects.create(tag bindings)");
            expect(created.result).toMatchObject({ id: projectId, name: plan.create.name, description: plan.create.description });
            expect(projectId).toMatch(/^prj-/);
            const post = created.exchanges.find((exchange) => exchange.method === "POST");
            const items = (post?.requestBody as any)?.data?.relationships?.["tag-bindings"]?.data;
            expect(byKey(items.map((item: any) => item.attributes))).toEqual(byKey(plan.create.tags));
            expect(post?.status).toBe(201);
        });

        test("read decodes name, description, the auto-destroy duration and the organization", () => {
            expect(call("projects.read").result).toEqual({
                id: projectId,
                name: plan.create.name,
                description: plan.create.description,
                autoDestroyActivityDuration: plan.create.autoDestroyActivityDuration,
                organization: "acme",
            });
        });

        test("update changes name and description and replaces the tag set; the answer decodes", () => {
            expect(call("projects.update(name, description, tag bindings)").result).toMatchObject({
                id: projectId,
                name: plan.update.name,
                description: plan.update.description,
            });
        });

        test("list with q walks every page of one: the two projects of the scenario, pagination decoded", () => {
            const { result, exchanges } = call("projects.list(q, every page)");
            expect([...result.names].sort()).toEqual([plan.second.name, plan.update.name].sort());
            expect(exchanges.filter((exchange) => exchange.method === "GET")).toHaveLength(2);
            for (const exchange of exchanges) {
                expect(exchange.url).toMatch(/[?&]q=/);
                expect(exchange.status).toBe(200);
            }
            if (spec.name === "go-tfe") {
                expect(result.pages).toEqual([
                    { items: 1, currentPage: 1, nextPage: 2, totalPages: 2, totalCount: 2 },
                    { items: 1, currentPage: 2, nextPage: 0, totalPages: 2, totalCount: 2 },
                ]);
            }
        });

        test("list with filter[names] (several, comma-separated) answers exactly those projects", () => {
            expect(call("projects.list(filter names)").result.names).toEqual(["Apps", "Staging"]);
        });

        test("raw HTTP: the service holds the project as the client wrote it", async () => {
            const response = await get(`/projects/${projectId}`);
            expect(response.status).toBe(200);
            expect(response.body.data.attributes).toMatchObject({
                name: plan.update.name,
                description: plan.update.description,
                "auto-destroy-activity-duration": plan.create.autoDestroyActivityDuration,
            });
            expect(await rawTags(projectId)).toEqual(finalTags());
        });

        test("delete succeeds, a read after it is the client's typed not-found; raw HTTP: 404", async () => {
            call("projects.delete");
            expect(call("projects.read(deleted)").result).toEqual({ error: spec.notFound });
            expect((await get(`/projects/${secondProjectId}`)).status).toBe(404);
        });
    });

    describe("tag bindings", () => {
        test("list decodes the set the update made", () => {
            expect(byKey(call("projects.listTagBindings").result.map(({ key, value }: any) => ({ key, value })))).toEqual(byKey(plan.update.tags));
        });

        test("add or update answers the bindings written, in request order, each with its id", () => {
            const written = call("projects.addTagBindings").result;
            expect(written.map(({ key, value }: any) => ({ key, value }))).toEqual(plan.addTags);
            for (const binding of written) expect(binding.id).toMatch(/^tb-/);
        });

        test("the project's effective tag bindings decode (items of type effective-tag-bindings): its own set", () => {
            const { result, exchanges } = call("projects.listEffectiveTagBindings");
            expect(result.map(({ key, value }: any) => ({ key, value }))).toEqual(finalTags());
            const items = (exchanges[0].responseBody as any).data;
            expect(items.map((item: any) => item.type)).toEqual(items.map(() => "effective-tag-bindings"));
        });

        test("a workspace's effective tag bindings decode: those of the project it was moved into, each linking to it", () => {
            const { result, exchanges } = call("workspaces.listEffectiveTagBindings");
            expect(result.map(({ key, value }: any) => ({ key, value }))).toEqual(finalTags());
            const items = (exchanges[0].responseBody as any).data;
            expect(items.map((item: any) => item.type)).toEqual(items.map(() => "effective-tag-bindings"));
            // go-tfe decodes the links; pytfe 1.5 looks for them among the attributes and finds none.
            const inherited = { "inherited-from": `/api/v2/projects/${projectId}` };
            for (const binding of result) expect(binding.links).toEqual(spec.name === "go-tfe" ? inherited : {});
        });

        test("removing all of a project's bindings (an update with an empty tag-bindings list) leaves none; raw HTTP agrees", async () => {
            call("projects.deleteAllTagBindings");
            expect(call("projects.listTagBindings(after delete all)").result).toEqual([]);
            const patch = call("projects.deleteAllTagBindings").exchanges.find((exchange) => exchange.method === "PATCH");
            expect((patch?.requestBody as any)?.data?.relationships?.["tag-bindings"]).toEqual({ data: [] });
        });

        test("raw HTTP: a workspace's effective tags are its new project's", async () => {
            const response = await get(`/workspaces/${plan.workspace.id}/effective-tag-bindings`);
            expect(response.status).toBe(200);
            expect(byKey(response.body.data.map((item: any) => ({ key: item.attributes.key, value: item.attributes.value })))).toEqual(finalTags());
        });
    });

    describe("lists by tag and with the effective tag bindings included", () => {
        /** The tag filters of a call's first request, as `[i, key, value]` triples from its URL. */
        const sentFilters = (name: string) => {
            const query = new URL(call(name).exchanges[0]!.url).searchParams;
            const filters: [string, string, string | null][] = [];
            for (const [parameter, value] of query) {
                const match = /^filter\[tagged\]\[(\d+)\]\[key\]$/.exec(parameter);
                if (match) filters.push([match[1]!, value, query.get(`filter[tagged][${match[1]}][value]`)]);
            }
            return filters.sort();
        };

        test("a list by two tag filters (one by key alone) answers the project that has both", () => {
            expect(call("projects.list(tag bindings filter)").result.names).toEqual([plan.update.name]);
            // go-tfe and pytfe both send the value parameter, empty for a key alone.
            expect(sentFilters("projects.list(tag bindings filter)")).toEqual([
                ["0", "team", "web"],
                ["1", "tier", ""],
            ]);
        });

        test("a list by one key alone answers the projects bound to it", () => {
            expect(call("projects.list(tag key filter)").result.names).toEqual([plan.second.name]);
            expect(sentFilters("projects.list(tag key filter)")).toEqual([["0", plan.keyTagFilter, ""]]);
        });

        test("a list with include=effective_tag_bindings: the client decodes every project with its bindings", () => {
            const { result, exchanges } = call("projects.list(q, include effective tag bindings)");
            expect(new URL(exchanges[0]!.url).searchParams.get("include")).toBe("effective_tag_bindings");
            expect(result.map((project: any) => project.name)).toEqual([plan.second.name, plan.update.name].sort());
            // The answer the client got (the second project has since lost its tags and been deleted).
            const answer = exchanges[0]!.responseBody as any;
            expect(answer.included.map((item: any) => item.type)).toEqual(answer.included.map(() => "effective-tag-bindings"));
            const rawIds = (name: string) =>
                answer.data
                    .find((project: any) => project.attributes.name === name)
                    .relationships["effective-tag-bindings"].data.map((identifier: any) => identifier.id)
                    .sort();
            const decoded = (name: string) => result.find((project: any) => project.name === name);
            if (spec.name === "go-tfe") {
                // go-tfe fills Project.EffectiveTagBindings from `included`: key, value and id of each.
                expect(decoded(plan.update.name).tags.map(({ key, value }: any) => ({ key, value }))).toEqual(finalTags());
                expect(decoded(plan.second.name).tags.map(({ key, value }: any) => ({ key, value }))).toEqual(plan.second.tags);
                for (const name of [plan.update.name, plan.second.name]) {
                    expect(decoded(name).tags.map((tag: any) => tag.id).sort()).toEqual(rawIds(name));
                }
            } else {
                // pytfe 1.5 keeps the relationship data of a listed project raw (it reads no `included` there).
                for (const name of [plan.update.name, plan.second.name]) expect([...decoded(name).tagIds].sort()).toEqual(rawIds(name));
                expect(decoded(plan.update.name).tagIds).toHaveLength(finalTags().length);
            }
        });

        test("a list with an include the service does not know: 400, the client's own error for it", () => {
            const { result, exchanges } = call("projects.list(invalid include)");
            expect(exchanges[0]!.status).toBe(400);
            if (spec.name === "go-tfe") expect(result).toEqual({ error: "ErrInvalidIncludeValue" });
            else expect(result.message.toLowerCase()).toContain("include parameter");
        });

        test("a workspace list by tag answers the workspaces of the projects that have it (a workspace inherits its project's tags)", () => {
            const { result, exchanges } = call("workspaces.list(tag bindings filter)");
            expect(result.names).toEqual(["legacy-app", "web-app"]);
            const query = new URL(exchanges[0]!.url).searchParams;
            expect(query.get("filter[tagged][0][key]")).toBe("owner");
            expect(query.get("filter[tagged][0][value]")).toBe("ops");
        });
    });

    describe("workspaces", () => {
        test("the fields the client sends by habit (accepted and ignored, the calls above succeeded)", () => {
            const sent = (name: string) => (call(name).exchanges.find((exchange) => exchange.method !== "GET")?.requestBody as any)?.data;
            if (spec.name === "pytfe") {
                // Every project write carries default-execution-mode remote; every workspace update the type
                // among the attributes, an empty vcs-repo and empty setting-overwrites.
                for (const name of ["projects.create(tag bindings)", "projects.create", "projects.update(name, description, tag bindings)"]) {
                    expect(sent(name).attributes["default-execution-mode"]).toBe("remote");
                }
                for (const name of ["workspaces.updateByID(attributes)", "workspaces.updateByID(project and description)"]) {
                    expect(sent(name).attributes).toMatchObject({ type: "workspaces", "vcs-repo": {}, "setting-overwrites": {} });
                }
            } else {
                // go-tfe sends only what the caller set.
                expect(Object.keys(sent("workspaces.updateByID(project and description)").attributes)).toEqual(["description"]);
                expect(sent("workspaces.updateByID(project only)").attributes).toBeUndefined();
            }
        });

        test("read by id and by name decode the same seeded workspace: source tfe-api, its project", () => {
            const expected = {
                id: plan.workspace.id,
                name: plan.workspace.name,
                source: "tfe-api",
                projectId: appsId,
                organization: "acme",
                executionMode: "remote",
            };
            expect(call("workspaces.readByID").result).toMatchObject(expected);
            expect(call("workspaces.read(by name)").result).toMatchObject(expected);
        });

        test("update by id applies description, auto-apply and agent execution with its pool; the answer decodes them", () => {
            expect(call("workspaces.updateByID(attributes)").result).toMatchObject({
                id: plan.workspace.id,
                description: plan.workspace.update.description,
                autoApply: true,
                executionMode: "agent",
                agentPoolId: AGENT_POOL,
                projectId: appsId,
            });
        });

        test("an update with the project moves the workspace and applies the description with it", () => {
            const { result, exchanges } = call("workspaces.updateByID(project and description)");
            expect(result).toMatchObject({ id: plan.workspace.id, projectId, description: plan.workspace.moveDescription });
            const patch = exchanges.find((exchange) => exchange.method === "PATCH");
            expect((patch?.requestBody as any)?.data?.relationships?.project?.data).toEqual({ type: "projects", id: projectId });
        });

        test(`the second workspace is moved (${spec.secondMove})`, () => {
            const moved = call(spec.secondMove);
            if (spec.name === "go-tfe") expect(moved.result).toMatchObject({ id: plan.secondWorkspaceId, projectId });
        });

        test("an update with a project that does not exist is the client's typed not-found", () => {
            expect(call("workspaces.updateByID(unknown project and description)").result).toEqual({ error: spec.notFound });
        });

        test("raw HTTP: both workspaces are in the created project; the refused move wrote nothing (description, settings)", async () => {
            const moved = await get(`/workspaces/${plan.workspace.id}`);
            expect(moved.status).toBe(200);
            expect(moved.body.data.relationships.project.data).toEqual({ id: projectId, type: "projects" });
            expect(moved.body.data.attributes).toMatchObject({
                description: plan.workspace.moveDescription,
                "auto-apply": true,
                "execution-mode": "agent",
                source: "tfe-api",
                // The moved workspace inherits the destination project's auto-destroy duration.
                "auto-destroy-activity-duration": plan.create.autoDestroyActivityDuration,
            });
            expect(moved.body.data.relationships["agent-pool"].data).toEqual({ id: AGENT_POOL, type: "agent-pools" });
            const second = await get(`/workspaces/${plan.secondWorkspaceId}`);
            expect(second.body.data.relationships.project.data).toEqual({ id: projectId, type: "projects" });
            const project = await get(`/projects/${projectId}`);
            expect(project.body.data.attributes["workspace-count"]).toBe(2);
        });

        test("delete by id succeeds, a read after it is the client's typed not-found; raw HTTP: 404", async () => {
            call("workspaces.deleteByID");
            expect(call("workspaces.readByID(deleted)").result).toEqual({ error: spec.notFound });
            expect((await get(`/workspaces/${plan.deleteWorkspaceId}`)).status).toBe(404);
        });
    });

    describe("/vars", () => {
        const expectedVar = () => ({
            key: plan.vars.plain.key,
            value: plan.vars.plain.value,
            description: plan.vars.plain.description,
            category: "infra",
            hcl: false,
            sensitive: false,
            workspaceId: plan.workspace.id,
        });

        test("create decodes the variable; a sensitive one decodes with no value", () => {
            const created = call("vars.create").result;
            expect(created).toMatchObject(expectedVar());
            expect(created.id).toMatch(/^var-/);
            const sensitive = call("vars.create(sensitive)").result;
            expect(sensitive).toMatchObject({ key: plan.vars.sensitive.key, category: "env", sensitive: true });
            expect(sensitive.value ?? "").toBe("");
        });

        test("list with the workspace and organization filters decodes both", () => {
            const listed = call("vars.list").result;
            expect(listed.map((v: any) => v.key)).toEqual([plan.vars.sensitive.key, plan.vars.plain.key].sort());
            expect(listed.find((v: any) => v.key === plan.vars.plain.key)).toMatchObject(expectedVar());
        });

        test("update of value and hcl alone keeps the rest", () => {
            expect(call("vars.update").result).toMatchObject({ ...expectedVar(), value: plan.vars.updateValue, hcl: true });
        });

        test("delete succeeds and the list after it no longer has the variable", () => {
            call("vars.delete");
            expect(call("vars.list(after delete)").result.map((v: any) => v.key)).toEqual([plan.vars.sensitive.key]);
        });

        test("raw HTTP: the workspace holds the sensitive variable only, its value never answered", async () => {
            const response = await get(`/vars?filter[organization][name]=acme&filter[workspace][name]=${plan.workspace.name}`);
            expect(response.status).toBe(200);
            expect(response.body.data.map((v: any) => v.attributes)).toEqual([
                expect.objectContaining({ key: plan.vars.sensitive.key, value: null, category: "env", sensitive: true }),
            ]);
            expect(stdout).not.toContain(SECRET);
        });
    });
});
