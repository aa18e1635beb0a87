/**
 * The real logic of the `wos:ProjectTagBindings` dynamic resource: a set of tag keys bound to a project,
 * managed key by key. It owns only the keys it lists: bindings it does not list, made by people or by
 * other programs, are left alone. Called by the thin shell in `provider/projectTagBindings.ts` through
 * `require("pulumi-wos/dist/provider/handlers/projectTagBindings")`, a stable module path.
 *
 * Writing uses the upsert-only `PATCH /projects/:id/tag-bindings`; removing keys (the service has no
 * call for that) uses the project PATCH with the project's whole set minus those keys.
 *
 * @module
 */
import type * as dynamic from "@pulumi/pulumi/dynamic";
import { z } from "zod";
import type { WosClient } from "../../sdk";
import { idRule, tagKeyRule, tagSetProblems, tagValueRule, type Tag } from "../../sdk/model";
import { clientFromCredentials } from "./credentials";
import { inputFailures, tagMap, withRequiredReason } from "./inputChecks";
import { operationError } from "./operationErrors";
import { plainOutputs } from "./plainOutputs";
import { REPLACING_INPUTS } from "./replacingInputs";
import { differs, replacingChanges } from "./stateComparison";
import { mapFromTags, tagMapSignature, tagsFromMap } from "./tagMaps";
import { containsUnknown, type PropertyBag } from "./unknownValues";
import { unlessGone } from "./unlessGone";

// Built once: the handler module is loaded once per host process, and `check` runs for every resource of a
// program (building a zod rule, and zod's first parse of it, costs more than the check itself).
/** The inputs of a `wos:ProjectTagBindings` and their rules. */
const PROJECT_TAG_BINDINGS_INPUTS = z.object({
    /** The project the tags are bound to; its id is also this resource's id. */
    projectId: withRequiredReason(idRule("prj-"), "projectId is required (the id of a project, 'prj-...')"),
    /** The keys this resource manages, and their values. */
    tags: withRequiredReason(
        tagMap({ key: tagKeyRule(), value: tagValueRule(), set: tagSetProblems }),
        "tags is required (a map of tag keys to values)",
    ),
});

/** Inputs of a `wos:ProjectTagBindings` once known and checked. */
export type ProjectTagBindingsInputs = z.output<typeof PROJECT_TAG_BINDINGS_INPUTS>;

/** Outputs: the inputs as the service holds them (only the managed keys). */
export type ProjectTagBindingsOutputs = ProjectTagBindingsInputs;

function describe(projectId: unknown): string {
    return typeof projectId === "string" ? `wos:ProjectTagBindings of project ${projectId}` : "wos:ProjectTagBindings";
}

/**
 * Validates the inputs before any request: a project id, and a tag map by every tag rule (characters,
 * lengths, reserved prefixes, at most ten). Whether the project's total stays within ten is the service's
 * to say, since other bindings may exist. Unknown values pass.
 */
export async function check(_olds: PropertyBag, news: PropertyBag): Promise<dynamic.CheckResult> {
    return { inputs: { ...news }, failures: inputFailures(PROJECT_TAG_BINDINGS_INPUTS, news) };
}

/**
 * Every input whose change {@link diff} sees, replacing or in place: what the native plugin's detailed diff
 * lists. Decided without a request.
 */
export function changedProperties(olds: PropertyBag, news: PropertyBag): string[] {
    const changed: string[] = [];
    if (differs(olds.projectId, news.projectId)) changed.push("projectId");
    if (differs(olds.tags, news.tags, tagMapSignature)) changed.push("tags");
    return changed;
}

/**
 * Compares state and inputs without a request: another project replaces the resource; tag changes are in
 * place. Deleting first is needed only if the "other" project could be the same one (an unknown id), since
 * deleting the old resource afterwards would remove the keys the new one just wrote.
 */
export async function diff(_id: string, olds: PropertyBag, news: PropertyBag): Promise<dynamic.DiffResult> {
    const changed = changedProperties(olds, news);
    const replaces = replacingChanges(REPLACING_INPUTS.ProjectTagBindings, olds, news);
    return {
        changes: changed.length > 0,
        replaces,
        // An unknown project id always differs (and so replaces): no need to test `replaces` as well.
        deleteBeforeReplace: containsUnknown(news.projectId),
    };
}

/** Upserts `tags` (or, with none, makes sure the project exists) and answers the written map. */
async function upsert(client: WosClient, projectId: string, tags: Record<string, string>): Promise<Record<string, string>> {
    if (Object.keys(tags).length === 0) {
        await client.projects.read(projectId);
        return {};
    }
    const written = mapFromTags(await client.projects.addTagBindings(projectId, tagsFromMap(tags)));
    const result: Record<string, string> = {};
    // Stryker disable next-line LogicalOperator: the service stores and answers each upserted tag with the key and value sent, so written[key] is always there and equal to tags[key]
    for (const key of Object.keys(tags)) result[key] = written[key] ?? tags[key];
    return result;
}

/** Binds the tags (upsert; a repeat after a lost answer is harmless, so the SDK retries it). */
export async function create(news: PropertyBag): Promise<dynamic.CreateResult> {
    const inputs = news as unknown as ProjectTagBindingsInputs;
    const client = clientFromCredentials();
    try {
        const tags = await upsert(client, inputs.projectId, inputs.tags ?? {});
        return { id: inputs.projectId, outs: plainOutputs({ projectId: inputs.projectId, tags }) };
    } catch (failure) {
        throw operationError(describe(inputs.projectId), "create", failure);
    }
}

/**
 * Reads the managed keys as the service holds them: a key changed elsewhere shows its new value, a key
 * removed elsewhere drops out (drift). A project that is gone reads as gone. Without state (an import),
 * every binding of the project is taken.
 */
export async function read(id: string, props?: PropertyBag): Promise<dynamic.ReadResult> {
    const state = (props ?? {}) as Partial<ProjectTagBindingsOutputs>;
    const projectId = typeof state.projectId === "string" ? state.projectId : id;
    const client = clientFromCredentials();
    const bindings = await unlessGone(describe(projectId), "read", async () =>
        mapFromTags(await client.projects.listTagBindings(projectId)),
    );
    if (!bindings) return {};
    const managed = state.tags !== undefined ? new Set(Object.keys(state.tags)) : undefined;
    const tags: Record<string, string> = {};
    // From the service's bindings: a managed key removed elsewhere is simply not among them.
    for (const [key, value] of Object.entries(bindings)) if (managed === undefined || managed.has(key)) tags[key] = value;
    const outs = plainOutputs({ projectId, tags });
    return { id, props: outs, inputs: outs };
}

/** The project's set with `removed` keys taken out and `tags` written over it, keeping the set's order. */
function nextSet(current: readonly Tag[], removed: ReadonlySet<string>, tags: Record<string, string>): Tag[] {
    const next: Tag[] = [];
    const placed = new Set<string>();
    for (const binding of current) {
        if (removed.has(binding.key)) continue;
        const value = Object.prototype.hasOwnProperty.call(tags, binding.key) ? tags[binding.key] : binding.value;
        next.push({ key: binding.key, value });
        placed.add(binding.key);
    }
    for (const [key, value] of Object.entries(tags)) if (!placed.has(key)) next.push({ key, value });
    return next;
}

/**
 * Writes new and changed keys with the upsert PATCH. When keys were dropped from the map, writes the whole
 * set instead (the current bindings minus the dropped keys, plus the map) in one project PATCH, so the
 * change is all or nothing.
 */
export async function update(id: string, olds: PropertyBag, news: PropertyBag): Promise<dynamic.UpdateResult> {
    const inputs = news as unknown as ProjectTagBindingsInputs;
    const oldTags = ((olds.tags ?? {}) as Record<string, string>);
    const newTags = inputs.tags ?? {};
    const removed = new Set(Object.keys(oldTags).filter((key) => !Object.prototype.hasOwnProperty.call(newTags, key)));
    const client = clientFromCredentials();
    try {
        if (removed.size === 0) {
            const tags = await upsert(client, inputs.projectId, newTags);
            return { outs: plainOutputs({ projectId: inputs.projectId, tags }) };
        }
        const current = await client.projects.listTagBindings(inputs.projectId);
        await client.projects.update(inputs.projectId, { tagBindings: nextSet(current, removed, newTags) });
        return { outs: plainOutputs({ projectId: inputs.projectId, tags: { ...newTags } }) };
    } catch (failure) {
        throw operationError(describe(inputs.projectId ?? id), "update", failure);
    }
}

/**
 * Removes the managed keys, and only them, from the project. Already removed keys, or a project that is
 * gone, count as deleted.
 */
export async function delete_(id: string, props?: PropertyBag): Promise<void> {
    const state = (props ?? {}) as Partial<ProjectTagBindingsOutputs>;
    const projectId = typeof state.projectId === "string" ? state.projectId : id;
    const keys = new Set(Object.keys(state.tags ?? {}));
    if (keys.size === 0) return;
    const client = clientFromCredentials();
    await unlessGone(describe(projectId), "delete", async () => {
        const current = await client.projects.listTagBindings(projectId);
        if (!current.some((binding) => keys.has(binding.key))) return;
        await client.projects.update(projectId, { tagBindings: nextSet(current, keys, {}) });
    });
}

export { delete_ as delete };
