/**
 * The seed every test starts its service with: two organizations, a team at each project-access level,
 * a user on two teams, and workspaces spread over projects so that moves, counts and deletes have
 * something to work on. Tokens are named after what they may do.
 */
import type { SeedFile } from "../../server/seed";

export const TOKENS = {
    acmeOrganization: "org-acme-token",
    owners: "team-owners-token",
    platform: "team-platform-token",
    /** `read` on Apps. */
    appsRead: "team-apps-read-token",
    /** `write` on Apps. */
    appsWrite: "team-apps-write-token",
    /** `maintain` on Apps and Staging. */
    appsMaintain: "team-apps-maintain-token",
    /** `admin` on Apps, `read` on Default Project. */
    appsAdmin: "team-apps-admin-token",
    /** A team with no project access at all. */
    noAccess: "team-none-token",
    /** User on the read and maintain teams: the union of both. */
    bob: "user-bob-token",
    /** User on the owners team. */
    alice: "user-alice-token",
    /** `manageModules` only: no-code module settings, no project access. */
    modules: "team-modules-token",
    globexOrganization: "org-globex-token",
    globexOwners: "team-globex-owners-token",
    /** Organization `initech` has cost estimation on. */
    initechOrganization: "org-initech-token",
    initechOwners: "team-initech-owners-token",
} as const;

export const WORKSPACES = {
    appsLegacy: "ws-apps000000000001",
    appsWeb: "ws-apps000000000002",
    staging: "ws-stag000000000001",
    defaultProject: "ws-dflt000000000001",
    globex: "ws-glob000000000001",
} as const;

export const REGISTRY_MODULES = {
    /** acme: no-code ready, versions 1.0.0 (region required, size) and 1.1.0 (adds tags). */
    bucket: "mod-0000000000000001",
    /** acme: not no-code ready. */
    notReady: "mod-0000000000000002",
    /** initech (cost estimation on): the same versions as `bucket`. */
    initechBucket: "mod-0000000000000003",
    /** acme: no-code ready, one version 2.0.0 (cidr required, a string; zones a number). */
    network: "mod-0000000000000004",
} as const;

/** The versions of the `bucket` modules (acme and initech): 1.0.0 {region string required, size number}, 1.1.0 adds tags. */
export function bucketVersions() {
    return [
        {
            version: "1.0.0",
            variables: [
                { name: "region", type: "string", required: true },
                { name: "size", type: "number", required: false, default: "1" },
            ],
        },
        {
            version: "1.1.0",
            variables: [
                { name: "region", type: "string", required: true },
                { name: "size", type: "number", required: false, default: "1" },
                { name: "tags", type: "map(string)", required: false, default: "{}" },
            ],
        },
    ];
}

/** The versions of the `network` module: 2.0.0 {cidr string required, zones number default "2"}. */
export function networkVersions() {
    return [
        {
            version: "2.0.0",
            variables: [
                { name: "cidr", type: "string", required: true },
                { name: "zones", type: "number", required: false, default: "2" },
            ],
        },
    ];
}

/** The seed file, in the local service's seed format. */
export function testSeed(): SeedFile {
    return {
        organizations: [
            {
                name: "acme",
                organizationToken: TOKENS.acmeOrganization,
                costEstimation: false,
                teams: [
                    { name: "owners", owners: true, tokens: [TOKENS.owners] },
                    { name: "platform", manageProjects: true, manageModules: true, tokens: [TOKENS.platform] },
                    { name: "apps-read", projectAccess: { Apps: "read" }, tokens: [TOKENS.appsRead] },
                    { name: "apps-write", projectAccess: { Apps: "write" }, tokens: [TOKENS.appsWrite] },
                    {
                        name: "apps-maintain",
                        projectAccess: { Apps: "maintain", Staging: "maintain" },
                        tokens: [TOKENS.appsMaintain],
                    },
                    {
                        name: "apps-admin",
                        projectAccess: { Apps: "admin", "Default Project": "read" },
                        tokens: [TOKENS.appsAdmin],
                    },
                    { name: "nobody", tokens: [TOKENS.noAccess] },
                    { name: "modules", manageModules: true, tokens: [TOKENS.modules] },
                ],
                users: [
                    { name: "alice", teams: ["owners"], tokens: [TOKENS.alice] },
                    { name: "bob", teams: ["apps-read", "apps-maintain"], tokens: [TOKENS.bob] },
                ],
                agentPools: [{ id: "apool-0000000000000001", name: "default" }],
                registryModules: [
                    { id: REGISTRY_MODULES.bucket, name: "bucket", provider: "aws", noCodeReady: true, versions: bucketVersions() },
                    {
                        id: REGISTRY_MODULES.notReady,
                        name: "legacy",
                        provider: "aws",
                        noCodeReady: false,
                        versions: [{ version: "0.1.0", variables: [] }],
                    },
                    { id: REGISTRY_MODULES.network, name: "network", provider: "aws", noCodeReady: true, versions: networkVersions() },
                ],
                projects: [{ name: "Apps" }, { name: "Staging" }, { name: "Empty" }],
                workspaces: [
                    { id: WORKSPACES.appsLegacy, name: "legacy-app", project: "Apps" },
                    { id: WORKSPACES.appsWeb, name: "web-app", project: "Apps" },
                    { id: WORKSPACES.staging, name: "staging-app", project: "Staging" },
                    { id: WORKSPACES.defaultProject, name: "scratch", project: "Default Project" },
                ],
            },
            {
                name: "globex",
                organizationToken: TOKENS.globexOrganization,
                teams: [{ name: "owners", owners: true, tokens: [TOKENS.globexOwners] }],
                projects: [{ name: "Globex Apps" }],
                workspaces: [{ id: WORKSPACES.globex, name: "globex-app", project: "Globex Apps" }],
            },
            {
                name: "initech",
                organizationToken: TOKENS.initechOrganization,
                costEstimation: true,
                teams: [{ name: "owners", owners: true, tokens: [TOKENS.initechOwners] }],
                registryModules: [
                    { id: REGISTRY_MODULES.initechBucket, name: "bucket", provider: "aws", noCodeReady: true, versions: bucketVersions() },
                ],
                projects: [{ name: "Infra" }],
            },
        ],
    };
}
