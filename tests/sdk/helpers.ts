/**
 * Helpers of the SDK tests of no-code provisioning: catching a failure, proving an error holds no token, and
 * setting up an enabled no-code module with a workspace made from it.
 */
import { inspect } from "node:util";
import { WosClient, type NoCodeModule, type NoCodeModuleCreateOptions, type Workspace } from "../../sdk";
import { REGISTRY_MODULES } from "../support/seed";

/** The rejection of `promise`, failing the test when it resolves. */
export async function failure(promise: Promise<unknown>): Promise<unknown> {
    const outcome = await promise.then(
        () => undefined,
        (error: unknown) => error ?? new Error("rejected with nothing"),
    );
    if (outcome === undefined) throw new Error("expected the call to fail, but it succeeded");
    return outcome;
}

/** Asserts that no rendering of `error` a log could produce contains `token`. */
export function expectNoToken(error: unknown, token: string): void {
    expect(JSON.stringify(error)).not.toContain(token);
    expect(inspect(error, { depth: Infinity, showHidden: true })).not.toContain(token);
    expect(String((error as Error).stack)).not.toContain(token);
    expect(String((error as Error).message)).not.toContain(token);
}

let counter = 0;
/** A workspace name no other test of the file uses (letters, numbers and `-` only). */
export function uniqueName(prefix = "nocode"): string {
    counter += 1;
    return `${prefix}-${counter}-${Date.now() % 100000}`;
}

/** The id of a project by its exact name. */
export async function projectIdOf(client: WosClient, organization: string, name: string): Promise<string> {
    const page = await client.projects.list(organization, { names: [name] });
    const project = page.items.find((item) => item.name === name);
    if (!project) throw new Error(`no project ${name} in ${organization}`);
    return project.id;
}

/** An enabled no-code module on acme's `bucket` (pinned to 1.0.0 unless `options` say otherwise). */
export async function enabledBucketModule(client: WosClient, options: Partial<NoCodeModuleCreateOptions> = {}): Promise<NoCodeModule> {
    return client.noCodeModules.create("acme", { registryModuleId: REGISTRY_MODULES.bucket, versionPin: "1.0.0", enabled: true, ...options });
}

/** What {@link moduleWithWorkspace} sets up. */
export interface ModuleWithWorkspace {
    module: NoCodeModule;
    workspace: Workspace;
    projectId: string;
}

/**
 * The no-code module of acme's `bucket` (created enabled at 1.0.0 when the service has none yet: a registry
 * module has one no-code module at most) and a new workspace made from it in Apps with `region = us-east-1`.
 */
export async function moduleWithWorkspace(client: WosClient): Promise<ModuleWithWorkspace> {
    const [existing] = (await client.registryModules.read(REGISTRY_MODULES.bucket)).noCodeModuleIds;
    const module = existing === undefined ? await enabledBucketModule(client) : await client.noCodeModules.read(existing);
    const projectId = await projectIdOf(client, "acme", "Apps");
    const workspace = await client.noCodeModules.createWorkspace(module.id, {
        name: uniqueName(),
        projectId,
        vars: [{ key: "region", value: "us-east-1", category: "infra" }],
    });
    return { module, workspace, projectId };
}

/** The value of an infra var of a workspace, read through `/vars`. */
export async function infraValue(client: WosClient, workspace: Workspace, key: string): Promise<string | undefined> {
    const vars = await client.variables.listByWorkspaceName(workspace.organization || "acme", workspace.name);
    return vars.find((variable) => variable.key === key && variable.category === "infra")?.value ?? undefined;
}
