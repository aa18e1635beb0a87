/**
 * The `wos:NoCodeWorkspace` handlers called directly, as the provider host calls them, against the real local
 * service: check, diff, create, read, update (moves, settings, upgrades by vars and by module version, failed
 * and unfinished plans, removed vars) and delete. Plans step every 20 ms here (`--plan-step-ms`), and the
 * provider's first poll comes after 10 ms (`WOS_UPGRADE_POLL_MS`); two more services cover plans that take
 * longer.
 */
import * as noCodeWorkspace from "../../provider/handlers/noCodeWorkspace";
import type { TestServer } from "../support/server";
import { REGISTRY_MODULES, TOKENS } from "../support/seed";
import {
    configureFor,
    configureUnreachable,
    projectsNamed,
    rejection,
    TOKEN,
    UNKNOWN,
    useServer,
    checkFailures,
    checkedInputs,
    rawInitiateUpgrade,
    rawUpgradeRun,
    rawWorkspace,
    captureUpgradeLog,
    freshWorkspaceName,
} from "./helpers";

const previousPollMs = process.env.WOS_UPGRADE_POLL_MS;
process.env.WOS_UPGRADE_POLL_MS = "10";
afterAll(() => {
    if (previousPollMs === undefined) delete process.env.WOS_UPGRADE_POLL_MS;
    else process.env.WOS_UPGRADE_POLL_MS = previousPollMs;
});

const server = useServer({ planStepMs: 20 });
const AGENT_POOL = "apool-0000000000000001";

/** Progress lines the upgrades wrote (instead of the Pulumi log), reset before each test. */
const logLines = captureUpgradeLog();

/** A workspace name no other test of the file uses. */
const uniqueWorkspaceName = (prefix = "ncws") => freshWorkspaceName(prefix);

/**
 * Enables a registry module for no-code provisioning over raw HTTP (not through the code under test) and
 * answers the no-code module's id.
 */
async function enableModule(
    target: TestServer,
    options: { organization: string; token: string; registryModuleId: string; versionPin: string; regionOptions?: string[] },
): Promise<string> {
    const response = await target.request("POST", `/organizations/${options.organization}/no-code-modules`, {
        token: options.token,
        body: {
            data: {
                type: "no-code-modules",
                attributes: { enabled: true, "version-pin": options.versionPin },
                relationships: {
                    "registry-module": { data: { type: "registry-module", id: options.registryModuleId } },
                    ...(options.regionOptions
                        ? {
                              "variable-options": {
                                  data: [
                                      {
                                          type: "variable-options",
                                          attributes: { "variable-name": "region", "variable-type": "string", options: options.regionOptions },
                                      },
                                  ],
                              },
                          }
                        : {}),
                },
            },
        },
    });
    expect(response.status).toBe(200);
    return response.body.data.id;
}

/** The id of a project of `organization`, by name. */
async function projectId(target: TestServer, organization: string, name: string, token: string): Promise<string> {
    const response = await target.request("GET", `/organizations/${organization}/projects?filter%5Bnames%5D=${encodeURIComponent(name)}`, { token });
    expect(response.status).toBe(200);
    return response.body.data[0].id;
}


/** The status of `GET /organizations/:org/workspaces/:name`: 200 when a workspace holds the name, else 404. */
async function nameStatus(target: TestServer, name: string, organization = "acme", token: string = TOKEN): Promise<number> {
    return (await target.request("GET", `/organizations/${organization}/workspaces/${name}`, { token })).status;
}

/** The workspace's variables over raw HTTP, as `category/key -> attributes` (with the id). */
async function rawVars(target: TestServer, workspaceName: string, organization = "acme", token: string = TOKEN): Promise<Record<string, any>> {
    const response = await target.request(
        "GET",
        `/vars?filter%5Bworkspace%5D%5Bname%5D=${workspaceName}&filter%5Borganization%5D%5Bname%5D=${organization}`,
        { token },
    );
    expect(response.status).toBe(200);
    return Object.fromEntries(response.body.data.map((v: any) => [`${v.attributes.category}/${v.attributes.key}`, { id: v.id, ...v.attributes }]));
}



const checked = (news: Record<string, unknown>) => checkedInputs(noCodeWorkspace, news);

const failuresOf = (news: Record<string, unknown>) => checkFailures(noCodeWorkspace, news);

type Outputs = Record<string, any>;

let MODULE = "";
let APPS = "";
let STAGING = "";
beforeAll(async () => {
    MODULE = await enableModule(server(), {
        organization: "acme",
        token: TOKEN,
        registryModuleId: REGISTRY_MODULES.bucket,
        versionPin: "1.0.0",
        regionOptions: ["eu-west-1", "us-east-1"],
    });
    APPS = (await projectsNamed(server(), "Apps"))[0].id;
    STAGING = (await projectsNamed(server(), "Staging"))[0].id;
});

const region = (value: string) => ({ key: "region", value, category: "infra" });
const secret = { key: "API_KEY", value: "s3cret-value", category: "env", sensitive: true };

/** A program for a new workspace in Apps from the module, with `extra` settings. */
function program(extra: Record<string, unknown> = {}): Record<string, unknown> {
    return { noCodeModuleId: MODULE, projectId: APPS, name: uniqueWorkspaceName(), vars: [region("eu-west-1")], ...extra };
}

describe("check", () => {
    const valid = { noCodeModuleId: "nocode-1", projectId: "prj-1", name: "site-prod" };

    it.each([
        ["a missing module", { projectId: "prj-1", name: "a" }, "noCodeModuleId", /noCodeModuleId is required/],
        ["a module id without the nocode- prefix", { ...valid, noCodeModuleId: "mod-1" }, "noCodeModuleId", /starting with 'nocode-'/],
        ["a missing project", { noCodeModuleId: "nocode-1", name: "a" }, "projectId", /projectId is required/],
        ["a project id without the prj- prefix", { ...valid, projectId: "ws-1" }, "projectId", /starting with 'prj-'/],
        ["a missing name", { noCodeModuleId: "nocode-1", projectId: "prj-1" }, "name", /name is required/],
        ["an empty name", { ...valid, name: "" }, "name", /name must not be empty/],
        ["a name over 90 characters", { ...valid, name: "a".repeat(91) }, "name", /at most 90 characters/],
        ["a name with a space", { ...valid, name: "site prod" }, "name", /only letters, numbers, '-' and '_'/],
        ["a description over 256 characters", { ...valid, description: "d".repeat(257) }, "description", /at most 256/],
        ["autoApply that is not a boolean", { ...valid, autoApply: "true" }, "autoApply", /true or false/],
        ["an unknown execution mode", { ...valid, executionMode: "local" }, "executionMode", /'remote' or 'agent'/],
        ["agent without an agent pool", { ...valid, executionMode: "agent" }, "agentPoolId", /required when executionMode is 'agent'/],
        ["an agent pool with remote", { ...valid, executionMode: "remote", agentPoolId: AGENT_POOL }, "agentPoolId", /must not be given when executionMode is 'remote'/],
        ["an agent pool with the default mode (remote)", { ...valid, agentPoolId: AGENT_POOL }, "agentPoolId", /must not be given when executionMode is 'remote'/],
        ["an agent pool id without the apool- prefix", { ...valid, executionMode: "agent", agentPoolId: "pool-1" }, "agentPoolId", /starting with 'apool-'/],
        ["a source name over 256 characters", { ...valid, sourceName: "s".repeat(257) }, "sourceName", /at most 256/],
        ["a source URL that is not a URL", { ...valid, sourceUrl: "not a url" }, "sourceUrl", /must be a URL/],
        ["vars that are not a list", { ...valid, vars: { region: "x" } }, "vars", /vars must be a list/],
        ["a var that is not an object", { ...valid, vars: ["region"] }, "vars", /vars\[0\] must be/],
        ["a var without a key", { ...valid, vars: [{ value: "x", category: "infra" }] }, "vars", /vars\[0\]\.key is required/],
        ["a var without a category", { ...valid, vars: [{ key: "region", value: "x" }] }, "vars", /vars\[0\]\.category is required/],
        ["a var of an unknown category", { ...valid, vars: [{ key: "region", category: "terraform" }] }, "vars", /vars\[0\]\.category must be 'infra' or 'env'/],
        ["a var key over 128 characters", { ...valid, vars: [{ key: "k".repeat(129), category: "env" }] }, "vars", /vars\[0\]\.key must be at most 128/],
        ["a var value that is not a string", { ...valid, vars: [{ key: "size", value: 3, category: "infra" }] }, "vars", /vars\[0\]\.value must be a string/],
        ["a var description over 512 characters", { ...valid, vars: [{ key: "a", category: "env", description: "d".repeat(513) }] }, "vars", /vars\[0\]\.description must be at most 512/],
        ["a var hcl that is not a boolean", { ...valid, vars: [{ key: "a", category: "env", hcl: "no" }] }, "vars", /vars\[0\]\.hcl must be true or false/],
        ["a var sensitive that is not a boolean", { ...valid, vars: [{ key: "a", category: "env", sensitive: 1 }] }, "vars", /vars\[0\]\.sensitive must be true or false/],
        ["a key twice in one category", { ...valid, vars: [region("a"), { key: "x", category: "env" }, region("b")] }, "vars", /vars\[2\]: var 'region' \(infra\) appears more than once/],
        ["a misspelt var field", { ...valid, vars: [{ key: "a", category: "env", secret: true }] }, "vars", /vars\[0\] has an unknown field 'secret'/],
        ["a module version that is not MAJOR.MINOR.PATCH", { ...valid, moduleVersion: "v1.1" }, "moduleVersion", /moduleVersion must be a module version such as '1.1.0'/],
        ["a timeout of 0", { ...valid, upgradeTimeoutSeconds: 0 }, "upgradeTimeoutSeconds", /upgradeTimeoutSeconds must be greater than 0/],
        ["a negative timeout", { ...valid, upgradeTimeoutSeconds: -5 }, "upgradeTimeoutSeconds", /greater than 0/],
        ["a timeout that is not a number", { ...valid, upgradeTimeoutSeconds: "900" }, "upgradeTimeoutSeconds", /must be a number of seconds/],
    ])("rejects %s, naming the property and the rule", async (_what, news, property, reason) => {
        const failures = await failuresOf(news);
        expect(failures).toContainEqual({ property, reason: expect.stringMatching(reason) });
        expect(failures.every((failure) => failure.reason.startsWith(failure.property))).toBe(true);
    });

    it("accepts every input at its limits, and the same key in both categories", async () => {
        const news = {
            noCodeModuleId: "nocode-1",
            projectId: "prj-1",
            name: "A_b-9".padEnd(90, "x"),
            description: "d".repeat(256),
            autoApply: true,
            executionMode: "agent",
            agentPoolId: AGENT_POOL,
            sourceName: "s".repeat(256),
            sourceUrl: "https://example.com/app",
            vars: [region("eu"), { key: "region", value: "eu", category: "env", description: "d".repeat(512), hcl: true, sensitive: true }],
            moduleVersion: "1.10.0",
            upgradeTimeoutSeconds: 0.5,
            __provider: "serialized",
        };
        const result = await noCodeWorkspace.check({}, news);
        expect(result.failures).toEqual([]);
        expect(result.inputs).toEqual(news);
    });

    it("never quotes a var's value in a reason", async () => {
        const failures = await failuresOf({ ...valid, vars: [{ ...secret, value: "s3cret-".repeat(40000) }] });
        expect(failures).toHaveLength(1);
        expect(failures[0].reason).not.toContain("s3cret");
    });

    it("lets unknown values pass during preview", async () => {
        const everything = Object.fromEntries(
            ["noCodeModuleId", "projectId", "name", "description", "autoApply", "executionMode", "agentPoolId", "sourceName", "sourceUrl", "vars", "moduleVersion", "upgradeTimeoutSeconds"].map(
                (key) => [key, UNKNOWN],
            ),
        );
        expect(await failuresOf(everything)).toEqual([]);
        expect(await failuresOf({ ...valid, executionMode: "agent", agentPoolId: UNKNOWN })).toEqual([]);
        expect(await failuresOf({ ...valid, executionMode: UNKNOWN, agentPoolId: AGENT_POOL })).toEqual([]);
        expect(await failuresOf({ ...valid, vars: [UNKNOWN, { key: "size", value: UNKNOWN, category: UNKNOWN }, { key: UNKNOWN, category: "infra" }, region("x")] })).toEqual([]);
        // A key whose category is not known yet cannot be judged a duplicate, but a known pair can.
        expect(await failuresOf({ ...valid, vars: [region("a"), { ...region("b"), value: UNKNOWN }] })).toContainEqual({
            property: "vars",
            reason: "vars[1]: var 'region' (infra) appears more than once",
        });
    });

    it("sends no request: an unreachable address does not matter and nothing is written", async () => {
        await configureUnreachable();
        const name = uniqueWorkspaceName();
        expect(await failuresOf({ ...valid, name, executionMode: "agent" })).toHaveLength(1);
        await checked({ ...valid, name });
        await configureFor(server());
        expect(await nameStatus(server(), name)).toBe(404);
    });
});

describe("diff", () => {
    const state = {
        noCodeModuleId: "nocode-1",
        projectId: "prj-1",
        name: "site-prod",
        description: "site",
        autoApply: true,
        executionMode: "remote",
        vars: [
            { key: "region", value: "eu-west-1", category: "infra", hcl: false, sensitive: false },
            { key: "API_KEY", value: "s3cret-value", category: "env", hcl: false, sensitive: true },
        ],
        moduleVersion: "1.0.0",
        upgradeTimeoutSeconds: 900,
        noCodeUpgradeAvailable: true,
        lastUpgrade: { id: "run-1", status: "applied", planUrl: "http://x/run-1" },
        __provider: "serialized",
    };
    const same = {
        noCodeModuleId: "nocode-1",
        projectId: "prj-1",
        name: "site-prod",
        description: "site",
        autoApply: true,
        vars: [region("eu-west-1"), secret],
        moduleVersion: "1.0.0",
        upgradeTimeoutSeconds: 900,
    };
    const noChange = { changes: false, replaces: [], deleteBeforeReplace: false };
    const inPlace = { changes: true, replaces: [], deleteBeforeReplace: false };

    beforeEach(configureUnreachable);

    it("reports no change for the same program (outputs that are not inputs are ignored)", async () => {
        expect(await noCodeWorkspace.diff("ws-1", state, same)).toEqual(noChange);
    });

    it.each([
        ["the vars in another order", { vars: [secret, region("eu-west-1")] }],
        ["another upgradeTimeoutSeconds alone", { upgradeTimeoutSeconds: 60 }],
        ["no upgradeTimeoutSeconds", { upgradeTimeoutSeconds: undefined }],
        ["no moduleVersion (whatever the module pins)", { moduleVersion: undefined }],
        ["executionMode remote given (the default)", { executionMode: "remote" }],
        ["vars with their defaults spelled out", { vars: [{ ...region("eu-west-1"), hcl: false, sensitive: false, description: "" }, secret] }],
    ])("reports no change for %s", async (_what, change) => {
        expect(await noCodeWorkspace.diff("ws-1", state, { ...same, ...change })).toEqual(noChange);
    });

    it("reports no change when defaults are given one way and omitted the other", async () => {
        const bare = { noCodeModuleId: "nocode-1", projectId: "prj-1", name: "a", autoApply: false, executionMode: "remote", vars: [], moduleVersion: "1.0.0" };
        expect(await noCodeWorkspace.diff("ws-1", bare, { noCodeModuleId: "nocode-1", projectId: "prj-1", name: "a", description: "" })).toEqual(noChange);
        const withEmpty = { ...bare, description: "", vars: [{ key: "a", value: "", category: "env", hcl: false, sensitive: false }] };
        expect(await noCodeWorkspace.diff("ws-1", withEmpty, { ...bare, vars: [{ key: "a", category: "env" }] })).toEqual(noChange);
    });

    it.each([
        ["projectId (a move)", { projectId: "prj-2" }],
        ["name", { name: "site-renamed" }],
        ["name in another case", { name: "SITE-PROD" }],
        ["description", { description: "other" }],
        ["description removed", { description: undefined }],
        ["autoApply", { autoApply: false }],
        ["executionMode and agent pool", { executionMode: "agent", agentPoolId: AGENT_POOL }],
        ["sourceName", { sourceName: "portal" }],
        ["sourceUrl", { sourceUrl: "https://portal.example.com" }],
        ["a var's value (an upgrade)", { vars: [region("us-east-1"), secret] }],
        ["a sensitive var's value, compared with the one in state", { vars: [region("eu-west-1"), { ...secret, value: "rotated" }] }],
        ["a var's description", { vars: [{ ...region("eu-west-1"), description: "d" }, secret] }],
        ["a var made sensitive", { vars: [{ ...region("eu-west-1"), sensitive: true }, secret] }],
        ["a var added", { vars: [region("eu-west-1"), secret, { key: "size", value: "2", category: "infra" }] }],
        ["a var removed", { vars: [region("eu-west-1")] }],
        ["every var removed", { vars: undefined }],
        ["the module version (an upgrade)", { moduleVersion: "1.1.0" }],
        ["vars not known yet", { vars: UNKNOWN }],
        ["a var value not known yet", { vars: [region(UNKNOWN), secret] }],
        ["a module version not known yet", { moduleVersion: UNKNOWN }],
    ])("changes %s in place", async (_what, change) => {
        expect(await noCodeWorkspace.diff("ws-1", state, { ...same, ...change })).toEqual(inPlace);
    });

    it.each([
        ["another module with the same name: the old workspace is deleted first (names are unique)", { noCodeModuleId: "nocode-2" }, true],
        ["another module with the same name in another case", { noCodeModuleId: "nocode-2", name: "Site-Prod" }, true],
        ["another module and another name: the new workspace is made first", { noCodeModuleId: "nocode-2", name: "site-2" }, false],
        ["another module and a name not known yet", { noCodeModuleId: "nocode-2", name: UNKNOWN }, true],
        ["a module not known yet", { noCodeModuleId: UNKNOWN }, true],
    ])("replaces the workspace for %s", async (_what, change, deleteBeforeReplace) => {
        expect(await noCodeWorkspace.diff("ws-1", state, { ...same, ...change })).toEqual({
            changes: true,
            replaces: ["noCodeModuleId"],
            deleteBeforeReplace,
        });
    });
});

describe("create, read, delete", () => {
    it("creates the workspace from the module with its settings and vars; outputs are plain JSON and compare equal to the program", async () => {
        const inputs = await checked(
            program({
                description: "made by Pulumi",
                autoApply: true,
                sourceName: "pulumi",
                sourceUrl: "https://example.com/stack",
                vars: [region("eu-west-1"), { key: "size", value: "2", category: "infra", description: "disks" }, secret],
                moduleVersion: "1.0.0",
                upgradeTimeoutSeconds: 900,
            }),
        );
        const created = await noCodeWorkspace.create(inputs);
        expect(created.id).toMatch(/^ws-/);
        expect(created.outs).toEqual({
            noCodeModuleId: MODULE,
            projectId: APPS,
            name: inputs.name,
            description: "made by Pulumi",
            autoApply: true,
            executionMode: "remote",
            sourceName: "pulumi",
            sourceUrl: "https://example.com/stack",
            vars: [
                { key: "region", value: "eu-west-1", category: "infra", hcl: false, sensitive: false },
                { key: "size", value: "2", category: "infra", description: "disks", hcl: false, sensitive: false },
                // The sensitive value is kept apart, in the secret `sensitiveValues`: `vars` stays readable.
                { key: "API_KEY", category: "env", hcl: false, sensitive: true },
            ],
            sensitiveValues: { "env:API_KEY": "s3cret-value" },
            moduleVersion: "1.0.0",
            upgradeTimeoutSeconds: 900,
            noCodeUpgradeAvailable: false,
        });
        expect(JSON.parse(JSON.stringify(created.outs))).toEqual(created.outs);
        expect(JSON.stringify(created.outs)).not.toContain(TOKEN);

        const raw = await rawWorkspace(server(), created.id);
        expect(raw.attributes).toMatchObject({
            name: inputs.name,
            description: "made by Pulumi",
            "auto-apply": true,
            source: "tfe-module",
            "source-name": "pulumi",
            "source-url": "https://example.com/stack",
            "source-module-id": REGISTRY_MODULES.bucket,
            "no-code-upgrade-available": false,
        });
        expect(raw.relationships.project.data.id).toBe(APPS);
        const vars = await rawVars(server(), inputs.name as string);
        expect(vars["infra/region"]).toMatchObject({ value: "eu-west-1", sensitive: false });
        expect(vars["infra/size"]).toMatchObject({ value: "2", description: "disks" });
        expect(vars["env/API_KEY"]).toMatchObject({ value: null, sensitive: true });

        // A second `up` of the same program does nothing; a refresh right after reads the same outputs.
        expect((await noCodeWorkspace.diff(created.id, created.outs, inputs)).changes).toBe(false);
        const read = await noCodeWorkspace.read(created.id, created.outs);
        expect(read.props).toEqual(created.outs);
        const { noCodeUpgradeAvailable: _a, ...inputsRead } = created.outs;
        expect(read.inputs).toEqual(inputsRead);
    });

    it("creates a workspace on an agent pool", async () => {
        const inputs = await checked(program({ executionMode: "agent", agentPoolId: AGENT_POOL }));
        const created = await noCodeWorkspace.create(inputs);
        expect(created.outs).toMatchObject({ executionMode: "agent", agentPoolId: AGENT_POOL });
        const raw = await rawWorkspace(server(), created.id);
        expect(raw.attributes["execution-mode"]).toBe("agent");
        expect((await noCodeWorkspace.diff(created.id, created.outs, inputs)).changes).toBe(false);
    });

    it("reports moduleVersion as the module's pin when the program leaves it out", async () => {
        const created = await noCodeWorkspace.create(await checked(program()));
        expect(created.outs.moduleVersion).toBe("1.0.0");
    });

    it("refuses a moduleVersion the module does not pin, naming both versions, and creates nothing", async () => {
        const inputs = await checked(program({ moduleVersion: "1.1.0" }));
        const error = await rejection(noCodeWorkspace.create(inputs));
        expect(error.message).toContain(`wos:NoCodeWorkspace '${inputs.name}' of no-code module ${MODULE}: create failed`);
        expect(error.message).toContain("moduleVersion '1.1.0'");
        expect(error.message).toContain("('1.0.0')");
        expect(await nameStatus(server(), inputs.name as string)).toBe(404);
    });

    it("reports the service's refusal of a value outside the options with its message, never quoting a sensitive value, and creates nothing", async () => {
        const inputs = await checked(program({ vars: [{ ...region("mars-north-1"), sensitive: true }] }));
        const error = await rejection(noCodeWorkspace.create(inputs));
        expect(error.message).toMatch(/create failed.*422/);
        // Named as the program wrote it, not as the wire format's pointer.
        expect(error.message).toMatch(/: vars\[0\]\.value: Value of 'region' must be one of the allowed values/);
        expect(error.message).not.toContain("mars-north-1");
        expect(error.message).not.toContain(TOKEN);
        expect(await nameStatus(server(), inputs.name as string)).toBe(404);
    });

    it("reports a missing required var and a var the module does not declare, and creates nothing", async () => {
        const inputs = await checked(program({ vars: [{ key: "colour", value: "red", category: "infra" }] }));
        const error = await rejection(noCodeWorkspace.create(inputs));
        expect(error.message).toMatch(/422/);
        expect(error.message).toMatch(/region/);
        expect(error.message).toMatch(/: vars\[0\]\.key: Key 'colour' is not a variable of the module's version 1\.0\.0/);
        expect(error.message).toMatch(/; vars: Required variables of the module's version 1\.0\.0 must be given as infra vars: region/);
        expect(await nameStatus(server(), inputs.name as string)).toBe(404);
    });

    it("reports a name already taken and leaves the other workspace alone", async () => {
        const error = await rejection(noCodeWorkspace.create(await checked(program({ name: "legacy-app" }))));
        expect(error.message).toMatch(/create failed.*already been taken/);
        const legacy = await rawWorkspace(server(), "ws-apps000000000001");
        expect(legacy.attributes.source).toBe("tfe-api");
    });

    it("reads drift made outside Pulumi: settings and managed vars; a sensitive value stays as state has it; other variables are not its own", async () => {
        const inputs = await checked(program({ description: "before", vars: [region("eu-west-1"), secret] }));
        const created = await noCodeWorkspace.create(inputs);
        const patched = await server().request("PATCH", `/workspaces/${created.id}`, {
            token: TOKEN,
            body: { data: { type: "workspaces", attributes: { description: "after", "auto-apply": true } } },
        });
        expect(patched.status).toBe(200);
        const vars = await rawVars(server(), inputs.name as string);
        const edited = await server().request("PATCH", `/vars/${vars["infra/region"].id}`, {
            token: TOKEN,
            body: { data: { type: "vars", id: vars["infra/region"].id, attributes: { value: "us-east-1", description: "edited" } } },
        });
        expect(edited.status).toBe(200);
        const rotated = await server().request("PATCH", `/vars/${vars["env/API_KEY"].id}`, {
            token: TOKEN,
            body: { data: { type: "vars", id: vars["env/API_KEY"].id, attributes: { value: "rotated-elsewhere" } } },
        });
        expect(rotated.status).toBe(200);
        const other = await server().request("POST", "/vars", {
            token: TOKEN,
            body: {
                data: {
                    type: "vars",
                    attributes: { key: "OTHER", value: "x", category: "env" },
                    relationships: { workspace: { data: { type: "workspaces", id: created.id } } },
                },
            },
        });
        expect(other.status).toBe(201);

        const read = await noCodeWorkspace.read(created.id, created.outs);
        expect(read.props).toEqual({
            ...created.outs,
            description: "after",
            autoApply: true,
            vars: [
                { key: "region", value: "us-east-1", description: "edited", category: "infra", hcl: false, sensitive: false },
                { key: "API_KEY", category: "env", hcl: false, sensitive: true },
            ],
        });
        // The value the service never shows again: the one state kept, apart.
        expect(read.props!.sensitiveValues).toEqual({ "env:API_KEY": "s3cret-value" });
        expect((await noCodeWorkspace.diff(created.id, read.props!, inputs)).changes).toBe(true);
    });

    it("reads a var deleted outside Pulumi as missing, so the next up puts it back", async () => {
        const inputs = await checked(program({ vars: [region("eu-west-1"), { key: "FOO", value: "1", category: "env" }] }));
        const created = await noCodeWorkspace.create(inputs);
        const vars = await rawVars(server(), inputs.name as string);
        expect((await server().request("DELETE", `/vars/${vars["env/FOO"].id}`, { token: TOKEN })).status).toBe(204);
        const read = await noCodeWorkspace.read(created.id, created.outs);
        expect(read.props!.vars).toEqual([{ key: "region", value: "eu-west-1", category: "infra", hcl: false, sensitive: false }]);
        expect((await noCodeWorkspace.diff(created.id, read.props!, inputs)).changes).toBe(true);
    });

    it("reads a workspace by its id alone (an import): its module through the registry module, every var", async () => {
        const inputs = await checked(program({ vars: [region("us-east-1"), secret] }));
        const created = await noCodeWorkspace.create(inputs);
        const read = await noCodeWorkspace.read(created.id, {});
        expect(read.props).toEqual({
            noCodeModuleId: MODULE,
            projectId: APPS,
            name: inputs.name,
            autoApply: false,
            executionMode: "remote",
            // A sensitive value cannot be read back; an import has no earlier value to keep.
            vars: [region("us-east-1"), { key: secret.key, category: secret.category, sensitive: true }].map((v) => ({ hcl: false, sensitive: false, ...v })),
            sensitiveValues: { "env:API_KEY": "" },
            moduleVersion: "1.0.0",
            noCodeUpgradeAvailable: false,
        });
    });

    it("reads a workspace deleted outside Pulumi as gone, and deleting it then succeeds", async () => {
        const created = await noCodeWorkspace.create(await checked(program()));
        expect((await server().request("DELETE", `/workspaces/${created.id}`, { token: TOKEN })).status).toBe(204);
        expect(await noCodeWorkspace.read(created.id, created.outs)).toEqual({});
        await expect(noCodeWorkspace.delete(created.id, created.outs)).resolves.toBeUndefined();
    });

    it("deletes the workspace, and deleting it again succeeds", async () => {
        const created = await noCodeWorkspace.create(await checked(program()));
        await noCodeWorkspace.delete(created.id, created.outs);
        expect(await rawWorkspace(server(), created.id)).toBeUndefined();
        await expect(noCodeWorkspace.delete(created.id, created.outs)).resolves.toBeUndefined();
    });
});

describe("update", () => {
    it("upgrades by vars: plans, logs each status with the plan URL, confirms, and keeps the sensitive value secret from logs", async () => {
        const inputs = await checked(program({ vars: [region("eu-west-1"), secret] }));
        const created = await noCodeWorkspace.create(inputs);
        const news = await checked({ ...inputs, vars: [secret, region("us-east-1")] });
        expect((await noCodeWorkspace.diff(created.id, created.outs, news)).changes).toBe(true);
        const updated = await noCodeWorkspace.update(created.id, created.outs, news);
        const run = updated.outs!.lastUpgrade;
        expect(run).toEqual({ id: expect.stringMatching(/^run-/), status: "applied", planUrl: expect.stringMatching(/^http.*run-/) });
        expect(run.planUrl).toContain(run.id);
        expect(updated.outs).toEqual({
            ...created.outs,
            vars: [
                { key: "API_KEY", category: "env", hcl: false, sensitive: true },
                { key: "region", value: "us-east-1", category: "infra", hcl: false, sensitive: false },
            ],
            sensitiveValues: { "env:API_KEY": "s3cret-value" },
            lastUpgrade: run,
        });
        expect((await rawVars(server(), inputs.name as string))["infra/region"].value).toBe("us-east-1");
        expect((await rawUpgradeRun(server(), MODULE, created.id, run.id)).attributes.status).toBe("applied");

        expect(logLines.some((line) => line.includes("pending") && line.includes(run.planUrl))).toBe(true);
        expect(logLines.some((line) => line.includes("planned") && line.includes(run.planUrl))).toBe(true);
        expect(logLines.some((line) => /confirmed and applied/.test(line))).toBe(true);
        expect(logLines.every((line) => line.startsWith(`wos:NoCodeWorkspace '${inputs.name}' (${created.id})`))).toBe(true);
        expect(logLines.join("\n")).not.toContain("s3cret");
        expect(logLines.join("\n")).not.toContain(TOKEN);

        expect((await noCodeWorkspace.diff(created.id, updated.outs!, news)).changes).toBe(false);
        expect((await noCodeWorkspace.read(created.id, updated.outs)).props).toEqual(updated.outs);
    });

    it("confirms nothing when the plan has nothing to change (planned_and_finished)", async () => {
        const inputs = await checked(program());
        const created = await noCodeWorkspace.create(inputs);
        // Someone already set the value the program now asks for.
        const vars = await rawVars(server(), inputs.name as string);
        await server().request("PATCH", `/vars/${vars["infra/region"].id}`, {
            token: TOKEN,
            body: { data: { type: "vars", id: vars["infra/region"].id, attributes: { value: "us-east-1" } } },
        });
        const news = await checked({ ...inputs, vars: [region("us-east-1")] });
        const updated = await noCodeWorkspace.update(created.id, created.outs, news);
        expect(updated.outs!.lastUpgrade.status).toBe("planned_and_finished");
        expect((await rawUpgradeRun(server(), MODULE, created.id, updated.outs!.lastUpgrade.id)).attributes.status).toBe("planned_and_finished");
        expect(logLines.some((line) => /nothing to apply/.test(line))).toBe(true);
        expect(logLines.some((line) => /confirmed/.test(line))).toBe(false);
        expect(updated.outs!.vars).toEqual([{ key: "region", value: "us-east-1", category: "infra", hcl: false, sensitive: false }]);
    });

    it("fails on a failed plan with its status and plan URL, leaving the service and the state's vars as they were; the next up tries again", async () => {
        const inputs = await checked(program({ vars: [region("eu-west-1"), secret] }));
        const created = await noCodeWorkspace.create(inputs);
        await server().addFault({ method: "POST", path: `^/api/v2/no-code-modules/${MODULE}/workspaces/${created.id}/upgrade$`, planOutcome: "errored" });
        const news = await checked({ ...inputs, vars: [region("us-east-1"), { ...secret, value: "s3cret-rotated" }] });
        const error = (await rejection(noCodeWorkspace.update(created.id, created.outs, news))) as Error & { id?: string };
        expect(error.message).toContain(`wos:NoCodeWorkspace '${inputs.name}' (${created.id}) of no-code module ${MODULE}: update (upgrade) failed`);
        expect(error.message).toMatch(/ended 'errored' \(plan: http[^)]*run-/);
        expect(error.message).not.toContain("s3cret");
        // Nothing changed before the upgrade: no partial result, so the engine keeps the old state as it is.
        expect(error.id).toBeUndefined();
        const vars = await rawVars(server(), inputs.name as string);
        expect(vars["infra/region"].value).toBe("eu-west-1");
        const runId = /run-[A-Za-z0-9]+/.exec(error.message)![0];
        expect((await rawUpgradeRun(server(), MODULE, created.id, runId)).attributes.status).toBe("errored");
        expect(logLines.some((line) => line.includes("errored"))).toBe(true);

        // The next `up` compares the same old state with the program and upgrades again.
        expect((await noCodeWorkspace.diff(created.id, created.outs, news)).changes).toBe(true);
        const retried = await noCodeWorkspace.update(created.id, created.outs, news);
        expect(retried.outs!.lastUpgrade.status).toBe("applied");
        expect((await rawVars(server(), inputs.name as string))["infra/region"].value).toBe("us-east-1");
    });

    it("in a rollout wave: a failed plan's message names the wave and says the later waves are not attempted; the wave alone is no change", async () => {
        const inputs = await checked(program({ vars: [region("eu-west-1")], rolloutWave: "1 of 3" }));
        const created = await noCodeWorkspace.create(inputs);
        expect(created.outs!.rolloutWave).toBe("1 of 3");
        // Another wave alone (the program's waves rearranged): nothing to do on the service.
        expect((await noCodeWorkspace.diff(created.id, created.outs, await checked({ ...inputs, rolloutWave: "2 of 4" }))).changes).toBe(false);
        await server().addFault({ method: "POST", path: `/workspaces/${created.id}/upgrade$`, planOutcome: "errored" });
        const news = await checked({ ...inputs, vars: [region("us-east-1")] });
        const error = (await rejection(noCodeWorkspace.update(created.id, created.outs, news))) as Error;
        expect(error.message).toContain(`wos:NoCodeWorkspace '${inputs.name}' (${created.id}) of no-code module ${MODULE}: update (upgrade, rollout wave 1 of 3) failed`);
        expect(error.message).toMatch(/ended 'errored' \(plan: http[^)]*run-[^)]*\)\. The rollout stops at wave 1 of 3: the workspaces of later waves are not attempted/);
        expect((await rawVars(server(), inputs.name as string))["infra/region"].value).toBe("eu-west-1");
    });

    it("refuses a rollout wave that is not a string of at most 100 characters, naming the property", async () => {
        const failures = async (rolloutWave: unknown) => (await noCodeWorkspace.check({}, program({ rolloutWave }))).failures ?? [];
        expect(await failures("w".repeat(100))).toEqual([]);
        expect(await failures("w".repeat(101))).toEqual([{ property: "rolloutWave", reason: expect.stringContaining("at most 100 characters") }]);
        expect(await failures(3)).toEqual([{ property: "rolloutWave", reason: expect.stringContaining("must be a string") }]);
    });

    it("reports a rename done before a failed plan as a partial success: new name, old vars, the failed run", async () => {
        const inputs = await checked(program());
        const created = await noCodeWorkspace.create({ ...inputs, __provider: "serialized" });
        await server().addFault({ method: "POST", path: `/workspaces/${created.id}/upgrade$`, planOutcome: "errored" });
        const newName = uniqueWorkspaceName("renamed");
        const news = await checked({ ...inputs, name: newName, vars: [region("us-east-1")], __provider: "serialized" });
        const error = (await rejection(noCodeWorkspace.update(created.id, created.outs, news))) as Error & {
            id?: string;
            properties?: Outputs;
        };
        expect(error.id).toBe(created.id);
        expect(error.properties).toEqual({
            ...created.outs,
            name: newName,
            lastUpgrade: { id: expect.stringMatching(/^run-/), status: "errored", planUrl: expect.stringMatching(/^http/) },
            __provider: "serialized",
        });
        expect((await rawWorkspace(server(), created.id)).attributes.name).toBe(newName);
        expect((await rawVars(server(), newName))["infra/region"].value).toBe("eu-west-1");
        // The next `up` retries only the upgrade.
        expect((await noCodeWorkspace.diff(created.id, error.properties!, news)).changes).toBe(true);
        const retried = await noCodeWorkspace.update(created.id, error.properties!, news);
        expect(retried.outs).toMatchObject({ name: newName, lastUpgrade: { status: "applied" } });
        expect((await rawVars(server(), newName))["infra/region"].value).toBe("us-east-1");
    });

    it("moves the workspace to another project in place, without an upgrade", async () => {
        const inputs = await checked(program());
        const created = await noCodeWorkspace.create(inputs);
        const news = await checked({ ...inputs, projectId: STAGING });
        const updated = await noCodeWorkspace.update(created.id, created.outs, news);
        expect(updated.outs).toEqual({ ...created.outs, projectId: STAGING });
        expect((await rawWorkspace(server(), created.id)).relationships.project.data.id).toBe(STAGING);
        expect(logLines).toEqual([]);
    });

    it("moves first, then upgrades, when both change in one update", async () => {
        const inputs = await checked(program());
        const created = await noCodeWorkspace.create(inputs);
        const news = await checked({ ...inputs, projectId: STAGING, vars: [region("us-east-1")] });
        const updated = await noCodeWorkspace.update(created.id, created.outs, news);
        expect(updated.outs).toMatchObject({ projectId: STAGING, lastUpgrade: { status: "applied" } });
        expect((await rawWorkspace(server(), created.id)).relationships.project.data.id).toBe(STAGING);
        expect((await rawVars(server(), inputs.name as string))["infra/region"].value).toBe("us-east-1");
    });

    it("renames and changes settings in place: same workspace, no upgrade", async () => {
        const inputs = await checked(program({ description: "old" }));
        const created = await noCodeWorkspace.create(inputs);
        const newName = uniqueWorkspaceName("renamed");
        const news = await checked({
            ...inputs,
            name: newName,
            description: undefined,
            autoApply: true,
            executionMode: "agent",
            agentPoolId: AGENT_POOL,
            sourceName: "portal",
            sourceUrl: "https://portal.example.com",
        });
        const updated = await noCodeWorkspace.update(created.id, created.outs, news);
        expect(updated.outs).toEqual({
            ...created.outs,
            name: newName,
            description: undefined,
            autoApply: true,
            executionMode: "agent",
            agentPoolId: AGENT_POOL,
            sourceName: "portal",
            sourceUrl: "https://portal.example.com",
        });
        const raw = await rawWorkspace(server(), created.id);
        expect(raw.attributes).toMatchObject({ name: newName, "auto-apply": true, "execution-mode": "agent", "source-name": "portal" });
        expect(raw.attributes.description ?? "").toBe("");
        expect(await nameStatus(server(), inputs.name as string)).toBe(404);
        expect(logLines).toEqual([]);
        expect((await noCodeWorkspace.diff(created.id, updated.outs!, news)).changes).toBe(false);

        // And back to remote: the agent pool goes with it.
        const remote = await checked({ ...news, executionMode: undefined, agentPoolId: undefined });
        const back = await noCodeWorkspace.update(created.id, updated.outs!, remote);
        expect(back.outs).toMatchObject({ executionMode: "remote" });
        expect(back.outs!.agentPoolId).toBeUndefined();
    });

    it("deletes a var removed from the program without an upgrade, and leaves variables it does not manage alone", async () => {
        const inputs = await checked(program({ vars: [region("eu-west-1"), { key: "size", value: "2", category: "infra" }, { key: "FOO", value: "1", category: "env" }] }));
        const created = await noCodeWorkspace.create(inputs);
        const theirs = await server().request("POST", "/vars", {
            token: TOKEN,
            body: {
                data: {
                    type: "vars",
                    attributes: { key: "THEIRS", value: "kept", category: "env" },
                    relationships: { workspace: { data: { type: "workspaces", id: created.id } } },
                },
            },
        });
        expect(theirs.status).toBe(201);
        const news = await checked({ ...inputs, vars: [region("eu-west-1")] });
        expect((await noCodeWorkspace.diff(created.id, created.outs, news)).changes).toBe(true);
        const updated = await noCodeWorkspace.update(created.id, created.outs, news);
        expect(updated.outs!.vars).toEqual([{ key: "region", value: "eu-west-1", category: "infra", hcl: false, sensitive: false }]);
        expect(updated.outs!.lastUpgrade).toBeUndefined();
        expect(Object.keys(await rawVars(server(), inputs.name as string)).sort()).toEqual(["env/THEIRS", "infra/region"]);
        expect(logLines).toEqual([]);
    });

    it("upgrades and then deletes a removed var when both change in one update, leaving other variables alone", async () => {
        const inputs = await checked(program({ vars: [region("eu-west-1"), { key: "FOO", value: "1", category: "env" }] }));
        const created = await noCodeWorkspace.create(inputs);
        await server().request("POST", "/vars", {
            token: TOKEN,
            body: {
                data: {
                    type: "vars",
                    attributes: { key: "THEIRS", value: "kept", category: "env" },
                    relationships: { workspace: { data: { type: "workspaces", id: created.id } } },
                },
            },
        });
        const news = await checked({ ...inputs, vars: [region("us-east-1"), { key: "BAR", value: "2", category: "env" }] });
        const updated = await noCodeWorkspace.update(created.id, created.outs, news);
        expect(updated.outs!.lastUpgrade.status).toBe("applied");
        const vars = await rawVars(server(), inputs.name as string);
        expect(Object.keys(vars).sort()).toEqual(["env/BAR", "env/THEIRS", "infra/region"]);
        expect(vars["infra/region"].value).toBe("us-east-1");
        expect(vars["env/THEIRS"].value).toBe("kept");
        expect((await noCodeWorkspace.read(created.id, updated.outs)).props).toEqual(updated.outs);
    });

    it("refuses a moduleVersion the module does not pin, naming both versions, before the rename in the same update", async () => {
        const inputs = await checked(program({ moduleVersion: "1.0.0" }));
        const created = await noCodeWorkspace.create(inputs);
        const news = await checked({ ...inputs, name: uniqueWorkspaceName("never"), moduleVersion: "1.1.0" });
        const error = (await rejection(noCodeWorkspace.update(created.id, created.outs, news))) as Error & { id?: string };
        expect(error.message).toContain("moduleVersion '1.1.0'");
        expect(error.message).toContain("('1.0.0')");
        expect(error.id).toBeUndefined();
        expect((await rawWorkspace(server(), created.id)).attributes.name).toBe(inputs.name);
        expect(logLines).toEqual([]);
    });

    it("reports a refused rename with the service's message and changes nothing", async () => {
        const inputs = await checked(program());
        const created = await noCodeWorkspace.create(inputs);
        const error = (await rejection(noCodeWorkspace.update(created.id, created.outs, { ...inputs, name: "legacy-app" }))) as Error & { id?: string };
        expect(error.message).toMatch(/update failed.*already been taken/);
        expect(error.id).toBeUndefined();
        expect((await rawWorkspace(server(), created.id)).attributes.name).toBe(inputs.name);
    });
});

describe("a create whose answer is lost", () => {
    const createPath = () => `^/api/v2/no-code-modules/${MODULE}/workspaces$`;

    it.each([
        ["a 503 after the commit", { status: 503 }],
        ["a dropped connection after the commit", { reset: true }],
    ])("recovers the workspace the service made on %s, by its unique name: one workspace, its id in state", async (_what, fault) => {
        await server().addFault({ method: "POST", path: createPath(), times: 1, afterCommit: true, ...fault });
        const inputs = await checked(program({ description: "kept", vars: [region("us-east-1"), secret] }));
        const created = await noCodeWorkspace.create(inputs);
        const found = await server().request("GET", `/organizations/acme/workspaces/${inputs.name}`, { token: TOKEN });
        expect(found.status).toBe(200);
        expect(created.id).toBe(found.body.data.id);
        expect(created.outs).toMatchObject({ name: inputs.name, description: "kept", moduleVersion: "1.0.0" });
        expect(created.outs.vars).toEqual([
            { key: "region", value: "us-east-1", category: "infra", hcl: false, sensitive: false },
            { key: "API_KEY", category: "env", hcl: false, sensitive: true },
        ]);
        expect(created.outs.sensitiveValues).toEqual({ "env:API_KEY": "s3cret-value" });
        expect(Object.keys(await rawVars(server(), inputs.name as string)).sort()).toEqual(["env/API_KEY", "infra/region"]);
    });

    it("keeps a workspace it found but could not finish as a partial success carrying the serialized provider", async () => {
        await server().addFault({ method: "POST", path: createPath(), times: 1, status: 503, afterCommit: true });
        await server().addFault({ method: "PATCH", path: "^/api/v2/workspaces/ws-[^/]+$", times: 1, status: 422 });
        const inputs = await checked({ ...program({ autoApply: true }), __provider: "serialized" });
        const error = (await rejection(noCodeWorkspace.create(inputs))) as Error & { id?: string; properties?: Outputs };
        const found = await server().request("GET", `/organizations/acme/workspaces/${inputs.name}`, { token: TOKEN });
        expect(error.message).toMatch(/create \(finishing the workspace found after a lost answer\) failed/);
        expect(error.id).toBe(found.body.data.id);
        expect(error.properties).toMatchObject({ name: inputs.name, vars: [{ key: "region", value: "eu-west-1" }], __provider: "serialized" });
    });

    it.each([
        ["a 503 before the commit", { status: 503 }],
        ["a dropped connection before the commit", { reset: true }],
    ])("never takes over a workspace that held the name before the create (%s)", async (_what, fault) => {
        const name = uniqueWorkspaceName("theirs");
        const theirs = await server().request("POST", `/no-code-modules/${MODULE}/workspaces`, {
            token: TOKEN,
            body: {
                data: {
                    type: "workspaces",
                    attributes: { name, description: "someone else's" },
                    relationships: {
                        project: { data: { type: "project", id: APPS } },
                        vars: { data: [{ type: "vars", attributes: { key: "region", value: "us-east-1", category: "infra" } }] },
                    },
                },
            },
        });
        expect(theirs.status).toBe(200);
        await server().addFault({ method: "POST", path: createPath(), times: 1, ...fault });
        const error = await rejection(noCodeWorkspace.create(await checked(program({ name }))));
        expect(error.message).toMatch(/create failed/);
        expect(error.message).toMatch(/existed before this create, so it is left alone/);
        expect((error as { id?: string }).id).toBeUndefined();
        expect((await rawWorkspace(server(), theirs.body.data.id)).attributes.description).toBe("someone else's");
        expect((await rawVars(server(), name))["infra/region"].value).toBe("us-east-1");
    });

    it("fails, without inventing a workspace, when the service failed before committing", async () => {
        await server().addFault({ method: "POST", path: createPath(), times: 1, status: 503 });
        const inputs = await checked(program());
        const error = await rejection(noCodeWorkspace.create(inputs));
        expect(error.message).toMatch(/create failed.*503/);
        expect(await nameStatus(server(), inputs.name as string)).toBe(404);
    });
});

describe("an upgrade by module version, where the organization has cost estimation", () => {
    let INITECH_MODULE = "";
    let INFRA = "";
    beforeAll(async () => {
        INITECH_MODULE = await enableModule(server(), {
            organization: "initech",
            token: TOKENS.initechOwners,
            registryModuleId: REGISTRY_MODULES.initechBucket,
            versionPin: "1.0.0",
        });
        INFRA = await projectId(server(), "initech", "Infra", TOKENS.initechOwners);
    });
    beforeEach(async () => {
        await configureFor(server(), TOKENS.initechOwners);
    });

    /** Raises the module's pin over raw HTTP, which makes a new no-code version. */
    async function pinModule(version: string): Promise<void> {
        const response = await server().request("PATCH", `/no-code-modules/${INITECH_MODULE}`, {
            token: TOKENS.initechOwners,
            body: { data: { type: "no-code-modules", attributes: { "version-pin": version } } },
        });
        expect(response.status).toBe(200);
    }

    it("reads noCodeUpgradeAvailable, upgrades to the new pin (confirming in cost_estimated), and reads the new version", async () => {
        const inputs = await checked({
            noCodeModuleId: INITECH_MODULE,
            projectId: INFRA,
            name: uniqueWorkspaceName("initech"),
            vars: [region("eu-west-1")],
            moduleVersion: "1.0.0",
        });
        const created = await noCodeWorkspace.create(inputs);
        expect(created.outs).toMatchObject({ moduleVersion: "1.0.0", noCodeUpgradeAvailable: false });
        await pinModule("1.1.0");
        try {
            const refreshed = await noCodeWorkspace.read(created.id, created.outs);
            // The workspace still runs 1.0.0; a newer no-code version exists.
            expect(refreshed.props).toEqual({ ...created.outs, moduleVersion: "1.0.0", noCodeUpgradeAvailable: true });

            // A first poll after the plan has had time to reach cost_estimated, so that the confirm happens there.
            process.env.WOS_UPGRADE_POLL_MS = "300";
            const news = await checked({ ...inputs, moduleVersion: "1.1.0" });
            expect((await noCodeWorkspace.diff(created.id, refreshed.props!, news)).changes).toBe(true);
            const updated = await noCodeWorkspace.update(created.id, refreshed.props!, news);
            expect(updated.outs).toMatchObject({ moduleVersion: "1.1.0", noCodeUpgradeAvailable: false, lastUpgrade: { status: "applied" } });
            expect(logLines.some((line) => line.includes("cost_estimated"))).toBe(true);
            const raw = await rawWorkspace(server(), created.id, TOKENS.initechOwners);
            expect(raw.attributes["no-code-upgrade-available"]).toBe(false);
            expect((await noCodeWorkspace.read(created.id, updated.outs)).props).toEqual(updated.outs);
            expect((await noCodeWorkspace.diff(created.id, updated.outs!, news)).changes).toBe(false);

            // Asking for a version the module does not pin fails, naming both, before anything changes.
            const wrong = await checked({ ...inputs, moduleVersion: "1.0.0", vars: [region("us-east-1")] });
            const error = await rejection(noCodeWorkspace.update(created.id, updated.outs!, wrong));
            expect(error.message).toContain("moduleVersion '1.0.0'");
            expect(error.message).toContain("('1.1.0')");
            expect((await rawVars(server(), inputs.name as string, "initech", TOKENS.initechOwners))["infra/region"].value).toBe("eu-west-1");
        } finally {
            process.env.WOS_UPGRADE_POLL_MS = "10";
            await pinModule("1.0.0");
        }
    });

    it("keeps the state's module version when the module is deleted, and reads no upgrade as available", async () => {
        const inputs = await checked({ noCodeModuleId: INITECH_MODULE, projectId: INFRA, name: uniqueWorkspaceName("orphan"), vars: [region("eu-west-1")] });
        const created = await noCodeWorkspace.create(inputs);
        expect((await server().request("DELETE", `/no-code-modules/${INITECH_MODULE}`, { token: TOKENS.initechOwners })).status).toBe(204);
        const read = await noCodeWorkspace.read(created.id, created.outs);
        expect(read.props).toEqual({ ...created.outs, noCodeUpgradeAvailable: false });
        await noCodeWorkspace.delete(created.id, created.outs);
        expect(await rawWorkspace(server(), created.id, TOKENS.initechOwners)).toBeUndefined();
    });
});

describe("an earlier upgrade still unfinished", () => {
    // Plans take 3 steps of 300 ms here: long enough for an update to find someone else's plan unfinished.
    const slow = useServer({ planStepMs: 300 });
    let SLOW_MODULE = "";
    beforeAll(async () => {
        SLOW_MODULE = await enableModule(slow(), { organization: "acme", token: TOKEN, registryModuleId: REGISTRY_MODULES.bucket, versionPin: "1.0.0" });
    });

    it("waits for it to end without confirming it, then runs and confirms its own upgrade", async () => {
        const inputs = await checked({ noCodeModuleId: SLOW_MODULE, projectId: (await projectsNamed(slow(), "Apps"))[0].id, name: uniqueWorkspaceName(), vars: [region("eu-west-1")] });
        const created = await noCodeWorkspace.create(inputs);
        const theirs = await rawInitiateUpgrade(slow(), SLOW_MODULE, created.id, [{ key: "region", value: "ap-south-1", category: "infra" }]);
        expect(theirs.attributes.status).toBe("pending");
        const news = await checked({ ...inputs, vars: [region("us-east-1")] });
        const updated = await noCodeWorkspace.update(created.id, created.outs, news);
        expect(updated.outs!.lastUpgrade).toMatchObject({ status: "applied" });
        expect(updated.outs!.lastUpgrade.id).not.toBe(theirs.id);
        expect(logLines.some((line) => line.includes(`earlier upgrade (${theirs.id})`) && /not be confirmed/.test(line))).toBe(true);
        // Theirs ended planned and was discarded when this one started; only this update's values were applied.
        expect((await rawUpgradeRun(slow(), SLOW_MODULE, created.id, theirs.id)).attributes.status).toBe("discarded");
        expect((await rawVars(slow(), inputs.name as string))["infra/region"].value).toBe("us-east-1");
    });
});

describe("an upgrade that does not finish in time", () => {
    // Plans never finish during the test here.
    const stuck = useServer({ planStepMs: 3_600_000 });
    let STUCK_MODULE = "";
    beforeAll(async () => {
        STUCK_MODULE = await enableModule(stuck(), { organization: "acme", token: TOKEN, registryModuleId: REGISTRY_MODULES.bucket, versionPin: "1.0.0" });
    });

    it("fails at the deadline with the last status and the plan URL, confirms nothing, and a later update never confirms that plan", async () => {
        const inputs = await checked({
            noCodeModuleId: STUCK_MODULE,
            projectId: (await projectsNamed(stuck(), "Apps"))[0].id,
            name: uniqueWorkspaceName(),
            vars: [region("eu-west-1")],
            upgradeTimeoutSeconds: 0.2,
        });
        const created = await noCodeWorkspace.create(inputs);
        const news = await checked({ ...inputs, vars: [region("us-east-1")] });
        const error = (await rejection(noCodeWorkspace.update(created.id, created.outs, news))) as Error & { id?: string };
        expect(error.message).toMatch(/did not finish within upgradeTimeoutSeconds \(0\.2 s\); last status 'pending' \(plan: http[^)]*run-/);
        expect(error.id).toBeUndefined();
        const runId = /run-[A-Za-z0-9]+/.exec(error.message)![0];
        expect((await rawUpgradeRun(stuck(), STUCK_MODULE, created.id, runId)).attributes.status).toBe("pending");
        expect((await rawVars(stuck(), inputs.name as string))["infra/region"].value).toBe("eu-west-1");

        // The next `up` finds that plan still unfinished: it waits for it until its own deadline, never confirms
        // it, and does not start another.
        const again = await rejection(noCodeWorkspace.update(created.id, created.outs, news));
        expect(again.message).toContain(`an earlier upgrade (${runId}) of the workspace was still unfinished at the deadline`);
        expect(again.message).toMatch(/this upgrade did not start/);
        expect((await rawUpgradeRun(stuck(), STUCK_MODULE, created.id, runId)).attributes.status).toBe("pending");
        expect((await rawVars(stuck(), inputs.name as string))["infra/region"].value).toBe("eu-west-1");
    });
});

describe("planInPreview (the plugin's planUpgradesInPreview: the upgrade's plan, never confirmed)", () => {
    /** Makes every upgrade of the workspace refused (403): a call that starts one fails, one that starts none does not. */
    async function refuseUpgrades(workspaceId: string): Promise<void> {
        await server().addFault({ method: "POST", path: `/workspaces/${workspaceId}/upgrade$`, status: 403 });
    }

    it("plans a change of vars, waits until it has finished planning, logs its status and URL, and confirms nothing", async () => {
        const inputs = await checked(program());
        const created = await noCodeWorkspace.create(inputs);
        const news = await checked({ ...inputs, vars: [region("us-east-1")] });
        const planned = await noCodeWorkspace.planInPreview(created.id, created.outs!, news);
        expect(planned).toEqual({ id: expect.stringMatching(/^run-/), status: "planned", planUrl: expect.stringMatching(/^http.*run-/) });
        const run = await rawUpgradeRun(server(), MODULE, created.id, planned!.id);
        // Left unconfirmed: the service still waits for a confirm, and the workspace keeps its vars.
        expect(run.attributes.status).toBe("planned");
        expect((await rawVars(server(), inputs.name as string))["infra/region"].value).toBe("eu-west-1");
        expect(logLines.some((line) => line.includes(planned!.planUrl) && line.includes("planned"))).toBe(true);
        expect(logLines.at(-1)).toContain(`upgrade plan ${planned!.id}: planned, not confirmed: the preview applies nothing`);
        expect(logLines.some((line) => /(?<!not )confirmed/.test(line))).toBe(false);
    });

    it("starts nothing when the update would not upgrade (a rename alone)", async () => {
        const inputs = await checked(program());
        const created = await noCodeWorkspace.create(inputs);
        await refuseUpgrades(created.id);
        const before = logLines.length;
        expect(await noCodeWorkspace.planInPreview(created.id, created.outs!, await checked({ ...inputs, description: "renamed only" }))).toBeUndefined();
        expect(logLines.length).toBe(before);
    });

    it("starts nothing, and says why, when a var, the version or the module is not known until the update", async () => {
        const inputs = await checked(program());
        const created = await noCodeWorkspace.create(inputs);
        await refuseUpgrades(created.id);
        for (const unknown of [{ vars: [{ key: "region", value: UNKNOWN, category: "infra" }] }, { moduleVersion: UNKNOWN }, { vars: UNKNOWN }]) {
            logLines.length = 0;
            expect(await noCodeWorkspace.planInPreview(created.id, created.outs!, { ...inputs, ...unknown })).toBeUndefined();
            expect(logLines).toEqual([expect.stringContaining("no upgrade plan in this preview: its vars or version are known only during the update")]);
        }
    });

    it("starts nothing, and says why, when moduleVersion is not yet the module's pin (the service plans towards the pin)", async () => {
        const inputs = await checked(program());
        const created = await noCodeWorkspace.create(inputs);
        await refuseUpgrades(created.id);
        expect(await noCodeWorkspace.planInPreview(created.id, created.outs!, await checked({ ...inputs, moduleVersion: "1.1.0" }))).toBeUndefined();
        expect(logLines).toEqual([
            expect.stringContaining(`no upgrade plan in this preview: moduleVersion '1.1.0' is not yet the version no-code module ${MODULE} pins ('1.0.0')`),
        ]);
        expect(logLines[0]).toContain("raise it first with `pulumi up --target` on the module to see the plan in a preview");
    });

    it("plans a change of vars that gives moduleVersion as the module's pin", async () => {
        const inputs = await checked(program({ moduleVersion: "1.0.0" }));
        const created = await noCodeWorkspace.create(inputs);
        const planned = await noCodeWorkspace.planInPreview(created.id, created.outs!, await checked({ ...inputs, vars: [region("us-east-1")] }));
        expect((await rawUpgradeRun(server(), MODULE, created.id, planned!.id)).attributes.status).toBe("planned");
    });

    it("fails when the module cannot be read, naming the preview's step", async () => {
        const inputs = await checked(program());
        const created = await noCodeWorkspace.create(inputs);
        await server().addFault({ method: "GET", path: `^/api/v2/no-code-modules/${MODULE}$`, status: 403, times: 1 });
        const error = await rejection(noCodeWorkspace.planInPreview(created.id, created.outs!, await checked({ ...inputs, vars: [region("us-east-1")] })));
        expect(error.message).toContain(`of no-code module ${MODULE}: preview (upgrade plan) (reading no-code module ${MODULE}) failed: GET /no-code-modules/${MODULE} failed with status 403`);
    });

    it("fails on a plan that errors with its status and plan URL, naming the rollout wave, and leaves the vars as they were", async () => {
        const inputs = await checked(program({ rolloutWave: "1 of 2" }));
        const created = await noCodeWorkspace.create(inputs);
        await server().addFault({ method: "POST", path: `/workspaces/${created.id}/upgrade$`, planOutcome: "errored" });
        const news = await checked({ ...inputs, vars: [region("us-east-1")] });
        const error = await rejection(noCodeWorkspace.planInPreview(created.id, created.outs!, news));
        expect(error.message).toContain(`wos:NoCodeWorkspace '${inputs.name}' (${created.id}) of no-code module ${MODULE}: preview (upgrade plan, rollout wave 1 of 2) failed`);
        expect(error.message).toMatch(/ended 'errored' \(plan: http[^)]*run-/);
        expect((await rawVars(server(), inputs.name as string))["infra/region"].value).toBe("eu-west-1");
    });

    it("fails without a wave in its message when the workspace is in none", async () => {
        const inputs = await checked(program());
        const created = await noCodeWorkspace.create(inputs);
        await server().addFault({ method: "POST", path: `/workspaces/${created.id}/upgrade$`, planOutcome: "errored" });
        const error = await rejection(noCodeWorkspace.planInPreview(created.id, created.outs!, await checked({ ...inputs, vars: [region("us-east-1")] })));
        expect(error.message).toContain(`of no-code module ${MODULE}: preview (upgrade plan) failed`);
    });
});
