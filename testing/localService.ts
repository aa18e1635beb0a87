/**
 * {@link startLocalService}: the local Workspace Organization Service inside a test's own process, on a free
 * port of 127.0.0.1, with an in-memory database loaded from a seed. What moto's `mock_aws` is to AWS, without
 * a mock: it is the same service `wos-server` runs, answering real HTTP.
 *
 * The service itself is the package `@pulumi-wos/server` (Fastify and better-sqlite3, a native module that
 * may compile on install): an optional peer dependency, so that a program that uses only the resources or the
 * client never installs it. It is loaded when {@link startLocalService} is first called, not when this module
 * is imported: `WosMocks` pointed at a service of its own (`{ address, token }`) needs nothing more. Without
 * it, `startLocalService` rejects with {@link SERVER_NOT_INSTALLED_MESSAGE}.
 *
 * The typings of this file name no type of Fastify, better-sqlite3, zod or the server package: they compile
 * in a strict user project (`skipLibCheck: false`) that has installed nothing but this package. The seed's
 * type is therefore written out here, and checked at compile time against the server's own
 * (`server/seed.ts`).
 *
 * @module
 */
import * as fs from "node:fs";
import * as http from "node:http";
import type { AddressInfo } from "node:net";
import { refuseUnsupportedNode, type UnsupportedNodeError } from "../sdk/nodeSupport";
// Types only (erased from the JavaScript): at run time the same modules come from the package
// `@pulumi-wos/server`, through `loadServer`.
import type * as ServerApp from "../server/app";
import type * as ServerSeed from "../server/seed";

type ServerOptions = ServerApp.ServerOptions;
type SeedFile = ServerSeed.SeedFile;
/** The application of one database, as the server's `buildApp` answers it. */
type App = Awaited<ReturnType<typeof ServerApp.buildApp>>;

/**
 * What {@link startLocalService} rejects with when the package `@pulumi-wos/server` is not installed: the
 * package to install, and the command that installs it.
 */
export const SERVER_NOT_INSTALLED_MESSAGE =
    "startLocalService needs the local service, the package @pulumi-wos/server, which is not installed " +
    "(it is an optional peer dependency of pulumi-wos, so that programs that only use the resources do not " +
    "install Fastify and SQLite). Install it beside pulumi-wos: npm install --save-dev @pulumi-wos/server";

/** The modules of `@pulumi-wos/server` this file runs. */
interface ServerModules {
    app: typeof ServerApp;
    seed: typeof ServerSeed;
}

let serverModules: ServerModules | undefined;

/**
 * Loads `@pulumi-wos/server` once, resolved from this package as the user's project installs it. Only a
 * missing package becomes {@link SERVER_NOT_INSTALLED_MESSAGE}; any other failure (a dependency of the server
 * missing, a broken build) keeps its own message.
 */
function loadServer(): ServerModules {
    if (serverModules) return serverModules;
    try {
        require.resolve("@pulumi-wos/server/app");
    } catch (error) {
        if ((error as NodeJS.ErrnoException).code === "MODULE_NOT_FOUND") throw new Error(SERVER_NOT_INSTALLED_MESSAGE);
        throw error;
    }
    serverModules = {
        app: require("@pulumi-wos/server/app") as typeof ServerApp,
        seed: require("@pulumi-wos/server/seed") as typeof ServerSeed,
    };
    return serverModules;
}

/** An access level a team may have on a project. */
export type LocalServiceAccessLevel = "read" | "write" | "maintain" | "admin";

/** A team of a seeded organization. */
export interface LocalServiceSeedTeam {
    /** Unique in the organization. */
    name: string;
    /** Members may do everything in the organization (the `owners` team). */
    owners?: boolean;
    /** May create, change and delete every project (and the workspaces and variables in them). */
    manageProjects?: boolean;
    /** May manage the registry's modules and their no-code settings. */
    manageModules?: boolean;
    /** Project name to the team's access level on that project. */
    projectAccess?: Record<string, LocalServiceAccessLevel>;
    /** Team tokens (at least 8 characters each). */
    tokens?: string[];
}

/** A user of a seeded organization. */
export interface LocalServiceSeedUser {
    /** The user's name, unique in the organization. */
    name: string;
    /** Names of the teams the user is on. */
    teams?: string[];
    /** User tokens (at least 8 characters each); the user acts with the rights of their teams. */
    tokens?: string[];
}

/** An agent pool of a seeded organization. */
export interface LocalServiceSeedAgentPool {
    /** `apool-` and 16 letters or digits; made up when left out. */
    id?: string;
    /** The pool's name. */
    name: string;
}

/** A variable of a registry module version. */
export interface LocalServiceSeedModuleVariable {
    /** The variable's name in the module. */
    name: string;
    /** The variable's type in the configuration language, e.g. `string`, `number`, `map(string)`. */
    type: string;
    /** Default false. */
    required?: boolean;
    /** The default value as text. */
    default?: string | null;
}

/** A version of a registry module. */
export interface LocalServiceSeedModuleVersion {
    /** `MAJOR.MINOR.PATCH` */
    version: string;
    /** The version's input variables; default none. */
    variables?: LocalServiceSeedModuleVariable[];
}

/** A registry module of a seeded organization (what a no-code module is made from). */
export interface LocalServiceSeedRegistryModule {
    /** `mod-` and 16 letters or digits; made up when left out. */
    id?: string;
    /** The module's name (`bucket`). */
    name: string;
    /** The module's provider (`aws`). */
    provider: string;
    /** Whether a no-code module may be made from it; default false. */
    noCodeReady?: boolean;
    /** The module's versions; default none. */
    versions?: LocalServiceSeedModuleVersion[];
}

/** A project of a seeded organization (by the same rules as `wos.Project`). */
export interface LocalServiceSeedProject {
    /** `prj-` and 16 letters or digits; made up when left out. */
    id?: string;
    /** The project's name, by the project name rules. */
    name: string;
    /** At most 256 characters. */
    description?: string;
    /** Inactivity before auto-destroy, e.g. `14d` or `12h`. */
    autoDestroyActivityDuration?: string;
    /** The project's tags, key to value (at most 10). */
    tags?: Record<string, string>;
}

/** A workspace of a seeded organization. */
export interface LocalServiceSeedWorkspace {
    /** `ws-` and 16 letters or digits; made up when left out. Seed one with a fixed id to give `wos.Variable` a workspace. */
    id?: string;
    /** The workspace's name: 1 to 90 letters, numbers, `-`, `_`; unique in the organization. */
    name: string;
    /** Name of a project of the same organization. */
    project: string;
    /** At most 256 characters. */
    description?: string;
    /** Apply automatically after a successful plan; default false. */
    autoApply?: boolean;
    /** Default `agent` with an agent pool, else `remote`. */
    executionMode?: "remote" | "agent";
    /** Id or name of an agent pool of the organization. */
    agentPool?: string;
}

/** An organization of a seed. */
export interface LocalServiceSeedOrganization {
    /** Letters, numbers, `-` and `_`. */
    name: string;
    /** A token with the organization's own rights (at least 8 characters). */
    organizationToken?: string;
    /** Whether upgrade plans pass through `cost_estimated`; default false. */
    costEstimation?: boolean;
    /** Its teams; default none. */
    teams?: LocalServiceSeedTeam[];
    /** Its users; default none. */
    users?: LocalServiceSeedUser[];
    /** Its agent pools; default none. */
    agentPools?: LocalServiceSeedAgentPool[];
    /** The modules of its private registry; default none. */
    registryModules?: LocalServiceSeedRegistryModule[];
    /** Its projects beside `Default Project`; default none. */
    projects?: LocalServiceSeedProject[];
    /** Its workspaces; default none. */
    workspaces?: LocalServiceSeedWorkspace[];
}

/**
 * What a local service starts with: the format of the `--seed` file of `wos-server` (a misspelled field is
 * an error that names it). Every organization also gets its `Default Project`.
 */
export interface LocalServiceSeed {
    /** The organizations, each with what it holds. */
    organizations: LocalServiceSeedOrganization[];
}

// The seed type above is written out so that the published typings need no zod; this line stops the build
// when it and the schema the server checks seeds with (`seedFileSchema`) say different things.
type Same<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;
const seedTypesAgree: Same<LocalServiceSeed, SeedFile> = true;
void seedTypesAgree;

/** Options of {@link startLocalService}. */
export interface LocalServiceOptions {
    /**
     * The seed: an object, or the path of a JSON seed file such as the repository's `examples/seed.json`.
     * Default: the demo seed (organization `acme`, teams `owners`, `platform` and `app`, user `alice`, the
     * registry module `mod-0000000000000001`, project `Apps` and its workspace `ws-0000000000000001`).
     */
    seed?: LocalServiceSeed | string;
    /** Time of one step of a no-code upgrade plan, in milliseconds; default 200, as `wos-server`. */
    planStepMs?: number;
}

/** One token of the seed, and who holds it. */
export interface LocalServiceToken {
    /** The organization the holder belongs to. */
    organization: string;
    /** `organization`, or the team's or user's name. */
    holder: string;
    /** What holds it: the organization itself, a team or a user. */
    kind: "organization" | "team" | "user";
    /** The token itself: a bearer token for the service, or the `wos:token` of a stack. */
    token: string;
}

/** A running local service: see {@link startLocalService}. */
export interface LocalService {
    /**
     * `http://127.0.0.1:PORT`: what `wos:address`, `WOS_ADDRESS` and `new WosClient({ address })` take (the
     * interface itself is under `/api/v2`). It stays the same until {@link LocalService.stop}, resets included.
     */
    readonly address: string;
    /**
     * The seed's tokens by holder: `tokens.owners`, `tokens.platform`, `tokens.alice`, `tokens.organization`
     * for the demo seed. Every token is also under `<organization>/<holder>` (`tokens["acme/owners"]`); the
     * key is left out when two holders of the seed would share it (then see {@link LocalService.allTokens}). A
     * holder with several tokens: its first.
     */
    readonly tokens: Readonly<Record<string, string>>;
    /** Every token of the seed with its holder, in the seed's order. */
    readonly allTokens: readonly LocalServiceToken[];
    /**
     * Back to the seed: a new, empty in-memory database loaded with the same seed, on the same address (open
     * connections stay usable). What was created since the start (or the last reset) is gone, ids included;
     * the seed's tokens stay valid. Requests in progress finish first, on the old database.
     */
    reset(): Promise<void>;
    /** Stops the service and frees its port. Safe to call more than once. */
    stop(): Promise<void>;
}

/** The seed object of an option: read and checked when it is a path (the message names the file and the field). */
function loadSeed(seed: LocalServiceSeed | string | undefined, { parseSeed, DEMO_SEED }: typeof ServerSeed): SeedFile {
    if (seed === undefined) return DEMO_SEED;
    if (typeof seed !== "string") {
        parseSeed(seed, "seed of startLocalService");
        return seed;
    }
    let text: string;
    try {
        text = fs.readFileSync(seed, "utf8");
    } catch (error) {
        throw new Error(`startLocalService: cannot read seed file ${seed}: ${(error as Error).message}`);
    }
    let json: unknown;
    try {
        json = JSON.parse(text);
    } catch (error) {
        throw new Error(`startLocalService: seed file ${seed} is not valid JSON: ${(error as Error).message}`);
    }
    parseSeed(json, `seed file ${seed}`);
    return json as SeedFile;
}

/** The seed's tokens as {@link LocalService.tokens} and {@link LocalService.allTokens} show them. */
function tokensOf(seed: SeedFile, { seedTokens }: typeof ServerSeed): { all: LocalServiceToken[]; byHolder: Record<string, string> } {
    const all: LocalServiceToken[] = seedTokens(seed).map(({ organization, holder, token }) => {
        if (holder === "organization token") return { organization, holder: "organization", kind: "organization", token };
        const [kind, ...name] = holder.split(" ");
        return { organization, holder: name.join(" "), kind: kind === "team" ? "team" : "user", token };
    });
    // Each key to the holders that would answer to it, and the first token of each holder.
    const holdersByKey = new Map<string, Set<string>>();
    const firstToken = new Map<string, string>();
    for (const entry of all) {
        const holder = `${entry.kind} ${entry.organization}/${entry.holder}`;
        if (!firstToken.has(holder)) firstToken.set(holder, entry.token);
        for (const key of [entry.holder, `${entry.organization}/${entry.holder}`]) {
            holdersByKey.set(key, (holdersByKey.get(key) ?? new Set<string>()).add(holder));
        }
    }
    const byHolder: Record<string, string> = {};
    for (const [key, holders] of holdersByKey) {
        // A key that two holders share (a team and a user of the same name, two organizations) would hand out
        // the wrong rights half of the time: it is left out, and `allTokens` tells them apart.
        if (holders.size === 1) byHolder[key] = firstToken.get([...holders][0])!;
    }
    return { all, byHolder: Object.freeze(byHolder) as Record<string, string> };
}

/** How long a reset or a stop lets requests in progress finish before the old database closes. */
const DRAIN_MS = 5000;

/** One application (one database) behind the listening socket, and its requests in progress. */
class Generation {
    #inFlight = 0;
    readonly #waiters = new Set<() => void>();

    private constructor(readonly app: App) {}

    /** A new application with an empty in-memory database loaded from the seed. */
    static async start({ buildApp }: typeof ServerApp, options: ServerOptions): Promise<Generation> {
        return new Generation(await buildApp(options));
    }

    /** Hands a request to the application, counting it until its answer is sent or the client goes away. */
    serve(request: http.IncomingMessage, response: http.ServerResponse): void {
        this.#inFlight += 1;
        response.once("close", () => {
            this.#inFlight -= 1;
            if (this.#inFlight === 0) for (const waiter of [...this.#waiters]) waiter();
        });
        this.app.routing(request, response);
    }

    /** Resolves when no request of this application is in progress, or after `ms` whatever remains. */
    drained(ms: number): Promise<void> {
        if (this.#inFlight === 0) return Promise.resolve();
        return new Promise<void>((resolve) => {
            const done = () => {
                clearTimeout(timer);
                this.#waiters.delete(done);
                resolve();
            };
            const timer = setTimeout(done, ms);
            this.#waiters.add(done);
        });
    }
}

/**
 * Starts the local service in this process on a free port of 127.0.0.1, with an in-memory database loaded
 * from the seed, silent logs and no rate limit: the application `wos-server` runs (same routes, rules,
 * authentication and answers), behind a plain Node HTTP server that stays open across
 * {@link LocalService.reset} (the connections a client keeps open stay usable, and the address never
 * changes). The connection limits and request timeout of `wos-server` are not applied.
 *
 * ```ts
 * const service = await startLocalService();
 * const client = new WosClient({ address: service.address, token: service.tokens.platform });
 * // ...
 * await service.stop();
 * ```
 *
 * Needs the package `@pulumi-wos/server` (`npm install --save-dev @pulumi-wos/server`).
 *
 * @throws an {@link UnsupportedNodeError} (code `WOS_UNSUPPORTED_NODE`) on a Node.js older than 22, whose SQLite
 * binding the service cannot load (it would end the test's process with a segmentation fault); when
 * `@pulumi-wos/server` is not installed ({@link SERVER_NOT_INSTALLED_MESSAGE}); or when the seed is invalid
 * (the message names each bad field).
 */
export async function startLocalService(options: LocalServiceOptions = {}): Promise<LocalService> {
    // Before the server's modules load: the test that called this gets an error it can catch and assert.
    refuseUnsupportedNode("startLocalService (the local service, @pulumi-wos/server)");
    const modules = loadServer();
    const seed = loadSeed(options.seed, modules.seed);
    const { all, byHolder } = tokensOf(seed, modules.seed);

    let current: Generation | undefined;
    const server = http.createServer((request, response) => {
        const generation = current;
        if (!generation) {
            response.writeHead(503, { "content-type": "text/plain", "retry-after": "1" }).end("starting");
            return;
        }
        generation.serve(request, response);
    });
    await new Promise<void>((resolve, reject) => {
        server.once("error", reject);
        server.listen(0, "127.0.0.1", () => {
            server.off("error", reject);
            resolve();
        });
    });
    const port = (server.address() as AddressInfo).port;
    const address = `http://127.0.0.1:${port}`;
    // Links in answers (`links`, `plan-url`) name this address, as those of `wos-server` name its own.
    const generationOptions: ServerOptions = { dataPath: ":memory:", seed, planStepMs: options.planStepMs, logLevel: "silent", publicUrl: address };
    try {
        current = await Generation.start(modules.app, generationOptions);
    } catch (error) {
        await new Promise<void>((resolve) => server.close(() => resolve()));
        throw error;
    }

    let stopped = false;
    // Resets and stops run one after the other, never interleaved.
    let queue: Promise<unknown> = Promise.resolve();
    const serially = <T>(step: () => Promise<T>): Promise<T> => {
        const next = queue.then(step, step);
        queue = next.catch(() => undefined);
        return next;
    };

    return {
        address,
        tokens: byHolder,
        allTokens: Object.freeze(all.map((entry) => Object.freeze({ ...entry }))),
        reset: () =>
            serially(async () => {
                if (stopped) throw new Error("startLocalService: reset() after stop()");
                const next = await Generation.start(modules.app, generationOptions);
                const previous = current!;
                // From here on every request reaches the new database; those in progress finish on the old one.
                current = next;
                await previous.drained(DRAIN_MS);
                await previous.app.close();
            }),
        stop: () =>
            serially(async () => {
                if (stopped) return;
                stopped = true;
                const last = current!;
                const closed = new Promise<void>((resolve) => server.close(() => resolve()));
                server.closeIdleConnections();
                await last.drained(DRAIN_MS);
                server.closeAllConnections();
                await closed;
                await last.app.close();
            }),
    };
}
