/**
 * Storage of the local service: one SQLite database (better-sqlite3), its schema and its migrations.
 *
 * The schema is versioned with `PRAGMA user_version`: migration N runs when the stored version is below N,
 * inside one transaction with the version bump, so a later issue adds its tables as a new migration
 * without touching the ones already shipped (and old databases upgrade on start).
 */
import { createHash, randomInt } from "node:crypto";
import { mkdirSync } from "node:fs";
import { dirname, resolve } from "node:path";
import Database from "better-sqlite3";

/** An open database of the local service. */
export type Db = Database.Database;

/** The path that means "no file, throw everything away on close". */
export const MEMORY_PATH = ":memory:";

/** Access levels of a team on a project, weakest first. */
export const ACCESS_LEVELS = ["read", "write", "maintain", "admin"] as const;
export type AccessLevel = (typeof ACCESS_LEVELS)[number];

/**
 * Migrations in order; index 0 is version 1. Never edit a shipped migration: add a new one.
 * Foreign keys say what a delete takes with it (tag bindings and variables go with their owner) and what
 * it must never orphan (a workspace blocks the delete of its project: `RESTRICT`).
 */
const MIGRATIONS: readonly string[] = [
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
    // 3: secrets at rest (issue 6 section 4). Filled in by that work before it lands.
    `
    `,
    // 4: the project list in SQL (issue 6 section 5): indexes and the name search. Filled in by that work before it lands.
    `
    `,
];

/** The schema version this code writes. */
export const SCHEMA_VERSION = MIGRATIONS.length;

/**
 * Opens (creating if needed) the database at `path` and brings its schema up to date.
 * A file database gets its folder created and WAL mode; `synchronous = NORMAL` in WAL keeps every committed
 * transaction across a killed process (only an OS crash could lose the last ones).
 */
export function openDatabase(path: string): Db {
    const memory = path === MEMORY_PATH;
    if (!memory) mkdirSync(dirname(resolve(path)), { recursive: true });
    const db = new Database(path);
    if (!memory) {
        db.pragma("journal_mode = WAL");
        db.pragma("synchronous = NORMAL");
        // Another process (a second CLI on the same file) may hold the write lock for a moment.
        db.pragma("busy_timeout = 5000");
    }
    db.pragma("foreign_keys = ON");
    migrate(db);
    return db;
}

/** Runs every migration above the stored `user_version`, each with its version bump in one transaction. */
export function migrate(db: Db): void {
    const current = db.pragma("user_version", { simple: true }) as number;
    if (current > SCHEMA_VERSION) {
        throw new Error(
            `the database has schema version ${current}, newer than this wos-server (${SCHEMA_VERSION}); upgrade wos-server`,
        );
    }
    for (let version = current + 1; version <= SCHEMA_VERSION; version++) {
        writeTransaction(db, () => {
            db.exec(MIGRATIONS[version - 1]!);
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
    return db.transaction(work).immediate();
}

/** Runs `work` as one read transaction: every row it reads comes from the same snapshot of the database. */
export function readTransaction<T>(db: Db, work: () => T): T {
    return db.transaction(work).deferred();
}

/** SHA-256 of a token, hex: what the database stores instead of the token. */
export function hashToken(token: string): string {
    return createHash("sha256").update(token, "utf8").digest("hex");
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
