/**
 * The request context: what every route is handed (the database, the options, the fault rules, the base of
 * links) and the caller of a request. Apart from `app.ts`, which assembles the application from the routes,
 * so that a route depends on what it is given, never on the file that registers it.
 */
import type { FastifyRequest } from "fastify";
import { unauthenticated, type Principal } from "./auth";
import type { Db } from "./db";
import type { FaultStore } from "./faults";
import type { SeedFile } from "./seed";

/** How to run the service. */
export interface ServerOptions {
    /** `:memory:` or an SQLite file path (folder created; WAL). */
    dataPath: string;
    /**
     * File of the 32-byte secret key that seals sensitive values and keys token hashes (server/secrets.ts);
     * default `<dataPath>.key` beside the database (created, mode 0600), a random key for `:memory:`.
     */
    secretKeyFile?: string;
    /** Parsed seed object; when undefined AND the database is empty, the built-in demo seed is loaded. */
    seed?: SeedFile;
    /** Time of one upgrade plan step; default 200. */
    planStepMs?: number;
    /** Requests per token per second, and failed authentications per client address per second; 0 = off (default). */
    rateLimit?: number;
    /** Enables `/_admin/faults`. */
    adminToken?: string;
    /** Pino level; default `info` in the CLI, `silent` when started by tests. */
    logLevel?: string;
    /** Where the JSON log lines go; default stderr. */
    logStream?: NodeJS.WritableStream;
    /** Most milliseconds a client may take to send one request, headers and body (408 after); default 30000. */
    requestTimeoutMs?: number;
    /** Connections served at once; more are closed when accepted. Default 1000. */
    maxConnections?: number;
    /** Milliseconds requests in progress may take to finish once the service is closing; default 5000. */
    shutdownGraceMs?: number;
    /**
     * Base of the absolute URLs in answers (`links`, `plan-url`): an http(s) URL, a path prefix allowed.
     * Default: the address the service listens on. Never the request's `Host` header.
     */
    publicUrl?: string;
}

/** What the routes share: the database, the options and the fault rules. */
export interface AppContext {
    db: Db;
    options: Required<Pick<ServerOptions, "planStepMs" | "rateLimit">> & ServerOptions;
    faults: FaultStore;
    /** Base of absolute links: `publicUrl`, else set by `startServer` (app.ts) to the address it listens on. */
    linkBase: { url?: string };
}

declare module "fastify" {
    interface FastifyInstance {
        /** The service's shared state, and whether the demo seed was loaded at start. */
        wos: AppContext & {
            demoSeedLoaded: boolean;
            /**
             * Every route the app answers, as Fastify registered it (`GET /api/v2/projects/:id`), but the HEAD
             * Fastify adds to each GET: what the OpenAPI description (`openapi/document.ts`) describes.
             */
            routes: { method: string; url: string }[];
        };
    }
    interface FastifyRequest {
        /** The caller, set by the authentication hook on every `/api/v2` route but ping and the description. */
        principal?: Principal;
    }
}

/** The caller set by the authentication hook; routes are only reached with one. */
export function principalOf(request: FastifyRequest): Principal {
    if (!request.principal) throw unauthenticated("no_token");
    return request.principal;
}
