/**
 * What the benchmark areas share: the server as its own process through the real CLI, a database seeded fast
 * by writing rows straight into its file, a keep-alive HTTP client that costs next to nothing, load generator
 * processes (autocannon) for the throughput figures, a counting proxy, percentiles, resident memory and CPU
 * time of a process from /proc, and the one way every figure is printed: beside the floor it is measured
 * against, in the same run.
 *
 * @module
 */
import * as fs from "node:fs";
import * as http from "node:http";
import * as net from "node:net";
import * as path from "node:path";
import * as readline from "node:readline";
import { fork, spawn, type ChildProcess } from "node:child_process";
import { randomInt } from "node:crypto";
import { performance } from "node:perf_hooks";
import Database from "better-sqlite3";
import type { LoadWindow, WindowFigures } from "./loadGenerator";

/** The organization every area works in, and the owners' token (it sees and may do everything there). */
export const ORGANIZATION = "bench";
export const TOKEN = "bench-owners-token";
/** A workspace and a no-code ready registry module of the seed (variables and the upgrade use them). */
export const WORKSPACE_ID = "ws-bench00000000001";
export const REGISTRY_MODULE_ID = "mod-bench0000000001";

/** A whole number from the environment, or the default. */
export function envNumber(name: string, fallback: number): number {
    const text = process.env[name];
    if (text === undefined || text.trim() === "") return fallback;
    const value = Number(text);
    if (!Number.isFinite(value) || value < 0) throw new Error(`${name} must be a non-negative number, got '${text}'`);
    return value;
}

/** A comma-separated list from the environment, or the default. */
export function envList(name: string, fallback: readonly string[]): string[] {
    const text = process.env[name];
    if (text === undefined || text.trim() === "") return [...fallback];
    return text
        .split(",")
        .map((item) => item.trim())
        .filter((item) => item !== "");
}

// ---------------------------------------------------------------------------------------------------------
// Printing

/** `1,234.5`-style numbers: 2 decimals under 10, 1 under 100, none above. */
export function formatNumber(value: number): string {
    if (!Number.isFinite(value)) return String(value);
    const digits = Math.abs(value) < 10 ? 2 : Math.abs(value) < 100 ? 1 : 0;
    return value.toLocaleString("en-US", { minimumFractionDigits: digits, maximumFractionDigits: digits });
}

/** Each pair's ratio (`values[i] / floors[i]`), lowest to highest, on one indented line: the spread behind a median. */
export function reportEachRatio(what: string, values: readonly number[], floors: readonly number[]): void {
    const ratios = values.map((value, index) => value / floors[index]!).sort((a, b) => a - b);
    console.log(`  (each ${what}'s ratio, lowest to highest: ${ratios.map((ratio) => `${formatNumber(ratio)}x`).join(" ")})`);
}

/** A section heading: `# name (details)`. */
export function heading(text: string): void {
    console.log(`\n# ${text}`);
}

/** One figure on its own: `name: value unit`. */
export function report(name: string, value: number, unit: string, note?: string): void {
    console.log(`${name}: ${formatNumber(value)} ${unit}${note ? `  (${note})` : ""}`);
}

/**
 * One figure beside its floor, measured in the same run: `name: value unit | floor: value unit | ratio`, and
 * the target when there is one, with whether this run met it. `higherIsBetter` for rates (requests a
 * second), where the ratio is figure / floor and the target a minimum; otherwise the ratio is figure / floor
 * and the target a maximum.
 */
export function reportBeside(
    name: string,
    value: number,
    floorName: string,
    floor: number,
    unit: string,
    target?: { ratio: number; higherIsBetter?: boolean },
): void {
    const ratio = value / floor;
    let verdict = "";
    if (target) {
        const met = target.higherIsBetter ? ratio >= target.ratio : ratio <= target.ratio;
        verdict = `  target ${target.higherIsBetter ? ">=" : "<="} ${target.ratio}x: ${met ? "met" : "NOT met"}`;
    }
    console.log(
        `${name}: ${formatNumber(value)} ${unit} | floor (${floorName}): ${formatNumber(floor)} ${unit} | ${formatNumber(ratio)}x${verdict}`,
    );
}

/** A figure against an absolute limit: `name: value unit  target <= limit unit: met`. */
export function reportLimit(name: string, value: number, unit: string, limit: number): void {
    console.log(`${name}: ${formatNumber(value)} ${unit}  target <= ${formatNumber(limit)} ${unit}: ${value <= limit ? "met" : "NOT met"}`);
}

/** The value at `fraction` (0.5 the median, 0.99 the p99) of samples sorted ascending. */
export function percentile(sorted: readonly number[], fraction: number): number {
    if (sorted.length === 0) return NaN;
    const index = Math.min(sorted.length - 1, Math.max(0, Math.ceil(fraction * sorted.length) - 1));
    return sorted[index];
}

/** The median of unsorted samples. */
export function median(values: readonly number[]): number {
    return percentile([...values].sort((a, b) => a - b), 0.5);
}

// ---------------------------------------------------------------------------------------------------------
// Processes

/** Current and peak resident memory of a process, in MiB, from /proc (Linux). */
export function residentMemory(pid: number): { current: number; peak: number } {
    const status = fs.readFileSync(`/proc/${pid}/status`, "utf8");
    const kib = (field: string) => Number(new RegExp(`^${field}:\\s+(\\d+) kB`, "m").exec(status)?.[1] ?? NaN);
    return { current: kib("VmRSS") / 1024, peak: kib("VmHWM") / 1024 };
}

/** User plus system CPU time a process has used so far, in milliseconds, from /proc (Linux). */
export function cpuTimeMs(pid: number): number {
    const stat = fs.readFileSync(`/proc/${pid}/stat`, "utf8");
    // Fields after the command name, which is in parentheses and may hold spaces.
    const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
    const ticks = Number(fields[11]) + Number(fields[12]);
    return (ticks * 1000) / CLOCK_TICKS_PER_SECOND;
}

/** `getconf CLK_TCK` on Linux: 100 on every kernel Node runs on here. */
const CLOCK_TICKS_PER_SECOND = 100;

/** A `wos-server` process started through the CLI, as users run it. */
export interface ServerProcess {
    child: ChildProcess;
    /** `http://127.0.0.1:PORT` */
    url: string;
    pid: number;
    stop(): Promise<void>;
}

/**
 * Starts `wos-server` on a free port with this database (and seed, if given, and further CLI options);
 * resolves on its address line.
 */
export async function startServerProcess(databasePath: string, seedPath?: string, options: string[] = []): Promise<ServerProcess> {
    const main = path.join(__dirname, "..", "server", "main.js");
    const args = [main, "--port", "0", "--data", databasePath, "--log-level", "silent", ...options];
    if (seedPath) args.push("--seed", seedPath);
    const child = spawn(process.execPath, args, { stdio: ["ignore", "pipe", "inherit"] });
    const exited = new Promise<void>((resolve) => child.once("exit", () => resolve()));
    const lines = readline.createInterface({ input: child.stdout! });
    for await (const line of lines) {
        const match = /^wos-server listening on (\S+)$/.exec(line);
        if (match) {
            return {
                child,
                url: match[1],
                pid: child.pid!,
                stop: async () => {
                    if (child.exitCode === null && child.signalCode === null) child.kill("SIGTERM");
                    await exited;
                },
            };
        }
    }
    throw new Error("wos-server exited before printing its address");
}

/** A child process that prints `listening on URL` (the bare route, the provider host's helpers). */
export async function startScript(script: string, args: string[]): Promise<{ child: ChildProcess; url: string; stop(): Promise<void> }> {
    const child = spawn(process.execPath, [script, ...args], { stdio: ["ignore", "pipe", "inherit"] });
    const exited = new Promise<void>((resolve) => child.once("exit", () => resolve()));
    const lines = readline.createInterface({ input: child.stdout! });
    for await (const line of lines) {
        const match = /listening on (\S+)$/.exec(line);
        if (match) {
            return {
                child,
                url: match[1],
                stop: async () => {
                    if (child.exitCode === null && child.signalCode === null) child.kill("SIGTERM");
                    await exited;
                },
            };
        }
    }
    throw new Error(`${script} exited before printing its address`);
}

// ---------------------------------------------------------------------------------------------------------
// The seed and direct writes into the database file

/** The seed of every bench database: the organization, its owners' token, one workspace, one module. */
export function benchSeed() {
    return {
        organizations: [
            {
                name: ORGANIZATION,
                teams: [{ name: "owners", owners: true, tokens: [TOKEN] }],
                projects: [{ name: "Bench" }],
                workspaces: [{ id: WORKSPACE_ID, name: "bench-ws", project: "Bench" }],
                registryModules: [
                    {
                        id: REGISTRY_MODULE_ID,
                        name: "bucket",
                        provider: "aws",
                        noCodeReady: true,
                        versions: [{ version: "1.0.0", variables: [{ name: "size", type: "number", required: false, default: "1" }] }],
                    },
                ],
            },
        ],
    };
}

/** Writes the seed file into `dataDir` and answers its path. */
export function writeSeed(dataDir: string): string {
    const seedPath = path.join(dataDir, "seed.json");
    fs.writeFileSync(seedPath, JSON.stringify(benchSeed()));
    return seedPath;
}

/**
 * Creates the database through the real start path (schema, migrations, seed, whatever keys the service
 * keeps beside the file) by starting the service once on it and stopping it.
 */
export async function createDatabase(databasePath: string, seedPath: string): Promise<void> {
    const server = await startServerProcess(databasePath, seedPath);
    await server.stop();
}

/** Word of the names {@link SEARCH_TERM} finds: only the first {@link SEARCH_MATCHES} projects carry it. */
export const SEARCH_TERM = "kestrel";
/** How many projects {@link SEARCH_TERM} matches at every size: a search as selective at 100,000 as at 1,000. */
export const SEARCH_MATCHES = 200;
const NAME_WORDS = ["alder", "birch", "cedar", "delta", "ember", "fjord", "grove", "heron", "inlet", "jetty"];

/** The name of the `index`th bench project: unique, 3 to 40 characters, {@link SEARCH_TERM} in the first few. */
export function benchProjectName(index: number): string {
    const word = index < SEARCH_MATCHES * 5 && index % 5 === 0 ? SEARCH_TERM : NAME_WORDS[index % NAME_WORDS.length];
    return `${word}-${String(index).padStart(6, "0")}`;
}

/** Creation time of the first generated project; the next ones a second apart. */
const GENERATED_EPOCH_MS = Date.UTC(2030, 0, 1);

const ID_ALPHABET = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789";

function randomId(prefix: string): string {
    let id = prefix;
    for (let i = 0; i < 16; i++) id += ID_ALPHABET[randomInt(ID_ALPHABET.length)];
    return id;
}

/**
 * Brings the bench organization to `total` generated projects by writing rows straight into the database
 * file (the service must not be running): a thousand rows a millisecond instead of one request each. One
 * project in ten gets a workspace, so that counting workspaces has something to count. Only the columns
 * every version of the schema has are written; the others take their defaults, and triggers a later schema
 * adds (an index of names) run as for any insert.
 */
export function growProjects(databasePath: string, total: number): void {
    const db = new Database(databasePath);
    try {
        db.pragma("foreign_keys = ON");
        db.pragma("busy_timeout = 5000");
        const have = (db.prepare(`SELECT COUNT(*) AS n FROM projects WHERE organization = ? AND name GLOB '*-${"[0-9]".repeat(6)}'`).get(ORGANIZATION) as {
            n: number;
        }).n;
        const insertProject = db.prepare(
            "INSERT INTO projects (id, organization, name, description, created_at, updated_at) VALUES (?, ?, ?, ?, ?, ?)",
        );
        const insertWorkspace = db.prepare(
            "INSERT INTO workspaces (id, organization, project_id, name, source, created_at, updated_at) VALUES (?, ?, ?, ?, 'tfe-api', ?, ?)",
        );
        const grow = db.transaction(() => {
            for (let index = have; index < total; index++) {
                // Distinct creation times in insertion order, as a service that made them one by one would have written.
                const timestamp = new Date(GENERATED_EPOCH_MS + index * 1000).toISOString();
                const id = randomId("prj-");
                insertProject.run(id, ORGANIZATION, benchProjectName(index), index % 3 === 0 ? `project number ${index}` : null, timestamp, timestamp);
                if (index % 10 === 0) insertWorkspace.run(randomId("ws-"), ORGANIZATION, id, `ws-${String(index).padStart(6, "0")}`, timestamp, timestamp);
            }
        });
        grow();
        db.pragma("wal_checkpoint(TRUNCATE)");
    } finally {
        db.close();
    }
}

// ---------------------------------------------------------------------------------------------------------
// Plain keep-alive HTTP

/** One answer of {@link HttpClient.send}: status, headers and the body's bytes. */
export interface RawAnswer {
    status: number;
    headers: http.IncomingHttpHeaders;
    body: Buffer;
}

/**
 * The thinnest HTTP client: Node's own `http.request` over a keep-alive agent with `connections` sockets,
 * the token and the JSON:API media type as headers. What "plain keep-alive HTTP" means in every floor.
 */
export class HttpClient {
    readonly agent: http.Agent;
    readonly #base: URL;
    readonly #headers: Record<string, string>;

    constructor(baseUrl: string, token: string | undefined, connections = 1) {
        this.#base = new URL(baseUrl);
        this.agent = new http.Agent({ keepAlive: true, maxSockets: connections });
        this.#headers = { accept: "application/vnd.api+json" };
        if (token !== undefined) this.#headers.authorization = `Bearer ${token}`;
    }

    /** Sends one request (`path` is appended to the base URL's path) and resolves with the whole answer. */
    send(method: string, path: string, body?: string): Promise<RawAnswer> {
        const headers: Record<string, string | number> = { ...this.#headers };
        if (body !== undefined) {
            headers["content-type"] = "application/vnd.api+json";
            headers["content-length"] = Buffer.byteLength(body);
        }
        return new Promise((resolve, reject) => {
            const request = http.request(
                { host: this.#base.hostname, port: this.#base.port, method, path: this.#base.pathname.replace(/\/$/, "") + path, headers, agent: this.agent },
                (response) => {
                    const chunks: Buffer[] = [];
                    response.on("data", (chunk: Buffer) => chunks.push(chunk));
                    response.on("end", () => resolve({ status: response.statusCode ?? 0, headers: response.headers, body: Buffer.concat(chunks) }));
                    response.on("error", reject);
                },
            );
            request.on("error", reject);
            request.end(body);
        });
    }

    /** {@link send}, then the body parsed as JSON; throws on a status other than `expected`. */
    async json(method: string, path: string, body: unknown, expected: number): Promise<any> {
        const answer = await this.send(method, path, body === undefined ? undefined : JSON.stringify(body));
        if (answer.status !== expected) {
            throw new Error(`${method} ${path} answered ${answer.status}, not ${expected}: ${answer.body.toString("utf8").slice(0, 300)}`);
        }
        return answer.body.length > 0 ? JSON.parse(answer.body.toString("utf8")) : undefined;
    }

    close(): void {
        this.agent.destroy();
    }
}

// ---------------------------------------------------------------------------------------------------------
// Load generators of the throughput figures

/** A load generator process (`bench/loadGenerator.ts`: autocannon), which runs one window at a time. */
export interface LoadGenerator {
    run(window: LoadWindow): Promise<WindowFigures>;
    stop(): Promise<void>;
}

/**
 * Forks a load generator process. It runs apart from this one so that autocannon's event loop has nothing
 * else to do (this process reads /proc and keeps the figures between windows), and so that two of them can
 * load one server at once: the test that the floor is not bound by its client.
 */
export function startLoadGenerator(): LoadGenerator {
    const child = fork(path.join(__dirname, "loadGenerator.js"), [], { stdio: ["ignore", "inherit", "inherit", "ipc"] });
    const exited = new Promise<void>((resolve) => child.once("exit", () => resolve()));
    let waiting: { resolve: (figures: WindowFigures) => void; reject: (error: Error) => void } | undefined;
    const fail = (error: Error) => {
        const pending = waiting;
        waiting = undefined;
        pending?.reject(error);
    };
    child.on("message", (message: WindowFigures | { error: string }) => {
        if ("error" in message) fail(new Error(`load generator: ${message.error}`));
        else {
            const pending = waiting;
            waiting = undefined;
            pending?.resolve(message);
        }
    });
    child.once("exit", (code, signal) => fail(new Error(`load generator exited (${signal ?? code}) during a window`)));
    return {
        run: (window) =>
            new Promise((resolve, reject) => {
                if (waiting) {
                    reject(new Error("a load generator runs one window at a time"));
                    return;
                }
                waiting = { resolve, reject };
                child.send(window);
            }),
        stop: async () => {
            if (child.connected) child.disconnect();
            await exited;
        },
    };
}

/** One side of {@link alternatingLoad}: a server, and how much client it is loaded with. */
export interface LoadSide {
    /** The base URL the request's path is appended to. */
    baseUrl: string;
    /** The process that serves the side: each window's CPU time of it is charged to the side. */
    pid: number;
    /** How many of the generators load it at once, each on `connections` connections. */
    generators: number;
    connections: number;
}

/** What {@link alternatingLoad} measured of one side. */
export interface SideFigures {
    /** The median window's requests a second. */
    requestsPerSecond: number;
    /** Every window's, in the order they ran. */
    windows: number[];
    /** The serving process's CPU time over the side's windows, in µs, by every answer of those windows. */
    cpuPerRequestUs: number;
    /** The share of the side's windows' wall time the serving process was on a CPU (1 = a whole core). */
    busy: number;
}

/**
 * Requests a second of `GET path` on each side, the sides taking turns in `windows` windows of
 * `durationMs / windows` each (which side goes first rotates), after `warmupMs` of each side not counted and
 * with the first `windowWarmupMs` of every window not counted; each side's figure is its median window's. A
 * slow stretch of this shared machine then falls on every side alike and moves the figures little, where one
 * window a side (3 s of the service, then 3 s of the floor) put the list page anywhere from 0.28x to 0.32x
 * of its floor. Each window's CPU time of the side's process is read around it: the processes are idle while
 * another side runs, so it is the side's own. Any answer other than `expectedStatus`, and any connection
 * error, throws.
 */
export async function alternatingLoad(options: {
    sides: readonly LoadSide[];
    /** At least as many as the side that uses the most. */
    generators: readonly LoadGenerator[];
    path: string;
    headers: Record<string, string>;
    durationMs: number;
    windows: number;
    warmupMs: number;
    windowWarmupMs: number;
    expectedStatus?: number;
}): Promise<SideFigures[]> {
    const expectedStatus = options.expectedStatus ?? 200;
    const windowMs = options.durationMs / options.windows;
    const load = async (side: LoadSide, warmupMs: number, durationMs: number) => {
        const window: LoadWindow = {
            baseUrl: side.baseUrl,
            path: options.path,
            headers: options.headers,
            connections: side.connections,
            warmupMs,
            durationMs,
            expectedStatus,
        };
        const cpuBefore = cpuTimeMs(side.pid);
        const started = performance.now();
        const figures = await Promise.all(options.generators.slice(0, side.generators).map((generator) => generator.run(window)));
        const wallMs = performance.now() - started;
        const cpuMs = cpuTimeMs(side.pid) - cpuBefore;
        for (const figure of figures) {
            if (figure.unexpected > 0) {
                throw new Error(`GET ${options.path} answered ${figure.firstUnexpectedStatus} (${figure.unexpected} answers), not ${expectedStatus}`);
            }
            if (figure.errors > 0) throw new Error(`GET ${options.path}: ${figure.errors} connection errors or timeouts`);
        }
        return {
            // Each generator timed its own counted part; they overlap all but the IPC's fraction of a millisecond.
            requestsPerSecond: figures.reduce((sum, figure) => sum + (figure.seconds > 0 ? figure.requests / figure.seconds : 0), 0),
            answered: figures.reduce((sum, figure) => sum + figure.answered, 0),
            cpuMs,
            wallMs,
        };
    };
    if (options.generators.length < Math.max(...options.sides.map((side) => side.generators))) {
        throw new Error("alternatingLoad: fewer generators than a side uses");
    }
    for (const side of options.sides) await load(side, options.warmupMs, 0);
    const totals = options.sides.map(() => ({ windows: [] as number[], answered: 0, cpuMs: 0, wallMs: 0 }));
    for (let window = 0; window < options.windows; window++) {
        for (let turn = 0; turn < options.sides.length; turn++) {
            const index = (window + turn) % options.sides.length;
            const figures = await load(options.sides[index]!, options.windowWarmupMs, windowMs);
            const total = totals[index]!;
            total.windows.push(figures.requestsPerSecond);
            total.answered += figures.answered;
            total.cpuMs += figures.cpuMs;
            total.wallMs += figures.wallMs;
        }
    }
    return totals.map((total) => ({
        requestsPerSecond: median(total.windows),
        windows: total.windows,
        cpuPerRequestUs: (total.cpuMs * 1000) / total.answered,
        busy: total.cpuMs / total.wallMs,
    }));
}

// ---------------------------------------------------------------------------------------------------------
// The wire-level client of the latency figures

/**
 * A `GET` client that costs the measurement as little as the wire allows: one keep-alive socket, each
 * request's bytes written once and kept, an answer read only as far as its framing (the status line, the
 * `content-length`, then that many bytes). It is what load tools such as wrk do; Node's `http.request`
 * (the {@link HttpClient}) parses every header into objects and streams the body, which on this machine
 * adds about 0.1 ms to each answer of 13 kB, a time the figure would charge to the service. undici was
 * measured too: 0.08 ms more than this client for the same answers. autocannon, which writes raw bytes as
 * well, keeps its latencies in whole milliseconds, too coarse for these. One request at a time.
 */
export class WireClient {
    readonly #socket: net.Socket;
    readonly #host: string;
    readonly #basePath: string;
    readonly #token: string;
    readonly #requests = new Map<string, Buffer>();
    #buffered: Buffer = Buffer.alloc(0);
    #waiting: { resolve: (status: number) => void; reject: (error: Error) => void } | undefined;

    private constructor(socket: net.Socket, base: URL, token: string) {
        this.#socket = socket;
        this.#host = base.host;
        this.#basePath = base.pathname.replace(/\/$/, "");
        this.#token = token;
        socket.setNoDelay(true);
        socket.on("data", (chunk: Buffer) => this.#received(chunk));
        socket.on("error", (error) => this.#fail(error));
        socket.on("close", () => this.#fail(new Error("the connection closed before the answer was complete")));
    }

    /** A client on a new connection to `baseUrl`'s host; `path`s of {@link get} are appended to its path. */
    static connect(baseUrl: string, token: string): Promise<WireClient> {
        const base = new URL(baseUrl);
        return new Promise((resolve, reject) => {
            const socket = net.connect(Number(base.port), base.hostname, () => resolve(new WireClient(socket, base, token)));
            socket.once("error", reject);
        });
    }

    /** Sends `GET path` and resolves with the answer's status once its last byte has arrived. */
    get(path: string): Promise<number> {
        if (this.#waiting) return Promise.reject(new Error("WireClient sends one request at a time"));
        let request = this.#requests.get(path);
        if (!request) {
            request = Buffer.from(
                `GET ${this.#basePath}${path} HTTP/1.1\r\nHost: ${this.#host}\r\nAccept: application/vnd.api+json\r\n` +
                    `Authorization: Bearer ${this.#token}\r\n\r\n`,
                "latin1",
            );
            this.#requests.set(path, request);
        }
        return new Promise((resolve, reject) => {
            this.#waiting = { resolve, reject };
            this.#socket.write(request);
        });
    }

    #received(chunk: Buffer): void {
        this.#buffered = this.#buffered.length === 0 ? chunk : Buffer.concat([this.#buffered, chunk]);
        const headEnd = this.#buffered.indexOf("\r\n\r\n");
        if (headEnd < 0 || !this.#waiting) return;
        const head = this.#buffered.subarray(0, headEnd).toString("latin1");
        const length = /\r\ncontent-length: *(\d+)/i.exec(head);
        if (!length) {
            this.#fail(new Error(`an answer without content-length (the wire client reads no other framing): ${head.split("\r\n")[0]}`));
            return;
        }
        const end = headEnd + 4 + Number(length[1]);
        if (this.#buffered.length < end) return;
        // One request at a time: nothing may follow its answer until the next request is sent.
        if (this.#buffered.length > end) {
            this.#fail(new Error(`${this.#buffered.length - end} bytes after the answer, which no request asked for`));
            return;
        }
        this.#buffered = Buffer.alloc(0);
        const waiting = this.#waiting;
        this.#waiting = undefined;
        waiting.resolve(Number(head.slice(9, 12)));
    }

    #fail(error: Error): void {
        const waiting = this.#waiting;
        this.#waiting = undefined;
        waiting?.reject(error);
    }

    close(): void {
        this.#socket.destroy();
    }
}

/** {@link latencies} by the {@link WireClient}: milliseconds, sorted; every answer must be 200. */
export function wireLatencies(client: WireClient, path: string, samples: number, warmup: number, budgetMs = Infinity): Promise<number[]> {
    return timedRequests(`GET ${path}`, () => client.get(path), samples, warmup, budgetMs);
}

/** Latencies in milliseconds of `samples` requests one after another (after `warmup` not counted), sorted. */
export function latencies(client: HttpClient, method: string, path: string, samples: number, warmup: number, budgetMs = Infinity): Promise<number[]> {
    return timedRequests(`${method} ${path}`, async () => (await client.send(method, path)).status, samples, warmup, budgetMs);
}

/**
 * Milliseconds of `samples` calls of `send` (which resolves with an answer's status) one after another, after
 * `warmup` not counted, sorted; any status but 200 throws, naming `request`. Past `budgetMs` it stops once it
 * has 20: a slow list (the code before the list moved into SQL) must not take the whole evening.
 */
async function timedRequests(request: string, send: () => Promise<number>, samples: number, warmup: number, budgetMs: number): Promise<number[]> {
    const expectOk = (status: number) => {
        if (status !== 200) throw new Error(`${request} answered ${status}`);
    };
    for (let i = 0; i < warmup; i++) expectOk(await send());
    const values: number[] = [];
    const end = performance.now() + budgetMs;
    for (let i = 0; i < samples; i++) {
        const started = performance.now();
        const status = await send();
        values.push(performance.now() - started);
        expectOk(status);
        if (values.length >= 20 && performance.now() > end) break;
    }
    return values.sort((a, b) => a - b);
}

/** Runs `items` through `work` with at most `inFlight` at a time; resolves when all are done. */
export async function inParallel<T>(items: readonly T[], inFlight: number, work: (item: T, index: number) => Promise<void>): Promise<void> {
    let next = 0;
    const worker = async () => {
        while (next < items.length) {
            const index = next++;
            await work(items[index], index);
        }
    };
    await Promise.all(Array.from({ length: Math.min(inFlight, items.length) }, worker));
}

/**
 * A pass-through HTTP proxy in front of the server that counts the requests it forwards (by method and
 * path): how the bench knows how many requests an operation costs without reaching into the client.
 */
export async function startCountingProxy(target: string): Promise<{
    url: string;
    count(): number;
    /** How many of them the service answered 429 (over its rate limit). */
    refused(): number;
    /** `GET /api/v2/...` of each request since the last call, in order. */
    take(): string[];
    /** When each request arrived (`performance.now()`, ms), in order. */
    arrivals: number[];
    close(): Promise<void>;
}> {
    const upstream = new URL(target);
    let forwarded = 0;
    let refused = 0;
    let seen: string[] = [];
    const arrivals: number[] = [];
    const agent = new http.Agent({ keepAlive: true });
    const proxy = http.createServer((request, response) => {
        forwarded++;
        arrivals.push(performance.now());
        seen.push(`${request.method} ${request.url}`);
        const outgoing = http.request(
            { host: upstream.hostname, port: upstream.port, method: request.method, path: request.url, headers: request.headers, agent },
            (answer) => {
                if (answer.statusCode === 429) refused++;
                response.writeHead(answer.statusCode ?? 502, answer.headers);
                answer.pipe(response);
            },
        );
        outgoing.on("error", () => response.destroy());
        request.pipe(outgoing);
    });
    await new Promise<void>((resolve) => proxy.listen(0, "127.0.0.1", resolve));
    const address = proxy.address() as { port: number };
    return {
        url: `http://127.0.0.1:${address.port}`,
        count: () => forwarded,
        refused: () => refused,
        arrivals,
        take: () => {
            const taken = seen;
            seen = [];
            return taken;
        },
        close: () =>
            new Promise<void>((resolve) => {
                agent.destroy();
                proxy.closeAllConnections();
                proxy.close(() => resolve());
            }),
    };
}
