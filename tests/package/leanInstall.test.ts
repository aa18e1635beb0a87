/**
 * A lean install: a Pulumi program that uses only the resources, or a script that uses only the client,
 * installs `pulumi-wos` alone, and that installs neither Fastify nor better-sqlite3 and compiles nothing. The
 * local service is the package `@pulumi-wos/server`, an optional peer dependency that npm does not install.
 *
 * Checked three ways on the packed tarball (`npm pack`, as `npm publish` uploads it): its manifest; the
 * whole closure of its dependencies as the repository's `package-lock.json` resolves them (the same walk from
 * the server's manifest does reach Fastify, and the walk from `@pulumi/pulumi`'s an install script, so the
 * checks can fail); and a real
 * `npm install` of the tarball into an empty project (from npm's cache where it can), whose `node_modules` is
 * then listed, and whose client lists projects of a real local service.
 */
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { childEnv, packedPackages, REPO_ROOT, run, SERVER_PACKAGE, type PackedPackages } from "../support/packedPackage";
import { TOKENS } from "../support/seed";
import { startTestServer, type TestServer } from "../support/server";

/** What a program that uses only the resources or the client must never install. */
const SERVER_ONLY = /^(fastify|@fastify\/.+|better-sqlite3)$/;

/** A `package.json` as far as these tests read it. */
interface Manifest {
    name: string;
    version: string;
    dependencies?: Record<string, string>;
    optionalDependencies?: Record<string, string>;
    peerDependencies?: Record<string, string>;
    peerDependenciesMeta?: Record<string, { optional?: boolean }>;
    bin?: Record<string, string> | string;
}

/** An entry of `packages` in `package-lock.json` (lockfile version 3). */
interface LockEntry extends Partial<Manifest> {
    link?: boolean;
    resolved?: string;
    hasInstallScript?: boolean;
    optional?: boolean;
}

const lock = JSON.parse(fs.readFileSync(path.join(REPO_ROOT, "package-lock.json"), "utf8")) as {
    lockfileVersion: number;
    packages: Record<string, LockEntry>;
};

/** The names a manifest makes npm install: dependencies, optional dependencies, peers not marked optional. */
function installedNames(manifest: Partial<Manifest>): { name: string; optional: boolean }[] {
    const peers = Object.keys(manifest.peerDependencies ?? {}).filter((name) => !manifest.peerDependenciesMeta?.[name]?.optional);
    return [
        ...Object.keys(manifest.dependencies ?? {}).map((name) => ({ name, optional: false })),
        ...peers.map((name) => ({ name, optional: false })),
        ...Object.keys(manifest.optionalDependencies ?? {}).map((name) => ({ name, optional: true })),
    ];
}

/** Where the lock file places `name` as seen from the package at `location` (Node's lookup, upwards). */
function resolveInLock(location: string, name: string): string | undefined {
    let base = location;
    for (;;) {
        const candidate = base === "" ? `node_modules/${name}` : `${base}/node_modules/${name}`;
        if (lock.packages[candidate]) return candidate;
        if (base === "") return undefined;
        const parent = base.lastIndexOf("/node_modules/");
        base = parent === -1 ? "" : base.slice(0, parent);
    }
}

/**
 * Every package an install of `manifest` brings, resolved through the lock file from its root: the lock's
 * location of each, with its entry. A required package the lock does not hold fails the walk.
 */
function closureOf(manifest: Partial<Manifest>): Map<string, LockEntry> {
    const found = new Map<string, LockEntry>();
    const visit = (from: string, wanted: Partial<Manifest>) => {
        for (const { name, optional } of installedNames(wanted)) {
            let location = resolveInLock(from, name);
            if (location === undefined) {
                // An optional dependency for another platform is not in the lock.
                if (optional) continue;
                throw new Error(`package-lock.json does not hold ${name}, required from '${from || "(root)"}'`);
            }
            let entry = lock.packages[location]!;
            if (entry.link) {
                location = entry.resolved!;
                entry = lock.packages[location]!;
            }
            if (found.has(location)) continue;
            found.set(location, entry);
            visit(location, entry);
        }
    };
    visit("", manifest);
    return found;
}

/** The package name of a lock location (`node_modules/a/node_modules/@s/b` is `@s/b`; a workspace its own name). */
function nameOf(location: string, entry: LockEntry): string {
    return entry.name ?? location.slice(location.lastIndexOf("node_modules/") + "node_modules/".length);
}

let packed: PackedPackages;
let resources: Manifest;
let server: Manifest;

beforeAll(async () => {
    packed = await packedPackages();
    resources = JSON.parse(fs.readFileSync(path.join(packed.lean.packageDir, "package.json"), "utf8")) as Manifest;
    server = JSON.parse(fs.readFileSync(path.join(packed.server.packageDir, "package.json"), "utf8")) as Manifest;
}, 300_000);

describe("the packed pulumi-wos", () => {
    test("depends on the client's packages alone: no Fastify, no better-sqlite3, in any kind of dependency", () => {
        expect(resources.name).toBe("pulumi-wos");
        expect(Object.keys(resources.dependencies ?? {}).sort()).toEqual([
            "axios",
            "axios-retry",
            "http-proxy-agent",
            "https-proxy-agent",
            // The client's pacing to the service's rate limit (sdk/requestPacing.ts).
            "limiter",
            "proxy-from-env",
            "zod",
        ]);
        const declared = [
            ...Object.keys(resources.dependencies ?? {}),
            ...Object.keys(resources.optionalDependencies ?? {}),
            ...Object.keys(resources.peerDependencies ?? {}),
        ];
        expect(declared.filter((name) => SERVER_ONLY.test(name))).toEqual([]);
    });

    test("has the local service and Pulumi as optional peers only: npm installs neither", () => {
        expect(resources.peerDependencies).toEqual({ "@pulumi/pulumi": ">=3.216.0", [SERVER_PACKAGE]: `^${resources.version}` });
        expect(resources.peerDependenciesMeta).toEqual({ "@pulumi/pulumi": { optional: true }, [SERVER_PACKAGE]: { optional: true } });
        // The command line is the server package's now.
        expect(resources.bin).toBeUndefined();
    });

    test("ships no file of the local service", () => {
        expect(packed.lean.files.filter((file) => file.startsWith("dist/server/"))).toEqual([]);
        // What it does ship: the resources, the client (with the schemas it shares with the server) and the kit.
        for (const file of ["dist/provider/index.js", "dist/sdk/index.js", "dist/sdk/model/index.js", "dist/testing/index.js"]) {
            expect({ file, shipped: packed.lean.files.includes(file) }).toEqual({ file, shipped: true });
        }
    });

    test("the repository's lock file was made from this manifest", () => {
        expect(lock.lockfileVersion).toBe(3);
        const root = lock.packages[""]!;
        expect(root.dependencies).toEqual(resources.dependencies);
        expect(root.peerDependencies).toEqual(resources.peerDependencies);
    });

    test("the whole closure of its dependencies, through the lock file, holds no server package and no install script", () => {
        const closure = closureOf(resources);
        const names = [...closure].map(([location, entry]) => nameOf(location, entry));
        // The walk does reach the client's packages and theirs.
        expect(names).toEqual(expect.arrayContaining(["axios", "axios-retry", "zod", "https-proxy-agent", "agent-base", "follow-redirects"]));
        expect(names.filter((name) => SERVER_ONLY.test(name) || name === SERVER_PACKAGE || name === "@pulumi/pulumi")).toEqual([]);
        expect([...closure].filter(([, entry]) => entry.hasInstallScript).map(([location]) => location)).toEqual([]);
    });

    test("the same walk from the server's manifest reaches Fastify and better-sqlite3 (the check is real), and no install script either", () => {
        const closure = closureOf(server);
        const names = [...closure].map(([location, entry]) => nameOf(location, entry));
        expect(names).toEqual(expect.arrayContaining(["fastify", "@fastify/rate-limit", "better-sqlite3", "zod"]));
        // better-sqlite3 13 carries its binary: installing the server runs nothing.
        expect([...closure].filter(([, entry]) => entry.hasInstallScript).map(([location]) => location)).toEqual([]);
    });

    test("the same walk from @pulumi/pulumi's manifest reaches protobufjs and its install script (the install-script check is real)", () => {
        const closure = closureOf(lock.packages["node_modules/@pulumi/pulumi"]!);
        const scripts = [...closure].filter(([, entry]) => entry.hasInstallScript).map(([location, entry]) => nameOf(location, entry));
        expect(scripts).toContain("protobufjs");
    });
});

describe("npm install of the packed pulumi-wos into an empty project", () => {
    let project: string;
    let service: TestServer;
    let installed: string[];

    beforeAll(async () => {
        project = fs.mkdtempSync(path.join(os.tmpdir(), "wos-lean-install-"));
        fs.writeFileSync(path.join(project, "package.json"), JSON.stringify({ name: "lean-user", private: true }));
        // From npm's cache where it holds the packages (`npm ci` filled it), from the registry otherwise.
        await run("npm", ["install", "--prefer-offline", "--no-audit", "--no-fund", "--loglevel=error", packed.tarballs.resources], {
            cwd: project,
            what: "npm install of the packed pulumi-wos",
            timeoutMs: 240_000,
        });
        installed = listPackages(path.join(project, "node_modules"));
        service = await startTestServer();
    }, 300_000);

    afterAll(async () => {
        await service?.close();
        if (project) fs.rmSync(project, { recursive: true, force: true });
    });

    test("installs the client's packages, and no Fastify, no better-sqlite3, no @pulumi-wos/server, no Pulumi", () => {
        expect(installed).toEqual(expect.arrayContaining(["pulumi-wos", "axios", "axios-retry", "zod", "http-proxy-agent", "https-proxy-agent"]));
        expect(installed.filter((name) => SERVER_ONLY.test(name) || name === SERVER_PACKAGE || name === "@pulumi/pulumi")).toEqual([]);
        // Nothing was compiled: no package of the install has a native build or an install script.
        const scripted = installed.filter((name) => {
            const manifest = JSON.parse(fs.readFileSync(path.join(project, "node_modules", name, "package.json"), "utf8")) as {
                scripts?: Record<string, string>;
                gypfile?: boolean;
            };
            return manifest.gypfile || ["preinstall", "install", "postinstall"].some((script) => manifest.scripts?.[script]);
        });
        expect(scripted).toEqual([]);
        expect(fs.existsSync(path.join(project, "node_modules", "pulumi-wos", "dist", "server"))).toBe(false);
    });

    test("a script that uses only the client works there: it lists the projects of a real local service", async () => {
        const script = `const { WosClient } = require("pulumi-wos/sdk");
new WosClient().projects.list("acme").then((page) => console.log(JSON.stringify(page.items.map((project) => project.name).sort())));`;
        const { stdout } = await run(process.execPath, ["-e", script], {
            cwd: project,
            what: "the client of the lean install",
            env: childEnv({ WOS_ADDRESS: service.url, WOS_TOKEN: TOKENS.owners }),
        });
        expect(JSON.parse(stdout)).toEqual(["Apps", "Default Project", "Empty", "Staging"]);
    });

    test("without @pulumi/pulumi, require(\"pulumi-wos\") fails saying what to install", async () => {
        const script = `try { require("pulumi-wos"); console.log(JSON.stringify("loaded")); } catch (error) { console.log(JSON.stringify(error.message)); }`;
        const { stdout } = await run(process.execPath, ["-e", script], { cwd: project, what: "pulumi-wos without Pulumi" });
        const message = JSON.parse(stdout) as string;
        expect(message).toContain("pulumi-wos: the resources need @pulumi/pulumi (3.216.0 or later)");
        expect(message).toContain("npm install @pulumi/pulumi");
    });

    test("pulumi-wos/testing loads there, and startLocalService names the package to install", async () => {
        const script = `const testing = require("pulumi-wos/testing");
testing.startLocalService().then(() => console.log("started"), (error) => console.log(JSON.stringify(error.message)));`;
        const { stdout } = await run(process.execPath, ["-e", script], { cwd: project, what: "the testing kit of the lean install" });
        const message = JSON.parse(stdout) as string;
        expect(message).toContain("@pulumi-wos/server");
        expect(message).toContain("npm install --save-dev @pulumi-wos/server");
    });
});

/** Every package under `nodeModules` by name, scoped ones as `@scope/name`, nested ones included. */
function listPackages(nodeModules: string): string[] {
    const names = new Set<string>();
    const visit = (dir: string) => {
        if (!fs.existsSync(dir)) return;
        for (const entry of fs.readdirSync(dir)) {
            if (entry.startsWith(".")) continue;
            if (entry.startsWith("@")) {
                for (const scoped of fs.readdirSync(path.join(dir, entry))) {
                    names.add(`${entry}/${scoped}`);
                    visit(path.join(dir, entry, scoped, "node_modules"));
                }
                continue;
            }
            names.add(entry);
            visit(path.join(dir, entry, "node_modules"));
        }
    };
    visit(nodeModules);
    return [...names].sort();
}
