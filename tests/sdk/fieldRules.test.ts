/**
 * The field rules of `sdk/model/rules.ts`, called directly: each rule at the literal limits of the service's
 * API and of the local service's decisions (never computed from `LIMITS`, the constant under test), and the
 * exact words of each refusal. The service words zod's own type errors itself ("must be a string"), so the words a rule gives
 * for a value of the wrong type only show here and in a provider's `check`, which reports them as they are.
 */
import { z } from "zod";
import {
    autoDestroyActivityDurationRule,
    booleanRule,
    checkAgentPool,
    executionModeRule,
    idRule,
    jsonPointer,
    organizationNameRule,
    problemsFromZod,
    projectDescriptionRule,
    projectNameRule,
    tagKeyRule,
    tagSetProblems,
    tagValueRule,
    variableCategoryRule,
    variableDescriptionRule,
    variableKeyRule,
    variableValueRule,
    workspaceDescriptionRule,
    workspaceNameRule,
    workspaceSourceNameRule,
    workspaceSourceUrlRule,
} from "../../sdk/model/rules";

/** The messages of a parse that must fail. */
function refusal(schema: z.ZodType, value: unknown): string[] {
    const result = schema.safeParse(value);
    expect(result.success).toBe(false);
    return result.error!.issues.map((issue) => issue.message);
}

/** Asserts the value passes the rule unchanged. */
function accepted(schema: z.ZodType, value: unknown): void {
    const result = schema.safeParse(value);
    expect(result.error?.issues).toBeUndefined();
    expect(result.data).toEqual(value);
}

describe("the words for a value of the wrong type", () => {
    test.each<[string, () => z.ZodType, string]>([
        ["projectNameRule", projectNameRule, "must be a string"],
        ["projectDescriptionRule", projectDescriptionRule, "must be a string"],
        ["autoDestroyActivityDurationRule", autoDestroyActivityDurationRule, "must be a string such as '14d' or '12h'"],
        ["tagKeyRule", tagKeyRule, "must be a string"],
        ["tagValueRule", tagValueRule, "must be a string"],
        ["variableKeyRule", variableKeyRule, "must be a string"],
        ["variableValueRule", variableValueRule, "must be a string"],
        ["variableDescriptionRule", variableDescriptionRule, "must be a string"],
        ["variableCategoryRule", variableCategoryRule, "must be 'infra' or 'env'"],
        ["workspaceNameRule", workspaceNameRule, "must be a string"],
        ["workspaceDescriptionRule", workspaceDescriptionRule, "must be a string"],
        ["workspaceSourceNameRule", workspaceSourceNameRule, "must be a string"],
        ["workspaceSourceUrlRule", workspaceSourceUrlRule, "must be a URL"],
        ["executionModeRule", executionModeRule, "must be 'remote' or 'agent'"],
        ["booleanRule", booleanRule, "must be true or false"],
        ["idRule", () => idRule("prj-"), "must be a string"],
    ])("%s refuses 7, null and an object: %j", (_name, rule, words) => {
        for (const value of [7, null, { value: "x" }]) expect(refusal(rule(), value)).toEqual([words]);
    });
});

describe("projectNameRule: 3 to 40 characters; letters, numbers, spaces, '-', '_'; no space at either end", () => {
    test.each(["abc", "a".repeat(40), "My app_1-x", "A B"])("accepts %j", (name) => accepted(projectNameRule(), name));

    test.each<[string, string[]]>([
        ["ab", ["must be at least 3 characters"]],
        ["a".repeat(41), ["must be at most 40 characters"]],
        ["my.app", ["may contain only letters, numbers, spaces, '-' and '_'"]],
        ["my app ", ["must not start or end with a space"]],
        [" my app", ["must not start or end with a space"]],
        ["", ["must be at least 3 characters", "may contain only letters, numbers, spaces, '-' and '_'"]],
    ])("refuses %j: %j", (name, words) => {
        expect(refusal(projectNameRule(), name)).toEqual(words);
    });
});

describe.each<[string, () => z.ZodType, number]>([
    ["projectDescriptionRule", projectDescriptionRule, 256],
    ["variableDescriptionRule", variableDescriptionRule, 512],
    ["workspaceDescriptionRule", workspaceDescriptionRule, 256],
    ["workspaceSourceNameRule", workspaceSourceNameRule, 256],
])("%s: at most %d characters of anything", (_name, rule, max) => {
    test("accepts the empty string, any characters and exactly the limit", () => {
        accepted(rule(), "");
        accepted(rule(), "ünïcode, spaces & symbols: {}\n");
        accepted(rule(), "d".repeat(max));
    });

    test("refuses one more, naming the limit", () => {
        expect(refusal(rule(), "d".repeat(max + 1))).toEqual([`must be at most ${max} characters`]);
    });
});

describe("variableValueRule: at most 256 Ki characters", () => {
    test("accepts exactly 262,144 characters and refuses 262,145", () => {
        accepted(variableValueRule(), "v".repeat(262144));
        expect(refusal(variableValueRule(), "v".repeat(262145))).toEqual(["must be at most 262144 characters"]);
    });
});

describe("variableKeyRule: 1 to 128 characters", () => {
    test("accepts one character and exactly 128", () => {
        accepted(variableKeyRule(), "K");
        accepted(variableKeyRule(), "K".repeat(128));
    });

    test("refuses the empty string and 129 characters, in its words", () => {
        expect(refusal(variableKeyRule(), "")).toEqual(["is required and must not be empty"]);
        expect(refusal(variableKeyRule(), "K".repeat(129))).toEqual(["must be at most 128 characters"]);
    });
});

describe("autoDestroyActivityDurationRule: 1 to 4 digits over 0, then 'd' or 'h'", () => {
    test.each(["1d", "14d", "12h", "9999h", "0001d", "10d"])("accepts %j", (value) => accepted(autoDestroyActivityDurationRule(), value));

    test.each(["0d", "0000h", "10000d", "14", "d", "14m", "14D", " 14d", "14d ", "1.5d", "-1d", ""])("refuses %j", (value) => {
        expect(refusal(autoDestroyActivityDurationRule(), value)).toEqual([
            "must be an integer greater than 0 of up to four digits followed by 'd' or 'h', such as '14d'",
        ]);
    });
});

describe("tagKeyRule and tagValueRule: letters, digits and _ . = + - @ :", () => {
    const EVERY_CHARACTER = "aZ09_.=+-@:";

    test("a key: one character to 128, of every allowed character", () => {
        accepted(tagKeyRule(), "k");
        accepted(tagKeyRule(), EVERY_CHARACTER);
        accepted(tagKeyRule(), "k".repeat(128));
    });

    test("a key refused: empty, 129 characters, another character", () => {
        expect(refusal(tagKeyRule(), "")).toEqual(["must not be empty"]);
        expect(refusal(tagKeyRule(), "k".repeat(129))).toEqual(["must be at most 128 characters"]);
        for (const key of ["a b", "a/b", "a,b", "ä", "a*"]) {
            expect(refusal(tagKeyRule(), key)).toEqual(["may contain only letters, numbers and the characters _ . = + - @ :"]);
        }
    });

    test.each(["hc:owner", "HC:owner", "hcp:x", "Hcp:", "hC:"])("a key with a reserved prefix in any case is refused: %j", (key) => {
        expect(refusal(tagKeyRule(), key)).toEqual(["must not start with a reserved prefix (hc:, hcp:)"]);
    });

    test.each(["hc", "hcp", "xhc:y", "h:c", "hcpx:y"])("a key that only resembles a reserved prefix is accepted: %j", (key) => {
        accepted(tagKeyRule(), key);
    });

    test("a value: empty (a key-only tag) to 256, of every allowed character", () => {
        accepted(tagValueRule(), "");
        accepted(tagValueRule(), EVERY_CHARACTER);
        accepted(tagValueRule(), "v".repeat(256));
        // The reserved prefixes are a key's rule only.
        accepted(tagValueRule(), "hc:value");
    });

    test("a value refused: 257 characters, another character", () => {
        expect(refusal(tagValueRule(), "v".repeat(257))).toEqual(["must be at most 256 characters"]);
        expect(refusal(tagValueRule(), "a b")).toEqual(["may contain only letters, numbers and the characters _ . = + - @ :"]);
    });
});

describe("workspaceNameRule: 1 to 90 letters, numbers, '-' and '_'", () => {
    test.each(["w", "w".repeat(90), "my-app_2"])("accepts %j", (name) => accepted(workspaceNameRule(), name));

    test.each<[string, string[]]>([
        ["", ["must not be empty", "may contain only letters, numbers, '-' and '_'"]],
        ["w".repeat(91), ["must be at most 90 characters"]],
        ["my app", ["may contain only letters, numbers, '-' and '_'"]],
        ["my.app", ["may contain only letters, numbers, '-' and '_'"]],
    ])("refuses %j: %j", (name, words) => {
        expect(refusal(workspaceNameRule(), name)).toEqual(words);
    });
});

describe("workspaceSourceUrlRule: a URL of at most 2048 characters", () => {
    const urlOfLength = (length: number) => {
        const prefix = "https://example.com/";
        return prefix + "p".repeat(length - prefix.length);
    };

    test("accepts a URL of exactly 2048 characters", () => {
        expect(urlOfLength(2048)).toHaveLength(2048);
        accepted(workspaceSourceUrlRule(), urlOfLength(2048));
    });

    test("refuses 2049 characters and what is not a URL", () => {
        expect(refusal(workspaceSourceUrlRule(), urlOfLength(2049))).toEqual(["must be at most 2048 characters"]);
        expect(refusal(workspaceSourceUrlRule(), "not a url")).toEqual(["must be a URL"]);
    });
});

describe("the enumerations", () => {
    test("variableCategoryRule: infra and env, nothing else", () => {
        accepted(variableCategoryRule(), "infra");
        accepted(variableCategoryRule(), "env");
        expect(refusal(variableCategoryRule(), "terraform")).toEqual(["must be 'infra' or 'env'"]);
        expect(refusal(variableCategoryRule(), "ENV")).toEqual(["must be 'infra' or 'env'"]);
    });

    test("executionModeRule: remote and agent, nothing else", () => {
        accepted(executionModeRule(), "remote");
        accepted(executionModeRule(), "agent");
        expect(refusal(executionModeRule(), "local")).toEqual(["must be 'remote' or 'agent'"]);
    });

    test("booleanRule: true and false, not their text", () => {
        accepted(booleanRule(), true);
        accepted(booleanRule(), false);
        expect(refusal(booleanRule(), "true")).toEqual(["must be true or false"]);
    });
});

describe("idRule", () => {
    test("accepts the prefix followed by at least one character", () => {
        accepted(idRule("prj-"), "prj-1");
        accepted(idRule("ws-"), "ws-abcDEF123");
    });

    test.each(["prj-", "prj", "ws-1", "PRJ-1", "xprj-1", ""])("refuses %j for 'prj-'", (id) => {
        expect(refusal(idRule("prj-"), id)).toEqual(["must be an id starting with 'prj-'"]);
    });
});

describe("checkAgentPool: a pool exactly when the mode is agent (remote by default)", () => {
    const OPTIONS = z.object({ executionMode: z.string().optional(), agentPoolId: z.string().optional() }).superRefine(checkAgentPool);

    test.each([{}, { executionMode: "remote" }, { executionMode: "agent", agentPoolId: "apool-1" }])("accepts %j", (options) => {
        expect(OPTIONS.safeParse(options).success).toBe(true);
    });

    test.each<[Record<string, string>, string]>([
        [{ executionMode: "agent" }, "is required when executionMode is 'agent'"],
        [{ agentPoolId: "apool-1" }, "must not be given when executionMode is 'remote'"],
        [{ executionMode: "remote", agentPoolId: "apool-1" }, "must not be given when executionMode is 'remote'"],
    ])("refuses %j at agentPoolId: %s", (options, words) => {
        const result = OPTIONS.safeParse(options);
        expect(result.success).toBe(false);
        expect(result.error!.issues.map(({ path, message }) => ({ path, message }))).toEqual([{ path: ["agentPoolId"], message: words }]);
    });

    test("another mode is left to the mode's own rule: no agent pool issue", () => {
        expect(OPTIONS.safeParse({ executionMode: "local", agentPoolId: "apool-1" }).success).toBe(true);
        expect(OPTIONS.safeParse({ executionMode: "local" }).success).toBe(true);
    });
});

describe("tagSetProblems: at most 10 tags, each key once", () => {
    const tags = (count: number) => Array.from({ length: count }, (_, index) => ({ key: `k${index}`, value: "" }));

    test("ten distinct keys: no problem", () => {
        expect(tagSetProblems(tags(10))).toEqual([]);
        expect(tagSetProblems([])).toEqual([]);
    });

    test("eleven: one problem for the set, naming the limit and the count", () => {
        expect(tagSetProblems(tags(11))).toEqual([{ message: "a project may have at most 10 tags; 11 were given" }]);
    });

    test("a key twice: a problem at the second one's index; keys are compared as written", () => {
        expect(tagSetProblems([{ key: "a", value: "1" }, { key: "A", value: "2" }, { key: "a", value: "3" }])).toEqual([
            { index: 2, message: "tag key 'a' appears more than once" },
        ]);
    });
});

describe("organizationNameRule: any name that is not blank", () => {
    test.each(["acme", "a", " acme ", "Acme Corp."])("accepts %j", (name) => accepted(organizationNameRule(), name));

    test.each(["", " ", "\t "])("refuses %j as empty", (name) => {
        expect(refusal(organizationNameRule(), name)).toEqual(["must not be empty"]);
    });

    test("refuses 7, null and an object in its words", () => {
        for (const value of [7, null, { value: "x" }]) expect(refusal(organizationNameRule(), value)).toEqual(["must be a string"]);
    });
});

describe("problemsFromZod and jsonPointer", () => {
    test("one problem per issue, with zod's path and message", () => {
        const schema = z.object({ data: z.object({ attributes: z.object({ name: projectNameRule(), key: tagKeyRule() }) }) });
        const result = schema.safeParse({ data: { attributes: { name: "ab", key: "" } } });
        expect(result.success).toBe(false);
        expect(problemsFromZod(result.error!)).toEqual([
            { path: ["data", "attributes", "name"], detail: "must be at least 3 characters" },
            { path: ["data", "attributes", "key"], detail: "must not be empty" },
        ]);
    });

    test("a symbol in a path becomes its text (a pointer segment must be one)", () => {
        const schema = z.unknown().superRefine((_value, context) => context.addIssue({ code: "custom", message: "bad", path: [Symbol.for("key"), 1] }));
        expect(problemsFromZod(schema.safeParse("x").error!)).toEqual([{ path: ["Symbol(key)", 1], detail: "bad" }]);
    });

    test("jsonPointer escapes '~' and '/' as RFC 6901 says, numbers as their text", () => {
        expect(jsonPointer(["data", "attributes", "name"])).toBe("/data/attributes/name");
        expect(jsonPointer(["data", 0, "a/b", "c~d", "~/"])).toBe("/data/0/a~1b/c~0d/~0~1");
        expect(jsonPointer([])).toBe("");
    });
});
