/**
 * Loading what a request is about and authorizing it in one step: each function answers the row when the
 * caller may do that with it, and otherwise throws the 404 of `local-service.md` ("not found or
 * unauthorized"), so a route never tells apart "does not exist" from "not yours". The rules themselves are
 * in `auth.ts`; this file only applies them to rows.
 */
import { projectPermissions, type Principal, type ProjectPermissions } from "./auth";
import type { Db } from "./db";
import { httpError } from "./errors";
import { findProject, findVariable, findWorkspace, type ProjectRow, type VariableRow, type WorkspaceRow } from "./records";

/** Route parameters (`:id`, `:organization`) as Fastify hands them over. */
export type Params = { Params: Record<string, string> };

/** What the principal may do with a workspace: what it may do in the workspace's project. */
export function workspacePermissions(principal: Principal, workspace: WorkspaceRow): ProjectPermissions {
    return projectPermissions(principal, { id: workspace.project_id, organization: workspace.organization });
}

/** The caller's own organization, by name; another organization (or none of that name) is a 404. */
export function requireOrganization(principal: Principal, name: string | undefined): void {
    if (name !== principal.organization) throw httpError(404, "Organization not found or you are not authorized to access it");
}

/** A project the caller can see. */
export function visibleProject(db: Db, principal: Principal, id: string | undefined): ProjectRow {
    const project = id === undefined ? undefined : findProject(db, id);
    if (!project || !projectPermissions(principal, project).canRead) {
        throw httpError(404, "Project not found or you are not authorized to access it");
    }
    return project;
}

/** A project the caller may update, with its tag bindings (`admin`); visible but not permitted is a 404 too. */
export function updatableProject(db: Db, principal: Principal, id: string | undefined): ProjectRow {
    const project = visibleProject(db, principal, id);
    if (!projectPermissions(principal, project).canUpdate) {
        throw httpError(404, "Project not found or you are not authorized to update it");
    }
    return project;
}

/** A project the caller may move workspaces into (`maintain`); otherwise the 404 that api.md lists for a move. */
export function moveDestination(db: Db, principal: Principal, id: string | undefined): ProjectRow {
    const project = id === undefined ? undefined : findProject(db, id);
    if (!project || !projectPermissions(principal, project).canMoveWorkspaces) {
        throw httpError(404, "Project not found or you are not authorized to move workspaces into it");
    }
    return project;
}

/** A workspace the caller can see. */
export function visibleWorkspace(db: Db, principal: Principal, id: string | undefined): WorkspaceRow {
    const workspace = id === undefined ? undefined : findWorkspace(db, id);
    if (!workspace || !workspacePermissions(principal, workspace).canRead) {
        throw httpError(404, "Workspace not found or you are not authorized to access it");
    }
    return workspace;
}

/** A workspace the caller may change or delete (`maintain` on its project). */
export function manageableWorkspace(db: Db, principal: Principal, id: string | undefined): WorkspaceRow {
    const workspace = visibleWorkspace(db, principal, id);
    if (!workspacePermissions(principal, workspace).canManageWorkspaces) {
        throw httpError(404, "Workspace not found or you are not authorized to change it");
    }
    return workspace;
}

/** A workspace whose variables the caller may read. */
export function variableReadableWorkspace(principal: Principal, workspace: WorkspaceRow | undefined): WorkspaceRow {
    if (!workspace || !workspacePermissions(principal, workspace).canReadVariables) {
        throw httpError(404, "Workspace not found or you are not authorized to read its variables");
    }
    return workspace;
}

/** A workspace whose variables the caller may create, update and delete (`write`). */
export function variableWritableWorkspace(principal: Principal, workspace: WorkspaceRow | undefined): WorkspaceRow {
    if (!workspace || !workspacePermissions(principal, workspace).canWriteVariables) {
        throw httpError(404, "Workspace not found or you are not authorized to manage its variables");
    }
    return workspace;
}

/** A variable the caller may update or delete (`write` on its workspace's project). */
export function writableVariable(db: Db, principal: Principal, id: string | undefined): VariableRow {
    const variable = id === undefined ? undefined : findVariable(db, id);
    const workspace = variable ? findWorkspace(db, variable.workspace_id) : undefined;
    if (!variable || !workspace || !workspacePermissions(principal, workspace).canWriteVariables) {
        throw httpError(404, "Variable not found or you are not authorized to manage it");
    }
    return variable;
}
