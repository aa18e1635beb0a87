/**
 * Pulumi's `ResourceProvider` gRPC service for `wos`: every method the engine calls, each resource's
 * operation handed to its handler of `provider/handlers/` (the dynamic resources' own logic) and each invoke
 * to its lookup, in the scope of this provider's configuration.
 *
 * What the dynamic provider host does for the dynamic resources, this does for the plugin, with what a
 * native plugin adds: `acceptSecrets` (secrets nested, and exactly the sensitive values marked), previews,
 * a detailed diff, `Read` for `pulumi import` (an id and nothing else), invokes, a configuration per
 * explicit provider, and `Construct` of the multi-language component `wos:index:NoCodeProject`.
 *
 * @module
 */
import * as grpc from "@grpc/grpc-js";
import { Any } from "google-protobuf/google/protobuf/any_pb";
import { Empty } from "google-protobuf/google/protobuf/empty_pb";
import { Struct } from "google-protobuf/google/protobuf/struct_pb";
import type { IResourceProviderServer } from "@pulumi/pulumi/proto/provider_grpc_pb";
import * as plugin from "@pulumi/pulumi/proto/plugin_pb";
import * as rpc from "@pulumi/pulumi/proto/provider_pb";
import * as status from "@pulumi/pulumi/proto/status_pb";
import { currentAddress, currentOrganization, currentToken, ScopedCredentials, withCredentials } from "../provider/handlers/credentials";
import type { LookupSettings } from "../provider/handlers/lookups";
import { ProviderOperationError } from "../provider/handlers/operationErrors";
import { withCancellation, withUpgradeLogger } from "../provider/handlers/upgradeRunner";
import { changedConfig, checkConfig, credentialsFromConfigure, planUpgradesInPreviewFromConfigure } from "./configuration";
import type { EngineLog } from "./engineLog";
import type { FunctionBinding } from "./functionBinding";
import { type ItemChange, itemChanges } from "./itemDiff";
import { pluginVersion } from "./pluginVersion";
import { inProgramShape } from "./programShape";
import { isEmptyBag, markLike, type PropertyBag, reveal, secret, UNKNOWN, wireBag } from "./propertyValues";
import { handlerInputsOf, type ResourceBinding } from "./resourceBinding";
import { FUNCTION_BINDINGS, RESOURCE_BINDINGS, wosPackageSchema } from "./schema";

/** A failure of a create or update that left a resource behind: the engine keeps it in state. */
class PartialFailure extends Error {
    constructor(
        message: string,
        readonly id: string,
        readonly properties: PropertyBag,
        readonly reasons: string[],
    ) {
        super(message);
    }
}

/** A failure whose gRPC status is not the default `UNKNOWN`. */
class StatusFailure extends Error {
    constructor(
        readonly code: grpc.status,
        message: string,
    ) {
        super(message);
    }
}

function bagOf(struct: Struct | undefined): PropertyBag {
    return (struct?.toJavaScript() as PropertyBag | undefined) ?? {};
}

function structOf(bag: PropertyBag | undefined): Struct {
    return Struct.fromJavaScript(wireBag(bag) as Parameters<typeof Struct.fromJavaScript>[0]);
}

/** The resource type of a request: its `type`, else the last type of its URN (`...::parent$wos:index:Project::name`). */
function typeOf(request: { getType(): string; getUrn(): string }): string {
    const type = request.getType();
    if (type) return type;
    const qualified = request.getUrn().split("::")[2] ?? "";
    return qualified.split("$").pop() ?? "";
}

/** The service of one plugin process. */
export class WosProviderService {
    /** The configuration every operation runs with; the environment variables only until `Configure`. */
    #credentials = new ScopedCredentials({});
    /** `planUpgradesInPreview` of the configuration: a preview of an update plans a no-code workspace's upgrade. */
    #planUpgradesInPreview = false;
    readonly #resources = new Map<string, ResourceBinding>(RESOURCE_BINDINGS.map((binding) => [binding.schema.token, binding]));
    readonly #functions = new Map<string, FunctionBinding>(FUNCTION_BINDINGS.map((binding) => [binding.schema.token, binding]));
    readonly #schemaText = JSON.stringify(wosPackageSchema);
    /** Aborted by `Cancel`: the engine sends it once, when it shuts the plugin down. */
    readonly #cancellation = new AbortController();

    /** @param engineLog Where the upgrades' progress goes. */
    constructor(private readonly engineLog: EngineLog) {}

    /** The gRPC implementation: every method the engine calls. Those not listed answer `UNIMPLEMENTED`. */
    implementation(): Partial<IResourceProviderServer> {
        return {
            handshake: this.unary((request: rpc.ProviderHandshakeRequest) => this.handshake(request)),
            getPluginInfo: this.unary(async () => new plugin.PluginInfo().setVersion(pluginVersion())),
            getSchema: this.unary(async () => new rpc.GetSchemaResponse().setSchema(this.#schemaText)),
            checkConfig: this.unary((request: rpc.CheckRequest) => this.checkConfig(request)),
            diffConfig: this.unary((request: rpc.DiffRequest) => this.diffConfig(request)),
            configure: this.unary((request: rpc.ConfigureRequest) => this.configure(request)),
            invoke: this.unary((request: rpc.InvokeRequest) => this.invoke(request)),
            check: this.unary((request: rpc.CheckRequest) => this.check(request)),
            diff: this.unary((request: rpc.DiffRequest) => this.diff(request)),
            create: this.unary((request: rpc.CreateRequest) => this.create(request)),
            read: this.unary((request: rpc.ReadRequest) => this.read(request)),
            update: this.unary((request: rpc.UpdateRequest) => this.update(request)),
            delete: this.unary((request: rpc.DeleteRequest) => this.delete(request)),
            construct: this.unary((request: rpc.ConstructRequest) => this.construct(request)),
            // The engine is shutting the plugin down (the CLI interrupted): an upgrade waiting for its plan stops
            // now, failing its update with the run left unconfirmed, instead of at its deadline.
            cancel: this.unary(async () => {
                this.#cancellation.abort();
                return new Empty();
            }),
            attach: this.unary(async (request: plugin.PluginAttach) => {
                this.engineLog.setAddress(request.getAddress());
                return new Empty();
            }),
            // A provider that bridges no other provider has no mappings: an empty answer says so.
            getMapping: this.unary(async () => new rpc.GetMappingResponse().setProvider("").setData(new Uint8Array())),
            getMappings: this.unary(async () => new rpc.GetMappingsResponse().setProvidersList([])),
        };
    }

    // -----------------------------------------------------------------------------------------------------
    // The provider itself

    private async handshake(request: rpc.ProviderHandshakeRequest): Promise<rpc.ProviderHandshakeResponse> {
        this.engineLog.setAddress(request.getEngineAddress());
        return new rpc.ProviderHandshakeResponse().setAcceptSecrets(true).setAcceptResources(false).setAcceptOutputs(false);
    }

    private async checkConfig(request: rpc.CheckRequest): Promise<rpc.CheckResponse> {
        const { inputs, failures } = checkConfig(bagOf(request.getNews()));
        return new rpc.CheckResponse().setInputs(structOf(inputs)).setFailuresList(failures.map((failure) => this.checkFailure(failure)));
    }

    private async diffConfig(request: rpc.DiffRequest): Promise<rpc.DiffResponse> {
        const changed = changedConfig(bagOf(request.getOlds()), bagOf(request.getNews()));
        const response = new rpc.DiffResponse()
            .setChanges(changed.length > 0 ? rpc.DiffResponse.DiffChanges.DIFF_SOME : rpc.DiffResponse.DiffChanges.DIFF_NONE)
            .setDiffsList(changed)
            .setHasdetaileddiff(true);
        for (const key of changed) response.getDetaileddiffMap().set(key, new rpc.PropertyDiff().setKind(rpc.PropertyDiff.Kind.UPDATE));
        return response;
    }

    private async configure(request: rpc.ConfigureRequest): Promise<rpc.ConfigureResponse> {
        const variables = new Map(request.getVariablesMap().toArray() as [string, string][]);
        const args = request.getArgs() ? bagOf(request.getArgs()) : undefined;
        this.#credentials = credentialsFromConfigure(args, variables);
        this.#planUpgradesInPreview = planUpgradesInPreviewFromConfigure(args, variables);
        return new rpc.ConfigureResponse().setAcceptsecrets(true).setSupportspreview(true).setAcceptresources(false).setAcceptoutputs(false);
    }

    /** Runs `operation` with this provider's configuration (and, for a resource's update, its log). */
    private scoped<T>(operation: () => Promise<T>, urn?: string): Promise<T> {
        const credentials = this.#credentials;
        const run = () => withCancellation(this.#cancellation.signal, () => withCredentials(credentials, operation));
        if (urn === undefined) return run();
        // The resource's last line (an upgrade's end) reaches the engine before the operation's answer.
        return withUpgradeLogger((line) => this.engineLog.info(urn, line), run).finally(() => this.engineLog.flushed());
    }

    // -----------------------------------------------------------------------------------------------------
    // Invokes

    private async invoke(request: rpc.InvokeRequest): Promise<rpc.InvokeResponse> {
        const binding = this.#functions.get(request.getTok());
        if (!binding) throw new StatusFailure(grpc.status.INVALID_ARGUMENT, `unknown function ${request.getTok()} (the plugin has ${[...this.#functions.keys()].join(", ")})`);
        const credentials = this.#credentials;
        const settings: LookupSettings = {
            setting: (key) => (key === "address" ? currentAddress() : key === "token" ? currentToken() : currentOrganization()),
            clients: credentials.clients,
        };
        const result = await this.scoped(() => binding.invoke(settings, reveal(bagOf(request.getArgs()))));
        return new rpc.InvokeResponse().setReturn(structOf(result as PropertyBag));
    }

    // -----------------------------------------------------------------------------------------------------
    // Resources

    private binding(request: { getType(): string; getUrn(): string }): ResourceBinding {
        const type = typeOf(request);
        const binding = this.#resources.get(type);
        if (!binding) throw new StatusFailure(grpc.status.INVALID_ARGUMENT, `unknown resource type ${type} (the plugin has ${[...this.#resources.keys()].join(", ")})`);
        return binding;
    }

    /** Inputs for the engine: the schema's shape, secret where the request had secrets and where the resource always has them. */
    private engineInputs(binding: ResourceBinding, handlerBag: PropertyBag, sent: PropertyBag | undefined): PropertyBag {
        const inputs = binding.schemaInputs ? binding.schemaInputs(handlerBag) : handlerBag;
        const marked = markLike(inputs, sent) as PropertyBag;
        return binding.secretInputs ? binding.secretInputs(marked) : marked;
    }

    /**
     * A refresh's inputs with the defaults the program left out left out again (see `programShape.ts`),
     * judged by the handler's detailed diff against the outputs read.
     */
    private programShaped(binding: ResourceBinding, read: PropertyBag, old: PropertyBag, outputs: PropertyBag): PropertyBag {
        return inProgramShape(read, old, binding.lists ?? {}, (candidate, property) =>
            !binding.handlers.changedProperties(outputs, handlerInputsOf(binding, candidate)).includes(property),
        );
    }

    /**
     * Outputs for the engine: secret where the request had secrets, where the schema says the output always is
     * (its declaration's `@secret`), and where the resource says so of a value (a sensitive variable's).
     */
    private engineOutputs(binding: ResourceBinding, outputs: PropertyBag, sent: PropertyBag | undefined): PropertyBag {
        const marked = { ...(markLike(wireBag(outputs), sent) as PropertyBag) };
        for (const [name, spec] of Object.entries(binding.schema.spec.properties)) {
            if (spec.secret && marked[name] !== undefined) marked[name] = secret(marked[name]);
        }
        return binding.secretOutputs ? binding.secretOutputs(marked) : marked;
    }

    private checkFailure(failure: { property?: string; reason: string }): rpc.CheckFailure {
        return new rpc.CheckFailure().setProperty(failure.property ?? "").setReason(failure.reason);
    }

    private async check(request: rpc.CheckRequest): Promise<rpc.CheckResponse> {
        const binding = this.binding(request);
        const news = bagOf(request.getNews());
        const olds = handlerInputsOf(binding, bagOf(request.getOlds()));
        const result = await this.scoped(() => binding.handlers.check(olds, handlerInputsOf(binding, news)));
        const inputs = this.engineInputs(binding, (result.inputs ?? {}) as PropertyBag, news);
        return new rpc.CheckResponse().setInputs(structOf(inputs)).setFailuresList((result.failures ?? []).map((failure) => this.checkFailure(failure)));
    }

    private async diff(request: rpc.DiffRequest): Promise<rpc.DiffResponse> {
        const binding = this.binding(request);
        const olds = reveal(bagOf(request.getOlds()));
        const news = handlerInputsOf(binding, bagOf(request.getNews()));
        const oldInputs = request.getOldInputs() ? reveal(bagOf(request.getOldInputs())) : olds;
        const { result, changed } = await this.scoped(async () => ({
            result: await binding.handlers.diff(request.getId(), olds, news),
            changed: binding.handlers.changedProperties(olds, news),
        }));
        const replaces = result.replaces ?? [];
        const kinds = rpc.PropertyDiff.Kind;
        const response = new rpc.DiffResponse()
            .setChanges(result.changes ? rpc.DiffResponse.DiffChanges.DIFF_SOME : rpc.DiffResponse.DiffChanges.DIFF_NONE)
            .setReplacesList(replaces)
            .setDeletebeforereplace(result.deleteBeforeReplace === true)
            .setDiffsList(changed)
            // Without the names of what changed, the engine compares on its own.
            .setHasdetaileddiff(!result.changes || changed.length > 0);
        const inputsNow = reveal(bagOf(request.getNews()));
        // Each kind is said of the inputs (`inputDiff`): the CLI then shows old inputs against new ones, not the
        // state's outputs (with their defaults filled and a no-code workspace's secret values kept apart)
        // against the inputs, which would show changes that are none.
        const kindOf = (change: ItemChange, replacing: boolean) =>
            ({
                add: replacing ? kinds.ADD_REPLACE : kinds.ADD,
                delete: replacing ? kinds.DELETE_REPLACE : kinds.DELETE,
                update: replacing ? kinds.UPDATE_REPLACE : kinds.UPDATE,
            })[change];
        for (const property of changed) {
            const replacing = replaces.includes(property);
            const list = binding.lists?.[property];
            // A list with an identity says which of its items changed; anything else, the property.
            const byItem = list ? itemChanges(property, oldInputs[property], inputsNow[property], list) : undefined;
            const changes = byItem ?? new Map([[property, oldInputs[property] === undefined ? "add" : inputsNow[property] === undefined ? "delete" : "update"] as const]);
            for (const [path, change] of changes) {
                response.getDetaileddiffMap().set(path, new rpc.PropertyDiff().setKind(kindOf(change, replacing)).setInputdiff(true));
            }
        }
        return response;
    }

    /** The outputs of a preview: the inputs, old outputs the inputs do not name, and what only the service can tell unknown. */
    private previewOutputs(binding: ResourceBinding, news: PropertyBag, olds?: PropertyBag): PropertyBag {
        const outputs: PropertyBag = { ...news };
        for (const property of Object.keys(binding.schema.spec.properties)) {
            if (outputs[property] === undefined && olds?.[property] !== undefined) outputs[property] = olds[property];
        }
        for (const property of binding.previewUnknowns?.(news, olds) ?? []) outputs[property] = UNKNOWN;
        return outputs;
    }

    /** A partial failure as the engine wants it: the resource left behind, secrets marked. */
    private partial(binding: ResourceBinding, failure: unknown, sent: PropertyBag): unknown {
        if (!(failure instanceof ProviderOperationError) || failure.id === undefined || !failure.properties) return failure;
        return new PartialFailure(failure.message, failure.id, this.engineOutputs(binding, failure.properties, sent), failure.reasons ?? [failure.message]);
    }

    private async create(request: rpc.CreateRequest): Promise<rpc.CreateResponse> {
        const binding = this.binding(request);
        const sent = bagOf(request.getProperties());
        const news = handlerInputsOf(binding, sent);
        if (request.getPreview()) {
            return new rpc.CreateResponse().setId("").setProperties(structOf(this.engineOutputs(binding, this.previewOutputs(binding, news), sent)));
        }
        const result = await this.scoped(() => binding.handlers.create(news), request.getUrn()).catch((failure: unknown) => {
            throw this.partial(binding, failure, sent);
        });
        return new rpc.CreateResponse().setId(result.id).setProperties(structOf(this.engineOutputs(binding, result.outs as PropertyBag, sent)));
    }

    private async read(request: rpc.ReadRequest): Promise<rpc.ReadResponse> {
        const binding = this.binding(request);
        const state = bagOf(request.getProperties());
        const inputs = request.getInputs() ? bagOf(request.getInputs()) : undefined;
        // An import sends an id and nothing else: the handler then reads everything, as for a read by id alone.
        const props = isEmptyBag(state) ? undefined : reveal(state);
        const result = await this.scoped(() => binding.handlers.read(request.getId(), props));
        const response = new rpc.ReadResponse();
        // No id: the resource is gone.
        if (!result.id) return response.setId("");
        response.setId(result.id).setProperties(structOf(this.engineOutputs(binding, (result.props ?? {}) as PropertyBag, state)));
        if (result.inputs) {
            const read = this.engineInputs(binding, result.inputs as PropertyBag, inputs);
            response.setInputs(structOf(inputs === undefined || isEmptyBag(inputs) ? read : this.programShaped(binding, read, inputs, (result.props ?? {}) as PropertyBag)));
        }
        return response;
    }

    private async update(request: rpc.UpdateRequest): Promise<rpc.UpdateResponse> {
        const binding = this.binding(request);
        const olds = reveal(bagOf(request.getOlds()));
        const sent = bagOf(request.getNews());
        const news = handlerInputsOf(binding, sent);
        if (request.getPreview()) {
            const planInPreview = this.#planUpgradesInPreview ? binding.handlers.planInPreview : undefined;
            // The plan's progress is shown under the resource, and a plan that errors fails the preview.
            if (planInPreview) await this.scoped(() => planInPreview(request.getId(), olds, news), request.getUrn());
            return new rpc.UpdateResponse().setProperties(structOf(this.engineOutputs(binding, this.previewOutputs(binding, news, olds), sent)));
        }
        const result = await this.scoped(() => binding.handlers.update(request.getId(), olds, news), request.getUrn()).catch((failure: unknown) => {
            throw this.partial(binding, failure, sent);
        });
        return new rpc.UpdateResponse().setProperties(structOf(this.engineOutputs(binding, (result.outs ?? {}) as PropertyBag, sent)));
    }

    private async delete(request: rpc.DeleteRequest): Promise<Empty> {
        const binding = this.binding(request);
        const state = reveal(bagOf(request.getProperties()));
        await this.scoped(() => binding.handlers.delete(request.getId(), state));
        return new Empty();
    }

    // -----------------------------------------------------------------------------------------------------
    // Components

    /**
     * A multi-language component (`wos:index:NoCodeProject`), made by the Pulumi runtime against the engine's
     * monitor (`construct.ts`): its children are this plugin's resources, which the engine then creates,
     * updates and deletes through the methods above. The runtime is loaded here, at the first component.
     */
    private async construct(request: rpc.ConstructRequest): Promise<rpc.ConstructResponse> {
        const { construct } = await import("./construct");
        return construct(request, this.engineLog.address);
    }

    // -----------------------------------------------------------------------------------------------------
    // gRPC

    /** Every token this process knows, none of which may leave it in a message. */
    private tokens(): string[] {
        return [this.#credentials.token, process.env.WOS_TOKEN?.trim()].filter((token): token is string => !!token);
    }

    private redacted(message: string): string {
        return this.tokens().reduce((text, token) => text.split(token).join("[REDACTED]"), message);
    }

    /** A failure as a gRPC error; a partial failure carries the resource left behind (`ErrorResourceInitFailed`). */
    private serviceError(failure: unknown): Partial<grpc.StatusObject> {
        const message = this.redacted(failure instanceof Error ? failure.message : String(failure));
        const code = failure instanceof StatusFailure ? failure.code : grpc.status.UNKNOWN;
        const metadata = new grpc.Metadata();
        if (failure instanceof PartialFailure) {
            const detail = new rpc.ErrorResourceInitFailed()
                .setId(failure.id)
                .setProperties(structOf(failure.properties))
                .setReasonsList(failure.reasons.map((reason) => this.redacted(reason)));
            const any = new Any();
            any.pack(detail.serializeBinary(), "pulumirpc.ErrorResourceInitFailed");
            const details = new status.Status().setCode(code).setMessage(message);
            details.addDetails(any);
            metadata.add("grpc-status-details-bin", Buffer.from(details.serializeBinary()));
        }
        return { code, details: message, metadata };
    }

    private unary<Request, Response>(operation: (request: Request) => Promise<Response>): grpc.handleUnaryCall<Request, Response> {
        return (call, callback) => {
            operation(call.request).then(
                (response) => callback(null, response),
                (failure: unknown) => callback(this.serviceError(failure), null),
            );
        };
    }
}
