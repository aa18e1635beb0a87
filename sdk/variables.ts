/**
 * Workspace variables through the deprecated standalone interface (`api.md`, Variables): `/vars`.
 *
 * @module
 */
import {
    listDocumentSchema,
    singleDocumentSchema,
    variableFromWire,
    variableResourceSchema,
    type Variable,
    type VariableCategory,
} from "./model";
import { segment, type Transport } from "./transport";
import { requireId, requireString, WosNotFoundError } from "./errors";
import type { Workspaces } from "./workspaces";

/** Options of {@link Variables.create}. */
export interface VariableCreateOptions {
    /** The owning workspace (`ws-...`). */
    workspaceId: string;
    /** Unique per workspace and category. */
    key: string;
    /** Default `""`. Write-only when {@link VariableCreateOptions.sensitive}. */
    value?: string;
    description?: string;
    category: VariableCategory;
    /** Evaluate the value as configuration-language code; default false. */
    hcl?: boolean;
    /** Write-once: the value is never returned again. Default false. */
    sensitive?: boolean;
}

/** Options of {@link Variables.update}. Omitted fields stay as they are. */
export interface VariableUpdateOptions {
    /** A sensitive variable's key cannot change (422). */
    key?: string;
    value?: string;
    /** `null` clears the description. */
    description?: string | null;
    category?: VariableCategory;
    hcl?: boolean;
    /** false to true only: a sensitive variable stays sensitive (422). */
    sensitive?: boolean;
}

/** Options of {@link Variables.list}: both or neither (the service answers 422 to one alone). */
export interface VariableListOptions {
    workspaceName: string;
    organization: string;
}

/** The `/vars` endpoints. Reach it as {@link WosClient.variables}. */
export class Variables {
    readonly #transport: Transport;
    readonly #workspaces: Workspaces;

    /** @internal Built by {@link WosClient}. */
    constructor(transport: Transport, workspaces: Workspaces) {
        this.#transport = transport;
        this.#workspaces = workspaces;
    }

    /** Creates a variable in a workspace: `POST /vars`. */
    async create(options: VariableCreateOptions): Promise<Variable> {
        requireId(options?.workspaceId, "options.workspaceId", "POST", "/vars");
        requireString(options.key, "options.key", "POST", "/vars");
        const attributes: Record<string, unknown> = { key: options.key, category: options.category };
        if (options.value !== undefined) attributes.value = options.value;
        if (options.description !== undefined) attributes.description = options.description;
        if (options.hcl !== undefined) attributes.hcl = options.hcl;
        if (options.sensitive !== undefined) attributes.sensitive = options.sensitive;
        const document = await this.#transport.request({
            method: "POST",
            path: "/vars",
            body: {
                data: {
                    type: "vars",
                    attributes,
                    relationships: { workspace: { data: { type: "workspaces", id: options.workspaceId } } },
                },
            },
            schema: singleDocumentSchema(variableResourceSchema()),
        });
        return variableFromWire(document.data);
    }

    /**
     * Lists the variables of one workspace (by name and organization), or with no options those of every
     * workspace whose variables the caller may read: `GET /vars`.
     */
    async list(options?: VariableListOptions): Promise<Variable[]> {
        if (options !== undefined) {
            requireId(options.workspaceName, "options.workspaceName", "GET", "/vars");
            requireId(options.organization, "options.organization", "GET", "/vars");
        }
        const document = await this.#transport.request({
            method: "GET",
            path: "/vars",
            query: options && {
                "filter[workspace][name]": options.workspaceName,
                "filter[organization][name]": options.organization,
            },
            schema: listDocumentSchema(variableResourceSchema()),
        });
        return document.data.map(variableFromWire);
    }

    /**
     * Reads one variable. `api.md` has no `GET /vars/:id`, so this reads the workspace
     * (`GET /workspaces/:workspace_id`) for its name and organization, then lists its variables
     * (`GET /vars?filter[...]`) and picks the id. Throws {@link WosNotFoundError} when the variable is not
     * (or no longer) in that workspace.
     */
    async read(workspaceId: string, variableId: string): Promise<Variable> {
        requireId(workspaceId, "workspaceId", "GET", "/vars");
        requireId(variableId, "variableId", "GET", "/vars");
        const workspace = await this.#workspaces.read(workspaceId);
        const variables = await this.list({ workspaceName: workspace.name, organization: workspace.organization });
        const variable = variables.find((candidate) => candidate.id === variableId);
        if (!variable) {
            throw new WosNotFoundError({
                status: 404,
                method: "GET",
                path: "/vars",
                errors: [
                    {
                        status: "404",
                        title: "not found",
                        detail: `variable ${variableId} not found in workspace ${workspaceId} (${workspace.name})`,
                    },
                ],
            });
        }
        return variable;
    }

    /** Updates a variable: `PATCH /vars/:variable_id`. */
    async update(variableId: string, options: VariableUpdateOptions): Promise<Variable> {
        requireId(variableId, "variableId", "PATCH", "/vars/:variable_id");
        const attributes: Record<string, unknown> = {};
        for (const name of ["key", "value", "description", "category", "hcl", "sensitive"] as const) {
            if (options[name] !== undefined) attributes[name] = options[name];
        }
        const document = await this.#transport.request({
            method: "PATCH",
            path: `/vars/${segment(variableId)}`,
            body: { data: { type: "vars", id: variableId, attributes } },
            schema: singleDocumentSchema(variableResourceSchema()),
        });
        return variableFromWire(document.data);
    }

    /** Deletes a variable: `DELETE /vars/:variable_id`. */
    async delete(variableId: string): Promise<void> {
        requireId(variableId, "variableId", "DELETE", "/vars/:variable_id");
        await this.#transport.request({
            method: "DELETE",
            path: `/vars/${segment(variableId)}`,
            schema: undefined,
            notFoundAfterRetryIsSuccess: true,
        });
    }
}
