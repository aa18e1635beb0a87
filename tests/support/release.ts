/**
 * The release as `npm run release` writes it (plugin/release.ts), made once per content of what it is made from
 * and shared by every test file that reads it, under the system temporary directory and a lock (on two cores,
 * one release build at a time): the npm tarballs, `schema.json`, the plugin's archives, the Python wheel and
 * sdist, the Go module proxy and `SHA256SUMS`. Read it, never write into it.
 */
import * as fs from "node:fs";
import * as http from "node:http";
import type { AddressInfo } from "node:net";
import * as os from "node:os";
import * as path from "node:path";
import { builtDist, childEnv, contentHash, pruneStaleEntries, REPO_ROOT, run, withLock } from "./packedPackage";

/** Where the releases are kept, one folder per content hash. */
const CACHE = path.join(os.tmpdir(), "pulumi-wos-release");

/** A release folder and its version. */
export interface Release {
    /** `…/v<version>`: what the GitHub release's assets are. */
    dir: string;
    version: string;
}

/** The release of the build as it is (built first when a source is newer). */
export async function releaseOnce(): Promise<Release> {
    await builtDist();
    const hash = contentHash([
        "dist",
        path.join("server", "dist"),
        path.join("server", "package.json"),
        "sdks",
        "package.json",
        "README.md",
        "CHANGELOG.md",
        "LICENSE",
        ".nvmrc",
        path.join("tools", "gomodproxy"),
    ]);
    const version = (JSON.parse(fs.readFileSync(path.join(REPO_ROOT, "package.json"), "utf8")) as { version: string }).version;
    fs.mkdirSync(CACHE, { recursive: true });
    const entry = path.join(CACHE, hash);
    await withLock(path.join(CACHE, "release.lock"), async () => {
        if (fs.existsSync(path.join(entry, "ready"))) return;
        const staging = `${entry}.staging-${process.pid}`;
        fs.rmSync(staging, { recursive: true, force: true });
        await run(process.execPath, [path.join(REPO_ROOT, "dist", "plugin", "release.js"), staging], {
            cwd: REPO_ROOT,
            what: "node dist/plugin/release.js",
            env: childEnv(),
            timeoutMs: 15 * 60_000,
        });
        fs.writeFileSync(path.join(staging, "ready"), "");
        fs.rmSync(entry, { recursive: true, force: true });
        fs.renameSync(staging, entry);
        pruneStaleEntries(CACHE, hash);
    });
    return { dir: path.join(entry, `v${version}`), version };
}

/** A local server of a release's files, as GitHub serves a release's assets: what the CLI downloads from. */
export interface ReleaseDownloads {
    /** `http://127.0.0.1:PORT`: `<url>/<file name>` is that file of the release folder. */
    url: string;
    /** The paths asked for, in order. */
    requested: string[];
    close(): Promise<void>;
}

/** Serves the files at the top of `release.dir` (GET, with their length) on a free port of 127.0.0.1. */
export async function serveRelease(release: Release): Promise<ReleaseDownloads> {
    const requested: string[] = [];
    const server = http.createServer((request, response) => {
        requested.push(request.url ?? "");
        const file = path.join(release.dir, decodeURIComponent((request.url ?? "").slice(1)));
        if (request.method === "GET" && path.dirname(file) === release.dir && fs.existsSync(file) && fs.statSync(file).isFile()) {
            response.writeHead(200, { "content-type": "application/octet-stream", "content-length": fs.statSync(file).size });
            fs.createReadStream(file).pipe(response);
            return;
        }
        response.writeHead(404).end();
    });
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    return {
        url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
        requested,
        close: () => new Promise((resolve) => server.close(() => resolve())),
    };
}
