/**
 * `@pulumi/pulumi`'s own dynamic provider host, driven over gRPC as the Pulumi engine drives it: the part of
 * `tests/support/providerHost.ts` the provider bench needs (start, `Configure`, `Check`, `Diff`, `Create`,
 * `Delete`), kept here because the bench is compiled apart from the tests. That file also says how the
 * engine runs the host.
 *
 * @module
 */
import { spawn, type ChildProcess } from "node:child_process";
import * as path from "node:path";

/* The generated gRPC stubs are untyped CommonJS: they are handled as `any` here. */
interface Stubs {
    grpc: any;
    provrpc: any;
    provproto: any;
    structproto: any;
}

/** The `@pulumi/pulumi` of this repository (the program directory links only the package under test). */
const PULUMI_DIR = path.dirname(require.resolve("@pulumi/pulumi/package.json"));

function loadStubs(): Stubs {
    const pulumiDir = PULUMI_DIR;
    const fromPulumi = (request: string) => require(require.resolve(request, { paths: [pulumiDir] }));
    return {
        grpc: fromPulumi("@grpc/grpc-js"),
        provrpc: require(path.join(pulumiDir, "proto", "provider_grpc_pb")),
        provproto: require(path.join(pulumiDir, "proto", "provider_pb")),
        structproto: fromPulumi("google-protobuf/google/protobuf/struct_pb"),
    };
}

export type PropertyMap = Record<string, unknown>;

/** A running provider host (its own process, started in `programDir`) and a gRPC client to it. */
export class ProviderHost {
    readonly #stubs: Stubs;
    readonly #child: ChildProcess;
    readonly #client: any;
    readonly #exited: Promise<void>;
    readonly #project: string;

    private constructor(stubs: Stubs, child: ChildProcess, client: any, exited: Promise<void>, project: string) {
        this.#stubs = stubs;
        this.#child = child;
        this.#client = client;
        this.#exited = exited;
        this.#project = project;
    }

    /** The host process's id (its CPU time is read from /proc). */
    get pid(): number {
        return this.#child.pid!;
    }

    /** Starts the host as the engine does and connects to the port it prints first. */
    static async start(programDir: string, project: string): Promise<ProviderHost> {
        const stubs = loadStubs();
        const pulumiDir = PULUMI_DIR;
        const env: NodeJS.ProcessEnv = { ...process.env, PULUMI_NODEJS_PROJECT: project, PULUMI_PROJECT: project };
        for (const key of ["NODE_OPTIONS", "NODE_PATH", "WOS_ADDRESS", "WOS_TOKEN", "PULUMI_CONFIG"]) delete env[key];
        // The engine address is required on the command line but never dialled by the host.
        const child = spawn(process.execPath, [path.join(pulumiDir, "cmd", "dynamic-provider", "index.js"), "127.0.0.1:1"], {
            cwd: programDir,
            env,
            stdio: ["ignore", "pipe", "inherit"],
        });
        const exited = new Promise<void>((resolve) => child.once("exit", () => resolve()));
        const port = await new Promise<number>((resolve, reject) => {
            let text = "";
            const onData = (chunk: Buffer) => {
                text += chunk.toString("utf8");
                const newline = text.indexOf("\n");
                if (newline < 0) return;
                child.stdout!.off("data", onData);
                // Later output (the provider's logs) is drained and dropped.
                child.stdout!.resume();
                const first = text.slice(0, newline).trim();
                if (/^\d+$/.test(first)) resolve(Number(first));
                else reject(new Error(`the provider host printed ${JSON.stringify(first)} instead of its port`));
            };
            child.stdout!.on("data", onData);
            void exited.then(() => reject(new Error("the provider host exited before printing its port")));
        });
        const client = new stubs.provrpc.ResourceProviderClient(`127.0.0.1:${port}`, stubs.grpc.credentials.createInsecure());
        await new Promise<void>((resolve, reject) =>
            client.waitForReady(new Date(Date.now() + 30_000), (error: Error | undefined) => (error ? reject(error) : resolve())),
        );
        return new ProviderHost(stubs, child, client, exited, project);
    }

    /** The URN the engine gives a resource of this project (stack `bench`). */
    urn(type: string, name: string): string {
        return `urn:pulumi:bench::${this.#project}::${type}::${name}`;
    }

    async close(): Promise<void> {
        this.#client.close();
        if (this.#child.exitCode === null && this.#child.signalCode === null) this.#child.kill("SIGTERM");
        await this.#exited;
    }

    #struct(value: PropertyMap): any {
        return this.#stubs.structproto.Struct.fromJavaScript(JSON.parse(JSON.stringify(value)));
    }

    #call<T>(method: string, request: any): Promise<T> {
        return new Promise<T>((resolve, reject) => {
            this.#client[method](request, new this.#stubs.grpc.Metadata(), { deadline: new Date(Date.now() + 60_000) }, (error: any, response: T) =>
                error ? reject(new Error(`${method} failed: ${error.details ?? error.message}`)) : resolve(response),
            );
        });
    }

    #identify(request: any, urn: string): void {
        const parts = urn.split("::");
        request.setUrn(urn);
        request.setType(parts[2] ?? "");
        request.setName(parts[3] ?? "");
    }

    /** `Configure` with the stack config, keys fully qualified (`wos:token`). */
    async configure(config: Record<string, string>): Promise<void> {
        const request = new this.#stubs.provproto.ConfigureRequest();
        request.setArgs(this.#struct(config));
        const variables = request.getVariablesMap();
        for (const [key, value] of Object.entries(config)) variables.set(key, value);
        request.setAcceptsecrets(true);
        request.setAcceptresources(true);
        request.setSendsOldInputs(true);
        request.setSendsOldInputsToDelete(true);
        await this.#call("configure", request);
    }

    /** `Check(urn, olds, news)`: the checked inputs; throws on failures. */
    async check(urn: string, olds: PropertyMap, news: PropertyMap): Promise<PropertyMap> {
        const request = new this.#stubs.provproto.CheckRequest();
        this.#identify(request, urn);
        request.setOlds(this.#struct(olds));
        request.setNews(this.#struct(news));
        request.setRandomseed(new Uint8Array(32));
        const response = await this.#call<any>("check", request);
        const failures = response.getFailuresList();
        if (failures.length > 0) throw new Error(`check failed: ${failures.map((f: any) => f.getReason()).join("; ")}`);
        return response.getInputs().toJavaScript() as PropertyMap;
    }

    /** `Diff(urn, id, oldOutputs, newInputs, oldInputs)`: whether anything changes. */
    async diff(urn: string, id: string, olds: PropertyMap, news: PropertyMap, oldInputs: PropertyMap): Promise<boolean> {
        const request = new this.#stubs.provproto.DiffRequest();
        this.#identify(request, urn);
        request.setId(id);
        request.setOlds(this.#struct(olds));
        request.setNews(this.#struct(news));
        request.setOldInputs(this.#struct(oldInputs));
        const response = await this.#call<any>("diff", request);
        return response.getChanges() === this.#stubs.provproto.DiffResponse.DiffChanges.DIFF_SOME;
    }

    /** `Create(urn, inputs)`: the id and outputs. */
    async create(urn: string, inputs: PropertyMap): Promise<{ id: string; outputs: PropertyMap }> {
        const request = new this.#stubs.provproto.CreateRequest();
        this.#identify(request, urn);
        request.setProperties(this.#struct(inputs));
        request.setTimeout(60);
        request.setPreview(false);
        const response = await this.#call<any>("create", request);
        return { id: response.getId(), outputs: response.getProperties().toJavaScript() as PropertyMap };
    }

    /** `Delete(urn, id, state, oldInputs)`. */
    async delete(urn: string, id: string, state: PropertyMap, oldInputs: PropertyMap): Promise<void> {
        const request = new this.#stubs.provproto.DeleteRequest();
        this.#identify(request, urn);
        request.setId(id);
        request.setProperties(this.#struct(state));
        request.setOldInputs(this.#struct(oldInputs));
        request.setTimeout(60);
        await this.#call("delete", request);
    }
}
