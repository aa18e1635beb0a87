/**
 * The real `wos-server` for a CLI test file: the built command in a child process on a free port, with the
 * demo seed of the examples (`examples/seed.json`), an in-memory database, fault injection on and upgrade
 * plans that step fast; plus reads of what the organization `acme` holds, over HTTP, to compare the
 * service before and after a program ran.
 */
import { EXAMPLE_SEED, startCli, stopCli, type RunningServer } from "../support/cli";
import { rawRequest, type RequestOptions } from "../support/server";

/** The admin token of the CLI tests' service (enables `/_admin/faults`). */
export const ADMIN_TOKEN = "cli-test-admin";
/** The seed's `platform` team: manages every project, every workspace's variables and the no-code modules. */
export const PLATFORM_TOKEN = "team-platform-secret";
/** The seed's `owners` team: reads everything, for the tests' own checks. */
export const OWNERS_TOKEN = "team-owners-secret";
/** The seed's registry module `bucket` (versions 1.0.0 and 1.1.0; variables `region`, `size`, and `tags` in 1.1.0). */
export const BUCKET_MODULE = "mod-0000000000000001";
/** How long each step of an upgrade plan takes on the CLI tests' service. */
export const PLAN_STEP_MS = 100;

export interface CliTestService {
    server: RunningServer;
    url: string;
    /** Raw HTTP against `url/api/v2` (or `url` for `/_admin`), with the owners' token unless told otherwise. */
    request(method: string, path: string, options?: RequestOptions): Promise<{ status: number; body: any }>;
    /** `GET` that must answer 200; its `data`. */
    get(path: string): Promise<any>;
    addFault(rule: Record<string, unknown>): Promise<void>;
    clearFaults(): Promise<void>;
    /** What the organization holds: projects with their tags, workspaces with their vars, in a stable order. */
    snapshot(): Promise<OrganizationSnapshot>;
    stop(): Promise<void>;
}

export interface OrganizationSnapshot {
    /** The no-code modules of the seed's registry module `bucket`. */
    bucketNoCodeModules: string[];
    projects: Array<{ id: string; name: string; description: unknown; autoDestroy: unknown; tags: Record<string, string> }>;
    workspaces: Array<{
        id: string;
        name: string;
        project: string;
        vars: Array<{ key: string; category: string; value: unknown; sensitive: boolean; hcl: boolean; description: unknown }>;
    }>;
}

export async function startCliTestService(extraArgs: string[] = []): Promise<CliTestService> {
    const server = await startCli([
        "--port", "0",
        "--data", ":memory:",
        "--seed", EXAMPLE_SEED,
        "--admin-token", ADMIN_TOKEN,
        "--plan-step-ms", String(PLAN_STEP_MS),
        ...extraArgs,
    ]);
    const request = async (method: string, path: string, options: RequestOptions = {}) => {
        const url = path.startsWith("/_admin") ? server.url + path : `${server.url}/api/v2${path}`;
        const response = await rawRequest(method, url, { token: OWNERS_TOKEN, ...options });
        return { status: response.status, body: response.json ?? response.text };
    };
    const get = async (path: string) => {
        const response = await request("GET", path);
        if (response.status !== 200) throw new Error(`GET ${path} answered ${response.status}: ${JSON.stringify(response.body)}`);
        return response.body.data;
    };
    const admin = async (method: string, body?: unknown) => {
        const response = await request(method, "/_admin/faults", { token: ADMIN_TOKEN, body });
        if (response.status >= 300) throw new Error(`${method} /_admin/faults answered ${response.status}`);
    };
    const snapshot = async (): Promise<OrganizationSnapshot> => {
        const projects: OrganizationSnapshot["projects"] = [];
        for (const project of await get("/organizations/acme/projects?page%5Bsize%5D=100")) {
            const bindings = (await get(`/projects/${project.id}/tag-bindings`)) as Array<{ attributes: { key: string; value: string } }>;
            projects.push({
                id: project.id,
                name: project.attributes.name,
                description: project.attributes.description,
                autoDestroy: (await get(`/projects/${project.id}`)).attributes["auto-destroy-activity-duration"] ?? null,
                tags: Object.fromEntries(bindings.map((binding) => [binding.attributes.key, binding.attributes.value])),
            });
        }
        const workspaces: OrganizationSnapshot["workspaces"] = [];
        for (const workspace of await get("/organizations/acme/workspaces?page%5Bsize%5D=100")) {
            const name = workspace.attributes.name as string;
            const vars = (await get(`/vars?filter%5Bworkspace%5D%5Bname%5D=${name}&filter%5Borganization%5D%5Bname%5D=acme`)) as Array<{
                attributes: Record<string, any>;
            }>;
            workspaces.push({
                id: workspace.id,
                name,
                project: workspace.relationships.project.data.id,
                vars: vars
                    .map(({ attributes }) => ({
                        key: attributes.key,
                        category: attributes.category,
                        value: attributes.value,
                        sensitive: attributes.sensitive,
                        hcl: attributes.hcl,
                        description: attributes.description,
                    }))
                    .sort((a, b) => `${a.category}/${a.key}`.localeCompare(`${b.category}/${b.key}`)),
            });
        }
        projects.sort((a, b) => a.name.localeCompare(b.name));
        workspaces.sort((a, b) => a.name.localeCompare(b.name));
        const bucket = await get(`/registry-modules/${BUCKET_MODULE}`);
        const bucketNoCodeModules = (bucket.relationships["no-code-modules"].data as Array<{ id: string }>).map(({ id }) => id);
        return { bucketNoCodeModules, projects, workspaces };
    };
    return {
        server,
        url: server.url,
        request,
        get,
        addFault: (rule) => admin("POST", rule),
        clearFaults: () => admin("DELETE"),
        snapshot,
        stop: async () => {
            await stopCli(server);
        },
    };
}
