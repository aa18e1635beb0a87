/**
 * Details of the no-code module routes (`server/routes/noCodeModules.ts`) that the contract tests of
 * noCodeModules.test.ts leave open: the exact error objects of their refusals (a caller who may not manage
 * modules, a `data.id` other than the URL's, an unknown set id with no attributes, kept sets that no longer
 * fit, a registry module with no published version); that a create or update answers the module alone (no
 * `included` unless a read asks for it), and that `include` values may have spaces around them; that naming
 * the module's own registry module changes nothing; and which changes make a new no-code version: reordering
 * sets (of different names) or their options, or replacing a set by an equal one, does not; a real change does;
 * and the order of a registry module's versions (each part a number), which its read, a refused pin and the
 * default pin show.
 */
import { TOKENS } from "../support/seed";
import {
    clientFor,
    createNoCodeModule,
    createNoCodeWorkspace,
    expectErrors,
    expectNoCodeUnchanged,
    expectStatus,
    noCodeModuleDocument,
    noCodePaths,
    noCodeSnapshot,
    noCodeTestSeed,
    noCodeVersionOf,
    readNoCodeModule,
    setContents,
    updateNoCodeModule,
    upgradeAvailable,
    withNoCodeServer,
    type Client,
    type HttpResponse,
    type NoCodeServer,
} from "./helpers";

/** An acme registry module, no-code ready, with no published version (added to the seed by this file). */
const UNPUBLISHED_MODULE = "mod-unpublished00001";

/**
 * An acme registry module, no-code ready (added to the seed by this file), whose versions differ in each part
 * where the order of the numbers is not the order of the text (9 and 10 in the patch, the minor and the
 * major), listed out of order.
 */
const ORDERED_VERSIONS_MODULE = "mod-versionorder0001";
const ORDERED_VERSIONS_SEEDED = ["1.9.10", "10.0.0", "1.10.0", "1.9.0", "2.0.0", "1.9.9"];

let started: NoCodeServer;
let owners: Client;

withNoCodeServer(
    (value) => {
        started = value;
        owners = value.owners;
    },
    {
        seed: (() => {
            const seed = noCodeTestSeed();
            const acme = seed.organizations.find((organization) => organization.name === "acme")!;
            acme.registryModules!.push({ id: UNPUBLISHED_MODULE, name: "unpublished", provider: "aws", noCodeReady: true, versions: [] });
            acme.registryModules!.push({
                id: ORDERED_VERSIONS_MODULE,
                name: "ordered",
                provider: "aws",
                noCodeReady: true,
                versions: ORDERED_VERSIONS_SEEDED.map((version) => ({ version, variables: [] })),
            });
            return seed;
        })(),
    },
);

const OPTIONS = "/data/relationships/variable-options/data";
const PIN_POINTER = "/data/attributes/version-pin";
const MODULE_POINTER = "/data/relationships/registry-module/data/id";

/** The one error object of a refusal (the answer must hold exactly one). */
function onlyError(response: HttpResponse, status: number): any {
    const errors = expectErrors(response, status);
    expect(errors).toHaveLength(1);
    return errors[0];
}

/** The `nocode-` ids a registry module reports. */
async function noCodeModulesOf(registryModuleId: string): Promise<string[]> {
    const response = await owners.get(noCodePaths.registryModule(registryModuleId));
    expectStatus(response, 200);
    return response.body.data.relationships["no-code-modules"].data.map((item: any) => item.id);
}

describe("refusals: the exact error object, nothing written", () => {
    test("POST by a team that may not manage modules (project admin): 404 naming what it may not do", async () => {
        const registryModuleId = started.registryModule();
        const known = { registryModules: [registryModuleId] };
        const before = await noCodeSnapshot(started.server, known);
        const response = await clientFor(started.server, TOKENS.appsAdmin).post(
            noCodePaths.modules("acme"),
            noCodeModuleDocument({ registryModuleId, enabled: true }),
        );
        expect(onlyError(response, 404)).toEqual({
            status: "404",
            title: "not found",
            detail: "Organization not found or you are not authorized to manage its no-code modules",
        });
        await expectNoCodeUnchanged(started.server, before, known);
        expect(await noCodeModulesOf(registryModuleId)).toEqual([]);
    });

    test("PATCH whose data.id is not the URL's: 422 at /data/id naming the no-code module's id", async () => {
        const registryModuleId = started.registryModule();
        const created = await createNoCodeModule(started.server, { registryModuleId, versionPin: "1.0.0" });
        const known = { modules: [created.id], registryModules: [registryModuleId] };
        const before = await noCodeSnapshot(started.server, known);
        const body = { data: { type: "no-code-modules", id: "nocode-someother00000", attributes: { enabled: true, "version-pin": "1.1.0" } } };
        expect(onlyError(await owners.patch(noCodePaths.module(created.id), body), 422)).toEqual({
            status: "422",
            title: "invalid attribute",
            detail: `Id must be the id of the no-code module in the URL (${created.id})`,
            source: { pointer: "/data/id" },
        });
        await expectNoCodeUnchanged(started.server, before, known);
    });

    test("PATCH listing an id of no set of this module with no attributes: 422 at its id (not a server error)", async () => {
        const registryModuleId = started.registryModule();
        const created = await createNoCodeModule(started.server, {
            registryModuleId,
            variableOptions: [{ variableName: "region", variableType: "string", options: ["a"] }],
        });
        const known = { modules: [created.id], registryModules: [registryModuleId] };
        const before = await noCodeSnapshot(started.server, known);
        const body = {
            data: {
                type: "no-code-modules",
                relationships: { "variable-options": { data: [{ type: "variable-options", id: "ncvaropt-doesnotexist0" }] } },
            },
        };
        expect(onlyError(await owners.patch(noCodePaths.module(created.id), body), 422)).toEqual({
            status: "422",
            title: "invalid attribute",
            detail: "Id 'ncvaropt-doesnotexist0' is not a variable-options set of this no-code module; leave id out to add a set",
            source: { pointer: `${OPTIONS}/0/id` },
        });
        await expectNoCodeUnchanged(started.server, before, known);
    });

    test("a registry module that already has a no-code module: 422 at the registry module naming that one (alone, whatever else is wrong), on POST and on PATCH", async () => {
        const taken = started.registryModule();
        const first = await createNoCodeModule(started.server, { registryModuleId: taken });
        const other = await createNoCodeModule(started.server, { registryModuleId: started.registryModule() });
        const registry = await owners.get(noCodePaths.registryModule(taken));
        expectStatus(registry, 200);
        const expected = {
            status: "422",
            title: "invalid attribute",
            detail: `Registry module '${registry.body.data.attributes.name}' (${taken}) already has a no-code module (${first.id})`,
            source: { pointer: MODULE_POINTER },
        };
        const known = { modules: [first.id, other.id], registryModules: [taken] };
        const before = await noCodeSnapshot(started.server, known);
        expect(onlyError(await owners.post(noCodePaths.modules("acme"), noCodeModuleDocument({ registryModuleId: taken })), 422)).toEqual(expected);
        expect(onlyError(await owners.patch(noCodePaths.module(other.id), noCodeModuleDocument({ registryModuleId: taken })), 422)).toEqual(expected);
        // The registry module is judged first: a bad pin or set is not judged (nor answered) against a module refused.
        const alsoBad = { versionPin: "9.9.9", variableOptions: [{ variableName: "colour", variableType: "string", options: ["red"] }] };
        expect(onlyError(await owners.post(noCodePaths.modules("acme"), noCodeModuleDocument({ registryModuleId: taken, ...alsoBad })), 422)).toEqual(expected);
        expect(onlyError(await owners.post(noCodePaths.modules("acme"), noCodeModuleDocument({ registryModuleId: taken, variableOptions: alsoBad.variableOptions })), 422)).toEqual(expected);
        expect(onlyError(await owners.patch(noCodePaths.module(other.id), noCodeModuleDocument({ registryModuleId: taken, ...alsoBad })), 422)).toEqual(expected);
        await expectNoCodeUnchanged(started.server, before, known);
        expect(await noCodeModulesOf(taken)).toEqual([first.id]);
    });

    describe("kept sets (not listed) that the resulting pin or module no longer declares", () => {
        /** A module pinned to 1.1.0 with a `tags` set (`tags` exists only in 1.1.0) and a `region` set. */
        async function moduleWithKeptSets(): Promise<{ id: string; registryModuleId: string }> {
            const registryModuleId = started.registryModule();
            const created = await createNoCodeModule(started.server, {
                registryModuleId,
                versionPin: "1.1.0",
                variableOptions: [
                    { variableName: "region", variableType: "string", options: ["a"] },
                    { variableName: "tags", variableType: "map(string)", options: ["{}"] },
                ],
            });
            return { id: created.id, registryModuleId };
        }

        test("a pin given (1.0.0): the error is at the pin", async () => {
            const { id, registryModuleId } = await moduleWithKeptSets();
            const known = { modules: [id], registryModules: [registryModuleId] };
            const before = await noCodeSnapshot(started.server, known);
            const response = await owners.patch(noCodePaths.module(id), noCodeModuleDocument({ versionPin: "1.0.0" }));
            expect(onlyError(response, 422)).toEqual({
                status: "422",
                title: "invalid attribute",
                detail: "Variable name 'tags' is not a variable of version 1.0.0 (its variables: region, size)",
                source: { pointer: PIN_POINTER },
            });
            await expectNoCodeUnchanged(started.server, before, known);
        });

        test("another registry module without a pin: the error is at the registry module", async () => {
            const { id, registryModuleId } = await moduleWithKeptSets();
            const target = started.registryModule("network");
            const known = { modules: [id], registryModules: [registryModuleId, target] };
            const before = await noCodeSnapshot(started.server, known);
            const response = await owners.patch(noCodePaths.module(id), noCodeModuleDocument({ registryModuleId: target }));
            const detail = (name: string) => `Variable name '${name}' is not a variable of version 2.0.0 (its variables: cidr, zones)`;
            expect(expectErrors(response, 422)).toEqual([
                { status: "422", title: "invalid attribute", detail: detail("region"), source: { pointer: MODULE_POINTER } },
                { status: "422", title: "invalid attribute", detail: detail("tags"), source: { pointer: MODULE_POINTER } },
            ]);
            await expectNoCodeUnchanged(started.server, before, known);
            expect(await noCodeModulesOf(target)).toEqual([]);
            expect(await noCodeModulesOf(registryModuleId)).toEqual([id]);
        });

        test("another registry module with a pin given: the error is at the pin", async () => {
            const { id, registryModuleId } = await moduleWithKeptSets();
            const target = started.registryModule();
            const known = { modules: [id], registryModules: [registryModuleId, target] };
            const before = await noCodeSnapshot(started.server, known);
            const response = await owners.patch(noCodePaths.module(id), noCodeModuleDocument({ registryModuleId: target, versionPin: "1.0.0" }));
            expect(onlyError(response, 422)).toEqual({
                status: "422",
                title: "invalid attribute",
                detail: "Variable name 'tags' is not a variable of version 1.0.0 (its variables: region, size)",
                source: { pointer: PIN_POINTER },
            });
            await expectNoCodeUnchanged(started.server, before, known);
        });

        test("listed sets keep their own pointers, also with a pin given", async () => {
            const { id, registryModuleId } = await moduleWithKeptSets();
            const known = { modules: [id], registryModules: [registryModuleId] };
            const before = await noCodeSnapshot(started.server, known);
            const response = await owners.patch(
                noCodePaths.module(id),
                noCodeModuleDocument({ versionPin: "1.0.0", variableOptions: [{ variableName: "tags", variableType: "map(string)", options: ["{}"] }] }),
            );
            expect(onlyError(response, 422)).toEqual({
                status: "422",
                title: "invalid attribute",
                detail: "Variable name 'tags' is not a variable of version 1.0.0 (its variables: region, size)",
                source: { pointer: `${OPTIONS}/0/attributes/variable-name` },
            });
            await expectNoCodeUnchanged(started.server, before, known);
        });
    });

    describe("a registry module with no published version", () => {
        const noVersion = {
            status: "422",
            title: "invalid attribute",
            detail: "Registry module 'unpublished' has no published version to pin",
            source: { pointer: PIN_POINTER },
        };

        test("POST without a pin: 422 at the pin, no no-code module made", async () => {
            const known = { registryModules: [UNPUBLISHED_MODULE] };
            const before = await noCodeSnapshot(started.server, known);
            const response = await owners.post(noCodePaths.modules("acme"), noCodeModuleDocument({ registryModuleId: UNPUBLISHED_MODULE, enabled: true }));
            expect(onlyError(response, 422)).toEqual(noVersion);
            await expectNoCodeUnchanged(started.server, before, known);
            expect(await noCodeModulesOf(UNPUBLISHED_MODULE)).toEqual([]);
        });

        test("POST with a pin: 422 at the pin, listing no versions", async () => {
            const known = { registryModules: [UNPUBLISHED_MODULE] };
            const before = await noCodeSnapshot(started.server, known);
            const response = await owners.post(
                noCodePaths.modules("acme"),
                noCodeModuleDocument({ registryModuleId: UNPUBLISHED_MODULE, versionPin: "1.0.0" }),
            );
            expect(onlyError(response, 422)).toEqual({
                ...noVersion,
                detail: "Version pin '1.0.0' is not a version of registry module 'unpublished' (versions: none)",
            });
            await expectNoCodeUnchanged(started.server, before, known);
        });

        test("PATCH to it without a pin: 422 at the pin, the module unchanged", async () => {
            const registryModuleId = started.registryModule();
            const created = await createNoCodeModule(started.server, { registryModuleId });
            const known = { modules: [created.id], registryModules: [registryModuleId, UNPUBLISHED_MODULE] };
            const before = await noCodeSnapshot(started.server, known);
            const response = await owners.patch(noCodePaths.module(created.id), noCodeModuleDocument({ registryModuleId: UNPUBLISHED_MODULE }));
            expect(onlyError(response, 422)).toEqual(noVersion);
            await expectNoCodeUnchanged(started.server, before, known);
            expect(await noCodeModulesOf(UNPUBLISHED_MODULE)).toEqual([]);
        });
    });
});

describe("a registry module's versions, lowest first, each part compared as a number", () => {
    // MAJOR, then MINOR, then PATCH: 1.9.9 < 1.9.10 < 1.10.0 < 2.0.0 < 10.0.0, where the text would sort 10 before 9 and 2.
    const LOWEST_FIRST = ["1.9.0", "1.9.9", "1.9.10", "1.10.0", "2.0.0", "10.0.0"];

    test("GET /registry-modules/:id lists its version statuses in that order", async () => {
        const response = await owners.get(noCodePaths.registryModule(ORDERED_VERSIONS_MODULE));
        expectStatus(response, 200);
        expect(response.body.data.attributes["version-statuses"]).toEqual(LOWEST_FIRST.map((version) => ({ version, status: "ok" })));
    });

    test("a pin that is not a version is refused listing the versions in that order; nothing made", async () => {
        const known = { registryModules: [ORDERED_VERSIONS_MODULE] };
        const before = await noCodeSnapshot(started.server, known);
        const response = await owners.post(noCodePaths.modules("acme"), noCodeModuleDocument({ registryModuleId: ORDERED_VERSIONS_MODULE, versionPin: "1.9.1" }));
        expect(onlyError(response, 422)).toEqual({
            status: "422",
            title: "invalid attribute",
            detail: "Version pin '1.9.1' is not a version of registry module 'ordered' (versions: 1.9.0, 1.9.9, 1.9.10, 1.10.0, 2.0.0, 10.0.0)",
            source: { pointer: PIN_POINTER },
        });
        await expectNoCodeUnchanged(started.server, before, known);
    });

    test("a module made without a pin pins the highest, 10.0.0", async () => {
        const created = await createNoCodeModule(started.server, { registryModuleId: ORDERED_VERSIONS_MODULE });
        expect(created.attributes["version-pin"]).toBe("10.0.0");
        expect((await readNoCodeModule(started.server, created.id)).data.attributes["version-pin"]).toBe("10.0.0");
    });
});

describe("answers", () => {
    test("a create and an update answer the module alone, without included; a read includes the sets only when asked", async () => {
        const registryModuleId = started.registryModule();
        const create = await owners.post(
            noCodePaths.modules("acme"),
            noCodeModuleDocument({
                registryModuleId,
                variableOptions: [{ variableName: "region", variableType: "string", options: ["a", "b"] }],
            }),
        );
        expectStatus(create, 200);
        expect(Object.keys(create.body)).toEqual(["data"]);
        const id = create.body.data.id;
        const plain = await owners.get(noCodePaths.module(id));
        expectStatus(plain, 200);
        expect(plain.body).toEqual({ data: create.body.data });

        const update = await owners.patch(
            noCodePaths.module(id),
            noCodeModuleDocument({ enabled: true, variableOptions: [{ variableName: "size", variableType: "number", options: [1] }] }),
        );
        expectStatus(update, 200);
        expect(Object.keys(update.body)).toEqual(["data"]);
        const after = await owners.get(noCodePaths.module(id));
        expectStatus(after, 200);
        expect(after.body).toEqual({ data: update.body.data });
        expect(update.body.data.attributes).toEqual({ enabled: true, "version-pin": "1.1.0" });
        const setId = update.body.data.relationships["variable-options"].data[0].id;

        const included = await owners.get(`${noCodePaths.module(id)}?include=variable_options`);
        expectStatus(included, 200);
        expect(included.body).toEqual({
            data: update.body.data,
            included: [
                {
                    id: setId,
                    type: "variable-options",
                    attributes: { "variable-name": "size", "variable-type": "number", options: ["1"] },
                    relationships: { "no-code-allowed-module": { data: { id, type: "no-code-allowed-modules" } } },
                },
            ],
        });
    });

    test.each([
        ["a space before the value", "%20variable_options"],
        ["a space after the comma", "variable_options,%20variable-options"],
        ["spaces around both values", "variable-options%20,%20variable_options%20"],
    ])("include with %s: 200 with the sets", async (_label, include) => {
        const created = await createNoCodeModule(started.server, {
            registryModuleId: started.registryModule(),
            variableOptions: [{ variableName: "region", variableType: "string", options: ["a"] }],
        });
        const response = await owners.get(`${noCodePaths.module(created.id)}?include=${include}`);
        expectStatus(response, 200);
        expect(response.body.data).toEqual(created);
        expect(response.body.included.map((set: any) => set.id)).toEqual([created.relationships["variable-options"].data[0].id]);
    });
});

describe("no-code versions", () => {
    /** An enabled module pinned to 1.1.0 with sets region, size, tags, and a workspace made from it. */
    async function moduleWithThreeSets(): Promise<{ id: string; workspaceId: string; sets: Record<string, string> }> {
        const created = await createNoCodeModule(started.server, {
            registryModuleId: started.registryModule(),
            versionPin: "1.1.0",
            enabled: true,
            variableOptions: [
                { variableName: "region", variableType: "string", options: ["eu-west-1", "us-east-1", "ap-south-1"] },
                { variableName: "size", variableType: "number", options: ["1", "2", "3"] },
                { variableName: "tags", variableType: "map(string)", options: ["{}"] },
            ],
        });
        const [region, size, tags] = created.relationships["variable-options"].data.map((item: any) => item.id);
        const workspace = await createNoCodeWorkspace(started.server, created.id, { projectId: started.ids.Apps });
        expect(await upgradeAvailable(started.server, workspace.id)).toBe(false);
        return { id: created.id, workspaceId: workspace.id, sets: { region, size, tags } };
    }

    const CONTENT: Record<string, { variableType: string; options: string[] }> = {
        region: { variableType: "string", options: ["eu-west-1", "us-east-1", "ap-south-1"] },
        size: { variableType: "number", options: ["1", "2", "3"] },
        tags: { variableType: "map(string)", options: ["{}"] },
    };

    const ORDERS = [
        ["size", "region", "tags"],
        ["tags", "size", "region"],
        ["region", "tags", "size"],
        ["tags", "region", "size"],
        ["size", "tags", "region"],
        ["region", "size", "tags"],
    ];

    test("reordering sets of different names (every order), with their options reversed or not, makes no new version", async () => {
        const { id, workspaceId, sets } = await moduleWithThreeSets();
        const version = await noCodeVersionOf(started.server, workspaceId);
        for (const [index, order] of ORDERS.entries()) {
            const reverse = index % 2 === 0;
            const variableOptions = order.map((name) => ({
                id: sets[name],
                variableName: name,
                variableType: CONTENT[name].variableType,
                options: reverse ? [...CONTENT[name].options].reverse() : CONTENT[name].options,
            }));
            const updated = await updateNoCodeModule(started.server, id, { variableOptions });
            expect(updated.relationships["variable-options"].data.map((item: any) => item.id)).toEqual(order.map((name) => sets[name]));
            const { sets: read } = await readNoCodeModule(started.server, id);
            expect(setContents(read)).toEqual(variableOptions.map((set) => ({ name: set.variableName, type: set.variableType, options: set.options })));
            expect({ order, upgrade: await upgradeAvailable(started.server, workspaceId) }).toEqual({ order, upgrade: false });
        }
        expect(await noCodeVersionOf(started.server, workspaceId)).toBe(version);
    });

    test("reversing only the options of one set makes no new version", async () => {
        const { id, workspaceId, sets } = await moduleWithThreeSets();
        await updateNoCodeModule(started.server, id, {
            variableOptions: ["region", "size", "tags"].map((name) => ({
                id: sets[name],
                variableName: name,
                variableType: CONTENT[name].variableType,
                options: name === "size" ? ["3", "2", "1"] : CONTENT[name].options,
            })),
        });
        expect(setContents((await readNoCodeModule(started.server, id)).sets)[1]).toEqual({ name: "size", type: "number", options: ["3", "2", "1"] });
        expect(await upgradeAvailable(started.server, workspaceId)).toBe(false);
    });

    test("replacing the sets by equal new ones (no ids), in another order, makes no new version", async () => {
        const { id, workspaceId, sets } = await moduleWithThreeSets();
        const updated = await updateNoCodeModule(started.server, id, {
            variableOptions: ["tags", "region", "size"].map((name) => ({ variableName: name, ...CONTENT[name] })),
        });
        const ids = updated.relationships["variable-options"].data.map((item: any) => item.id);
        for (const old of Object.values(sets)) expect(ids).not.toContain(old);
        expect(await upgradeAvailable(started.server, workspaceId)).toBe(false);
    });

    test.each([
        ["one option changed", (name: string) => (name === "size" ? ["1", "2", "4"] : CONTENT[name].options), ["region", "size", "tags"]],
        ["one option changed, in another order", (name: string) => (name === "region" ? ["eu-west-1", "us-east-1"] : CONTENT[name].options), ["tags", "size", "region"]],
    ])("a real change of the sets' content (%s) makes a new version", async (_label, options, order) => {
        const { id, workspaceId, sets } = await moduleWithThreeSets();
        await updateNoCodeModule(started.server, id, {
            variableOptions: order.map((name) => ({ id: sets[name], variableName: name, variableType: CONTENT[name].variableType, options: options(name) })),
        });
        expect(await upgradeAvailable(started.server, workspaceId)).toBe(true);
    });

    test("removing a set makes a new version", async () => {
        const { id, workspaceId, sets } = await moduleWithThreeSets();
        await updateNoCodeModule(started.server, id, {
            variableOptions: ["size", "region"].map((name) => ({ id: sets[name], variableName: name, ...CONTENT[name] })),
        });
        expect(setContents((await readNoCodeModule(started.server, id)).sets).map((set) => set.name)).toEqual(["size", "region"]);
        expect(await upgradeAvailable(started.server, workspaceId)).toBe(true);
    });

    test("naming the module's own registry module without a pin keeps the pin (1.0.0, not the highest) and makes no new version", async () => {
        const registryModuleId = started.registryModule();
        const created = await createNoCodeModule(started.server, {
            registryModuleId,
            versionPin: "1.0.0",
            enabled: true,
            variableOptions: [{ variableName: "region", variableType: "string", options: ["eu-west-1"] }],
        });
        const workspace = await createNoCodeWorkspace(started.server, created.id, { projectId: started.ids.Apps });
        const updated = await updateNoCodeModule(started.server, created.id, { registryModuleId });
        expect(updated).toEqual(created);
        const { data, sets } = await readNoCodeModule(started.server, created.id);
        expect(data).toEqual(created);
        expect(setContents(sets)).toEqual([{ name: "region", type: "string", options: ["eu-west-1"] }]);
        expect(await upgradeAvailable(started.server, workspace.id)).toBe(false);
        expect(await noCodeModulesOf(registryModuleId)).toEqual([created.id]);
    });
});
