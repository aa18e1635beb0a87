/**
 * `pulumi-wos/testing` with and without its optional peer `@pulumi-wos/server` (the local service), loaded
 * from the packed packages as a user's project has them.
 *
 * Without the server package the kit still loads: `WosMocks` pointed at a service of the test's own
 * (`{ address, token }`) creates through it; only `startLocalService()` needs the server, and rejects with a
 * message that names the package and the command that installs it. It fails there, not at import, because
 * that is the one function that runs the server. With the package installed, the kit runs the installed
 * package (the unpacked tarball, not the repository's sources). A server package that is there but broken
 * (its own dependency missing) keeps its own error: only a missing package is reported as missing.
 */
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { childEnv, packedPackages, run, SERVER_PACKAGE, type PackedPackages } from "../support/packedPackage";
import { TOKENS } from "../support/seed";
import { rawRequest, startTestServer, type TestServer } from "../support/server";
import { requirePacked, type TestingModule } from "./helpers";

const INSTALL_COMMAND = "npm install --save-dev @pulumi-wos/server";

let packed: PackedPackages;

beforeAll(async () => {
    packed = await packedPackages();
}, 300_000);

describe("without @pulumi-wos/server (pulumi-wos alone)", () => {
    let testing: TestingModule;
    let service: TestServer;

    beforeAll(async () => {
        expect(fs.existsSync(path.join(packed.lean.dir, "node_modules", SERVER_PACKAGE))).toBe(false);
        testing = requirePacked<TestingModule>(packed.lean, "pulumi-wos/testing");
        service = await startTestServer();
    });

    afterAll(async () => {
        await service?.close();
    });

    test("startLocalService() rejects, naming the package and the command that installs it", async () => {
        const started = testing.startLocalService();
        await expect(started).rejects.toThrow(testing.SERVER_NOT_INSTALLED_MESSAGE);
        expect(testing.SERVER_NOT_INSTALLED_MESSAGE).toContain(SERVER_PACKAGE);
        expect(testing.SERVER_NOT_INSTALLED_MESSAGE.endsWith(INSTALL_COMMAND)).toBe(true);
        // Every call, with any options: nothing is remembered from the first failure.
        await expect(testing.startLocalService({ seed: { organizations: [] } })).rejects.toThrow(INSTALL_COMMAND);
    });

    test("the same in a plain Node process (no jest): the message, and the process goes on", async () => {
        const script = `require("pulumi-wos/testing").startLocalService().then(
    () => console.log(JSON.stringify({ started: true })),
    (error) => console.log(JSON.stringify({ message: error.message })),
);`;
        const { stdout } = await run(process.execPath, ["-e", script], { cwd: packed.lean.dir, what: "startLocalService without the server" });
        expect(JSON.parse(stdout)).toEqual({ message: testing.SERVER_NOT_INSTALLED_MESSAGE });
    });

    test("WosMocks against a service of the test's own still checks and creates: read back over HTTP", async () => {
        const mocks = new testing.WosMocks({ address: service.url, token: TOKENS.owners });
        const type = "pulumi-nodejs:dynamic/wos:Project";
        await expect(mocks.newResource({ type, name: "broken", custom: true, inputs: { organization: "acme", name: "x!" } })).rejects.toThrow(
            /name must be at least 3 characters/,
        );
        const created = await mocks.newResource({ type, name: "lean", custom: true, inputs: { organization: "acme", name: "Lean Kit" } });
        expect(created.id).toMatch(/^prj-/);
        const read = await rawRequest("GET", `${service.apiUrl}/projects/${created.id}`, { token: TOKENS.owners });
        expect(read.status).toBe(200);
        expect(read.json.data.attributes.name).toBe("Lean Kit");
        const list = await rawRequest("GET", `${service.apiUrl}/organizations/acme/projects?page%5Bsize%5D=100`, { token: TOKENS.owners });
        expect(list.json.data.map((project: { attributes: { name: string } }) => project.attributes.name)).not.toContain("x!");
    });
});

describe("with @pulumi-wos/server installed beside pulumi-wos", () => {
    test("startLocalService() runs the installed package (the unpacked tarball), and answers ping", async () => {
        const resolved = require.resolve(`${SERVER_PACKAGE}/app`, { paths: [path.join(packed.program.packageDir, "dist", "testing")] });
        expect(fs.realpathSync(resolved)).toBe(
            fs.realpathSync(path.join(packed.program.dir, "node_modules", SERVER_PACKAGE, "dist", "server", "app.js")),
        );
        const testing = requirePacked<TestingModule>(packed.program, "pulumi-wos/testing");
        const service = await testing.startLocalService();
        try {
            const ping = await rawRequest("GET", `${service.address}/api/v2/ping`);
            expect(ping.status).toBe(204);
        } finally {
            await service.stop();
        }
    });

    test("a server package whose own dependency is missing keeps its own error, not 'not installed'", async () => {
        // A project with both packages copied in, and every dependency but the server's Fastify plugin.
        const project = fs.mkdtempSync(path.join(os.tmpdir(), "wos-broken-server-"));
        try {
            const nodeModules = path.join(project, "node_modules");
            fs.cpSync(packed.program.packageDir, path.join(nodeModules, "pulumi-wos"), { recursive: true });
            fs.cpSync(path.join(packed.program.dir, "node_modules", SERVER_PACKAGE), path.join(nodeModules, SERVER_PACKAGE), { recursive: true });
            const dependencies = (directory: string) =>
                Object.keys((JSON.parse(fs.readFileSync(path.join(directory, "package.json"), "utf8")) as { dependencies: Record<string, string> }).dependencies);
            const names = new Set([...dependencies(path.join(nodeModules, "pulumi-wos")), ...dependencies(path.join(nodeModules, SERVER_PACKAGE))]);
            expect(names.delete("@fastify/rate-limit")).toBe(true);
            for (const name of names) {
                fs.mkdirSync(path.dirname(path.join(nodeModules, name)), { recursive: true });
                fs.symlinkSync(fs.realpathSync(path.join(packed.program.dir, "node_modules", name)), path.join(nodeModules, name), "dir");
            }
            const script = `require("pulumi-wos/testing").startLocalService().then(
    () => console.log(JSON.stringify({ started: true })),
    (error) => console.log(JSON.stringify({ message: error.message })),
);`;
            const { stdout } = await run(process.execPath, ["-e", script], { cwd: project, what: "startLocalService with a broken server", env: childEnv() });
            const { message } = JSON.parse(stdout) as { message: string };
            expect(message).toContain("Cannot find module '@fastify/rate-limit'");
            expect(message).not.toContain(INSTALL_COMMAND);
        } finally {
            fs.rmSync(project, { recursive: true, force: true });
        }
    });
});
