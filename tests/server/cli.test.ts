/**
 * The `wos-server` command line as a user runs it: the built `dist/server/main.js` in a child process
 * (`npm test` builds first). Address line, ping, a real request with a seed token, graceful stop on
 * SIGTERM, durability of a file database across `kill -9`, idempotent seeding, the demo seed.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import Database from "better-sqlite3";
import { DEMO_SEED } from "../../server/seed";
import { ADDRESS_LINE, EXAMPLE_SEED, killStartedClis, runCli, startCli, stopCli as stop, type RunningServer } from "../support/cli";

function api(server: RunningServer, path: string, token?: string, init: RequestInit = {}) {
    const headers: Record<string, string> = { "content-type": "application/vnd.api+json" };
    if (token) headers.authorization = `Bearer ${token}`;
    return fetch(`${server.url}/api/v2${path}`, { ...init, headers });
}

/** Every row of every table, for comparing two states of a database. */
function dump(path: string): Record<string, string[]> {
    const db = new Database(path, { readonly: true });
    try {
        const tables = db.prepare("SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name").all() as { name: string }[];
        // Rows in a stable order without `rowid` (the project-name index's shadow tables have none).
        const rows = (name: string) =>
            db.prepare(`SELECT * FROM "${name}"`).all().map((row) => JSON.stringify(row)).sort();
        return Object.fromEntries(tables.map(({ name }) => [name, rows(name)]));
    } finally {
        db.close();
    }
}

let workDir: string;

beforeAll(() => {
    workDir = mkdtempSync(join(tmpdir(), "wos-cli-"));
});

afterAll(() => {
    killStartedClis();
    rmSync(workDir, { recursive: true, force: true });
});

describe("wos-server command line", () => {
    test("prints its address, answers ping and a project list with a seed token, and exits 0 on SIGTERM", async () => {
        const server = await startCli(["--port", "0", "--data", ":memory:", "--seed", EXAMPLE_SEED]);
        expect(server.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);

        const ping = await api(server, "/ping");
        expect(ping.status).toBe(204);
        expect(ping.headers.get("x-ratelimit-limit")).not.toBeNull();

        const list = await api(server, "/organizations/acme/projects", "team-owners-secret");
        expect(list.status).toBe(200);
        const body = (await list.json()) as { data: { attributes: { name: string } }[] };
        expect(body.data.map((project) => project.attributes.name).sort()).toEqual(["Apps", "Default Project"]);

        expect(await stop(server)).toBe(0);
    });

    test("never writes a bearer token to its logs", async () => {
        const server = await startCli(["--port", "0", "--data", ":memory:", "--seed", EXAMPLE_SEED, "--log-level", "trace"]);
        await api(server, "/organizations/acme/projects", "team-owners-secret");
        await api(server, "/organizations/acme/projects", "not-a-token-at-all");
        expect(await stop(server)).toBe(0);
        expect(server.stderr()).toContain("incoming request");
        expect(server.stderr()).not.toContain("team-owners-secret");
        expect(server.stderr()).not.toContain("not-a-token-at-all");
    });

    test("keeps an acknowledged write of a file database across kill -9", async () => {
        const data = join(workDir, "durable", "wos.db");
        const first = await startCli(["--port", "0", "--data", data, "--seed", EXAMPLE_SEED]);
        const created = await api(first, "/organizations/acme/projects", "team-owners-secret", {
            method: "POST",
            body: JSON.stringify({ data: { type: "projects", attributes: { name: "Survivor" } } }),
        });
        expect(created.status).toBe(201);
        first.child.kill("SIGKILL");
        expect((await first.exited).signal).toBe("SIGKILL");

        const second = await startCli(["--port", "0", "--data", data]);
        const list = await api(second, "/organizations/acme/projects?filter%5Bnames%5D=Survivor", "team-owners-secret");
        const body = (await list.json()) as { data: { id: string }[] };
        expect(body.data.map((project) => project.id)).toEqual([((await created.json()) as { data: { id: string } }).data.id]);
        expect(await stop(second)).toBe(0);
    });

    test("a write checks its rules inside its own transaction: a name another writer commits meanwhile is a 422, not a conflict", async () => {
        // Another writer on the same file (as a second wos-server would be) holds the write lock with an
        // uncommitted project of the name the service is then asked to create. The service's write waits
        // for the lock; once the other commits, the name must be found taken (422 at the name), which only
        // holds when the check runs in the same transaction as the insert. The pause only lets the request
        // arrive while the lock is held: a late request meets the committed row and answers 422 all the same.
        const data = join(workDir, "shared", "wos.db");
        const server = await startCli(["--port", "0", "--data", data, "--seed", EXAMPLE_SEED]);
        const other = new Database(data);
        try {
            other.pragma("busy_timeout = 5000");
            other.exec("BEGIN IMMEDIATE");
            const timestamp = new Date().toISOString();
            other.prepare("INSERT INTO projects (id, organization, name, created_at, updated_at) VALUES (?, 'acme', 'Held Name', ?, ?)")
                .run("prj-heldbyanother01", timestamp, timestamp);
            const answer = api(server, "/organizations/acme/projects", "team-owners-secret", {
                method: "POST",
                body: JSON.stringify({ data: { type: "projects", attributes: { name: "held name" } } }),
            });
            await new Promise((resolve) => setTimeout(resolve, 300));
            other.exec("COMMIT");
            const response = await answer;
            const body = (await response.json()) as { errors: { detail?: string; source?: { pointer?: string } }[] };
            expect({ status: response.status, errors: body.errors.map((error) => [error.source?.pointer, error.detail]) }).toEqual({
                status: 422,
                errors: [["/data/attributes/name", "Name has already been taken"]],
            });
        } finally {
            if (other.inTransaction) other.exec("ROLLBACK");
            other.close();
        }
        expect(await stop(server)).toBe(0);
    });

    test("applying the same seed file twice changes nothing in the database", async () => {
        const data = join(workDir, "seeded-twice.db");
        const first = await startCli(["--port", "0", "--data", data, "--seed", EXAMPLE_SEED]);
        expect(await stop(first)).toBe(0);
        const before = dump(data);
        expect(before.projects).toHaveLength(2);

        const second = await startCli(["--port", "0", "--data", data, "--seed", EXAMPLE_SEED]);
        expect(await stop(second)).toBe(0);
        expect(dump(data)).toEqual(before);
    });

    test("loads the demo seed on an empty database without --seed and prints its tokens to stderr", async () => {
        const server = await startCli(["--port", "0", "--data", ":memory:"]);
        const tokens = DEMO_SEED.organizations.flatMap((org) => [
            org.organizationToken!,
            ...(org.teams ?? []).flatMap((team) => team.tokens ?? []),
            ...(org.users ?? []).flatMap((user) => user.tokens ?? []),
        ]);
        expect(tokens.length).toBeGreaterThan(0);
        for (const token of tokens) expect(server.stderr()).toContain(token);

        const ping = await api(server, "/organizations/acme/projects", "org-acme-secret");
        expect(ping.status).toBe(200);
        expect(await stop(server)).toBe(0);
    });

    test("does not load the demo seed into a database that already has data", async () => {
        const data = join(workDir, "not-empty.db");
        const custom = join(workDir, "custom-seed.json");
        writeFileSync(custom, JSON.stringify({ organizations: [{ name: "initech", organizationToken: "org-initech-token" }] }));
        const first = await startCli(["--port", "0", "--data", data, "--seed", custom]);
        expect(await stop(first)).toBe(0);

        const second = await startCli(["--port", "0", "--data", data]);
        expect(second.stderr()).not.toContain("demo seed");
        const acme = await api(second, "/organizations/acme/projects", "org-acme-secret");
        expect(acme.status).toBe(401);
        expect(await stop(second)).toBe(0);
    });

    test("refuses to start with a seed file that does not validate, naming the field", async () => {
        const bad = join(workDir, "bad-seed.json");
        writeFileSync(bad, JSON.stringify({ organizations: [{ name: "acme", teams: [{ name: "x", managProjects: true }] }] }));
        const result = await runCli(["--port", "0", "--data", ":memory:", "--seed", bad]);
        expect(result.code).toBe(1);
        expect(result.stdout).not.toMatch(ADDRESS_LINE);
        expect(result.stderr).toContain("organizations[0].teams[0]");
        expect(result.stderr).toContain("managProjects");
    });

    test("refuses an unknown option with the usage", async () => {
        const result = await runCli(["--prot", "1"]);
        expect(result.code).toBe(2);
        expect(result.stderr).toContain("usage: wos-server");
    });

    test("refuses an unknown log level with the usage, naming the levels", async () => {
        const result = await runCli(["--port", "0", "--data", ":memory:", "--log-level", "loud"]);
        expect(result.code).toBe(2);
        expect(result.stdout).not.toMatch(ADDRESS_LINE);
        expect(result.stderr).toContain("--log-level must be one of fatal, error, warn, info, debug, trace, silent, got 'loud'");
        expect(result.stderr).toContain("usage: wos-server");
    });

    test("refuses connection limits out of range and a public URL that is not an http(s) base, naming the option", async () => {
        const cases: [string[], string][] = [
            [["--request-timeout-ms", "0"], "--request-timeout-ms must be a positive integer, got '0'"],
            [["--max-connections", "many"], "--max-connections must be a positive integer, got 'many'"],
            [["--shutdown-grace-ms=1.5"], "--shutdown-grace-ms must be a non-negative integer, got '1.5'"],
            [["--public-url", "ftp://wos.example.test"], "--public-url must be an absolute http:// or https:// URL without credentials, query or fragment, got 'ftp://wos.example.test'"],
            [["--public-url", "https://wos.example.test/?x=1"], "got 'https://wos.example.test/?x=1'"],
            [["--public-url", "wos.example.test"], "got 'wos.example.test'"],
        ];
        for (const [args, message] of cases) {
            const result = await runCli(["--port", "0", "--data", ":memory:", ...args]);
            expect({ args, code: result.code, listening: ADDRESS_LINE.test(result.stdout) }).toEqual({ args, code: 2, listening: false });
            expect(result.stderr).toContain(message);
            expect(result.stderr).toContain("usage: wos-server");
        }
    });

    test("builds absolute links on --public-url, its path prefix kept", async () => {
        const server = await startCli(["--port", "0", "--data", ":memory:", "--seed", EXAMPLE_SEED, "--public-url", "https://wos.example.test/base/"]);
        const list = await api(server, "/organizations/acme/projects?page%5Bsize%5D=1", "team-owners-secret");
        expect(list.status).toBe(200);
        const body = (await list.json()) as { links: Record<string, string | null> };
        expect(body.links.self).toBe("https://wos.example.test/base/api/v2/organizations/acme/projects?page%5Bnumber%5D=1&page%5Bsize%5D=1");
        expect(body.links.next).toBe("https://wos.example.test/base/api/v2/organizations/acme/projects?page%5Bnumber%5D=2&page%5Bsize%5D=1");
        expect(await stop(server)).toBe(0);
    });

    test("the built-in demo seed is the content of examples/seed.json", () => {
        expect(JSON.parse(readFileSync(EXAMPLE_SEED, "utf8"))).toEqual(DEMO_SEED);
    });
});
