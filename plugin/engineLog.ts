/**
 * The engine's log, as a provider writes to it: the `Log` call of Pulumi's Engine service at the address the
 * engine gave the plugin, each line attached to a resource's URN so that the CLI shows it under that resource.
 * The no-code upgrade's progress goes there.
 *
 * @module
 */
import * as grpc from "@grpc/grpc-js";
import { EngineClient } from "@pulumi/pulumi/proto/engine_grpc_pb";
import { LogRequest, LogSeverity } from "@pulumi/pulumi/proto/engine_pb";

/** How long a line may wait for the engine's answer before it counts as dropped. */
const LINE_DEADLINE_MS = 10_000;

/**
 * Writes lines to the engine's log. One per plugin process; the client is made at the first line. Lines go one
 * after the other, each once the engine has answered the one before: the engine handles each `Log` call on
 * its own, so lines sent together could be shown out of order (a plan's statuses, or its last line before its
 * first).
 */
export class EngineLog {
    #address: string | undefined;
    #client: EngineClient | undefined;
    /** Settles once every line written so far has been answered (or dropped). */
    #sent: Promise<void> = Promise.resolve();

    constructor(address?: string) {
        this.#address = address?.trim() || undefined;
    }

    /** The engine's address, when the engine gave one. */
    get address(): string | undefined {
        return this.#address;
    }

    /** Another engine address (given again by `Attach` or the handshake); the next line dials it. */
    setAddress(address: string): void {
        if (!address || address === this.#address) return;
        this.#client?.close();
        this.#client = undefined;
        this.#address = address;
    }

    /**
     * Writes `message` at `info` severity, attached to `urn`, after the lines written before it. Never fails and
     * never waits: a log line that cannot be written is dropped, the operation goes on.
     */
    info(urn: string, message: string): void {
        if (this.#address === undefined) return;
        const request = new LogRequest();
        request.setSeverity(LogSeverity.INFO);
        request.setMessage(message);
        request.setUrn(urn);
        request.setEphemeral(false);
        this.#sent = this.#sent.then(() => this.#send(request));
    }

    /**
     * Settles once every line written so far has reached the engine (or was dropped), so that an operation
     * answers the engine after its own last line: the CLI shows it under the resource, before the result.
     */
    flushed(): Promise<void> {
        return this.#sent;
    }

    #send(request: LogRequest): Promise<void> {
        return new Promise((resolve) => {
            try {
                this.#client ??= new EngineClient(this.#address!, grpc.credentials.createInsecure());
                // A deadline, so that an engine that does not answer cannot hold the lines after it, nor the operation.
                this.#client.log(request, new grpc.Metadata(), { deadline: Date.now() + LINE_DEADLINE_MS }, () => resolve());
            } catch {
                // The engine is gone or the address is wrong: the progress is lost, the upgrade is not.
                resolve();
            }
        });
    }

    /** Closes the connection to the engine. */
    close(): void {
        this.#client?.close();
        this.#client = undefined;
    }
}
