/**
 * A no-code workspace's secret var values, kept apart from its `vars`.
 *
 * The dynamic provider host does not take secrets: the engine marks a whole top-level output secret when its
 * input held a secret anywhere, and `pulumi preview --diff` then shows the whole `vars` as `[secret]`. So the
 * resource sends the engine two properties: `vars`, each var without the value when that value is secret (a
 * sensitive var, or a value the program made secret), and `sensitiveValues`, a secret map of those values by
 * {@link valueKey}. A reviewer sees which var was added, changed or removed and every value that is not
 * secret; a secret value stays secret in inputs, outputs and state.
 *
 * Used by the resource's shell (`provider/noCodeWorkspace.ts`) and its handler: no imports, so that loading
 * it in a program costs nothing.
 *
 * @module
 */

/** The part of a var this module reads. */
interface VarLike {
    key: string;
    category: string;
    value?: string;
    sensitive?: boolean;
}

/** Whether a plain JSON value is an object (not a list, not null). */
export function isRecord(value: unknown): value is Record<string, unknown> {
    return typeof value === "object" && value !== null && !Array.isArray(value);
}

/** The key of a var's value in `sensitiveValues`: its category and key, e.g. `env:ARCHIVE_KEY`. */
export function valueKey(item: { key: string; category: string }): string {
    return `${item.category}:${item.key}`;
}

/**
 * Splits whole vars into `vars` without the values of the sensitive ones and of those whose key
 * `secretKeys` holds, and those values by {@link valueKey}.
 */
export function setValuesApart<V extends VarLike>(
    vars: readonly V[],
    secretKeys: ReadonlySet<string>,
): { vars: Array<Omit<V, "value"> | V>; sensitiveValues: Record<string, string> } {
    const sensitiveValues: Record<string, string> = {};
    const apart = vars.map((item) => {
        const key = valueKey(item);
        if (item.sensitive !== true && !secretKeys.has(key)) return item;
        sensitiveValues[key] = item.value ?? "";
        const { value: _value, ...rest } = item;
        return rest;
    });
    return { vars: apart, sensitiveValues };
}

/**
 * The whole vars again: each var without a value takes its value from `sensitiveValues` (state written before
 * the values were kept apart has them inline, which stays as it is). `unknown` stands for a value not known
 * during a preview.
 */
export function joinValues<V extends VarLike>(vars: readonly V[], sensitiveValues: unknown, unknown: string): V[] {
    if (sensitiveValues === unknown) return vars.map((item) => ("value" in item ? item : { ...item, value: unknown }));
    const values = (sensitiveValues ?? {}) as Record<string, string | undefined>;
    return vars.map((item) => {
        const value = values[valueKey(item)];
        return value === undefined ? item : { ...item, value };
    });
}
