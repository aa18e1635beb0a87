/**
 * Reading "gone" from a 404: how `read` and `delete` tell a resource deleted outside Pulumi.
 *
 * @module
 */
import { WosNotFoundError } from "../../sdk/errors";
import { operationError } from "./operationErrors";

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
