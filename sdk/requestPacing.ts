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
 * - **Evenly spaced**: one request every `1000 / (limit × 0.97)` ms, a token bucket of one token (the
 *   `limiter` package), so that no second of the service's counting window ever sees more than the limit,
 *   wherever its window starts; 3% below the limit leaves room for the jitter of the network.
 * - **A 429 stops everyone**: another process on the same token can still exhaust the window; then every
 *   request of the pair waits for `X-RateLimit-Reset` (or `Retry-After`), not only the one refused. Retrying
 *   the refused request stays the retry policy's (`sdk/retry.ts`).
 *
 * @module
 */
import { createHash } from "node:crypto";
import { setTimeout as sleep } from "node:timers/promises";
import { RateLimiter } from "limiter";
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
    #limiter: RateLimiter | undefined;
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
        if (this.#limiter) await this.#limiter.removeTokens(1);
    }

    observe(status: number | undefined, headers: Record<string, unknown> | undefined): void {
        if (status !== undefined) {
            const text = headerValue(headers, "x-ratelimit-limit");
            const limit = text !== undefined && /^\d+$/.test(text) ? Number(text) : 0;
            if (limit !== this.#limit) {
                this.#limit = limit;
                this.#limiter = limit > 0 ? new RateLimiter({ tokensPerInterval: 1, interval: 1000 / (limit * PACE_OF_LIMIT) }) : undefined;
                // The request just answered was sent: its turn is taken.
                this.#limiter?.tryRemoveTokens(1);
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
