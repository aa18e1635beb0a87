/**
 * The error classes of `sdk/errors.ts` as a program meets them in its logs and `catch` blocks: their names,
 * their own fields (and only those), their JSON, their messages when the service said little or nothing,
 * the class of each HTTP status, the two plan errors of `waitForPlan`, and the redaction helpers. The errors
 * a client throws for real answers of the local service are in `errors.test.ts` and `transportFailures.test.ts`.
 */
import { inspect } from "node:util";
import {
    describeErrorObjects,
    WosAuthenticationError,
    WosBadRequestError,
    WosConnectionError,
    WosError,
    WosNotFoundError,
    WosPlanFailedError,
    WosPlanTimeoutError,
    WosRateLimitError,
    WosServerError,
} from "../../sdk";
import { errorClassForStatus, redact, redactDeep } from "../../sdk/errors";

describe("a WosError as logs show it", () => {
    it("is named after its concrete class, in its name, its string and its stack", () => {
        const error = new WosNotFoundError({ method: "GET", path: "/projects/prj-1", status: 404 });
        expect(error.name).toBe("WosNotFoundError");
        expect(String(error)).toBe("WosNotFoundError: GET /projects/prj-1 failed with status 404");
        expect(String(error.stack)).toMatch(/^WosNotFoundError: GET \/projects\/prj-1 failed with status 404\n/);
        expect(new WosError({ method: "GET", path: "/x", status: 405 }).name).toBe("WosError");
    });

    it("has only its data as own enumerable fields: no name, no brand, no undefined optional field", () => {
        const connection = new WosConnectionError({ method: "GET", path: "/projects/prj-1", message: "GET /projects/prj-1 timed out" });
        expect(Object.keys(connection).sort()).toEqual(["errors", "kind", "method", "path"]);
        expect(inspect(connection)).not.toMatch(/undefined|Symbol\(|name:/);
        const answered = new WosNotFoundError({ method: "GET", path: "/projects/prj-1", status: 404, requestId: "req-1", code: "X" });
        expect(Object.keys(answered).sort()).toEqual(["code", "errors", "kind", "method", "path", "requestId", "status"]);
    });

    it("is not recognised once copied into a plain object (the brand does not travel with a spread)", () => {
        const error = new WosNotFoundError({ method: "GET", path: "/projects/prj-1", status: 404 });
        const copy = { ...error };
        expect(copy).toEqual({ kind: "not_found", status: 404, errors: [], method: "GET", path: "/projects/prj-1" });
        expect(WosError.isInstance(copy)).toBe(false);
        expect(WosNotFoundError.isInstance(copy)).toBe(false);
        expect(WosNotFoundError.isInstance(error)).toBe(true);
    });

    it("may be renamed by a program, as any Error's name may (the name is configurable)", () => {
        const error = new WosServerError({ method: "GET", path: "/x", status: 503 });
        Object.defineProperty(error, "name", { value: "UpstreamError" });
        expect(String(error)).toBe("UpstreamError: GET /x failed with status 503");
    });

    it("is not recognised in null, undefined or a primitive", () => {
        for (const value of [null, undefined, 0, "WosError", true]) {
            expect(WosError.isInstance(value)).toBe(false);
            expect(WosNotFoundError.isInstance(value)).toBe(false);
        }
    });
});

describe("toJSON", () => {
    it("gives every field of an answered failure, in order", () => {
        const errors = [{ status: "404", title: "not found" }];
        const error = new WosNotFoundError({ method: "GET", path: "/projects/prj-1", status: 404, requestId: "req-1", errors });
        expect(JSON.parse(JSON.stringify(error))).toEqual({
            name: "WosNotFoundError",
            kind: "not_found",
            message: "GET /projects/prj-1 failed with status 404: not found",
            status: 404,
            method: "GET",
            path: "/projects/prj-1",
            requestId: "req-1",
            errors,
        });
        expect(Object.keys(error.toJSON())).toEqual(["name", "kind", "message", "status", "method", "path", "requestId", "errors"]);
    });

    it("leaves out what a failure without an answer does not have, and shows no undefined when logged", () => {
        const error = new WosConnectionError({ method: "DELETE", path: "/projects/prj-1", code: "ECONNRESET" });
        const json = error.toJSON();
        expect(Object.keys(json)).toEqual(["name", "kind", "message", "method", "path", "code", "errors"]);
        expect(json).toEqual({
            name: "WosConnectionError",
            kind: "connection",
            message: "DELETE /projects/prj-1 failed",
            method: "DELETE",
            path: "/projects/prj-1",
            code: "ECONNRESET",
            errors: [],
        });
        expect(inspect(json)).not.toContain("undefined");
        const answered = new WosServerError({ method: "GET", path: "/x", status: 500 }).toJSON();
        expect(Object.keys(answered)).toEqual(["name", "kind", "message", "status", "method", "path", "errors"]);
    });
});

describe("messages built from the service's error objects", () => {
    it("say the method, the path and the status, with or without details", () => {
        expect(new WosError({ method: "GET", path: "/x", status: 418 }).message).toBe("GET /x failed with status 418");
        const withDetail = new WosError({ method: "GET", path: "/x", status: 418, errors: [{ status: "418", title: "I'm a teapot", detail: "short and stout" }] });
        expect(withDetail.message).toBe("GET /x failed with status 418: short and stout");
    });

    it("say only that the request failed when no answer arrived, with the details when there are some", () => {
        expect(new WosConnectionError({ method: "GET", path: "/x" }).message).toBe("GET /x failed");
        const withDetail = new WosConnectionError({ method: "GET", path: "/x", errors: [{ status: "503", title: "gone away" }] });
        expect(withDetail.message).toBe("GET /x failed: gone away");
    });

    it("describe each object by detail, title or status, prefixed by the pointer or the query parameter", () => {
        expect(
            describeErrorObjects([
                { status: "422", title: "invalid attribute", detail: "must be at least 3 characters", source: { pointer: "/data/attributes/name" } },
                { status: "400", title: "bad request", source: { parameter: "page[number]" } },
                // A service that sends neither a detail nor a title.
                { status: "418", title: "" },
            ]),
        ).toBe("/data/attributes/name: must be at least 3 characters; parameter page[number]: bad request; status 418");
        expect(describeErrorObjects([])).toBe("");
    });
});

describe("the class of each HTTP status", () => {
    it.each([
        [400, WosBadRequestError, "bad_request"],
        [401, WosAuthenticationError, "authentication"],
        [404, WosNotFoundError, "not_found"],
        [429, WosRateLimitError, "rate_limit"],
        [500, WosServerError, "server"],
        [503, WosServerError, "server"],
    ] as const)("%i is a %p", (status, ErrorClass, kind) => {
        const error = new (errorClassForStatus(status))({ method: "GET", path: "/x", status });
        expect(error).toBeInstanceOf(ErrorClass);
        expect(error.kind).toBe(kind);
    });

    it.each([402, 405, 410, 418, 499])("%i, which has no class of its own, is a plain WosError of kind api", (status) => {
        const error = new (errorClassForStatus(status))({ method: "GET", path: "/x", status });
        expect(error.constructor).toBe(WosError);
        expect(error.kind).toBe("api");
        expect(WosServerError.isInstance(error)).toBe(false);
    });
});

describe("the plan errors of waitForPlan", () => {
    const timeout = (waitedMs: number, planUrl = "http://127.0.0.1:8787/app/acme/ws/runs/run-1") =>
        new WosPlanTimeoutError({ waitedMs, lastStatus: "planning", planUrl, upgradeId: "run-1" });

    it("a failed plan names its class, says its status and page, and is recognised only as itself", () => {
        const error = new WosPlanFailedError({ status: "errored", planUrl: "http://wos/runs/run-1", upgradeId: "run-1" });
        expect(error.name).toBe("WosPlanFailedError");
        expect(error.message).toBe('upgrade run-1: the plan ended with status "errored", not a plan to confirm; see http://wos/runs/run-1');
        expect(Object.keys(error)).toEqual(["kind", "status", "planUrl", "upgradeId"]);
        expect(WosPlanFailedError.isInstance(error)).toBe(true);
        expect(WosPlanTimeoutError.isInstance(error)).toBe(false);
        expect(WosPlanFailedError.isInstance(timeout(10))).toBe(false);
        expect(WosError.isInstance(error)).toBe(false);
    });

    it("may be renamed by a program, as any Error's name may", () => {
        const failed = new WosPlanFailedError({ status: "errored", planUrl: "http://wos/runs/run-1", upgradeId: "run-1" });
        Object.defineProperty(failed, "name", { value: "UpgradeError" });
        expect(String(failed)).toMatch(/^UpgradeError: upgrade run-1: /);
        const timedOut = timeout(10);
        Object.defineProperty(timedOut, "name", { value: "UpgradeError" });
        expect(String(timedOut)).toMatch(/^UpgradeError: upgrade run-1: /);
    });

    it("says (no plan URL) when the service gave none", () => {
        const failed = new WosPlanFailedError({ status: "canceled", planUrl: "", upgradeId: "run-2" });
        expect(failed.message).toBe('upgrade run-2: the plan ended with status "canceled", not a plan to confirm; see (no plan URL)');
        expect(timeout(10, "").message).toBe('upgrade run-1: gave up waiting for the plan after 10 ms; last status "planning"; see (no plan URL)');
    });

    it("a timeout gives its fields in JSON and in its own keys, never its brand", () => {
        const error = timeout(12_345);
        expect(error.toJSON()).toEqual({
            name: "WosPlanTimeoutError",
            kind: "plan_timeout",
            message: 'upgrade run-1: gave up waiting for the plan after 12.3 s; last status "planning"; see http://127.0.0.1:8787/app/acme/ws/runs/run-1',
            waitedMs: 12_345,
            lastStatus: "planning",
            planUrl: "http://127.0.0.1:8787/app/acme/ws/runs/run-1",
            upgradeId: "run-1",
        });
        expect(Object.keys(error)).toEqual(["kind", "waitedMs", "lastStatus", "planUrl", "upgradeId"]);
        expect(inspect(error)).not.toContain("Symbol(");
        const copy = { ...error };
        expect(WosPlanTimeoutError.isInstance(copy)).toBe(false);
        expect(WosPlanTimeoutError.isInstance(error)).toBe(true);
    });

    it.each([
        [850, "850 ms"],
        [999, "999 ms"],
        [1000, "1.0 s"],
        [12_345, "12.3 s"],
        [59_000, "59.0 s"],
        [60_000, "1 min 0 s"],
        [125_000, "2 min 5 s"],
        [3_725_000, "62 min 5 s"],
    ])("a wait of %i ms reads %s", (waitedMs, text) => {
        expect(timeout(waitedMs).message).toContain(`after ${text};`);
    });

    it("are not recognised in null, undefined, a primitive or a look-alike", () => {
        for (const value of [null, undefined, 42, "plan_failed", { kind: "plan_failed" }, new Error("plan_failed")]) {
            expect(WosPlanFailedError.isInstance(value)).toBe(false);
            expect(WosPlanTimeoutError.isInstance(value)).toBe(false);
        }
    });
});

describe("redaction", () => {
    const token = "tok-redact-0123456789";

    it("replaces every occurrence of the secret, and leaves text alone without one", () => {
        expect(redact(`a ${token} b ${token}`, token)).toBe("a [REDACTED] b [REDACTED]");
        expect(redact(`a ${token}`, undefined)).toBe(`a ${token}`);
        expect(redact(`a ${token}`, "")).toBe(`a ${token}`);
    });

    it("reaches every string of a JSON-like value, keys included", () => {
        const value = { [token]: [token, { detail: `x ${token}` }, 3, null] };
        expect(redactDeep(value, token)).toEqual({ "[REDACTED]": ["[REDACTED]", { detail: "x [REDACTED]" }, 3, null] });
    });

    it("hands the value back as it is when there is no secret to remove", () => {
        const when = new Date(0);
        const value = { when, list: [when] };
        expect(redactDeep(value, undefined)).toBe(value);
        expect(redactDeep(value, "")).toBe(value);
        expect(redactDeep(value, undefined).when).toBeInstanceOf(Date);
    });
});
