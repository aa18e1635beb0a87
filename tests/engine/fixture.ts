/**
 * What every engine test file starts with: the local service on a free port, the packed package in a
 * temporary program directory, the registrations of a small program run under mocks (which carry the
 * serialized providers, byte for byte what `pulumi up` stores), and one provider host configured as the
 * engine configures it: `wos:address` plain, `wos:token` as a secret.
 */
import * as fs from "node:fs";
import * as path from "node:path";
import { createHash } from "node:crypto";
import { packedProgram, runUnderMocks, type PackedProgram, type Registration } from "../support/packedPackage";
import {
    secret,
    startProviderHost,
    type ConfigureResult,
    type PropertyMap,
    type ProviderHost,
} from "../support/providerHost";
import type { ServerOptions } from "../../server/app";
import { startTestServer, type TestServer } from "../support/server";
import { REGISTRY_MODULES, TOKENS, WORKSPACES } from "../support/seed";

/** The type tokens: part of every URN, so they must never change. */
export const TYPES = {
    project: "pulumi-nodejs:dynamic/wos:Project",
    projectTagBindings: "pulumi-nodejs:dynamic/wos:ProjectTagBindings",
    variable: "pulumi-nodejs:dynamic/wos:Variable",
    noCodeModule: "pulumi-nodejs:dynamic/wos:NoCodeModule",
    noCodeWorkspace: "pulumi-nodejs:dynamic/wos:NoCodeWorkspace",
    workspace: "pulumi-nodejs:dynamic/wos:Workspace",
} as const;

/** The token the hosts are configured with (the seed's `platform` team: manages projects and variables). */
export const TOKEN = TOKENS.platform;

/** Setup of a test file: packing (maybe building), a server, a mock run and a host on a 2-core machine. */
export const SETUP_TIMEOUT_MS = 240_000;

/**
 * One registration of each resource kind of projects and variables (two variables: plain and sensitive); the
 * no-code resources have {@link NO_CODE_CAPTURE_PROGRAM}. Both programs run with the real token in their
 * stack config and environment, so a serialized provider that captured a credential would show it.
 */
const CAPTURE_PROGRAM = `"use strict";
const pulumi = require("@pulumi/pulumi");
const wos = require("pulumi-wos");
const config = new pulumi.Config("wos");
config.requireSecret("token");
const project = new wos.Project("capture-project", {
    organization: "acme",
    name: "Capture Project",
    description: "made by the engine tests",
    autoDestroyActivityDuration: "14d",
    tags: { team: "platform" },
});
new wos.ProjectTagBindings("capture-tags", { projectId: project.id, tags: { "cost-center": "1234" } });
new wos.Variable("capture-plain", { workspaceId: "${WORKSPACES.appsWeb}", key: "LOG_LEVEL", value: "info", category: "env" });
new wos.Variable("capture-sensitive", {
    workspaceId: "${WORKSPACES.appsWeb}",
    key: "DB_PASSWORD",
    value: "not-marked-secret-by-the-program",
    category: "env",
    sensitive: true,
});
`;

/** The value the no-code capture program gives its sensitive workspace var, not marked secret by the program. */
export const NO_CODE_SENSITIVE_VALUE = "nocode-value-not-marked-secret-by-the-program";

/**
 * The capture program of the no-code engine tests: a no-code module of the seed's `bucket` (pinned to
 * 1.0.0, two options sets) and a workspace made from it with two `infra` vars and a sensitive `env` var
 * whose value the program leaves unmarked (the class must protect it). Under mocks the module's id is
 * `capture-module-id` and the project id a placeholder: the tests put in the real ids.
 */
export const NO_CODE_CAPTURE_PROGRAM = `"use strict";
const pulumi = require("@pulumi/pulumi");
const wos = require("pulumi-wos");
const config = new pulumi.Config("wos");
config.requireSecret("token");
const bucket = new wos.NoCodeModule("capture-module", {
    organization: "acme",
    registryModuleId: "${REGISTRY_MODULES.bucket}",
    versionPin: "1.0.0",
    enabled: true,
    variableOptions: [
        { variableName: "region", variableType: "string", options: ["eu-west-1", "us-east-1"] },
        { variableName: "size", variableType: "number", options: ["1", "2", "3"] },
    ],
});
new wos.NoCodeWorkspace("capture-workspace", {
    noCodeModuleId: bucket.id,
    moduleVersion: bucket.versionPin,
    projectId: "prj-replaced-by-the-tests",
    name: "capture-site",
    description: "made by the engine tests",
    autoApply: true,
    sourceName: "engine tests",
    sourceUrl: "https://example.com/engine-tests",
    vars: [
        { key: "region", value: "eu-west-1", category: "infra" },
        { key: "size", value: "2", category: "infra", description: "number of buckets" },
        { key: "DB_PASSWORD", value: "${NO_CODE_SENSITIVE_VALUE}", category: "env", sensitive: true },
    ],
    upgradeTimeoutSeconds: 120,
});
`;

/**
 * The capture program of the `wos.Workspace` engine tests: a workspace with every setting in a project (a
 * placeholder id the tests replace), and a workspace and a project that leave `organization` (and the
 * workspace its project) out, for the default organization (`wos:organization`) to fill in.
 */
export const WORKSPACE_CAPTURE_PROGRAM = `"use strict";
const pulumi = require("@pulumi/pulumi");
const wos = require("pulumi-wos");
const config = new pulumi.Config("wos");
config.requireSecret("token");
new wos.Workspace("capture-workspace", {
    organization: "acme",
    name: "capture-workspace",
    projectId: "prj-replaced-by-the-tests",
    description: "made by the engine tests",
    autoApply: true,
});
new wos.Workspace("capture-default-org-workspace", { name: "capture-default-org" });
new wos.Project("capture-default-org-project", { name: "Capture Default Org" });
`;

/**
 * Upgrade timing of the no-code engine tests: a plan step of the service (`--plan-step-ms`) and the first
 * poll delay of the provider (`WOS_UPGRADE_POLL_MS`), both small so that a whole upgrade takes well under a
 * second instead of the defaults' several seconds.
 */
export const FAST_UPGRADES = { planStepMs: 50, pollMs: 20 } as const;

/**
 * Registrations of a capture program ({@link CAPTURE_PROGRAM} unless told), run once per packed content and
 * program: the result is kept in the program directory (written to a temporary name and renamed, so
 * parallel workers never read half a file).
 */
export async function captureRegistrations(program: PackedProgram, captureProgram = CAPTURE_PROGRAM): Promise<Registration[]> {
    const key = createHash("sha256").update(captureProgram).digest("hex").slice(0, 12);
    const cached = path.join(program.dir, `.registrations-${key}.json`);
    if (fs.existsSync(cached)) return JSON.parse(fs.readFileSync(cached, "utf8")) as Registration[];
    const source = path.join(program.dir, `.capture-${key}-${process.pid}.js`);
    fs.writeFileSync(source, captureProgram);
    try {
        const run = await runUnderMocks(program.dir, source, {
            env: {
                PULUMI_CONFIG: JSON.stringify({ "wos:token": TOKEN }),
                PULUMI_CONFIG_SECRET_KEYS: JSON.stringify(["wos:token"]),
                WOS_TOKEN: TOKEN,
            },
        });
        const temporary = `${cached}.${process.pid}`;
        fs.writeFileSync(temporary, JSON.stringify(run.registrations));
        fs.renameSync(temporary, cached);
        return run.registrations;
    } finally {
        fs.rmSync(source, { force: true });
    }
}

export interface EngineFixture {
    server: TestServer;
    host: ProviderHost;
    /** The host's answer to Configure. */
    configured: ConfigureResult;
    program: PackedProgram;
    registrations: Registration[];
    /** The registration of a capture resource by its Pulumi name. */
    registration(name: string): Registration;
    /** Milliseconds spent packing (cache hit: hashing only), in the mock run, and starting the host. */
    timings: { packMs: number; captureMs: number; hostStartMs: number };
    /**
     * Another provider host on the same service, configured with `token` (the host configures each provider
     * once, so another principal needs another host); closed with the fixture.
     */
    anotherHost(token: string): Promise<ProviderHost>;
    close(): Promise<void>;
}

/** Options of {@link startEngineFixture}. */
export interface EngineFixtureOptions {
    /** Replaces the default Configure arguments (`wos:address` and `wos:token` of {@link TOKEN}). */
    config?: (server: TestServer) => PropertyMap;
    /** Added to the environment of the host (and of {@link EngineFixture.anotherHost}'s). */
    hostEnv?: Record<string, string>;
    /** The program whose registrations the fixture holds; default {@link CAPTURE_PROGRAM}. */
    captureProgram?: string;
    /** Options of the test server (e.g. `planStepMs`). */
    server?: Partial<ServerOptions>;
}

/** Starts the fixture of one test file (see {@link EngineFixtureOptions}). */
export async function startEngineFixture(options: EngineFixtureOptions = {}): Promise<EngineFixture> {
    let started = Date.now();
    const program = await packedProgram();
    const packMs = Date.now() - started;
    started = Date.now();
    const registrations = await captureRegistrations(program, options.captureProgram);
    const captureMs = Date.now() - started;
    const server = await startTestServer(options.server);
    let host: ProviderHost | undefined;
    let configured: ConfigureResult;
    try {
        host = await startProviderHost({ programDir: program.dir, env: options.hostEnv });
        const config = options.config?.(server) ?? { "wos:address": server.url, "wos:token": secret(TOKEN) };
        configured = await host.configure(config);
    } catch (error) {
        await host?.close();
        await server.close();
        throw error;
    }
    const liveHost = host;
    const otherHosts: ProviderHost[] = [];
    return {
        server,
        host: liveHost,
        configured,
        program,
        registrations,
        registration(name: string): Registration {
            const found = registrations.find((registration) => registration.name === name);
            if (!found) throw new Error(`no registration named ${name}`);
            return found;
        },
        timings: { packMs, captureMs, hostStartMs: liveHost.startMs },
        async anotherHost(token: string): Promise<ProviderHost> {
            const other = await startProviderHost({ programDir: program.dir, env: options.hostEnv });
            otherHosts.push(other);
            await other.configure({ "wos:address": server.url, "wos:token": secret(token) });
            return other;
        },
        async close() {
            await Promise.all([liveHost, ...otherHosts].map((h) => h.close()));
            await server.close();
        },
    };
}

/**
 * The fixture of a test file: started before its first test and closed after its last one. The object is
 * filled in by `beforeAll`, so use it inside tests and hooks only.
 */
export function useEngineFixture(options: EngineFixtureOptions = {}): EngineFixture {
    const fixture = {} as EngineFixture;
    let started: EngineFixture | undefined;
    beforeAll(async () => {
        started = await startEngineFixture(options);
        Object.assign(fixture, started);
    }, SETUP_TIMEOUT_MS);
    afterAll(async () => {
        await started?.close();
    });
    return fixture;
}

/**
 * The fixture of a no-code test file: the no-code capture program, and upgrades made fast on both sides
 * ({@link FAST_UPGRADES}) unless `server.planStepMs` says otherwise.
 */
export function useNoCodeEngineFixture(options: Pick<EngineFixtureOptions, "server"> = {}): EngineFixture {
    return useEngineFixture({
        captureProgram: NO_CODE_CAPTURE_PROGRAM,
        server: { planStepMs: FAST_UPGRADES.planStepMs, ...options.server },
        hostEnv: { WOS_UPGRADE_POLL_MS: String(FAST_UPGRADES.pollMs) },
    });
}

/** The tag bindings of a project as a map, read over raw HTTP with the owners' token (not through the code under test). */
export async function tagsOf(server: TestServer, projectId: string): Promise<Record<string, string>> {
    const response = await server.request("GET", `/projects/${projectId}/tag-bindings`, { token: TOKENS.owners });
    expect(response.status).toBe(200);
    const tags: Record<string, string> = {};
    for (const binding of response.body.data) tags[binding.attributes.key] = binding.attributes.value;
    return tags;
}

/** Every secret a test must never see outside a secret: the seed's tokens and the admin token. */
export const ALL_TOKENS: string[] = [...Object.values(TOKENS), "admin-token"];

/** The tokens (if any) that occur in `value`, serialized. */
export function tokensIn(value: unknown): string[] {
    const text = typeof value === "string" ? value : JSON.stringify(value) ?? "";
    return ALL_TOKENS.filter((token) => text.includes(token));
}

/** Runs `call` expecting it to fail, and returns the error. */
export async function failure(call: Promise<unknown>): Promise<Error> {
    try {
        await call;
    } catch (error) {
        return error as Error;
    }
    throw new Error("expected the call to fail, and it succeeded");
}
