/**
 * `wos.Variable`: a variable of a workspace (the `/vars` interface), optionally sensitive.
 *
 * The thin shell of the provider pattern every resource here follows: the serialized provider only
 * `require`s the handler module by package name and delegates.
 *
 * @module
 */
import * as pulumi from "@pulumi/pulumi";

/** Inputs of a {@link Variable}. */
export interface VariableArgs {
    /**
     * Id of the owning workspace (`ws-…`). Changing it replaces the variable.
     *
     * @replaceOnChanges
     */
    workspaceId: pulumi.Input<string>;
    /** The variable's name, unique per workspace and category. Changing it replaces a sensitive variable. */
    key: pulumi.Input<string>;
    /** The value; default `""`. A sensitive variable's value is kept as a secret in state. */
    value?: pulumi.Input<string>;
    /** At most 512 characters. */
    description?: pulumi.Input<string>;
    /** `infra` (a configuration variable) or `env` (an environment variable). Changing it replaces a sensitive variable. */
    category: pulumi.Input<"infra" | "env">;
    /** Evaluate the value as configuration-language code; default false; no effect for `env`. */
    hcl?: pulumi.Input<boolean>;
    /**
     * Write-once secrecy: the service never shows the value again. Default false. Turning it on changes the
     * variable in place; turning it off replaces it.
     */
    sensitive?: pulumi.Input<boolean>;
}

/**
 * The serialized provider: loads `pulumi-wos/dist/provider/handlers/variable` by package name.
 *
 * @internal exported for tests that serialize it.
 */
export const variableProvider: pulumi.dynamic.ResourceProvider = {
    configure: (request) => require("pulumi-wos/dist/provider/handlers/credentials").configure(request),
    check: (olds, news) => require("pulumi-wos/dist/provider/handlers/variable").check(olds, news),
    diff: (id, olds, news) => require("pulumi-wos/dist/provider/handlers/variable").diff(id, olds, news),
    create: (inputs) => require("pulumi-wos/dist/provider/handlers/variable").create(inputs),
    read: (id, props) => require("pulumi-wos/dist/provider/handlers/variable").read(id, props),
    update: (id, olds, news) => require("pulumi-wos/dist/provider/handlers/variable").update(id, olds, news),
    delete: (id, props) => require("pulumi-wos/dist/provider/handlers/variable").delete(id, props),
};

/**
 * Whether `sensitive` may be true: anything but a plain `false` or nothing. An input not known while the
 * program runs (an `Output`, a promise) counts as possibly true, so the value is protected in any case.
 */
function maybeSensitive(sensitive: pulumi.Input<boolean> | undefined): boolean {
    return sensitive !== undefined && sensitive !== false;
}

/**
 * The value input, made secret when the variable is sensitive. The provider host does not accept secrets
 * (`acceptSecrets=false`): the engine marks an output secret only when the input of the same name was, so
 * the input itself must be a secret.
 */
function protectedValue(
    value: pulumi.Input<string> | undefined,
    sensitive: pulumi.Input<boolean> | undefined,
): pulumi.Input<string> | undefined {
    if (value === undefined || !maybeSensitive(sensitive)) return value;
    if (sensitive === true) return pulumi.secret(value);
    return pulumi.output(sensitive).apply((isSensitive) => (isSensitive ? pulumi.secret(value) : pulumi.output(value)));
}

/**
 * A workspace variable (type token `pulumi-nodejs:dynamic/wos:Variable`). The `value` output of a
 * sensitive variable is always a secret.
 *
 * ```ts
 * new wos.Variable("db-password", {
 *     workspaceId: site.id, key: "DB_PASSWORD", value: pulumi.secret("s3cret"), category: "env", sensitive: true,
 * });
 * ```
 */
export class Variable extends pulumi.dynamic.Resource {
    /** The owning workspace's id. */
    declare public readonly workspaceId: pulumi.Output<string>;
    /** The variable's name. */
    declare public readonly key: pulumi.Output<string>;
    /** The value; for a sensitive variable the last one written, as a secret. */
    declare public readonly value: pulumi.Output<string>;
    /** The description, when it has one. */
    declare public readonly description: pulumi.Output<string | undefined>;
    /** `infra` or `env`. */
    declare public readonly category: pulumi.Output<"infra" | "env">;
    /** Whether the value is configuration-language code. */
    declare public readonly hcl: pulumi.Output<boolean>;
    /** Whether the value is write-only. */
    declare public readonly sensitive: pulumi.Output<boolean>;

    /**
     * @param name The Pulumi resource name (not the variable's key).
     * @param args The variable's settings.
     * @param opts Resource options.
     */
    constructor(name: string, args: VariableArgs, opts?: pulumi.CustomResourceOptions) {
        const secretOutputs: pulumi.CustomResourceOptions = maybeSensitive(args.sensitive)
            ? { additionalSecretOutputs: ["value"] }
            : {};
        super(
            variableProvider,
            name,
            {
                workspaceId: args.workspaceId,
                key: args.key,
                value: protectedValue(args.value, args.sensitive),
                description: args.description,
                category: args.category,
                hcl: args.hcl,
                sensitive: args.sensitive,
            },
            pulumi.mergeOptions(opts, secretOutputs),
            "wos",
            "Variable",
        );
    }
}
