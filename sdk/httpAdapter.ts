/**
 * The HTTP exchange under the client's axios instance: one request with Node's own `http.request` (or
 * `https.request`) over the default keep-alive agents, the answer read whole as text.
 *
 * axios' own Node adapter does much this client never uses (proxies from the environment, redirects,
 * streams, progress events, rate limits, compression negotiation) and cost about a third of a millisecond
 * of CPU a request on the development machine, more than the rest of the client and as much again as
 * `http.request` itself (issue 6, Scale: the SDK within 1.2x of plain keep-alive HTTP). This adapter keeps
 * everything around it as it was: axios' interceptors and so the retry policy (`sdk/retry.ts`), its
 * `AxiosError` shapes and codes, `validateStatus`, and the timeout semantics (counted from the start of the
 * attempt until the answer's headers, then as the socket's idle time; `ETIMEDOUT` with
 * `clarifyTimeoutError`). What the client never asks for is not supported: no proxy (the client sets
 * `proxy: false`), no redirect (`maxRedirects: 0`: a 3xx is an answer), no streams.
 *
 * @module
 */
import * as http from "node:http";
import * as https from "node:https";
import * as zlib from "node:zlib";
import { AxiosError, AxiosHeaders, type AxiosResponse, type InternalAxiosRequestConfig } from "axios";

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
        let headerTimer: NodeJS.Timeout | undefined;
        const finish = (outcome: () => void) => {
            if (settled) return;
            settled = true;
            if (headerTimer) clearTimeout(headerTimer);
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
                if (headerTimer) clearTimeout(headerTimer);
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
                    const code = config.transitional?.clarifyTimeoutError ? AxiosError.ETIMEDOUT : AxiosError.ECONNABORTED;
                    reject(new AxiosError(config.timeoutErrorMessage ?? `timeout of ${timeout}ms exceeded`, code, config, request));
                    request.destroy();
                });
            // From the start until the answer's headers (a socket's idle timer does not run while it connects)...
            headerTimer = setTimeout(onTimeout, timeout);
            // ...and as the idle time of the socket after that.
            request.setTimeout(timeout, onTimeout);
        }
        request.end(body);
    });
}
