/**
 * Every 404 of the local service ("not found or unauthorized") says what was not found and what the caller
 * was not authorized to do with it, so a person can tell which thing and which permission to check: one
 * request per refusal of `server/access.ts`, each the refusal of a thing that exists (but is not the
 * caller's to see or change) or does not exist at all, with nothing written.
 */
import type { TestServer } from "../support/server";
import { REGISTRY_MODULES, TOKENS, WORKSPACES } from "../support/seed";
import {
    clientFor,
    createNoCodeModule,
    createVariable,
    expectErrors,
    expectNoCodeUnchanged,
    moduleWithWorkspace,
    noCodePaths,
    noCodeSnapshot,
    noCodeWorkspaceDocument,
    projectDocument,
    uniqueWorkspaceName,
    upgradeDocument,
    variableDocument,
    variableUpdateDocument,
    withNoCodeServer,
    BUCKET_VARS,
    type AcmeProjectIds,
    type HttpResponse,
    type NoCodeServer,
} from "./helpers";

let started: NoCodeServer;
let server: TestServer;
let ids: AcmeProjectIds;

withNoCodeServer((service) => ({ server, ids } = started = service));

/** The one error of a 404, whose detail must be `expected` exactly. */
function expectDetail(response: HttpResponse, expected: string): void {
    const errors = expectErrors(response, 404);
    expect(errors.map((error: any) => error.detail)).toEqual([expected]);
}

const read = () => clientFor(server, TOKENS.appsRead);
const owners = () => clientFor(server, TOKENS.owners);

test.each([
    ["another organization's project list", () => owners().get("/organizations/globex/projects"), "Organization not found or you are not authorized to access it"],
    ["a project that does not exist", () => owners().get("/projects/prj-doesnotexist0000"), "Project not found or you are not authorized to access it"],
    ["a workspace that does not exist", () => owners().get("/workspaces/ws-doesnotexist0000"), "Workspace not found or you are not authorized to access it"],
    ["a workspace of a project the caller cannot read", () => read().get(`/workspaces/${WORKSPACES.defaultProject}`), "Workspace not found or you are not authorized to access it"],
    [
        "the variables of a workspace the caller cannot read",
        () => read().get("/vars?filter[workspace][name]=scratch&filter[organization][name]=acme"),
        "Workspace not found or you are not authorized to read its variables",
    ],
    ["a registry module that does not exist", () => owners().get(noCodePaths.registryModule("mod-doesnotexist0000")), "Registry module not found or you are not authorized to access it"],
    ["another organization's registry module", () => owners().get(noCodePaths.registryModule(REGISTRY_MODULES.initechBucket)), "Registry module not found or you are not authorized to access it"],
    ["a no-code module that does not exist", () => owners().get(noCodePaths.module("nocode-doesnotexist00")), "No-code module not found or you are not authorized to access it"],
])("reading %s", async (_label, send, detail) => {
    expectDetail(await send(), detail);
});

test.each([
    ["updating a project the caller may only read", () => read().patch(`/projects/${ids.Apps}`, projectDocument({ description: "no" })), "Project not found or you are not authorized to update it"],
    ["changing a workspace the caller may only read", () => read().patch(`/workspaces/${WORKSPACES.appsWeb}`, { data: { type: "workspaces", attributes: { description: "no" } } }), "Workspace not found or you are not authorized to change it"],
    ["deleting a workspace the caller may only read", () => read().delete(`/workspaces/${WORKSPACES.appsWeb}`), "Workspace not found or you are not authorized to change it"],
    [
        "moving a workspace into a project the caller may only read",
        () => read().post(`/projects/${ids.Apps}/relationships/workspaces`, { data: [{ type: "workspaces", id: WORKSPACES.appsWeb }] }),
        "Project not found or you are not authorized to move workspaces into it",
    ],
    ["creating a variable in a workspace the caller may only read", () => read().post("/vars", variableDocument(WORKSPACES.appsWeb, { key: "NOPE", category: "env" })), "Workspace not found or you are not authorized to manage its variables"],
])("%s", async (_label, send, detail) => {
    const before = await noCodeSnapshot(server);
    expectDetail(await send(), detail);
    await expectNoCodeUnchanged(server, before);
});

test("changing or deleting a variable the caller may only read", async () => {
    const variable = await createVariable(server, WORKSPACES.appsWeb, { key: "READ_ONLY_HERE", value: "v", category: "env" });
    const before = await noCodeSnapshot(server);
    expectDetail(await read().patch(`/vars/${variable.id}`, variableUpdateDocument(variable.id, { value: "x" })), "Variable not found or you are not authorized to manage it");
    expectDetail(await read().delete(`/vars/${variable.id}`), "Variable not found or you are not authorized to manage it");
    await expectNoCodeUnchanged(server, before);
});

test("changing a no-code module without owners or manage modules", async () => {
    const module = await createNoCodeModule(server, { registryModuleId: started.registryModule(), enabled: true });
    const before = await noCodeSnapshot(server, { modules: [module.id] });
    const response = await clientFor(server, TOKENS.appsAdmin).patch(noCodePaths.module(module.id), { data: { type: "no-code-modules", attributes: { enabled: false } } });
    expectDetail(response, "No-code module not found or you are not authorized to manage it");
    await expectNoCodeUnchanged(server, before, { modules: [module.id] });
});

test("creating a workspace from a module in a project the caller may only read", async () => {
    const module = await createNoCodeModule(server, { registryModuleId: started.registryModule(), enabled: true });
    const name = uniqueWorkspaceName();
    const response = await read().post(noCodePaths.workspaces(module.id), noCodeWorkspaceDocument({ name, projectId: ids.Apps, vars: BUCKET_VARS }));
    expectDetail(response, "Project not found or you are not authorized to create workspaces in it");
    expectErrors(await owners().get(noCodePaths.workspaceByName("acme", name)), 404);
});

test("an upgrade of a workspace that was not made from that module", async () => {
    const { moduleId } = await moduleWithWorkspace(started);
    const before = await noCodeSnapshot(server, { modules: [moduleId], workspaces: [WORKSPACES.appsWeb] });
    const response = await owners().post(noCodePaths.upgrade(moduleId, WORKSPACES.appsWeb), upgradeDocument());
    expectDetail(response, "Workspace not found among the workspaces of this no-code module, or you are not authorized to access it");
    await expectNoCodeUnchanged(server, before, { modules: [moduleId], workspaces: [WORKSPACES.appsWeb] });
});
