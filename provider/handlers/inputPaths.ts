/**
 * The resource input a JSON:API pointer of the service stands for, so that an error found at create or update
 * time names what the program author wrote (`vars[1].key`), not the wire format
 * (`/data/relationships/vars/data/1/attributes/key`).
 *
 * @module
 */
import { describeErrorObjects, WosValidationError } from "../../sdk/errors";

/** `auto-destroy-activity-duration` to `autoDestroyActivityDuration`. */
function camelCase(kebab: string): string {
    return kebab.replace(/[-_]([a-z])/g, (_, letter: string) => letter.toUpperCase());
}

/** Relationships whose list is an input of another name. */
const LIST_INPUTS: Record<string, string> = { "tag-bindings": "tags", "variable-options": "variableOptions", vars: "vars" };

/**
 * The input path a pointer names: `/data/attributes/<name>` is the input `<name>` in camel case,
 * `/data/relationships/<list>/data/<n>/attributes/<name>` the `<name>` of item `n` of that list input,
 * `/data/relationships/<list>` the list input itself, and
 * `/data/relationships/<one>/data/id` the input `<one>Id`. Any other pointer is said as it is.
 */
export function inputPathOf(pointer: string): string {
    const attribute = /^\/data\/attributes\/([\w-]+)$/.exec(pointer);
    if (attribute) return camelCase(attribute[1]!);
    const item = /^\/data\/relationships\/([\w-]+)\/data\/(\d+)(?:\/attributes\/([\w-]+))?$/.exec(pointer);
    if (item) {
        const list = LIST_INPUTS[item[1]!] ?? camelCase(item[1]!);
        return `${list}[${item[2]}]${item[3] ? `.${camelCase(item[3])}` : ""}`;
    }
    const list = /^\/data\/relationships\/([\w-]+)$/.exec(pointer);
    if (list) return LIST_INPUTS[list[1]!] ?? camelCase(list[1]!);
    const related = /^\/data\/relationships\/([\w-]+)\/data\/id$/.exec(pointer);
    if (related) return `${camelCase(related[1]!)}Id`;
    return pointer;
}

/** A refusal of the service (422) in the words of the inputs, or `undefined` for any other failure. */
export function describeRefusalByInputs(error: unknown): string | undefined {
    if (!WosValidationError.isInstance(error) || error.errors.length === 0) return undefined;
    return `${error.method} ${error.path} failed with status ${error.status}: ${describeErrorObjects(error.errors, inputPathOf)}`;
}
