/**
 * Arguments are checked with the rules of `sdk/model` before any request: a broken rule is a
 * {@link WosArgumentError} naming the option, and the service never sees the request. "Never sees" is proven
 * with a fault rule on the endpoint that a request would use up: after the refused call, the next real call
 * still meets the fault.
 */
import { WosArgumentError, WosClient, WosServerError, type WosError } from "../../sdk";
import { startTestServer, type TestServer } from "../support/server";
import { TOKENS, WORKSPACES } from "../support/seed";

let server: TestServer;
let client: WosClient;
let projectId: string;

beforeAll(async () => {
    server = await startTestServer();
    client = new WosClient({ address: server.url, token: TOKENS.owners, maxRetries: 0 });
    projectId = (await client.projects.list("acme", { names: ["Apps"] })).items[0]!.id;
});

afterEach(async () => {
    await server.clearFaults();
});

afterAll(async () => {
    await server?.close();
});

/** Runs `call` with a one-shot 503 armed on `method path`, expects a WosArgumentError, and proves the 503 is still armed. */
async function refusedBeforeSending(
    method: string,
    path: string,
    call: () => Promise<unknown>,
    probe: () => Promise<unknown>,
): Promise<WosError> {
    await server.addFault({ method, path, times: 1, status: 503 });
    const error = await call().then(
        () => undefined,
        (failure: unknown) => failure,
    );
    expect(WosArgumentError.isInstance(error)).toBe(true);
    const argumentError = error as WosError;
    expect(argumentError.kind).toBe("invalid_argument");
    expect(argumentError.status).toBeUndefined();
    expect(argumentError.method).toBe(method);
    // The armed fault was not used up: the call above never reached the service.
    const probed = await probe().then(
        () => undefined,
        (failure: unknown) => failure,
    );
    expect(WosServerError.isInstance(probed)).toBe(true);
    return argumentError;
}

const CREATE_PROJECT = "^/api/v2/organizations/acme/projects$";

describe("projects", () => {
    const probe = () => client.projects.create("acme", { name: `probe ${Math.random().toString(36).slice(2, 10)}` });

    it.each([
        ["a name under 3 characters", { name: "ab" }, "options.name: must be at least 3 characters"],
        ["a name with a '!'", { name: "bad!" }, "options.name: may contain only letters"],
        ["a name with a trailing space", { name: "Apps " }, "options.name: must not start or end with a space"],
        ["a description over 256 characters", { name: "Fine", description: "d".repeat(257) }, "options.description: must be at most 256"],
        ["a duration of 0 days", { name: "Fine", autoDestroyActivityDuration: "0d" }, "options.autoDestroyActivityDuration: must be an integer greater than 0"],
        ["a duration in minutes", { name: "Fine", autoDestroyActivityDuration: "30m" }, "options.autoDestroyActivityDuration:"],
        ["a reserved tag key", { name: "Fine", tagBindings: [{ key: "HC:owner", value: "x" }] }, "options.tagBindings[0].key: must not start with a reserved prefix"],
        ["a tag value with a space", { name: "Fine", tagBindings: [{ key: "team", value: "a b" }] }, "options.tagBindings[0].value: may contain only"],
        [
            "a tag key twice",
            { name: "Fine", tagBindings: [{ key: "team", value: "a" }, { key: "team", value: "b" }] },
            "options.tagBindings[1].key: tag key 'team' appears more than once",
        ],
        [
            "eleven tags",
            { name: "Fine", tagBindings: Array.from({ length: 11 }, (_, i) => ({ key: `k${i}`, value: "v" })) },
            "options.tagBindings: a project may have at most 10 tags",
        ],
    ])("create refuses %s before sending", async (_what, options, message) => {
        const error = await refusedBeforeSending("POST", CREATE_PROJECT, () => client.projects.create("acme", options), probe);
        expect(error.message).toContain(message);
        expect(error.path).toBe("/organizations/:organization/projects");
    });

    it("update refuses a bad name and a bad duration in one error, naming both", async () => {
        const error = await refusedBeforeSending(
            "PATCH",
            `^/api/v2/projects/${projectId}$`,
            () => client.projects.update(projectId, { name: "x", autoDestroyActivityDuration: "99999d" }),
            () => client.projects.update(projectId, { description: "probe" }),
        );
        expect(error.message).toContain("options.name: must be at least 3 characters");
        expect(error.message).toContain("options.autoDestroyActivityDuration:");
    });

    it("addTagBindings refuses a bad key by its index", async () => {
        const error = await refusedBeforeSending(
            "PATCH",
            `^/api/v2/projects/${projectId}/tag-bindings$`,
            () => client.projects.addTagBindings(projectId, [{ key: "ok", value: "1" }, { key: "hcp:x", value: "2" }]),
            () => client.projects.addTagBindings(projectId, [{ key: "probe", value: "1" }]),
        );
        expect(error.message).toContain("tags[1].key: must not start with a reserved prefix");
    });

    it("list refuses a page number of 0", async () => {
        const error = await refusedBeforeSending(
            "GET",
            CREATE_PROJECT,
            () => client.projects.list("acme", { pageNumber: 0 }),
            () => client.projects.list("acme"),
        );
        expect(error.message).toContain("options.pageNumber: must be a whole number of at least 1");
    });

    it("moveWorkspaces refuses an empty workspace id", async () => {
        const error = await refusedBeforeSending(
            "POST",
            "/relationships/workspaces$",
            () => client.projects.moveWorkspaces(projectId, [WORKSPACES.appsLegacy, " "]),
            () => client.projects.moveWorkspaces(projectId, [WORKSPACES.appsLegacy]),
        );
        expect(error.message).toContain("workspaceIds[1]: must be a non-empty workspace id");
    });

    it("a token pasted into a tag key stays out of the refusal", async () => {
        const token = TOKENS.owners;
        const error = await refusedBeforeSending(
            "PATCH",
            `^/api/v2/projects/${projectId}/tag-bindings$`,
            () => client.projects.addTagBindings(projectId, [{ key: token, value: "1" }, { key: token, value: "2" }]),
            () => client.projects.addTagBindings(projectId, [{ key: "probe", value: "1" }]),
        );
        expect(error.message).toContain("tag key '[REDACTED]' appears more than once");
        expect(JSON.stringify(error)).not.toContain(token);
        expect(String(error.stack)).not.toContain(token);
    });
});

describe("variables and workspaces", () => {
    const probeVariable = () =>
        client.variables.create(WORKSPACES.staging, { key: `probe_${Math.random().toString(36).slice(2, 10)}`, category: "env" });

    it.each([
        ["a category other than infra or env", { key: "k", category: "terraform" }, "options.category: must be 'infra' or 'env'"],
        ["an empty key", { key: "", category: "env" }, "options.key: is required"],
        ["a description over 512 characters", { key: "k", category: "env", description: "d".repeat(513) }, "options.description: must be at most 512"],
        ["a sensitive flag that is not a boolean", { key: "k", category: "env", sensitive: "yes" }, "options.sensitive: must be true or false"],
    ])("variables.create refuses %s before sending", async (_what, options, message) => {
        const error = await refusedBeforeSending(
            "POST",
            "^/api/v2/vars$",
            () => client.variables.create(WORKSPACES.staging, { ...(options as { key: string; category: "env" }) }),
            probeVariable,
        );
        expect(error.message).toContain(message);
    });

    it("variables.create leaves a value's size to the service (256 KiB is only the local service's limit)", async () => {
        const error = (await client.variables
            .create(WORKSPACES.staging, { key: "big", category: "env", value: "x".repeat(256 * 1024 + 1) })
            .catch((failure: unknown) => failure)) as WosError;
        expect(error.kind).toBe("validation");
        expect(error.status).toBe(422);
        expect(error.errors[0]?.source?.pointer).toBe("/data/attributes/value");
    });

    it("workspaces.update refuses an execution mode the service does not have", async () => {
        const error = await refusedBeforeSending(
            "PATCH",
            `^/api/v2/workspaces/${WORKSPACES.staging}$`,
            () => client.workspaces.update(WORKSPACES.staging, { executionMode: "local" as "remote" }),
            () => client.workspaces.update(WORKSPACES.staging, { description: "probe" }),
        );
        expect(error.message).toContain("options.executionMode: must be 'remote' or 'agent'");
    });
});
