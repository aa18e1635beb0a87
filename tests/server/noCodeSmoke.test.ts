/**
 * A quick end-to-end pass over the no-code endpoints of the local service over raw HTTP: enable a module,
 * read it with its options, change them, create a workspace from it, upgrade the workspace (initiate, poll,
 * confirm) and read the result back; and a plan made to fail by a `planOutcome` fault. The full contract of
 * each endpoint is in the other `noCode*.test.ts` files.
 */
import { setTimeout as sleep } from "node:timers/promises";
import type { TestServer } from "../support/server";
import { REGISTRY_MODULES, TOKENS } from "../support/seed";
import { clientFor, expectErrors, expectStatus, withSeededServer, type AcmeProjectIds, type Client } from "./helpers";

/** Short steps: a plan ends a few tens of milliseconds after it starts. */
const PLAN_STEP_MS = 20;

let server: TestServer;
let owners: Client;
let ids: AcmeProjectIds;

withSeededServer((started) => ({ server, owners, ids } = started), { planStepMs: PLAN_STEP_MS });

/** One item of `relationships.variable-options.data[]`; with `id` it replaces that set. */
function optionItem(variableName: string, variableType: string, options: unknown[], id?: string) {
    return { type: "variable-options", ...(id === undefined ? {} : { id }), attributes: { "variable-name": variableName, "variable-type": variableType, options } };
}

/** One item of `relationships.vars.data[]` of a no-code workspace create or upgrade. */
function varItem(key: string, value: string, category: "infra" | "env", sensitive = false) {
    return { type: "vars", attributes: { key, value, category, sensitive } };
}

/** Reads an upgrade until its status is no longer one of the plan's steps (a generous deadline, never asserted). */
async function pollUntilPlanEnds(client: Client, path: string): Promise<any> {
    const deadline = Date.now() + 10_000;
    for (;;) {
        const response = await client.get(path);
        expectStatus(response, 200);
        if (!["pending", "fetching", "planning"].includes(response.body.data.attributes.status) || Date.now() > deadline) return response.body.data;
        await sleep(PLAN_STEP_MS);
    }
}

/** The workspace's vars as `key=value` (sensitive values read back as null), sorted. */
async function varsOf(workspaceName: string): Promise<string[]> {
    const response = await owners.get(`/vars?filter%5Bworkspace%5D%5Bname%5D=${workspaceName}&filter%5Borganization%5D%5Bname%5D=acme`);
    expectStatus(response, 200);
    return response.body.data.map((v: any) => `${v.attributes.category}:${v.attributes.key}=${v.attributes.value}`).sort();
}

/** `POST /organizations/:org/no-code-modules` body. */
function moduleDocument(registryModuleId: string, attributes: Record<string, unknown>, options?: unknown[]) {
    const relationships: Record<string, unknown> = { "registry-module": { data: { type: "registry-module", id: registryModuleId } } };
    if (options !== undefined) relationships["variable-options"] = { data: options };
    return { data: { type: "no-code-modules", attributes, relationships } };
}

/** `POST /no-code-modules/:id/workspaces` body. */
function workspaceDocument(name: string, projectId: string, vars: unknown[]) {
    return {
        data: {
            type: "workspaces",
            attributes: { name, auto_apply: true, "source-name": "smoke" },
            relationships: { project: { data: { type: "project", id: projectId } }, vars: { data: vars } },
        },
    };
}

/** `POST /no-code-modules/:id/workspaces/:ws/upgrade` body. */
function upgradeDocument(vars: unknown[]) {
    return { data: { type: "workspaces", relationships: { vars: { data: vars } } } };
}

describe("no-code provisioning, end to end", () => {
    test("an organization token may not enable a module: 404 saying why, and no no-code module is made", async () => {
        const errors = expectErrors(
            await clientFor(server, TOKENS.acmeOrganization).post("/organizations/acme/no-code-modules", moduleDocument(REGISTRY_MODULES.network, {})),
            404,
        );
        expect(errors[0].detail).toMatch(/organization token cannot be used/);
        const registry = await owners.get(`/registry-modules/${REGISTRY_MODULES.network}`);
        expectStatus(registry, 200);
        expect(registry.body.data.relationships["no-code-modules"].data).toEqual([]);
    });

    test("a module's life: enable with options, read them, create a workspace, change the pin, upgrade and confirm", async () => {
        // Enable, with options given as strings and as numbers (kept as text).
        const created = await clientFor(server, TOKENS.platform).post(
            "/organizations/acme/no-code-modules",
            moduleDocument(REGISTRY_MODULES.bucket, { "version-pin": "1.0.0", enabled: true }, [
                optionItem("region", "string", ["us-east-1", "eu-west-1"]),
                optionItem("size", "number", [1, 2]),
            ]),
        );
        expectStatus(created, 200);
        const moduleId = created.body.data.id;
        expect(moduleId).toMatch(/^nocode-/);
        expect(created.body.data.attributes).toEqual({ enabled: true, "version-pin": "1.0.0" });
        expect(created.body.data.relationships["registry-module"].data).toEqual({ id: REGISTRY_MODULES.bucket, type: "registry-modules" });

        const read = await clientFor(server, TOKENS.acmeOrganization).get(`/no-code-modules/${moduleId}?include=variable_options`);
        expectStatus(read, 200);
        expect(read.body.included.map((set: any) => [set.attributes["variable-name"], set.attributes.options])).toEqual([
            ["region", ["us-east-1", "eu-west-1"]],
            ["size", ["1", "2"]],
        ]);
        const regionSetId = read.body.included[0].id;
        expect(read.body.data.relationships["variable-options"].data.map((item: any) => item.id)).toEqual(read.body.included.map((set: any) => set.id));
        const registry = await owners.get(`/registry-modules/${REGISTRY_MODULES.bucket}`);
        expect(registry.body.data.relationships["no-code-modules"].data).toEqual([{ id: moduleId, type: "no-code-modules" }]);
        expectErrors(await owners.get(`/no-code-modules/${moduleId}?include=workspaces`), 400);

        // A workspace from it: tfe-module, on the module's version, with its vars (the sensitive one never shown).
        const made = await clientFor(server, TOKENS.appsMaintain).post(
            `/no-code-modules/${moduleId}/workspaces`,
            workspaceDocument("bucket-smoke", ids.Apps, [varItem("region", "us-east-1", "infra"), varItem("TOKEN", "hidden-value", "env", true)]),
        );
        expectStatus(made, 200);
        const workspaceId = made.body.data.id;
        const firstVersion = made.body.data.relationships["no-code-module-version"].data.id;
        expect(made.body.data.attributes).toMatchObject({
            name: "bucket-smoke",
            source: "tfe-module",
            "source-module-id": REGISTRY_MODULES.bucket,
            "auto-apply": true,
            "no-code-upgrade-available": false,
        });
        expect(firstVersion).toMatch(/^nocodever-/);
        expect(made.text).not.toContain("hidden-value");
        const byName = await owners.get("/organizations/acme/workspaces/bucket-smoke");
        expectStatus(byName, 200);
        expect(byName.body.data.id).toBe(workspaceId);
        expect(await varsOf("bucket-smoke")).toEqual(["env:TOKEN=null", "infra:region=us-east-1"]);

        // A new pin and options make a new version: the workspace has an upgrade available.
        const patched = await clientFor(server, TOKENS.modules).patch(`/no-code-modules/${moduleId}`, {
            data: {
                type: "no-code-modules",
                attributes: { "version-pin": "1.1.0" },
                relationships: { "variable-options": { data: [optionItem("region", "string", ["us-east-1", "eu-west-1", "ap-south-1"], regionSetId)] } },
            },
        });
        expectStatus(patched, 200);
        expect(patched.body.data.attributes["version-pin"]).toBe("1.1.0");
        expect(patched.body.data.relationships["variable-options"].data).toEqual([{ id: regionSetId, type: "variable-options" }]);
        expect((await owners.get(`/workspaces/${workspaceId}`)).body.data.attributes["no-code-upgrade-available"]).toBe(true);

        // The upgrade: pending at once, planned after a few steps, nothing changed before the confirm.
        const maintain = clientFor(server, TOKENS.appsMaintain);
        const initiated = await maintain.post(`/no-code-modules/${moduleId}/workspaces/${workspaceId}/upgrade`, upgradeDocument([varItem("region", "ap-south-1", "infra")]));
        expectStatus(initiated, 200);
        const run = initiated.body.data;
        expect(run.type).toBe("workspace-upgrade");
        expect(run.attributes.status).toBe("pending");
        expect(run.attributes["plan-url"]).toBe(`${server.url}/app/acme/workspaces/bucket-smoke/runs/${run.id}`);
        expect(run.relationships.workspace.data).toEqual({ id: workspaceId, type: "workspaces" });
        const path = `/no-code-modules/${moduleId}/workspaces/${workspaceId}/upgrade/${run.id}`;
        expect((await pollUntilPlanEnds(maintain, path)).attributes.status).toBe("planned");
        expect(await varsOf("bucket-smoke")).toEqual(["env:TOKEN=null", "infra:region=us-east-1"]);

        // The confirm (a `null` body, as a public client sends it) applies the vars and the version.
        const confirmed = await maintain.raw("POST", path, "null");
        expectStatus(confirmed, 200);
        expect(confirmed.body).toEqual({ message: "Workspace update completed" });
        const workspace = await owners.get(`/workspaces/${workspaceId}`);
        expect(workspace.body.data.relationships["no-code-module-version"].data.id).not.toBe(firstVersion);
        expect(workspace.body.data.attributes["no-code-upgrade-available"]).toBe(false);
        expect(await varsOf("bucket-smoke")).toEqual(["env:TOKEN=null", "infra:region=ap-south-1"]);
        expect((await maintain.get(path)).body.data.attributes.status).toBe("applied");
        expectErrors(await maintain.post(path), 409);
    });

    test("a plan failed by a planOutcome fault ends errored, cannot be confirmed, and changes nothing", async () => {
        const initech = clientFor(server, TOKENS.initechOwners);
        const module = await initech.post("/organizations/initech/no-code-modules", moduleDocument(REGISTRY_MODULES.initechBucket, { enabled: true }));
        expectStatus(module, 200);
        const projects = await initech.get("/organizations/initech/projects?filter%5Bnames%5D=Infra");
        const made = await initech.post(
            `/no-code-modules/${module.body.data.id}/workspaces`,
            workspaceDocument("failing-smoke", projects.body.data[0].id, [varItem("region", "us-east-1", "infra")]),
        );
        expectStatus(made, 200);
        const upgrade = `/no-code-modules/${module.body.data.id}/workspaces/${made.body.data.id}/upgrade`;

        await server.addFault({ method: "POST", path: "^/api/v2/no-code-modules/[^/]+/workspaces/[^/]+/upgrade$", planOutcome: "errored" });
        const initiated = await initech.post(upgrade, upgradeDocument([varItem("region", "eu-west-1", "infra")]));
        expectStatus(initiated, 200);
        const path = `${upgrade}/${initiated.body.data.id}`;
        expect((await pollUntilPlanEnds(initech, path)).attributes.status).toBe("errored");
        const errors = expectErrors(await initech.post(path), 409);
        expect(errors[0].detail).toContain("errored");
        const workspace = await initech.get(`/workspaces/${made.body.data.id}`);
        expect(workspace.body.data.attributes["updated-at"]).toBe(made.body.data.attributes["updated-at"]);
        const vars = await initech.get("/vars?filter%5Bworkspace%5D%5Bname%5D=failing-smoke&filter%5Borganization%5D%5Bname%5D=initech");
        expect(vars.body.data.map((v: any) => v.attributes.value)).toEqual(["us-east-1"]);
    });
});
