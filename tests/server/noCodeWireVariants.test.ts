/**
 * What the official public clients of the hosted API send to the no-code endpoints, measured with go-tfe
 * 1.111 and pytfe 1.5 (issue 5, section 1), and how the local service must answer so that they decode it:
 * the module relationship typed `registry-module` or `registry-modules` (always answered
 * `registry-modules`); `include=variable_options` or `variable-options`; workspace create and upgrade bodies
 * typed `workspaces` or `no-code-module-workspace`, with `auto-apply` or `auto_apply`, a project typed
 * `project` or `projects`, vars items with every attribute (`"description": ""`, `"version-id": ""`) or only
 * some; an upgrade body without relationships; variable-option items with or without `id`, with `options`
 * left out when empty; confirm with no body, an empty body or `null`; options given as numbers or booleans,
 * answered as strings.
 *
 * Bodies marked "as go-tfe sends it" are the bytes its JSON:API marshaller produces (relationship types come
 * from the related struct: `registry-modules`, `projects`; `id` left out when empty; every attribute of a
 * variable without `omitempty`).
 */
import { TOKENS } from "../support/seed";
import type { TestServer } from "../support/server";
import {
    BUCKET_VARS,
    JSON_API,
    createNoCodeModule,
    expectNoCodeUnchanged,
    expectStatus,
    expectValidation,
    http,
    initiateUpgrade,
    moduleWithWorkspace,
    noCodeModuleDocument,
    noCodeSnapshot,
    noCodePaths,
    noCodeWorkspaceDocument,
    pollRun,
    readNoCodeModule,
    runStatus,
    setContents,
    uniqueWorkspaceName,
    updateNoCodeModule,
    upgradeAvailable,
    upgradeDocument,
    varContents,
    workspaceVars,
    withNoCodeServer,
    type Client,
    type NoCodeServer,
} from "./helpers";

let started: NoCodeServer;
let server: TestServer;
let owners: Client;

withNoCodeServer(
    (value) => {
        started = value;
        server = value.server;
        owners = value.owners;
    },
    { planStepMs: 20 },
);

describe("no-code module bodies", () => {
    test.each([["registry-module"], ["registry-modules"]])(
        "create with the module relationship typed %s: 200, answered as registry-modules",
        async (type) => {
            const registryModuleId = started.registryModule();
            const response = await owners.post(noCodePaths.modules("acme"), noCodeModuleDocument({ registryModuleId, registryModuleType: type }));
            expectStatus(response, 200);
            expect(response.body.data.relationships["registry-module"].data).toEqual({ id: registryModuleId, type: "registry-modules" });
            const { data } = await readNoCodeModule(server, response.body.data.id);
            expect(data.relationships["registry-module"].data).toEqual({ id: registryModuleId, type: "registry-modules" });
        },
    );

    test.each([["registry-module"], ["registry-modules"]])("update to another module typed %s: 200, answered as registry-modules", async (type) => {
        const module = await createNoCodeModule(server, { registryModuleId: started.registryModule() });
        const target = started.registryModule();
        const response = await owners.patch(noCodePaths.module(module.id), noCodeModuleDocument({ registryModuleId: target, registryModuleType: type }));
        expectStatus(response, 200);
        expect(response.body.data.relationships["registry-module"].data).toEqual({ id: target, type: "registry-modules" });
    });

    test("a create as go-tfe sends it (raw bytes): 200", async () => {
        const registryModuleId = started.registryModule();
        const body =
            `{"data":{"type":"no-code-modules","attributes":{"enabled":true,"version-pin":"1.1.0"},` +
            `"relationships":{"registry-module":{"data":{"type":"registry-modules","id":"${registryModuleId}"}},` +
            `"variable-options":{"data":[{"type":"variable-options","attributes":{"variable-name":"region","variable-type":"string","options":["eu-west-1","us-east-1"]}}]}}}}`;
        const response = await owners.raw("POST", noCodePaths.modules("acme"), body);
        expectStatus(response, 200);
        expect(response.body.data.attributes).toEqual({ enabled: true, "version-pin": "1.1.0" });
        const { sets } = await readNoCodeModule(server, response.body.data.id);
        expect(setContents(sets)).toEqual([{ name: "region", type: "string", options: ["eu-west-1", "us-east-1"] }]);
    });

    test("include=variable_options and include=variable-options answer the same sets", async () => {
        const module = await createNoCodeModule(server, {
            registryModuleId: started.registryModule(),
            variableOptions: [{ variableName: "region", variableType: "string", options: ["a"] }],
        });
        const underscore = await owners.get(`${noCodePaths.module(module.id)}?include=variable_options`);
        const dash = await owners.get(`${noCodePaths.module(module.id)}?include=variable-options`);
        expectStatus(underscore, 200);
        expectStatus(dash, 200);
        expect(underscore.body.included).toHaveLength(1);
        expect(dash.body).toEqual(underscore.body);
    });

    test("options given as numbers and booleans are kept as their text and answered as strings", async () => {
        const module = await createNoCodeModule(server, {
            registryModuleId: started.registryModule(),
            enabled: true,
            variableOptions: [
                { variableName: "size", variableType: "number", options: [1, 2.5, 10] },
                { variableName: "region", variableType: "string", options: [true, false, "eu-west-1"] },
            ],
        });
        const { sets } = await readNoCodeModule(server, module.id);
        expect(setContents(sets)).toEqual([
            { name: "size", type: "number", options: ["1", "2.5", "10"] },
            { name: "region", type: "string", options: ["true", "false", "eu-west-1"] },
        ]);
        for (const set of sets) for (const option of set.attributes.options) expect(typeof option).toBe("string");
        // A var value is checked against the text: "2.5" is allowed, "2.50" is not.
        const create = (value: string) =>
            owners.post(
                noCodePaths.workspaces(module.id),
                noCodeWorkspaceDocument({
                    name: uniqueWorkspaceName("numeric"),
                    projectId: started.ids.Apps,
                    vars: [
                        { key: "region", value: "true", category: "infra" },
                        { key: "size", value, category: "infra" },
                    ],
                }),
            );
        expectStatus(await create("2.5"), 200);
        expectStatus(await create("2.50"), 422);
    });

    test("variable-option items with and without id, one with options left out (empty): the set reads back with no options", async () => {
        const module = await createNoCodeModule(server, {
            registryModuleId: started.registryModule(),
            variableOptions: [{ variableName: "region", variableType: "string", options: ["a", "b"] }],
        });
        const regionSet = module.relationships["variable-options"].data[0].id;
        const updated = await updateNoCodeModule(server, module.id, {
            variableOptions: [
                { id: regionSet, variableName: "region", variableType: "string", options: ["c"] },
                { variableName: "size", variableType: "number" },
            ],
        });
        expect(updated.relationships["variable-options"].data[0].id).toBe(regionSet);
        const { sets } = await readNoCodeModule(server, module.id);
        expect(sets[1].attributes.options ?? []).toEqual([]);
        expect(setContents(sets)).toEqual([
            { name: "region", type: "string", options: ["c"] },
            { name: "size", type: "number", options: [] },
        ]);
    });
});

describe("workspace create bodies", () => {
    const VARIANTS: [string, string, string][] = [];
    for (const type of ["workspaces", "no-code-module-workspace"]) {
        for (const autoApply of ["auto_apply", "auto-apply"]) {
            for (const projectType of ["project", "projects"]) VARIANTS.push([type, autoApply, projectType]);
        }
    }

    test.each(VARIANTS)("data.type %s, %s true, project typed %s: 200, auto-apply true, the project read back", async (type, autoApply, projectType) => {
        const module = await createNoCodeModule(server, { enabled: true, registryModuleId: started.registryModule() });
        const response = await owners.post(
            noCodePaths.workspaces(module.id),
            noCodeWorkspaceDocument({
                name: uniqueWorkspaceName("variant"),
                projectId: started.ids.Staging,
                type,
                projectType,
                attributes: { [autoApply]: true },
                vars: BUCKET_VARS,
            }),
        );
        expectStatus(response, 200);
        expect(response.body.data.type).toBe("workspaces");
        const show = await owners.get(`/workspaces/${response.body.data.id}`);
        expect(show.body.data.attributes["auto-apply"]).toBe(true);
        expect(show.body.data.relationships.project.data).toEqual({ id: started.ids.Staging, type: "projects" });
    });

    test("a create as go-tfe sends it (raw bytes): every var attribute present, description and version-id empty", async () => {
        const module = await createNoCodeModule(server, { enabled: true, registryModuleId: started.registryModule() });
        const name = uniqueWorkspaceName("gotfe");
        const variable = (key: string, value: string, category: string) =>
            `{"type":"vars","attributes":{"key":"${key}","value":"${value}","description":"","category":"${category}","hcl":false,"sensitive":false,"version-id":""}}`;
        const body =
            `{"data":{"type":"no-code-module-workspace","attributes":{"name":"${name}","description":"from go-tfe","auto-apply":false,` +
            `"execution-mode":"remote","source-name":"go-tfe","source-url":"https://example.com/go"},` +
            `"relationships":{"project":{"data":{"type":"projects","id":"${started.ids.Apps}"}},` +
            `"vars":{"data":[${variable("region", "eu-west-1", "infra")},${variable("GO_ENV", "1", "env")}]}}}}`;
        const response = await owners.raw("POST", noCodePaths.workspaces(module.id), body);
        expectStatus(response, 200);
        expect(response.body.data.attributes).toEqual(
            expect.objectContaining({ name, description: "from go-tfe", "source-name": "go-tfe", "source-url": "https://example.com/go" }),
        );
        expect(varContents(await workspaceVars(server, response.body.data.id))).toEqual([
            { key: "GO_ENV", category: "env", value: "1", description: null, hcl: false, sensitive: false },
            { key: "region", category: "infra", value: "eu-west-1", description: null, hcl: false, sensitive: false },
        ]);
    });

    test("a create as pytfe sends it: workspaces, auto_apply, project typed project, vars with every attribute", async () => {
        const module = await createNoCodeModule(server, { enabled: true, registryModuleId: started.registryModule() });
        const response = await owners.post(noCodePaths.workspaces(module.id), {
            data: {
                type: "workspaces",
                attributes: { name: uniqueWorkspaceName("pytfe"), auto_apply: true, "execution-mode": "remote" },
                relationships: {
                    project: { data: { type: "project", id: started.ids.Apps } },
                    vars: {
                        data: [
                            {
                                type: "vars",
                                attributes: { key: "region", value: "eu-west-1", description: "", category: "infra", hcl: false, sensitive: false, "version-id": "" },
                            },
                        ],
                    },
                },
            },
        });
        expectStatus(response, 200);
        expect(response.body.data.attributes["auto-apply"]).toBe(true);
    });

    test("vars items with only some attributes: value defaults to the empty string, hcl and sensitive to false", async () => {
        const module = await createNoCodeModule(server, { enabled: true, registryModuleId: started.registryModule() });
        const response = await owners.post(
            noCodePaths.workspaces(module.id),
            noCodeWorkspaceDocument({
                name: uniqueWorkspaceName("some"),
                projectId: started.ids.Apps,
                vars: [
                    { key: "region", value: "eu-west-1", category: "infra" },
                    { key: "ONLY_KEY", category: "env" },
                ],
            }),
        );
        expectStatus(response, 200);
        const only = (await workspaceVars(server, response.body.data.id)).find((variable) => variable.attributes.key === "ONLY_KEY");
        expect(only.attributes).toEqual(expect.objectContaining({ value: "", hcl: false, sensitive: false, category: "env" }));
    });
});

describe("upgrade bodies", () => {
    test.each([["workspaces"], ["no-code-module-workspace"]])("data.type %s with vars: 200, the vars applied after the confirm", async (type) => {
        const { moduleId, workspace } = await moduleWithWorkspace(started);
        const response = await owners.post(noCodePaths.upgrade(moduleId, workspace.id), upgradeDocument([{ key: "size", value: "6", category: "infra" }], type));
        expectStatus(response, 200);
        const runId = response.body.data.id;
        expect(await pollRun(server, { moduleId, workspaceId: workspace.id, runId })).toContain("planned");
        expectStatus(await owners.post(noCodePaths.run(moduleId, workspace.id, runId)), 200);
        const size = (await workspaceVars(server, workspace.id)).find((variable) => variable.attributes.key === "size");
        expect(size.attributes.value).toBe("6");
    });

    test("vars items with every attribute present (description and version-id empty), as go-tfe and pytfe send them", async () => {
        const { moduleId, workspace } = await moduleWithWorkspace(started);
        const response = await owners.post(noCodePaths.upgrade(moduleId, workspace.id), {
            data: {
                type: "workspaces",
                relationships: {
                    vars: {
                        data: [
                            { type: "vars", attributes: { key: "size", value: "8", description: "", category: "infra", hcl: false, sensitive: false, "version-id": "" } },
                        ],
                    },
                },
            },
        });
        expectStatus(response, 200);
        expect(await pollRun(server, { moduleId, workspaceId: workspace.id, runId: response.body.data.id })).toContain("planned");
    });

    test.each([["workspaces"], ["no-code-module-workspace"]])(
        "a body typed %s without relationships (a new module version only): 200, the version applied after the confirm",
        async (type) => {
            const { moduleId, workspace } = await moduleWithWorkspace(started, { module: { versionPin: "1.0.0" } });
            await updateNoCodeModule(server, moduleId, { versionPin: "1.1.0" });
            const response = await owners.raw("POST", noCodePaths.upgrade(moduleId, workspace.id), `{"data":{"type":"${type}"}}`);
            expectStatus(response, 200);
            const runId = response.body.data.id;
            expect(await pollRun(server, { moduleId, workspaceId: workspace.id, runId })).toContain("planned");
            expectStatus(await owners.post(noCodePaths.run(moduleId, workspace.id, runId)), 200);
            expect(await upgradeAvailable(server, workspace.id)).toBe(false);
        },
    );
});

describe("confirm bodies", () => {
    test.each([
        ["no body (and no content type)", undefined],
        ["an empty body with the JSON:API content type", ""],
        ["null with the JSON:API content type", "null"],
    ])("%s: 200 with the confirmation message, and the run applied", async (_label, rawBody) => {
        const { moduleId, workspace } = await moduleWithWorkspace(started);
        const run = await initiateUpgrade(server, moduleId, workspace.id, [{ key: "size", value: "7", category: "infra" }]);
        expect(await pollRun(server, { moduleId, workspaceId: workspace.id, runId: run.id })).toContain("planned");
        const response = await http(server, "POST", noCodePaths.run(moduleId, workspace.id, run.id), {
            token: TOKENS.owners,
            rawBody,
            headers: rawBody === undefined ? {} : { "content-type": JSON_API },
        });
        expectStatus(response, 200);
        expect(response.body).toEqual({ message: "Workspace update completed" });
        expect(await runStatus(server, moduleId, workspace.id, run.id)).toBe("applied");
        const size = (await workspaceVars(server, workspace.id)).find((variable) => variable.attributes.key === "size");
        expect(size.attributes.value).toBe("7");
    });
});

describe("what go-tfe's encoder and pytfe's types send", () => {
    test("a set named by id alone (go-tfe writes a known set as { id, type }) is kept as it is; a set left out is removed", async () => {
        const module = await createNoCodeModule(server, {
            registryModuleId: started.registryModule("bucket"),
            variableOptions: [
                { variableName: "region", variableType: "string", options: ["eu-west-1", "us-east-1"] },
                { variableName: "size", variableType: "number", options: ["1", "2"] },
            ],
        });
        const { sets: before } = await readNoCodeModule(server, module.id);
        const region = before.find((set) => set.attributes["variable-name"] === "region");
        const response = await owners.patch(noCodePaths.module(module.id), {
            data: { type: "no-code-modules", relationships: { "variable-options": { data: [{ id: region.id, type: "variable-options" }] } } },
        });
        expectStatus(response, 200);
        const { sets: after } = await readNoCodeModule(server, module.id);
        expect(after.map((set) => set.id)).toEqual([region.id]);
        expect(setContents(after)).toEqual([{ name: "region", type: "string", options: ["eu-west-1", "us-east-1"] }]);
    });

    test("a set with neither id nor attributes: 422 at its attributes, nothing written", async () => {
        const module = await createNoCodeModule(server, {
            registryModuleId: started.registryModule("bucket"),
            variableOptions: [{ variableName: "region", variableType: "string", options: ["eu-west-1"] }],
        });
        const known = { modules: [module.id] };
        const before = await noCodeSnapshot(server, known);
        const response = await owners.patch(noCodePaths.module(module.id), {
            data: { type: "no-code-modules", relationships: { "variable-options": { data: [{ type: "variable-options" }] } } },
        });
        expectValidation(response, "/data/relationships/variable-options/data/0/attributes");
        await expectNoCodeUnchanged(server, before, known);
    });

    test("a set id on a create (the module has no sets yet) is refused: 422 at its id, no module made", async () => {
        const other = await createNoCodeModule(server, {
            registryModuleId: started.registryModule("bucket"),
            variableOptions: [{ variableName: "region", variableType: "string", options: ["eu-west-1"] }],
        });
        const { sets } = await readNoCodeModule(server, other.id);
        const registryModuleId = started.registryModule("bucket");
        const response = await owners.post(
            noCodePaths.modules("acme"),
            noCodeModuleDocument({
                registryModuleId,
                variableOptions: [{ id: sets[0].id, variableName: "region", variableType: "string", options: ["us-east-1"] }],
            }),
        );
        expectValidation(response, "/data/relationships/variable-options/data/0/id");
        const registry = await owners.get(noCodePaths.registryModule(registryModuleId));
        expect(registry.body.data.relationships["no-code-modules"].data).toEqual([]);
        // The other module's set is untouched.
        expect(setContents((await readNoCodeModule(server, other.id)).sets)).toEqual([{ name: "region", type: "string", options: ["eu-west-1"] }]);
    });

    test("an unknown include: 400 whose detail says 'include parameter' (go-tfe's ErrInvalidIncludeValue looks for it)", async () => {
        const module = await createNoCodeModule(server, { registryModuleId: started.registryModule("bucket") });
        const response = await owners.get(`${noCodePaths.module(module.id)}?include=organization`);
        expectStatus(response, 400);
        expect(response.body.errors[0].source).toEqual({ parameter: "include" });
        expect(response.body.errors[0].detail).toContain("include parameter");
    });

    test("category 'terraform' (pytfe's and go-tfe's name of infra) on a create and an upgrade is stored as infra", async () => {
        const { moduleId, workspace } = await moduleWithWorkspace(started, {
            workspace: { vars: [{ key: "region", value: "eu-west-1", category: "terraform" }] },
        });
        expect(varContents(await workspaceVars(server, workspace.id))).toEqual([
            { key: "region", category: "infra", value: "eu-west-1", description: null, hcl: false, sensitive: false },
        ]);
        const run = await initiateUpgrade(server, moduleId, workspace.id, [{ key: "size", value: "4", category: "terraform" }]);
        expect(await pollRun(server, { moduleId, workspaceId: workspace.id, runId: run.id })).toContain("planned");
        expectStatus(await owners.post(noCodePaths.run(moduleId, workspace.id, run.id)), 200);
        const size = (await workspaceVars(server, workspace.id)).find((variable) => variable.attributes.key === "size");
        expect(size.attributes.category).toBe("infra");
        expect(size.attributes.value).toBe("4");
    });

    test("an upgrade var that gives only a new value (as pytfe sends it) keeps its description, hcl and sensitivity", async () => {
        const { moduleId, workspace } = await moduleWithWorkspace(started, {
            workspace: {
                vars: [
                    { key: "region", value: "eu-west-1", category: "infra" },
                    { key: "size", value: "1", category: "infra", description: "Buckets", hcl: true },
                    { key: "TOKEN", value: "first-secret", category: "env", sensitive: true, description: "API token" },
                ],
            },
        });
        const run = await initiateUpgrade(server, moduleId, workspace.id, [
            { key: "size", value: "2", category: "infra" },
            { key: "TOKEN", value: "second-secret", category: "env" },
        ]);
        expect(await pollRun(server, { moduleId, workspaceId: workspace.id, runId: run.id })).toContain("planned");
        expectStatus(await owners.post(noCodePaths.run(moduleId, workspace.id, run.id)), 200);
        const vars = varContents(await workspaceVars(server, workspace.id));
        expect(vars).toContainEqual({ key: "size", category: "infra", value: "2", description: "Buckets", hcl: true, sensitive: false });
        expect(vars).toContainEqual({ key: "TOKEN", category: "env", value: null, description: "API token", hcl: false, sensitive: true });
    });

    test("making a sensitive var plain without a new value is refused (its value would become readable): 422, no run", async () => {
        const { moduleId, workspace } = await moduleWithWorkspace(started, {
            workspace: {
                vars: [
                    { key: "region", value: "eu-west-1", category: "infra" },
                    { key: "TOKEN", value: "kept-secret", category: "env", sensitive: true },
                ],
            },
        });
        const known = { modules: [moduleId], workspaces: [workspace.id] };
        const before = await noCodeSnapshot(server, known);
        const refused = await owners.post(
            noCodePaths.upgrade(moduleId, workspace.id),
            upgradeDocument([{ key: "TOKEN", category: "env", sensitive: false }]),
        );
        const [error] = expectValidation(refused, "/data/relationships/vars/data/0/attributes/value");
        expect(JSON.stringify(refused.body)).not.toContain("kept-secret");
        expect(error.detail).toContain("TOKEN");
        await expectNoCodeUnchanged(server, before, known);
        // With a new value it is allowed, and only the new value becomes readable.
        const run = await initiateUpgrade(server, moduleId, workspace.id, [{ key: "TOKEN", value: "now-public", category: "env", sensitive: false }]);
        expect(await pollRun(server, { moduleId, workspaceId: workspace.id, runId: run.id })).toContain("planned");
        expectStatus(await owners.post(noCodePaths.run(moduleId, workspace.id, run.id)), 200);
        const token = (await workspaceVars(server, workspace.id)).find((variable) => variable.attributes.key === "TOKEN");
        expect(token.attributes).toMatchObject({ value: "now-public", sensitive: false });
    });
});
