/**
 * The description of the tag filters both lists take (the server's `tagFilters.ts`), and the forms of the
 * hosted service's published description that only the workspace list takes.
 */
import { z } from "zod";
import type { QueryParameter } from "./operation";

/** `true` or `false` (any case; blank is `false`). */
export function booleanParameter(description: string): QueryParameter {
    return { schema: z.enum(["true", "false"]), description };
}

/**
 * `filter[tagged][i][key]` / `[value]`, written for `i` = 0 (any number groups a key with its value; several
 * filters combine with AND), and for the workspace list the flat forms.
 */
export function taggedFilterParameters(list: "projects" | "workspaces"): Record<string, QueryParameter> {
    const indexed: Record<string, QueryParameter> = {
        "filter[tagged][0][key]": {
            schema: z.string().min(1),
            description: `Only ${list} bound to this tag key (exactly, case included). Any number may stand for 0: each groups a key with its value, and several filters combine with AND`,
        },
        "filter[tagged][0][value]": {
            schema: z.string(),
            description: "With the key of the same number: only that value; empty means any value. Never without its key",
        },
    };
    if (list === "projects") return indexed;
    return {
        ...indexed,
        "filter[tagged]": { schema: z.string(), description: "Comma-separated tag keys: only workspaces bound to each (or any, with `filter[tag-union]`)" },
        "filter[tagged][value]": { schema: z.string(), description: "With one key in `filter[tagged]`: only that value" },
        "filter[tag-union]": booleanParameter("`true`: a workspace matching any one tag filter is kept, not only one matching all"),
        "filter[tag-value-default-null]": booleanParameter("`true`: a tag filter without a value keeps only bindings that have none"),
    };
}
