/**
 * `wos.getProject` / `wos.getProjectOutput`: look up an existing project by organization and name.
 *
 * Dynamic providers have no invokes, so the lookup runs the SDK right in the program's process, with the
 * same credentials as the resources: stack config `wos:address` / `wos:token`, else `WOS_ADDRESS` /
 * `WOS_TOKEN`. Nothing here is serialized into state.
 *
 * @module
 */
import * as pulumi from "@pulumi/pulumi";
import { WosClient } from "../sdk";

/** Arguments of {@link getProject}. */
export interface GetProjectArgs {
    /** Name of the organization. */
    organization: string;
    /** The project's name (compared case-insensitively, as the service does). */
    name: string;
}

/** Arguments of {@link getProjectOutput}: the same, as inputs. */
export interface GetProjectOutputArgs {
    organization: pulumi.Input<string>;
    name: pulumi.Input<string>;
}

/** What {@link getProject} finds. Absent optional fields are left out. */
export interface GetProjectResult {
    /** The project's id (`prj-…`). */
    id: string;
    organization: string;
    name: string;
    description?: string;
    autoDestroyActivityDuration?: string;
    /** Number of workspaces in the project at the time of the lookup. */
    workspaceCount: number;
    /** Number of teams with access to the project. */
    teamCount: number;
    /** The project's tag bindings. */
    tags: Record<string, string>;
}

/** Address and token for the lookup: stack config first, then the environment. */
function lookupCredentials(): { address?: string; token: string } {
    const config = new pulumi.Config("wos");
    const address = config.get("address") || process.env.WOS_ADDRESS || undefined;
    const token = config.get("token") || process.env.WOS_TOKEN || undefined;
    if (!token) {
        throw new Error(
            "wos.getProject: no token configured: set the stack config 'wos:token' " +
                "(pulumi config set --secret wos:token <TOKEN>) or the environment variable WOS_TOKEN",
        );
    }
    return { address, token };
}

/**
 * Finds the project named `name` in `organization`, with its duration and tags. Fails when there is none
 * (or the token may not see it).
 */
export async function getProject(args: GetProjectArgs): Promise<GetProjectResult> {
    const { address, token } = lookupCredentials();
    const client = new WosClient({ ...(address ? { address } : {}), token });
    const list = await client.projects.list(args.organization, { names: [args.name], pageSize: 100 });
    const match = list.items.find((project) => project.name.toLowerCase() === args.name.toLowerCase());
    if (!match) {
        throw new Error(`wos.getProject: no project named '${args.name}' in organization '${args.organization}'`);
    }
    const project = await client.projects.read(match.id);
    const bindings = await client.projects.listTagBindings(match.id);
    const result: GetProjectResult = {
        id: project.id,
        organization: project.organization ?? args.organization,
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
        .all([args.organization, args.name])
        .apply(([organization, name]) => getProject({ organization, name }));
}
