/**
 * Workspace variables of the deprecated `/vars` interface: request bodies, the response resource, and the
 * client-side type.
 */
import { z } from "zod";
import {
    booleanRule,
    variableCategoryRule,
    variableDescriptionRule,
    variableKeyRule,
    variableValueRule,
    type VariableCategory,
} from "./rules";
import { toOneRelationshipSchema } from "./jsonapi";

/** Body of `POST /vars`: the owning workspace by relationship, or by the deprecated name filter. */
export function createVariableRequestSchema() {
    return z.object({
        data: z.object({
            type: z.literal("vars", { error: "must be 'vars'" }),
            attributes: z.object(
                {
                    key: variableKeyRule(),
                    value: variableValueRule().nullable().optional(),
                    description: variableDescriptionRule().nullable().optional(),
                    category: variableCategoryRule(),
                    hcl: booleanRule().optional(),
                    sensitive: booleanRule().optional(),
                },
                { error: "must be an object with at least a key and a category" },
            ),
            relationships: z
                .object({
                    workspace: z.object({
                        data: z.object({
                            type: z.literal("workspaces", { error: "must be 'workspaces'" }),
                            id: z.string({ error: "must be a workspace id" }),
                        }),
                    }),
                })
                .optional(),
        }),
        /** Deprecated: the workspace by name and organization, replaced by the relationship. */
        filter: z
            .object({
                workspace: z.object({ name: z.string({ error: "must be a workspace name" }) }),
                organization: z.object({ name: z.string({ error: "must be an organization name" }) }),
            })
            .optional(),
    }).meta({
        // The one rule the server checks beside this schema (it words the refusal itself), said for the
        // service's OpenAPI description, which z.toJSONSchema makes of this schema: one of the two ways.
        anyOf: [{ properties: { data: { required: ["relationships"] } } }, { required: ["filter"] }],
    });
}

/** Body of `PATCH /vars/:id`: omitted attributes stay as they are. */
export function updateVariableRequestSchema() {
    return z.object({
        data: z.object({
            type: z.literal("vars", { error: "must be 'vars'" }),
            id: z.string().optional(),
            attributes: z
                .object({
                    key: variableKeyRule().optional(),
                    value: variableValueRule().nullable().optional(),
                    description: variableDescriptionRule().nullable().optional(),
                    category: variableCategoryRule().optional(),
                    hcl: booleanRule().optional(),
                    sensitive: booleanRule().optional(),
                })
                .optional(),
        }),
    });
}

/** Wire shape of a variable resource. A sensitive variable's value is `null`. */
export function variableResourceSchema() {
    return z.object({
        id: z.string(),
        type: z.literal("vars"),
        attributes: z.object({
            key: z.string(),
            value: z.string().nullable().optional(),
            description: z.string().nullable().optional(),
            category: z.string(),
            hcl: z.boolean().optional(),
            sensitive: z.boolean().optional(),
            "version-id": z.string().optional(),
        }),
        relationships: z.object({ configurable: toOneRelationshipSchema().optional() }).optional(),
        links: z.object({ self: z.string().optional() }).optional(),
    });
}

/** A variable resource parsed into client terms ({@link Variable}). */
export function variableSchema() {
    return variableResourceSchema().transform(variableFromWire);
}

// An interface carries the TSDoc of the fields, which a type inferred from the parsing function would not
// carry into the published `.d.ts` (see `jsonapi.ts`).

/** A variable in client terms: what `variableSchema` makes of a variable resource. */
export interface Variable {
    /** `var-...` */
    id: string;
    /** The name of the variable, unique in its workspace and category. */
    key: string;
    /** The value (`""` when the answer has none); `null` when the variable is sensitive: the service never returns it. */
    value: string | null;
    /** The description; `null` when none is set. */
    description: string | null;
    /** `infra` (an input variable of the configuration) or `env` (an environment variable of its runs). */
    category: VariableCategory;
    /** Whether the value is HCL rather than a plain string; false when the answer does not say. */
    hcl: boolean;
    /**
     * Whether the value is write-only: never answered again, and the variable never made plain again; false
     * when the answer does not say.
     */
    sensitive: boolean;
    /** The owning workspace (`ws-...`); `""` when the answer does not name it. */
    workspaceId: string;
}

/**
 * {@link Variable} from the wire shape of {@link variableResourceSchema}, with the API's defaults for what
 * an answer leaves out.
 */
export function variableFromWire(wire: z.output<ReturnType<typeof variableResourceSchema>>) {
    const attributes = wire.attributes;
    const sensitive = attributes.sensitive ?? false;
    return {
        id: wire.id,
        key: attributes.key,
        value: sensitive ? null : (attributes.value ?? ""),
        description: attributes.description ?? null,
        category: attributes.category as VariableCategory,
        hcl: attributes.hcl ?? false,
        sensitive,
        workspaceId: wire.relationships?.configurable?.data?.id ?? "",
    };
}
