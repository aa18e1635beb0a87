/**
 * `wos.ProjectTagBindings`: some tags bound to a project, managed key by key (other bindings of the
 * project are left alone).
 *
 * The thin shell of the provider pattern every resource here follows: the serialized provider only
 * `require`s the handler module by package name and delegates.
 *
 * @module
 */
import * as pulumi from "@pulumi/pulumi";

/** Inputs of a {@link ProjectTagBindings}. */
export interface ProjectTagBindingsArgs {
    /**
     * Id of the project (`prj-…`). Changing it replaces the resource.
     *
     * @replaceOnChanges
     */
    projectId: pulumi.Input<string>;
    /**
     * The keys managed here and their values. Removing a key from the map removes that binding from the
     * project; bindings of other keys are never touched.
     */
    tags: pulumi.Input<Record<string, pulumi.Input<string>>>;
}

/**
 * The serialized provider: loads `pulumi-wos/dist/provider/handlers/projectTagBindings` by package name.
 *
 * @internal exported for tests that serialize it.
 */
export const projectTagBindingsProvider: pulumi.dynamic.ResourceProvider = {
    configure: (request) => require("pulumi-wos/dist/provider/handlers/credentials").configure(request),
    check: (olds, news) => require("pulumi-wos/dist/provider/handlers/projectTagBindings").check(olds, news),
    diff: (id, olds, news) => require("pulumi-wos/dist/provider/handlers/projectTagBindings").diff(id, olds, news),
    create: (inputs) => require("pulumi-wos/dist/provider/handlers/projectTagBindings").create(inputs),
    read: (id, props) => require("pulumi-wos/dist/provider/handlers/projectTagBindings").read(id, props),
    update: (id, olds, news) => require("pulumi-wos/dist/provider/handlers/projectTagBindings").update(id, olds, news),
    delete: (id, props) => require("pulumi-wos/dist/provider/handlers/projectTagBindings").delete(id, props),
};

/**
 * Tags bound to a project (type token `pulumi-nodejs:dynamic/wos:ProjectTagBindings`). Its id is the
 * project's id.
 *
 * ```ts
 * new wos.ProjectTagBindings("cost", { projectId: apps.id, tags: { "cost-center": "1234" } });
 * ```
 */
export class ProjectTagBindings extends pulumi.dynamic.Resource {
    /** The project's id. */
    declare public readonly projectId: pulumi.Output<string>;
    /** The managed keys and their values as the service holds them. */
    declare public readonly tags: pulumi.Output<Record<string, string>>;

    /**
     * @param name The Pulumi resource name.
     * @param args The project and its tags.
     * @param opts Resource options.
     */
    constructor(name: string, args: ProjectTagBindingsArgs, opts?: pulumi.CustomResourceOptions) {
        super(
            projectTagBindingsProvider,
            name,
            { projectId: args.projectId, tags: args.tags },
            opts,
            "wos",
            "ProjectTagBindings",
        );
    }
}
