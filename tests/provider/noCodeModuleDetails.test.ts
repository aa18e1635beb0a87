/**
 * Details of the `wos:NoCodeModule` handlers that `noCodeModule.test.ts` leaves open (issue 8, mutation
 * testing): the exact wording of check failures and of messages naming a module known by its id alone, which
 * requests an update or a create sends and which it must not (shown by faults on the requests it must not
 * send), a refresh that changes nothing, and a create whose answer is lost meeting a module that differs from
 * the program or belongs to another organization. Against the real local service; every test removes the
 * no-code modules it made.
 */
import * as noCodeModule from "../../provider/handlers/noCodeModule";
import { REGISTRY_MODULES } from "../support/seed";
import { rejection, TOKEN, UNKNOWN, useServer, checkFailures, checkedInputs } from "./helpers";

const server = useServer();

const API = "^/api/v2";
const valid = { organization: "acme", registryModuleId: REGISTRY_MODULES.bucket };
const region = { variableName: "region", variableType: "string", options: ["eu-west-1", "us-east-1"] };

/** Inputs after `check`, as the host hands them to `create` and `update`. */
const checked = (news: Record<string, unknown>) => checkedInputs(noCodeModule, news);

const failuresOf = (news: Record<string, unknown>) => checkFailures(noCodeModule, news);

/** The no-code module over raw HTTP (attributes only); `undefined` when it is gone. */
async function rawAttributes(id: string): Promise<Record<string, unknown> | undefined> {
    const response = await server().request("GET", `/no-code-modules/${id}`, { token: TOKEN });
    if (response.status === 404) return undefined;
    expect(response.status).toBe(200);
    return response.body.data.attributes;
}

/** Raw sets of a module as `name -> { id, type, options }`. */
async function rawSets(id: string): Promise<Record<string, { id: string; type: string; options: string[] }>> {
    const response = await server().request("GET", `/no-code-modules/${id}?include=variable_options`, { token: TOKEN });
    expect(response.status).toBe(200);
    return Object.fromEntries(
        (response.body.included ?? []).map((set: any) => [
            set.attributes["variable-name"],
            { id: set.id, type: set.attributes["variable-type"], options: set.attributes.options },
        ]),
    );
}

/** The ids of the no-code modules that enable a registry module (none or one), over raw HTTP. */
async function noCodeModulesOf(registryModuleId: string): Promise<string[]> {
    const response = await server().request("GET", `/registry-modules/${registryModuleId}`, { token: TOKEN });
    expect(response.status).toBe(200);
    return (response.body.data.relationships["no-code-modules"].data ?? []).map((item: { id: string }) => item.id);
}

/** A no-code module of `acme`'s bucket module made over raw HTTP, as a person would outside Pulumi. */
async function rawModule(attributes: Record<string, unknown>, sets: typeof region[] = []): Promise<string> {
    const response = await server().request("POST", "/organizations/acme/no-code-modules", {
        token: TOKEN,
        body: {
            data: {
                type: "no-code-modules",
                attributes,
                relationships: {
                    "registry-module": { data: { type: "registry-module", id: REGISTRY_MODULES.bucket } },
                    "variable-options": {
                        data: sets.map((set) => ({
                            type: "variable-options",
                            attributes: { "variable-name": set.variableName, "variable-type": set.variableType, options: set.options },
                        })),
                    },
                },
            },
        },
    });
    expect(response.status).toBe(200);
    return response.body.data.id;
}

/** Fails the next `method` request of `path` (a regular expression after `/api/v2`) with a 403, which the client does not repeat. */
async function refuseNext(method: string, path: string): Promise<void> {
    await server().addFault({ method, path: `${API}${path}`, times: 1, status: 403 });
}

const modulePath = "/no-code-modules/nocode-[^/]+$";

afterEach(async () => {
    await server().clearFaults();
    for (const id of await noCodeModulesOf(REGISTRY_MODULES.bucket)) {
        expect((await server().request("DELETE", `/no-code-modules/${id}`, { token: TOKEN })).status).toBe(204);
    }
});

describe("check: the wording of each failure", () => {
    it("names an organization that is not a string as such", async () => {
        expect(await failuresOf({ ...valid, organization: 5 })).toEqual([{ property: "organization", reason: "organization must be a string" }]);
    });

    it("says what a variable-options set is when the list or an item has the wrong shape", async () => {
        const what = "variable-options sets ({ variableName, variableType, options })";
        expect(await failuresOf({ ...valid, variableOptions: region })).toEqual([
            { property: "variableOptions", reason: `variableOptions must be a list of ${what}` },
        ]);
        expect(await failuresOf({ ...valid, variableOptions: [region, "size"] })).toEqual([
            { property: "variableOptions", reason: `variableOptions[1] must be ${what}` },
        ]);
    });

    it("does not judge two sets whose variable names are both unknown as duplicates", async () => {
        const unknownName = { ...region, variableName: UNKNOWN };
        expect(await failuresOf({ ...valid, variableOptions: [unknownName, unknownName] })).toEqual([]);
    });

    it("returns a set that is null or not an object as given, with its failure and no crash", async () => {
        for (const set of [null, "size", { variableName: "size", variableType: "number" }]) {
            const result = await noCodeModule.check({}, { ...valid, variableOptions: [region, set] });
            expect(result.failures).toHaveLength(1);
            expect(result.failures![0].reason).toMatch(/^variableOptions\[1\]/);
            expect((result.inputs as { variableOptions: unknown[] }).variableOptions).toEqual([region, set]);
        }
    });

    it("turns only numbers and booleans among the options into text: other values stay as given, to be reported", async () => {
        const options = ["a", 2, false, { b: 1 }, null, UNKNOWN];
        const result = await noCodeModule.check({}, { ...valid, variableOptions: [{ ...region, options }] });
        expect((result.inputs as { variableOptions: unknown[] }).variableOptions).toEqual([
            { ...region, options: ["a", "2", "false", { b: 1 }, null, UNKNOWN] },
        ]);
    });
});

describe("diff", () => {
    it("reads sets stored as null as no set", async () => {
        const state = { ...valid, versionPin: "1.1.0", enabled: false, variableOptions: null };
        expect(await noCodeModule.diff("nocode-1", state, { ...valid })).toEqual({ changes: false, replaces: [], deleteBeforeReplace: false });
        expect((await noCodeModule.diff("nocode-1", state, { ...valid, variableOptions: [region] })).changes).toBe(true);
    });
});

describe("messages about a module known by its id alone", () => {
    it("name the module by its id, with nothing invented for its registry module or organization", async () => {
        const id = await rawModule({ "version-pin": "1.0.0" });
        await refuseNext("GET", modulePath);
        const readError = await rejection(noCodeModule.read(id, {}));
        expect(readError.message.startsWith(`wos:NoCodeModule ${id}: read failed: `)).toBe(true);
        expect(readError.message).toMatch(/403/);

        await refuseNext("DELETE", modulePath);
        const deleteError = await rejection(noCodeModule.delete(id, undefined));
        expect(deleteError.message.startsWith(`wos:NoCodeModule ${id}: delete failed: `)).toBe(true);
        expect(await rawAttributes(id)).toBeDefined();

        // Values not known yet are left out of the name as well.
        await refuseNext("DELETE", modulePath);
        const unknownError = await rejection(noCodeModule.delete(id, { organization: UNKNOWN, registryModuleId: UNKNOWN }));
        expect(unknownError.message.startsWith(`wos:NoCodeModule ${id}: delete failed: `)).toBe(true);
        expect(await rawAttributes(id)).toBeDefined();
    });
});

describe("update: one PATCH with only what changed, and no request more", () => {
    it("re-reads the module, sets included, and writes nothing when nothing changed", async () => {
        const created = await noCodeModule.create(await checked({ ...valid, versionPin: "1.0.0", variableOptions: [region] }));
        // A refusal of any PATCH shows that none is sent.
        await refuseNext("PATCH", modulePath);
        const updated = await noCodeModule.update(created.id, created.outs, await checked({ ...valid, versionPin: "1.0.0", variableOptions: [region] }));
        expect(updated.outs).toEqual(created.outs);
        expect(updated.outs!.variableOptions).toEqual([{ id: expect.stringMatching(/^ncvaropt-/), ...region }]);
    });

    it("changes enabled alone without reading the module before or after when it has no set", async () => {
        const created = await noCodeModule.create(await checked({ ...valid }));
        // A refusal of the next read shows that none is sent.
        await refuseNext("GET", modulePath);
        const updated = await noCodeModule.update(created.id, created.outs, await checked({ ...valid, enabled: true }));
        expect(updated.outs).toEqual({ ...valid, versionPin: "1.1.0", enabled: true, variableOptions: [] });
        await server().clearFaults();
        expect(await rawAttributes(created.id)).toEqual({ enabled: true, "version-pin": "1.1.0" });
    });

    it("changes enabled alone on a module with sets, reading them after the PATCH (its answer names only their ids)", async () => {
        const created = await noCodeModule.create(await checked({ ...valid, variableOptions: [region] }));
        const updated = await noCodeModule.update(created.id, created.outs, await checked({ ...valid, enabled: true, variableOptions: [region] }));
        expect(updated.outs).toEqual({ ...created.outs, enabled: true });
        expect(updated.outs!.variableOptions).toEqual([{ id: (await rawSets(created.id)).region.id, ...region }]);
    });

    it("turns enabled off when the program leaves it out", async () => {
        const created = await noCodeModule.create(await checked({ ...valid, enabled: true }));
        const updated = await noCodeModule.update(created.id, created.outs, await checked({ ...valid }));
        expect(updated.outs).toEqual({ ...created.outs, enabled: false });
        expect(await rawAttributes(created.id)).toEqual({ enabled: false, "version-pin": "1.1.0" });
    });

    it("does not send an unchanged pin: a pin changed outside Pulumi stays until the program's pin changes", async () => {
        const created = await noCodeModule.create(await checked({ ...valid, versionPin: "1.0.0" }));
        const moved = await server().request("PATCH", `/no-code-modules/${created.id}`, {
            token: TOKEN,
            body: { data: { type: "no-code-modules", attributes: { "version-pin": "1.1.0" } } },
        });
        expect(moved.status).toBe(200);
        const updated = await noCodeModule.update(created.id, created.outs, await checked({ ...valid, versionPin: "1.0.0", enabled: true }));
        expect(updated.outs).toEqual({ ...created.outs, versionPin: "1.1.0", enabled: true });
        expect(await rawAttributes(created.id)).toEqual({ enabled: true, "version-pin": "1.1.0" });
    });
});

describe("create", () => {
    it("makes a module without sets from a program that gives an empty list of them", async () => {
        const created = await noCodeModule.create(await checked({ ...valid, variableOptions: [] }));
        expect(created.outs).toEqual({ ...valid, versionPin: "1.1.0", enabled: false, variableOptions: [] });
        expect(await rawSets(created.id)).toEqual({});
    });
});

describe("create: the registry module looked up before the create", () => {
    it("lets the service's create say that a registry module does not exist (the look-up's 404 means only that nothing holds it)", async () => {
        const error = await rejection(noCodeModule.create(await checked({ ...valid, registryModuleId: "mod-9999999999999999" })));
        expect(error.message).toBe(
            "wos:NoCodeModule (registry module mod-9999999999999999) in organization 'acme': create failed: " +
                "POST /organizations/acme/no-code-modules failed with status 404: Registry module not found or you are not authorized to access it",
        );
    });

    it("fails, making nothing, when that look-up is refused", async () => {
        await refuseNext("GET", `/registry-modules/${REGISTRY_MODULES.bucket}$`);
        const error = await rejection(noCodeModule.create(await checked({ ...valid, enabled: true })));
        expect(error.message).toContain(`wos:NoCodeModule (registry module ${REGISTRY_MODULES.bucket}) in organization 'acme': create failed`);
        expect(error.message).toMatch(/403/);
        expect(await noCodeModulesOf(REGISTRY_MODULES.bucket)).toEqual([]);
    });
});

describe("a create whose answer is lost", () => {
    const createPath = (organization: string) => `${API}/organizations/${organization}/no-code-modules$`;

    /**
     * The look-up before the create sees no no-code module (a 404 for the registry module, which counts as
     * "nothing holds it"), and the create fails before committing: the module found afterwards is then the
     * one `module` made by hand, standing in for one this create made and someone changed in between.
     */
    async function loseCreateOf(organization: string): Promise<void> {
        await server().addFault({ method: "GET", path: `${API}/registry-modules/${REGISTRY_MODULES.bucket}$`, times: 1, status: 404 });
        await server().addFault({ method: "POST", path: createPath(organization), times: 1, status: 503 });
    }

    it("brings the module found in line with the program: pin, enabled (off when left out) and sets, keeping a set's id", async () => {
        const found = await rawModule({ "version-pin": "1.0.0", enabled: true }, [
            { ...region, options: ["x"] },
            { variableName: "size", variableType: "number", options: ["1"] },
        ]);
        const regionId = (await rawSets(found)).region.id;
        await loseCreateOf("acme");
        const created = await noCodeModule.create(await checked({ ...valid, versionPin: "1.1.0", variableOptions: [region] }));
        expect(created.id).toBe(found);
        expect(created.outs).toEqual({ ...valid, versionPin: "1.1.0", enabled: false, variableOptions: [{ id: regionId, ...region }] });
        expect(await rawAttributes(found)).toEqual({ enabled: false, "version-pin": "1.1.0" });
        expect(await rawSets(found)).toEqual({ region: { id: regionId, type: "string", options: region.options } });
    });

    it("never takes over a module of another organization found through the registry module, and leaves it alone", async () => {
        const theirs = await rawModule({ "version-pin": "1.0.0" });
        await loseCreateOf("globex");
        const error = await rejection(
            noCodeModule.create(await checked({ ...valid, organization: "globex", versionPin: "1.1.0", enabled: true, variableOptions: [region] })),
        );
        expect(error.message).toContain(`wos:NoCodeModule (registry module ${REGISTRY_MODULES.bucket}) in organization 'globex': create failed`);
        expect(error.message).toMatch(/503/);
        expect((error as { id?: string }).id).toBeUndefined();
        expect(await rawAttributes(theirs)).toEqual({ enabled: false, "version-pin": "1.0.0" });
        expect(await rawSets(theirs)).toEqual({});
    });

    it("keeps the module it made, with its sets, as a partial success when bringing it in line fails", async () => {
        await server().addFault({ method: "POST", path: createPath("acme"), times: 1, status: 503, afterCommit: true });
        await refuseNext("PATCH", modulePath);
        const inputs = await checked({ ...valid, versionPin: "1.0.0", enabled: true, variableOptions: [region], __provider: "serialized" });
        const error = await rejection(noCodeModule.create(inputs));
        const [made] = await noCodeModulesOf(REGISTRY_MODULES.bucket);
        expect(error.message).toContain("create (finishing the no-code module found after a lost answer) failed");
        expect(error.message).toMatch(/403/);
        expect(error).toMatchObject({
            id: made,
            properties: {
                ...valid,
                versionPin: "1.0.0",
                enabled: true,
                variableOptions: [{ id: (await rawSets(made)).region.id, ...region }],
                __provider: "serialized",
            },
        });
    });

    it("says that a no-code module of the registry module existed before the create", async () => {
        await rawModule({ "version-pin": "1.0.0" });
        await server().addFault({ method: "POST", path: createPath("acme"), times: 1, status: 503 });
        const error = await rejection(noCodeModule.create(await checked({ ...valid })));
        expect(error.message).toMatch(/503.*; a no-code module of that name existed before this create, so it is left alone/);
    });
});
