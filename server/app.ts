/**
 * The local service as a Fastify application: {@link buildApp} wires storage, seed, logging, the HTTP layer
 * (timeouts, connection cap, shutdown: `connections.ts`), body parsing, errors, rate limiting, fault
 * injection, authentication and the routes; {@link startServer} listens.
 * Tests start it in-process on port 0; the CLI (`main.ts`) is a thin shell around the same two functions.
 */
import { randomUUID, createHash } from "node:crypto";
import Fastify, { type FastifyError, type FastifyInstance, type FastifyReply, type FastifyRequest, type HTTPMethods } from "fastify";
import rateLimit from "@fastify/rate-limit";
import { JSON_API_MEDIA_TYPE } from "../sdk/model";
import { authenticate } from "./auth";
import { FailedAuthenticationLimit } from "./authLimit";
import type { AppContext, ServerOptions } from "./context";
import { connectionLimits, connectionServerOptions, installConnectionHandling, ROUTE_METHODS, SERVED_METHODS } from "./connections";
import { installBodyParsing } from "./bodyParsing";
import { isEmpty, openDatabase } from "./db";
import { codeForStatus, ERROR_CODES, HttpError, httpError, titleFor } from "./errors";
import { FaultStore, registerFaults } from "./faults";
import { openApiDocument } from "./openapi/document";
import { OPENAPI_MEDIA_TYPE, OPENAPI_PATH } from "./openapi/service";
import { publicBaseUrl } from "./pagination";
import { applySeed, DEMO_SEED } from "./seed";
import { registerNoCodeModuleRoutes } from "./routes/noCodeModules";
import { registerNoCodeWorkspaceRoutes } from "./routes/noCodeWorkspaces";
import { registerProjectRoutes } from "./routes/projects";
import { registerVariableRoutes } from "./routes/variables";
import { registerWorkspaceRoutes } from "./routes/workspaces";

/** The options of {@link buildApp} and {@link startServer}; where callers of the app have always found them. */
export type { ServerOptions } from "./context";

/** The path prefix of the interface. */
export const API_PREFIX = "/api/v2";

/** The routes under the prefix that need no token: `ping` and the service's description. */
const ANONYMOUS_PATHS = new Set([`${API_PREFIX}/ping`, OPENAPI_PATH]);

/** The content type of every JSON document the service answers. */
const JSON_API_CONTENT_TYPE = `${JSON_API_MEDIA_TYPE}; charset=utf-8`;

/** Largest request body accepted (413 above it): room for a variable value of 256 KiB and its envelope. */
const BODY_LIMIT = 1024 * 1024;

/**
 * Builds the application (not listening). Opens the database, applies `options.seed` (or the demo seed on an
 * empty database), and closes the database when the app closes.
 */
export async function buildApp(options: ServerOptions): Promise<FastifyInstance> {
    // Bad options throw before anything is opened.
    const limits = connectionLimits(options);
    const publicUrl = options.publicUrl === undefined ? undefined : publicBaseUrl(options.publicUrl, "publicUrl");
    const db = openDatabase(options.dataPath, { secretKeyFile: options.secretKeyFile });
    let demoSeedLoaded = false;
    try {
        if (options.seed !== undefined) applySeed(db, options.seed);
        else if (isEmpty(db)) {
            applySeed(db, DEMO_SEED);
            demoSeedLoaded = true;
        }
    } catch (error) {
        db.close();
        throw error;
    }

    const app = Fastify({
        logger: {
            level: options.logLevel ?? "info",
            stream: options.logStream ?? process.stderr,
            // Tokens never reach a log line, whatever a serializer or a debug statement includes.
            redact: {
                paths: [
                    "req.headers.authorization",
                    "request.headers.authorization",
                    "headers.authorization",
                    "req.headers.cookie",
                ],
                censor: "[redacted]",
            },
        },
        bodyLimit: BODY_LIMIT,
        genReqId: () => randomUUID(),
        // Idle keep-alive connections would otherwise hold `close()` open.
        forceCloseConnections: "idle",
        // Request timeout, Node's own answers off, the parser's refusals as JSON:API (connections.ts).
        ...connectionServerOptions(limits),
        // Errors Fastify raises before routing (a malformed URL) get a JSON:API body too.
        frameworkErrors: (error, _request, reply) => {
            const status = typeof error.statusCode === "number" && error.statusCode >= 400 ? error.statusCode : 400;
            void sendError(reply as FastifyReply, httpError(status, codeForStatus(status), error.message));
        },
    });

    const context: AppContext = {
        db,
        options: { ...options, planStepMs: options.planStepMs ?? 200, rateLimit: options.rateLimit ?? 0 },
        faults: new FaultStore(),
        linkBase: { url: publicUrl },
    };
    const routes: { method: string; url: string }[] = [];
    app.decorate("wos", { ...context, demoSeedLoaded, routes });
    app.addHook("onRoute", (route) => {
        const methods = Array.isArray(route.method) ? route.method : [route.method];
        // Every HEAD is the one Fastify adds to a GET: the service declares none of its own.
        for (const method of methods) if (method !== "HEAD") routes.push({ method, url: route.url });
    });
    app.decorateRequest("principal", undefined);
    app.decorateRequest("wosFault", undefined);
    app.addHook("onClose", async () => {
        db.close();
    });

    installConnectionHandling(app, limits);
    installBodyParsing(app);
    installErrorHandling(app);
    // Hooks on every request are callback-style where they never wait: an async hook costs a promise and a
    // turn of the microtask queue per request.
    app.addHook("onSend", (request, reply, payload, done) => {
        reply.header("x-request-id", request.id);
        // Documents are JSON:API, as the hosted service answers them; Fastify's default for objects is plain JSON.
        const type = reply.getHeader("content-type");
        if (typeof type === "string" && type.startsWith("application/json")) {
            reply.header("content-type", JSON_API_CONTENT_TYPE);
        }
        done(null, payload);
    });

    // Fault hooks first: an injected delay or reset must happen whatever the request would have met next.
    registerFaults(app, context.faults, options.adminToken);

    const limit = context.options.rateLimit;
    if (limit > 0) {
        await app.register(rateLimit, {
            max: limit,
            timeWindow: 1000,
            hook: "onRequest",
            // Per token (hashed: the limiter's keys must not hold tokens); callers without one share their IP's.
            keyGenerator: (request) => {
                const header = request.headers.authorization;
                return typeof header === "string" && header.length > 0
                    ? "t:" + createHash("sha256").update(header).digest("hex")
                    : "ip:" + request.ip;
            },
            errorResponseBuilder: () =>
                new HttpError(429, [{ status: "429", title: "too many requests", code: ERROR_CODES.rateLimited, detail: "You have exceeded the API's rate limit." }]),
        });
    }

    // With a limit, failed authentication is limited per client address too: token guessing stays bounded.
    const failedAuthentication = new FailedAuthenticationLimit(limit);
    await app.register(
        async (api) => {
            api.addHook("onRequest", (request, _reply, done) => {
                if (!ANONYMOUS_PATHS.has(request.routeOptions.url ?? "")) {
                    try {
                        request.principal = failedAuthentication.authenticate(request.ip, () => authenticate(db, request.headers.authorization));
                    } catch (error) {
                        done(error as Error);
                        return;
                    }
                }
                done();
            });
            api.get("/ping", async (_request, reply) => {
                reply.header("x-ratelimit-limit", String(limit));
                return reply.code(204).send();
            });
            // The description of this server (with the fault routes when it has them), made on the first request.
            let description: string | undefined;
            api.get(OPENAPI_PATH.slice(API_PREFIX.length), async (_request, reply) => {
                description ??= JSON.stringify(openApiDocument({ admin: options.adminToken !== undefined }));
                return reply.type(OPENAPI_MEDIA_TYPE).send(description);
            });
            registerProjectRoutes(api, context);
            registerVariableRoutes(api, context);
            registerWorkspaceRoutes(api, context);
            registerNoCodeModuleRoutes(api, context);
            registerNoCodeWorkspaceRoutes(api, context);
        },
        { prefix: API_PREFIX },
    );

    await app.ready();
    return app;
}

/** Builds the app and listens (default 127.0.0.1, port 0 = any free port). `url` has no `/api/v2`. */
export async function startServer(
    options: ServerOptions & { host?: string; port?: number },
): Promise<{ url: string; app: FastifyInstance; close(): Promise<void> }> {
    const app = await buildApp(options);
    const host = options.host ?? "127.0.0.1";
    try {
        await app.listen({ host, port: options.port ?? 0 });
    } catch (error) {
        await app.close();
        throw error;
    }
    const address = app.server.address();
    const port = typeof address === "object" && address ? address.port : options.port;
    const shownHost = host.includes(":") ? `[${host}]` : host;
    const url = `http://${shownHost}:${port}`;
    // Links name the address the service listens on (set before any request can be read), unless a
    // public URL was given.
    app.wos.linkBase.url ??= url;
    let closing: Promise<void> | undefined;
    return {
        url,
        app,
        // Idempotent: a test's afterAll and a signal handler may both close.
        close: () => (closing ??= app.close().then(() => undefined)),
    };
}

/** Answers an {@link HttpError} as its JSON:API error document, with its headers. */
function sendError(reply: FastifyReply, error: HttpError): FastifyReply {
    for (const [name, value] of Object.entries(error.headers)) reply.header(name, value);
    return reply.code(error.statusCode).type(JSON_API_MEDIA_TYPE).send(error.toDocument());
}

/** The methods some route answers for the path of `url` (its query left out), in {@link ROUTE_METHODS} order. */
function methodsOf(app: FastifyInstance, url: string): string[] {
    const path = url.split("?")[0]!;
    return ROUTE_METHODS.filter((method) => app.findRoute({ method: method as HTTPMethods, url: path }) !== null);
}

/** 405 for `method` at the path of `url`, its `Allow` what the path answers (or the service, for a path that has no route). */
function methodNotAllowed(method: string, url: string, allowed: readonly string[]): HttpError {
    const path = url.split("?")[0]!;
    const error = httpError(
        405,
        ERROR_CODES.methodNotAllowed,
        allowed.length > 0 ? `${path} answers ${allowed.join(", ")}, not ${method}` : `The method ${method} is not one this service answers`,
    );
    error.headers.allow = allowed.length > 0 ? allowed.join(", ") : SERVED_METHODS;
    return error;
}

/** Every error becomes a JSON:API error document; only a bug answers 500, never bad input. */
function installErrorHandling(app: FastifyInstance): void {
    // A method no route has (`PUT`, `OPTIONS`, `QUERY`...) is answered before anything reads its body: a
    // `QUERY` would otherwise be refused for its content type, as if the method were right.
    app.addHook("onRequest", (request, _reply, done) => {
        if (ROUTE_METHODS.includes(request.method)) {
            done();
            return;
        }
        done(methodNotAllowed(request.method, request.url, methodsOf(app, request.url)));
    });
    app.setNotFoundHandler(async (request, reply) => {
        // A path that some route answers, asked with another method of the service: 405 saying which it takes.
        const allowed = methodsOf(app, request.url);
        if (allowed.length > 0) return sendError(reply, methodNotAllowed(request.method, request.url, allowed));
        return sendError(reply, httpError(404, ERROR_CODES.routeNotFound, `No route for ${request.method} ${request.url.split("?")[0]}`));
    });

    app.setErrorHandler(async (error: FastifyError | HttpError, request: FastifyRequest, reply: FastifyReply) => {
        return sendError(reply, asHttpError(error, request));
    });
}

/** The answer to an error: its own when it is an {@link HttpError}, else the closest status, 500 for a bug. */
function asHttpError(error: FastifyError | HttpError, request: FastifyRequest): HttpError {
    if (error instanceof HttpError) return error;
    // Writes run in IMMEDIATE transactions that check before they write, so a constraint can only fail
    // here through a bug or a change made to the file behind the service's back.
    const sqliteCode = (error as { code?: unknown }).code;
    if (typeof sqliteCode === "string" && sqliteCode.startsWith("SQLITE_CONSTRAINT")) {
        request.log.warn({ err: error }, "constraint failed");
        return httpError(409, ERROR_CODES.concurrentChange, "The change conflicts with a concurrent change; read the resource and try again");
    }
    if (sqliteCode === "SQLITE_BUSY" || sqliteCode === "SQLITE_LOCKED") {
        return new HttpError(503, [{ status: "503", title: titleFor(503), code: ERROR_CODES.databaseBusy, detail: "The database is busy; try again" }], { "retry-after": "1" });
    }
    const status = typeof error.statusCode === "number" ? error.statusCode : 500;
    if (status >= 400 && status < 500) {
        // Fastify's own client errors (body too large, bad content type, bad URL...).
        const detail = error.code === "FST_ERR_CTP_BODY_TOO_LARGE" ? `The request body is larger than ${BODY_LIMIT} bytes` : error.message;
        return httpError(status, codeForStatus(status), detail);
    }
    request.log.error({ err: error }, "unhandled error");
    return httpError(500, ERROR_CODES.internalError, "An internal error occurred");
}
