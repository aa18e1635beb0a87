/**
 * `Construct`: the engine asks the plugin to make a multi-language component (`wos:index:NoCodeProject`) for
 * a program in any language. What `@pulumi/pulumi/provider`'s own server does for a component, on this
 * plugin's service: the Pulumi runtime is pointed at the request's resource monitor and engine (project,
 * stack, organization, preview or not, configuration), the component is made from the request's inputs and
 * resource options, registering itself and its children with that monitor, and the answer is the component's
 * URN and outputs, once every registration it started is done.
 *
 * Each request runs in its own store of the runtime's state, so that two components constructed at once by
 * one plugin process do not share a monitor or a configuration.
 *
 * This module loads the Pulumi runtime (bundled into the plugin): the service loads it only at the first
 * `Construct`.
 *
 * @module
 */
import * as pulumi from "@pulumi/pulumi";
import type { Alias } from "@pulumi/pulumi/proto/alias_pb";
import * as rpc from "@pulumi/pulumi/proto/provider_pb";
import { Struct } from "google-protobuf/google/protobuf/struct_pb";
import type { NoCodeProjectArgs } from "../provider/components/noCodeProject";
import { NativeNoCodeProject } from "./components/nativeNoCodeProject";
import { NO_CODE_PROJECT_TOKEN } from "./components/noCodeProject";
import { isObject, isSecret, isUnknown, type PropertyBag } from "./propertyValues";

/**
 * What `@pulumi/pulumi`'s provider server uses for `Construct` and its typings leave out (`@internal`):
 * exported by the runtime all the same. Checked at the first use, so that a runtime without them fails with
 * this plugin's message rather than deep inside.
 */
interface RuntimeInternals {
    /** Asks the monitor which features it has (secrets, resource references, …), for the serialization. */
    awaitFeatureSupport(): Promise<void>;
    /** Waits until every registration started has been answered. */
    waitForRPCs(): Promise<void>;
    /** Runs `run` with a state of the runtime of its own (`@pulumi/pulumi/runtime/state`). */
    withLocalStorage<T>(run: () => Promise<T>): Promise<T>;
}

let internals: RuntimeInternals | undefined;

function runtimeInternals(): RuntimeInternals {
    if (internals) return internals;
    const runtime = pulumi.runtime as unknown as Partial<RuntimeInternals>;
    const state = require("@pulumi/pulumi/runtime/state") as Partial<RuntimeInternals>;
    const found = { awaitFeatureSupport: runtime.awaitFeatureSupport, waitForRPCs: runtime.waitForRPCs, withLocalStorage: state.withLocalStorage };
    const missing = Object.entries(found).filter(([, value]) => typeof value !== "function").map(([key]) => key);
    if (missing.length > 0) throw new Error(`pulumi-resource-wos: the Pulumi runtime it was built with has no ${missing.join(", ")}: Construct cannot run`);
    internals = found as RuntimeInternals;
    return internals;
}

/**
 * The constructs in flight, each with the way to fail it. A registration the engine refuses (a child that
 * fails to create) rejects promises that no code waits for: in a program the language host reports them;
 * here they fail the constructs in flight (as `@pulumi/pulumi`'s provider server does) instead of ending the
 * plugin.
 */
const inFlight = new Set<(failure: unknown) => void>();

let rejectionsHandled = false;
function handleRejections(): void {
    if (rejectionsHandled) return;
    rejectionsHandled = true;
    process.on("unhandledRejection", (failure: unknown) => {
        if (inFlight.size === 0) {
            process.stderr.write(`pulumi-resource-wos: ${failure instanceof Error ? failure.message : String(failure)}\n`);
            return;
        }
        for (const fail of inFlight) fail(failure);
    });
}

/**
 * A value of the request's inputs as the component takes it: each secret at its own place a secret `Output`
 * (so that a secret var value stays secret in that var only, as in a TypeScript program), each unknown of a
 * preview an unknown `Output`, everything else plain.
 */
function programValue(value: unknown): unknown {
    if (isSecret(value)) return pulumi.secret(programValue(value.value));
    if (isUnknown(value)) return pulumi.output(pulumi.unknown);
    if (Array.isArray(value)) return value.map(programValue);
    if (isObject(value)) return Object.fromEntries(Object.entries(value).map(([key, item]) => [key, programValue(item)]));
    return value;
}

/**
 * An alias of the request, as a resource option. The protocol of older `@pulumi/pulumi` (3.216) sends an alias
 * as its URN alone; later ones, as an `Alias` message holding a URN or a spec.
 */
function aliasOf(alias: Alias | string): pulumi.Input<pulumi.URN | pulumi.Alias> | undefined {
    if (typeof alias === "string") return alias;
    if (alias.hasUrn()) return alias.getUrn();
    const spec = alias.getSpec();
    if (!spec) return undefined;
    return {
        name: spec.getName() || undefined,
        project: spec.getProject() || undefined,
        stack: spec.getStack() || undefined,
        parent: spec.hasParenturn() ? spec.getParenturn() : spec.getNoparent() ? pulumi.rootStackResource : undefined,
    };
}

/** The component's resource options: those of the program's registration that the engine passes on. */
function componentOptions(request: rpc.ConstructRequest): pulumi.ComponentResourceOptions {
    const providers: Record<string, pulumi.ProviderResource> = {};
    request.getProvidersMap().forEach((ref, pkg) => {
        providers[pkg] = new pulumi.DependencyProviderResource(ref);
    });
    const aliases: pulumi.Input<pulumi.URN | pulumi.Alias>[] = [];
    for (const alias of request.getAliasesList() as Array<Alias | string>) {
        const found = aliasOf(alias);
        if (found !== undefined) aliases.push(found);
    }
    return {
        parent: request.getParent() ? new pulumi.DependencyResource(request.getParent()) : undefined,
        // The children take their provider from the component, as in a TypeScript program.
        providers,
        protect: request.getProtect(),
        dependsOn: request.getDependenciesList().map((urn) => new pulumi.DependencyResource(urn)),
        aliases,
    };
}

/** Every resource the component's inputs depend on, and those it depends on itself: what each child depends on. */
function inputDependencies(request: rpc.ConstructRequest): pulumi.Resource[] {
    const urns = new Set(request.getDependenciesList());
    request.getInputdependenciesMap().forEach((dependencies) => {
        for (const urn of dependencies.getUrnsList()) urns.add(urn);
    });
    return [...urns].map((urn) => new pulumi.DependencyResource(urn));
}

/** Points the runtime (of this request's state) at the request's monitor and engine. */
async function configureRuntime(request: rpc.ConstructRequest, engineAddress: string): Promise<void> {
    pulumi.runtime.resetOptions(
        request.getProject(),
        request.getStack(),
        request.getParallel(),
        engineAddress,
        request.getMonitorendpoint(),
        request.getDryrun(),
        request.getOrganization(),
    );
    await runtimeInternals().awaitFeatureSupport();
    const config: Record<string, string> = {};
    request.getConfigMap().forEach((value, key) => {
        config[key] = value;
    });
    pulumi.runtime.setAllConfig(config, request.getConfigsecretkeysList());
}

/** Makes the component of `request`; answers its URN and its outputs. */
async function constructComponent(request: rpc.ConstructRequest, engineAddress: string): Promise<rpc.ConstructResponse> {
    await configureRuntime(request, engineAddress);
    const inputs = programValue((request.getInputs()?.toJavaScript() ?? {}) as PropertyBag) as NoCodeProjectArgs;
    const component = new NativeNoCodeProject(request.getName(), inputs, componentOptions(request), inputDependencies(request));

    const [state, stateDependencies] = await pulumi.runtime.serializeResourceProperties(`construct(${request.getType()}, ${request.getName()})`, {
        ...component.outputs,
    });
    const response = new rpc.ConstructResponse()
        .setUrn((await pulumi.runtime.serializeProperty("urn", component.urn)) as string)
        .setState(Struct.fromJavaScript(state as Parameters<typeof Struct.fromJavaScript>[0]));
    for (const [key, resources] of stateDependencies) {
        const urns = await Promise.all([...resources].map(async (resource) => (await pulumi.runtime.serializeProperty("urn", resource.urn)) as string));
        response.getStatedependenciesMap().set(key, new rpc.ConstructResponse.PropertyDependencies().setUrnsList(urns));
    }
    // Answered only once every registration (of the children, of the outputs) has been answered.
    await runtimeInternals().waitForRPCs();
    return response;
}

/**
 * `Construct` of the plugin: the component the request names, made by the Pulumi runtime against the
 * engine's monitor. `engineAddress`: the engine's, as given to the plugin.
 */
export async function construct(request: rpc.ConstructRequest, engineAddress: string | undefined): Promise<rpc.ConstructResponse> {
    const { withLocalStorage } = runtimeInternals();
    if (request.getType() !== NO_CODE_PROJECT_TOKEN) {
        throw new Error(`unknown component type ${request.getType()} (the plugin has ${NO_CODE_PROJECT_TOKEN})`);
    }
    if (!engineAddress) throw new Error("pulumi-resource-wos: Construct needs the engine's address, which the engine gives the plugin when it starts it");
    handleRejections();
    return withLocalStorage(
        () =>
            new Promise<rpc.ConstructResponse>((resolve, reject) => {
                inFlight.add(reject);
                constructComponent(request, engineAddress)
                    .then(resolve, reject)
                    .finally(() => inFlight.delete(reject));
            }),
    );
}
