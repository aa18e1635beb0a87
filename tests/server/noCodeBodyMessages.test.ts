/**
 * The words of the no-code request-body rules (`sdk/model/noCode.ts`): each malformed part of a no-code
 * module create or update, a no-code workspace create or an upgrade is refused with a 422 whose detail, at
 * the part's pointer, says what the part must be; nothing is written. (noCodeModules.test.ts and
 * noCodeWorkspaces.test.ts test the status and pointer of such refusals; these tests read the detail.)
 */
import {
    BUCKET_VARS,
    createNoCodeModule,
    detailAt,
    expectNoCodeUnchanged,
    expectNoWorkspaceNamed,
    expectValidation,
    moduleWithWorkspace,
    noCodePaths,
    noCodeSnapshot,
    uniqueWorkspaceName,
    withNoCodeServer,
    type Client,
    type NoCodeServer,
} from "./helpers";

let started: NoCodeServer;
let owners: Client;

withNoCodeServer((value) => {
    started = value;
    owners = value.owners;
});

const OPTIONS = "/data/relationships/variable-options/data";
const SET = { type: "variable-options", attributes: { "variable-name": "region", "variable-type": "string", options: ["eu-west-1"] } };

/** A module create body on `registryModuleId` with `data` members replaced or added as given. */
function moduleCreate(registryModuleId: string, data: Record<string, unknown> = {}, variableOptions?: unknown): unknown {
    const relationships: Record<string, unknown> = { "registry-module": { data: { type: "registry-module", id: registryModuleId } } };
    if (variableOptions !== undefined) relationships["variable-options"] = variableOptions;
    return { data: { type: "no-code-modules", attributes: { enabled: true }, relationships, ...data } };
}

describe("POST /organizations/:org/no-code-modules", () => {
    test.each<[string, (registryModuleId: string) => unknown, string, string]>([
        ["a type other than no-code-modules", (id) => moduleCreate(id, { type: "modules" }), "/data/type", "must be 'no-code-modules'"],
        ["relationships that are not an object", (id) => moduleCreate(id, { relationships: "registry-module" }), "/data/relationships", "must be an object with a registry-module relationship"],
        // A missing member is named as required (the service's wording of every missing member).
        ["no relationships at all", (id) => moduleCreate(id, { relationships: undefined }), "/data/relationships", "Relationships is required"],
        [
            "a registry-module relationship of another type",
            (id) => moduleCreate(id, { relationships: { "registry-module": { data: { type: "modules", id } } } }),
            "/data/relationships/registry-module/data/type",
            "must be 'registry-module'",
        ],
        [
            "a registry-module id that is not a string",
            () => moduleCreate("", { relationships: { "registry-module": { data: { type: "registry-module", id: 7 } } } }),
            "/data/relationships/registry-module/data/id",
            "must be a registry module id",
        ],
        [
            "an empty registry-module id",
            () => moduleCreate("", { relationships: { "registry-module": { data: { type: "registry-module", id: "" } } } }),
            "/data/relationships/registry-module/data/id",
            "must be a registry module id",
        ],
        ["variable options that are not a list", (id) => moduleCreate(id, {}, { data: "region" }), OPTIONS, "must be a list of variable options"],
        ["a set of another type", (id) => moduleCreate(id, {}, { data: [{ ...SET, type: "options" }] }), `${OPTIONS}/0/type`, "must be 'variable-options'"],
        ["a set whose id is not a string", (id) => moduleCreate(id, {}, { data: [{ ...SET, id: 7 }] }), `${OPTIONS}/0/id`, "must be a variable-options id"],
        [
            "a set whose attributes are not an object",
            (id) => moduleCreate(id, {}, { data: [{ type: "variable-options", attributes: "region=string" }] }),
            `${OPTIONS}/0/attributes`,
            "must be an object with a variable-name and a variable-type",
        ],
        [
            "a set with neither an id nor attributes",
            (id) => moduleCreate(id, {}, { data: [{ type: "variable-options" }] }),
            `${OPTIONS}/0/attributes`,
            "is required (a variable-name, a variable-type and options) unless the item names an existing set by id",
        ],
        [
            "a set whose options are not a list",
            (id) => moduleCreate(id, {}, { data: [{ ...SET, attributes: { ...SET.attributes, options: "eu-west-1" } }] }),
            `${OPTIONS}/0/attributes/options`,
            "must be a list",
        ],
        [
            "a set whose variable-name is not a string",
            (id) => moduleCreate(id, {}, { data: [{ ...SET, attributes: { ...SET.attributes, "variable-name": 7 } }] }),
            `${OPTIONS}/0/attributes/variable-name`,
            "must be a string",
        ],
        [
            "a set whose variable-type is not a string",
            (id) => moduleCreate(id, {}, { data: [{ ...SET, attributes: { ...SET.attributes, "variable-type": ["string"] } }] }),
            `${OPTIONS}/0/attributes/variable-type`,
            "must be a string",
        ],
    ])("refuses %s, saying what it must be; nothing written", async (_label, body, pointer, words) => {
        const registryModuleId = started.registryModule();
        const known = { registryModules: [registryModuleId] };
        const before = await noCodeSnapshot(started.server, known);
        const errors = expectValidation(await owners.post(noCodePaths.modules("acme"), body(registryModuleId)), pointer);
        expect(detailAt(errors, pointer)).toContain(words);
        await expectNoCodeUnchanged(started.server, before, known);
    });
});

describe("PATCH /no-code-modules/:id", () => {
    test("refuses a type other than no-code-modules, saying so; nothing written", async () => {
        const module = await createNoCodeModule(started.server, { registryModuleId: started.registryModule(), enabled: true });
        const known = { modules: [module.id] };
        const before = await noCodeSnapshot(started.server, known);
        const errors = expectValidation(
            await owners.patch(noCodePaths.module(module.id), { data: { type: "modules", id: module.id, attributes: { enabled: false } } }),
            "/data/type",
        );
        expect(detailAt(errors, "/data/type")).toContain("must be 'no-code-modules'");
        await expectNoCodeUnchanged(started.server, before, known);
    });
});

const VARS = "/data/relationships/vars/data";

describe("POST /no-code-modules/:id/workspaces", () => {
    let moduleId: string;

    beforeAll(async () => {
        moduleId = (await createNoCodeModule(started.server, { registryModuleId: started.registryModule(), enabled: true })).id;
    });

    /** A workspace create body named `name` in Apps, with `data` members replaced or added as given. */
    function workspaceCreate(name: string, data: Record<string, unknown> = {}, relationships: Record<string, unknown> = {}): unknown {
        return {
            data: {
                type: "workspaces",
                attributes: { name },
                relationships: {
                    project: { data: { type: "project", id: started.ids.Apps } },
                    vars: { data: BUCKET_VARS.map((attributes) => ({ type: "vars", attributes })) },
                    ...relationships,
                },
                ...data,
            },
        };
    }

    test.each<[string, (name: string) => unknown, string, string]>([
        ["a type other than workspaces", (name) => workspaceCreate(name, { type: "workspace" }), "/data/type", "must be 'workspaces'"],
        ["attributes that are not an object", (name) => workspaceCreate(name, { attributes: `name=${name}` }), "/data/attributes", "must be an object with at least a name"],
        [
            "an agent pool id that is not a string",
            (name) => workspaceCreate(name, { attributes: { name, "execution-mode": "agent", "agent-pool-id": 7 } }),
            "/data/attributes/agent-pool-id",
            "must be an agent pool id",
        ],
        ["relationships that are not an object", (name) => workspaceCreate(name, { relationships: "project" }), "/data/relationships", "must be an object with a project relationship"],
        [
            "a project relationship of another type",
            (name) => workspaceCreate(name, {}, { project: { data: { type: "organizations", id: started.ids.Apps } } }),
            "/data/relationships/project/data/type",
            "must be 'project'",
        ],
        [
            "a project id that is not a string",
            (name) => workspaceCreate(name, {}, { project: { data: { type: "project", id: 7 } } }),
            "/data/relationships/project/data/id",
            "must be a project id",
        ],
        [
            "an empty project id",
            (name) => workspaceCreate(name, {}, { project: { data: { type: "project", id: "" } } }),
            "/data/relationships/project/data/id",
            "must be a project id",
        ],
        ["vars that are not a list", (name) => workspaceCreate(name, {}, { vars: { data: "region=eu-west-1" } }), VARS, "must be a list of vars"],
        [
            "a var of another type",
            (name) => workspaceCreate(name, {}, { vars: { data: [{ type: "variables", attributes: BUCKET_VARS[0] }] } }),
            `${VARS}/0/type`,
            "must be 'vars'",
        ],
        [
            "a var whose attributes are not an object",
            (name) => workspaceCreate(name, {}, { vars: { data: [{ type: "vars", attributes: "region=eu-west-1" }] } }),
            `${VARS}/0/attributes`,
            "must be an object with at least a key and a category",
        ],
    ])("refuses %s, saying what it must be; nothing written", async (_label, body, pointer, words) => {
        const name = uniqueWorkspaceName("words");
        const before = await noCodeSnapshot(started.server, { modules: [moduleId] });
        const errors = expectValidation(await owners.post(noCodePaths.workspaces(moduleId), body(name)), pointer);
        expect(detailAt(errors, pointer)).toContain(words);
        await expectNoWorkspaceNamed(started.server, name);
        await expectNoCodeUnchanged(started.server, before, { modules: [moduleId] });
    });
});

describe("POST /no-code-modules/:id/workspaces/:ws/upgrade", () => {
    test.each<[string, unknown, string, string]>([
        ["a type other than workspaces", { data: { type: "workspace-upgrades" } }, "/data/type", "must be 'workspaces'"],
        ["vars that are not a list", { data: { type: "workspaces", relationships: { vars: { data: { key: "region" } } } } }, VARS, "must be a list of vars"],
        [
            "a var whose attributes are not an object",
            { data: { type: "workspaces", relationships: { vars: { data: [{ type: "vars", attributes: null }] } } } },
            `${VARS}/0/attributes`,
            "must be an object with at least a key and a category",
        ],
    ])("refuses %s, saying what it must be; nothing written", async (_label, body, pointer, words) => {
        const { moduleId, workspace } = await moduleWithWorkspace(started);
        const known = { modules: [moduleId], workspaces: [workspace.id] };
        const before = await noCodeSnapshot(started.server, known);
        const errors = expectValidation(await owners.post(noCodePaths.upgrade(moduleId, workspace.id), body), pointer);
        expect(detailAt(errors, pointer)).toContain(words);
        await expectNoCodeUnchanged(started.server, before, known);
    });
});
