/**
 * Quickstart: the projects, project tags and workspace variables of the demo organization `acme` that the
 * local service loads from `examples/seed.json`, and a lookup of a project the program does not manage.
 *
 *     npm start                                          # in the repository: the local service on :8787
 *     cd examples/quickstart && npm install
 *     pulumi stack init dev
 *     pulumi config set --secret wos:token team-platform-secret
 *     pulumi up
 *
 * `wos:address` defaults to the local service (`http://127.0.0.1:8787`). The `platform` team of the seed may
 * manage every project and the variables of every workspace.
 */
import * as pulumi from "@pulumi/pulumi";
import * as wos from "pulumi-wos";

const config = new pulumi.Config();
/** The seeded organization. */
const organization = config.get("organization") ?? "acme";
/** The seeded workspace `legacy-app` (in the seeded project `Apps`). */
const workspaceId = config.get("workspaceId") ?? "ws-0000000000000001";

// A project whose whole tag set this program owns: a tag added elsewhere is removed by the next `up`.
const platform = new wos.Project("platform", {
    organization,
    name: "Platform",
    description: "Shared platform services",
    autoDestroyActivityDuration: "14d",
    tags: { team: "platform", env: "prod" },
});

// A project whose tags are shared with other tools: this program manages only the keys it lists.
// (Use either `tags` or a ProjectTagBindings on a project, not both.)
const data = new wos.Project("data", {
    organization,
    name: "Data",
    description: "Data pipelines and warehouses",
});

new wos.ProjectTagBindings("data-cost-center", {
    projectId: data.id,
    tags: { "cost-center": "1234", owner: "data-team" },
});

// Variables of the seeded workspace: a plain environment variable, ...
new wos.Variable("log-level", {
    workspaceId,
    key: "LOG_LEVEL",
    value: "info",
    category: "env",
    description: "Log level of the application",
});

// ... an infrastructure variable written in the configuration language, ...
new wos.Variable("instance-tags", {
    workspaceId,
    key: "instance_tags",
    value: '{ team = "platform", env = "prod" }',
    category: "infra",
    hcl: true,
    description: "Tags for every instance",
});

// ... and a sensitive one: the service never shows it again, and Pulumi keeps it as a secret.
new wos.Variable("db-password", {
    workspaceId,
    key: "DB_PASSWORD",
    value: config.getSecret("dbPassword") ?? pulumi.secret("change-me-please"),
    category: "env",
    sensitive: true,
});

// A project this program does not manage (the seed's `Apps`), looked up by name with the same credentials.
export const appsProject = wos.getProjectOutput({ organization, name: "Apps" });

export const platformProjectId = platform.id;
export const dataProjectId = data.id;
