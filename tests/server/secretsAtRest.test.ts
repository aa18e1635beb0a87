/**
 * Secrets at rest (issue 6 section 4): a file database and its WAL hold no sensitive value and no token (nor
 * a token's unkeyed SHA-256), whether the value came through `/vars`, a no-code workspace create or an upgrade
 * run; the service works as before after a restart with the same key; another key, a missing key file or a
 * removed key check stop the start with a message naming the key file, and change nothing; the key file is
 * created beside the database with mode 0600 (or given by option or environment); a sealed value that does
 * not open is an error, never a value; and a schema-version-2 database (plain values, SHA-256 token hashes,
 * some of it only in its WAL) is upgraded in place.
 *
 * The byte searches read the files as they are on disk: a value found there is readable by whoever copies
 * the file. Each search also looks for a plain value that must be found, so a search that reads nothing fails.
 */
import { spawn } from "node:child_process";
import { createHash, randomBytes } from "node:crypto";
import { copyFileSync, existsSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import Database from "better-sqlite3";
import { migrate, SCHEMA_VERSION } from "../../server/db";
import { SEALED_PREFIX } from "../../server/secrets";
import { REGISTRY_MODULES, TOKENS, WORKSPACES } from "../support/seed";
import { startTestServer, type TestServer } from "../support/server";
import {
    clientFor,
    createNoCodeModule,
    expectErrors,
    expectStatus,
    noCodePaths,
    noCodeWorkspaceDocument,
    upgradeDocument,
    variableDocument,
    variableUpdateDocument,
    workspaceVars,
} from "./helpers";

let workDir: string;

beforeAll(() => {
    workDir = mkdtempSync(join(tmpdir(), "wos-secrets-"));
});

afterAll(() => {
    rmSync(workDir, { recursive: true, force: true });
});

/** A value no other test, file or run holds. */
function unique(label: string): string {
    return `${label}-${randomBytes(8).toString("hex")}`;
}

/** The bytes of a database and of its WAL and shared-memory files, as they are on disk now. */
function fileBytes(data: string): Buffer {
    return Buffer.concat([data, `${data}-wal`, `${data}-shm`].filter((path) => existsSync(path)).map((path) => readFileSync(path)));
}

/** Which of `needles` occur in `bytes` (as UTF-8). */
function found(bytes: Buffer, needles: readonly string[]): string[] {
    return needles.filter((needle) => bytes.includes(Buffer.from(needle, "utf8")));
}

/** Every token of the test seed, and the unkeyed SHA-256 (hex) of each: what schema version 2 stored. */
const SEED_TOKENS = Object.values(TOKENS);
const sha256 = (text: string) => createHash("sha256").update(text, "utf8").digest("hex");

/** A var item of a no-code create or upgrade. */
function varItem(key: string, value: string, category: "terraform" | "env", sensitive = false) {
    return { key, value, category, sensitive };
}

/** The id of the seed's `Apps` project: the project of its `legacy-app` workspace. */
async function appsProject(server: TestServer): Promise<string> {
    const response = await clientFor(server, TOKENS.owners).get(`/workspaces/${WORKSPACES.appsLegacy}`);
    expectStatus(response, 200);
    return response.body.data.relationships.project.data.id;
}

/** Starts a file-backed service (test seed unless told) whose plans end at once (steps of 0 ms). */
function startFileServer(data: string, options: Parameters<typeof startTestServer>[0] = {}): Promise<TestServer> {
    return startTestServer({ dataPath: data, planStepMs: 0, ...options });
}

/** Starts an upgrade (as the acme owners unless told); answers the run's id and status (its end: steps are 0 ms). */
async function upgrade(
    server: TestServer,
    moduleId: string,
    workspaceId: string,
    vars: readonly Record<string, unknown>[],
    token: string = TOKENS.owners,
) {
    const response = await clientFor(server, token).post(noCodePaths.upgrade(moduleId, workspaceId), upgradeDocument(vars));
    expectStatus(response, 200);
    return { id: response.body.data.id as string, status: response.body.data.attributes.status as string };
}

describe("a file database", () => {
    const data = () => join(workDir, "service", "wos.db");
    const secrets = {
        create: unique("sensitive-from-create"),
        vars: unique("sensitive-from-vars"),
        patched: unique("sensitive-from-patch"),
        run: unique("sensitive-from-run"),
    };
    const plain = unique("plain-marker");
    let moduleId: string;
    let created: string;
    let upgraded: string;
    let pendingRun: string;
    /** The files' bytes while the service ran (database and WAL), and once it had stopped. */
    let running: Buffer;
    let stopped: Buffer;

    // Every test of this block starts from the same database: written through /vars, a no-code create and an
    // upgrade run, then stopped.
    beforeAll(async () => {
        const server = await startFileServer(data());
        try {
            const owners = clientFor(server, TOKENS.owners);
            const apps = await appsProject(server);
            moduleId = (await createNoCodeModule(server, { registryModuleId: REGISTRY_MODULES.bucket, enabled: true, versionPin: "1.0.0" })).id;

            // A workspace made with a sensitive infra var and a plain env var, plus a sensitive var through /vars.
            const create = await owners.post(
                noCodePaths.workspaces(moduleId),
                noCodeWorkspaceDocument({
                    name: "secrets-created",
                    projectId: apps,
                    vars: [varItem("region", secrets.create, "terraform", true), varItem("PLAIN_MARKER", plain, "env")],
                }),
            );
            expectStatus(create, 200);
            created = create.body.data.id;
            const variable = await owners.post("/vars", variableDocument(created, { key: "VIA_VARS", value: secrets.vars, category: "env", sensitive: true }));
            expectStatus(variable, 201);
            expect(variable.body.data.attributes.value).toBeNull();

            // A plain var made sensitive by PATCH with a new value, and a sensitive one kept by a PATCH that leaves the value out.
            const patched = await owners.post("/vars", variableDocument(created, { key: "PATCHED", value: "was-plain", category: "env" }));
            expectStatus(patched, 201);
            expectStatus(await owners.patch(`/vars/${patched.body.data.id}`, variableUpdateDocument(patched.body.data.id, { value: secrets.patched, sensitive: true })), 200);
            const kept = await owners.patch(`/vars/${variable.body.data.id}`, variableUpdateDocument(variable.body.data.id, { description: "kept value" }));
            expectStatus(kept, 200);
            expect(kept.body.data.attributes).toMatchObject({ value: null, sensitive: true, description: "kept value" });

            // Another workspace with an upgrade run left unconfirmed: its desired vars, a sensitive value among them, wait in the run.
            const second = await owners.post(
                noCodePaths.workspaces(moduleId),
                noCodeWorkspaceDocument({ name: "secrets-upgraded", projectId: apps, vars: [varItem("region", "eu-west-1", "terraform")] }),
            );
            expectStatus(second, 200);
            upgraded = second.body.data.id;
            const run = await upgrade(server, moduleId, upgraded, [varItem("region", secrets.run, "terraform", true)]);
            expect(run.status).toBe("planned");
            pendingRun = run.id;

            running = fileBytes(data());
        } finally {
            await server.close();
        }
        stopped = fileBytes(data());
    });

    test("holds no sensitive value and no token in the database or its WAL, written through /vars, a no-code create and an upgrade run", () => {
        // While the service ran: the database file with its WAL.
        expect(found(running, [plain])).toEqual([plain]);
        expect(found(running, Object.values(secrets))).toEqual([]);
        expect(found(running, [...SEED_TOKENS, ...SEED_TOKENS.map(sha256)])).toEqual([]);
        // Stopped: whatever files remain.
        expect(found(stopped, [plain])).toEqual([plain]);
        expect(found(stopped, Object.values(secrets))).toEqual([]);
        expect(found(stopped, [...SEED_TOKENS, ...SEED_TOKENS.map(sha256)])).toEqual([]);
        // The sensitive values are there, sealed; the plain one as it was sent.
        const db = new Database(data(), { readonly: true });
        try {
            const rows = db.prepare("SELECT key, value, sensitive FROM variables WHERE workspace_id = ? ORDER BY key").all(created) as {
                key: string;
                value: string;
                sensitive: number;
            }[];
            expect(rows.map((row) => [row.key, row.sensitive === 1 ? row.value.startsWith(SEALED_PREFIX) : row.value])).toEqual([
                ["PATCHED", true],
                ["PLAIN_MARKER", plain],
                ["VIA_VARS", true],
                ["region", true],
            ]);
        } finally {
            db.close();
        }
    });

    test("creates its key file beside the database, owner-only (0600), holding a 32-byte key", () => {
        const keyFile = `${data()}.key`;
        const stat = statSync(keyFile);
        expect(stat.isFile()).toBe(true);
        expect(stat.mode & 0o777).toBe(0o600);
        expect(readFileSync(keyFile, "utf8")).toMatch(/^[0-9a-f]{64}\n$/);
    });

    test("works as before after a restart with the same key: tokens authenticate and every sealed value opens to what was written", async () => {
        const keyBefore = readFileSync(`${data()}.key`);
        const server = await startFileServer(data());
        try {
            expect(readFileSync(`${data()}.key`).equals(keyBefore)).toBe(true);
            // Reads: sensitive values stay hidden, the plain one is answered.
            const vars = await workspaceVars(server, created);
            expect(
                vars.map((variable) => [variable.attributes.key, variable.attributes.value, variable.attributes.sensitive]).sort(),
            ).toEqual([
                ["PATCHED", null, true],
                ["PLAIN_MARKER", plain, false],
                ["VIA_VARS", null, true],
                ["region", null, true],
            ]);

            // An upgrade with the very values written before the restart changes nothing: each stored value
            // opened to exactly what was sent (a wrong or garbled value would make it `planned`).
            const same = await upgrade(server, moduleId, created, [
                varItem("region", secrets.create, "terraform", true),
                varItem("VIA_VARS", secrets.vars, "env", true),
                varItem("PATCHED", secrets.patched, "env", true),
                varItem("PLAIN_MARKER", plain, "env"),
            ]);
            expect(same.status).toBe("planned_and_finished");
            // ...and one value different by one character is a change: the comparison is real.
            expect((await upgrade(server, moduleId, created, [varItem("VIA_VARS", `${secrets.vars}x`, "env", true)])).status).toBe("planned");

            // The run started before the restart confirms with its sealed vars: the workspace then has them.
            expectStatus(await clientFor(server, TOKENS.owners).post(noCodePaths.run(moduleId, upgraded, pendingRun)), 200);
            expect((await upgrade(server, moduleId, upgraded, [varItem("region", secrets.run, "terraform", true)])).status).toBe(
                "planned_and_finished",
            );
            expect((await upgrade(server, moduleId, upgraded, [varItem("region", "eu-west-1", "terraform", true)])).status).toBe("planned");
        } finally {
            await server.close();
        }
        expect(found(fileBytes(data()), Object.values(secrets))).toEqual([]);
    });

    test("refuses to start with another key file, naming it, and changes nothing", async () => {
        const other = join(workDir, "other.key");
        writeFileSync(other, `${randomBytes(32).toString("hex")}\n`, { mode: 0o600 });
        const before = readFileSync(data());
        await expect(startFileServer(data(), { secretKeyFile: other })).rejects.toThrow(
            `the database ${data()} was written with another secret key than the key in ${other}`,
        );
        // Buffer.equals: jest's deep equality walks a file byte by byte, slowly.
        expect(readFileSync(data()).equals(before)).toBe(true);
        expect(existsSync(`${data()}-wal`) ? readFileSync(`${data()}-wal`).length : 0).toBe(0);
    });

    test("refuses to start when its key file is missing, naming it, and does not make a new one", async () => {
        const keyFile = `${data()}.key`;
        const saved = join(workDir, "saved.key");
        copyFileSync(keyFile, saved);
        rmSync(keyFile);
        try {
            await expect(startFileServer(data())).rejects.toThrow(`the secret key file ${keyFile} does not exist, but the database ${data()} was written with a secret key`);
            expect(existsSync(keyFile)).toBe(false);
            // The same key under another name, given by option, opens it.
            const server = await startFileServer(data(), { secretKeyFile: saved });
            expect((await clientFor(server, TOKENS.owners).get(`/workspaces/${created}`)).status).toBe(200);
            await server.close();
        } finally {
            copyFileSync(saved, keyFile);
        }
    });

    test("refuses to start when the key check was removed from the database", async () => {
        const copy = join(workDir, "no-check", "wos.db");
        const server = await startFileServer(copy);
        await server.close();
        const db = new Database(copy);
        db.prepare("DELETE FROM secret_key").run();
        db.close();
        await expect(startFileServer(copy)).rejects.toThrow(`the database ${copy} has lost its secret key check`);
    });

    test("a sealed value changed in the file is an error when it is needed, never a wrong value, and it is not in the answer", async () => {
        const copy = join(workDir, "tampered", "wos.db");
        let server = await startFileServer(copy);
        const apps = await appsProject(server);
        const tamperedModule = (await createNoCodeModule(server, { registryModuleId: REGISTRY_MODULES.network, enabled: true })).id;
        const value = unique("tampered-secret");
        const workspace = await clientFor(server, TOKENS.owners).post(
            noCodePaths.workspaces(tamperedModule),
            noCodeWorkspaceDocument({ name: "tampered", projectId: apps, vars: [varItem("cidr", value, "terraform", true)] }),
        );
        expectStatus(workspace, 200);
        await server.close();

        const db = new Database(copy);
        const row = db.prepare("SELECT id, value FROM variables WHERE workspace_id = ?").get(workspace.body.data.id) as { id: string; value: string };
        // One byte of the ciphertext changed (still valid base64url): GCM's tag no longer matches.
        const bytes = Buffer.from(row.value.slice(SEALED_PREFIX.length), "base64url");
        bytes[14] ^= 0x01;
        db.prepare("UPDATE variables SET value = ? WHERE id = ?").run(SEALED_PREFIX + bytes.toString("base64url"), row.id);
        db.close();

        server = await startFileServer(copy);
        try {
            // Reads never open a sensitive value: they still answer.
            expect((await workspaceVars(server, workspace.body.data.id)).map((variable) => variable.attributes.value)).toEqual([null]);
            // An upgrade that must compare it fails whole: a 500 that holds nothing of the value, and no run.
            const response = await clientFor(server, TOKENS.owners).post(
                noCodePaths.upgrade(tamperedModule, workspace.body.data.id),
                upgradeDocument([varItem("cidr", value, "terraform", true)]),
            );
            expectErrors(response, 500);
            expect(response.text).not.toContain(value);
            expect(response.text).not.toContain(SEALED_PREFIX);
        } finally {
            await server.close();
        }
        const check = new Database(copy, { readonly: true });
        expect((check.prepare("SELECT COUNT(*) AS n FROM workspace_upgrades").get() as { n: number }).n).toBe(0);
        check.close();
    });
});

describe("a database of schema version 2", () => {
    const OLD = {
        teamToken: "old-team-owners-token",
        organizationToken: "old-org-token",
        userToken: "old-user-token",
        variable: unique("old-sensitive-var"),
        created: unique("old-sensitive-region"),
        run: unique("old-sensitive-run"),
        plain: unique("old-plain-marker"),
    };
    const ids = {
        module: "mod-old0000000000001",
        noCode: "nocode-old0000000001",
        version: "nocodever-old000000001",
        workspace: "ws-old0000000000001",
        project: "prj-old0000000000001",
        run: "run-old0000000000001",
    };

    /**
     * Writes a v2 database as the code of schema versions 1 and 2 did: plain sensitive values, SHA-256 token
     * hashes. The first half is checkpointed into the database file; the second half exists only in the WAL,
     * as a process killed before its checkpoint leaves it (the files are copied while the database is open).
     */
    function writeVersion2(path: string): void {
        const source = join(workDir, `source-${randomBytes(4).toString("hex")}.db`);
        const db = new Database(source);
        db.pragma("journal_mode = WAL");
        db.pragma("wal_autocheckpoint = 0");
        migrate(db, undefined, 2);
        expect(db.pragma("user_version", { simple: true })).toBe(2);
        const at = new Date().toISOString();
        const run = (text: string, ...values: unknown[]) => db.prepare(text).run(...values);
        run("INSERT INTO organizations (name, created_at) VALUES ('acme', ?)", at);
        run("INSERT INTO organization_tokens (token_hash, organization, created_at) VALUES (?, 'acme', ?)", sha256(OLD.organizationToken), at);
        run("INSERT INTO teams (id, organization, name, owners, created_at) VALUES ('team-old00000000001', 'acme', 'owners', 1, ?)", at);
        run("INSERT INTO team_tokens (token_hash, team_id, created_at) VALUES (?, 'team-old00000000001', ?)", sha256(OLD.teamToken), at);
        run("INSERT INTO users (id, organization, name, created_at) VALUES ('user-old00000000001', 'acme', 'alice', ?)", at);
        run("INSERT INTO team_memberships (team_id, user_id) VALUES ('team-old00000000001', 'user-old00000000001')");
        run("INSERT INTO user_tokens (token_hash, user_id, created_at) VALUES (?, 'user-old00000000001', ?)", sha256(OLD.userToken), at);
        run("INSERT INTO projects (id, organization, name, is_default, created_at, updated_at) VALUES ('prj-olddefault00001', 'acme', 'Default Project', 1, ?, ?)", at, at);
        run("INSERT INTO projects (id, organization, name, created_at, updated_at) VALUES (?, 'acme', 'Apps', ?, ?)", ids.project, at, at);
        run("INSERT INTO registry_modules (id, organization, name, provider, no_code_ready, created_at) VALUES (?, 'acme', 'bucket', 'aws', 1, ?)", ids.module, at);
        run("INSERT INTO registry_module_versions (module_id, version, created_at) VALUES (?, '1.0.0', ?)", ids.module, at);
        run(
            "INSERT INTO registry_module_version_variables (module_id, version, name, type, required, position) VALUES (?, '1.0.0', 'region', 'string', 1, 0)",
            ids.module,
        );
        run(
            "INSERT INTO no_code_modules (id, organization, registry_module_id, version_pin, enabled, current_version_id, created_at, updated_at) VALUES (?, 'acme', ?, '1.0.0', 1, ?, ?, ?)",
            ids.noCode,
            ids.module,
            ids.version,
            at,
            at,
        );
        run(
            "INSERT INTO no_code_module_versions (id, no_code_module_id, registry_module_id, version_pin, variable_options, created_at) VALUES (?, ?, ?, '1.0.0', '[]', ?)",
            ids.version,
            ids.noCode,
            ids.module,
            at,
        );
        run(
            `INSERT INTO workspaces (id, organization, project_id, name, source, source_module_id, no_code_module_version_id, created_at, updated_at)
             VALUES (?, 'acme', ?, 'old-nocode', 'tfe-module', ?, ?, ?, ?)`,
            ids.workspace,
            ids.project,
            ids.module,
            ids.version,
            at,
            at,
        );
        const variable = (id: string, key: string, value: string, category: string, sensitive: number) =>
            run(
                "INSERT INTO variables (id, workspace_id, key, value, category, sensitive, version_id, created_at, updated_at) VALUES (?, ?, ?, ?, ?, ?, 'v1', ?, ?)",
                id,
                ids.workspace,
                key,
                value,
                category,
                sensitive,
                at,
                at,
            );
        variable("var-old0000000000001", "region", OLD.created, "infra", 1);
        variable("var-old0000000000002", "PLAIN_MARKER", OLD.plain, "env", 0);
        db.pragma("wal_checkpoint(TRUNCATE)");
        // From here on, only in the WAL.
        variable("var-old0000000000003", "OLD_SECRET", OLD.variable, "env", 1);
        run(
            `INSERT INTO workspace_upgrades (id, workspace_id, no_code_module_id, target_version_id, vars, plan_outcome, started_at_ms, step_ms, created_at, updated_at)
             VALUES (?, ?, ?, ?, ?, 'planned', 0, 0, ?, ?)`,
            ids.run,
            ids.workspace,
            ids.noCode,
            ids.version,
            JSON.stringify([{ key: "region", value: OLD.run, description: null, category: "infra", hcl: false, sensitive: true }]),
            at,
            at,
        );
        copyFileSync(source, path);
        copyFileSync(`${source}-wal`, `${path}-wal`);
        db.close();
    }

    test("is upgraded in place: plain sensitive values sealed, token hashes keyed, the WAL emptied, and the API answers as before", async () => {
        const data = join(workDir, "v2.db");
        writeVersion2(data);
        const secretValues = [OLD.variable, OLD.created, OLD.run];
        const oldHashes = [OLD.teamToken, OLD.organizationToken, OLD.userToken].map(sha256);
        // The control: the v2 files do hold the values and the unkeyed hashes, in the database and in the WAL.
        expect(found(readFileSync(data), [OLD.created, OLD.plain, ...oldHashes]).sort()).toEqual([OLD.created, OLD.plain, ...oldHashes].sort());
        expect(found(readFileSync(`${data}-wal`), [OLD.variable, OLD.run])).toEqual([OLD.variable, OLD.run]);

        const server = await startFileServer(data, { seed: undefined });
        try {
            // Migrated in place, on the first start: nothing plain or unkeyed left in the files, WAL included.
            const running = fileBytes(data);
            expect(found(running, [OLD.plain])).toEqual([OLD.plain]);
            expect(found(running, secretValues)).toEqual([]);
            expect(found(running, oldHashes)).toEqual([]);
            expect(statSync(`${data}.key`).mode & 0o777).toBe(0o600);

            // Every old token still authenticates.
            for (const token of [OLD.teamToken, OLD.organizationToken, OLD.userToken]) {
                expect((await clientFor(server, token).get(`/workspaces/${ids.workspace}`)).status).toBe(200);
            }
            const list = await clientFor(server, OLD.teamToken).get("/vars?filter[workspace][name]=old-nocode&filter[organization][name]=acme");
            expectStatus(list, 200);
            expect(list.body.data.map((variable: any) => [variable.attributes.key, variable.attributes.value]).sort()).toEqual([
                ["OLD_SECRET", null],
                ["PLAIN_MARKER", OLD.plain],
                ["region", null],
            ]);

            // The sealed values open to what v2 stored: the same values are no change, another one is.
            const same = await upgrade(
                server,
                ids.noCode,
                ids.workspace,
                [varItem("region", OLD.created, "terraform", true), varItem("OLD_SECRET", OLD.variable, "env", true)],
                OLD.teamToken,
            );
            expect(same.status).toBe("planned_and_finished");
            expect((await upgrade(server, ids.noCode, ids.workspace, [varItem("OLD_SECRET", "other", "env", true)], OLD.teamToken)).status).toBe(
                "planned",
            );
        } finally {
            await server.close();
        }

        const db = new Database(data, { readonly: true });
        try {
            expect(db.pragma("user_version", { simple: true })).toBe(SCHEMA_VERSION);
            // The v2 run (discarded by the newer one) keeps its vars, sealed; the next test confirms such a run.
            const stored = db.prepare("SELECT vars FROM workspace_upgrades WHERE id = ?").get(ids.run) as { vars: string };
            expect(JSON.parse(stored.vars)[0].value.startsWith(SEALED_PREFIX)).toBe(true);
        } finally {
            db.close();
        }
        expect(found(fileBytes(data), [...secretValues, ...oldHashes])).toEqual([]);
    });

    test("an upgrade run written by version 2 confirms after the migration with the value it was started with", async () => {
        const data = join(workDir, "v2-confirm.db");
        writeVersion2(data);
        const server = await startFileServer(data, { seed: undefined });
        try {
            const owners = clientFor(server, OLD.teamToken);
            expectStatus(await owners.post(noCodePaths.run(ids.noCode, ids.workspace, ids.run)), 200);
            expect((await upgrade(server, ids.noCode, ids.workspace, [varItem("region", OLD.run, "terraform", true)], OLD.teamToken)).status).toBe(
                "planned_and_finished",
            );
        } finally {
            await server.close();
        }
        expect(found(fileBytes(data), [OLD.variable, OLD.created, OLD.run])).toEqual([]);
    });
});

describe("the command line", () => {
    const MAIN = resolve(__dirname, "../../dist/server/main.js");

    /** Runs `wos-server` until it prints its address (then SIGTERM) or exits; answers its exit code and stderr. */
    function runCli(args: string[], env: Record<string, string> = {}): Promise<{ code: number | null; listening: boolean; stderr: string }> {
        const child = spawn(process.execPath, [MAIN, "--port", "0", "--log-level", "silent", ...args], {
            env: { ...process.env, ...env },
            stdio: ["ignore", "pipe", "pipe"],
        });
        let stdout = "";
        let stderr = "";
        let listening = false;
        child.stdout.setEncoding("utf8").on("data", (chunk: string) => {
            stdout += chunk;
            if (!listening && stdout.includes("wos-server listening on")) {
                listening = true;
                child.kill("SIGTERM");
            }
        });
        child.stderr.setEncoding("utf8").on("data", (chunk: string) => (stderr += chunk));
        return new Promise((done) => child.once("exit", (code) => done({ code, listening, stderr })));
    }

    test("takes the key file from --secret-key-file or WOS_SECRET_KEY_FILE, and names it when it is the wrong one", async () => {
        const data = join(workDir, "cli", "wos.db");
        const keyFile = join(workDir, "cli-given.key");
        // A key given as base64 is read as well as hex.
        writeFileSync(keyFile, randomBytes(32).toString("base64"));

        const first = await runCli(["--data", data, "--secret-key-file", keyFile]);
        expect(first).toMatchObject({ code: 0, listening: true });
        expect(existsSync(`${data}.key`)).toBe(false);

        const again = await runCli(["--data", data], { WOS_SECRET_KEY_FILE: keyFile });
        expect(again).toMatchObject({ code: 0, listening: true });

        const wrong = join(workDir, "cli-wrong.key");
        writeFileSync(wrong, randomBytes(32).toString("hex"));
        const refused = await runCli(["--data", data], { WOS_SECRET_KEY_FILE: wrong });
        expect(refused.code).toBe(1);
        expect(refused.listening).toBe(false);
        expect(refused.stderr).toContain(`wos-server: cannot start: the database ${data} was written with another secret key than the key in ${wrong}`);

        const malformed = join(workDir, "cli-malformed.key");
        writeFileSync(malformed, "not a key");
        const bad = await runCli(["--data", data, "--secret-key-file", malformed]);
        expect(bad.code).toBe(1);
        expect(bad.stderr).toContain(`the secret key file ${malformed} does not hold a 32-byte key`);
    });
});
