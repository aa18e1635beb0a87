/**
 * Seed files: the organizations, teams, tokens, agent pools, registry modules, projects and workspaces a
 * local service starts with (in the local service's own seed format), their validation, and
 * {@link applySeed}, which writes a seed idempotently.
 */
import { z } from "zod";
import { forgetPrincipals } from "./auth";
import { ACCESS_LEVELS, hashToken, newId, now, sql, writeTransaction, type Db } from "./db";
import { insertProject } from "./records/projects";
import { insertWorkspace } from "./records/workspaces";
import {
    autoDestroyActivityDurationRule,
    idRule,
    projectDescriptionRule,
    projectNameRule,
    tagKeyRule,
    tagValueRule,
    workspaceNameRule,
    executionModeRule,
    workspaceDescriptionRule,
    LIMITS,
} from "../sdk/model/rules";

const tokenListSchema = () => z.array(z.string().min(8, { error: "a token must be at least 8 characters" })).default([]);

/**
 * Schema of a seed file. Strict objects: a misspelled field (`managProjects`) is an error that names it,
 * not a silently ignored setting.
 */
export function seedFileSchema() {
    const team = z.strictObject({
        name: z.string().min(1),
        owners: z.boolean().optional(),
        manageProjects: z.boolean().optional(),
        manageModules: z.boolean().optional(),
        /** Project name -> access level. */
        projectAccess: z.record(z.string(), z.enum(ACCESS_LEVELS)).optional(),
        tokens: tokenListSchema(),
    });
    const user = z.strictObject({
        name: z.string().min(1),
        teams: z.array(z.string()).default([]),
        tokens: tokenListSchema(),
    });
    const agentPool = z.strictObject({ id: idRule("apool-").optional(), name: z.string().min(1) });
    const moduleVariable = z.strictObject({
        name: z.string().min(1),
        type: z.string().min(1),
        required: z.boolean().default(false),
        default: z.string().nullable().optional(),
    });
    const moduleVersion = z.strictObject({
        version: z.string().regex(/^\d+\.\d+\.\d+$/, { error: "must be a version such as 1.2.3" }),
        variables: z.array(moduleVariable).default([]),
    });
    const registryModule = z.strictObject({
        id: idRule("mod-").optional(),
        name: z.string().min(1),
        provider: z.string().min(1),
        noCodeReady: z.boolean().default(false),
        versions: z.array(moduleVersion).default([]),
    });
    const project = z.strictObject({
        id: idRule("prj-").optional(),
        name: projectNameRule(),
        description: projectDescriptionRule().optional(),
        autoDestroyActivityDuration: autoDestroyActivityDurationRule().optional(),
        tags: z
            .record(tagKeyRule(), tagValueRule())
            .refine((tags) => Object.keys(tags).length <= LIMITS.tagsPerProject, {
                error: `a project may have at most ${LIMITS.tagsPerProject} tags`,
            })
            .optional(),
    });
    const workspace = z.strictObject({
        id: idRule("ws-").optional(),
        name: workspaceNameRule(),
        project: z.string().min(1),
        description: workspaceDescriptionRule().optional(),
        autoApply: z.boolean().optional(),
        executionMode: executionModeRule().optional(),
        agentPool: z.string().optional(),
    });
    const organization = z.strictObject({
        name: z
            .string()
            .min(1)
            .regex(/^[A-Za-z0-9_-]+$/, { error: "may contain only letters, numbers, '-' and '_'" }),
        organizationToken: z.string().min(8, { error: "a token must be at least 8 characters" }).optional(),
        costEstimation: z.boolean().default(false),
        teams: z.array(team).default([]),
        users: z.array(user).default([]),
        agentPools: z.array(agentPool).default([]),
        registryModules: z.array(registryModule).default([]),
        projects: z.array(project).default([]),
        workspaces: z.array(workspace).default([]),
    });
    return z.strictObject({ organizations: z.array(organization) });
}

/**
 * A seed file as written: the input side of {@link seedFileSchema}, so the type and the checks cannot drift
 * (fields with defaults may be left out). A JSON file read at run time is checked by {@link parseSeed}.
 */
export type SeedFile = z.input<ReturnType<typeof seedFileSchema>>;
type ParsedSeed = z.output<ReturnType<typeof seedFileSchema>>;

/** A seed that does not validate; the message names every offending field. */
export class SeedError extends Error {
    constructor(message: string) {
        super(message);
        this.name = "SeedError";
    }
}

/** Validates a seed, throwing a {@link SeedError} whose message names each bad field (`organizations[0].teams[1].name`). */
export function parseSeed(input: unknown, source = "seed"): ParsedSeed {
    const result = seedFileSchema().safeParse(input);
    if (!result.success) {
        const lines = result.error.issues.map((issue) => {
            const field = issue.path
                .map((segment, index) =>
                    typeof segment === "number" ? `[${segment}]` : `${index === 0 ? "" : "."}${String(segment)}`,
                )
                .join("");
            return `  ${field || "(top level)"}: ${issue.message}`;
        });
        throw new SeedError(`invalid ${source}:\n${lines.join("\n")}`);
    }
    return result.data;
}

/** The built-in demo seed, loaded when the service starts on an empty database without `--seed`. Same as `examples/seed.json`. */
export const DEMO_SEED: SeedFile = {
    organizations: [
        {
            name: "acme",
            organizationToken: "org-acme-secret",
            costEstimation: false,
            teams: [
                { name: "owners", owners: true, tokens: ["team-owners-secret"] },
                { name: "platform", manageProjects: true, manageModules: true, tokens: ["team-platform-secret"] },
                {
                    name: "app",
                    projectAccess: { Apps: "admin", "Default Project": "read" },
                    tokens: ["team-app-secret"],
                },
            ],
            users: [{ name: "alice", teams: ["owners"], tokens: ["user-alice-secret"] }],
            agentPools: [{ id: "apool-0000000000000001", name: "default" }],
            registryModules: [
                {
                    id: "mod-0000000000000001",
                    name: "bucket",
                    provider: "aws",
                    noCodeReady: true,
                    versions: [
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
                    ],
                },
            ],
            projects: [{ id: "prj-0000000000000001", name: "Apps" }],
            workspaces: [{ id: "ws-0000000000000001", name: "legacy-app", project: "Apps" }],
        },
    ],
};

/** The name of the project every organization is created with. */
export const DEFAULT_PROJECT_NAME = "Default Project";

/** Every token of a seed, with who holds it: what the CLI prints after loading the demo seed. */
export function seedTokens(seed: SeedFile): { organization: string; holder: string; token: string }[] {
    const parsed = parseSeed(seed);
    const tokens: { organization: string; holder: string; token: string }[] = [];
    for (const org of parsed.organizations) {
        if (org.organizationToken)
            tokens.push({ organization: org.name, holder: "organization token", token: org.organizationToken });
        for (const team of org.teams)
            for (const token of team.tokens) tokens.push({ organization: org.name, holder: `team ${team.name}`, token });
        for (const user of org.users)
            for (const token of user.tokens) tokens.push({ organization: org.name, holder: `user ${user.name}`, token });
    }
    return tokens;
}

/**
 * Writes a seed in one transaction. Idempotent: everything is matched by id or by name (case-insensitive
 * for projects and workspaces) and only what is missing is created; settings of teams, agent pools and
 * modules are brought in line with the seed. Projects and workspaces that exist are left as they are, so a
 * restart with the same seed never undoes what users changed through the API.
 * @throws SeedError when the seed is invalid or contradicts the database (a token or id used elsewhere).
 */
export function applySeed(db: Db, input: SeedFile): void {
    const seed = parseSeed(input);
    writeTransaction(db, () => {
        for (const org of seed.organizations) applyOrganization(db, org);
    });
    // Teams, memberships, tokens and project access may have changed: tokens resolve afresh.
    forgetPrincipals(db);
}

type SeedOrganization = ParsedSeed["organizations"][number];

function applyOrganization(db: Db, org: SeedOrganization): void {
    const timestamp = now();
    sql(db, "INSERT INTO organizations (name, cost_estimation, created_at) VALUES (?, ?, ?) ON CONFLICT(name) DO UPDATE SET cost_estimation = excluded.cost_estimation")
        .run(org.name, org.costEstimation ? 1 : 0, timestamp);
    ensureDefaultProject(db, org.name);

    if (org.organizationToken) {
        claimToken(db, org.organizationToken, `organization ${org.name}`);
        sql(db, "INSERT OR IGNORE INTO organization_tokens (token_hash, organization, created_at) VALUES (?, ?, ?)")
            .run(hashToken(db, org.organizationToken), org.name, timestamp);
    }

    const projectIds = new Map<string, string>();
    for (const project of org.projects) {
        projectIds.set(project.name.toLowerCase(), upsertProject(db, org.name, project));
    }
    const projectIdByName = (name: string, field: string): string => {
        const row = sql(db, "SELECT id FROM projects WHERE organization = ? AND name = ?").get(org.name, name) as
            | { id: string }
            | undefined;
        if (!row) throw new SeedError(`invalid seed: ${field} names project '${name}', which organization '${org.name}' does not have`);
        return row.id;
    };

    const teamIds = new Map<string, string>();
    for (const team of org.teams) {
        const existing = sql(db, "SELECT id FROM teams WHERE organization = ? AND name = ?").get(org.name, team.name) as
            | { id: string }
            | undefined;
        const teamId = existing?.id ?? newId("team-");
        if (existing) {
            sql(db, "UPDATE teams SET owners = ?, manage_projects = ?, manage_modules = ? WHERE id = ?").run(
                team.owners ? 1 : 0,
                team.manageProjects ? 1 : 0,
                team.manageModules ? 1 : 0,
                teamId,
            );
        } else {
            sql(db, "INSERT INTO teams (id, organization, name, owners, manage_projects, manage_modules, created_at) VALUES (?, ?, ?, ?, ?, ?, ?)")
                .run(teamId, org.name, team.name, team.owners ? 1 : 0, team.manageProjects ? 1 : 0, team.manageModules ? 1 : 0, timestamp);
        }
        teamIds.set(team.name, teamId);
        for (const [projectName, access] of Object.entries(team.projectAccess ?? {})) {
            const projectId = projectIdByName(projectName, `team '${team.name}' projectAccess`);
            sql(db, "INSERT INTO team_project_access (team_id, project_id, access) VALUES (?, ?, ?) ON CONFLICT(team_id, project_id) DO UPDATE SET access = excluded.access")
                .run(teamId, projectId, access);
        }
        for (const token of team.tokens) {
            claimToken(db, token, `team ${org.name}/${team.name}`);
            sql(db, "INSERT OR IGNORE INTO team_tokens (token_hash, team_id, created_at) VALUES (?, ?, ?)").run(hashToken(db, token), teamId, timestamp);
        }
    }

    for (const user of org.users) {
        const existing = sql(db, "SELECT id FROM users WHERE organization = ? AND name = ?").get(org.name, user.name) as
            | { id: string }
            | undefined;
        const userId = existing?.id ?? newId("user-");
        if (!existing) sql(db, "INSERT INTO users (id, organization, name, created_at) VALUES (?, ?, ?, ?)").run(userId, org.name, user.name, timestamp);
        for (const teamName of user.teams) {
            const teamId =
                teamIds.get(teamName) ??
                (sql(db, "SELECT id FROM teams WHERE organization = ? AND name = ?").get(org.name, teamName) as { id: string } | undefined)?.id;
            if (!teamId) throw new SeedError(`invalid seed: user '${user.name}' is on team '${teamName}', which organization '${org.name}' does not have`);
            sql(db, "INSERT OR IGNORE INTO team_memberships (team_id, user_id) VALUES (?, ?)").run(teamId, userId);
        }
        for (const token of user.tokens) {
            claimToken(db, token, `user ${org.name}/${user.name}`);
            sql(db, "INSERT OR IGNORE INTO user_tokens (token_hash, user_id, created_at) VALUES (?, ?, ?)").run(hashToken(db, token), userId, timestamp);
        }
    }

    for (const pool of org.agentPools) {
        const existing = (pool.id
            ? sql(db, "SELECT id, organization FROM agent_pools WHERE id = ?").get(pool.id)
            : sql(db, "SELECT id, organization FROM agent_pools WHERE organization = ? AND name = ?").get(org.name, pool.name)) as
            | { id: string; organization: string }
            | undefined;
        if (existing && existing.organization !== org.name)
            throw new SeedError(`invalid seed: agent pool id '${pool.id}' already belongs to organization '${existing.organization}'`);
        if (existing) sql(db, "UPDATE agent_pools SET name = ? WHERE id = ?").run(pool.name, existing.id);
        else sql(db, "INSERT INTO agent_pools (id, organization, name, created_at) VALUES (?, ?, ?, ?)").run(pool.id ?? newId("apool-"), org.name, pool.name, timestamp);
    }

    for (const module of org.registryModules) applyRegistryModule(db, org.name, module);

    org.workspaces.forEach((workspace, index) => {
        const projectId = projectIdByName(workspace.project, `workspaces[${index}].project`);
        let agentPoolId: string | null = null;
        if (workspace.agentPool) {
            const pool = sql(db, "SELECT id FROM agent_pools WHERE organization = ? AND (id = ? OR name = ?)").get(
                org.name,
                workspace.agentPool,
                workspace.agentPool,
            ) as { id: string } | undefined;
            if (!pool) throw new SeedError(`invalid seed: workspaces[${index}].agentPool '${workspace.agentPool}' is not an agent pool of '${org.name}'`);
            agentPoolId = pool.id;
        }
        const mode = workspace.executionMode ?? (agentPoolId ? "agent" : "remote");
        if (mode === "agent" && !agentPoolId) throw new SeedError(`invalid seed: workspaces[${index}] has execution mode 'agent' but no agentPool`);
        if (mode === "remote" && agentPoolId) throw new SeedError(`invalid seed: workspaces[${index}] has execution mode 'remote' and an agentPool`);
        const byId = workspace.id
            ? (sql(db, "SELECT id, organization FROM workspaces WHERE id = ?").get(workspace.id) as { id: string; organization: string } | undefined)
            : undefined;
        if (byId && byId.organization !== org.name)
            throw new SeedError(`invalid seed: workspace id '${workspace.id}' already belongs to organization '${byId.organization}'`);
        const byName = sql(db, "SELECT id FROM workspaces WHERE organization = ? AND name = ?").get(org.name, workspace.name) as
            | { id: string }
            | undefined;
        if (byId || byName) return;
        // Seeded workspaces count as made through the API (`source` `tfe-api`); the project's duration is inherited.
        insertWorkspace(db, {
            id: workspace.id,
            organization: org.name,
            projectId,
            name: workspace.name,
            description: workspace.description ?? null,
            autoApply: workspace.autoApply,
            executionMode: mode,
            agentPoolId,
        });
    });
}

/** Creates the organization's `Default Project` unless it has one (its name may have been changed since). */
export function ensureDefaultProject(db: Db, organization: string): void {
    const existing = sql(db, "SELECT id FROM projects WHERE organization = ? AND is_default = 1").get(organization);
    if (existing) return;
    insertProject(db, { organization, name: DEFAULT_PROJECT_NAME, isDefault: true });
}

function upsertProject(db: Db, organization: string, project: SeedOrganization["projects"][number]): string {
    if (project.id) {
        const byId = sql(db, "SELECT id, organization FROM projects WHERE id = ?").get(project.id) as
            | { id: string; organization: string }
            | undefined;
        if (byId && byId.organization !== organization)
            throw new SeedError(`invalid seed: project id '${project.id}' already belongs to organization '${byId.organization}'`);
        if (byId) return byId.id;
    }
    const byName = sql(db, "SELECT id FROM projects WHERE organization = ? AND name = ?").get(organization, project.name) as
        | { id: string }
        | undefined;
    if (byName) return byName.id;
    const tags = Object.entries(project.tags ?? {}).map(([key, value]) => ({ key, value }));
    return insertProject(
        db,
        { id: project.id, organization, name: project.name, description: project.description, autoDestroyActivityDuration: project.autoDestroyActivityDuration },
        tags,
    ).id;
}

function applyRegistryModule(db: Db, organization: string, module: SeedOrganization["registryModules"][number]): void {
    const existing = (module.id
        ? sql(db, "SELECT id, organization FROM registry_modules WHERE id = ?").get(module.id)
        : sql(db, "SELECT id, organization FROM registry_modules WHERE organization = ? AND name = ? AND provider = ?").get(
              organization,
              module.name,
              module.provider,
          )) as { id: string; organization: string } | undefined;
    if (existing && existing.organization !== organization)
        throw new SeedError(`invalid seed: registry module id '${module.id}' already belongs to organization '${existing.organization}'`);
    const moduleId = existing?.id ?? module.id ?? newId("mod-");
    const timestamp = now();
    if (existing) {
        sql(db, "UPDATE registry_modules SET name = ?, provider = ?, no_code_ready = ? WHERE id = ?").run(
            module.name,
            module.provider,
            module.noCodeReady ? 1 : 0,
            moduleId,
        );
    } else {
        sql(db, "INSERT INTO registry_modules (id, organization, name, provider, no_code_ready, created_at) VALUES (?, ?, ?, ?, ?, ?)").run(
            moduleId,
            organization,
            module.name,
            module.provider,
            module.noCodeReady ? 1 : 0,
            timestamp,
        );
    }
    for (const version of module.versions) {
        sql(db, "INSERT OR IGNORE INTO registry_module_versions (module_id, version, created_at) VALUES (?, ?, ?)").run(
            moduleId,
            version.version,
            timestamp,
        );
        version.variables.forEach((variable, position) => {
            sql(db, `INSERT INTO registry_module_version_variables (module_id, version, name, type, required, default_value, position)
                     VALUES (?, ?, ?, ?, ?, ?, ?)
                     ON CONFLICT(module_id, version, name) DO UPDATE SET type = excluded.type, required = excluded.required,
                         default_value = excluded.default_value, position = excluded.position`).run(
                moduleId,
                version.version,
                variable.name,
                variable.type,
                variable.required ? 1 : 0,
                variable.default ?? null,
                position,
            );
        });
    }
}

/** Refuses a token that already belongs to another holder: one token, one principal. */
function claimToken(db: Db, token: string, holder: string): void {
    const hash = hashToken(db, token);
    const owners = [
        sql(db, "SELECT 'organization ' || organization AS holder FROM organization_tokens WHERE token_hash = ?").get(hash),
        sql(db, "SELECT 'team ' || t.organization || '/' || t.name AS holder FROM team_tokens tt JOIN teams t ON t.id = tt.team_id WHERE tt.token_hash = ?").get(hash),
        sql(db, "SELECT 'user ' || u.organization || '/' || u.name AS holder FROM user_tokens ut JOIN users u ON u.id = ut.user_id WHERE ut.token_hash = ?").get(hash),
    ].filter((row): row is { holder: string } => row !== undefined);
    const other = owners.find((row) => row.holder !== holder);
    // The token itself never appears in the message: only who holds it.
    if (other) throw new SeedError(`invalid seed: a token of ${holder} is already the token of ${other.holder}`);
}
