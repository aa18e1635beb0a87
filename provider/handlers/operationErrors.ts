/**
 * The error of a provider operation: a message that names the resource and the operation and carries the
 * service's explanation (never the token), and the resource that exists although the operation failed.
 *
 * @module
 */
import { currentToken } from "./credentials";
import { describeRefusalByInputs } from "./inputPaths";
import type { PropertyBag } from "./unknownValues";

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
