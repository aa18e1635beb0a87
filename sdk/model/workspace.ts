/**
 * Workspaces: the `GET`/`PATCH`/`DELETE /workspaces/:id` endpoints the hosted service offers beside
 * `api.md`, and the workspace resource every workspace response carries.
 */
import { z } from "zod";
import {
    booleanRule,
    executionModeRule,
    workspaceDescriptionRule,
    workspaceNameRule,
    workspaceSourceNameRule,
    workspaceSourceUrlRule,
    type ExecutionMode,
} from "./rules";
import { toOneRelationshipSchema } from "./jsonapi";

/**
 * Attributes of the hosted service's workspace update that a workspace here does not hold as settings. Each
 * has one value on this service: the one every workspace answers (`allow-destroy-plan: true`, ...), or the
 * hosted default for those it does not answer. `PATCH /workspaces/:id` accepts that value, which changes
 * nothing, and refuses any other (422 naming the attribute): a setting the hosted service would apply is
 * never dropped in silence.
 */
export const WORKSPACE_FIXED_ATTRIBUTES = {
    "allow-destroy-plan": true,
    "assessments-enabled": false,
    "auto-apply-run-trigger": false,
    "auto-destroy-at": null,
    "file-triggers-enabled": true,
    "global-remote-state": false,
    "hyok-enabled": false,
    // Every workspace here follows its project's auto-destroy duration.
    "inherits-project-auto-destroy": true,
    // The deprecated form of `execution-mode`: `true` is remote or agent execution, `false` local (none here).
    operations: true,
    "project-remote-state": false,
    "queue-all-runs": false,
    "speculative-enabled": true,
    "structured-run-output-enabled": true,
    "trigger-patterns": [],
    "trigger-prefixes": [],
} as const;

/**
 * Attributes of the hosted service's workspace update whose value a workspace here has but that no request
 * changes: accepted when they equal the workspace's value (`null` and `""` alike), refused otherwise.
 * `terraform-version` is the hosted name of `infra-version`.
 */
export const WORKSPACE_STORED_ATTRIBUTES = [
    "auto-destroy-activity-duration",
    "infra-version",
    "terraform-version",
    "working-directory",
] as const;

/** Whether `given` is `expected`: equal primitives, or arrays of them in the same order (small values only). */
function sameValue(given: unknown, expected: unknown): boolean {
    if (Array.isArray(expected)) {
        return Array.isArray(given) && given.length === expected.length && given.every((item, index) => item === expected[index]);
    }
    return given === expected;
}

/** `'remote'`, `true`, `null`, `[]`: a value as a detail shows it. */
function shown(value: unknown): string {
    return typeof value === "string" ? `'${value}'` : JSON.stringify(value);
}

/** A hosted attribute that has one value here ({@link WORKSPACE_FIXED_ATTRIBUTES}): that value, or a refusal saying so. */
function fixedAttributeRule(value: unknown) {
    return z.unknown().refine((given) => sameValue(given, value), {
        error: `must be ${shown(value)} on this service, which has no such setting (every workspace has ${shown(value)}); leave it out or send ${shown(value)}`,
    });
}

/**
 * Body of `PATCH /workspaces/:id`: name, description, auto-apply, execution settings and source, and
 * `relationships.project`, which moves the workspace. Every attribute of the hosted service's update is
 * known: those above are applied, {@link WORKSPACE_FIXED_ATTRIBUTES} accepted at their one value,
 * {@link WORKSPACE_STORED_ATTRIBUTES}, `vcs-repo` and `setting-overwrites` judged by the server against the
 * workspace (pytfe sends `vcs-repo: {}` and `setting-overwrites: {}` on every update, and `type` among the
 * attributes), and relationships `project` and `tag-bindings` (which must be empty: tags are bound to
 * projects here). Members no hosted update has are ignored, as the hosted service ignores them.
 */
export function updateWorkspaceRequestSchema() {
    const fixed = Object.fromEntries(
        Object.entries(WORKSPACE_FIXED_ATTRIBUTES).map(([name, value]) => [name, fixedAttributeRule(value).optional()]),
    );
    const stored = Object.fromEntries(WORKSPACE_STORED_ATTRIBUTES.map((name) => [name, z.unknown().optional()]));
    return z.object({
        data: z.object({
            type: z.literal("workspaces", { error: "must be 'workspaces'" }),
            id: z.string().optional(),
            attributes: z
                .object({
                    name: workspaceNameRule().optional(),
                    description: workspaceDescriptionRule().nullable().optional(),
                    "auto-apply": booleanRule().optional(),
                    "execution-mode": executionModeRule().optional(),
                    "agent-pool-id": z.string({ error: "must be an agent pool id" }).nullable().optional(),
                    "source-name": workspaceSourceNameRule().nullable().optional(),
                    "source-url": workspaceSourceUrlRule().nullable().optional(),
                    // pytfe puts the resource type among the attributes too.
                    type: z.literal("workspaces", { error: "must be 'workspaces' (the resource type) when given" }).optional(),
                    "vcs-repo": z.unknown().optional(),
                    "setting-overwrites": z
                        .object(
                            {
                                "execution-mode": booleanRule().optional(),
                                "agent-pool": booleanRule().optional(),
                            },
                            { error: "must be an object of booleans 'execution-mode' and 'agent-pool'" },
                        )
                        .optional(),
                    ...fixed,
                    ...stored,
                })
                .optional(),
            relationships: z
                .object({
                    project: z
                        .object({
                            data: z.object(
                                {
                                    type: z.enum(["projects", "project"], { error: "must be 'projects'" }),
                                    id: z.string({ error: "must be a project id" }).min(1, { error: "must be a project id" }),
                                },
                                { error: "must be a project ({ type: 'projects', id }): a workspace always belongs to a project" },
                            ),
                        })
                        .optional(),
                    "tag-bindings": z.object({ data: z.array(z.unknown(), { error: "must be a list of tag bindings" }) }).optional(),
                })
                .optional(),
        }),
    });
}

/** Wire shape of a workspace resource: the attributes the client relies on; the rest pass untouched. */
export function workspaceResourceSchema() {
    return z.object({
        id: z.string(),
        type: z.literal("workspaces"),
        attributes: z.object({
            name: z.string(),
            description: z.string().nullable().optional(),
            "auto-apply": z.boolean().optional(),
            "execution-mode": z.string().optional(),
            "source-name": z.string().nullable().optional(),
            "source-url": z.string().nullable().optional(),
            "source-module-id": z.string().nullable().optional(),
            "no-code-upgrade-available": z.boolean().optional(),
            "tag-names": z.array(z.string()).optional(),
            "auto-destroy-activity-duration": z.string().nullable().optional(),
            "created-at": z.string().optional(),
            "updated-at": z.string().optional(),
        }),
        relationships: z
            .object({
                organization: toOneRelationshipSchema("organizations").optional(),
                project: toOneRelationshipSchema("projects").optional(),
                "agent-pool": toOneRelationshipSchema("agent-pools").optional(),
                "no-code-module-version": toOneRelationshipSchema("no-code-module-versions").optional(),
            })
            .optional(),
        links: z.object({ self: z.string().optional(), "self-html": z.string().optional() }).optional(),
    });
}

/** A workspace resource parsed into client terms ({@link Workspace}). */
export function workspaceSchema() {
    return workspaceResourceSchema().transform(workspaceFromWire);
}

/** A workspace in client terms: what {@link workspaceSchema} makes of a workspace resource. */
export type Workspace = z.output<ReturnType<typeof workspaceSchema>>;

/** {@link Workspace} from the wire shape of {@link workspaceResourceSchema}; what the answer leaves out reads as its default. */
export function workspaceFromWire(wire: z.output<ReturnType<typeof workspaceResourceSchema>>) {
    const attributes = wire.attributes;
    const relationships = wire.relationships;
    return {
        /** `ws-...` */
        id: wire.id,
        name: attributes.name,
        description: attributes.description ?? null,
        autoApply: attributes["auto-apply"] ?? false,
        executionMode: (attributes["execution-mode"] ?? "remote") as ExecutionMode,
        /** Set when {@link Workspace.executionMode} is `agent`. */
        agentPoolId: relationships?.["agent-pool"]?.data?.id ?? null,
        sourceName: attributes["source-name"] ?? null,
        sourceUrl: attributes["source-url"] ?? null,
        /** The no-code module the workspace was created from, if any. */
        sourceModuleId: attributes["source-module-id"] ?? null,
        noCodeUpgradeAvailable: attributes["no-code-upgrade-available"] ?? false,
        noCodeModuleVersionId: relationships?.["no-code-module-version"]?.data?.id ?? null,
        /** `prj-...`; `""` when the answer does not name it. */
        projectId: relationships?.project?.data?.id ?? "",
        /** The organization's name; `""` when the answer does not name it. */
        organization: relationships?.organization?.data?.id ?? "",
        tagNames: attributes["tag-names"] ?? [],
        autoDestroyActivityDuration: attributes["auto-destroy-activity-duration"] ?? null,
    };
}
