/**
 * The handlers' `check`: inputs against the rules of `sdk/model`, before any request. Each handler declares its
 * inputs as one zod object of those rules (with {@link withRequiredReason}, {@link tagMap} and
 * {@link objectList} for what a rule alone does not say), and {@link inputFailures} judges a property bag by
 * it in one parse. Each failure names the property (and the path inside it) and the rule it breaks; unknown
 * values pass until they are known.
 *
 * @module
 */
import { z } from "zod";
import type { Tag } from "../../sdk/model";
import { containsUnknown, isUnknown, type PropertyBag, UNKNOWN } from "./unknownValues";
import { isRecord } from "./varValuesApart";

/** One failure of `check`, as {@link https://www.pulumi.com/docs/ | Pulumi} wants it: the property and why. */
export interface CheckFailure {
    property: string;
    reason: string;
}

/** How a property path reads in a reason: `vars[2].key`, `variableOptions[0].options[1]`. */
function propertyPath(property: string, path: readonly PropertyKey[]): string {
    return path.reduce<string>(
        (text, segment) => (typeof segment === "number" ? `${text}[${segment}]` : `${text}.${String(segment)}`),
        property,
    );
}

/**
 * How an issue's message joins its path in the reason (in `params.form`). Without one the message is said
 * of the path (`name must be at least 3 characters`); a `statement` is a sentence about the value at the path
 * (`tags: tag key 'hc:x' ...`, `vars[2]: var 'A' (env) appears more than once`); a `whole` message is the
 * reason itself, path and all.
 */
type MessageForm = "statement" | "whole";

function addIssue(context: z.RefinementCtx, message: string, form?: MessageForm, path: PropertyKey[] = []): void {
    context.addIssue({ code: "custom", message, path, ...(form ? { params: { form } } : {}) });
}

/**
 * `rule` for an input whose absence (or null) reads as `reason` rather than as `<property> is required`, e.g.
 * `projectId is required (the id of a project, 'prj-...')`: the reason a person needs to fill it in.
 */
export function withRequiredReason<Rule extends z.ZodType>(rule: Rule, reason: string) {
    return z.preprocess((value, context) => {
        if (value === undefined) addIssue(context, reason, "whole");
        return value;
    }, rule);
}

/** The rules of a {@link tagMap}. */
export interface TagMapRules {
    /** The rule of one tag key. */
    key: z.ZodType;
    /** The rule of one tag value. */
    value: z.ZodType;
    /** The rules of the whole set (as `tagSetProblems` of `sdk/model`): one message per problem. */
    set: (tags: readonly Tag[]) => { message: string }[];
}

/**
 * A `tags` input: a map of tag keys to string values, each key and value by its rule and the whole set by the
 * set rules (at most ten, no key twice). A value not known yet is not judged, but its key is, and counts in
 * the set.
 */
export function tagMap(rules: TagMapRules) {
    // Every value is judged by the refinement, whose messages name the tag; the record itself asks only for a map.
    return z.record(z.string(), z.custom<string>(), { error: "must be a map of tag keys to string values" }).superRefine((map, context) => {
        const tags: Tag[] = [];
        for (const [key, value] of Object.entries(map)) {
            for (const message of messagesOf(rules.key, key)) addIssue(context, `tag key '${key}' ${message}`, "statement");
            if (!isUnknown(value)) {
                for (const message of messagesOf(rules.value, value)) addIssue(context, `the value of tag '${key}' ${message}`, "statement");
            }
            tags.push({ key, value: typeof value === "string" ? value : "" });
        }
        for (const problem of rules.set(tags)) addIssue(context, problem.message, "statement");
    });
}

function messagesOf(rule: z.ZodType, value: unknown): string[] {
    return rule.safeParse(value).error?.issues.map((issue) => issue.message) ?? [];
}

/** What an {@link objectList} is made of. */
export interface ObjectListSpec<Fields extends z.ZodRawShape> {
    /** What one item is, for the messages: `vars ({ key, value?, category, ... })`. */
    item: string;
    /** The rule of each field an item may have; a field it may leave out is `.optional()`. */
    fields: Fields;
    /** The fields `listProblems` reads: items where one is not a known string are left out of it. */
    identity?: (keyof Fields & string)[];
    /** The rules of the whole list (e.g. a key at most once per category), each problem at its index among the items handed. */
    listProblems?: (items: z.output<z.ZodObject<Fields>>[]) => { index: number; message: string }[];
}

/**
 * A list of objects input, such as the `vars` of a no-code workspace: each item an object with only the fields
 * named, each field by its rule (null is absent), then the rules of the whole list over the items whose
 * identity fields are known. An unknown item, and a field with an unknown part (an option of a list), pass
 * until they are known.
 */
export function objectList<Fields extends z.ZodRawShape>(spec: ObjectListSpec<Fields>) {
    const allowed = Object.keys(spec.fields);
    const item = z.preprocess(
        (value: unknown, context) => fieldsToJudge(value, allowed, context),
        z.object(spec.fields, { error: `must be ${spec.item}` }),
    );
    return z.array(item, { error: `must be a list of ${spec.item}` }).superRefine(
        (items, context) => {
            if (!spec.listProblems) return;
            // Where an item failed, the list holds what was given there: not necessarily an object.
            const known = (items as unknown[]).flatMap((fields, index) => {
                if (!isRecord(fields)) return [];
                const identityKnown = (spec.identity ?? []).every((name) => typeof fields[name] === "string" && !isUnknown(fields[name]));
                return identityKnown ? [{ index, fields: fields as z.output<z.ZodObject<Fields>> }] : [];
            });
            for (const problem of spec.listProblems(known.map(({ fields }) => fields))) {
                addIssue(context, problem.message, "statement", [known[problem.index]?.index ?? problem.index]);
            }
        },
        // zod skips a refinement once an item breaks its rules; the list rules hold whatever the items' own failures.
        { when: (payload) => Array.isArray(payload.value) },
    );
}

/**
 * An item's fields as their rules judge them: a null field is absent, and a field with an unknown part is
 * unknown as a whole (its rule judges it once it is known). A field not `allowed` is named as zod's own
 * `unrecognized_keys`, the one issue that lets the item's fields be judged after it, and left out. Anything
 * but an object is left for the item's rule to name.
 */
function fieldsToJudge(item: unknown, allowed: readonly string[], context: z.RefinementCtx): unknown {
    if (!isRecord(item)) return item;
    const fields: Record<string, unknown> = {};
    for (const [name, value] of Object.entries(item)) {
        if (!allowed.includes(name)) {
            // Stryker disable next-line ArrayDeclaration: the reason is the message, which names the field; nothing reads `keys`
            context.addIssue({ code: "unrecognized_keys", keys: [name], message: `has an unknown field '${name}' (allowed: ${allowed.join(", ")})` });
        } else if (value !== null) {
            fields[name] = containsUnknown(value) ? UNKNOWN : value;
        }
    }
    return fields;
}

/**
 * The failures of `inputs` against the inputs object of a handler, in one parse. A null property is absent;
 * an issue about a value not known yet is no failure (the value is judged again once known, at `up`); each
 * other issue becomes one failure of the top-level property its path starts with, whose reason starts with
 * the path, e.g. `name must be at least 3 characters`, `vars[1].category must be 'infra' or 'env'`. Properties
 * the object does not name pass untouched.
 */
export function inputFailures(object: z.ZodObject, inputs: PropertyBag): CheckFailure[] {
    const present = Object.fromEntries(Object.entries(inputs).filter(([, value]) => value !== null));
    const result = object.safeParse(present, { reportInput: true });
    if (result.success) return [];
    // In the order the object lists its properties: a rule of several (the agent pool's) reads beside the one it names.
    const order = Object.keys(object.shape);
    return result.error.issues
        .filter((issue) => !isUnknown(issue.input))
        .map(failureOf)
        .sort((one, other) => order.indexOf(one.property) - order.indexOf(other.property));
}

function failureOf(issue: z.core.$ZodIssue): CheckFailure {
    const [first, ...inside] = issue.path;
    const property = String(first);
    return { property, reason: reasonOf(issue, propertyPath(property, inside)) };
}

/** The reason of an issue of the value at `at` (see {@link MessageForm}). */
function reasonOf(issue: z.core.$ZodIssue, at: string): string {
    const form = (issue as { params?: { form?: MessageForm } }).params?.form;
    if (form === "whole") return issue.message;
    if (form === "statement") return `${at}: ${issue.message}`;
    // What a rule says of a value that is not there (that it has the wrong type, or is not one of its values)
    // means it is required.
    if (issue.input === undefined) return `${at} is required`;
    return `${at} ${issue.message}`;
}
