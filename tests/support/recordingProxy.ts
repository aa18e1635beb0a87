/**
 * A recording proxy in front of a service: each request it forwards is recorded with its method, path and
 * `Authorization` header, so a test can tell which credentials reached the service through it (the explicit
 * providers' tests put one in front of the service for each provider, and assert that each saw only its own
 * provider's token), and with when it arrived and when its answer ended, on one counter of events, so a test
 * can tell which request started only after which other one was answered (a rollout's waves).
 */
import * as http from "node:http";
import type { AddressInfo } from "node:net";

/** One forwarded request. */
export interface RecordedRequest {
    method: string;
    /** The path with its query string. */
    path: string;
    authorization: string | undefined;
    /** Its arrival's place among the proxy's events (arrivals and answers' ends), from 1. */
    arrivedAt: number;
    /** Its answer's end's place among the same events; absent while it is not answered. */
    answeredAt?: number;
    /** The status the service answered; absent while it is not answered. */
    status?: number;
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
    let events = 0;
    const server = http.createServer((request, response) => {
        const recorded: RecordedRequest = { method: request.method!, path: request.url!, authorization: request.headers.authorization, arrivedAt: ++events };
        requests.push(recorded);
        const upstream = http.request(new URL(request.url!, target), { method: request.method, headers: request.headers }, (answer) => {
            response.writeHead(answer.statusCode!, answer.headers);
            answer.pipe(response);
            answer.on("end", () => {
                recorded.status = answer.statusCode;
                recorded.answeredAt = ++events;
            });
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
