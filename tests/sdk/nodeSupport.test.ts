/**
 * The judgement behind every refusal and warning on an older Node.js (`sdk/nodeSupport.ts`), in process:
 * which versions are refused (the boundary is engines' `>=22`), the one line said, the error's code and
 * brand, and the warning's once per process. `tests/package/olderNode.test.ts` runs the packed packages on
 * a real older Node.js.
 */
import {
    refuseUnsupportedNode,
    UNSUPPORTED_NODE_CODE,
    UnsupportedNodeError,
    unsupportedNodeMessage,
    warnOnceOnUnsupportedNode,
} from "../../sdk/nodeSupport";

const HINT = "Install Node.js 22, 24 or 26 (https://nodejs.org/en/download, or `nvm install 24`).";

describe("unsupportedNodeMessage", () => {
    test.each(["21.99.99", "20.20.2", "18.0.0", "v20.20.2", "0.12.18"])("refuses Node.js %s in one line naming it, 22 and what to install", (version) => {
        const shown = version.replace(/^v/, "");
        expect(unsupportedNodeMessage("wos-server", version)).toBe(`wos-server needs Node.js 22 or later; this is Node.js ${shown}. ${HINT}`);
    });

    test.each(["22.0.0", "22.23.3", "23.1.0", "24.21.0", "26.12.1", "100.0.0"])("accepts Node.js %s", (version) => {
        expect(unsupportedNodeMessage("wos-server", version)).toBeUndefined();
    });

    test("accepts a version it cannot read rather than stop a runtime that reports another form", () => {
        for (const version of ["", "nightly", "x.1.2", "20"]) expect(unsupportedNodeMessage("wos-server", version)).toBeUndefined();
    });

    test("judges the running Node.js when given no version (the suite runs on one of 22 or later)", () => {
        expect(unsupportedNodeMessage("wos-server")).toBeUndefined();
        expect(() => refuseUnsupportedNode("wos-server")).not.toThrow();
    });
});

describe("on an unsupported Node.js", () => {
    const realVersions = process.versions;

    function runningNode(version: string): void {
        Object.defineProperty(process, "versions", { value: { ...realVersions, node: version }, configurable: true });
    }

    afterEach(() => {
        Object.defineProperty(process, "versions", { value: realVersions, configurable: true });
        delete (globalThis as unknown as Record<symbol, unknown>)[Symbol.for("pulumi-wos.unsupportedNodeWarned")];
    });

    test("refuseUnsupportedNode throws an UnsupportedNodeError of code WOS_UNSUPPORTED_NODE with the line and the version", () => {
        runningNode("20.20.2");
        let caught: unknown;
        try {
            refuseUnsupportedNode("startLocalService");
        } catch (error) {
            caught = error;
        }
        expect(caught).toBeInstanceOf(UnsupportedNodeError);
        expect(caught).toBeInstanceOf(Error);
        const error = caught as UnsupportedNodeError;
        expect(error.name).toBe("UnsupportedNodeError");
        expect(error.code).toBe("WOS_UNSUPPORTED_NODE");
        expect(UNSUPPORTED_NODE_CODE).toBe("WOS_UNSUPPORTED_NODE");
        expect(error.nodeVersion).toBe("20.20.2");
        expect(error.message).toBe(`startLocalService needs Node.js 22 or later; this is Node.js 20.20.2. ${HINT}`);
        // What a caller decides on survives a copy through JSON (a child process's report) and a second copy of the module.
        expect(JSON.parse(JSON.stringify(error))).toEqual({ code: "WOS_UNSUPPORTED_NODE", nodeVersion: "20.20.2" });
        expect(UnsupportedNodeError.isInstance(error)).toBe(true);
    });

    test("isInstance knows the error of another copy of the module, and nothing else", () => {
        runningNode("18.20.0");
        let other: unknown;
        jest.isolateModules(() => {
            const copy = require("../../sdk/nodeSupport") as typeof import("../../sdk/nodeSupport");
            try {
                copy.refuseUnsupportedNode("wos-server");
            } catch (error) {
                other = error;
            }
            expect(copy.UnsupportedNodeError).not.toBe(UnsupportedNodeError);
        });
        expect(other).not.toBeInstanceOf(UnsupportedNodeError);
        expect(UnsupportedNodeError.isInstance(other)).toBe(true);
        const lookalike = Object.assign(new Error("x"), { code: "WOS_UNSUPPORTED_NODE" });
        for (const value of [lookalike, new Error("x"), null, undefined, "WOS_UNSUPPORTED_NODE", {}]) {
            expect(UnsupportedNodeError.isInstance(value)).toBe(false);
        }
    });

    test("the warning is said once per process, through the given function, with what happens next", () => {
        runningNode("20.20.2");
        const said: string[] = [];
        warnOnceOnUnsupportedNode((line) => said.push(line));
        warnOnceOnUnsupportedNode((line) => said.push(line));
        warnOnceOnUnsupportedNode();
        expect(said).toEqual([`pulumi-wos needs Node.js 22 or later; this is Node.js 20.20.2. ${HINT} It keeps running meanwhile, untested on this version.`]);
    });

    test("without a function the warning is a process warning of code WOS_UNSUPPORTED_NODE", () => {
        runningNode("21.7.3");
        const emitted = jest.spyOn(process, "emitWarning").mockImplementation(() => undefined);
        try {
            warnOnceOnUnsupportedNode();
            warnOnceOnUnsupportedNode();
            expect(emitted.mock.calls).toEqual([
                [`pulumi-wos needs Node.js 22 or later; this is Node.js 21.7.3. ${HINT} It keeps running meanwhile, untested on this version.`, { code: "WOS_UNSUPPORTED_NODE" }],
            ]);
        } finally {
            emitted.mockRestore();
        }
    });

    test("on a supported Node.js nothing is said, and a later unsupported one is still warned of", () => {
        runningNode("22.0.0");
        const said: string[] = [];
        warnOnceOnUnsupportedNode((line) => said.push(line));
        expect(said).toEqual([]);
        runningNode("21.0.0");
        warnOnceOnUnsupportedNode((line) => said.push(line));
        expect(said).toHaveLength(1);
    });
});
