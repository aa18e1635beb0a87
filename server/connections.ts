/**
 * The HTTP layer beneath the routes: how long a client may take to send a request, how many connections
 * are served at once, the JSON:API answers to what Node's HTTP parser refuses before Fastify sees a request
 * (malformed request lines and headers, headers over the limit, unknown methods, `CONNECT`, a missing
 * `Host`, an unmet `Expect`, the request timeout), and a shutdown that ends within a bounded time whatever
 * the clients do.
 *
 * Shutdown (`app.close()`, which `startServer().close()` and the CLI's SIGTERM/SIGINT call): the listening
 * socket closes at once; connections with no request in progress (idle keep-alive, nothing sent yet, half a
 * header block) are destroyed at once; requests in progress may finish for {@link ServerOptions.shutdownGraceMs}
 * (a slow body or a client that does not read its answer included), then every remaining connection is
 * destroyed, and only then does the database close.
 */
import { STATUS_CODES, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { Duplex } from "node:stream";
import type { Socket } from "node:net";
import type { FastifyHttpOptions, FastifyInstance, FastifyReply, FastifyRequest } from "fastify";
import { JSON_API_MEDIA_TYPE } from "../sdk/model";
import { codeForStatus, HttpError, httpError } from "./errors";

/** Default of `--request-timeout-ms`: the most time a client may take to send one request, headers and body. */
export const DEFAULT_REQUEST_TIMEOUT_MS = 30_000;
/** Default of `--max-connections`: connections served at once; more are closed as soon as they are accepted. */
export const DEFAULT_MAX_CONNECTIONS = 1000;
/** Default of `--shutdown-grace-ms`: how long requests in progress may take to finish after SIGTERM/SIGINT. */
export const DEFAULT_SHUTDOWN_GRACE_MS = 5000;

/**
 * How long a connection answered with an error stays open to read (and discard) what the client is still
 * sending: closing a socket with unread data resets it, and a reset can make the client lose the answer.
 */
const LINGER_MS = 1000;

/** The methods a route of this service may answer (`HEAD` with each `GET`). */
export const ROUTE_METHODS: readonly string[] = ["GET", "HEAD", "POST", "PATCH", "DELETE"];

/** The methods some route answers, named in the `Allow` of a 405 to a method no route can have. */
export const SERVED_METHODS = ROUTE_METHODS.join(", ");

/** The connection limits of a running service, defaults applied. */
export interface ConnectionLimits {
    requestTimeoutMs: number;
    maxConnections: number;
    shutdownGraceMs: number;
}

/** The limits of `options` with their defaults; a value that is not a whole number in range throws, naming it. */
export function connectionLimits(options: {
    requestTimeoutMs?: number;
    maxConnections?: number;
    shutdownGraceMs?: number;
}): ConnectionLimits {
    const integer = (name: string, value: number | undefined, fallback: number, min: number): number => {
        if (value === undefined) return fallback;
        if (!Number.isSafeInteger(value) || value < min) {
            throw new Error(`${name} must be an integer of at least ${min}, got ${String(value)}`);
        }
        return value;
    };
    return {
        requestTimeoutMs: integer("requestTimeoutMs", options.requestTimeoutMs, DEFAULT_REQUEST_TIMEOUT_MS, 1),
        maxConnections: integer("maxConnections", options.maxConnections, DEFAULT_MAX_CONNECTIONS, 1),
        shutdownGraceMs: integer("shutdownGraceMs", options.shutdownGraceMs, DEFAULT_SHUTDOWN_GRACE_MS, 0),
    };
}

/**
 * The Fastify (and Node HTTP server) options of the HTTP layer, spread into `Fastify({...})`: headers and
 * body must both arrive within the request timeout, Node's own bodiless answers are turned off (a missing
 * `Host`, the 503 of a closing server) so that {@link installConnectionHandling} answers them as JSON:API
 * documents, and the parser's refusals go to {@link answerClientError}.
 */
export function connectionServerOptions(limits: ConnectionLimits) {
    return {
        requestTimeout: limits.requestTimeoutMs,
        routerOptions: { maxParamLength: MAX_PATH_PARAMETER_LENGTH },
        http: {
            // Node requires headersTimeout <= requestTimeout; the whole request has the one limit.
            headersTimeout: limits.requestTimeoutMs,
            // Node checks the two timeouts on this interval (30 s by default, far too coarse for small values).
            connectionsCheckingInterval: Math.max(10, Math.min(1000, Math.floor(limits.requestTimeoutMs / 4))),
            requireHostHeader: false,
        },
        return503OnClosing: false,
        clientErrorHandler: answerClientError,
    } satisfies Partial<FastifyHttpOptions<Server>>;
}

/**
 * The longest value of a path parameter the router reads (Fastify's default, said here because the OpenAPI
 * description declares it): a longer one is a 414, before any route runs. Every id, and every name a path
 * holds, is shorter.
 */
export const MAX_PATH_PARAMETER_LENGTH = 100;

/** A JSON:API error whose title is the status's reason phrase in lower case (`"request timeout"`), with the status's general code. */
function layerError(status: number, detail: string): HttpError {
    return httpError(status, codeForStatus(status), detail, { title: (STATUS_CODES[status] ?? "error").toLowerCase() });
}

/** Sockets already answered by {@link answerRaw}: the parser reports every later chunk again. */
const answered = new WeakSet<Duplex>();

/**
 * Writes `error` as a whole HTTP response straight onto a socket no response has been started on, then
 * closes it: half-closes at once, and destroys it after {@link LINGER_MS} unless the client closes first.
 */
function answerRaw(socket: Duplex, error: HttpError): void {
    if (answered.has(socket)) return;
    answered.add(socket);
    const body = JSON.stringify(error.toDocument());
    const headers: Record<string, string | number> = {
        "content-type": `${JSON_API_MEDIA_TYPE}; charset=utf-8`,
        "content-length": Buffer.byteLength(body),
        connection: "close",
        ...error.headers,
    };
    const head = Object.entries(headers).map(([name, value]) => `${name}: ${value}\r\n`).join("");
    socket.end(`HTTP/1.1 ${error.statusCode} ${STATUS_CODES[error.statusCode] ?? ""}\r\n${head}\r\n${body}`);
    setTimeout(() => socket.destroy(), LINGER_MS).unref();
}

/** `METHOD target HTTP/x.y`, the method a token (RFC 9110 §9.1). */
const REQUEST_LINE = /^[!#$%&'*+.^_`|~0-9A-Za-z-]+ \S+ HTTP\/\d\.\d\r?$/;

/**
 * The answer to what Node's HTTP parser refused (or the request timeout), by Node's error code;
 * `requestLine` is the first line received, when known.
 */
function clientErrorAnswer(code: string | undefined, timeoutMs: number | undefined, requestLine?: string): HttpError {
    switch (code) {
        case "ERR_HTTP_REQUEST_TIMEOUT":
        case "HPE_HEADERS_TIMEOUT":
            return layerError(408, `The request was not received in time${timeoutMs ? ` (${timeoutMs} ms)` : ""}`);
        case "HPE_HEADER_OVERFLOW":
            return layerError(431, "The request's header fields are larger than the service accepts (16 KiB)");
        case "HPE_INVALID_METHOD": {
            // A well-formed request line with a method no parser knows, or no request line at all.
            if (!requestLine || !REQUEST_LINE.test(requestLine)) return layerError(400, "The request line is malformed");
            const error = layerError(405, "The request's method is not one this service answers");
            error.headers.allow = SERVED_METHODS;
            return error;
        }
        case "HPE_INVALID_URL":
            return layerError(400, "The request target is not a valid URL path");
        case "HPE_INVALID_VERSION":
            return layerError(400, "The request's HTTP version is not valid");
        case "HPE_INVALID_HEADER_TOKEN":
        case "HPE_INVALID_CONSTANT":
        case "HPE_LF_EXPECTED":
        case "HPE_CR_EXPECTED":
            return layerError(400, "The request line or a header field is malformed");
        case "HPE_UNEXPECTED_CONTENT_LENGTH":
        case "HPE_INVALID_CONTENT_LENGTH":
        case "HPE_INVALID_TRANSFER_ENCODING":
        case "HPE_INVALID_CHUNK_SIZE":
            return layerError(400, "The request's body framing (Content-Length or Transfer-Encoding) is not valid");
        default:
            return layerError(400, "The request is not valid HTTP");
    }
}

/**
 * Fastify's `clientErrorHandler` (bound to the instance): what Node's HTTP server reports about a connection
 * before (or instead of) a request. Answers a JSON:API document when no answer has started on the socket.
 * Logs the error's code and the answer's status only: Node attaches the raw bytes received, which may hold
 * a bearer token.
 */
function answerClientError(this: FastifyInstance, error: Error & { code?: string }, socket: Socket): void {
    if (error.code === "ECONNRESET" || error.code === "EPIPE" || socket.destroyed) {
        socket.destroy();
        return;
    }
    if (answered.has(socket)) return;
    const inProgress = (socket as Socket & { _httpMessage?: ServerResponse | null })._httpMessage;
    if (!socket.writable || (inProgress && inProgress.headersSent)) {
        // Half an answer is out already: another one would corrupt it; only closing is left.
        socket.destroy();
        return;
    }
    const received = (error as { rawPacket?: unknown }).rawPacket;
    const requestLine = Buffer.isBuffer(received) ? received.toString("latin1").split("\n", 1)[0] : undefined;
    const answer = clientErrorAnswer(error.code, this.server.requestTimeout, requestLine);
    this.log.info({ code: error.code, statusCode: answer.statusCode, remoteAddress: socket.remoteAddress }, "client error answered");
    answerRaw(socket, answer);
}

/** The tracked state of one connection. */
interface Connection {
    /** Requests handed to the application whose answers have not ended. */
    inFlight: number;
}

/**
 * Installs the rest of the HTTP layer on `app` (before its routes): the connection cap, the timeout of a
 * connection that sends nothing, the JSON:API answers of `CONNECT`, an unmet `Expect`, a missing `Host` and a
 * request that arrives while closing, and the bounded shutdown.
 */
export function installConnectionHandling(app: FastifyInstance, limits: ConnectionLimits): void {
    const server = app.server;
    // Beyond the cap, Node closes a connection as soon as it is accepted (nothing can be read from it yet).
    server.maxConnections = limits.maxConnections;

    const connections = new Map<Socket, Connection>();
    let closing = false;
    let graceTimer: NodeJS.Timeout | undefined;

    server.on("connection", (socket: Socket) => {
        connections.set(socket, { inFlight: 0 });
        // Node's request timeout starts at a request's first byte; a connection that sends none would
        // otherwise hold its place (and a shutdown) for ever.
        const silence = setTimeout(() => {
            if (socket.bytesRead === 0 && !socket.destroyed) {
                answerRaw(socket, clientErrorAnswer("ERR_HTTP_REQUEST_TIMEOUT", limits.requestTimeoutMs));
            }
        }, limits.requestTimeoutMs);
        silence.unref();
        socket.once("close", () => {
            clearTimeout(silence);
            connections.delete(socket);
        });
    });

    server.on("request", (request: IncomingMessage, response: ServerResponse) => {
        const socket = request.socket;
        const connection = connections.get(socket);
        if (!connection) return;
        connection.inFlight += 1;
        response.once("close", () => {
            connection.inFlight -= 1;
            // A request that was in progress when the shutdown began has its answer: the connection ends.
            if (closing && connection.inFlight === 0) socket.end();
        });
    });

    // Node destroys a CONNECT's socket without a word when nobody listens; no route is a proxy.
    server.on("connect", (request: IncomingMessage, socket: Duplex) => {
        const error = layerError(405, `The method ${request.method ?? "CONNECT"} is not one this service answers`);
        error.headers.allow = SERVED_METHODS;
        answerRaw(socket, error);
    });

    // `Expect` other than `100-continue`: Node would answer a bodiless 417.
    server.on("checkExpectation", (_request: IncomingMessage, response: ServerResponse) => {
        const error = layerError(417, "The only expectation this service meets is 'Expect: 100-continue'");
        const body = JSON.stringify(error.toDocument());
        response.writeHead(417, { "content-type": `${JSON_API_MEDIA_TYPE}; charset=utf-8`, "content-length": Buffer.byteLength(body) });
        response.end(body);
    });

    // First of the application's hooks: before fault injection, the rate limiter and authentication. Both
    // hooks are callback-style: they run on every request and never wait, and an async hook costs a promise
    // and a turn of the microtask queue. One that answers does not call `done`: the answer ends the request.
    app.addHook("onRequest", (request: FastifyRequest, reply: FastifyReply, done: () => void) => {
        if (closing) {
            reply.header("connection", "close").header("retry-after", "1");
            sendLayerError(reply, layerError(503, "The service is shutting down"));
            return;
        }
        // HTTP/1.1 requires Host (RFC 9112 §3.2); links never use it (see pagination.ts), but a request
        // without one is malformed all the same.
        if (request.raw.httpVersionMajor === 1 && request.raw.httpVersionMinor >= 1 && request.headers.host === undefined) {
            reply.header("connection", "close");
            sendLayerError(reply, layerError(400, "The request has no Host header (required by HTTP/1.1)"));
            return;
        }
        done();
    });

    // Answers that finish while closing tell the client the connection ends with them.
    app.addHook("onSend", (_request, reply, payload, done) => {
        if (closing) reply.header("connection", "close");
        done(null, payload);
    });

    app.addHook("preClose", (done) => {
        closing = true;
        for (const [socket, connection] of connections) if (connection.inFlight === 0) socket.destroy();
        graceTimer = setTimeout(() => {
            for (const socket of connections.keys()) socket.destroy();
        }, limits.shutdownGraceMs);
        done();
    });
    app.addHook("onClose", (_instance, done) => {
        clearTimeout(graceTimer);
        done();
    });
}

function sendLayerError(reply: FastifyReply, error: HttpError): FastifyReply {
    for (const [name, value] of Object.entries(error.headers)) reply.header(name, value);
    return reply.code(error.statusCode).type(JSON_API_MEDIA_TYPE).send(error.toDocument());
}
