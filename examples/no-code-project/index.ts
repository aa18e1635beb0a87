/**
 * A no-code catalog as one component: `wos.NoCodeProject` makes the project `Storage Catalog` with its tags,
 * enables the demo organization's registry module `bucket` (the local service's `examples/seed.json`) for
 * no-code provisioning, and makes two workspaces from it. Every workspace gets the shared vars; a workspace's
 * own var of the same key and category wins (`web-assets` keeps 3 buckets instead of the shared 1).
 *
 *     npm start                                          # in the repository: the local service on :8787
 *     cd examples/no-code-project && npm install
 *     pulumi stack init dev
 *     pulumi config set --secret wos:token team-platform-secret
 *     pulumi up
 *
 * Changing a shared var upgrades every workspace that takes it, in one `pulumi up` (each workspace's plan
 * is started, watched and confirmed, with its progress in the log):
 *
 *     pulumi config set region us-east-1
 *     pulumi up
 *
 * and raising the module's pin (`pulumi config set bucketVersion 1.1.0`) upgrades them all to it. `pulumi
 * stack output` shows the ids and, per workspace, the version it runs and whether an upgrade is available.
 * `wos:address` defaults to the local service (`http://127.0.0.1:8787`). The seed's `platform` team may
 * manage projects and no-code modules.
 */
import * as pulumi from "@pulumi/pulumi";
import * as wos from "pulumi-wos";

const config = new pulumi.Config();
/** The seeded organization. */
const organization = config.get("organization") ?? "acme";
/** The version of the seeded module `bucket` that the workspaces run: 1.0.0 or 1.1.0. */
const bucketVersion = config.get("bucketVersion") ?? "1.0.0";
/** The region every workspace's buckets live in: one of the module's allowed options. */
const region = config.get("region") ?? "eu-west-1";

const catalog = new wos.NoCodeProject("catalog", {
    organization,
    project: {
        name: "Storage Catalog",
        description: "Buckets made from the no-code bucket module",
        tags: { team: "platform", env: "prod" },
    },
    // The seed's registry module `bucket` (variables `region`, required, and `size`), enabled here at a pinned
    // version, with the regions a workspace may choose. Every workspace follows the pin.
    module: {
        registryModuleId: "mod-0000000000000001",
        versionPin: bucketVersion,
        variableOptions: [{ variableName: "region", variableType: "string", options: ["eu-west-1", "us-east-1"] }],
    },
    // Shared by every workspace.
    vars: [
        { key: "region", value: region, category: "infra" },
        { key: "size", value: "1", category: "infra", description: "Number of buckets" },
    ],
    // Settings of every workspace unless it sets its own (defaults: remote, no auto-apply, 1800 s).
    sourceName: "platform storage catalog",
    upgradeTimeoutSeconds: 900,
    workspaces: {
        "web-assets": {
            description: "Static assets of the web shop",
            autoApply: true,
            vars: [{ key: "size", value: "3", category: "infra", description: "Number of buckets" }],
        },
        // A sensitive var: the service never shows it again, and Pulumi keeps this workspace's vars secret.
        "audit-logs": {
            description: "Audit log archive",
            vars: [
                {
                    key: "ARCHIVE_KEY",
                    value: config.getSecret("archiveKey") ?? pulumi.secret("change-me-please"),
                    category: "env",
                    sensitive: true,
                },
            ],
        },
    },
});

export const projectId = catalog.projectId;
export const noCodeModuleId = catalog.noCodeModuleId;
export const workspaceIds = catalog.workspaceIds;
export const moduleVersions = catalog.moduleVersions;
export const upgradesAvailable = catalog.upgradesAvailable;
