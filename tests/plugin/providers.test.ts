/**
 * Explicit providers (issue 21): the engine starts one plugin process per `pulumi:providers:wos`, each
 * configured with its own address, token and default organization. Two of them, for acme and globex, run
 * side by side and at the same time: every request of each carries its own token and only its own (each
 * plugin talks to the service through a recording proxy of the test), each resource lands in its own
 * organization, and a token's scope shows in what the other cannot read. Configuration falls back to the
 * environment as the dynamic resources' does, and no message ever holds a token.
 */
import { ProviderCallError, startPluginHost, type ProviderHost } from "../support/providerHost";
import { startRecorder, type Recorder } from "../support/recordingProxy";
import { TOKENS } from "../support/seed";
import { createResource } from "./engineSteps";
import { providerConfig, TYPES, usePluginFixture } from "./pluginFixture";

const fx = usePluginFixture();

const ALL_TOKENS = [...Object.values(TOKENS), "admin-token"];

let acmeRecorder: Recorder;
let globexRecorder: Recorder;
let acme: ProviderHost;
let globex: ProviderHost;

beforeAll(async () => {
    acmeRecorder = await startRecorder(fx.server.url);
    globexRecorder = await startRecorder(fx.server.url);
    acme = await fx.anotherPlugin(TOKENS.platform, "acme", acmeRecorder.url);
    globex = await fx.anotherPlugin(TOKENS.globexOwners, "globex", globexRecorder.url);
}, 120_000);

afterAll(async () => {
    await acmeRecorder?.close();
    await globexRecorder?.close();
});

test("two providers at once: each resource in its provider's organization, each request with its provider's token and no other", async () => {
    const [acmeProject, globexProject] = await Promise.all([
        createResource(acme, fx.urn(TYPES.project, "acme-team"), { name: "Team Space" }),
        createResource(globex, fx.urn(TYPES.project, "globex-team"), { name: "Team Space" }),
    ]);
    expect(acmeProject.outputs.organization).toBe("acme");
    expect(globexProject.outputs.organization).toBe("globex");
    const [acmeVar, globexVar] = await Promise.all([
        acme.invoke("wos:index:getWorkspace", { name: "web-app" }),
        globex.invoke("wos:index:getWorkspace", { name: "globex-app" }),
    ]);
    expect(acmeVar.result.organization).toBe("acme");
    expect(globexVar.result.organization).toBe("globex");

    expect(acmeRecorder.requests.length).toBeGreaterThan(0);
    expect(globexRecorder.requests.length).toBeGreaterThan(0);
    expect(new Set(acmeRecorder.requests.map((request) => request.authorization))).toEqual(new Set([`Bearer ${TOKENS.platform}`]));
    expect(new Set(globexRecorder.requests.map((request) => request.authorization))).toEqual(new Set([`Bearer ${TOKENS.globexOwners}`]));

    // Read back with each organization's owners: each project is where its provider put it, and only there.
    const shown = async (id: string, token: string) => (await fx.server.request("GET", `/projects/${id}`, { token })).status;
    expect(await shown(acmeProject.id, TOKENS.owners)).toBe(200);
    expect(await shown(globexProject.id, TOKENS.globexOwners)).toBe(200);
    expect(await shown(globexProject.id, TOKENS.owners)).toBe(404);

    // The token's scope: globex's provider cannot see acme's project, so to it the project is gone.
    expect((await globex.read(fx.urn(TYPES.project, "acme-team"), acmeProject.id, acmeProject.outputs, acmeProject.inputs)).id).toBe("");
    await acme.delete(fx.urn(TYPES.project, "acme-team"), acmeProject.id, acmeProject.outputs, acmeProject.inputs);
    await globex.delete(fx.urn(TYPES.project, "globex-team"), globexProject.id, globexProject.outputs, globexProject.inputs);
    expect(await shown(acmeProject.id, TOKENS.owners)).toBe(404);
    expect(await shown(globexProject.id, TOKENS.globexOwners)).toBe(404);
});

test("a refusal reaches the engine with the service's reason and without any token", async () => {
    const error = await createResource(globex, fx.urn(TYPES.project, "wrong-org"), { organization: "acme", name: "Not Theirs" }).catch((failure: unknown) => failure);
    expect(error).toBeInstanceOf(ProviderCallError);
    const text = JSON.stringify({ message: (error as Error).message, details: (error as ProviderCallError).details });
    expect(text).toContain("wos:Project 'Not Theirs'");
    expect(ALL_TOKENS.filter((token) => text.includes(token))).toEqual([]);
    for (const plugin of [acme, globex, fx.plugin]) expect(ALL_TOKENS.filter((token) => plugin.logs().includes(token))).toEqual([]);
});

describe("configuration from the environment", () => {
    let plugins: ProviderHost[] = [];
    afterAll(async () => {
        await Promise.all(plugins.map((plugin) => plugin.close()));
    });

    test("without a token in its configuration, a provider takes WOS_TOKEN (and WOS_ORGANIZATION) of its environment", async () => {
        const plugin = await startPluginHost({ env: { WOS_TOKEN: TOKENS.globexOwners, WOS_ORGANIZATION: "globex" } });
        plugins.push(plugin);
        await plugin.configure({ "wos:address": fx.server.url }, 10_000, { address: fx.server.url });
        const { result } = await plugin.invoke("wos:index:getProjects", {});
        expect(result.organization).toBe("globex");
        expect(result.names).toContain("Globex Apps");
        expect(result.names).not.toContain("Apps");
    });

    test("without any token, an operation fails saying where to set one, and a Check still works", async () => {
        const plugin = await startPluginHost({});
        plugins.push(plugin);
        const { args, variables } = providerConfig(fx.server.url, "", "acme");
        await plugin.configure(variables, 10_000, { ...args, token: "" });
        const checked = await plugin.check(fx.urn(TYPES.project, "tokenless"), {}, { name: "Tokenless" });
        expect(checked.failures).toEqual([]);
        expect(checked.inputs.organization).toBe("acme");
        const error = await plugin.create(fx.urn(TYPES.project, "tokenless"), checked.inputs).catch((failure: unknown) => failure);
        expect((error as ProviderCallError).details).toContain("wos:token");
        expect((error as ProviderCallError).details).toContain("WOS_TOKEN");
    });
});
