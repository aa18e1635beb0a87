/**
 * The engine's steps for one resource of the plugin, as `pulumi up` takes them: `Check` then `Create`; for a
 * change, `Check` against the old inputs, `Diff` against the old outputs, then `Update`. Each answer is
 * what the engine would store (the plugin accepts secrets: nothing is re-marked on the way).
 */
import type { PropertyMap, ProviderHost } from "../support/providerHost";

/** A resource as the engine's state holds it. */
export interface Held {
    urn: string;
    id: string;
    inputs: PropertyMap;
    outputs: PropertyMap;
}

/** `Check` then `Create`: fails on a check failure, as the engine does before anything is written. */
export async function createResource(plugin: ProviderHost, urn: string, news: PropertyMap): Promise<Held> {
    const checked = await plugin.check(urn, {}, news);
    if (checked.failures.length > 0) throw new Error(`check failed: ${JSON.stringify(checked.failures)}`);
    const created = await plugin.create(urn, checked.inputs);
    return { urn, id: created.id, inputs: checked.inputs, outputs: created.outputs };
}

/** `Check`, `Diff` and, when something changed in place, `Update`; answers the diff too. */
export async function updateResource(plugin: ProviderHost, held: Held, news: PropertyMap) {
    const checked = await plugin.check(held.urn, held.inputs, news);
    if (checked.failures.length > 0) throw new Error(`check failed: ${JSON.stringify(checked.failures)}`);
    const diff = await plugin.diff(held.urn, held.id, held.outputs, checked.inputs, held.inputs);
    if (diff.changes !== "some" || diff.replaces.length > 0) return { diff, held };
    const updated = await plugin.update(held.urn, held.id, held.outputs, checked.inputs, held.inputs);
    return { diff, held: { ...held, inputs: checked.inputs, outputs: updated.outputs } };
}

/** Runs `call` expecting it to fail, and returns the error (the engine tests' own). */
export { failure } from "../engine/fixture";

/** Every path of `value` that holds a secret (`vars[2].value`), to say exactly what is secret. */
export function secretPaths(value: unknown, at = ""): string[] {
    const SIGNATURE_KEY = "4dabf18193072939515e22adb298388d";
    if (typeof value !== "object" || value === null) return [];
    if ((value as PropertyMap)[SIGNATURE_KEY] === "1b47061264138c4ac30d75fd1eb44270") return [at];
    if (Array.isArray(value)) return value.flatMap((item, index) => secretPaths(item, `${at}[${index}]`));
    return Object.entries(value).flatMap(([key, item]) => secretPaths(item, at ? `${at}.${key}` : key));
}
