/**
 * Which Node.js the packages support, and the one line that says so to a user on an older one.
 *
 * npm does not enforce `engines`: on Node.js 20 both packages install with only an `EBADENGINE` warning. The
 * local service's SQLite binding (better-sqlite3 13, built for Node.js 22 and later) then crashes the whole
 * process with a segmentation fault as soon as a database is opened, with no word of why. So every entry
 * point that opens a database refuses an older Node.js first ({@link refuseUnsupportedNode}), and
 * `pulumi-wos`, which has no native binding and keeps working, warns once ({@link warnOnceOnUnsupportedNode}).
 *
 * This file is compiled into both packages (`@pulumi-wos/server` takes it beside the schemas of
 * `sdk/model`), and the command `wos-server` loads it before anything else: it imports nothing and uses no
 * syntax newer than the oldest Node.js it may be asked to refuse can parse (no `??`, no `?.`, no class
 * fields), so that the refusal itself never fails to load.
 *
 * @module
 */

/**
 * The oldest major version of Node.js the packages run on: `engines` of both `package.json` files says
 * `>=22`, and `tests/package/metadata.test.ts` checks that they agree with this.
 */
export const MINIMUM_NODE_MAJOR = 22;

/** The major versions of Node.js the test matrix runs (`docs/node.md`): what a refusal tells a user to install. */
export const TESTED_NODE_MAJORS: readonly number[] = [22, 24, 26];

/** The `code` of an {@link UnsupportedNodeError}, stable: what a test or a caller decides on. */
export const UNSUPPORTED_NODE_CODE = "WOS_UNSUPPORTED_NODE";

/** What to do, the end of every refusal: the versions to install, and where from. */
export const NODE_INSTALL_ADVICE =
    "Install Node.js " + TESTED_NODE_MAJORS.slice(0, -1).join(", ") + " or " + TESTED_NODE_MAJORS[TESTED_NODE_MAJORS.length - 1] +
    " (https://nodejs.org/en/download, or `nvm install 24`).";

/**
 * The line that says `program` needs a newer Node.js than `version`, or `undefined` when `version` is
 * supported. A version that cannot be read as `MAJOR.MINOR.PATCH` counts as supported: a refusal must never
 * stop a runtime that reports its version in another form.
 *
 * @param program what needs the newer Node.js, as the user knows it (`wos-server`, `startLocalService`).
 * @param version the Node.js version to judge; default the running one (`process.versions.node`).
 */
export function unsupportedNodeMessage(program: string, version?: string): string | undefined {
    const running = version === undefined ? process.versions.node : version;
    const major = /^v?(\d+)\./.exec(running);
    if (major === null || Number(major[1]) >= MINIMUM_NODE_MAJOR) return undefined;
    return program + " needs Node.js " + MINIMUM_NODE_MAJOR + " or later; this is Node.js " + running.replace(/^v/, "") + ". " + NODE_INSTALL_ADVICE;
}

/** Marks an {@link UnsupportedNodeError} across two copies of this module (a program may load both packages). */
const BRAND = Symbol.for("pulumi-wos.UnsupportedNodeError");

/**
 * A refusal to run on an unsupported Node.js. `code` is {@link UNSUPPORTED_NODE_CODE}; the message is one
 * line: what refused, the Node.js running, the oldest supported and the versions to install.
 */
export class UnsupportedNodeError extends Error {
    /** Always {@link UNSUPPORTED_NODE_CODE}. */
    declare readonly code: typeof UNSUPPORTED_NODE_CODE;
    /** The Node.js version that was refused. */
    declare readonly nodeVersion: string;

    constructor(message: string, nodeVersion: string) {
        super(message);
        Object.defineProperty(this, "name", { value: "UnsupportedNodeError", enumerable: false, configurable: true });
        Object.defineProperty(this, "code", { value: UNSUPPORTED_NODE_CODE, enumerable: true });
        Object.defineProperty(this, "nodeVersion", { value: nodeVersion, enumerable: true });
        Object.defineProperty(this, BRAND, { value: true });
    }

    /** Whether `error` is an {@link UnsupportedNodeError}, of this copy of the module or of another. */
    static isInstance(error: unknown): error is UnsupportedNodeError {
        return typeof error === "object" && error !== null && (error as Record<symbol, unknown>)[BRAND] === true;
    }
}

/**
 * Throws an {@link UnsupportedNodeError} when the running Node.js is older than {@link MINIMUM_NODE_MAJOR};
 * returns when it is supported. Call it before anything loads the SQLite binding.
 *
 * @param program as for {@link unsupportedNodeMessage}.
 */
export function refuseUnsupportedNode(program: string): void {
    const message = unsupportedNodeMessage(program);
    if (message !== undefined) throw new UnsupportedNodeError(message, process.versions.node);
}

/**
 * The first thing a command does (`wos-server`, the plugin's bundle): on a Node.js older than
 * {@link MINIMUM_NODE_MAJOR}, the line of {@link unsupportedNodeMessage} on stderr and exit status 1, with no
 * stack trace (the user's problem is the Node.js, not the code).
 */
export function exitOnUnsupportedNode(program: string): void {
    const refusal = unsupportedNodeMessage(program);
    if (refusal === undefined) return;
    process.stderr.write(refusal + "\n");
    process.exit(1);
}

/** Set on `globalThis` once the warning is out: one per process, whichever copy and entry point said it. */
const WARNED = Symbol.for("pulumi-wos.unsupportedNodeWarned");

/**
 * Hands `warn` the line of {@link unsupportedNodeMessage} for `pulumi-wos` (with what happens next) when the
 * running Node.js is older than {@link MINIMUM_NODE_MAJOR}, once per process; does nothing otherwise.
 * Default `warn`: a process warning of code {@link UNSUPPORTED_NODE_CODE} (`process.emitWarning`, which a
 * program may silence with `--no-warnings`).
 */
export function warnOnceOnUnsupportedNode(warn?: (message: string) => void): void {
    const registry = globalThis as unknown as Record<symbol, boolean | undefined>;
    if (registry[WARNED]) return;
    const message = unsupportedNodeMessage("pulumi-wos");
    if (message === undefined) return;
    registry[WARNED] = true;
    const line = message + " It keeps running meanwhile, untested on this version.";
    if (warn === undefined) process.emitWarning(line, { code: UNSUPPORTED_NODE_CODE });
    else warn(line);
}
