/**
 * Registry modules of an organization's private registry, as far as no-code provisioning needs them: which
 * module is no-code ready and which no-code module enables it (`GET /registry-modules/:id`, a decision of
 * the local service; the hosted service shows modules by namespace, name and provider).
 *
 * @module
 */
import { z } from "zod";
import { singleDocumentSchema, toOneRelationshipSchema } from "./model";
import { segment, type Transport } from "./transport";
import { requireId } from "./errors";

/** Wire shape of a registry module resource: what the client relies on; the rest passes untouched. */
export function registryModuleResourceSchema() {
    return z.object({
        id: z.string(),
        type: z.literal("registry-modules"),
        attributes: z.object({
            name: z.string(),
            provider: z.string(),
            namespace: z.string().optional(),
            "no-code": z.boolean().optional(),
        }),
        relationships: z
            .object({
                organization: toOneRelationshipSchema("organizations").optional(),
                "no-code-modules": z
                    .object({ data: z.array(z.object({ id: z.string(), type: z.string() })).nullable().optional() })
                    .optional(),
            })
            .optional(),
    });
}

/** A registry module resource parsed into client terms ({@link RegistryModule}). */
export function registryModuleSchema() {
    return registryModuleResourceSchema().transform((wire) => ({
        /** `mod-...` */
        id: wire.id,
        name: wire.attributes.name,
        provider: wire.attributes.provider,
        /** The organization's name: the relationship's, else the namespace (the same on the local service). */
        organization: wire.relationships?.organization?.data?.id ?? wire.attributes.namespace ?? "",
        /** Whether the module meets the no-code design requirements (a no-code module may enable it). */
        noCodeReady: wire.attributes["no-code"] ?? false,
        /** The no-code modules (`nocode-...`) that enable it: none or one. */
        noCodeModuleIds: (wire.relationships?.["no-code-modules"]?.data ?? []).map((item) => item.id),
    }));
}

/** A registry module in client terms. */
export type RegistryModule = z.output<ReturnType<typeof registryModuleSchema>>;

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
