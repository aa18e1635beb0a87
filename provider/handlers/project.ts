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
import {
    autoDestroyActivityDurationRule,
    organizationNameRule,
    projectDescriptionRule,
    projectNameRule,
    tagKeyRule,
    tagSetProblems,
    tagValueRule,
    type Project,
} from "../../sdk/model";
import { clientFromCredentials, MISSING_ORGANIZATION_REASON, withDefaultOrganization } from "./credentials";
import { inputFailures, tagMap, withRequiredReason } from "./inputChecks";
import { createRecoveringLostAnswer } from "./lostCreateRecovery";
import { operationError } from "./operationErrors";
import { plainOutputs } from "./plainOutputs";
import { REPLACING_INPUTS } from "./replacingInputs";
import { differs, mayBeSameName, optionalText, replacingChanges } from "./stateComparison";
import { mapFromTags, tagMapSignature, tagsFromMap } from "./tagMaps";
import { isUnknown, type PropertyBag } from "./unknownValues";
import { unlessGone } from "./unlessGone";

// Built once: the handler module is loaded once per host process, and `check` runs for every resource of a
// program (building a zod rule, and zod's first parse of it, costs more than the check itself).
/** The inputs of a `wos:Project` and their rules (see `ProjectArgs` in `provider/project.ts`). */
const PROJECT_INPUTS = z.object({
    /** Filled in by `check` from the default organization when the program left it out. */
    organization: withRequiredReason(organizationNameRule(), MISSING_ORGANIZATION_REASON),
    name: projectNameRule(),
    description: projectDescriptionRule().optional(),
    autoDestroyActivityDuration: autoDestroyActivityDurationRule().optional(),
    /** When given, the project's whole tag set; when absent, the project's tags are not managed here. */
    tags: tagMap({ key: tagKeyRule(), value: tagValueRule(), set: tagSetProblems }).optional(),
});

/** Inputs of a `wos:Project` once known and checked. */
export type ProjectInputs = z.output<typeof PROJECT_INPUTS>;

/**
 * Outputs of a `wos:Project`: its inputs as the service holds them. `tags` is present only when the
 * program manages the tag set, so that `read` knows whether to report tag drift. The workspace count is
 * left out on purpose: it changes whenever a workspace is created or moved, and as an output it would show
 * up as drift in every `pulumi refresh` (`getProject` reports it instead).
 */
export type ProjectOutputs = ProjectInputs;

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
 * Validates the inputs with the rules of `sdk/model` before any request: organization (the default
 * organization's when left out) and name required, name pattern and length, description length, duration
 * format, and the tag rules. Unknown values pass.
 */
export async function check(_olds: PropertyBag, given: PropertyBag): Promise<dynamic.CheckResult> {
    // An organization left out is the configured default's, written into the inputs (and so into state).
    const news = withDefaultOrganization(given);
    const failures = inputFailures(PROJECT_INPUTS, news);
    const inputs: PropertyBag = { ...news };
    // `tags: null` means no tags given, as `undefined` does: the project's tags are then not managed here.
    if (inputs.tags === null) delete inputs.tags;
    return { inputs, failures };
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
    // State without tags differs from any tag map (its signature is null), an empty one included.
    if (news.tags !== undefined && differs(olds.tags, news.tags, tagMapSignature)) {
        changed.push("tags");
    }
    return changed;
}

/**
 * Every input whose change {@link diff} sees, replacing or in place: what the native plugin's detailed diff
 * lists. Decided without a request.
 */
export function changedProperties(olds: PropertyBag, news: PropertyBag): string[] {
    return [...(differs(olds.organization, news.organization) ? ["organization"] : []), ...changedInPlace(olds, news)];
}

/**
 * Compares the state with the new inputs, without any request. Moving a project to another organization
 * replaces it; everything else changes in place. A replacement deletes first when the new project would
 * have the old one's name in the same organization (names are unique per organization).
 */
export async function diff(_id: string, olds: PropertyBag, news: PropertyBag): Promise<dynamic.DiffResult> {
    const changed = changedProperties(olds, news);
    const replaces = replacingChanges(REPLACING_INPUTS.Project, olds, news);
    const changes = changed.length > 0;
    const deleteBeforeReplace =
        replaces.length > 0 && mayBeSameName(olds.organization, news.organization) && mayBeSameName(olds.name, news.name);
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
 * Creates the project with its description, duration and tags in one request. A lost answer is recovered
 * by the project's unique name (see {@link createRecoveringLostAnswer}); a refusal is reported as the
 * service worded it.
 */
export async function create(news: PropertyBag): Promise<dynamic.CreateResult> {
    const inputs = news as unknown as ProjectInputs;
    const client = clientFromCredentials();
    return createRecoveringLostAnswer<Project>({
        what: describe(inputs),
        noun: "project",
        inputs: news,
        create: () =>
            client.projects.create(inputs.organization, {
                name: inputs.name,
                // Both left out of the request when undefined (the SDK sends only the options given).
                description: inputs.description,
                autoDestroyActivityDuration: inputs.autoDestroyActivityDuration,
                ...(inputs.tags !== undefined ? { tagBindings: tagsFromMap(inputs.tags) } : {}),
            }),
        findByUniqueName: () => findByName(client, inputs.organization, inputs.name),
        // The create is one transaction, so the project should be as requested; one PATCH makes sure of it.
        finish: (found) =>
            client.projects.update(found.id, {
                description: inputs.description ?? null,
                autoDestroyActivityDuration: inputs.autoDestroyActivityDuration ?? null,
                ...(inputs.tags !== undefined ? { tagBindings: tagsFromMap(inputs.tags) } : {}),
            }),
        outputs: (project) => outputsFrom(inputs, project),
        // Only what the list answer shows: the next `up` sees the duration and tags as changes and applies them.
        partialOutputs: (found) =>
            plainOutputs<ProjectOutputs>({
                organization: inputs.organization,
                name: found.name,
                description: found.description ?? undefined,
            }),
    });
}

/**
 * Reads the project as the service holds it now, so that `pulumi refresh` shows drift (also as new inputs,
 * so the next `up` puts back what the program says). Tags are read when the program manages them, and when
 * nothing is known of the project yet (a read by id alone, such as a `get`), since nothing says they are
 * not wanted. A project that is gone reads as gone (no id).
 */
export async function read(id: string, props?: PropertyBag): Promise<dynamic.ReadResult> {
    const state = (props ?? {}) as Partial<ProjectOutputs>;
    const readTags = state.tags !== undefined || state.name === undefined;
    const client = clientFromCredentials();
    const found = await unlessGone(describe(state, id), "read", async () => {
        const project = await client.projects.read(id);
        const tags = readTags ? mapFromTags(await client.projects.listTagBindings(id)) : undefined;
        return { project, tags };
    });
    if (!found) return {};
    const { project, tags } = found;
    const outs = plainOutputs<ProjectOutputs>({
        // Stryker disable next-line StringLiteral: the service names every project's organization in its answer, so the fallback is never used
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
    await unlessGone(describe(props as Partial<ProjectInputs>, id), "delete", () => client.projects.delete(id));
}

export { delete_ as delete };
