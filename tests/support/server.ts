/**
 * A local service for one test file: started in-process on a free port with the test seed, an in-memory
 * database and fault injection on, plus a raw HTTP helper that returns status, headers and parsed body.
 */
import { startServer, type ServerOptions } from "../../server/app";
import type { FaultRule } from "../../server/faults";
import { testSeed } from "./seed";

export type { FaultRule };

/** The admin token of test servers (enables `/_admin/faults`). */
export const ADMIN_TOKEN = "admin-token";

/** Options of {@link TestServer.request}. */
export interface RequestOptions {
    /** Bearer token; none when left out. */
    token?: string;
    /** Sent as JSON (`application/vnd.api+json`). */
    body?: unknown;
    /** Sent as is, winning over `body` (with the JSON:API content type unless `headers` says otherwise). */
    rawBody?: string;
    headers?: Record<string, string>;
}

/** What {@link TestServer.request} answers. */
export interface TestResponse {
    status: number;
    /** Lower-case header names. */
    headers: Record<string, string>;
    /** The parsed JSON body; the raw text when it is not JSON; `undefined` when empty. */
    body: any;
}

export interface TestServer {
    /** `http://127.0.0.1:PORT` */
    url: string;
    /** `url + '/api/v2'` */
    apiUrl: string;
    close(): Promise<void>;
    /** Raw HTTP: `path` is relative to `apiUrl` unless it starts with `/_admin` or `http`. */
    request(method: string, path: string, options?: RequestOptions): Promise<TestResponse>;
    /** `POST /_admin/faults` with the admin token. */
    addFault(rule: FaultRule): Promise<void>;
    /** `DELETE /_admin/faults`. */
    clearFaults(): Promise<void>;
}

/**
 * Starts a service for tests. Defaults: `:memory:`, {@link testSeed}, admin token `admin-token`, silent logs.
 */
export async function startTestServer(options: Partial<ServerOptions> = {}): Promise<TestServer> {
    const server = await startServer({
        dataPath: ":memory:",
        seed: testSeed(),
        adminToken: ADMIN_TOKEN,
        logLevel: "silent",
        ...options,
    });
    const apiUrl = `${server.url}/api/v2`;

    const request = async (method: string, path: string, options: RequestOptions = {}): Promise<TestResponse> => {
        const target = path.startsWith("http") ? path : path.startsWith("/_admin") ? server.url + path : apiUrl + path;
        const { status, headers, text, json } = await rawRequest(method, target, options);
        return { status, headers, body: json ?? (text === "" ? undefined : text) };
    };

    const admin = async (method: string, body?: unknown) => {
        const response = await request(method, "/_admin/faults", { token: ADMIN_TOKEN, body });
        if (response.status >= 300) {
            throw new Error(`${method} /_admin/faults answered ${response.status}: ${JSON.stringify(response.body)}`);
        }
    };

    return {
        url: server.url,
        apiUrl,
        close: server.close,
        request,
        addFault: (rule) => admin("POST", rule),
        clearFaults: () => admin("DELETE"),
    };
}

/** What {@link rawRequest} answers: the status, lower-case headers, the body's text and its JSON, if it is JSON. */
export interface RawResponse {
    status: number;
    headers: Record<string, string>;
    text: string;
    /** `undefined` when the body is empty or not JSON. */
    json: any;
}

/**
 * One HTTP request exactly as asked: the JSON:API content type only when there is a body, the bearer token
 * only when given; `rawBody` is sent byte for byte (and wins over `body`). Rejects only when no HTTP answer
 * arrives (e.g. a dropped connection).
 */
export async function rawRequest(method: string, url: string, options: RequestOptions = {}): Promise<RawResponse> {
    const headers: Record<string, string> = { accept: "application/vnd.api+json" };
    const payload = options.rawBody ?? (options.body === undefined ? undefined : JSON.stringify(options.body));
    if (payload !== undefined) headers["content-type"] = "application/vnd.api+json";
    if (options.token !== undefined) headers.authorization = `Bearer ${options.token}`;
    Object.assign(headers, options.headers ?? {});
    const response = await fetch(url, { method: method.toUpperCase(), headers, body: payload });
    const text = await response.text();
    let json: any;
    try {
        json = text.length > 0 ? JSON.parse(text) : undefined;
    } catch {
        json = undefined;
    }
    const responseHeaders: Record<string, string> = {};
    response.headers.forEach((value, name) => {
        responseHeaders[name.toLowerCase()] = value;
    });
    return { status: response.status, headers: responseHeaders, text, json };
}
