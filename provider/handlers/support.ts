/**
 * What the resource handlers share: recognising Pulumi's unknown values, checking inputs against the
 * rules of `sdk/model`, comparing inputs with state, shaping outputs as plain JSON, turning SDK errors
 * into messages that name the resource, reading "gone" from a 404, and recovering a create whose answer
 * was lost.
 *
 * Nothing here is captured by a serialized provider: the thin shells only `require` the handler modules by
 * package name, and those import this file.
 *
 * @module
 */
import type * as dynamic from "@pulumi/pulumi/dynamic";
import type { z } from "zod";
import { WosConnectionError, WosError, WosNotFoundError, WosServerError } from "../../sdk/errors";
import type { Tag } from "../../sdk/model";
import { currentToken } from "./credentials";
import { describeRefusalByInputs } from "./inputPaths";

/**
 * The value Pulumi sends for an input that is not known yet (during preview), the string
 * `pulumi.runtime.unknownValue`. Spelled out so the handlers do not load `@pulumi/pulumi`.
 */
export const UNKNOWN = "04da6b54-80e4-46f7-96ec-b56ff0331ba9";

/** Whether `value` is Pulumi's unknown marker. */
export function isUnknown(value: unknown): boolean {
    return value === UNKNOWN;
}

/** Whether `value`, or anything inside it, is still unknown. */
export function containsUnknown(value: unknown): boolean {
    if (isUnknown(value)) return true;
    if (Array.isArray(value)) return value.some(containsUnknown);
    if (typeof value === "object" && value !== null) return Object.values(value).some(containsUnknown);
    return false;
}

/** One failure of `check`, as {@link https://www.pulumi.com/docs/ | Pulumi} wants it: the property and why. */
export interface CheckFailure {
    property: string;
    reason: string;
}

/** Property bags as the host passes them: plain JSON keyed by input name (plus `__provider`). */
export type PropertyBag = Record<string, unknown>;

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
 * Checks a workspace's `executionMode` against its `agentPoolId`, as the service does: `agent` needs a pool,
 * `remote` (the default) refuses one. Unknown values pass. Shared by `wos:Workspace` and `wos:NoCodeWorkspace`.
 */
export function checkExecutionMode(failures: CheckFailure[], inputs: PropertyBag): void {
    const mode = inputs.executionMode ?? "remote";
    const pool = inputs.agentPoolId;
    if (isUnknown(mode) || isUnknown(pool)) return;
    if (mode === "agent" && (pool === undefined || pool === null || pool === "")) {
        failures.push({ property: "agentPoolId", reason: "agentPoolId is required when executionMode is 'agent'" });
    }
    if (mode === "remote" && pool !== undefined && pool !== null) {
        failures.push({ property: "agentPoolId", reason: "agentPoolId must not be given when executionMode is 'remote' (the default)" });
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

/** A `tags` map as the SDK's list of tags, in the map's order. */
export function tagsFromMap(map: Record<string, string>): Tag[] {
    return Object.entries(map).map(([key, value]) => ({ key, value }));
}

/** The SDK's tag bindings as a `tags` map. */
export function mapFromTags(tags: readonly { key: string; value: string }[]): Record<string, string> {
    const map: Record<string, string> = {};
    for (const tag of tags) map[tag.key] = tag.value;
    return map;
}

/**
 * A tag map in a form that compares equal whatever the order of its keys (for {@link differs}). `tags` is the
 * whole set for a project and the managed keys for tag bindings; in both, order carries no meaning.
 */
export function tagMapSignature(tags: unknown): unknown {
    if (typeof tags !== "object" || tags === null) return tags ?? null;
    const map = tags as Record<string, unknown>;
    // The default sort orders by UTF-16 code units, as `<` does; keys of a map never repeat.
    return Object.keys(map)
        .sort()
        .map((key) => [key, map[key]]);
}

/**
 * Whether an input differs from the state. An unknown new value counts as a change (it may turn out
 * different); `normalize` makes equivalent spellings equal (an absent description and `null`).
 */
export function differs(oldValue: unknown, newValue: unknown, normalize: (value: unknown) => unknown = (v) => v): boolean {
    if (containsUnknown(newValue)) return true;
    return JSON.stringify(normalize(oldValue)) !== JSON.stringify(normalize(newValue));
}

/** Equal, or not known yet (and so possibly equal): what decides whether a replacement could clash with the old resource. */
export function mayBeSame(oldValue: unknown, newValue: unknown): boolean {
    return containsUnknown(newValue) || oldValue === newValue;
}

/**
 * The same name without regard to case (project and workspace names are unique in any case), or not known
 * yet: whether a replacement could take the old resource's name.
 */
export function mayBeSameName(oldValue: unknown, newValue: unknown): boolean {
    if (containsUnknown(newValue)) return true;
    return typeof oldValue === "string" && typeof newValue === "string" && oldValue.toLowerCase() === newValue.toLowerCase();
}

/** `undefined`, `null` and `""` all mean "none" for optional text such as a description. */
export function optionalText(value: unknown): unknown {
    // `null` is already "none" and is answered as it is.
    return value === undefined || value === "" ? null : value;
}

/**
 * Outputs as the host needs them: plain JSON, with no `undefined` (the host fails with `Unexpected struct
 * type`), no `Date` and no class instance. Absent optional values are left out rather than set to null.
 */
export function plainOutputs<T extends object>(outputs: T): T {
    const copy: Record<string, unknown> = {};
    for (const [key, value] of Object.entries(outputs)) {
        if (value === undefined || value === null) continue;
        copy[key] = JSON.parse(JSON.stringify(value));
    }
    return copy as T;
}

/**
 * Whether a failed request may have been carried out by the service anyway: no answer arrived (reset,
 * refused after sending, timeout) or the service failed with a 5xx, possibly after committing. A 4xx is a
 * definitive refusal.
 */
export function isAmbiguousFailure(error: unknown): boolean {
    return WosConnectionError.isInstance(error) || WosServerError.isInstance(error);
}

/** Whether the failure was a timeout: the service may still be working on the request. */
export function isTimeout(error: unknown): boolean {
    const code = WosError.isInstance(error) ? error.code : undefined;
    return code === "ETIMEDOUT" || code === "ECONNABORTED" || code === "ESOCKETTIMEDOUT";
}

/** Resolves after `ms` milliseconds. */
export function sleep(ms: number): Promise<void> {
    return new Promise((resolve) => setTimeout(resolve, ms));
}

/**
 * Pauses before each look-up for a resource whose create lost its answer. After a timeout the service may
 * still be working on the request, so it is looked for a few times before concluding that nothing was made.
 */
function lookupWaitsAfter(failure: unknown): number[] {
    return isTimeout(failure) ? [0, 500, 1500, 3000] : [0];
}

/** A resource that exists although its operation failed: its id, its outputs, and the inputs it came from. */
export interface PartialResult {
    id: string;
    properties: Record<string, unknown>;
    /** The operation's inputs, which carry the serialized provider (`__provider`). */
    inputs: PropertyBag;
}

/**
 * An error of a provider operation. Its message names the resource and the operation and carries the
 * service's own explanation; never the token.
 *
 * When `id` is set, the host reports a partial success (`ErrorResourceInitFailed`) and the engine keeps the
 * resource in state with `properties` as its outputs, so nothing is orphaned.
 */
export class ProviderOperationError extends Error {
    /** Id of a resource that exists although the operation failed. */
    readonly id?: string;
    /** Outputs of that resource, for the state. */
    readonly properties?: Record<string, unknown>;
    /** Reasons shown by the engine next to a partial success. */
    readonly reasons?: string[];

    constructor(message: string, partial?: PartialResult) {
        super(message);
        Object.defineProperty(this, "name", { value: "ProviderOperationError", enumerable: false, configurable: true });
        if (partial) {
            this.id = partial.id;
            // The host copies `__provider` into a successful answer's outputs but not into a partial one's;
            // without it, the engine could not load the provider again to refresh or destroy what was kept.
            this.properties = { ...partial.properties, __provider: partial.inputs.__provider };
            this.reasons = [message];
        }
    }
}

/** The message of any thrown value, with the current token (if any) removed, as a last line of defence. */
export function safeMessage(error: unknown): string {
    const message = describeRefusalByInputs(error) ?? (error instanceof Error ? error.message : String(error));
    const token = currentToken();
    return token ? message.split(token).join("[REDACTED]") : message;
}

/**
 * Wraps a failure as a {@link ProviderOperationError}: `<what>: <operation> failed: <service detail>`,
 * e.g. `wos:Project 'Apps' in organization 'acme': create failed: ... Name has already been taken`.
 */
export function operationError(
    what: string,
    operation: string,
    error: unknown,
    partial?: PartialResult,
): ProviderOperationError {
    if (error instanceof ProviderOperationError && !partial) return error;
    return new ProviderOperationError(`${what}: ${operation} failed: ${safeMessage(error)}`, partial);
}

/**
 * Runs a request whose 404 means that the resource is gone: answers `undefined` then. Any other failure
 * becomes a {@link ProviderOperationError} naming the resource and the operation.
 */
export async function unlessGone<T>(what: string, operation: string, request: () => Promise<T>): Promise<T | undefined> {
    try {
        return await request();
    } catch (failure) {
        if (WosNotFoundError.isInstance(failure)) return undefined;
        throw operationError(what, operation, failure);
    }
}

/**
 * What {@link createRecoveringLostAnswer} needs to know of a resource kind with a unique name (a second create
 * of the same name is refused as "already taken"): how to make one, and how to find one by that name.
 */
export interface RecoverableCreate<R extends { id: string }> {
    /** How messages name the resource, e.g. `wos:Project 'Apps' in organization 'acme'`. */
    what: string;
    /** The kind, for messages: `project`, `variable`. */
    noun: string;
    /** The operation's inputs; they carry the serialized provider that a partial success must keep. */
    inputs: PropertyBag;
    /** The one request that makes the resource. */
    create: () => Promise<R>;
    /** The resource that holds the unique name the create takes, if any (requests that may be repeated). */
    findByUniqueName: () => Promise<R | undefined>;
    /** Whether a resource found after a lost answer can be what this create made (default: yes). */
    couldBeMadeByThisCreate?: (found: R) => boolean;
    /** Brings a resource found after a lost answer in line with the inputs, and answers its outputs. */
    finish: (found: R) => Promise<R>;
    /** The outputs (plain JSON) of the resource as the service answered. */
    outputs: (resource: R) => object;
    /** What is known to be true of a found resource whose {@link finish} failed: the outputs of a partial success. */
    partialOutputs: (found: R) => object;
}

/**
 * Creates a resource whose answer may be lost, without leaving an orphan behind and without taking over one
 * that someone else made.
 *
 * If the create fails with no definitive answer (no answer at all, or a 5xx that may come after the commit),
 * the service may have made the resource; the next `up` would then fail with "already taken" and the
 * resource would belong to no one. So the resource is looked for by its unique name, brought in line with
 * the inputs and taken into state. If that last step fails, it is kept in state anyway (a partial success)
 * and the next `up` finishes it.
 *
 * What the look-up finds is this create's only if the name was free before it: the name is therefore looked
 * up before the create too. A resource that already held the name (made by a person, another program or
 * another stack) is never taken over; its owner may be relying on it, and `destroy` would delete it.
 * A definitive refusal (4xx) is reported as the service worded it.
 */
export async function createRecoveringLostAnswer<R extends { id: string }>(
    spec: RecoverableCreate<R>,
): Promise<dynamic.CreateResult> {
    let holder: R | undefined;
    try {
        holder = await spec.findByUniqueName();
    } catch (failure) {
        throw operationError(spec.what, "create", failure);
    }
    let created: R;
    try {
        created = await spec.create();
    } catch (failure) {
        if (!isAmbiguousFailure(failure)) {
            if (!holder) throw operationError(spec.what, "create", failure);
            // The usual cause: a `pulumi up` killed while this create was under way made it, and the stack never
            // learnt its id. A dynamic resource cannot be imported, and the CLI's `--import-pending-creates` drops
            // the pending create without reading it (3.248): say what does work.
            const detail =
                `${safeMessage(failure)}; ${spec.noun} ${holder.id} holds that name. If an interrupted \`pulumi up\` of ` +
                `this stack made it (the update warns of a pending create), clear the pending create with ` +
                `\`pulumi refresh --clear-pending-creates\`, then delete ${holder.id} or choose another name; ` +
                `otherwise choose another name`;
            throw operationError(spec.what, "create", new Error(detail));
        }
        if (holder) {
            const detail = `${safeMessage(failure)}; a ${spec.noun} of that name existed before this create, so it is left alone`;
            throw operationError(spec.what, "create", new Error(detail));
        }
        return recoverLostCreate(spec, failure);
    }
    return { id: created.id, outs: spec.outputs(created) };
}

async function recoverLostCreate<R extends { id: string }>(
    spec: RecoverableCreate<R>,
    failure: unknown,
): Promise<dynamic.CreateResult> {
    let found: R | undefined;
    try {
        for (const wait of lookupWaitsAfter(failure)) {
            if (wait > 0) await sleep(wait);
            found = await spec.findByUniqueName();
            if (found) break;
        }
    } catch (lookupFailure) {
        const detail =
            `${safeMessage(failure)}; the service may have made the ${spec.noun}, and looking it up failed: ` +
            safeMessage(lookupFailure);
        throw operationError(spec.what, "create", new Error(detail));
    }
    if (!found || !(spec.couldBeMadeByThisCreate?.(found) ?? true)) throw operationError(spec.what, "create", failure);
    try {
        const finished = await spec.finish(found);
        return { id: found.id, outs: spec.outputs(finished) };
    } catch (finishFailure) {
        throw operationError(spec.what, `create (finishing the ${spec.noun} found after a lost answer)`, finishFailure, {
            id: found.id,
            properties: spec.partialOutputs(found) as Record<string, unknown>,
            inputs: spec.inputs,
        });
    }
}
