/**
 * Contract of `POST /no-code-modules/:id/workspaces` (the API's No-code provisioning endpoints, and the local
 * service's decisions on a workspace from a no-code module): the workspace document with every attribute and
 * relationship the API lists and honest values (`source` `tfe-module`, `source-module-id`, the
 * `no-code-module-version` relationship, the caller's own permissions), the vars it creates, the project's duration inherited, every
 * rule with nothing written on refusal; and `GET /organizations/:org/workspaces/:name`.
 */
import { TOKENS, WORKSPACES } from "../support/seed";
import {
    AGENT_POOL,
    BUCKET_VARS,
    GLOBEX_AGENT_POOL,
    clientFor,
    createNoCodeModule,
    createNoCodeWorkspace,
    createProject,
    expectErrors,
    expectNoCodeUnchanged,
    expectNoWorkspaceNamed,
    expectOrganizationTokenRefused,
    expectStatus,
    expectValidation,
    expectValidationUnder,
    noCodePaths,
    noCodeSnapshot,
    noCodeWorkspaceDocument,
    projectId,
    uniqueWorkspaceName,
    updateNoCodeModule,
    varContents,
    workspaceVars,
    withNoCodeServer,
    type Client,
    type NoCodeModuleSpec,
    type NoCodeServer,
    type NoCodeWorkspaceSpec,
} from "./helpers";

let started: NoCodeServer;
let owners: Client;

withNoCodeServer((value) => {
    started = value;
    owners = value.owners;
});

const VARS = "/data/relationships/vars";

/** Every attribute the service's API lists for the workspace returned by no-code workspace creation. */
const WORKSPACE_ATTRIBUTES = [
    "allow-destroy-plan", "auto-apply", "auto-destroy-at", "auto-destroy-status", "created-at", "environment", "locked",
    "name", "queue-all-runs", "speculative-enabled", "structured-run-output-enabled", "infra-version", "working-directory",
    "global-remote-state", "updated-at", "resource-count", "apply-duration-average", "plan-duration-average",
    "policy-check-failures", "run-failures", "workspace-kpis-runs-count", "latest-change-at", "operations",
    "execution-mode", "vcs-repo", "vcs-repo-identifier", "description", "file-triggers-enabled", "trigger-prefixes",
    "trigger-patterns", "assessments-enabled", "last-assessment-result-at", "source", "source-name", "source-url",
    "source-module-id", "no-code-upgrade-available", "tag-names", "setting-overwrites", "actions", "permissions",
] as const;

/** Every permission the service's API lists. */
const PERMISSIONS = [
    "can-update", "can-destroy", "can-queue-run", "can-read-variable", "can-update-variable", "can-read-state-versions",
    "can-read-state-outputs", "can-create-state-versions", "can-queue-apply", "can-lock", "can-unlock",
    "can-force-unlock", "can-read-settings", "can-manage-tags", "can-manage-run-tasks", "can-force-delete",
    "can-manage-assessments", "can-manage-ephemeral-workspaces", "can-read-assessment-results", "can-queue-destroy",
] as const;

/** Every relationship the service's API lists. */
const RELATIONSHIPS = [
    "organization", "current-run", "latest-run", "outputs", "remote-state-consumers", "current-state-version",
    "current-configuration-version", "agent-pool", "readme", "project", "current-assessment-result",
    "no-code-module-version", "vars",
] as const;

/** An enabled module on a fresh registry module (pinned to 1.1.0 unless told). */
async function enabledModule(spec: Omit<NoCodeModuleSpec, "registryModuleId"> = {}): Promise<string> {
    const module = await createNoCodeModule(started.server, { enabled: true, registryModuleId: started.registryModule(), ...spec });
    return module.id;
}

function create(moduleId: string, spec: Partial<NoCodeWorkspaceSpec>, client: Client = owners) {
    return client.post(
        noCodePaths.workspaces(moduleId),
        noCodeWorkspaceDocument({ name: uniqueWorkspaceName(), projectId: started.ids.Apps, vars: BUCKET_VARS, ...spec }),
    );
}

/**
 * Sends a create that must be refused and proves nothing was written: the no-code snapshot is unchanged
 * (project workspace counts, every var, the module) and no workspace of that name exists.
 */
async function expectRefused(
    moduleId: string,
    spec: Partial<NoCodeWorkspaceSpec>,
    check: (response: Awaited<ReturnType<typeof create>>) => void,
    client: Client = owners,
): Promise<void> {
    const name = spec.name ?? uniqueWorkspaceName();
    const known = { modules: [moduleId] };
    const before = await noCodeSnapshot(started.server, known);
    check(await create(moduleId, { ...spec, name }, client));
    await expectNoCodeUnchanged(started.server, before, known);
    // Only a valid name that was free can be looked up to prove it is still free.
    if (typeof name === "string" && /^[A-Za-z0-9_-]{1,90}$/.test(name) && name.toLowerCase() !== "legacy-app") {
        await expectNoWorkspaceNamed(started.server, name);
    }
}

function sortedIds(items: readonly { id: string }[]): string[] {
    return items.map((item) => item.id).sort();
}

describe("the workspace document", () => {
    test("has every attribute and relationship the API lists, with honest values; GET /workspaces/:id answers the same", async () => {
        const registryModuleId = started.registryModule();
        const module = await createNoCodeModule(started.server, { enabled: true, registryModuleId });
        const name = uniqueWorkspaceName("full");
        const response = await create(module.id, {
            name,
            attributes: {
                description: "made from a module",
                "source-name": "portal",
                "source-url": "https://portal.example.com/requests/7",
            },
            vars: [
                { key: "region", value: "eu-west-1", category: "infra" },
                { key: "AWS_PROFILE", value: "dev", category: "env" },
            ],
        });
        expectStatus(response, 200);
        const data = response.body.data;
        expect(data.type).toBe("workspaces");
        expect(data.id).toMatch(/^ws-/);
        for (const attribute of WORKSPACE_ATTRIBUTES) expect(data.attributes).toHaveProperty([attribute]);
        for (const permission of PERMISSIONS) expect(typeof data.attributes.permissions[permission]).toBe("boolean");
        for (const relationship of RELATIONSHIPS) expect(data.relationships).toHaveProperty([relationship]);
        expect(data.attributes).toEqual(
            expect.objectContaining({
                name,
                description: "made from a module",
                "auto-apply": false,
                "execution-mode": "remote",
                source: "tfe-module",
                "source-name": "portal",
                "source-url": "https://portal.example.com/requests/7",
                "source-module-id": registryModuleId,
                "no-code-upgrade-available": false,
                "trigger-prefixes": [],
                "trigger-patterns": [],
            }),
        );
        expect(Array.isArray(data.attributes["tag-names"])).toBe(true);
        expect(typeof data.attributes["setting-overwrites"]["execution-mode"]).toBe("boolean");
        expect(typeof data.attributes["setting-overwrites"]["agent-pool"]).toBe("boolean");
        expect(typeof data.attributes.actions["is-destroyable"]).toBe("boolean");
        expect(data.relationships.organization.data).toEqual({ id: "acme", type: "organizations" });
        expect(data.relationships.project.data).toEqual({ id: started.ids.Apps, type: "projects" });
        expect(data.relationships["no-code-module-version"].data).toEqual({ id: expect.stringMatching(/^nocodever-/), type: "no-code-module-versions" });
        expect(data.relationships["agent-pool"].data).toBeNull();
        expect(data.relationships["current-configuration-version"]).toHaveProperty("links.related");
        expect(data.links.self).toBe(`/api/v2/workspaces/${data.id}`);
        expect(typeof data.links["self-html"]).toBe("string");

        const vars = await workspaceVars(started.server, data.id);
        expect(sortedIds(data.relationships.vars.data)).toEqual(sortedIds(vars));
        for (const item of data.relationships.vars.data) expect(item.type).toBe("vars");

        const show = await owners.get(`/workspaces/${data.id}`);
        expectStatus(show, 200);
        expect(show.body.data).toEqual(data);
    });

    test("description defaults to the empty string, auto-apply to false, execution mode to remote", async () => {
        const moduleId = await enabledModule();
        const response = await create(moduleId, {});
        expectStatus(response, 200);
        expect(response.body.data.attributes.description).toBe("");
        expect(response.body.data.attributes["auto-apply"]).toBe(false);
        expect(response.body.data.attributes["execution-mode"]).toBe("remote");
    });

    test("two workspaces of one module are on the same no-code version; the version moves only for workspaces made after a pin change", async () => {
        const moduleId = await enabledModule({ versionPin: "1.0.0" });
        const first = await createNoCodeWorkspace(started.server, moduleId, { projectId: started.ids.Apps });
        const second = await createNoCodeWorkspace(started.server, moduleId, { projectId: started.ids.Staging });
        expect(second.relationships["no-code-module-version"].data.id).toBe(first.relationships["no-code-module-version"].data.id);
        expect(second.relationships.project.data.id).toBe(started.ids.Staging);
        await updateNoCodeModule(started.server, moduleId, { versionPin: "1.1.0" });
        const third = await createNoCodeWorkspace(started.server, moduleId, { projectId: started.ids.Apps });
        expect(third.relationships["no-code-module-version"].data.id).not.toBe(first.relationships["no-code-module-version"].data.id);
    });

    test("permissions are the caller's own: a maintain team's create answer matches what it reads, and differs from read, write and owners", async () => {
        const moduleId = await enabledModule();
        const response = await create(moduleId, {}, clientFor(started.server, TOKENS.appsMaintain));
        expectStatus(response, 200);
        const id = response.body.data.id;
        const maintain = response.body.data.attributes.permissions;
        const read = async (token: string) => {
            const show = await clientFor(started.server, token).get(`/workspaces/${id}`);
            expectStatus(show, 200);
            return show.body.data.attributes.permissions;
        };
        expect(await read(TOKENS.appsMaintain)).toEqual(maintain);
        expect(maintain).toEqual(expect.objectContaining({ "can-update": true, "can-update-variable": true, "can-read-variable": true, "can-queue-run": true }));

        const owner = await read(TOKENS.owners);
        for (const permission of PERMISSIONS) expect(owner[permission]).toBe(true);

        const reader = await read(TOKENS.appsRead);
        expect(reader).toEqual(
            expect.objectContaining({
                "can-read-variable": true,
                "can-read-settings": true,
                "can-update": false,
                "can-destroy": false,
                "can-update-variable": false,
                "can-queue-run": false,
                "can-queue-apply": false,
                "can-force-delete": false,
            }),
        );
        const writer = await read(TOKENS.appsWrite);
        expect(writer).toEqual(expect.objectContaining({ "can-update-variable": true, "can-update": false, "can-destroy": false }));
    });

    test("the project's auto-destroy duration is inherited", async () => {
        const projectId = await createProject(started.server, { name: `Inherits ${process.pid}`, "auto-destroy-activity-duration": "14d" });
        const moduleId = await enabledModule();
        const response = await create(moduleId, { projectId });
        expectStatus(response, 200);
        expect(response.body.data.attributes["auto-destroy-activity-duration"]).toBe("14d");
        const show = await owners.get(`/workspaces/${response.body.data.id}`);
        expect(show.body.data.attributes["auto-destroy-activity-duration"]).toBe("14d");
    });

    test("agent execution with an agent pool of the organization", async () => {
        const moduleId = await enabledModule();
        const response = await create(moduleId, { attributes: { "execution-mode": "agent", "agent-pool-id": AGENT_POOL } });
        expectStatus(response, 200);
        expect(response.body.data.attributes["execution-mode"]).toBe("agent");
        expect(response.body.data.relationships["agent-pool"].data).toEqual({ id: AGENT_POOL, type: "agent-pools" });
    });
});

describe("vars", () => {
    test("are created and readable through GET /vars; a sensitive value reads back as null and appears nowhere", async () => {
        const moduleId = await enabledModule();
        const response = await create(moduleId, {
            vars: [
                { key: "region", value: "eu-west-1", category: "infra", description: "where it runs" },
                { key: "size", value: "3", category: "infra", hcl: true },
                { key: "tags", value: "{ team = \"web\" }", category: "infra", hcl: true },
                { key: "AWS_SECRET", value: "never-shown-value", category: "env", sensitive: true },
                { key: "EMPTY", category: "env" },
            ],
        });
        expectStatus(response, 200);
        expect(response.text).not.toContain("never-shown-value");
        const vars = await workspaceVars(started.server, response.body.data.id);
        expect(varContents(vars)).toEqual([
            { key: "AWS_SECRET", category: "env", value: null, description: null, hcl: false, sensitive: true },
            { key: "EMPTY", category: "env", value: "", description: null, hcl: false, sensitive: false },
            { key: "region", category: "infra", value: "eu-west-1", description: "where it runs", hcl: false, sensitive: false },
            { key: "size", category: "infra", value: "3", description: null, hcl: true, sensitive: false },
            { key: "tags", category: "infra", value: "{ team = \"web\" }", description: null, hcl: true, sensitive: false },
        ]);
        const list = await owners.get("/vars");
        expect(list.text).not.toContain("never-shown-value");
        for (const variable of vars) expect(variable.relationships.configurable.data.id).toBe(response.body.data.id);
    });

    test("a value within the variable's options is accepted", async () => {
        const moduleId = await enabledModule({
            variableOptions: [{ variableName: "region", variableType: "string", options: ["eu-west-1", "us-east-1"] }],
        });
        expectStatus(await create(moduleId, { vars: [{ key: "region", value: "us-east-1", category: "infra" }] }), 200);
    });

    test("an env var may have any key: only infra vars are module variables", async () => {
        const moduleId = await enabledModule();
        const response = await create(moduleId, { vars: [...BUCKET_VARS, { key: "colour", value: "red", category: "env" }] });
        expectStatus(response, 200);
    });
});

describe("rules: refused, nothing written", () => {
    describe("name", () => {
        test("accepts 1 and 90 characters", async () => {
            const moduleId = await enabledModule();
            for (const name of ["n", "n".repeat(90)]) {
                const response = await create(moduleId, { name });
                expectStatus(response, 200);
                expect(response.body.data.attributes.name).toBe(name);
            }
        });

        test.each([
            ["91 characters", "m".repeat(91)],
            ["empty", ""],
            ["with a space", "two words"],
            ["with a slash", "a/b"],
            ["with a dot", "a.b"],
            ["a number", 42],
        ])("%s: 422 at /data/attributes/name", async (_label, name) => {
            const moduleId = await enabledModule();
            await expectRefused(moduleId, { name: name as string }, (response) => expectValidation(response, "/data/attributes/name"));
        });

        test("taken by a workspace of the organization in another case: 422 'Name has already been taken'", async () => {
            const moduleId = await enabledModule();
            await expectRefused(moduleId, { name: "LEGACY-APP" }, (response) => {
                const errors = expectValidation(response, "/data/attributes/name");
                expect(errors.find((error: any) => error.source.pointer === "/data/attributes/name").detail).toMatch(/already been taken/);
            });
        });

        test("taken by an earlier no-code workspace: 422 at /data/attributes/name", async () => {
            const moduleId = await enabledModule();
            const name = uniqueWorkspaceName("taken");
            expectStatus(await create(moduleId, { name }), 200);
            const before = await noCodeSnapshot(started.server, { modules: [moduleId] });
            expectValidation(await create(moduleId, { name: name.toUpperCase() }), "/data/attributes/name");
            await expectNoCodeUnchanged(started.server, before, { modules: [moduleId] });
        });

        test("the name of a workspace of another organization is free", async () => {
            const moduleId = await enabledModule();
            expectStatus(await create(moduleId, { name: "globex-app" }), 200);
        });
    });

    test.each([
        ["a description of 257 characters", { description: "d".repeat(257) }, "/data/attributes/description"],
        ["a source-url that is not a URL", { "source-url": "not a url" }, "/data/attributes/source-url"],
        ["auto-apply as a string", { "auto-apply": "yes" }, "/data/attributes/auto-apply"],
        ["auto_apply as a string", { auto_apply: "yes" }, "/data/attributes/auto_apply"],
    ])("%s: 422 at its pointer", async (_label, attributes, pointer) => {
        const moduleId = await enabledModule();
        await expectRefused(moduleId, { attributes }, (response) => expectValidation(response, pointer));
    });

    describe("project", () => {
        test.each([
            ["that does not exist", () => "prj-doesnotexist0000"],
            ["of another organization", () => projectId(started.server, "Globex Apps", "globex")],
        ])("%s: 404", async (_label, project) => {
            const moduleId = await enabledModule();
            const id = await project();
            await expectRefused(moduleId, { projectId: id }, (response) => expectErrors(response, 404));
        });

        test("where the caller may not create workspaces: 404 (maintain team in Default Project; admin team, read there)", async () => {
            const moduleId = await enabledModule();
            for (const token of [TOKENS.appsMaintain, TOKENS.appsAdmin]) {
                await expectRefused(
                    moduleId,
                    { projectId: started.ids["Default Project"] },
                    (response) => expectErrors(response, 404),
                    clientFor(started.server, token),
                );
            }
        });

        test("a project relationship of another type: 422", async () => {
            const moduleId = await enabledModule();
            await expectRefused(moduleId, { projectType: "workspaces" }, (response) =>
                expectValidationUnder(response, "/data/relationships/project"),
            );
        });
    });

    describe("execution mode and agent pool", () => {
        test.each([
            ["agent without an agent pool", { "execution-mode": "agent" }],
            ["remote with an agent pool", { "execution-mode": "remote", "agent-pool-id": AGENT_POOL }],
            ["an agent pool of another organization", { "execution-mode": "agent", "agent-pool-id": GLOBEX_AGENT_POOL }],
            ["an agent pool that does not exist", { "execution-mode": "agent", "agent-pool-id": "apool-doesnotexist00" }],
        ])("%s: 422 at /data/attributes/agent-pool-id", async (_label, attributes) => {
            const moduleId = await enabledModule();
            await expectRefused(moduleId, { attributes }, (response) => expectValidation(response, "/data/attributes/agent-pool-id"));
        });

        test("an agent pool without an execution mode (remote by default): 422 at /data/attributes/agent-pool-id", async () => {
            const moduleId = await enabledModule();
            await expectRefused(moduleId, { attributes: { "agent-pool-id": AGENT_POOL } }, (response) =>
                expectValidation(response, "/data/attributes/agent-pool-id"),
            );
        });

        test("an execution mode that does not exist: 422 at /data/attributes/execution-mode", async () => {
            const moduleId = await enabledModule();
            await expectRefused(moduleId, { attributes: { "execution-mode": "local" } }, (response) =>
                expectValidation(response, "/data/attributes/execution-mode"),
            );
        });
    });

    describe("vars", () => {
        test("an infra var the pinned version does not declare: 422 at its key", async () => {
            const moduleId = await enabledModule();
            await expectRefused(
                moduleId,
                { vars: [...BUCKET_VARS, { key: "colour", value: "red", category: "infra" }] },
                (response) => expectValidation(response, `${VARS}/data/1/attributes/key`),
            );
        });

        test("an infra var of another version than the pinned one (tags at 1.0.0): 422 at its key", async () => {
            const moduleId = await enabledModule({ versionPin: "1.0.0" });
            await expectRefused(
                moduleId,
                { vars: [{ key: "tags", value: "{}", category: "infra", hcl: true }, ...BUCKET_VARS] },
                (response) => expectValidation(response, `${VARS}/data/0/attributes/key`),
            );
        });

        test.each([
            ["no vars at all", undefined],
            ["only other vars", [{ key: "size", value: "2", category: "infra" }]],
            ["the required variable as an env var", [{ key: "region", value: "eu-west-1", category: "env" }]],
        ])("a required variable missing (%s): 422 at /data/relationships/vars naming it", async (_label, vars) => {
            const moduleId = await enabledModule();
            await expectRefused(moduleId, { vars }, (response) => {
                const errors = expectValidation(response, VARS);
                expect(errors.find((error: any) => error.source.pointer === VARS).detail).toContain("region");
            });
        });

        test("a value outside the variable's options: 422 at its value, the detail lists the allowed values", async () => {
            const moduleId = await enabledModule({
                variableOptions: [{ variableName: "region", variableType: "string", options: ["eu-west-1", "us-east-1"] }],
            });
            await expectRefused(moduleId, { vars: [{ key: "region", value: "mars-1", category: "infra" }] }, (response) => {
                const errors = expectValidation(response, `${VARS}/data/0/attributes/value`);
                const detail = errors.find((error: any) => error.source.pointer === `${VARS}/data/0/attributes/value`).detail;
                expect(detail).toContain("eu-west-1");
                expect(detail).toContain("us-east-1");
            });
        });

        test("a sensitive value outside the options: 422, and the value appears nowhere in the answer", async () => {
            const moduleId = await enabledModule({
                variableOptions: [{ variableName: "region", variableType: "string", options: ["eu-west-1"] }],
            });
            await expectRefused(
                moduleId,
                { vars: [{ key: "region", value: "secret-region-value", category: "infra", sensitive: true }] },
                (response) => {
                    expectValidation(response, `${VARS}/data/0/attributes/value`);
                    expect(response.text).not.toContain("secret-region-value");
                },
            );
        });

        test("a key twice in one category: 422 under the second var", async () => {
            const moduleId = await enabledModule();
            await expectRefused(
                moduleId,
                { vars: [...BUCKET_VARS, { key: "region", value: "us-east-1", category: "infra" }] },
                (response) => expectValidationUnder(response, `${VARS}/data/1`),
            );
        });

        test("a category that does not exist: 422 at its category", async () => {
            const moduleId = await enabledModule();
            await expectRefused(
                moduleId,
                { vars: [...BUCKET_VARS, { key: "X", value: "1", category: "shell" }] },
                (response) => expectValidation(response, `${VARS}/data/1/attributes/category`),
            );
        });
    });

    test("a module that is not enabled: 422 saying no-code provisioning is not enabled", async () => {
        const module = await createNoCodeModule(started.server, { registryModuleId: started.registryModule() });
        await expectRefused(module.id, {}, (response) => {
            const errors = expectValidation(response);
            expect(errors.map((error: any) => error.detail).join(" ")).toMatch(/not enabled/i);
        });
    });

    test("a module disabled after a first workspace: 422 for the next one", async () => {
        const moduleId = await enabledModule();
        expectStatus(await create(moduleId, {}), 200);
        await updateNoCodeModule(started.server, moduleId, { enabled: false });
        await expectRefused(moduleId, {}, (response) => expectValidation(response));
    });

    test("the organization token: 404 whose detail names the reason", async () => {
        const moduleId = await enabledModule();
        await expectRefused(moduleId, {}, expectOrganizationTokenRefused, clientFor(started.server, TOKENS.acmeOrganization));
    });

    test.each([
        ["that does not exist", "nocode-doesnotexist00"],
        ["of another organization", "initech"],
    ])("a module %s: 404", async (_label, module) => {
        const moduleId =
            module === "initech"
                ? (await createNoCodeModule(started.server, { enabled: true, registryModuleId: started.registryModule("bucket", "initech") }, "initech")).id
                : module;
        const before = await noCodeSnapshot(started.server);
        const name = uniqueWorkspaceName();
        expectErrors(await create(moduleId, { name }), 404);
        await expectNoCodeUnchanged(started.server, before);
        await expectNoWorkspaceNamed(started.server, name);
    });

    test("a body that is not JSON: 400; a wrong data.type: 422 at /data/type", async () => {
        const moduleId = await enabledModule();
        const before = await noCodeSnapshot(started.server);
        expectErrors(await owners.raw("POST", noCodePaths.workspaces(moduleId), "not json"), 400);
        expectValidation(await create(moduleId, { type: "projects" }), "/data/type");
        await expectNoCodeUnchanged(started.server, before);
    });
});

describe("GET /organizations/:org/workspaces/:name", () => {
    test("answers the workspace document by name to a caller that reads its project, 404 to others", async () => {
        const moduleId = await enabledModule();
        const created = await createNoCodeWorkspace(started.server, moduleId, { projectId: started.ids.Apps });
        const name = created.attributes.name;
        const show = await clientFor(started.server, TOKENS.appsRead).get(noCodePaths.workspaceByName("acme", name));
        expectStatus(show, 200);
        expect(show.body.data.id).toBe(created.id);
        expect(show.body.data.attributes.source).toBe("tfe-module");
        expectErrors(await clientFor(started.server, TOKENS.noAccess).get(noCodePaths.workspaceByName("acme", name)), 404);
        expectErrors(await clientFor(started.server, TOKENS.globexOwners).get(noCodePaths.workspaceByName("acme", name)), 404);
        expectErrors(await owners.get(noCodePaths.workspaceByName("acme", "no-such-workspace")), 404);
    });

    test("a seeded workspace's source is tfe-api", async () => {
        const show = await owners.get(noCodePaths.workspaceByName("acme", "legacy-app"));
        expectStatus(show, 200);
        expect(show.body.data.id).toBe(WORKSPACES.appsLegacy);
        expect(show.body.data.attributes.source).toBe("tfe-api");
        expect(show.body.data.attributes["no-code-upgrade-available"]).toBe(false);
        expect(show.body.data.relationships["no-code-module-version"].data).toBeNull();
    });
});
