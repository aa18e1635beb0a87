/**
 * Projects and their tag bindings: request bodies (validated by the server), response resources (parsed by
 * the client into camelCase objects), and the types both sides use.
 */
import { z } from "zod";
import {
    autoDestroyActivityDurationRule,
    projectDescriptionRule,
    projectNameRule,
    tagKeyRule,
    tagValueRule,
} from "./rules";
import { listLinksSchema, paginationSchema, toOneRelationshipSchema } from "./jsonapi";

// ---------------------------------------------------------------------------------------------------------
// Requests

/** One item of `relationships.tag-bindings.data[]` or of `PATCH /projects/:id/tag-bindings` `data[]`. */
export function tagBindingInputSchema() {
    return z.object({
        type: z.literal("tag-bindings", { error: "must be 'tag-bindings'" }),
        attributes: z.object(
            {
                key: tagKeyRule(),
                value: tagValueRule().optional(),
            },
            { error: "must be an object with a key and a value" },
        ),
    });
}

/** `relationships.tag-bindings` of a project create or update. */
export function tagBindingsRelationshipSchema() {
    return z.object({ data: z.array(tagBindingInputSchema(), { error: "must be a list of tag bindings" }) });
}

/** Body of `POST /organizations/:org/projects`. */
export function createProjectRequestSchema() {
    return z.object({
        data: z.object({
            type: z.literal("projects", { error: "must be 'projects'" }),
            attributes: z.object(
                {
                    name: projectNameRule(),
                    description: projectDescriptionRule().nullable().optional(),
                    "auto-destroy-activity-duration": autoDestroyActivityDurationRule().nullable().optional(),
                },
                { error: "must be an object with at least a name" },
            ),
            relationships: z.object({ "tag-bindings": tagBindingsRelationshipSchema().optional() }).optional(),
        }),
    });
}

/** Body of `PATCH /projects/:id`: every attribute optional; tag-bindings, when present, replace the set. */
export function updateProjectRequestSchema() {
    return z.object({
        data: z.object({
            type: z.literal("projects", { error: "must be 'projects'" }),
            id: z.string().optional(),
            attributes: z
                .object({
                    name: projectNameRule().optional(),
                    description: projectDescriptionRule().nullable().optional(),
                    "auto-destroy-activity-duration": autoDestroyActivityDurationRule().nullable().optional(),
                })
                .optional(),
            relationships: z.object({ "tag-bindings": tagBindingsRelationshipSchema().optional() }).optional(),
        }),
    });
}

/** Body of `PATCH /projects/:id/tag-bindings`: upsert only. */
export function updateTagBindingsRequestSchema() {
    return z.object({ data: z.array(tagBindingInputSchema(), { error: "must be a list of tag bindings" }) });
}

/** Body of `POST /projects/:id/relationships/workspaces`. */
export function moveWorkspacesRequestSchema() {
    return z.object({
        data: z.array(
            z.object({
                type: z.literal("workspaces", { error: "must be 'workspaces'" }),
                id: z.string({ error: "must be a workspace id" }).min(1, { error: "must be a workspace id" }),
            }),
            { error: "must be a list of workspaces" },
        ),
    });
}

// ---------------------------------------------------------------------------------------------------------
// Responses

/** Wire shape of a project resource. Fields absent from some responses (create) are optional. */
export function projectResourceSchema() {
    return z.object({
        id: z.string(),
        type: z.literal("projects"),
        attributes: z.object({
            name: z.string(),
            description: z.string().nullable().optional(),
            "auto-destroy-activity-duration": z.string().nullable().optional(),
            "workspace-count": z.number().optional(),
            "team-count": z.number().optional(),
            permissions: z
                .object({
                    "can-update": z.boolean().optional(),
                    "can-destroy": z.boolean().optional(),
                    "can-create-workspace": z.boolean().optional(),
                })
                .optional(),
        }),
        relationships: z
            .object({
                organization: toOneRelationshipSchema("organizations").optional(),
            })
            .optional(),
        links: z.object({ self: z.string().optional() }).optional(),
    });
}

/** A project in client terms. */
export interface Project {
    id: string;
    name: string;
    description: string | null;
    /** Only `show` returns it; `undefined` means the response did not say. */
    autoDestroyActivityDuration?: string | null;
    workspaceCount?: number;
    teamCount?: number;
    permissions: { canUpdate?: boolean; canDestroy?: boolean; canCreateWorkspace?: boolean };
    organization?: string;
}

export function projectFromWire(wire: z.output<ReturnType<typeof projectResourceSchema>>): Project {
    const attributes = wire.attributes;
    const project: Project = {
        id: wire.id,
        name: attributes.name,
        description: attributes.description ?? null,
        permissions: {
            canUpdate: attributes.permissions?.["can-update"],
            canDestroy: attributes.permissions?.["can-destroy"],
            canCreateWorkspace: attributes.permissions?.["can-create-workspace"],
        },
    };
    if (attributes["auto-destroy-activity-duration"] !== undefined)
        project.autoDestroyActivityDuration = attributes["auto-destroy-activity-duration"];
    if (attributes["workspace-count"] !== undefined) project.workspaceCount = attributes["workspace-count"];
    if (attributes["team-count"] !== undefined) project.teamCount = attributes["team-count"];
    const organization = wire.relationships?.organization?.data?.id;
    if (organization !== undefined) project.organization = organization;
    return project;
}

/** Wire shape of `GET /organizations/:org/projects`. */
export function projectListDocumentSchema() {
    return z.object({
        data: z.array(projectResourceSchema()),
        links: listLinksSchema(),
        meta: z.object({
            "status-counts": z.object({ total: z.number(), matching: z.number() }).optional(),
            pagination: paginationSchema(),
        }),
    });
}

/** Wire shape of a tag binding (id only in the update response, created-at only in lists). */
export function tagBindingResourceSchema() {
    return z.object({
        id: z.string().optional(),
        type: z.literal("tag-bindings"),
        attributes: z.object({
            key: z.string(),
            value: z.string().nullable().optional(),
            "created-at": z.string().optional(),
        }),
    });
}

/** A tag binding in client terms. */
export interface TagBinding {
    id?: string;
    key: string;
    value: string;
    createdAt?: string;
}

export function tagBindingFromWire(wire: z.output<ReturnType<typeof tagBindingResourceSchema>>): TagBinding {
    const binding: TagBinding = { key: wire.attributes.key, value: wire.attributes.value ?? "" };
    if (wire.id !== undefined) binding.id = wire.id;
    if (wire.attributes["created-at"] !== undefined) binding.createdAt = wire.attributes["created-at"];
    return binding;
}
