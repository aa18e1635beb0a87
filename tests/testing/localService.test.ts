/**
 * `startLocalService` of the packed `pulumi-wos/testing`: a real service on a free port of 127.0.0.1, loaded
 * from the demo seed, a seed object or a seed file; the seed's tokens by holder; `reset()` back to the seed
 * on the same address; `stop()`. Everything is read back over HTTP.
 */
import * as fs from "node:fs";
import * as http from "node:http";
import * as os from "node:os";
import * as path from "node:path";
import { REPO_ROOT } from "../support/packedPackage";
import { rawRequest } from "../support/server";
import { loadPackedKit, type SdkModule, type TestingModule } from "./helpers";

let testing: TestingModule;
let sdk: SdkModule;

beforeAll(async () => {
    ({ testing, sdk } = await loadPackedKit());
}, 240_000);

/** `GET /api/v2<pathname>` with `token`. */
const get = (address: string, pathname: string, token?: string) => rawRequest("GET", `${address}/api/v2${pathname}`, { token });

/** The names of `organization`'s projects, sorted. */
async function projectNames(address: string, token: string, organization = "acme"): Promise<string[]> {
    const response = await get(address, `/organizations/${organization}/projects?page%5Bsize%5D=100`, token);
    expect(response.status).toBe(200);
    return response.json.data.map((project: { attributes: { name: string } }) => project.attributes.name).sort();
}

/** Creates a project over HTTP; answers its id. */
async function createProject(address: string, token: string, name: string): Promise<string> {
    const response = await rawRequest("POST", `${address}/api/v2/organizations/acme/projects`, {
        token,
        body: { data: { type: "projects", attributes: { name } } },
    });
    expect(response.status).toBe(201);
    return response.json.data.id;
}

describe("with the demo seed (no options)", () => {
    let service: Awaited<ReturnType<TestingModule["startLocalService"]>>;

    beforeAll(async () => {
        service = await testing.startLocalService();
    });
    afterAll(async () => {
        await service?.stop();
    });

    test("listens on a free port of 127.0.0.1 and answers the interface under /api/v2", async () => {
        expect(service.address).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
        expect(service.address).not.toBe("http://127.0.0.1:8787");
        expect((await get(service.address, "/ping")).status).toBe(204);
    });

    test("tokens: every token of the demo seed under its holder's name and under organization/holder", () => {
        expect(service.tokens).toEqual({
            organization: "org-acme-secret",
            "acme/organization": "org-acme-secret",
            owners: "team-owners-secret",
            "acme/owners": "team-owners-secret",
            platform: "team-platform-secret",
            "acme/platform": "team-platform-secret",
            app: "team-app-secret",
            "acme/app": "team-app-secret",
            alice: "user-alice-secret",
            "acme/alice": "user-alice-secret",
        });
        expect(service.allTokens).toEqual([
            { organization: "acme", holder: "organization", kind: "organization", token: "org-acme-secret" },
            { organization: "acme", holder: "owners", kind: "team", token: "team-owners-secret" },
            { organization: "acme", holder: "platform", kind: "team", token: "team-platform-secret" },
            { organization: "acme", holder: "app", kind: "team", token: "team-app-secret" },
            { organization: "acme", holder: "alice", kind: "user", token: "user-alice-secret" },
        ]);
    });

    test("the tokens are the service's: each is accepted, a made-up one is refused", async () => {
        for (const token of Object.values(service.tokens)) {
            expect((await get(service.address, "/organizations/acme/projects", token)).status).toBe(200);
        }
        expect((await get(service.address, "/organizations/acme/projects", "not-a-token-of-the-seed")).status).toBe(401);
    });

    test("holds the demo seed: the projects Apps and Default Project, the workspace legacy-app", async () => {
        expect(await projectNames(service.address, service.tokens.owners)).toEqual(["Apps", "Default Project"]);
        const workspace = await get(service.address, "/workspaces/ws-0000000000000001", service.tokens.owners);
        expect(workspace.status).toBe(200);
        expect(workspace.json.data.attributes.name).toBe("legacy-app");
    });

    test("reset(): what was created is gone, the seed is back, on the same address (a kept-alive connection still works) with the same tokens", async () => {
        const before = service.address;
        const id = await createProject(service.address, service.tokens.platform, "Made in a test");
        expect(await projectNames(service.address, service.tokens.owners)).toEqual(["Apps", "Default Project", "Made in a test"]);

        await service.reset();

        expect(service.address).toBe(before);
        expect(await projectNames(service.address, service.tokens.owners)).toEqual(["Apps", "Default Project"]);
        expect((await get(service.address, `/projects/${id}`, service.tokens.owners)).status).toBe(404);
        // The name is free again, and the seed's tokens still act with their rights.
        await createProject(service.address, service.tokens.platform, "Made in a test");
        const refused = await rawRequest("POST", `${service.address}/api/v2/organizations/acme/projects`, {
            token: service.tokens.app,
            body: { data: { type: "projects", attributes: { name: "Not allowed" } } },
        });
        expect(refused.status).toBe(404); // visible but not permitted: "not found or unauthorized"
        expect(await projectNames(service.address, service.tokens.owners)).toEqual(["Apps", "Default Project", "Made in a test"]);
    });

    test("reset() waits for a request in progress, which finishes on the old database", async () => {
        const body = JSON.stringify({ data: { type: "projects", attributes: { name: "In Flight" } } });
        const request = http.request(`${service.address}/api/v2/organizations/acme/projects`, {
            method: "POST",
            headers: {
                authorization: `Bearer ${service.tokens.platform}`,
                "content-type": "application/vnd.api+json",
                "content-length": String(Buffer.byteLength(body)),
            },
        });
        const events: string[] = [];
        const answered = new Promise<number>((resolve, reject) => {
            request.on("response", (response) => {
                response.resume();
                response.on("end", () => resolve(response.statusCode ?? 0));
            });
            request.on("error", reject);
        });
        // The headers go now and the body later: the service holds a request in progress meanwhile.
        request.flushHeaders();
        await new Promise((resolve) => setTimeout(resolve, 200));
        const resetting = service.reset().then(() => events.push("reset"));
        // Long enough for the new database to be ready: the reset still waits, for the request.
        await new Promise((resolve) => setTimeout(resolve, 300));
        expect(events).toEqual([]);
        request.end(body);
        // Answered by the old database (a closed one would have failed it), then the reset ends.
        expect(await answered).toBe(201);
        await resetting;
        expect(events).toEqual(["reset"]);
        // It was written to the database the reset left behind.
        expect(await projectNames(service.address, service.tokens.owners)).toEqual(["Apps", "Default Project"]);
    });

    test("two reset() calls at once leave one service with the seed", async () => {
        await createProject(service.address, service.tokens.platform, "Before resets");
        await Promise.all([service.reset(), service.reset()]);
        expect(await projectNames(service.address, service.tokens.owners)).toEqual(["Apps", "Default Project"]);
    });
});

describe("with a seed", () => {
    const seed = {
        organizations: [
            {
                name: "north",
                teams: [
                    { name: "owners", owners: true, tokens: ["north-owners-token"] },
                    { name: "deploy", manageProjects: true, tokens: ["north-deploy-token", "north-deploy-token-2"] },
                ],
                projects: [{ name: "North Apps", tags: { region: "north" } }],
            },
            {
                name: "south",
                teams: [{ name: "owners", owners: true, tokens: ["south-owners-token"] }],
                users: [{ name: "deploy", teams: ["owners"], tokens: ["south-deploy-user-token"] }],
            },
        ],
    };

    test("a seed object: its organizations and tokens; a short key two holders share is left out", async () => {
        const service = await testing.startLocalService({ seed, planStepMs: 20 });
        try {
            expect(service.tokens).toEqual({
                "north/owners": "north-owners-token",
                "north/deploy": "north-deploy-token",
                "south/owners": "south-owners-token",
                "south/deploy": "south-deploy-user-token",
            });
            expect(service.allTokens.filter((token) => token.holder === "deploy")).toEqual([
                { organization: "north", holder: "deploy", kind: "team", token: "north-deploy-token" },
                { organization: "north", holder: "deploy", kind: "team", token: "north-deploy-token-2" },
                { organization: "south", holder: "deploy", kind: "user", token: "south-deploy-user-token" },
            ]);
            expect(await projectNames(service.address, service.tokens["north/owners"], "north")).toEqual(["Default Project", "North Apps"]);
            expect(await projectNames(service.address, service.tokens["south/owners"], "south")).toEqual(["Default Project"]);
            // Not the demo seed: its tokens mean nothing here.
            expect((await get(service.address, "/organizations/acme/projects", "team-owners-secret")).status).toBe(401);
        } finally {
            await service.stop();
        }
    });

    test("a seed file path, such as the repository's examples/seed.json", async () => {
        const service = await testing.startLocalService({ seed: path.join(REPO_ROOT, "examples", "seed.json") });
        try {
            expect(service.tokens.platform).toBe("team-platform-secret");
            expect(await projectNames(service.address, service.tokens.owners)).toEqual(["Apps", "Default Project"]);
        } finally {
            await service.stop();
        }
    });

    test("an invalid seed is refused, with a message that names the field", async () => {
        await expect(
            testing.startLocalService({ seed: { organizations: [{ name: "acme", projects: [{ name: "x!" }] }] } }),
        ).rejects.toThrow(/organizations\[0\]\.projects\[0\]\.name: /);
        await expect(
            testing.startLocalService({ seed: { organizations: [{ name: "acme", managProjects: true }] } as never }),
        ).rejects.toThrow(/managProjects/);
    });

    test("a seed file that is missing or not JSON is refused with its path", async () => {
        const missing = path.join(os.tmpdir(), `no-such-seed-${process.pid}.json`);
        await expect(testing.startLocalService({ seed: missing })).rejects.toThrow(`cannot read seed file ${missing}`);
        const notJson = path.join(fs.mkdtempSync(path.join(os.tmpdir(), "wos-seed-")), "seed.json");
        fs.writeFileSync(notJson, "{ organizations: ");
        try {
            await expect(testing.startLocalService({ seed: notJson })).rejects.toThrow(`seed file ${notJson} is not valid JSON`);
        } finally {
            fs.rmSync(path.dirname(notJson), { recursive: true, force: true });
        }
    });

    test("two services at once: different addresses, separate data", async () => {
        const [first, second] = await Promise.all([testing.startLocalService(), testing.startLocalService()]);
        try {
            expect(first.address).not.toBe(second.address);
            await createProject(first.address, first.tokens.platform, "Only in the first");
            expect(await projectNames(first.address, first.tokens.owners)).toContain("Only in the first");
            expect(await projectNames(second.address, second.tokens.owners)).not.toContain("Only in the first");
        } finally {
            await Promise.all([first.stop(), second.stop()]);
        }
    });
});

describe("planStepMs", () => {
    /** The status of an upgrade `waitMs` after it was started, on a service started with `planStepMs`. */
    async function statusAfter(planStepMs: number, waitMs: number): Promise<string> {
        const service = await testing.startLocalService({ planStepMs });
        try {
            const { WosClient } = sdk;
            const client = new WosClient({ address: service.address, token: service.tokens.platform });
            const module = await client.noCodeModules.create("acme", { registryModuleId: "mod-0000000000000001", enabled: true });
            const apps = (await client.projects.list("acme", { names: ["Apps"] })).items[0]!;
            const workspace = await client.noCodeModules.createWorkspace(module.id, {
                name: "paced",
                projectId: apps.id,
                vars: [{ key: "region", value: "eu-west-1", category: "infra" }],
            });
            const upgrade = await client.noCodeModules.initiateUpgrade(module.id, workspace.id, {
                vars: [{ key: "region", value: "us-east-1", category: "infra" }],
            });
            await new Promise((resolve) => setTimeout(resolve, waitMs));
            return (await client.noCodeModules.readUpgrade(module.id, workspace.id, upgrade.id)).status;
        } finally {
            await service.stop();
        }
    }

    test("sets the pace of upgrade plans: a minute a step stays pending, 20 ms a step has planned within a second", async () => {
        expect(await statusAfter(60_000, 1_000)).toBe("pending");
        expect(await statusAfter(20, 1_000)).toBe("planned");
    });
});

describe("stop()", () => {
    test("frees the address: nothing answers there afterwards; a second stop() is harmless; reset() is refused", async () => {
        const service = await testing.startLocalService();
        const address = service.address;
        expect((await get(address, "/ping")).status).toBe(204);
        await service.stop();
        await expect(get(address, "/ping")).rejects.toThrow();
        await expect(service.stop()).resolves.toBeUndefined();
        await expect(service.reset()).rejects.toThrow("reset() after stop()");
    });
});
