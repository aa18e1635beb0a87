/**
 * Details of the `wos:Variable` handlers that the main test file leaves open: how messages name the
 * variable, defaults for inputs that never went through `check`, the PATCH that finishes a variable found
 * after a lost answer, reads by other paths, and which fields an update sends. All against the real local
 * service over HTTP.
 */
import * as diagnosticsChannel from "node:diagnostics_channel";
import type { IncomingMessage } from "node:http";
import * as variable from "../../provider/handlers/variable";
import { WORKSPACES } from "../support/seed";
import { rejection, TOKEN, UNKNOWN, useServer, workspaceVariables } from "./helpers";

const server = useServer();
const WORKSPACE = WORKSPACES.appsLegacy;
const WORKSPACE_NAME = "legacy-app";

let counter = 0;
function uniqueKey(prefix: string): string {
    counter += 1;
    return `${prefix}_D${counter}`;
}

/** Raw variables of the workspace with this key. */
async function variablesWithKey(key: string): Promise<any[]> {
    return (await workspaceVariables(server(), WORKSPACE_NAME)).filter((v) => v.attributes.key === key);
}

/** Makes a variable over raw HTTP, as someone other than the provider would. */
async function rawCreate(attributes: Record<string, unknown>): Promise<string> {
    const response = await server().request("POST", "/vars", {
        token: TOKEN,
        body: { data: { type: "vars", attributes, relationships: { workspace: { data: { type: "workspaces", id: WORKSPACE } } } } },
    });
    expect(response.status).toBe(201);
    return response.body.data.id;
}

/**
 * Runs `create` while the provider's POST is refused with a 503 (nothing written) held back a while, and makes
 * `theirs` over raw HTTP the moment that POST arrives: the look-up after the lost answer then finds it.
 */
async function createWhileSomeoneMakes(news: Record<string, unknown>, theirs: Record<string, unknown>) {
    await server().addFault({ method: "POST", path: "^/api/v2/vars$", times: 1, status: 503, delayMs: 1500 });
    let made: Promise<string> | undefined;
    const onRequest = (message: unknown) => {
        const request = (message as { request: IncomingMessage }).request;
        if (!/^pulumi-wos\//.test(String(request.headers["user-agent"] ?? ""))) return;
        if (request.method === "POST" && request.url === "/api/v2/vars" && made === undefined) made = rawCreate(theirs);
    };
    diagnosticsChannel.subscribe("http.server.request.start", onRequest);
    try {
        const created = await variable.create(news);
        expect(made).toBeDefined();
        return { created, theirId: await made! };
    } finally {
        diagnosticsChannel.unsubscribe("http.server.request.start", onRequest);
    }
}

describe("how messages name the variable", () => {
    beforeEach(async () => {
        await server().addFault({ method: "DELETE", path: "^/api/v2/vars/", times: 1, status: 403 });
    });

    it("names key, category, id and workspace when they are known", async () => {
        const error = await rejection(variable.delete("var-named1", { workspaceId: WORKSPACE, key: "K", category: "env" }));
        expect(error.message.startsWith(`wos:Variable 'K' (env) var-named1 in workspace ${WORKSPACE}: delete failed: `)).toBe(true);
    });

    it("leaves out what is not known yet, never quoting the unknown placeholder", async () => {
        const error = await rejection(variable.delete("var-named2", { workspaceId: UNKNOWN, key: UNKNOWN, category: UNKNOWN }));
        expect(error.message.startsWith("wos:Variable var-named2: delete failed: ")).toBe(true);
        expect(error.message).not.toContain(UNKNOWN);
    });

    it("leaves out what is missing, never writing 'undefined'", async () => {
        const error = await rejection(variable.delete("var-named3", {}));
        expect(error.message.startsWith("wos:Variable var-named3: delete failed: ")).toBe(true);
        expect(error.message).not.toContain("undefined");
    });

    it("names a read that failed as a read", async () => {
        await server().clearFaults();
        await server().addFault({ method: "GET", path: "^/api/v2/vars$", times: 1, status: 403 });
        const error = await rejection(variable.read("var-named4", { workspaceId: WORKSPACE, key: "K", category: "infra" }));
        expect(error.message.startsWith(`wos:Variable 'K' (infra) var-named4 in workspace ${WORKSPACE}: read failed: `)).toBe(true);
    });

    it("names an update that failed as an update, and changes nothing", async () => {
        await server().clearFaults();
        const key = uniqueKey("UPDFAIL");
        const created = await variable.create({ workspaceId: WORKSPACE, key, value: "a", category: "env", hcl: false, sensitive: false });
        await server().addFault({ method: "PATCH", path: "^/api/v2/vars/", times: 1, status: 403 });
        const error = await rejection(variable.update(created.id, created.outs, { ...created.outs, value: "b" }));
        expect(error.message.startsWith(`wos:Variable '${key}' (env) ${created.id} in workspace ${WORKSPACE}: update failed: `)).toBe(true);
        expect((await variablesWithKey(key))[0].attributes.value).toBe("a");
    });
});

describe("check", () => {
    it("fills the defaults for value, hcl and sensitive given as null", async () => {
        const result = await variable.check({}, { workspaceId: WORKSPACE, key: "A", category: "env", value: null, hcl: null, sensitive: null });
        expect(result.failures).toEqual([]);
        expect(result.inputs).toMatchObject({ value: "", hcl: false, sensitive: false });
    });
});

describe("create", () => {
    it("writes an empty, plain, non-HCL variable for inputs that leave value, hcl and sensitive out", async () => {
        const key = uniqueKey("BARE");
        const created = await variable.create({ workspaceId: WORKSPACE, key, category: "env" });
        expect(created.outs).toEqual({ workspaceId: WORKSPACE, key, value: "", category: "env", hcl: false, sensitive: false });
        const raw = await variablesWithKey(key);
        expect(raw).toHaveLength(1);
        expect(raw[0].attributes).toMatchObject({ value: "", hcl: false, sensitive: false });
    });

    it("recovers a lost answer by key and category, not by key alone", async () => {
        const key = uniqueKey("TWOCAT");
        const other = await rawCreate({ key, value: "terraform-one", category: "infra" });
        await server().addFault({ method: "POST", path: "^/api/v2/vars$", times: 1, status: 503, afterCommit: true });
        const created = await variable.create({ workspaceId: WORKSPACE, key, value: "env-one", category: "env", hcl: false, sensitive: false });
        const raw = await variablesWithKey(key);
        expect(raw).toHaveLength(2);
        const mine = raw.find((v) => v.attributes.category === "env");
        expect(created.id).toBe(mine.id);
        expect(created.id).not.toBe(other);
        expect(created.outs).toMatchObject({ value: "env-one", category: "env" });
    });

    it("says a variable held the key before the create when it refuses to take it over", async () => {
        const key = uniqueKey("HELDBEFORE");
        await rawCreate({ key, value: "theirs", category: "env" });
        await server().addFault({ method: "POST", path: "^/api/v2/vars$", times: 1, status: 503 });
        const error = await rejection(variable.create({ workspaceId: WORKSPACE, key, value: "mine", category: "env", hcl: false, sensitive: false }));
        expect(error.message).toContain("; a variable of that name existed before this create, so it is left alone");
    });

    it("brings a variable found after a lost answer in line with the inputs: value, description, hcl", async () => {
        const key = uniqueKey("FINISH");
        const news = { workspaceId: WORKSPACE, key, value: "mine", description: "my description", category: "env", hcl: true, sensitive: false };
        const { created, theirId } = await createWhileSomeoneMakes(news, { key, value: "theirs", description: "theirs", category: "env", hcl: false });
        expect(created.id).toBe(theirId);
        const raw = await variablesWithKey(key);
        expect(raw).toHaveLength(1);
        expect(raw[0].attributes).toMatchObject({ value: "mine", description: "my description", hcl: true, sensitive: false });
        expect(created.outs).toEqual({ ...news });
    });

    it("finishes a found variable with the defaults of inputs that leave description, hcl and sensitive out", async () => {
        const key = uniqueKey("FINDEF");
        const news = { workspaceId: WORKSPACE, key, category: "env" };
        const { created } = await createWhileSomeoneMakes(news, { key, value: "theirs", description: "theirs", category: "env", hcl: true });
        const raw = await variablesWithKey(key);
        expect(raw).toHaveLength(1);
        expect(raw[0].attributes).toMatchObject({ value: "", description: null, hcl: false, sensitive: false });
        expect(created.outs).toEqual({ workspaceId: WORKSPACE, key, value: "", category: "env", hcl: false, sensitive: false });
    });
});

describe("read", () => {
    it("reads by id among all variables when the workspace id in state is empty", async () => {
        const created = await variable.create({ workspaceId: WORKSPACE, key: uniqueKey("EMPTYWS"), value: "x", category: "env", hcl: false, sensitive: false });
        const read = await variable.read(created.id, { ...created.outs, workspaceId: "" });
        expect(read).toEqual({ id: created.id, props: created.outs, inputs: created.outs });
    });

    it("reads by id alone the variable with that id, not another one", async () => {
        const first = await variable.create({ workspaceId: WORKSPACE, key: uniqueKey("FIRST"), value: "1", category: "env", hcl: false, sensitive: false });
        const second = await variable.create({ workspaceId: WORKSPACE, key: uniqueKey("SECOND"), value: "2", category: "env", hcl: false, sensitive: false });
        expect((await variable.read(first.id, {})).props).toEqual(first.outs);
        expect((await variable.read(second.id, {})).props).toEqual(second.outs);
    });

    it("reads the value of a sensitive variable as empty when state holds none", async () => {
        const key = uniqueKey("NOVALUE");
        const created = await variable.create({ workspaceId: WORKSPACE, key, value: "s3cret", category: "env", hcl: false, sensitive: true });
        const read = await variable.read(created.id, { workspaceId: WORKSPACE });
        expect(read.props).toEqual({ ...created.outs, value: "" });
    });
});

describe("update", () => {
    it("changes the category of a plain variable in place", async () => {
        const key = uniqueKey("RECAT");
        const created = await variable.create({ workspaceId: WORKSPACE, key, value: "v", category: "infra", hcl: false, sensitive: false });
        const updated = await variable.update(created.id, created.outs, { ...created.outs, category: "env" });
        expect(updated.outs).toMatchObject({ category: "env" });
        const raw = await variablesWithKey(key);
        expect(raw).toHaveLength(1);
        expect(raw[0].attributes.category).toBe("env");
    });

    it("sends the defaults for value, hcl and sensitive when the inputs leave them out", async () => {
        const key = uniqueKey("DEFAULTS");
        const created = await variable.create({ workspaceId: WORKSPACE, key, value: "a", category: "env", hcl: true, sensitive: false });
        // State says sensitive (as after an out-of-band change): the update sends sensitive false.
        const updated = await variable.update(created.id, { ...created.outs, sensitive: true }, { workspaceId: WORKSPACE, key, category: "env" });
        const raw = await variablesWithKey(key);
        expect(raw[0].attributes).toMatchObject({ value: "", hcl: false, sensitive: false });
        expect(updated.outs).toEqual({ workspaceId: WORKSPACE, key, value: "", category: "env", hcl: false, sensitive: false });
    });

    it("sends no write when nothing changed, and answers the variable as read", async () => {
        const key = uniqueKey("SAME");
        const created = await variable.create({ workspaceId: WORKSPACE, key, value: "a", category: "env", hcl: false, sensitive: false });
        await server().addFault({ method: "PATCH", path: "^/api/v2/vars/", times: 1, status: 403 });
        const updated = await variable.update(created.id, created.outs, { ...created.outs, __provider: "x" });
        expect(updated.outs).toEqual(created.outs);
        // The PATCH fault is still armed: no PATCH reached the service.
        const probe = await server().request("PATCH", `/vars/${created.id}`, {
            token: TOKEN,
            body: { data: { type: "vars", id: created.id, attributes: { value: "a" } } },
        });
        expect(probe.status).toBe(403);
    });
});
