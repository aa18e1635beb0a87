/**
 * The client's reading of a registry module resource (`sdk/model/registryModule.ts`), called directly with
 * wire documents: which field wins where the hosted service and the local service answer differently, and
 * the values of what an answer leaves out.
 */
import { registryModuleSchema } from "../../sdk/model/registryModule";

const READ = registryModuleSchema();

/** A registry module resource with `attributes` and `relationships` as given. */
function resource(attributes: Record<string, unknown>, relationships?: Record<string, unknown>) {
    return { id: "mod-abc", type: "registry-modules", attributes: { name: "bucket", provider: "aws", ...attributes }, ...(relationships ? { relationships } : {}) };
}

describe("registryModuleSchema", () => {
    it("reads every field of a complete answer; the organization relationship wins over the namespace", () => {
        const module = READ.parse(
            resource(
                { namespace: "namespace-org", "no-code": true },
                {
                    organization: { data: { id: "relationship-org", type: "organizations" } },
                    "no-code-modules": { data: [{ id: "nocode-1", type: "no-code-modules" }] },
                },
            ),
        );
        expect(module).toEqual({
            id: "mod-abc",
            name: "bucket",
            provider: "aws",
            organization: "relationship-org",
            noCodeReady: true,
            noCodeModuleIds: ["nocode-1"],
        });
    });

    it("without the relationship the namespace names the organization", () => {
        expect(READ.parse(resource({ namespace: "acme" })).organization).toBe("acme");
        expect(READ.parse(resource({ namespace: "acme" }, { organization: { data: null } })).organization).toBe("acme");
    });

    it("with neither, the organization is empty; without `no-code` the module is not ready; no relationship means no no-code module", () => {
        const module = READ.parse(resource({}));
        expect(module.organization).toBe("");
        expect(module.noCodeReady).toBe(false);
        expect(module.noCodeModuleIds).toEqual([]);
        expect(READ.parse(resource({ "no-code": false })).noCodeReady).toBe(false);
        expect(READ.parse(resource({}, { "no-code-modules": { data: null } })).noCodeModuleIds).toEqual([]);
    });

    it("refuses an answer of another type or without a name", () => {
        expect(READ.safeParse({ ...resource({}), type: "workspaces" }).success).toBe(false);
        expect(READ.safeParse({ id: "mod-abc", type: "registry-modules", attributes: { provider: "aws" } }).success).toBe(false);
    });
});
