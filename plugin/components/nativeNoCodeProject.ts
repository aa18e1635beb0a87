/**
 * The component `wos:index:NoCodeProject` as the plugin's `Construct` makes it, for a program in any
 * language: the body of the TypeScript component (`composeNoCodeProject` of
 * `provider/components/noCodeProject.ts`, the same rules, names, defaults and merge of the vars) with other
 * children: the plugin's own resources (`wos:index:Project`, `wos:index:NoCodeModule`,
 * `wos:index:NoCodeWorkspace`), registered as custom resources of this package, which the engine then creates
 * through this plugin like any other; never dynamic resources, which only a Node.js program can run.
 *
 * Loaded with the Pulumi runtime, only when the plugin constructs a component.
 *
 * @module
 */
import * as pulumi from "@pulumi/pulumi";
import {
    composeNoCodeProject,
    NO_CODE_PROJECT_TYPE,
    validateNoCodeProject,
    type NoCodeProjectArgs,
    type NoCodeProjectChildFactory,
    type NoCodeProjectModuleChild,
    type NoCodeProjectOutputs,
    type NoCodeProjectProjectChild,
    type NoCodeProjectWorkspaceChild,
} from "../../provider/components/noCodeProject";
import { noCodeModuleSchema } from "../resources/noCodeModule";
import { noCodeWorkspaceSchema } from "../resources/noCodeWorkspace";
import { projectSchema } from "../resources/project";
import type { ResourceSchemaPiece } from "../schemaSpec";

/**
 * A resource of this plugin registered by the plugin itself: its type token, the given inputs, and every
 * output its schema declares (each an `Output` of the resource once the engine answers).
 */
class NativeResource extends pulumi.CustomResource {
    constructor(piece: ResourceSchemaPiece, name: string, args: object, opts: pulumi.CustomResourceOptions) {
        const outputs = Object.fromEntries(Object.keys(piece.spec.properties).map((property) => [property, undefined]));
        super(piece.token, name, { ...outputs, ...args }, opts);
    }
}

/**
 * The children as native resources. `dependsOn`: what the component's inputs depend on, which each child
 * depends on too (the engine gives the component's inputs as values, with their dependencies beside them),
 * besides what the composition makes it depend on (a rollout's wave before).
 */
function nativeChildren(
    dependsOn: pulumi.Resource[],
): NoCodeProjectChildFactory<NoCodeProjectProjectChild, NoCodeProjectModuleChild, NoCodeProjectWorkspaceChild> {
    const options = (opts: pulumi.CustomResourceOptions): pulumi.CustomResourceOptions => {
        if (dependsOn.length === 0) return opts;
        // The composition gives its own dependencies as a list of resources.
        const own = (opts.dependsOn ?? []) as pulumi.Resource[];
        return { ...opts, dependsOn: [...dependsOn, ...own] };
    };
    return {
        project: (name, args, opts) => new NativeResource(projectSchema, name, args, options(opts)),
        module: (name, args, opts) => new NativeResource(noCodeModuleSchema, name, args, options(opts)) as NativeResource & NoCodeProjectModuleChild,
        workspace: (name, args, opts) =>
            new NativeResource(noCodeWorkspaceSchema, name, args, options(opts)) as NativeResource & NoCodeProjectWorkspaceChild,
    };
}

/**
 * `wos:index:NoCodeProject` with native children. Like the TypeScript component, it checks its arguments
 * before anything is registered, registers no inputs of its own, and registers its outputs.
 */
export class NativeNoCodeProject extends pulumi.ComponentResource {
    /** The outputs, for the answer of `Construct`. */
    public readonly outputs: NoCodeProjectOutputs;

    /**
     * @param name The component's resource name; the prefix of its children's names.
     * @param args The inputs as the component takes them (`Output`s where secrets or unknowns are).
     * @param opts The component's resource options, which its children inherit (parent, providers, protect, …).
     * @param childDependsOn What every child depends on besides its parent.
     */
    constructor(name: string, args: NoCodeProjectArgs, opts: pulumi.ComponentResourceOptions, childDependsOn: pulumi.Resource[]) {
        validateNoCodeProject(name, args);
        super(NO_CODE_PROJECT_TYPE, name, {}, opts);
        this.outputs = composeNoCodeProject(this, name, args, nativeChildren(childDependsOn)).outputs;
        this.registerOutputs({ ...this.outputs });
    }
}
