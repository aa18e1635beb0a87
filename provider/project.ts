/**
 * `wos.Project`: a project of an organization, with its description, auto-destroy duration and,
 * optionally, its whole tag set.
 *
 * This file is the thin shell of the provider pattern every resource here follows: the provider object
 * below is what Pulumi serializes into state, so each method only `require`s the handler module by package
 * name and delegates. It holds no client, schema or token; a fix in a newer package version reaches old state.
 *
 * @module
 */
import * as pulumi from "@pulumi/pulumi";

/** Inputs of a {@link Project}. */
export interface ProjectArgs {
    /**
     * Name of the organization that owns the project; default: the stack config `wos:organization`, else the
     * environment variable `WOS_ORGANIZATION`. Changing it replaces the project.
     *
     * @replaceOnChanges
     */
    organization?: pulumi.Input<string>;
    /** 3 to 40 characters: letters, numbers, spaces, `-` and `_`; no leading or trailing space. Unique per organization. */
    name: pulumi.Input<string>;
    /** At most 256 characters. */
    description?: pulumi.Input<string>;
    /** Default inactivity period before each workspace of the project destroys its infrastructure, e.g. `14d` or `12h`. */
    autoDestroyActivityDuration?: pulumi.Input<string>;
    /**
     * The project's whole tag set (at most 10), inherited by its workspaces. When given, tags added
     * elsewhere are removed at the next `up`; when absent, the project's tags are left alone. Use either
     * this or {@link ProjectTagBindings} for one project, not both.
     */
    tags?: pulumi.Input<Record<string, pulumi.Input<string>>>;
}

/**
 * The serialized provider: every method loads `pulumi-wos/dist/provider/handlers/project` (or the
 * credentials handler) by package name in the provider host and delegates to it.
 *
 * @internal exported for tests that serialize it.
 */
export const projectProvider: pulumi.dynamic.ResourceProvider = {
    configure: (request) => require("pulumi-wos/dist/provider/handlers/credentials").configure(request),
    check: (olds, news) => require("pulumi-wos/dist/provider/handlers/project").check(olds, news),
    diff: (id, olds, news) => require("pulumi-wos/dist/provider/handlers/project").diff(id, olds, news),
    create: (inputs) => require("pulumi-wos/dist/provider/handlers/project").create(inputs),
    read: (id, props) => require("pulumi-wos/dist/provider/handlers/project").read(id, props),
    update: (id, olds, news) => require("pulumi-wos/dist/provider/handlers/project").update(id, olds, news),
    delete: (id, props) => require("pulumi-wos/dist/provider/handlers/project").delete(id, props),
};

/**
 * A project of the Workspace Organization Service (type token `pulumi-nodejs:dynamic/wos:Project`).
 *
 * ```ts
 * const apps = new wos.Project("apps", { organization: "acme", name: "Apps", tags: { team: "platform" } });
 * ```
 */
export class Project extends pulumi.dynamic.Resource {
    /** The organization's name. */
    declare public readonly organization: pulumi.Output<string>;
    /** The project's name. */
    declare public readonly name: pulumi.Output<string>;
    /** The description, when it has one. */
    declare public readonly description: pulumi.Output<string | undefined>;
    /** The auto-destroy activity duration, when set. */
    declare public readonly autoDestroyActivityDuration: pulumi.Output<string | undefined>;
    /** The tag set, when {@link ProjectArgs.tags} manages it. */
    declare public readonly tags: pulumi.Output<Record<string, string> | undefined>;

    /**
     * @param name The Pulumi resource name (not the project's name).
     * @param args The project's settings.
     * @param opts Resource options.
     */
    constructor(name: string, args: ProjectArgs, opts?: pulumi.CustomResourceOptions) {
        super(
            projectProvider,
            name,
            {
                organization: args.organization,
                name: args.name,
                description: args.description,
                autoDestroyActivityDuration: args.autoDestroyActivityDuration,
                tags: args.tags,
            },
            opts,
            "wos",
            "Project",
        );
    }
}
