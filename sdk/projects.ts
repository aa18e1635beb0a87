/**
 * Projects and their tag bindings (`api.md`, Projects).
 *
 * @module
 */
import {
    listDocumentSchema,
    paginationFromWire,
    projectFromWire,
    projectListDocumentSchema,
    projectResourceSchema,
    singleDocumentSchema,
    tagBindingFromWire,
    tagBindingResourceSchema,
    type Pagination,
    type Project,
    type Tag,
    type TagBinding,
} from "./model";
import { segment, type Query, type Transport } from "./transport";
import { requireId, requireString } from "./errors";

/** Options of {@link Projects.create}. */
export interface ProjectCreateOptions {
    /** 3 to 40 characters; letters, numbers, spaces, `-`, `_`; unique in the organization. */
    name: string;
    description?: string;
    /** Inactivity period before auto-destroy, e.g. `14d` or `12h`. */
    autoDestroyActivityDuration?: string;
    /** Tags bound to the new project (at most 10). */
    tagBindings?: Tag[];
}

/** Options of {@link Projects.update}. Omitted fields stay as they are. */
export interface ProjectUpdateOptions {
    name?: string;
    /** `null` clears the description. */
    description?: string | null;
    /** `null` clears the auto-destroy period. */
    autoDestroyActivityDuration?: string | null;
    /** The project's whole tag set: replaces every binding (`[]` removes them all). */
    tagBindings?: Tag[];
}

/** Options of {@link Projects.list}. */
export interface ProjectListOptions {
    /** 1-based page number; default 1. */
    pageNumber?: number;
    /** Projects per page; default 20, at most 100. */
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
}

/** `links` of a list answer: absolute URLs; `prev`/`next` are `null` at the ends. */
export interface ListLinks {
    self: string;
    first: string;
    prev: string | null;
    next: string | null;
    last: string;
}

/** One page of {@link Projects.list}. */
export interface ProjectList {
    items: Project[];
    pagination: Pagination;
    links: ListLinks;
    /** `total`: projects of the organization the caller sees; `matching`: those the filters kept. */
    statusCounts?: { total: number; matching: number };
}

/** The project endpoints. Reach it as {@link WosClient.projects}. */
export class Projects {
    readonly #transport: Transport;

    /** @internal Built by {@link WosClient}. */
    constructor(transport: Transport) {
        this.#transport = transport;
    }

    /** Creates a project in an organization: `POST /organizations/:organization/projects`. */
    async create(organization: string, options: ProjectCreateOptions): Promise<Project> {
        requireId(organization, "organization", "POST", "/organizations/:organization/projects");
        requireString(options?.name, "options.name", "POST", `/organizations/${organization}/projects`);
        const attributes: Record<string, unknown> = { name: options.name };
        if (options.description !== undefined) attributes.description = options.description;
        if (options.autoDestroyActivityDuration !== undefined)
            attributes["auto-destroy-activity-duration"] = options.autoDestroyActivityDuration;
        const data: Record<string, unknown> = { type: "projects", attributes };
        if (options.tagBindings !== undefined) data.relationships = { "tag-bindings": { data: tagBindingItems(options.tagBindings) } };
        const document = await this.#transport.request({
            method: "POST",
            path: `/organizations/${segment(organization)}/projects`,
            body: { data },
            schema: singleDocumentSchema(projectResourceSchema()),
        });
        return projectFromWire(document.data);
    }

    /** Shows a project: `GET /projects/:project_id`. */
    async read(projectId: string): Promise<Project> {
        requireId(projectId, "projectId", "GET", "/projects/:project_id");
        const document = await this.#transport.request({
            method: "GET",
            path: `/projects/${segment(projectId)}`,
            schema: singleDocumentSchema(projectResourceSchema()),
        });
        return projectFromWire(document.data);
    }

    /** Updates a project; `tagBindings`, when given, replace the whole set: `PATCH /projects/:project_id`. */
    async update(projectId: string, options: ProjectUpdateOptions): Promise<Project> {
        requireId(projectId, "projectId", "PATCH", "/projects/:project_id");
        const attributes: Record<string, unknown> = {};
        if (options.name !== undefined) attributes.name = options.name;
        if (options.description !== undefined) attributes.description = options.description;
        if (options.autoDestroyActivityDuration !== undefined)
            attributes["auto-destroy-activity-duration"] = options.autoDestroyActivityDuration;
        const data: Record<string, unknown> = { type: "projects", id: projectId, attributes };
        if (options.tagBindings !== undefined) data.relationships = { "tag-bindings": { data: tagBindingItems(options.tagBindings) } };
        const document = await this.#transport.request({
            method: "PATCH",
            path: `/projects/${segment(projectId)}`,
            body: { data },
            schema: singleDocumentSchema(projectResourceSchema()),
        });
        return projectFromWire(document.data);
    }

    /** Lists one page of an organization's projects: `GET /organizations/:organization/projects`. */
    async list(organization: string, options: ProjectListOptions = {}): Promise<ProjectList> {
        requireId(organization, "organization", "GET", "/organizations/:organization/projects");
        const query: Query = {
            "page[number]": options.pageNumber,
            "page[size]": options.pageSize,
            q: options.query,
            "filter[names]": options.names,
            "filter[permissions][create-workspace]": options.canCreateWorkspace ? true : undefined,
            "filter[permissions][update]": options.canUpdate ? true : undefined,
            sort: options.sort,
        };
        const document = await this.#transport.request({
            method: "GET",
            path: `/organizations/${segment(organization)}/projects`,
            query,
            schema: projectListDocumentSchema(),
        });
        const list: ProjectList = {
            items: document.data.map(projectFromWire),
            pagination: paginationFromWire(document.meta.pagination),
            links: document.links,
        };
        if (document.meta["status-counts"]) list.statusCounts = document.meta["status-counts"];
        return list;
    }

    /**
     * Every project of an organization, page after page (following `meta.pagination.next-page`):
     * `GET /organizations/:organization/projects`.
     */
    async *listAll(organization: string, options: Omit<ProjectListOptions, "pageNumber"> = {}): AsyncIterableIterator<Project> {
        let pageNumber: number | null = 1;
        while (pageNumber !== null) {
            const page: ProjectList = await this.list(organization, { ...options, pageNumber });
            yield* page.items;
            const next = page.pagination.nextPage;
            // A next page that does not move forward would loop forever; the service never sends one.
            pageNumber = next !== null && next > pageNumber ? next : null;
        }
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
        return this.#readTagBindings(`/projects/${segment(projectId)}/tag-bindings`);
    }

    /** Lists a project's effective tags: `GET /projects/:project_id/effective-tag-bindings`. */
    async listEffectiveTagBindings(projectId: string): Promise<TagBinding[]> {
        requireId(projectId, "projectId", "GET", "/projects/:project_id/effective-tag-bindings");
        return this.#readTagBindings(`/projects/${segment(projectId)}/effective-tag-bindings`);
    }

    /**
     * Adds tags or updates the values of existing keys, never removing any; answers the bindings written,
     * in request order: `PATCH /projects/:project_id/tag-bindings`.
     */
    async addTagBindings(projectId: string, tags: Tag[]): Promise<TagBinding[]> {
        requireId(projectId, "projectId", "PATCH", "/projects/:project_id/tag-bindings");
        const document = await this.#transport.request({
            method: "PATCH",
            path: `/projects/${segment(projectId)}/tag-bindings`,
            body: { data: tagBindingItems(tags) },
            schema: listDocumentSchema(tagBindingResourceSchema()),
        });
        return document.data.map(tagBindingFromWire);
    }

    /**
     * Moves workspaces into a project, all or nothing:
     * `POST /projects/:project_id/relationships/workspaces`.
     */
    async moveWorkspaces(projectId: string, workspaceIds: string[]): Promise<void> {
        requireId(projectId, "projectId", "POST", "/projects/:project_id/relationships/workspaces");
        workspaceIds.forEach((id, index) =>
            requireId(id, `workspaceIds[${index}]`, "POST", "/projects/:project_id/relationships/workspaces"),
        );
        await this.#transport.request({
            method: "POST",
            path: `/projects/${segment(projectId)}/relationships/workspaces`,
            body: { data: workspaceIds.map((id) => ({ type: "workspaces", id })) },
            schema: undefined,
        });
    }

    async #readTagBindings(path: string): Promise<TagBinding[]> {
        const document = await this.#transport.request({
            method: "GET",
            path,
            schema: listDocumentSchema(tagBindingResourceSchema()),
        });
        return document.data.map(tagBindingFromWire);
    }
}

function tagBindingItems(tags: readonly Tag[]) {
    return tags.map((tag) => ({ type: "tag-bindings", attributes: { key: tag.key, value: tag.value } }));
}
