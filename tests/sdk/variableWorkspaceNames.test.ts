/**
 * `variables.list` and `variables.read`: the service's API lists variables by workspace name only, so the
 * client keeps the names of the workspaces it has read and lists by a kept name at once (one request
 * instead of two, issue 6 Scale). A kept name is only trusted when the answer proves it still belongs to the
 * workspace; these tests rename workspaces behind the client's back (over raw HTTP) and prove that it never
 * answers another workspace's variables, nor misses a workspace's own, and count the requests it sends.
 */
import { Transport } from "../../sdk/transport";
import { WosClient, WosNotFoundError, type Workspace } from "../../sdk";
import { startTestServer, type TestServer } from "../support/server";
import { TOKENS } from "../support/seed";
import { moduleWithWorkspace, uniqueName } from "./helpers";

let server: TestServer;

beforeAll(async () => {
    server = await startTestServer();
});

afterAll(async () => {
    await server?.close();
});

afterEach(() => {
    jest.restoreAllMocks();
});

/** A client with nothing kept yet. */
function freshClient(): WosClient {
    return new WosClient({ address: server.url, token: TOKENS.owners, maxRetryDelayMs: 10 });
}

/** Records the requests the SDK sends (method and path, ids as they are) from now on. */
function recordRequests(): () => string[] {
    const spy = jest.spyOn(Transport.prototype, "request");
    return () => {
        const sent = spy.mock.calls.map(([spec]) => `${spec.method} ${spec.path}`);
        spy.mockClear();
        return sent;
    };
}

/** A new workspace (made from a no-code module, with its `region` var) and that var's id. */
async function newWorkspace(client: WosClient): Promise<{ workspace: Workspace; regionVarId: string }> {
    const { workspace } = await moduleWithWorkspace(client);
    const vars = await client.variables.listByWorkspaceName("acme", workspace.name);
    return { workspace, regionVarId: vars.find((variable) => variable.key === "region")!.id };
}

/** Renames a workspace over raw HTTP, behind the client's back. */
async function rename(workspaceId: string, name: string): Promise<void> {
    const response = await server.request("PATCH", `/workspaces/${workspaceId}`, {
        token: TOKENS.owners,
        body: { data: { type: "workspaces", attributes: { name } } },
    });
    expect(response.status).toBe(200);
    expect(response.body.data.attributes.name).toBe(name);
}

/** Creates a variable over raw HTTP, behind the client's back; answers its id. */
async function addVariable(workspaceId: string, key: string): Promise<string> {
    const response = await server.request("POST", "/vars", {
        token: TOKENS.owners,
        body: {
            data: {
                type: "vars",
                attributes: { key, value: "v", category: "env" },
                relationships: { workspace: { data: { type: "workspaces", id: workspaceId } } },
            },
        },
    });
    expect(response.status).toBe(201);
    return response.body.data.id;
}

/** Deletes a variable over raw HTTP. */
async function removeVariable(variableId: string): Promise<void> {
    expect((await server.request("DELETE", `/vars/${variableId}`, { token: TOKENS.owners })).status).toBe(204);
}

const ids = (variables: { id: string }[]) => variables.map((variable) => variable.id).sort();

it("reads a workspace's name once: later lists and reads of its variables are one request each", async () => {
    const { workspace, regionVarId } = await newWorkspace(freshClient());
    const client = freshClient();
    const sent = recordRequests();

    expect(ids(await client.variables.list(workspace.id))).toEqual([regionVarId]);
    expect(sent()).toEqual([`GET /workspaces/${workspace.id}`, "GET /vars"]);

    expect(ids(await client.variables.list(workspace.id))).toEqual([regionVarId]);
    expect(sent()).toEqual(["GET /vars"]);

    expect((await client.variables.read(workspace.id, regionVarId)).key).toBe("region");
    expect(sent()).toEqual(["GET /vars"]);

    // Another client keeps its own names: its first read of the workspace costs two requests again.
    expect((await freshClient().variables.read(workspace.id, regionVarId)).key).toBe("region");
    expect(sent()).toEqual([`GET /workspaces/${workspace.id}`, "GET /vars"]);
});

it("follows a workspace renamed behind its back, and keeps the new name", async () => {
    const client = freshClient();
    const { workspace, regionVarId } = await newWorkspace(client);
    await client.variables.list(workspace.id);
    const renamed = uniqueName("renamed");
    await rename(workspace.id, renamed);
    const sent = recordRequests();

    // The kept name is nobody's now (404): the workspace is read again and listed by its new name.
    expect(ids(await client.variables.list(workspace.id))).toEqual([regionVarId]);
    expect(sent()).toEqual(["GET /vars", `GET /workspaces/${workspace.id}`, "GET /vars"]);
    expect((await client.variables.read(workspace.id, regionVarId)).key).toBe("region");
    expect(sent()).toEqual(["GET /vars"]);
});

it("never answers the variables of another workspace that took the kept name", async () => {
    const client = freshClient();
    const mine = await newWorkspace(client);
    const other = await newWorkspace(client);
    await client.variables.list(mine.workspace.id);
    // Mine moves away; the other takes mine's old name, with its own variables.
    await rename(mine.workspace.id, uniqueName("moved"));
    await rename(other.workspace.id, mine.workspace.name);
    const sent = recordRequests();

    expect(ids(await client.variables.list(mine.workspace.id))).toEqual([mine.regionVarId]);
    expect(sent()).toEqual(["GET /vars", `GET /workspaces/${mine.workspace.id}`, "GET /vars"]);
    // The other's variable is listed under the old name, and still is not mine.
    const error = await client.variables.read(mine.workspace.id, other.regionVarId).catch((failure: unknown) => failure);
    expect(WosNotFoundError.isInstance(error)).toBe(true);
    expect((error as Error).message).toContain(other.regionVarId);
});

it("reads an empty workspace again each time (an empty answer proves no name), and finds what it gains", async () => {
    const client = freshClient();
    const empty = await newWorkspace(client);
    await removeVariable(empty.regionVarId);
    const sent = recordRequests();

    expect(await client.variables.list(empty.workspace.id)).toEqual([]);
    expect(sent()).toEqual([`GET /workspaces/${empty.workspace.id}`, "GET /vars"]);
    // The kept name answers nothing: the workspace is read to prove the name still its own, no third request.
    expect(await client.variables.list(empty.workspace.id)).toEqual([]);
    expect(sent()).toEqual(["GET /vars", `GET /workspaces/${empty.workspace.id}`]);

    // Renamed away, and another empty workspace takes the old name; then the first one gains a variable.
    const stranger = await newWorkspace(client);
    await removeVariable(stranger.regionVarId);
    await rename(empty.workspace.id, uniqueName("away"));
    await rename(stranger.workspace.id, empty.workspace.name);
    const gained = await addVariable(empty.workspace.id, "GAINED");
    sent();
    expect(ids(await client.variables.list(empty.workspace.id))).toEqual([gained]);
    expect(sent()).toEqual(["GET /vars", `GET /workspaces/${empty.workspace.id}`, "GET /vars"]);
});

it("answers WosNotFoundError for a workspace deleted after its name was kept, and for one never seen", async () => {
    const client = freshClient();
    const { workspace, regionVarId } = await newWorkspace(client);
    await client.variables.read(workspace.id, regionVarId);
    expect((await server.request("DELETE", `/workspaces/${workspace.id}`, { token: TOKENS.owners })).status).toBe(204);

    const gone = await client.variables.read(workspace.id, regionVarId).catch((failure: unknown) => failure);
    expect(WosNotFoundError.isInstance(gone)).toBe(true);
    const listed = await client.variables.list(workspace.id).catch((failure: unknown) => failure);
    expect(WosNotFoundError.isInstance(listed)).toBe(true);
    const never = await client.variables.list("ws-doesnotexist0001").catch((failure: unknown) => failure);
    expect(WosNotFoundError.isInstance(never)).toBe(true);
});

it("refuses an empty workspace id before any request", async () => {
    const client = freshClient();
    const sent = recordRequests();
    await expect(client.variables.list("")).rejects.toThrow(/workspaceId/);
    expect(sent()).toEqual([]);
});
