/**
 * The `wos:Variable` handlers called directly against the real local service, sensitive values included.
 */
import * as diagnosticsChannel from "node:diagnostics_channel";
import type { IncomingMessage } from "node:http";
import * as variable from "../../provider/handlers/variable";
import { WORKSPACES } from "../support/seed";
import { configureUnreachable, rejection, TOKEN, UNKNOWN, useServer, workspaceVariables, checkedInputs } from "./helpers";

const server = useServer();
const WORKSPACE = WORKSPACES.appsLegacy;
const WORKSPACE_NAME = "legacy-app";

let counter = 0;
function uniqueKey(prefix = "VAR"): string {
    counter += 1;
    return `${prefix}_${counter}`;
}

const checked = (news: Record<string, unknown>) => checkedInputs(variable, news);

/** Raw variables of the workspace with this key. */
async function variablesWithKey(key: string): Promise<any[]> {
    return (await workspaceVariables(server(), WORKSPACE_NAME)).filter((v) => v.attributes.key === key);
}

const valid = { workspaceId: WORKSPACE, key: "REGION", category: "env" };

describe("check", () => {
    it.each([
        ["a missing workspace id", { key: "A", category: "env" }, "workspaceId", /required/],
        ["a workspace id without the ws- prefix", { ...valid, workspaceId: "prj-1" }, "workspaceId", /starting with 'ws-'/],
        ["a missing key", { workspaceId: WORKSPACE, category: "env" }, "key", /required/],
        ["an empty key", { ...valid, key: "" }, "key", /must not be empty/],
        ["a key over 128 characters", { ...valid, key: "K".repeat(129) }, "key", /at most 128/],
        ["a missing category", { workspaceId: WORKSPACE, key: "A" }, "category", /required/],
        ["an unknown category", { ...valid, category: "terraform" }, "category", /'infra' or 'env'/],
        ["a description over 512 characters", { ...valid, description: "d".repeat(513) }, "description", /at most 512/],
        ["a value over 256 KiB", { ...valid, value: "v".repeat(256 * 1024 + 1) }, "value", /at most 262144/],
        ["a value that is not a string", { ...valid, value: 5 }, "value", /must be a string/],
        ["hcl that is not a boolean", { ...valid, hcl: "yes" }, "hcl", /true or false/],
        ["sensitive that is not a boolean", { ...valid, sensitive: "true" }, "sensitive", /true or false/],
    ])("rejects %s, naming the property and the rule", async (_what, news, property, reason) => {
        const failures = (await variable.check({}, news)).failures ?? [];
        expect(failures).toContainEqual({ property, reason: expect.stringMatching(reason) });
        expect(failures.every((failure) => failure.reason.startsWith(failure.property))).toBe(true);
    });

    it("never quotes the value in a reason", async () => {
        const failures = (await variable.check({}, { ...valid, value: "s3cret-".repeat(40000), sensitive: true })).failures ?? [];
        expect(failures).toHaveLength(1);
        expect(failures[0].reason).not.toContain("s3cret");
    });

    it("fills the defaults so that state and program compare equal", async () => {
        const result = await variable.check({}, { ...valid, __provider: "x" });
        expect(result.failures).toEqual([]);
        expect(result.inputs).toEqual({ ...valid, value: "", hcl: false, sensitive: false, __provider: "x" });
    });

    it("lets unknown values pass", async () => {
        const news = { workspaceId: UNKNOWN, key: UNKNOWN, value: UNKNOWN, description: UNKNOWN, category: UNKNOWN, hcl: UNKNOWN, sensitive: UNKNOWN };
        expect((await variable.check({}, news)).failures).toEqual([]);
    });

    it("sends no request and writes nothing", async () => {
        const before = (await workspaceVariables(server(), WORKSPACE_NAME)).length;
        await configureUnreachable();
        expect((await variable.check({}, { ...valid, category: "nope" })).failures).toHaveLength(1);
        await checked({ ...valid, key: "NEVER_MADE" });
        expect(await workspaceVariables(server(), WORKSPACE_NAME)).toHaveLength(before);
    });
});

describe("diff", () => {
    const plain = { workspaceId: "ws-1", key: "A", value: "v", category: "env", hcl: false, sensitive: false, __provider: "x" };
    const secret = { ...plain, sensitive: true };

    beforeEach(configureUnreachable);

    it("reports no change for identical inputs, defaults filled or not", async () => {
        expect(await variable.diff("var-1", plain, { ...plain })).toEqual({ changes: false, replaces: [], deleteBeforeReplace: false });
        const { hcl: _hcl, ...withoutHcl } = plain;
        expect((await variable.diff("var-1", plain, withoutHcl)).changes).toBe(false);
        expect((await variable.diff("var-1", { ...plain, value: "" }, { ...plain, value: undefined })).changes).toBe(false);
        expect((await variable.diff("var-1", secret, { ...secret })).changes).toBe(false);
    });

    it.each([
        ["sensitive false in state, absent in the program", plain, { sensitive: undefined }],
        ["sensitive absent in state, false in the program", { ...plain, sensitive: undefined }, {}],
        ["hcl absent in state, false in the program", { ...plain, hcl: undefined }, {}],
        ["an empty description in state, none in the program", { ...plain, description: "" }, {}],
        ["no description in state, an empty one in the program", plain, { description: "" }],
        ["an empty value in state, none in the program", { ...plain, value: "" }, { value: undefined }],
    ])("reports no change for a default given one way and omitted the other: %s", async (_what, olds, change) => {
        expect(await variable.diff("var-1", olds, { ...plain, ...change })).toEqual({
            changes: false,
            replaces: [],
            deleteBeforeReplace: false,
        });
    });

    it.each([
        ["value", plain, { value: "w" }],
        ["description", plain, { description: "new" }],
        ["hcl", plain, { hcl: true }],
        ["the key of a plain variable", plain, { key: "B" }],
        ["the category of a plain variable", plain, { category: "infra" }],
        ["sensitive false to true", plain, { sensitive: true }],
        ["the value of a sensitive variable (compared with the value in state)", secret, { value: "w" }],
        ["the description of a sensitive variable", secret, { description: "d" }],
    ])("changes %s in place", async (_what, olds, change) => {
        expect(await variable.diff("var-1", olds, { ...olds, ...change })).toEqual({
            changes: true,
            replaces: [],
            deleteBeforeReplace: false,
        });
    });

    it.each([
        ["workspaceId", plain, { workspaceId: "ws-2" }, ["workspaceId"], false],
        ["the key of a sensitive variable", secret, { key: "B" }, ["key"], false],
        ["the category of a sensitive variable", secret, { category: "infra" }, ["category"], false],
        ["sensitive true to false (same key and category: delete first)", secret, { sensitive: false }, ["sensitive"], true],
        ["an unknown workspace (which may be the same one)", plain, { workspaceId: UNKNOWN }, ["workspaceId"], true],
        ["a sensitive flag not known yet (it may turn false)", secret, { sensitive: UNKNOWN }, ["sensitive"], true],
        ["a key of a sensitive variable not known yet (it may stay the same)", secret, { key: UNKNOWN }, ["key"], true],
        ["the key of a sensitive variable moved to another workspace", secret, { workspaceId: "ws-2", key: "B" }, ["workspaceId", "key"], false],
    ])("replaces the variable for %s", async (_what, olds, change, replaces, deleteBeforeReplace) => {
        expect(await variable.diff("var-1", olds, { ...olds, ...change })).toEqual({ changes: true, replaces, deleteBeforeReplace });
    });
});

describe("create, read, update, delete", () => {
    it("creates a plain variable whose outputs match its inputs, and reads it back", async () => {
        const key = uniqueKey("PLAIN");
        const inputs = await checked({ workspaceId: WORKSPACE, key, value: "eu-west-1", description: "region", category: "infra", hcl: true });
        const created = await variable.create(inputs);
        expect(created.id).toMatch(/^var-/);
        expect(created.outs).toEqual({
            workspaceId: WORKSPACE,
            key,
            value: "eu-west-1",
            description: "region",
            category: "infra",
            hcl: true,
            sensitive: false,
        });
        const raw = await variablesWithKey(key);
        expect(raw).toHaveLength(1);
        expect(raw[0].attributes).toMatchObject({ value: "eu-west-1", category: "infra", hcl: true });
        expect((await variable.diff(created.id, created.outs, inputs)).changes).toBe(false);
        expect(await variable.read(created.id, created.outs)).toEqual({ id: created.id, props: created.outs, inputs: created.outs });
    });

    it("keeps a sensitive value from state on read, since the service never returns it", async () => {
        const key = uniqueKey("SECRET");
        const inputs = await checked({ workspaceId: WORKSPACE, key, value: "s3cret", category: "env", sensitive: true });
        const created = await variable.create(inputs);
        expect(created.outs.value).toBe("s3cret");
        const raw = await variablesWithKey(key);
        expect(raw[0].attributes.value).toBeNull();
        const read = await variable.read(created.id, created.outs);
        expect(read.props).toEqual(created.outs);
        expect(read.inputs).toEqual(created.outs);
        expect((await variable.diff(created.id, read.props!, inputs)).changes).toBe(false);
    });

    it("reads drift made outside Pulumi", async () => {
        const key = uniqueKey("DRIFT");
        const created = await variable.create(await checked({ workspaceId: WORKSPACE, key, value: "a", category: "env" }));
        const patched = await server().request("PATCH", `/vars/${created.id}`, {
            token: TOKEN,
            body: { data: { type: "vars", id: created.id, attributes: { value: "b", description: "changed", hcl: true } } },
        });
        expect(patched.status).toBe(200);
        const read = await variable.read(created.id, created.outs);
        const expected = { ...created.outs, value: "b", description: "changed", hcl: true };
        expect(read).toEqual({ id: created.id, props: expected, inputs: expected });
    });

    it("reads a variable deleted outside Pulumi as gone", async () => {
        const created = await variable.create(await checked({ workspaceId: WORKSPACE, key: uniqueKey("GONE"), category: "env" }));
        expect((await server().request("DELETE", `/vars/${created.id}`, { token: TOKEN })).status).toBe(204);
        expect((await variable.read(created.id, created.outs)).id).toBeUndefined();
    });

    it("reads a variable whose workspace was deleted outside Pulumi as gone, and deleting it then succeeds", async () => {
        const created = await variable.create(
            await checked({ workspaceId: WORKSPACES.defaultProject, key: uniqueKey("ORPHAN"), category: "env" }),
        );
        expect((await server().request("DELETE", `/workspaces/${WORKSPACES.defaultProject}`, { token: TOKEN })).status).toBe(204);
        expect(await variable.read(created.id, created.outs)).toEqual({});
        await expect(variable.delete(created.id, created.outs)).resolves.toBeUndefined();
    });

    it("reads a variable without a workspace in state (an import) by looking among all variables", async () => {
        const created = await variable.create(await checked({ workspaceId: WORKSPACE, key: uniqueKey("IMPORT"), value: "x", category: "infra" }));
        const read = await variable.read(created.id, {});
        expect(read.props).toEqual(created.outs);
    });

    it("updates value, description, hcl and key of a plain variable in place", async () => {
        const created = await variable.create(await checked({ workspaceId: WORKSPACE, key: uniqueKey("UPD"), value: "1", category: "infra" }));
        const newKey = uniqueKey("RENAMED");
        const news = await checked({ workspaceId: WORKSPACE, key: newKey, value: "2", description: "d", category: "infra", hcl: true });
        const updated = await variable.update(created.id, created.outs, news);
        expect(updated.outs).toEqual({ workspaceId: WORKSPACE, key: newKey, value: "2", description: "d", category: "infra", hcl: true, sensitive: false });
        const raw = await variablesWithKey(newKey);
        expect(raw).toHaveLength(1);
        expect(raw[0].id).toBe(created.id);
        expect(raw[0].attributes).toMatchObject({ value: "2", description: "d", hcl: true });
        expect((await variable.diff(created.id, updated.outs!, news)).changes).toBe(false);
    });

    it("makes a plain variable sensitive in place, keeping the value in state", async () => {
        const key = uniqueKey("HIDE");
        const created = await variable.create(await checked({ workspaceId: WORKSPACE, key, value: "v", category: "env" }));
        const news = await checked({ workspaceId: WORKSPACE, key, value: "v", category: "env", sensitive: true });
        const updated = await variable.update(created.id, created.outs, news);
        expect(updated.outs).toMatchObject({ value: "v", sensitive: true });
        const raw = await variablesWithKey(key);
        expect(raw[0].attributes).toMatchObject({ sensitive: true, value: null });
    });

    it("changes the value of a sensitive variable in place", async () => {
        const key = uniqueKey("ROTATE");
        const created = await variable.create(await checked({ workspaceId: WORKSPACE, key, value: "old", category: "env", sensitive: true }));
        const news = await checked({ workspaceId: WORKSPACE, key, value: "new", category: "env", sensitive: true });
        const updated = await variable.update(created.id, created.outs, news);
        expect(updated.outs).toMatchObject({ value: "new", sensitive: true });
        expect((await variable.read(created.id, updated.outs)).props).toMatchObject({ value: "new" });
    });

    it("reports a duplicate key with the service's message and creates nothing", async () => {
        const key = uniqueKey("DUP");
        await variable.create(await checked({ workspaceId: WORKSPACE, key, category: "env" }));
        const error = await rejection(variable.create(await checked({ workspaceId: WORKSPACE, key, value: "s3cret", category: "env", sensitive: true })));
        expect(error.message).toMatch(new RegExp(`wos:Variable '${key}' \\(env\\) in workspace ${WORKSPACE}: create failed`));
        expect(error.message).toMatch(/422/);
        expect(error.message).not.toContain("s3cret");
        expect(error.message).not.toContain(TOKEN);
        expect(await variablesWithKey(key)).toHaveLength(1);
    });

    it("deletes a variable, and deleting it again succeeds", async () => {
        const key = uniqueKey("DEL");
        const created = await variable.create(await checked({ workspaceId: WORKSPACE, key, category: "env" }));
        await variable.delete(created.id, created.outs);
        expect(await variablesWithKey(key)).toEqual([]);
        await expect(variable.delete(created.id, created.outs)).resolves.toBeUndefined();
    });
});

describe("a create whose answer is lost", () => {
    it.each([
        ["a 503 after the commit", { status: 503 }],
        ["a dropped connection after the commit", { reset: true }],
    ])("recovers the variable on %s: one variable, its id in state", async (_what, fault) => {
        const key = uniqueKey("LOST");
        await server().addFault({ method: "POST", path: "^/api/v2/vars$", times: 1, afterCommit: true, ...fault });
        const created = await variable.create(await checked({ workspaceId: WORKSPACE, key, value: "s3cret", category: "env", sensitive: true }));
        const raw = await variablesWithKey(key);
        expect(raw).toHaveLength(1);
        expect(created.id).toBe(raw[0].id);
        expect(created.outs).toEqual({ workspaceId: WORKSPACE, key, value: "s3cret", category: "env", hcl: false, sensitive: true });
    });

    it.each([
        ["a 503 before the commit", { status: 503 }],
        ["a dropped connection before the commit", { reset: true }],
    ])("never takes over a variable that held the key before the create (%s): it fails and leaves that variable alone", async (_what, fault) => {
        const key = uniqueKey("THEIRS");
        const theirs = await server().request("POST", "/vars", {
            token: TOKEN,
            body: {
                data: {
                    type: "vars",
                    attributes: { key, value: "their-value", category: "env", description: "theirs" },
                    relationships: { workspace: { data: { type: "workspaces", id: WORKSPACE } } },
                },
            },
        });
        expect(theirs.status).toBe(201);
        await server().addFault({ method: "POST", path: "^/api/v2/vars$", times: 1, ...fault });
        const error = await rejection(
            variable.create(await checked({ workspaceId: WORKSPACE, key, value: "s3cret", category: "env", sensitive: true })),
        );
        expect(error.message).toMatch(new RegExp(`wos:Variable '${key}' \\(env\\) in workspace ${WORKSPACE}: create failed`));
        expect(error.message).toMatch(/existed before this create, so it is left alone/);
        expect(error.message).not.toContain("s3cret");
        expect((error as { id?: string }).id).toBeUndefined();
        const raw = await variablesWithKey(key);
        expect(raw).toHaveLength(1);
        expect(raw[0].attributes).toMatchObject({ value: "their-value", description: "theirs", sensitive: false });
    });

    it("never adopts a sensitive variable that someone else made with the key while the answer of a plain create was held", async () => {
        const key = uniqueKey("HELD");
        // The provider's POST takes this rule: nothing is written, and its 503 is held back a while.
        await server().addFault({ method: "POST", path: "^/api/v2/vars$", times: 1, status: 503, delayMs: 1500 });
        // The moment that POST reaches the service, someone else makes a sensitive variable with the same key.
        const events: string[] = [];
        let theirs: Promise<{ status: number; body: any }> | undefined;
        const fromProvider = (request: IncomingMessage) => /^pulumi-wos\//.test(String(request.headers["user-agent"] ?? ""));
        const onRequest = (message: unknown) => {
            const request = (message as { request: IncomingMessage }).request;
            if (!fromProvider(request)) return;
            if (request.method === "POST" && request.url === "/api/v2/vars" && theirs === undefined) {
                events.push("provider create");
                theirs = server()
                    .request("POST", "/vars", {
                        token: TOKEN,
                        body: {
                            data: {
                                type: "vars",
                                attributes: { key, value: "their-secret", category: "env", description: "theirs", sensitive: true },
                                relationships: { workspace: { data: { type: "workspaces", id: WORKSPACE } } },
                            },
                        },
                    })
                    .then((response) => {
                        events.push("theirs created");
                        return response;
                    });
            } else if (request.method === "GET" && request.url?.startsWith("/api/v2/vars?") && theirs !== undefined) {
                events.push("provider looks up");
            }
        };
        diagnosticsChannel.subscribe("http.server.request.start", onRequest);
        let error: Error;
        try {
            error = await rejection(variable.create(await checked({ workspaceId: WORKSPACE, key, value: "plain-value", category: "env" })));
        } finally {
            diagnosticsChannel.unsubscribe("http.server.request.start", onRequest);
        }
        expect(theirs).toBeDefined();
        const made = await theirs!;
        expect(made.status).toBe(201);
        // The look-up after the lost answer saw their variable: otherwise this test would prove nothing.
        expect(events.slice(0, 3)).toEqual(["provider create", "theirs created", "provider looks up"]);
        expect(error.message).toMatch(new RegExp(`wos:Variable '${key}' \\(env\\) in workspace ${WORKSPACE}: create failed.*503`));
        // Not a partial success: their variable is not taken into state, so no destroy of this stack deletes it.
        expect((error as { id?: string }).id).toBeUndefined();
        const raw = await variablesWithKey(key);
        expect(raw).toHaveLength(1);
        expect(raw[0].id).toBe(made.body.data.id);
        expect(raw[0].attributes).toMatchObject({ value: null, description: "theirs", sensitive: true });
    });

    it("fails without inventing a variable when the service failed before committing", async () => {
        const key = uniqueKey("NEVER");
        await server().addFault({ method: "POST", path: "^/api/v2/vars$", times: 1, status: 503 });
        const error = await rejection(variable.create(await checked({ workspaceId: WORKSPACE, key, category: "env" })));
        expect(error.message).toMatch(/create failed.*503/);
        expect(await variablesWithKey(key)).toEqual([]);
    });
});
