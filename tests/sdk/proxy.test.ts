/**
 * The client behind a proxy from the environment, as a pipeline behind a corporate proxy runs it: the built
 * `dist/sdk` in a child process (run `npm run build` before running this file alone), so the environment is
 * read as a user's process reads it and the agents load as Node loads them (also with
 * `--no-experimental-require-module`, as Node before 20.19 runs); and the sources inside Jest, as a user's
 * own Jest test of a program using the client runs them. The proxy is real and tiny: a `node:http` server that forwards absolute-URI requests and opens
 * `CONNECT` tunnels, recording what it was asked. The service is the real local service, reached as
 * `wos.test` (only the proxy and, for the direct cases, the child's resolver know that name: a request that
 * reached the service under it went where this test says); `https:` goes through a TLS front with a
 * certificate for `wos.test` that the child trusts through `NODE_EXTRA_CA_CERTS`.
 */
import { spawn } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import * as http from "node:http";
import * as net from "node:net";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import * as tls from "node:tls";
import { WosClient, WosError } from "../../sdk";
import { startTestServer, type TestServer } from "../support/server";
import { TOKENS } from "../support/seed";

/** A self-signed certificate for `wos.test` (P-256, valid 2000 to 2100, CA:TRUE so it is its own anchor); test only. */
const TLS_KEY = `-----BEGIN PRIVATE KEY-----
MIGHAgEAMBMGByqGSM49AgEGCCqGSM49AwEHBG0wawIBAQQgy7iEmgtPY1GD6gpO
/256nqwItRt1pIeNHJk8UBXfKEahRANCAAT1I0ey09SCopGls1cSRU1uKSMKfI0I
OcJAf/zGgcXX/qb0ry2rIwY2PoF1qDJMKLjUZ8szCiXhAczxmWsrvKtg
-----END PRIVATE KEY-----
`;
const TLS_CERT = `-----BEGIN CERTIFICATE-----
MIIBcDCCARWgAwIBAgICEAAwCgYIKoZIzj0EAwIwEzERMA8GA1UEAwwId29zLnRl
c3QwIBcNMDAwMTAxMDAwMDAwWhgPMjEwMDAxMDEwMDAwMDBaMBMxETAPBgNVBAMM
CHdvcy50ZXN0MFkwEwYHKoZIzj0CAQYIKoZIzj0DAQcDQgAE9SNHstPUgqKRpbNX
EkVNbikjCnyNCDnCQH/8xoHF1/6m9K8tqyMGNj6BdagyTCi41GfLMwol4QHM8Zlr
K7yrYKNXMFUwEwYDVR0RBAwwCoIId29zLnRlc3QwDwYDVR0TAQH/BAUwAwEB/zAO
BgNVHQ8BAf8EBAMCAoQwHQYDVR0OBBYEFKc7YPxFTdBns2BxJW9OqEZCuBYtMAoG
CCqGSM49BAMCA0kAMEYCIQCKGDFWSOjG4t2A6qlWRKK3j0AKQMy+6EY8AWtDk5lR
yQIhAK2/G1z2Tpn7JWfbnb04bsWmnbID4nKHKGhhQa4rMcbf
-----END CERTIFICATE-----
`;

const DIST_SDK = resolve(__dirname, "../../dist/sdk/index.js");
const PROXY_VARIABLES = ["HTTP_PROXY", "HTTPS_PROXY", "ALL_PROXY", "NO_PROXY"].flatMap((name) => [name, name.toLowerCase()]);
const ACME = ["Apps", "Default Project", "Empty", "Staging"];

/**
 * The child: `*.test` names resolve to 127.0.0.1 (its own resolver only), then one client made from the
 * environment lists acme's projects twice and prints what happened as JSON.
 */
const CHILD = `
const dns = require("node:dns");
const lookup = dns.lookup;
dns.lookup = function (hostname, options, callback) {
    return lookup.call(this, /\\.test$/.test(hostname) ? "127.0.0.1" : hostname, options, callback);
};
const { WosClient, WosError } = require(process.env.DIST_SDK);
(async () => {
    let client;
    try {
        client = new WosClient({ maxRetries: 0 });
    } catch (error) {
        return { constructorError: { name: error.name, message: error.message } };
    }
    const lists = [];
    try {
        for (let call = 0; call < 2; call++) {
            const page = await client.projects.list("acme", { pageSize: 100 });
            lists.push(page.items.map((project) => project.name).sort());
        }
        return { lists };
    } catch (error) {
        return { lists, error: { name: error.name, message: error.message, status: error.status, code: error.code, json: JSON.stringify(error) } };
    }
})().then((outcome) => process.stdout.write(JSON.stringify(outcome)));
`;

/** What the child printed. */
interface Outcome {
    constructorError?: { name: string; message: string };
    lists?: string[][];
    error?: { name: string; message: string; status?: number; code?: string; json: string };
}

/** What the proxy was asked. */
interface ProxyEntry {
    method: string;
    /** The request target: an absolute URI, or `host:port` for `CONNECT`. */
    target: string;
    headers: http.IncomingHttpHeaders;
}

let service: TestServer;
let servicePort: number;
let tlsFront: tls.Server;
let tlsPort: number;
let proxy: http.Server;
let proxyPort: number;
let proxyLog: ProxyEntry[] = [];
let proxyConnections = 0;
/** `user:password` the proxy demands (407 otherwise), or none. */
let proxyCredentials: string | undefined;
let workDir: string;
let caFile: string;
const sockets = new Set<net.Socket>();

/** Where the proxy sends a request for `host:port`: `*.test` is the machine itself. */
function upstream(host: string, port: number): { host: string; port: number } {
    return { host: host.endsWith(".test") ? "127.0.0.1" : host, port };
}

function authorized(headers: http.IncomingHttpHeaders): boolean {
    if (proxyCredentials === undefined) return true;
    return headers["proxy-authorization"] === `Basic ${Buffer.from(proxyCredentials).toString("base64")}`;
}

function track(socket: net.Socket): void {
    sockets.add(socket);
    socket.on("close", () => sockets.delete(socket));
}

beforeAll(async () => {
    service = await startTestServer();
    servicePort = Number(new URL(service.url).port);

    tlsFront = tls.createServer({ key: TLS_KEY, cert: TLS_CERT }, (socket) => {
        track(socket);
        const inner = net.connect(servicePort, "127.0.0.1");
        track(inner);
        socket.pipe(inner).pipe(socket);
        socket.on("error", () => inner.destroy());
        inner.on("error", () => socket.destroy());
    });
    await new Promise<void>((done) => tlsFront.listen(0, "127.0.0.1", done));
    tlsPort = (tlsFront.address() as net.AddressInfo).port;

    proxy = http.createServer((request, response) => {
        proxyLog.push({ method: request.method!, target: request.url!, headers: request.headers });
        if (!authorized(request.headers)) {
            response.writeHead(407, { "proxy-authenticate": 'Basic realm="corporate"', "content-type": "text/plain" });
            response.end("proxy authentication required");
            return;
        }
        const url = new URL(request.url!);
        const { host, port } = upstream(url.hostname, Number(url.port || 80));
        const headers = { ...request.headers };
        delete headers["proxy-authorization"];
        delete headers["proxy-connection"];
        const forwarded = http.request({ host, port, method: request.method, path: url.pathname + url.search, headers }, (answer) => {
            response.writeHead(answer.statusCode!, answer.headers);
            answer.pipe(response);
        });
        forwarded.on("error", () => response.destroy());
        request.pipe(forwarded);
    });
    proxy.on("connection", (socket: net.Socket) => {
        proxyConnections++;
        track(socket);
    });
    proxy.on("connect", (request: http.IncomingMessage, socket: net.Socket, head: Buffer) => {
        proxyLog.push({ method: "CONNECT", target: request.url!, headers: request.headers });
        if (!authorized(request.headers)) {
            socket.end('HTTP/1.1 407 Proxy Authentication Required\r\nProxy-Authenticate: Basic realm="corporate"\r\nContent-Length: 0\r\n\r\n');
            return;
        }
        const [name, port] = request.url!.split(":");
        const target = upstream(name!, Number(port));
        const tunnel = net.connect(target.port, target.host, () => {
            socket.write("HTTP/1.1 200 Connection Established\r\n\r\n");
            if (head.length > 0) tunnel.write(head);
            tunnel.pipe(socket).pipe(tunnel);
        });
        track(tunnel);
        tunnel.on("error", () => socket.destroy());
        socket.on("error", () => tunnel.destroy());
    });
    await new Promise<void>((done) => proxy.listen(0, "127.0.0.1", done));
    proxyPort = (proxy.address() as net.AddressInfo).port;

    workDir = mkdtempSync(join(tmpdir(), "wos-proxy-"));
    caFile = join(workDir, "wos-test-ca.pem");
    writeFileSync(caFile, TLS_CERT);
});

afterAll(async () => {
    for (const socket of sockets) socket.destroy();
    await new Promise((done) => proxy?.close(done));
    await new Promise((done) => tlsFront?.close(done));
    await service?.close();
    rmSync(workDir, { recursive: true, force: true });
});

beforeEach(() => {
    proxyLog = [];
    proxyConnections = 0;
    proxyCredentials = undefined;
});

/** The proxy's own address, optionally with `user:password@`. */
function proxyUrl(credentials?: string): string {
    return `http://${credentials ? `${credentials}@` : ""}127.0.0.1:${proxyPort}`;
}

/** Runs the child with `env` (proxy variables of this process left out) and answers what it printed. */
async function runClient(env: Record<string, string>, nodeOptions: string[] = []): Promise<Outcome> {
    const childEnv: NodeJS.ProcessEnv = { ...process.env };
    for (const name of [...PROXY_VARIABLES, "WOS_ADDRESS", "WOS_TOKEN", "NODE_OPTIONS"]) delete childEnv[name];
    Object.assign(childEnv, { DIST_SDK, NODE_EXTRA_CA_CERTS: caFile, WOS_TOKEN: TOKENS.owners }, env);
    const child = spawn(process.execPath, [...nodeOptions, "-e", CHILD], { env: childEnv, stdio: ["ignore", "pipe", "pipe"] });
    let stdout = "";
    let stderr = "";
    child.stdout.setEncoding("utf8").on("data", (chunk: string) => (stdout += chunk));
    child.stderr.setEncoding("utf8").on("data", (chunk: string) => (stderr += chunk));
    const code = await new Promise<number | null>((done) => child.on("close", done));
    if (code !== 0 || stdout === "") throw new Error(`the client process failed (${code}):\n${stderr}`);
    return JSON.parse(stdout) as Outcome;
}

const httpAddress = () => `http://wos.test:${servicePort}`;
const httpsAddress = () => `https://wos.test:${tlsPort}`;
const LIST_PATH = "/api/v2/organizations/acme/projects?page%5Bsize%5D=100";

describe("HTTP_PROXY and HTTPS_PROXY", () => {
    test("an http: address goes through HTTP_PROXY as absolute-URI requests on one keep-alive connection", async () => {
        const outcome = await runClient({ WOS_ADDRESS: httpAddress(), HTTP_PROXY: proxyUrl() });
        expect(outcome).toEqual({ lists: [ACME, ACME] });
        expect(proxyLog.map(({ method, target }) => [method, target])).toEqual([
            ["GET", `http://wos.test:${servicePort}${LIST_PATH}`],
            ["GET", `http://wos.test:${servicePort}${LIST_PATH}`],
        ]);
        // The bearer token rode along to the service (the lists were the owners' view), through the proxy.
        expect(proxyLog.every(({ headers }) => headers.authorization === `Bearer ${TOKENS.owners}`)).toBe(true);
        expect(proxyConnections).toBe(1);
    });

    test("an https: address is tunnelled through HTTPS_PROXY with CONNECT, Basic proxy credentials from the URL, TLS inside", async () => {
        proxyCredentials = "alice:s3cr@t pass";
        const outcome = await runClient({ WOS_ADDRESS: httpsAddress(), HTTPS_PROXY: proxyUrl("alice:s3cr%40t%20pass") });
        expect(outcome).toEqual({ lists: [ACME, ACME] });
        expect(proxyLog.map(({ method, target }) => [method, target])).toEqual([["CONNECT", `wos.test:${tlsPort}`]]);
        expect(proxyLog[0]!.headers["proxy-authorization"]).toBe(`Basic ${Buffer.from("alice:s3cr@t pass").toString("base64")}`);
        // Inside the tunnel: the proxy never sees the bearer token.
        expect(JSON.stringify(proxyLog)).not.toContain(TOKENS.owners);
    });

    test("lower-case http_proxy and ALL_PROXY are honoured too", async () => {
        expect(await runClient({ WOS_ADDRESS: httpAddress(), http_proxy: proxyUrl() })).toEqual({ lists: [ACME, ACME] });
        expect(proxyLog).toHaveLength(2);
        proxyLog = [];
        expect(await runClient({ WOS_ADDRESS: httpsAddress(), ALL_PROXY: proxyUrl() })).toEqual({ lists: [ACME, ACME] });
        expect(proxyLog.map(({ method }) => method)).toEqual(["CONNECT"]);
    });

    test("each scheme has its own variable: HTTP_PROXY alone does not proxy an https: address", async () => {
        expect(await runClient({ WOS_ADDRESS: httpsAddress(), HTTP_PROXY: proxyUrl() })).toEqual({ lists: [ACME, ACME] });
        expect(proxyLog).toEqual([]);
    });

    test("without --experimental-require-module (Node before 20.19) the agents load and proxying works the same", async () => {
        const options = ["--no-experimental-require-module"];
        expect(await runClient({ WOS_ADDRESS: httpAddress(), HTTP_PROXY: proxyUrl() }, options)).toEqual({ lists: [ACME, ACME] });
        expect(await runClient({ WOS_ADDRESS: httpsAddress(), HTTPS_PROXY: proxyUrl() }, options)).toEqual({ lists: [ACME, ACME] });
        expect(proxyLog.map(({ method }) => method)).toEqual(["GET", "GET", "CONNECT"]);
    });
});

describe("inside Jest (a user's own test of a program using the client)", () => {
    /** Runs `work` with these proxy variables in this process's environment (the others removed), then restores it. */
    async function withProxyEnvironment<T>(env: Record<string, string>, work: () => Promise<T>): Promise<T> {
        const saved = Object.fromEntries(PROXY_VARIABLES.map((name) => [name, process.env[name]]));
        for (const name of PROXY_VARIABLES) delete process.env[name];
        Object.assign(process.env, env);
        try {
            return await work();
        } finally {
            for (const [name, value] of Object.entries(saved)) {
                if (value === undefined) delete process.env[name];
                else process.env[name] = value;
            }
        }
    }

    test("an http: address goes through HTTP_PROXY: the agent loads in Jest's module registry", async () => {
        const lists = await withProxyEnvironment({ HTTP_PROXY: proxyUrl() }, async () => {
            const client = new WosClient({ address: httpAddress(), token: TOKENS.owners, maxRetries: 0 });
            const page = await client.projects.list("acme", { pageSize: 100 });
            return page.items.map((project) => project.name).sort();
        });
        expect(lists).toEqual(ACME);
        expect(proxyLog.map(({ method, target }) => [method, target])).toEqual([["GET", `http://wos.test:${servicePort}${LIST_PATH}`]]);
    });

    test("an https: address is tunnelled through HTTPS_PROXY: the tunnelling agent loads too (a refused CONNECT shows it ran)", async () => {
        proxyCredentials = "alice:right-password";
        const error = await withProxyEnvironment({ HTTPS_PROXY: proxyUrl("alice:wrong-pass-77d1") }, async () => {
            const client = new WosClient({ address: httpsAddress(), token: TOKENS.owners, maxRetries: 0 });
            return client.projects.list("acme").then(
                () => undefined,
                (failure: unknown) => failure,
            );
        });
        expect(error).toBeInstanceOf(WosError);
        expect(error).toMatchObject({ status: 407 });
        expect(proxyLog.map(({ method, target }) => [method, target])).toEqual([["CONNECT", `wos.test:${tlsPort}`]]);
        expect(JSON.stringify(error)).not.toContain("wrong-pass-77d1");
    });
});

describe("NO_PROXY and loopback", () => {
    test.each([
        ["the host itself", "wos.test"],
        ["a .suffix", ".test"],
        ["a *.suffix", "*.test"],
        ["the host with its port, among others", "example.com, wos.test:PORT"],
        ["*", "*"],
        ["in lower case", "wos.test"],
    ])("NO_PROXY listing %s: the service is reached directly, the proxy asked nothing", async (label, value) => {
        const name = label === "in lower case" ? "no_proxy" : "NO_PROXY";
        for (const [address, port] of [[httpAddress(), servicePort], [httpsAddress(), tlsPort]] as const) {
            const outcome = await runClient({
                WOS_ADDRESS: address,
                HTTP_PROXY: proxyUrl(),
                HTTPS_PROXY: proxyUrl(),
                [name]: value.replace("PORT", String(port)),
            });
            expect({ address, outcome }).toEqual({ address, outcome: { lists: [ACME, ACME] } });
        }
        expect(proxyLog).toEqual([]);
    });

    test("NO_PROXY naming the host with another port, or another host: still proxied", async () => {
        const outcome = await runClient({ WOS_ADDRESS: httpAddress(), HTTP_PROXY: proxyUrl(), NO_PROXY: `wos.test:1,other.test,example.com` });
        expect(outcome).toEqual({ lists: [ACME, ACME] });
        expect(proxyLog).toHaveLength(2);
    });

    test("a loopback address (the local service's) is never proxied, whatever the proxy variables say", async () => {
        for (const address of [service.url, `http://localhost:${servicePort}`]) {
            const outcome = await runClient({ WOS_ADDRESS: address, HTTP_PROXY: proxyUrl(), HTTPS_PROXY: proxyUrl(), ALL_PROXY: proxyUrl() });
            expect({ address, outcome }).toEqual({ address, outcome: { lists: [ACME, ACME] } });
        }
        expect(proxyLog).toEqual([]);
    });
});

describe("proxy failures", () => {
    test("a proxy that refuses the credentials: the error says so and never shows the proxy's password or the token", async () => {
        proxyCredentials = "alice:right-password";
        const http407 = await runClient({ WOS_ADDRESS: httpAddress(), HTTP_PROXY: proxyUrl("alice:wrong-pass-5e1f") });
        expect(http407.error).toMatchObject({ name: "WosError", status: 407 });
        const https407 = await runClient({ WOS_ADDRESS: httpsAddress(), HTTPS_PROXY: proxyUrl("alice:wrong-pass-5e1f") });
        expect(https407.error).toMatchObject({ status: 407 });
        for (const outcome of [http407, https407]) {
            const shown = JSON.stringify(outcome);
            expect(shown).not.toContain("wrong-pass-5e1f");
            expect(shown).not.toContain(TOKENS.owners);
        }
    });

    test("a proxy that does not answer: a WosConnectionError without the proxy's password", async () => {
        const closed = net.createServer();
        await new Promise<void>((done) => closed.listen(0, "127.0.0.1", done));
        const port = (closed.address() as net.AddressInfo).port;
        await new Promise((done) => closed.close(done));
        for (const [address, variable] of [[httpAddress(), "HTTP_PROXY"], [httpsAddress(), "HTTPS_PROXY"]] as const) {
            const outcome = await runClient({ WOS_ADDRESS: address, [variable]: `http://bob:hunter2-secret@127.0.0.1:${port}` });
            expect({ variable, name: outcome.error?.name, code: outcome.error?.code }).toEqual({ variable, name: "WosConnectionError", code: "ECONNREFUSED" });
            expect(JSON.stringify(outcome)).not.toContain("hunter2-secret");
        }
    });

    test("a proxy variable that is not an http(s) proxy URL: a TypeError naming the variable, not its value", async () => {
        const cases: [Record<string, string>, string][] = [
            [{ ALL_PROXY: "socks5://carol:socks-secret@127.0.0.1:1080" }, "WosClient: the environment variable ALL_PROXY names a socks5 proxy; only http:// and https:// proxies are supported"],
            [{ https_proxy: "socks5://carol:socks-secret@127.0.0.1:1080" }, "WosClient: the environment variable HTTPS_PROXY names a socks5 proxy; only http:// and https:// proxies are supported"],
            [{ HTTP_PROXY: "http://[socks-secret" }, "WosClient: the environment variable HTTP_PROXY is not a proxy URL such as http://proxy.example.com:3128"],
        ];
        for (const [env, message] of cases) {
            const address = "HTTP_PROXY" in env ? httpAddress() : httpsAddress();
            const outcome = await runClient({ WOS_ADDRESS: address, ...env });
            expect(outcome).toEqual({ constructorError: { name: "TypeError", message } });
            expect(JSON.stringify(outcome)).not.toContain("socks-secret");
        }
    });
});
