/**
 * Workspace variables through the deprecated standalone interface (`api.md`, Variables): `/vars`.
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
} from "./model";
import { segment, wireAttributes, type Transport } from "./transport";
import { requireId, WosNotFoundError } from "./errors";
import type { Workspaces } from "./workspaces";

/**
 * What {@link Variables.create} takes: the rules of `sdk/model`, checked before the request. The size of a
 * value is left to the service: 256 KiB is the local service's own choice, not a rule of `api.md`.
 */
export function variableCreateOptionsSchema() {
    return z.object({
        /** The owning workspace (`ws-...`). */
        workspaceId: z.string({ error: "must be a workspace id" }).refine((id) => id.trim() !== "", { error: "must be a workspace id" }),
        /** 1 to 128 characters; unique per workspace and category. */
        key: variableKeyRule(),
        /** Default `""`. Write-only when {@link VariableCreateOptions.sensitive}. */
        value: z.string({ error: "must be a string" }).optional(),
        /** At most 512 characters. */
        description: variableDescriptionRule().optional(),
        /** `infra` or `env`. */
        category: variableCategoryRule(),
        /** Evaluate the value as configuration-language code; default false. */
        hcl: booleanRule().optional(),
        /** Write-once: the value is never returned again. Default false. */
        sensitive: booleanRule().optional(),
    });
}

/** Options of {@link Variables.create}, inferred from {@link variableCreateOptionsSchema}. */
export type VariableCreateOptions = z.input<ReturnType<typeof variableCreateOptionsSchema>>;

/** What {@link Variables.update} takes. Omitted fields stay as they are. */
export function variableUpdateOptionsSchema() {
    return z.object({
        /** A sensitive variable's key cannot change (422). */
        key: variableKeyRule().optional(),
        value: z.string({ error: "must be a string" }).optional(),
        /** `null` clears the description. */
        description: variableDescriptionRule().nullable().optional(),
        category: variableCategoryRule().optional(),
        hcl: booleanRule().optional(),
        /** false to true only: a sensitive variable stays sensitive (422). */
        sensitive: booleanRule().optional(),
    });
}

/** Options of {@link Variables.update}, inferred from {@link variableUpdateOptionsSchema}. */
export type VariableUpdateOptions = z.input<ReturnType<typeof variableUpdateOptionsSchema>>;

/** What {@link Variables.list} takes: both or neither (the service answers 422 to one alone). */
export function variableListOptionsSchema() {
    return z.object({
        workspaceName: z.string({ error: "must be a workspace name" }).min(1, { error: "must be a workspace name" }),
        organization: z.string({ error: "must be an organization name" }).min(1, { error: "must be an organization name" }),
    });
}

/** Options of {@link Variables.list}, inferred from {@link variableListOptionsSchema}. */
export type VariableListOptions = z.input<ReturnType<typeof variableListOptionsSchema>>;

/** The variable attributes, which have the same names in options and on the wire. */
const VARIABLE_ATTRIBUTES = {
    key: "key",
    value: "value",
    description: "description",
    category: "category",
    hcl: "hcl",
    sensitive: "sensitive",
} as const;

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
        const valid = this.#transport.validate(variableCreateOptionsSchema(), options, "POST", "/vars");
        const document = await this.#transport.request({
            method: "POST",
            path: "/vars",
            body: {
                data: {
                    type: "vars",
                    attributes: wireAttributes(valid, VARIABLE_ATTRIBUTES),
                    relationships: { workspace: { data: { type: "workspaces", id: valid.workspaceId } } },
                },
            },
            schema: singleDocumentSchema(variableSchema()),
        });
        return document.data;
    }

    /**
     * Lists the variables of one workspace (by name and organization), or with no options those of every
     * workspace whose variables the caller may read: `GET /vars`.
     */
    async list(options?: VariableListOptions): Promise<Variable[]> {
        const valid = options === undefined ? undefined : this.#transport.validate(variableListOptionsSchema(), options, "GET", "/vars");
        const document = await this.#transport.request({
            method: "GET",
            path: "/vars",
            query: valid && {
                "filter[workspace][name]": valid.workspaceName,
                "filter[organization][name]": valid.organization,
            },
            schema: listDocumentSchema(variableSchema()),
        });
        return document.data;
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
        const valid = this.#transport.validate(variableUpdateOptionsSchema(), options, "PATCH", "/vars/:variable_id");
        const document = await this.#transport.request({
            method: "PATCH",
            path: `/vars/${segment(variableId)}`,
            body: { data: { type: "vars", id: variableId, attributes: wireAttributes(valid, VARIABLE_ATTRIBUTES) } },
            schema: singleDocumentSchema(variableSchema()),
        });
        return document.data;
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
