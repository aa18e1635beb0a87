/**
 * The description of the project routes (`routes/projects.ts`): projects, their tag bindings at both paths,
 * their effective tag bindings, and moving workspaces into one.
 */
import { z } from "zod";
import {
    createProjectRequestSchema,
    effectiveTagBindingResourceSchema,
    listDocumentSchema,
    moveWorkspacesRequestSchema,
    projectListDocumentSchema,
    projectResourceSchema,
    singleDocumentSchema,
    tagBindingResourceSchema,
    updateProjectRequestSchema,
    updateTagBindingsRequestSchema,
} from "../../sdk/model";
import { PROJECT_LIST_INCLUDES, PROJECT_LIST_SORTS } from "../routes/projects";
import { ERROR_CODES } from "../errors";
import { body, bodyAnswers, commaSeparated, commonAnswers, queryAnswers, error, pageParameters, type Answer, type Operation, type QueryParameter } from "./operation";
import { taggedFilterParameters } from "./tagFilters";

const TAG = "Projects";
const ORGANIZATION = { organization: "The organization's name" };
const PROJECT = { id: "The project's id (`prj-...`)" };
const NOT_FOUND = "No such project, or the token may not see it";

/** A project's id in a project answer, to its show, update and delete. */
function projectLinks(): Answer["links"] {
    const id = { id: "$response.body#/data/id" };
    return {
        showProject: { operationId: "showProject", parameters: id, description: "Read the project back" },
        updateProject: { operationId: "updateProject", parameters: id, description: "Update the project" },
        deleteProject: { operationId: "deleteProject", parameters: id, description: "Delete the project" },
        listProjectTagBindings: { operationId: "listProjectTagBindings", parameters: id, description: "Its tag bindings" },
    };
}

const projectDocument = () => singleDocumentSchema(projectResourceSchema());
const tagBindingList = () => listDocumentSchema(tagBindingResourceSchema());

function listParameters(): Record<string, QueryParameter> {
    return {
        ...pageParameters(),
        q: { schema: z.string(), description: "Projects whose name holds this text, in any case; blank filters nothing" },
        "filter[names]": { schema: z.string(), description: "Comma-separated names (any case): only those projects" },
        sort: { schema: z.enum(PROJECT_LIST_SORTS), description: "By name, ascending or descending (default: by name)" },
        "filter[permissions][create-workspace]": {
            schema: z.string(),
            description: "Present and not `false`: only projects the token may create workspaces in",
        },
        "filter[permissions][update]": { schema: z.string(), description: "Present and not `false`: only projects the token may update" },
        include: commaSeparated(PROJECT_LIST_INCLUDES, "`effective_tag_bindings`: each project's effective tag bindings in `included`"),
        ...taggedFilterParameters("projects"),
    };
}

/** The project routes. */
export function projectOperations(): Operation[] {
    const project = (method: Operation["method"], path: string) => ({ method, path: `/api/v2/projects/:id${path}`, tag: TAG, pathParameters: PROJECT });
    const tagsBody = () => body(updateTagBindingsRequestSchema(), "The tag bindings: each a key and a value");
    return [
        {
            method: "post",
            path: "/api/v2/organizations/:organization/projects",
            operationId: "createProject",
            summary: "Create a project",
            tag: TAG,
            pathParameters: ORGANIZATION,
            body: body(createProjectRequestSchema(), "A name, and optionally a description, an auto-destroy duration and tag bindings"),
            responses: {
                201: { description: "The project, created", body: projectDocument(), links: projectLinks() },
                ...commonAnswers("No such organization, or the token may not create projects in it"),
                ...bodyAnswers(),
            },
        },
        {
            method: "get",
            path: "/api/v2/organizations/:organization/projects",
            operationId: "listProjects",
            summary: "List the organization's projects the token sees",
            tag: TAG,
            pathParameters: ORGANIZATION,
            query: listParameters(),
            responses: {
                200: {
                    description: "One page of projects",
                    body: projectListDocumentSchema().extend({ included: z.array(effectiveTagBindingResourceSchema()).optional() }),
                },
                ...commonAnswers("No such organization, or the token's is another"),
                ...queryAnswers(),
            },
        },
        {
            ...project("get", ""),
            operationId: "showProject",
            summary: "Read a project",
            responses: { 200: { description: "The project", body: projectDocument() }, ...commonAnswers(NOT_FOUND) },
        },
        {
            ...project("patch", ""),
            operationId: "updateProject",
            summary: "Update a project; tag bindings, when given, replace the set",
            body: body(updateProjectRequestSchema(), "The attributes to change; those left out stay"),
            responses: {
                200: { description: "The project, updated", body: projectDocument(), links: projectLinks() },
                ...commonAnswers(NOT_FOUND),
                ...bodyAnswers(),
            },
        },
        {
            ...project("delete", ""),
            operationId: "deleteProject",
            summary: "Delete a project",
            responses: {
                204: { description: "Deleted" },
                ...commonAnswers(NOT_FOUND),
                403: error("The token may see the project but not delete it"),
                409: error(`The organization's default project (\`${ERROR_CODES.defaultProjectUndeletable}\`), or one that holds workspaces (\`${ERROR_CODES.projectHasWorkspaces}\`)`),
            },
        },
        {
            ...project("get", "/tag-bindings"),
            operationId: "listProjectTagBindings",
            summary: "List a project's tag bindings",
            responses: { 200: { description: "Its tag bindings", body: tagBindingList() }, ...commonAnswers(NOT_FOUND) },
        },
        {
            ...project("patch", "/tag-bindings"),
            operationId: "addProjectTagBindings",
            summary: "Add tag bindings to a project, or change their values; none is removed",
            body: tagsBody(),
            responses: {
                200: { description: "The bindings written, with their ids", body: tagBindingList() },
                ...commonAnswers(NOT_FOUND),
                ...bodyAnswers(),
            },
        },
        {
            ...project("get", "/effective-tag-bindings"),
            operationId: "listProjectEffectiveTagBindings",
            summary: "List a project's effective tag bindings (its own)",
            responses: {
                200: { description: "Its effective tag bindings", body: listDocumentSchema(effectiveTagBindingResourceSchema()) },
                ...commonAnswers(NOT_FOUND),
            },
        },
        {
            ...project("get", "/relationships/tag-bindings"),
            operationId: "listProjectTagBindingRelationships",
            summary: "List a project's tag bindings (the path of the hosted service's published description)",
            responses: { 200: { description: "Its tag bindings", body: tagBindingList() }, ...commonAnswers(NOT_FOUND) },
        },
        {
            ...project("post", "/relationships/tag-bindings"),
            operationId: "addProjectTagBindingRelationships",
            summary: "Add tag bindings to a project, or change their values; none is removed",
            body: tagsBody(),
            responses: { 204: { description: "Written" }, ...commonAnswers(NOT_FOUND), ...bodyAnswers() },
        },
        {
            ...project("patch", "/relationships/tag-bindings"),
            operationId: "replaceProjectTagBindingRelationships",
            summary: "Replace a project's whole set of tag bindings",
            body: tagsBody(),
            responses: { 204: { description: "Replaced" }, ...commonAnswers(NOT_FOUND), ...bodyAnswers() },
        },
        {
            ...project("post", "/relationships/workspaces"),
            operationId: "moveWorkspacesToProject",
            summary: "Move workspaces into a project, all or none",
            body: body(moveWorkspacesRequestSchema(), "The workspaces to move"),
            responses: {
                204: { description: "Moved" },
                ...commonAnswers(NOT_FOUND),
                ...bodyAnswers(),
                403: error("A workspace the token may not see or move; nothing was moved (`meta` names them)"),
            },
        },
    ];
}
