/**
 * The plugin's gRPC server: Pulumi's `ResourceProvider` service for `wos` on 127.0.0.1 at a free port.
 *
 * @module
 */
import * as grpc from "@grpc/grpc-js";
import { ResourceProviderService } from "@pulumi/pulumi/proto/provider_grpc_pb";
import { EngineLog } from "./engineLog";
import { WosProviderService } from "./providerService";

/** Pulumi's messages can be large (a schema, a big state): the limits the Pulumi SDK sets for its own servers. */
const MESSAGE_LIMIT = 400 * 1024 * 1024;

/** Starts the service for the engine at `engineAddress`; answers the port it listens on and a way to stop it. */
export async function serve(engineAddress: string | undefined): Promise<{ port: number; stop(): Promise<void> }> {
    const engineLog = new EngineLog(engineAddress);
    const service = new WosProviderService(engineLog);
    const server = new grpc.Server({ "grpc.max_receive_message_length": MESSAGE_LIMIT, "grpc.max_send_message_length": MESSAGE_LIMIT });
    server.addService(ResourceProviderService, service.implementation() as grpc.UntypedServiceImplementation);
    const port = await new Promise<number>((resolve, reject) =>
        server.bindAsync("127.0.0.1:0", grpc.ServerCredentials.createInsecure(), (error, bound) => (error ? reject(error) : resolve(bound))),
    );
    return {
        port,
        stop: () =>
            new Promise<void>((resolve) => {
                engineLog.close();
                server.tryShutdown(() => resolve());
            }),
    };
}
