/**
 * Workspaces: the create and the list of an organization's workspaces, the `GET`, `PATCH` and `DELETE
 * /workspaces/:id` endpoints and the show-by-name that the hosted service offers beyond the service's API,
 * and a workspace's effective tags.
 *
 * @module
 */
import { z } from "zod";
import {
    booleanRule,
    checkAgentPool,
    executionModeRule,
    listDocumentSchema,
    singleDocumentSchema,
    effectiveTagBindingSchema,
    workspaceDescriptionRule,
    workspaceListSchema,
    workspaceNameRule,
    workspaceSchema,
    workspaceSourceNameRule,
    workspaceSourceUrlRule,
    type ExecutionMode,
    type TagBinding,
    type Workspace,
    type WorkspaceList,
} from "./model";
import { segment, wireAttributes, type Query, type Transport } from "./transport";
import { requireId } from "./errors";
import { everyItem } from "./listPages";
import { idOptionRule } from "./optionRules";
import { taggedOptionRule, taggedQuery } from "./tagFilter";

export type { WorkspaceList } from "./model";

// The TSDoc of each field is on the options interface, the schema's fields inherit it, and a type-level test
// proves the two the same type (see `sdk/projects.ts`).

/**
 * The fields of {@link workspaceCreateOptionsSchema}, which a workspace made from a no-code module takes too.
 *
 * @internal shared with `sdk/noCodeModules.ts`.
 */
export function workspaceCreateOptionsShape() {
    return {
        /** {@inheritDoc WorkspaceCreateOptions.name} */
        name: workspaceNameRule(),
        /** {@inheritDoc WorkspaceCreateOptions.projectId} */
        projectId: idOptionRule("a project id").optional(),
        /** {@inheritDoc WorkspaceCreateOptions.description} */
        description: workspaceDescriptionRule().optional(),
        /** {@inheritDoc WorkspaceCreateOptions.autoApply} */
        autoApply: booleanRule().optional(),
        /** {@inheritDoc WorkspaceCreateOptions.executionMode} */
        executionMode: executionModeRule().optional(),
        /** {@inheritDoc WorkspaceCreateOptions.agentPoolId} */
        agentPoolId: idOptionRule("an agent pool id").optional(),
        /** {@inheritDoc WorkspaceCreateOptions.sourceName} */
        sourceName: workspaceSourceNameRule().optional(),
        /** {@inheritDoc WorkspaceCreateOptions.sourceUrl} */
        sourceUrl: workspaceSourceUrlRule().optional(),
    };
}

/** What {@link Workspaces.create} takes: the rules of `sdk/model`, checked before the request. */
export function workspaceCreateOptionsSchema() {
    return z.object(workspaceCreateOptionsShape()).superRefine(checkAgentPool);
}

/** Options of {@link Workspaces.create}, checked by {@link workspaceCreateOptionsSchema} before the request. */
export interface WorkspaceCreateOptions {
    /** 1 to 90 characters; letters, numbers, `-`, `_`; unique in the organization. */
    name: string;
    /**
     * The project to create it in (`prj-...`); the caller must be allowed to create workspaces there.
     * Default: the organization's `Default Project`.
     */
    projectId?: string;
    /** At most 256 characters. */
    description?: string;
    /** Apply automatically after a successful plan; default false. */
    autoApply?: boolean;
    /** Default `remote`; `agent` needs {@link WorkspaceCreateOptions.agentPoolId}. */
    executionMode?: ExecutionMode;
    /** Only with `executionMode: "agent"`: an agent pool of the organization (`apool-...`). */
    agentPoolId?: string;
    /** The application shown as having created the workspace (at most 256 characters). */
    sourceName?: string;
    /** A URL of that application. */
    sourceUrl?: string;
}

/** What {@link Workspaces.list} takes. */
export function workspaceListOptionsSchema() {
    return z.object({
        /** {@inheritDoc WorkspaceListOptions.pageNumber} */
        pageNumber: z.number().int().min(1, { error: "must be a whole number of at least 1" }).optional(),
        /** {@inheritDoc WorkspaceListOptions.pageSize} */
        pageSize: z.number().int().min(1, { error: "must be a whole number of at least 1" }).optional(),
        /** {@inheritDoc WorkspaceListOptions.search} */
        search: z.string({ error: "must be a string" }).optional(),
        /** {@inheritDoc WorkspaceListOptions.projectId} */
        projectId: idOptionRule("a project id").optional(),
        /** {@inheritDoc WorkspaceListOptions.sort} */
        sort: z.enum(["name", "-name"], { error: "must be 'name' or '-name'" }).optional(),
        /** {@inheritDoc WorkspaceListOptions.tagged} */
        tagged: taggedOptionRule().optional(),
        /** {@inheritDoc WorkspaceListOptions.noCodeModuleId} */
        noCodeModuleId: idOptionRule("a no-code module id").optional(),
    });
}

/** Options of {@link Workspaces.list}, checked by {@link workspaceListOptionsSchema} before the request. */
export interface WorkspaceListOptions {
    /** 1-based page number; default 1. */
    pageNumber?: number;
    /** Workspaces per page; default 20; the service answers at most 100. */
    pageSize?: number;
    /** Only workspaces whose name holds this text, in any case (`search[name]`). */
    search?: string;
    /** Only the workspaces of this project (`filter[project][id]`). */
    projectId?: string;
    /** `name` ascending or `-name` descending; default creation order. */
    sort?: "name" | "-name";
    /** Only workspaces of projects bound to every one of these tags (key to value; `""` matches any value of the key). */
    tagged?: Record<string, string>;
    /** Only the workspaces made from this no-code module, on any of its versions (`filter[no-code-module][id]`, the local service's). */
    noCodeModuleId?: string;
}

/** What {@link Workspaces.update} takes: the rules of `sdk/model`, checked before the request. Omitted fields stay as they are. */
export function workspaceUpdateOptionsSchema() {
    return z.object({
        /** {@inheritDoc WorkspaceUpdateOptions.name} */
        name: workspaceNameRule().optional(),
        /** {@inheritDoc WorkspaceUpdateOptions.description} */
        description: workspaceDescriptionRule().nullable().optional(),
        /** {@inheritDoc WorkspaceUpdateOptions.autoApply} */
        autoApply: booleanRule().optional(),
        /** {@inheritDoc WorkspaceUpdateOptions.executionMode} */
        executionMode: executionModeRule().optional(),
        /** {@inheritDoc WorkspaceUpdateOptions.agentPoolId} */
        agentPoolId: z.string({ error: "must be an agent pool id" }).nullable().optional(),
        /** {@inheritDoc WorkspaceUpdateOptions.sourceName} */
        sourceName: workspaceSourceNameRule().nullable().optional(),
        /** {@inheritDoc WorkspaceUpdateOptions.sourceUrl} */
        sourceUrl: workspaceSourceUrlRule().nullable().optional(),
    });
}

/**
 * Options of {@link Workspaces.update}, checked by {@link workspaceUpdateOptionsSchema} before the request.
 * Omitted fields stay as they are.
 */
export interface WorkspaceUpdateOptions {
    /** A new name: 1 to 90 characters; letters, numbers, `-`, `_`; unique in the organization. */
    name?: string;
    /** At most 256 characters; `null` clears the description. */
    description?: string | null;
    /** Apply automatically after a successful plan. */
    autoApply?: boolean;
    /** `agent` needs {@link WorkspaceUpdateOptions.agentPoolId}; `remote` forbids it. */
    executionMode?: ExecutionMode;
    /** An agent pool of the organization (`apool-...`) for `agent`; `null` with `remote`. */
    agentPoolId?: string | null;
    /** The application shown as having created the workspace (at most 256 characters); `null` clears it. */
    sourceName?: string | null;
    /** A URL of that application; `null` clears it. */
    sourceUrl?: string | null;
}

// Built once: the module is loaded once per process and a schema is immutable (see `sdk/projects.ts`).
const UPDATE_OPTIONS = workspaceUpdateOptionsSchema();
const CREATE_OPTIONS = workspaceCreateOptionsSchema();
const LIST_OPTIONS = workspaceListOptionsSchema();
const WORKSPACE_DOCUMENT = singleDocumentSchema(workspaceSchema());
const WORKSPACE_LIST = workspaceListSchema();
// Items of type `effective-tag-bindings`, as on the hosted service.
const EFFECTIVE_TAG_BINDING_LIST = listDocumentSchema(effectiveTagBindingSchema());

/** Wire names of the workspace attributes an option sets. */
const WORKSPACE_ATTRIBUTES = {
    name: "name",
    description: "description",
    autoApply: "auto-apply",
    executionMode: "execution-mode",
    agentPoolId: "agent-pool-id",
    sourceName: "source-name",
    sourceUrl: "source-url",
} as const;

/** The workspace endpoints. Reach it as {@link WosClient.workspaces}. */
export class Workspaces {
    readonly #transport: Transport;

    /** @internal Built by {@link WosClient}. */
    constructor(transport: Transport) {
        this.#transport = transport;
    }

    /**
     * Creates a workspace in an organization, in the project given or the organization's `Default Project`:
     * `POST /organizations/:organization/workspaces`. A creating `POST`: never repeated after a 5xx or a
     * dropped connection (look it up with {@link Workspaces.readByName} instead).
     */
    async create(organization: string, options: WorkspaceCreateOptions): Promise<Workspace> {
        const endpoint = "/organizations/:organization/workspaces";
        requireId(organization, "organization", "POST", endpoint);
        const valid = this.#transport.validate(CREATE_OPTIONS, options, "POST", endpoint);
        const data: Record<string, unknown> = { type: "workspaces", attributes: wireAttributes(valid, WORKSPACE_ATTRIBUTES) };
        if (valid.projectId !== undefined) data.relationships = { project: { data: { type: "projects", id: valid.projectId } } };
        const document = await this.#transport.request({
            method: "POST",
            path: `/organizations/${segment(organization)}/workspaces`,
            body: { data },
            schema: WORKSPACE_DOCUMENT,
        });
        return document.data;
    }

    /** Lists one page of an organization's workspaces the caller can read: `GET /organizations/:organization/workspaces`. */
    async list(organization: string, options: WorkspaceListOptions = {}): Promise<WorkspaceList> {
        const endpoint = "/organizations/:organization/workspaces";
        requireId(organization, "organization", "GET", endpoint);
        const valid = this.#transport.validate(LIST_OPTIONS, options, "GET", endpoint);
        const query: Query = {
            "page[number]": valid.pageNumber,
            "page[size]": valid.pageSize,
            "search[name]": valid.search,
            "filter[project][id]": valid.projectId,
            "filter[no-code-module][id]": valid.noCodeModuleId,
            sort: valid.sort,
            ...taggedQuery(valid.tagged),
        };
        return this.#transport.request({
            method: "GET",
            path: `/organizations/${segment(organization)}/workspaces`,
            query,
            schema: WORKSPACE_LIST,
        });
    }

    /**
     * Every workspace of an organization the caller can read, page after page (following
     * `meta.pagination.next-page`): `GET /organizations/:organization/workspaces`.
     */
    async *listAll(organization: string, options: Omit<WorkspaceListOptions, "pageNumber"> = {}): AsyncIterableIterator<Workspace> {
        yield* everyItem((pageNumber) => this.list(organization, { ...options, pageNumber }));
    }

    /** Shows a workspace: `GET /workspaces/:workspace_id`. */
    async read(workspaceId: string): Promise<Workspace> {
        requireId(workspaceId, "workspaceId", "GET", "/workspaces/:workspace_id");
        const document = await this.#transport.request({
            method: "GET",
            path: `/workspaces/${segment(workspaceId)}`,
            schema: WORKSPACE_DOCUMENT,
        });
        return document.data;
    }

    /**
     * Shows a workspace by its organization and name (how a create whose answer was lost is found again):
     * `GET /organizations/:organization/workspaces/:name`.
     */
    async readByName(organization: string, name: string): Promise<Workspace> {
        const endpoint = "/organizations/:organization/workspaces/:name";
        requireId(organization, "organization", "GET", endpoint);
        requireId(name, "name", "GET", endpoint);
        const document = await this.#transport.request({
            method: "GET",
            path: `/organizations/${segment(organization)}/workspaces/${segment(name)}`,
            schema: WORKSPACE_DOCUMENT,
        });
        return document.data;
    }

    /** Updates a workspace's name, description, auto-apply, execution and source settings: `PATCH /workspaces/:workspace_id`. */
    async update(workspaceId: string, options: WorkspaceUpdateOptions): Promise<Workspace> {
        requireId(workspaceId, "workspaceId", "PATCH", "/workspaces/:workspace_id");
        const valid = this.#transport.validate(UPDATE_OPTIONS, options, "PATCH", "/workspaces/:workspace_id");
        const document = await this.#transport.request({
            method: "PATCH",
            path: `/workspaces/${segment(workspaceId)}`,
            body: { data: { type: "workspaces", id: workspaceId, attributes: wireAttributes(valid, WORKSPACE_ATTRIBUTES) } },
            schema: WORKSPACE_DOCUMENT,
        });
        return document.data;
    }

    /** Deletes a workspace: `DELETE /workspaces/:workspace_id`. */
    async delete(workspaceId: string): Promise<void> {
        requireId(workspaceId, "workspaceId", "DELETE", "/workspaces/:workspace_id");
        await this.#transport.request({
            method: "DELETE",
            path: `/workspaces/${segment(workspaceId)}`,
            schema: undefined,
            notFoundAfterRetryIsSuccess: true,
        });
    }

    /** Lists the tags a workspace inherits from its project: `GET /workspaces/:workspace_id/effective-tag-bindings`. */
    async listEffectiveTagBindings(workspaceId: string): Promise<TagBinding[]> {
        requireId(workspaceId, "workspaceId", "GET", "/workspaces/:workspace_id/effective-tag-bindings");
        const document = await this.#transport.request({
            method: "GET",
            path: `/workspaces/${segment(workspaceId)}/effective-tag-bindings`,
            schema: EFFECTIVE_TAG_BINDING_LIST,
        });
        return document.data;
    }
}
