/**
 * `wos.NoCodeWorkspace`: a workspace made from a no-code module, kept in line with the program and upgraded
 * (new var values, or a new module version) inside `pulumi up`.
 *
 * The thin shell of the provider pattern every resource here follows: the serialized provider only
 * `require`s the handler module by package name and delegates.
 *
 * @module
 */
import * as pulumi from "@pulumi/pulumi";
// A type only (nothing of the SDK is loaded here, nor reachable from the serialized provider): the fields of
// a var are the client's, declared once.
import type { NoCodeWorkspaceVar as ClientVar } from "../sdk/model";
import { setValuesApart, valueKey } from "./handlers/varValuesApart";

/** One var of a no-code workspace ({@link NoCodeWorkspaceArgs.vars}): the client's var, each field an input. */
export type NoCodeWorkspaceVarArgs = { [K in keyof ClientVar]: pulumi.Input<NonNullable<ClientVar[K]>> };

/** Inputs of a {@link NoCodeWorkspace}. */
export interface NoCodeWorkspaceArgs {
    /**
     * Id of the no-code module (`nocode-…`) to make the workspace from. Changing it replaces the workspace.
     *
     * @replaceOnChanges
     */
    noCodeModuleId: pulumi.Input<string>;
    /** Id of the project (`prj-…`); the caller must be allowed to create workspaces in it. Changing it moves the workspace. */
    projectId: pulumi.Input<string>;
    /** 1 to 90 letters, numbers, `-` and `_`; unique in the organization. Changes in place. */
    name: pulumi.Input<string>;
    /** At most 256 characters; default `""`. */
    description?: pulumi.Input<string>;
    /** Apply automatically after a successful plan; default false. */
    autoApply?: pulumi.Input<boolean>;
    /** `remote` (default) or `agent`. */
    executionMode?: pulumi.Input<"remote" | "agent">;
    /** The agent pool (`apool-…`): required with `agent`, refused with `remote`. */
    agentPoolId?: pulumi.Input<string>;
    /** Shown on the workspace as the application that made it. */
    sourceName?: pulumi.Input<string>;
    /** A URL shown with {@link NoCodeWorkspaceArgs.sourceName}. */
    sourceUrl?: pulumi.Input<string>;
    /**
     * The vars this resource manages (other variables of the workspace are left alone). A change here, in
     * anything but their order, upgrades the workspace; a var removed from the list is deleted. The value of
     * a sensitive var is a secret in state.
     */
    vars?: pulumi.Input<pulumi.Input<NoCodeWorkspaceVarArgs>[]>;
    /**
     * The module version the workspace must run. When given it must be the no-code module's pinned version
     * when the workspace is made or upgraded (otherwise the create or update fails before anything changes).
     * A change here upgrades the workspace.
     */
    moduleVersion?: pulumi.Input<string>;
    /** The whole upgrade's deadline, in seconds; default 1800. Changing it alone changes nothing. */
    upgradeTimeoutSeconds?: pulumi.Input<number>;
    /**
     * The rollout wave the workspace is in, e.g. `1 of 3`, which the message of a failed upgrade names (a
     * wave's workspaces depend on the wave before, so the rollout stops there). Set by `NoCodeProject`'s
     * `rollout`; at most 100 characters. Changing it alone changes nothing.
     */
    rolloutWave?: pulumi.Input<string>;
}

/**
 * A var as the state holds it ({@link NoCodeWorkspace.vars}): the client's var with `hcl` and `sensitive`
 * always given. Its `value` is absent when it is secret (a sensitive var, or a value the program made
 * secret): that value is in {@link NoCodeWorkspace.sensitiveValues}.
 */
export type NoCodeWorkspaceVar = Omit<ClientVar, "hcl" | "sensitive"> & Required<Pick<ClientVar, "hcl" | "sensitive">>;

/** The last upgrade a {@link NoCodeWorkspace} ran. */
export interface NoCodeWorkspaceUpgrade {
    /** `run-…` */
    id: string;
    /** How it ended: `applied`, `planned_and_finished`, or the status that failed it. */
    status: string;
    /** The plan's run page. */
    planUrl: string;
}

/**
 * The serialized provider: loads `pulumi-wos/dist/provider/handlers/noCodeWorkspace` by package name.
 *
 * @internal exported for tests that serialize it.
 */
export const noCodeWorkspaceProvider: pulumi.dynamic.ResourceProvider = {
    configure: (request) => require("pulumi-wos/dist/provider/handlers/credentials").configure(request),
    check: (olds, news) => require("pulumi-wos/dist/provider/handlers/noCodeWorkspace").check(olds, news),
    diff: (id, olds, news) => require("pulumi-wos/dist/provider/handlers/noCodeWorkspace").diff(id, olds, news),
    create: (inputs) => require("pulumi-wos/dist/provider/handlers/noCodeWorkspace").create(inputs),
    read: (id, props) => require("pulumi-wos/dist/provider/handlers/noCodeWorkspace").read(id, props),
    update: (id, olds, news) => require("pulumi-wos/dist/provider/handlers/noCodeWorkspace").update(id, olds, news),
    delete: (id, props) => require("pulumi-wos/dist/provider/handlers/noCodeWorkspace").delete(id, props),
};

/**
 * Whether a value is known while the program runs and a plain object (not an `Output`, a promise or a list).
 *
 * @internal shared with the `NoCodeProject` component, which merges var lists.
 */
export function isPlainObject(value: unknown): value is Record<string, unknown> {
    return (
        typeof value === "object" &&
        value !== null &&
        !Array.isArray(value) &&
        !pulumi.Output.isInstance(value) &&
        !(value instanceof Promise)
    );
}

/** What the engine gets of one var: its place in `vars`, and its value when that is kept apart. */
interface EngineVar {
    /** The var in `vars`: without its value when the value is kept apart. */
    item: pulumi.Input<unknown>;
    /** `[category:key, value]` when the value is kept apart, else `undefined`. */
    apart: pulumi.Output<[string, string] | undefined>;
}

/**
 * One var as the engine gets it. A var whose key, category and `sensitive` are plain values stays as the
 * program wrote it, each field in its own place: a value that is not known yet (an `Output` during a preview)
 * is not known in that var alone, so a preview still shows every other var. Only whether its value is a
 * secret must be waited for (it is known even while the value is not). A var that is an `Output` as a whole,
 * or whose identity or `sensitive` is one, is taken whole once known; a var secret as a whole stays secret,
 * as its parts cannot be told apart.
 */
function engineVar(item: pulumi.Input<NoCodeWorkspaceVarArgs>): EngineVar {
    if (isPlainObject(item) && typeof item.key === "string" && typeof item.category === "string" && (item.sensitive === undefined || typeof item.sensitive === "boolean")) {
        const plain = item as NoCodeWorkspaceVarArgs;
        const identity = valueKey({ key: item.key, category: item.category });
        const valueApart: Promise<boolean> = plain.sensitive === true ? Promise.resolve(true) : pulumi.isSecret(pulumi.output(plain.value));
        const { value, ...rest } = plain;
        return {
            item: valueApart.then((apart): unknown => (apart ? rest : plain)),
            apart: pulumi
                .output(valueApart)
                .apply((apart): pulumi.Output<[string, string] | undefined> =>
                    apart ? pulumi.unsecret(pulumi.output(value ?? "")).apply((known): [string, string] => [identity, known]) : pulumi.output(undefined),
                ),
        };
    }
    const whole = pulumi.output(item);
    const parts = pulumi.all([pulumi.unsecret(whole), pulumi.isSecret(whole)]).apply(([resolved, secret]) => {
        const known = resolved as NoCodeWorkspaceVarArgs & { key: string; category: string; value?: string; sensitive?: boolean };
        const { vars, sensitiveValues } = setValuesApart([known], known.sensitive === true || secret ? new Set([valueKey(known)]) : new Set<string>());
        const apart = Object.entries(sensitiveValues)[0] as [string, string] | undefined;
        return { item: secret ? pulumi.secret(vars[0]) : vars[0], apart };
    });
    return { item: parts.apply((part) => part.item), apart: parts.apply((part) => part.apart) };
}

/**
 * What the engine gets of `vars` (see `varValuesApart.ts`): `vars` without secret values, which a preview
 * shows var by var, and `sensitiveValues`, those values by `category:key`, a secret. A list that is not known
 * while the program runs (an `Output` of the whole list) is split once known; a list secret as a whole stays
 * secret, as its parts cannot be told apart.
 */
function varsForEngine(vars: pulumi.Input<pulumi.Input<NoCodeWorkspaceVarArgs>[]> | undefined): {
    vars?: pulumi.Input<unknown>;
    sensitiveValues?: pulumi.Input<Record<string, string>>;
} {
    if (vars === undefined) return {};
    // Nothing can be secret: the list as the program wrote it, and no `sensitiveValues`.
    const plainValue = (value: unknown) => value === undefined || typeof value === "string";
    if (Array.isArray(vars) && vars.every((item) => isPlainObject(item) && (item.sensitive === undefined || item.sensitive === false) && plainValue(item.value))) {
        return { vars };
    }
    if (Array.isArray(vars)) {
        const parts = vars.map(engineVar);
        return {
            vars: parts.map((part) => part.item),
            sensitiveValues: pulumi.secret(
                pulumi.all(parts.map((part) => part.apart)).apply((entries) => Object.fromEntries(entries.filter((entry) => entry !== undefined))),
            ),
        };
    }
    const whole = pulumi.output(vars);
    const split = pulumi.all([pulumi.unsecret(whole), pulumi.isSecret(whole)]).apply(([list, secret]) => {
        const known = list as Array<NoCodeWorkspaceVarArgs & { key: string; category: string; value?: string; sensitive?: boolean }>;
        return { ...setValuesApart(known, new Set(secret ? known.map(valueKey) : [])), secret };
    });
    return {
        vars: split.apply(({ vars: apart, secret }) => (secret ? pulumi.secret(apart) : apart)),
        sensitiveValues: pulumi.secret(split.apply(({ sensitiveValues }) => sensitiveValues)),
    };
}

/** Where a user reads how to see upgrade plans in a preview from a TypeScript program. */
const PLANS_IN_PREVIEW_DOCS = "https://github.com/pulumi-wos/pulumi-wos/blob/HEAD/docs/reference.md#upgrade-plans-in-a-preview";

let warnedThatPreviewsCannotPlan = false;

/**
 * A stack configured `wos:planUpgradesInPreview` expects its previews to plan upgrades, which the dynamic
 * resources cannot do: Pulumi's dynamic provider host never runs an update during a preview. So a preview
 * says so once, as a warning of the stack, instead of silently planning nothing.
 */
function warnThatPreviewsCannotPlan(): void {
    if (warnedThatPreviewsCannotPlan || !pulumi.runtime.isDryRun()) return;
    if (new pulumi.Config("wos").get("planUpgradesInPreview")?.trim().toLowerCase() !== "true") return;
    warnedThatPreviewsCannotPlan = true;
    void pulumi.log.warn(
        "wos:planUpgradesInPreview is set, but pulumi-wos's dynamic resources cannot plan upgrades in a preview " +
            "(Pulumi's dynamic provider host never runs an update during a preview): this preview starts no plan. " +
            `The native plugin's resources can; see ${PLANS_IN_PREVIEW_DOCS}`,
    );
}

/**
 * A workspace made from a no-code module (type token `pulumi-nodejs:dynamic/wos:NoCodeWorkspace`). A change of
 * `vars` or `moduleVersion` runs an upgrade during `pulumi up`: the plan is started, watched (its statuses
 * and URL in the Pulumi log) and confirmed; a failed plan or the deadline fails the update and leaves the
 * state's vars and version as they were, so the next `up` tries again. The values of sensitive vars (and
 * values the program made secret) are kept apart in the secret `sensitiveValues`, so that `vars` stays
 * readable in a preview.
 *
 * ```ts
 * const site = new wos.NoCodeWorkspace("site", {
 *     noCodeModuleId: bucket.id,
 *     moduleVersion: bucket.versionPin,
 *     projectId: apps.id,
 *     name: "site-prod",
 *     vars: [{ key: "region", value: "eu-west-1", category: "infra" }],
 * });
 * ```
 */
export class NoCodeWorkspace extends pulumi.dynamic.Resource {
    /** The no-code module the workspace was made from. */
    declare public readonly noCodeModuleId: pulumi.Output<string>;
    /** The project the workspace is in. */
    declare public readonly projectId: pulumi.Output<string>;
    /** The workspace's name. */
    declare public readonly name: pulumi.Output<string>;
    /** The description, when it has one. */
    declare public readonly description: pulumi.Output<string | undefined>;
    /** Whether runs apply automatically. */
    declare public readonly autoApply: pulumi.Output<boolean>;
    /** `remote` or `agent`. */
    declare public readonly executionMode: pulumi.Output<"remote" | "agent">;
    /** The agent pool, with `agent`. */
    declare public readonly agentPoolId: pulumi.Output<string | undefined>;
    /** Where the workspace says it was made. */
    declare public readonly sourceName: pulumi.Output<string | undefined>;
    /** The URL shown with the source name. */
    declare public readonly sourceUrl: pulumi.Output<string | undefined>;
    /**
     * The vars this resource manages, as the service holds them, without their secret values (those are in
     * {@link NoCodeWorkspace.sensitiveValues}; of a sensitive var, the last value written).
     */
    declare public readonly vars: pulumi.Output<NoCodeWorkspaceVar[]>;
    /**
     * The secret values of the vars (of sensitive vars, the last ones written), by `category:key` (e.g.
     * `env:ARCHIVE_KEY`): a secret, kept apart so that `pulumi preview --diff` shows every other value.
     *
     * @secret
     */
    declare public readonly sensitiveValues: pulumi.Output<Record<string, string> | undefined>;
    /** The module version the workspace runs, also when the program left it out. */
    declare public readonly moduleVersion: pulumi.Output<string>;
    /** The upgrade deadline the program gave, in seconds. */
    declare public readonly upgradeTimeoutSeconds: pulumi.Output<number | undefined>;
    /** The rollout wave the program gave. */
    declare public readonly rolloutWave: pulumi.Output<string | undefined>;
    /** Whether the module has a newer no-code version than the one the workspace runs. */
    declare public readonly noCodeUpgradeAvailable: pulumi.Output<boolean>;
    /** The last upgrade this resource ran, if any. */
    declare public readonly lastUpgrade: pulumi.Output<NoCodeWorkspaceUpgrade | undefined>;

    /**
     * @param name The Pulumi resource name (not the workspace's name).
     * @param args The workspace's module, project, settings and vars.
     * @param opts Resource options.
     */
    constructor(name: string, args: NoCodeWorkspaceArgs, opts?: pulumi.CustomResourceOptions) {
        warnThatPreviewsCannotPlan();
        const engineVars = varsForEngine(args.vars);
        super(
            noCodeWorkspaceProvider,
            name,
            {
                noCodeModuleId: args.noCodeModuleId,
                projectId: args.projectId,
                name: args.name,
                description: args.description,
                autoApply: args.autoApply,
                executionMode: args.executionMode,
                agentPoolId: args.agentPoolId,
                sourceName: args.sourceName,
                sourceUrl: args.sourceUrl,
                vars: engineVars.vars,
                sensitiveValues: engineVars.sensitiveValues,
                moduleVersion: args.moduleVersion,
                upgradeTimeoutSeconds: args.upgradeTimeoutSeconds,
                rolloutWave: args.rolloutWave,
                noCodeUpgradeAvailable: undefined,
                lastUpgrade: undefined,
            },
            // The engine marks an output secret when its input was; this also covers a read with no input.
            engineVars.sensitiveValues === undefined ? opts : pulumi.mergeOptions(opts, { additionalSecretOutputs: ["sensitiveValues"] }),
            "wos",
            "NoCodeWorkspace",
        );
    }
}
