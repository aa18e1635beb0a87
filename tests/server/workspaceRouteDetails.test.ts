/**
 * Details of the workspace routes (`server/routes/workspaces.ts`) that the contract tests of
 * workspaces.test.ts, workspaceCreateList.test.ts and clientsCompat.test.ts leave open: the exact error
 * objects of their own refusals (an update whose `data.id` is not the URL's, a stored attribute at another
 * value, a `vcs-repo` that is not `{}` or null, `setting-overwrites` that the write would not leave so, a bad
 * or unsupported list parameter); a rename to the workspace's own name in another case; switching to
 * `remote` dropping the agent pool; what `setting-overwrites` reads back after each allowed write (update and
 * create); a moved workspace judged at its destination's auto-destroy duration; and the list's
 * `meta.status-counts` with a page past the end and a blank `filter[project][id]`.
 */
import { TOKENS, WORKSPACES } from "../support/seed";
import type { TestServer } from "../support/server";
import {
    AGENT_POOL,
    clientFor,
    expectErrors,
    expectNoWorkspaceNamed,
    expectStatus,
    expectUnchanged,
    projectDocument,
    snapshot,
    withSeededServer,
    type AcmeProjectIds,
    type Client,
    type HttpResponse,
    uniqueName,
} from "./helpers";

const CREATE = "/organizations/acme/workspaces";
const LIST = "/organizations/acme/workspaces";

let server: TestServer;
let owners: Client;
let ids: AcmeProjectIds;

withSeededServer((started) => ({ server, owners, ids } = started));


/** `PATCH /workspaces/:id` body; `data.id` and `relationships` only when given. */
function updateDocument(attributes: Record<string, unknown>, extra: { id?: string; projectId?: string } = {}): unknown {
    const data: Record<string, unknown> = { type: "workspaces", attributes };
    if (extra.id !== undefined) data.id = extra.id;
    if (extra.projectId !== undefined) data.relationships = { project: { data: { type: "projects", id: extra.projectId } } };
    return { data };
}

/** `POST /organizations/:org/workspaces` body, in the project given (else the Default Project). */
function createDocument(attributes: Record<string, unknown>, projectId?: string): unknown {
    const data: Record<string, unknown> = { type: "workspaces", attributes };
    if (projectId !== undefined) data.relationships = { project: { data: { type: "projects", id: projectId } } };
    return { data };
}

/** Creates a workspace in Apps as the owners (201 expected) and answers its `data`. */
async function createWorkspace(attributes: Record<string, unknown> = {}): Promise<any> {
    const response = await owners.post(CREATE, createDocument({ name: uniqueName("detail"), ...attributes }, ids.Apps));
    expectStatus(response, 201);
    return response.body.data;
}

/** The workspace as `GET /workspaces/:id` answers it to the owners: `{ attributes, relationships }`. */
async function readWorkspace(id: string): Promise<{ attributes: any; relationships: any }> {
    const response = await owners.get(`/workspaces/${id}`);
    expectStatus(response, 200);
    return { attributes: response.body.data.attributes, relationships: response.body.data.relationships };
}

/** The one error object of a refusal (the answer must hold exactly one). */
function onlyError(response: HttpResponse, status: number): any {
    const errors = expectErrors(response, status);
    expect(errors).toHaveLength(1);
    return errors[0];
}

/** A 422 error object of the workspace routes. */
function invalid(pointer: string, detail: string) {
    return { status: "422", title: "invalid attribute", detail, source: { pointer } };
}

/**
 * Sends a PATCH that must be refused with exactly `expected`, and proves it wrote nothing: the workspace
 * (every attribute, `updated-at` included, and relationship) and the seeded state read back as before.
 */
async function expectPatchRefused(workspaceId: string, body: unknown, expected: unknown): Promise<void> {
    const before = { workspace: await readWorkspace(workspaceId), state: await snapshot(server) };
    const response = await owners.patch(`/workspaces/${workspaceId}`, body);
    expect(onlyError(response, 422)).toEqual(expected);
    expect(await readWorkspace(workspaceId)).toEqual(before.workspace);
    await expectUnchanged(server, before.state);
}

const EXECUTION_MODE_TRUE_DETAIL = "Setting overwrites execution-mode may only be true with a value for execution-mode in the same request";
const AGENT_POOL_TRUE_DETAIL = "Setting overwrites agent-pool may only be true with a value for agent-pool-id or execution-mode in the same request";
const EXECUTION_MODE_FALSE_DETAIL =
    "Setting overwrites execution-mode cannot be false on this service: a workspace here keeps the execution mode it was given (there is no project default to fall back to)";
const AGENT_POOL_FALSE_DETAIL =
    "Setting overwrites agent-pool cannot be false on this service: a workspace here keeps the agent pool it was given (there is no project default to fall back to)";

describe("PATCH /workspaces/:id: its own refusals, exactly", () => {
    test("a data.id that is not the URL's: one 422 at /data/id naming the workspace of the URL; nothing written", async () => {
        const workspace = await createWorkspace({ description: "kept" });
        await expectPatchRefused(
            workspace.id,
            updateDocument({ description: "changed" }, { id: WORKSPACES.appsWeb }),
            invalid("/data/id", `Id must be the id of the workspace in the URL (${workspace.id})`),
        );
    });

    test("the URL's own id as data.id is accepted", async () => {
        const workspace = await createWorkspace();
        expectStatus(await owners.patch(`/workspaces/${workspace.id}`, updateDocument({ description: "with its id" }, { id: workspace.id })), 200);
        expect((await readWorkspace(workspace.id)).attributes.description).toBe("with its id");
    });

    test.each([
        ["infra-version", "Infra version"],
        ["terraform-version", "Terraform version"],
    ])("%s at another value: the detail names the version the workspace has, quoted; nothing written", async (attribute, words) => {
        const workspace = await createWorkspace();
        await expectPatchRefused(
            workspace.id,
            updateDocument({ [attribute]: "1.10.0" }),
            invalid(
                `/data/attributes/${attribute}`,
                `${words} cannot be changed: this service does not change a workspace's version. This workspace's is '1.9.0'; send that or leave it out`,
            ),
        );
    });

    test("working-directory on a workspace that has none: the detail says null, unquoted; nothing written", async () => {
        const workspace = await createWorkspace();
        await expectPatchRefused(
            workspace.id,
            updateDocument({ "working-directory": "infra" }),
            invalid(
                "/data/attributes/working-directory",
                "Working directory cannot be changed: this service does not change a workspace's working directory. This workspace's is null; send that or leave it out",
            ),
        );
    });

    test.each([
        ["an empty string", ""],
        ["a number", 0],
        ["an empty list", []],
        ["a list with an item", [{ identifier: "acme/app" }]],
    ])("vcs-repo as %s: one 422 at /data/attributes/vcs-repo; nothing written", async (_label, value) => {
        const workspace = await createWorkspace();
        await expectPatchRefused(
            workspace.id,
            updateDocument({ "vcs-repo": value }),
            invalid(
                "/data/attributes/vcs-repo",
                "Vcs repo is not supported on this service: workspaces here have no VCS connection; send null or {}, or leave it out",
            ),
        );
    });
});

describe("PATCH /workspaces/:id: names and the agent pool", () => {
    test("renaming a workspace to its own name in another case is no clash: 200, and the new spelling reads back", async () => {
        const workspace = await createWorkspace();
        const upper = workspace.attributes.name.toUpperCase();
        const response = await owners.patch(`/workspaces/${workspace.id}`, updateDocument({ name: upper }));
        expectStatus(response, 200);
        expect(response.body.data.attributes.name).toBe(upper);
        expect((await readWorkspace(workspace.id)).attributes.name).toBe(upper);
    });

    test("the name of another workspace, in another case, is a clash: one 422 at /data/attributes/name; nothing written", async () => {
        const workspace = await createWorkspace();
        const other = await createWorkspace();
        await expectPatchRefused(
            workspace.id,
            updateDocument({ name: other.attributes.name.toUpperCase() }),
            invalid("/data/attributes/name", "Name has already been taken"),
        );
    });

    test("switching an agent workspace to remote without naming a pool drops its pool, and that reads back", async () => {
        const workspace = await createWorkspace({ "execution-mode": "agent", "agent-pool-id": AGENT_POOL });
        expect(workspace.relationships["agent-pool"].data).toEqual({ id: AGENT_POOL, type: "agent-pools" });
        const response = await owners.patch(`/workspaces/${workspace.id}`, updateDocument({ "execution-mode": "remote" }));
        expectStatus(response, 200);
        expect(response.body.data.relationships["agent-pool"].data).toBeNull();
        const after = await readWorkspace(workspace.id);
        expect(after.attributes["execution-mode"]).toBe("remote");
        expect(after.relationships["agent-pool"].data).toBeNull();
    });

    test("an agent workspace keeps its pool when only another attribute changes", async () => {
        const workspace = await createWorkspace({ "execution-mode": "agent", "agent-pool-id": AGENT_POOL });
        expectStatus(await owners.patch(`/workspaces/${workspace.id}`, updateDocument({ description: "pool stays" })), 200);
        const after = await readWorkspace(workspace.id);
        expect(after.attributes["execution-mode"]).toBe("agent");
        expect(after.relationships["agent-pool"].data).toEqual({ id: AGENT_POOL, type: "agent-pools" });
    });
});

describe("PATCH /workspaces/:id: setting-overwrites", () => {
    const neither = { "execution-mode": false, "agent-pool": false };
    const both = { "execution-mode": true, "agent-pool": true };

    test("a workspace that never set its settings: false for both is accepted with another change, and both still read false", async () => {
        const workspace = await createWorkspace();
        expect(workspace.attributes["setting-overwrites"]).toEqual(neither);
        const response = await owners.patch(`/workspaces/${workspace.id}`, updateDocument({ description: "no settings", "setting-overwrites": neither }));
        expectStatus(response, 200);
        const after = await readWorkspace(workspace.id);
        expect(after.attributes["setting-overwrites"]).toEqual(neither);
        expect(after.attributes.description).toBe("no settings");
    });

    test("a change of another attribute alone leaves both false", async () => {
        const workspace = await createWorkspace();
        expectStatus(await owners.patch(`/workspaces/${workspace.id}`, updateDocument({ "auto-apply": true })), 200);
        expect((await readWorkspace(workspace.id)).attributes["setting-overwrites"]).toEqual(neither);
    });

    test("execution-mode true without the mode: one 422 naming execution-mode as what must come with it; nothing written", async () => {
        const workspace = await createWorkspace();
        await expectPatchRefused(
            workspace.id,
            updateDocument({ "setting-overwrites": { "execution-mode": true } }),
            invalid("/data/attributes/setting-overwrites/execution-mode", EXECUTION_MODE_TRUE_DETAIL),
        );
    });

    test("agent-pool true without a pool or a mode: one 422 naming agent-pool-id or execution-mode; nothing written", async () => {
        const workspace = await createWorkspace();
        await expectPatchRefused(
            workspace.id,
            updateDocument({ "setting-overwrites": { "agent-pool": true } }),
            invalid("/data/attributes/setting-overwrites/agent-pool", AGENT_POOL_TRUE_DETAIL),
        );
    });

    test("an execution mode alone sets both: agent-pool true with it is accepted, and both read true", async () => {
        const workspace = await createWorkspace();
        const response = await owners.patch(
            `/workspaces/${workspace.id}`,
            updateDocument({ "execution-mode": "remote", "setting-overwrites": { "agent-pool": true } }),
        );
        expectStatus(response, 200);
        expect(response.body.data.attributes["setting-overwrites"]).toEqual(both);
        expect((await readWorkspace(workspace.id)).attributes["setting-overwrites"]).toEqual(both);
    });

    test("an execution mode alone, without setting-overwrites, also reads both true", async () => {
        const workspace = await createWorkspace();
        expectStatus(await owners.patch(`/workspaces/${workspace.id}`, updateDocument({ "execution-mode": "remote" })), 200);
        expect((await readWorkspace(workspace.id)).attributes["setting-overwrites"]).toEqual(both);
    });

    test("an agent pool alone (null) sets agent-pool only", async () => {
        const workspace = await createWorkspace();
        expectStatus(await owners.patch(`/workspaces/${workspace.id}`, updateDocument({ "agent-pool-id": null, "setting-overwrites": { "agent-pool": true } })), 200);
        expect((await readWorkspace(workspace.id)).attributes["setting-overwrites"]).toEqual({ "execution-mode": false, "agent-pool": true });
    });

    describe("once the workspace set both", () => {
        let workspaceId: string;

        beforeAll(async () => {
            workspaceId = (await createWorkspace({ "execution-mode": "agent", "agent-pool-id": AGENT_POOL })).id;
        });

        test("true for both is accepted with no setting in the request, and both still read true", async () => {
            expectStatus(await owners.patch(`/workspaces/${workspaceId}`, updateDocument({ description: "kept settings", "setting-overwrites": both })), 200);
            const after = await readWorkspace(workspaceId);
            expect(after.attributes["setting-overwrites"]).toEqual(both);
            expect(after.attributes.description).toBe("kept settings");
        });

        test("execution-mode false: one 422 saying the workspace keeps the execution mode it was given; nothing written", async () => {
            await expectPatchRefused(
                workspaceId,
                updateDocument({ "setting-overwrites": { "execution-mode": false } }),
                invalid("/data/attributes/setting-overwrites/execution-mode", EXECUTION_MODE_FALSE_DETAIL),
            );
        });

        test("agent-pool false: one 422 saying the workspace keeps the agent pool it was given; nothing written", async () => {
            await expectPatchRefused(
                workspaceId,
                updateDocument({ "setting-overwrites": { "agent-pool": false } }),
                invalid("/data/attributes/setting-overwrites/agent-pool", AGENT_POOL_FALSE_DETAIL),
            );
        });
    });
});

describe("PATCH /workspaces/:id with a move: auto-destroy-activity-duration is judged at the destination's", () => {
    test("the destination's duration is accepted (and reads back), the workspace's present one is refused naming the destination's", async () => {
        const destination = await owners.post("/organizations/acme/projects", projectDocument({ name: uniqueName("dest"), "auto-destroy-activity-duration": "36h" }));
        expectStatus(destination, 201);
        const destinationId = destination.body.data.id;
        expectStatus(await owners.patch(`/projects/${ids.Apps}`, projectDocument({ "auto-destroy-activity-duration": "7d" })), 200);
        const workspace = await createWorkspace();
        expect(workspace.attributes["auto-destroy-activity-duration"]).toBe("7d");

        await expectPatchRefused(
            workspace.id,
            updateDocument({ "auto-destroy-activity-duration": "7d" }, { projectId: destinationId }),
            invalid(
                "/data/attributes/auto-destroy-activity-duration",
                "Auto destroy activity duration cannot be changed: a workspace here follows its project's duration; set it on the project. This workspace's is '36h'; send that or leave it out",
            ),
        );

        const moved = await owners.patch(`/workspaces/${workspace.id}`, updateDocument({ "auto-destroy-activity-duration": "36h" }, { projectId: destinationId }));
        expectStatus(moved, 200);
        const after = await readWorkspace(workspace.id);
        expect(after.relationships.project.data).toEqual({ id: destinationId, type: "projects" });
        expect(after.attributes["auto-destroy-activity-duration"]).toBe("36h");
        expectStatus(await owners.patch(`/projects/${ids.Apps}`, projectDocument({ "auto-destroy-activity-duration": null })), 200);
    });
});

describe("POST /organizations/:org/workspaces: setting-overwrites", () => {
    test("agent-pool true without a pool or a mode: one 422 naming agent-pool-id or execution-mode; nothing written", async () => {
        const name = uniqueName("refused");
        const before = await snapshot(server);
        const response = await owners.post(CREATE, createDocument({ name, "setting-overwrites": { "agent-pool": true } }, ids.Apps));
        expect(onlyError(response, 422)).toEqual(invalid("/data/attributes/setting-overwrites/agent-pool", AGENT_POOL_TRUE_DETAIL));
        await expectUnchanged(server, before);
        await expectNoWorkspaceNamed(server, name);
    });

    test("a mode alone sets both: true for both is accepted, and both read back true", async () => {
        const response = await owners.post(
            CREATE,
            createDocument({ name: uniqueName("detail"), "execution-mode": "remote", "setting-overwrites": { "execution-mode": true, "agent-pool": true } }, ids.Apps),
        );
        expectStatus(response, 201);
        expect((await readWorkspace(response.body.data.id)).attributes["setting-overwrites"]).toEqual({ "execution-mode": true, "agent-pool": true });
    });

    test("a mode alone, without setting-overwrites, reads back both true", async () => {
        const response = await owners.post(CREATE, createDocument({ name: uniqueName("detail"), "execution-mode": "remote" }, ids.Apps));
        expectStatus(response, 201);
        expect((await readWorkspace(response.body.data.id)).attributes["setting-overwrites"]).toEqual({ "execution-mode": true, "agent-pool": true });
    });

    test("an agent pool alone (null) sets agent-pool only: agent-pool true accepted, execution-mode reads false", async () => {
        const response = await owners.post(
            CREATE,
            createDocument({ name: uniqueName("detail"), "agent-pool-id": null, "setting-overwrites": { "agent-pool": true, "execution-mode": false } }, ids.Apps),
        );
        expectStatus(response, 201);
        expect((await readWorkspace(response.body.data.id)).attributes["setting-overwrites"]).toEqual({ "execution-mode": false, "agent-pool": true });
    });
});

describe("GET /organizations/:org/workspaces: parameters and counts", () => {
    /** Every workspace of acme the owners list, in creation order (page size 100: the file makes fewer). */
    async function allNames(): Promise<string[]> {
        const response = await owners.get(`${LIST}?page%5Bsize%5D=100`);
        expectStatus(response, 200);
        expect(response.body.meta["status-counts"].total).toBeLessThanOrEqual(100);
        return response.body.data.map((workspace: any) => workspace.attributes.name);
    }

    test("a sort other than those of the published description: 400 naming sort, the sorts it takes and the value sent", async () => {
        const response = await owners.get(`${LIST}?sort=latest-change-at`);
        expect(onlyError(response, 400)).toEqual({
            status: "400",
            title: "bad request",
            detail: "sort must be one of 'name', '-name', 'current-run.created-at', '-current-run.created-at', got 'latest-change-at'",
            source: { parameter: "sort" },
        });
    });

    test.each(["search[tags]", "filter[agent-pool][id]"])("%s: 400 naming it and what the list takes", async (parameter) => {
        const response = await owners.get(`${LIST}?${encodeURIComponent(parameter)}=x`);
        expect(onlyError(response, 400)).toEqual({
            status: "400",
            title: "bad request",
            detail:
                `${parameter} is not supported by this service; the workspace list takes search[name], search[wildcard-name], filter[project][id], ` +
                "filter[no-code-module][id], filter[tag-union], filter[tag-value-default-null], filter[current-run][status] and filter[tagged][i][key] / [value]",
            source: { parameter },
        });
    });

    test("a parameter outside the search[…] and filter[…] families is no filter of the hosted list: ignored, the whole list", async () => {
        const everything = await allNames();
        const response = await owners.get(`${LIST}?page%5Bsize%5D=100&${encodeURIComponent("x-filter[name]")}=web&${encodeURIComponent("research[name]")}=web`);
        expectStatus(response, 200);
        expect(response.body.data.map((workspace: any) => workspace.attributes.name)).toEqual(everything);
    });

    test("filter[project][id] of spaces only filters nothing: the whole list, matching = total", async () => {
        const everything = await allNames();
        const response = await owners.get(`${LIST}?page%5Bsize%5D=100&filter%5Bproject%5D%5Bid%5D=%20%20`);
        expectStatus(response, 200);
        expect(response.body.data.map((workspace: any) => workspace.attributes.name)).toEqual(everything);
        expect(response.body.meta["status-counts"]).toEqual({ total: everything.length, matching: everything.length });
    });

    test("filter[project][id] with spaces around the id is that project's workspaces (the value is trimmed)", async () => {
        const exact = await owners.get(`${LIST}?page%5Bsize%5D=100&filter%5Bproject%5D%5Bid%5D=${ids.Staging}`);
        expectStatus(exact, 200);
        expect(exact.body.data.length).toBeGreaterThan(0);
        const padded = await owners.get(`${LIST}?page%5Bsize%5D=100&filter%5Bproject%5D%5Bid%5D=%20${ids.Staging}%20`);
        expectStatus(padded, 200);
        expect(padded.body.data.map((workspace: any) => workspace.id)).toEqual(exact.body.data.map((workspace: any) => workspace.id));
        expect(padded.body.meta["status-counts"]).toEqual(exact.body.meta["status-counts"]);
        for (const workspace of padded.body.data) expect(workspace.relationships.project.data.id).toBe(ids.Staging);
    });

    test("without a filter, status-counts say the same total and matching: every workspace the caller reads", async () => {
        const everything = await allNames();
        const response = await owners.get(`${LIST}?page%5Bsize%5D=1`);
        expectStatus(response, 200);
        expect(response.body.data).toHaveLength(1);
        expect(response.body.meta["status-counts"]).toEqual({ total: everything.length, matching: everything.length });
    });

    test("a page past the end is empty with the counts and the last page of the whole list", async () => {
        const everything = await allNames();
        const size = 2;
        const pastEnd = Math.ceil(everything.length / size) + 1;
        const response = await owners.get(`${LIST}?page%5Bsize%5D=${size}&page%5Bnumber%5D=${pastEnd}`);
        expectStatus(response, 200);
        expect(response.body.data).toEqual([]);
        expect(response.body.meta["status-counts"]).toEqual({ total: everything.length, matching: everything.length });
        expect(response.body.meta.pagination).toEqual(
            expect.objectContaining({ "current-page": pastEnd, "total-count": everything.length, "total-pages": pastEnd - 1, "next-page": null }),
        );
        // The page that starts exactly at the end (offset = matching) is empty too; the one before it is not.
        const exactly = await owners.get(`${LIST}?page%5Bsize%5D=1&page%5Bnumber%5D=${everything.length + 1}`);
        expectStatus(exactly, 200);
        expect(exactly.body.data).toEqual([]);
        const last = await owners.get(`${LIST}?page%5Bsize%5D=1&page%5Bnumber%5D=${everything.length}`);
        expectStatus(last, 200);
        expect(last.body.data.map((workspace: any) => workspace.attributes.name)).toEqual([everything[everything.length - 1]]);
    });

    test("the largest page number the service takes (2^53 - 1), sorted and filtered or not: 200, an empty page", async () => {
        for (const query of ["", "&sort=-name", `&sort=name&filter%5Bproject%5D%5Bid%5D=${ids.Apps}`]) {
            const response = await owners.get(`${LIST}?page%5Bsize%5D=100&page%5Bnumber%5D=9007199254740991${query}`);
            expectStatus(response, 200);
            expect(response.body.data).toEqual([]);
            expect(response.body.meta.pagination["current-page"]).toBe(9007199254740991);
        }
    });

    test("a page past the end of a filtered list: empty, with that filter's matching and the caller's total", async () => {
        const everything = await allNames();
        const filtered = await owners.get(`${LIST}?filter%5Bproject%5D%5Bid%5D=${ids.Staging}&page%5Bsize%5D=100&page%5Bnumber%5D=2`);
        expectStatus(filtered, 200);
        expect(filtered.body.data).toEqual([]);
        const matching = filtered.body.meta["status-counts"].matching;
        expect(filtered.body.meta["status-counts"]).toEqual({ total: everything.length, matching });
        expect(matching).toBeGreaterThan(0);
        expect(matching).toBeLessThan(everything.length);
    });

    test("a team sees its own total: the Apps read team counts only Apps' workspaces", async () => {
        const apps = await owners.get(`${LIST}?filter%5Bproject%5D%5Bid%5D=${ids.Apps}&page%5Bsize%5D=100`);
        expectStatus(apps, 200);
        const team = await clientFor(server, TOKENS.appsRead).get(`${LIST}?page%5Bsize%5D=100&page%5Bnumber%5D=5`);
        expectStatus(team, 200);
        expect(team.body.data).toEqual([]);
        const appsCount = apps.body.meta["status-counts"].matching;
        expect(team.body.meta["status-counts"]).toEqual({ total: appsCount, matching: appsCount });
    });
});
