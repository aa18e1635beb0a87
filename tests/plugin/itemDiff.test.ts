/**
 * The plugin's detailed diff of a list input, item by item (`plugin/itemDiff.ts`), and a
 * refresh's inputs in the program's shape (`plugin/programShape.ts`), in process: the paths the CLI prints,
 * the defaults that equal a field left out, and every case where the whole list must be said to change
 * instead (a path is one index on both sides). Through the plugin and the CLI: `noCode.test.ts` and
 * `tests/languages/programLifecycle.ts`.
 */
import { itemChanges } from "../../plugin/itemDiff";
import { inProgramShape } from "../../plugin/programShape";
import { secret, UNKNOWN } from "../../plugin/propertyValues";
import type { ListInput } from "../../plugin/resourceBinding";
import { noCodeWorkspaceBinding } from "../../plugin/resources/noCodeWorkspace";

/** A no-code workspace's vars, as the plugin's binding declares them (compared as the handler compares them). */
const VARS: ListInput = noCodeWorkspaceBinding.lists!.vars!;
const region = { key: "region", value: "eu-west-1", category: "infra" };
const size = { key: "size", value: "2", category: "infra" };
const token = { key: "TOKEN", value: "t", category: "env", sensitive: true };

const changes = (olds: unknown, news: unknown, list: ListInput = VARS) => {
    const found = itemChanges("vars", olds, news, list);
    return found && Object.fromEntries(found);
};

describe("itemChanges", () => {
    test("a changed item is named by its index, and nothing else", () => {
        expect(changes([region, size], [region, { ...size, value: "3" }])).toEqual({ "vars[1]": "update" });
    });

    test("a field the old item left out and the new one sets, or the other way round, changes the item", () => {
        expect(changes([region], [{ ...region, hcl: true }])).toEqual({ "vars[0]": "update" });
        expect(changes([{ ...region, description: "where" }], [region])).toEqual({ "vars[0]": "update" });
        expect(changes([{ ...region, description: null }], [{ ...region, description: "where" }])).toEqual({ "vars[0]": "update" });
    });

    test("a field spelled out with its default is no change, nor is null for a field with a default", () => {
        expect(changes([region], [{ ...region, hcl: false, sensitive: false, description: "" }])).toBeUndefined();
        expect(changes([{ ...region, value: null }], [{ ...region, value: "" }])).toBeUndefined();
    });

    test("a field without a default is compared as it is, lists by their items in order", () => {
        const options: ListInput = { identity: ["variableName"] };
        const set = { variableName: "region", variableType: "string", options: ["a", "b"] };
        expect(changes([set], [{ ...set, options: ["a", "b", "c"] }], options)).toEqual({ "vars[0]": "update" });
        expect(changes([set], [{ ...set, options: ["b", "a"] }], options)).toEqual({ "vars[0]": "update" });
        expect(changes([set], [{ variableName: "region", options: ["a", "b"] }], options)).toEqual({ "vars[0]": "update" });
    });

    test("an item added is named by its new index, one removed by its old index", () => {
        expect(changes([region], [region, size])).toEqual({ "vars[1]": "add" });
        expect(changes([region, size], [region])).toEqual({ "vars[1]": "delete" });
    });

    test("an item is told apart by every field of its identity: the same key in another category is another item", () => {
        const envRegion = { ...region, category: "env" };
        expect(changes([region, envRegion], [region, { ...envRegion, value: "x" }])).toEqual({ "vars[1]": "update" });
    });

    test("a value not known yet, or a secret one, changes its item", () => {
        expect(changes([region], [{ ...region, value: UNKNOWN }])).toEqual({ "vars[0]": "update" });
        expect(changes([token], [{ ...token, value: "u" }])).toEqual({ "vars[0]": "update" });
    });

    test("the whole list is said to change when paths cannot say it", () => {
        // An item in another place on each side, as a path is one index for both.
        expect(changes([region, size], [{ ...size, value: "3" }, region])).toBeUndefined();
        expect(changes([region, size, token], [region, token])).toBeUndefined();
        // The same index both added and removed.
        expect(changes([region, size], [region, token])).toBeUndefined();
        // Not lists of items with known identities.
        expect(changes(undefined, [region])).toBeUndefined();
        expect(changes([region], UNKNOWN)).toBeUndefined();
        expect(changes([region], [region, UNKNOWN])).toBeUndefined();
        expect(changes([region], [{ ...region, key: UNKNOWN }])).toBeUndefined();
        expect(changes([region], [{ value: "x", category: "infra" }])).toBeUndefined();
        // An identity twice.
        expect(changes([region, region], [region, { ...region, value: "x" }])).toBeUndefined();
        expect(changes([region], [{ ...region, value: "x" }, region])).toBeUndefined();
        // An item whose identity is not known yet, wholly or in part, or is missing.
        expect(changes([region], [region, { key: UNKNOWN, value: "x", category: "infra" }])).toBeUndefined();
        expect(changes([region], [region, { key: "size", value: "x", category: UNKNOWN }])).toBeUndefined();
        expect(changes([region], [region, { value: "x", category: "infra" }])).toBeUndefined();
        expect(changes([region], [region, { key: null, value: "x", category: "infra" }])).toBeUndefined();
        // An identity twice on either side, even where each item would find a place.
        expect(changes([region, { ...region, value: "x" }], [size, { ...region, value: "x" }])).toBeUndefined();
        expect(changes([], [region, { ...region, value: "x" }])).toBeUndefined();
        // Nothing found to say: the handler's judgement stands for the whole list.
        expect(changes([region], [region])).toBeUndefined();
    });
});

describe("inProgramShape", () => {
    const LISTS = { vars: VARS };
    /** Judges as a handler would: defaults equal absence, anything else must be as read. */
    const sameAs = (read: Record<string, unknown>) => (candidate: Record<string, unknown>, property: string) => {
        const normal = (bag: Record<string, unknown>) =>
            JSON.stringify(
                property === "vars"
                    ? (bag.vars as Record<string, unknown>[]).map((item) => VARS.comparable!(item))
                    : (bag[property] ?? { description: "", autoApply: false }[property]),
            );
        return normal(candidate) === normal(read);
    };

    test("defaults the old inputs left out are left out again; values set outside are kept", () => {
        const old = { name: "site", vars: [region, { ...size, description: "Number" }] };
        const read = {
            name: "site",
            description: "",
            autoApply: true,
            vars: [
                { ...region, value: "us-east-1", hcl: false, sensitive: false, description: "" },
                { ...size, description: "Number", hcl: true, sensitive: false },
            ],
        };
        expect(inProgramShape(read, old, LISTS, sameAs(read))).toEqual({
            name: "site",
            autoApply: true,
            vars: [
                { ...region, value: "us-east-1" },
                { ...size, description: "Number", hcl: true },
            ],
        });
    });

    test("an item is matched to the old one by its identity, not its place; an item the old inputs lack is kept as read", () => {
        const old = { vars: [size, region] };
        const read = { vars: [{ ...region, hcl: false }, { ...size, hcl: false }, { ...token, hcl: false }] };
        expect(inProgramShape(read, old, LISTS, sameAs(read)).vars).toEqual([region, size, { ...token, hcl: false }]);
    });

    test("a field the old item had is kept, even at its default: the program wrote it", () => {
        const read = { vars: [{ ...region, hcl: false, sensitive: false }] };
        expect(inProgramShape(read, { vars: [{ ...region, hcl: false }] }, LISTS, sameAs(read)).vars).toEqual([{ ...region, hcl: false }]);
    });

    test("an old item matches only on every field of the identity, each given", () => {
        const read = { vars: [{ ...region, hcl: false }] };
        // The same key in another category is another var; an old item without a key matches nothing.
        expect(inProgramShape(read, { vars: [{ ...region, category: "env" }] }, LISTS, sameAs(read)).vars).toEqual(read.vars);
        const keyless = { vars: [{ category: "infra", value: "eu-west-1", hcl: false }] };
        expect(inProgramShape(keyless, { vars: [{ category: "infra", value: "eu-west-1" }] }, LISTS, sameAs(keyless)).vars).toEqual(keyless.vars);
    });

    test("a list without an identity, or secret as a whole, or an item secret as a whole, is left as read", () => {
        const read = { vars: [{ ...region, hcl: false }], other: [{ a: 1, b: false }] };
        expect(inProgramShape(read, { vars: [region], other: [{ a: 1 }] }, {}, () => true)).toEqual(read);
        const secretList = { vars: secret([{ ...region, hcl: false }]) };
        expect(inProgramShape(secretList, { vars: [region] }, LISTS, () => true)).toEqual(secretList);
        const secretItem = { vars: [secret({ ...region, hcl: false })] };
        expect(inProgramShape(secretItem, { vars: [region] }, LISTS, () => true)).toEqual(secretItem);
        expect(inProgramShape({ vars: [{ ...region, hcl: false }] }, { vars: [secret(region)] }, LISTS, () => true)).toEqual({ vars: [{ ...region, hcl: false }] });
    });
});
