/**
 * The error codes of the local service: the table "Error codes" of `docs/server.md` lists exactly the codes of
 * `ERROR_CODES` (server/errors.ts), every one of them is answered somewhere (used by name in server/), none is
 * written out as text outside the constant, and real requests over HTTP get the right `code` and `meta`: each
 * specific code, and the general ones of the HTTP layer. Assertions are on codes, statuses and ids, never on
 * the words of a detail.
 */
import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import Database from "better-sqlite3";
import { codeForStatus, ERROR_CODES, MAX_ERRORS_PER_ANSWER, MAX_LIST_ITEMS } from "../../server/errors";
import { TOKENS, WORKSPACES } from "../support/seed";
import { startTestServer, type TestServer } from "../support/server";
import {
    clientFor,
    createNoCodeModule,
    expectStatus,
    http,
    initiateUpgrade,
    moduleWithWorkspace,
    moveDocument,
    noCodeModuleDocument,
    noCodePaths,
    projectDocument,
    UNAUTHORIZED_BODY,
    upgradeDocument,
    variableDocument,
    withNoCodeServer,
    type HttpResponse,
    type NoCodeServer,
} from "./helpers";

const ROOT = resolve(__dirname, "../..");

/** The codes of the table "Error codes" of docs/server.md, with their status column. */
function documentedCodes(): Map<string, string> {
    const text = readFileSync(join(ROOT, "docs/server.md"), "utf8");
    const start = text.indexOf("\n## Error codes\n");
    expect(start).toBeGreaterThanOrEqual(0);
    const section = text.slice(start + 1).split(/\n## /)[0]!;
    const codes = new Map<string, string>();
    for (const line of section.split("\n")) {
        const row = /^\| `([a-z_]+)` \| ([^|]+) \|/.exec(line);
        if (row) codes.set(row[1]!, row[2]!.trim());
    }
    return codes;
}

/** The TypeScript sources of server/ (not its build), as text by path. */
function serverSources(): Map<string, string> {
    const sources = new Map<string, string>();
    const walk = (dir: string): void => {
        for (const name of readdirSync(dir)) {
            const path = join(dir, name);
            if (statSync(path).isDirectory()) {
                if (name !== "dist" && name !== "node_modules") walk(path);
            } else if (name.endsWith(".ts") && !name.endsWith(".d.ts")) {
                sources.set(path, readFileSync(path, "utf8"));
            }
        }
    };
    walk(join(ROOT, "server"));
    return sources;
}

/** A source without the definition of ERROR_CODES (what remains is the codes' use) nor the titles, whose words a code may share. */
function withoutDefinition(source: string): string {
    return source.replace(/export const ERROR_CODES = \{[\s\S]*?\} as const;/, "").replace(/const TITLES: Record<number, string> = \{[\s\S]*?\};/, "");
}

describe("the table of error codes", () => {
    const codes = Object.values(ERROR_CODES) as string[];

    test("lists every code of ERROR_CODES, and no other", () => {
        expect([...documentedCodes().keys()].sort()).toEqual([...codes].sort());
    });

    test("gives each general code the status it is answered with", () => {
        const table = documentedCodes();
        for (const status of [400, 403, 404, 405, 408, 413, 415, 417, 422, 429, 431, 500, 503]) {
            expect(table.get(codeForStatus(status))).toBe(String(status));
        }
        expect(codeForStatus(418)).toBe("client_error");
        expect(codeForStatus(502)).toBe("internal_error");
    });

    test("codes are snake_case and unique", () => {
        for (const code of codes) expect(code).toMatch(/^[a-z]+(_[a-z]+)*$/);
        expect(new Set(codes).size).toBe(codes.length);
    });

    test("every code is used by name in server/, and none is written out as text there", () => {
        const uses = [...serverSources().values()].map(withoutDefinition).join("\n");
        for (const [name, code] of Object.entries(ERROR_CODES)) {
            expect({ name, used: new RegExp(`ERROR_CODES\\.${name}\\b`).test(uses) }).toEqual({ name, used: true });
            expect({ code, literal: uses.includes(`"${code}"`) }).toEqual({ code, literal: false });
        }
    });
});

/** The code and meta of every error object of an answer of `status`. */
function codesOf(response: HttpResponse, status: number): { code?: string; meta?: Record<string, unknown> }[] {
    expect({ status: response.status, body: response.body }).toEqual({ status, body: expect.anything() });
    return (response.body.errors as any[]).map((error) => (error.meta === undefined ? { code: error.code } : { code: error.code, meta: error.meta }));
}

describe("answers over HTTP", () => {
    let started: NoCodeServer;
    // Plans never leave `pending` here: an upgrade stays unfinished for the whole suite.
    withNoCodeServer((value) => (started = value), { planStepMs: 3_600_000 });
    const owners = () => clientFor(started.server, TOKENS.owners);

    test("401 keeps the hosted service's exact body, without a code", async () => {
        const response = await http(started.server, "GET", "/organizations/acme/projects", { token: "nobody" });
        expect(response.status).toBe(401);
        expect(response.body).toEqual(UNAUTHORIZED_BODY);
    });

    test("route_not_found for an unknown path, not_found for an unknown resource", async () => {
        expect(codesOf(await owners().get("/no-such-endpoint"), 404)).toEqual([{ code: "route_not_found" }]);
        expect(codesOf(await owners().get("/projects/prj-doesnotexist0001"), 404)).toEqual([{ code: "not_found" }]);
    });

    test("organization_token_not_allowed where a user or team token is needed", async () => {
        const response = await clientFor(started.server, TOKENS.acmeOrganization).post(
            noCodePaths.modules("acme"),
            noCodeModuleDocument({ registryModuleId: started.registryModule() }),
        );
        expect(codesOf(response, 404)).toEqual([{ code: "organization_token_not_allowed" }]);
    });

    test("forbidden names the workspaces a move refused", async () => {
        const response = await owners().post(`/projects/${started.ids.Apps}/relationships/workspaces`, moveDocument(["ws-unknown000000001"]));
        expect(codesOf(response, 403)).toEqual([{ code: "forbidden", meta: { "workspace-ids": ["ws-unknown000000001"] } }]);
    });

    test("bad_request for a body that is not JSON and for a bad query parameter", async () => {
        expect(codesOf(await owners().raw("POST", "/organizations/acme/projects", "{"), 400)).toEqual([{ code: "bad_request" }]);
        const page = await owners().get("/organizations/acme/projects?page%5Bnumber%5D=x");
        expect(codesOf(page, 400)).toEqual([{ code: "bad_request" }]);
        expect(page.body.errors[0].source).toEqual({ parameter: "page[number]" });
    });

    test("invalid_parameter for a filter without the one it needs", async () => {
        const response = await owners().get("/vars?filter%5Bworkspace%5D%5Bname%5D=app");
        expect(codesOf(response, 422)).toEqual([{ code: "invalid_parameter" }]);
    });

    test("invalid_attribute for a value that breaks a rule", async () => {
        const codes = codesOf(await owners().post("/organizations/acme/projects", projectDocument({ name: "" })), 422);
        expect(codes.length).toBeGreaterThan(0);
        expect(codes.every((error) => error.code === "invalid_attribute")).toBe(true);
    });

    test("name_taken names the project or workspace that holds the name", async () => {
        const project = await owners().post("/organizations/acme/projects", projectDocument({ name: "apps" }));
        expect(codesOf(project, 422)).toEqual([{ code: "name_taken", meta: { "holder-id": started.ids.Apps } }]);
        const holder = (await owners().get(`/workspaces/${WORKSPACES.appsLegacy}`)).body.data;
        const workspace = await owners().post("/organizations/acme/workspaces", {
            data: { type: "workspaces", attributes: { name: holder.attributes.name.toUpperCase() } },
        });
        expect(codesOf(workspace, 422)).toEqual([{ code: "name_taken", meta: { "holder-id": WORKSPACES.appsLegacy } }]);
    });

    test("key_taken names the variable that holds the key", async () => {
        const workspaceId = WORKSPACES.appsWeb;
        const first = await owners().post("/vars", variableDocument(workspaceId, { key: "ERROR_CODE_KEY", value: "1", category: "env" }));
        expectStatus(first, 201);
        const again = await owners().post("/vars", variableDocument(workspaceId, { key: "ERROR_CODE_KEY", value: "2", category: "env" }));
        expect(codesOf(again, 422)).toEqual([{ code: "key_taken", meta: { "holder-id": first.body.data.id } }]);
    });

    test("no_code_module_exists names the registry module's no-code module", async () => {
        const registryModuleId = started.registryModule();
        const module = await createNoCodeModule(started.server, { registryModuleId });
        const again = await owners().post(noCodePaths.modules("acme"), noCodeModuleDocument({ registryModuleId }));
        expect(codesOf(again, 422)).toEqual([{ code: "no_code_module_exists", meta: { "holder-id": module.id } }]);
    });

    test("too_many_errors closes a list of 20, with the count of the rest", async () => {
        const tags = Array.from({ length: MAX_ERRORS_PER_ANSWER + 5 }, (_, index) => ({ key: `bad key ${index}!`, value: "v" }));
        const codes = codesOf(await owners().post("/organizations/acme/projects", projectDocument({ name: "Too Many Errors" }, tags)), 422);
        expect(codes).toHaveLength(MAX_ERRORS_PER_ANSWER + 1);
        expect(codes.slice(0, MAX_ERRORS_PER_ANSWER).every((error) => error.code === "invalid_attribute")).toBe(true);
        expect(codes[MAX_ERRORS_PER_ANSWER]).toEqual({ code: "too_many_errors", meta: { "unlisted-count": 5 } });
    });

    test("too_many_items for lists over the limit", async () => {
        const ids = Array.from({ length: MAX_LIST_ITEMS + 1 }, (_, index) => `ws-${String(index).padStart(16, "0")}`);
        const response = await owners().post(`/projects/${started.ids.Apps}/relationships/workspaces`, moveDocument(ids));
        expect(codesOf(response, 422)).toEqual([{ code: "too_many_items", meta: { "item-limit": MAX_LIST_ITEMS } }]);
    });

    test("project_has_workspaces and default_project_undeletable on a refused delete", async () => {
        const apps = await owners().get(`/projects/${started.ids.Apps}`);
        const count = apps.body.data.attributes["workspace-count"];
        expect(count).toBeGreaterThan(0);
        expect(codesOf(await owners().delete(`/projects/${started.ids.Apps}`), 409)).toEqual([
            { code: "project_has_workspaces", meta: { "workspace-count": count } },
        ]);
        const defaultId = started.ids["Default Project"];
        expect(codesOf(await owners().delete(`/projects/${defaultId}`), 409)).toEqual([
            { code: "default_project_undeletable", meta: { "project-id": defaultId } },
        ]);
    });

    test("upgrade_in_progress names the unfinished run; upgrade_not_confirmable names the run and its status", async () => {
        const { moduleId, workspace } = await moduleWithWorkspace(started);
        const run = await initiateUpgrade(started.server, moduleId, workspace.id, [{ key: "size", value: "2", category: "infra" }]);
        const again = await owners().post(noCodePaths.upgrade(moduleId, workspace.id), upgradeDocument());
        expect(codesOf(again, 409)).toEqual([{ code: "upgrade_in_progress", meta: { "run-id": run.id, status: "pending" } }]);
        // The words are for the person who reads the refusal: they name the run to wait for and where it stands.
        expect(again.body.errors[0].detail).toMatch(new RegExp(`\\(${run.id}\\) is still 'pending'`));
        const confirm = await owners().post(noCodePaths.run(moduleId, workspace.id, run.id));
        expect(codesOf(confirm, 409)).toEqual([{ code: "upgrade_not_confirmable", meta: { "run-id": run.id, status: "pending" } }]);
    });

    test("payload_too_large and unsupported_media_type from the body parser", async () => {
        const big = await owners().raw("POST", "/organizations/acme/projects", JSON.stringify({ data: { padding: "x".repeat(1024 * 1024 + 1) } }));
        expect(codesOf(big, 413)).toEqual([{ code: "payload_too_large" }]);
        const text = await http(started.server, "POST", "/organizations/acme/projects", {
            token: TOKENS.owners,
            rawBody: JSON.stringify(projectDocument({ name: "Not A Media Type" })),
            headers: { "content-type": "invalid" },
        });
        expect(codesOf(text, 415)).toEqual([{ code: "unsupported_media_type" }]);
    });

    test("injected faults have no code, as the hosted service's answers", async () => {
        await started.server.addFault({ method: "GET", path: "^/api/v2/organizations/acme/projects$", times: 1, status: 409 });
        expect(codesOf(await owners().get("/organizations/acme/projects"), 409)).toEqual([{ code: undefined }]);
    });
});

describe("rate_limited", () => {
    let server: TestServer;
    beforeAll(async () => {
        server = await startTestServer({ rateLimit: 1 });
    });
    afterAll(async () => {
        await server?.close();
    });

    test("over the limit of a token", async () => {
        const answers = await Promise.all([1, 2, 3].map(() => clientFor(server, TOKENS.owners).get("/organizations/acme/projects")));
        const limited = answers.find((answer) => answer.status === 429);
        expect(limited).toBeDefined();
        expect(codesOf(limited!, 429)).toEqual([{ code: "rate_limited" }]);
    });
});

describe("database_busy and concurrent_change (the database file changed behind the service's back)", () => {
    let dir: string;
    let server: TestServer;
    let other: Database.Database;
    beforeAll(async () => {
        dir = mkdtempSync(join(tmpdir(), "wos-error-codes-"));
        server = await startTestServer({ dataPath: join(dir, "wos.db") });
        other = new Database(join(dir, "wos.db"));
    });
    afterAll(async () => {
        other?.close();
        await server?.close();
        rmSync(dir, { recursive: true, force: true });
    });

    test("concurrent_change when a constraint fails", async () => {
        // A trigger that fails every insert of a project stands for a change the service's own checks could not see.
        other.exec("CREATE TRIGGER refuse_projects BEFORE INSERT ON projects BEGIN SELECT RAISE(ABORT, 'refused'); END");
        try {
            const response = await clientFor(server, TOKENS.owners).post("/organizations/acme/projects", projectDocument({ name: "Behind Its Back" }));
            expect(codesOf(response, 409)).toEqual([{ code: "concurrent_change" }]);
        } finally {
            other.exec("DROP TRIGGER refuse_projects");
        }
    });

    test("database_busy while another process holds the write lock", async () => {
        other.exec("BEGIN IMMEDIATE");
        try {
            const response = await clientFor(server, TOKENS.owners).post("/organizations/acme/projects", projectDocument({ name: "While Locked" }));
            expect(codesOf(response, 503)).toEqual([{ code: "database_busy" }]);
            expect(response.headers["retry-after"]).toBe("1");
        } finally {
            other.exec("ROLLBACK");
        }
    }, 20_000);
});
