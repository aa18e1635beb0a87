/**
 * Workspaces beyond the service's API, as on the hosted service: `POST /organizations/:org/workspaces`
 * (create, in the project named or the organization's `Default Project`), `GET /organizations/:org/workspaces` (the list,
 * filtered and paged in SQL), `GET`, `PATCH` (name, description, auto-apply, execution settings, source, and
 * `relationships.project`, which moves the workspace) and `DELETE /workspaces/:id`, `GET
 * /organizations/:org/workspaces/:name`, and the workspace's effective tag bindings (its project's). Reading
 * needs `read` on the project; creating, changing and deleting need `maintain` (or owners / manage projects,
 * which the organization token acts as), and a move also needs it on the destination (the move endpoint's
 * rules).
 */
import type { FastifyInstance } from "fastify";
import type { z } from "zod";
import { WORKSPACE_STORED_ATTRIBUTES, createWorkspaceRequestSchema, updateWorkspaceRequestSchema } from "../../sdk/model";
import { principalOf, type AppContext } from "../context";
import {
    manageableWorkspace,
    moveDestination,
    requireOrganization,
    visibleWorkspace,
    workspaceCreatableProject,
    type Params,
} from "../access";
import type { Principal } from "../auth";
import { now, readTransaction, writeTransaction, type Db } from "../db";
import { abbreviated, badParameter, labelOf, nameTaken, parseBody, urlIdProblems, validationFailed, type Problem } from "../errors";
import { pageOf, pageRequest, singleParameter, type Query } from "../pagination";
import { defaultProjectId, tagBindingsOf, type ProjectRow } from "../records/projects";
import {
    deleteWorkspace,
    findWorkspace,
    findWorkspaceByName,
    insertWorkspace,
    updateWorkspaceSettings,
    workspaceListPage,
    type WorkspaceListQuery,
    type WorkspaceRow,
} from "../records/workspaces";
import { findNoCodeModuleVersion } from "../records/noCodeModules";
import { renderEffectiveTagBinding, renderNoCodeModuleVersion } from "../render";
import { booleanParameter, taggedParameter } from "../tagFilters";
import { executionProblems, moveWorkspaces, workspaceDocument } from "../workspaceRules";

/** The body schemas, built once (a schema is immutable). */
const UPDATE_REQUEST = updateWorkspaceRequestSchema();
const CREATE_REQUEST = createWorkspaceRequestSchema();

type UpdateData = z.output<typeof UPDATE_REQUEST>["data"];
type UpdateAttributes = NonNullable<UpdateData["attributes"]>;
type CreateData = z.output<typeof CREATE_REQUEST>["data"];

/**
 * The `infra-version` every new workspace gets: the column default of the `workspaces` table (migration 1 in
 * `db.ts`), which {@link insertWorkspace} leaves in place. A create may name it only at this value.
 */
const NEW_WORKSPACE_INFRA_VERSION = "1.9.0";

/** Registers the workspace routes under `/api/v2`. */
export function registerWorkspaceRoutes(api: FastifyInstance, { db }: AppContext): void {
    // The hosted service's create: 201 with the workspace. The project comes from the body, so the body is
    // read before the project is authorized (as for a workspace made from a no-code module).
    api.post<Params>("/organizations/:organization/workspaces", async (request, reply) => {
        const principal = principalOf(request);
        const document = writeTransaction(db, () => {
            requireOrganization(principal, request.params.organization);
            const { data } = parseBody(CREATE_REQUEST, request.body);
            return workspaceDocument(db, principal, createWorkspace(db, principal, data));
        });
        return reply.code(201).send(document);
    });

    api.get<Params>("/organizations/:organization/workspaces", async (request) => {
        const principal = principalOf(request);
        requireOrganization(principal, request.params.organization);
        const query = workspaceListQuery(request.query as Query);
        const include = includesModuleVersion(request.query as Query);
        return readTransaction(db, () => {
            const list = workspaceListPage(db, principal, query);
            const page = pageOf(request, list.matching, query.page);
            return {
                data: list.items.map((workspace) => workspaceDocument(db, principal, workspace).data),
                ...(include ? { included: moduleVersionsOf(db, list.items) } : {}),
                links: page.links,
                meta: { "status-counts": { total: list.total, matching: list.matching }, pagination: page.pagination },
            };
        });
    });

    api.get<Params>("/workspaces/:id", async (request) => {
        const principal = principalOf(request);
        const include = includesModuleVersion(request.query as Query);
        return readTransaction(db, () => workspaceWithIncludes(db, principal, visibleWorkspace(db, principal, request.params.id), include));
    });

    // The hosted service's show-by-name: how a client finds a workspace whose create answer it lost.
    api.get<Params>("/organizations/:organization/workspaces/:name", async (request) => {
        const principal = principalOf(request);
        requireOrganization(principal, request.params.organization);
        const include = includesModuleVersion(request.query as Query);
        return readTransaction(db, () => {
            const found = findWorkspaceByName(db, principal.organization, request.params.name);
            return workspaceWithIncludes(db, principal, visibleWorkspace(db, principal, found?.id), include);
        });
    });

    // Tags are inherited from the project: a workspace's effective set is its project's, each binding
    // naming the project it comes from.
    api.get<Params>("/workspaces/:id/effective-tag-bindings", async (request) => {
        const principal = principalOf(request);
        return readTransaction(db, () => {
            const workspace = visibleWorkspace(db, principal, request.params.id);
            return { data: tagBindingsOf(db, workspace.project_id).map((binding) => renderEffectiveTagBinding(binding, workspace.project_id)) };
        });
    });

    // One transaction: the attributes and the move are written together or not at all.
    api.patch<Params>("/workspaces/:id", async (request) => {
        const principal = principalOf(request);
        return writeTransaction(db, () => {
            const current = manageableWorkspace(db, principal, request.params.id);
            const { data } = parseBody(UPDATE_REQUEST, request.body);
            return workspaceDocument(db, principal, updateWorkspace(db, principal, current, data));
        });
    });

    api.delete<Params>("/workspaces/:id", async (request, reply) => {
        const principal = principalOf(request);
        writeTransaction(db, () => {
            const workspace = manageableWorkspace(db, principal, request.params.id);
            deleteWorkspace(db, workspace.id);
        });
        return reply.code(204).send();
    });
}

/**
 * Updates the attributes given; the others keep their value. Switching to `remote` drops the agent pool; an
 * `agent` workspace keeps its pool unless given another. With `relationships.project`, moves the workspace
 * under the move endpoint's rules ({@link moveWorkspaces}): 404 when the destination is unknown or the
 * caller may not move workspaces into it. 422 for a name taken in the organization, execution settings that
 * break {@link executionProblems}, or a hosted attribute this service cannot apply ({@link unappliedProblems}).
 * Every check runs before the first write, and the caller's transaction makes the whole all-or-nothing.
 */
function updateWorkspace(db: Db, principal: Principal, current: WorkspaceRow, data: UpdateData): WorkspaceRow {
    const attributes: UpdateAttributes = data.attributes ?? {};
    const projectId = data.relationships?.project?.data.id;
    const destination = projectId === undefined ? undefined : moveDestination(db, principal, projectId);
    const problems = urlIdProblems(data.id, current.id, "workspace");
    if (attributes.name !== undefined) {
        // The column is COLLATE NOCASE: names are unique in any case.
        const other = findWorkspaceByName(db, current.organization, attributes.name);
        if (other && other.id !== current.id) problems.push(nameTaken(other.id));
    }
    const modeGiven = attributes["execution-mode"] !== undefined;
    const mode = attributes["execution-mode"] ?? current.execution_mode;
    const agentPoolGiven = attributes["agent-pool-id"] !== undefined;
    const agentPoolId = agentPoolGiven ? (attributes["agent-pool-id"] ?? null) : mode === "remote" ? null : current.agent_pool_id;
    problems.push(...executionProblems(db, current.organization, mode, agentPoolId, agentPoolGiven));
    problems.push(
        ...unappliedProblems(current, data, destination, {
            "execution-mode": modeGiven || current.execution_mode_overwritten === 1,
            "agent-pool": agentPoolGiven || modeGiven || current.agent_pool_overwritten === 1,
        }),
    );
    if (problems.length > 0) throw validationFailed(problems);

    const keep = <T>(given: T | undefined, stored: T): T => (given === undefined ? stored : given);
    updateWorkspaceSettings(
        db,
        current.id,
        {
            name: attributes.name ?? current.name,
            description: keep(attributes.description, current.description),
            autoApply: attributes["auto-apply"] === undefined ? current.auto_apply : attributes["auto-apply"] ? 1 : 0,
            executionMode: mode,
            agentPoolId,
            executionModeOverwritten: modeGiven ? 1 : current.execution_mode_overwritten,
            agentPoolOverwritten: agentPoolGiven || modeGiven ? 1 : current.agent_pool_overwritten,
            sourceName: keep(attributes["source-name"], current.source_name),
            sourceUrl: keep(attributes["source-url"], current.source_url),
        },
        now(),
    );
    if (destination) moveWorkspaces(db, principal, destination, [current.id]);
    return findWorkspace(db, current.id)!;
}

/**
 * Creates a workspace (`source` `tfe-api`) in the project of `relationships.project`, or in the
 * organization's `Default Project` when the body names none; the caller needs the right to create
 * workspaces there (`maintain`, or owners / manage projects): otherwise, and for a project that is unknown
 * or of another organization, 404. 422 for a name taken in the organization, execution settings that break
 * {@link executionProblems}, or a hosted attribute this service cannot apply ({@link unappliedProblems},
 * judged against the workspace the create would make). Every check runs before the insert.
 */
function createWorkspace(db: Db, principal: Principal, data: CreateData): WorkspaceRow {
    const attributes = data.attributes;
    const projectId = data.relationships?.project?.data.id ?? defaultProjectId(db, principal.organization);
    const project = workspaceCreatableProject(db, principal, projectId);
    const problems: Problem[] = [];
    // The column is COLLATE NOCASE: names are unique in any case.
    const holder = findWorkspaceByName(db, principal.organization, attributes.name);
    if (holder) problems.push(nameTaken(holder.id));
    const modeGiven = attributes["execution-mode"] !== undefined;
    const mode = attributes["execution-mode"] ?? "remote";
    const agentPoolGiven = attributes["agent-pool-id"] !== undefined;
    const agentPoolId = attributes["agent-pool-id"] ?? null;
    problems.push(...executionProblems(db, principal.organization, mode, agentPoolId, agentPoolGiven));
    // What the new workspace will be: it inherits its project's duration, as every new workspace does.
    const made = { auto_destroy_activity_duration: null, infra_version: NEW_WORKSPACE_INFRA_VERSION, working_directory: null };
    problems.push(...unappliedProblems(made, data, project, { "execution-mode": modeGiven, "agent-pool": modeGiven || agentPoolGiven }));
    if (problems.length > 0) throw validationFailed(problems);

    return insertWorkspace(db, {
        organization: principal.organization,
        projectId: project.id,
        name: attributes.name,
        description: attributes.description ?? null,
        autoApply: attributes["auto-apply"] ?? false,
        executionMode: mode,
        agentPoolId,
        executionModeOverwritten: modeGiven,
        agentPoolOverwritten: modeGiven || agentPoolGiven,
        source: "tfe-api",
        sourceName: attributes["source-name"] ?? null,
        sourceUrl: attributes["source-url"] ?? null,
    });
}

// ---------------------------------------------------------------------------------------------------------
// The list

/**
 * Query parameters of the hosted list that this service does not apply. Each is refused (400 naming it)
 * rather than ignored: a list that quietly left out a filter would answer workspaces the caller excluded.
 */
const UNSUPPORTED_LIST_PARAMETER = /^(search|filter)\[/;

/** The orders of the list: by name, or by the current run's creation (here, as no workspace has one: creation order). */
export const WORKSPACE_LIST_SORTS = ["name", "-name", "current-run.created-at", "-current-run.created-at"] as const;

/**
 * The list's query: page, sort, the searches and filters of the hosted service's published description;
 * 400 for a bad value or a parameter of the family it does not declare.
 */
function workspaceListQuery(query: Query): WorkspaceListQuery {
    const sort = singleParameter(query, "sort");
    if (sort !== undefined && !(WORKSPACE_LIST_SORTS as readonly string[]).includes(sort)) {
        throw badParameter("sort", `sort must be one of ${WORKSPACE_LIST_SORTS.map((value) => `'${value}'`).join(", ")}, got '${abbreviated(sort)}'`);
    }
    // `filter[tagged]...` is read (and its malformed forms refused) by taggedParameter.
    for (const name of Object.keys(query)) {
        if (LIST_FILTERS.has(name) || name.startsWith("filter[tagged]") || !UNSUPPORTED_LIST_PARAMETER.test(name)) continue;
        throw badParameter(name, `${abbreviated(name)} is not supported by this service; the workspace list takes ${[...LIST_FILTERS].join(", ")} and filter[tagged][i][key] / [value]`);
    }
    // Blank values filter nothing, as a blank `q` of the project list.
    const wildcard = singleParameter(query, "search[wildcard-name]")?.trim() || undefined;
    return {
        page: pageRequest(query),
        sort,
        search: singleParameter(query, "search[name]") || undefined,
        projectId: singleParameter(query, "filter[project][id]")?.trim() || undefined,
        tagged: taggedParameter(query, { flat: true, valueDefaultNull: booleanParameter(query, "filter[tag-value-default-null]") }),
        tagUnion: booleanParameter(query, "filter[tag-union]"),
        noCodeModuleId: singleParameter(query, "filter[no-code-module][id]")?.trim() || undefined,
        wildcardName: wildcard === undefined ? undefined : wildcardPattern(wildcard),
        currentRunStatus: (singleParameter(query, "filter[current-run][status]")?.trim() ?? "") !== "",
    };
}

/** `search[wildcard-name]` as a `LIKE` pattern: each `*` any characters, every other character literal. */
function wildcardPattern(search: string): string {
    return search.replace(/[\\%_]/g, (character) => `\\${character}`).replace(/\*/g, "%");
}

/** The filters and searches of the list this service applies (besides `filter[tagged]...`). */
const LIST_FILTERS = new Set([
    "search[name]",
    "search[wildcard-name]",
    "filter[project][id]",
    "filter[no-code-module][id]",
    "filter[tag-union]",
    "filter[tag-value-default-null]",
    "filter[current-run][status]",
]);

/** What `include` may name on a workspace read: its no-code module version (either spelling). */
export const WORKSPACE_INCLUDES = ["no-code-module-version", "no_code_module_version"];

/**
 * Whether `include` asks for the workspace's no-code module version. The hosted service includes other
 * related resources too (`project`, `current_run`, ...), which this one does not hold: a value it would apply
 * is refused, never dropped. go-tfe recognises the refusal by "include parameter" (ErrInvalidIncludeValue).
 */
function includesModuleVersion(query: Query): boolean {
    const include = singleParameter(query, "include");
    if (include === undefined) return false;
    for (const value of include.split(",").map((part) => part.trim())) {
        if (!WORKSPACE_INCLUDES.includes(value)) {
            throw badParameter("include", `Invalid include parameter: a workspace read includes only no-code-module-version here, got '${value}'`);
        }
    }
    return true;
}

/** The no-code module versions the workspaces run, each once, for `included`. */
function moduleVersionsOf(db: Db, workspaces: readonly WorkspaceRow[]) {
    const ids = [...new Set(workspaces.map((workspace) => workspace.no_code_module_version_id).filter((id): id is string => id !== null))];
    return ids.map((id) => findNoCodeModuleVersion(db, id)).filter((version) => version !== undefined).map(renderNoCodeModuleVersion);
}

/** A workspace document, with its no-code module version in `included` when asked. */
function workspaceWithIncludes(db: Db, principal: Principal, workspace: WorkspaceRow, include: boolean) {
    const document = workspaceDocument(db, principal, workspace);
    return include ? { ...document, included: moduleVersionsOf(db, [workspace]) } : document;
}

/**
 * The hosted service's update (and create) fields that this service holds no setting for, judged against the
 * workspace as the request leaves it (`current` as it was or will be made, `overwritesAfter`, `destination`): each is accepted when it says what the
 * workspace is (so it changes nothing) and refused otherwise, never dropped. `vcs-repo` `{}` (pytfe sends
 * it on every update) or `null`: there is no VCS connection. A `WORKSPACE_STORED_ATTRIBUTES` value: the
 * workspace's own. `setting-overwrites`: what the update leaves them. `tag-bindings`: empty (a workspace
 * has no tags of its own here).
 */
function unappliedProblems(
    current: Pick<WorkspaceRow, "auto_destroy_activity_duration" | "infra_version" | "working_directory">,
    data: Pick<UpdateData, "attributes" | "relationships">,
    destination: ProjectRow | undefined,
    overwritesAfter: { "execution-mode": boolean; "agent-pool": boolean },
): Problem[] {
    const attributes: Record<string, unknown> = data.attributes ?? {};
    const problems: Problem[] = [];
    const at = (...path: string[]) => ["data", "attributes", ...path];

    const vcsRepo = attributes["vcs-repo"];
    const noVcsRepo = vcsRepo === undefined || vcsRepo === null || (typeof vcsRepo === "object" && !Array.isArray(vcsRepo) && Object.keys(vcsRepo).length === 0);
    if (!noVcsRepo) {
        problems.push({ path: at("vcs-repo"), detail: "Vcs repo is not supported on this service: workspaces here have no VCS connection; send null or {}, or leave it out" });
    }

    // A moved workspace takes the destination's duration; otherwise it keeps its own. Every workspace here
    // inherits its project's (no write sets `auto_destroy_activity_inherited` to 0), as a move writes it.
    const durationAfter = destination ? destination.auto_destroy_activity_duration : current.auto_destroy_activity_duration;
    const storedAfter: Record<(typeof WORKSPACE_STORED_ATTRIBUTES)[number], string | null> = {
        "auto-destroy-activity-duration": durationAfter,
        "infra-version": current.infra_version,
        "terraform-version": current.infra_version,
        "working-directory": current.working_directory,
    };
    const hint: Record<(typeof WORKSPACE_STORED_ATTRIBUTES)[number], string> = {
        "auto-destroy-activity-duration": "a workspace here follows its project's duration; set it on the project",
        "infra-version": "this service does not change a workspace's version",
        "terraform-version": "this service does not change a workspace's version",
        "working-directory": "this service does not change a workspace's working directory",
    };
    for (const name of WORKSPACE_STORED_ATTRIBUTES) {
        const given = attributes[name];
        if (given === undefined || (given ?? "") === (storedAfter[name] ?? "")) continue;
        const value = storedAfter[name] === null ? "null" : `'${storedAfter[name]}'`;
        problems.push({ path: at(name), detail: `${labelOf(name)} cannot be changed: ${hint[name]}. This workspace's is ${value}; send that or leave it out` });
    }

    const overwrites = attributes["setting-overwrites"] as Partial<Record<"execution-mode" | "agent-pool", boolean>> | undefined;
    for (const setting of ["execution-mode", "agent-pool"] as const) {
        const given = overwrites?.[setting];
        if (given === undefined || given === overwritesAfter[setting]) continue;
        problems.push({
            path: at("setting-overwrites", setting),
            detail: given
                ? `Setting overwrites ${setting} may only be true with a value for ${setting === "execution-mode" ? "execution-mode" : "agent-pool-id or execution-mode"} in the same request`
                : `Setting overwrites ${setting} cannot be false on this service: a workspace here keeps the ${setting.replace("-", " ")} it was given (there is no project default to fall back to)`,
        });
    }

    if ((data.relationships?.["tag-bindings"]?.data.length ?? 0) > 0) {
        problems.push({
            path: ["data", "relationships", "tag-bindings", "data"],
            detail: "Tag bindings of a workspace are not supported on this service: a workspace's tags are its project's; bind them to the project (PATCH /projects/:id/tag-bindings)",
        });
    }
    return problems;
}
