/**
 * The edges of the retry policy's pure rules that `retryPolicy.test.ts` leaves open (issue 8: found by
 * mutation testing): every method the policy names, repeatable POST paths matched from their start only,
 * every connection failure code it retries, an attempt without a method, and header values that are not
 * plain numbers.
 */
import { mayRepeat, retryDelay } from "../../sdk";
import { retryReason } from "../../sdk/retry";

describe("mayRepeat", () => {
    it("repeats HEAD, which reads", () => {
        expect(mayRepeat("HEAD", "/projects/prj-1")).toBe(true);
        expect(mayRepeat("head", "/projects/prj-1")).toBe(true);
    });

    it.each(["PUT", "OPTIONS", "CONNECT", ""])("never repeats a %j request, which the policy does not name", (method) => {
        expect(mayRepeat(method, "/projects/prj-1/relationships/workspaces")).toBe(false);
    });

    it.each([
        "/organizations/acme/projects/prj-1/relationships/workspaces",
        "/v1/projects/prj-1/relationships/workspaces",
        "/organizations/acme/no-code-modules/nocode-1/workspaces/ws-1/upgrade/run-1",
    ])("matches a repeatable POST path from its start only: never repeats the POST %s", (path) => {
        expect(mayRepeat("POST", path)).toBe(false);
    });
});

describe("retryReason", () => {
    it.each(["ECONNRESET", "ECONNREFUSED", "ETIMEDOUT", "ECONNABORTED", "EPIPE", "ENOTFOUND", "EAI_AGAIN", "EHOSTUNREACH", "ENETUNREACH", "ERR_SOCKET_CONNECTION_TIMEOUT"])(
        "retries a GET whose connection failed with %s, never a create",
        (code) => {
            expect(retryReason({ config: { method: "get", url: "/projects/prj-1" } as never, response: undefined, code })).toBe("connection_failed");
            expect(retryReason({ config: { method: "post", url: "/vars" } as never, response: undefined, code })).toBeUndefined();
        },
    );

    it.each(["ERR_BAD_RESPONSE", "ERR_NETWORK", "ECONNRESETX", ""])("never retries a failure with the code %j", (code) => {
        expect(retryReason({ config: { method: "get", url: "/projects/prj-1" } as never, response: undefined, code })).toBeUndefined();
    });

    it("takes an attempt without a method for a GET (axios' default)", () => {
        expect(retryReason({ config: { url: "/projects/prj-1" } as never, response: { status: 503 } as never })).toBe("server_error");
        expect(retryReason({ config: {} as never, response: undefined, code: "ECONNRESET" })).toBe("connection_failed");
    });
});

describe("retryDelay: header values", () => {
    it("reads a value with blanks around it", () => {
        expect(retryDelay(1, { "retry-after": " 3 " }, 30_000)).toEqual({ delayMs: 3000, source: "retry-after" });
        expect(retryDelay(1, { "x-ratelimit-reset": "\t0.5 " }, 30_000)).toEqual({ delayMs: 500, source: "x-ratelimit-reset" });
    });

    it.each([["10 seconds"], ["3s"], ["5abc"], ["1e3"], ["0x10"]])("takes %j, which only starts with a number, for neither seconds nor a date: backoff", (value) => {
        const delay = retryDelay(1, { "retry-after": value, "x-ratelimit-reset": value }, 30_000, () => 0);
        expect(delay).toEqual({ delayMs: 125, source: "backoff" });
    });

    it("reads the first of a header given twice", () => {
        expect(retryDelay(1, { "retry-after": ["4", "9"] }, 30_000)).toEqual({ delayMs: 4000, source: "retry-after" });
    });

    it("ignores an empty header and one without a value", () => {
        expect(retryDelay(1, { "retry-after": "", "x-ratelimit-reset": undefined }, 30_000, () => 0)).toEqual({ delayMs: 125, source: "backoff" });
        expect(retryDelay(1, { "retry-after": null, "x-ratelimit-reset": "1" }, 30_000)).toEqual({ delayMs: 1000, source: "x-ratelimit-reset" });
    });
});
