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
        id: wire.id,
        name: wire.attributes.name,
        provider: wire.attributes.provider,
        organization: wire.relationships?.organization?.data?.id ?? wire.attributes.namespace ?? "",
        noCodeReady: wire.attributes["no-code"] ?? false,
        noCodeModuleIds: (wire.relationships?.["no-code-modules"]?.data ?? []).map((item) => item.id),
    }));
}

// An interface carries the TSDoc of the fields, which a type inferred from the schema would not carry into
// the published `.d.ts` (see `jsonapi.ts`).

/** A registry module in client terms: what `registryModuleSchema` makes of a registry module resource. */
export interface RegistryModule {
    /** `mod-...` */
    id: string;
    /** The module's name (`bucket`). */
    name: string;
    /** The module's provider (`aws`). */
    provider: string;
    /** The organization's name: the relationship's, else the namespace (the same on the local service). */
    organization: string;
    /** Whether the module meets the no-code design requirements (a no-code module may enable it). */
    noCodeReady: boolean;
    /** The no-code modules (`nocode-...`) that enable it: none or one. */
    noCodeModuleIds: string[];
}

