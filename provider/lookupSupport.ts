/**
 * What the lookups of the program (`getProject`, `getProjects`, `getWorkspace`, `getWorkspaces`,
 * `getNoCodeModule`) share: the settings they run with, and the `…Output` forms' inputs.
 *
 * Dynamic providers have no invokes, so a lookup runs the SDK right in the program's process (the logic is
 * `handlers/lookups.ts`, which the native plugin's invokes run too), with the credentials the resources use:
 * stack config `wos:address` / `wos:token`, else `WOS_ADDRESS` / `WOS_TOKEN`; and the same default
 * organization: `wos:organization`, else `WOS_ORGANIZATION`. Nothing here is serialized into state.
 *
 * @module
 */
import * as pulumi from "@pulumi/pulumi";
import { ClientCache } from "./handlers/credentials";
import type { LookupSettings } from "./handlers/lookups";

/** The environment variable behind each setting. */
const VARIABLES = { address: "WOS_ADDRESS", token: "WOS_TOKEN", organization: "WOS_ORGANIZATION" } as const;

function nonEmpty(value: string | undefined): string | undefined {
    return value !== undefined && value.trim() !== "" ? value.trim() : undefined;
}

/**
 * The settings of the program's lookups: a `wos` stack config value, else the environment variable, with one
 * client per address and token for the lookups of this process (keep-alive connections shared).
 */
export const programLookupSettings: LookupSettings = {
    setting: (key) => nonEmpty(new pulumi.Config("wos").get(key)) ?? nonEmpty(process.env[VARIABLES[key]]),
    clients: new ClientCache(),
};

/** Resolves an `Input` of plain data that may be absent, for the `…Output` forms. */
export function optionalInput<T>(value: pulumi.Input<T> | undefined): pulumi.Output<T | undefined> {
    return (value === undefined ? pulumi.output(undefined) : pulumi.output(value)) as unknown as pulumi.Output<T | undefined>;
}
