/**
 * Contract of the no-code module endpoints (the API's No-code provisioning endpoints, and the local service's
 * decisions on no-code modules, on `PATCH /no-code-modules/:id` with variable-options and on no-code
 * versions): create with its defaults and every rule, read with `include`, update (the options list as the whole desired set, judged on the
 * resulting sets), a change of registry module, delete; which changes make a new no-code version (seen as
 * `no-code-upgrade-available` on a workspace made before them); and `GET /registry-modules/:id`.
 *
 * Every test takes a registry module of its own from the pool of `noCodeTestSeed` (a registry module may
 * have only one no-code module), so tests do not depend on each other.
 */
import { REGISTRY_MODULES, TOKENS } from "../support/seed";
import {
    clientFor,
    createNoCodeModule,
    createNoCodeWorkspace,
    expectErrors,
    expectNoCodeUnchanged,
    expectStatus,
    expectValidation,
    expectValidationUnder,
    noCodeModuleDocument,
    noCodePaths,
    noCodeSnapshot,
    noCodeVersionOf,
    NUMERIC_VERSIONS_MODULE,
    readNoCodeModule,
    setContents,
    updateNoCodeModule,
    upgradeAvailable,
    withNoCodeServer,
    type Client,
    type NoCodeServer,
} from "./helpers";

let started: NoCodeServer;
let owners: Client;

withNoCodeServer((value) => {
    started = value;
    owners = value.owners;
});

const OPTIONS = "/data/relationships/variable-options/data";
const REGISTRY_POINTER = "/data/relationships/registry-module/data/id";

/** A pooled `bucket` registry module no other test uses. */
function freshRegistryModule(kind: "bucket" | "network" = "bucket"): string {
    return started.registryModule(kind);
}

/** The `nocode-` ids a registry module reports through `GET /registry-modules/:id`. */
async function noCodeModulesOf(registryModuleId: string): Promise<string[]> {
    const response = await owners.get(noCodePaths.registryModule(registryModuleId));
    expectStatus(response, 200);
    return response.body.data.relationships["no-code-modules"].data.map((item: any) => item.id);
}

/** An enabled module with a workspace made from it in Apps: for proving which changes make a new version. */
async function moduleWithWorkspace(spec: Parameters<typeof createNoCodeModule>[1] = {}): Promise<{ id: string; workspaceId: string }> {
    const module = await createNoCodeModule(started.server, { enabled: true, registryModuleId: freshRegistryModule(), ...spec });
    const workspace = await createNoCodeWorkspace(started.server, module.id, { projectId: started.ids.Apps });
    expect(await upgradeAvailable(started.server, workspace.id)).toBe(false);
    return { id: module.id, workspaceId: workspace.id };
}

function expectModuleResource(data: any, registryModuleId: string): void {
    expect(data.type).toBe("no-code-modules");
    expect(data.id).toMatch(/^nocode-/);
    expect(data.relationships.organization).toEqual({
        data: { id: "acme", type: "organizations" },
        links: { related: "/api/v2/organizations/acme" },
    });
    expect(data.relationships["registry-module"]).toEqual({
        data: { id: registryModuleId, type: "registry-modules" },
        links: { related: `/api/v2/registry-modules/${registryModuleId}` },
    });
    expect(Array.isArray(data.relationships["variable-options"].data)).toBe(true);
    expect(data.links.self).toBe(`/api/v2/no-code-modules/${data.id}`);
}

describe("POST /organizations/:org/no-code-modules", () => {
    test("with only the registry module: 200, enabled false, pinned to the highest version (1.1.0), no sets; reads back the same", async () => {
        const registryModuleId = freshRegistryModule();
        const response = await owners.post(noCodePaths.modules("acme"), noCodeModuleDocument({ registryModuleId }));
        expectStatus(response, 200);
        const data = response.body.data;
        expectModuleResource(data, registryModuleId);
        expect(data.attributes).toEqual({ enabled: false, "version-pin": "1.1.0" });
        expect(data.relationships["variable-options"].data).toEqual([]);

        const read = await owners.get(noCodePaths.module(data.id));
        expectStatus(read, 200);
        expect(read.body.data).toEqual(data);
        expect(await noCodeModulesOf(registryModuleId)).toEqual([data.id]);
    });

    test("the default pin is the highest version compared as numbers: 1.10.0 over 1.9.0 and 1.2.0", async () => {
        const created = await createNoCodeModule(started.server, { registryModuleId: NUMERIC_VERSIONS_MODULE });
        expect(created.attributes["version-pin"]).toBe("1.10.0");
    });

    test("keeps a given pin, enabled and the variable-options sets in request order; options read back as strings", async () => {
        const registryModuleId = freshRegistryModule();
        const created = await createNoCodeModule(started.server, {
            registryModuleId,
            versionPin: "1.0.0",
            enabled: true,
            variableOptions: [
                { variableName: "size", variableType: "number", options: [1, 2, 3] },
                { variableName: "region", variableType: "string", options: ["eu-west-1", "us-east-1"] },
            ],
        });
        expectModuleResource(created, registryModuleId);
        expect(created.attributes).toEqual({ enabled: true, "version-pin": "1.0.0" });
        expect(created.relationships["variable-options"].data).toHaveLength(2);
        for (const item of created.relationships["variable-options"].data) {
            expect(item.type).toBe("variable-options");
            expect(item.id).toMatch(/^ncvaropt-/);
        }
        const { data, sets } = await readNoCodeModule(started.server, created.id);
        expect(data.attributes).toEqual({ enabled: true, "version-pin": "1.0.0" });
        expect(sets.map((set) => set.id)).toEqual(created.relationships["variable-options"].data.map((item: any) => item.id));
        expect(setContents(sets)).toEqual([
            { name: "size", type: "number", options: ["1", "2", "3"] },
            { name: "region", type: "string", options: ["eu-west-1", "us-east-1"] },
        ]);
    });

    describe("the registry module", () => {
        test.each([
            ["of another organization (initech)", REGISTRY_MODULES.initechBucket],
            ["that does not exist", "mod-doesnotexist0000"],
        ])("%s: 404, nothing written", async (_label, registryModuleId) => {
            const before = await noCodeSnapshot(started.server);
            expectErrors(await owners.post(noCodePaths.modules("acme"), noCodeModuleDocument({ registryModuleId })), 404);
            await expectNoCodeUnchanged(started.server, before);
        });

        test("that is not no-code ready: 422 at the registry module's id, nothing written", async () => {
            const before = await noCodeSnapshot(started.server);
            const response = await owners.post(noCodePaths.modules("acme"), noCodeModuleDocument({ registryModuleId: REGISTRY_MODULES.notReady }));
            expectValidation(response, REGISTRY_POINTER);
            await expectNoCodeUnchanged(started.server, before);
        });

        test("that already has a no-code module: 422 at the registry module's id, nothing written", async () => {
            const registryModuleId = freshRegistryModule();
            const first = await createNoCodeModule(started.server, { registryModuleId });
            const known = { modules: [first.id], registryModules: [registryModuleId] };
            const before = await noCodeSnapshot(started.server, known);
            const response = await owners.post(noCodePaths.modules("acme"), noCodeModuleDocument({ registryModuleId, enabled: true }));
            expectValidation(response, REGISTRY_POINTER);
            await expectNoCodeUnchanged(started.server, before, known);
            expect(await noCodeModulesOf(registryModuleId)).toEqual([first.id]);
        });
    });

    test.each([
        ["a version the module does not have", "9.9.9"],
        ["a pin that is not a version", "latest"],
        ["an empty pin", ""],
    ])("version-pin %s: 422 at /data/attributes/version-pin, nothing written", async (_label, versionPin) => {
        const registryModuleId = freshRegistryModule();
        const known = { registryModules: [registryModuleId] };
        const before = await noCodeSnapshot(started.server, known);
        const response = await owners.post(noCodePaths.modules("acme"), noCodeModuleDocument({ registryModuleId, versionPin }));
        expectValidation(response, "/data/attributes/version-pin");
        await expectNoCodeUnchanged(started.server, before, known);
    });

    describe("variable-options sets", () => {
        test.each([
            [
                "naming a variable the module does not declare",
                [{ variableName: "region", variableType: "string", options: ["a"] }, { variableName: "colour", variableType: "string", options: ["red"] }],
                `${OPTIONS}/1/attributes/variable-name`,
                undefined,
            ],
            [
                "naming a variable of another version than the pinned one (tags is new in 1.1.0)",
                [{ variableName: "tags", variableType: "map(string)", options: ["{}"] }],
                `${OPTIONS}/0/attributes/variable-name`,
                "1.0.0",
            ],
            [
                "with a type other than the declared one (size is a number)",
                [{ variableName: "size", variableType: "string", options: ["1"] }],
                `${OPTIONS}/0/attributes/variable-type`,
                undefined,
            ],
            [
                "with two sets for one variable",
                [{ variableName: "region", variableType: "string", options: ["a"] }, { variableName: "region", variableType: "string", options: ["b"] }],
                `${OPTIONS}/1/attributes/variable-name`,
                undefined,
            ],
            [
                "with an option that is an object",
                [{ variableName: "region", variableType: "string", options: [{ a: 1 }] }],
                `${OPTIONS}/0/attributes/options`,
                undefined,
            ],
        ])("%s: 422 at (or under) the set's pointer, nothing written", async (_label, variableOptions, pointer, versionPin) => {
            const registryModuleId = freshRegistryModule();
            const known = { registryModules: [registryModuleId] };
            const before = await noCodeSnapshot(started.server, known);
            const response = await owners.post(
                noCodePaths.modules("acme"),
                noCodeModuleDocument({ registryModuleId, versionPin, enabled: true, variableOptions }),
            );
            expectValidationUnder(response, pointer);
            await expectNoCodeUnchanged(started.server, before, known);
        });
    });

    test.each([
        ["a data type other than no-code-modules", () => ({ data: { type: "modules", relationships: {} } }), "/data/type"],
        ["no registry-module relationship", () => ({ data: { type: "no-code-modules", attributes: { enabled: true } } }), "/data/relationships"],
        ["enabled as a string", (id: string) => noCodeModuleDocument({ registryModuleId: id, attributes: { enabled: "yes" } }), "/data/attributes/enabled"],
        ["a registry module relationship of another type", (id: string) => noCodeModuleDocument({ registryModuleId: id, registryModuleType: "workspaces" }), "/data/relationships/registry-module/data/type"],
    ])("a body with %s: 422 at (or under) its pointer, nothing written", async (_label, body, pointer) => {
        const registryModuleId = freshRegistryModule();
        const known = { registryModules: [registryModuleId] };
        const before = await noCodeSnapshot(started.server, known);
        expectValidationUnder(await owners.post(noCodePaths.modules("acme"), body(registryModuleId)), pointer);
        await expectNoCodeUnchanged(started.server, before, known);
    });

    test("a body that is not JSON: 400, nothing written", async () => {
        const before = await noCodeSnapshot(started.server);
        expectErrors(await owners.raw("POST", noCodePaths.modules("acme"), "{not json"), 400);
        await expectNoCodeUnchanged(started.server, before);
    });
});

describe("GET /no-code-modules/:id", () => {
    test("without include: no included list; with include=variable_options: the sets, each tied to its module", async () => {
        const created = await createNoCodeModule(started.server, {
            registryModuleId: freshRegistryModule(),
            variableOptions: [{ variableName: "region", variableType: "string", options: ["eu-west-1"] }],
        });
        const plain = await owners.get(noCodePaths.module(created.id));
        expectStatus(plain, 200);
        expect(plain.body.included).toBeUndefined();

        const included = await owners.get(`${noCodePaths.module(created.id)}?include=variable_options`);
        expectStatus(included, 200);
        expect(included.body.data).toEqual(plain.body.data);
        const setId = created.relationships["variable-options"].data[0].id;
        expect(included.body.included).toEqual([
            {
                id: setId,
                type: "variable-options",
                attributes: { "variable-name": "region", "variable-type": "string", options: ["eu-west-1"] },
                relationships: { "no-code-allowed-module": { data: { id: created.id, type: "no-code-allowed-modules" } } },
            },
        ]);
    });

    test("include=variable-options (what go-tfe sends) is the same as variable_options", async () => {
        const created = await createNoCodeModule(started.server, {
            registryModuleId: freshRegistryModule(),
            variableOptions: [{ variableName: "size", variableType: "number", options: ["1", "2"] }],
        });
        const underscore = await owners.get(`${noCodePaths.module(created.id)}?include=variable_options`);
        const dash = await owners.get(`${noCodePaths.module(created.id)}?include=variable-options`);
        expectStatus(dash, 200);
        expect(dash.body).toEqual(underscore.body);
    });

    test.each([["workspaces"], ["variable_options,organization"], ["options"]])(
        "include=%s: 400 with source.parameter include",
        async (include) => {
            const created = await createNoCodeModule(started.server, { registryModuleId: freshRegistryModule() });
            const errors = expectErrors(await owners.get(`${noCodePaths.module(created.id)}?include=${include}`), 400);
            expect(errors[0].source).toEqual({ parameter: "include" });
        },
    );

    test("404 for a module that does not exist and for one of another organization", async () => {
        expectErrors(await owners.get(noCodePaths.module("nocode-doesnotexist00")), 404);
        const initech = await createNoCodeModule(started.server, { registryModuleId: started.registryModule("bucket", "initech") }, "initech");
        expectStatus(await clientFor(started.server, TOKENS.initechOwners).get(noCodePaths.module(initech.id)), 200);
        expectErrors(await owners.get(noCodePaths.module(initech.id)), 404);
    });
});

describe("PATCH /no-code-modules/:id", () => {
    test("enables and disables: 200, reads back; enabled alone makes no new version", async () => {
        const { id, workspaceId } = await moduleWithWorkspace();
        const version = await noCodeVersionOf(started.server, workspaceId);
        const disabled = await updateNoCodeModule(started.server, id, { enabled: false });
        expect(disabled.attributes).toEqual({ enabled: false, "version-pin": "1.1.0" });
        expect((await readNoCodeModule(started.server, id)).data.attributes.enabled).toBe(false);
        await updateNoCodeModule(started.server, id, { enabled: true });
        expect((await readNoCodeModule(started.server, id)).data.attributes.enabled).toBe(true);
        expect(await upgradeAvailable(started.server, workspaceId)).toBe(false);
        expect(await noCodeVersionOf(started.server, workspaceId)).toBe(version);
    });

    test("a PATCH that changes nothing (the same pin and no other field) makes no new version", async () => {
        const { id, workspaceId } = await moduleWithWorkspace();
        await updateNoCodeModule(started.server, id, { versionPin: "1.1.0" });
        await updateNoCodeModule(started.server, id, {});
        expect(await upgradeAvailable(started.server, workspaceId)).toBe(false);
    });

    test("a pin change: 200, reads back, and makes a new version: the existing workspace reports an upgrade, a new one is on the new version", async () => {
        const { id, workspaceId } = await moduleWithWorkspace({ versionPin: "1.0.0" });
        const oldVersion = await noCodeVersionOf(started.server, workspaceId);
        const updated = await updateNoCodeModule(started.server, id, { versionPin: "1.1.0" });
        expect(updated.attributes["version-pin"]).toBe("1.1.0");
        expect((await readNoCodeModule(started.server, id)).data.attributes["version-pin"]).toBe("1.1.0");
        expect(await upgradeAvailable(started.server, workspaceId)).toBe(true);
        // The workspace stays on its version until an upgrade is confirmed.
        expect(await noCodeVersionOf(started.server, workspaceId)).toBe(oldVersion);
        const fresh = await createNoCodeWorkspace(started.server, id, { projectId: started.ids.Apps });
        const newVersion = fresh.relationships["no-code-module-version"].data.id;
        expect(newVersion).toMatch(/^nocodever-/);
        expect(newVersion).not.toBe(oldVersion);
        expect(fresh.attributes["no-code-upgrade-available"]).toBe(false);
    });

    test("a change of the options' content makes a new version", async () => {
        const { id, workspaceId } = await moduleWithWorkspace({
            variableOptions: [{ variableName: "region", variableType: "string", options: ["eu-west-1", "us-east-1"] }],
        });
        const { sets } = await readNoCodeModule(started.server, id);
        await updateNoCodeModule(started.server, id, {
            variableOptions: [{ id: sets[0].id, variableName: "region", variableType: "string", options: ["eu-west-1", "us-east-1", "ap-south-1"] }],
        });
        expect(await upgradeAvailable(started.server, workspaceId)).toBe(true);
    });

    test("two sets may swap their variables in one request (judged on the result)", async () => {
        const created = await createNoCodeModule(started.server, {
            registryModuleId: freshRegistryModule(),
            variableOptions: [
                { variableName: "region", variableType: "string", options: ["a"] },
                { variableName: "size", variableType: "number", options: ["1"] },
            ],
        });
        const [first, second] = created.relationships["variable-options"].data.map((item: any) => item.id);
        await updateNoCodeModule(started.server, created.id, {
            variableOptions: [
                { id: first, variableName: "size", variableType: "number", options: ["2"] },
                { id: second, variableName: "region", variableType: "string", options: ["b"] },
            ],
        });
        const { sets } = await readNoCodeModule(started.server, created.id);
        expect(sets.map((set) => set.id)).toEqual([first, second]);
        expect(setContents(sets)).toEqual([
            { name: "size", type: "number", options: ["2"] },
            { name: "region", type: "string", options: ["b"] },
        ]);
    });

    test("the options list is the whole desired set: an item with id replaces that set (keeping the id), one without adds, one left out is removed", async () => {
        const created = await createNoCodeModule(started.server, {
            registryModuleId: freshRegistryModule(),
            variableOptions: [
                { variableName: "region", variableType: "string", options: ["a", "b"] },
                { variableName: "size", variableType: "number", options: ["1"] },
            ],
        });
        const [regionSet, sizeSet] = created.relationships["variable-options"].data.map((item: any) => item.id);
        const updated = await updateNoCodeModule(started.server, created.id, {
            variableOptions: [
                { variableName: "tags", variableType: "map(string)", options: ["{}"] },
                { id: regionSet, variableName: "region", variableType: "string", options: ["c"] },
            ],
        });
        const ids = updated.relationships["variable-options"].data.map((item: any) => item.id);
        expect(ids).toHaveLength(2);
        expect(ids[1]).toBe(regionSet);
        expect(ids).not.toContain(sizeSet);
        expect(ids[0]).toMatch(/^ncvaropt-/);

        const { sets } = await readNoCodeModule(started.server, created.id);
        expect(sets.map((set) => set.id)).toEqual(ids);
        expect(setContents(sets)).toEqual([
            { name: "tags", type: "map(string)", options: ["{}"] },
            { name: "region", type: "string", options: ["c"] },
        ]);
    });

    test("leaving the variable-options relationship out changes no set", async () => {
        const created = await createNoCodeModule(started.server, {
            registryModuleId: freshRegistryModule(),
            variableOptions: [{ variableName: "region", variableType: "string", options: ["a", "b"] }],
        });
        const before = await readNoCodeModule(started.server, created.id);
        await updateNoCodeModule(started.server, created.id, { enabled: true });
        const after = await readNoCodeModule(started.server, created.id);
        expect(after.sets).toEqual(before.sets);
        expect(after.data.relationships).toEqual(before.data.relationships);
    });

    test("an empty options list removes every set", async () => {
        const created = await createNoCodeModule(started.server, {
            registryModuleId: freshRegistryModule(),
            variableOptions: [{ variableName: "region", variableType: "string", options: ["a"] }],
        });
        const updated = await updateNoCodeModule(started.server, created.id, { variableOptions: [] });
        expect(updated.relationships["variable-options"].data).toEqual([]);
        expect((await readNoCodeModule(started.server, created.id)).sets).toEqual([]);
    });

    test("'one set per variable' is judged on the resulting sets: set A moved to B's variable while B's set is removed is valid", async () => {
        const created = await createNoCodeModule(started.server, {
            registryModuleId: freshRegistryModule(),
            variableOptions: [
                { variableName: "region", variableType: "string", options: ["a"] },
                { variableName: "size", variableType: "number", options: ["1"] },
            ],
        });
        const [setA] = created.relationships["variable-options"].data.map((item: any) => item.id);
        const updated = await updateNoCodeModule(started.server, created.id, {
            variableOptions: [{ id: setA, variableName: "size", variableType: "number", options: ["2", "4"] }],
        });
        expect(updated.relationships["variable-options"].data.map((item: any) => item.id)).toEqual([setA]);
        expect(setContents((await readNoCodeModule(started.server, created.id)).sets)).toEqual([
            { name: "size", type: "number", options: ["2", "4"] },
        ]);
    });

    describe("refusals: 422 at the pointer, nothing written", () => {
        /** A module with two sets (region, size) on a fresh registry module, and a snapshot around the PATCH. */
        async function refused(
            body: (sets: { region: string; size: string }, module: { id: string }) => unknown,
            pointers: string[],
            versionPin?: string,
        ): Promise<void> {
            const registryModuleId = freshRegistryModule();
            const created = await createNoCodeModule(started.server, {
                registryModuleId,
                versionPin,
                variableOptions: [
                    { variableName: "region", variableType: "string", options: ["a"] },
                    { variableName: "size", variableType: "number", options: ["1"] },
                ],
            });
            const [region, size] = created.relationships["variable-options"].data.map((item: any) => item.id);
            const known = { modules: [created.id], registryModules: [registryModuleId] };
            const before = await noCodeSnapshot(started.server, known);
            const response = await owners.patch(noCodePaths.module(created.id), body({ region, size }, created));
            expectValidation(response, ...pointers);
            await expectNoCodeUnchanged(started.server, before, known);
        }

        test("two resulting sets for one variable (both listed with ids)", async () => {
            await refused(
                ({ region, size }) =>
                    noCodeModuleDocument({
                        variableOptions: [
                            { id: region, variableName: "size", variableType: "number", options: ["3"] },
                            { id: size, variableName: "size", variableType: "number", options: ["4"] },
                        ],
                    }),
                [`${OPTIONS}/1/attributes/variable-name`],
            );
        });

        test("a new set for a variable that keeps its set", async () => {
            await refused(
                ({ region, size }) =>
                    noCodeModuleDocument({
                        variableOptions: [
                            { id: region, variableName: "region", variableType: "string", options: ["a"] },
                            { id: size, variableName: "size", variableType: "number", options: ["1"] },
                            { variableName: "region", variableType: "string", options: ["b"] },
                        ],
                    }),
                [`${OPTIONS}/2/attributes/variable-name`],
            );
        });

        test("one set id listed twice", async () => {
            await refused(
                ({ region }) =>
                    noCodeModuleDocument({
                        variableOptions: [
                            { id: region, variableName: "region", variableType: "string", options: ["a"] },
                            { id: region, variableName: "size", variableType: "number", options: ["1"] },
                        ],
                    }),
                [],
            );
        });

        test("an id that is no set of this module", async () => {
            await refused(
                () =>
                    noCodeModuleDocument({
                        variableOptions: [{ id: "ncvaropt-doesnotexist0", variableName: "region", variableType: "string", options: ["a"] }],
                    }),
                [`${OPTIONS}/0/id`],
            );
        });

        test("an id of a set of another module", async () => {
            const other = await createNoCodeModule(started.server, {
                registryModuleId: freshRegistryModule(),
                variableOptions: [{ variableName: "region", variableType: "string", options: ["z"] }],
            });
            const otherSet = other.relationships["variable-options"].data[0].id;
            await refused(
                () =>
                    noCodeModuleDocument({
                        variableOptions: [{ id: otherSet, variableName: "region", variableType: "string", options: ["a"] }],
                    }),
                [`${OPTIONS}/0/id`],
            );
            expect(setContents((await readNoCodeModule(started.server, other.id)).sets)).toEqual([
                { name: "region", type: "string", options: ["z"] },
            ]);
        });

        test("a set naming an unknown variable, and one with the wrong type", async () => {
            await refused(
                () =>
                    noCodeModuleDocument({
                        variableOptions: [
                            { variableName: "colour", variableType: "string", options: ["red"] },
                            { variableName: "region", variableType: "number", options: ["1"] },
                        ],
                    }),
                [`${OPTIONS}/0/attributes/variable-name`, `${OPTIONS}/1/attributes/variable-type`],
            );
        });

        test("a pin to a version the module does not have", async () => {
            await refused(() => noCodeModuleDocument({ versionPin: "3.0.0" }), ["/data/attributes/version-pin"]);
        });

        test("a pin whose version does not declare a variable a kept set names (tags only exists in 1.1.0)", async () => {
            const registryModuleId = freshRegistryModule();
            const created = await createNoCodeModule(started.server, {
                registryModuleId,
                variableOptions: [{ variableName: "tags", variableType: "map(string)", options: ["{}"] }],
            });
            const known = { modules: [created.id], registryModules: [registryModuleId] };
            const before = await noCodeSnapshot(started.server, known);
            expectValidation(await owners.patch(noCodePaths.module(created.id), noCodeModuleDocument({ versionPin: "1.0.0" })));
            await expectNoCodeUnchanged(started.server, before, known);
        });

        test("a wrong data type", async () => {
            await refused(() => ({ data: { type: "workspaces", attributes: { enabled: true } } }), ["/data/type"]);
        });
    });

    test("404 for a module that does not exist", async () => {
        expectErrors(await owners.patch(noCodePaths.module("nocode-doesnotexist00"), noCodeModuleDocument({ enabled: true })), 404);
    });

    describe("change of registry module", () => {
        test("to another ready module without a pin: the pin becomes the new module's highest version; both registry modules report it", async () => {
            const from = freshRegistryModule();
            const to = freshRegistryModule("network");
            const created = await createNoCodeModule(started.server, { registryModuleId: from, versionPin: "1.0.0" });
            const updated = await updateNoCodeModule(started.server, created.id, {
                registryModuleId: to,
                variableOptions: [{ variableName: "cidr", variableType: "string", options: ["10.0.0.0/16"] }],
            });
            expect(updated.attributes["version-pin"]).toBe("2.0.0");
            expect(updated.relationships["registry-module"].data).toEqual({ id: to, type: "registry-modules" });
            const { data, sets } = await readNoCodeModule(started.server, created.id);
            expect(data.relationships["registry-module"].data.id).toBe(to);
            expect(setContents(sets)).toEqual([{ name: "cidr", type: "string", options: ["10.0.0.0/16"] }]);
            expect(await noCodeModulesOf(to)).toEqual([created.id]);
            expect(await noCodeModulesOf(from)).toEqual([]);
            // The old registry module is free again.
            await createNoCodeModule(started.server, { registryModuleId: from });
        });

        test("to another module with a pin given: that pin", async () => {
            const created = await createNoCodeModule(started.server, { registryModuleId: freshRegistryModule() });
            const to = freshRegistryModule();
            const updated = await updateNoCodeModule(started.server, created.id, { registryModuleId: to, versionPin: "1.0.0" });
            expect(updated.attributes["version-pin"]).toBe("1.0.0");
            expect(updated.relationships["registry-module"].data.id).toBe(to);
        });

        test("makes a new version", async () => {
            const { id, workspaceId } = await moduleWithWorkspace();
            await updateNoCodeModule(started.server, id, { registryModuleId: freshRegistryModule() });
            expect(await upgradeAvailable(started.server, workspaceId)).toBe(true);
        });

        test("with sets that do not fit the new module's variables: 422, nothing written", async () => {
            const registryModuleId = freshRegistryModule();
            const target = freshRegistryModule("network");
            const created = await createNoCodeModule(started.server, {
                registryModuleId,
                variableOptions: [{ variableName: "region", variableType: "string", options: ["a"] }],
            });
            const known = { modules: [created.id], registryModules: [registryModuleId, target] };
            const before = await noCodeSnapshot(started.server, known);
            expectValidation(await owners.patch(noCodePaths.module(created.id), noCodeModuleDocument({ registryModuleId: target })));
            await expectNoCodeUnchanged(started.server, before, known);
        });

        test.each([
            ["not no-code ready", "notReady", 422],
            ["already used by another no-code module", "taken", 422],
            ["of another organization", "initech", 404],
        ])("to a module %s: refused, nothing written", async (_label, target, status) => {
            const registryModuleId = freshRegistryModule();
            const created = await createNoCodeModule(started.server, { registryModuleId });
            let targetId: string = target === "notReady" ? REGISTRY_MODULES.notReady : REGISTRY_MODULES.initechBucket;
            if (target === "taken") {
                targetId = freshRegistryModule();
                await createNoCodeModule(started.server, { registryModuleId: targetId });
            }
            const known = { modules: [created.id], registryModules: [registryModuleId, targetId] };
            const before = await noCodeSnapshot(started.server, known);
            const response = await owners.patch(noCodePaths.module(created.id), noCodeModuleDocument({ registryModuleId: targetId }));
            if (status === 422) expectValidation(response, REGISTRY_POINTER);
            else expectErrors(response, 404);
            await expectNoCodeUnchanged(started.server, before, known);
        });
    });
});

describe("DELETE /no-code-modules/:id", () => {
    test("204; then reads, updates and deletes answer 404, and the registry module is free for a new one", async () => {
        const registryModuleId = freshRegistryModule();
        const created = await createNoCodeModule(started.server, { registryModuleId });
        const response = await owners.delete(noCodePaths.module(created.id));
        expectStatus(response, 204);
        expect(response.text).toBe("");
        expectErrors(await owners.get(noCodePaths.module(created.id)), 404);
        expectErrors(await owners.patch(noCodePaths.module(created.id), noCodeModuleDocument({ enabled: true })), 404);
        expectErrors(await owners.delete(noCodePaths.module(created.id)), 404);
        expect(await noCodeModulesOf(registryModuleId)).toEqual([]);
        const again = await createNoCodeModule(started.server, { registryModuleId });
        expect(again.id).not.toBe(created.id);
    });

    test("workspaces made from it stay, and no longer report an upgrade", async () => {
        const { id, workspaceId } = await moduleWithWorkspace({ versionPin: "1.0.0" });
        await updateNoCodeModule(started.server, id, { versionPin: "1.1.0" });
        expect(await upgradeAvailable(started.server, workspaceId)).toBe(true);
        expectStatus(await owners.delete(noCodePaths.module(id)), 204);
        const workspace = await owners.get(`/workspaces/${workspaceId}`);
        expectStatus(workspace, 200);
        expect(workspace.body.data.attributes["no-code-upgrade-available"]).toBe(false);
        expect(workspace.body.data.attributes.source).toBe("tfe-module");
    });

    test("404 for a module that does not exist", async () => {
        expectErrors(await owners.delete(noCodePaths.module("nocode-doesnotexist00")), 404);
    });
});

describe("GET /registry-modules/:id", () => {
    test("a ready module with its no-code module: name, provider, namespace, no-code, version statuses, organization", async () => {
        const registryModuleId = freshRegistryModule();
        const created = await createNoCodeModule(started.server, { registryModuleId });
        const response = await owners.get(noCodePaths.registryModule(registryModuleId));
        expectStatus(response, 200);
        const data = response.body.data;
        expect(data.id).toBe(registryModuleId);
        expect(data.type).toBe("registry-modules");
        expect(data.attributes).toEqual(
            expect.objectContaining({
                name: expect.any(String),
                provider: "aws",
                namespace: "acme",
                "no-code": true,
            }),
        );
        expect(data.attributes["version-statuses"]).toEqual(
            expect.arrayContaining([
                { version: "1.0.0", status: "ok" },
                { version: "1.1.0", status: "ok" },
            ]),
        );
        expect(data.attributes["version-statuses"]).toHaveLength(2);
        expect(data.relationships.organization.data).toEqual({ id: "acme", type: "organizations" });
        expect(data.relationships["no-code-modules"].data).toEqual([{ id: created.id, type: "no-code-modules" }]);
    });

    test("a module that is not ready reports no-code false and no no-code modules", async () => {
        const response = await owners.get(noCodePaths.registryModule(REGISTRY_MODULES.notReady));
        expectStatus(response, 200);
        expect(response.body.data.attributes["no-code"]).toBe(false);
        expect(response.body.data.relationships["no-code-modules"].data).toEqual([]);
    });

    test("any token of the organization reads it; another organization's module and an unknown id are 404", async () => {
        for (const token of [TOKENS.acmeOrganization, TOKENS.noAccess, TOKENS.appsRead, TOKENS.modules]) {
            expectStatus(await clientFor(started.server, token).get(noCodePaths.registryModule(REGISTRY_MODULES.bucket)), 200);
        }
        expectErrors(await owners.get(noCodePaths.registryModule(REGISTRY_MODULES.initechBucket)), 404);
        expectErrors(await clientFor(started.server, TOKENS.globexOwners).get(noCodePaths.registryModule(REGISTRY_MODULES.bucket)), 404);
        expectErrors(await owners.get(noCodePaths.registryModule("mod-doesnotexist0000")), 404);
    });
});
