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

/** Writes lines to the engine's log. One per plugin process; the client is made at the first line. */
export class EngineLog {
    #address: string | undefined;
    #client: EngineClient | undefined;

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
     * Writes `message` at `info` severity, attached to `urn`. Never fails and never waits: a log line that
     * cannot be written is dropped, the operation goes on.
     */
    info(urn: string, message: string): void {
        if (this.#address === undefined) return;
        try {
            this.#client ??= new EngineClient(this.#address, grpc.credentials.createInsecure());
            const request = new LogRequest();
            request.setSeverity(LogSeverity.INFO);
            request.setMessage(message);
            request.setUrn(urn);
            request.setEphemeral(false);
            this.#client.log(request, () => undefined);
        } catch {
            // The engine is gone or the address is wrong: the progress is lost, the upgrade is not.
        }
    }

    /** Closes the connection to the engine. */
    close(): void {
        this.#client?.close();
        this.#client = undefined;
    }
}
