/**
 * The package schema of `wos` ({@link wosPackageSchema}): what the plugin's `GetSchema` answers, and what the
 * SDKs of the other languages are generated from (`node -p 'JSON.stringify(require("./dist/plugin/schema").wosPackageSchema)'`).
 * Assembled from each resource's, component's and function's piece (`plugin/resources/`, `plugin/components/`,
 * `plugin/functions/`), whose descriptions are the TSDoc of the dynamic resources' declarations.
 *
 * @module
 */
import { getNoCodeModuleBinding } from "./functions/getNoCodeModule";
import { getProjectBinding } from "./functions/getProject";
import { getProjectsBinding } from "./functions/getProjects";
import { getWorkspaceBinding } from "./functions/getWorkspace";
import { getWorkspacesBinding } from "./functions/getWorkspaces";
import { noCodeProjectSchema } from "./components/noCodeProject";
import type { FunctionBinding } from "./functionBinding";
import { pluginVersion } from "./pluginVersion";
import type { ResourceBinding } from "./resourceBinding";
import { noCodeModuleBinding } from "./resources/noCodeModule";
import { noCodeWorkspaceBinding } from "./resources/noCodeWorkspace";
import { projectBinding } from "./resources/project";
import { projectTagBindingsBinding } from "./resources/projectTagBindings";
import { variableBinding } from "./resources/variable";
import { workspaceBinding } from "./resources/workspace";
import type { FunctionSpec, ObjectTypeSpec, PropertySpec, ResourceSpec } from "./schemaSpec";

/** Every resource of the plugin. */
export const RESOURCE_BINDINGS: readonly ResourceBinding[] = [
    projectBinding,
    projectTagBindingsBinding,
    variableBinding,
    workspaceBinding,
    noCodeModuleBinding,
    noCodeWorkspaceBinding,
];

/** Every multi-language component of the plugin (`isComponent`: the engine asks `Construct` for it). */
export const COMPONENT_SCHEMAS = [noCodeProjectSchema] as const;

/** Every function of the plugin. */
export const FUNCTION_BINDINGS: readonly FunctionBinding[] = [
    getProjectBinding,
    getProjectsBinding,
    getWorkspaceBinding,
    getWorkspacesBinding,
    getNoCodeModuleBinding,
];

/**
 * The provider's configuration: the stack config `wos:<key>` of a default provider, the arguments of an
 * explicit one (`pulumi:providers:wos`). Each falls back to its environment variable in the plugin's
 * process, as the dynamic resources' configuration does; the fallback is the plugin's, so that no token read
 * from the environment ever reaches the state.
 */
export const CONFIG_VARIABLES: Record<"address" | "token" | "organization" | "planUpgradesInPreview", PropertySpec> = {
    address: {
        type: "string",
        description:
            "Address of the Workspace Organization Service, an http(s) URL; default: the environment variable `WOS_ADDRESS`, " +
            "else `http://127.0.0.1:8787` (the local service).",
    },
    token: {
        type: "string",
        description:
            "Team or user token of the service (`pulumi config set --secret wos:token …`); default: the environment variable " +
            "`WOS_TOKEN`. Never in a resource's inputs or outputs, a log line or an error message.",
        secret: true,
    },
    organization: {
        type: "string",
        description:
            "The default organization: of every resource and lookup that leaves `organization` out; default: the environment " +
            "variable `WOS_ORGANIZATION`. A resource made with it records it in its inputs.",
    },
    planUpgradesInPreview: {
        type: "boolean",
        description:
            "Whether `pulumi preview` plans the upgrade of each no-code workspace whose vars or version change: it starts the " +
            "upgrade's plan, waits until it has finished planning and shows its status and plan URL under the workspace, never " +
            "confirming it; a plan that errors fails the preview. The `up` that follows plans again. Default `false`.",
    },
};

/** The plugin's release downloads, in the form the Pulumi CLI reads (`github://<api host>/<owner>/<repository>`). */
export const PLUGIN_DOWNLOAD_URL = "github://api.github.com/pulumi-wos/pulumi-wos";

/** The package schema, in the format of Pulumi's package schema. */
export interface PackageSchema {
    name: string;
    displayName: string;
    version: string;
    description: string;
    keywords: string[];
    homepage: string;
    repository: string;
    license: string;
    publisher: string;
    pluginDownloadURL: string;
    config: { variables: Record<string, PropertySpec> };
    provider: { description: string; type: "object"; properties: Record<string, PropertySpec>; inputProperties: Record<string, PropertySpec> };
    resources: Record<string, ResourceSpec>;
    functions: Record<string, FunctionSpec>;
    types: Record<string, ObjectTypeSpec>;
    language: Record<string, Record<string, unknown>>;
}

function assemble(): PackageSchema {
    const resources: Record<string, ResourceSpec> = {};
    const functions: Record<string, FunctionSpec> = {};
    const types: Record<string, ObjectTypeSpec> = {};
    for (const { schema } of RESOURCE_BINDINGS) {
        resources[schema.token] = schema.spec;
        Object.assign(types, schema.types);
    }
    for (const schema of COMPONENT_SCHEMAS) {
        resources[schema.token] = schema.spec;
        Object.assign(types, schema.types);
    }
    for (const { schema } of FUNCTION_BINDINGS) {
        functions[schema.token] = schema.spec;
        Object.assign(types, schema.types);
    }
    return {
        name: "wos",
        displayName: "Workspace Organization Service",
        version: pluginVersion(),
        description:
            "Projects, tags, variables, workspaces, no-code modules and no-code workspaces of the Workspace Organization Service, " +
            "with the upgrade of a no-code workspace inside `pulumi up`.",
        keywords: ["pulumi", "wos", "category/infrastructure", "kind/native"],
        homepage: "https://github.com/pulumi-wos/pulumi-wos#readme",
        repository: "https://github.com/pulumi-wos/pulumi-wos",
        license: "Apache-2.0",
        publisher: "pulumi-wos",
        // Where the CLI downloads the plugin when a program needs it: the assets of the project's GitHub release
        // v<version> (pulumi-resource-wos-v<version>-<os>-<arch>.tar.gz). Every generated SDK carries it.
        pluginDownloadURL: PLUGIN_DOWNLOAD_URL,
        config: { variables: CONFIG_VARIABLES },
        provider: {
            description: "The provider of the Workspace Organization Service: one address, token and default organization.",
            type: "object",
            // A provider resource has no outputs of its own; its inputs are kept (the token as a secret).
            properties: CONFIG_VARIABLES,
            inputProperties: CONFIG_VARIABLES,
        },
        resources,
        functions,
        types,
        language: {
            python: { packageName: "pulumi_wos", requires: { pulumi: ">=3.0.0,<4.0.0" } },
            go: { importBasePath: "github.com/pulumi-wos/pulumi-wos/sdks/go/wos", generateResourceContainerTypes: true },
        },
    };
}

/**
 * The package schema of `wos` (name, version, configuration, provider, resources, functions, types and the
 * languages' package names): what `GetSchema` answers, and what the other languages' SDKs are generated from.
 */
export const wosPackageSchema: PackageSchema = assemble();
