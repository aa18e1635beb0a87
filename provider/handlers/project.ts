/**
 * The real logic of the `wos:Project` dynamic resource: `check`, `diff`, `create`, `read`, `update` and
 * `delete`, called by the thin shell in `provider/project.ts` through
 * `require("pulumi-wos/dist/provider/handlers/project")`. That module path is a stable format: serialized
 * providers in existing state load it by name, so never move or rename it.
 *
 * @module
 */
import type * as dynamic from "@pulumi/pulumi/dynamic";
import { z } from "zod";
import type { WosClient } from "../../sdk";
import { WosNotFoundError } from "../../sdk/errors";
import {
    autoDestroyActivityDurationRule,
    projectDescriptionRule,
    projectNameRule,
    tagKeyRule,
    tagSetProblems,
    tagValueRule,
    type Project,
} from "../../sdk/model";
import { clientFromCredentials } from "./credentials";
import {
    checkProperty,
    checkTagMap,
    containsUnknown,
    differs,
    isAmbiguousFailure,
    isTimeout,
    isUnknown,
    operationError,
    optionalText,
    plainOutputs,
    safeMessage,
    sleep,
    tagsFromMap,
    type CheckFailure,
    type PropertyBag,
} from "./support";

/** Inputs of a `wos:Project` once known (see `ProjectArgs` in `provider/project.ts`). */
export interface ProjectInputs {
    organization: string;
    name: string;
    description?: string;
    autoDestroyActivityDuration?: string;
    /** When given, the project's whole tag set; when absent, the project's tags are not managed here. */
    tags?: Record<string, string>;
}

/**
 * Outputs of a `wos:Project`: its inputs as the service holds them. `tags` is present only when the
 * program manages the tag set, so that `read` knows whether to report tag drift. The workspace count is
 * left out on purpose: it changes whenever a workspace is created or moved, and as an output it would show
 * up as drift in every `pulumi refresh` (`getProject` reports it instead).
 */
export type ProjectOutputs = ProjectInputs;

/** Organization names: the service identifies an organization by a non-empty name. */
function organizationNameRule() {
    return z.string({ error: "must be a string" }).min(1, { error: "must not be empty" });
}

/** How messages name the resource: `wos:Project 'Apps' (prj-…) in organization 'acme'`. */
function describe(props: Partial<ProjectInputs> | undefined, id?: string): string {
    const name = typeof props?.name === "string" && !isUnknown(props.name) ? ` '${props.name}'` : "";
    const where = id ? ` (${id})` : "";
    const organization =
        typeof props?.organization === "string" && !isUnknown(props.organization)
            ? ` in organization '${props.organization}'`
            : "";
    return `wos:Project${name}${where}${organization}`;
}

/**
 * Validates the inputs with the rules of `sdk/model` before any request: organization and name
 * required, name pattern and length, description length, duration format, and the tag rules. Unknown
 * values pass.
 */
export async function check(_olds: PropertyBag, news: PropertyBag): Promise<dynamic.CheckResult> {
    const failures: CheckFailure[] = [];
    checkProperty(failures, news, "organization", organizationNameRule(), {
        required: true,
        requiredReason: "organization is required (the organization's name)",
    });
    checkProperty(failures, news, "name", projectNameRule(), { required: true });
    checkProperty(failures, news, "description", projectDescriptionRule());
    checkProperty(failures, news, "autoDestroyActivityDuration", autoDestroyActivityDurationRule());
    checkTagMap(failures, news, "tags", { key: tagKeyRule, value: tagValueRule, set: tagSetProblems });
    return { inputs: { ...news }, failures };
}

/** Tag maps compared without regard to order. */
function tagSignature(tags: unknown): unknown {
    if (typeof tags !== "object" || tags === null) return tags ?? null;
    return Object.entries(tags as Record<string, unknown>).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
}

/** The properties whose change `update` applies in place. */
function changedInPlace(olds: PropertyBag, news: PropertyBag): string[] {
    const changed: string[] = [];
    if (differs(olds.name, news.name)) changed.push("name");
    if (differs(olds.description, news.description, optionalText)) changed.push("description");
    if (differs(olds.autoDestroyActivityDuration, news.autoDestroyActivityDuration, optionalText)) {
        changed.push("autoDestroyActivityDuration");
    }
    // Absent `tags` means "not managed here": dropping them from the program leaves the service alone.
    if (news.tags !== undefined && (olds.tags === undefined || differs(olds.tags, news.tags, tagSignature))) {
        changed.push("tags");
    }
    return changed;
}

/** Same name (case-insensitive, as the service compares) or not known yet. */
function mayBeSame(oldValue: unknown, newValue: unknown): boolean {
    if (containsUnknown(newValue)) return true;
    return typeof oldValue === "string" && typeof newValue === "string" && oldValue.toLowerCase() === newValue.toLowerCase();
}

/**
 * Compares the state with the new inputs, without any request. Moving a project to another organization
 * replaces it; everything else changes in place. A replacement deletes first when the new project would
 * have the old one's name in the same organization (names are unique per organization).
 */
export async function diff(_id: string, olds: PropertyBag, news: PropertyBag): Promise<dynamic.DiffResult> {
    const replaces = differs(olds.organization, news.organization) ? ["organization"] : [];
    const changed = changedInPlace(olds, news);
    const changes = replaces.length > 0 || changed.length > 0;
    const deleteBeforeReplace =
        replaces.length > 0 && mayBeSame(olds.organization, news.organization) && mayBeSame(olds.name, news.name);
    return { changes, replaces, deleteBeforeReplace };
}

/** Outputs from the inputs and what the service answered (which leaves out some fields in some answers). */
function outputsFrom(inputs: ProjectInputs, project: Project): ProjectOutputs {
    return plainOutputs<ProjectOutputs>({
        organization: inputs.organization,
        name: project.name,
        description: project.description ?? undefined,
        // Only `show` returns the duration; after create and update it is what was sent.
        autoDestroyActivityDuration:
            project.autoDestroyActivityDuration !== undefined
                ? (project.autoDestroyActivityDuration ?? undefined)
                : inputs.autoDestroyActivityDuration,
        tags: inputs.tags,
    });
}

/** The project of `organization` named `name` (names compare case-insensitively), if any. */
async function findByName(client: WosClient, organization: string, name: string): Promise<Project | undefined> {
    const list = await client.projects.list(organization, { names: [name], pageSize: 100 });
    return list.items.find((project) => project.name.toLowerCase() === name.toLowerCase());
}

/**
 * After a create whose answer was lost (no answer, or a 5xx that may come after the commit), looks for
 * the project by its unique name. After a timeout the service may still be working, so it looks again a
 * few times before concluding that nothing was made.
 */
async function findAfterLostAnswer(client: WosClient, inputs: ProjectInputs, failure: unknown): Promise<Project | undefined> {
    const waits = isTimeout(failure) ? [0, 500, 1500, 3000] : [0];
    for (const wait of waits) {
        if (wait > 0) await sleep(wait);
        const found = await findByName(client, inputs.organization, inputs.name);
        if (found) return found;
    }
    return undefined;
}

/**
 * Creates the project with its description, duration and tags in one request. When the answer is lost,
 * recovers the project the service made (see {@link findAfterLostAnswer}), brings it in line with the
 * inputs and takes it into state, rather than failing with "already taken" at the next `up` and leaving an
 * orphan. A definitive refusal (4xx) is reported as the service worded it.
 */
export async function create(news: PropertyBag): Promise<dynamic.CreateResult> {
    const inputs = news as unknown as ProjectInputs;
    const what = describe(inputs);
    const client = clientFromCredentials();
    try {
        const project = await client.projects.create(inputs.organization, {
            name: inputs.name,
            ...(inputs.description !== undefined ? { description: inputs.description } : {}),
            ...(inputs.autoDestroyActivityDuration !== undefined
                ? { autoDestroyActivityDuration: inputs.autoDestroyActivityDuration }
                : {}),
            ...(inputs.tags !== undefined ? { tagBindings: tagsFromMap(inputs.tags) } : {}),
        });
        return { id: project.id, outs: outputsFrom(inputs, project) };
    } catch (failure) {
        if (!isAmbiguousFailure(failure)) throw operationError(what, "create", failure);
        return recoverLostCreate(client, inputs, failure);
    }
}

async function recoverLostCreate(client: WosClient, inputs: ProjectInputs, failure: unknown): Promise<dynamic.CreateResult> {
    const what = describe(inputs);
    let found: Project | undefined;
    try {
        found = await findAfterLostAnswer(client, inputs, failure);
    } catch (lookupFailure) {
        throw operationError(
            what,
            "create",
            new Error(
                `${safeMessage(failure)}; the service may have made the project, and looking it up failed: ` +
                    `${safeMessage(lookupFailure)}`,
            ),
        );
    }
    if (!found) throw operationError(what, "create", failure);
    // The create is one transaction, so the project should be as requested; one PATCH makes sure of it.
    try {
        const project = await client.projects.update(found.id, {
            description: inputs.description ?? null,
            autoDestroyActivityDuration: inputs.autoDestroyActivityDuration ?? null,
            ...(inputs.tags !== undefined ? { tagBindings: tagsFromMap(inputs.tags) } : {}),
        });
        return { id: found.id, outs: outputsFrom(inputs, project) };
    } catch (finishFailure) {
        // Keep it in state (partial success) with what is known to be true of it; the next `up` finishes.
        const properties = plainOutputs<ProjectOutputs>({
            organization: inputs.organization,
            name: found.name,
            description: found.description ?? undefined,
        });
        throw operationError(what, "create (finishing the project found after a lost answer)", finishFailure, {
            id: found.id,
            properties: properties as unknown as Record<string, unknown>,
            inputs: inputs as unknown as PropertyBag,
        });
    }
}

/**
 * Reads the project as the service holds it now, so that `pulumi refresh` shows drift (also as new inputs,
 * so the next `up` puts back what the program says). Tags are read only when the program manages them.
 * A project that is gone reads as gone (no id).
 */
export async function read(id: string, props?: PropertyBag): Promise<dynamic.ReadResult> {
    const state = (props ?? {}) as Partial<ProjectOutputs>;
    const client = clientFromCredentials();
    let project: Project;
    let tags: Record<string, string> | undefined;
    try {
        project = await client.projects.read(id);
        if (state.tags !== undefined) {
            tags = {};
            for (const binding of await client.projects.listTagBindings(id)) tags[binding.key] = binding.value;
        }
    } catch (failure) {
        if (WosNotFoundError.isInstance(failure)) return {};
        throw operationError(describe(state, id), "read", failure);
    }
    const outs = plainOutputs<ProjectOutputs>({
        organization: state.organization ?? project.organization ?? "",
        name: project.name,
        description: project.description ?? undefined,
        autoDestroyActivityDuration: project.autoDestroyActivityDuration ?? undefined,
        tags,
    });
    return { id, props: outs, inputs: outs };
}

/**
 * Changes name, description, duration and (when managed) the whole tag set in one PATCH, sending only what
 * changed so that concurrent edits of other fields survive.
 */
export async function update(id: string, olds: PropertyBag, news: PropertyBag): Promise<dynamic.UpdateResult> {
    const inputs = news as unknown as ProjectInputs;
    const changed = new Set(changedInPlace(olds, news));
    const client = clientFromCredentials();
    try {
        const project =
            changed.size === 0
                ? await client.projects.read(id)
                : await client.projects.update(id, {
                      ...(changed.has("name") ? { name: inputs.name } : {}),
                      ...(changed.has("description") ? { description: inputs.description ?? null } : {}),
                      ...(changed.has("autoDestroyActivityDuration")
                          ? { autoDestroyActivityDuration: inputs.autoDestroyActivityDuration ?? null }
                          : {}),
                      ...(changed.has("tags") && inputs.tags !== undefined ? { tagBindings: tagsFromMap(inputs.tags) } : {}),
                  });
        return { outs: outputsFrom(inputs, project) };
    } catch (failure) {
        throw operationError(describe(inputs, id), "update", failure);
    }
}

/**
 * Deletes the project. One that is already gone counts as deleted; one that still has workspaces fails
 * with the service's message (nothing is deleted).
 */
export async function delete_(id: string, props?: PropertyBag): Promise<void> {
    const client = clientFromCredentials();
    try {
        await client.projects.delete(id);
    } catch (failure) {
        if (WosNotFoundError.isInstance(failure)) return;
        throw operationError(describe(props as Partial<ProjectInputs>, id), "delete", failure);
    }
}

export { delete_ as delete };
