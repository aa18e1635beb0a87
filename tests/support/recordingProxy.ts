/**
 * A recording proxy in front of a service: each request it forwards is recorded with its method, path and
 * `Authorization` header, so a test can tell which credentials reached the service through it (the explicit
 * providers' tests put one in front of the service for each provider, and assert that each saw only its own
 * provider's token).
 */
import * as http from "node:http";
import type { AddressInfo } from "node:net";

/** One forwarded request. */
export interface RecordedRequest {
    method: string;
    /** The path with its query string. */
    path: string;
    authorization: string | undefined;
}

/** A proxy to one target, listening on 127.0.0.1. */
export interface Recorder {
    /** `http://127.0.0.1:PORT`: give this address instead of the target's. */
    url: string;
    /** Every request forwarded so far, in the order they arrived. */
    requests: RecordedRequest[];
    close(): Promise<void>;
}

/** Starts a proxy to `target` (`http://host:port`) that records each request and forwards it as it came. */
export async function startRecorder(target: string): Promise<Recorder> {
    const requests: RecordedRequest[] = [];
    const server = http.createServer((request, response) => {
        requests.push({ method: request.method!, path: request.url!, authorization: request.headers.authorization });
        const upstream = http.request(new URL(request.url!, target), { method: request.method, headers: request.headers }, (answer) => {
            response.writeHead(answer.statusCode!, answer.headers);
            answer.pipe(response);
        });
        upstream.on("error", () => response.destroy());
        request.pipe(upstream);
    });
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    return {
        url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
        requests,
        close: () =>
            new Promise<void>((resolve) => {
                // Keep-alive connections of a client still running (a plugin process) would hold the close open.
                server.closeAllConnections();
                server.close(() => resolve());
            }),
    };
}
