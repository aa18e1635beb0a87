/**
 * The packed packages on a Node.js older than they support (issue 27): the machine's own Node.js (20 on the
 * development machines and in CI), outside the repository's Node of `.nvmrc`, runs them as a user's machine
 * would after `npm install` warned only `EBADENGINE`.
 *
 * - `@pulumi-wos/server` refuses: the command `wos-server` prints one line naming the Node.js running, the
 *   ones supported and where to get them, and exits 1 with no stack trace and nothing written; a user's jest
 *   test that calls `startLocalService()` gets an error it can catch and assert (`code` `WOS_UNSUPPORTED_NODE`).
 *   Without the refusal both end in a segmentation fault: the binding still crashes that Node.js, which the
 *   first test shows, so the refusal is still needed.
 * - `pulumi-wos` (no native binding) warns once, whichever of its entry points a program loads, and keeps
 *   working: its client lists a real service's projects, and a Pulumi program creates and destroys a
 *   project through the real CLI, its language host and the dynamic provider host running on that Node.js,
 *   with the warning once in the CLI's output.
 *
 * The old Node.js is the first `node` on `PATH` outside the repository whose major version is below 22, or
 * `WOS_OLD_NODE` (a path) when set. The expected lines are written out with the supported versions as
 * literals, not built from the constants under test.
 */
import { spawn } from "node:child_process";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { startCliTestService, PLATFORM_TOKEN, type CliTestService } from "../cli/localService";
import { findOldNode, type OldNode } from "../support/oldNode";
import { childEnv, packedPackages, REPO_ROOT, type PackedPackages } from "../support/packedPackage";
import { pulumiBinDir, pulumiProgram, type PulumiProgram } from "../support/pulumiCli";
import { TOKENS } from "../support/seed";
import { startTestServer, type TestServer } from "../support/server";

/** The line every refusal and the warning share, after the name of what refuses or warns. */
function needs(version: string): string {
    return `needs Node.js 22 or later; this is Node.js ${version}. Install Node.js 22, 24 or 26 (https://nodejs.org/en/download, or \`nvm install 24\`).`;
}

/** How a process ended and what it printed. */
interface Ended {
    code: number | null;
    signal: NodeJS.Signals | null;
    stdout: string;
    stderr: string;
}

/** Runs `bin args` to its end (whatever the exit) in `cwd`, with a deadline. */
function runToEnd(bin: string, args: string[], cwd: string, env: NodeJS.ProcessEnv = childEnv()): Promise<Ended> {
    return new Promise((resolve, reject) => {
        const child = spawn(bin, args, { cwd, env, stdio: ["ignore", "pipe", "pipe"] });
        const output = { stdout: "", stderr: "" };
        child.stdout.setEncoding("utf8").on("data", (chunk: string) => (output.stdout += chunk));
        child.stderr.setEncoding("utf8").on("data", (chunk: string) => (output.stderr += chunk));
        const deadline = setTimeout(() => {
            child.kill("SIGKILL");
            reject(new Error(`${bin} ${args.join(" ")} did not end within 120 s:\n${output.stdout}\n${output.stderr}`));
        }, 120_000);
        child.once("error", reject);
        child.once("close", (code, signal) => {
            clearTimeout(deadline);
            resolve({ code, signal, ...output });
        });
    });
}

let oldNode: OldNode;
let packed: PackedPackages;
let scratch: string;

beforeAll(async () => {
    oldNode = findOldNode();
    packed = await packedPackages();
    scratch = fs.mkdtempSync(path.join(os.tmpdir(), "wos-old-node-"));
}, 300_000);

afterAll(() => {
    if (scratch) fs.rmSync(scratch, { recursive: true, force: true });
});

/** A project directory in `scratch` whose `node_modules` is the packed program's (both packages installed). */
function userProject(name: string, files: Record<string, string>): string {
    const dir = path.join(scratch, name);
    fs.mkdirSync(dir);
    fs.symlinkSync(path.join(packed.program.dir, "node_modules"), path.join(dir, "node_modules"), "dir");
    for (const [file, text] of Object.entries(files)) fs.writeFileSync(path.join(dir, file), text);
    return dir;
}

test("the machine's Node.js is older than 22, and the SQLite binding still crashes it (why the refusal is needed)", async () => {
    expect(Number(oldNode.version.split(".")[0])).toBeLessThan(22);
    const opened = await runToEnd(
        oldNode.bin,
        ["-e", `const Database = require(${JSON.stringify(path.join(packed.server.dir, "node_modules", "better-sqlite3"))}); new Database(":memory:"); console.log("opened")`],
        scratch,
    );
    expect({ signal: opened.signal, stdout: opened.stdout }).toEqual({ signal: "SIGSEGV", stdout: "" });
});

describe("@pulumi-wos/server on the old Node.js", () => {
    test("wos-server prints one line naming the Node.js running and the ones to install, exits 1, and writes nothing", async () => {
        const bin = path.join(packed.server.packageDir, "bin", "wos-server.js");
        const data = path.join(scratch, "server-data", "wos.db");
        const ended = await runToEnd(oldNode.bin, [bin, "--port", "0", "--data", data], packed.server.dir);
        expect(ended).toEqual({ code: 1, signal: null, stdout: "", stderr: `wos-server ${needs(oldNode.version)}\n` });
        expect(fs.existsSync(path.dirname(data))).toBe(false);
    });

    test("wos-server refuses before it reads its options: an in-memory database and a seed, or --version, get the same line", async () => {
        const bin = path.join(packed.server.packageDir, "bin", "wos-server.js");
        const seed = path.join(REPO_ROOT, "examples", "seed.json");
        for (const args of [["--port", "0", "--data", ":memory:", "--seed", seed], ["--version"]]) {
            const ended = await runToEnd(oldNode.bin, [bin, ...args], packed.server.dir);
            expect({ args, ...ended }).toEqual({ args, code: 1, signal: null, stdout: "", stderr: `wos-server ${needs(oldNode.version)}\n` });
        }
    });

    test("the server's app, opened directly, throws the refusal with its code instead of crashing", async () => {
        const dir = userProject("app-direct", {
            "open.js": `
                const { buildApp } = require("@pulumi-wos/server/app");
                Promise.resolve()
                    .then(() => buildApp({ dataPath: ":memory:" }))
                    .then(
                        () => console.log(JSON.stringify({ opened: true })),
                        (error) => console.log(JSON.stringify({ name: error.name, code: error.code, message: error.message })),
                    );
            `,
        });
        const ended = await runToEnd(oldNode.bin, ["open.js"], dir);
        expect({ code: ended.code, signal: ended.signal }).toEqual({ code: 0, signal: null });
        expect(JSON.parse(ended.stdout)).toEqual({
            name: "UnsupportedNodeError",
            code: "WOS_UNSUPPORTED_NODE",
            message: `@pulumi-wos/server (the local service) ${needs(oldNode.version)}`,
        });
    });

    test("a user's jest test that calls startLocalService() catches an UnsupportedNodeError and passes; jest exits 0", async () => {
        const expected = `startLocalService (the local service, @pulumi-wos/server) ${needs(oldNode.version)}`;
        const dir = userProject("jest-user", {
            "package.json": JSON.stringify({ name: "jest-user", private: true, jest: { testEnvironment: "node", transform: {} } }),
            "service.test.js": `
                const { startLocalService, UnsupportedNodeError, UNSUPPORTED_NODE_CODE } = require("pulumi-wos/testing");
                test("startLocalService refuses this Node.js", async () => {
                    const error = await startLocalService().then(() => undefined, (caught) => caught);
                    expect(UnsupportedNodeError.isInstance(error)).toBe(true);
                    expect(error.code).toBe(UNSUPPORTED_NODE_CODE);
                    expect(error.code).toBe("WOS_UNSUPPORTED_NODE");
                    expect(error.message).toBe(${JSON.stringify(expected)});
                });
            `,
        });
        const jest = path.join(REPO_ROOT, "node_modules", "jest", "bin", "jest.js");
        const ended = await runToEnd(oldNode.bin, [jest, "--ci", "--colors=false", "--rootDir", dir], dir);
        expect({ code: ended.code, signal: ended.signal }).toEqual({ code: 0, signal: null });
        expect(ended.stderr).toMatch(/Tests:\s+1 passed, 1 total/);
    });
});

describe("pulumi-wos on the old Node.js", () => {
    let service: TestServer;

    beforeAll(async () => {
        service = await startTestServer();
    });

    afterAll(async () => {
        await service?.close();
    });

    test("warns once, whichever entry points a script loads, and its client still works", async () => {
        const dir = userProject("client-user", {
            "list.js": `
                require("pulumi-wos");
                require("pulumi-wos/testing");
                const { WosClient } = require("pulumi-wos/sdk");
                const client = new WosClient({ address: process.env.ADDRESS, token: process.env.TOKEN });
                client.projects.list("acme").then(
                    (list) => console.log(JSON.stringify(list.items.map((project) => project.name))),
                    (error) => { console.error(error.message); process.exitCode = 1; },
                );
            `,
        });
        const ended = await runToEnd(oldNode.bin, ["list.js"], dir, childEnv({ ADDRESS: service.url, TOKEN: TOKENS.owners }));
        expect({ code: ended.code, signal: ended.signal }).toEqual({ code: 0, signal: null });
        expect(JSON.parse(ended.stdout)).toEqual(expect.arrayContaining(["Default Project"]));
        const warning = `pulumi-wos ${needs(oldNode.version)} It keeps running meanwhile, untested on this version.`;
        expect(ended.stderr.split(warning).length - 1).toBe(1);
    });

    test("a script on the client alone gets the warning as a process warning of code WOS_UNSUPPORTED_NODE", async () => {
        const dir = userProject("sdk-only", {
            "warned.js": `
                process.on("warning", (warning) => console.log(JSON.stringify({ code: warning.code, message: warning.message })));
                require("pulumi-wos/sdk");
            `,
        });
        const ended = await runToEnd(oldNode.bin, ["--no-warnings", "warned.js"], dir);
        expect({ code: ended.code, signal: ended.signal, stderr: ended.stderr }).toEqual({ code: 0, signal: null, stderr: "" });
        expect(JSON.parse(ended.stdout)).toEqual({
            code: "WOS_UNSUPPORTED_NODE",
            message: `pulumi-wos ${needs(oldNode.version)} It keeps running meanwhile, untested on this version.`,
        });
    });
});

describe("a Pulumi program on the old Node.js, through the real CLI", () => {
    let service: CliTestService;
    let program: PulumiProgram;

    beforeAll(async () => {
        service = await startCliTestService();
        // The language host and the dynamic provider host run the first `node` on PATH: the old one.
        const nodeDir = path.join(scratch, "old-node-bin");
        fs.mkdirSync(nodeDir);
        fs.symlinkSync(oldNode.bin, path.join(nodeDir, "node"));
        const source = path.join(scratch, "old-node-program");
        fs.mkdirSync(source);
        fs.writeFileSync(path.join(source, "Pulumi.yaml"), "name: wos-old-node\nruntime: nodejs\ndescription: pulumi-wos on an old Node.js\n");
        fs.writeFileSync(path.join(source, "package.json"), JSON.stringify({ name: "wos-old-node", private: true, main: "index.js" }));
        program = await pulumiProgram({
            source,
            files: {
                "index.js": `
                    const wos = require("pulumi-wos");
                    const project = new wos.Project("old-node", { organization: "acme", name: "Old Node" });
                    exports.projectId = project.id;
                    exports.nodeVersion = process.versions.node;
                `,
            },
            env: { PATH: `${pulumiBinDir()}${path.delimiter}${nodeDir}${path.delimiter}${process.env.PATH ?? ""}` },
        });
        await program.setConfig("wos:address", service.url);
        await program.setConfig("wos:token", PLATFORM_TOKEN, { secret: true });
    }, 300_000);

    afterAll(async () => {
        await program?.dispose();
        await service?.stop();
    });

    test("pulumi up creates the project, shows the warning once, and destroy removes it", async () => {
        const up = await program.pulumi(["up", "--yes", "--skip-preview"]);
        const warning = `warning: pulumi-wos ${needs(oldNode.version)} It keeps running meanwhile, untested on this version.`;
        // One diagnostic of the stack (the CLI shows it as it comes, then again in its summary), none of a resource:
        // the dynamic provider host, on the same Node.js, says nothing more.
        expect(up.output).toMatch(/pulumi:pulumi:Stack wos-old-node-dev created \(\S+\) 1 warning\n/);
        const diagnostics = /\nDiagnostics:\n([^]*?)\nOutputs:/.exec(up.output)?.[1] ?? "";
        expect(diagnostics.trim().split("\n").map((line) => line.trim())).toEqual(["pulumi:pulumi:Stack (wos-old-node-dev):", warning]);
        const outputs = await program.outputs();
        expect(outputs.nodeVersion).toBe(oldNode.version);
        const created = await service.get(`/projects/${outputs.projectId as string}`);
        expect(created.attributes.name).toBe("Old Node");

        await program.pulumi(["destroy", "--yes", "--skip-preview"]);
        const gone = await service.request("GET", `/projects/${outputs.projectId as string}`);
        expect(gone.status).toBe(404);
    }, 300_000);
});
