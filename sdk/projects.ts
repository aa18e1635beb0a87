/**
 * Projects and their tag bindings (the API's Projects endpoints).
 *
 * @module
 */
import { z } from "zod";
import {
    autoDestroyActivityDurationRule,
    effectiveTagBindingSchema,
    listDocumentSchema,
    projectDescriptionRule,
    projectListSchema,
    projectNameRule,
    projectSchema,
    singleDocumentSchema,
    tagBindingSchema,
    tagKeyRule,
    tagSetProblems,
    tagValueRule,
    type Project,
    type ProjectList,
    type Tag,
    type TagBinding,
} from "./model";
import { wireAttributes, segment, type Query, type Transport } from "./transport";
import { requireId } from "./errors";
import { everyItem } from "./listPages";
import { taggedOptionRule, taggedQuery } from "./tagFilter";

export type { ProjectList, ListLinks } from "./model";

/**
 * A set of tags as the service takes it: each key and value by the tag rules of `sdk/model`, at most ten,
 * no key twice.
 */
export function tagListSchema() {
    return z
        .array(
            z.object({
                /** {@inheritDoc Tag.key} */
                key: tagKeyRule(),
                /** {@inheritDoc Tag.value} */
                value: tagValueRule(),
            }),
        )
        .superRefine((tags, context) => {
            // Element issues do not stop a refinement: judge the set only once every tag is a tag.
            if (!tags.every((tag) => typeof tag?.key === "string")) return;
            for (const problem of tagSetProblems(tags)) {
                context.addIssue({ code: "custom", message: problem.message, path: problem.index === undefined ? [] : [problem.index, "key"] });
            }
        });
}

// Each options type is an interface that carries the TSDoc of its fields, because a type inferred from a
// zod schema reaches the published `.d.ts` without the comments written inside the schema (no hover docs).
// The schema's fields point at that text with `{@inheritDoc}` (for the API reference), and
// `tests/sdk/schemaTypes.test.ts` proves each interface the very type its schema takes (`z.input`).

/** What {@link Projects.create} takes: the rules of `sdk/model`, checked before the request. */
export function projectCreateOptionsSchema() {
    return z.object({
        /** {@inheritDoc ProjectCreateOptions.name} */
        name: projectNameRule(),
        /** {@inheritDoc ProjectCreateOptions.description} */
        description: projectDescriptionRule().optional(),
        /** {@inheritDoc ProjectCreateOptions.autoDestroyActivityDuration} */
        autoDestroyActivityDuration: autoDestroyActivityDurationRule().optional(),
        /** {@inheritDoc ProjectCreateOptions.tagBindings} */
        tagBindings: tagListSchema().optional(),
    });
}

/** Options of {@link Projects.create}, checked by {@link projectCreateOptionsSchema} before the request. */
export interface ProjectCreateOptions {
    /** 3 to 40 characters; letters, numbers, spaces, `-`, `_`; unique in the organization. */
    name: string;
    /** At most 256 characters. */
    description?: string;
    /** Inactivity period before auto-destroy, e.g. `14d` or `12h`. */
    autoDestroyActivityDuration?: string;
    /** Tags bound to the new project (at most 10). */
    tagBindings?: Tag[];
}

/** What {@link Projects.update} takes. Omitted fields stay as they are. */
export function projectUpdateOptionsSchema() {
    return z.object({
        /** {@inheritDoc ProjectUpdateOptions.name} */
        name: projectNameRule().optional(),
        /** {@inheritDoc ProjectUpdateOptions.description} */
        description: projectDescriptionRule().nullable().optional(),
        /** {@inheritDoc ProjectUpdateOptions.autoDestroyActivityDuration} */
        autoDestroyActivityDuration: autoDestroyActivityDurationRule().nullable().optional(),
        /** {@inheritDoc ProjectUpdateOptions.tagBindings} */
        tagBindings: tagListSchema().optional(),
    });
}

/**
 * Options of {@link Projects.update}, checked by {@link projectUpdateOptionsSchema} before the request.
 * Omitted fields stay as they are.
 */
export interface ProjectUpdateOptions {
    /** A new name: 3 to 40 characters; letters, numbers, spaces, `-`, `_`; unique in the organization. */
    name?: string;
    /** At most 256 characters; `null` clears the description. */
    description?: string | null;
    /** Inactivity period before auto-destroy, e.g. `14d` or `12h`; `null` clears it. */
    autoDestroyActivityDuration?: string | null;
    /** The project's whole tag set: replaces every binding (`[]` removes them all). */
    tagBindings?: Tag[];
}

/** What {@link Projects.list} takes. */
export function projectListOptionsSchema() {
    return z.object({
        /** {@inheritDoc ProjectListOptions.pageNumber} */
        pageNumber: z.number().int().min(1, { error: "must be a whole number of at least 1" }).optional(),
        /** {@inheritDoc ProjectListOptions.pageSize} */
        pageSize: z.number().int().min(1, { error: "must be a whole number of at least 1" }).optional(),
        /** {@inheritDoc ProjectListOptions.query} */
        query: z.string().optional(),
        /** {@inheritDoc ProjectListOptions.names} */
        names: z.array(z.string()).optional(),
        /** {@inheritDoc ProjectListOptions.canCreateWorkspace} */
        canCreateWorkspace: z.literal(true).optional(),
        /** {@inheritDoc ProjectListOptions.canUpdate} */
        canUpdate: z.literal(true).optional(),
        /** {@inheritDoc ProjectListOptions.sort} */
        sort: z.enum(["name", "-name"]).optional(),
        /** {@inheritDoc ProjectListOptions.tagged} */
        tagged: taggedOptionRule().optional(),
    });
}

/** Options of {@link Projects.list}, checked by {@link projectListOptionsSchema} before the request. */
export interface ProjectListOptions {
    /** 1-based page number; default 1. */
    pageNumber?: number;
    /** Projects per page; default 20; the service answers at most 100. */
    pageSize?: number;
    /** Case-insensitive search by name; ignored when {@link ProjectListOptions.names} is given. */
    query?: string;
    /** Case-insensitive exact names; a project matching any of them is listed. */
    names?: string[];
    /** Only projects where the caller can create workspaces. */
    canCreateWorkspace?: true;
    /** Only projects the caller can update. */
    canUpdate?: true;
    /** `name` ascending or `-name` descending; default creation order. */
    sort?: "name" | "-name";
    /** Only projects bound to every one of these tags (key to value; `""` matches any value of the key). */
    tagged?: Record<string, string>;
}

// Built once: the module is loaded once per process and a schema is immutable, while building one (and zod's
// first parse of it, which compiles it) costs far more than a request to the local service.
const CREATE_OPTIONS = projectCreateOptionsSchema();
const UPDATE_OPTIONS = projectUpdateOptionsSchema();
const LIST_OPTIONS = projectListOptionsSchema();
const TAG_LIST = tagListSchema();
const WORKSPACE_IDS = workspaceIdsSchema();
const PROJECT_DOCUMENT = singleDocumentSchema(projectSchema());
const PROJECT_LIST = projectListSchema();
const TAG_BINDING_LIST = listDocumentSchema(tagBindingSchema());
// The effective lists answer items of type `effective-tag-bindings`, as on the hosted service.
const EFFECTIVE_TAG_BINDING_LIST = listDocumentSchema(effectiveTagBindingSchema());

/** Wire names of the project attributes an option sets. */
const PROJECT_ATTRIBUTES = {
    name: "name",
    description: "description",
    autoDestroyActivityDuration: "auto-destroy-activity-duration",
} as const;

/** The project endpoints. Reach it as {@link WosClient.projects}. */
export class Projects {
    readonly #transport: Transport;

    /** @internal Built by {@link WosClient}. */
    constructor(transport: Transport) {
        this.#transport = transport;
    }

    /** Creates a project in an organization: `POST /organizations/:organization/projects`. */
    async create(organization: string, options: ProjectCreateOptions): Promise<Project> {
        const endpoint = "/organizations/:organization/projects";
        requireId(organization, "organization", "POST", endpoint);
        const valid = this.#transport.validate(CREATE_OPTIONS, options, "POST", endpoint);
        const document = await this.#transport.request({
            method: "POST",
            path: `/organizations/${segment(organization)}/projects`,
            body: { data: projectData(valid) },
            schema: PROJECT_DOCUMENT,
        });
        return document.data;
    }

    /** Shows a project: `GET /projects/:project_id`. */
    async read(projectId: string): Promise<Project> {
        requireId(projectId, "projectId", "GET", "/projects/:project_id");
        const document = await this.#transport.request({
            method: "GET",
            path: `/projects/${segment(projectId)}`,
            schema: PROJECT_DOCUMENT,
        });
        return document.data;
    }

    /** Updates a project; `tagBindings`, when given, replace the whole set: `PATCH /projects/:project_id`. */
    async update(projectId: string, options: ProjectUpdateOptions): Promise<Project> {
        const endpoint = "/projects/:project_id";
        requireId(projectId, "projectId", "PATCH", endpoint);
        const valid = this.#transport.validate(UPDATE_OPTIONS, options, "PATCH", endpoint);
        const document = await this.#transport.request({
            method: "PATCH",
            path: `/projects/${segment(projectId)}`,
            body: { data: { id: projectId, ...projectData(valid) } },
            schema: PROJECT_DOCUMENT,
        });
        return document.data;
    }

    /** Lists one page of an organization's projects: `GET /organizations/:organization/projects`. */
    async list(organization: string, options: ProjectListOptions = {}): Promise<ProjectList> {
        const endpoint = "/organizations/:organization/projects";
        requireId(organization, "organization", "GET", endpoint);
        const valid = this.#transport.validate(LIST_OPTIONS, options, "GET", endpoint);
        const query: Query = {
            "page[number]": valid.pageNumber,
            "page[size]": valid.pageSize,
            q: valid.query,
            "filter[names]": valid.names,
            "filter[permissions][create-workspace]": valid.canCreateWorkspace,
            "filter[permissions][update]": valid.canUpdate,
            sort: valid.sort,
            ...taggedQuery(valid.tagged),
        };
        return this.#transport.request({
            method: "GET",
            path: `/organizations/${segment(organization)}/projects`,
            query,
            schema: PROJECT_LIST,
        });
    }

    /**
     * Every project of an organization, page after page (following `meta.pagination.next-page`):
     * `GET /organizations/:organization/projects`.
     */
    async *listAll(organization: string, options: Omit<ProjectListOptions, "pageNumber"> = {}): AsyncIterableIterator<Project> {
        yield* everyItem((pageNumber) => this.list(organization, { ...options, pageNumber }));
    }

    /** Deletes a project (409 while it has workspaces): `DELETE /projects/:project_id`. */
    async delete(projectId: string): Promise<void> {
        requireId(projectId, "projectId", "DELETE", "/projects/:project_id");
        await this.#transport.request({
            method: "DELETE",
            path: `/projects/${segment(projectId)}`,
            schema: undefined,
            notFoundAfterRetryIsSuccess: true,
        });
    }

    /** Lists the tags bound to a project: `GET /projects/:project_id/tag-bindings`. */
    async listTagBindings(projectId: string): Promise<TagBinding[]> {
        requireId(projectId, "projectId", "GET", "/projects/:project_id/tag-bindings");
        return this.#readTagBindings(`/projects/${segment(projectId)}/tag-bindings`, TAG_BINDING_LIST);
    }

    /** Lists a project's effective tags: `GET /projects/:project_id/effective-tag-bindings`. */
    async listEffectiveTagBindings(projectId: string): Promise<TagBinding[]> {
        requireId(projectId, "projectId", "GET", "/projects/:project_id/effective-tag-bindings");
        return this.#readTagBindings(`/projects/${segment(projectId)}/effective-tag-bindings`, EFFECTIVE_TAG_BINDING_LIST);
    }

    /**
     * Adds tags or updates the values of existing keys, never removing any; answers the bindings written,
     * in request order: `PATCH /projects/:project_id/tag-bindings`.
     */
    async addTagBindings(projectId: string, tags: Tag[]): Promise<TagBinding[]> {
        const endpoint = "/projects/:project_id/tag-bindings";
        requireId(projectId, "projectId", "PATCH", endpoint);
        const valid = this.#transport.validate(TAG_LIST, tags, "PATCH", endpoint, "tags");
        const document = await this.#transport.request({
            method: "PATCH",
            path: `/projects/${segment(projectId)}/tag-bindings`,
            body: { data: tagBindingItems(valid) },
            schema: TAG_BINDING_LIST,
        });
        return document.data;
    }

    /**
     * Moves workspaces into a project, all or nothing:
     * `POST /projects/:project_id/relationships/workspaces`.
     */
    async moveWorkspaces(projectId: string, workspaceIds: string[]): Promise<void> {
        const endpoint = "/projects/:project_id/relationships/workspaces";
        requireId(projectId, "projectId", "POST", endpoint);
        const ids = this.#transport.validate(WORKSPACE_IDS, workspaceIds, "POST", endpoint, "workspaceIds");
        await this.#transport.request({
            method: "POST",
            path: `/projects/${segment(projectId)}/relationships/workspaces`,
            body: { data: ids.map((id) => ({ type: "workspaces", id })) },
            schema: undefined,
        });
    }

    async #readTagBindings(path: string, schema: typeof TAG_BINDING_LIST | typeof EFFECTIVE_TAG_BINDING_LIST): Promise<TagBinding[]> {
        const document = await this.#transport.request({ method: "GET", path, schema });
        return document.data;
    }
}

/** Workspace ids to move: each a non-empty string. */
function workspaceIdsSchema() {
    return z.array(z.string().refine((id) => id.trim() !== "", { error: "must be a non-empty workspace id" }));
}

/** `data` of a project create or update: the attributes given, and the tag set when given. */
function projectData(options: z.output<typeof UPDATE_OPTIONS>) {
    const data: Record<string, unknown> = { type: "projects", attributes: wireAttributes(options, PROJECT_ATTRIBUTES) };
    if (options.tagBindings !== undefined) data.relationships = { "tag-bindings": { data: tagBindingItems(options.tagBindings) } };
    return data;
}

function tagBindingItems(tags: readonly Tag[]) {
    return tags.map((tag) => ({ type: "tag-bindings", attributes: { key: tag.key, value: tag.value } }));
}
