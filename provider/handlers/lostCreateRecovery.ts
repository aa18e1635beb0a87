/**
 * A create whose answer was lost: the service may have made the resource, so it is looked for by its unique
 * name, brought in line with the inputs and kept in state, without ever taking over a resource someone else
 * made.
 *
 * @module
 */
import type * as dynamic from "@pulumi/pulumi/dynamic";
import { WosConnectionError, WosError, WosServerError } from "../../sdk/errors";
import { operationError, safeMessage } from "./operationErrors";
import type { PropertyBag } from "./unknownValues";

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
