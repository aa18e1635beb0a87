import { inputPathOf } from "../../provider/handlers/inputPaths";

describe("inputPathOf: the resource input a service pointer stands for", () => {
    test.each([
        ["/data/attributes/name", "name"],
        ["/data/attributes/auto-destroy-activity-duration", "autoDestroyActivityDuration"],
        ["/data/attributes/version-pin", "versionPin"],
        ["/data/relationships/vars/data/1/attributes/key", "vars[1].key"],
        ["/data/relationships/vars/data/0", "vars[0]"],
        ["/data/relationships/vars", "vars"],
        ["/data/relationships/tag-bindings", "tags"],
        ["/data/relationships/variable-options", "variableOptions"],
        ["/data/relationships/workspace-moves", "workspaceMoves"],
        ["/data/relationships/variable-options/data/2/attributes/variable-name", "variableOptions[2].variableName"],
        ["/data/relationships/tag-bindings/data/10/attributes/value", "tags[10].value"],
        ["/data/relationships/project/data/id", "projectId"],
        ["/data/relationships/agent-pool/data/id", "agentPoolId"],
    ])("%s is %s", (pointer, input) => {
        expect(inputPathOf(pointer)).toBe(input);
    });

    // A pointer that only holds one of the shapes above, with more before or after it, names no input either.
    test.each([
        "/data/type",
        "/data/0/attributes/key",
        "/data",
        "",
        "/included/0/data/attributes/name",
        "/data/attributes/name/0",
        "/included/0/data/relationships/vars/data/1/attributes/key",
        "/data/relationships/vars/data/1/attributes/key/0",
        "/data/relationships/vars/data/1/meta",
        "/included/0/data/relationships/vars",
        "/data/relationships/vars/links",
        "/included/0/data/relationships/project/data/id",
        "/data/relationships/project/data/id/0",
    ])("%j, which names no input, is said as it is", (pointer) => {
        expect(inputPathOf(pointer)).toBe(pointer);
    });
});
