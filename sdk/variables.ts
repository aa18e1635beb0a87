/**
 * Workspace variables through the deprecated standalone interface of the API (Variables): `/vars`.
 *
 * @module
 */
import { z } from "zod";
import {
    booleanRule,
    listDocumentSchema,
    singleDocumentSchema,
    variableCategoryRule,
    variableDescriptionRule,
    variableKeyRule,
    variableSchema,
    type Variable,
    type VariableCategory,
} from "./model";
import { segment, wireAttributes, type Transport } from "./transport";
import { requireId, WosNotFoundError } from "./errors";
import type { Workspaces } from "./workspaces";

// The TSDoc of each field is on the options interface, the schema's fields inherit it, and a type-level test
// proves the two the same type (see `sdk/projects.ts`).

/**
 * What {@link Variables.create} takes: the rules of `sdk/model`, checked before the request. The size of a
 * value is left to the service: 256 KiB is the local service's own choice, not a rule of the API.
 */
export function variableCreateOptionsSchema() {
    return z.object({
        /** {@inheritDoc VariableCreateOptions.key} */
        key: variableKeyRule(),
        /** {@inheritDoc VariableCreateOptions.value} */
        value: z.string({ error: "must be a string" }).optional(),
        /** {@inheritDoc VariableCreateOptions.description} */
        description: variableDescriptionRule().optional(),
        /** {@inheritDoc VariableCreateOptions.category} */
        category: variableCategoryRule(),
        /** {@inheritDoc VariableCreateOptions.hcl} */
        hcl: booleanRule().optional(),
        /** {@inheritDoc VariableCreateOptions.sensitive} */
        sensitive: booleanRule().optional(),
    });
}

/** Options of {@link Variables.create}, checked by {@link variableCreateOptionsSchema} before the request. */
export interface VariableCreateOptions {
    /** 1 to 128 characters; unique per workspace and category. */
    key: string;
    /** Default `""`. Write-only when {@link VariableCreateOptions.sensitive}. */
    value?: string;
    /** At most 512 characters. */
    description?: string;
    /** `infra` or `env`. */
    category: VariableCategory;
    /** Evaluate the value as configuration-language code; default false. */
    hcl?: boolean;
    /** Write-once: the value is never returned again. Default false. */
    sensitive?: boolean;
}

/** What {@link Variables.update} takes. Omitted fields stay as they are. */
export function variableUpdateOptionsSchema() {
    return z.object({
        /** {@inheritDoc VariableUpdateOptions.key} */
        key: variableKeyRule().optional(),
        /** {@inheritDoc VariableUpdateOptions.value} */
        value: z.string({ error: "must be a string" }).optional(),
        /** {@inheritDoc VariableUpdateOptions.description} */
        description: variableDescriptionRule().nullable().optional(),
        /** {@inheritDoc VariableUpdateOptions.category} */
        category: variableCategoryRule().optional(),
        /** {@inheritDoc VariableUpdateOptions.hcl} */
        hcl: booleanRule().optional(),
        /** {@inheritDoc VariableUpdateOptions.sensitive} */
        sensitive: booleanRule().optional(),
    });
}

/**
 * Options of {@link Variables.update}, checked by {@link variableUpdateOptionsSchema} before the request.
 * Omitted fields stay as they are.
 */
export interface VariableUpdateOptions {
    /** A new key: 1 to 128 characters; a sensitive variable's key cannot change (422). */
    key?: string;
    /** A new value; write-only when the variable is sensitive. */
    value?: string;
    /** At most 512 characters; `null` clears the description. */
    description?: string | null;
    /** `infra` or `env`; a sensitive variable's category cannot change (422). */
    category?: VariableCategory;
    /** Evaluate the value as configuration-language code. */
    hcl?: boolean;
    /** false to true only: a sensitive variable stays sensitive (422). */
    sensitive?: boolean;
}

// Built once: the module is loaded once per process and a schema is immutable (see `sdk/projects.ts`).
const CREATE_OPTIONS = variableCreateOptionsSchema();
const UPDATE_OPTIONS = variableUpdateOptionsSchema();
const VARIABLE_DOCUMENT = singleDocumentSchema(variableSchema());
const VARIABLE_LIST = listDocumentSchema(variableSchema());

/** The variable attributes, which have the same names in options and on the wire. */
const VARIABLE_ATTRIBUTES = {
    key: "key",
    value: "value",
    description: "description",
    category: "category",
    hcl: "hcl",
    sensitive: "sensitive",
} as const;

/** How many workspaces' names one client keeps for {@link Variables.list}; the oldest go first. */
const KEPT_WORKSPACE_NAMES = 1000;

/** Where the variables of a workspace are listed from: its name and organization. */
interface WorkspaceName {
    organization: string;
    workspaceName: string;
}

/**
 * The `/vars` endpoints. Reach it as {@link WosClient.variables}.
 *
 * Like every resource of the client, a method takes the ids that locate its object first, from the owner
 * down (a variable's owner is its workspace), then one options object. The standalone interface addresses a
 * variable by its id alone on the wire, so {@link Variables.update} and {@link Variables.delete} send only
 * the variable id; the workspace id is still required, so that the same two ids reach every method.
 *
 * - `create(workspaceId, options)`: creates a variable in a workspace.
 * - `list(workspaceId)`: the variables of one workspace.
 * - `listByWorkspaceName(organization, workspaceName)`: the same, by the workspace's name.
 * - `listEveryReadable()`: the variables of every workspace the caller may read.
 * - `read(workspaceId, variableId)`: one variable.
 * - `update(workspaceId, variableId, options)`: changes a variable.
 * - `delete(workspaceId, variableId)`: deletes a variable.
 */
export class Variables {
    readonly #transport: Transport;
    readonly #workspaces: Workspaces;
    /** Name and organization of workspaces by id, as last read (see {@link Variables.list}). */
    readonly #workspaceNames = new Map<string, WorkspaceName>();

    /** @internal Built by {@link WosClient}. */
    constructor(transport: Transport, workspaces: Workspaces) {
        this.#transport = transport;
        this.#workspaces = workspaces;
    }

    /** Creates a variable in a workspace: `POST /vars`. */
    async create(workspaceId: string, options: VariableCreateOptions): Promise<Variable> {
        requireId(workspaceId, "workspaceId", "POST", "/vars");
        const valid = this.#transport.validate(CREATE_OPTIONS, options, "POST", "/vars");
        const document = await this.#transport.request({
            method: "POST",
            path: "/vars",
            body: {
                data: {
                    type: "vars",
                    attributes: wireAttributes(valid, VARIABLE_ATTRIBUTES),
                    relationships: { workspace: { data: { type: "workspaces", id: workspaceId } } },
                },
            },
            schema: VARIABLE_DOCUMENT,
        });
        return document.data;
    }

    /**
     * Lists the variables of one workspace by its id. The standalone interface lists variables by the
     * workspace's name only (`GET /vars?filter[...]`), so the name is read (`GET /workspaces/:workspace_id`)
     * and kept by this client. A later call lists by the kept name at once, and takes the answer only when it
     * proves that the name still belongs to the workspace: it holds variables, and each names this workspace.
     * Any other answer (empty, refused, another workspace's) proves nothing, since the workspace may have been
     * renamed: the workspace is read again, and its variables listed by its current name unless the empty
     * answer was for that name. One request for a workspace this client knows that has variables, two
     * otherwise. Throws {@link WosNotFoundError} when the workspace is gone.
     */
    async list(workspaceId: string): Promise<Variable[]> {
        requireId(workspaceId, "workspaceId", "GET", "/vars");
        const kept = this.#workspaceNames.get(workspaceId);
        let listed: Variable[] | undefined;
        if (kept) {
            listed = await this.#listByName(kept).catch((error: unknown) => {
                // The kept name may be no workspace's now: the workspace is read again below.
                if (WosNotFoundError.isInstance(error)) return undefined;
                throw error;
            });
            if (listed !== undefined && listed.length > 0 && listed.every((variable) => variable.workspaceId === workspaceId)) {
                return listed;
            }
        }
        const workspace = await this.#workspaces.read(workspaceId);
        const current: WorkspaceName = { workspaceName: workspace.name, organization: workspace.organization };
        this.#keepName(workspaceId, current);
        const sameName = kept !== undefined && kept.workspaceName === current.workspaceName && kept.organization === current.organization;
        if (sameName && listed !== undefined && listed.length === 0) return listed;
        return this.#listByName(current);
    }

    /**
     * Lists the variables of one workspace by its name and organization, in one request:
     * `GET /vars?filter[workspace][name]=...&filter[organization][name]=...`.
     */
    async listByWorkspaceName(organization: string, workspaceName: string): Promise<Variable[]> {
        requireId(organization, "organization", "GET", "/vars");
        requireId(workspaceName, "workspaceName", "GET", "/vars");
        return this.#listByName({ organization, workspaceName });
    }

    /** Lists the variables of every workspace whose variables the caller may read: `GET /vars`. */
    async listEveryReadable(): Promise<Variable[]> {
        const document = await this.#transport.request({ method: "GET", path: "/vars", schema: VARIABLE_LIST });
        return document.data;
    }

    async #listByName(name: WorkspaceName): Promise<Variable[]> {
        const document = await this.#transport.request({
            method: "GET",
            path: "/vars",
            query: {
                "filter[workspace][name]": name.workspaceName,
                "filter[organization][name]": name.organization,
            },
            schema: VARIABLE_LIST,
        });
        return document.data;
    }

    /** Keeps a workspace's name, as the newest entry; the oldest goes when there are too many. */
    #keepName(workspaceId: string, name: WorkspaceName): void {
        this.#workspaceNames.delete(workspaceId);
        this.#workspaceNames.set(workspaceId, name);
        if (this.#workspaceNames.size > KEPT_WORKSPACE_NAMES) {
            this.#workspaceNames.delete(this.#workspaceNames.keys().next().value!);
        }
    }

    /**
     * Reads one variable. The standalone interface has no `GET /vars/:id`, so this lists the workspace's
     * variables ({@link Variables.list}: one request when this client has seen the workspace and it has
     * variables, else two) and picks the id. Throws {@link WosNotFoundError} when the variable is not (or no
     * longer) in that workspace, or the workspace is gone.
     */
    async read(workspaceId: string, variableId: string): Promise<Variable> {
        requireId(workspaceId, "workspaceId", "GET", "/vars");
        requireId(variableId, "variableId", "GET", "/vars");
        const variables = await this.list(workspaceId);
        const variable = variables.find((candidate) => candidate.id === variableId);
        if (!variable) {
            const workspaceName = this.#workspaceNames.get(workspaceId)?.workspaceName ?? "";
            throw new WosNotFoundError({
                status: 404,
                method: "GET",
                path: "/vars",
                errors: [
                    {
                        status: "404",
                        title: "not found",
                        detail: `variable ${variableId} not found in workspace ${workspaceId} (${workspaceName})`,
                    },
                ],
            });
        }
        return variable;
    }

    /** Updates a variable of a workspace: `PATCH /vars/:variable_id` (the wire takes the variable id alone). */
    async update(workspaceId: string, variableId: string, options: VariableUpdateOptions): Promise<Variable> {
        requireId(workspaceId, "workspaceId", "PATCH", "/vars/:variable_id");
        requireId(variableId, "variableId", "PATCH", "/vars/:variable_id");
        const valid = this.#transport.validate(UPDATE_OPTIONS, options, "PATCH", "/vars/:variable_id");
        const document = await this.#transport.request({
            method: "PATCH",
            path: `/vars/${segment(variableId)}`,
            body: { data: { type: "vars", id: variableId, attributes: wireAttributes(valid, VARIABLE_ATTRIBUTES) } },
            schema: VARIABLE_DOCUMENT,
        });
        return document.data;
    }

    /** Deletes a variable of a workspace: `DELETE /vars/:variable_id` (the wire takes the variable id alone). */
    async delete(workspaceId: string, variableId: string): Promise<void> {
        requireId(workspaceId, "workspaceId", "DELETE", "/vars/:variable_id");
        requireId(variableId, "variableId", "DELETE", "/vars/:variable_id");
        await this.#transport.request({
            method: "DELETE",
            path: `/vars/${segment(variableId)}`,
            schema: undefined,
            notFoundAfterRetryIsSuccess: true,
        });
    }
}
