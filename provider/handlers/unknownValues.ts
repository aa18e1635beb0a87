/**
 * Pulumi's unknown values: during a preview the host passes an input that is not known yet as a marker
 * string, anywhere in a property bag. Every check and comparison of the handlers asks about it here.
 *
 * @module
 */

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

/** Property bags as the host passes them: plain JSON keyed by input name (plus `__provider`). */
export type PropertyBag = Record<string, unknown>;
