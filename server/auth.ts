/**
 * Authentication and authorization, by the local service's own rules.
 *
 * A bearer token resolves to a {@link Principal}: the organization it belongs to, what kind of token it is,
 * the teams it acts as, and those teams' organization-wide settings and project access. Every permission
 * question is answered here, from that principal and nothing else, so routes never re-derive a rule.
 */
import { createHash } from "node:crypto";
import { ACCESS_LEVELS, hashToken, sql, type AccessLevel, type Db } from "./db";
import { HttpError, unauthorized } from "./errors";

/** Who is calling. */
export interface Principal {
    organization: string;
    kind: "organization" | "team" | "user";
    /** Ids of the teams the token acts as (its own team, or the user's teams; none for an organization token). */
    teamIds: string[];
    owners: boolean;
    manageProjects: boolean;
    manageModules: boolean;
    /** Project id -> the strongest access any of the teams has on it. */
    projectAccess: Map<string, AccessLevel>;
}

/** What a principal may do with one project (and the workspaces and variables in it). */
export interface ProjectPermissions {
    /** See the project, its workspaces, their variables (never sensitive values) and tag bindings. */
    canRead: boolean;
    /** Update the project and its tag bindings. */
    canUpdate: boolean;
    /** Delete the project. */
    canDestroy: boolean;
    /** Create workspaces in it. */
    canCreateWorkspace: boolean;
    /** Move workspaces into or out of it. */
    canMoveWorkspaces: boolean;
    /** Update and delete its workspaces. */
    canManageWorkspaces: boolean;
    canReadVariables: boolean;
    canWriteVariables: boolean;
}

const NO_PERMISSIONS: ProjectPermissions = {
    canRead: false,
    canUpdate: false,
    canDestroy: false,
    canCreateWorkspace: false,
    canMoveWorkspaces: false,
    canManageWorkspaces: false,
    canReadVariables: false,
    canWriteVariables: false,
};

/** `Bearer <token>` -> the token; anything else -> undefined. */
export function bearerToken(header: string | string[] | undefined): string | undefined {
    if (typeof header !== "string") return undefined;
    const match = /^Bearer[ \t]+(\S+)[ \t]*$/i.exec(header);
    return match?.[1];
}

/**
 * Why a request is not authenticated, as a 401 says it in `WWW-Authenticate`: no token at all, an
 * `Authorization` header that is not `Bearer <token>`, or a well-formed token the service does not know.
 */
export type AuthenticationFailure = "no_token" | "not_bearer" | "unknown_token";

/**
 * The `error_description` of each failure (RFC 6750 section 3). Plain words only: the value is a quoted
 * string, and never holds any part of what the client sent.
 */
export const AUTHENTICATION_FAILURE_DESCRIPTIONS: Readonly<Record<Exclude<AuthenticationFailure, "no_token">, string>> = {
    not_bearer: "the Authorization header is not a bearer token: send Authorization: Bearer <token>",
    unknown_token: "the bearer token is not known to this service",
};

/**
 * The `WWW-Authenticate` challenge of a 401 (RFC 6750 section 3). Without any token, none of the error
 * attributes (section 3.1: a request that lacks authentication information gets no error code); otherwise
 * `error="invalid_token"` and a description of what was wrong, never the token itself.
 */
export function authenticationChallenge(failure: AuthenticationFailure): string {
    if (failure === "no_token") return 'Bearer realm="wos"';
    return `Bearer realm="wos", error="invalid_token", error_description="${AUTHENTICATION_FAILURE_DESCRIPTIONS[failure]}"`;
}

/**
 * The 401 of a failure: the local service's exact body (`{"errors":[{"status":"401","title":
 * "unauthorized"}]}`, the same for every failure, as the hosted service answers) with the reason in the
 * `WWW-Authenticate` header, where a client that wants it (the SDK's `WosAuthenticationError`) reads it.
 */
export function unauthenticated(failure: AuthenticationFailure): HttpError {
    return new HttpError(401, unauthorized().errors, { "www-authenticate": authenticationChallenge(failure) });
}

/**
 * What is wrong with an `Authorization` header that {@link bearerToken} refused: nothing sent (no header,
 * an empty one, or the `Bearer` scheme with nothing after it, as `Bearer $TOKEN` with an unset variable
 * gives) or something that is not `Bearer <token>` (another scheme, a token without a scheme, or more than
 * one word after `Bearer`).
 */
function refusedHeaderFailure(header: string | string[] | undefined): AuthenticationFailure {
    if (header === undefined) return "no_token";
    if (typeof header === "string" && /^[ \t]*(?:Bearer)?[ \t]*$/i.test(header)) return "no_token";
    return "not_bearer";
}

/**
 * Resolves the `Authorization` header to a principal. A token seen in the last {@link PRINCIPAL_TTL_MS}
 * resolves from memory ({@link PrincipalCache}): its lookups and access map were 15% of the CPU of a show.
 * @throws HttpError 401 (the local service's exact body, the reason in `WWW-Authenticate`: see
 * {@link unauthenticated}) for a missing, malformed or unknown token.
 */
export function authenticate(db: Db, authorizationHeader: string | string[] | undefined): Principal {
    const token = bearerToken(authorizationHeader);
    if (!token) throw unauthenticated(refusedHeaderFailure(authorizationHeader));
    // The cache holds no token, only its plain SHA-256 (memory only, and cheaper than the stored hash).
    const key = createHash("sha256").update(token, "utf8").digest("base64");
    const cache = principalCacheOf(db);
    const cached = cache.get(key);
    if (cached) return cached;
    // Keyed (HMAC under the database's secret key): a copy of the file allows no guessing of tokens.
    const hash = hashToken(db, token);
    // Only tokens that resolve are kept: an unknown one is looked up again (and counted by the failed
    // authentication limit), and is known the moment a seed adds it.
    const principal = lookUpPrincipal(db, hash);
    // Shared by the requests of the next seconds: frozen, so no route can change it for the others.
    Object.freeze(principal.teamIds);
    cache.set(key, Object.freeze(principal));
    return principal;
}

/**
 * How long a resolved token is trusted without a lookup. Tokens are never revoked through the API, and
 * team settings, memberships and project access change only by applying a seed, which empties the cache
 * ({@link forgetPrincipals}); the TTL bounds what another process writing the same file (a second
 * `wos-server --seed` on it) can leave stale here.
 */
export const PRINCIPAL_TTL_MS = 2000;

/** Most principals kept per database; the least recently used goes first. */
const PRINCIPAL_CACHE_SIZE = 1000;

/** Principals by the SHA-256 of their token, least recently used first (a `Map` keeps insertion order), each with its expiry. */
class PrincipalCache {
    private readonly entries = new Map<string, { principal: Principal; expires: number }>();

    get(key: string): Principal | undefined {
        const entry = this.entries.get(key);
        if (!entry) return undefined;
        this.entries.delete(key);
        if (entry.expires <= performance.now()) return undefined;
        this.entries.set(key, entry);
        return entry.principal;
    }

    set(key: string, principal: Principal): void {
        this.entries.delete(key);
        if (this.entries.size >= PRINCIPAL_CACHE_SIZE) this.entries.delete(this.entries.keys().next().value!);
        this.entries.set(key, { principal, expires: performance.now() + PRINCIPAL_TTL_MS });
    }

    clear(): void {
        this.entries.clear();
    }
}

const principalCaches = new WeakMap<Db, PrincipalCache>();

function principalCacheOf(db: Db): PrincipalCache {
    let cache = principalCaches.get(db);
    if (!cache) {
        cache = new PrincipalCache();
        principalCaches.set(db, cache);
    }
    return cache;
}

/** Drops every principal resolved from `db`: the seed calls it after writing teams, tokens or access. */
export function forgetPrincipals(db: Db): void {
    principalCaches.get(db)?.clear();
}

/** The principal of a token hash, from the database. A cached principal is shared by requests: never mutate one. */
function lookUpPrincipal(db: Db, hash: string): Principal {
    const org = sql(db, "SELECT organization FROM organization_tokens WHERE token_hash = ?").get(hash) as
        | { organization: string }
        | undefined;
    if (org) {
        // An organization token acts like a team with "manage projects" for projects and variables.
        return {
            organization: org.organization,
            kind: "organization",
            teamIds: [],
            owners: false,
            manageProjects: true,
            manageModules: false,
            projectAccess: new Map(),
        };
    }

    let kind: Principal["kind"];
    let organization: string;
    let teams: { id: string; owners: number; manage_projects: number; manage_modules: number }[];
    const team = sql(db, `SELECT t.id, t.organization, t.owners, t.manage_projects, t.manage_modules
                          FROM team_tokens tt JOIN teams t ON t.id = tt.team_id WHERE tt.token_hash = ?`).get(hash) as
        | { id: string; organization: string; owners: number; manage_projects: number; manage_modules: number }
        | undefined;
    if (team) {
        kind = "team";
        organization = team.organization;
        teams = [team];
    } else {
        const user = sql(db, `SELECT u.id, u.organization FROM user_tokens ut JOIN users u ON u.id = ut.user_id
                              WHERE ut.token_hash = ?`).get(hash) as { id: string; organization: string } | undefined;
        if (!user) throw unauthenticated("unknown_token");
        kind = "user";
        organization = user.organization;
        teams = sql(db, `SELECT t.id, t.owners, t.manage_projects, t.manage_modules
                         FROM team_memberships m JOIN teams t ON t.id = m.team_id WHERE m.user_id = ?`).all(user.id) as typeof teams;
    }

    // A user has the union of its teams: any flag of any team, the strongest access per project.
    const projectAccess = new Map<string, AccessLevel>();
    for (const { id } of teams) {
        const rows = sql(db, "SELECT project_id, access FROM team_project_access WHERE team_id = ?").all(id) as {
            project_id: string;
            access: AccessLevel;
        }[];
        for (const row of rows) projectAccess.set(row.project_id, strongest(projectAccess.get(row.project_id), row.access));
    }
    return {
        organization,
        kind,
        teamIds: teams.map((t) => t.id),
        owners: teams.some((t) => t.owners === 1),
        manageProjects: teams.some((t) => t.manage_projects === 1),
        manageModules: teams.some((t) => t.manage_modules === 1),
        projectAccess,
    };
}

function rank(level: AccessLevel | undefined): number {
    return level === undefined ? -1 : ACCESS_LEVELS.indexOf(level);
}

/** The stronger of two levels; with none yet (`a` undefined), `b`. */
function strongest(a: AccessLevel | undefined, b: AccessLevel): AccessLevel {
    return ACCESS_LEVELS[Math.max(rank(a), rank(b))];
}

/**
 * The principal's effective access level on a project of its organization: owners and "manage projects"
 * (and the organization token) act as `admin` on every project.
 */
export function effectiveAccess(principal: Principal, projectId: string): AccessLevel | undefined {
    if (principal.owners || principal.manageProjects) return "admin";
    return principal.projectAccess.get(projectId);
}

/**
 * What the principal may do with a project: read < write < maintain < admin, each adding to the one before.
 * A project of another organization allows nothing.
 */
export function projectPermissions(principal: Principal, project: { id: string; organization: string }): ProjectPermissions {
    if (project.organization !== principal.organization) return NO_PERMISSIONS;
    return permissionsAtLevel(effectiveAccess(principal, project.id));
}

/** What access at `level` (none: `undefined`) allows on a project of the principal's organization. */
export function permissionsAtLevel(level: AccessLevel | undefined): ProjectPermissions {
    const rankOfLevel = rank(level);
    const read = rankOfLevel >= rank("read");
    const write = rankOfLevel >= rank("write");
    const maintain = rankOfLevel >= rank("maintain");
    const admin = rankOfLevel >= rank("admin");
    return {
        canRead: read,
        canUpdate: admin,
        canDestroy: admin,
        canCreateWorkspace: maintain,
        canMoveWorkspaces: maintain,
        canManageWorkspaces: maintain,
        canReadVariables: read,
        canWriteVariables: write,
    };
}

/** Whether the principal may create projects in its organization (owners, manage projects, organization token). */
export function canCreateProjects(principal: Principal): boolean {
    return principal.owners || principal.manageProjects;
}

/** Whether the principal may manage no-code modules (owners or manage modules; never an organization token). */
export function canManageModules(principal: Principal): boolean {
    return principal.kind !== "organization" && (principal.owners || principal.manageModules);
}
