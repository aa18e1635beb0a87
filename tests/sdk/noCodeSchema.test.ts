/**
 * The client's no-code rules and readings (`sdk/model/noCode.ts`), called directly: the module version rule
 * at its edges, the words of the module variable rules, and what the client makes of a no-code module or a
 * workspace-upgrade answer that leaves things out or carries more than it reads. (The request-body rules'
 * words, as the service answers them at their pointers, are in tests/server/noCodeBodyMessages.test.ts.)
 */
import {
    moduleVariableNameRule,
    moduleVariableTypeRule,
    moduleVersionRule,
    noCodeModuleDocumentSchema,
    variableOptionsInputSchema,
    workspaceUpgradeSchema,
} from "../../sdk/model/noCode";

/** The messages of a failed parse. */
function messagesOf(result: { success: boolean; error?: { issues: { message: string }[] } }): string[] {
    expect(result.success).toBe(false);
    return result.error!.issues.map((issue) => issue.message);
}

describe("moduleVersionRule: MAJOR.MINOR.PATCH", () => {
    test.each(["1.1.0", "0.0.0", "1.10.0", "10.2.13", "2.0.100"])("accepts %s", (version) => {
        expect(moduleVersionRule().parse(version)).toBe(version);
    });

    test.each(["1.1", "1", "1.1.0.0", "v1.1.0", "1.1.0-beta", " 1.1.0", "1.1.0 ", "1..0", "a.b.c", ""])("refuses %j, saying what a version looks like", (version) => {
        expect(messagesOf(moduleVersionRule().safeParse(version))).toEqual(["must be a module version such as '1.1.0'"]);
    });

    test("refuses a number: 'must be a string'", () => {
        expect(messagesOf(moduleVersionRule().safeParse(1.1))).toEqual(["must be a string"]);
    });
});

describe.each([
    ["moduleVariableNameRule", moduleVariableNameRule],
    ["moduleVariableTypeRule", moduleVariableTypeRule],
])("%s", (_name, rule) => {
    test("accepts one character", () => {
        expect(rule().parse("x")).toBe("x");
    });

    test("refuses the empty string: 'must not be empty'", () => {
        expect(messagesOf(rule().safeParse(""))).toEqual(["must not be empty"]);
    });

    test.each([7, null, true, ["region"]])("refuses %j: 'must be a string'", (value) => {
        expect(messagesOf(rule().safeParse(value))).toEqual(["must be a string"]);
    });
});

describe("variableOptionsInputSchema", () => {
    const SET = { type: "variable-options", attributes: { "variable-name": "region", "variable-type": "string" } };

    test("options given as numbers or booleans are kept as their text; left out, the set has none", () => {
        expect(variableOptionsInputSchema().parse({ ...SET, attributes: { ...SET.attributes, options: [3, true, "x"] } }).attributes?.options).toEqual(["3", "true", "x"]);
        expect(variableOptionsInputSchema().parse(SET).attributes?.options).toBeUndefined();
    });

    // The service words zod's own "expected array" the same way; a caller of the rule reads these words directly.
    test.each(["eu-west-1", { 0: "eu-west-1" }, null])("refuses options %j that are not a list: 'must be a list'", (options) => {
        const result = variableOptionsInputSchema().safeParse({ ...SET, attributes: { ...SET.attributes, options } });
        expect(messagesOf(result)).toEqual(["must be a list"]);
    });
});

describe("noCodeModuleDocumentSchema", () => {
    const READ = noCodeModuleDocumentSchema();

    test("an answer that leaves everything optional out reads as disabled, unpinned, with no ids and no sets", () => {
        expect(READ.parse({ data: { id: "nocode-1", type: "no-code-modules", attributes: {} } })).toEqual({
            id: "nocode-1",
            enabled: false,
            versionPin: "",
            organization: "",
            registryModuleId: "",
            variableOptionIds: [],
            variableOptions: [],
        });
    });

    test("null relationship data and a null pin read the same as left out", () => {
        const module = READ.parse({
            data: {
                id: "nocode-1",
                type: "no-code-modules",
                attributes: { enabled: true, "version-pin": null },
                relationships: { organization: { data: null }, "registry-module": { data: null }, "variable-options": { data: null } },
            },
        });
        expect(module).toMatchObject({ enabled: true, versionPin: "", organization: "", registryModuleId: "", variableOptionIds: [], variableOptions: [] });
    });

    test("sets come from `included` in relationship order; other included types, unlisted sets and links are skipped", () => {
        const set = (id: string, name: string, options: unknown) => ({
            id,
            type: "variable-options",
            attributes: { "variable-name": name, "variable-type": "string", options },
            relationships: { "no-code-allowed-module": { data: { id: "nocode-1", type: "no-code-allowed-modules" } } },
        });
        const module = READ.parse({
            data: {
                id: "nocode-1",
                type: "no-code-modules",
                attributes: { enabled: true, "version-pin": "1.1.0" },
                relationships: {
                    organization: { data: { id: "acme", type: "organizations" } },
                    "registry-module": { data: { id: "mod-1", type: "registry-modules" } },
                    "variable-options": {
                        data: [
                            { id: "ncvaropt-b", type: "variable-options" },
                            { id: "ncvaropt-a", type: "variable-options" },
                        ],
                    },
                },
                links: { self: "/api/v2/no-code-modules/nocode-1" },
            },
            included: [
                { id: "mod-1", type: "registry-modules", attributes: { name: "bucket" } },
                set("ncvaropt-a", "region", ["eu-west-1", "us-east-1"]),
                set("ncvaropt-other", "size", ["s"]),
                set("ncvaropt-b", "tier", null),
            ],
        });
        expect(module).toEqual({
            id: "nocode-1",
            enabled: true,
            versionPin: "1.1.0",
            organization: "acme",
            registryModuleId: "mod-1",
            variableOptionIds: ["ncvaropt-b", "ncvaropt-a"],
            variableOptions: [
                // A set whose options are null has none.
                { id: "ncvaropt-b", variableName: "tier", variableType: "string", options: [] },
                { id: "ncvaropt-a", variableName: "region", variableType: "string", options: ["eu-west-1", "us-east-1"] },
            ],
        });
    });

    test("a listed set that was not included is known by its id only", () => {
        const module = READ.parse({
            data: {
                id: "nocode-1",
                type: "no-code-modules",
                attributes: {},
                relationships: { "variable-options": { data: [{ id: "ncvaropt-a", type: "variable-options" }] } },
            },
        });
        expect(module.variableOptionIds).toEqual(["ncvaropt-a"]);
        expect(module.variableOptions).toEqual([]);
    });
});

describe("workspaceUpgradeSchema", () => {
    const READ = workspaceUpgradeSchema();

    test("reads a complete answer", () => {
        expect(
            READ.parse({
                id: "run-1",
                type: "workspace-upgrade",
                attributes: { status: "planned", "plan-url": "https://wos.example/runs/run-1" },
                relationships: { workspace: { data: { id: "ws-1", type: "workspaces" } } },
            }),
        ).toEqual({ id: "run-1", status: "planned", planUrl: "https://wos.example/runs/run-1", workspaceId: "ws-1" });
    });

    test("no plan-url and no workspace relationship read as empty strings; a status it does not know is kept", () => {
        expect(READ.parse({ id: "run-1", type: "workspace-upgrade", attributes: { status: "queued_for_later" } })).toEqual({
            id: "run-1",
            status: "queued_for_later",
            planUrl: "",
            workspaceId: "",
        });
        expect(
            READ.parse({ id: "run-1", type: "workspace-upgrade", attributes: { status: "pending", "plan-url": null }, relationships: { workspace: { data: null } } }),
        ).toMatchObject({ planUrl: "", workspaceId: "" });
    });
});
