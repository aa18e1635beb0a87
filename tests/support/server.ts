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
    /** Sent as is (with the JSON:API content type unless `headers` says otherwise). */
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
        const headers: Record<string, string> = {};
        let payload: string | undefined;
        if (options.rawBody !== undefined) payload = options.rawBody;
        else if (options.body !== undefined) payload = JSON.stringify(options.body);
        if (payload !== undefined) headers["content-type"] = "application/vnd.api+json";
        if (options.token !== undefined) headers.authorization = `Bearer ${options.token}`;
        Object.assign(headers, options.headers ?? {});
        const response = await fetch(target, { method: method.toUpperCase(), headers, body: payload });
        const text = await response.text();
        let body: any;
        if (text !== "") {
            try {
                body = JSON.parse(text);
            } catch {
                body = text;
            }
        }
        const responseHeaders: Record<string, string> = {};
        response.headers.forEach((value, name) => {
            responseHeaders[name.toLowerCase()] = value;
        });
        return { status: response.status, headers: responseHeaders, body };
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
