/**
 * The lookups (`getProject`, `getProjects`, `getWorkspace`, `getWorkspaces`, `getNoCodeModule`) once, for
 * both front doors: the dynamic resources' package runs them in the program's process with the stack config
 * of the program (`provider/get*.ts`), and the native plugin `pulumi-resource-wos` runs them as engine
 * invokes with its provider's configuration. Only where the settings come from differs
 * ({@link LookupSettings}); what is asked of the service, what is answered and every message are the same.
 *
 * @module
 */
import type { NoCodeModuleVersion, WosClient, Workspace } from "../../sdk";
// From its own module, not the barrel: see credentials.ts.
import { WosNotFoundError } from "../../sdk/errors";
import { type ClientCache, DEFAULT_WOS_ADDRESS } from "./credentials";

/** Where a lookup reads the address, token and default organization it runs with. */
export interface LookupSettings {
    /** The configured value of `wos:<key>`, else its environment variable (`WOS_ADDRESS`...); `undefined` when neither is set. */
    setting(key: "address" | "token" | "organization"): string | undefined;
    /** The clients of these settings, one per address and token (keep-alive connections shared). */
    clients: ClientCache;
}

/**
 * The client of a lookup, for the configured address and token. Throws, naming the lookup, `wos:token` and
 * `WOS_TOKEN`, when there is no token.
 */
export function lookupClient(settings: LookupSettings, lookup: string): WosClient {
    const token = settings.setting("token");
    if (!token) {
        throw new Error(
            `${lookup}: no token configured: set the stack config 'wos:token' ` +
                "(pulumi config set --secret wos:token <TOKEN>) or the environment variable WOS_TOKEN",
        );
    }
    return settings.clients.clientFor(settings.setting("address") ?? DEFAULT_WOS_ADDRESS, token);
}

/**
 * The organization a lookup looks in: the one given, else the default organization (`wos:organization`,
 * else `WOS_ORGANIZATION`). Throws, naming the lookup and where to set a default, when there is none.
 */
export function lookupOrganization(settings: LookupSettings, lookup: string, given: string | undefined): string {
    if (given !== undefined && given !== null) {
        if (typeof given !== "string" || given.trim() === "") throw new Error(`${lookup}: organization must be an organization's name, not empty`);
        return given;
    }
    const organization = settings.setting("organization");
    if (!organization) {
        throw new Error(
            `${lookup}: no organization: pass organization, or set a default organization with the stack config ` +
                "'wos:organization' (pulumi config set wos:organization <NAME>) or the environment variable WOS_ORGANIZATION",
        );
    }
    return organization;
}

/** Page size of the list lookups: the service's largest, so that few requests cover an organization. */
const PAGE_SIZE = 100;

// ---------------------------------------------------------------------------------------------------------
// getProject

/** Arguments of `getProject`. */
export interface GetProjectArgs {
    /** Name of the organization; default: the stack config `wos:organization`, else `WOS_ORGANIZATION`. */
    organization?: string;
    /** The project's name (compared case-insensitively, as the service does). */
    name: string;
}

/** What `getProject` finds. Absent optional fields are left out. */
export interface GetProjectResult {
    /** The project's id (`prj-…`). */
    id: string;
    /** The organization's name. */
    organization: string;
    /** The project's name as the service holds it. */
    name: string;
    /** The description; left out when none is set. */
    description?: string;
    /** Inactivity after which its workspaces are destroyed (`14d`, `12h`); left out when none is set. */
    autoDestroyActivityDuration?: string;
    /** Number of workspaces in the project at the time of the lookup. */
    workspaceCount: number;
    /** Number of teams with access to the project. */
    teamCount: number;
    /** The project's tag bindings. */
    tags: Record<string, string>;
}

/**
 * Finds the project named `name` in `organization` (the default organization when left out), with its
 * duration and tags. Fails when there is none (or the token may not see it).
 */
export async function lookUpProject(settings: LookupSettings, args: GetProjectArgs): Promise<GetProjectResult> {
    const organization = lookupOrganization(settings, "wos.getProject", args.organization);
    const client = lookupClient(settings, "wos.getProject");
    const list = await client.projects.list(organization, { names: [args.name], pageSize: PAGE_SIZE });
    const match = list.items.find((project) => project.name.toLowerCase() === args.name.toLowerCase());
    if (!match) {
        throw new Error(`wos.getProject: no project named '${args.name}' in organization '${organization}'`);
    }
    const project = await client.projects.read(match.id);
    const bindings = await client.projects.listTagBindings(match.id);
    const result: GetProjectResult = {
        id: project.id,
        organization: project.organization ?? organization,
        name: project.name,
        workspaceCount: project.workspaceCount ?? match.workspaceCount ?? 0,
        teamCount: project.teamCount ?? match.teamCount ?? 0,
        tags: Object.fromEntries(bindings.map((binding) => [binding.key, binding.value])),
    };
    if (project.description) result.description = project.description;
    if (project.autoDestroyActivityDuration) result.autoDestroyActivityDuration = project.autoDestroyActivityDuration;
    return result;
}

// ---------------------------------------------------------------------------------------------------------
// getProjects

/** Arguments of `getProjects`. */
export interface GetProjectsArgs {
    /** Name of the organization; default: the stack config `wos:organization`, else `WOS_ORGANIZATION`. */
    organization?: string;
    /** Only projects whose name holds this text, in any case (ignored when `names` is given, as the service does). */
    query?: string;
    /** Only the projects of these names, in any case. */
    names?: string[];
}

/** One project as `getProjects` answers it. Absent optional fields are left out. */
export interface GetProjectsItem {
    /** The project's id (`prj-…`). */
    id: string;
    /** The project's name. */
    name: string;
    /** The description; left out when none is set. */
    description?: string;
    /** Number of workspaces in the project at the time of the lookup. */
    workspaceCount: number;
    /** Number of teams with access to the project. */
    teamCount: number;
}

/** What `getProjects` finds. */
export interface GetProjectsResult {
    /** The organization that was searched. */
    organization: string;
    /** The projects, in the order they were made. */
    projects: GetProjectsItem[];
    /** Their names, in the same order. */
    names: string[];
    /** Their ids by name. */
    ids: Record<string, string>;
}

/**
 * Every project of `organization` (the default organization when left out) that the token can see and the
 * filters keep, across every page. None is not an error: the lists are empty.
 */
export async function lookUpProjects(settings: LookupSettings, args: GetProjectsArgs = {}): Promise<GetProjectsResult> {
    const organization = lookupOrganization(settings, "wos.getProjects", args.organization);
    const client = lookupClient(settings, "wos.getProjects");
    const options = {
        pageSize: PAGE_SIZE,
        ...(args.query !== undefined ? { query: args.query } : {}),
        ...(args.names !== undefined ? { names: args.names } : {}),
    };
    const projects: GetProjectsItem[] = [];
    for await (const project of client.projects.listAll(organization, options)) {
        const item: GetProjectsItem = {
            id: project.id,
            name: project.name,
            workspaceCount: project.workspaceCount ?? 0,
            teamCount: project.teamCount ?? 0,
        };
        if (project.description) item.description = project.description;
        projects.push(item);
    }
    return {
        organization,
        projects,
        names: projects.map((project) => project.name),
        ids: Object.fromEntries(projects.map((project) => [project.name, project.id])),
    };
}

// ---------------------------------------------------------------------------------------------------------
// getWorkspace, getWorkspaces

/** Arguments of `getWorkspace`. */
export interface GetWorkspaceArgs {
    /** Name of the organization; default: the stack config `wos:organization`, else `WOS_ORGANIZATION`. */
    organization?: string;
    /** The workspace's name (compared case-insensitively, as the service does). */
    name: string;
}

/** A workspace as a lookup answers it (`getWorkspace`, `getWorkspaces`). Absent optional fields are left out. */
export interface GetWorkspaceResult {
    /** The workspace's id (`ws-…`): what a `wos.Variable` takes as `workspaceId`. */
    id: string;
    /** The organization's name. */
    organization: string;
    /** The workspace's name. */
    name: string;
    /** The project the workspace is in (`prj-…`). */
    projectId: string;
    /** The description; left out when none is set. */
    description?: string;
    /** Whether a successful plan is applied without a confirm. */
    autoApply: boolean;
    /** Where its runs execute: `remote` (on the service) or `agent` (on an agent pool). */
    executionMode: "remote" | "agent";
    /** The agent pool (`apool-…`), with `agent`. */
    agentPoolId?: string;
    /** How it was made: `tfe-api` (the API or a seed) or `tfe-module` (a no-code module). */
    source?: string;
    /** The application shown as having made the workspace; left out when none. */
    sourceName?: string;
    /** A URL of that application; left out when none. */
    sourceUrl?: string;
    /** The registry module (`mod-…`) of the no-code module it was made from, if any. */
    sourceModuleId?: string;
    /** Whether its no-code module has a newer version than the one it runs. */
    noCodeUpgradeAvailable: boolean;
    /** The no-code module (`nocode-…`) it was made from; left out for a workspace not made from one. */
    noCodeModuleId?: string;
    /** The module version it runs (e.g. `1.0.0`), of the no-code module it was made from; left out for a workspace not made from one. */
    moduleVersion?: string;
    /** The keys of the tags it inherits from its project. */
    tagNames: string[];
    /** The auto-destroy duration it inherits from its project, when set. */
    autoDestroyActivityDuration?: string;
}

/**
 * The no-code module versions the workspaces run, by id: each read once (`GET /no-code-module-versions/:id`),
 * however many workspaces run it (a fleet of hundreds runs a few versions).
 */
async function moduleVersionsOf(client: WosClient, workspaces: readonly Workspace[]): Promise<Map<string, NoCodeModuleVersion>> {
    const ids = [...new Set(workspaces.map((workspace) => workspace.noCodeModuleVersionId).filter((id): id is string => id !== null))];
    return new Map(await Promise.all(ids.map(async (id) => [id, await client.noCodeModules.readVersion(id)] as const)));
}

/** A workspace of the SDK as a lookup answers it: plain data, absent values left out. */
function workspaceResult(workspace: Workspace, organization: string, versions: ReadonlyMap<string, NoCodeModuleVersion>): GetWorkspaceResult {
    const result: GetWorkspaceResult = {
        id: workspace.id,
        organization: workspace.organization || organization,
        name: workspace.name,
        projectId: workspace.projectId,
        autoApply: workspace.autoApply,
        executionMode: workspace.executionMode,
        noCodeUpgradeAvailable: workspace.noCodeUpgradeAvailable,
        tagNames: [...workspace.tagNames],
    };
    if (workspace.description) result.description = workspace.description;
    if (workspace.agentPoolId) result.agentPoolId = workspace.agentPoolId;
    if (workspace.source) result.source = workspace.source;
    if (workspace.sourceName) result.sourceName = workspace.sourceName;
    if (workspace.sourceUrl) result.sourceUrl = workspace.sourceUrl;
    if (workspace.sourceModuleId) result.sourceModuleId = workspace.sourceModuleId;
    if (workspace.autoDestroyActivityDuration) result.autoDestroyActivityDuration = workspace.autoDestroyActivityDuration;
    const version = workspace.noCodeModuleVersionId === null ? undefined : versions.get(workspace.noCodeModuleVersionId);
    if (version) {
        if (version.noCodeModuleId) result.noCodeModuleId = version.noCodeModuleId;
        result.moduleVersion = version.moduleVersion;
    }
    return result;
}

/**
 * Finds the workspace named `name` in `organization` (the default organization when left out). Fails when
 * there is none (or the token may not read it).
 */
export async function lookUpWorkspace(settings: LookupSettings, args: GetWorkspaceArgs): Promise<GetWorkspaceResult> {
    const organization = lookupOrganization(settings, "wos.getWorkspace", args.organization);
    const client = lookupClient(settings, "wos.getWorkspace");
    try {
        const workspace = await client.workspaces.readByName(organization, args.name);
        return workspaceResult(workspace, organization, await moduleVersionsOf(client, [workspace]));
    } catch (failure) {
        if (WosNotFoundError.isInstance(failure)) {
            throw new Error(`wos.getWorkspace: no workspace named '${args.name}' in organization '${organization}' (or the token may not read it)`);
        }
        throw failure;
    }
}

/** Arguments of `getWorkspaces`. */
export interface GetWorkspacesArgs {
    /** Name of the organization; default: the stack config `wos:organization`, else `WOS_ORGANIZATION`. */
    organization?: string;
    /** Only workspaces whose name holds this text, in any case (every character literal). */
    search?: string;
    /** Only the workspaces of this project (`prj-…`). */
    projectId?: string;
    /** Only the workspaces made from this no-code module (`nocode-…`), whichever of its versions they run. */
    noCodeModuleId?: string;
}

/** What `getWorkspaces` finds. */
export interface GetWorkspacesResult {
    /** The organization that was searched. */
    organization: string;
    /** The workspaces, in the order they were made. */
    workspaces: GetWorkspaceResult[];
    /** Their names, in the same order. */
    names: string[];
    /** Their ids by name. */
    ids: Record<string, string>;
}

/**
 * Every workspace of `organization` (the default organization when left out) that the token can read and
 * the filters keep, across every page. None is not an error: the lists are empty.
 */
export async function lookUpWorkspaces(settings: LookupSettings, args: GetWorkspacesArgs = {}): Promise<GetWorkspacesResult> {
    const organization = lookupOrganization(settings, "wos.getWorkspaces", args.organization);
    const client = lookupClient(settings, "wos.getWorkspaces");
    const workspaces: GetWorkspaceResult[] = [];
    const options = {
        pageSize: PAGE_SIZE,
        ...(args.search !== undefined ? { search: args.search } : {}),
        ...(args.projectId !== undefined ? { projectId: args.projectId } : {}),
        ...(args.noCodeModuleId !== undefined ? { noCodeModuleId: args.noCodeModuleId } : {}),
    };
    const listed: Workspace[] = [];
    for await (const workspace of client.workspaces.listAll(organization, options)) listed.push(workspace);
    const versions = await moduleVersionsOf(client, listed);
    for (const workspace of listed) workspaces.push(workspaceResult(workspace, organization, versions));
    return {
        organization,
        workspaces,
        names: workspaces.map((workspace) => workspace.name),
        ids: Object.fromEntries(workspaces.map((workspace) => [workspace.name, workspace.id])),
    };
}

// ---------------------------------------------------------------------------------------------------------
// getNoCodeModule

/** Arguments of `getNoCodeModule`. */
export interface GetNoCodeModuleArgs {
    /** The no-code module's id (`nocode-…`). */
    id: string;
}

/** One variable-options set of a {@link GetNoCodeModuleResult}. */
export interface GetNoCodeModuleVariableOptions {
    /** `ncvaropt-…` */
    id: string;
    /** The module variable the set restricts. */
    variableName: string;
    /** That variable's declared type (`string`, `number`, ...). */
    variableType: string;
    /** The allowed values, as text. */
    options: string[];
}

/** What `getNoCodeModule` finds. */
export interface GetNoCodeModuleResult {
    /** `nocode-…` */
    id: string;
    /** The organization's name. */
    organization: string;
    /** The registry module (`mod-…`) it enables. */
    registryModuleId: string;
    /** The module version no-code workspaces use. */
    versionPin: string;
    /** Whether workspaces may be made from it. */
    enabled: boolean;
    /** Its variable-options sets, in the service's order. */
    variableOptions: GetNoCodeModuleVariableOptions[];
    /** The workspaces made from it that the token can read, in the order they were made: what each runs. */
    workspaces: GetNoCodeModuleWorkspace[];
    /** The names of those of them that do not run the module's current version (an upgrade is available). */
    workspacesBehind: string[];
}

/** A workspace made from a no-code module, as `getNoCodeModule` answers it. */
export interface GetNoCodeModuleWorkspace {
    /** `ws-…` */
    id: string;
    /** The workspace's name. */
    name: string;
    /** The module version it runs, e.g. `1.0.0`. */
    moduleVersion: string;
    /** Whether the module has a newer version than the one it runs. */
    noCodeUpgradeAvailable: boolean;
}

/** Finds the no-code module with this id. Fails when there is none (or it is of another organization than the token's). */
export async function lookUpNoCodeModule(settings: LookupSettings, args: GetNoCodeModuleArgs): Promise<GetNoCodeModuleResult> {
    if (typeof args.id !== "string" || args.id.trim() === "") throw new Error("wos.getNoCodeModule: id must be a no-code module id ('nocode-…')");
    const client = lookupClient(settings, "wos.getNoCodeModule");
    try {
        const module = await client.noCodeModules.read(args.id, { include: ["variable-options"] });
        const made: Workspace[] = [];
        for await (const workspace of client.workspaces.listAll(module.organization, { pageSize: PAGE_SIZE, noCodeModuleId: module.id })) made.push(workspace);
        const versions = await moduleVersionsOf(client, made);
        const workspaces = made.map((workspace) => ({
            id: workspace.id,
            name: workspace.name,
            moduleVersion: versions.get(workspace.noCodeModuleVersionId ?? "")?.moduleVersion ?? "",
            noCodeUpgradeAvailable: workspace.noCodeUpgradeAvailable,
        }));
        return {
            id: module.id,
            organization: module.organization,
            registryModuleId: module.registryModuleId,
            versionPin: module.versionPin,
            enabled: module.enabled,
            variableOptions: module.variableOptions.map((set) => ({
                id: set.id,
                variableName: set.variableName,
                variableType: set.variableType,
                options: [...set.options],
            })),
            workspaces,
            workspacesBehind: workspaces.filter((workspace) => workspace.noCodeUpgradeAvailable).map((workspace) => workspace.name),
        };
    } catch (failure) {
        if (WosNotFoundError.isInstance(failure)) throw new Error(`wos.getNoCodeModule: no no-code module ${args.id} (or the token may not see it)`);
        throw failure;
    }
}
