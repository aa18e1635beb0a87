/**
 * No-code provisioning: the demo organization `acme` (the local service's `examples/seed.json`) enables its
 * registry module `bucket` for no-code provisioning, limits the regions a workspace may choose, and makes
 * two workspaces from it in a project of their own.
 *
 *     npm start                                          # in the repository: the local service on :8787
 *     cd examples/no-code && npm install
 *     pulumi stack init dev
 *     pulumi config set --secret wos:token team-platform-secret
 *     pulumi up
 *
 * Upgrading both workspaces to the module's next version is one line of config: the pin of the no-code
 * module rises, each workspace's `moduleVersion` follows it, and `pulumi up` runs each workspace's upgrade
 * (plan, wait, confirm), with its progress in the log:
 *
 *     pulumi config set bucketVersion 1.1.0
 *     pulumi up
 *
 * `wos:address` defaults to the local service (`http://127.0.0.1:8787`). The seed's `platform` team may
 * manage projects and no-code modules.
 */
import * as pulumi from "@pulumi/pulumi";
import * as wos from "pulumi-wos";

const config = new pulumi.Config();
/** The seeded organization. */
const organization = config.get("organization") ?? "acme";
/** The version of the seeded module `bucket` that no-code workspaces run: 1.0.0 or 1.1.0. */
const bucketVersion = config.get("bucketVersion") ?? "1.0.0";

// The project the workspaces live in.
const storage = new wos.Project("storage", {
    organization,
    name: "Storage",
    description: "Buckets made from the no-code bucket module",
});

// The seed's registry module `bucket` (variables `region`, required, and `size`), enabled for no-code
// provisioning at a pinned version, with the regions a workspace may choose.
const bucket = new wos.NoCodeModule("bucket", {
    organization,
    registryModuleId: "mod-0000000000000001",
    versionPin: bucketVersion,
    enabled: true,
    variableOptions: [{ variableName: "region", variableType: "string", options: ["eu-west-1", "us-east-1"] }],
});

// Two workspaces made from it. `moduleVersion` follows the pin, so raising the pin upgrades them.
const assets = new wos.NoCodeWorkspace("assets", {
    noCodeModuleId: bucket.id,
    moduleVersion: bucket.versionPin,
    projectId: storage.id,
    name: "assets-prod",
    description: "Static assets of the web shop",
    autoApply: true,
    vars: [
        { key: "region", value: "eu-west-1", category: "infra" },
        { key: "size", value: "3", category: "infra", description: "Number of buckets" },
    ],
    upgradeTimeoutSeconds: 900,
});

// A workspace with a sensitive variable: the service never shows it again, and Pulumi keeps it as a secret.
const logs = new wos.NoCodeWorkspace("logs", {
    noCodeModuleId: bucket.id,
    moduleVersion: bucket.versionPin,
    projectId: storage.id,
    name: "logs-prod",
    description: "Log archive",
    vars: [
        { key: "region", value: "us-east-1", category: "infra" },
        {
            key: "ARCHIVE_KEY",
            value: config.getSecret("archiveKey") ?? pulumi.secret("change-me-please"),
            category: "env",
            sensitive: true,
        },
    ],
    upgradeTimeoutSeconds: 900,
});

export const storageProjectId = storage.id;
export const bucketNoCodeModuleId = bucket.id;
export const bucketVersionPin = bucket.versionPin;
export const assetsWorkspaceId = assets.id;
export const logsWorkspaceId = logs.id;
