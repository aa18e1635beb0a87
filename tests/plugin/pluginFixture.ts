/**
 * What every test file of the native plugin starts with: the local service on a free port, a fake engine
 * (the engine's `Log` service, where the plugin writes the upgrades' progress), and the plugin
 * `pulumi-resource-wos` as a child process (`node dist/plugin/main.js <engine-address>`, built first when a
 * source is newer), configured as the engine configures a provider: `address` plain, `token` a secret.
 */
import * as grpc from "@grpc/grpc-js";
import type { ServerOptions } from "../../server/app";
import { builtDist } from "../support/packedPackage";
import { secret, startPluginHost, type ConfigureResult, type PropertyMap, type ProviderHost } from "../support/providerHost";
import { startTestServer, type TestServer } from "../support/server";
import { TOKENS } from "../support/seed";

/** The type tokens of the plugin's resources. */
export const TYPES = {
    project: "wos:index:Project",
    projectTagBindings: "wos:index:ProjectTagBindings",
    variable: "wos:index:Variable",
    workspace: "wos:index:Workspace",
    noCodeModule: "wos:index:NoCodeModule",
    noCodeWorkspace: "wos:index:NoCodeWorkspace",
} as const;

/** The token the plugin is configured with (the seed's `platform` team: manages projects, modules and variables). */
export const TOKEN = TOKENS.platform;

/** Setup of a test file: maybe a build, a server, an engine and a plugin on a loaded 2-core machine. */
export const SETUP_TIMEOUT_MS = 300_000;

/** Upgrade timing: a short plan step of the service and a short first poll of the plugin. */
export const FAST_UPGRADES = { planStepMs: 50, pollMs: 20 } as const;

/** One line the plugin wrote to the engine's log. */
export interface EngineLogLine {
    urn: string;
    message: string;
    severity: number;
}

/** A fake of the engine's side: its `Log` service, recording every line. */
export interface FakeEngine {
    /** `127.0.0.1:<port>`: what the engine passes the plugin on its command line. */
    address: string;
    lines: EngineLogLine[];
    close(): Promise<void>;
}

/**
 * Starts a fake engine that serves `Log` (every other method of the Engine service answers UNIMPLEMENTED).
 * With `answerDelayMs`, the call number `n` (from 0) is handled that long after it arrives, and recorded then,
 * as an engine that handles each call on its own may do.
 */
export async function startFakeEngine(options: { answerDelayMs?: (call: number) => number } = {}): Promise<FakeEngine> {
    const { EngineService } = require("@pulumi/pulumi/proto/engine_grpc_pb");
    const { Empty } = require("google-protobuf/google/protobuf/empty_pb");
    const lines: EngineLogLine[] = [];
    const server = new grpc.Server();
    let calls = 0;
    server.addService(EngineService, {
        log: (call: any, callback: (error: null, response: unknown) => void) => {
            const handle = () => {
                lines.push({ urn: call.request.getUrn(), message: call.request.getMessage(), severity: call.request.getSeverity() });
                callback(null, new Empty());
            };
            const delay = options.answerDelayMs?.(calls++) ?? 0;
            if (delay > 0) setTimeout(handle, delay);
            else handle();
        },
    });
    const port = await new Promise<number>((resolve, reject) =>
        server.bindAsync("127.0.0.1:0", grpc.ServerCredentials.createInsecure(), (error, bound) => (error ? reject(error) : resolve(bound))),
    );
    return {
        address: `127.0.0.1:${port}`,
        lines,
        close: () => new Promise<void>((resolve) => server.tryShutdown(() => resolve())),
    };
}

/**
 * What `Configure` gets for a provider: its arguments (`token` a secret, `more` added as they are) and the stack
 * config's variables (each of `more` as `wos:<key>`).
 */
export function providerConfig(address: string, token: string, organization?: string, more: PropertyMap = {}): { args: PropertyMap; variables: PropertyMap } {
    const args: PropertyMap = { address, token: secret(token), ...(organization ? { organization } : {}), ...more };
    const variables: PropertyMap = {
        "wos:address": address,
        "wos:token": secret(token),
        ...(organization ? { "wos:organization": organization } : {}),
        ...Object.fromEntries(Object.entries(more).map(([key, value]) => [`wos:${key}`, value])),
    };
    return { args, variables };
}

export interface PluginFixture {
    server: TestServer;
    engine: FakeEngine;
    /** The plugin, configured with {@link TOKEN} (and `organization` when the options name one). */
    plugin: ProviderHost;
    configured: ConfigureResult;
    /** The URN the engine gives a resource of the test stack. */
    urn(type: string, name: string): string;
    /**
     * Another plugin process (what the engine starts for an explicit provider), configured with `token` (and
     * the configuration's other keys in `more`); closed with the fixture.
     */
    anotherPlugin(token: string, organization?: string, address?: string, more?: PropertyMap): Promise<ProviderHost>;
    close(): Promise<void>;
}

/** Options of {@link usePluginFixture}. */
export interface PluginFixtureOptions {
    server?: Partial<ServerOptions>;
    /** The default organization of the plugin's configuration. */
    organization?: string;
    /** Added to the plugin's environment. */
    env?: Record<string, string>;
    /** How the fake engine handles `Log` calls (see {@link startFakeEngine}). */
    engine?: Parameters<typeof startFakeEngine>[0];
}

async function startPluginFixture(options: PluginFixtureOptions): Promise<PluginFixture> {
    await builtDist();
    const server = await startTestServer(options.server);
    const engine = await startFakeEngine(options.engine);
    const plugins: ProviderHost[] = [];
    const start = async (token: string, organization?: string, address = server.url, more?: PropertyMap): Promise<ProviderHost> => {
        const plugin = await startPluginHost({ engineAddress: engine.address, env: options.env });
        plugins.push(plugin);
        const { args, variables } = providerConfig(address, token, organization, more);
        await plugin.configure(variables, 10_000, args);
        return plugin;
    };
    try {
        const plugin = await start(TOKEN, options.organization);
        const { args, variables } = providerConfig(server.url, TOKEN, options.organization);
        const configured = await plugin.configure(variables, 10_000, args);
        return {
            server,
            engine,
            plugin,
            configured,
            urn: (type, name) => plugin.urn(type, name),
            anotherPlugin: start,
            async close() {
                await Promise.all(plugins.map((each) => each.close()));
                await engine.close();
                await server.close();
            },
        };
    } catch (error) {
        await Promise.all(plugins.map((each) => each.close()));
        await engine.close();
        await server.close();
        throw error;
    }
}

/** The fixture of a test file: started before its first test, closed after its last. Use it inside tests and hooks. */
export function usePluginFixture(options: PluginFixtureOptions = {}): PluginFixture {
    const fixture = {} as PluginFixture;
    let started: PluginFixture | undefined;
    beforeAll(async () => {
        started = await startPluginFixture(options);
        Object.assign(fixture, started);
    }, SETUP_TIMEOUT_MS);
    afterAll(async () => {
        await started?.close();
    });
    return fixture;
}
