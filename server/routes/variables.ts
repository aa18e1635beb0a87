/**
 * The deprecated standalone variables interface `/vars` (the API's Variables endpoints, with the local
 * service's own decisions): create (relationship or deprecated filter body), list (linked filters), update,
 * delete. A sensitive value is never answered; reading needs `read` on the project, writing `write`.
 */
import type { FastifyInstance } from "fastify";
import type { z } from "zod";
import { createVariableRequestSchema, updateVariableRequestSchema, type VariableCategory } from "../../sdk/model";
import { principalOf, type AppContext } from "../context";
import {
    requireOrganization,
    variableReadableWorkspace,
    variableWritableWorkspace,
    workspacePermissions,
    writableVariable,
    type Params,
} from "../access";
import type { Principal } from "../auth";
import { newId, now, readTransaction, writeTransaction, type Db } from "../db";
import { ERROR_CODES, invalidParameter, parseBody, urlIdProblems, validationFailed, type Problem } from "../errors";
import { singleParameter, type Query } from "../pagination";
import {
    deleteVariable,
    findVariable,
    insertVariable,
    storedVariableValue,
    updateVariableAttributes,
    variableIdByKey,
    variablesOf,
    variablesOfOrganization,
    withPlainValue,
    type VariableRow,
} from "../records/variables";
import { findWorkspace, findWorkspaceByName, workspacesOfOrganization, type WorkspaceRow } from "../records/workspaces";
import { renderVariable } from "../render";

const WORKSPACE_FILTER = "filter[workspace][name]";
const ORGANIZATION_FILTER = "filter[organization][name]";

type CreateBody = z.output<ReturnType<typeof createVariableRequestSchema>>;
type UpdateAttributes = NonNullable<z.output<ReturnType<typeof updateVariableRequestSchema>>["data"]["attributes"]>;

/** Registers the `/vars` routes under `/api/v2`. */
export function registerVariableRoutes(api: FastifyInstance, { db }: AppContext): void {
    api.post("/vars", async (request, reply) => {
        const principal = principalOf(request);
        const data = writeTransaction(db, () => {
            const body = parseBody(createVariableRequestSchema(), request.body);
            const workspace = variableWritableWorkspace(principal, owningWorkspace(db, principal, body));
            return renderVariable(createVariable(db, workspace, body.data.attributes));
        });
        return reply.code(201).send({ data });
    });

    api.get("/vars", async (request) => {
        const principal = principalOf(request);
        const filter = linkedFilters(request.query as Query);
        if (filter) requireOrganization(principal, filter.organization);
        return readTransaction(db, () => {
            if (filter) {
                const workspace = variableReadableWorkspace(principal, findWorkspaceByName(db, principal.organization, filter.workspaceName));
                return { data: variablesOf(db, workspace.id).map(renderVariable) };
            }
            return { data: readableVariables(db, principal).map(renderVariable) };
        });
    });

    api.patch<Params>("/vars/:id", async (request) => {
        const principal = principalOf(request);
        return writeTransaction(db, () => {
            const current = writableVariable(db, principal, request.params.id);
            const { data } = parseBody(updateVariableRequestSchema(), request.body);
            return { data: renderVariable(updateVariable(db, current, data.id, data.attributes ?? {})) };
        });
    });

    api.delete<Params>("/vars/:id", async (request, reply) => {
        const principal = principalOf(request);
        writeTransaction(db, () => {
            const variable = writableVariable(db, principal, request.params.id);
            deleteVariable(db, variable.id);
        });
        return reply.code(204).send();
    });
}

// ---------------------------------------------------------------------------------------------------------
// The rules that need the database. Each runs inside the caller's transaction and throws the refusal.

/**
 * The workspace a create names: by relationship, or by the deprecated filter body (whose organization must
 * be the caller's: 404 otherwise). Neither: 422 at the relationship.
 */
function owningWorkspace(db: Db, principal: Principal, body: CreateBody): WorkspaceRow | undefined {
    const relationship = body.data.relationships?.workspace;
    if (relationship) return findWorkspace(db, relationship.data.id);
    if (body.filter) {
        requireOrganization(principal, body.filter.organization.name);
        return findWorkspaceByName(db, principal.organization, body.filter.workspace.name);
    }
    throw validationFailed([
        {
            path: ["data", "relationships", "workspace"],
            detail: "Workspace is required: give data.relationships.workspace (or the deprecated filter.workspace.name and filter.organization.name)",
        },
    ]);
}

/** Creates a variable; 422 when the key is taken in that category of the workspace. */
function createVariable(db: Db, workspace: WorkspaceRow, attributes: CreateBody["data"]["attributes"]): VariableRow {
    const problems = keyProblems(db, workspace.id, attributes.category, attributes.key);
    if (problems.length > 0) throw validationFailed(problems);
    const timestamp = now();
    const row: VariableRow = {
        id: newId("var-"),
        workspace_id: workspace.id,
        key: attributes.key,
        // A sensitive value is stored sealed; the row is only rendered, which never shows it.
        value: storedVariableValue(db, attributes.value ?? "", Boolean(attributes.sensitive)),
        description: attributes.description ?? null,
        category: attributes.category,
        hcl: attributes.hcl ? 1 : 0,
        sensitive: attributes.sensitive ? 1 : 0,
        version_id: newId(""),
        created_at: timestamp,
        updated_at: timestamp,
    };
    insertVariable(db, row);
    return row;
}

/**
 * Updates the attributes given; the others keep their value. 422 for sensitive true to false, a new key on a
 * sensitive variable, or a key (or category) that would clash with another variable of the workspace.
 */
function updateVariable(db: Db, current: VariableRow, bodyId: string | undefined, attributes: UpdateAttributes): VariableRow {
    const problems: Problem[] = urlIdProblems(bodyId, current.id, "variable");
    if (current.sensitive === 1 && attributes.sensitive === false) {
        problems.push({
            path: ["data", "attributes", "sensitive"],
            detail: "Sensitive cannot be changed from true to false; delete the variable and create it again",
        });
    }
    if (current.sensitive === 1 && attributes.key !== undefined && attributes.key !== current.key) {
        problems.push({
            path: ["data", "attributes", "key"],
            detail: "Key of a sensitive variable cannot be changed; delete the variable and create it again",
        });
    }
    const next = {
        key: attributes.key ?? current.key,
        // In clear: a value kept while the variable turns sensitive is sealed below like a new one.
        value: attributes.value === undefined ? withPlainValue(db, current).value : (attributes.value ?? ""),
        description: attributes.description === undefined ? current.description : attributes.description,
        category: attributes.category ?? current.category,
        hcl: attributes.hcl === undefined ? current.hcl : attributes.hcl ? 1 : 0,
        sensitive: attributes.sensitive === undefined ? current.sensitive : attributes.sensitive ? 1 : 0,
    };
    if (problems.length === 0) problems.push(...keyProblems(db, current.workspace_id, next.category, next.key, current.id));
    if (problems.length > 0) throw validationFailed(problems);
    updateVariableAttributes(db, current.id, { ...next, value: storedVariableValue(db, next.value, next.sensitive) }, now());
    return findVariable(db, current.id)!;
}

/** 422 at the key when another variable of the workspace has it in the same category. */
function keyProblems(db: Db, workspaceId: string, category: VariableCategory, key: string, exceptId?: string): Problem[] {
    const id = variableIdByKey(db, workspaceId, category, key);
    return id !== undefined && id !== exceptId
        ? [
              {
                  path: ["data", "attributes", "key"],
                  detail: `Key has already been taken in category '${category}' of this workspace`,
                  code: ERROR_CODES.keyTaken,
                  meta: { "holder-id": id },
              },
          ]
        : [];
}

/** `GET /vars`' two linked filters (undefined: neither); one without the other is a 422. */
function linkedFilters(query: Query): { workspaceName: string; organization: string } | undefined {
    const workspaceName = singleParameter(query, WORKSPACE_FILTER);
    const organization = singleParameter(query, ORGANIZATION_FILTER);
    if (workspaceName !== undefined && organization === undefined) {
        throw invalidParameter(ORGANIZATION_FILTER, `${ORGANIZATION_FILTER} is required when ${WORKSPACE_FILTER} is given`);
    }
    if (organization !== undefined && workspaceName === undefined) {
        throw invalidParameter(WORKSPACE_FILTER, `${WORKSPACE_FILTER} is required when ${ORGANIZATION_FILTER} is given`);
    }
    return workspaceName === undefined || organization === undefined ? undefined : { workspaceName, organization };
}

/** Every variable of every workspace of the caller's organization whose variables it may read. */
function readableVariables(db: Db, principal: Principal): VariableRow[] {
    const workspaces = workspacesOfOrganization(db, principal.organization);
    const readable = new Set(workspaces.filter((w) => workspacePermissions(principal, w).canReadVariables).map((w) => w.id));
    const variables = variablesOfOrganization(db, principal.organization);
    return variables.filter((variable) => readable.has(variable.workspace_id));
}
