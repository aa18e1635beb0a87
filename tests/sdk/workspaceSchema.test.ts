/**
 * The client's reading of a workspace answer (`sdk/model/workspace.ts`), called directly with wire
 * documents: every field of a complete answer, and the default each field reads as when an answer leaves it
 * out or gives `null` (the hosted service and older services leave many out).
 */
import { workspaceSchema } from "../../sdk/model/workspace";

const READ = workspaceSchema();

/** The client's workspace when the answer carries nothing but an id and a name. */
const DEFAULTS = {
    id: "ws-1",
    name: "web",
    description: null,
    autoApply: false,
    executionMode: "remote",
    agentPoolId: null,
    source: null,
    sourceName: null,
    sourceUrl: null,
    sourceModuleId: null,
    noCodeUpgradeAvailable: false,
    noCodeModuleVersionId: null,
    projectId: "",
    organization: "",
    tagNames: [],
    autoDestroyActivityDuration: null,
};

describe("workspaceSchema", () => {
    test("a complete answer: every field", () => {
        expect(
            READ.parse({
                id: "ws-1",
                type: "workspaces",
                attributes: {
                    name: "web",
                    description: "the web app",
                    "auto-apply": true,
                    "execution-mode": "agent",
                    source: "tfe-module",
                    "source-name": "portal",
                    "source-url": "https://portal.example/ws/web",
                    "source-module-id": "nocode-1",
                    "no-code-upgrade-available": true,
                    "tag-names": ["a", "b"],
                    "auto-destroy-activity-duration": "14d",
                    "created-at": "2026-01-01T00:00:00Z",
                    "updated-at": "2026-01-02T00:00:00Z",
                    // Attributes the client does not read pass untouched.
                    "allow-destroy-plan": true,
                },
                relationships: {
                    organization: { data: { id: "acme", type: "organizations" } },
                    project: { data: { id: "prj-1", type: "projects" } },
                    "agent-pool": { data: { id: "apool-1", type: "agent-pools" } },
                    "no-code-module-version": { data: { id: "nocodever-1", type: "no-code-module-versions" } },
                },
                links: { self: "/api/v2/workspaces/ws-1", "self-html": "/app/acme/workspaces/web" },
            }),
        ).toStrictEqual({
            id: "ws-1",
            name: "web",
            description: "the web app",
            autoApply: true,
            executionMode: "agent",
            agentPoolId: "apool-1",
            source: "tfe-module",
            sourceName: "portal",
            sourceUrl: "https://portal.example/ws/web",
            sourceModuleId: "nocode-1",
            noCodeUpgradeAvailable: true,
            noCodeModuleVersionId: "nocodever-1",
            projectId: "prj-1",
            organization: "acme",
            tagNames: ["a", "b"],
            autoDestroyActivityDuration: "14d",
        });
    });

    test("an answer with only a name reads as the defaults", () => {
        expect(READ.parse({ id: "ws-1", type: "workspaces", attributes: { name: "web" } })).toStrictEqual(DEFAULTS);
    });

    test("nulls and relationships without data read as the defaults too", () => {
        expect(
            READ.parse({
                id: "ws-1",
                type: "workspaces",
                attributes: {
                    name: "web",
                    description: null,
                    source: null,
                    "source-name": null,
                    "source-url": null,
                    "source-module-id": null,
                    "auto-destroy-activity-duration": null,
                },
                relationships: {
                    organization: { data: null },
                    project: { data: null },
                    "agent-pool": { data: null },
                    "no-code-module-version": { data: null },
                },
            }),
        ).toStrictEqual(DEFAULTS);
    });

    test("false and empty values given are kept as given", () => {
        expect(
            READ.parse({ id: "ws-1", type: "workspaces", attributes: { name: "web", "auto-apply": false, "execution-mode": "remote", description: "", "tag-names": [] } }),
        ).toStrictEqual({ ...DEFAULTS, description: "" });
    });

    test("a resource of another type is refused", () => {
        expect(READ.safeParse({ id: "prj-1", type: "projects", attributes: { name: "web" } }).success).toBe(false);
    });
});
