/**
 * `wos.Workspace` from the packed package, driven through `@pulumi/pulumi`'s provider host over gRPC in the
 * engine's order, against the local service, with the default organization of the stack config
 * (`wos:organization`) filling in what the program leaves out. The service is inspected over raw HTTP,
 * never through the code under test.
 */
import { isSecret, ProviderCallError, secret, UNKNOWN, type PropertyMap } from "../support/providerHost";
import { TOKENS } from "../support/seed";
import { failure, TOKEN, tokensIn, TYPES, useEngineFixture, WORKSPACE_CAPTURE_PROGRAM } from "./fixture";

const fx = useEngineFixture({
    captureProgram: WORKSPACE_CAPTURE_PROGRAM,
    config: (server) => ({ "wos:address": server.url, "wos:token": secret(TOKEN), "wos:organization": "acme" }),
});

const urn = (name = "capture-workspace") => fx.host.urn(TYPES.workspace, name);

let projects: Record<string, string> = {};
beforeAll(async () => {
    const response = await fx.server.request("GET", "/organizations/acme/projects?page%5Bsize%5D=100", { token: TOKENS.owners });
    projects = Object.fromEntries(response.body.data.map((project: any) => [project.attributes.name, project.id]));
});

/** The inputs the program registered (with its `__provider`), the placeholder project replaced, some overridden. */
const programInputs = (overrides: PropertyMap = {}): PropertyMap => ({
    ...fx.registration("capture-workspace").inputs,
    projectId: projects.Apps,
    ...overrides,
});

/** A workspace as the service holds it (raw HTTP, owners token); `undefined` when gone. */
async function rawWorkspace(id: string): Promise<any | undefined> {
    const response = await fx.server.request("GET", `/workspaces/${id}`, { token: TOKENS.owners });
    if (response.status === 404) return undefined;
    expect(response.status).toBe(200);
    return response.body.data;
}

async function workspaceNames(): Promise<string[]> {
    const response = await fx.server.request("GET", "/organizations/acme/workspaces?page%5Bsize%5D=100", { token: TOKENS.owners });
    expect(response.status).toBe(200);
    return response.body.data.map((item: any) => item.attributes.name);
}

describe("wos:Workspace registration", () => {
    test("the program registers the type token pulumi-nodejs:dynamic/wos:Workspace", () => {
        expect(fx.registration("capture-workspace").type).toBe("pulumi-nodejs:dynamic/wos:Workspace");
        expect(urn()).toBe("urn:pulumi:test::wos-engine-test::pulumi-nodejs:dynamic/wos:Workspace::capture-workspace");
    });

    test("the serialized provider is plain text that loads the handlers by package name and holds no token", () => {
        const provider = fx.registration("capture-workspace").inputs.__provider;
        expect(typeof provider).toBe("string");
        expect(isSecret(provider)).toBe(false);
        expect(provider).toContain('require("pulumi-wos/dist/provider/handlers/workspace")');
        expect(tokensIn(provider)).toEqual([]);
    });

    test("a program that leaves organization and projectId out registers neither", () => {
        const inputs = fx.registration("capture-default-org-workspace").inputs;
        expect(inputs.organization).toBeUndefined();
        expect(inputs.projectId).toBeUndefined();
        expect(fx.registration("capture-default-org-project").inputs.organization).toBeUndefined();
    });
});

describe("wos:Workspace lifecycle through the provider host", () => {
    let id = "";
    let checked: PropertyMap = {};
    let state: PropertyMap = {};

    test("Check rejects invalid inputs, naming each property, before any request: the service sees no write", async () => {
        const before = await workspaceNames();
        const result = await fx.host.check(
            urn(),
            {},
            programInputs({ organization: " ", name: "two words", projectId: "Apps", description: "d".repeat(257), executionMode: "agent" }),
        );
        expect(result.failures.map((f) => f.property).sort()).toEqual(["agentPoolId", "description", "name", "organization", "projectId"]);
        for (const f of result.failures) expect(f.reason).toContain(f.property);
        expect(await workspaceNames()).toEqual(before);
    });

    test("Check lets values that are unknown during preview pass", async () => {
        const result = await fx.host.check(urn(), {}, programInputs({ name: UNKNOWN, projectId: UNKNOWN }));
        expect(result.failures).toEqual([]);
    });

    test("Check accepts the program's inputs and keeps the serialized provider", async () => {
        const result = await fx.host.check(urn(), {}, programInputs());
        expect(result.failures).toEqual([]);
        expect(result.inputs.__provider).toBe(programInputs().__provider);
        checked = result.inputs;
    });

    test("Create makes the workspace in its project with its settings; the outputs hold no token", async () => {
        const created = await fx.host.create(urn(), checked);
        id = created.id;
        state = created.outputs;
        expect(id).toMatch(/^ws-/);
        expect(state).toEqual({
            __provider: checked.__provider,
            organization: "acme",
            name: "capture-workspace",
            projectId: projects.Apps,
            description: "made by the engine tests",
            autoApply: true,
            executionMode: "remote",
        });
        expect(tokensIn(state)).toEqual([]);
        const raw = await rawWorkspace(id);
        expect(raw.attributes).toMatchObject({ name: "capture-workspace", description: "made by the engine tests", "auto-apply": true, source: "tfe-api" });
        expect(raw.relationships.project.data.id).toBe(projects.Apps);
    });

    test("Diff reports no change when the program is unchanged, and none when it stops naming the project", async () => {
        expect(await fx.host.diff(urn(), id, state, checked, checked)).toMatchObject({ changes: "none", replaces: [] });
        const { projectId: _projectId, ...withoutProject } = checked;
        expect(await fx.host.diff(urn(), id, state, withoutProject, checked)).toMatchObject({ changes: "none", replaces: [] });
    });

    test("Diff changes project, name and settings in place, and replaces only for another organization", async () => {
        for (const change of [{ projectId: projects.Staging }, { name: "capture-renamed" }, { description: "other" }, { autoApply: false }]) {
            const result = await fx.host.diff(urn(), id, state, { ...checked, ...change }, checked);
            expect({ change, ...result }).toMatchObject({ change, changes: "some", replaces: [] });
        }
        const moved = await fx.host.diff(urn(), id, state, { ...checked, organization: "globex" }, checked);
        expect(moved).toMatchObject({ changes: "some", replaces: ["organization"] });
    });

    test("Update moves the workspace to another project (same id, its variables kept) and renames it", async () => {
        const variable = await fx.server.request("POST", "/vars", {
            token: TOKENS.owners,
            body: { data: { type: "vars", attributes: { key: "KEEP", value: "me", category: "env" }, relationships: { workspace: { data: { type: "workspaces", id } } } } },
        });
        expect(variable.status).toBe(201);
        const news = { ...checked, projectId: projects.Staging, name: "capture-moved" };
        const updated = await fx.host.update(urn(), id, state, news, checked);
        expect(updated.outputs).toMatchObject({ projectId: projects.Staging, name: "capture-moved", description: "made by the engine tests" });
        const raw = await rawWorkspace(id);
        expect(raw.relationships.project.data.id).toBe(projects.Staging);
        expect(raw.attributes.name).toBe("capture-moved");
        expect(raw.relationships.vars.data.map((item: any) => item.id)).toEqual([variable.body.data.id]);
        state = updated.outputs;
        checked = news;
    });

    test("Read reports drift made over raw HTTP, also as the inputs of the next diff", async () => {
        const patched = await fx.server.request("PATCH", `/workspaces/${id}`, {
            token: TOKENS.owners,
            body: { data: { type: "workspaces", attributes: { description: "changed by hand", "auto-apply": false } } },
        });
        expect(patched.status).toBe(200);
        const read = await fx.host.read(urn(), id, state, checked);
        expect(read.id).toBe(id);
        expect(read.outputs).toMatchObject({ __provider: checked.__provider, description: "changed by hand", autoApply: false });
        expect(read.inputs).toMatchObject({ description: "changed by hand", autoApply: false });
        expect((await fx.host.diff(urn(), id, read.outputs, checked, read.inputs)).changes).toBe("some");
        const putBack = await fx.host.update(urn(), id, read.outputs, checked, read.inputs);
        expect(putBack.outputs).toMatchObject({ description: "made by the engine tests", autoApply: true });
        state = putBack.outputs;
    });

    test("a Create the service refuses (a name taken) fails with the service's reason and never the token", async () => {
        const error = await failure(fx.host.create(urn("duplicate"), { ...checked, name: "legacy-app" }));
        expect(error).toBeInstanceOf(ProviderCallError);
        expect(error.message).toMatch(/already been taken/i);
        expect(tokensIn(error.message)).toEqual([]);
        expect((await workspaceNames()).filter((name) => name === "legacy-app")).toHaveLength(1);
    });

    test("Delete removes the workspace, deleting it again succeeds, and a Read then reports it gone", async () => {
        await fx.host.delete(urn(), id, state, checked);
        expect(await rawWorkspace(id)).toBeUndefined();
        await expect(fx.host.delete(urn(), id, state, checked)).resolves.toBeUndefined();
        expect((await fx.host.read(urn(), id, state, checked)).id).toBe("");
    });
});

describe("the default organization (wos:organization) through the provider host", () => {
    test("Check fills in the organization a Workspace and a Project leave out, and Create makes them there", async () => {
        const workspaceInputs = fx.registration("capture-default-org-workspace").inputs;
        const checkedWorkspace = await fx.host.check(urn("capture-default-org-workspace"), {}, workspaceInputs);
        expect(checkedWorkspace.failures).toEqual([]);
        expect(checkedWorkspace.inputs.organization).toBe("acme");
        const created = await fx.host.create(urn("capture-default-org-workspace"), checkedWorkspace.inputs);
        expect(created.outputs).toMatchObject({ organization: "acme", name: "capture-default-org", projectId: projects["Default Project"] });
        expect((await rawWorkspace(created.id)).relationships.organization.data.id).toBe("acme");
        // State holds the resolved organization: the same program diffs as no change.
        const again = await fx.host.check(urn("capture-default-org-workspace"), created.outputs, workspaceInputs);
        expect((await fx.host.diff(urn("capture-default-org-workspace"), created.id, created.outputs, again.inputs, checkedWorkspace.inputs)).changes).toBe("none");
        await fx.host.delete(urn("capture-default-org-workspace"), created.id, created.outputs, checkedWorkspace.inputs);

        const projectUrn = fx.host.urn(TYPES.project, "capture-default-org-project");
        const checkedProject = await fx.host.check(projectUrn, {}, fx.registration("capture-default-org-project").inputs);
        expect(checkedProject.failures).toEqual([]);
        expect(checkedProject.inputs.organization).toBe("acme");
        const project = await fx.host.create(projectUrn, checkedProject.inputs);
        expect(project.outputs).toMatchObject({ organization: "acme", name: "Capture Default Org" });
        await fx.host.delete(projectUrn, project.id, project.outputs, checkedProject.inputs);
    });

    test("a host configured without wos:organization fails Check naming organization, wos:organization and WOS_ORGANIZATION", async () => {
        const plain = await fx.anotherHost(TOKEN);
        const result = await plain.check(plain.urn(TYPES.workspace, "no-default"), {}, fx.registration("capture-default-org-workspace").inputs);
        expect(result.failures).toEqual([{ property: "organization", reason: expect.stringMatching(/organization is required.*wos:organization.*WOS_ORGANIZATION/) }]);
    });

    test("the host's logs never contain a token", () => {
        expect(tokensIn(fx.host.logs())).toEqual([]);
    });
});
