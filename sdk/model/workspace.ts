/**
 * Workspaces: the `GET`/`PATCH`/`DELETE /workspaces/:id` endpoints, which the hosted service offers though the
 * service's API does not list them, and the workspace resource every workspace response carries.
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
import { countedListDocumentSchema, countedPageFromWire, statusCountsSchema, toOneRelationshipSchema, type CountedPage } from "./jsonapi";

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

/** A value of {@link WORKSPACE_FIXED_ATTRIBUTES}: the only lists among them are empty. */
type FixedValue = boolean | null | readonly [];

/** Whether `given` is the fixed value `expected`: the same boolean or null, or, for `[]`, an empty list. */
function sameValue(given: unknown, expected: FixedValue): boolean {
    if (Array.isArray(expected)) return Array.isArray(given) && given.length === 0;
    return given === expected;
}

/**
 * A hosted attribute that has one value here ({@link WORKSPACE_FIXED_ATTRIBUTES}): that value, or a refusal
 * saying so. The values are booleans, `null` and `[]`, which JSON writes as a request would.
 */
function fixedAttributeRule(value: FixedValue) {
    const shown = JSON.stringify(value);
    return z
        .unknown()
        .refine((given) => sameValue(given, value), {
            error: `must be ${shown} on this service, which has no such setting (every workspace has ${shown}); leave it out or send ${shown}`,
        })
        // The refinement as JSON Schema, for the OpenAPI description.
        .meta({ const: value });
}

/**
 * The attributes of a hosted workspace write (create or update) that this service knows, all optional: those
 * it applies (description, auto-apply, execution settings, source), {@link WORKSPACE_FIXED_ATTRIBUTES}
 * accepted at their one value, and {@link WORKSPACE_STORED_ATTRIBUTES}, `vcs-repo` and `setting-overwrites`,
 * which the server judges against the workspace as the write leaves it (pytfe sends `vcs-repo: {}` and
 * `setting-overwrites: {}` on every update, and `type` among the attributes). `name` is the caller's.
 */
function hostedWorkspaceAttributes() {
    const fixed = Object.fromEntries(
        Object.entries(WORKSPACE_FIXED_ATTRIBUTES).map(([name, value]) => [name, fixedAttributeRule(value).optional()]),
    );
    const stored = Object.fromEntries(WORKSPACE_STORED_ATTRIBUTES.map((name) => [name, z.unknown().optional()]));
    return {
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
    };
}

/**
 * The relationships of a hosted workspace write: `project` (`projects`, or `project` as the service's API
 * spells it for no-code workspaces) and `tag-bindings` (which must be empty: tags are bound to projects here).
 */
function hostedWorkspaceRelationships() {
    return z
        .object({
            project: z
                .object({
                    data: z.object(
                        {
                            type: z.enum(["projects", "project"], { error: "must be 'projects'" }),
                            // An empty id gets the same words: a schema's `error` also words its checks (zod 4).
                            id: z.string({ error: "must be a project id" }).min(1),
                        },
                        { error: "must be a project ({ type: 'projects', id }): a workspace always belongs to a project" },
                    ),
                })
                .optional(),
            "tag-bindings": z.object({ data: z.array(z.unknown(), { error: "must be a list of tag bindings" }) }).optional(),
        })
        .optional();
}

/**
 * Body of `PATCH /workspaces/:id`: name, description, auto-apply, execution settings and source, and
 * `relationships.project`, which moves the workspace. Every attribute of the hosted service's update is
 * known ({@link hostedWorkspaceAttributes}), and relationships `project` and `tag-bindings`. Members no
 * hosted update has are ignored, as the hosted service ignores them.
 */
export function updateWorkspaceRequestSchema() {
    return z.object({
        data: z.object({
            type: z.literal("workspaces", { error: "must be 'workspaces'" }),
            id: z.string().optional(),
            attributes: z
                .object({
                    name: workspaceNameRule().optional(),
                    ...hostedWorkspaceAttributes(),
                })
                .optional(),
            relationships: hostedWorkspaceRelationships(),
        }),
    });
}

/**
 * Body of `POST /organizations/:org/workspaces`, the hosted service's create: a name (required), the
 * attributes of an update ({@link hostedWorkspaceAttributes}: applied, accepted at their one value, or
 * judged by the server against the new workspace), and `relationships.project` (default: the
 * organization's `Default Project`). Members no hosted create has are ignored.
 */
export function createWorkspaceRequestSchema() {
    return z.object({
        data: z.object({
            type: z.literal("workspaces", { error: "must be 'workspaces'" }),
            attributes: z.object(
                {
                    name: workspaceNameRule(),
                    ...hostedWorkspaceAttributes(),
                },
                { error: "must be an object with at least a name" },
            ),
            relationships: hostedWorkspaceRelationships(),
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
            source: z.string().nullable().optional(),
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
                organization: toOneRelationshipSchema().optional(),
                project: toOneRelationshipSchema().optional(),
                "agent-pool": toOneRelationshipSchema().optional(),
                "no-code-module-version": toOneRelationshipSchema().optional(),
            })
            .optional(),
        // `links` is not read: a workspace is always addressed by its id.
    });
}

/** A workspace resource parsed into client terms ({@link Workspace}). */
export function workspaceSchema() {
    return workspaceResourceSchema().transform(workspaceFromWire);
}

// An interface carries the TSDoc of the fields, which a type inferred from the parsing function would not
// carry into the published `.d.ts` (see `jsonapi.ts`).

/** A workspace in client terms: what `workspaceSchema` makes of a workspace resource. */
export interface Workspace {
    /** `ws-...` */
    id: string;
    /** The workspace's name, unique in its organization. */
    name: string;
    /** The description; `null` when none is set. */
    description: string | null;
    /** Whether a successful plan is applied without a confirm. */
    autoApply: boolean;
    /** Where its runs execute: `remote` (on the service) or `agent` (on {@link Workspace.agentPoolId}). */
    executionMode: ExecutionMode;
    /** Set when {@link Workspace.executionMode} is `agent`. */
    agentPoolId: string | null;
    /** How the workspace was made: `tfe-api` (the API or a seed) or `tfe-module` (a no-code module); `null` when the answer does not say. */
    source: string | null;
    /** The application shown as having made the workspace; `null` when none. */
    sourceName: string | null;
    /** A URL of that application; `null` when none. */
    sourceUrl: string | null;
    /** The registry module (`mod-…`) of the no-code module the workspace was created from, if any. */
    sourceModuleId: string | null;
    /** Whether its no-code module has a newer version than the one the workspace runs (an upgrade is possible). */
    noCodeUpgradeAvailable: boolean;
    /** The no-code module version (`nocodever-...`) the workspace runs; `null` for a workspace not made from one. */
    noCodeModuleVersionId: string | null;
    /** `prj-...`; `""` when the answer does not name it. */
    projectId: string;
    /** The organization's name; `""` when the answer does not name it. */
    organization: string;
    /** The names of the workspace's own tags (a workspace's effective tags are its project's). */
    tagNames: string[];
    /** Inactivity after which the workspace is destroyed (`14d`, `12h`); `null` when none. */
    autoDestroyActivityDuration: string | null;
}

/** {@link Workspace} from the wire shape of {@link workspaceResourceSchema}; what the answer leaves out reads as its default. */
export function workspaceFromWire(wire: z.output<ReturnType<typeof workspaceResourceSchema>>) {
    const attributes = wire.attributes;
    const relationships = wire.relationships;
    return {
        id: wire.id,
        name: attributes.name,
        description: attributes.description ?? null,
        autoApply: attributes["auto-apply"] ?? false,
        executionMode: (attributes["execution-mode"] ?? "remote") as ExecutionMode,
        agentPoolId: relationships?.["agent-pool"]?.data?.id ?? null,
        source: attributes.source ?? null,
        sourceName: attributes["source-name"] ?? null,
        sourceUrl: attributes["source-url"] ?? null,
        sourceModuleId: attributes["source-module-id"] ?? null,
        noCodeUpgradeAvailable: attributes["no-code-upgrade-available"] ?? false,
        noCodeModuleVersionId: relationships?.["no-code-module-version"]?.data?.id ?? null,
        projectId: relationships?.project?.data?.id ?? "",
        organization: relationships?.organization?.data?.id ?? "",
        tagNames: attributes["tag-names"] ?? [],
        autoDestroyActivityDuration: attributes["auto-destroy-activity-duration"] ?? null,
    };
}

/** Wire shape of `GET /organizations/:org/workspaces`. */
export function workspaceListDocumentSchema() {
    // The hosted service adds counts of current-run statuses to `status-counts`; only `total` and `matching`
    // are read, and an answer without them (or with counts of another shape) is not refused.
    return countedListDocumentSchema(workspaceResourceSchema(), statusCountsSchema().catch(undefined));
}

/** One page of the workspace list parsed into client terms ({@link WorkspaceList}). */
export function workspaceListSchema() {
    return workspaceListDocumentSchema().transform((document) => countedPageFromWire(document, workspaceFromWire));
}

/** One page of workspaces: what `workspaceListSchema` makes of a list answer. */
export interface WorkspaceList extends CountedPage<Workspace> {}
