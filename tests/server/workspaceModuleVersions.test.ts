/**
 * What lags behind a no-code module's pin (issue 29, point 4), over raw HTTP: the workspace list filtered by
 * no-code module (`filter[no-code-module][id]`, in SQL: only the workspaces made from it, on any of its
 * versions, with the counts of `meta`), a workspace read or list with `include=no-code-module-version` (each
 * version it runs, once, in `included`, with the module version it pins), and `GET
 * /no-code-module-versions/:id`, visible to the module's organization only.
 */
import { setTimeout as sleep } from "node:timers/promises";
import type { TestServer } from "../support/server";
import { REGISTRY_MODULES, TOKENS } from "../support/seed";
import { clientFor, expectErrors, expectStatus, withSeededServer, type AcmeProjectIds, type Client } from "./helpers";

const PLAN_STEP_MS = 20;
const LIST = "/organizations/acme/workspaces";

let server: TestServer;
let owners: Client;
let ids: AcmeProjectIds;
let moduleId: string;
/** The workspaces made from the module: `behind` stays on 1.0.0, `ahead` is upgraded to 1.1.0. */
const made: Record<"behind" | "ahead", string> = { behind: "", ahead: "" };
let firstVersion: string;
let secondVersion: string;

withSeededServer((started) => ({ server, owners, ids } = started), { planStepMs: PLAN_STEP_MS });

const region = { type: "vars", attributes: { key: "region", value: "eu-west-1", category: "infra" } };

beforeAll(async () => {
    const platform = clientFor(server, TOKENS.platform);
    const module = await platform.post("/organizations/acme/no-code-modules", {
        data: {
            type: "no-code-modules",
            attributes: { enabled: true, "version-pin": "1.0.0" },
            relationships: { "registry-module": { data: { type: "registry-module", id: REGISTRY_MODULES.bucket } } },
        },
    });
    expectStatus(module, 200);
    moduleId = module.body.data.id;
    for (const name of ["behind", "ahead"] as const) {
        const workspace = await platform.post(`/no-code-modules/${moduleId}/workspaces`, {
            data: {
                type: "workspaces",
                attributes: { name: `fleet-${name}` },
                relationships: { project: { data: { type: "project", id: ids.Apps } }, vars: { data: [region] } },
            },
        });
        expectStatus(workspace, 200);
        made[name] = workspace.body.data.id;
    }
    firstVersion = (await owners.get(`/workspaces/${made.behind}`)).body.data.relationships["no-code-module-version"].data.id;
    expectStatus(await platform.patch(`/no-code-modules/${moduleId}`, { data: { type: "no-code-modules", attributes: { "version-pin": "1.1.0" } } }), 200);
    const upgrade = await platform.post(`/no-code-modules/${moduleId}/workspaces/${made.ahead}/upgrade`, {
        data: { type: "workspaces", relationships: { vars: { data: [region] } } },
    });
    expectStatus(upgrade, 200);
    const run = `/no-code-modules/${moduleId}/workspaces/${made.ahead}/upgrade/${upgrade.body.data.id}`;
    for (let polls = 0; polls < 200 && (await platform.get(run)).body.data.attributes.status !== "planned"; polls++) await sleep(PLAN_STEP_MS);
    expectStatus(await platform.post(run), 200);
    secondVersion = (await owners.get(`/workspaces/${made.ahead}`)).body.data.relationships["no-code-module-version"].data.id;
});

const filtered = (module: string, extra = "") => `${LIST}?filter%5Bno-code-module%5D%5Bid%5D=${module}&page%5Bsize%5D=100${extra}`;

describe("the workspace list filtered by no-code module", () => {
    test("only the workspaces made from it, whichever version they run; matching counts them, total every workspace", async () => {
        const all = await owners.get(`${LIST}?page%5Bsize%5D=100`);
        const response = await owners.get(filtered(moduleId));
        expectStatus(response, 200);
        expect(response.body.data.map((workspace: any) => workspace.id).sort()).toEqual([made.behind, made.ahead].sort());
        expect(response.body.meta["status-counts"]).toEqual({ total: all.body.meta["status-counts"].total, matching: 2 });
        expect(all.body.data.length).toBeGreaterThan(2);
    });

    test("another module's id, or one that does not exist: none", async () => {
        for (const other of ["nocode-doesnotexist0001", ""]) {
            const response = await owners.get(filtered(other));
            expectStatus(response, 200);
            if (other === "") expect(response.body.data.length).toBeGreaterThan(2);
            else expect(response.body).toMatchObject({ data: [], meta: { "status-counts": { matching: 0 } } });
        }
    });

    test("a team sees only what it may read: a team without access to Apps gets none of them", async () => {
        const response = await clientFor(server, TOKENS.noAccess).get(filtered(moduleId));
        expectStatus(response, 200);
        expect(response.body.data).toEqual([]);
    });

    test("with other filters too: the project's and the name search's", async () => {
        const search = await owners.get(filtered(moduleId, "&search%5Bname%5D=ahead"));
        expect(search.body.data.map((workspace: any) => workspace.id)).toEqual([made.ahead]);
        const staging = await owners.get(filtered(moduleId, `&filter%5Bproject%5D%5Bid%5D=${ids.Staging}`));
        expect(staging.body.data).toEqual([]);
    });
});

describe("include=no-code-module-version", () => {
    test("the list includes each version its workspaces run, once, with the module version it pins", async () => {
        const response = await owners.get(filtered(moduleId, "&include=no-code-module-version"));
        expectStatus(response, 200);
        const byId = Object.fromEntries(response.body.included.map((version: any) => [version.id, version]));
        expect(Object.keys(byId).sort()).toEqual([firstVersion, secondVersion].sort());
        expect(byId[firstVersion]).toMatchObject({
            type: "no-code-module-versions",
            attributes: { "module-version": "1.0.0" },
            relationships: {
                "no-code-module": { data: { id: moduleId, type: "no-code-modules" } },
                "registry-module": { data: { id: REGISTRY_MODULES.bucket, type: "registry-modules" } },
            },
        });
        expect(byId[secondVersion].attributes["module-version"]).toBe("1.1.0");
        const flags = Object.fromEntries(response.body.data.map((workspace: any) => [workspace.id, workspace.attributes["no-code-upgrade-available"]]));
        expect(flags).toEqual({ [made.behind]: true, [made.ahead]: false });
    });

    test("a workspace read (by id, by name) includes its version; a workspace made through the API includes none", async () => {
        const byId = await owners.get(`/workspaces/${made.behind}?include=no_code_module_version`);
        expect(byId.body.included.map((version: any) => [version.id, version.attributes["module-version"]])).toEqual([[firstVersion, "1.0.0"]]);
        const byName = await owners.get(`${LIST}/fleet-ahead?include=no-code-module-version`);
        expect(byName.body.included.map((version: any) => version.attributes["module-version"])).toEqual(["1.1.0"]);
        const plain = await owners.get(`${LIST}/legacy-app?include=no-code-module-version`);
        expectStatus(plain, 200);
        expect(plain.body.included).toEqual([]);
        expect((await owners.get(`/workspaces/${made.behind}`)).body.included).toBeUndefined();
    });

    test("another include on a read: 400 naming the parameter", async () => {
        const errors = expectErrors(await owners.get(`/workspaces/${made.behind}?include=project`), 400);
        expect(errors[0]).toMatchObject({ source: { parameter: "include" }, detail: expect.stringMatching(/^Invalid include parameter/) });
    });
});

describe("GET /no-code-module-versions/:id", () => {
    test("the version, to every token of the organization; 404 to another organization's and for an unknown id", async () => {
        const response = await clientFor(server, TOKENS.appsRead).get(`/no-code-module-versions/${secondVersion}`);
        expectStatus(response, 200);
        expect(response.body.data).toMatchObject({ id: secondVersion, type: "no-code-module-versions", attributes: { "module-version": "1.1.0" } });
        expectErrors(await clientFor(server, TOKENS.globexOwners).get(`/no-code-module-versions/${secondVersion}`), 404);
        expectErrors(await owners.get("/no-code-module-versions/nocodever-doesnotexist1"), 404);
    });
});
