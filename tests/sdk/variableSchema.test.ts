/**
 * The client's reading of a variable resource (`sdk/model/variable.ts` `variableSchema`), called directly
 * with wire documents: the API's defaults for what an answer leaves out, and a sensitive value never read.
 */
import { variableSchema } from "../../sdk/model/variable";

const READ = variableSchema();

describe("variableSchema", () => {
    it("reads every field of a complete answer", () => {
        const variable = READ.parse({
            id: "var-1",
            type: "vars",
            attributes: { key: "REGION", value: "eu", description: "where", category: "env", hcl: true, sensitive: false },
            relationships: { configurable: { data: { id: "ws-1", type: "workspaces" } } },
            links: { self: "/api/v2/vars/var-1" },
        });
        expect(variable).toEqual({ id: "var-1", key: "REGION", value: "eu", description: "where", category: "env", hcl: true, sensitive: false, workspaceId: "ws-1" });
    });

    it("what an answer leaves out: an empty value, no description, not HCL, not sensitive, no workspace", () => {
        const variable = READ.parse({ id: "var-2", type: "vars", attributes: { key: "K", category: "infra" } });
        expect(variable).toEqual({ id: "var-2", key: "K", value: "", description: null, category: "infra", hcl: false, sensitive: false, workspaceId: "" });
    });

    it("a sensitive variable's value is null, whatever the answer holds", () => {
        const variable = READ.parse({ id: "var-3", type: "vars", attributes: { key: "T", value: "leaked?", category: "env", sensitive: true } });
        expect(variable.value).toBeNull();
        expect(variable.sensitive).toBe(true);
    });

    it("refuses an answer whose links are not an object of text", () => {
        expect(READ.safeParse({ id: "var-4", type: "vars", attributes: { key: "K", category: "env" }, links: { self: 7 } }).success).toBe(false);
    });
});
