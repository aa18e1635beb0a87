/**
 * What the lookups (`getProject`, `getProjects`, `getWorkspace`, `getWorkspaces`, `getNoCodeModule`) share:
 * the client they run with and the organization they look in.
 *
 * Dynamic providers have no invokes, so a lookup runs the SDK right in the program's process, with the
 * credentials the resources use: stack config `wos:address` / `wos:token`, else `WOS_ADDRESS` /
 * `WOS_TOKEN`; and the same default organization: `wos:organization`, else `WOS_ORGANIZATION`. Nothing here
 * is serialized into state.
 *
 * @module
 */
import * as pulumi from "@pulumi/pulumi";
import type { WosClient } from "../sdk";
import { ClientCache, DEFAULT_WOS_ADDRESS } from "./handlers/credentials";

/** One client per address and token for the lookups of this process (keep-alive connections shared). */
const lookupClients = new ClientCache();

function nonEmpty(value: string | undefined): string | undefined {
    return value !== undefined && value.trim() !== "" ? value.trim() : undefined;
}

/** A `wos` stack config value, else the environment variable, else `undefined`. */
function setting(key: "address" | "token" | "organization", variable: string): string | undefined {
    return nonEmpty(new pulumi.Config("wos").get(key)) ?? nonEmpty(process.env[variable]);
}

/**
 * The client of a lookup, for the configured address and token (see the module's description). Throws,
 * naming the lookup, `wos:token` and `WOS_TOKEN`, when there is no token.
 */
export function lookupClient(lookup: string): WosClient {
    const token = setting("token", "WOS_TOKEN");
    if (!token) {
        throw new Error(
            `${lookup}: no token configured: set the stack config 'wos:token' ` +
                "(pulumi config set --secret wos:token <TOKEN>) or the environment variable WOS_TOKEN",
        );
    }
    return lookupClients.clientFor(setting("address", "WOS_ADDRESS") ?? DEFAULT_WOS_ADDRESS, token);
}

/**
 * The organization a lookup looks in: the one given, else the default organization (`wos:organization`,
 * else `WOS_ORGANIZATION`). Throws, naming the lookup and where to set a default, when there is none.
 */
export function lookupOrganization(lookup: string, given: string | undefined): string {
    if (given !== undefined && given !== null) {
        if (typeof given !== "string" || given.trim() === "") throw new Error(`${lookup}: organization must be an organization's name, not empty`);
        return given;
    }
    const organization = setting("organization", "WOS_ORGANIZATION");
    if (!organization) {
        throw new Error(
            `${lookup}: no organization: pass organization, or set a default organization with the stack config ` +
                "'wos:organization' (pulumi config set wos:organization <NAME>) or the environment variable WOS_ORGANIZATION",
        );
    }
    return organization;
}

/** Resolves an `Input` of plain data that may be absent, for the `…Output` forms. */
export function optionalInput<T>(value: pulumi.Input<T> | undefined): pulumi.Output<T | undefined> {
    return (value === undefined ? pulumi.output(undefined) : pulumi.output(value)) as unknown as pulumi.Output<T | undefined>;
}
