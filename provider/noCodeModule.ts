/**
 * `wos.NoCodeModule`: a module of the organization's private registry enabled for no-code provisioning,
 * with its version pin and the allowed values of some of its variables.
 *
 * The thin shell of the provider pattern every resource here follows: the serialized provider only
 * `require`s the handler module by package name and delegates.
 *
 * @module
 */
import * as pulumi from "@pulumi/pulumi";

/** One set of allowed values of a module variable ({@link NoCodeModuleArgs.variableOptions}). */
export interface NoCodeModuleVariableOptionsArgs {
    /** A variable of the pinned module version. */
    variableName: pulumi.Input<string>;
    /** The variable's declared type, as the configuration language writes it: `string`, `number`, `map(string)`... */
    variableType: pulumi.Input<string>;
    /** The allowed values, at least one; numbers and booleans are kept as their text. */
    options: pulumi.Input<pulumi.Input<string | number | boolean>[]>;
}

/** Inputs of a {@link NoCodeModule}. */
export interface NoCodeModuleArgs {
    /**
     * Name of the organization whose registry holds the module; default: the stack config `wos:organization`,
     * else the environment variable `WOS_ORGANIZATION`. Changing it replaces the no-code module.
     *
     * @replaceOnChanges
     */
    organization?: pulumi.Input<string>;
    /**
     * Id of the registry module (`mod-…`); a registry module has at most one no-code module. Changing it replaces the no-code module.
     *
     * @replaceOnChanges
     */
    registryModuleId: pulumi.Input<string>;
    /**
     * The module version no-code workspaces use, an existing version such as `1.1.0`. Default: the module's
     * highest version when the no-code module is made; leaving it out later keeps the pin as it is.
     */
    versionPin?: pulumi.Input<string>;
    /** Whether workspaces may be made from the module; default false. */
    enabled?: pulumi.Input<boolean>;
    /**
     * The module's whole list of variable-options sets, one per variable name. Their order does not matter;
     * a set keeps its id while its variable stays listed, and a set dropped from the list is removed.
     */
    variableOptions?: pulumi.Input<pulumi.Input<NoCodeModuleVariableOptionsArgs>[]>;
}

/** A variable-options set as the service holds it ({@link NoCodeModule.variableOptions}). */
export interface NoCodeModuleVariableOptions {
    /** `ncvaropt-…` */
    id: string;
    /** The module variable the set restricts. */
    variableName: string;
    /** That variable's declared type (`string`, `number`, ...). */
    variableType: string;
    /** The allowed values, as text. */
    options: string[];
}

/**
 * The serialized provider: loads `pulumi-wos/dist/provider/handlers/noCodeModule` by package name.
 *
 * @internal exported for tests that serialize it.
 */
export const noCodeModuleProvider: pulumi.dynamic.ResourceProvider = {
    configure: (request) => require("pulumi-wos/dist/provider/handlers/credentials").configure(request),
    check: (olds, news) => require("pulumi-wos/dist/provider/handlers/noCodeModule").check(olds, news),
    diff: (id, olds, news) => require("pulumi-wos/dist/provider/handlers/noCodeModule").diff(id, olds, news),
    create: (inputs) => require("pulumi-wos/dist/provider/handlers/noCodeModule").create(inputs),
    read: (id, props) => require("pulumi-wos/dist/provider/handlers/noCodeModule").read(id, props),
    update: (id, olds, news) => require("pulumi-wos/dist/provider/handlers/noCodeModule").update(id, olds, news),
    delete: (id, props) => require("pulumi-wos/dist/provider/handlers/noCodeModule").delete(id, props),
};

/**
 * A no-code module (type token `pulumi-nodejs:dynamic/wos:NoCodeModule`); its id is the `nocode-…` id.
 * Deleting it disables no-code provisioning for the registry module; workspaces made from it stay.
 *
 * ```ts
 * const bucket = new wos.NoCodeModule("bucket", {
 *     organization: "acme",
 *     registryModuleId: "mod-0000000000000001",
 *     versionPin: "1.1.0",
 *     enabled: true,
 *     variableOptions: [{ variableName: "region", variableType: "string", options: ["eu-west-1", "us-east-1"] }],
 * });
 * ```
 */
export class NoCodeModule extends pulumi.dynamic.Resource {
    /** The organization's name. */
    declare public readonly organization: pulumi.Output<string>;
    /** The registry module's id (`mod-…`). */
    declare public readonly registryModuleId: pulumi.Output<string>;
    /** The pinned module version, also when the program left it out. */
    declare public readonly versionPin: pulumi.Output<string>;
    /** Whether workspaces may be made from the module. */
    declare public readonly enabled: pulumi.Output<boolean>;
    /** The variable-options sets, each with its id. */
    declare public readonly variableOptions: pulumi.Output<NoCodeModuleVariableOptions[]>;

    /**
     * @param name The Pulumi resource name.
     * @param args The module and its no-code settings.
     * @param opts Resource options.
     */
    constructor(name: string, args: NoCodeModuleArgs, opts?: pulumi.CustomResourceOptions) {
        super(
            noCodeModuleProvider,
            name,
            {
                organization: args.organization,
                registryModuleId: args.registryModuleId,
                versionPin: args.versionPin,
                enabled: args.enabled,
                variableOptions: args.variableOptions,
            },
            opts,
            "wos",
            "NoCodeModule",
        );
    }
}
