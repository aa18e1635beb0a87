/**
 * Loading what a request is about and authorizing it in one step: each function answers the row when the
 * caller may do that with it, and otherwise throws the local service's 404 ("not found or
 * unauthorized"), so a route never tells apart "does not exist" from "not yours". The rules themselves are
 * in `auth.ts`; this file only applies them to rows.
 */
import { canManageModules, projectPermissions, type Principal, type ProjectPermissions } from "./auth";
import type { Db } from "./db";
import { ERROR_CODES, httpError } from "./errors";
import { findNoCodeModule, findNoCodeModuleVersion, findRegistryModule, type NoCodeModuleRow, type RegistryModuleRow } from "./records/noCodeModules";
import { findProject, type ProjectRow } from "./records/projects";
import { findVariable, type VariableRow } from "./records/variables";
import { findWorkspace, type WorkspaceRow } from "./records/workspaces";

/** Route parameters (`:id`, `:organization`) as Fastify hands them over. */
export type Params = { Params: Record<string, string> };

/** What the principal may do with a workspace: what it may do in the workspace's project. */
export function workspacePermissions(principal: Principal, workspace: WorkspaceRow): ProjectPermissions {
    return projectPermissions(principal, { id: workspace.project_id, organization: workspace.organization });
}

/** The caller's own organization, by name; another organization (or none of that name) is a 404. */
export function requireOrganization(principal: Principal, name: string | undefined): void {
    if (name !== principal.organization) throw httpError(404, ERROR_CODES.notFound, "Organization not found or you are not authorized to access it");
}

/** A project the caller can see. */
export function visibleProject(db: Db, principal: Principal, id: string | undefined): ProjectRow {
    const project = id === undefined ? undefined : findProject(db, id);
    if (!project || !projectPermissions(principal, project).canRead) {
        throw httpError(404, ERROR_CODES.notFound, "Project not found or you are not authorized to access it");
    }
    return project;
}

/** A project the caller may update, with its tag bindings (`admin`); visible but not permitted is a 404 too. */
export function updatableProject(db: Db, principal: Principal, id: string | undefined): ProjectRow {
    const project = visibleProject(db, principal, id);
    if (!projectPermissions(principal, project).canUpdate) {
        throw httpError(404, ERROR_CODES.notFound, "Project not found or you are not authorized to update it");
    }
    return project;
}

/** A project the caller may move workspaces into (`maintain`); otherwise the 404 that the service's API lists for a move. */
export function moveDestination(db: Db, principal: Principal, id: string | undefined): ProjectRow {
    const project = id === undefined ? undefined : findProject(db, id);
    if (!project || !projectPermissions(principal, project).canMoveWorkspaces) {
        throw httpError(404, ERROR_CODES.notFound, "Project not found or you are not authorized to move workspaces into it");
    }
    return project;
}

/** A project the caller may create workspaces in (`maintain`, or owners / manage projects). */
export function workspaceCreatableProject(db: Db, principal: Principal, id: string | undefined): ProjectRow {
    const project = id === undefined ? undefined : findProject(db, id);
    if (!project || !projectPermissions(principal, project).canCreateWorkspace) {
        throw httpError(404, ERROR_CODES.notFound, "Project not found or you are not authorized to create workspaces in it");
    }
    return project;
}

/** A workspace the caller can see. */
export function visibleWorkspace(db: Db, principal: Principal, id: string | undefined): WorkspaceRow {
    const workspace = id === undefined ? undefined : findWorkspace(db, id);
    if (!workspace || !workspacePermissions(principal, workspace).canRead) {
        throw httpError(404, ERROR_CODES.notFound, "Workspace not found or you are not authorized to access it");
    }
    return workspace;
}

/** A workspace the caller may change or delete (`maintain` on its project). */
export function manageableWorkspace(db: Db, principal: Principal, id: string | undefined): WorkspaceRow {
    const workspace = visibleWorkspace(db, principal, id);
    if (!workspacePermissions(principal, workspace).canManageWorkspaces) {
        throw httpError(404, ERROR_CODES.notFound, "Workspace not found or you are not authorized to change it");
    }
    return workspace;
}

/** A workspace whose variables the caller may read. */
export function variableReadableWorkspace(principal: Principal, workspace: WorkspaceRow | undefined): WorkspaceRow {
    if (!workspace || !workspacePermissions(principal, workspace).canReadVariables) {
        throw httpError(404, ERROR_CODES.notFound, "Workspace not found or you are not authorized to read its variables");
    }
    return workspace;
}

/** A workspace whose variables the caller may create, update and delete (`write`). */
export function variableWritableWorkspace(principal: Principal, workspace: WorkspaceRow | undefined): WorkspaceRow {
    if (!workspace || !workspacePermissions(principal, workspace).canWriteVariables) {
        throw httpError(404, ERROR_CODES.notFound, "Workspace not found or you are not authorized to manage its variables");
    }
    return workspace;
}

/** A variable the caller may update or delete (`write` on its workspace's project). */
export function writableVariable(db: Db, principal: Principal, id: string | undefined): VariableRow {
    const variable = id === undefined ? undefined : findVariable(db, id);
    const workspace = variable ? findWorkspace(db, variable.workspace_id) : undefined;
    if (!variable || !workspace || !workspacePermissions(principal, workspace).canWriteVariables) {
        throw httpError(404, ERROR_CODES.notFound, "Variable not found or you are not authorized to manage it");
    }
    return variable;
}

/**
 * Refuses an organization token where the service's API (its authentication rules) requires a user or team token:
 * enabling a module, changing its settings and creating a workspace from it. A 404 like every refusal, with
 * a detail that says why, so a caller does not hunt for a missing resource.
 */
export function refuseOrganizationToken(principal: Principal): void {
    if (principal.kind === "organization") {
        throw httpError(404, ERROR_CODES.organizationTokenNotAllowed, "An organization token cannot be used for this endpoint; use a user or team token");
    }
}

/** A registry module of the caller's organization (any token of the organization may see it). */
export function visibleRegistryModule(db: Db, principal: Principal, id: string | undefined): RegistryModuleRow {
    const module = id === undefined ? undefined : findRegistryModule(db, id);
    if (!module || module.organization !== principal.organization) {
        throw httpError(404, ERROR_CODES.notFound, "Registry module not found or you are not authorized to access it");
    }
    return module;
}

/** A no-code module of the caller's organization (any token of the organization may read it). */
export function visibleNoCodeModule(db: Db, principal: Principal, id: string | undefined): NoCodeModuleRow {
    const module = id === undefined ? undefined : findNoCodeModule(db, id);
    if (!module || module.organization !== principal.organization) {
        throw httpError(404, ERROR_CODES.notFound, "No-code module not found or you are not authorized to access it");
    }
    return module;
}

/** A no-code module whose settings the caller may change or delete: owners or manage modules, never an organization token. */
export function manageableNoCodeModule(db: Db, principal: Principal, id: string | undefined): NoCodeModuleRow {
    const module = visibleNoCodeModule(db, principal, id);
    refuseOrganizationToken(principal);
    if (!canManageModules(principal)) throw httpError(404, ERROR_CODES.notFound, "No-code module not found or you are not authorized to manage it");
    return module;
}

/**
 * A workspace made from the no-code module `moduleId`, for its upgrade endpoints: the module must be of the
 * caller's organization and still exist, the workspace must have been made from it, and the caller needs
 * `read` on the workspace (`manage`: `maintain`, to start or confirm an upgrade). Anything else is a 404.
 */
export function noCodeWorkspace(
    db: Db,
    principal: Principal,
    moduleId: string | undefined,
    workspaceId: string | undefined,
    need: "read" | "manage",
): { module: NoCodeModuleRow; workspace: WorkspaceRow } {
    const module = visibleNoCodeModule(db, principal, moduleId);
    const workspace = need === "manage" ? manageableWorkspace(db, principal, workspaceId) : visibleWorkspace(db, principal, workspaceId);
    const version = workspace.no_code_module_version_id === null ? undefined : findNoCodeModuleVersion(db, workspace.no_code_module_version_id);
    if (version?.no_code_module_id !== module.id) {
        throw httpError(404, ERROR_CODES.notFound, "Workspace not found among the workspaces of this no-code module, or you are not authorized to access it");
    }
    return { module, workspace };
}
