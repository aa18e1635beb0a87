/**
 * The workspace rules that more than one route applies: moving workspaces between projects (the move endpoint
 * of projects and a workspace update's `relationships.project`), the execution settings of every workspace
 * write (a workspace update or create, a no-code workspace's create), and the workspace document every
 * workspace endpoint answers. A room of their own, so that no route imports another.
 */
import { workspacePermissions } from "./access";
import type { Principal } from "./auth";
import { now, type Db } from "./db";
import { forbidden, plural, type Problem } from "./errors";
import { noCodeModuleOfWorkspace } from "./records/noCodeModules";
import { tagBindingsOf, type ProjectRow } from "./records/projects";
import { variablesOf } from "./records/variables";
import { findWorkspace, isAgentPoolOf, moveWorkspace, type WorkspaceRow } from "./records/workspaces";
import { renderWorkspace } from "./render";

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
 * Moves workspaces into `destination`, all or nothing: 403 when any of them is unknown or may not be moved
 * out of its project. A moved workspace that inherits its auto-destroy duration takes the destination's.
 * Used by `POST /projects/:id/relationships/workspaces` (routes/projects.ts) and by `PATCH /workspaces/:id`
 * with `relationships.project` (routes/workspaces.ts), so both ways of moving follow the same rules; the
 * caller's transaction makes it all-or-nothing with its other writes.
 */
export function moveWorkspaces(db: Db, principal: Principal, destination: ProjectRow, workspaceIds: readonly string[]): void {
    const ids = [...new Set(workspaceIds)];
    const refused = ids.filter((id) => {
        const workspace = findWorkspace(db, id);
        return !workspace || !workspacePermissions(principal, workspace).canMoveWorkspaces;
    });
    if (refused.length > 0) {
        const them = refused.length === 1 ? "it out of its project" : "them out of their projects";
        throw forbidden(`${plural(refused.length, "workspace")} (${abbreviatedIds(refused)}) not found or you are not authorized to move ${them}; nothing was moved`, {
            "workspace-ids": refused,
        });
    }
    const timestamp = now();
    for (const id of ids) moveWorkspace(db, id, destination, timestamp);
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
        if (!isAgentPoolOf(db, organization, agentPoolId)) return [{ path: pointer, detail: `Agent pool id '${agentPoolId}' is not an agent pool of organization '${organization}'` }];
    }
    return [];
}

/** The first ids of a list, for an error detail that stays short whatever the request sent. */
function abbreviatedIds(ids: readonly string[]): string {
    const shown = ids.slice(0, 5).map((id) => (id.length > 40 ? `${id.slice(0, 40)}…` : id));
    return ids.length > shown.length ? `${shown.join(", ")} and ${ids.length - shown.length} more` : shown.join(", ");
}
