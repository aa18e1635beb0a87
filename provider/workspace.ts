/**
 * `wos.Workspace`: a workspace of an organization, in a project, with its description, auto-apply and
 * execution settings. A change of project moves it (its variables stay); nothing but the organization
 * replaces it.
 *
 * The thin shell of the provider pattern every resource here follows: the serialized provider only
 * `require`s the handler module by package name and delegates.
 *
 * @module
 */
import * as pulumi from "@pulumi/pulumi";

/** Inputs of a {@link Workspace}. */
export interface WorkspaceArgs {
    /**
     * Name of the organization; default: the stack config `wos:organization`, else the environment variable
     * `WOS_ORGANIZATION`. Changing it replaces the workspace.
     *
     * @replaceOnChanges
     */
    organization?: pulumi.Input<string>;
    /** 1 to 90 letters, numbers, `-` and `_`; unique in the organization (in any case). Changes in place. */
    name: pulumi.Input<string>;
    /**
     * Id of the project (`prj-…`); the caller must be allowed to create workspaces in it. Changing it moves the
     * workspace (the caller needs that right on both projects). Default: the organization's `Default Project`
     * when the workspace is made; leaving it out later never moves it.
     */
    projectId?: pulumi.Input<string>;
    /** At most 256 characters. */
    description?: pulumi.Input<string>;
    /** Apply automatically after a successful plan; default false. */
    autoApply?: pulumi.Input<boolean>;
    /** `remote` (default) or `agent`. */
    executionMode?: pulumi.Input<"remote" | "agent">;
    /** The agent pool (`apool-…`): required with `agent`, refused with `remote`. */
    agentPoolId?: pulumi.Input<string>;
}

/**
 * The serialized provider: loads `pulumi-wos/dist/provider/handlers/workspace` (or the credentials handler)
 * by package name.
 *
 * @internal exported for tests that serialize it.
 */
export const workspaceProvider: pulumi.dynamic.ResourceProvider = {
    configure: (request) => require("pulumi-wos/dist/provider/handlers/credentials").configure(request),
    check: (olds, news) => require("pulumi-wos/dist/provider/handlers/workspace").check(olds, news),
    diff: (id, olds, news) => require("pulumi-wos/dist/provider/handlers/workspace").diff(id, olds, news),
    create: (inputs) => require("pulumi-wos/dist/provider/handlers/workspace").create(inputs),
    read: (id, props) => require("pulumi-wos/dist/provider/handlers/workspace").read(id, props),
    update: (id, olds, news) => require("pulumi-wos/dist/provider/handlers/workspace").update(id, olds, news),
    delete: (id, props) => require("pulumi-wos/dist/provider/handlers/workspace").delete(id, props),
};

/**
 * A workspace of the Workspace Organization Service (type token `pulumi-nodejs:dynamic/wos:Workspace`); its
 * id is the `ws-…` id, which a `wos.Variable` takes as `workspaceId`.
 *
 * ```ts
 * const web = new wos.Workspace("web", { organization: "acme", name: "web-prod", projectId: apps.id, autoApply: true });
 * new wos.Variable("region", { workspaceId: web.id, key: "region", value: "eu-west-1", category: "infra" });
 * ```
 */
export class Workspace extends pulumi.dynamic.Resource {
    /** The organization's name (the default organization's when the program left it out). */
    declare public readonly organization: pulumi.Output<string>;
    /** The workspace's name. */
    declare public readonly name: pulumi.Output<string>;
    /** The project the workspace is in, also when the program left it out. */
    declare public readonly projectId: pulumi.Output<string>;
    /** The description, when it has one. */
    declare public readonly description: pulumi.Output<string | undefined>;
    /** Whether runs apply automatically. */
    declare public readonly autoApply: pulumi.Output<boolean>;
    /** `remote` or `agent`. */
    declare public readonly executionMode: pulumi.Output<"remote" | "agent">;
    /** The agent pool, with `agent`. */
    declare public readonly agentPoolId: pulumi.Output<string | undefined>;

    /**
     * @param name The Pulumi resource name (not the workspace's name).
     * @param args The workspace's organization, name, project and settings.
     * @param opts Resource options.
     */
    constructor(name: string, args: WorkspaceArgs, opts?: pulumi.CustomResourceOptions) {
        super(
            workspaceProvider,
            name,
            {
                organization: args.organization,
                name: args.name,
                projectId: args.projectId,
                description: args.description,
                autoApply: args.autoApply,
                executionMode: args.executionMode,
                agentPoolId: args.agentPoolId,
            },
            opts,
            "wos",
            "Workspace",
        );
    }
}
