/**
 * The lookups as engine invokes (`wos:index:getProject`, `getProjects`, `getWorkspace`, `getWorkspaces`,
 * `getNoCodeModule`): the same answers as the lookups of the dynamic resources' package (one module runs
 * both), with the plugin's configuration: its token and its default organization.
 */
import { lookUpProject, lookUpProjects, lookUpWorkspace, lookUpWorkspaces, type LookupSettings } from "../../provider/handlers/lookups";
import { ClientCache } from "../../provider/handlers/credentials";
import { ProviderCallError, secret } from "../support/providerHost";
import { REGISTRY_MODULES, TOKENS, WORKSPACES } from "../support/seed";
import { TOKEN, usePluginFixture } from "./pluginFixture";

// The plugin's default organization is acme: the lookups that leave it out look there.
const fx = usePluginFixture({ organization: "acme" });

/** The lookups run in this process with the plugin's settings: what the program's lookups answer. */
const direct = (): LookupSettings => ({
    setting: (key) => ({ address: fx.server.url, token: TOKEN, organization: "acme" })[key],
    clients: new ClientCache(),
});

test("getProject finds a project by name in any case, in the default organization, with its tags; the same as the program's lookup", async () => {
    const { result } = await fx.plugin.invoke("wos:index:getProject", { name: "apps" });
    expect(result).toMatchObject({ id: expect.stringMatching(/^prj-/), organization: "acme", name: "Apps", workspaceCount: 2, tags: {} });
    expect(result).toEqual(await lookUpProject(direct(), { name: "apps" }));
});

test("getProjects lists every page, filtered by exact names; getWorkspaces by project; both as the program's lookups answer", async () => {
    const { result } = await fx.plugin.invoke("wos:index:getProjects", { names: ["Apps", "Staging"] });
    expect(result).toMatchObject({ organization: "acme", names: ["Apps", "Staging"] });
    expect(result).toEqual(await lookUpProjects(direct(), { names: ["Apps", "Staging"] }));
    const apps = (result.ids as Record<string, string>).Apps!;
    const workspaces = await fx.plugin.invoke("wos:index:getWorkspaces", { projectId: apps });
    expect(workspaces.result).toMatchObject({ names: ["legacy-app", "web-app"], ids: { "web-app": WORKSPACES.appsWeb } });
    expect(workspaces.result).toEqual(await lookUpWorkspaces(direct(), { projectId: apps }));
});

test("getWorkspace finds a workspace by name; an argument marked secret is taken as its value", async () => {
    const { result } = await fx.plugin.invoke("wos:index:getWorkspace", { organization: "acme", name: secret("web-app") });
    expect(result).toMatchObject({ id: WORKSPACES.appsWeb, name: "web-app", executionMode: "remote", autoApply: false });
    expect(result).toEqual(await lookUpWorkspace(direct(), { name: "web-app" }));
});

test("getNoCodeModule finds a module by id with its sets", async () => {
    const made = await fx.server.request("POST", "/organizations/acme/no-code-modules", {
        token: TOKENS.owners,
        body: {
            data: {
                type: "no-code-modules",
                attributes: { "version-pin": "1.0.0", enabled: true },
                relationships: { "registry-module": { data: { type: "registry-modules", id: REGISTRY_MODULES.bucket } } },
            },
        },
    });
    expect(made.status).toBeLessThan(300);
    const { result } = await fx.plugin.invoke("wos:index:getNoCodeModule", { id: made.body.data.id });
    expect(result).toEqual({ id: made.body.data.id, organization: "acme", registryModuleId: REGISTRY_MODULES.bucket, versionPin: "1.0.0", enabled: true, variableOptions: [], workspaces: [], workspacesBehind: [] });
});

test("a lookup that finds nothing fails naming what it looked for; a list that finds nothing is empty; no token in any answer", async () => {
    const error = await fx.plugin.invoke("wos:index:getProject", { name: "No Such Project" }).catch((failure: unknown) => failure);
    expect(error).toBeInstanceOf(ProviderCallError);
    expect((error as ProviderCallError).details).toContain("no project named 'No Such Project' in organization 'acme'");
    expect((await fx.plugin.invoke("wos:index:getProjects", { query: "nothing-like-this" })).result).toEqual({ organization: "acme", projects: [], names: [], ids: {} });
    expect(fx.plugin.logs()).not.toContain(TOKEN);
});

test("the token scopes what a lookup sees: the plugin (acme's platform team) does not find globex's workspace", async () => {
    const error = await fx.plugin.invoke("wos:index:getWorkspace", { organization: "globex", name: "globex-app" }).catch((failure: unknown) => failure);
    expect((error as ProviderCallError).details).toContain("no workspace named 'globex-app'");
    expect((error as ProviderCallError).details).not.toContain(TOKEN);
});
