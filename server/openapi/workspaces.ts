/**
 * The description of the workspace routes (`routes/workspaces.ts`): workspaces by id and by name, the
 * organization's list with the filters and searches of the hosted service's published description, and a
 * workspace's effective (inherited) tag bindings.
 */
import { z } from "zod";
import {
    createWorkspaceRequestSchema,
    effectiveTagBindingResourceSchema,
    listDocumentSchema,
    noCodeModuleVersionResourceSchema,
    singleDocumentSchema,
    updateWorkspaceRequestSchema,
    workspaceListDocumentSchema,
    workspaceResourceSchema,
} from "../../sdk/model";
import { WORKSPACE_INCLUDES, WORKSPACE_LIST_SORTS } from "../routes/workspaces";
import { body, bodyAnswers, commaSeparated, commonAnswers, queryAnswers, pageParameters, type Answer, type Operation, type QueryParameter } from "./operation";
import { taggedFilterParameters } from "./tagFilters";

const TAG = "Workspaces";
const ORGANIZATION = { organization: "The organization's name" };
const WORKSPACE = { id: "The workspace's id (`ws-...`)" };
const NOT_FOUND = "No such workspace, or the token may not see it";

/** A workspace's id in a workspace answer, to its show, update, delete, variables and tag bindings. */
export function workspaceLinks(): Answer["links"] {
    const id = { id: "$response.body#/data/id" };
    return {
        showWorkspace: { operationId: "showWorkspace", parameters: id, description: "Read the workspace back" },
        updateWorkspace: { operationId: "updateWorkspace", parameters: id, description: "Update the workspace" },
        deleteWorkspace: { operationId: "deleteWorkspace", parameters: id, description: "Delete the workspace" },
        listWorkspaceEffectiveTagBindings: { operationId: "listWorkspaceEffectiveTagBindings", parameters: id, description: "Its tags" },
    };
}

/** A workspace document, with its no-code module version in `included` when asked. */
export function workspaceDocument() {
    return singleDocumentSchema(workspaceResourceSchema()).extend({ included: z.array(noCodeModuleVersionResourceSchema()).optional() });
}

function includeParameter(): Record<string, QueryParameter> {
    return { include: commaSeparated(WORKSPACE_INCLUDES, "`no-code-module-version`: the workspace's no-code module version in `included`") };
}

function listParameters(): Record<string, QueryParameter> {
    const text = (description: string): QueryParameter => ({ schema: z.string(), description });
    return {
        ...pageParameters(),
        sort: { schema: z.enum(WORKSPACE_LIST_SORTS), description: "By name, or by creation (`current-run.created-at`), ascending or descending" },
        "search[name]": text("Workspaces whose name holds this text"),
        "search[wildcard-name]": text("Workspaces whose name matches this pattern, `*` standing for any characters"),
        "filter[project][id]": text("Only the workspaces of this project"),
        "filter[no-code-module][id]": text("Only the workspaces made from this no-code module"),
        "filter[current-run][status]": text("Only workspaces whose current run has one of these statuses: none has a run here, so a value keeps none"),
        ...taggedFilterParameters("workspaces"),
        ...includeParameter(),
    };
}

/** The workspace routes. */
export function workspaceOperations(): Operation[] {
    const workspace = (method: Operation["method"], path: string) => ({ method, path: `/api/v2/workspaces/:id${path}`, tag: TAG, pathParameters: WORKSPACE });
    return [
        {
            method: "post",
            path: "/api/v2/organizations/:organization/workspaces",
            operationId: "createWorkspace",
            summary: "Create a workspace (in the organization's default project unless told)",
            tag: TAG,
            pathParameters: ORGANIZATION,
            body: body(createWorkspaceRequestSchema(), "A name, and optionally the attributes of an update and a project"),
            responses: {
                201: { description: "The workspace, created", body: workspaceDocument(), links: workspaceLinks() },
                ...commonAnswers("No such organization or project, or the token may not create workspaces there"),
                ...bodyAnswers(),
            },
        },
        {
            method: "get",
            path: "/api/v2/organizations/:organization/workspaces",
            operationId: "listWorkspaces",
            summary: "List the organization's workspaces the token sees",
            tag: TAG,
            pathParameters: ORGANIZATION,
            query: listParameters(),
            responses: {
                200: {
                    description: "One page of workspaces",
                    body: workspaceListDocumentSchema().extend({ included: z.array(noCodeModuleVersionResourceSchema()).optional() }),
                },
                ...commonAnswers("No such organization, or the token's is another"),
                ...queryAnswers(),
            },
        },
        {
            method: "get",
            path: "/api/v2/organizations/:organization/workspaces/:name",
            operationId: "showWorkspaceByName",
            summary: "Read a workspace by its name",
            tag: TAG,
            pathParameters: { ...ORGANIZATION, name: "The workspace's name" },
            query: includeParameter(),
            responses: { 200: { description: "The workspace", body: workspaceDocument() }, ...commonAnswers(NOT_FOUND), ...queryAnswers() },
        },
        {
            ...workspace("get", ""),
            operationId: "showWorkspace",
            summary: "Read a workspace",
            query: includeParameter(),
            responses: { 200: { description: "The workspace", body: workspaceDocument() }, ...commonAnswers(NOT_FOUND), ...queryAnswers() },
        },
        {
            ...workspace("patch", ""),
            operationId: "updateWorkspace",
            summary: "Update a workspace; `relationships.project` moves it",
            body: body(updateWorkspaceRequestSchema(), "The attributes to change; those left out stay"),
            responses: {
                200: { description: "The workspace, updated", body: workspaceDocument(), links: workspaceLinks() },
                ...commonAnswers(NOT_FOUND),
                ...bodyAnswers(),
            },
        },
        {
            ...workspace("delete", ""),
            operationId: "deleteWorkspace",
            summary: "Delete a workspace and its variables",
            responses: { 204: { description: "Deleted" }, ...commonAnswers(NOT_FOUND) },
        },
        {
            ...workspace("get", "/effective-tag-bindings"),
            operationId: "listWorkspaceEffectiveTagBindings",
            summary: "List a workspace's effective tag bindings: its project's, each saying where it is inherited from",
            responses: {
                200: { description: "Its effective tag bindings", body: listDocumentSchema(effectiveTagBindingResourceSchema()) },
                ...commonAnswers(NOT_FOUND),
            },
        },
    ];
}
