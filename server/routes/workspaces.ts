/**
 * Workspaces beyond `api.md`, as on the hosted service: `GET`, `PATCH` (name, description, auto-apply,
 * execution settings, source) and `DELETE /workspaces/:id`, and the workspace's effective tag bindings
 * (its project's). Reading needs `read` on the project; changing and deleting need `maintain`.
 */
import type { FastifyInstance } from "fastify";
import { updateWorkspaceRequestSchema } from "../../sdk/model";
import { principalOf, type AppContext } from "../app";
import { projectPermissions, type Principal } from "../auth";
import { now, sql, type Db } from "../db";
import { httpError, parseBody, validationFailed, type Problem } from "../errors";
import { findWorkspace, findWorkspaceByName, tagBindingsOf, variablesOf, type WorkspaceRow } from "../records";
import { renderTagBindingForList, renderWorkspace } from "../render";

type Params = { Params: Record<string, string> };

function permissionsOn(principal: Principal, workspace: WorkspaceRow) {
    return projectPermissions(principal, { id: workspace.project_id, organization: workspace.organization });
}

/** A workspace the caller can see; anything else is a 404. */
export function visibleWorkspace(db: Db, principal: Principal, id: string): WorkspaceRow {
    const workspace = findWorkspace(db, id);
    if (!workspace || !permissionsOn(principal, workspace).canRead) {
        throw httpError(404, "Workspace not found or you are not authorized to access it");
    }
    return workspace;
}

/** A workspace the caller may change or delete (`maintain` on its project); otherwise a 404. */
function manageableWorkspace(db: Db, principal: Principal, id: string): WorkspaceRow {
    const workspace = visibleWorkspace(db, principal, id);
    if (!permissionsOn(principal, workspace).canManageWorkspaces) {
        throw httpError(404, "Workspace not found or you are not authorized to change it");
    }
    return workspace;
}

/** A workspace as every workspace endpoint answers it: with its effective tag names and variable ids. */
export function workspaceDocument(db: Db, principal: Principal, workspace: WorkspaceRow) {
    return {
        data: renderWorkspace(workspace, principal, {
            tagNames: tagBindingsOf(db, workspace.project_id).map((binding) => binding.key),
            variableIds: variablesOf(db, workspace.id).map((variable) => variable.id),
        }),
    };
}

/**
 * Execution rules shared by every workspace write: `agent` needs an agent pool of the organization,
 * `remote` forbids one. Returns the problems (pointers under `/data/attributes`).
 */
export function executionProblems(
    db: Db,
    organization: string,
    mode: "remote" | "agent",
    agentPoolId: string | null,
    agentPoolGiven: boolean,
): Problem[] {
    const pointer = ["data", "attributes", "agent-pool-id"];
    if (mode === "remote" && agentPoolGiven && agentPoolId !== null) {
        return [{ path: pointer, detail: "Agent pool id must not be given when execution mode is 'remote'" }];
    }
    if (mode === "agent" && agentPoolId === null) {
        return [{ path: pointer, detail: "Agent pool id is required when execution mode is 'agent'" }];
    }
    if (agentPoolId !== null) {
        const pool = sql(db, "SELECT id FROM agent_pools WHERE id = ? AND organization = ?").get(agentPoolId, organization);
        if (!pool) return [{ path: pointer, detail: `Agent pool id '${agentPoolId}' is not an agent pool of organization '${organization}'` }];
    }
    return [];
}

/** Registers the `/workspaces/:id` routes under `/api/v2`. */
export function registerWorkspaceRoutes(api: FastifyInstance, { db }: AppContext): void {
    api.get<Params>("/workspaces/:id", async (request) => {
        const principal = principalOf(request);
        return workspaceDocument(db, principal, visibleWorkspace(db, principal, request.params.id!));
    });

    api.get<Params>("/workspaces/:id/effective-tag-bindings", async (request) => {
        const principal = principalOf(request);
        const workspace = visibleWorkspace(db, principal, request.params.id!);
        // Tags are inherited from the project: the workspace's effective set is its project's.
        return { data: tagBindingsOf(db, workspace.project_id).map(renderTagBindingForList) };
    });

    api.patch<Params>("/workspaces/:id", async (request) => {
        const principal = principalOf(request);
        const current = manageableWorkspace(db, principal, request.params.id!);
        const body = parseBody(updateWorkspaceRequestSchema(), request.body);
        const { attributes = {}, id } = body.data;
        const problems: Problem[] = [];
        if (id !== undefined && id !== current.id) {
            problems.push({ path: ["data", "id"], detail: `Id must be the id of the workspace in the URL (${current.id})` });
        }
        if (attributes.name !== undefined) {
            const other = findWorkspaceByName(db, current.organization, attributes.name);
            if (other && other.id !== current.id) {
                problems.push({ path: ["data", "attributes", "name"], detail: "Name has already been taken" });
            }
        }
        const mode = attributes["execution-mode"] ?? current.execution_mode;
        const agentPoolGiven = attributes["agent-pool-id"] !== undefined;
        // Switching to remote drops the pool; otherwise an agent workspace keeps its pool unless given another.
        const agentPoolId = agentPoolGiven
            ? (attributes["agent-pool-id"] ?? null)
            : mode === "remote"
              ? null
              : current.agent_pool_id;
        problems.push(...executionProblems(db, current.organization, mode, agentPoolId, agentPoolGiven));
        if (problems.length > 0) throw validationFailed(problems);

        const workspace = db
            .transaction(() => {
                const pick = <T>(given: T | undefined, existing: T): T => (given === undefined ? existing : given);
                sql(db, `UPDATE workspaces SET name = ?, description = ?, auto_apply = ?, execution_mode = ?, agent_pool_id = ?,
                             execution_mode_overwritten = ?, agent_pool_overwritten = ?, source_name = ?, source_url = ?, updated_at = ?
                         WHERE id = ?`).run(
                    attributes.name ?? current.name,
                    pick(attributes.description, current.description),
                    attributes["auto-apply"] === undefined ? current.auto_apply : attributes["auto-apply"] ? 1 : 0,
                    mode,
                    agentPoolId,
                    attributes["execution-mode"] !== undefined ? 1 : current.execution_mode_overwritten,
                    agentPoolGiven || attributes["execution-mode"] !== undefined ? 1 : current.agent_pool_overwritten,
                    pick(attributes["source-name"], current.source_name),
                    pick(attributes["source-url"], current.source_url),
                    now(),
                    current.id,
                );
                return findWorkspace(db, current.id)!;
            })
            .immediate();
        return workspaceDocument(db, principal, workspace);
    });

    api.delete<Params>("/workspaces/:id", async (request, reply) => {
        const principal = principalOf(request);
        db.transaction(() => {
            const workspace = manageableWorkspace(db, principal, request.params.id!);
            sql(db, "DELETE FROM workspaces WHERE id = ?").run(workspace.id);
        }).immediate();
        return reply.code(204).send();
    });
}
