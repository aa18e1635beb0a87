/**
 * `inputFailures` (`provider/handlers/inputChecks.ts`), the one parse of a handler's inputs object: how unknown
 * values pass, how null reads as absent, and how each kind of zod issue reads as a reason. Called with objects
 * of the test's own, and through the handlers' `check` where the words are the resources' own. No service:
 * `check` sends no request.
 */
import { z } from "zod";
import { inputFailures, objectList, tagMap, withRequiredReason } from "../../provider/handlers/inputChecks";
import * as noCodeModule from "../../provider/handlers/noCodeModule";
import * as noCodeWorkspace from "../../provider/handlers/noCodeWorkspace";
import * as project from "../../provider/handlers/project";
import * as tagBindings from "../../provider/handlers/projectTagBindings";
import * as workspace from "../../provider/handlers/workspace";
import { tagKeyRule, tagSetProblems, tagValueRule } from "../../sdk/model";
import { UNKNOWN } from "./helpers";

const ITEM = "vars ({ key, category, note? })";

/** An object of the test's own: a required `name`, an id with its own required reason, and a list of vars. */
const INPUTS = z.object({
    name: z.string().min(3, { error: "must be at least 3 characters" }),
    id: withRequiredReason(z.string().startsWith("prj-", { error: "must start with 'prj-'" }), "id is required (a project id)"),
    vars: objectList({
        item: ITEM,
        fields: {
            key: z.string().max(5, { error: "must be at most 5 characters" }),
            category: z.enum(["infra", "env"], { error: "must be 'infra' or 'env'" }),
            note: z.array(z.string().max(5, { error: "must be at most 5 characters" })).optional(),
        },
        identity: ["key", "category"],
        listProblems: keysGivenTwice,
    }).optional(),
});

/** A list rule of the test's own: a key at most once, whatever the category. */
function keysGivenTwice(items: { key: string }[]): { index: number; message: string }[] {
    return items.flatMap((item, index) => (items.findIndex((other) => other.key === item.key) < index ? [{ index, message: `key '${item.key}' appears twice` }] : []));
}

const VALID = { name: "web", id: "prj-1" };

/** A project's inputs with `tags`. */
const projectWith = (tags: unknown) => ({ organization: "acme", name: "Apps", tags });

describe("values not known yet pass until they are known", () => {
    it("a wholly unknown required property is not reported as missing, nor judged", () => {
        expect(inputFailures(INPUTS, { name: UNKNOWN, id: UNKNOWN })).toEqual([]);
    });

    it("an unknown list item, and an unknown field of an item, pass", () => {
        expect(inputFailures(INPUTS, { ...VALID, vars: [UNKNOWN, { key: UNKNOWN, category: "env" }, { key: "a", category: UNKNOWN }] })).toEqual([]);
    });

    it("a field with an unknown part waits as a whole, even where its known part breaks the rule", () => {
        expect(inputFailures(INPUTS, { ...VALID, vars: [{ key: "a", category: "env", note: ["far-too-long", UNKNOWN] }] })).toEqual([]);
        // Known, the same part is refused.
        expect(inputFailures(INPUTS, { ...VALID, vars: [{ key: "a", category: "env", note: ["far-too-long"] }] })).toEqual([
            { property: "vars", reason: "vars[0].note[0] must be at most 5 characters" },
        ]);
    });

    it("an item with an unknown identity field is left out of the list rules", () => {
        const vars = [{ key: "a", category: "env" }, { key: UNKNOWN, category: "env" }, { key: "a", category: "infra" }];
        expect(inputFailures(INPUTS, { ...VALID, vars })).toEqual([{ property: "vars", reason: "vars[2]: key 'a' appears twice" }]);
    });

    it("a tag whose value is unknown still has its key judged, and counts in the set", async () => {
        const eleven = { ...Object.fromEntries(Array.from({ length: 10 }, (_, index) => [`k${index}`, "v"])), "hc:later": UNKNOWN };
        expect((await project.check({}, projectWith(eleven))).failures).toEqual([
            { property: "tags", reason: "tags: tag key 'hc:later' must not start with a reserved prefix (hc:, hcp:)" },
            { property: "tags", reason: "tags: a project may have at most 10 tags; 11 were given" },
        ]);
    });

    it("the agent pool rule waits while the execution mode or the pool is unknown", async () => {
        const base = { organization: "acme", name: "web" };
        expect((await workspace.check({}, { ...base, executionMode: UNKNOWN, agentPoolId: "apool-1" })).failures).toEqual([]);
        expect((await workspace.check({}, { ...base, executionMode: "agent", agentPoolId: UNKNOWN })).failures).toEqual([]);
    });

    it("check answers the inputs as given, unknown values and properties the object does not name included", async () => {
        const given = { organization: "acme", name: UNKNOWN, description: UNKNOWN, later: "kept" };
        expect(await project.check({}, given)).toEqual({ inputs: given, failures: [] });
    });
});

describe("null is absent", () => {
    it("an optional property or item field that is null passes", () => {
        expect(inputFailures(INPUTS, { ...VALID, vars: null })).toEqual([]);
        expect(inputFailures(INPUTS, { ...VALID, vars: [{ key: "a", category: "env", note: null }] })).toEqual([]);
    });

    it("a required property that is null reads as its required reason, or as '<name> is required'", () => {
        expect(inputFailures(INPUTS, { name: null, id: null })).toEqual([
            { property: "name", reason: "name is required" },
            { property: "id", reason: "id is required (a project id)" },
        ]);
    });

    it("a required item field that is null or absent reads as '<path> is required', whatever its rule", () => {
        expect(inputFailures(INPUTS, { ...VALID, vars: [{ key: null }] })).toEqual([
            { property: "vars", reason: "vars[0].key is required" },
            { property: "vars", reason: "vars[0].category is required" },
        ]);
    });

    it("a null list item is no absent item: it is not an item", () => {
        expect(inputFailures(INPUTS, { ...VALID, vars: [null] })).toEqual([{ property: "vars", reason: `vars[0] must be ${ITEM}` }]);
    });

    it("a null tag value is judged as a value", async () => {
        expect((await project.check({}, projectWith({ team: null }))).failures).toEqual([
            { property: "tags", reason: "tags: the value of tag 'team' must be a string" },
        ]);
    });
});

describe("each kind of issue reads as today's reasons do", () => {
    it("a rule's message is said of the property", () => {
        expect(inputFailures(INPUTS, { ...VALID, name: "ab" })).toEqual([{ property: "name", reason: "name must be at least 3 characters" }]);
    });

    it("a rule's message inside a list is said of the path", async () => {
        const sets = [{ variableName: "region", variableType: "string", options: ["a", {}] }];
        expect((await noCodeModule.check({}, { organization: "acme", registryModuleId: "mod-1", variableOptions: sets })).failures).toEqual([
            { property: "variableOptions", reason: "variableOptions[0].options[1] must be a string, a number or a boolean" },
        ]);
        const vars = [{ key: "a", category: "env" }, { key: "b", category: "other" }];
        expect((await noCodeWorkspace.check({}, { noCodeModuleId: "nocode-1", projectId: "prj-1", name: "site", vars })).failures).toEqual([
            { property: "vars", reason: "vars[1].category must be 'infra' or 'env'" },
        ]);
    });

    it("a list that is no list, and an item that is no object, say what an item is", () => {
        expect(inputFailures(INPUTS, { ...VALID, vars: "a,b" })).toEqual([{ property: "vars", reason: `vars must be a list of ${ITEM}` }]);
        expect(inputFailures(INPUTS, { ...VALID, vars: ["a"] })).toEqual([{ property: "vars", reason: `vars[0] must be ${ITEM}` }]);
    });

    it("a required list's reason is the one given", () => {
        const required = z.object({ vars: withRequiredReason(objectList({ item: ITEM, fields: {} }), `vars is required (a list of ${ITEM})`) });
        expect(inputFailures(required, {})).toEqual([{ property: "vars", reason: `vars is required (a list of ${ITEM})` }]);
    });

    it("an unknown field of an item is named with every allowed one, before the item's other failures", () => {
        expect(inputFailures(INPUTS, { ...VALID, vars: [{ key: "far-too-long", category: "env", colour: "red" }] })).toEqual([
            { property: "vars", reason: "vars[0] has an unknown field 'colour' (allowed: key, category, note)" },
            { property: "vars", reason: "vars[0].key must be at most 5 characters" },
        ]);
    });

    it("a list rule's problem is a statement about the item", () => {
        const vars = [{ key: "a", category: "env" }, { key: "a", category: "infra" }];
        expect(inputFailures(INPUTS, { ...VALID, vars })).toEqual([{ property: "vars", reason: "vars[1]: key 'a' appears twice" }]);
    });

    it("a tag key's and a tag value's problems are statements about the map", () => {
        const tags = z.object({ tags: tagMap({ key: tagKeyRule(), value: tagValueRule(), set: tagSetProblems }) });
        expect(inputFailures(tags, { tags: { "hcp:x": "a b" } })).toEqual([
            { property: "tags", reason: "tags: tag key 'hcp:x' must not start with a reserved prefix (hc:, hcp:)" },
            { property: "tags", reason: "tags: the value of tag 'hcp:x' may contain only letters, numbers and the characters _ . = + - @ :" },
        ]);
    });

    it("a required map's reason is the resource's own", async () => {
        expect((await tagBindings.check({}, { projectId: "prj-1" })).failures).toEqual([
            { property: "tags", reason: "tags is required (a map of tag keys to values)" },
        ]);
    });
});

describe("the order of the failures", () => {
    it("is the order the object lists its properties, whatever the order of the inputs", () => {
        expect(inputFailures(INPUTS, { vars: "x", id: "x", name: "x" }).map((failure) => failure.property)).toEqual(["name", "id", "vars"]);
    });

    it("puts the agent pool rule's failure with agentPoolId, before the properties listed after it", async () => {
        const given = { noCodeModuleId: "nocode-1", projectId: "prj-1", name: "site", executionMode: "agent", rolloutWave: 3 };
        expect((await noCodeWorkspace.check({}, given)).failures).toEqual([
            { property: "agentPoolId", reason: "agentPoolId is required when executionMode is 'agent'" },
            { property: "rolloutWave", reason: "rolloutWave must be a string, e.g. '1 of 3'" },
        ]);
    });
});
