import { inputPathOf } from "../../provider/handlers/inputPaths";

describe("inputPathOf: the resource input a service pointer stands for", () => {
    test.each([
        ["/data/attributes/name", "name"],
        ["/data/attributes/auto-destroy-activity-duration", "autoDestroyActivityDuration"],
        ["/data/attributes/version-pin", "versionPin"],
        ["/data/relationships/vars/data/1/attributes/key", "vars[1].key"],
        ["/data/relationships/vars/data/0", "vars[0]"],
        ["/data/relationships/vars", "vars"],
        ["/data/relationships/variable-options/data/2/attributes/variable-name", "variableOptions[2].variableName"],
        ["/data/relationships/tag-bindings/data/10/attributes/value", "tags[10].value"],
        ["/data/relationships/project/data/id", "projectId"],
        ["/data/relationships/agent-pool/data/id", "agentPoolId"],
    ])("%s is %s", (pointer, input) => {
        expect(inputPathOf(pointer)).toBe(input);
    });

    test.each(["/data/type", "/data/0/attributes/key", "/data", ""])("%j, which names no input, is said as it is", (pointer) => {
        expect(inputPathOf(pointer)).toBe(pointer);
    });
});
