/**
 * A `tags` map (tag key to value), as projects and tag bindings take it in a program, beside the SDK's list
 * of tags: the one to the other, and a form that compares equal whatever the order of the keys.
 *
 * @module
 */
import type { Tag } from "../../sdk/model";

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

/**
 * A tag map in a form that compares equal whatever the order of its keys (for {@link differs}). `tags` is the
 * whole set for a project and the managed keys for tag bindings; in both, order carries no meaning.
 */
export function tagMapSignature(tags: unknown): unknown {
    if (typeof tags !== "object" || tags === null) return tags ?? null;
    const map = tags as Record<string, unknown>;
    // The default sort orders by UTF-16 code units, as `<` does; keys of a map never repeat.
    return Object.keys(map)
        .sort()
        .map((key) => [key, map[key]]);
}
