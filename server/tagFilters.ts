/**
 * The tag filters of the lists of projects and of workspaces (`filter[tagged][i][key]` / `[value]`), as
 * both routes read them from a query: shared, so that the two lists accept and refuse the same parameters.
 * The workspace list also takes the forms of the hosted service's published description (what go-tfe v2
 * sends): `filter[tagged]` (keys), `filter[tagged][value]`, `filter[tag-union]` and
 * `filter[tag-value-default-null]`. The statements that apply them are `TAGGED_PROJECTS` and
 * `ANY_TAGGED_PROJECTS` (records/projects.ts).
 */
import { abbreviated as abbreviatedText, badParameter } from "./errors";
import { singleParameter, type Query } from "./pagination";

/** One `filter[tagged][i]` of a list: a tag key, and the value it must have unless any value will do. */
export interface TagFilter {
    key: string;
    value: string;
    /** A binding with the key matches whatever its value (a filter by key alone). */
    anyValue: boolean;
}

/** How a list reads its tag filters: the workspace list's forms of the published description, or not. */
export interface TagFilterForms {
    /** `filter[tagged]` (comma-separated keys) and `filter[tagged][value]` (the value of its one key). */
    flat: boolean;
    /** `filter[tag-value-default-null]`: a filter without a value keeps only bindings that have none (`""`). */
    valueDefaultNull: boolean;
}

/** The flat forms of the published description, read when {@link TagFilterForms.flat}. */
const FLAT_KEYS = "filter[tagged]";
const FLAT_VALUE = "filter[tagged][value]";

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
export function taggedFilters(query: Query, forms: TagFilterForms = { flat: false, valueDefaultNull: false }): TagFilter[] {
    const groups = new Map<string, { key?: string; value?: string; valueName?: string }>();
    const filters: TagFilter[] = forms.flat ? flatFilters(query, forms) : [];
    for (const name of Object.keys(query)) {
        if (!TAGGED_PARAMETER.test(name) || (forms.flat && (name === FLAT_KEYS || name === FLAT_VALUE))) continue;
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
    for (const [index, group] of groups) {
        if (group.key === undefined) {
            throw badParameter(group.valueName!, `${group.valueName} is given without filter[tagged][${index}][key]: a tag filter needs its key`);
        }
        filters.push(filterOf(group.key, group.value ?? "", forms));
    }
    return filters;
}

/** A filter of `key` and `value`: an empty value is a filter by key alone, unless values default to none. */
function filterOf(key: string, value: string, forms: TagFilterForms): TagFilter {
    return { key, value, anyValue: value === "" && !forms.valueDefaultNull };
}

/**
 * The flat forms: `filter[tagged]` names keys (comma-separated, blanks dropped), each a filter;
 * `filter[tagged][value]` is the value of the one key it names. 400 for a value with no key or several.
 */
function flatFilters(query: Query, forms: TagFilterForms): TagFilter[] {
    const keys = (singleParameter(query, FLAT_KEYS) ?? "")
        .split(",")
        .map((key) => key.trim())
        .filter((key) => key !== "");
    const value = singleParameter(query, FLAT_VALUE);
    if (value !== undefined && keys.length !== 1) {
        throw badParameter(FLAT_VALUE, `${FLAT_VALUE} is the value of one tag key: give exactly one key in ${FLAT_KEYS}, got ${keys.length}`);
    }
    return keys.map((key) => filterOf(key, value ?? "", forms));
}

/**
 * A boolean parameter of a list (`filter[tag-union]`): `true` or `false`, any case; absent or blank is
 * `false`. 400 naming it for anything else.
 */
export function booleanParameter(query: Query, name: string): boolean {
    const text = singleParameter(query, name)?.trim().toLowerCase() ?? "";
    if (text === "" || text === "false") return false;
    if (text === "true") return true;
    throw badParameter(name, `${name} must be true or false, got '${abbreviatedText(singleParameter(query, name)!)}'`);
}

/**
 * The tag filters of a list as the JSON array of `[key, value, anyValue]` triples (`anyValue` 1 or 0) that
 * `TAGGED_PROJECTS` (records/projects.ts) reads; undefined for none.
 */
export function taggedParameter(query: Query, forms?: TagFilterForms): string | undefined {
    const filters = taggedFilters(query, forms);
    return filters.length === 0 ? undefined : JSON.stringify(filters.map((filter) => [filter.key, filter.value, filter.anyValue ? 1 : 0]));
}
