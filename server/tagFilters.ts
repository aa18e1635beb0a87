/**
 * The tag filters of the lists of projects and of workspaces (`filter[tagged][i][key]` / `[value]`), as
 * both routes read them from a query: shared, so that the two lists accept and refuse the same parameters.
 * The statement that applies them is `TAGGED_PROJECTS` (records/projects.ts).
 */
import { abbreviated as abbreviatedText, badParameter } from "./errors";
import { singleParameter, type Query } from "./pagination";

/** One `filter[tagged][i]` of a list: a tag key, and the value it must have (`""`: any value). */
export interface TagFilter {
    key: string;
    value: string;
}

/** A parameter of the `filter[tagged]` family: every one must be `filter[tagged][<number>][key|value]`. */
const TAGGED_PARAMETER = /^filter\[tagged\]/;
const TAGGED_FORM = /^filter\[tagged\]\[([^\]]*)\]\[([^\]]*)\]$/;

/**
 * The hosted service's tag filters of a list (projects and workspaces): `filter[tagged][i][key]` and, optionally,
 * `filter[tagged][i][value]`, `i` a number that groups the two (indexes need not follow each other). Each
 * filter keeps what holds a binding with that key and, when the value is given and not empty, that value;
 * several filters combine with AND. Keys and values compare exactly (case included), as bindings are stored:
 * `Env` and `env` are two keys. An empty value filters by key alone, which is what go-tfe and pytfe send for
 * a key without a value (both always send the `[value]` parameter). 400 naming the parameter, before any
 * work, for anything else of the family: another form, an index that is not a number, an empty key, a
 * value without its key, a parameter given twice.
 */
export function taggedFilters(query: Query): TagFilter[] {
    const groups = new Map<string, { key?: string; value?: string; valueName?: string }>();
    for (const name of Object.keys(query)) {
        if (!TAGGED_PARAMETER.test(name)) continue;
        const shown = abbreviatedText(name);
        const form = TAGGED_FORM.exec(name);
        if (!form || (form[2] !== "key" && form[2] !== "value")) {
            throw badParameter(shown, `${shown} is not a tag filter: write filter[tagged][i][key] and, optionally, filter[tagged][i][value], with i a number`);
        }
        const index = form[1]!;
        if (!/^\d{1,9}$/.test(index)) {
            throw badParameter(shown, `The index of ${shown} must be a number (0, 1, 2...), got '${abbreviatedText(index)}'`);
        }
        // A name from Object.keys has a value: the query parser gives "" for a bare `?name`.
        const value = singleParameter(query, name)!;
        const group = groups.get(index) ?? {};
        if (form[2] === "key") {
            if (value === "") throw badParameter(shown, `${shown} must name a tag key; it is empty`);
            group.key = value;
        } else {
            group.value = value;
            group.valueName = shown;
        }
        groups.set(index, group);
    }
    const filters: TagFilter[] = [];
    for (const [index, group] of groups) {
        if (group.key === undefined) {
            throw badParameter(group.valueName!, `${group.valueName} is given without filter[tagged][${index}][key]: a tag filter needs its key`);
        }
        filters.push({ key: group.key, value: group.value ?? "" });
    }
    return filters;
}

/** The tag filters of a list as the JSON array of `[key, value]` pairs that `TAGGED_PROJECTS` (records/projects.ts) reads; undefined for none. */
export function taggedParameter(query: Query): string | undefined {
    const filters = taggedFilters(query);
    return filters.length === 0 ? undefined : JSON.stringify(filters.map((filter) => [filter.key, filter.value]));
}
