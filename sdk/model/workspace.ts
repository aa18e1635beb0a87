/**
 * Workspaces: the `GET`/`PATCH`/`DELETE /workspaces/:id` endpoints the hosted service offers beside
 * `api.md`, and the workspace resource every workspace response carries.
 */
import { z } from "zod";
import {
    booleanRule,
    executionModeRule,
    workspaceDescriptionRule,
    workspaceNameRule,
    workspaceSourceNameRule,
    workspaceSourceUrlRule,
    type ExecutionMode,
} from "./rules";
import { toOneRelationshipSchema } from "./jsonapi";

/** Body of `PATCH /workspaces/:id`: name, description, auto-apply, execution settings and source. */
export function updateWorkspaceRequestSchema() {
    return z.object({
        data: z.object({
            type: z.literal("workspaces", { error: "must be 'workspaces'" }),
            id: z.string().optional(),
            attributes: z
                .object({
                    name: workspaceNameRule().optional(),
                    description: workspaceDescriptionRule().nullable().optional(),
                    "auto-apply": booleanRule().optional(),
                    "execution-mode": executionModeRule().optional(),
                    "agent-pool-id": z.string({ error: "must be an agent pool id" }).nullable().optional(),
                    "source-name": workspaceSourceNameRule().nullable().optional(),
                    "source-url": workspaceSourceUrlRule().nullable().optional(),
                })
                .optional(),
        }),
    });
}

/** Wire shape of a workspace resource: the attributes the client relies on; the rest pass untouched. */
export function workspaceResourceSchema() {
    return z.object({
        id: z.string(),
        type: z.literal("workspaces"),
        attributes: z.object({
            name: z.string(),
            description: z.string().nullable().optional(),
            "auto-apply": z.boolean().optional(),
            "execution-mode": z.string().optional(),
            "source-name": z.string().nullable().optional(),
            "source-url": z.string().nullable().optional(),
            "source-module-id": z.string().nullable().optional(),
            "no-code-upgrade-available": z.boolean().optional(),
            "tag-names": z.array(z.string()).optional(),
            "auto-destroy-activity-duration": z.string().nullable().optional(),
            "created-at": z.string().optional(),
            "updated-at": z.string().optional(),
        }),
        relationships: z
            .object({
                organization: toOneRelationshipSchema("organizations").optional(),
                project: toOneRelationshipSchema("projects").optional(),
                "agent-pool": toOneRelationshipSchema("agent-pools").optional(),
                "no-code-module-version": toOneRelationshipSchema("no-code-module-versions").optional(),
            })
            .optional(),
        links: z.object({ self: z.string().optional(), "self-html": z.string().optional() }).optional(),
    });
}

/** A workspace resource parsed into client terms ({@link Workspace}). */
export function workspaceSchema() {
    return workspaceResourceSchema().transform(workspaceFromWire);
}

/** A workspace in client terms: what {@link workspaceSchema} makes of a workspace resource. */
export type Workspace = z.output<ReturnType<typeof workspaceSchema>>;

/** {@link Workspace} from the wire shape of {@link workspaceResourceSchema}; what the answer leaves out reads as its default. */
export function workspaceFromWire(wire: z.output<ReturnType<typeof workspaceResourceSchema>>) {
    const attributes = wire.attributes;
    const relationships = wire.relationships;
    return {
        /** `ws-...` */
        id: wire.id,
        name: attributes.name,
        description: attributes.description ?? null,
        autoApply: attributes["auto-apply"] ?? false,
        executionMode: (attributes["execution-mode"] ?? "remote") as ExecutionMode,
        /** Set when {@link Workspace.executionMode} is `agent`. */
        agentPoolId: relationships?.["agent-pool"]?.data?.id ?? null,
        sourceName: attributes["source-name"] ?? null,
        sourceUrl: attributes["source-url"] ?? null,
        /** The no-code module the workspace was created from, if any. */
        sourceModuleId: attributes["source-module-id"] ?? null,
        noCodeUpgradeAvailable: attributes["no-code-upgrade-available"] ?? false,
        noCodeModuleVersionId: relationships?.["no-code-module-version"]?.data?.id ?? null,
        /** `prj-...`; `""` when the answer does not name it. */
        projectId: relationships?.project?.data?.id ?? "",
        /** The organization's name; `""` when the answer does not name it. */
        organization: relationships?.organization?.data?.id ?? "",
        tagNames: attributes["tag-names"] ?? [],
        autoDestroyActivityDuration: attributes["auto-destroy-activity-duration"] ?? null,
    };
}
