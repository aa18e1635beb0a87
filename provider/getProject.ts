/**
 * `wos.getProject` / `wos.getProjectOutput`: look up an existing project by organization and name.
 *
 * Dynamic providers have no invokes, so the lookup runs the SDK right in the program's process, with the
 * same credentials as the resources: stack config `wos:address` / `wos:token`, else `WOS_ADDRESS` /
 * `WOS_TOKEN`, and the same default organization (see `lookupSupport.ts`). Nothing here is serialized into
 * state.
 *
 * @module
 */
import * as pulumi from "@pulumi/pulumi";
import { lookupClient, lookupOrganization, optionalInput } from "./lookupSupport";

/** Arguments of {@link getProject}. */
export interface GetProjectArgs {
    /** Name of the organization; default: the stack config `wos:organization`, else `WOS_ORGANIZATION`. */
    organization?: string;
    /** The project's name (compared case-insensitively, as the service does). */
    name: string;
}

/** Arguments of {@link getProjectOutput}: the same, as inputs. */
export interface GetProjectOutputArgs {
    /** Name of the organization; default: the stack config `wos:organization`, else `WOS_ORGANIZATION`. */
    organization?: pulumi.Input<string>;
    /** The project's name. */
    name: pulumi.Input<string>;
}

/** What {@link getProject} finds. Absent optional fields are left out. */
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
export async function getProject(args: GetProjectArgs): Promise<GetProjectResult> {
    const organization = lookupOrganization("wos.getProject", args.organization);
    const client = lookupClient("wos.getProject");
    const list = await client.projects.list(organization, { names: [args.name], pageSize: 100 });
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

/** {@link getProject} for inputs that may not be known yet; the result is an `Output`. */
export function getProjectOutput(args: GetProjectOutputArgs): pulumi.Output<GetProjectResult> {
    return pulumi
        .all([optionalInput(args.organization), args.name])
        .apply(([organization, name]) => getProject({ ...(organization === undefined ? {} : { organization }), name }));
}
