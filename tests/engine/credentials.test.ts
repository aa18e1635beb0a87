/**
 * Where the provider host gets its credentials, proven through the real host: `wos:token` from Configure
 * (sent as a secret), `WOS_ADDRESS`/`WOS_TOKEN` from the host's environment as the fallback, and a clear
 * message when there is none. A refused token never shows up in an error or a log line.
 *
 * Each case needs its own host (the host configures each provider once, with the config of its first
 * call), so this file runs three small hosts against one service.
 */
import { packedProgram, type Registration } from "../support/packedPackage";
import { secret, startProviderHost, type PropertyMap, type ProviderHost } from "../support/providerHost";
import { startTestServer, type TestServer } from "../support/server";
import { TOKENS } from "../support/seed";
import { captureRegistrations, failure, SETUP_TIMEOUT_MS, TOKEN, tokensIn, TYPES } from "./fixture";

/** A token the service does not know; must never be echoed. */
const WRONG_TOKEN = "wrong-token-0123456789abcdef";

let server: TestServer;
let projectRegistration: Registration;
const hosts: ProviderHost[] = [];

async function host(env: Record<string, string>, config: (server: TestServer) => PropertyMap): Promise<ProviderHost> {
    const program = await packedProgram();
    const started = await startProviderHost({ programDir: program.dir, env });
    hosts.push(started);
    await started.configure(config(server));
    return started;
}

let wrongToken: ProviderHost;
let fromEnvironment: ProviderHost;
let withoutToken: ProviderHost;

beforeAll(async () => {
    const program = await packedProgram();
    projectRegistration = (await captureRegistrations(program)).find((r) => r.type === TYPES.project)!;
    server = await startTestServer();
    [wrongToken, fromEnvironment, withoutToken] = await Promise.all([
        host({}, (s) => ({ "wos:address": s.url, "wos:token": secret(WRONG_TOKEN) })),
        host({ WOS_ADDRESS: server.url, WOS_TOKEN: TOKEN }, () => ({})),
        host({}, (s) => ({ "wos:address": s.url })),
    ]);
}, SETUP_TIMEOUT_MS);

afterAll(async () => {
    await Promise.all(hosts.map((h) => h.close()));
    await server?.close();
});

const urn = (h: ProviderHost, name: string) => h.urn(TYPES.project, name);
const inputs = (name: string): PropertyMap => ({ ...projectRegistration.inputs, name, tags: {} });

async function projectNames(): Promise<string[]> {
    const response = await server.request("GET", "/organizations/acme/projects?page%5Bsize%5D=100", { token: TOKENS.owners });
    return (response.body.data as Array<{ attributes: { name: string } }>).map((p) => p.attributes.name);
}

describe("credentials of the provider host", () => {
    test("Check needs no credentials: a host with a refused token still checks inputs", async () => {
        const result = await wrongToken.check(urn(wrongToken, "p"), {}, inputs("Wrong Token Project"));
        expect(result.failures).toEqual([]);
    });

    test("a refused wos:token fails Create with an authentication message that never shows the token", async () => {
        const error = await failure(wrongToken.create(urn(wrongToken, "p"), inputs("Wrong Token Project")));
        expect(error.message).toMatch(/401|unauthori[sz]ed|authentic/i);
        expect(error.message).not.toContain(WRONG_TOKEN);
        expect(tokensIn(error.message)).toEqual([]);
        expect(await projectNames()).not.toContain("Wrong Token Project");
    });

    test("a refused wos:token fails Read and Delete without showing the token", async () => {
        const read = await failure(wrongToken.read(urn(wrongToken, "p"), "prj-0000000000000000", inputs("X Project")));
        const deleted = await failure(wrongToken.delete(urn(wrongToken, "p"), "prj-0000000000000000", inputs("X Project")));
        for (const error of [read, deleted]) {
            expect(error.message).toMatch(/401/);
            expect(error.message).not.toContain(WRONG_TOKEN);
            expect(tokensIn(error.message)).toEqual([]);
        }
    });

    test("without wos:address and wos:token in the config, WOS_ADDRESS and WOS_TOKEN of the host's environment are used", async () => {
        const created = await fromEnvironment.create(urn(fromEnvironment, "env"), inputs("From Environment"));
        expect(created.id).toMatch(/^prj-/);
        expect(await projectNames()).toContain("From Environment");
        expect(tokensIn(created.outputs)).toEqual([]);
        await fromEnvironment.delete(urn(fromEnvironment, "env"), created.id, created.outputs);
        expect(await projectNames()).not.toContain("From Environment");
    });

    test("with no token anywhere, Create fails with a message that says where to set one", async () => {
        const error = await failure(withoutToken.create(urn(withoutToken, "none"), inputs("No Token Project")));
        expect(error.message).toContain("wos:token");
        expect(error.message).toContain("WOS_TOKEN");
        expect(await projectNames()).not.toContain("No Token Project");
    });

    test("no host's logs contain a token", () => {
        for (const h of hosts) {
            expect(h.logs()).not.toContain(WRONG_TOKEN);
            expect(tokensIn(h.logs())).toEqual([]);
        }
    });
});
