/**
 * Workspaces beyond `api.md`, as on the hosted service: `GET`, `PATCH` (name, description, auto-apply,
 * execution settings, source) and `DELETE /workspaces/:id`, `GET /organizations/:org/workspaces/:name`, and
 * the workspace's effective tag bindings (its project's). Reading needs `read` on the project; changing and
 * deleting need `maintain`.
 */
import type { FastifyInstance } from "fastify";
import type { z } from "zod";
import { updateWorkspaceRequestSchema } from "../../sdk/model";
import { principalOf, type AppContext } from "../app";
import { manageableWorkspace, requireOrganization, visibleWorkspace, type Params } from "../access";
import type { Principal } from "../auth";
import { now, readTransaction, sql, writeTransaction, type Db } from "../db";
import { parseBody, urlIdProblems, validationFailed, type Problem } from "../errors";
import { findWorkspace, findWorkspaceByName, noCodeModuleOfWorkspace, tagBindingsOf, variablesOf, type WorkspaceRow } from "../records";
import { renderTagBindingForList, renderWorkspace } from "../render";

type UpdateAttributes = NonNullable<z.output<ReturnType<typeof updateWorkspaceRequestSchema>>["data"]["attributes"]>;

/** Registers the `/workspaces/:id` routes under `/api/v2`. */
export function registerWorkspaceRoutes(api: FastifyInstance, { db }: AppContext): void {
    api.get<Params>("/workspaces/:id", async (request) => {
        const principal = principalOf(request);
        return readTransaction(db, () => workspaceDocument(db, principal, visibleWorkspace(db, principal, request.params.id)));
    });

    // The hosted service's show-by-name: how a client finds a workspace whose create answer it lost.
    api.get<Params>("/organizations/:organization/workspaces/:name", async (request) => {
        const principal = principalOf(request);
        requireOrganization(principal, request.params.organization);
        return readTransaction(db, () => {
            const found = findWorkspaceByName(db, principal.organization, request.params.name ?? "");
            return workspaceDocument(db, principal, visibleWorkspace(db, principal, found?.id));
        });
    });

    // Tags are inherited from the project: a workspace's effective set is its project's.
    api.get<Params>("/workspaces/:id/effective-tag-bindings", async (request) => {
        const principal = principalOf(request);
        return readTransaction(db, () => {
            const workspace = visibleWorkspace(db, principal, request.params.id);
            return { data: tagBindingsOf(db, workspace.project_id).map(renderTagBindingForList) };
        });
    });

    api.patch<Params>("/workspaces/:id", async (request) => {
        const principal = principalOf(request);
        return writeTransaction(db, () => {
            const current = manageableWorkspace(db, principal, request.params.id);
            const { data } = parseBody(updateWorkspaceRequestSchema(), request.body);
            return workspaceDocument(db, principal, updateWorkspace(db, current, data.id, data.attributes ?? {}));
        });
    });

    api.delete<Params>("/workspaces/:id", async (request, reply) => {
        const principal = principalOf(request);
        writeTransaction(db, () => {
            const workspace = manageableWorkspace(db, principal, request.params.id);
            sql(db, "DELETE FROM workspaces WHERE id = ?").run(workspace.id);
        });
        return reply.code(204).send();
    });
}

/**
 * A workspace as every workspace endpoint answers it: with its effective tag names, its variable ids, and
 * whether its no-code module has a newer version than the one it runs (false when it was not made from a
 * no-code module or that module was deleted).
 */
export function workspaceDocument(db: Db, principal: Principal, workspace: WorkspaceRow) {
    const module = noCodeModuleOfWorkspace(db, workspace);
    return {
        data: renderWorkspace(workspace, principal, {
            tagNames: tagBindingsOf(db, workspace.project_id).map((binding) => binding.key),
            variableIds: variablesOf(db, workspace.id).map((variable) => variable.id),
            noCodeUpgradeAvailable: module !== undefined && module.current_version_id !== workspace.no_code_module_version_id,
        }),
    };
}

/**
 * Updates the attributes given; the others keep their value. Switching to `remote` drops the agent pool; an
 * `agent` workspace keeps its pool unless given another. 422 for a name taken in the organization or
 * execution settings that break {@link executionProblems}.
 */
function updateWorkspace(db: Db, current: WorkspaceRow, bodyId: string | undefined, attributes: UpdateAttributes): WorkspaceRow {
    const problems = urlIdProblems(bodyId, current.id, "workspace");
    if (attributes.name !== undefined) {
        // The column is COLLATE NOCASE: names are unique in any case.
        const other = findWorkspaceByName(db, current.organization, attributes.name);
        if (other && other.id !== current.id) problems.push({ path: ["data", "attributes", "name"], detail: "Name has already been taken" });
    }
    const modeGiven = attributes["execution-mode"] !== undefined;
    const mode = attributes["execution-mode"] ?? current.execution_mode;
    const agentPoolGiven = attributes["agent-pool-id"] !== undefined;
    const agentPoolId = agentPoolGiven ? (attributes["agent-pool-id"] ?? null) : mode === "remote" ? null : current.agent_pool_id;
    problems.push(...executionProblems(db, current.organization, mode, agentPoolId, agentPoolGiven));
    if (problems.length > 0) throw validationFailed(problems);

    const keep = <T>(given: T | undefined, stored: T): T => (given === undefined ? stored : given);
    sql(db, `UPDATE workspaces SET name = ?, description = ?, auto_apply = ?, execution_mode = ?, agent_pool_id = ?,
                 execution_mode_overwritten = ?, agent_pool_overwritten = ?, source_name = ?, source_url = ?, updated_at = ?
             WHERE id = ?`).run(
        attributes.name ?? current.name,
        keep(attributes.description, current.description),
        attributes["auto-apply"] === undefined ? current.auto_apply : attributes["auto-apply"] ? 1 : 0,
        mode,
        agentPoolId,
        modeGiven ? 1 : current.execution_mode_overwritten,
        agentPoolGiven || modeGiven ? 1 : current.agent_pool_overwritten,
        keep(attributes["source-name"], current.source_name),
        keep(attributes["source-url"], current.source_url),
        now(),
        current.id,
    );
    return findWorkspace(db, current.id)!;
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
