/**
 * The default organization of the resources: stack config `wos:organization` (through `configure`, as the
 * provider host passes it) else `WOS_ORGANIZATION`, used by `check` of `wos:Project`, `wos:NoCodeModule` and
 * `wos:Workspace` when the program leaves `organization` out. `check` writes it into the inputs, so state
 * holds the resolved organization and `diff` compares resolved values.
 */
import {
    clearConfiguredCredentials,
    configure,
    currentOrganization,
    MISSING_ORGANIZATION_REASON,
} from "../../provider/handlers/credentials";
import * as noCodeModule from "../../provider/handlers/noCodeModule";
import * as project from "../../provider/handlers/project";
import * as workspace from "../../provider/handlers/workspace";
import { REGISTRY_MODULES } from "../support/seed";
import { configureRequest, projectsNamed, TOKEN, UNKNOWN, uniqueName, useServer } from "./helpers";

const server = useServer();
const savedOrganization = process.env.WOS_ORGANIZATION;

/** Configures the handlers as the host does, with the test server's address and token and `extra` config. */
async function configureWith(extra: Record<string, string>): Promise<void> {
    clearConfiguredCredentials();
    await configure(configureRequest({ "wos:address": server().url, "wos:token": TOKEN, ...extra }));
}

beforeEach(() => {
    delete process.env.WOS_ORGANIZATION;
});
afterAll(() => {
    if (savedOrganization === undefined) delete process.env.WOS_ORGANIZATION;
    else process.env.WOS_ORGANIZATION = savedOrganization;
});

/** One resource kind: its handlers and inputs that are valid once an organization is added. */
const KINDS = [
    ["wos:Project", project, { name: "Default Org Project" }],
    ["wos:NoCodeModule", noCodeModule, { registryModuleId: REGISTRY_MODULES.bucket }],
    ["wos:Workspace", workspace, { name: "default-org-workspace" }],
] as const;

describe("where the default organization comes from", () => {
    it("is the stack config wos:organization, stored by configure", async () => {
        await configureWith({ "wos:organization": "acme" });
        expect(currentOrganization()).toBe("acme");
    });

    it("falls back to WOS_ORGANIZATION, and the stack config wins over it", async () => {
        process.env.WOS_ORGANIZATION = "from-env";
        await configureWith({});
        expect(currentOrganization()).toBe("from-env");
        await configureWith({ "wos:organization": "from-config" });
        expect(currentOrganization()).toBe("from-config");
    });

    it("is none when neither is set, or when they are blank; clearing the configuration forgets it", async () => {
        await configureWith({ "wos:organization": "  " });
        expect(currentOrganization()).toBeUndefined();
        process.env.WOS_ORGANIZATION = " ";
        expect(currentOrganization()).toBeUndefined();
        delete process.env.WOS_ORGANIZATION;
        await configureWith({ "wos:organization": "acme" });
        clearConfiguredCredentials();
        expect(currentOrganization()).toBeUndefined();
    });
});

describe.each(KINDS)("check of %s", (_kind, handlers, inputs) => {
    it("fills a missing organization in from the default, with no failure", async () => {
        await configureWith({ "wos:organization": "acme" });
        const result = await handlers.check({}, { ...inputs });
        expect(result.failures).toEqual([]);
        expect(result.inputs).toMatchObject({ ...inputs, organization: "acme" });
    });

    it("fills it in from WOS_ORGANIZATION when the stack config has none", async () => {
        process.env.WOS_ORGANIZATION = "acme";
        await configureWith({});
        const result = await handlers.check({}, { ...inputs });
        expect(result.failures).toEqual([]);
        expect(result.inputs.organization).toBe("acme");
    });

    it("keeps an organization the program gives, and one not known yet", async () => {
        await configureWith({ "wos:organization": "acme" });
        expect((await handlers.check({}, { ...inputs, organization: "globex" })).inputs.organization).toBe("globex");
        expect((await handlers.check({}, { ...inputs, organization: UNKNOWN })).inputs.organization).toBe(UNKNOWN);
    });

    it("without a default, fails naming organization, wos:organization and WOS_ORGANIZATION", async () => {
        await configureWith({});
        const result = await handlers.check({}, { ...inputs });
        expect(result.failures).toEqual([{ property: "organization", reason: MISSING_ORGANIZATION_REASON }]);
        expect(MISSING_ORGANIZATION_REASON).toMatch(/^organization is required.*wos:organization.*WOS_ORGANIZATION/);
        expect(result.inputs.organization).toBeUndefined();
    });

    it("diff compares the resolved organization: the default's own name is no change, another default replaces", async () => {
        await configureWith({ "wos:organization": "acme" });
        const state = { ...(await handlers.check({}, { ...inputs, organization: "acme" })).inputs };
        const same = (await handlers.check(state, { ...inputs })).inputs;
        expect((await handlers.diff("id-x", state, same)).replaces).toEqual([]);
        expect((await handlers.diff("id-x", state, same)).changes).toBe(false);
        await configureWith({ "wos:organization": "globex" });
        const other = (await handlers.check(state, { ...inputs })).inputs;
        expect(await handlers.diff("id-x", state, other)).toMatchObject({ changes: true, replaces: ["organization"] });
    });
});

it("a project whose program leaves organization out is made in the default organization, and state holds its name", async () => {
    await configureWith({ "wos:organization": "acme" });
    const name = uniqueName("Default Org");
    const checked = await project.check({}, { name });
    const created = await project.create(checked.inputs);
    expect(created.outs).toEqual({ organization: "acme", name });
    expect((await projectsNamed(server(), name)).map((found) => found.id)).toEqual([created.id]);
    await project.delete(created.id, created.outs);
});

it("a workspace whose program leaves organization out is made in the default organization", async () => {
    await configureWith({ "wos:organization": "acme" });
    const name = uniqueName("default-org").replace(/ /g, "-");
    const created = await workspace.create((await workspace.check({}, { name })).inputs);
    expect(created.outs).toMatchObject({ organization: "acme", name });
    const shown = await server().request("GET", `/organizations/acme/workspaces/${name}`, { token: TOKEN });
    expect(shown.status).toBe(200);
    expect(shown.body.data.id).toBe(created.id);
});
