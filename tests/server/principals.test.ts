/**
 * The rules of `server/auth.ts` read directly (the contract tests reach them through HTTP, where one rule
 * often hides another): what a token resolves to (its kind, its teams, the union of a user's teams' flags
 * and the strongest access per project), what each access level permits on a project of the caller's
 * organization and that nothing is permitted on another organization's, the `Bearer` syntax, and the memory
 * of resolved tokens (a decision of docs/decisions.md: 2 s, at most 1000, emptied by a seed).
 *
 * A real database with a seed of its own; the clock is Jest's fake one, so an expiry is exact and no test waits.
 */
import {
    authenticate,
    bearerToken,
    canCreateProjects,
    canManageModules,
    effectiveAccess,
    forgetPrincipals,
    projectPermissions,
    type Principal,
    type ProjectPermissions,
} from "../../server/auth";
import { openDatabase, type Db } from "../../server/db";
import { applySeed, type SeedFile } from "../../server/seed";

/** Tokens of {@link SEED}, named after what they hold. */
const TOKENS = {
    organization: "org-token-acme",
    owners: "team-owners-only",
    appsRead: "team-apps-read-only",
    /** User on the nobody team, then the owners team. */
    ownersUser: "user-nobody-then-owners",
    /** User on the platform (manage projects) team, then the nobody team. */
    platformUser: "user-platform-then-nobody",
    /** User on the nobody team, then the modules (manage modules) team. */
    modulesUser: "user-nobody-then-modules",
    /** User on apps-admin, then apps-read: the stronger first. */
    adminFirst: "user-admin-then-read",
    /** User on apps-read, then apps-admin: the weaker first. */
    readFirst: "user-read-then-admin",
} as const;

/** Team tokens of one team, for the size of the memory: one more than it keeps. */
const MANY = Array.from({ length: 1001 }, (_, index) => `many-token-${String(index).padStart(4, "0")}`);

const SEED: SeedFile = {
    organizations: [
        {
            name: "acme",
            organizationToken: TOKENS.organization,
            teams: [
                { name: "owners", owners: true, tokens: [TOKENS.owners] },
                { name: "platform", manageProjects: true },
                { name: "modules", manageModules: true },
                { name: "nobody" },
                { name: "apps-read", projectAccess: { Apps: "read" }, tokens: [TOKENS.appsRead] },
                { name: "apps-admin", projectAccess: { Apps: "admin" } },
                { name: "many", projectAccess: { Apps: "write" }, tokens: MANY },
            ],
            users: [
                { name: "owen", teams: ["nobody", "owners"], tokens: [TOKENS.ownersUser] },
                { name: "paula", teams: ["platform", "nobody"], tokens: [TOKENS.platformUser] },
                { name: "mo", teams: ["nobody", "modules"], tokens: [TOKENS.modulesUser] },
                { name: "ada", teams: ["apps-admin", "apps-read"], tokens: [TOKENS.adminFirst] },
                { name: "rea", teams: ["apps-read", "apps-admin"], tokens: [TOKENS.readFirst] },
            ],
            projects: [{ name: "Apps" }],
        },
        { name: "globex", teams: [{ name: "owners", owners: true, tokens: ["team-globex-owners"] }], projects: [{ name: "Globex Apps" }] },
    ],
};

let db: Db;
let apps: string;

beforeEach(() => {
    jest.useFakeTimers();
    db = openDatabase(":memory:");
    applySeed(db, SEED);
    apps = (db.prepare("SELECT id FROM projects WHERE organization = 'acme' AND name = 'Apps'").get() as { id: string }).id;
});

afterEach(() => {
    db.close();
    jest.useRealTimers();
});

const resolve = (token: string) => authenticate(db, `Bearer ${token}`);

describe("what a token resolves to", () => {
    test("an organization token: its organization, no team, manage projects and nothing else", () => {
        expect(resolve(TOKENS.organization)).toEqual({
            organization: "acme",
            kind: "organization",
            teamIds: [],
            owners: false,
            manageProjects: true,
            manageModules: false,
            projectAccess: new Map(),
        });
    });

    test("a team token: its one team and the team's flags and access", () => {
        const principal = resolve(TOKENS.appsRead);
        expect(principal).toEqual(
            expect.objectContaining({ organization: "acme", kind: "team", owners: false, manageProjects: false, manageModules: false }),
        );
        expect(principal.teamIds).toHaveLength(1);
        expect([...principal.projectAccess]).toEqual([[apps, "read"]]);
    });

    test.each([
        ["owners", TOKENS.ownersUser, { owners: true, manageProjects: false, manageModules: false }],
        ["manage projects", TOKENS.platformUser, { owners: false, manageProjects: true, manageModules: false }],
        ["manage modules", TOKENS.modulesUser, { owners: false, manageProjects: false, manageModules: true }],
    ])("a user has a flag (%s) when any one of its teams has it, not only when all do", (_flag, token, flags) => {
        const principal = resolve(token);
        expect(principal).toEqual(expect.objectContaining({ kind: "user", ...flags }));
        expect(principal.teamIds).toHaveLength(2);
    });

    test.each([
        ["the stronger team first", TOKENS.adminFirst],
        ["the weaker team first", TOKENS.readFirst],
    ])("a user on two teams with access to one project has the stronger of the two (%s)", (_order, token) => {
        const principal = resolve(token);
        expect(principal.projectAccess.get(apps)).toBe("admin");
        expect(projectPermissions(principal, { id: apps, organization: "acme" }).canDestroy).toBe(true);
    });

    test("an unknown token, and a header that is not a bearer token, are refused (401)", () => {
        expect(() => resolve("team-unknown-token")).toThrow(expect.objectContaining({ statusCode: 401 }));
        expect(() => authenticate(db, TOKENS.owners)).toThrow(expect.objectContaining({ statusCode: 401 }));
        expect(() => authenticate(db, undefined)).toThrow(expect.objectContaining({ statusCode: 401 }));
    });
});

describe("what each access level permits (read < write < maintain < admin)", () => {
    const principal = (access: Partial<Principal> & { level?: "read" | "write" | "maintain" | "admin" }): Principal => ({
        organization: "acme",
        kind: "team",
        teamIds: ["team-1"],
        owners: false,
        manageProjects: false,
        manageModules: false,
        projectAccess: new Map(access.level ? [["prj-1", access.level]] : []),
        ...access,
    });
    const NONE: ProjectPermissions = {
        canRead: false,
        canUpdate: false,
        canDestroy: false,
        canCreateWorkspace: false,
        canMoveWorkspaces: false,
        canManageWorkspaces: false,
        canReadVariables: false,
        canWriteVariables: false,
    };
    const ALL: ProjectPermissions = {
        canRead: true,
        canUpdate: true,
        canDestroy: true,
        canCreateWorkspace: true,
        canMoveWorkspaces: true,
        canManageWorkspaces: true,
        canReadVariables: true,
        canWriteVariables: true,
    };
    const READ = { ...NONE, canRead: true, canReadVariables: true };
    const WRITE = { ...READ, canWriteVariables: true };
    const MAINTAIN = { ...WRITE, canCreateWorkspace: true, canMoveWorkspaces: true, canManageWorkspaces: true };

    test.each([
        ["no access", undefined, NONE],
        ["read", "read", READ],
        ["write", "write", WRITE],
        ["maintain", "maintain", MAINTAIN],
        ["admin", "admin", ALL],
    ] as const)("%s", (_label, level, expected) => {
        expect(projectPermissions(principal({ level }), { id: "prj-1", organization: "acme" })).toEqual(expected);
    });

    test("owners, manage projects and an organization token act as admin on every project of their organization", () => {
        for (const flags of [{ owners: true }, { manageProjects: true }, { kind: "organization" as const, manageProjects: true, teamIds: [] }]) {
            expect(effectiveAccess(principal(flags), "prj-other")).toBe("admin");
            expect(projectPermissions(principal(flags), { id: "prj-other", organization: "acme" })).toEqual(ALL);
        }
    });

    test("nothing at all on a project of another organization, whatever the caller holds", () => {
        for (const flags of [{ owners: true }, { manageProjects: true }, { level: "admin" as const }]) {
            expect(projectPermissions(principal(flags), { id: "prj-1", organization: "globex" })).toEqual(NONE);
        }
    });

    test("creating projects: owners, manage projects (the organization token); not project access", () => {
        expect(canCreateProjects(principal({ owners: true }))).toBe(true);
        expect(canCreateProjects(principal({ manageProjects: true }))).toBe(true);
        expect(canCreateProjects(principal({ level: "admin" }))).toBe(false);
    });

    test("managing no-code modules: owners or manage modules, never an organization token whatever its flags", () => {
        expect(canManageModules(principal({ owners: true }))).toBe(true);
        expect(canManageModules(principal({ manageModules: true }))).toBe(true);
        expect(canManageModules(principal({ manageProjects: true }))).toBe(false);
        expect(canManageModules(principal({ kind: "organization", owners: true, manageModules: true }))).toBe(false);
    });
});

describe("bearerToken: the Authorization header", () => {
    test.each([
        ["Bearer abc", "abc"],
        ["bearer abc", "abc"],
        ["Bearer \t abc", "abc"],
        ["Bearer abc \t", "abc"],
    ])("%j -> %j", (header, token) => {
        expect(bearerToken(header)).toBe(token);
    });

    test.each([["Basic abc"], ["xBearer abc"], [" Bearer abc"], ["Bearer"], ["Bearer a b"], ["abc"], [""]])("%j -> none", (header) => {
        expect(bearerToken(header)).toBeUndefined();
    });

    test("a header given twice (a list) is none", () => {
        expect(bearerToken(["Bearer a", "Bearer b"])).toBeUndefined();
        expect(bearerToken(undefined)).toBeUndefined();
    });
});

describe("the memory of resolved tokens", () => {
    /** Takes Apps away from the apps-read team behind the memory's back (no seed, so nothing empties it). */
    function revokeAppsRead(): void {
        db.prepare("DELETE FROM team_project_access WHERE team_id = (SELECT id FROM teams WHERE organization = 'acme' AND name = 'apps-read')").run();
    }

    test("answers the same principal for 2 s (up to 1999 ms), and looks the token up again from 2000 ms", () => {
        const first = resolve(TOKENS.appsRead);
        revokeAppsRead();
        expect(resolve(TOKENS.appsRead)).toBe(first);
        jest.advanceTimersByTime(1999);
        expect(resolve(TOKENS.appsRead)).toBe(first);
        jest.advanceTimersByTime(1);
        const again = resolve(TOKENS.appsRead);
        expect(again).not.toBe(first);
        expect(again.projectAccess.size).toBe(0);
    });

    test("a use does not extend the 2 s", () => {
        const first = resolve(TOKENS.appsRead);
        jest.advanceTimersByTime(1500);
        expect(resolve(TOKENS.appsRead)).toBe(first);
        jest.advanceTimersByTime(500);
        expect(resolve(TOKENS.appsRead)).not.toBe(first);
    });

    test("keeps each database's tokens apart, and forgets them all when told (a seed applied)", () => {
        const first = resolve(TOKENS.owners);
        const other = openDatabase(":memory:");
        try {
            applySeed(other, SEED);
            const elsewhere = authenticate(other, `Bearer ${TOKENS.owners}`);
            expect(elsewhere).not.toBe(first);
            expect(authenticate(other, `Bearer ${TOKENS.owners}`)).toBe(elsewhere);
        } finally {
            other.close();
        }
        expect(resolve(TOKENS.owners)).toBe(first);
        forgetPrincipals(db);
        expect(resolve(TOKENS.owners)).not.toBe(first);
    });

    test("keeps the 1000 most recently used: the 1001st token pushes out the least recently used one", () => {
        const principals = MANY.slice(0, 1000).map((token) => resolve(token));
        // A use makes the first one the most recently used: the second is now the least recently used.
        expect(resolve(MANY[0]!)).toBe(principals[0]);
        resolve(MANY[1000]!);
        expect(resolve(MANY[999]!)).toBe(principals[999]);
        expect(resolve(MANY[0]!)).toBe(principals[0]);
        expect(resolve(MANY[1]!)).not.toBe(principals[1]);
    });

    test("a principal handed out is frozen: no request can change it for the others", () => {
        const principal = resolve(TOKENS.ownersUser);
        expect(Object.isFrozen(principal)).toBe(true);
        expect(Object.isFrozen(principal.teamIds)).toBe(true);
    });
});
