/**
 * The helpers every resource handler shares (`provider/handlers/`: `inputChecks.ts`, `stateComparison.ts`, `tagMaps.ts`,
 * `plainOutputs.ts`, `operationErrors.ts`, `lostCreateRecovery.ts`): checks of properties, tag maps
 * and lists of objects, comparisons with state, plain outputs, the reading of SDK failures, the provider's
 * error and the recovery of a create whose answer was lost. The pure helpers are called directly with rules
 * and callbacks of the test's own; the paths that talk to the service go through the `wos:Project` handlers
 * against the real local service.
 */
import { z } from "zod";
import * as project from "../../provider/handlers/project";
import * as tagBindings from "../../provider/handlers/projectTagBindings";
import { type CheckFailure, inputFailures, objectList, tagMap, withRequiredReason } from "../../provider/handlers/inputChecks";
import { createRecoveringLostAnswer, isAmbiguousFailure, isTimeout, type RecoverableCreate, sleep } from "../../provider/handlers/lostCreateRecovery";
import { operationError, ProviderOperationError, safeMessage } from "../../provider/handlers/operationErrors";
import { plainOutputs } from "../../provider/handlers/plainOutputs";
import { differs, optionalText } from "../../provider/handlers/stateComparison";
import { tagMapSignature } from "../../provider/handlers/tagMaps";
import { containsUnknown } from "../../provider/handlers/unknownValues";
import { WosConnectionError, WosNotFoundError, WosServerError, WosValidationError } from "../../sdk/errors";
import type { Tag } from "../../sdk/model";
import { configureFor, projectsNamed, rejection, TOKEN, UNKNOWN, uniqueName, useServer } from "./helpers";

const server = useServer();

describe("containsUnknown", () => {
    it("finds an unknown value among known ones in an object, at any depth", () => {
        expect(containsUnknown({ known: "a", later: UNKNOWN })).toBe(true);
        expect(containsUnknown({ outer: { known: 1, later: UNKNOWN } })).toBe(true);
        expect(containsUnknown(["a", UNKNOWN])).toBe(true);
        expect(containsUnknown({ known: "a", also: ["b"] })).toBe(false);
        expect(containsUnknown(null)).toBe(false);
    });
});

describe("inputFailures: one property", () => {
    const rule = z.string().min(3);

    it.each([
        ["absent", {}],
        ["null", { name: null }],
    ])("lets an optional property that is %s pass without checking it against the rule", (_what, inputs) => {
        const failures: CheckFailure[] = inputFailures(z.object({ name: rule.optional() }), inputs);
        expect(failures).toEqual([]);
    });

    it("reports a required property that is null as required", () => {
        const failures: CheckFailure[] = inputFailures(z.object({ name: rule }), { name: null });
        expect(failures).toEqual([{ property: "name", reason: "name is required" }]);
    });
});

describe("tagMap", () => {
    /** Rules of the test's own: a value of at most 10 characters rejects Pulumi's unknown marker (36). */
    function rules(seen: Tag[][] = []) {
        return {
            key: z.string().min(1),
            value: z.string().max(10),
            set: (tags: readonly Tag[]) => {
                seen.push([...tags]);
                return [];
            },
        };
    }

    /** The failures of `inputs` whose `tags` is an optional tag map by `tagRules`. */
    function checkTags(inputs: Record<string, unknown>, tagRules = rules()): CheckFailure[] {
        return inputFailures(z.object({ tags: tagMap(tagRules).optional() }), inputs);
    }

    it.each([
        ["absent", {}],
        ["null", { tags: null }],
    ])("lets an optional map that is %s pass", (_what, inputs) => {
        const failures: CheckFailure[] = checkTags(inputs);
        expect(failures).toEqual([]);
    });

    it("through wos:ProjectTagBindings check: a required map that is null is reported as required", async () => {
        const failures = (await tagBindings.check({}, { projectId: "prj-abc", tags: null })).failures;
        expect(failures).toEqual([{ property: "tags", reason: "tags is required (a map of tag keys to values)" }]);
    });

    it.each([
        ["a string", "team=a"],
        ["a list", [{ key: "team", value: "a" }]],
        ["a number", 5],
    ])("refuses %s with one failure: it must be a map", (_what, tags) => {
        const failures: CheckFailure[] = checkTags({ tags });
        expect(failures).toEqual([{ property: "tags", reason: "tags must be a map of tag keys to string values" }]);
    });

    it("does not check an unknown value against the value rule", () => {
        const failures: CheckFailure[] = checkTags({ tags: { team: UNKNOWN, owner: "me" } });
        expect(failures).toEqual([]);
    });

    it("hands the set rules a value that is not a string as an empty value", () => {
        const seen: Tag[][] = [];
        const failures: CheckFailure[] = checkTags({ tags: { team: 5, owner: "me" } }, rules(seen));
        expect(failures).toHaveLength(1);
        expect(failures[0].reason).toMatch(/^tags: the value of tag 'team' /);
        expect(seen).toEqual([[{ key: "team", value: "" }, { key: "owner", value: "me" }]]);
    });

    it("still checks a known value against the value rule", () => {
        const failures: CheckFailure[] = checkTags({ tags: { team: "far-too-long-value" } });
        expect(failures).toHaveLength(1);
        expect(failures[0].reason).toMatch(/^tags: the value of tag 'team' /);
    });

    it("through wos:Project check: tags given as a string name the property and the rule", async () => {
        const result = await project.check({}, { organization: "acme", name: "Valid Name", tags: "team=a" });
        expect(result.failures).toEqual([{ property: "tags", reason: "tags must be a map of tag keys to string values" }]);
    });
});

describe("objectList", () => {
    const fields = {
        key: z.string().min(1).max(5),
        category: z.enum(["infra", "env"]),
        note: z.string().optional(),
    };
    const item = "vars ({ key, category, note? })";

    /** The failures of `inputs` whose `vars` is the list `list` (optional unless `required`). */
    function checkVars(inputs: Record<string, unknown>, list: z.ZodType, required = false): CheckFailure[] {
        const vars = required ? withRequiredReason(list, `vars is required (a list of ${item})`) : list.optional();
        return inputFailures(z.object({ vars }), inputs);
    }

    /** Runs the check and records the items the list rules saw. */
    function run(value: unknown, extra: { required?: boolean } = {}) {
        const seen: unknown[][] = [];
        const list = objectList({
            item,
            fields,
            identity: ["key", "category"],
            listProblems: (items) => {
                seen.push([...items]);
                return [];
            },
        });
        const failures = checkVars(value === undefined ? {} : { vars: value }, list, extra.required);
        return { failures, seen };
    }

    it.each([
        ["absent", undefined],
        ["null", null],
    ])("lets an optional list that is %s pass", (_what, value) => {
        expect(run(value).failures).toEqual([]);
    });

    it.each([
        ["absent", undefined],
        ["null", null],
    ])("reports a required list that is %s as required, saying what an item is", (_what, value) => {
        expect(run(value, { required: true }).failures).toEqual([
            { property: "vars", reason: "vars is required (a list of vars ({ key, category, note? }))" },
        ]);
    });

    it("refuses an item that is null, naming its index", () => {
        expect(run([{ key: "A", category: "env" }, null]).failures).toEqual([
            { property: "vars", reason: "vars[1] must be vars ({ key, category, note? })" },
        ]);
    });

    it("lists every allowed field when an item has an unknown one", () => {
        expect(run([{ key: "A", category: "env", color: "red" }]).failures).toEqual([
            { property: "vars", reason: "vars[0] has an unknown field 'color' (allowed: key, category, note)" },
        ]);
    });

    it("lets an optional field that is absent or null pass without checking it against its rule", () => {
        expect(run([{ key: "A", category: "env" }, { key: "B", category: "env", note: null }]).failures).toEqual([]);
    });

    it("reports a required field that is null as required, with its path", () => {
        expect(run([{ key: null, category: "env" }]).failures).toEqual([{ property: "vars", reason: "vars[0].key is required" }]);
    });

    it("does not check an unknown field, or one with an unknown part, against its rule", () => {
        const listed = objectList({ item, fields: { key: z.array(z.string().max(5)).optional() } });
        const failures: CheckFailure[] = [];
        failures.push(...checkVars({ vars: [{ key: UNKNOWN }, { key: ["a", UNKNOWN] }] }, listed));
        expect(failures).toEqual([]);
        // The same rule does refuse a known value that breaks it.
        failures.push(...checkVars({ vars: [{ key: ["far-too-long"] }] }, listed));
        expect(failures).toHaveLength(1);
        expect(failures[0].reason).toMatch(/^vars\[0\]\.key\[0\] /);
    });

    it("hands the list rules only the items whose identity fields are all known strings", () => {
        const items = [
            { key: "A", category: "env" },
            { key: UNKNOWN, category: "env" },
            { key: "B", category: UNKNOWN },
            { key: 5, category: "env" },
            { key: "C", category: "infra" },
        ];
        expect(run(items).seen).toEqual([[items[0], items[4]]]);
    });

    it("hands the list rules every item when no identity is given", () => {
        const seen: unknown[][] = [];
        const items = [{ key: "A", category: "env" }, { key: "B", category: "infra" }];
        const list = objectList({
            item,
            fields,
            listProblems: (known) => {
                seen.push([...known]);
                return [];
            },
        });
        checkVars({ vars: items }, list);
        expect(seen).toEqual([items]);
    });

    it("names a list problem by the item's index in the whole list, not among the known items", () => {
        const items = [{ key: UNKNOWN, category: "env" }, { key: "A", category: "env" }, { key: "A", category: "env" }];
        const list = objectList({
            item,
            fields,
            identity: ["key", "category"],
            // Index 1 among the known items is the third item; index 7 is past them and is named as given.
            listProblems: () => [
                { index: 0, message: "first" },
                { index: 1, message: "key 'A' is given twice" },
                { index: 7, message: "beyond" },
            ],
        });
        const failures: CheckFailure[] = checkVars({ vars: items }, list);
        expect(failures).toEqual([
            { property: "vars", reason: "vars[1]: first" },
            { property: "vars", reason: "vars[2]: key 'A' is given twice" },
            { property: "vars", reason: "vars[7]: beyond" },
        ]);
    });
});

describe("tagMapSignature and differs", () => {
    it("orders the entries by key, so that the order of a map does not count as a change", () => {
        expect(tagMapSignature({ b: "2", a: "1", c: "3" })).toEqual([
            ["a", "1"],
            ["b", "2"],
            ["c", "3"],
        ]);
        expect(tagMapSignature({ a: "1", b: "2" })).toEqual([
            ["a", "1"],
            ["b", "2"],
        ]);
        expect(differs({ b: "2", a: "1" }, { a: "1", b: "2" }, tagMapSignature)).toBe(false);
        expect(differs({ a: "1" }, { a: "2" }, tagMapSignature)).toBe(true);
    });

    it("answers what is not a map as it is, and an absent map as null", () => {
        expect(tagMapSignature(undefined)).toBeNull();
        expect(tagMapSignature(null)).toBeNull();
        expect(tagMapSignature("team=a")).toBe("team=a");
        expect(tagMapSignature(5)).toBe(5);
    });

    it("counts an unknown new value as a change even when the normalized values compare equal", () => {
        expect(differs("a", UNKNOWN, () => "same")).toBe(true);
        expect(differs({ x: "a" }, { x: UNKNOWN }, () => "same")).toBe(true);
        expect(differs("a", "b", () => "same")).toBe(false);
    });
});

describe("optionalText and plainOutputs", () => {
    it("reads undefined, null and the empty string as none (null), and keeps any other value", () => {
        expect(optionalText(undefined)).toBeNull();
        expect(optionalText(null)).toBeNull();
        expect(optionalText("")).toBeNull();
        expect(optionalText("text")).toBe("text");
        expect(differs(undefined, "", optionalText)).toBe(false);
        expect(differs(null, "x", optionalText)).toBe(true);
    });

    it("leaves out undefined and null outputs rather than setting them", () => {
        const outputs = plainOutputs({ a: "x", gone: null, never: undefined, when: new Date(0) });
        expect(Object.keys(outputs)).toEqual(["a", "when"]);
        expect(outputs).toStrictEqual({ a: "x", when: "1970-01-01T00:00:00.000Z" });
    });
});

describe("reading SDK failures", () => {
    const connection = (code?: string) => new WosConnectionError({ method: "POST", path: "/p", ...(code ? { code } : {}) });

    it("counts a lost connection and a 5xx as ambiguous, and a 4xx or any other error as definitive", () => {
        expect(isAmbiguousFailure(connection("ECONNRESET"))).toBe(true);
        expect(isAmbiguousFailure(new WosServerError({ method: "POST", path: "/p", status: 503 }))).toBe(true);
        expect(isAmbiguousFailure(new WosNotFoundError({ method: "POST", path: "/p", status: 404 }))).toBe(false);
        expect(isAmbiguousFailure(new WosValidationError({ method: "POST", path: "/p", status: 422 }))).toBe(false);
        expect(isAmbiguousFailure(new Error("boom"))).toBe(false);
    });

    it.each(["ETIMEDOUT", "ECONNABORTED", "ESOCKETTIMEDOUT"])("reads %s as a timeout", (code) => {
        expect(isTimeout(connection(code))).toBe(true);
    });

    it("reads other codes, no code and errors that are not the SDK's as no timeout", () => {
        expect(isTimeout(connection("ECONNRESET"))).toBe(false);
        expect(isTimeout(connection("ECONNREFUSED"))).toBe(false);
        expect(isTimeout(connection())).toBe(false);
        expect(isTimeout(new WosServerError({ method: "POST", path: "/p", status: 504 }))).toBe(false);
        expect(isTimeout(Object.assign(new Error("t"), { code: "ETIMEDOUT" }))).toBe(false);
    });

    it("sleep resolves", async () => {
        await expect(sleep(1)).resolves.toBeUndefined();
    });
});

describe("ProviderOperationError, safeMessage and operationError", () => {
    it("names itself as a non-enumerable name, as Error does", () => {
        const error = new ProviderOperationError("m");
        expect(error.name).toBe("ProviderOperationError");
        expect(String(error)).toBe("ProviderOperationError: m");
        expect(Object.getOwnPropertyDescriptor(error, "name")).toEqual({
            value: "ProviderOperationError",
            enumerable: false,
            configurable: true,
            writable: false,
        });
        expect(Object.keys(error)).not.toContain("name");
        expect(error.reasons).toBeUndefined();
    });

    it("carries a partial success's id, outputs with the serialized provider, and its message as the reason", () => {
        const error = new ProviderOperationError("kept", { id: "prj-1", properties: { name: "n" }, inputs: { __provider: "p" } });
        expect(error.id).toBe("prj-1");
        expect(error.properties).toEqual({ name: "n", __provider: "p" });
        expect(error.reasons).toEqual(["kept"]);
    });

    it("replaces the configured token in a message by [REDACTED]", async () => {
        await configureFor(server(), TOKEN);
        expect(safeMessage(new Error(`refused ${TOKEN} twice: ${TOKEN}`))).toBe("refused [REDACTED] twice: [REDACTED]");
        expect(safeMessage("plain")).toBe("plain");
    });

    it("passes a provider error through as it is, and wraps it anew only to add a partial success", () => {
        const inner = new ProviderOperationError("wos:X 'a': read failed: gone");
        expect(operationError("wos:Y", "update", inner)).toBe(inner);
        const partial = operationError("wos:Y", "update", inner, { id: "i", properties: {}, inputs: {} });
        expect(partial).not.toBe(inner);
        expect(partial.message).toBe("wos:Y: update failed: wos:X 'a': read failed: gone");
        expect(partial.id).toBe("i");
    });
});

describe("createRecoveringLostAnswer (with callbacks of the test's own)", () => {
    interface Thing {
        id: string;
    }
    const timeout = () => new WosConnectionError({ method: "POST", path: "/things", code: "ETIMEDOUT", message: "timed out" });
    const reset = () => new WosConnectionError({ method: "POST", path: "/things", code: "ECONNRESET", message: "reset" });

    /** A spec whose look-ups answer `lookups` in turn (the first is the look-up before the create). */
    function spec(failure: Error, lookups: (Thing | undefined | Error)[]): RecoverableCreate<Thing> & { calls: () => number } {
        let calls = 0;
        return {
            what: "wos:Thing 'a'",
            noun: "thing",
            inputs: { __provider: "p" },
            create: () => Promise.reject(failure),
            findByUniqueName: async () => {
                const answer = lookups[Math.min(calls, lookups.length - 1)];
                calls += 1;
                if (answer instanceof Error) throw answer;
                return answer;
            },
            finish: async (found) => found,
            outputs: (thing) => ({ id: thing.id }),
            partialOutputs: (thing) => ({ id: thing.id }),
            calls: () => calls,
        };
    }

    it("names the create when the look-up before it fails", async () => {
        const failing = spec(reset(), [new Error("lookup refused")]);
        const error = await rejection(createRecoveringLostAnswer(failing));
        expect(error.message).toBe("wos:Thing 'a': create failed: lookup refused");
    });

    it("reports a definitive refusal as it is, even when a resource of that name shows up afterwards", async () => {
        const refused = new WosValidationError({ method: "POST", path: "/things", status: 422, message: "name taken" });
        const error = await rejection(createRecoveringLostAnswer(spec(refused, [undefined, { id: "t-1" }])));
        expect(error.message).toBe("wos:Thing 'a': create failed: name taken");
        expect((error as ProviderOperationError).id).toBeUndefined();
    });

    it("after a timeout, looks at once and takes what it finds", async () => {
        const found = spec(timeout(), [undefined, { id: "t-1" }, undefined]);
        await expect(createRecoveringLostAnswer(found)).resolves.toEqual({ id: "t-1", outs: { id: "t-1" } });
        expect(found.calls()).toBe(2);
    });

    it("says that the look-up after a lost answer failed, with both reasons", async () => {
        const error = await rejection(createRecoveringLostAnswer(spec(reset(), [undefined, new Error("lookup down")])));
        expect(error.message).toBe(
            "wos:Thing 'a': create failed: reset; the service may have made the thing, and looking it up failed: lookup down",
        );
    });

    it("after a timeout, pauses 500, 1500 and 3000 ms between the later look-ups, and stops at the first find", async () => {
        jest.useFakeTimers();
        try {
            const later = spec(timeout(), [undefined, undefined, undefined, { id: "t-2" }]);
            const result = createRecoveringLostAnswer(later);
            const settled = jest.fn();
            result.then(settled, settled);
            const flush = async () => {
                for (let i = 0; i < 20; i += 1) await Promise.resolve();
            };
            await flush();
            // The look-up before the create and the first after it, with no pause (no timer) between them.
            expect(later.calls()).toBe(2);
            await jest.advanceTimersByTimeAsync(499);
            expect(later.calls()).toBe(2);
            await jest.advanceTimersByTimeAsync(1);
            expect(later.calls()).toBe(3);
            await jest.advanceTimersByTimeAsync(1499);
            expect(later.calls()).toBe(3);
            await jest.advanceTimersByTimeAsync(1);
            expect(later.calls()).toBe(4);
            await flush();
            expect(settled).toHaveBeenCalledWith({ id: "t-2", outs: { id: "t-2" } });
            await jest.advanceTimersByTimeAsync(10_000);
            expect(later.calls()).toBe(4);
        } finally {
            jest.useRealTimers();
        }
    });

    it("after a lost answer that is no timeout, looks once only", async () => {
        const once = spec(reset(), [undefined, undefined, { id: "t-3" }]);
        const error = await rejection(createRecoveringLostAnswer(once));
        expect(error.message).toBe("wos:Thing 'a': create failed: reset");
        expect(once.calls()).toBe(2);
    });
});

describe("createRecoveringLostAnswer through wos:Project against the service", () => {
    it("names the create when the look-up before it is refused, and makes nothing", async () => {
        const name = uniqueName("PreLookup");
        await server().addFault({ method: "GET", path: "^/api/v2/organizations/acme/projects$", times: 1, status: 403 });
        const inputs = (await project.check({}, { organization: "acme", name })).inputs as Record<string, unknown>;
        const error = await rejection(project.create(inputs));
        expect(error.message).toMatch(new RegExp(`^wos:Project '${name}' in organization 'acme': create failed: `));
        expect(await projectsNamed(server(), name)).toEqual([]);
    });

    it("reports a 4xx answer as the failure, without taking over the project it finds by that name", async () => {
        const name = uniqueName("Refused");
        // The service makes the project and then answers 422: a refusal is definitive, so nothing is looked up.
        await server().addFault({ method: "POST", path: "^/api/v2/organizations/acme/projects$", times: 1, status: 422, afterCommit: true });
        const inputs = (await project.check({}, { organization: "acme", name })).inputs as Record<string, unknown>;
        const error = (await rejection(project.create(inputs))) as ProviderOperationError;
        expect(error.message).toMatch(new RegExp(`^wos:Project '${name}' in organization 'acme': create failed: `));
        expect(error.id).toBeUndefined();
        expect(await projectsNamed(server(), name)).toHaveLength(1);
    });
});
