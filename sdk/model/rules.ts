/**
 * The service's field rules, written once.
 *
 * Every rule is a schema *factory*: the server validates request bodies with it and the providers' `check`
 * validates Pulumi inputs with it, so a rule can never drift between the two sides. Factories (not module
 * constants) because Pulumi serializes provider code and a captured zod instance does not serialize.
 *
 * Each message names the rule in words a person can act on; the caller adds the field (a JSON pointer on
 * the server, a property name in `check`).
 */
import { z } from "zod";

/** Limits of the service's API and of the local service's own decisions, in one place so README, tests and rules agree. */
export const LIMITS = {
    projectNameMin: 3,
    projectNameMax: 40,
    projectDescriptionMax: 256,
    tagsPerProject: 10,
    tagKeyMax: 128,
    tagValueMax: 256,
    variableKeyMax: 128,
    variableDescriptionMax: 512,
    /** Chosen by us (the API sets no limit): large enough for any real HCL or JSON value, small enough to refuse abuse. */
    variableValueMax: 256 * 1024,
    workspaceNameMin: 1,
    workspaceNameMax: 90,
    workspaceDescriptionMax: 256,
    workspaceSourceNameMax: 256,
    workspaceSourceUrlMax: 2048,
    pageSizeDefault: 20,
    pageSizeMax: 100,
} as const;

/** Tag keys starting with these (any case) are reserved by the vendor and refused. */
export const RESERVED_TAG_KEY_PREFIXES = ["hc:", "hcp:"] as const;

/** The categories of a variable: `infra` (an input variable of the configuration) or `env` (environment). */
export const VARIABLE_CATEGORIES = ["infra", "env"] as const;
/**
 * The category of a variable: `infra` (an input variable of the configuration) or `env` (an environment
 * variable of its runs).
 *
 * @useDeclaredType
 */
export type VariableCategory = (typeof VARIABLE_CATEGORIES)[number];

/** Where a workspace's runs execute: `remote` (on the service) or `agent` (on an agent pool). */
export const EXECUTION_MODES = ["remote", "agent"] as const;
/**
 * Where a workspace's runs execute: `remote` (on the service) or `agent` (on an agent pool).
 *
 * @useDeclaredType
 */
export type ExecutionMode = (typeof EXECUTION_MODES)[number];

const PROJECT_NAME_PATTERN = /^[A-Za-z0-9_\- ]+$/;
const TAG_PATTERN = /^[A-Za-z0-9_.=+\-@:]*$/;
const WORKSPACE_NAME_PATTERN = /^[A-Za-z0-9_-]+$/;
/** Up to four digits that are not all zeros, then `d` or `h`. */
const DURATION_PATTERN = /^([1-9]\d{0,3}|0[1-9]\d{0,2}|00[1-9]\d?|000[1-9])[dh]$/;

/** Organization name: the service identifies an organization by its name, which is never blank. */
export function organizationNameRule() {
    return z.string({ error: "must be a string" }).refine((name) => name.trim() !== "", { error: "must not be empty" });
}

/** Project name: 3 to 40 characters; letters, numbers, spaces, `-`, `_`; no leading or trailing space. */
export function projectNameRule() {
    return z
        .string({ error: "must be a string" })
        .min(LIMITS.projectNameMin, { error: `must be at least ${LIMITS.projectNameMin} characters` })
        .max(LIMITS.projectNameMax, { error: `must be at most ${LIMITS.projectNameMax} characters` })
        .regex(PROJECT_NAME_PATTERN, { error: "may contain only letters, numbers, spaces, '-' and '_'" })
        .refine((name) => name.trim() === name, { error: "must not start or end with a space" })
        // What the refinement checks, said as JSON Schema for the OpenAPI description (z.toJSONSchema drops refinements).
        .meta({ not: { pattern: "^\\s|\\s$" } });
}

/** Project description: at most 256 characters. */
export function projectDescriptionRule() {
    return z
        .string({ error: "must be a string" })
        .max(LIMITS.projectDescriptionMax, { error: `must be at most ${LIMITS.projectDescriptionMax} characters` });
}

/** `auto-destroy-activity-duration`: an integer over 0 of up to four digits, then `d` or `h` (e.g. `14d`). */
export function autoDestroyActivityDurationRule() {
    return z
        .string({ error: "must be a string such as '14d' or '12h'" })
        .regex(DURATION_PATTERN, { error: "must be an integer greater than 0 of up to four digits followed by 'd' or 'h', such as '14d'" });
}

/** Tag key: 1 to 128 characters of letters, digits and `_ . = + - @ :`; not a reserved vendor prefix. */
export function tagKeyRule() {
    return z
        .string({ error: "must be a string" })
        .min(1, { error: "must not be empty" })
        .max(LIMITS.tagKeyMax, { error: `must be at most ${LIMITS.tagKeyMax} characters` })
        .regex(TAG_PATTERN, { error: "may contain only letters, numbers and the characters _ . = + - @ :" })
        .refine((key) => !RESERVED_TAG_KEY_PREFIXES.some((prefix) => key.toLowerCase().startsWith(prefix)), {
            error: `must not start with a reserved prefix (${RESERVED_TAG_KEY_PREFIXES.join(", ")})`,
        })
        // The refinement as JSON Schema, for the OpenAPI description: no reserved prefix, in any case.
        .meta({ not: { pattern: `^(${RESERVED_TAG_KEY_PREFIXES.map(anyCasePattern).join("|")})` } });
}

/** A regular expression that matches `text` in any case (JSON Schema's patterns have no flags). */
function anyCasePattern(text: string): string {
    return [...text].map((character) => (character.toLowerCase() === character.toUpperCase() ? character : `[${character.toLowerCase()}${character.toUpperCase()}]`)).join("");
}

/** Tag value: at most 256 characters of the same characters as a key; may be empty (a key-only tag). */
export function tagValueRule() {
    return z
        .string({ error: "must be a string" })
        .max(LIMITS.tagValueMax, { error: `must be at most ${LIMITS.tagValueMax} characters` })
        .regex(TAG_PATTERN, { error: "may contain only letters, numbers and the characters _ . = + - @ :" });
}

/** Variable key: required, 1 to 128 characters. */
export function variableKeyRule() {
    return z
        .string({ error: "must be a string" })
        .min(1, { error: "is required and must not be empty" })
        .max(LIMITS.variableKeyMax, { error: `must be at most ${LIMITS.variableKeyMax} characters` });
}

/** Variable value: a string (HCL values are strings too), at most 256 KiB. */
export function variableValueRule() {
    return z
        .string({ error: "must be a string" })
        .max(LIMITS.variableValueMax, { error: `must be at most ${LIMITS.variableValueMax} characters` });
}

/** Variable description: at most 512 characters. */
export function variableDescriptionRule() {
    return z
        .string({ error: "must be a string" })
        .max(LIMITS.variableDescriptionMax, { error: `must be at most ${LIMITS.variableDescriptionMax} characters` });
}

/** Variable category: `infra` or `env`. */
export function variableCategoryRule() {
    return z.enum(VARIABLE_CATEGORIES, { error: "must be 'infra' or 'env'" });
}

/** Workspace name: 1 to 90 characters; letters, numbers, `-`, `_`. */
export function workspaceNameRule() {
    return z
        .string({ error: "must be a string" })
        .min(LIMITS.workspaceNameMin, { error: "must not be empty" })
        .max(LIMITS.workspaceNameMax, { error: `must be at most ${LIMITS.workspaceNameMax} characters` })
        .regex(WORKSPACE_NAME_PATTERN, { error: "may contain only letters, numbers, '-' and '_'" });
}

/** Workspace description: at most 256 characters. */
export function workspaceDescriptionRule() {
    return z
        .string({ error: "must be a string" })
        .max(LIMITS.workspaceDescriptionMax, { error: `must be at most ${LIMITS.workspaceDescriptionMax} characters` });
}

/** Workspace `source-name` (the application shown as having created it): at most 256 characters. */
export function workspaceSourceNameRule() {
    return z
        .string({ error: "must be a string" })
        .max(LIMITS.workspaceSourceNameMax, { error: `must be at most ${LIMITS.workspaceSourceNameMax} characters` });
}

/** Workspace `source-url`: a URL of at most 2048 characters. */
export function workspaceSourceUrlRule() {
    return z
        .url({ error: "must be a URL" })
        .max(LIMITS.workspaceSourceUrlMax, { error: `must be at most ${LIMITS.workspaceSourceUrlMax} characters` });
}

/** Execution mode: `remote` or `agent`. */
export function executionModeRule() {
    return z.enum(EXECUTION_MODES, { error: "must be 'remote' or 'agent'" });
}

/**
 * The service's execution rule, for `.superRefine` of options with `executionMode` and `agentPoolId`: a pool
 * exactly when the mode is `agent` (the default is `remote`); a breach is an issue of `agentPoolId`.
 */
export function checkAgentPool(options: { executionMode?: string; agentPoolId?: string }, context: z.RefinementCtx): void {
    const mode = options.executionMode ?? "remote";
    if (mode === "agent" && options.agentPoolId === undefined) {
        context.addIssue({ code: "custom", message: "is required when executionMode is 'agent'", path: ["agentPoolId"] });
    }
    if (mode === "remote" && options.agentPoolId !== undefined) {
        context.addIssue({ code: "custom", message: "must not be given when executionMode is 'remote'", path: ["agentPoolId"] });
    }
}

/** Boolean with a message that names the rule. */
export function booleanRule() {
    return z.boolean({ error: "must be true or false" });
}

/** An id with the given type prefix, e.g. `idRule("prj-")`. */
export function idRule(prefix: string) {
    return z
        .string({ error: "must be a string" })
        .refine((id) => id.startsWith(prefix) && id.length > prefix.length, {
            error: `must be an id starting with '${prefix}'`,
        });
}

/** One tag of a set, as a key and a value. */
export interface Tag {
    /** The key: 1 to 128 characters of letters, digits and `_ . = + - @ :`; not starting with `hc:` or `hcp:`. */
    key: string;
    /** The value: at most 256 of the same characters; may be empty. */
    value: string;
}

/**
 * Problems of a whole tag set, beyond each tag's own rules: more than ten, or a key twice.
 * Returns one message per problem, each with the index of the offending tag (or undefined for the set).
 */
export function tagSetProblems(tags: readonly Tag[]): { index?: number; message: string }[] {
    const problems: { index?: number; message: string }[] = [];
    if (tags.length > LIMITS.tagsPerProject) {
        problems.push({ message: `a project may have at most ${LIMITS.tagsPerProject} tags; ${tags.length} were given` });
    }
    const seen = new Set<string>();
    tags.forEach((tag, index) => {
        if (seen.has(tag.key)) problems.push({ index, message: `tag key '${tag.key}' appears more than once` });
        seen.add(tag.key);
    });
    return problems;
}

/** Validation failure of one field: where it is and what rule it broke. */
export interface FieldProblem {
    /** Path of the field: JSON pointer segments on the server, property path in `check`. */
    path: (string | number)[];
    detail: string;
}

/** Turns zod issues into field problems (one per issue), keeping zod's path. */
export function problemsFromZod(error: z.ZodError): FieldProblem[] {
    return error.issues.map((issue) => ({
        path: issue.path.map((segment) => (typeof segment === "symbol" ? String(segment) : segment)),
        detail: issue.message,
    }));
}

/** `/data/attributes/name` from `["data","attributes","name"]` (RFC 6901 escaping). */
export function jsonPointer(path: readonly (string | number)[]): string {
    return path.map((segment) => "/" + String(segment).replace(/~/g, "~0").replace(/\//g, "~1")).join("");
}
