/**
 * Issue 19: which SQLite binding wos-server moves to. better-sqlite3 12.11.1 aborts the process on Node 24
 * (`Assertion failed: (env) != nullptr` in `node::RemoveEnvironmentCleanupHook`, from `Statement::~Statement()`
 * when the GC finalizes a statement); the candidates are better-sqlite3 13.2.0 and Node's own `node:sqlite`.
 * Under the Node that runs it, this script measures every binding it is given, side by side:
 * - `api`: what each binding offers of what the server uses (transactions, pragmas, raw rows, named
 *   parameters, error codes...), probed, not read from documentation; and the warnings it prints;
 * - `start`: a fresh process loads the binding, opens a file database, sets the service's pragmas, brings
 *   the service's real schema up to date (its migrations read from `server/db.ts`) and prepares the list
 *   and show statements; medians of several processes, for a new database and for a restart on one;
 * - `queries`: the service's own list statements (a first page, a middle page, a selective `q=` search,
 *   `sort=name`, its middle page) and its show statement, read into objects as the service reads them,
 *   on 1,000 and 10,000 projects of one organization; per call, p50 and p99 in microseconds;
 * - `durability`: a child commits one row a transaction (WAL, `synchronous = NORMAL`, as the service) and
 *   prints each committed id; it is killed with SIGKILL at a random moment, and the database is reopened
 *   with the same binding: `integrity_check`, the trigram index's own check, the kept count, and whether
 *   every id the child reported is there;
 * - `crash`: statements prepared and dropped, `gc()` (`--expose-gc`), then exit: the loop that aborts with
 *   better-sqlite3 12.11.1 on Node 24; exit code or signal of each run.
 *
 * No binding is imported statically (the repository's own better-sqlite3 is one version, for one Node):
 * each is named on the command line and loaded by path in child processes of its own, so one run under one
 * Node measures every binding given without one disturbing the other, and this parent loads none. Figures
 * are printed, nothing is asserted. Timed measures wait until the machine is idle (1-minute load average
 * under `--max-load`, and under `--max-busy` of the CPU in use by others for a second), and print what they
 * started at; a queries process measures how much CPU other processes took while it timed, and one they
 * disturbed (more than `--max-others` of the machine) is run again, the least disturbed of `--attempts` kept.
 *
 * Usage (built with the rest: `npx tsc -p tsconfig.build.json`):
 *
 *     node dist/bench/sqliteBindings.js --binding node:sqlite \
 *         --binding better-sqlite3 --module-path /tmp/sqlite-eval/bs13/node_modules/better-sqlite3
 *
 * Options: `--binding SPEC` (repeatable: `node:sqlite`, or `better-sqlite3=MODULE_DIR`, or `better-sqlite3`
 * followed by `--module-path MODULE_DIR`; default `SQLITE_BINDINGS`, comma-separated specs), `--measure`
 * (comma-separated, default `api,start,queries,durability,crash`), `--sizes` (`1000,10000`), `--samples`
 * (10000 timed calls of each query a round), `--warmup` (2000 calls first, not timed), `--rounds` (3 fresh
 * processes a binding and size, their samples pooled, the bindings' order alternating), `--starts` (11
 * processes of each start), `--kills` (20), `--crash-runs` (5), `--max-load` (0.8), `--max-busy` (0.1),
 * `--idle-wait` (300 seconds for both; then a quiet second is enough for as long again; then it measures
 * anyway and says so), `--max-others` (0.05), `--attempts` (3), `--json FILE` (every figure, for combining
 * runs under several Nodes), `--schema-source` (default `server/db.ts` of this repository).
 *
 * @module
 */
import { spawn } from "node:child_process";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { performance } from "node:perf_hooks";
import { unsafeUniformIntDistribution, xoroshiro128plus } from "pure-rand";
// Types only: erased from the JavaScript, so the repository's own better-sqlite3 is never loaded from here.
import type BetterSqlite3 from "better-sqlite3";
import { PROJECT_LIST_COLUMN_COUNT, projectListColumns, projectListRow } from "../server/projectListRows";

// ---------------------------------------------------------------------------------------------------------
// Bindings behind one small interface

/** A binding as the command line names it: Node's own, or a better-sqlite3 package directory. */
export interface BindingSpec {
    kind: "node:sqlite" | "better-sqlite3";
    /** The better-sqlite3 package directory (holding its `package.json`). */
    modulePath?: string;
}

/**
 * A prepared statement, as the benchmark calls it. It is the binding's own statement object, called
 * directly: no wrapper of this script sits on the timed path.
 */
interface Statement {
    all(...parameters: unknown[]): unknown[];
    get(...parameters: unknown[]): unknown;
    run(...parameters: unknown[]): unknown;
}

/** An open database, with what the service needs of it expressed once for both bindings. */
interface Connection {
    exec(sql: string): void;
    /** `PRAGMA <assignment>`, its answer ignored. */
    setPragma(assignment: string): void;
    /** The value of a one-value pragma (`user_version`). */
    pragmaValue(name: string): unknown;
    /** A statement whose rows are objects keyed by column name. */
    prepare(sql: string): Statement;
    /** A statement whose rows are arrays (better-sqlite3 `raw`, node:sqlite `setReturnArrays`). */
    prepareRaw(sql: string): Statement;
    /** Runs `work` in one transaction (`BEGIN IMMEDIATE` or `DEFERRED`), rolled back when it throws. */
    transaction<T>(mode: "immediate" | "deferred", work: () => T): T;
    close(): void;
}

/** A loaded binding. */
interface Binding {
    label: string;
    open(file: string): Connection;
}

/** What this script uses of `node:sqlite`; @types/node 20 has no types for it. */
interface NodeSqliteStatement extends Statement {
    setReturnArrays?(enabled: boolean): void;
}
interface NodeSqliteDatabase {
    exec(sql: string): void;
    prepare(sql: string): NodeSqliteStatement;
    close(): void;
    readonly isTransaction?: boolean;
}
interface NodeSqliteModule {
    DatabaseSync: new (file: string, options?: Record<string, unknown>) => NodeSqliteDatabase;
}

/**
 * Parses one binding spec: `node:sqlite`, `better-sqlite3=MODULE_DIR`, or `better-sqlite3` (its directory
 * given by a following `--module-path`).
 * @throws Error for any other text.
 */
export function parseBindingSpec(text: string): BindingSpec {
    if (text === "node:sqlite") return { kind: "node:sqlite" };
    const [name, modulePath] = text.split(/=(.*)/s, 2) as [string, string | undefined];
    if (name === "better-sqlite3") return { kind: "better-sqlite3", modulePath: modulePath ? path.resolve(modulePath) : undefined };
    throw new Error(`unknown binding '${text}': give node:sqlite or better-sqlite3=MODULE_DIR`);
}

/** The spec as text, to hand to a child process. */
function specText(spec: BindingSpec): string {
    return spec.kind === "node:sqlite" ? "node:sqlite" : `better-sqlite3=${spec.modulePath}`;
}

/** The binding's name and version, read without loading it (the package's `package.json`). */
export function bindingLabel(spec: BindingSpec): string {
    if (spec.kind === "node:sqlite") return "node:sqlite";
    const manifest = JSON.parse(fs.readFileSync(path.join(spec.modulePath!, "package.json"), "utf8")) as { version: string };
    return `better-sqlite3 ${manifest.version}`;
}

/** Loads a binding (the `require` this costs is part of the start figure). */
function loadBinding(spec: BindingSpec): Binding {
    return spec.kind === "node:sqlite" ? nodeSqlite() : betterSqlite3(spec.modulePath!);
}

function betterSqlite3(modulePath: string): Binding {
    // Loaded by path, never imported: see the module's TSDoc.
    const Database = require(modulePath) as typeof BetterSqlite3;
    return {
        label: bindingLabel({ kind: "better-sqlite3", modulePath }),
        open(file) {
            const db = new Database(file);
            // One transaction function a connection, called with the work: what server/db.ts `transactionRunner` does.
            const runner = db.transaction((work: () => unknown) => work());
            return {
                exec: (sql) => void db.exec(sql),
                setPragma: (assignment) => void db.pragma(assignment),
                pragmaValue: (name) => db.pragma(name, { simple: true }),
                prepare: (sql) => db.prepare(sql),
                prepareRaw: (sql) => db.prepare(sql).raw(true),
                transaction: <T>(mode: "immediate" | "deferred", work: () => T) => runner[mode](work) as T,
                close: () => void db.close(),
            };
        },
    };
}

function nodeSqlite(): Binding {
    // Absent before Node 22.5 (flagged until 22.13): loaded only when asked for.
    const sqlite = require("node:sqlite") as NodeSqliteModule;
    return {
        label: "node:sqlite",
        open(file) {
            const db = new sqlite.DatabaseSync(file);
            return {
                exec: (sql) => db.exec(sql),
                // node:sqlite has no pragma helper: a pragma is a statement like any other.
                setPragma: (assignment) => db.exec(`PRAGMA ${assignment}`),
                pragmaValue: (name) => {
                    const row = db.prepare(`PRAGMA ${name}`).get() as Record<string, unknown> | undefined;
                    return row === undefined ? undefined : Object.values(row)[0];
                },
                prepare: (sql) => db.prepare(sql),
                prepareRaw: (sql) => {
                    const statement = db.prepare(sql);
                    if (statement.setReturnArrays === undefined) throw new Error("this Node's node:sqlite cannot answer rows as arrays (setReturnArrays)");
                    statement.setReturnArrays(true);
                    return statement;
                },
                // node:sqlite has no transaction helper: BEGIN, COMMIT, ROLLBACK on a throw, as better-sqlite3's
                // does for an outermost transaction (the benchmark nests none, so no savepoints here).
                transaction: <T>(mode: "immediate" | "deferred", work: () => T) => {
                    db.exec(mode === "immediate" ? "BEGIN IMMEDIATE" : "BEGIN DEFERRED");
                    try {
                        const result = work();
                        db.exec("COMMIT");
                        return result;
                    } catch (error) {
                        // SQLite may have rolled back already (some errors end the transaction themselves).
                        if (db.isTransaction !== false) db.exec("ROLLBACK");
                        throw error;
                    }
                },
                close: () => db.close(),
            };
        },
    };
}

// ---------------------------------------------------------------------------------------------------------
// The service's schema, pragmas, statements and rows

/** A migration of `server/db.ts`: its SQL, and whether a data step follows it there. */
export interface Migration {
    sql: string;
    dataStep: boolean;
}

/**
 * The service's migrations, read from the source of `server/db.ts` (its `MIGRATIONS` array is not exported,
 * and importing the module would load the repository's better-sqlite3): every template literal of the array,
 * comments left out, in order; `sql:` before one marks a migration with a data step. So the start figure
 * follows the schema as later issues add to it.
 * @throws Error when the array is not found, or a migration interpolates a value this reader cannot know.
 */
export function loadMigrations(sourcePath: string): Migration[] {
    const text = fs.readFileSync(sourcePath, "utf8");
    const start = text.indexOf("const MIGRATIONS");
    const end = text.indexOf("\n];", start);
    if (start < 0 || end < 0) throw new Error(`no MIGRATIONS array in ${sourcePath}`);
    // Comments name tables between backticks: drop them before looking for the SQL's template literals.
    const body = text.slice(start, end).replace(/^\s*\/\/.*$/gm, "");
    const migrations: Migration[] = [];
    for (const match of body.matchAll(/(sql:\s*)?`([^`]*)`/g)) {
        if (match[2]!.includes("${")) throw new Error(`a migration of ${sourcePath} interpolates a value: this reader cannot follow it`);
        migrations.push({ sql: match[2]!, dataStep: match[1] !== undefined });
    }
    if (migrations.length === 0) throw new Error(`no migration found in ${sourcePath}`);
    return migrations;
}

/** Where `server/db.ts` is: beside the compiled script's repository, else under the current directory. */
function defaultSchemaSource(): string {
    const besideBuild = path.resolve(__dirname, "../../server/db.ts");
    return fs.existsSync(besideBuild) ? besideBuild : path.resolve("server/db.ts");
}

/**
 * Brings the schema up to date as `server/db.ts` `migrate` does: each migration above `user_version` in its
 * own IMMEDIATE transaction with its version bump. The data step of migration 3 (sealing stored secrets)
 * has nothing to seal in a new database; it stores the key check, which is written here with a stand-in.
 */
function migrate(db: Connection, migrations: readonly Migration[]): void {
    const current = Number(db.pragmaValue("user_version"));
    for (let version = current + 1; version <= migrations.length; version++) {
        const migration = migrations[version - 1]!;
        db.transaction("immediate", () => {
            db.exec(migration.sql);
            if (migration.dataStep && /CREATE TABLE secret_key/.test(migration.sql)) {
                db.prepare("INSERT INTO secret_key (id, key_check, created_at) VALUES (1, ?, ?)").run("bench-key-check", new Date().toISOString());
            }
            db.setPragma(`user_version = ${version}`);
        });
    }
}

/** Opens a file database as `server/db.ts` `openDatabase` does: the same pragmas, then the migrations. */
function openLikeService(binding: Binding, file: string, migrations: readonly Migration[]): Connection {
    const db = binding.open(file);
    db.setPragma("journal_mode = WAL");
    db.setPragma("synchronous = NORMAL");
    db.setPragma("busy_timeout = 5000");
    db.setPragma("foreign_keys = ON");
    db.setPragma("secure_delete = ON");
    migrate(db, migrations);
    return db;
}

const ORGANIZATION = "bench";
const PAGE_SIZE = 20;
/** As bench/support.ts: the word only the first projects carry, and how many carry it at every size. */
const SEARCH_TERM = "kestrel";
const SEARCH_MATCHES = 200;
const NAME_WORDS = ["alder", "birch", "cedar", "delta", "ember", "fjord", "grove", "heron", "inlet", "jetty"];

// The list's statements, as server/projectListQuery.ts builds them for a caller who sees every project (the
// owners' token of the bench): `wholeOrganizationPage` (creation order) and `selectiveSearchPage` with
// `sort=name`; their pieces are `PAGE_COLUMNS` (server/projectListRows.ts, imported: it loads no database),
// `ORGANIZATION_TOTAL` and `PAGE_BOUNDS_SQL` (server/pagination.ts). Those two are copied, not imported: the
// modules that hold them load the repository's better-sqlite3.
const PAGE_COLUMNS = projectListColumns("page");
const ORGANIZATION_TOTAL = "COALESCE((SELECT project_count FROM organization_project_counts WHERE organization = @organization), 0)";
const PAGE_BOUNDS_SQL = "LIMIT +@limit OFFSET +@offset";
const SELECTIVE_SEARCH_MATCHES = 2000;
const LIST_SQL = `SELECT ${PAGE_COLUMNS}, ${ORGANIZATION_TOTAL} FROM projects page WHERE page.organization = @organization
                  ORDER BY page.rowid ${PAGE_BOUNDS_SQL}`;
const SEARCH_SQL = `WITH hits AS MATERIALIZED (
                        SELECT p.rowid AS hit, p.name AS name FROM project_names f CROSS JOIN projects p ON p.rowid = f.rowid
                        WHERE f.project_names MATCH @phrase AND p.organization = @organization LIMIT ${SELECTIVE_SEARCH_MATCHES})
                    SELECT ${PAGE_COLUMNS}, matches.n, matches.total
                    FROM (SELECT COUNT(*) AS n, ${ORGANIZATION_TOTAL} AS total FROM hits) matches
                    LEFT JOIN projects page ON page.rowid IN (SELECT hit FROM hits ORDER BY name COLLATE NOCASE ${PAGE_BOUNDS_SQL})
                    ORDER BY page.name COLLATE NOCASE`;
/** server/records/projects.ts `findProject`, which `GET /projects/:id` runs. */
const SHOW_SQL = "SELECT * FROM projects WHERE id = ?";

/** A seeded generator of numbers in [0, 1): both bindings write the same ids, so they read the same rows. */
function seededRandom(seed: number): () => number {
    const generator = xoroshiro128plus(seed);
    return () => unsafeUniformIntDistribution(0, 0xffffffff, generator) / 0x100000000;
}

const ID_ALPHABET = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789";

/**
 * Writes the bench organization and `size` projects into a migrated database, as bench/support.ts
 * `growProjects` does (its names, a description on one project in three, a workspace on one in ten,
 * creation times a second apart), with ids from a seeded generator. Answers the project ids in order.
 */
function seedProjects(db: Connection, size: number): string[] {
    const random = seededRandom(19);
    const randomId = (prefix: string) => {
        let id = prefix;
        for (let i = 0; i < 16; i++) id += ID_ALPHABET[Math.floor(random() * ID_ALPHABET.length)];
        return id;
    };
    const epoch = Date.UTC(2030, 0, 1);
    const insertOrganization = db.prepare("INSERT INTO organizations (name, created_at) VALUES (?, ?)");
    const insertProject = db.prepare("INSERT INTO projects (id, organization, name, description, created_at, updated_at) VALUES (?, ?, ?, ?, ?, ?)");
    const insertWorkspace = db.prepare(
        "INSERT INTO workspaces (id, organization, project_id, name, source, created_at, updated_at) VALUES (?, ?, ?, ?, 'tfe-api', ?, ?)",
    );
    const ids: string[] = [];
    db.transaction("immediate", () => {
        insertOrganization.run(ORGANIZATION, new Date(epoch).toISOString());
        for (let index = 0; index < size; index++) {
            const timestamp = new Date(epoch + index * 1000).toISOString();
            const id = randomId("prj-");
            const word = index < SEARCH_MATCHES * 5 && index % 5 === 0 ? SEARCH_TERM : NAME_WORDS[index % NAME_WORDS.length];
            insertProject.run(id, ORGANIZATION, `${word}-${String(index).padStart(6, "0")}`, index % 3 === 0 ? `project number ${index}` : null, timestamp, timestamp);
            if (index % 10 === 0) insertWorkspace.run(randomId("ws-"), ORGANIZATION, id, `ws-${String(index).padStart(6, "0")}`, timestamp, timestamp);
            ids.push(id);
        }
    });
    db.setPragma("wal_checkpoint(TRUNCATE)");
    return ids;
}

// ---------------------------------------------------------------------------------------------------------
// Child processes: each measure runs in a fresh process of the binding it measures

/** The arguments a child process is given, as one JSON value. */
interface ChildArguments {
    binding: string;
    schemaSource: string;
    file?: string;
    size?: number;
    samples?: number;
    warmup?: number;
    round?: number;
    reportedFile?: string;
}

/** Runs the child's part and prints its result as one `RESULT <json>` line. */
function runChild(mode: string, args: ChildArguments): void {
    const spec = parseBindingSpec(args.binding);
    // The schema is read before any clock starts: it is this script's work, not the binding's.
    const migrations = loadMigrations(args.schemaSource);
    let result: unknown;
    switch (mode) {
        case "start":
            result = childStart(spec, args.file!, migrations);
            break;
        case "queries":
            result = childQueries(spec, args, migrations);
            break;
        case "write":
            childWrite(spec, args.file!, args.round!, migrations);
            return;
        case "check":
            result = childCheck(spec, args.file!, args.reportedFile!, migrations);
            break;
        case "crash":
            result = childCrash(spec);
            break;
        case "api":
            result = childApi(spec);
            break;
        default:
            throw new Error(`unknown child mode '${mode}'`);
    }
    fs.writeSync(1, `RESULT ${JSON.stringify(result)}\n`);
}

/** Milliseconds from loading the binding to statements ready, and from the process's start to ready. */
interface StartFigures {
    loadMs: number;
    openMs: number;
    readyMs: number;
}

/** Start: load the binding, open, pragmas, migrations (none left on a restart), prepare the statements. */
function childStart(spec: BindingSpec, file: string, migrations: readonly Migration[]): StartFigures {
    const started = performance.now();
    const binding = loadBinding(spec);
    const loaded = performance.now();
    const db = openLikeService(binding, file, migrations);
    db.prepareRaw(LIST_SQL);
    db.prepareRaw(SEARCH_SQL);
    db.prepare(SHOW_SQL);
    // performance.now() counts from the process's time origin: this is Node's own start and ours together.
    const ready = performance.now();
    db.close();
    return { loadMs: loaded - started, openMs: ready - loaded, readyMs: ready };
}

/** Per-call timings of each query, in microseconds, unsorted. */
type QuerySamples = Record<string, number[]>;

/** What a queries child answers: its timings, and the share of the machine others used meanwhile. */
interface QueriesFigures {
    samples: QuerySamples;
    othersCpuShare: number;
}

/** The queries: the database written, reopened (a service start on it), then each statement timed. */
function childQueries(spec: BindingSpec, args: ChildArguments, migrations: readonly Migration[]): QueriesFigures {
    const binding = loadBinding(spec);
    const size = args.size!;
    const directory = fs.mkdtempSync(path.join(os.tmpdir(), "wos-sqlite-bindings-"));
    const file = path.join(directory, "wos.db");
    try {
        const writer = openLikeService(binding, file, migrations);
        const ids = seedProjects(writer, size);
        writer.close();
        const db = openLikeService(binding, file, migrations);
        const list = db.prepareRaw(LIST_SQL);
        const search = db.prepareRaw(SEARCH_SQL);
        const show = db.prepare(SHOW_SQL);
        // The shown projects are spread over the table, so consecutive calls do not read one row.
        const shown = Array.from({ length: 257 }, (_, i) => ids[Math.floor((i * ids.length) / 257)]!);
        let next = 0;
        const listPage = (offset: number) => () => {
            const rows = list.all({ organization: ORGANIZATION, limit: PAGE_SIZE, offset }) as unknown[][];
            // What wholeOrganizationPage answers: the kept total, and the rows made into list items.
            const page = { total: rows[0]![PROJECT_LIST_COLUMN_COUNT] as number, items: rows.map(projectListRow) };
            return page.total > 0 ? page.items.length : 0;
        };
        const middleOffset = (Math.ceil(size / PAGE_SIZE / 2) - 1) * PAGE_SIZE;
        const searchOffset = (Math.ceil(SEARCH_MATCHES / PAGE_SIZE / 2) - 1) * PAGE_SIZE;
        const phrase = `"${SEARCH_TERM}"`;
        const work: Record<string, () => number> = {
            "list, first page": listPage(0),
            "list, middle page": listPage(middleOffset),
            [`search q=${SEARCH_TERM} sort=name, middle page`]: () => {
                const rows = search.all({ phrase, organization: ORGANIZATION, limit: PAGE_SIZE, offset: searchOffset }) as unknown[][];
                const matching = rows[0]![PROJECT_LIST_COLUMN_COUNT] as number;
                const items = rows[0]![0] === null ? [] : rows.map(projectListRow);
                return matching > 0 ? items.length : 0;
            },
            "show by id": () => ((show.get(shown[next++ % shown.length]) as { id?: string } | undefined)?.id === undefined ? 0 : 1),
        };
        const samples: QuerySamples = {};
        const othersCpuShare = othersCpuMark();
        for (const [name, run] of Object.entries(work)) {
            // A wrong page would time the wrong work: check the answer's size once.
            const answered = run();
            const expected = name === "show by id" ? 1 : PAGE_SIZE;
            if (answered !== expected) throw new Error(`${name} answered ${answered} items, not ${expected}`);
            for (let i = 0; i < args.warmup!; i++) run();
            const timings = new Array<number>(args.samples!);
            for (let i = 0; i < timings.length; i++) {
                const before = performance.now();
                run();
                // Microseconds, to a hundredth: enough, and a shorter line for the parent to read.
                timings[i] = Math.round((performance.now() - before) * 1e5) / 100;
            }
            samples[name] = timings;
        }
        const others = othersCpuShare();
        db.close();
        return { samples, othersCpuShare: others };
    } finally {
        fs.rmSync(directory, { recursive: true, force: true });
    }
}

/**
 * The durability writer: commits one project a transaction, as the service does for a create, and prints
 * each id once its COMMIT has returned (`writeSync` on the pipe: the parent reads it only after that), until
 * it is killed. Ids and names carry the round, so every round adds rows of its own to the same database.
 */
function childWrite(spec: BindingSpec, file: string, round: number, migrations: readonly Migration[]): void {
    const db = openLikeService(loadBinding(spec), file, migrations);
    const timestamp = new Date().toISOString();
    db.prepare("INSERT OR IGNORE INTO organizations (name, created_at) VALUES (?, ?)").run(ORGANIZATION, timestamp);
    const insert = db.prepare("INSERT INTO projects (id, organization, name, description, created_at, updated_at) VALUES (?, ?, ?, ?, ?, ?)");
    fs.writeSync(1, "ready\n");
    // Bounded, in case no kill comes: a minute, or a million rows.
    const deadline = Date.now() + 60_000;
    for (let i = 0; i < 1_000_000 && Date.now() < deadline; i++) {
        const id = `prj-r${round}-${i}`;
        db.transaction("immediate", () => insert.run(id, ORGANIZATION, `durable-${round}-${i}`, "written one transaction each", timestamp, timestamp));
        fs.writeSync(1, `${id}\n`);
    }
    db.close();
}

/** What the reopened database says after a kill. */
interface CheckFigures {
    integrity: string;
    ftsIntegrity: string;
    keptCountMatches: boolean;
    rows: number;
    reported: number;
    missing: number;
    firstMissing?: string;
}

/** Reopens the killed writer's database with the same binding and checks it against the reported ids. */
function childCheck(spec: BindingSpec, file: string, reportedFile: string, migrations: readonly Migration[]): CheckFigures {
    const db = openLikeService(loadBinding(spec), file, migrations);
    const integrity = (db.prepareRaw("PRAGMA integrity_check").all() as unknown[][]).map((row) => String(row[0])).join("; ");
    let ftsIntegrity = "ok";
    try {
        // FTS5's own check of the trigram index against the projects it indexes (external content).
        db.exec("INSERT INTO project_names (project_names) VALUES ('integrity-check')");
    } catch (error) {
        ftsIntegrity = (error as Error).message;
    }
    const present = new Set((db.prepareRaw("SELECT id FROM projects").all() as unknown[][]).map((row) => row[0] as string));
    const kept = db.prepareRaw("SELECT project_count FROM organization_project_counts WHERE organization = ?").all(ORGANIZATION) as unknown[][];
    const reported = fs.readFileSync(reportedFile, "utf8").split("\n").filter((line) => line !== "");
    const missing = reported.filter((id) => !present.has(id));
    db.close();
    return {
        integrity,
        ftsIntegrity,
        keptCountMatches: (kept[0]?.[0] ?? 0) === present.size,
        rows: present.size,
        reported: reported.length,
        missing: missing.length,
        firstMissing: missing[0],
    };
}

/**
 * The loop that aborts with better-sqlite3 12.11.1 on Node 24: statements prepared, run once and dropped,
 * the GC left to collect them (no `gc()` between: a `gc()` called from JavaScript finalizes them while a
 * context is entered, and 12.11.1 survives that; it aborts when V8 finalizes many at once outside one), then
 * `gc()` (the parent starts this child with `--expose-gc`) and exit, some statements still referenced and
 * the database left open, so the cleanup at exit has statements to finalize too.
 */
function childCrash(spec: BindingSpec): { statements: number } {
    const gc = (globalThis as { gc?: () => void }).gc;
    if (gc === undefined) throw new Error("the crash loop needs --expose-gc");
    const db = loadBinding(spec).open(":memory:");
    db.exec("CREATE TABLE t (a)");
    const kept: Statement[] = [];
    const statements = 20_000;
    for (let i = 0; i < statements; i++) {
        const statement = db.prepare(`SELECT ${i} AS n, a FROM t`);
        statement.all();
        if (i % 200 === 0) kept.push(statement);
    }
    gc();
    (globalThis as { keptStatements?: unknown }).keptStatements = kept;
    return { statements };
}

/**
 * What a binding offers of what the server uses (and of what a port would reach for), each probed by
 * calling it. Every answer is text: what it is called, or what happens.
 */
function childApi(spec: BindingSpec): Record<string, string> {
    // Each probe runs on the binding's own objects, untyped: the two APIs differ, which is what is probed.
    type Loose = Record<string, any>;
    let db: Loose;
    let moduleBackup = false;
    let exportNames: string;
    if (spec.kind === "node:sqlite") {
        const sqlite = require("node:sqlite") as Loose;
        db = new sqlite.DatabaseSync(":memory:");
        moduleBackup = typeof sqlite.backup === "function";
        exportNames = Object.keys(sqlite).join(", ");
    } else {
        const Database = require(spec.modulePath!) as (new (file: string) => Loose) & Loose;
        db = new Database(":memory:");
        exportNames = ["Database (the module)", ...Object.keys(Database)].join(", ");
    }
    const probe = (work: () => string): string => {
        try {
            return work();
        } catch (error) {
            const { code, errcode, errstr } = error as { code?: unknown; errcode?: unknown; errstr?: unknown };
            const codes = [code, errcode, errstr].filter((value) => value !== undefined).join(", ");
            return `throws ${(error as Error).message}${codes ? ` [${codes}]` : ""}`;
        }
    };
    const has = (owner: Loose, name: string) => typeof owner[name] === "function";
    db.exec("CREATE TABLE t (id INTEGER PRIMARY KEY, name TEXT UNIQUE, v)");
    db.prepare("INSERT INTO t (name, v) VALUES ('a', 1)").run();
    const select = db.prepare("SELECT * FROM t WHERE id = ?");
    const insert = db.prepare("INSERT INTO t (name, v) VALUES (@name, @v)");
    const answers: Record<string, string> = {
        "module exports": exportNames,
        "SQLite version": probe(() => String(Object.values(db.prepare("SELECT sqlite_version() AS v").get() as object)[0])),
        "transaction helper": has(db, "transaction") ? "db.transaction(fn) (.immediate, .deferred, nests as savepoints)" : "none: BEGIN/COMMIT/ROLLBACK by hand",
        "pragma helper": has(db, "pragma") ? "db.pragma(text, { simple })" : "none: PRAGMA as a statement",
        "rows as arrays": has(select, "raw") ? "stmt.raw(true)" : has(select, "setReturnArrays") ? "stmt.setReturnArrays(true)" : "none",
        "first column only": has(select, "pluck") ? "stmt.pluck()" : "none",
        "iterate": has(select, "iterate") ? "stmt.iterate()" : "none",
        "custom scalar function": probe(() => {
            if (!has(db, "function")) return "none";
            db.function("triple", { deterministic: true }, (x: number) => x * 3);
            return `db.function(): triple(2) = ${Object.values(db.prepare("SELECT triple(2) AS r").get() as object)[0]}`;
        }),
        "custom aggregate": has(db, "aggregate") ? "db.aggregate()" : "none",
        "FTS5 trigram tokenizer": probe(() => (db.exec("CREATE VIRTUAL TABLE f USING fts5(name, tokenize = 'trigram')"), "yes")),
        "JSON ->> operator": probe(() => `yes (${Object.values(db.prepare("SELECT json('[7]') ->> 0 AS a").get() as object)[0]})`),
        "named parameter without its @ ({ name })": probe(() => (insert.run({ name: "b", v: 2 }), "accepted")),
        "named parameter missing from the object": probe(() => {
            insert.run({ name: "c" });
            return `binds NULL silently (v = ${(db.prepare("SELECT v FROM t WHERE name = 'c'").get() as { v: unknown }).v})`;
        }),
        "object with keys the statement lacks": probe(() => (insert.run({ name: "d", v: 4, extra: 1 }), "ignored")),
        "option to ignore such keys": has(insert, "setAllowUnknownNamedParameters") ? "stmt.setAllowUnknownNamedParameters(true)" : "(not needed)",
        "binds a boolean": probe(() => (insert.run({ name: "e", v: true }), `yes (stored ${(db.prepare("SELECT v FROM t WHERE name = 'e'").get() as { v: unknown }).v})`)),
        "binds undefined": probe(() => (insert.run({ name: "f", v: undefined }), "yes (NULL)")),
        "reads an integer above 2^53": probe(() => `as ${typeof (db.prepare("SELECT 9007199254740993 AS x").get() as { x: unknown }).x} (precision lost)`),
        "error of a UNIQUE violation": probe(() => (insert.run({ name: "a", v: 9 }), "no error")),
        "in-transaction flag": "inTransaction" in db ? "db.inTransaction" : "isTransaction" in db ? "db.isTransaction" : "none",
        "statement's SQL text": typeof select.source === "string" ? "stmt.source" : typeof select.sourceSQL === "string" ? "stmt.sourceSQL" : "none",
        "row object": probe(() => (Object.getPrototypeOf(select.get(1)) === null ? "null prototype" : "plain Object")),
        "run() answers": probe(() => Object.keys(insert.run({ name: "g", v: 7 }) as object).join(", ")),
        "backup / serialize": [has(db, "backup") ? "db.backup()" : "", moduleBackup ? "sqlite.backup(db, path)" : "", has(db, "serialize") ? "db.serialize()" : ""]
            .filter(Boolean)
            .join(", ") || "none",
    };
    db.close();
    return answers;
}

// ---------------------------------------------------------------------------------------------------------
// The parent: runs the children, waits for an idle machine, prints side by side

/** What a child process left: its result line, exit, stderr, and how long it lived. */
interface ChildOutcome {
    result?: unknown;
    code: number | null;
    signal: NodeJS.Signals | null;
    stderr: string;
    wallMs: number;
}

/** Starts this script as a child in `mode` and waits for it; never rejects (a failure is in the outcome). */
function spawnChild(mode: string, args: ChildArguments, nodeOptions: string[] = []): Promise<ChildOutcome> {
    return new Promise((resolve) => {
        const started = performance.now();
        const child = spawn(process.execPath, [...nodeOptions, __filename, "--child", mode, "--child-args", JSON.stringify(args)], {
            stdio: ["ignore", "pipe", "pipe"],
        });
        let stdout = "";
        let stderr = "";
        child.stdout.on("data", (chunk: Buffer) => (stdout += chunk.toString()));
        child.stderr.on("data", (chunk: Buffer) => (stderr += chunk.toString()));
        child.on("close", (code, signal) => {
            const wallMs = performance.now() - started;
            const line = stdout.split("\n").find((text) => text.startsWith("RESULT "));
            resolve({ result: line === undefined ? undefined : JSON.parse(line.slice("RESULT ".length)), code, signal, stderr, wallMs });
        });
    });
}

/** The warnings a child printed (Node's `(node:PID) XWarning: ...` lines), without the pid. */
function warningsOf(stderr: string): string[] {
    return stderr
        .split("\n")
        .filter((line) => /^\(node:\d+\) \w*Warning/.test(line))
        .map((line) => line.replace(/^\(node:\d+\) /, ""));
}

/** The first line of a failed child's stderr that says why. */
function failureOf(outcome: ChildOutcome): string {
    const lines = outcome.stderr.split("\n").map((line) => line.trim());
    const why = lines.find((line) => /Assertion failed|Error|error:/.test(line) && !/Warning/.test(line)) ?? lines.find((line) => line !== "") ?? "";
    return `${outcome.signal ?? `exit ${outcome.code}`}${why ? `: ${why}` : ""}`;
}

/** Busy and total CPU time of the whole machine so far, in clock ticks (/proc/stat, Linux; 100 a second). */
function machineTicks(): { busy: number; total: number } {
    const fields = fs.readFileSync("/proc/stat", "utf8").split("\n")[0]!.trim().split(/\s+/).slice(1).map(Number);
    const total = fields.reduce((sum, value) => sum + value, 0);
    // idle and iowait are the not-busy fields.
    return { busy: total - fields[3]! - (fields[4] ?? 0), total };
}

/** Share of the machine's CPU in use over `ms` (all cores together), 0..1. */
async function cpuBusyShare(ms: number): Promise<number> {
    const before = machineTicks();
    await sleep(ms);
    const after = machineTicks();
    return after.total === before.total ? 0 : (after.busy - before.busy) / (after.total - before.total);
}

/**
 * A mark to measure, from inside a timed child, how much CPU other processes took while it ran: the
 * machine's busy time less this process's own, as a share of the machine (all cores) over the wall time.
 */
function othersCpuMark(): () => number {
    const machine = machineTicks();
    const own = process.cpuUsage();
    const started = performance.now();
    return () => {
        const busyMs = (machineTicks().busy - machine.busy) * 10;
        const ownUsage = process.cpuUsage(own);
        const ownMs = (ownUsage.user + ownUsage.system) / 1000;
        return Math.max(0, busyMs - ownMs) / ((performance.now() - started) * os.cpus().length);
    };
}

function sleep(ms: number): Promise<void> {
    return new Promise((resolve) => setTimeout(resolve, ms));
}

/** How long and how hard {@link waitForIdle} waits. */
interface IdleRule {
    /** The 1-minute load average to be under. */
    maxLoad: number;
    /** The share of the machine's CPU in use over one second (while nothing of ours runs) to be under. */
    maxBusy: number;
    /** Seconds to wait for both; then as long again for the CPU check alone; then it goes on anyway. */
    waitS: number;
}

/**
 * Waits until the machine is idle before a timed measure: the 1-minute load average under the rule's and,
 * over one second while nothing of ours runs, little CPU in use. The load average lags (a minute), and other
 * jobs that come and go can keep it up for a long time: after `waitS` a quiet second is enough, and after
 * as long again it goes on anyway. The text it answers says which, and is printed with the figures.
 */
async function waitForIdle(rule: IdleRule): Promise<string> {
    const since = Date.now();
    for (;;) {
        const busy = await cpuBusyShare(1000);
        const load = os.loadavg()[0]!;
        const state = `load average ${load.toFixed(2)}, CPU in use ${(busy * 100).toFixed(0)}%`;
        const waited = (Date.now() - since) / 1000;
        if (busy < rule.maxBusy && load < rule.maxLoad) return `idle (${state})`;
        if (busy < rule.maxBusy && waited > rule.waitS) return `quiet second (${state})`;
        if (waited > 2 * rule.waitS) return `NOT IDLE (${state})`;
        await sleep(waited > rule.waitS ? 200 : 2000);
    }
}

/** What {@link waitForIdle} said before each process, counted: `9x idle, 2x quiet second; load averages 0.31-0.95`. */
function summarizeConditions(conditions: readonly string[]): string {
    const kinds = conditions.map((text) => text.replace(/ \(.*/s, ""));
    const counted = [...new Set(kinds)].map((kind) => `${kinds.filter((other) => other === kind).length}x ${kind}`).join(", ");
    const loads = conditions.map((text) => Number(/load average ([\d.]+)/.exec(text)?.[1])).filter(Number.isFinite);
    return `${counted}; load averages ${Math.min(...loads).toFixed(2)}-${Math.max(...loads).toFixed(2)}`;
}

/** The value at `fraction` of samples sorted ascending (as bench/support.ts `percentile`). */
function percentile(sorted: readonly number[], fraction: number): number {
    if (sorted.length === 0) return NaN;
    return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil(fraction * sorted.length) - 1))]!;
}

function median(values: readonly number[]): number {
    return percentile([...values].sort((a, b) => a - b), 0.5);
}

/** `1,234.5`-style: 2 decimals under 10, 1 under 100, none above (as bench/support.ts). */
function formatNumber(value: number): string {
    if (!Number.isFinite(value)) return String(value);
    const digits = Math.abs(value) < 10 ? 2 : Math.abs(value) < 100 ? 1 : 0;
    return value.toLocaleString("en-US", { minimumFractionDigits: digits, maximumFractionDigits: digits });
}

/** Prints a table: a header row, then rows, each column as wide as its widest cell. */
function printTable(header: readonly string[], rows: readonly (readonly string[])[]): void {
    const widths = header.map((cell, column) => Math.max(cell.length, ...rows.map((row) => (row[column] ?? "").length)));
    const line = (cells: readonly string[]) => cells.map((cell, column) => cell.padEnd(widths[column]!)).join(" | ").trimEnd();
    console.log(line(header));
    console.log(widths.map((width) => "-".repeat(width)).join("-|-"));
    for (const row of rows) console.log(line(row));
}

/** The command line, parsed. */
interface Options {
    bindings: BindingSpec[];
    measures: string[];
    sizes: number[];
    samples: number;
    warmup: number;
    rounds: number;
    starts: number;
    kills: number;
    crashRuns: number;
    idle: IdleRule;
    maxOthers: number;
    attempts: number;
    json?: string;
    schemaSource: string;
}

/** Parses the parent's command line (see the module's TSDoc). */
function parseOptions(argv: readonly string[]): Options {
    const bindings: BindingSpec[] = [];
    const values = new Map<string, string>();
    for (let i = 0; i < argv.length; i++) {
        const name = argv[i]!;
        const value = argv[i + 1];
        if (!name.startsWith("--") || value === undefined) throw new Error(`unexpected argument '${name}'`);
        i++;
        if (name === "--binding") bindings.push(parseBindingSpec(value));
        else if (name === "--module-path") {
            const last = bindings[bindings.length - 1];
            if (last?.kind !== "better-sqlite3") throw new Error("--module-path follows a --binding better-sqlite3");
            last.modulePath = path.resolve(value);
        } else values.set(name.slice(2), value);
    }
    if (bindings.length === 0) {
        for (const text of (process.env.SQLITE_BINDINGS ?? "").split(",").filter((item) => item.trim() !== "")) bindings.push(parseBindingSpec(text.trim()));
    }
    if (bindings.length === 0) throw new Error("name a binding: --binding node:sqlite and/or --binding better-sqlite3=MODULE_DIR (or SQLITE_BINDINGS)");
    for (const spec of bindings) {
        if (spec.kind === "better-sqlite3" && spec.modulePath === undefined) throw new Error("--binding better-sqlite3 needs its directory: =MODULE_DIR or --module-path");
    }
    const number = (name: string, fallback: number) => {
        const text = values.get(name);
        const value = text === undefined ? fallback : Number(text);
        if (!Number.isFinite(value) || value < 0) throw new Error(`--${name} must be a non-negative number, got '${text}'`);
        return value;
    };
    const list = (name: string, fallback: string) => (values.get(name) ?? fallback).split(",").map((item) => item.trim()).filter((item) => item !== "");
    return {
        bindings,
        measures: list("measure", "api,start,queries,durability,crash"),
        sizes: list("sizes", "1000,10000").map(Number),
        samples: number("samples", 10_000),
        warmup: number("warmup", 2000),
        rounds: number("rounds", 3),
        starts: number("starts", 11),
        kills: number("kills", 20),
        crashRuns: number("crash-runs", 5),
        idle: { maxLoad: number("max-load", 0.8), maxBusy: number("max-busy", 0.1), waitS: number("idle-wait", 300) },
        maxOthers: number("max-others", 0.05),
        attempts: Math.max(1, number("attempts", 3)),
        json: values.get("json"),
        schemaSource: path.resolve(values.get("schema-source") ?? defaultSchemaSource()),
    };
}

/** Everything a run printed, as `--json` writes it. */
interface Report {
    node: string;
    sqliteOfNode?: string;
    machine: string;
    bindings: string[];
    warnings: Record<string, string[]>;
    [measure: string]: unknown;
}

async function main(): Promise<void> {
    const options = parseOptions(process.argv.slice(2));
    const labels = options.bindings.map(bindingLabel);
    const migrations = loadMigrations(options.schemaSource);
    const cpu = os.cpus();
    const report: Report = {
        node: process.version,
        sqliteOfNode: (process.versions as Record<string, string | undefined>).sqlite,
        machine: `${cpu.length} x ${cpu[0]?.model ?? "unknown CPU"}, ${os.platform()} ${os.release()}`,
        bindings: labels,
        warnings: Object.fromEntries(labels.map((label) => [label, []])),
    };
    const base = (spec: BindingSpec): ChildArguments => ({ binding: specText(spec), schemaSource: options.schemaSource });
    /** Keeps each new warning a binding's child printed. */
    const noteWarnings = (index: number, outcome: ChildOutcome) => {
        const seen = report.warnings[labels[index]!]!;
        for (const warning of warningsOf(outcome.stderr)) if (!seen.includes(warning)) seen.push(warning);
    };
    console.log(`# SQLite bindings under Node ${process.version} (its own SQLite ${report.sqliteOfNode ?? "none"}), ${report.machine}`);
    console.log(`bindings: ${labels.join(", ")}; schema: ${migrations.length} migrations from ${path.relative(process.cwd(), options.schemaSource)}`);
    const header = ["", ...labels];

    if (options.measures.includes("api")) {
        console.log("\n## API, probed (what the server uses and what a port would reach for)");
        const answers = await Promise.all(options.bindings.map((spec) => spawnChild("api", base(spec))));
        answers.forEach((outcome, index) => noteWarnings(index, outcome));
        const tables = answers.map((outcome) => (outcome.result as Record<string, string> | undefined) ?? { "(failed)": failureOf(outcome) });
        const keys = [...new Set(tables.flatMap((table) => Object.keys(table)))];
        printTable(header, keys.map((key) => [key, ...tables.map((table) => table[key] ?? "")]));
        report.api = Object.fromEntries(labels.map((label, index) => [label, tables[index]]));
    }

    if (options.measures.includes("start")) {
        console.log(`\n## Start: load, open, pragmas, schema, prepare the list and show statements; median of ${options.starts} processes (ms)`);
        const directory = fs.mkdtempSync(path.join(os.tmpdir(), "wos-sqlite-start-"));
        const figures: Record<string, Record<string, number[]>> = {};
        const conditions: string[] = [];
        try {
            for (let run = 0; run < options.starts; run++) {
                conditions.push(await waitForIdle(options.idle));
                // The bindings take turns within each run, so a slow moment of the machine falls on both.
                for (const [index, spec] of options.bindings.entries()) {
                    const file = path.join(directory, `${index}-${run}.db`);
                    for (const kind of ["new database", "restart"]) {
                        const outcome = await spawnChild("start", { ...base(spec), file });
                        noteWarnings(index, outcome);
                        const result = outcome.result as StartFigures | undefined;
                        if (result === undefined) throw new Error(`${labels[index]} start failed: ${failureOf(outcome)}`);
                        const mine = (figures[labels[index]!] ??= {});
                        const add = (name: string, value: number) => (mine[`${kind}: ${name}`] ??= []).push(value);
                        add("load the binding (require)", result.loadMs);
                        add("open + pragmas + schema + prepare", result.openMs);
                        add("process start to ready", result.readyMs);
                        add("process wall time, spawn to exit", outcome.wallMs);
                    }
                }
            }
        } finally {
            fs.rmSync(directory, { recursive: true, force: true });
        }
        console.log(`(before each run of ${options.bindings.length * 2} processes: ${summarizeConditions(conditions)})`);
        const names = Object.keys(figures[labels[0]!]!);
        printTable(header, names.map((name) => [name, ...labels.map((label) => formatNumber(median(figures[label]![name]!)))]));
        report.start = Object.fromEntries(labels.map((label) => [label, Object.fromEntries(names.map((name) => [name, median(figures[label]![name]!)]))]));
    }

    if (options.measures.includes("queries")) {
        console.log(`\n## Queries: per call, in µs, p50 / p99 of ${options.rounds} processes x ${options.samples} calls after ${options.warmup} not timed`);
        const all: Record<string, Record<string, { p50: number; p99: number; samples: number }>> = {};
        for (const size of options.sizes) {
            const pooled: Record<string, Record<string, number[]>> = {};
            const conditions: string[] = [];
            for (let round = 0; round < options.rounds; round++) {
                const order = round % 2 === 0 ? options.bindings : [...options.bindings].reverse();
                for (const spec of order) {
                    const index = options.bindings.indexOf(spec);
                    // A process during which other jobs took more than `maxOthers` of the machine is run
                    // again (up to `attempts` in all); the least disturbed one is kept.
                    let kept: { figures: QueriesFigures; condition: string } | undefined;
                    for (let attempt = 0; attempt < options.attempts && !(kept && kept.figures.othersCpuShare <= options.maxOthers); attempt++) {
                        const condition = await waitForIdle(options.idle);
                        const outcome = await spawnChild("queries", { ...base(spec), size, samples: options.samples, warmup: options.warmup, round });
                        noteWarnings(index, outcome);
                        const figures = outcome.result as QueriesFigures | undefined;
                        if (figures === undefined) throw new Error(`${labels[index]} queries failed: ${failureOf(outcome)}`);
                        if (!kept || figures.othersCpuShare < kept.figures.othersCpuShare) kept = { figures, condition };
                    }
                    conditions.push(`${kept!.condition}, others took ${(kept!.figures.othersCpuShare * 100).toFixed(1)}% during it`);
                    const mine = (pooled[labels[index]!] ??= {});
                    for (const [name, timings] of Object.entries(kept!.figures.samples)) (mine[name] ??= []).push(...timings);
                }
            }
            console.log(`\n### ${size.toLocaleString("en-US")} projects in one organization`);
            console.log(`(before each process: ${summarizeConditions(conditions)}; others' share of the machine during each: ${conditions
                .map((text) => /others took ([\d.]+%)/.exec(text)?.[1])
                .join(" ")})`);
            const names = Object.keys(pooled[labels[0]!]!);
            const rows: string[][] = [];
            for (const name of names) {
                const cells = labels.map((label) => {
                    const sorted = pooled[label]![name]!.sort((a, b) => a - b);
                    const figures = { p50: percentile(sorted, 0.5), p99: percentile(sorted, 0.99), samples: sorted.length };
                    (all[`${size} projects: ${name}`] ??= {})[label] = figures;
                    return `${formatNumber(figures.p50)} / ${formatNumber(figures.p99)}`;
                });
                rows.push([name, ...cells]);
            }
            printTable(header, rows);
        }
        report.queries = all;
    }

    if (options.measures.includes("durability")) {
        console.log(`\n## kill -9 durability: ${options.kills} kills a binding, one database each, WAL + synchronous = NORMAL`);
        const results: Record<string, unknown> = {};
        const summaries: DurabilitySummary[] = [];
        for (const [index, spec] of options.bindings.entries()) {
            const summary = await durability(spec, index, options.kills, base(spec), (outcome) => noteWarnings(index, outcome));
            results[labels[index]!] = summary;
            summaries.push(summary);
        }
        const times = (count: number, good: string) => (count === 0 ? good : `FAILED ${count} times`);
        const row = (name: string, cell: (summary: DurabilitySummary) => string) => [name, ...summaries.map(cell)];
        printTable(header, [
            row("kills", (summary) => String(summary.kills)),
            row("commits reported by the killed writers", (summary) => summary.reported.toLocaleString("en-US")),
            row("reported commits missing after reopening", (summary) => String(summary.missing)),
            row("PRAGMA integrity_check after each kill", (summary) => times(summary.integrityFailures, "ok every time")),
            row("trigram index integrity-check", (summary) => times(summary.ftsFailures, "ok every time")),
            row("kept project count = rows", (summary) => times(summary.countMismatches, "every time")),
            row("writers that died before their kill", (summary) => String(summary.writerCrashes)),
            row("checks whose process died", (summary) => String(summary.checkCrashes)),
            row("rows committed but not yet reported", (summary) => String(summary.unreportedRows)),
            row("kill delays after the first commit", (summary) => `${summary.minDelayMs}-${summary.maxDelayMs} ms`),
            ...(summaries.some((summary) => summary.failures.length > 0)
                ? [row("failures", (summary) => summary.failures.join("; ") || "none")]
                : []),
        ]);
        report.durability = results;
    }

    if (options.measures.includes("crash")) {
        console.log(`\n## The crash loop (statements prepared and dropped, gc(), exit), ${options.crashRuns} runs a binding`);
        const results: Record<string, string[]> = {};
        for (const [index, spec] of options.bindings.entries()) {
            const runs: string[] = [];
            for (let run = 0; run < options.crashRuns; run++) {
                const outcome = await spawnChild("crash", base(spec), ["--expose-gc"]);
                noteWarnings(index, outcome);
                runs.push(outcome.code === 0 && outcome.result !== undefined ? "exit 0" : failureOf(outcome));
            }
            results[labels[index]!] = runs;
        }
        const distinct = (runs: string[]) => [...new Set(runs)].map((text) => `${runs.filter((run) => run === text).length}x ${text}`).join("; ");
        printTable(header, [["exit of each run", ...labels.map((label) => distinct(results[label]!))]]);
        report.crash = results;
    }

    console.log("\n## Warnings printed by each binding's processes");
    printTable(header, [["warnings", ...labels.map((label) => report.warnings[label]!.join("; ") || "none")]]);
    if (options.json !== undefined) fs.writeFileSync(options.json, `${JSON.stringify(report, null, 2)}\n`);
}

/** What the kills of one binding came to. */
interface DurabilitySummary {
    kills: number;
    reported: number;
    missing: number;
    integrityFailures: number;
    ftsFailures: number;
    countMismatches: number;
    /** Writers that ended on their own before their kill. */
    writerCrashes: number;
    /** Checks that could not say (their process died): the next check covers the same ids and more. */
    checkCrashes: number;
    unreportedRows: number;
    minDelayMs: number;
    maxDelayMs: number;
    /** Each kill's delay after the writer's first commit, in order. */
    delaysMs: number[];
    failures: string[];
}

/**
 * Kills a writer `kills` times, each at a random moment between 5 and 400 ms after its first commit, on one
 * database (so each writer also reopens a database left by a kill), and checks it after each kill with
 * the same binding, against every id reported committed so far.
 */
async function durability(
    spec: BindingSpec,
    index: number,
    kills: number,
    args: ChildArguments,
    noteWarnings: (outcome: ChildOutcome) => void,
): Promise<DurabilitySummary> {
    const directory = fs.mkdtempSync(path.join(os.tmpdir(), `wos-sqlite-kill-${index}-`));
    const file = path.join(directory, "wos.db");
    const reportedFile = path.join(directory, "reported.txt");
    fs.writeFileSync(reportedFile, "");
    const summary: DurabilitySummary = {
        kills: 0,
        reported: 0,
        missing: 0,
        integrityFailures: 0,
        ftsFailures: 0,
        countMismatches: 0,
        writerCrashes: 0,
        checkCrashes: 0,
        unreportedRows: 0,
        minDelayMs: Infinity,
        maxDelayMs: 0,
        delaysMs: [],
        failures: [],
    };
    try {
        for (let round = 0; round < kills; round++) {
            const delayMs = Math.round(5 + Math.random() * 395);
            const ended = await killWriter({ ...args, file, round }, delayMs);
            const ids = ended.ids;
            // A writer that died on its own (better-sqlite3 12.11.1 on Node 24 aborts) is counted, and its
            // database checked all the same: what it reported must be there.
            if (ended.crash !== undefined) {
                summary.writerCrashes++;
                if (!summary.failures.includes(ended.crash)) summary.failures.push(ended.crash);
            }
            fs.appendFileSync(reportedFile, ids.map((id) => `${id}\n`).join(""));
            summary.reported += ids.length;
            summary.kills++;
            summary.minDelayMs = Math.min(summary.minDelayMs, delayMs);
            summary.maxDelayMs = Math.max(summary.maxDelayMs, delayMs);
            summary.delaysMs.push(delayMs);
            const outcome = await spawnChild("check", { ...args, file, reportedFile });
            noteWarnings(outcome);
            const check = outcome.result as CheckFigures | undefined;
            if (check === undefined) {
                summary.failures.push(`check after kill ${round + 1} failed: ${failureOf(outcome)}`);
                summary.checkCrashes++;
                continue;
            }
            // Counted from the last check: every id reported so far, cumulatively.
            summary.missing = Math.max(summary.missing, check.missing);
            summary.unreportedRows = check.rows - check.reported;
            if (check.integrity !== "ok") summary.integrityFailures++;
            if (check.ftsIntegrity !== "ok") summary.ftsFailures++;
            if (!check.keptCountMatches) summary.countMismatches++;
            if (check.missing > 0 || check.integrity !== "ok") summary.failures.push(`after kill ${round + 1}: ${JSON.stringify(check)}`);
        }
    } finally {
        fs.rmSync(directory, { recursive: true, force: true });
    }
    return summary;
}

/**
 * Starts a writer, kills it with SIGKILL `delayMs` after its first reported commit, and answers the ids it
 * reported, and why it ended when that was not the kill.
 */
function killWriter(args: ChildArguments, delayMs: number): Promise<{ ids: string[]; crash?: string }> {
    return new Promise((resolve) => {
        const child = spawn(process.execPath, [__filename, "--child", "write", "--child-args", JSON.stringify(args)], { stdio: ["ignore", "pipe", "pipe"] });
        let pending = "";
        let stderr = "";
        const ids: string[] = [];
        let timer: NodeJS.Timeout | undefined;
        child.stderr.on("data", (chunk: Buffer) => (stderr += chunk.toString()));
        child.stdout.on("data", (chunk: Buffer) => {
            pending += chunk.toString();
            const lines = pending.split("\n");
            // A line is a report only once its newline came: the last piece may be cut by the kill.
            pending = lines.pop()!;
            for (const line of lines) if (line.startsWith("prj-")) ids.push(line);
            if (timer === undefined && ids.length > 0) timer = setTimeout(() => child.kill("SIGKILL"), delayMs);
        });
        child.on("close", (code, signal) => {
            if (timer !== undefined) clearTimeout(timer);
            if (signal === "SIGKILL") resolve({ ids });
            else resolve({ ids, crash: `writer ended before its kill: ${failureOf({ code, signal, stderr, wallMs: 0 })}` });
        });
    });
}

const childIndex = process.argv.indexOf("--child");
if (childIndex >= 0) {
    const argsIndex = process.argv.indexOf("--child-args");
    runChild(process.argv[childIndex + 1]!, JSON.parse(process.argv[argsIndex + 1]!) as ChildArguments);
} else {
    main().catch((error: unknown) => {
        console.error(error instanceof Error ? error.message : error);
        process.exitCode = 1;
    });
}
