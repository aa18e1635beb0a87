/**
 * The `tagged` option of the project and workspace lists: the hosted service's `filter[tagged][i][key]` and
 * `filter[tagged][i][value]` (go-tfe's `TagBindings` list option), written as one record of tag key to
 * value, as a project's `tags` are. Every tag must match (AND); an empty value matches the key with any value.
 *
 * @module
 */
import { z } from "zod";
import { tagKeyRule, tagValueRule } from "./model";
import type { Query } from "./transport";

/**
 * The rule of the `tagged` option: each key and value by the tag rules (a key no tag can have would match
 * nothing: it is refused instead, naming the rule), a value `""` for any value.
 */
export function taggedOptionRule() {
    return z.record(tagKeyRule(), tagValueRule(), {
        // zod's own message for a bad key is "Invalid key in record": say which key and which rule it breaks.
        error: (issue) =>
            issue.code === "invalid_key" ? `tag key ${JSON.stringify(issue.input)}: ${issue.issues[0]?.message ?? "is not a tag key"}` : undefined,
    });
}

/**
 * The query parameters of `tagged`: `filter[tagged][i][key]` for each tag, in the record's order, and
 * `filter[tagged][i][value]` unless the value is empty (the key alone then filters).
 */
export function taggedQuery(tagged: Readonly<Record<string, string>> | undefined): Query {
    const query: Query = {};
    Object.entries(tagged ?? {}).forEach(([key, value], index) => {
        query[`filter[tagged][${index}][key]`] = key;
        if (value !== "") query[`filter[tagged][${index}][value]`] = value;
    });
    return query;
}
