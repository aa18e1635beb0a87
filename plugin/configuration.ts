/**
 * The provider's configuration (`address`, `token`, `organization`, `planUpgradesInPreview`): checked in
 * `CheckConfig`, compared in `DiffConfig`, and turned by `Configure` into the credentials every operation of
 * the plugin runs with and the settings of its previews.
 *
 * @module
 */
import { ScopedCredentials } from "../provider/handlers/credentials";
import type { CheckFailure } from "../provider/handlers/inputChecks";
import { isUnknown, type PropertyBag, reveal, secret } from "./propertyValues";

/** The text keys of the configuration: `wos:<key>` in a stack's config, `<key>` for an explicit provider. */
export const CONFIG_KEYS = ["address", "token", "organization"] as const;

/** One text key of the configuration. */
export type ConfigKey = (typeof CONFIG_KEYS)[number];

/**
 * The switch of upgrade plans in previews (`wos:planUpgradesInPreview`): a boolean, which the stack config and
 * the SDKs' explicit providers send as the text `true` or `false`.
 */
export const PLAN_UPGRADES_IN_PREVIEW = "planUpgradesInPreview";

/** A switch's value: a boolean, or the text of one (any case, blanks around it); `undefined` when unset or not one. */
function flag(value: unknown): boolean | undefined {
    if (typeof value === "boolean") return value;
    if (typeof value !== "string") return undefined;
    const word = value.trim().toLowerCase();
    return word === "true" ? true : word === "false" ? false : undefined;
}

/** A value of the configuration as a string, when it is one and not blank (anything else counts as unset). */
function text(value: unknown): string | undefined {
    return typeof value === "string" && !isUnknown(value) && value.trim() !== "" ? value.trim() : undefined;
}

/** Whether `value` is an http(s) URL, as the client requires of an address. */
function isHttpUrl(value: string): boolean {
    try {
        const url = new URL(value);
        return url.protocol === "http:" || url.protocol === "https:";
    } catch {
        return false;
    }
}

/**
 * `CheckConfig`: each key a string (unknowns pass), the address an http(s) URL. Answers the inputs with the
 * token a secret, however it came, and every failure naming its key.
 */
export function checkConfig(news: PropertyBag): { inputs: PropertyBag; failures: CheckFailure[] } {
    const failures: CheckFailure[] = [];
    for (const key of CONFIG_KEYS) {
        const value = reveal(news[key]);
        if (value === undefined || value === null || isUnknown(value)) continue;
        if (typeof value !== "string") {
            failures.push({ property: key, reason: `${key} must be a string` });
        } else if (key === "address" && value.trim() !== "" && !isHttpUrl(value.trim())) {
            failures.push({ property: key, reason: "address must be an http(s) URL, such as http://127.0.0.1:8787 (the local service)" });
        }
    }
    const switchValue = reveal(news[PLAN_UPGRADES_IN_PREVIEW]);
    const switchUnset = switchValue === undefined || switchValue === null || isUnknown(switchValue) || (typeof switchValue === "string" && switchValue.trim() === "");
    if (!switchUnset && flag(switchValue) === undefined) {
        failures.push({ property: PLAN_UPGRADES_IN_PREVIEW, reason: `${PLAN_UPGRADES_IN_PREVIEW} must be a boolean (true or false)` });
    }
    const inputs: PropertyBag = { ...news };
    if (inputs.token !== undefined && inputs.token !== null) inputs.token = secret(inputs.token);
    return { inputs, failures };
}

/** `DiffConfig`: the keys whose value changed (none replaces the provider: a new token or address takes effect in place). */
export function changedConfig(olds: PropertyBag, news: PropertyBag): string[] {
    const changed: string[] = CONFIG_KEYS.filter((key) => {
        const newValue = reveal(news[key]);
        return isUnknown(newValue) || text(reveal(olds[key])) !== text(newValue);
    });
    const newSwitch = reveal(news[PLAN_UPGRADES_IN_PREVIEW]);
    if (isUnknown(newSwitch) || (flag(reveal(olds[PLAN_UPGRADES_IN_PREVIEW])) ?? false) !== (flag(newSwitch) ?? false)) changed.push(PLAN_UPGRADES_IN_PREVIEW);
    return changed;
}

/**
 * The credentials of a `Configure`: each key from its arguments (`args`, as an explicit provider or the stack
 * config gives them), else from the fully qualified variables (`wos:token`) of older engines; each
 * operation falls back to the environment variables for what neither gives.
 */
export function credentialsFromConfigure(args: PropertyBag | undefined, variables: ReadonlyMap<string, string>): ScopedCredentials {
    const plain = reveal(args ?? {});
    const value = (key: ConfigKey) => text(plain[key]) ?? text(variables.get(`wos:${key}`));
    return new ScopedCredentials({ address: value("address"), token: value("token"), organization: value("organization") });
}

/**
 * Whether a preview plans the upgrades of no-code workspaces (`planUpgradesInPreview`, default false): from the
 * `Configure` arguments, else the fully qualified variable of older engines. Never from the environment: a
 * preview that starts plans on the service is asked for by the stack or the program.
 */
export function planUpgradesInPreviewFromConfigure(args: PropertyBag | undefined, variables: ReadonlyMap<string, string>): boolean {
    return flag(reveal(args ?? {})[PLAN_UPGRADES_IN_PREVIEW]) ?? flag(variables.get(`wos:${PLAN_UPGRADES_IN_PREVIEW}`)) ?? false;
}
