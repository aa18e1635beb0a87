/**
 * The handlers' `check`: inputs against the rules of `sdk/model`, before any request. Each failure names the
 * property (and the path inside it) and the rule it breaks; unknown values pass until they are known.
 *
 * @module
 */
import type { z } from "zod";
import type { Tag } from "../../sdk/model";
import { containsUnknown, isUnknown, type PropertyBag } from "./unknownValues";

/** One failure of `check`, as {@link https://www.pulumi.com/docs/ | Pulumi} wants it: the property and why. */
export interface CheckFailure {
    property: string;
    reason: string;
}

/**
 * Checks one property with a rule of `sdk/model`. An absent value fails only when `required`; an unknown
 * value passes (it is checked again once known, at `up`). Each zod issue becomes one failure whose reason
 * starts with the property name, e.g. `name must be at least 3 characters`.
 */
export function checkProperty(
    failures: CheckFailure[],
    inputs: PropertyBag,
    property: string,
    rule: z.ZodType,
    options: { required?: boolean; requiredReason?: string } = {},
): void {
    const value = inputs[property];
    if (isUnknown(value)) return;
    if (value === undefined || value === null) {
        if (options.required) {
            failures.push({ property, reason: options.requiredReason ?? `${property} is required` });
        }
        return;
    }
    const result = rule.safeParse(value);
    if (!result.success) {
        for (const issue of result.error.issues) failures.push({ property, reason: `${property} ${issue.message}` });
    }
}

/**
 * Checks a `tags` map: a map of strings, each key and value by the tag rules, and the set rules (at most
 * ten, no key twice). Unknown keys' values pass; a wholly unknown map passes.
 */
export function checkTagMap(
    failures: CheckFailure[],
    inputs: PropertyBag,
    property: string,
    rules: { key: () => z.ZodType; value: () => z.ZodType; set: (tags: readonly Tag[]) => { message: string }[] },
    options: { required?: boolean } = {},
): void {
    const value = inputs[property];
    if (isUnknown(value)) return;
    if (value === undefined || value === null) {
        if (options.required) failures.push({ property, reason: `${property} is required (a map of tag keys to values)` });
        return;
    }
    if (typeof value !== "object" || Array.isArray(value)) {
        failures.push({ property, reason: `${property} must be a map of tag keys to string values` });
        return;
    }
    const keyRule = rules.key();
    const valueRule = rules.value();
    const tags: Tag[] = [];
    for (const [key, tagValue] of Object.entries(value as Record<string, unknown>)) {
        const keyResult = keyRule.safeParse(key);
        if (!keyResult.success) {
            for (const issue of keyResult.error.issues) {
                failures.push({ property, reason: `${property}: tag key '${key}' ${issue.message}` });
            }
        }
        if (!isUnknown(tagValue)) {
            const valueResult = valueRule.safeParse(tagValue);
            if (!valueResult.success) {
                for (const issue of valueResult.error.issues) {
                    failures.push({ property, reason: `${property}: the value of tag '${key}' ${issue.message}` });
                }
            }
        }
        tags.push({ key, value: typeof tagValue === "string" ? tagValue : "" });
    }
    for (const problem of rules.set(tags)) failures.push({ property, reason: `${property}: ${problem.message}` });
}

/** How a property path reads in a reason: `vars[2].key`, `variableOptions[0].options[1]`. */
export function propertyPath(property: string, path: readonly PropertyKey[]): string {
    return path.reduce<string>(
        (text, segment) => (typeof segment === "number" ? `${text}[${segment}]` : `${text}.${String(segment)}`),
        property,
    );
}

/** One field of the items of a list checked by {@link checkObjectList}. */
export interface ListItemField {
    /** The rule of `sdk/model` the field's value must pass. */
    rule: z.ZodType;
    /** Whether an item must have the field. */
    required?: boolean;
}

/**
 * Checks a list of objects, such as the `vars` of a no-code workspace: a list, each item an object with only
 * the fields named, each field by its rule, required fields present, then the rules of the whole list
 * (`listProblems`, e.g. a key at most once per category) over the items whose `identity` fields are known.
 * A wholly unknown list, an unknown item and an unknown field pass. Each reason starts with the path of what
 * broke the rule, e.g. `vars[1].category must be 'infra' or 'env'`.
 */
export function checkObjectList(
    failures: CheckFailure[],
    inputs: PropertyBag,
    property: string,
    spec: {
        /** What one item is, for the messages: `a var ({ key, value?, category, ... })`. */
        item: string;
        fields: Record<string, ListItemField>;
        /** The fields `listProblems` reads; items where one is unknown are left out of it. */
        identity?: string[];
        listProblems?: (items: never[]) => { index: number; message: string }[];
        required?: boolean;
    },
): void {
    const value = inputs[property];
    if (isUnknown(value)) return;
    if (value === undefined || value === null) {
        if (spec.required) failures.push({ property, reason: `${property} is required (a list of ${spec.item})` });
        return;
    }
    if (!Array.isArray(value)) {
        failures.push({ property, reason: `${property} must be a list of ${spec.item}` });
        return;
    }
    const known: { index: number; item: Record<string, unknown> }[] = [];
    value.forEach((item: unknown, index) => {
        const at = propertyPath(property, [index]);
        if (isUnknown(item)) return;
        if (typeof item !== "object" || item === null || Array.isArray(item)) {
            failures.push({ property, reason: `${at} must be ${spec.item}` });
            return;
        }
        const fields = item as Record<string, unknown>;
        for (const name of Object.keys(fields)) {
            if (!(name in spec.fields)) {
                const allowed = Object.keys(spec.fields).join(", ");
                failures.push({ property, reason: `${at} has an unknown field '${name}' (allowed: ${allowed})` });
            }
        }
        for (const [name, field] of Object.entries(spec.fields)) {
            const fieldValue = fields[name];
            if (fieldValue === undefined || fieldValue === null) {
                if (field.required) failures.push({ property, reason: `${propertyPath(property, [index, name])} is required` });
                continue;
            }
            // An unknown field, or one with an unknown part (an option of a list), passes until it is known.
            if (containsUnknown(fieldValue)) continue;
            const result = field.rule.safeParse(fieldValue);
            if (!result.success) {
                for (const issue of result.error.issues) {
                    failures.push({ property, reason: `${propertyPath(property, [index, name, ...issue.path])} ${issue.message}` });
                }
            }
        }
        if ((spec.identity ?? []).every((name) => typeof fields[name] === "string" && !isUnknown(fields[name]))) {
            known.push({ index, item: fields });
        }
    });
    if (spec.listProblems) {
        for (const problem of spec.listProblems(known.map(({ item }) => item) as never[])) {
            const index = known[problem.index]?.index ?? problem.index;
            failures.push({ property, reason: `${propertyPath(property, [index])}: ${problem.message}` });
        }
    }
}
