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
import { countedListDocumentSchema, countedPageFromWire, statusCountsSchema, toOneRelationshipSchema, type CountedPage } from "./jsonapi";

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

/**
 * The hosted service's project attributes that a project here does not hold, accepted when they say what a
 * project here is and refused (422) otherwise, so that none is dropped in silence: a project here has no
 * default execution mode or agent pool of its own (each workspace sets its own, remote unless told), so
 * `default-execution-mode` may only be `remote` (pytfe sends it on every create and update),
 * `default-agent-pool-id` only `null`, and `setting-overwrites` only says `false` (nothing overwritten).
 */
function projectHostedDefaults() {
    const noOverwrite = (what: string) =>
        z.literal(false, { error: `must be false: a project here has no ${what} of its own to overwrite the organization's with` }).optional();
    return {
        "default-execution-mode": z
            .literal("remote", {
                error: "must be 'remote' on this service: a project here has no default execution mode of its own (each workspace sets its execution mode)",
            })
            .optional(),
        "default-agent-pool-id": z
            .null({ error: "must be null on this service: a project here has no default agent pool (each agent workspace names its pool)" })
            .optional(),
        "setting-overwrites": z
            .object(
                { "default-execution-mode": noOverwrite("default execution mode"), "default-agent-pool": noOverwrite("default agent pool") },
                { error: "must be an object of booleans 'default-execution-mode' and 'default-agent-pool'" },
            )
            .optional(),
    };
}

/**
 * Body of `POST /organizations/:org/projects`. Every attribute of the hosted service's project create is
 * read: applied, or judged by {@link projectHostedDefaults}. Members no hosted create has are ignored, as
 * the hosted service ignores them.
 */
export function createProjectRequestSchema() {
    return z.object({
        data: z.object({
            type: z.literal("projects", { error: "must be 'projects'" }),
            attributes: z
                .object(
                    {
                        name: projectNameRule(),
                        description: projectDescriptionRule().nullable().optional(),
                        "auto-destroy-activity-duration": autoDestroyActivityDurationRule().nullable().optional(),
                        ...projectHostedDefaults(),
                    },
                    { error: "must be an object with at least a name" },
                ),
            relationships: z.object({ "tag-bindings": tagBindingsRelationshipSchema().optional() }).optional(),
        }),
    });
}

/**
 * Body of `PATCH /projects/:id`: every attribute optional; tag-bindings, when present, replace the set.
 * Like {@link createProjectRequestSchema}, every hosted attribute is read, and others are ignored.
 */
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
                    ...projectHostedDefaults(),
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
                // An empty id gets the same words: a schema's `error` also words its checks (zod 4).
                id: z.string({ error: "must be a workspace id" }).min(1),
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
                organization: toOneRelationshipSchema().optional(),
            })
            .optional(),
        // `links` is not read: a project is always addressed by its id.
    });
}

/**
 * A project resource parsed into client terms ({@link Project}): the schema the client parses every project
 * answer with, so the type and the parser cannot drift apart.
 */
export function projectSchema() {
    return projectResourceSchema().transform(projectFromWire);
}

// Each type the client answers is an interface that carries the TSDoc of its fields, which a type inferred
// from the parsing function would not carry into the published `.d.ts` (see `jsonapi.ts`).

/** A project in client terms: what `projectSchema` makes of a project resource. */
export interface Project {
    /** `prj-...` */
    id: string;
    /** The project's name, unique in its organization (case-insensitive). */
    name: string;
    /** The description; `null` when none is set. */
    description: string | null;
    /** The caller's own permissions on the project; each one only where the answer carries it. */
    permissions: {
        /** Whether the caller may update the project and its tag bindings. */
        canUpdate?: boolean;
        /** Whether the caller may delete the project. */
        canDestroy?: boolean;
        /** Whether the caller may create workspaces in the project. */
        canCreateWorkspace?: boolean;
    };
    /**
     * Inactivity after which the project's workspaces are destroyed (`14d`, `12h`). Only `show` returns it;
     * absent means the answer did not say, `null` that none is set.
     */
    autoDestroyActivityDuration?: string | null;
    /** How many workspaces the project holds. Returned by update, list and show. */
    workspaceCount?: number;
    /** How many teams have access to the project. Returned by update, list and show. */
    teamCount?: number;
    /** The organization's name. */
    organization?: string;
}

/**
 * {@link Project} from the wire shape of {@link projectResourceSchema}. Attributes that only some answers
 * carry are left out (not `undefined`) when the answer did not carry them.
 */
export function projectFromWire(wire: z.output<ReturnType<typeof projectResourceSchema>>) {
    const attributes = wire.attributes;
    const duration = attributes["auto-destroy-activity-duration"];
    const workspaceCount = attributes["workspace-count"];
    const teamCount = attributes["team-count"];
    const organization = wire.relationships?.organization?.data?.id;
    const permissions = attributes.permissions ?? {};
    return {
        id: wire.id,
        name: attributes.name,
        description: attributes.description ?? null,
        permissions: {
            ...(permissions["can-update"] !== undefined && { canUpdate: permissions["can-update"] }),
            ...(permissions["can-destroy"] !== undefined && { canDestroy: permissions["can-destroy"] }),
            ...(permissions["can-create-workspace"] !== undefined && { canCreateWorkspace: permissions["can-create-workspace"] }),
        },
        ...(duration !== undefined && { autoDestroyActivityDuration: duration }),
        ...(workspaceCount !== undefined && { workspaceCount }),
        ...(teamCount !== undefined && { teamCount }),
        ...(organization !== undefined && { organization }),
    };
}

/** Wire shape of `GET /organizations/:org/projects`. */
export function projectListDocumentSchema() {
    return countedListDocumentSchema(projectResourceSchema(), statusCountsSchema());
}

/** One page of the project list parsed into client terms ({@link ProjectList}). */
export function projectListSchema() {
    return projectListDocumentSchema().transform((document) => countedPageFromWire(document, projectFromWire));
}

/** One page of projects: what `projectListSchema` makes of a list answer. */
export interface ProjectList extends CountedPage<Project> {}

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

/** A tag binding parsed into client terms ({@link TagBinding}). */
export function tagBindingSchema() {
    return tagBindingResourceSchema().transform(tagBindingFromWire);
}

/**
 * Wire shape of an item of `GET /projects/:id/effective-tag-bindings` and `GET
 * /workspaces/:id/effective-tag-bindings`: a tag binding under the hosted service's type
 * `effective-tag-bindings`. An inherited one (a workspace's) also says where it comes from, both ways the
 * hosted service does: the relationship `inherited-from` and the link of that name; the client drops both.
 */
export function effectiveTagBindingResourceSchema() {
    return tagBindingResourceSchema().extend({
        type: z.literal("effective-tag-bindings"),
        relationships: z.object({ "inherited-from": toOneRelationshipSchema().optional() }).optional(),
        links: z.object({ "inherited-from": z.string().optional() }).optional(),
    });
}

/** An effective tag binding parsed into client terms: a {@link TagBinding} like any other. */
export function effectiveTagBindingSchema() {
    return effectiveTagBindingResourceSchema().transform(tagBindingFromWire);
}

/** A tag binding in client terms: what `tagBindingSchema` makes of a tag-binding resource. */
export interface TagBinding {
    /** `tb-...`; only the answer of `PATCH /projects/:id/tag-bindings` carries it. */
    id?: string;
    /** The tag's key. */
    key: string;
    /** The tag's value; `""` when it has none. */
    value: string;
    /** When the binding was made, ISO 8601; only the list answers carry it. */
    createdAt?: string;
}

/**
 * {@link TagBinding} from the wire shape of {@link tagBindingResourceSchema} (or of
 * {@link effectiveTagBindingResourceSchema}: the type aside, the same); a missing value reads as `""`.
 */
export function tagBindingFromWire(wire: Omit<z.output<ReturnType<typeof tagBindingResourceSchema>>, "type">) {
    const createdAt = wire.attributes["created-at"];
    return {
        ...(wire.id !== undefined && { id: wire.id }),
        key: wire.attributes.key,
        value: wire.attributes.value ?? "",
        ...(createdAt !== undefined && { createdAt }),
    };
}
