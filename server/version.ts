/** The version of wos-server: that of the package this file was built in. */
import { existsSync, readFileSync } from "node:fs";
import { dirname, join } from "node:path";

/**
 * The version in the nearest `package.json` above this file: `server/package.json` from the sources and from
 * the package's build (`server/dist/server/`), the root's from the repository's build (`dist/server/`), whose
 * version is the same (one version source: the root's, which `npm run release` checks). `unknown` without one.
 */
export function serverVersion(): string {
    for (let dir = __dirname; ; dir = dirname(dir)) {
        const file = join(dir, "package.json");
        if (existsSync(file)) {
            try {
                return (JSON.parse(readFileSync(file, "utf8")) as { version: string }).version;
            } catch {
                return "unknown";
            }
        }
        if (dirname(dir) === dir) return "unknown";
    }
}
