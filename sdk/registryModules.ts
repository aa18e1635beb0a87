/**
 * Registry modules of an organization's private registry, as far as no-code provisioning needs them: which
 * module is no-code ready and which no-code module enables it (`GET /registry-modules/:id`, a decision of
 * the local service; the hosted service shows modules by namespace, name and provider).
 *
 * @module
 */
import { registryModuleSchema, singleDocumentSchema, type RegistryModule } from "./model";
import { segment, type Transport } from "./transport";
import { requireId } from "./errors";

export type { RegistryModule } from "./model";

const REGISTRY_MODULE_DOCUMENT = singleDocumentSchema(registryModuleSchema());

/** The registry module endpoint. Reach it as {@link WosClient.registryModules}. */
export class RegistryModules {
    readonly #transport: Transport;

    /** @internal Built by {@link WosClient}. */
    constructor(transport: Transport) {
        this.#transport = transport;
    }

    /** Shows a registry module with its no-code modules: `GET /registry-modules/:id`. */
    async read(registryModuleId: string): Promise<RegistryModule> {
        requireId(registryModuleId, "registryModuleId", "GET", "/registry-modules/:id");
        const document = await this.#transport.request({
            method: "GET",
            path: `/registry-modules/${segment(registryModuleId)}`,
            schema: REGISTRY_MODULE_DOCUMENT,
        });
        return document.data;
    }
}
