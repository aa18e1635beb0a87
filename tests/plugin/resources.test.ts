/**
 * `wos:index:Project`, `ProjectTagBindings`, `Workspace` and `Variable` through the plugin, driven as the
 * engine drives it: each rule checked before anything is written (failures naming the property path and the
 * rule), previews with unknowns that write nothing, create, read (also an import: an id and nothing else),
 * a detailed diff, update and delete, each write read back from the service; exactly the sensitive values
 * secret; a partial create kept by the engine.
 */
import { ProviderCallError, secret, UNKNOWN, type PropertyMap } from "../support/providerHost";
import { TOKENS, WORKSPACES } from "../support/seed";
import { createResource, failure, secretPaths, updateResource } from "./engineSteps";
import { TOKEN, TYPES, usePluginFixture } from "./pluginFixture";

const fx = usePluginFixture();

/** A resource of the service over raw HTTP with the owners' token (not through the code under test); undefined when gone. */
async function shown(path: string): Promise<any> {
    const response = await fx.server.request("GET", path, { token: TOKENS.owners });
    if (response.status === 404) return undefined;
    expect(response.status).toBe(200);
    return response.body.data;
}

async function projectNames(): Promise<string[]> {
    const response = await fx.server.request("GET", "/organizations/acme/projects?page%5Bsize%5D=100", { token: TOKENS.owners });
    return response.body.data.map((project: any) => project.attributes.name);
}

async function tagsOf(projectId: string): Promise<Record<string, string>> {
    const response = await fx.server.request("GET", `/projects/${projectId}/tag-bindings`, { token: TOKENS.owners });
    return Object.fromEntries(response.body.data.map((binding: any) => [binding.attributes.key, binding.attributes.value]));
}

async function variablesOfWebApp(): Promise<any[]> {
    const response = await fx.server.request("GET", "/vars?filter%5Bworkspace%5D%5Bname%5D=web-app&filter%5Borganization%5D%5Bname%5D=acme", {
        token: TOKENS.owners,
    });
    return response.body.data;
}

describe("wos:index:Project", () => {
    const urn = (name: string) => fx.urn(TYPES.project, name);

    test("Check fails every broken rule before anything is written, each failure naming the property path and the rule", async () => {
        const before = await projectNames();
        const result = await fx.plugin.check(urn("broken"), {}, {
            organization: "acme",
            name: "ab",
            autoDestroyActivityDuration: "14 days",
            tags: { "hc:reserved": "x", team: secret("a".repeat(300)) },
        });
        expect(result.failures).toEqual(
            expect.arrayContaining([
                { property: "name", reason: expect.stringMatching(/^name .*3/) },
                { property: "autoDestroyActivityDuration", reason: expect.stringMatching(/^autoDestroyActivityDuration /) },
                { property: "tags", reason: expect.stringContaining("tag key 'hc:reserved'") },
                { property: "tags", reason: expect.stringContaining("the value of tag 'team'") },
            ]),
        );
        expect(JSON.stringify(result.failures)).not.toContain("a".repeat(300));
        const missing = await fx.plugin.check(urn("nameless"), {}, { organization: "acme" });
        expect(missing.failures).toEqual([{ property: "name", reason: "name is required" }]);
        expect(await projectNames()).toEqual(before);
    });

    test("a preview with unknowns passes Check, shows the change, and writes nothing", async () => {
        const before = await projectNames();
        const checked = await fx.plugin.check(urn("later"), {}, { organization: "acme", name: UNKNOWN, tags: { team: UNKNOWN } });
        expect(checked.failures).toEqual([]);
        const preview = await fx.plugin.create(urn("later"), checked.inputs, { preview: true });
        expect(preview.id).toBe("");
        expect(preview.outputs).toMatchObject({ organization: "acme", name: UNKNOWN, tags: { team: UNKNOWN } });
        expect(await projectNames()).toEqual(before);
    });

    test("create, read, a detailed diff, update and delete, each read back from the service; only the secret tag value is secret", async () => {
        const project = await createResource(fx.plugin, urn("apps"), {
            organization: "acme",
            name: "Plugin Apps",
            description: "made by the plugin",
            autoDestroyActivityDuration: "14d",
            tags: { team: "platform", "cost-center": secret("1234") },
        });
        expect(project.id).toMatch(/^prj-/);
        expect(secretPaths(project.inputs)).toEqual(["tags.cost-center"]);
        expect(secretPaths(project.outputs)).toEqual(["tags.cost-center"]);
        expect(project.outputs).toEqual({
            organization: "acme",
            name: "Plugin Apps",
            description: "made by the plugin",
            autoDestroyActivityDuration: "14d",
            tags: { team: "platform", "cost-center": secret("1234") },
        });
        expect((await shown(`/projects/${project.id}`)).attributes).toMatchObject({ name: "Plugin Apps", description: "made by the plugin" });
        expect(await tagsOf(project.id)).toEqual({ team: "platform", "cost-center": "1234" });

        // Refresh: the service as it is, secrets kept where state had them.
        const read = await fx.plugin.read(urn("apps"), project.id, project.outputs, project.inputs);
        expect(read.id).toBe(project.id);
        expect(read.outputs).toEqual(project.outputs);

        // The same program again: nothing to do.
        expect((await fx.plugin.diff(urn("apps"), project.id, project.outputs, project.inputs, project.inputs)).changes).toBe("none");

        const { diff, held } = await updateResource(fx.plugin, project, { ...project.inputs, description: "changed by the plugin", name: "Plugin Apps 2" });
        expect(diff).toMatchObject({ changes: "some", replaces: [], hasDetailedDiff: true, detailedDiff: { description: "UPDATE", name: "UPDATE" } });
        expect(diff.diffs.sort()).toEqual(["description", "name"]);
        expect((await shown(`/projects/${project.id}`)).attributes).toMatchObject({ name: "Plugin Apps 2", description: "changed by the plugin" });
        expect(held.outputs.name).toBe("Plugin Apps 2");

        const moved = await fx.plugin.diff(urn("apps"), project.id, held.outputs, { ...held.inputs, organization: "globex" }, held.inputs);
        expect(moved).toMatchObject({ changes: "some", replaces: ["organization"], detailedDiff: { organization: "UPDATE_REPLACE" } });
        const unknownName = await fx.plugin.diff(urn("apps"), project.id, held.outputs, { ...held.inputs, organization: UNKNOWN }, held.inputs);
        expect(unknownName.deleteBeforeReplace).toBe(true);

        await fx.plugin.delete(urn("apps"), project.id, held.outputs, held.inputs);
        expect(await shown(`/projects/${project.id}`)).toBeUndefined();
        expect((await fx.plugin.read(urn("apps"), project.id, held.outputs, held.inputs)).id).toBe("");
    });

    test("an import reads a project from its id alone, with inputs that check and diff to no change", async () => {
        const made = await fx.server.request("POST", "/organizations/acme/projects", {
            token: TOKENS.owners,
            body: { data: { type: "projects", attributes: { name: "Made Outside", description: "by hand" } } },
        });
        const id = made.body.data.id as string;
        await fx.server.request("PATCH", `/projects/${id}/tag-bindings`, {
            token: TOKENS.owners,
            body: { data: [{ type: "tag-bindings", attributes: { key: "env", value: "prod" } }] },
        });
        const imported = await fx.plugin.read(urn("imported"), id);
        expect(imported.id).toBe(id);
        expect(imported.outputs).toEqual({ organization: "acme", name: "Made Outside", description: "by hand", tags: { env: "prod" } });
        expect(imported.inputs).toEqual(imported.outputs);
        const checked = await fx.plugin.check(urn("imported"), {}, imported.inputs!);
        expect(checked.failures).toEqual([]);
        expect((await fx.plugin.diff(urn("imported"), id, imported.outputs, checked.inputs, imported.inputs)).changes).toBe("none");
    });

    test("a create whose finishing step fails is a partial failure: the engine keeps the project, and refreshes and deletes it later", async () => {
        await fx.server.addFault({ method: "POST", path: "^/api/v2/organizations/[^/]+/projects$", times: 1, status: 503, afterCommit: true });
        await fx.server.addFault({ method: "PATCH", path: "^/api/v2/projects/prj-[^/]+$", times: 1, status: 422 });
        const checked = await fx.plugin.check(urn("half"), {}, { organization: "acme", name: "Half Made", tags: { team: secret("ops") } });
        const error = await failure(fx.plugin.create(urn("half"), checked.inputs));
        expect(error).toBeInstanceOf(ProviderCallError);
        const initFailure = (error as ProviderCallError).initFailure!;
        const found = (await projectNames()).includes("Half Made");
        expect(found).toBe(true);
        expect(initFailure.id).toMatch(/^prj-/);
        expect(initFailure.properties).toMatchObject({ organization: "acme", name: "Half Made" });
        expect(initFailure.properties.__provider).toBeUndefined();
        expect(error.message).not.toContain(TOKEN);
        expect(JSON.stringify(initFailure)).not.toContain(TOKEN);
        const state = initFailure.properties;
        expect((await fx.plugin.read(urn("half"), initFailure.id, state, checked.inputs)).id).toBe(initFailure.id);
        await fx.plugin.delete(urn("half"), initFailure.id, state, checked.inputs);
        expect(await projectNames()).not.toContain("Half Made");
    });
});

describe("wos:index:ProjectTagBindings", () => {
    test("manages only its keys: create, a detailed diff, update, read and delete, read back from the service", async () => {
        const urn = fx.urn(TYPES.projectTagBindings, "cost");
        const project = await createResource(fx.plugin, fx.urn(TYPES.project, "tagged"), { organization: "acme", name: "Tagged By Bindings" });
        await fx.server.request("PATCH", `/projects/${project.id}/tag-bindings`, {
            token: TOKENS.owners,
            body: { data: [{ type: "tag-bindings", attributes: { key: "owner", value: "someone" } }] },
        });
        const bindings = await createResource(fx.plugin, urn, { projectId: project.id, tags: { "cost-center": "1234" } });
        expect(bindings).toMatchObject({ id: project.id, outputs: { projectId: project.id, tags: { "cost-center": "1234" } } });
        expect(await tagsOf(project.id)).toEqual({ owner: "someone", "cost-center": "1234" });

        const { diff, held } = await updateResource(fx.plugin, bindings, { projectId: project.id, tags: { "cost-center": "5678", team: "web" } });
        expect(diff).toMatchObject({ changes: "some", detailedDiff: { tags: "UPDATE" } });
        expect(await tagsOf(project.id)).toEqual({ owner: "someone", "cost-center": "5678", team: "web" });
        expect((await fx.plugin.read(urn, held.id, held.outputs, held.inputs)).outputs).toEqual(held.outputs);
        const other = await fx.plugin.diff(urn, held.id, held.outputs, { ...held.inputs, projectId: "prj-0000000000000000" }, held.inputs);
        expect(other).toMatchObject({ replaces: ["projectId"], detailedDiff: { projectId: "UPDATE_REPLACE" } });

        await fx.plugin.delete(urn, held.id, held.outputs, held.inputs);
        expect(await tagsOf(project.id)).toEqual({ owner: "someone" });
        await fx.plugin.delete(fx.urn(TYPES.project, "tagged"), project.id, project.outputs, project.inputs);
    });
});

describe("wos:index:Workspace", () => {
    const urn = (name: string) => fx.urn(TYPES.workspace, name);

    test("a preview without a project shows the project unknown and writes nothing; create, move, update, import, delete", async () => {
        const preview = await fx.plugin.check(urn("web"), {}, { organization: "acme", name: "plugin-web" });
        expect((await fx.plugin.create(urn("web"), preview.inputs, { preview: true })).outputs).toMatchObject({ name: "plugin-web", projectId: UNKNOWN });
        expect(await shown("/organizations/acme/workspaces/plugin-web")).toBeUndefined();

        const workspace = await createResource(fx.plugin, urn("web"), { organization: "acme", name: "plugin-web", description: "by the plugin" });
        expect(workspace.id).toMatch(/^ws-/);
        expect(workspace.outputs).toMatchObject({ organization: "acme", name: "plugin-web", projectId: expect.stringMatching(/^prj-/), autoApply: false, executionMode: "remote" });
        expect(secretPaths(workspace.outputs)).toEqual([]);
        expect((await shown(`/workspaces/${workspace.id}`)).attributes).toMatchObject({ name: "plugin-web", description: "by the plugin" });

        const apps = (await fx.server.request("GET", "/organizations/acme/projects?filter%5Bnames%5D=Apps", { token: TOKENS.owners })).body.data[0].id;
        const { diff, held } = await updateResource(fx.plugin, workspace, { ...workspace.inputs, projectId: apps, autoApply: true });
        expect(diff).toMatchObject({ changes: "some", replaces: [], detailedDiff: { projectId: "ADD", autoApply: "ADD" } });
        const now = await shown(`/workspaces/${workspace.id}`);
        expect(now.attributes["auto-apply"]).toBe(true);
        expect(now.relationships.project.data.id).toBe(apps);

        const imported = await fx.plugin.read(urn("imported"), workspace.id);
        expect(imported.outputs).toEqual(held.outputs);
        const checked = await fx.plugin.check(urn("imported"), {}, imported.inputs!);
        expect((await fx.plugin.diff(urn("imported"), workspace.id, imported.outputs, checked.inputs, imported.inputs)).changes).toBe("none");

        await fx.plugin.delete(urn("web"), workspace.id, held.outputs, held.inputs);
        expect(await shown(`/workspaces/${workspace.id}`)).toBeUndefined();
    });

    test("Check names the execution rule: agent needs a pool, remote refuses one", async () => {
        const agent = await fx.plugin.check(urn("agent"), {}, { organization: "acme", name: "agent-ws", executionMode: "agent" });
        expect(agent.failures).toEqual([{ property: "agentPoolId", reason: "agentPoolId is required when executionMode is 'agent'" }]);
    });
});

describe("wos:index:Variable", () => {
    const urn = (name: string) => fx.urn(TYPES.variable, name);

    test("a sensitive variable's value is a secret in inputs and outputs, also when the program gave it plain; nothing else is", async () => {
        const variable = await createResource(fx.plugin, urn("password"), {
            workspaceId: WORKSPACES.appsWeb,
            key: "PLUGIN_PASSWORD",
            value: "plain-but-sensitive",
            category: "env",
            sensitive: true,
        });
        expect(variable.inputs).toEqual({
            workspaceId: WORKSPACES.appsWeb,
            key: "PLUGIN_PASSWORD",
            value: secret("plain-but-sensitive"),
            category: "env",
            hcl: false,
            sensitive: true,
        });
        expect(secretPaths(variable.outputs)).toEqual(["value"]);
        expect(variable.outputs.value).toEqual(secret("plain-but-sensitive"));
        const onService = (await variablesOfWebApp()).find((candidate) => candidate.id === variable.id);
        expect(onService.attributes).toMatchObject({ key: "PLUGIN_PASSWORD", sensitive: true, value: null });

        // An import of a sensitive variable: the value cannot be read, and what stands for it is still a secret.
        const imported = await fx.plugin.read(urn("imported"), variable.id);
        expect(imported.outputs).toMatchObject({ workspaceId: WORKSPACES.appsWeb, key: "PLUGIN_PASSWORD", sensitive: true, value: secret("") });

        // Rotating the value: an update in place; turning sensitive off: a replacement.
        const { diff, held } = await updateResource(fx.plugin, variable, { ...variable.inputs, value: secret("rotated") });
        expect(diff).toMatchObject({ changes: "some", replaces: [], detailedDiff: { value: "UPDATE" } });
        expect(held.outputs.value).toEqual(secret("rotated"));
        const off = await fx.plugin.diff(urn("password"), variable.id, held.outputs, { ...held.inputs, sensitive: false }, held.inputs);
        expect(off).toMatchObject({ replaces: ["sensitive"], detailedDiff: { sensitive: "UPDATE_REPLACE" } });

        await fx.plugin.delete(urn("password"), variable.id, held.outputs, held.inputs);
        expect((await variablesOfWebApp()).find((candidate) => candidate.id === variable.id)).toBeUndefined();
    });

    test("a plain variable has no secret at all; its value changes in place and reads back from the service", async () => {
        const variable = await createResource(fx.plugin, urn("plain"), { workspaceId: WORKSPACES.appsWeb, key: "PLUGIN_LEVEL", value: "info", category: "env" });
        expect(secretPaths(variable)).toEqual([]);
        const { held } = await updateResource(fx.plugin, variable, { ...variable.inputs, value: "debug" });
        expect((await variablesOfWebApp()).find((candidate) => candidate.id === variable.id).attributes.value).toBe("debug");
        expect(held.outputs.value).toBe("debug");
        await fx.plugin.delete(urn("plain"), variable.id, held.outputs, held.inputs);
    });

    test("a value not known in a preview of a variable whose sensitivity is not known either stays a secret", async () => {
        const checked = await fx.plugin.check(urn("later"), {}, { workspaceId: WORKSPACES.appsWeb, key: "LATER", value: "x", category: "env", sensitive: UNKNOWN });
        expect(checked.failures).toEqual([]);
        expect(checked.inputs.value).toEqual(secret("x"));
        const preview = await fx.plugin.create(urn("later"), checked.inputs, { preview: true });
        expect(preview.outputs.value).toEqual(secret("x"));
    });

    test("Check fails a bad category and a missing key before anything is written", async () => {
        const before = (await variablesOfWebApp()).length;
        const result = await fx.plugin.check(urn("broken"), {}, { workspaceId: WORKSPACES.appsWeb, category: "secret", value: "v" } as PropertyMap);
        expect(result.failures).toEqual(
            expect.arrayContaining([
                { property: "key", reason: "key is required" },
                { property: "category", reason: expect.stringMatching(/^category /) },
            ]),
        );
        expect((await variablesOfWebApp()).length).toBe(before);
    });
});
