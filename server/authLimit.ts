/**
 * The limit on failed authentication (`--rate-limit`): a client address that has sent `limit` requests with
 * a missing, malformed or unknown token within the current second is answered 429 on every request that
 * needs a token, until the second ends, without its token being looked at.
 *
 * The per-token limiter cannot bound guessing: each guessed token is a key of its own, and authentication
 * runs before it. The check comes before the token is looked up so that a throttled client learns nothing
 * from its guesses: answering a valid token while refusing unknown ones would tell it which guess was right.
 * Other addresses are not affected.
 */
import type { Principal } from "./auth";
import { ERROR_CODES, HttpError } from "./errors";

/** The hosted service's rate-limit detail, the same as the per-token limiter's. */
const RATE_LIMIT_DETAIL = "You have exceeded the API's rate limit.";

/** Failed authentications counted per client address, in windows of one second. */
export class FailedAuthenticationLimit {
    /** Failures of each address in the current window; cleared when a new window starts, so it stays small. */
    private readonly failures = new Map<string, number>();
    private window = -1;

    /** @param limit failed authentications an address may have a second; 0 turns the limit off. */
    constructor(private readonly limit: number) {}

    /**
     * Runs `authenticate` for a request from `address`: 429 (with `X-RateLimit-Limit`, `X-RateLimit-Remaining`
     * and `X-RateLimit-Reset` in seconds) when the address has used up its failures this second; a failure
     * (the 401 `authenticate` throws) is counted and thrown on.
     */
    authenticate(address: string, authenticate: () => Principal): Principal {
        if (this.limit <= 0) return authenticate();
        const time = Date.now();
        const window = Math.floor(time / 1000);
        if (window !== this.window) {
            this.window = window;
            this.failures.clear();
        }
        const failed = this.failures.get(address) ?? 0;
        if (failed >= this.limit) {
            const reset = String(Math.ceil(((window + 1) * 1000 - time) / 1000));
            throw new HttpError(429, [{ status: "429", title: "too many requests", code: ERROR_CODES.rateLimited, detail: RATE_LIMIT_DETAIL }], {
                "x-ratelimit-limit": String(this.limit),
                "x-ratelimit-remaining": "0",
                "x-ratelimit-reset": reset,
                "retry-after": reset,
            });
        }
        try {
            return authenticate();
        } catch (error) {
            if (error instanceof HttpError && error.statusCode === 401) this.failures.set(address, failed + 1);
            throw error;
        }
    }
}
