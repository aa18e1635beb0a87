/**
 * Workspaces: the `GET`, `PATCH` and `DELETE /workspaces/:id` endpoints the hosted service offers beside
 * `api.md`, and a workspace's effective tags.
 *
 * @module
 */
import {
    listDocumentSchema,
    singleDocumentSchema,
    tagBindingFromWire,
    tagBindingResourceSchema,
    workspaceFromWire,
    workspaceResourceSchema,
    type ExecutionMode,
    type TagBinding,
    type Workspace,
} from "./model";
import { segment, type Transport } from "./transport";
import { requireId } from "./errors";

/** Options of {@link Workspaces.update}. Omitted fields stay as they are. */
export interface WorkspaceUpdateOptions {
    /** 1 to 90 characters; letters, numbers, `-`, `_`; unique in the organization. */
    name?: string;
    /** `null` clears the description. */
    description?: string | null;
    autoApply?: boolean;
    /** `agent` needs {@link WorkspaceUpdateOptions.agentPoolId}; `remote` forbids it. */
    executionMode?: ExecutionMode;
    agentPoolId?: string | null;
    sourceName?: string | null;
    sourceUrl?: string | null;
}

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
            schema: singleDocumentSchema(workspaceResourceSchema()),
        });
        return workspaceFromWire(document.data);
    }

    /** Updates a workspace's name, description, auto-apply, execution and source settings: `PATCH /workspaces/:workspace_id`. */
    async update(workspaceId: string, options: WorkspaceUpdateOptions): Promise<Workspace> {
        requireId(workspaceId, "workspaceId", "PATCH", "/workspaces/:workspace_id");
        const attributes: Record<string, unknown> = {};
        const wireNames: [keyof WorkspaceUpdateOptions, string][] = [
            ["name", "name"],
            ["description", "description"],
            ["autoApply", "auto-apply"],
            ["executionMode", "execution-mode"],
            ["agentPoolId", "agent-pool-id"],
            ["sourceName", "source-name"],
            ["sourceUrl", "source-url"],
        ];
        for (const [option, wire] of wireNames) {
            if (options[option] !== undefined) attributes[wire] = options[option];
        }
        const document = await this.#transport.request({
            method: "PATCH",
            path: `/workspaces/${segment(workspaceId)}`,
            body: { data: { type: "workspaces", id: workspaceId, attributes } },
            schema: singleDocumentSchema(workspaceResourceSchema()),
        });
        return workspaceFromWire(document.data);
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
            schema: listDocumentSchema(tagBindingResourceSchema()),
        });
        return document.data.map(tagBindingFromWire);
    }
}
