/**
 * A refresh's inputs in the shape the program wrote them. A handler's `read` answers "what the program would
 * say to keep things as they are" with every default spelled out (`hcl: false`, `description: ""`), while the
 * program usually leaves defaults out. The engine stores what `Read` answers as the new inputs, so without
 * this `pulumi refresh --diff` shows `+ hcl: false` on every var of a no-code workspace after any change made
 * outside the program, and the next `preview --diff` shows the same lines taken back: changes that are none,
 * around the one a reviewer must see.
 *
 * The rule is the handler's own: a property, or a field of a list item, that the old inputs left out is left
 * out again when the handler's detailed diff (`changedProperties`) sees no change without it, that is, when
 * the service holds what leaving it out means. A value the program left out but someone set outside
 * (a description written by hand) is kept, so the refresh shows it and the next `up` takes it back.
 *
 * @module
 */
import { isObject, isSecret, type PropertyBag, reveal } from "./propertyValues";
import type { ListInput } from "./resourceBinding";

/** Whether the inputs `candidate` say the same as the inputs read, as to `property`. */
export type SameAsRead = (candidate: PropertyBag, property: string) => boolean;

/**
 * `read` (the inputs a read answered, as the schema declares them, secrets marked) with what `old` (the
 * inputs before the refresh) left out left out again, wherever `sameAsRead` allows it. Items of a list
 * named in `lists` are matched to the old ones by those fields (a no-code workspace's var by its
 * category and key); other lists, and anything secret as a whole, are left as read.
 */
export function inProgramShape(read: PropertyBag, old: PropertyBag, lists: Readonly<Record<string, ListInput>>, sameAsRead: SameAsRead): PropertyBag {
    let shaped = { ...read };
    for (const property of Object.keys(read)) {
        if (!(property in old)) {
            const { [property]: _left, ...without } = shaped;
            if (sameAsRead(without, property)) shaped = without;
            continue;
        }
        const identity = lists[property]?.identity;
        if (identity === undefined) continue;
        const items = shaped[property];
        const oldItems = old[property];
        if (!Array.isArray(items) || !Array.isArray(oldItems)) continue;
        for (const [index, item] of items.entries()) {
            const oldItem = oldItems.find((candidate) => sameIdentity(candidate, item, identity));
            if (!isObject(oldItem)) continue;
            for (const field of Object.keys(item as PropertyBag)) {
                if (field in oldItem) continue;
                const current = shaped[property] as unknown[];
                const { [field]: _left, ...itemWithout } = current[index] as PropertyBag;
                const candidate = { ...shaped, [property]: current.map((item, at) => (at === index ? itemWithout : item)) };
                if (sameAsRead(candidate, property)) shaped = candidate;
            }
        }
    }
    return shaped;
}

/** Whether two list items are plain objects with equal values in every field of `identity`. */
function sameIdentity(a: unknown, b: unknown, identity: readonly string[]): boolean {
    if (!isObject(a) || !isObject(b) || isSecret(a) || isSecret(b)) return false;
    return identity.every((field) => a[field] !== undefined && reveal(a[field]) === reveal(b[field]));
}
