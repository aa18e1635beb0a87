/**
 * The retry policy and request-building rules as pure functions: which requests may be repeated, how long
 * to wait, how the address and query string are built. The behaviour over the wire is proven against the
 * real service in `retries.test.ts`.
 */
import { mayRepeat, retryDelay, WosClient } from "../../sdk";
import { retryReason } from "../../sdk/retry";
import { normalizeAddress, queryString } from "../../sdk/transport";

describe("mayRepeat: which requests may be sent again after a 5xx or a connection failure", () => {
    it.each(["GET", "PATCH", "DELETE", "get", "patch"])("repeats %s", (method) => {
        expect(mayRepeat(method, "/projects/prj-1")).toBe(true);
    });

    it("repeats the move-workspaces POST, which is idempotent", () => {
        expect(mayRepeat("POST", "/projects/prj-abc/relationships/workspaces")).toBe(true);
    });

    it.each(["/organizations/acme/projects", "/vars", "/projects/prj-1/relationships/workspaces/extra"])(
        "never repeats the POST %s, which creates",
        (path) => {
            expect(mayRepeat("POST", path)).toBe(false);
        },
    );

    it("repeats the confirm of an upgrade, which applies one run at most once (a second confirm is a 409)", () => {
        expect(mayRepeat("POST", "/no-code-modules/nocode-1/workspaces/ws-1/upgrade/run-1")).toBe(true);
    });

    it.each([
        "/organizations/acme/no-code-modules",
        "/no-code-modules/nocode-1/workspaces",
        "/no-code-modules/nocode-1/workspaces/ws-1/upgrade",
        "/no-code-modules/nocode-1/workspaces/ws-1/upgrade/run-1/extra",
    ])("never repeats the no-code POST %s, which creates", (path) => {
        expect(mayRepeat("POST", path)).toBe(false);
    });

    it("ignores the query string when matching paths", () => {
        expect(mayRepeat("POST", "/projects/prj-1/relationships/workspaces?x=1")).toBe(true);
    });
});

describe("retryReason: the whole decision for one failed attempt", () => {
    const failure = (method: string, url: string, status?: number, code?: string) => ({
        config: { method, url } as never,
        response: status === undefined ? undefined : ({ status } as never),
        code,
    });

    it("retries a 429 even on a POST create, because the service did nothing", () => {
        expect(retryReason(failure("post", "/organizations/acme/projects", 429))).toBe("rate_limited");
    });

    it("retries a 503 on GET but not on POST create", () => {
        expect(retryReason(failure("get", "/projects/prj-1", 503))).toBe("server_error");
        expect(retryReason(failure("post", "/organizations/acme/projects", 503))).toBeUndefined();
    });

    it("retries a 503 and a reset of an upgrade confirm, but not of the initiate", () => {
        expect(retryReason(failure("post", "/no-code-modules/nocode-1/workspaces/ws-1/upgrade/run-1", 503))).toBe("server_error");
        expect(retryReason(failure("post", "/no-code-modules/nocode-1/workspaces/ws-1/upgrade/run-1", undefined, "ECONNRESET"))).toBe("connection_failed");
        expect(retryReason(failure("post", "/no-code-modules/nocode-1/workspaces/ws-1/upgrade", 503))).toBeUndefined();
        expect(retryReason(failure("post", "/no-code-modules/nocode-1/workspaces/ws-1/upgrade", 429))).toBe("rate_limited");
    });

    it("retries a reset, a refused connection and a timeout on PATCH but not on POST /vars", () => {
        for (const code of ["ECONNRESET", "ECONNREFUSED", "ETIMEDOUT"]) {
            expect(retryReason(failure("patch", "/vars/var-1", undefined, code))).toBe("connection_failed");
            expect(retryReason(failure("post", "/vars", undefined, code))).toBeUndefined();
        }
    });

    it.each([400, 401, 403, 404, 409, 422])("never retries a %i", (status) => {
        expect(retryReason(failure("get", "/projects/prj-1", status))).toBeUndefined();
    });

    it("never retries a cancelled request", () => {
        expect(retryReason(failure("get", "/projects/prj-1", undefined, "ERR_CANCELED"))).toBeUndefined();
    });
});

describe("retryDelay: how long to wait before a repeat", () => {
    it("waits Retry-After seconds first", () => {
        expect(retryDelay(1, { "retry-after": "2", "x-ratelimit-reset": "0.5" }, 30_000)).toEqual({
            delayMs: 2000,
            source: "retry-after",
        });
    });

    it("accepts Retry-After as an HTTP date", () => {
        const now = Date.parse("Sat, 21 Nov 2026 06:00:00 GMT");
        const delay = retryDelay(1, { "Retry-After": "Sat, 21 Nov 2026 06:00:05 GMT" }, 30_000, Math.random, () => now);
        expect(delay).toEqual({ delayMs: 5000, source: "retry-after" });
        expect(retryDelay(1, { "Retry-After": "Sat, 21 Nov 2026 05:59:00 GMT" }, 30_000, Math.random, () => now).delayMs).toBe(0);
    });

    it("falls back to fractional X-RateLimit-Reset seconds", () => {
        expect(retryDelay(1, { "x-ratelimit-reset": "0.25" }, 30_000)).toEqual({ delayMs: 250, source: "x-ratelimit-reset" });
    });

    it("caps any wait at maxRetryDelayMs", () => {
        expect(retryDelay(1, { "retry-after": "120" }, 1500)).toEqual({ delayMs: 1500, source: "retry-after" });
        expect(retryDelay(10, {}, 1500).delayMs).toBe(1500);
    });

    it("backs off exponentially with jitter when no header says how long", () => {
        const low = () => 0;
        const high = () => 0.999999;
        expect(retryDelay(1, undefined, 30_000, low)).toEqual({ delayMs: 125, source: "backoff" });
        expect(retryDelay(1, undefined, 30_000, high).delayMs).toBe(250);
        expect(retryDelay(3, undefined, 30_000, low).delayMs).toBe(500);
        expect(retryDelay(3, undefined, 30_000, high).delayMs).toBe(1000);
    });

    it("ignores a header that is not a number or a date", () => {
        expect(retryDelay(1, { "retry-after": "soon", "x-ratelimit-reset": "-1" }, 30_000, () => 0).source).toBe("backoff");
    });
});

describe("request building", () => {
    it.each([
        ["http://127.0.0.1:8787", "http://127.0.0.1:8787/api/v2"],
        ["http://127.0.0.1:8787/", "http://127.0.0.1:8787/api/v2"],
        ["http://127.0.0.1:8787/api/v2", "http://127.0.0.1:8787/api/v2"],
        ["http://127.0.0.1:8787/api/v2/", "http://127.0.0.1:8787/api/v2"],
        ["https://wos.example.com/prefix/", "https://wos.example.com/prefix/api/v2"],
    ])("normalizes the address %s to %s", (address, expected) => {
        expect(normalizeAddress(address)).toBe(expected);
        expect(new WosClient({ address, token: "t" }).baseUrl).toBe(expected);
    });

    it("refuses an address with credentials in it, and a client without a token", () => {
        expect(() => normalizeAddress("http://user:pw@127.0.0.1:8787")).toThrow(/credentials/);
        expect(() => normalizeAddress("ftp://127.0.0.1")).toThrow(/http/);
        expect(() => new WosClient({ token: "" })).toThrow(/token/);
    });

    it.each([
        ["maxRetries", -1],
        ["maxRetries", 1.5],
        ["maxRetryDelayMs", Number.NaN],
        ["timeoutMs", 0],
    ])("refuses options.%s = %p when the client is built, not at the first request", (name, value) => {
        expect(() => new WosClient({ token: "t", [name]: value })).toThrow(new RegExp(`options\\.${name} must be a whole number`));
    });

    it("percent-encodes bracketed parameter names, commas and spaces, and leaves out undefined values", () => {
        expect(queryString({ "filter[names]": ["Default Project", "Apps"], "page[number]": 2, q: undefined })).toBe(
            "?filter%5Bnames%5D=Default%20Project%2CApps&page%5Bnumber%5D=2",
        );
        expect(queryString({})).toBe("");
    });

    it("keeps the token out of the client's enumerable properties and its inspection", () => {
        const client = new WosClient({ token: "very-secret-token-value" });
        expect(JSON.stringify(client)).not.toContain("very-secret-token-value");
        expect(require("node:util").inspect(client, { depth: 10 })).not.toContain("very-secret-token-value");
    });
});
