/**
 * The `tagged` option of `client.projects.list` / `listAll` and `client.workspaces.list` against the real
 * local service: what it sends (`filter[tagged][i][key]` / `[value]`, as go-tfe's `TagBindings` option), what
 * the service keeps (every tag must match; an empty value matches any value of the key), and bad tags
 * refused before any request, naming the option and the rule.
 */
import { WosArgumentError, WosClient, WosServerError, type WosError } from "../../sdk";
import { taggedQuery } from "../../sdk/tagFilter";
import { startTestServer, type TestServer } from "../support/server";
import { TOKENS } from "../support/seed";
import { failure, uniqueName } from "./helpers";

let server: TestServer;
let owners: WosClient;
/** A tag key no other test or seed uses, so the lists hold only this file's projects. */
const ENV = `env-${process.pid}`;
const TEAM = `team-${process.pid}`;
let names: { prodWeb: string; prod: string; devWeb: string; untagged: string };
let ids: Record<keyof typeof names, string>;

beforeAll(async () => {
    server = await startTestServer();
    owners = new WosClient({ address: server.url, token: TOKENS.owners, maxRetries: 0 });
    names = { prodWeb: uniqueName("prod-web"), prod: uniqueName("prod"), devWeb: uniqueName("dev-web"), untagged: uniqueName("untagged") };
    const tags: Record<keyof typeof names, { key: string; value: string }[]> = {
        prodWeb: [
            { key: ENV, value: "prod" },
            { key: TEAM, value: "web" },
        ],
        prod: [{ key: ENV, value: "prod" }],
        devWeb: [
            { key: ENV, value: "dev" },
            { key: TEAM, value: "web" },
        ],
        untagged: [],
    };
    ids = {} as typeof ids;
    for (const which of Object.keys(names) as (keyof typeof names)[]) {
        const project = await owners.projects.create("acme", { name: names[which], tagBindings: tags[which] });
        ids[which] = project.id;
    }
});

afterAll(async () => {
    await server?.close();
});

/** The names of the projects a list answered, sorted. */
async function listedProjects(tagged: Record<string, string>): Promise<string[]> {
    const page = await owners.projects.list("acme", { tagged, pageSize: 100 });
    expect(page.pagination.totalCount).toBe(page.items.length);
    return page.items.map((project) => project.name).sort();
}

describe("taggedQuery: the parameters sent", () => {
    it("one key and value pair per tag, numbered in order; an empty value sends the key alone", () => {
        expect(taggedQuery({ env: "prod", team: "", tier: "1" })).toEqual({
            "filter[tagged][0][key]": "env",
            "filter[tagged][0][value]": "prod",
            "filter[tagged][1][key]": "team",
            "filter[tagged][2][key]": "tier",
            "filter[tagged][2][value]": "1",
        });
        expect(taggedQuery(undefined)).toEqual({});
        expect(taggedQuery({})).toEqual({});
    });
});

describe("projects.list with tagged", () => {
    it("one tag: the projects bound to it with that value only", async () => {
        expect(await listedProjects({ [ENV]: "prod" })).toEqual([names.prodWeb, names.prod].sort());
        expect(await listedProjects({ [ENV]: "dev" })).toEqual([names.devWeb]);
    });

    it("two tags: only the projects bound to both (AND)", async () => {
        expect(await listedProjects({ [ENV]: "prod", [TEAM]: "web" })).toEqual([names.prodWeb]);
        expect(await listedProjects({ [TEAM]: "web", [ENV]: "dev" })).toEqual([names.devWeb]);
    });

    it("an empty value: every project bound to the key, whatever its value", async () => {
        expect(await listedProjects({ [ENV]: "" })).toEqual([names.prodWeb, names.prod, names.devWeb].sort());
        expect(await listedProjects({ [TEAM]: "", [ENV]: "prod" })).toEqual([names.prodWeb]);
    });

    it("a value no project has: an empty page with counts of zero", async () => {
        const page = await owners.projects.list("acme", { tagged: { [ENV]: "staging" } });
        expect(page.items).toEqual([]);
        expect(page.pagination.totalCount).toBe(0);
    });

    it("combines with the other options: a name search, sorting, paging with listAll", async () => {
        const searched = await owners.projects.list("acme", { tagged: { [ENV]: "" }, query: "prod", sort: "-name" });
        expect(searched.items.map((project) => project.name)).toEqual([names.prodWeb, names.prod].sort().reverse());
        const all: string[] = [];
        for await (const project of owners.projects.listAll("acme", { tagged: { [ENV]: "" }, pageSize: 1 })) all.push(project.name);
        expect(all.sort()).toEqual([names.prodWeb, names.prod, names.devWeb].sort());
    });

    it("without tagged every project is listed, the untagged one too", async () => {
        const page = await owners.projects.list("acme", { names: Object.values(names) });
        expect(page.items.map((project) => project.name).sort()).toEqual(Object.values(names).sort());
    });
});

describe("workspaces.list with tagged", () => {
    it("only the workspaces of projects bound to every tag", async () => {
        const inProdWeb = await owners.workspaces.create("acme", { name: uniqueName("ws-prod-web"), projectId: ids.prodWeb });
        const inDevWeb = await owners.workspaces.create("acme", { name: uniqueName("ws-dev-web"), projectId: ids.devWeb });
        const inUntagged = await owners.workspaces.create("acme", { name: uniqueName("ws-untagged"), projectId: ids.untagged });
        const listed = async (tagged: Record<string, string>) =>
            (await owners.workspaces.list("acme", { tagged, pageSize: 100 })).items.map((workspace) => workspace.id).sort();
        expect(await listed({ [TEAM]: "web" })).toEqual([inProdWeb.id, inDevWeb.id].sort());
        expect(await listed({ [TEAM]: "web", [ENV]: "prod" })).toEqual([inProdWeb.id]);
        expect(await listed({ [ENV]: "staging" })).toEqual([]);
        const everything = (await owners.workspaces.list("acme", { pageSize: 100 })).items.map((workspace) => workspace.id);
        expect(everything).toEqual(expect.arrayContaining([inProdWeb.id, inDevWeb.id, inUntagged.id]));
    });
});

describe("bad tags are refused before any request", () => {
    const LIST_PATH = "^/api/v2/organizations/acme/(projects|workspaces)$";

    /** Expects `call` to fail with a WosArgumentError naming `named`, and proves no request reached the service. */
    async function refusedBeforeSending(call: () => Promise<unknown>, named: string): Promise<WosError> {
        await server.addFault({ method: "GET", path: LIST_PATH, times: 1, status: 503 });
        const error = (await failure(call())) as WosError;
        expect(WosArgumentError.isInstance(error)).toBe(true);
        expect(error.message).toContain(named);
        // The armed 503 is still there: the refused call sent nothing.
        expect(WosServerError.isInstance(await failure(owners.projects.list("acme")))).toBe(true);
        return error;
    }

    it.each([
        ["an empty key", { "": "prod" }, 'tag key "": must not be empty'],
        ["a key with a space", { "two words": "x" }, 'tag key "two words": '],
        ["a key of 129 characters", { ["k".repeat(129)]: "x" }, "at most 128 characters"],
        ["a reserved hc: key", { "hc:env": "x" }, 'tag key "hc:env": must not start with a reserved prefix'],
        ["a value of 257 characters", { env: "v".repeat(257) }, "options.tagged.env: must be at most 256 characters"],
        ["a value that is not a string", { env: 3 }, "options.tagged.env: "],
    ])("projects.list: %s", async (_label, tagged, rule) => {
        const error = await refusedBeforeSending(() => owners.projects.list("acme", { tagged } as never), "options.tagged");
        expect(error.message).toContain(rule);
        expect(error.message).not.toMatch(/undefined|\[object|Invalid key in record/);
    });

    it("workspaces.list: an empty key", async () => {
        await refusedBeforeSending(() => owners.workspaces.list("acme", { tagged: { "": "x" } }), "options.tagged");
    });

    it("the limits themselves are accepted: a key of 128 characters, a value of 256", async () => {
        const page = await owners.projects.list("acme", { tagged: { ["k".repeat(128)]: "v".repeat(256) } });
        expect(page.items).toEqual([]);
    });
});
