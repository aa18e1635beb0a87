/**
 * The lookups `getWorkspace`, `getWorkspaces`, `getProjects` and `getNoCodeModule` (and the default
 * organization of `getProject`), each with its `…Output` form: invoke-free, run in the program's process
 * with the resources' credentials (stack config `wos:address` / `wos:token` first, then `WOS_ADDRESS` /
 * `WOS_TOKEN`) and default organization (`wos:organization`, then `WOS_ORGANIZATION`).
 */
import * as pulumi from "@pulumi/pulumi";
import { getNoCodeModule, getNoCodeModuleOutput } from "../../provider/getNoCodeModule";
import { getProject, getProjectOutput } from "../../provider/getProject";
import { getProjects, getProjectsOutput } from "../../provider/getProjects";
import { getWorkspace, getWorkspaceOutput } from "../../provider/getWorkspace";
import { getWorkspaces, getWorkspacesOutput } from "../../provider/getWorkspaces";
import { startTestServer, type TestServer } from "../support/server";
import { REGISTRY_MODULES, TOKENS, WORKSPACES } from "../support/seed";
import { rejection, TOKEN } from "./helpers";

let server: TestServer;
let ids: Record<string, string>;
/** The workspaces made for the "every page" tests: more than one page of 100. */
const MANY = Array.from({ length: 105 }, (_, index) => `many-${String(index + 1).padStart(3, "0")}`);
/** The projects made for the "every page" tests. */
const MANY_PROJECTS = Array.from({ length: 101 }, (_, index) => `Many ${String(index + 1).padStart(3, "0")}`);
let moduleId: string;

const VARIABLES = ["WOS_ADDRESS", "WOS_TOKEN", "WOS_ORGANIZATION"] as const;
const saved = Object.fromEntries(VARIABLES.map((name) => [name, process.env[name]]));

function resetCredentials(): void {
    for (const name of VARIABLES) delete process.env[name];
    pulumi.runtime.setAllConfig({});
}

/** Credentials from the environment, the way most tests here run. */
function useEnvironment(organization?: string): void {
    process.env.WOS_ADDRESS = server.url;
    process.env.WOS_TOKEN = TOKEN;
    if (organization !== undefined) process.env.WOS_ORGANIZATION = organization;
}

/** The value of an `Output`. */
function valueOf<T>(output: pulumi.Output<T>): Promise<T> {
    return new Promise<T>((resolve) => output.apply(resolve));
}

beforeAll(async () => {
    server = await startTestServer();
    const projects = await server.request("GET", "/organizations/acme/projects?page%5Bsize%5D=100", { token: TOKEN });
    ids = Object.fromEntries(projects.body.data.map((project: any) => [project.attributes.name, project.id]));
    for (const name of MANY) {
        const made = await server.request("POST", "/organizations/acme/workspaces", {
            token: TOKEN,
            body: { data: { type: "workspaces", attributes: { name }, relationships: { project: { data: { type: "projects", id: ids.Empty } } } } },
        });
        expect(made.status).toBe(201);
    }
    for (const name of MANY_PROJECTS) {
        const made = await server.request("POST", "/organizations/acme/projects", { token: TOKEN, body: { data: { type: "projects", attributes: { name } } } });
        expect(made.status).toBe(201);
    }
    const module = await server.request("POST", "/organizations/acme/no-code-modules", {
        token: TOKEN,
        body: {
            data: {
                type: "no-code-modules",
                attributes: { "version-pin": "1.0.0", enabled: true },
                relationships: {
                    "registry-module": { data: { type: "registry-module", id: REGISTRY_MODULES.bucket } },
                    "variable-options": {
                        data: [{ type: "variable-options", attributes: { "variable-name": "region", "variable-type": "string", options: ["eu-west-1", "us-east-1"] } }],
                    },
                },
            },
        },
    });
    expect(module.status).toBe(200);
    moduleId = module.body.data.id;
});
afterAll(async () => {
    await server.close();
    for (const name of VARIABLES) {
        if (saved[name] === undefined) delete process.env[name];
        else process.env[name] = saved[name];
    }
});
beforeEach(resetCredentials);
afterEach(resetCredentials);

describe("getWorkspace", () => {
    it("finds a workspace by name, in any case, with its project and settings", async () => {
        useEnvironment();
        const found = await getWorkspace({ organization: "acme", name: "LEGACY-APP" });
        expect(found).toEqual({
            id: WORKSPACES.appsLegacy,
            organization: "acme",
            name: "legacy-app",
            projectId: ids.Apps,
            autoApply: false,
            executionMode: "remote",
            source: "tfe-api",
            noCodeUpgradeAvailable: false,
            tagNames: [],
        });
    });

    it("looks in the default organization when organization is left out (stack config first, then WOS_ORGANIZATION)", async () => {
        useEnvironment("acme");
        process.env.WOS_TOKEN = TOKENS.globexOwners;
        // globex's workspace is not acme's: with WOS_ORGANIZATION naming acme, its name is not found...
        const error = await rejection(getWorkspace({ name: "globex-app" }));
        expect(error.message).toBe("wos.getWorkspace: no workspace named 'globex-app' in organization 'acme' (or the token may not read it)");
        // ...and with the stack config naming globex, which wins, it is.
        pulumi.runtime.setAllConfig({ "wos:organization": "globex" });
        expect((await getWorkspace({ name: "globex-app" })).id).toBe(WORKSPACES.globex);
    });

    it("fails naming the workspace when the token may not read it", async () => {
        process.env.WOS_ADDRESS = server.url;
        process.env.WOS_TOKEN = TOKENS.appsRead;
        expect((await getWorkspace({ organization: "acme", name: "web-app" })).id).toBe(WORKSPACES.appsWeb);
        const error = await rejection(getWorkspace({ organization: "acme", name: "staging-app" }));
        expect(error.message).toMatch(/no workspace named 'staging-app' in organization 'acme'/);
    });

    it("resolves getWorkspaceOutput from inputs, without an organization too", async () => {
        useEnvironment("acme");
        const found = await valueOf(getWorkspaceOutput({ name: pulumi.output("scratch") }));
        expect(found).toMatchObject({ id: WORKSPACES.defaultProject, projectId: ids["Default Project"] });
    });
});

describe("getWorkspaces", () => {
    it("answers every page: every workspace the filters keep, in creation order, with names and ids by name", async () => {
        useEnvironment();
        const found = await getWorkspaces({ organization: "acme", search: "many-" });
        expect(found.organization).toBe("acme");
        expect(found.names).toEqual(MANY);
        expect(found.workspaces).toHaveLength(105);
        expect(Object.keys(found.ids)).toEqual(MANY);
        expect(found.workspaces.every((item) => item.projectId === ids.Empty && found.ids[item.name] === item.id)).toBe(true);
    });

    it("filters by project, and by project and search together", async () => {
        useEnvironment();
        expect((await getWorkspaces({ organization: "acme", projectId: ids.Apps })).names).toEqual(["legacy-app", "web-app"]);
        expect((await getWorkspaces({ organization: "acme", projectId: ids.Empty, search: "MANY-10" })).names).toEqual([
            "many-100",
            "many-101",
            "many-102",
            "many-103",
            "many-104",
            "many-105",
        ]);
    });

    it("lists only what the token can read; none is not an error", async () => {
        process.env.WOS_ADDRESS = server.url;
        process.env.WOS_TOKEN = TOKENS.appsRead;
        expect((await getWorkspaces({ organization: "acme" })).names).toEqual(["legacy-app", "web-app"]);
        expect(await getWorkspaces({ organization: "acme", search: "no-such-workspace" })).toEqual({ organization: "acme", workspaces: [], names: [], ids: {} });
    });

    it("uses the default organization, and getWorkspacesOutput resolves from inputs", async () => {
        useEnvironment("globex");
        process.env.WOS_TOKEN = TOKENS.globexOwners;
        expect((await getWorkspaces()).names).toEqual(["globex-app"]);
        process.env.WOS_TOKEN = TOKEN;
        const found = await valueOf(getWorkspacesOutput({ organization: pulumi.output("acme"), projectId: pulumi.output(ids.Staging) }));
        expect(found.names).toEqual(["staging-app"]);
    });
});

describe("getProjects", () => {
    it("answers every page: every project the filters keep, with counts, names and ids by name", async () => {
        useEnvironment();
        const found = await getProjects({ organization: "acme", query: "many" });
        expect(found.names).toEqual(MANY_PROJECTS);
        expect(Object.keys(found.ids)).toHaveLength(101);
        expect(found.projects[0]).toEqual({ id: found.ids["Many 001"], name: "Many 001", workspaceCount: 0, teamCount: 0 });
    });

    it("filters by exact names in any case, and counts each project's workspaces", async () => {
        useEnvironment();
        const found = await getProjects({ organization: "acme", names: ["apps", "EMPTY"] });
        expect(found.projects).toEqual([
            { id: ids.Apps, name: "Apps", workspaceCount: 2, teamCount: expect.any(Number) },
            { id: ids.Empty, name: "Empty", workspaceCount: 105, teamCount: expect.any(Number) },
        ]);
    });

    it("without filters lists every project the token sees, in the default organization when left out", async () => {
        useEnvironment("acme");
        const all = await getProjects();
        expect(all.names).toHaveLength(4 + 101);
        expect(all.names.slice(0, 4)).toEqual(["Default Project", "Apps", "Staging", "Empty"]);
        process.env.WOS_TOKEN = TOKENS.appsRead;
        expect((await getProjects()).names).toEqual(["Apps"]);
    });

    it("resolves getProjectsOutput from inputs", async () => {
        useEnvironment();
        const found = await valueOf(getProjectsOutput({ organization: "acme", names: [pulumi.output("Staging")] }));
        expect(found.ids).toEqual({ Staging: ids.Staging });
    });
});

describe("getNoCodeModule", () => {
    it("finds a no-code module by id, with its registry module, pin, flag and variable-options sets", async () => {
        useEnvironment();
        const found = await getNoCodeModule({ id: moduleId });
        expect(found).toEqual({
            id: moduleId,
            organization: "acme",
            registryModuleId: REGISTRY_MODULES.bucket,
            versionPin: "1.0.0",
            enabled: true,
            variableOptions: [{ id: expect.stringMatching(/^ncvaropt-/), variableName: "region", variableType: "string", options: ["eu-west-1", "us-east-1"] }],
            workspaces: [],
            workspacesBehind: [],
        });
        expect(await valueOf(getNoCodeModuleOutput({ id: pulumi.output(moduleId) }))).toEqual(found);
    });

    it("fails naming the id for a module that does not exist or that the token cannot see", async () => {
        useEnvironment();
        expect((await rejection(getNoCodeModule({ id: "nocode-doesnotexist00" }))).message).toBe(
            "wos.getNoCodeModule: no no-code module nocode-doesnotexist00 (or the token may not see it)",
        );
        process.env.WOS_TOKEN = TOKENS.globexOwners;
        expect((await rejection(getNoCodeModule({ id: moduleId }))).message).toMatch(/no no-code module/);
        expect((await rejection(getNoCodeModule({ id: " " }))).message).toMatch(/id must be a no-code module id/);
    });
});

describe("credentials and the default organization of every lookup", () => {
    const lookups = [
        ["wos.getProject", (organization?: string) => getProject({ ...(organization ? { organization } : {}), name: "Apps" })],
        ["wos.getProjects", (organization?: string) => getProjects(organization ? { organization } : {})],
        ["wos.getWorkspace", (organization?: string) => getWorkspace({ ...(organization ? { organization } : {}), name: "web-app" })],
        ["wos.getWorkspaces", (organization?: string) => getWorkspaces(organization ? { organization } : {})],
    ] as const;

    it.each(lookups)("%s reads wos:address, wos:token and wos:organization from the stack config before the environment", async (_name, lookup) => {
        process.env.WOS_ADDRESS = "http://127.0.0.1:9";
        process.env.WOS_TOKEN = "not-this-one";
        process.env.WOS_ORGANIZATION = "globex";
        pulumi.runtime.setAllConfig({ "wos:address": server.url, "wos:token": TOKEN, "wos:organization": "acme" }, ["wos:token"]);
        await expect(lookup()).resolves.toMatchObject({ organization: "acme" });
    });

    it.each(lookups)("%s without any organization fails naming wos:organization and WOS_ORGANIZATION, before any request", async (name, lookup) => {
        process.env.WOS_ADDRESS = "http://127.0.0.1:9";
        process.env.WOS_TOKEN = TOKEN;
        const error = await rejection(lookup());
        expect(error.message).toMatch(new RegExp(`^${name.replace(".", "\\.")}: no organization: .*wos:organization.*WOS_ORGANIZATION`));
    });

    it.each([...lookups, ["wos.getNoCodeModule", () => getNoCodeModule({ id: moduleId })] as const])(
        "%s without a token fails naming wos:token and WOS_TOKEN",
        async (name, lookup) => {
            const error = await rejection(lookup("acme"));
            expect(error.message).toMatch(new RegExp(`^${name.replace(".", "\\.")}: no token configured: .*wos:token.*WOS_TOKEN`));
        },
    );

    it("getProject and getProjectOutput look in the default organization when organization is left out", async () => {
        useEnvironment("acme");
        expect((await getProject({ name: "staging" })).id).toBe(ids.Staging);
        expect((await valueOf(getProjectOutput({ name: "Empty" }))).workspaceCount).toBe(105);
    });

    it("a blank organization is an error, never the default's", async () => {
        useEnvironment("acme");
        expect((await rejection(getWorkspaces({ organization: " " }))).message).toMatch(/organization must be/);
    });

    it("no result carries the token", async () => {
        useEnvironment("acme");
        const results = [await getWorkspaces(), await getProjects(), await getWorkspace({ name: "scratch" }), await getNoCodeModule({ id: moduleId })];
        expect(JSON.stringify(results)).not.toContain(TOKEN);
    });
});

describe("what lags behind a module's pin: getNoCodeModule's workspaces, getWorkspaces by no-code module, each workspace's version", () => {
    /** A module of its own (the network registry module), two workspaces from it on 2.0.0, then a new version of it. */
    let fleetModule: string;
    const workspaceIds: Record<string, string> = {};

    beforeAll(async () => {
        const module = await server.request("POST", "/organizations/acme/no-code-modules", {
            token: TOKEN,
            body: {
                data: {
                    type: "no-code-modules",
                    attributes: { enabled: true },
                    relationships: { "registry-module": { data: { type: "registry-modules", id: REGISTRY_MODULES.network } } },
                },
            },
        });
        expect(module.status).toBe(200);
        fleetModule = module.body.data.id;
        for (const name of ["fleet-one", "fleet-two"]) {
            const made = await server.request("POST", `/no-code-modules/${fleetModule}/workspaces`, {
                token: TOKEN,
                body: {
                    data: {
                        type: "workspaces",
                        attributes: { name },
                        relationships: {
                            project: { data: { type: "project", id: ids.Apps } },
                            vars: { data: [{ type: "vars", attributes: { key: "cidr", value: "10.0.0.0/16", category: "infra" } }] },
                        },
                    },
                },
            });
            expect(made.status).toBe(200);
            workspaceIds[name] = made.body.data.id;
        }
        // New options make a new version of the module: both workspaces are behind it now.
        const patched = await server.request("PATCH", `/no-code-modules/${fleetModule}`, {
            token: TOKEN,
            body: {
                data: {
                    type: "no-code-modules",
                    relationships: {
                        "variable-options": {
                            data: [{ type: "variable-options", attributes: { "variable-name": "cidr", "variable-type": "string", options: ["10.0.0.0/16"] } }],
                        },
                    },
                },
            },
        });
        expect(patched.status).toBe(200);
    });

    it("getNoCodeModule lists the workspaces made from it with the version each runs, and names those behind", async () => {
        useEnvironment();
        const found = await getNoCodeModule({ id: fleetModule });
        expect(found.workspaces).toEqual([
            { id: workspaceIds["fleet-one"], name: "fleet-one", moduleVersion: "2.0.0", noCodeUpgradeAvailable: true },
            { id: workspaceIds["fleet-two"], name: "fleet-two", moduleVersion: "2.0.0", noCodeUpgradeAvailable: true },
        ]);
        expect(found.workspacesBehind).toEqual(["fleet-one", "fleet-two"]);
    });

    it("getWorkspaces by no-code module: only those workspaces, each with its module and version; a workspace not made from one has neither", async () => {
        useEnvironment("acme");
        const found = await getWorkspaces({ noCodeModuleId: fleetModule });
        expect(found.names).toEqual(["fleet-one", "fleet-two"]);
        for (const workspace of found.workspaces) {
            expect(workspace).toMatchObject({ noCodeModuleId: fleetModule, moduleVersion: "2.0.0", noCodeUpgradeAvailable: true });
        }
        expect((await valueOf(getWorkspacesOutput({ noCodeModuleId: pulumi.output(fleetModule) }))).names).toEqual(["fleet-one", "fleet-two"]);
        const plain = await getWorkspace({ name: "legacy-app" });
        expect(plain).not.toHaveProperty("moduleVersion");
        expect(plain).not.toHaveProperty("noCodeModuleId");
        expect(await getWorkspace({ name: "fleet-one" })).toMatchObject({ noCodeModuleId: fleetModule, moduleVersion: "2.0.0" });
    });
});
