/**
 * The HTTP exchange under the client's axios instance: one request with Node's own `http.request` (or
 * `https.request`) over the default keep-alive agents, the answer read whole as text.
 *
 * axios' own Node adapter does much this client never uses (redirects, streams, progress events, rate
 * limits, compression negotiation) and cost about a third of a millisecond of CPU a request on the
 * development machine, more than the rest of the client and as much again as `http.request` itself
 * (issue 6, Scale: the SDK within 1.2x of plain keep-alive HTTP). This adapter keeps everything around it
 * as it was: axios' interceptors and so the retry policy (`sdk/retry.ts`), its `AxiosError` shapes and
 * codes, `validateStatus`, and `ETIMEDOUT` for a timeout (what axios' own adapter says with
 * `clarifyTimeoutError`). The timeout is one deadline for the whole attempt, from its start to the answer's
 * last byte: axios' own adapter counts the socket's idle time instead, so an answer that trickles a byte now
 * and then never timed out, and arming the socket's idle timer as well (listeners on the request and the
 * socket, re-armed on every read) cost some 15 µs of the client's CPU a request. What the client never asks
 * for is not supported: no redirect (a 3xx is an answer), no streams.
 *
 * Proxies come from the environment, as curl, Go's `net/http` (and so the Pulumi CLI and go-tfe) take
 * them: {@link environmentProxy} decides once per client with `proxy-from-env` (`HTTPS_PROXY` for an
 * `https:` address, `HTTP_PROXY` for `http:`, `ALL_PROXY` for both, lower-case names too, `NO_PROXY` to
 * bypass), and {@link proxiedAdapter} sends through `http-proxy-agent` (an absolute-URI request to the
 * proxy) or `https-proxy-agent` (a `CONNECT` tunnel, TLS to the service inside it).
 *
 * @module
 */
import * as http from "node:http";
import * as https from "node:https";
import { isIP } from "node:net";
import * as zlib from "node:zlib";
import { AxiosError, AxiosHeaders, type AxiosResponse, type InternalAxiosRequestConfig } from "axios";
// CommonJS, no typings of its own: its one function, typed here.
const { getProxyForUrl } = require("proxy-from-env") as { getProxyForUrl(url: string): string };

/** The full URL of a request: the base URL and the path (with its query) the transport built. */
function requestUrl(config: InternalAxiosRequestConfig): URL {
    const url = config.url ?? "";
    if (/^https?:\/\//i.test(url)) return new URL(url);
    return new URL((config.baseURL ?? "").replace(/\/+$/, "") + url);
}

/** The request headers as Node takes them: the values set, as strings. */
function requestHeaders(config: InternalAxiosRequestConfig, body: Buffer | undefined): http.OutgoingHttpHeaders {
    const headers: http.OutgoingHttpHeaders = {};
    for (const [name, value] of Object.entries(AxiosHeaders.from(config.headers).toJSON() as Record<string, unknown>)) {
        if (value === undefined || value === null || value === false) continue;
        headers[name] = Array.isArray(value) ? value.map(String) : String(value);
    }
    if (body !== undefined) headers["Content-Length"] = body.length;
    return headers;
}

/** The body of a request: the transport sends JSON text or nothing. */
function requestBody(data: unknown): Buffer | undefined {
    if (data === undefined || data === null) return undefined;
    if (Buffer.isBuffer(data)) return data;
    return Buffer.from(typeof data === "string" ? data : JSON.stringify(data), "utf8");
}

/** The answer's bytes decoded, for a server or proxy that compresses although it was not asked to. */
function decoded(body: Buffer, encoding: string | undefined): Buffer {
    switch ((encoding ?? "").toLowerCase()) {
        case "gzip":
        case "x-gzip":
            return zlib.gunzipSync(body);
        case "deflate":
            return zlib.inflateSync(body);
        case "br":
            return zlib.brotliDecompressSync(body);
        default:
            return body;
    }
}

/** The adapter: the `adapter` option of the client's axios instance. */
export function nodeHttpAdapter(config: InternalAxiosRequestConfig): Promise<AxiosResponse<string>> {
    return new Promise((resolve, reject) => {
        const url = requestUrl(config);
        const body = requestBody(config.data);
        const transport = url.protocol === "https:" ? https : http;
        const agent = url.protocol === "https:" ? config.httpsAgent : config.httpAgent;
        let settled = false;
        let deadline: NodeJS.Timeout | undefined;
        const finish = (outcome: () => void) => {
            if (settled) return;
            settled = true;
            if (deadline) clearTimeout(deadline);
            outcome();
        };
        const request = transport.request(
            {
                protocol: url.protocol,
                hostname: url.hostname.replace(/^\[|\]$/g, ""),
                port: url.port || undefined,
                path: url.pathname + url.search,
                method: (config.method ?? "get").toUpperCase(),
                headers: requestHeaders(config, body),
                ...(agent !== undefined ? { agent } : {}),
            },
            (answer) => {
                const chunks: Buffer[] = [];
                answer.on("data", (chunk: Buffer) => chunks.push(chunk));
                answer.on("error", (error) => finish(() => reject(AxiosError.from(error, undefined, config, request))));
                answer.on("aborted", () =>
                    finish(() => reject(new AxiosError("stream has been aborted", AxiosError.ERR_BAD_RESPONSE, config, request))),
                );
                answer.on("end", () =>
                    finish(() => {
                        let data: string;
                        try {
                            data = decoded(Buffer.concat(chunks), answer.headers["content-encoding"]).toString("utf8");
                        } catch (error) {
                            reject(AxiosError.from(error as Error, AxiosError.ERR_BAD_RESPONSE, config, request));
                            return;
                        }
                        const status = answer.statusCode ?? 0;
                        const response: AxiosResponse<string> = {
                            data,
                            status,
                            statusText: answer.statusMessage ?? "",
                            headers: new AxiosHeaders(answer.headers as Record<string, string>),
                            config,
                            request,
                        };
                        // axios' own `settle`: `validateStatus` decides, a refusal carries the answer.
                        const validate = config.validateStatus;
                        if (!status || !validate || validate(status)) {
                            resolve(response);
                        } else {
                            const code = status >= 400 && status < 500 ? AxiosError.ERR_BAD_REQUEST : AxiosError.ERR_BAD_RESPONSE;
                            reject(new AxiosError(`Request failed with status code ${status}`, code, config, request, response));
                        }
                    }),
                );
            },
        );
        request.on("error", (error) => finish(() => reject(AxiosError.from(error, undefined, config, request))));
        const timeout = Number(config.timeout ?? 0);
        if (timeout > 0) {
            const onTimeout = () =>
                finish(() => {
                    // Always ETIMEDOUT, as axios' own adapter says with `clarifyTimeoutError` (ECONNABORTED is also a cancel's).
                    reject(new AxiosError(config.timeoutErrorMessage ?? `timeout of ${timeout}ms exceeded`, AxiosError.ETIMEDOUT, config, request));
                    request.destroy();
                });
            // From the start of the attempt to the answer's last byte, whatever the socket does meanwhile.
            deadline = setTimeout(onTimeout, timeout);
        }
        request.end(body);
    });
}

/** The adapter's signature: one request of the client's axios instance. */
export type HttpAdapter = (config: InternalAxiosRequestConfig) => Promise<AxiosResponse<string>>;

/**
 * The proxy the environment names for requests to `address`, or `undefined` to connect directly. Decided
 * by `proxy-from-env`: `HTTPS_PROXY` (`https:` addresses) or `HTTP_PROXY` (`http:`), else `ALL_PROXY`, each
 * also in lower case (which wins), and none for a host that `NO_PROXY` lists (`host`, `.suffix` or
 * `*.suffix`, `host:port`, or `*` for all). Loopback addresses (`localhost`, `127.0.0.0/8`, `::1`) are never
 * proxied, as Go's `net/http` decides: a proxy elsewhere cannot reach this machine's local service.
 *
 * @throws TypeError when the variable holds something other than an `http://` or `https://` proxy URL; the
 * message names the variable and never shows its value (it may hold the proxy's password).
 */
export function environmentProxy(address: string): URL | undefined {
    const target = new URL(address);
    if (isLoopback(target.hostname)) return undefined;
    const proxy = getProxyForUrl(target.href);
    if (!proxy) return undefined;
    const variable = proxyVariable(target.protocol);
    let url: URL;
    try {
        url = new URL(proxy);
    } catch {
        throw new TypeError(`WosClient: the environment variable ${variable} is not a proxy URL such as http://proxy.example.com:3128`);
    }
    if (url.protocol !== "http:" && url.protocol !== "https:") {
        throw new TypeError(
            `WosClient: the environment variable ${variable} names a ${url.protocol.replace(/:$/, "")} proxy; only http:// and https:// proxies are supported`,
        );
    }
    return url;
}

/** Which variable `proxy-from-env` took the proxy of a `protocol` from, for messages: the upper-case name. */
function proxyVariable(protocol: string): string {
    const own = `${protocol.replace(/:$/, "")}_proxy`;
    return process.env[own] || process.env[own.toUpperCase()] ? own.toUpperCase() : "ALL_PROXY";
}

/** `localhost` or a loopback IP (`127.0.0.0/8`, `::1`, and `::ffff:127.x.x.x`); `hostname` as `URL` gives it. */
function isLoopback(hostname: string): boolean {
    const host = hostname.replace(/^\[|\]$/g, "").toLowerCase();
    if (host === "localhost" || host.endsWith(".localhost")) return true;
    if (isIP(host) === 4) return host.startsWith("127.");
    if (isIP(host) === 6) return host === "::1" || /^::ffff:127\./.test(host) || /^::ffff:7f[0-9a-f]{2}:/.test(host);
    return false;
}

/**
 * {@link nodeHttpAdapter} through `proxy` for requests to an address of `protocol`: the agent of
 * `http-proxy-agent` for `http:` (the proxy gets absolute-URI requests), of `https-proxy-agent` for `https:`
 * (a `CONNECT` tunnel; TLS to the service, checked against its name, inside it). Credentials in the proxy
 * URL (`http://user:password@proxy:3128`) are sent as `Proxy-Authorization: Basic`. One keep-alive agent
 * per client, made at the first request.
 */
export function proxiedAdapter(proxy: URL, protocol: string): HttpAdapter {
    const tunnel = protocol === "https:";
    let agent: http.Agent | undefined;
    // Async so that a failure to make the agent is a rejection, as every other failure of a request is.
    return async (config) => {
        agent ??= proxyAgent(proxy, tunnel);
        if (tunnel) config.httpsAgent = agent;
        else config.httpAgent = agent;
        return nodeHttpAdapter(config);
    };
}

/**
 * A keep-alive agent through `proxy`. The agents' packages are loaded here, on first use: a client without
 * a proxy never loads them. They are the CommonJS line (7.x, as npm's own agent uses): the later, ES-module
 * releases cannot be `require`d inside Jest or before Node 20.19, so a user's Jest test of a program using
 * this client behind a proxy failed to load them.
 */
function proxyAgent(proxy: URL, tunnel: boolean): http.Agent {
    if (tunnel) {
        const { HttpsProxyAgent } = require("https-proxy-agent") as typeof import("https-proxy-agent");
        return new HttpsProxyAgent(proxy, { keepAlive: true });
    }
    const { HttpProxyAgent } = require("http-proxy-agent") as typeof import("http-proxy-agent");
    return new HttpProxyAgent(proxy, { keepAlive: true });
}
