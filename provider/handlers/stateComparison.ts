/**
 * The handlers' `diff`: an input against the state, where an unknown value may turn out to differ and
 * equivalent spellings (an absent description and `null`) are equal.
 *
 * @module
 */
import { containsUnknown } from "./unknownValues";

/**
 * Whether an input differs from the state. An unknown new value counts as a change (it may turn out
 * different); `normalize` makes equivalent spellings equal (an absent description and `null`).
 */
export function differs(oldValue: unknown, newValue: unknown, normalize: (value: unknown) => unknown = (v) => v): boolean {
    if (containsUnknown(newValue)) return true;
    return JSON.stringify(normalize(oldValue)) !== JSON.stringify(normalize(newValue));
}

/**
 * The inputs of `replacing` (a resource's inputs tagged `@replaceOnChanges`, `REPLACING_INPUTS`) that differ
 * from the state: what `diff` answers as `replaces`, in the order the declaration lists them.
 */
export function replacingChanges(replacing: readonly string[], olds: Record<string, unknown>, news: Record<string, unknown>): string[] {
    return replacing.filter((input) => differs(olds[input], news[input]));
}

/** Equal, or not known yet (and so possibly equal): what decides whether a replacement could clash with the old resource. */
export function mayBeSame(oldValue: unknown, newValue: unknown): boolean {
    return containsUnknown(newValue) || oldValue === newValue;
}

/**
 * The same name without regard to case (project and workspace names are unique in any case), or not known
 * yet: whether a replacement could take the old resource's name.
 */
export function mayBeSameName(oldValue: unknown, newValue: unknown): boolean {
    if (containsUnknown(newValue)) return true;
    return typeof oldValue === "string" && typeof newValue === "string" && oldValue.toLowerCase() === newValue.toLowerCase();
}

/** `undefined`, `null` and `""` all mean "none" for optional text such as a description. */
export function optionalText(value: unknown): unknown {
    // `null` is already "none" and is answered as it is.
    return value === undefined || value === "" ? null : value;
}
