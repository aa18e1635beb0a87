/**
 * Rendering of every resource of the local service as JSON:API, in one place, so every endpoint answers
 * the same shape for the same resource (attribute sets per endpoint as the service's API lists them).
 */
import type { Principal } from "./auth";
import { effectiveAccess, permissionsAtLevel, projectPermissions } from "./auth";
import type { AccessLevel } from "./db";
import { optionValues, type NoCodeModuleRow, type NoCodeModuleVersionRow, type RegistryModuleRow, type VariableOptionsRow } from "./records/noCodeModules";
import type { ProjectRow, TagBindingRow } from "./records/projects";
import type { VariableRow } from "./records/variables";
import type { WorkspaceUpgradeRow } from "./records/workspaceUpgrades";
import type { WorkspaceRow } from "./records/workspaces";
import type { ProjectListRow } from "./projectListRows";

const API = "/api/v2";

/** Paths of resources (relative, as the service's API shows links). */
export const paths = {
    organization: (name: string) => `${API}/organizations/${encodeURIComponent(name)}`,
    project: (id: string) => `${API}/projects/${id}`,
    projectTagBindings: (id: string) => `${API}/projects/${id}/tag-bindings`,
    projectEffectiveTagBindings: (id: string) => `${API}/projects/${id}/effective-tag-bindings`,
    workspace: (id: string) => `${API}/workspaces/${id}`,
    variable: (id: string) => `${API}/vars/${id}`,
    registryModule: (id: string) => `${API}/registry-modules/${id}`,
    noCodeModule: (id: string) => `${API}/no-code-modules/${id}`,
    /** The workspace's page in the web interface (`links.self-html`). */
    workspaceHtml: (organization: string, name: string) =>
        `/app/${encodeURIComponent(organization)}/workspaces/${encodeURIComponent(name)}`,
    /** A run's page in the web interface: where an upgrade's plan is shown (`plan-url`, made absolute). */
    runHtml: (organization: string, workspaceName: string, runId: string) =>
        `/app/${encodeURIComponent(organization)}/workspaces/${encodeURIComponent(workspaceName)}/runs/${runId}`,
};

/**
 * Which attribute set of a project: `create` is the small one of the create response; `full` that of
 * update and list; `show` adds `auto-destroy-activity-duration`.
 */
export type ProjectView = "create" | "full" | "show";

/** What a project holds, counted: the update, list and show answers carry it. */
export interface ProjectCounts {
    workspaceCount: number;
    teamCount: number;
}

/** The columns of a project that every view shows (`show` adds the auto-destroy duration): what a list page reads. */
export type ProjectFields = Pick<ProjectRow, "id" | "organization" | "name" | "description">;

/** A project resource with the caller's permissions; every view but `create` carries the counts. */
export function renderProject(project: ProjectFields, principal: Principal, view: "create"): ReturnType<typeof projectResource>;
export function renderProject(project: ProjectFields, principal: Principal, view: "full", counts: ProjectCounts): ReturnType<typeof projectResource>;
export function renderProject(project: ProjectRow, principal: Principal, view: "show", counts: ProjectCounts): ReturnType<typeof projectResource>;
export function renderProject(project: ProjectFields & Partial<ProjectRow>, principal: Principal, view: ProjectView, counts?: ProjectCounts) {
    return projectResource(project, principal, view, counts);
}

function projectResource(project: ProjectFields & Partial<ProjectRow>, principal: Principal, view: ProjectView, counts: ProjectCounts | undefined) {
    const permissions = projectPermissions(principal, project);
    const attributes: Record<string, unknown> = { name: project.name, description: project.description };
    if (view === "create") {
        attributes.permissions = { "can-update": permissions.canUpdate };
    } else {
        if (view === "show") attributes["auto-destroy-activity-duration"] = project.auto_destroy_activity_duration;
        attributes["workspace-count"] = counts!.workspaceCount;
        attributes["team-count"] = counts!.teamCount;
        attributes.permissions = {
            "can-update": permissions.canUpdate,
            "can-destroy": permissions.canDestroy,
            "can-create-workspace": permissions.canCreateWorkspace,
        };
    }
    return {
        id: project.id,
        type: "projects",
        attributes,
        relationships: {
            organization: {
                data: { id: project.organization, type: "organizations" },
                links: { related: paths.organization(project.organization) },
            },
            "tag-bindings": { links: { related: paths.projectTagBindings(project.id) } },
            "effective-tag-bindings": { links: { related: paths.projectEffectiveTagBindings(project.id) } },
        },
        links: { self: paths.project(project.id) },
    };
}

// The project list's document as JSON text, written here rather than by rendering objects and serializing
// them: a list page is the service's largest common answer, and objects, a serializer and the flattening of
// the text it concatenates piece by piece cost about three times what writing each item as one template
// does. The bytes are those `JSON.stringify` writes for the objects of `renderProject` ("full" view) and
// `pageOf`, key for key in the same order: tests/server/projectListScale.test.ts compares the list's text
// with `JSON.stringify`'s and its items with the update's answer (that view, written by `JSON.stringify`),
// and tests/server/keptCounts.test.ts compares the text of each item with the update's, byte for byte.

/** Characters `JSON.stringify` escapes in a string (any surrogate, so that a lone one takes the slow path too). */
const ESCAPED = /["\\\u0000-\u001f\ud800-\udfff]/;

/** `value` as `JSON.stringify` writes it: quoted as it is unless something in it needs escaping. */
function jsonString(value: string): string {
    return ESCAPED.test(value) ? JSON.stringify(value) : `"${value}"`;
}

/** The `links` of a list page (server/pagination.ts `pageOf`). */
export interface PageLinks {
    self: string;
    first: string;
    prev: string | null;
    next: string | null;
    last: string;
}

/** The `meta` of a project list page. */
export interface ProjectListMeta {
    "status-counts": { total: number; matching: number };
    pagination: {
        "current-page": number;
        "page-size": number;
        "prev-page": number | null;
        "next-page": number | null;
        "total-pages": number;
        "total-count": number;
    };
}

/**
 * The project list's document, `{ data, links, meta }`, as the JSON text `JSON.stringify` writes for it: each
 * project of the page as {@link renderProject}'s "full" view with the caller's permissions, all of the
 * principal's organization (as every list statement reads them).
 */
export function projectListJson(projects: readonly ProjectListRow[], principal: Principal, links: PageLinks, meta: ProjectListMeta): string {
    const organization = principal.organization;
    // What every item says of the organization, written once for the page.
    const organizationPart = `"relationships":{"organization":{"data":{"id":${jsonString(organization)},"type":"organizations"},"links":{"related":${jsonString(paths.organization(organization))}}},`;
    // One string grown item by item: an array of items joined at the end cost a third more.
    let text = `{"data":[`;
    for (let i = 0; i < projects.length; i++) {
        const project = projects[i]!;
        const id = project.id;
        // Every item is in the caller's organization (as every list statement reads them).
        const permissions = permissionsText(effectiveAccess(principal, id));
        const description = project.description === null ? "null" : jsonString(project.description);
        text +=
            `${i === 0 ? "" : ","}{"id":${jsonString(id)},"type":"projects","attributes":{"name":${jsonString(project.name)},"description":${description},` +
            `"workspace-count":${project.workspaceCount},"team-count":${project.teamCount},"permissions":${permissions}},${organizationPart}${projectLinksPart(id)}`;
    }
    return `${text}],"links":${JSON.stringify(links)},"meta":${JSON.stringify(meta)}}`;
}

/**
 * The end of a list item: its tag-binding relationships' links and its own. An id that needs no escaping
 * gives links that need none (they add only a fixed ASCII path): written in place; any other goes through
 * `JSON.stringify`.
 */
function projectLinksPart(id: string): string {
    if (!ESCAPED.test(id)) {
        const path = `${API}/projects/${id}`;
        return `"tag-bindings":{"links":{"related":"${path}/tag-bindings"}},"effective-tag-bindings":{"links":{"related":"${path}/effective-tag-bindings"}}},"links":{"self":"${path}"}}`;
    }
    return (
        `"tag-bindings":{"links":{"related":${JSON.stringify(paths.projectTagBindings(id))}}},` +
        `"effective-tag-bindings":{"links":{"related":${JSON.stringify(paths.projectEffectiveTagBindings(id))}}}},"links":{"self":${JSON.stringify(paths.project(id))}}}`
    );
}

/** The `permissions` text of a list item at each access level, written once per level (see {@link permissionsText}). */
const PERMISSIONS_TEXTS = new Map<AccessLevel | undefined, string>();

/**
 * The `permissions` member of a list item whose project the caller holds at `level`, as `JSON.stringify`
 * writes {@link renderProject}'s: the same few texts repeat on every page, so each is written once.
 */
function permissionsText(level: AccessLevel | undefined): string {
    let text = PERMISSIONS_TEXTS.get(level);
    if (text === undefined) {
        const permissions = permissionsAtLevel(level);
        text = `{"can-update":${permissions.canUpdate},"can-destroy":${permissions.canDestroy},"can-create-workspace":${permissions.canCreateWorkspace}}`;
        PERMISSIONS_TEXTS.set(level, text);
    }
    return text;
}

/** A tag binding as the list endpoints show it: no id, with `created-at`. */
export function renderTagBindingForList(binding: TagBindingRow) {
    return {
        type: "tag-bindings",
        attributes: { key: binding.key, value: binding.value, "created-at": binding.created_at },
    };
}

/**
 * A tag binding as the effective-tag-bindings endpoints show it: the list's attributes under the hosted
 * service's type `effective-tag-bindings` (go-tfe refuses any other type there). A workspace's bindings are
 * all inherited from its project, whose path `links.inherited-from` gives (a JSON:API link: a URL, which
 * go-tfe decodes into its `Links`); a project's are its own (no link).
 */
export function renderEffectiveTagBinding(binding: TagBindingRow, inheritedFromProject?: string) {
    return {
        type: "effective-tag-bindings",
        attributes: { key: binding.key, value: binding.value, "created-at": binding.created_at },
        // Where it is inherited from, both ways the hosted service says it: the relationship of its published
        // description (go-tfe v2) and the link go-tfe v1 decodes.
        ...(inheritedFromProject !== undefined && {
            relationships: { "inherited-from": { data: { type: "projects", id: inheritedFromProject } } },
            links: { "inherited-from": paths.project(inheritedFromProject) },
        }),
    };
}

/** A tag binding as the update endpoint answers it: with its `tb-` id. */
export function renderTagBindingWritten(binding: TagBindingRow) {
    return { id: binding.id, type: "tag-bindings", attributes: { key: binding.key, value: binding.value } };
}

/** A variable; a sensitive value is always `null`. */
export function renderVariable(variable: VariableRow) {
    const sensitive = variable.sensitive === 1;
    return {
        id: variable.id,
        type: "vars",
        attributes: {
            key: variable.key,
            value: sensitive ? null : variable.value,
            description: variable.description,
            category: variable.category,
            hcl: variable.hcl === 1,
            sensitive,
            "version-id": variable.version_id,
        },
        relationships: {
            configurable: {
                data: { id: variable.workspace_id, type: "workspaces" },
                links: { related: paths.workspace(variable.workspace_id) },
            },
        },
        links: { self: paths.variable(variable.id) },
    };
}

/**
 * A workspace with the attribute names of the service's API. Attributes the local service does not model
 * (runs, state, assessments) carry the values of a workspace that never ran.
 */
export function renderWorkspace(
    workspace: WorkspaceRow,
    principal: Principal,
    context: { tagNames: string[]; variableIds: string[]; noCodeUpgradeAvailable: boolean },
) {
    const permissions = projectPermissions(principal, { id: workspace.project_id, organization: workspace.organization });
    const canQueue = permissions.canWriteVariables;
    const related = (suffix: string) => ({ links: { related: `${paths.workspace(workspace.id)}/${suffix}` } });
    return {
        id: workspace.id,
        type: "workspaces",
        attributes: {
            "allow-destroy-plan": true,
            "auto-apply": workspace.auto_apply === 1,
            "auto-destroy-at": null,
            "auto-destroy-status": null,
            "auto-destroy-activity-duration": workspace.auto_destroy_activity_duration,
            "created-at": workspace.created_at,
            environment: "default",
            locked: workspace.locked === 1,
            name: workspace.name,
            "queue-all-runs": false,
            "speculative-enabled": true,
            "structured-run-output-enabled": true,
            "infra-version": workspace.infra_version,
            "working-directory": workspace.working_directory,
            "global-remote-state": false,
            "updated-at": workspace.updated_at,
            "resource-count": 0,
            "apply-duration-average": null,
            "plan-duration-average": null,
            "policy-check-failures": null,
            "run-failures": null,
            "workspace-kpis-runs-count": null,
            "latest-change-at": workspace.updated_at,
            operations: true,
            "execution-mode": workspace.execution_mode,
            "vcs-repo": null,
            "vcs-repo-identifier": null,
            description: workspace.description,
            "file-triggers-enabled": true,
            "trigger-prefixes": [],
            "trigger-patterns": [],
            "assessments-enabled": false,
            "last-assessment-result-at": null,
            source: workspace.source,
            "source-name": workspace.source_name,
            "source-url": workspace.source_url,
            "source-module-id": workspace.source_module_id,
            "no-code-upgrade-available": context.noCodeUpgradeAvailable,
            "tag-names": context.tagNames,
            "setting-overwrites": {
                "execution-mode": workspace.execution_mode_overwritten === 1,
                "agent-pool": workspace.agent_pool_overwritten === 1,
            },
            actions: { "is-destroyable": permissions.canManageWorkspaces },
            permissions: {
                "can-update": permissions.canManageWorkspaces,
                "can-destroy": permissions.canManageWorkspaces,
                "can-queue-run": canQueue,
                "can-read-variable": permissions.canReadVariables,
                "can-update-variable": permissions.canWriteVariables,
                "can-read-state-versions": permissions.canRead,
                "can-read-state-outputs": permissions.canRead,
                "can-create-state-versions": canQueue,
                "can-queue-apply": canQueue,
                "can-lock": canQueue,
                "can-unlock": canQueue,
                "can-force-unlock": permissions.canManageWorkspaces,
                "can-read-settings": permissions.canRead,
                "can-manage-tags": permissions.canManageWorkspaces,
                "can-manage-run-tasks": permissions.canManageWorkspaces,
                "can-force-delete": permissions.canManageWorkspaces,
                "can-manage-assessments": permissions.canManageWorkspaces,
                "can-manage-ephemeral-workspaces": permissions.canManageWorkspaces,
                "can-read-assessment-results": permissions.canRead,
                "can-queue-destroy": canQueue,
            },
        },
        relationships: {
            organization: {
                data: { id: workspace.organization, type: "organizations" },
                links: { related: paths.organization(workspace.organization) },
            },
            "current-run": { data: null, ...related("current-run") },
            "latest-run": { data: null, ...related("latest-run") },
            outputs: related("current-state-version-outputs"),
            "remote-state-consumers": related("relationships/remote-state-consumers"),
            "current-state-version": { data: null, ...related("current-state-version") },
            "current-configuration-version": { data: null, ...related("current-configuration-version") },
            "agent-pool": {
                data: workspace.agent_pool_id ? { id: workspace.agent_pool_id, type: "agent-pools" } : null,
            },
            readme: { data: null },
            project: {
                data: { id: workspace.project_id, type: "projects" },
                links: { related: paths.project(workspace.project_id) },
            },
            "current-assessment-result": { data: null },
            "no-code-module-version": {
                data: workspace.no_code_module_version_id
                    ? { id: workspace.no_code_module_version_id, type: "no-code-module-versions" }
                    : null,
            },
            vars: { data: context.variableIds.map((id) => ({ id, type: "vars" })) },
        },
        links: {
            self: paths.workspace(workspace.id),
            "self-html": paths.workspaceHtml(workspace.organization, workspace.name),
        },
    };
}

/**
 * A no-code module. Its variable-options sets are listed by id in `relationships`; {@link renderVariableOptions}
 * renders them for `included`.
 */
export function renderNoCodeModule(module: NoCodeModuleRow, sets: readonly VariableOptionsRow[]) {
    return {
        id: module.id,
        type: "no-code-modules",
        attributes: { enabled: module.enabled === 1, "version-pin": module.version_pin },
        relationships: {
            organization: {
                data: { id: module.organization, type: "organizations" },
                links: { related: paths.organization(module.organization) },
            },
            // Always the plural type, whichever of the two a client sent.
            "registry-module": {
                data: { id: module.registry_module_id, type: "registry-modules" },
                links: { related: paths.registryModule(module.registry_module_id) },
            },
            "variable-options": { data: sets.map((set) => ({ id: set.id, type: "variable-options" })) },
        },
        links: { self: paths.noCodeModule(module.id) },
    };
}

/** A variable-options set as `included` carries it; options are always strings, as the public clients decode them. */
export function renderVariableOptions(set: VariableOptionsRow) {
    return {
        id: set.id,
        type: "variable-options",
        attributes: {
            "variable-name": set.variable_name,
            "variable-type": set.variable_type,
            options: optionValues(set),
        },
        relationships: {
            "no-code-allowed-module": { data: { id: set.no_code_module_id, type: "no-code-allowed-modules" } },
        },
    };
}

/**
 * A version of a no-code module: what a workspace made from it runs (its `no-code-module-version`), with the
 * module version it pins. `included` of a workspace read with `include=no-code-module-version`, and
 * `GET /no-code-module-versions/:id`.
 */
export function renderNoCodeModuleVersion(version: NoCodeModuleVersionRow) {
    return {
        id: version.id,
        type: "no-code-module-versions",
        attributes: { "module-version": version.version_pin, "created-at": version.created_at },
        relationships: {
            "no-code-module": { data: { id: version.no_code_module_id, type: "no-code-modules" } },
            "registry-module": { data: { id: version.registry_module_id, type: "registry-modules" } },
        },
    };
}

/** A registry module: what the provider needs to find the no-code module made from it. */
export function renderRegistryModule(module: RegistryModuleRow, versions: readonly string[], noCodeModuleIds: readonly string[]) {
    return {
        id: module.id,
        type: "registry-modules",
        attributes: {
            name: module.name,
            provider: module.provider,
            namespace: module.organization,
            "no-code": module.no_code_ready === 1,
            "version-statuses": versions.map((version) => ({ version, status: "ok" })),
        },
        relationships: {
            organization: {
                data: { id: module.organization, type: "organizations" },
                links: { related: paths.organization(module.organization) },
            },
            "no-code-modules": { data: noCodeModuleIds.map((id) => ({ id, type: "no-code-modules" })) },
        },
        links: { self: paths.registryModule(module.id) },
    };
}

/** A workspace upgrade run with the status it has now and the absolute URL of its plan. */
export function renderWorkspaceUpgrade(run: WorkspaceUpgradeRow, status: string, planUrl: string) {
    return {
        id: run.id,
        type: "workspace-upgrade",
        attributes: { status, "plan-url": planUrl },
        relationships: { workspace: { data: { id: run.workspace_id, type: "workspaces" } } },
    };
}
