/**
 * The settings of a workspace that `wos:Workspace` and `wos:NoCodeWorkspace` both manage and change in place:
 * which of them differ between state and inputs, the one PATCH that sends them, and how the service's answer
 * reads as outputs. A workspace made from a no-code module has two settings more (its source name and URL).
 *
 * @module
 */
import type { z } from "zod";
import type { WorkspaceCreateOptions, WorkspaceUpdateOptions } from "../../sdk";
import {
    booleanRule,
    executionModeRule,
    idRule,
    workspaceDescriptionRule,
    workspaceSourceNameRule,
    workspaceSourceUrlRule,
    type ExecutionMode,
    type Workspace,
} from "../../sdk/model";
import { differs, optionalText } from "./stateComparison";
import { isUnknown, type PropertyBag } from "./unknownValues";

/**
 * A setting changed in place. `execution` is the mode and its agent pool together: the service holds a pool
 * exactly when the mode is `agent` (and `check` asks the same of the inputs), so the two only ever change
 * together and one PATCH sends both.
 */
export type WorkspaceSetting = "name" | "description" | "autoApply" | "execution" | "sourceName" | "sourceUrl";

/** The settings of a `wos:Workspace`. */
export const WORKSPACE_SETTINGS: readonly WorkspaceSetting[] = ["name", "description", "autoApply", "execution"];

/** The settings of a `wos:NoCodeWorkspace`: a workspace's, and the application that made it. */
export const NO_CODE_WORKSPACE_SETTINGS: readonly WorkspaceSetting[] = [...WORKSPACE_SETTINGS, "sourceName", "sourceUrl"];

/** `settings` but the name: what a create found after a lost answer is brought in line with (it was found by its name). */
export function settingsBesideName(settings: readonly WorkspaceSetting[]): WorkspaceSetting[] {
    return settings.filter((setting) => setting !== "name");
}

/** The settings as the program gives them (checked): the SDK's create options, the project aside. */
export type WorkspaceSettingInputs = Omit<WorkspaceCreateOptions, "projectId">;

/** The settings every workspace has, and its project, as outputs carry them. */
export interface WorkspaceSettingOutputs {
    name: string;
    projectId: string;
    description?: string;
    autoApply: boolean;
    executionMode: ExecutionMode;
    agentPoolId?: string;
}

// Built once: a handler module is loaded once per host process, and `check` runs for every resource of a
// program (building a zod rule, and zod's first parse of it, costs more than the check itself).
/**
 * The rules of the settings every workspace has but its name (each resource declares the name where its
 * messages want it), for the inputs objects of `wos:Workspace` and `wos:NoCodeWorkspace`, which also take
 * {@link withAgentPoolRule}.
 */
export const WORKSPACE_SETTING_RULES = {
    description: workspaceDescriptionRule().optional(),
    /** Default false. */
    autoApply: booleanRule().optional(),
    /** Default `remote`. */
    executionMode: executionModeRule().optional(),
    /** An agent pool of the organization (`apool-...`): required with `agent`, refused with `remote`. */
    agentPoolId: idRule("apool-").optional(),
};

/** The rules of the settings a workspace made from a no-code module has beside those: the application that made it. */
export const SOURCE_SETTING_RULES = {
    sourceName: workspaceSourceNameRule().optional(),
    sourceUrl: workspaceSourceUrlRule().optional(),
};

/**
 * `inputs` (an inputs object with {@link WORKSPACE_SETTING_RULES}) with the service's rule of a workspace's
 * `executionMode` and its `agentPoolId`: `agent` needs a pool, `remote` (the default) refuses one. Judged
 * whatever the other inputs' failures; passes while either is unknown.
 */
export function withAgentPoolRule<Inputs extends z.ZodObject>(inputs: Inputs): Inputs {
    return inputs.superRefine(
        (values, context) => {
            const mode = values.executionMode ?? "remote";
            const pool = values.agentPoolId;
            if (isUnknown(mode) || isUnknown(pool)) return;
            if (mode === "agent" && (pool === undefined || pool === "")) {
                context.addIssue({ code: "custom", path: ["agentPoolId"], message: "is required when executionMode is 'agent'" });
            }
            if (mode === "remote" && pool !== undefined) {
                context.addIssue({ code: "custom", path: ["agentPoolId"], message: "must not be given when executionMode is 'remote' (the default)" });
            }
        },
        // zod skips a refinement once an input has the wrong type; this rule is worth saying then too.
        { when: () => true },
    );
}

const asFlag = (value: unknown) => value ?? false;

/** The execution setting as one value, mode and pool together, defaults filled. */
function execution(props: PropertyBag): unknown[] {
    return [props.executionMode ?? "remote", optionalText(props.agentPoolId)];
}

/** How each setting's state and input compare: defaults equal absence. */
const CHANGED: Record<WorkspaceSetting, (olds: PropertyBag, news: PropertyBag) => boolean> = {
    name: (olds, news) => differs(olds.name, news.name),
    description: (olds, news) => differs(olds.description, news.description, optionalText),
    autoApply: (olds, news) => differs(olds.autoApply, news.autoApply, asFlag),
    execution: (olds, news) => differs(execution(olds), execution(news)),
    sourceName: (olds, news) => differs(olds.sourceName, news.sourceName, optionalText),
    sourceUrl: (olds, news) => differs(olds.sourceUrl, news.sourceUrl, optionalText),
};

/** Which of `settings` differ between state and inputs, decided without a request. */
export function changedSettings(olds: PropertyBag, news: PropertyBag, settings: readonly WorkspaceSetting[]): Set<WorkspaceSetting> {
    return new Set(settings.filter((setting) => CHANGED[setting](olds, news)));
}

/**
 * The inputs behind the changed `settings`, by name: the execution setting is `executionMode` and
 * `agentPoolId`, each named when it differs (defaults equal absence).
 */
export function changedSettingProperties(olds: PropertyBag, news: PropertyBag, settings: readonly WorkspaceSetting[]): string[] {
    return [...changedSettings(olds, news, settings)].flatMap((setting) => {
        if (setting !== "execution") return [setting];
        const [oldMode, oldPool] = execution(olds);
        const [newMode, newPool] = execution(news);
        return [...(differs(oldMode, newMode) ? ["executionMode"] : []), ...(differs(oldPool, newPool) ? ["agentPoolId"] : [])];
    });
}

/**
 * The PATCH that sets `settings` to the inputs, and nothing else (so that concurrent edits of other fields
 * survive); a setting the program left out goes back to its default (`null` clears a text).
 */
export function settingsPatch(inputs: WorkspaceSettingInputs, settings: Iterable<WorkspaceSetting>): WorkspaceUpdateOptions {
    const sent = new Set(settings);
    return {
        ...(sent.has("name") ? { name: inputs.name } : {}),
        ...(sent.has("description") ? { description: inputs.description ?? null } : {}),
        ...(sent.has("autoApply") ? { autoApply: inputs.autoApply ?? false } : {}),
        ...(sent.has("execution") ? { executionMode: inputs.executionMode ?? "remote", agentPoolId: inputs.agentPoolId ?? null } : {}),
        ...(sent.has("sourceName") ? { sourceName: inputs.sourceName ?? null } : {}),
        ...(sent.has("sourceUrl") ? { sourceUrl: inputs.sourceUrl ?? null } : {}),
    };
}

/**
 * The settings every workspace has, and its project, as the service answered them, for outputs (absent
 * values `undefined`, for `plainOutputs` to leave out).
 */
export function settingsFrom(workspace: Workspace): WorkspaceSettingOutputs {
    return {
        name: workspace.name,
        projectId: workspace.projectId,
        // `""` (a create without one) and `null` (cleared) both mean none: outputs leave it out either way.
        description: workspace.description || undefined,
        autoApply: workspace.autoApply,
        executionMode: workspace.executionMode,
        agentPoolId: workspace.agentPoolId ?? undefined,
    };
}
