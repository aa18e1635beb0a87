/**
 * The deprecated standalone variables interface `/vars` (`api.md` "Variables" with the decisions of
 * `local-service.md`): create (relationship or deprecated filter body), list (linked filters), update,
 * delete. A sensitive value is never answered; reading needs `read` on the project, writing `write`.
 */
import type { FastifyInstance } from "fastify";
import { createVariableRequestSchema, updateVariableRequestSchema } from "../../sdk/model";
import { principalOf, type AppContext } from "../app";
import { projectPermissions, type Principal } from "../auth";
import { newId, now, sql, type Db } from "../db";
import { httpError, invalidParameter, parseBody, validationFailed, type Problem } from "../errors";
import { singleParameter, type Query } from "../pagination";
import {
    findVariable,
    findWorkspace,
    findWorkspaceByName,
    variablesOf,
    type VariableRow,
    type WorkspaceRow,
} from "../records";
import { renderVariable } from "../render";

type Params = { Params: Record<string, string> };

const WORKSPACE_FILTER = "filter[workspace][name]";
const ORGANIZATION_FILTER = "filter[organization][name]";

function permissionsOn(principal: Principal, workspace: WorkspaceRow) {
    return projectPermissions(principal, { id: workspace.project_id, organization: workspace.organization });
}

/** A workspace whose variables the caller may write; anything else is a 404. */
function writableWorkspace(principal: Principal, workspace: WorkspaceRow | undefined): WorkspaceRow {
    if (!workspace || !permissionsOn(principal, workspace).canWriteVariables) {
        throw httpError(404, "Workspace not found or you are not authorized to manage its variables");
    }
    return workspace;
}

/** A variable the caller may write, with its workspace; anything else is a 404. */
function writableVariable(db: Db, principal: Principal, id: string): { variable: VariableRow; workspace: WorkspaceRow } {
    const variable = findVariable(db, id);
    const workspace = variable ? findWorkspace(db, variable.workspace_id) : undefined;
    if (!variable || !workspace || !permissionsOn(principal, workspace).canWriteVariables) {
        throw httpError(404, "Variable not found or you are not authorized to manage it");
    }
    return { variable, workspace };
}

/** Whether another variable of the workspace already has this key in this category. */
function keyTaken(db: Db, workspaceId: string, category: string, key: string, exceptId?: string): boolean {
    const row = sql(db, "SELECT id FROM variables WHERE workspace_id = ? AND category = ? AND key = ?").get(workspaceId, category, key) as
        | { id: string }
        | undefined;
    return row !== undefined && row.id !== exceptId;
}

/** Registers the `/vars` routes under `/api/v2`. */
export function registerVariableRoutes(api: FastifyInstance, { db }: AppContext): void {
    api.post("/vars", async (request, reply) => {
        const principal = principalOf(request);
        const body = parseBody(createVariableRequestSchema(), request.body);
        const { attributes, relationships } = body.data;

        // The workspace: by relationship, or by the deprecated name filter.
        let workspace: WorkspaceRow;
        if (relationships?.workspace) {
            workspace = writableWorkspace(principal, findWorkspace(db, relationships.workspace.data.id));
        } else if (body.filter) {
            if (body.filter.organization.name !== principal.organization) {
                throw httpError(404, "Organization not found or you are not authorized to access it");
            }
            workspace = writableWorkspace(principal, findWorkspaceByName(db, principal.organization, body.filter.workspace.name));
        } else {
            throw validationFailed([
                {
                    path: ["data", "relationships", "workspace"],
                    detail: "Workspace is required: give data.relationships.workspace (or the deprecated filter.workspace.name and filter.organization.name)",
                },
            ]);
        }
        if (keyTaken(db, workspace.id, attributes.category, attributes.key)) {
            throw validationFailed([{ path: ["data", "attributes", "key"], detail: `Key has already been taken in category '${attributes.category}' of this workspace` }]);
        }

        const variable = db
            .transaction(() => {
                const timestamp = now();
                const row: VariableRow = {
                    id: newId("var-"),
                    workspace_id: workspace.id,
                    key: attributes.key,
                    value: attributes.value ?? "",
                    description: attributes.description ?? null,
                    category: attributes.category,
                    hcl: attributes.hcl ? 1 : 0,
                    sensitive: attributes.sensitive ? 1 : 0,
                    version_id: newId(""),
                    created_at: timestamp,
                    updated_at: timestamp,
                };
                sql(db, `INSERT INTO variables (id, workspace_id, key, value, description, category, hcl, sensitive, version_id, created_at, updated_at)
                         VALUES (@id, @workspace_id, @key, @value, @description, @category, @hcl, @sensitive, @version_id, @created_at, @updated_at)`).run(row);
                return row;
            })
            .immediate();
        return reply.code(201).send({ data: renderVariable(variable) });
    });

    api.get("/vars", async (request) => {
        const principal = principalOf(request);
        const query = request.query as Query;
        const workspaceName = singleParameter(query, WORKSPACE_FILTER);
        const organization = singleParameter(query, ORGANIZATION_FILTER);
        if (workspaceName !== undefined && organization === undefined) {
            throw invalidParameter(ORGANIZATION_FILTER, `${ORGANIZATION_FILTER} is required when ${WORKSPACE_FILTER} is given`);
        }
        if (organization !== undefined && workspaceName === undefined) {
            throw invalidParameter(WORKSPACE_FILTER, `${WORKSPACE_FILTER} is required when ${ORGANIZATION_FILTER} is given`);
        }
        if (workspaceName !== undefined && organization !== undefined) {
            if (organization !== principal.organization) {
                throw httpError(404, "Organization not found or you are not authorized to access it");
            }
            const workspace = findWorkspaceByName(db, organization, workspaceName);
            if (!workspace || !permissionsOn(principal, workspace).canReadVariables) {
                throw httpError(404, "Workspace not found or you are not authorized to read its variables");
            }
            return { data: variablesOf(db, workspace.id).map(renderVariable) };
        }
        // No filter: every variable of every workspace whose variables the caller may read.
        const workspaces = sql(db, "SELECT * FROM workspaces WHERE organization = ? ORDER BY rowid").all(principal.organization) as WorkspaceRow[];
        const readable = new Set(workspaces.filter((w) => permissionsOn(principal, w).canReadVariables).map((w) => w.id));
        const variables = sql(db, `SELECT v.* FROM variables v JOIN workspaces w ON w.id = v.workspace_id
                                   WHERE w.organization = ? ORDER BY v.rowid`).all(principal.organization) as VariableRow[];
        return { data: variables.filter((v) => readable.has(v.workspace_id)).map(renderVariable) };
    });

    api.patch<Params>("/vars/:id", async (request) => {
        const principal = principalOf(request);
        const { variable: current } = writableVariable(db, principal, request.params.id!);
        const body = parseBody(updateVariableRequestSchema(), request.body);
        const { attributes = {}, id } = body.data;
        const problems: Problem[] = [];
        if (id !== undefined && id !== current.id) {
            problems.push({ path: ["data", "id"], detail: `Id must be the id of the variable in the URL (${current.id})` });
        }
        const wasSensitive = current.sensitive === 1;
        if (wasSensitive && attributes.sensitive === false) {
            problems.push({
                path: ["data", "attributes", "sensitive"],
                detail: "Sensitive cannot be changed from true to false; delete the variable and create it again",
            });
        }
        if (wasSensitive && attributes.key !== undefined && attributes.key !== current.key) {
            problems.push({
                path: ["data", "attributes", "key"],
                detail: "Key of a sensitive variable cannot be changed; delete the variable and create it again",
            });
        }
        const next = {
            key: attributes.key ?? current.key,
            value: attributes.value === undefined ? current.value : (attributes.value ?? ""),
            description: attributes.description === undefined ? current.description : attributes.description,
            category: attributes.category ?? current.category,
            hcl: attributes.hcl === undefined ? current.hcl : attributes.hcl ? 1 : 0,
            sensitive: attributes.sensitive === undefined ? current.sensitive : attributes.sensitive ? 1 : 0,
        };
        if (problems.length === 0 && keyTaken(db, current.workspace_id, next.category, next.key, current.id)) {
            problems.push({ path: ["data", "attributes", "key"], detail: `Key has already been taken in category '${next.category}' of this workspace` });
        }
        if (problems.length > 0) throw validationFailed(problems);

        const variable = db
            .transaction(() => {
                const timestamp = now();
                sql(db, `UPDATE variables SET key = ?, value = ?, description = ?, category = ?, hcl = ?, sensitive = ?,
                             version_id = ?, updated_at = ? WHERE id = ?`).run(
                    next.key,
                    next.value,
                    next.description,
                    next.category,
                    next.hcl,
                    next.sensitive,
                    newId(""),
                    timestamp,
                    current.id,
                );
                return findVariable(db, current.id)!;
            })
            .immediate();
        return { data: renderVariable(variable) };
    });

    api.delete<Params>("/vars/:id", async (request, reply) => {
        const principal = principalOf(request);
        db.transaction(() => {
            const { variable } = writableVariable(db, principal, request.params.id!);
            sql(db, "DELETE FROM variables WHERE id = ?").run(variable.id);
        }).immediate();
        return reply.code(204).send();
    });
}
