/**
 * The pacing of requests to the service's rate limit: one {@link RequestPacer} per address and token in a
 * process ({@link pacerFor}), shared by every {@link WosClient} of that pair, so that every operation of a
 * program (the dynamic resources' handlers and the plugin's alike, each process with its own clients) waits
 * its turn on one limiter rather than each failing and retrying on its own.
 *
 * - **The limit is the service's**: the `X-RateLimit-Limit` header (requests a second, per token) of its
 *   answers. Until one answer has said it, one request goes alone and the others wait for its answer (so a
 *   program that starts 500 operations at once does not send 500 requests before it knows the limit); an
 *   answer without the header means no limit, and nothing is paced.
 * - **Evenly spaced**: `limit × 0.97` requests a second from a token bucket (the `limiter` package) that holds
 *   a little more than one token, `1 + 0.015 × limit`. A second of the service's counting window, wherever it
 *   starts, then sees at most what the bucket holds and what drips in during it, `1 + 0.985 × limit`: less
 *   than the limit plus one request, so at most the limit. 3% below the limit leaves room for the jitter of
 *   the network. The part of a token beyond one keeps the pace when a timer fires late: a bucket of exactly
 *   one token cannot hold the time its wait overran, and loses it at every request (the fleet benchmark
 *   measured 0.89 of the limit with one).
 * - **A 429 stops everyone**: another process on the same token can still exhaust the window; then every
 *   request of the pair waits for `X-RateLimit-Reset` (or `Retry-After`), not only the one refused. Retrying
 *   the refused request stays the retry policy's (`sdk/retry.ts`).
 *
 * @module
 */
import { createHash } from "node:crypto";
import { setTimeout as sleep } from "node:timers/promises";
import { TokenBucket } from "limiter";
import { headerValue, retryDelay } from "./retry";

/** How far below the service's limit the pace stays: 3%, room for the network's jitter. */
const PACE_OF_LIMIT = 0.97;

/** The longest pause after a 429, whatever its headers say. */
const MAX_PAUSE_MS = 60_000;

/** What paces the requests of one address and token. */
export interface RequestPacer {
    /** Waits until a request may be sent now. */
    acquire(): Promise<void>;
    /** Learns from an answer: its status (none for a connection failure) and its headers. */
    observe(status: number | undefined, headers: Record<string, unknown> | undefined): void;
    /** The limit learnt (requests a second); 0 for none, `undefined` before the first answer. */
    readonly limit: number | undefined;
}

class ServicePacer implements RequestPacer {
    #limit: number | undefined;
    #bucket: TokenBucket | undefined;
    /** Until when (epoch ms) every request waits, after a 429. */
    #pausedUntil = 0;
    /** While the limit is unknown, the answer the first request is waiting for. */
    #probe: { answered: Promise<void>; resolve: () => void } | undefined;

    get limit(): number | undefined {
        return this.#limit;
    }

    async acquire(): Promise<void> {
        // One request alone while the limit is unknown; the others wait for its answer, then go paced.
        while (this.#limit === undefined && this.#probe) await this.#probe.answered;
        if (this.#limit === undefined) {
            let resolve!: () => void;
            const answered = new Promise<void>((done) => (resolve = done));
            this.#probe = { answered, resolve };
            return;
        }
        for (let wait = this.#pausedUntil - Date.now(); wait > 0; wait = this.#pausedUntil - Date.now()) await sleep(wait);
        if (this.#bucket) await this.#bucket.removeTokens(1);
    }

    observe(status: number | undefined, headers: Record<string, unknown> | undefined): void {
        if (status !== undefined) {
            const text = headerValue(headers, "x-ratelimit-limit");
            const limit = text !== undefined && /^\d+$/.test(text) ? Number(text) : 0;
            if (limit !== this.#limit) {
                this.#limit = limit;
                // Empty at first: the request just answered was sent, and took its turn.
                this.#bucket =
                    limit > 0
                        ? new TokenBucket({ bucketSize: 1 + ((1 - PACE_OF_LIMIT) / 2) * limit, tokensPerInterval: limit * PACE_OF_LIMIT, interval: 1000 })
                        : undefined;
            }
        }
        if (status === 429) {
            // The wait the retry policy reads from the same headers; a second when they say none.
            const { delayMs, source } = retryDelay(1, headers, MAX_PAUSE_MS);
            this.#pausedUntil = Math.max(this.#pausedUntil, Date.now() + (source === "backoff" ? 1000 : delayMs));
        }
        // The request that was alone has its answer (or failed without one, and the next goes alone).
        const probe = this.#probe;
        this.#probe = undefined;
        probe?.resolve();
    }
}

/** The pacer of each address and token (the token hashed: the map must not hold tokens). */
const PACERS = new Map<string, RequestPacer>();

/** The one pacer of `baseUrl` and `token` in this process. */
export function pacerFor(baseUrl: string, token: string): RequestPacer {
    const key = `${baseUrl}\u0000${createHash("sha256").update(token).digest("hex")}`;
    let pacer = PACERS.get(key);
    if (!pacer) {
        pacer = new ServicePacer();
        PACERS.set(key, pacer);
    }
    return pacer;
}
