/**
 * The request bodies the description gives as examples: each one a request that succeeds against the demo
 * seed (`wos-server` on an empty database), naming its organization, project, workspace and registry module.
 * schemathesis sends them in its examples phase; `tests/server/openApiDescription.test.ts` checks each one
 * against its operation's schema.
 */
import { DEMO_SEED } from "../seed";

const organization = DEMO_SEED.organizations[0]!;

/** The demo seed's names and ids the examples use. */
export const DEMO = {
    organization: organization.name,
    project: organization.projects![0]!.id!,
    workspace: organization.workspaces![0]!.id!,
    registryModule: organization.registryModules![0]!.id!,
};

const tagBindings = { data: [{ type: "tag-bindings", attributes: { key: "env", value: "prod" } }] };

/** One example body per operation that takes a body, by operationId. */
export const EXAMPLE_BODIES: Record<string, unknown> = {
    createProject: {
        data: {
            type: "projects",
            attributes: { name: "Example Project", description: "Made from the description's example" },
            relationships: { "tag-bindings": { data: [{ type: "tag-bindings", attributes: { key: "team", value: "platform" } }] } },
        },
    },
    updateProject: { data: { type: "projects", attributes: { description: "Updated from the description's example" } } },
    addProjectTagBindings: tagBindings,
    addProjectTagBindingRelationships: tagBindings,
    replaceProjectTagBindingRelationships: tagBindings,
    moveWorkspacesToProject: { data: [{ type: "workspaces", id: DEMO.workspace }] },
    createWorkspace: { data: { type: "workspaces", attributes: { name: "example-workspace", description: "Made from the description's example" } } },
    updateWorkspace: { data: { type: "workspaces", attributes: { description: "Updated from the description's example" } } },
    createVariable: {
        data: {
            type: "vars",
            attributes: { key: "EXAMPLE", value: "from the example", category: "env" },
            relationships: { workspace: { data: { type: "workspaces", id: DEMO.workspace } } },
        },
    },
    updateVariable: { data: { type: "vars", attributes: { value: "updated from the example" } } },
    createNoCodeModule: {
        data: {
            type: "no-code-modules",
            attributes: { enabled: true, "version-pin": "1.0.0" },
            relationships: { "registry-module": { data: { type: "registry-modules", id: DEMO.registryModule } } },
        },
    },
    updateNoCodeModule: { data: { type: "no-code-modules", attributes: { "version-pin": "1.1.0" } } },
    createNoCodeWorkspace: {
        data: {
            type: "workspaces",
            attributes: { name: "example-no-code" },
            relationships: {
                project: { data: { type: "projects", id: DEMO.project } },
                vars: { data: [{ type: "vars", attributes: { key: "region", value: "eu-west-1", category: "infra" } }] },
            },
        },
    },
    startWorkspaceUpgrade: {
        data: { type: "workspaces", relationships: { vars: { data: [{ type: "vars", attributes: { key: "region", value: "eu-central-1", category: "infra" } }] } } },
    },
    addFault: { method: "GET", path: "^/api/v2/projects/", status: 503, times: 1, headers: { "retry-after": "1" } },
};
