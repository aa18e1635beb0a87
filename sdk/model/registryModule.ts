/**
 * Registry modules of an organization's private registry, as the local service's `GET /registry-modules/:id`
 * shows them: name, provider, no-code readiness and the no-code module that enables one.
 */
import { z } from "zod";
import { toOneRelationshipSchema } from "./jsonapi";

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
                organization: toOneRelationshipSchema().optional(),
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
        /** The module's name (`bucket`). */
        name: wire.attributes.name,
        /** The module's provider (`aws`). */
        provider: wire.attributes.provider,
        /** The organization's name: the relationship's, else the namespace (the same on the local service). */
        organization: wire.relationships?.organization?.data?.id ?? wire.attributes.namespace ?? "",
        /** Whether the module meets the no-code design requirements (a no-code module may enable it). */
        noCodeReady: wire.attributes["no-code"] ?? false,
        /** The no-code modules (`nocode-...`) that enable it: none or one. */
        noCodeModuleIds: (wire.relationships?.["no-code-modules"]?.data ?? []).map((item) => item.id),
    }));
}

/**
 * A registry module in client terms: what `registryModuleSchema` makes of a registry module resource.
 *
 * @interface
 */
export type RegistryModule = z.output<ReturnType<typeof registryModuleSchema>>;

