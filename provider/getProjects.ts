/**
 * `wos.getProjects` / `wos.getProjectsOutput`: the projects of an organization that the token can see,
 * filtered by a name search or exact names, every page of them, as the Terraform provider's `tfe_projects`
 * data source does.
 *
 * Runs the SDK in the program's process with the resources' credentials and default organization (see
 * `lookupSupport.ts`). Nothing here is serialized into state.
 *
 * @module
 */
import * as pulumi from "@pulumi/pulumi";
import { lookupClient, lookupOrganization, optionalInput } from "./lookupSupport";

/** Arguments of {@link getProjects}. */
export interface GetProjectsArgs {
    /** Name of the organization; default: the stack config `wos:organization`, else `WOS_ORGANIZATION`. */
    organization?: string;
    /** Only projects whose name holds this text, in any case (ignored when `names` is given, as the service does). */
    query?: string;
    /** Only the projects of these names, in any case. */
    names?: string[];
}

/** Arguments of {@link getProjectsOutput}: the same, as inputs. */
export interface GetProjectsOutputArgs {
    /** Name of the organization; default: the stack config `wos:organization`, else `WOS_ORGANIZATION`. */
    organization?: pulumi.Input<string>;
    /** Only projects whose name holds this text, in any case. */
    query?: pulumi.Input<string>;
    /** Only the projects of these names, in any case. */
    names?: pulumi.Input<pulumi.Input<string>[]>;
}

/** One project as {@link getProjects} answers it. Absent optional fields are left out. */
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

/** What {@link getProjects} finds. */
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

/** Page size of the lookup: the service's largest, so that few requests cover an organization. */
const PAGE_SIZE = 100;

/**
 * Every project of `organization` (the default organization when left out) that the token can see and the
 * filters keep, across every page. None is not an error: the lists are empty.
 */
export async function getProjects(args: GetProjectsArgs = {}): Promise<GetProjectsResult> {
    const organization = lookupOrganization("wos.getProjects", args.organization);
    const client = lookupClient("wos.getProjects");
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

/** {@link getProjects} for inputs that may not be known yet; the result is an `Output`. */
export function getProjectsOutput(args: GetProjectsOutputArgs = {}): pulumi.Output<GetProjectsResult> {
    return pulumi
        .all([optionalInput(args.organization), optionalInput(args.query), optionalInput(args.names)])
        .apply(([organization, query, names]) =>
            getProjects({
                ...(organization === undefined ? {} : { organization }),
                ...(query === undefined ? {} : { query }),
                ...(names === undefined ? {} : { names: [...names] }),
            }),
        );
}
