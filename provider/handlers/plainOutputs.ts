/**
 * Outputs in the one shape the provider host accepts.
 *
 * @module
 */

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
