/**
 * Workspaces: the `GET`, `PATCH` and `DELETE /workspaces/:id` endpoints and the show-by-name the hosted
 * service offers beside `api.md`, and a workspace's effective tags.
 *
 * @module
 */
import { z } from "zod";
import {
    booleanRule,
    executionModeRule,
    listDocumentSchema,
    singleDocumentSchema,
    effectiveTagBindingSchema,
    workspaceDescriptionRule,
    workspaceNameRule,
    workspaceSchema,
    workspaceSourceNameRule,
    workspaceSourceUrlRule,
    type TagBinding,
    type Workspace,
} from "./model";
import { segment, wireAttributes, type Transport } from "./transport";
import { requireId } from "./errors";

/** What {@link Workspaces.update} takes: the rules of `sdk/model`, checked before the request. Omitted fields stay as they are. */
export function workspaceUpdateOptionsSchema() {
    return z.object({
        /** 1 to 90 characters; letters, numbers, `-`, `_`; unique in the organization. */
        name: workspaceNameRule().optional(),
        /** At most 256 characters; `null` clears the description. */
        description: workspaceDescriptionRule().nullable().optional(),
        autoApply: booleanRule().optional(),
        /** `agent` needs {@link WorkspaceUpdateOptions.agentPoolId}; `remote` forbids it. */
        executionMode: executionModeRule().optional(),
        agentPoolId: z.string({ error: "must be an agent pool id" }).nullable().optional(),
        sourceName: workspaceSourceNameRule().nullable().optional(),
        sourceUrl: workspaceSourceUrlRule().nullable().optional(),
    });
}

/** Options of {@link Workspaces.update}, inferred from {@link workspaceUpdateOptionsSchema}. */
export type WorkspaceUpdateOptions = z.input<ReturnType<typeof workspaceUpdateOptionsSchema>>;

// Built once: the module is loaded once per process and a schema is immutable (see `sdk/projects.ts`).
const UPDATE_OPTIONS = workspaceUpdateOptionsSchema();
const WORKSPACE_DOCUMENT = singleDocumentSchema(workspaceSchema());
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
