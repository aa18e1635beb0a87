/**
 * What the resource handlers share: recognising Pulumi's unknown values, checking inputs against the
 * rules of `sdk/model`, comparing inputs with state, shaping outputs as plain JSON, and turning SDK errors
 * into messages that name the resource.
 *
 * Nothing here is captured by a serialized provider: the thin shells only `require` the handler modules by
 * package name, and those import this file.
 *
 * @module
 */
import type { z } from "zod";
import { WosConnectionError, WosError, WosServerError } from "../../sdk/errors";
import type { Tag } from "../../sdk/model";
import { currentToken } from "./credentials";

/**
 * The value Pulumi sends for an input that is not known yet (during preview), the string
 * `pulumi.runtime.unknownValue`. Spelled out so the handlers do not load `@pulumi/pulumi`.
 */
export const UNKNOWN = "04da6b54-80e4-46f7-96ec-b56ff0331ba9";

/** Whether `value` is Pulumi's unknown marker. */
export function isUnknown(value: unknown): boolean {
    return value === UNKNOWN;
}

/** Whether `value`, or anything inside it, is still unknown. */
export function containsUnknown(value: unknown): boolean {
    if (isUnknown(value)) return true;
    if (Array.isArray(value)) return value.some(containsUnknown);
    if (typeof value === "object" && value !== null) return Object.values(value).some(containsUnknown);
    return false;
}

/** One failure of `check`, as {@link https://www.pulumi.com/docs/ | Pulumi} wants it: the property and why. */
export interface CheckFailure {
    property: string;
    reason: string;
}

/** Property bags as the host passes them: plain JSON keyed by input name (plus `__provider`). */
export type PropertyBag = Record<string, unknown>;

/**
 * Checks one property with a rule of `sdk/model`. An absent value fails only when `required`; an unknown
 * value passes (it is checked again once known, at `up`). Each zod issue becomes one failure whose reason
 * starts with the property name, e.g. `name must be at least 3 characters`.
 */
export function checkProperty(
    failures: CheckFailure[],
    inputs: PropertyBag,
    property: string,
    rule: z.ZodType,
    options: { required?: boolean; requiredReason?: string } = {},
): void {
    const value = inputs[property];
    if (isUnknown(value)) return;
    if (value === undefined || value === null) {
        if (options.required) {
            failures.push({ property, reason: options.requiredReason ?? `${property} is required` });
        }
        return;
    }
    const result = rule.safeParse(value);
    if (!result.success) {
        for (const issue of result.error.issues) failures.push({ property, reason: `${property} ${issue.message}` });
    }
}

/**
 * Checks a `tags` map: a map of strings, each key and value by the tag rules, and the set rules (at most
 * ten, no key twice). Unknown keys' values pass; a wholly unknown map passes.
 */
export function checkTagMap(
    failures: CheckFailure[],
    inputs: PropertyBag,
    property: string,
    rules: { key: () => z.ZodType; value: () => z.ZodType; set: (tags: readonly Tag[]) => { message: string }[] },
    options: { required?: boolean } = {},
): void {
    const value = inputs[property];
    if (isUnknown(value)) return;
    if (value === undefined || value === null) {
        if (options.required) failures.push({ property, reason: `${property} is required (a map of tag keys to values)` });
        return;
    }
    if (typeof value !== "object" || Array.isArray(value)) {
        failures.push({ property, reason: `${property} must be a map of tag keys to string values` });
        return;
    }
    const keyRule = rules.key();
    const valueRule = rules.value();
    const tags: Tag[] = [];
    for (const [key, tagValue] of Object.entries(value as Record<string, unknown>)) {
        const keyResult = keyRule.safeParse(key);
        if (!keyResult.success) {
            for (const issue of keyResult.error.issues) {
                failures.push({ property, reason: `${property}: tag key '${key}' ${issue.message}` });
            }
        }
        if (!isUnknown(tagValue)) {
            const valueResult = valueRule.safeParse(tagValue);
            if (!valueResult.success) {
                for (const issue of valueResult.error.issues) {
                    failures.push({ property, reason: `${property}: the value of tag '${key}' ${issue.message}` });
                }
            }
        }
        tags.push({ key, value: typeof tagValue === "string" ? tagValue : "" });
    }
    for (const problem of rules.set(tags)) failures.push({ property, reason: `${property}: ${problem.message}` });
}

/** A `tags` map as the SDK's list of tags, in the map's order. */
export function tagsFromMap(map: Record<string, string>): Tag[] {
    return Object.entries(map).map(([key, value]) => ({ key, value }));
}

/** The SDK's tag bindings as a `tags` map. */
export function mapFromTags(tags: readonly { key: string; value: string }[]): Record<string, string> {
    const map: Record<string, string> = {};
    for (const tag of tags) map[tag.key] = tag.value;
    return map;
}

/** Whether two tag maps hold the same keys with the same values (order does not matter). */
export function sameTagMap(a: Record<string, string> | undefined, b: Record<string, string> | undefined): boolean {
    const left = a ?? {};
    const right = b ?? {};
    const leftKeys = Object.keys(left);
    if (leftKeys.length !== Object.keys(right).length) return false;
    return leftKeys.every((key) => Object.prototype.hasOwnProperty.call(right, key) && right[key] === left[key]);
}

/**
 * Whether an input differs from the state. An unknown new value counts as a change (it may turn out
 * different); `normalize` makes equivalent spellings equal (an absent description and `null`).
 */
export function differs(oldValue: unknown, newValue: unknown, normalize: (value: unknown) => unknown = (v) => v): boolean {
    if (containsUnknown(newValue)) return true;
    return JSON.stringify(normalize(oldValue)) !== JSON.stringify(normalize(newValue));
}

/** `undefined`, `null` and `""` all mean "none" for optional text such as a description. */
export function optionalText(value: unknown): unknown {
    return value === undefined || value === null || value === "" ? null : value;
}

/**
 * Outputs as the host needs them: plain JSON, with no `undefined` (the host fails with `Unexpected struct
 * type`), no `Date` and no class instance. Absent optional values are left out rather than set to null.
 */
export function plainOutputs<T extends object>(outputs: T): T {
    const copy: Record<string, unknown> = {};
    for (const [key, value] of Object.entries(outputs)) {
        if (value === undefined || value === null) continue;
        copy[key] = JSON.parse(JSON.stringify(value));
    }
    return copy as T;
}

/**
 * Whether a failed request may have been carried out by the service anyway: no answer arrived (reset,
 * refused after sending, timeout) or the service failed with a 5xx, possibly after committing. A 4xx is a
 * definitive refusal.
 */
export function isAmbiguousFailure(error: unknown): boolean {
    return WosConnectionError.isInstance(error) || WosServerError.isInstance(error);
}

/** Whether the failure was a timeout: the service may still be working on the request. */
export function isTimeout(error: unknown): boolean {
    const code = WosError.isInstance(error) ? error.code : undefined;
    return code === "ETIMEDOUT" || code === "ECONNABORTED" || code === "ESOCKETTIMEDOUT";
}

/** Resolves after `ms` milliseconds. */
export function sleep(ms: number): Promise<void> {
    return new Promise((resolve) => setTimeout(resolve, ms));
}

/** A resource that exists although its operation failed: its id, its outputs, and the inputs it came from. */
export interface PartialResult {
    id: string;
    properties: Record<string, unknown>;
    /** The operation's inputs, which carry the serialized provider (`__provider`). */
    inputs: PropertyBag;
}

/**
 * An error of a provider operation. Its message names the resource and the operation and carries the
 * service's own explanation; never the token.
 *
 * When `id` is set, the host reports a partial success (`ErrorResourceInitFailed`) and the engine keeps the
 * resource in state with `properties` as its outputs, so nothing is orphaned.
 */
export class ProviderOperationError extends Error {
    /** Id of a resource that exists although the operation failed. */
    readonly id?: string;
    /** Outputs of that resource, for the state. */
    readonly properties?: Record<string, unknown>;
    /** Reasons shown by the engine next to a partial success. */
    readonly reasons?: string[];

    constructor(message: string, partial?: PartialResult) {
        super(message);
        Object.defineProperty(this, "name", { value: "ProviderOperationError", enumerable: false, configurable: true });
        if (partial) {
            this.id = partial.id;
            // The host copies `__provider` into a successful answer's outputs but not into a partial one's;
            // without it, the engine could not load the provider again to refresh or destroy what was kept.
            this.properties = { ...partial.properties, __provider: partial.inputs.__provider };
            this.reasons = [message];
        }
    }
}

/** The message of any thrown value, with the current token (if any) removed, as a last line of defence. */
export function safeMessage(error: unknown): string {
    const message = error instanceof Error ? error.message : String(error);
    const token = currentToken();
    return token ? message.split(token).join("[REDACTED]") : message;
}

/**
 * Wraps a failure as a {@link ProviderOperationError}: `<what>: <operation> failed: <service detail>`,
 * e.g. `wos:Project 'Apps' in organization 'acme': create failed: ... Name has already been taken`.
 */
export function operationError(
    what: string,
    operation: string,
    error: unknown,
    partial?: PartialResult,
): ProviderOperationError {
    if (error instanceof ProviderOperationError && !partial) return error;
    return new ProviderOperationError(`${what}: ${operation} failed: ${safeMessage(error)}`, partial);
}
