/**
 * `@pulumi/pulumi`'s own dynamic provider host, driven over gRPC the way the Pulumi engine drives it.
 *
 * The engine starts `node <@pulumi/pulumi>/cmd/dynamic-provider/index.js <engine-address>` in the program's
 * directory, reads the port from the first line of stdout, and calls `Configure`, then `Check`, `Diff`,
 * `Create`, `Read`, `Update` and `Delete` with `google.protobuf.Struct` property bags. This module does the
 * same, with the gRPC stubs and runtime that `@pulumi/pulumi` ships, and converts to and from plain objects.
 *
 * Secrets follow the engine. The host answers `Configure` with `acceptSecrets=false`, so (as the engine's
 * `provider_plugin.go` does) every call after it strips secret markers from what it sends, and marks an
 * answered property secret when the property of the same name was secret in what was sent
 * (`annotateSecrets`). Each answer also carries the host's raw answer, before that marking.
 *
 * The native plugin `pulumi-resource-wos` ({@link startPluginHost}) is driven by the same client: it
 * answers `acceptSecrets=true`, so secrets travel as they are both ways, and it has the methods a dynamic
 * provider host lacks (`CheckConfig`, `DiffConfig`, `Invoke`, `GetSchema`, previews, `Read` for an import).
 */
import { ChildProcess, spawn } from "node:child_process";
import * as path from "node:path";
import { childEnv, PROGRAM_PROJECT } from "./packedPackage";

/** Key and value that mark a secret in a property bag (`@pulumi/pulumi` runtime/rpc). */
export const SECRET_SIG_KEY = "4dabf18193072939515e22adb298388d";
export const SECRET_SIG = "1b47061264138c4ac30d75fd1eb44270";
/** The value that stands for an unknown during preview (`pulumi.runtime.unknownValue`). */
export const UNKNOWN = "04da6b54-80e4-46f7-96ec-b56ff0331ba9";

export type PropertyMap = Record<string, unknown>;

export interface Secret<T = unknown> {
    [SECRET_SIG_KEY]: typeof SECRET_SIG;
    value: T;
}

/** Wraps a value in the engine's secret marker. */
export function secret<T>(value: T): Secret<T> {
    return { [SECRET_SIG_KEY]: SECRET_SIG, value };
}

export function isSecret(value: unknown): value is Secret {
    return typeof value === "object" && value !== null && (value as PropertyMap)[SECRET_SIG_KEY] === SECRET_SIG;
}

/** Whether a value is or holds a secret anywhere. */
export function containsSecrets(value: unknown): boolean {
    if (isSecret(value)) return true;
    if (Array.isArray(value)) return value.some(containsSecrets);
    if (typeof value === "object" && value !== null) return Object.values(value).some(containsSecrets);
    return false;
}

/** The value with every secret marker removed (what a provider with `acceptSecrets=false` receives). */
export function revealSecrets<T>(value: T): T {
    if (isSecret(value)) return revealSecrets(value.value) as T;
    if (Array.isArray(value)) return value.map(revealSecrets) as T;
    if (typeof value === "object" && value !== null) {
        return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, revealSecrets(v)])) as T;
    }
    return value;
}

/**
 * The engine's `annotateSecrets(outs, ins)`: for each key in both, recurse when both are objects, otherwise
 * mark the output secret when the input holds a secret. Returns a new map.
 */
export function annotateSecrets(outs: PropertyMap, ins: PropertyMap | undefined): PropertyMap {
    if (!ins) return outs;
    const result: PropertyMap = { ...outs };
    for (const [key, inValue] of Object.entries(ins)) {
        if (!(key in result)) continue;
        const outValue = result[key];
        if (isPlainObject(outValue) && isPlainObject(inValue)) {
            result[key] = annotateSecrets(outValue, inValue);
        } else if (!isSecret(outValue) && containsSecrets(inValue)) {
            result[key] = secret(outValue);
        }
    }
    return result;
}

function isPlainObject(value: unknown): value is PropertyMap {
    return typeof value === "object" && value !== null && !Array.isArray(value) && !isSecret(value);
}

/** A partial success (ErrorResourceInitFailed): the resource exists, and the engine keeps it in state. */
export interface InitFailure {
    id: string;
    /** The outputs the engine stores: secrets marked as the engine marks them (see {@link annotateSecrets}). */
    properties: PropertyMap;
    /** The host's raw answer, before that marking. */
    rawProperties: PropertyMap;
    reasons: string[];
}

/** A gRPC call that failed: the host's message, the status code, and a partial-success payload if any. */
export class ProviderCallError extends Error {
    constructor(
        readonly method: string,
        readonly code: number,
        readonly details: string,
        /** Present when `create`/`update` threw an error carrying `id` and `properties` (ErrorResourceInitFailed). */
        readonly initFailure?: InitFailure,
    ) {
        super(`${method} failed (gRPC status ${code}): ${details}`);
        this.name = "ProviderCallError";
    }
}

export interface ConfigureResult {
    acceptSecrets: boolean;
    supportsPreview: boolean;
    acceptResources: boolean;
    acceptOutputs: boolean;
}

export interface CheckResult {
    /** Checked inputs, secrets marked as the engine marks them. */
    inputs: PropertyMap;
    failures: Array<{ property: string; reason: string }>;
    rawInputs: PropertyMap;
}

export type DiffChanges = "unknown" | "none" | "some";

export interface DiffResult {
    changes: DiffChanges;
    replaces: string[];
    stables: string[];
    diffs: string[];
    deleteBeforeReplace: boolean;
    /** Whether {@link DiffResult.detailedDiff} is the provider's own. */
    hasDetailedDiff: boolean;
    /** Each changed property's kind: `ADD`, `UPDATE_REPLACE`, ... */
    detailedDiff: Record<string, string>;
}

export interface CreateResult {
    id: string;
    outputs: PropertyMap;
    rawOutputs: PropertyMap;
}

export interface ReadResult {
    /** Empty when the provider reports the resource gone. */
    id: string;
    outputs: PropertyMap;
    rawOutputs: PropertyMap;
    /** Inputs the provider returned for later diffs, if it returned any. */
    inputs?: PropertyMap;
}

export interface UpdateResult {
    outputs: PropertyMap;
    rawOutputs: PropertyMap;
}

export interface ProviderHostOptions {
    /** Working directory of the host: the program directory whose `node_modules` holds the package. */
    programDir: string;
    /** Pulumi project name (PULUMI_NODEJS_PROJECT / PULUMI_PROJECT). */
    project?: string;
    /** Stack name used by {@link ProviderHost.urn}. */
    stack?: string;
    /** Extra environment for the host (e.g. WOS_TOKEN); WOS_* of the caller's shell are never inherited. */
    env?: Record<string, string | undefined>;
    /** Deadline of each call; default 30 s. */
    callTimeoutMs?: number;
    /** How long to wait for the port line; default 60 s (a loaded 2-core machine). */
    startTimeoutMs?: number;
}

/* The generated gRPC stubs are untyped CommonJS: they are handled as `any` in this file. */
interface Stubs {
    grpc: any;
    provrpc: any;
    provproto: any;
    structproto: any;
    statusproto: any;
    emptyproto: any;
    pluginproto: any;
}

/** Loads the stubs and the gRPC runtime from the copy of `@pulumi/pulumi` the program resolves. */
function loadStubs(programDir: string): Stubs {
    const pulumiDir = path.dirname(require.resolve("@pulumi/pulumi/package.json", { paths: [programDir] }));
    const fromPulumi = (request: string) => require(require.resolve(request, { paths: [pulumiDir] }));
    return {
        grpc: fromPulumi("@grpc/grpc-js"),
        provrpc: require(path.join(pulumiDir, "proto", "provider_grpc_pb")),
        provproto: require(path.join(pulumiDir, "proto", "provider_pb")),
        structproto: fromPulumi("google-protobuf/google/protobuf/struct_pb"),
        statusproto: require(path.join(pulumiDir, "proto", "status_pb")),
        emptyproto: fromPulumi("google-protobuf/google/protobuf/empty_pb"),
        pluginproto: require(path.join(pulumiDir, "proto", "plugin_pb")),
    };
}

/** Starts a provider host for `options.programDir` and connects a client to it. */
export async function startProviderHost(options: ProviderHostOptions): Promise<ProviderHost> {
    const pulumiDir = path.dirname(require.resolve("@pulumi/pulumi/package.json", { paths: [options.programDir] }));
    const hostScript = path.join(pulumiDir, "cmd", "dynamic-provider", "index.js");
    // The engine address is required on the command line but never dialled by the host.
    return startHost(process.execPath, [hostScript, "127.0.0.1:1"], options);
}

/** Options of {@link startPluginHost}. */
export interface PluginHostOptions extends Omit<ProviderHostOptions, "programDir"> {
    /** The engine's address, where the plugin writes its log (a fake engine of the test); default one never dialled. */
    engineAddress?: string;
    /** The plugin's entry, run by this process's Node.js; default the build's `dist/plugin/main.js` (`npm run build`). */
    entry?: string;
    /** An executable to run instead (an installed plugin's `pulumi-resource-wos`), in `cwd` (default the repository). */
    executable?: string;
    /** Working directory of an {@link PluginHostOptions.executable}. */
    cwd?: string;
}

/** The repository's root: the plugin's working directory, whose `node_modules` hold `@pulumi/pulumi`. */
const REPO_ROOT = path.resolve(__dirname, "..", "..");

/**
 * Starts the native plugin `pulumi-resource-wos` as the engine does (`node dist/plugin/main.js
 * <engine-address>`, reading the port from its first line) and connects a client to it.
 */
export async function startPluginHost(options: PluginHostOptions = {}): Promise<ProviderHost> {
    const engineAddress = options.engineAddress ?? "127.0.0.1:1";
    if (options.executable) return startHost(options.executable, [engineAddress], { ...options, programDir: REPO_ROOT }, options.cwd);
    const entry = options.entry ?? path.join(REPO_ROOT, "dist", "plugin", "main.js");
    return startHost(process.execPath, [entry, engineAddress], { ...options, programDir: REPO_ROOT });
}

/**
 * Starts `command args` in `cwd` (default `options.programDir`, whose `@pulumi/pulumi` gives the stubs) as a
 * provider the engine talks to, and connects a client to it.
 */
async function startHost(command: string, args: string[], options: ProviderHostOptions, cwd = options.programDir): Promise<ProviderHost> {
    const stubs = loadStubs(options.programDir);
    const project = options.project ?? PROGRAM_PROJECT;
    const child = spawn(command, args, {
        cwd,
        env: childEnv({ PULUMI_NODEJS_PROJECT: project, PULUMI_PROJECT: project, ...options.env }),
        stdio: ["ignore", "pipe", "pipe"],
    });
    const host = new ProviderHost(child, stubs, project, options.stack ?? "test", options.callTimeoutMs ?? 30_000);
    try {
        await host.waitForPort(options.startTimeoutMs ?? 60_000);
    } catch (error) {
        await host.close();
        throw error;
    }
    return host;
}

/** A running provider host and a client to it. One per test file. */
export class ProviderHost {
    private readonly output: string[] = [];
    private stdoutRest = "";
    private port: number | undefined;
    private portWaiter: ((port: number | undefined) => void) | undefined;
    private startError: string | undefined;
    private client: any;
    private exited: Promise<void>;
    private exitInfo: string | undefined;
    private acceptSecrets = true;

    /** Milliseconds from spawn to the port line (a figure for reports). */
    startMs = 0;

    constructor(
        private readonly child: ChildProcess,
        private readonly stubs: Stubs,
        readonly project: string,
        readonly stack: string,
        private readonly callTimeoutMs: number,
    ) {
        child.stdout!.setEncoding("utf8");
        child.stderr!.setEncoding("utf8");
        child.stdout!.on("data", (chunk: string) => this.onStdout(chunk));
        child.stderr!.on("data", (chunk: string) => this.output.push(chunk));
        this.exited = new Promise((resolve) => {
            child.on("exit", (code, signal) => {
                this.exitInfo = `exited with code ${code} signal ${signal}`;
                resolve();
            });
        });
    }

    /**
     * The first stdout line is the port, as the engine reads it; anything else there is a failure to start.
     * Every later byte is log output.
     */
    private onStdout(chunk: string): void {
        if (this.port !== undefined || this.startError !== undefined) {
            this.output.push(chunk);
            return;
        }
        this.stdoutRest += chunk;
        const newline = this.stdoutRest.indexOf("\n");
        if (newline < 0) return;
        const first = this.stdoutRest.slice(0, newline).trim();
        const rest = this.stdoutRest.slice(newline + 1);
        this.stdoutRest = "";
        if (rest) this.output.push(rest);
        const port = Number(first);
        if (!/^\d+$/.test(first) || port <= 0 || port > 65535) {
            this.startError = `the first line of the host's stdout is not a port: ${JSON.stringify(first)}`;
            this.portWaiter?.(undefined);
            return;
        }
        this.port = port;
        this.portWaiter?.(port);
    }

    /** @internal */
    async waitForPort(timeoutMs: number): Promise<void> {
        const started = Date.now();
        const port = await new Promise<number>((resolve, reject) => {
            const timer = setTimeout(() => {
                this.child.kill("SIGKILL");
                reject(new Error(`provider host printed no port within ${timeoutMs} ms:\n${this.logs()}`));
            }, timeoutMs);
            this.portWaiter = (p) => {
                clearTimeout(timer);
                if (p === undefined) {
                    this.child.kill("SIGKILL");
                    reject(new Error(`${this.startError}\n${this.logs()}`));
                } else {
                    resolve(p);
                }
            };
            void this.exited.then(() => {
                clearTimeout(timer);
                reject(new Error(`provider host ${this.exitInfo} before printing its port:\n${this.logs()}`));
            });
        });
        this.startMs = Date.now() - started;
        const { grpc, provrpc } = this.stubs;
        this.client = new provrpc.ResourceProviderClient(`127.0.0.1:${port}`, grpc.credentials.createInsecure());
        await new Promise<void>((resolve, reject) =>
            this.client.waitForReady(new Date(Date.now() + timeoutMs), (error: Error | undefined) =>
                error ? reject(error) : resolve(),
            ),
        );
    }

    /** Everything the host printed after its port line (stdout and stderr). */
    logs(): string {
        return this.output.join("") + this.stdoutRest;
    }

    /** The URN the engine would give a resource of this project and stack. */
    urn(type: string, name: string): string {
        return `urn:pulumi:${this.stack}::${this.project}::${type}::${name}`;
    }

    /** Stops the host and closes the client. */
    async close(): Promise<void> {
        this.client?.close();
        if (this.child.exitCode === null && this.child.signalCode === null) {
            this.child.kill("SIGTERM");
            const timer = setTimeout(() => this.child.kill("SIGKILL"), 5_000);
            await this.exited;
            clearTimeout(timer);
        }
    }

    // -----------------------------------------------------------------------------------------------------
    // Conversions

    private toStruct(value: PropertyMap): any {
        // The engine never sends undefined (the SDK drops such properties); neither do we.
        const plain = JSON.parse(JSON.stringify(value)) as PropertyMap;
        return this.stubs.structproto.Struct.fromJavaScript(plain);
    }

    /** What the engine sends after `Configure`: secrets only if the host accepts them. */
    private outgoing(value: PropertyMap): any {
        return this.toStruct(this.acceptSecrets ? value : revealSecrets(value));
    }

    private static fromStruct(struct: any): PropertyMap {
        return struct ? (struct.toJavaScript() as PropertyMap) : {};
    }

    private call<T>(method: string, request: any, timeoutMs = this.callTimeoutMs): Promise<T> {
        const { grpc } = this.stubs;
        return new Promise<T>((resolve, reject) => {
            this.client[method](
                request,
                new grpc.Metadata(),
                { deadline: new Date(Date.now() + timeoutMs) },
                (error: any, response: T) => {
                    if (error) reject(this.toCallError(method, error));
                    else resolve(response);
                },
            );
        });
    }

    private toCallError(method: string, error: any): ProviderCallError {
        let initFailure: ProviderCallError["initFailure"];
        const details = error.metadata?.get?.("grpc-status-details-bin") ?? [];
        if (details.length > 0) {
            const { statusproto, provproto } = this.stubs;
            const status = statusproto.Status.deserializeBinary(new Uint8Array(details[0]));
            for (const any of status.getDetailsList()) {
                if (!String(any.getTypeUrl()).endsWith("pulumirpc.ErrorResourceInitFailed")) continue;
                const failure = provproto.ErrorResourceInitFailed.deserializeBinary(any.getValue_asU8());
                const properties = ProviderHost.fromStruct(failure.getProperties());
                initFailure = { id: failure.getId(), properties, rawProperties: properties, reasons: failure.getReasonsList() };
            }
        }
        return new ProviderCallError(method, error.code, String(error.details ?? error.message), initFailure);
    }

    // -----------------------------------------------------------------------------------------------------
    // The engine's calls

    /**
     * `Configure` with the whole stack config, keys fully qualified (`wos:token`); mark secret values with
     * {@link secret}. The host never answers a request without `args`, so every call here has a deadline.
     */
    async configure(config: PropertyMap, timeoutMs = 10_000, args?: PropertyMap): Promise<ConfigureResult> {
        const { provproto } = this.stubs;
        const request = new provproto.ConfigureRequest();
        // The engine's `args` are the provider's inputs (`token`, not `wos:token`); the dynamic host reads the variables.
        request.setArgs(this.toStruct(args ?? config));
        const variables = request.getVariablesMap();
        for (const [key, value] of Object.entries(config)) {
            const plain = revealSecrets(value);
            variables.set(key, typeof plain === "string" ? plain : JSON.stringify(plain));
        }
        request.setAcceptsecrets(true);
        request.setAcceptresources(true);
        request.setSendsOldInputs(true);
        request.setSendsOldInputsToDelete(true);
        const response = await this.call<any>("configure", request, timeoutMs);
        this.acceptSecrets = response.getAcceptsecrets();
        return {
            acceptSecrets: response.getAcceptsecrets(),
            supportsPreview: response.getSupportspreview(),
            acceptResources: response.getAcceptresources(),
            acceptOutputs: response.getAcceptoutputs(),
        };
    }

    /** `Check(urn, olds, news)`: olds are the previous inputs (`{}` on create). */
    async check(urn: string, olds: PropertyMap, news: PropertyMap): Promise<CheckResult> {
        const { provproto } = this.stubs;
        const request = new provproto.CheckRequest();
        this.setIdentity(request, urn);
        request.setOlds(this.outgoing(olds));
        request.setNews(this.outgoing(news));
        request.setRandomseed(new Uint8Array(32));
        const response = await this.call<any>("check", request);
        const rawInputs = ProviderHost.fromStruct(response.getInputs());
        return {
            rawInputs,
            inputs: this.acceptSecrets ? rawInputs : annotateSecrets(rawInputs, news),
            failures: response.getFailuresList().map((failure: any) => ({
                property: failure.getProperty(),
                reason: failure.getReason(),
            })),
        };
    }

    /** `Diff(urn, id, oldOutputs, newInputs, oldInputs)`. */
    async diff(
        urn: string,
        id: string,
        oldOutputs: PropertyMap,
        newInputs: PropertyMap,
        oldInputs: PropertyMap = {},
    ): Promise<DiffResult> {
        const { provproto } = this.stubs;
        const request = new provproto.DiffRequest();
        this.setIdentity(request, urn);
        request.setId(id);
        request.setOlds(this.outgoing(oldOutputs));
        request.setNews(this.outgoing(newInputs));
        request.setOldInputs(this.outgoing(oldInputs));
        const response = await this.call<any>("diff", request);
        return this.diffResult(response);
    }

    private diffResult(response: any): DiffResult {
        const { provproto } = this.stubs;
        const kinds = provproto.DiffResponse.DiffChanges;
        const changes = response.getChanges();
        const kindNames = Object.fromEntries(Object.entries(provproto.PropertyDiff.Kind).map(([name, value]) => [value, name]));
        const detailedDiff: Record<string, string> = {};
        response.getDetaileddiffMap().forEach((diff: any, key: string) => {
            detailedDiff[key] = kindNames[diff.getKind()] as string;
        });
        return {
            changes: changes === kinds.DIFF_NONE ? "none" : changes === kinds.DIFF_SOME ? "some" : "unknown",
            replaces: response.getReplacesList(),
            stables: response.getStablesList(),
            diffs: response.getDiffsList(),
            deleteBeforeReplace: response.getDeletebeforereplace(),
            hasDetailedDiff: response.getHasdetaileddiff(),
            detailedDiff,
        };
    }

    /** `Create(urn, checkedInputs)`; a preview only for a provider that supports previews (the plugin). */
    async create(urn: string, inputs: PropertyMap, options: { preview?: boolean } = {}): Promise<CreateResult> {
        const { provproto } = this.stubs;
        const request = new provproto.CreateRequest();
        this.setIdentity(request, urn);
        request.setProperties(this.outgoing(inputs));
        request.setTimeout(this.callTimeoutMs / 1000);
        request.setPreview(options.preview === true);
        const response = await this.call<any>("create", request).catch((error) => {
            throw this.withEngineSecrets(error, inputs);
        });
        const rawOutputs = ProviderHost.fromStruct(response.getProperties());
        return {
            id: response.getId(),
            rawOutputs,
            outputs: this.acceptSecrets ? rawOutputs : annotateSecrets(rawOutputs, inputs),
        };
    }

    /**
     * `Read(urn, id, state, inputs)`: what `pulumi refresh` does. Without `state`, what `pulumi import` does:
     * an id and no properties at all.
     */
    async read(urn: string, id: string, state?: PropertyMap, inputs?: PropertyMap): Promise<ReadResult> {
        const { provproto } = this.stubs;
        const request = new provproto.ReadRequest();
        this.setIdentity(request, urn);
        request.setId(id);
        if (state) request.setProperties(this.outgoing(state));
        if (inputs) request.setInputs(this.outgoing(inputs));
        const response = await this.call<any>("read", request);
        const rawOutputs = ProviderHost.fromStruct(response.getProperties());
        const result: ReadResult = {
            id: response.getId(),
            rawOutputs,
            outputs: this.acceptSecrets ? rawOutputs : annotateSecrets(rawOutputs, state ?? {}),
        };
        if (response.getInputs()) {
            const rawInputs = ProviderHost.fromStruct(response.getInputs());
            result.inputs = this.acceptSecrets ? rawInputs : annotateSecrets(rawInputs, inputs);
        }
        return result;
    }

    /** `Update(urn, id, oldOutputs, newInputs, oldInputs)`. */
    async update(
        urn: string,
        id: string,
        oldOutputs: PropertyMap,
        newInputs: PropertyMap,
        oldInputs: PropertyMap = {},
        options: { preview?: boolean } = {},
    ): Promise<UpdateResult> {
        const { provproto } = this.stubs;
        const request = new provproto.UpdateRequest();
        this.setIdentity(request, urn);
        request.setId(id);
        request.setOlds(this.outgoing(oldOutputs));
        request.setNews(this.outgoing(newInputs));
        request.setOldInputs(this.outgoing(oldInputs));
        request.setTimeout(this.callTimeoutMs / 1000);
        request.setPreview(options.preview === true);
        const response = await this.call<any>("update", request).catch((error) => {
            throw this.withEngineSecrets(error, newInputs);
        });
        const rawOutputs = ProviderHost.fromStruct(response.getProperties());
        return {
            rawOutputs,
            outputs: this.acceptSecrets ? rawOutputs : annotateSecrets(rawOutputs, newInputs),
        };
    }

    /** `Delete(urn, id, state, oldInputs)`. */
    async delete(urn: string, id: string, state: PropertyMap, oldInputs: PropertyMap = {}): Promise<void> {
        const { provproto } = this.stubs;
        const request = new provproto.DeleteRequest();
        this.setIdentity(request, urn);
        request.setId(id);
        request.setProperties(this.outgoing(state));
        request.setOldInputs(this.outgoing(oldInputs));
        request.setTimeout(this.callTimeoutMs / 1000);
        await this.call<unknown>("delete", request);
    }

    // -----------------------------------------------------------------------------------------------------
    // What only a native plugin answers

    /** `GetPluginInfo`: the plugin's version. */
    async getPluginInfo(): Promise<{ version: string }> {
        const response = await this.call<any>("getPluginInfo", new this.stubs.emptyproto.Empty());
        return { version: response.getVersion() };
    }

    /** `GetSchema`: the package schema, parsed. */
    async getSchema(): Promise<any> {
        const request = new this.stubs.provproto.GetSchemaRequest();
        request.setVersion(0);
        const response = await this.call<any>("getSchema", request);
        return JSON.parse(response.getSchema());
    }

    /** `CheckConfig(urn, olds, news)` of the provider resource `pulumi:providers:<package>`: inputs as checked, failures. */
    async checkConfig(urn: string, olds: PropertyMap, news: PropertyMap): Promise<CheckResult> {
        const { provproto } = this.stubs;
        const request = new provproto.CheckRequest();
        this.setIdentity(request, urn);
        request.setOlds(this.toStruct(olds));
        request.setNews(this.toStruct(news));
        const response = await this.call<any>("checkConfig", request);
        const rawInputs = ProviderHost.fromStruct(response.getInputs());
        return {
            rawInputs,
            inputs: rawInputs,
            failures: response.getFailuresList().map((failure: any) => ({ property: failure.getProperty(), reason: failure.getReason() })),
        };
    }

    /** `DiffConfig(urn, olds, news)` of the provider resource. */
    async diffConfig(urn: string, olds: PropertyMap, news: PropertyMap): Promise<DiffResult> {
        const { provproto } = this.stubs;
        const request = new provproto.DiffRequest();
        this.setIdentity(request, urn);
        request.setOlds(this.toStruct(olds));
        request.setNews(this.toStruct(news));
        request.setOldInputs(this.toStruct(olds));
        return this.diffResult(await this.call<any>("diffConfig", request));
    }

    /** `Invoke(token, args)`: a function's result, as a plain object (secrets as sent). */
    async invoke(token: string, args: PropertyMap): Promise<{ result: PropertyMap; failures: Array<{ property: string; reason: string }> }> {
        const { provproto } = this.stubs;
        const request = new provproto.InvokeRequest();
        request.setTok(token);
        request.setArgs(this.toStruct(args));
        const response = await this.call<any>("invoke", request);
        return {
            result: ProviderHost.fromStruct(response.getReturn()),
            failures: response.getFailuresList().map((failure: any) => ({ property: failure.getProperty(), reason: failure.getReason() })),
        };
    }

    /**
     * `Construct` of a multi-language component, as the engine asks it: `type`, `name`, the inputs (mark secrets
     * with {@link secret}) with the URNs each input depends on, the resource monitor and the options. Answers the
     * component's URN and its state (secrets as sent).
     */
    async construct(
        type: string,
        name: string,
        inputs: PropertyMap,
        options: {
            monitor: string;
            parent?: string;
            dryRun?: boolean;
            providers?: Record<string, string>;
            inputDependencies?: Record<string, string[]>;
            dependencies?: string[];
            config?: Record<string, string>;
            protect?: boolean;
            /** Aliases: an old URN, or an old name. */
            aliases?: Array<string | { name: string }>;
        },
    ): Promise<{ urn: string; state: PropertyMap; stateDependencies: Record<string, string[]> }> {
        const { provproto } = this.stubs;
        const request = new provproto.ConstructRequest();
        request.setProject(this.project);
        request.setStack(this.stack);
        request.setType(type);
        request.setName(name);
        request.setParent(options.parent ?? "");
        request.setMonitorendpoint(options.monitor);
        request.setDryrun(options.dryRun ?? false);
        request.setParallel(4);
        request.setInputs(this.toStruct(inputs));
        request.setDependenciesList(options.dependencies ?? []);
        request.setProtect(options.protect ?? false);
        if (options.aliases) {
            const aliasproto = require(path.join(path.dirname(require.resolve("@pulumi/pulumi/package.json", { paths: [REPO_ROOT] })), "proto", "alias_pb"));
            request.setAliasesList(
                options.aliases.map((alias) =>
                    typeof alias === "string" ? new aliasproto.Alias().setUrn(alias) : new aliasproto.Alias().setSpec(new aliasproto.Alias.Spec().setName(alias.name)),
                ),
            );
        }
        for (const [pkg, ref] of Object.entries(options.providers ?? {})) request.getProvidersMap().set(pkg, ref);
        for (const [key, urns] of Object.entries(options.inputDependencies ?? {})) {
            request.getInputdependenciesMap().set(key, new provproto.ConstructRequest.PropertyDependencies().setUrnsList(urns));
        }
        for (const [key, value] of Object.entries(options.config ?? {})) request.getConfigMap().set(key, value);
        const response = await this.call<any>("construct", request);
        const stateDependencies: Record<string, string[]> = {};
        response.getStatedependenciesMap().forEach((dependencies: any, key: string) => (stateDependencies[key] = dependencies.getUrnsList()));
        return { urn: response.getUrn(), state: ProviderHost.fromStruct(response.getState()), stateDependencies };
    }

    /** `Cancel`: the engine's call when it stops. */
    async cancel(): Promise<void> {
        await this.call<unknown>("cancel", new this.stubs.emptyproto.Empty());
    }

    /** `GetMapping(key)`: the provider it maps to and the mapping's bytes. */
    async getMapping(key: string): Promise<{ provider: string; data: Uint8Array }> {
        const request = new this.stubs.provproto.GetMappingRequest();
        request.setKey(key);
        const response = await this.call<any>("getMapping", request);
        return { provider: response.getProvider(), data: response.getData_asU8() };
    }

    /** `GetMappings(key)`: the providers it has mappings for. */
    async getMappings(key: string): Promise<string[]> {
        const request = new this.stubs.provproto.GetMappingsRequest();
        request.setKey(key);
        const response = await this.call<any>("getMappings", request);
        return response.getProvidersList();
    }

    /** `Attach(address)`: the engine's address, given after start (how the engine attaches to a running plugin). */
    async attach(address: string): Promise<void> {
        const request = new this.stubs.pluginproto.PluginAttach();
        request.setAddress(address);
        await this.call<unknown>("attach", request);
    }

    /**
     * The engine stores a partial success's properties as the resource's outputs, marking them secret as it
     * marks a successful answer's (`provider_plugin.go` Create and Update).
     */
    private withEngineSecrets(error: unknown, inputs: PropertyMap): unknown {
        if (error instanceof ProviderCallError && error.initFailure && !this.acceptSecrets) {
            error.initFailure.properties = annotateSecrets(error.initFailure.rawProperties, inputs);
        }
        return error;
    }

    private setIdentity(request: any, urn: string): void {
        const parts = urn.split("::");
        request.setUrn(urn);
        request.setType(parts[2] ?? "");
        request.setName(parts[3] ?? "");
    }
}
