/**
 * Storage of the local service: one SQLite database (better-sqlite3), its schema and its migrations, and
 * what ties a database to its secret key (the key check it holds, migration 3's sealing of what versions 1
 * and 2 stored in clear). The cryptography and the key file are `secrets.ts`'s, which knows no table.
 *
 * The schema is versioned with `PRAGMA user_version`: migration N runs when the stored version is below N,
 * inside one transaction with the version bump, so a later issue adds its tables as a new migration
 * without touching the ones already shipped (and old databases upgrade on start).
 */
import { randomInt } from "node:crypto";
import { mkdirSync } from "node:fs";
import { dirname, resolve } from "node:path";
import Database from "better-sqlite3";
import { refuseUnsupportedNode } from "../sdk/nodeSupport";
import { defaultKeyFile, keyCheckMatches, loadSecrets, SecretKeyError, type Secrets } from "./secrets";

/** An open database of the local service. */
export type Db = Database.Database;

/** The path that means "no file, throw everything away on close". */
export const MEMORY_PATH = ":memory:";

/** Access levels of a team on a project, weakest first. */
export const ACCESS_LEVELS = ["read", "write", "maintain", "admin"] as const;
export type AccessLevel = (typeof ACCESS_LEVELS)[number];

/**
 * One migration: its SQL, or its SQL and a data step that needs the secret key (it rewrites stored values),
 * run in the same transaction right after the SQL.
 */
type Migration = string | { sql: string; data: (db: Db, secrets: Secrets) => void };

/** Schema version from which a database holds values written under a secret key (migration 3). */
export const SECRETS_SCHEMA_VERSION = 3;

/**
 * Migrations in order; index 0 is version 1. Never edit a shipped migration: add a new one.
 * Foreign keys say what a delete takes with it (tag bindings and variables go with their owner) and what
 * it must never orphan (a workspace blocks the delete of its project: `RESTRICT`).
 */
const MIGRATIONS: readonly Migration[] = [
    // 1: organizations, teams, users and their tokens, agent pools, the private registry, projects, tag
    //    bindings, workspaces and variables.
    `
    CREATE TABLE organizations (
        name            TEXT PRIMARY KEY,
        cost_estimation INTEGER NOT NULL DEFAULT 0,
        created_at      TEXT NOT NULL
    );
    CREATE TABLE organization_tokens (
        token_hash   TEXT PRIMARY KEY,
        organization TEXT NOT NULL REFERENCES organizations(name) ON DELETE CASCADE,
        created_at   TEXT NOT NULL
    );
    CREATE TABLE teams (
        id              TEXT PRIMARY KEY,
        organization    TEXT NOT NULL REFERENCES organizations(name) ON DELETE CASCADE,
        name            TEXT NOT NULL,
        owners          INTEGER NOT NULL DEFAULT 0,
        manage_projects INTEGER NOT NULL DEFAULT 0,
        manage_modules  INTEGER NOT NULL DEFAULT 0,
        created_at      TEXT NOT NULL,
        UNIQUE (organization, name)
    );
    CREATE TABLE team_tokens (
        token_hash TEXT PRIMARY KEY,
        team_id    TEXT NOT NULL REFERENCES teams(id) ON DELETE CASCADE,
        created_at TEXT NOT NULL
    );
    CREATE TABLE users (
        id           TEXT PRIMARY KEY,
        organization TEXT NOT NULL REFERENCES organizations(name) ON DELETE CASCADE,
        name         TEXT NOT NULL,
        created_at   TEXT NOT NULL,
        UNIQUE (organization, name)
    );
    CREATE TABLE user_tokens (
        token_hash TEXT PRIMARY KEY,
        user_id    TEXT NOT NULL REFERENCES users(id) ON DELETE CASCADE,
        created_at TEXT NOT NULL
    );
    CREATE TABLE team_memberships (
        team_id TEXT NOT NULL REFERENCES teams(id) ON DELETE CASCADE,
        user_id TEXT NOT NULL REFERENCES users(id) ON DELETE CASCADE,
        PRIMARY KEY (team_id, user_id)
    );
    CREATE TABLE agent_pools (
        id           TEXT PRIMARY KEY,
        organization TEXT NOT NULL REFERENCES organizations(name) ON DELETE CASCADE,
        name         TEXT NOT NULL,
        created_at   TEXT NOT NULL,
        UNIQUE (organization, name)
    );
    CREATE TABLE registry_modules (
        id             TEXT PRIMARY KEY,
        organization   TEXT NOT NULL REFERENCES organizations(name) ON DELETE CASCADE,
        name           TEXT NOT NULL,
        provider       TEXT NOT NULL,
        no_code_ready  INTEGER NOT NULL DEFAULT 0,
        created_at     TEXT NOT NULL,
        UNIQUE (organization, name, provider)
    );
    CREATE TABLE registry_module_versions (
        module_id  TEXT NOT NULL REFERENCES registry_modules(id) ON DELETE CASCADE,
        version    TEXT NOT NULL,
        created_at TEXT NOT NULL,
        PRIMARY KEY (module_id, version)
    );
    CREATE TABLE registry_module_version_variables (
        module_id     TEXT NOT NULL,
        version       TEXT NOT NULL,
        name          TEXT NOT NULL,
        type          TEXT NOT NULL,
        required      INTEGER NOT NULL DEFAULT 0,
        default_value TEXT,
        position      INTEGER NOT NULL,
        PRIMARY KEY (module_id, version, name),
        FOREIGN KEY (module_id, version) REFERENCES registry_module_versions(module_id, version) ON DELETE CASCADE
    );
    CREATE TABLE projects (
        id                             TEXT PRIMARY KEY,
        organization                   TEXT NOT NULL REFERENCES organizations(name) ON DELETE CASCADE,
        name                           TEXT NOT NULL COLLATE NOCASE,
        description                    TEXT,
        auto_destroy_activity_duration TEXT,
        is_default                     INTEGER NOT NULL DEFAULT 0,
        created_at                     TEXT NOT NULL,
        updated_at                     TEXT NOT NULL,
        UNIQUE (organization, name)
    );
    CREATE TABLE team_project_access (
        team_id    TEXT NOT NULL REFERENCES teams(id) ON DELETE CASCADE,
        project_id TEXT NOT NULL REFERENCES projects(id) ON DELETE CASCADE,
        access     TEXT NOT NULL CHECK (access IN ('read', 'write', 'maintain', 'admin')),
        PRIMARY KEY (team_id, project_id)
    );
    CREATE TABLE tag_bindings (
        id         TEXT PRIMARY KEY,
        project_id TEXT NOT NULL REFERENCES projects(id) ON DELETE CASCADE,
        key        TEXT NOT NULL,
        value      TEXT NOT NULL DEFAULT '',
        created_at TEXT NOT NULL,
        updated_at TEXT NOT NULL,
        UNIQUE (project_id, key)
    );
    CREATE TABLE workspaces (
        id                                 TEXT PRIMARY KEY,
        organization                       TEXT NOT NULL REFERENCES organizations(name) ON DELETE CASCADE,
        project_id                         TEXT NOT NULL REFERENCES projects(id) ON DELETE RESTRICT,
        name                               TEXT NOT NULL COLLATE NOCASE,
        description                        TEXT,
        auto_apply                         INTEGER NOT NULL DEFAULT 0,
        execution_mode                     TEXT NOT NULL DEFAULT 'remote' CHECK (execution_mode IN ('remote', 'agent')),
        agent_pool_id                      TEXT REFERENCES agent_pools(id) ON DELETE SET NULL,
        execution_mode_overwritten         INTEGER NOT NULL DEFAULT 0,
        agent_pool_overwritten             INTEGER NOT NULL DEFAULT 0,
        source                             TEXT NOT NULL DEFAULT 'api',
        source_name                        TEXT,
        source_url                         TEXT,
        source_module_id                   TEXT,
        no_code_module_version_id          TEXT,
        auto_destroy_activity_duration     TEXT,
        auto_destroy_activity_inherited    INTEGER NOT NULL DEFAULT 1,
        infra_version                      TEXT NOT NULL DEFAULT '1.9.0',
        working_directory                  TEXT,
        locked                             INTEGER NOT NULL DEFAULT 0,
        created_at                         TEXT NOT NULL,
        updated_at                         TEXT NOT NULL,
        UNIQUE (organization, name)
    );
    CREATE INDEX workspaces_project ON workspaces(project_id);
    CREATE TABLE variables (
        id           TEXT PRIMARY KEY,
        workspace_id TEXT NOT NULL REFERENCES workspaces(id) ON DELETE CASCADE,
        key          TEXT NOT NULL,
        value        TEXT NOT NULL DEFAULT '',
        description  TEXT,
        category     TEXT NOT NULL CHECK (category IN ('infra', 'env')),
        hcl          INTEGER NOT NULL DEFAULT 0,
        sensitive    INTEGER NOT NULL DEFAULT 0,
        version_id   TEXT NOT NULL,
        created_at   TEXT NOT NULL,
        updated_at   TEXT NOT NULL,
        UNIQUE (workspace_id, category, key)
    );
    `,
    // 2: no-code provisioning. A no-code module (at most one per registry module) with its ordered
    //    variable-options sets; its versions (every change of pin, module or options makes one, and a
    //    workspace records the one it was made from or upgraded to); and the upgrade runs of workspaces.
    //    Versions outlive their module on purpose: a workspace made from a deleted module still names the
    //    version it runs. A run stores when it started and what its plan ends in; its status is derived from
    //    the time on every read, so no timer has to survive a restart. Workspaces made through the API or a
    //    seed are `tfe-api`, the value the public clients decode (migration 1 wrote 'api').
    `
    CREATE TABLE no_code_modules (
        id                 TEXT PRIMARY KEY,
        organization       TEXT NOT NULL REFERENCES organizations(name) ON DELETE CASCADE,
        registry_module_id TEXT NOT NULL UNIQUE REFERENCES registry_modules(id) ON DELETE CASCADE,
        version_pin        TEXT NOT NULL,
        enabled            INTEGER NOT NULL DEFAULT 0,
        current_version_id TEXT NOT NULL,
        created_at         TEXT NOT NULL,
        updated_at         TEXT NOT NULL
    );
    CREATE TABLE no_code_variable_options (
        id                TEXT PRIMARY KEY,
        no_code_module_id TEXT NOT NULL REFERENCES no_code_modules(id) ON DELETE CASCADE,
        variable_name     TEXT NOT NULL,
        variable_type     TEXT NOT NULL,
        options           TEXT NOT NULL,
        position          INTEGER NOT NULL,
        created_at        TEXT NOT NULL,
        updated_at        TEXT NOT NULL
    );
    CREATE INDEX no_code_variable_options_module ON no_code_variable_options(no_code_module_id, position);
    CREATE TABLE no_code_module_versions (
        id                 TEXT PRIMARY KEY,
        no_code_module_id  TEXT NOT NULL,
        registry_module_id TEXT NOT NULL,
        version_pin        TEXT NOT NULL,
        variable_options   TEXT NOT NULL,
        created_at         TEXT NOT NULL
    );
    CREATE TABLE workspace_upgrades (
        id                TEXT PRIMARY KEY,
        workspace_id      TEXT NOT NULL REFERENCES workspaces(id) ON DELETE CASCADE,
        no_code_module_id TEXT NOT NULL REFERENCES no_code_modules(id) ON DELETE CASCADE,
        target_version_id TEXT NOT NULL,
        vars              TEXT NOT NULL,
        plan_outcome      TEXT NOT NULL CHECK (plan_outcome IN ('planned', 'planned_and_finished', 'errored')),
        cost_estimation   INTEGER NOT NULL DEFAULT 0,
        started_at_ms     INTEGER NOT NULL,
        step_ms           INTEGER NOT NULL,
        final_state       TEXT CHECK (final_state IN ('applied', 'discarded')),
        created_at        TEXT NOT NULL,
        updated_at        TEXT NOT NULL
    );
    CREATE INDEX workspace_upgrades_workspace ON workspace_upgrades(workspace_id);
    UPDATE workspaces SET source = 'tfe-api' WHERE source = 'api';
    `,
    // 3: secrets at rest (issue 6 section 4, server/secrets.ts). The key check of the secret key the database
    //    is written with (a start with another key is refused); the data step seals the sensitive values
    //    that versions 1 and 2 stored in plain text (variables, and the vars of upgrade runs) and re-keys
    //    every token hash (SHA-256 -> HMAC-SHA-256 of that SHA-256).
    {
        sql: `
    CREATE TABLE secret_key (
        id         INTEGER PRIMARY KEY CHECK (id = 1),
        key_check  TEXT NOT NULL,
        created_at TEXT NOT NULL
    );
    `,
        data: sealStoredSecrets,
    },
    // 4: the project list in SQL (issue 6 section 5). `projects_organization` walks an organization's
    //    projects in creation order (the index holds rowids in order) and `UNIQUE (organization, name)`
    //    (NOCASE) serves `filter[names]` and the name sorts; `team_project_access_project` counts a
    //    project's teams (and finds its rows when it is deleted). `organization_project_counts` is the
    //    list's total, kept by triggers, so no request counts every project. `project_names` is the
    //    substring index of `q`: FTS5 with the trigram tokenizer over `projects.name` (external content,
    //    keyed by the projects rowid, which VACUUM keeps), filled from existing rows and kept in step with
    //    inserts, renames and deletes by triggers.
    `
    CREATE INDEX projects_organization ON projects(organization);
    CREATE INDEX team_project_access_project ON team_project_access(project_id);

    CREATE TABLE organization_project_counts (
        organization  TEXT PRIMARY KEY REFERENCES organizations(name) ON DELETE CASCADE,
        project_count INTEGER NOT NULL
    );
    INSERT INTO organization_project_counts (organization, project_count)
        SELECT organization, COUNT(*) FROM projects GROUP BY organization;
    CREATE TRIGGER projects_count_insert AFTER INSERT ON projects BEGIN
        INSERT INTO organization_project_counts (organization, project_count) VALUES (new.organization, 1)
            ON CONFLICT (organization) DO UPDATE SET project_count = project_count + 1;
    END;
    CREATE TRIGGER projects_count_delete AFTER DELETE ON projects BEGIN
        UPDATE organization_project_counts SET project_count = project_count - 1 WHERE organization = old.organization;
    END;
    CREATE TRIGGER projects_count_move AFTER UPDATE OF organization ON projects WHEN new.organization IS NOT old.organization BEGIN
        UPDATE organization_project_counts SET project_count = project_count - 1 WHERE organization = old.organization;
        INSERT INTO organization_project_counts (organization, project_count) VALUES (new.organization, 1)
            ON CONFLICT (organization) DO UPDATE SET project_count = project_count + 1;
    END;

    CREATE VIRTUAL TABLE project_names USING fts5(name, content = 'projects', tokenize = 'trigram');
    INSERT INTO project_names (project_names) VALUES ('rebuild');
    CREATE TRIGGER projects_names_insert AFTER INSERT ON projects BEGIN
        INSERT INTO project_names (rowid, name) VALUES (new.rowid, new.name);
    END;
    CREATE TRIGGER projects_names_delete AFTER DELETE ON projects BEGIN
        INSERT INTO project_names (project_names, rowid, name) VALUES ('delete', old.rowid, old.name);
    END;
    CREATE TRIGGER projects_names_rename AFTER UPDATE OF name ON projects WHEN new.name IS NOT old.name COLLATE BINARY BEGIN
        INSERT INTO project_names (project_names, rowid, name) VALUES ('delete', old.rowid, old.name);
        INSERT INTO project_names (rowid, name) VALUES (new.rowid, new.name);
    END;
    `,
    // 5: what a project holds, kept (issue 6 section 5). `workspace_count` and `team_count` are the numbers of
    //    its workspaces and of its teams' access rows, filled from existing rows and kept by triggers on every
    //    insert, delete and move (a workspace's `project_id` changed) of those rows, whatever makes them (the
    //    API, a seed, a cascade), so that a list page reads its counts with its rows instead of counting 2 x 20
    //    times. A project's `updated_at` is left alone: what it holds is not the project.
    `
    ALTER TABLE projects ADD COLUMN workspace_count INTEGER NOT NULL DEFAULT 0;
    ALTER TABLE projects ADD COLUMN team_count INTEGER NOT NULL DEFAULT 0;
    UPDATE projects SET
        workspace_count = (SELECT COUNT(*) FROM workspaces w WHERE w.project_id = projects.id),
        team_count = (SELECT COUNT(*) FROM team_project_access a WHERE a.project_id = projects.id);

    CREATE TRIGGER workspaces_count_insert AFTER INSERT ON workspaces BEGIN
        UPDATE projects SET workspace_count = workspace_count + 1 WHERE id = new.project_id;
    END;
    CREATE TRIGGER workspaces_count_delete AFTER DELETE ON workspaces BEGIN
        UPDATE projects SET workspace_count = workspace_count - 1 WHERE id = old.project_id;
    END;
    CREATE TRIGGER workspaces_count_move AFTER UPDATE OF project_id ON workspaces WHEN new.project_id IS NOT old.project_id BEGIN
        UPDATE projects SET workspace_count = workspace_count - 1 WHERE id = old.project_id;
        UPDATE projects SET workspace_count = workspace_count + 1 WHERE id = new.project_id;
    END;

    CREATE TRIGGER team_access_count_insert AFTER INSERT ON team_project_access BEGIN
        UPDATE projects SET team_count = team_count + 1 WHERE id = new.project_id;
    END;
    CREATE TRIGGER team_access_count_delete AFTER DELETE ON team_project_access BEGIN
        UPDATE projects SET team_count = team_count - 1 WHERE id = old.project_id;
    END;
    CREATE TRIGGER team_access_count_move AFTER UPDATE OF project_id ON team_project_access WHEN new.project_id IS NOT old.project_id BEGIN
        UPDATE projects SET team_count = team_count - 1 WHERE id = old.project_id;
        UPDATE projects SET team_count = team_count + 1 WHERE id = new.project_id;
    END;
    `,
    // 6: the tag filters of the lists (`filter[tagged][i][key]` / `[value]`, server/records/projects.ts
    //    `TAGGED_PROJECTS`). Each filter finds the bindings with its key (and value) here, with their projects,
    //    instead of reading every binding: `UNIQUE (project_id, key)` only finds a project's own. `IF NOT
    //    EXISTS`: a test that takes a database back to an older version by dropping the later objects need
    //    not know of this one.
    `
    CREATE INDEX IF NOT EXISTS tag_bindings_key_value ON tag_bindings(key, value, project_id);
    `,
    // 7: the workspace list's no-code module filter (`filter[no-code-module][id]`, server/records/workspaces.ts):
    //    the versions of one module, then the workspaces on each, by index instead of reading every workspace.
    `
    CREATE INDEX IF NOT EXISTS no_code_module_versions_module ON no_code_module_versions(no_code_module_id);
    CREATE INDEX IF NOT EXISTS workspaces_no_code_module_version ON workspaces(no_code_module_version_id);
    `,
];

/** The schema version this code writes. */
export const SCHEMA_VERSION = MIGRATIONS.length;

/** Where the secret key of a database comes from (see server/secrets.ts). */
export interface DatabaseOptions {
    /** The key file (`--secret-key-file`); default `<path>.key` beside the database, a random key for `:memory:`. */
    secretKeyFile?: string;
}

/**
 * Opens (creating if needed) the database at `path` and brings its schema up to date.
 * A file database gets its folder created and WAL mode; `synchronous = NORMAL` in WAL keeps every committed
 * transaction across a killed process (only an OS crash could lose the last ones).
 * The secret key is loaded (its key file created for a database that has none yet) and checked against the
 * database before any migration runs: a database written with another key is refused untouched.
 * @throws SecretKeyError naming the key file (missing for a keyed database, malformed, or another key).
 * @throws UnsupportedNodeError (code `WOS_UNSUPPORTED_NODE`) on a Node.js older than 22, before the binding runs.
 */
export function openDatabase(path: string, options: DatabaseOptions = {}): Db {
    // better-sqlite3 13 crashes an older Node.js with a segmentation fault in `new Database`: refuse it first.
    refuseUnsupportedNode("@pulumi-wos/server (the local service)");
    const memory = path === MEMORY_PATH;
    if (!memory) mkdirSync(dirname(resolve(path)), { recursive: true });
    const db = new Database(path);
    try {
        if (!memory) {
            db.pragma("journal_mode = WAL");
            db.pragma("synchronous = NORMAL");
            // Another process (a second CLI on the same file) may hold the write lock for a moment.
            db.pragma("busy_timeout = 5000");
        }
        db.pragma("foreign_keys = ON");
        // Deleted and overwritten content is zeroed, not left in free space: a sensitive value made plain or
        // deleted, or sealed by migration 3, leaves no plain copy in the file.
        db.pragma("secure_delete = ON");
        const version = db.pragma("user_version", { simple: true }) as number;
        refuseNewerSchema(version);
        const keyed = version >= SECRETS_SCHEMA_VERSION;
        const secrets = loadSecrets({ dataPath: path, memory, secretKeyFile: options.secretKeyFile, databaseHasKey: keyed });
        if (keyed) verifySecretKey(db, secrets, path);
        migrate(db, secrets);
        if (!memory && version > 0 && version < SECRETS_SCHEMA_VERSION) {
            // The pages that held plain values before migration 3 may still be in the WAL file (a process
            // killed before its checkpoint): copy everything into the database and empty the WAL.
            db.pragma("wal_checkpoint(TRUNCATE)");
        }
        attachedSecrets.set(db, secrets);
    } catch (error) {
        db.close();
        throw error;
    }
    return db;
}

/** Refuses a database written by a newer wos-server: this one cannot know what its schema means. */
function refuseNewerSchema(version: number): void {
    if (version > SCHEMA_VERSION) {
        throw new Error(
            `the database has schema version ${version}, newer than this wos-server (${SCHEMA_VERSION}); upgrade wos-server`,
        );
    }
}

/**
 * Runs every migration above the stored `user_version` up to `target` (default: all), each with its version
 * bump in one transaction. `secrets` is needed by the migrations that rewrite stored values (3).
 */
export function migrate(db: Db, secrets?: Secrets, target: number = SCHEMA_VERSION): void {
    const current = db.pragma("user_version", { simple: true }) as number;
    refuseNewerSchema(current);
    for (let version = current + 1; version <= target; version++) {
        const migration = MIGRATIONS[version - 1]!;
        writeTransaction(db, () => {
            if (typeof migration === "string") {
                db.exec(migration);
            } else {
                if (!secrets) throw new Error(`migration ${version} needs the secret key`);
                db.exec(migration.sql);
                migration.data(db, secrets);
            }
            db.pragma(`user_version = ${version}`);
        });
    }
}

const ID_ALPHABET = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789";

/** A new id: the type prefix (`prj-`) and 16 random alphanumerics. */
export function newId(prefix: string): string {
    let id = prefix;
    for (let i = 0; i < 16; i++) id += ID_ALPHABET[randomInt(ID_ALPHABET.length)];
    return id;
}

/** The current time as an ISO 8601 timestamp. */
export function now(): string {
    return new Date().toISOString();
}

/**
 * Runs `work` as one write transaction (`BEGIN IMMEDIATE`): the write lock is taken before the first read, so
 * every check it makes still holds when it writes, even against another process on the same file. A throw
 * (an `HttpError` refusal included) rolls everything back: a refused request writes nothing.
 */
export function writeTransaction<T>(db: Db, work: () => T): T {
    return transactionRunner(db).immediate(work) as T;
}

/** Runs `work` as one read transaction: every row it reads comes from the same snapshot of the database. */
export function readTransaction<T>(db: Db, work: () => T): T {
    return transactionRunner(db).deferred(work) as T;
}

type TransactionRunner = Database.Transaction<(work: () => unknown) => unknown>;
const transactionRunners = new WeakMap<Db, TransactionRunner>();

/**
 * One better-sqlite3 transaction function per database that runs the work it is given: building a wrapper
 * with `db.transaction(work)` for every request cost a sixth of a read's CPU. Same semantics (BEGIN or, when
 * nested, a savepoint; rollback on a throw; a promise refused).
 */
function transactionRunner(db: Db): TransactionRunner {
    let runner = transactionRunners.get(db);
    if (!runner) {
        runner = db.transaction((work: () => unknown) => work());
        transactionRunners.set(db, runner);
    }
    return runner;
}

/** Whether the database holds no organization yet (the CLI then loads the demo seed). */
export function isEmpty(db: Db): boolean {
    return (db.prepare("SELECT COUNT(*) AS n FROM organizations").get() as { n: number }).n === 0;
}

const statementCache = new WeakMap<Db, Map<string, Database.Statement>>();

/** A prepared statement for `sql`, prepared once per database. */
export function sql(db: Db, text: string): Database.Statement {
    let cache = statementCache.get(db);
    if (!cache) {
        cache = new Map();
        statementCache.set(db, cache);
    }
    let statement = cache.get(text);
    if (!statement) {
        statement = db.prepare(text);
        cache.set(text, statement);
    }
    return statement;
}

// ---------------------------------------------------------------------------------------------------------
// The database and its secret key: the key check, migration 3's data step, the secrets of an open database

/**
 * Refuses a database written with another key (or whose key check was removed), before anything is read or
 * written. Only for a database at schema version 3 or later.
 * @throws SecretKeyError naming the key file.
 */
function verifySecretKey(db: Db, secrets: Secrets, dataPath: string): void {
    const row = db.prepare("SELECT key_check FROM secret_key WHERE id = 1").get() as { key_check: string } | undefined;
    const source = secrets.keyFile === undefined ? "a random in-memory key" : `the key in ${secrets.keyFile}`;
    if (!row) {
        throw new SecretKeyError(
            `the database ${dataPath} has lost its secret key check (its secret_key table is empty): it was changed outside wos-server; restore it from a copy`,
        );
    }
    if (!keyCheckMatches(row.key_check, secrets)) {
        throw new SecretKeyError(
            `the database ${dataPath} was written with another secret key than ${source}: start it with the key file it was created with ` +
                `(--secret-key-file or WOS_SECRET_KEY_FILE; by default ${defaultKeyFile(dataPath)}). Nothing was read or changed`,
        );
    }
}

/**
 * Migration 3's data step, inside its transaction: seals the sensitive values stored in plain text by schema
 * versions 1 and 2 (variables, and the vars of upgrade runs), re-keys every token hash, and records the key
 * check. Plain prepared statements, not {@link sql}'s cache: each runs once in the life of a database.
 */
function sealStoredSecrets(db: Db, secrets: Secrets): void {
    const sensitive = db.prepare("SELECT id, value FROM variables WHERE sensitive = 1").all() as { id: string; value: string }[];
    const updateVariable = db.prepare("UPDATE variables SET value = ? WHERE id = ?");
    for (const row of sensitive) updateVariable.run(secrets.seal(row.value), row.id);

    const runs = db.prepare("SELECT id, vars FROM workspace_upgrades").all() as { id: string; vars: string }[];
    const updateRun = db.prepare("UPDATE workspace_upgrades SET vars = ? WHERE id = ?");
    for (const run of runs) {
        const vars = JSON.parse(run.vars) as { value: string; sensitive: boolean }[];
        if (!vars.some((values) => values.sensitive)) continue;
        updateRun.run(JSON.stringify(vars.map((values) => (values.sensitive ? { ...values, value: secrets.seal(values.value) } : values))), run.id);
    }

    for (const table of ["organization_tokens", "team_tokens", "user_tokens"]) {
        const hashes = db.prepare(`SELECT token_hash FROM ${table}`).all() as { token_hash: string }[];
        const rekey = db.prepare(`UPDATE ${table} SET token_hash = ? WHERE token_hash = ?`);
        for (const { token_hash: hash } of hashes) rekey.run(secrets.rekeyLegacyTokenHash(hash), hash);
    }

    db.prepare("INSERT INTO secret_key (id, key_check, created_at) VALUES (1, ?, ?)").run(secrets.keyCheck, new Date().toISOString());
}

const attachedSecrets = new WeakMap<Db, Secrets>();

/** The secrets of a database opened by {@link openDatabase}. */
export function secretsOf(db: Db): Secrets {
    const secrets = attachedSecrets.get(db);
    if (!secrets) throw new Error("this database was not opened with openDatabase: it has no secret key");
    return secrets;
}

/** What the database stores instead of `token`, for the database's key. */
export function hashToken(db: Db, token: string): string {
    return secretsOf(db).hashToken(token);
}
