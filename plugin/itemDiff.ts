/**
 * A list input's detailed diff item by item (`vars[0]`), for a display a reviewer can read. Given the whole
 * list as one changed property, the CLI prints the old list against the new one in full: every var of a
 * no-code workspace, and under `pulumi refresh` (which prints the old inputs against the new *outputs*,
 * Pulumi's `TranslateDetailedDiff`) `+ hcl: false` and `+ sensitive: false` on each, the defaults the
 * outputs spell out. A path per item names the var that was added, removed or changed, and the CLI prints
 * only those, a changed one with its key and category beside what changed in it.
 *
 * A path is taken at one index on both sides, so an item whose place in the list differs between the two
 * (the list reordered as well as changed) cannot be named by one: the whole list is then said to change,
 * as before.
 *
 * @module
 */
import { isObject, isUnknown } from "./propertyValues";
import type { ListInput } from "./resourceBinding";

/** What happened to an item: added, deleted or updated. */
export type ItemChange = "add" | "delete" | "update";

/**
 * The changes from `olds` to `news` (both plain: secrets revealed), by path from `property`; `undefined` when
 * they cannot be said by paths (not both lists of known items, an identity twice, an item moved) or none
 * was found (the handler's judgement then stands for the whole list).
 */
export function itemChanges(property: string, olds: unknown, news: unknown, list: ListInput): Map<string, ItemChange> | undefined {
    if (!Array.isArray(olds) || !Array.isArray(news)) return undefined;
    if (![...olds, ...news].every((item) => isObject(item) && list.identity.every((field) => isKnown(item[field])))) return undefined;
    const oldItems = olds as Record<string, unknown>[];
    const newItems = news as Record<string, unknown>[];
    const identityOf = (item: Record<string, unknown>) => JSON.stringify(list.identity.map((field) => item[field]));
    const oldIndex = new Map(oldItems.map((item, index) => [identityOf(item), index]));
    const newIndex = new Map(newItems.map((item, index) => [identityOf(item), index]));
    if (oldIndex.size !== oldItems.length || newIndex.size !== newItems.length) return undefined;

    const changes = new Map<string, ItemChange>();
    let sayable = true;
    const record = (path: string, change: ItemChange) => {
        if (changes.has(path)) sayable = false;
        changes.set(path, change);
    };
    newItems.forEach((item, index) => {
        const at = oldIndex.get(identityOf(item));
        if (at === undefined) return record(`${property}[${index}]`, "add");
        if (at !== index) {
            sayable = false;
            return;
        }
        const comparable = list.comparable ?? ((same: Record<string, unknown>) => same);
        if (JSON.stringify(comparable(oldItems[at]!)) !== JSON.stringify(comparable(item))) record(`${property}[${index}]`, "update");
    });
    oldItems.forEach((item, index) => {
        if (!newIndex.has(identityOf(item))) record(`${property}[${index}]`, "delete");
    });
    return sayable && changes.size > 0 ? changes : undefined;
}

function isKnown(value: unknown): boolean {
    return value !== undefined && value !== null && !isUnknown(value);
}
