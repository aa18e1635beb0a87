/**
 * No-code modules (the API's No-code provisioning endpoints, with the local service's own decisions): enable a
 * registry module for no-code provisioning with its variable-options sets, read it (the sets included on
 * `include=variable_options`), change its settings, delete it; and `GET /registry-modules/:id`, through
 * which a client finds the no-code module made from a registry module after losing a create's answer.
 *
 * Every change of version pin, registry module or the content of the sets makes a new no-code module
 * version (the module's current one); workspaces on an older one report an upgrade available. Changing the
 * settings needs owners or manage modules, and never an organization token (the API's authentication rules);
 * any token of the organization may read.
 */
import type { FastifyInstance } from "fastify";
import type { z } from "zod";
import {
    createNoCodeModuleRequestSchema,
    updateNoCodeModuleRequestSchema,
    variableOptionSetProblems,
    type variableOptionsRelationshipSchema,
} from "../../sdk/model";
import { principalOf, type AppContext } from "../context";
import {
    manageableNoCodeModule,
    refuseOrganizationToken,
    requireOrganization,
    visibleNoCodeModule,
    visibleRegistryModule,
    type Params,
} from "../access";
import { canManageModules, type Principal } from "../auth";
import { newId, now, readTransaction, writeTransaction, type Db } from "../db";
import { abbreviated, badParameter, capitalized, ERROR_CODES, httpError, listOrNone, parseBody, urlIdProblems, validationFailed, type Problem } from "../errors";
import { singleParameter, type Query } from "../pagination";
import {
    deleteNoCodeModule,
    deleteVariableOptions,
    findNoCodeModule,
    findNoCodeModuleVersion,
    findRegistryModule,
    insertNoCodeModule,
    insertNoCodeModuleVersion,
    insertVariableOptions,
    moduleVariablesOf,
    noCodeModuleOfRegistryModule,
    optionValues,
    registryModuleVersions,
    setCurrentNoCodeModuleVersion,
    updateNoCodeModuleSettings,
    updateVariableOptions,
    variableOptionsOf,
    type NoCodeModuleRow,
    type RegistryModuleRow,
    type VariableOptionsRow,
} from "../records/noCodeModules";
import { renderNoCodeModule, renderNoCodeModuleVersion, renderRegistryModule, renderVariableOptions } from "../render";

type CreateData = z.output<ReturnType<typeof createNoCodeModuleRequestSchema>>["data"];
type UpdateData = z.output<ReturnType<typeof updateNoCodeModuleRequestSchema>>["data"];
type OptionItems = z.output<ReturnType<typeof variableOptionsRelationshipSchema>>["data"];

/** The values `include` accepts: `variable_options` (the API's) and `variable-options` (what go-tfe sends). */
export const NO_CODE_MODULE_INCLUDES = ["variable_options", "variable-options"];

const MODULE_POINTER = ["data", "relationships", "registry-module", "data", "id"] as const;
const PIN_POINTER = ["data", "attributes", "version-pin"] as const;
const OPTIONS_POINTER = ["data", "relationships", "variable-options", "data"] as const;

/** A variable-options set as a write wants it: `id` when it replaces an existing set. */
interface DesiredSet {
    id?: string;
    variableName: string;
    variableType: string;
    options: string[];
}

/** Registers the no-code module routes and `GET /registry-modules/:id` under `/api/v2`. */
export function registerNoCodeModuleRoutes(api: FastifyInstance, { db }: AppContext): void {
    api.post<Params>("/organizations/:organization/no-code-modules", async (request) => {
        const principal = principalOf(request);
        return writeTransaction(db, () => {
            requireOrganization(principal, request.params.organization);
            refuseOrganizationToken(principal);
            if (!canManageModules(principal)) {
                throw httpError(404, ERROR_CODES.notFound, "Organization not found or you are not authorized to manage its no-code modules");
            }
            const { data } = parseBody(createNoCodeModuleRequestSchema(), request.body);
            return noCodeModuleDocument(db, createNoCodeModule(db, principal, data), false);
        });
    });

    api.get<Params>("/no-code-modules/:id", async (request) => {
        const principal = principalOf(request);
        const include = includesVariableOptions(request.query as Query);
        return readTransaction(db, () => noCodeModuleDocument(db, visibleNoCodeModule(db, principal, request.params.id), include));
    });

    // Attributes and relationships left out stay; `variable-options`, when present, is the whole desired list.
    api.patch<Params>("/no-code-modules/:id", async (request) => {
        const principal = principalOf(request);
        return writeTransaction(db, () => {
            const current = manageableNoCodeModule(db, principal, request.params.id);
            const { data } = parseBody(updateNoCodeModuleRequestSchema(), request.body);
            return noCodeModuleDocument(db, updateNoCodeModule(db, principal, current, data), false);
        });
    });

    // Workspaces made from the module stay (their upgrade endpoints answer 404 from now on); its sets and
    // upgrade runs go with it.
    api.delete<Params>("/no-code-modules/:id", async (request, reply) => {
        const principal = principalOf(request);
        writeTransaction(db, () => {
            const module = manageableNoCodeModule(db, principal, request.params.id);
            deleteNoCodeModule(db, module.id);
        });
        return reply.code(204).send();
    });

    // The version a workspace made from a module runs (its `no-code-module-version`): visible to every token
    // of the organization whose registry module it is, as the module itself is.
    api.get<Params>("/no-code-module-versions/:id", async (request) => {
        const principal = principalOf(request);
        return readTransaction(db, () => {
            const version = findNoCodeModuleVersion(db, request.params.id);
            const module = version ? findRegistryModule(db, version.registry_module_id) : undefined;
            if (!version || !module || module.organization !== principal.organization) {
                throw httpError(404, ERROR_CODES.notFound, "No-code module version not found or you are not authorized to access it");
            }
            return { data: renderNoCodeModuleVersion(version) };
        });
    });

    api.get<Params>("/registry-modules/:id", async (request) => {
        const principal = principalOf(request);
        return readTransaction(db, () => {
            const module = visibleRegistryModule(db, principal, request.params.id);
            const noCodeModule = noCodeModuleOfRegistryModule(db, module.id);
            return { data: renderRegistryModule(module, registryModuleVersions(db, module.id), noCodeModule ? [noCodeModule.id] : []) };
        });
    });
}

/** A no-code module document; with `include`, its variable-options sets in `included`, in their order. */
function noCodeModuleDocument(db: Db, module: NoCodeModuleRow, include: boolean) {
    const sets = variableOptionsOf(db, module.id);
    const data = renderNoCodeModule(module, sets);
    return include ? { data, included: sets.map(renderVariableOptions) } : { data };
}

/** Whether `include` asks for the variable-options sets; a value other than {@link NO_CODE_MODULE_INCLUDES} is a 400. */
function includesVariableOptions(query: Query): boolean {
    const include = singleParameter(query, "include");
    if (include === undefined) return false;
    for (const value of include.split(",").map((part) => part.trim())) {
        if (!NO_CODE_MODULE_INCLUDES.includes(value)) {
            // go-tfe recognises this error by the words "include parameter" in the detail.
            throw badParameter("include", `Invalid include parameter: include must be 'variable_options' (comma-separated values), got '${abbreviated(value)}'`);
        }
    }
    return true;
}

// ---------------------------------------------------------------------------------------------------------
// The rules that need the database. Each runs inside the caller's transaction and throws the refusal before
// anything is written.

/** Enables a registry module for no-code provisioning; 404 for a module outside the registry, 422 for a rule broken. */
function createNoCodeModule(db: Db, principal: Principal, data: CreateData): NoCodeModuleRow {
    const registryModule = visibleRegistryModule(db, principal, data.relationships["registry-module"].data.id);
    const items = data.relationships["variable-options"]?.data ?? [];
    // A new module has no sets yet: an id could only name another module's set.
    const problems: Problem[] = items.flatMap((item, index) =>
        item.id === undefined ? [] : [{ path: [...OPTIONS_POINTER, index, "id"], detail: "Id must not be given when enabling a module: it has no variable-options sets yet" }],
    );
    if (problems.length > 0) throw validationFailed(problems);
    const sets = desiredSets(items, new Map());
    problems.push(...registryModuleProblems(db, registryModule));
    if (problems.length > 0) throw validationFailed(problems);
    const versionPin = resolvePin(db, registryModule, data.attributes?.["version-pin"]);
    problems.push(...setProblems(db, registryModule.id, versionPin, sets));
    if (problems.length > 0) throw validationFailed(problems);

    const timestamp = now();
    const id = newId("nocode-");
    const versionId = newId("nocodever-");
    insertNoCodeModule(db, {
        id,
        organization: principal.organization,
        registry_module_id: registryModule.id,
        version_pin: versionPin,
        enabled: data.attributes?.enabled ? 1 : 0,
        current_version_id: versionId,
        created_at: timestamp,
        updated_at: timestamp,
    });
    writeSets(db, id, sets, timestamp);
    insertVersion(db, versionId, findNoCodeModule(db, id)!, timestamp);
    return findNoCodeModule(db, id)!;
}

/**
 * Changes the settings given. A new registry module must pass the create rules, and without a pin given the
 * pin becomes its highest version; the resulting sets (the list given, or the kept ones) are judged against
 * the resulting pin. A new no-code module version is made when the pin, the module or the sets' content
 * changed.
 */
function updateNoCodeModule(db: Db, principal: Principal, current: NoCodeModuleRow, data: UpdateData): NoCodeModuleRow {
    const problems: Problem[] = urlIdProblems(data.id, current.id, "no-code module");
    const givenModuleId = data.relationships?.["registry-module"]?.data.id;
    const moduleChanged = givenModuleId !== undefined && givenModuleId !== current.registry_module_id;
    const registryModule = visibleRegistryModule(db, principal, moduleChanged ? givenModuleId : current.registry_module_id);
    if (moduleChanged) problems.push(...registryModuleProblems(db, registryModule));

    const givenPin = data.attributes?.["version-pin"];
    const givenItems = data.relationships?.["variable-options"]?.data;
    const existingSets = variableOptionsOf(db, current.id);
    const existingById = new Map(existingSets.map((set) => [set.id, set]));
    if (givenItems) problems.push(...setIdProblems(givenItems, new Set(existingById.keys())));
    if (problems.length > 0) throw validationFailed(problems);
    // Only a listed set is written: kept sets stay as stored, untouched.
    const listedSets = givenItems ? desiredSets(givenItems, existingById) : undefined;
    const sets: DesiredSet[] = listedSets ?? existingSets.map(desiredSetOf);

    const versionPin = moduleChanged || givenPin !== undefined ? resolvePin(db, registryModule, givenPin) : current.version_pin;
    const found = setProblems(db, registryModule.id, versionPin, sets);
    // Kept sets are not in the body: their problem is the pin (or the module) that no longer fits them.
    problems.push(...(listedSets ? found : found.map((problem) => ({ ...problem, path: givenPin !== undefined ? [...PIN_POINTER] : [...MODULE_POINTER] }))));
    if (problems.length > 0) throw validationFailed(problems);

    const timestamp = now();
    const enabled = data.attributes?.enabled === undefined ? current.enabled : data.attributes.enabled ? 1 : 0;
    updateNoCodeModuleSettings(db, current.id, { registry_module_id: registryModule.id, version_pin: versionPin, enabled }, timestamp);
    if (listedSets) {
        // New sets add `undefined`, which no stored set's id is.
        const kept = new Set(listedSets.map((set) => set.id));
        for (const set of existingSets) {
            if (!kept.has(set.id)) deleteVariableOptions(db, set.id);
        }
        writeSets(db, current.id, listedSets, timestamp);
    }
    const updated = findNoCodeModule(db, current.id)!;
    const currentVersion = findNoCodeModuleVersion(db, current.current_version_id);
    if (!currentVersion || versionSnapshot(db, updated) !== snapshotOfVersion(currentVersion)) {
        const versionId = newId("nocodever-");
        insertVersion(db, versionId, updated, timestamp);
        setCurrentNoCodeModuleVersion(db, current.id, versionId);
    }
    return findNoCodeModule(db, current.id)!;
}

/**
 * 422 at the module relationship when a registry module cannot become a no-code module. Only asked of a
 * registry module the no-code module does not have yet, so any no-code module of it is another one.
 */
function registryModuleProblems(db: Db, module: RegistryModuleRow): Problem[] {
    if (module.no_code_ready !== 1) {
        return [{ path: [...MODULE_POINTER], detail: `Registry module '${module.name}' (${module.id}) does not meet the no-code design requirements (it is not no-code ready)` }];
    }
    const existing = noCodeModuleOfRegistryModule(db, module.id);
    if (existing) {
        return [
            {
                path: [...MODULE_POINTER],
                detail: `Registry module '${module.name}' (${module.id}) already has a no-code module (${existing.id})`,
                code: ERROR_CODES.noCodeModuleExists,
                meta: { "holder-id": existing.id },
            },
        ];
    }
    return [];
}

/**
 * The pin given when the module has that version, else the module's highest version when none is given; a
 * 422 at the pin otherwise (callers ask only once every earlier rule passed, so it is the answer's only problem).
 */
function resolvePin(db: Db, module: RegistryModuleRow, given: string | undefined): string {
    const versions = registryModuleVersions(db, module.id);
    if (given !== undefined) {
        if (versions.includes(given)) return given;
        throw validationFailed([
            { path: [...PIN_POINTER], detail: `Version pin '${given}' is not a version of registry module '${module.name}' (versions: ${listOrNone(versions)})` },
        ]);
    }
    const highest = versions[versions.length - 1];
    if (highest === undefined) {
        throw validationFailed([{ path: [...PIN_POINTER], detail: `Registry module '${module.name}' has no published version to pin` }]);
    }
    return highest;
}

/**
 * Each set names a variable of the pinned version with its declared type, and one set per variable; the
 * pointers are the sets' own (`.../variable-options/data/N/...`), which a caller judging kept sets replaces.
 */
function setProblems(db: Db, moduleId: string, versionPin: string, sets: readonly DesiredSet[]): Problem[] {
    const variables = moduleVariablesOf(db, moduleId, versionPin);
    const problems: Problem[] = [];
    const at = (index: number, field: string) => [...OPTIONS_POINTER, index, "attributes", field];
    sets.forEach((set, index) => {
        const variable = variables.find((candidate) => candidate.name === set.variableName);
        if (!variable) {
            problems.push({
                path: at(index, "variable-name"),
                detail: `Variable name '${set.variableName}' is not a variable of version ${versionPin} (its variables: ${listOrNone(variables.map((v) => v.name))})`,
            });
        } else if (variable.type !== set.variableType) {
            problems.push({
                path: at(index, "variable-type"),
                detail: `Variable type of '${set.variableName}' must be its declared type '${variable.type}' in version ${versionPin}, got '${set.variableType}'`,
            });
        }
    });
    for (const problem of variableOptionSetProblems(sets)) {
        problems.push({ path: at(problem.index, "variable-name"), detail: capitalized(problem.message) });
    }
    return problems;
}

/** 422 at `.../N/id` for an id that is not a set of this module, or an id listed twice. */
function setIdProblems(items: OptionItems, existingIds: ReadonlySet<string>): Problem[] {
    const problems: Problem[] = [];
    const seen = new Set<string>();
    items.forEach((item, index) => {
        if (item.id === undefined) return;
        const path = [...OPTIONS_POINTER, index, "id"];
        if (!existingIds.has(item.id)) {
            problems.push({ path, detail: `Id '${abbreviated(item.id)}' is not a variable-options set of this no-code module; leave id out to add a set` });
        } else if (seen.has(item.id)) {
            problems.push({ path, detail: `Id '${item.id}' is listed more than once` });
        }
        seen.add(item.id);
    });
    return problems;
}

/** A stored set as a write keeps it. */
function desiredSetOf(set: VariableOptionsRow): DesiredSet {
    return { id: set.id, variableName: set.variable_name, variableType: set.variable_type, options: optionValues(set) };
}

/**
 * The sets a list asks for. An item with an id and no attributes keeps that set as stored (its id was checked
 * by {@link setIdProblems}); the schema lets an item without attributes through only when it has an id.
 */
function desiredSets(items: OptionItems, existingById: ReadonlyMap<string, VariableOptionsRow>): DesiredSet[] {
    return items.map((item) => {
        const attributes = item.attributes;
        if (attributes === undefined) return desiredSetOf(existingById.get(item.id!)!);
        return {
            id: item.id,
            variableName: attributes["variable-name"],
            variableType: attributes["variable-type"],
            options: attributes.options ?? [],
        };
    });
}

/** Writes the sets in list order: a set with an id is replaced in place, one without is added. */
function writeSets(db: Db, moduleId: string, sets: readonly DesiredSet[], timestamp: string): void {
    sets.forEach((set, position) => {
        const values = { variableName: set.variableName, variableType: set.variableType, options: set.options, position };
        if (set.id !== undefined) updateVariableOptions(db, set.id, values, timestamp);
        else insertVariableOptions(db, newId("ncvaropt-"), moduleId, values, timestamp);
    });
}

/**
 * What a no-code module version is: the registry module, the pin and the content of the sets. Neither the
 * sets' order nor their ids nor the order of their options matters: a PATCH that only reorders, or replaces
 * a set by an equal one, makes no new version.
 */
function canonicalSnapshot(registryModuleId: string, versionPin: string, sets: readonly { name: string; type: string; options: string[] }[]) {
    // Each set as JSON text, the texts sorted as strings: an order fixed by the content alone (any such order
    // does; it need not be by name), with no comparator whose ties could leave the request's order in it.
    const content = sets.map((set) => JSON.stringify([set.name, set.type, [...set.options].sort()])).sort();
    return JSON.stringify({ registryModuleId, versionPin, variableOptions: content });
}

function versionSnapshot(db: Db, module: NoCodeModuleRow): string {
    const sets = variableOptionsOf(db, module.id).map((set) => ({ name: set.variable_name, type: set.variable_type, options: optionValues(set) }));
    return canonicalSnapshot(module.registry_module_id, module.version_pin, sets);
}

function snapshotOfVersion(version: { registry_module_id: string; version_pin: string; variable_options: string }): string {
    return canonicalSnapshot(version.registry_module_id, version.version_pin, JSON.parse(version.variable_options));
}

/** Records the module's settings as they are now as the version `id`. */
function insertVersion(db: Db, id: string, module: NoCodeModuleRow, timestamp: string): void {
    const sets = variableOptionsOf(db, module.id).map((set) => ({ name: set.variable_name, type: set.variable_type, options: optionValues(set) }));
    insertNoCodeModuleVersion(db, {
        id,
        no_code_module_id: module.id,
        registry_module_id: module.registry_module_id,
        version_pin: module.version_pin,
        variable_options: JSON.stringify(sets),
        created_at: timestamp,
    });
}
