/** The description of the `/vars` routes (`routes/variables.ts`): a workspace's variables. */
import { z } from "zod";
import { createVariableRequestSchema, listDocumentSchema, singleDocumentSchema, updateVariableRequestSchema, variableResourceSchema } from "../../sdk/model";
import { body, bodyAnswers, commonAnswers, queryAnswers, error, type Answer, type Operation } from "./operation";

const TAG = "Variables";
const VARIABLE = { id: "The variable's id (`var-...`)" };
const NOT_FOUND = "No such variable, or the token may not see it";

/** A variable's id in a variable answer, to its update and delete. */
function variableLinks(): Answer["links"] {
    const id = { id: "$response.body#/data/id" };
    return {
        updateVariable: { operationId: "updateVariable", parameters: id, description: "Update the variable" },
        deleteVariable: { operationId: "deleteVariable", parameters: id, description: "Delete the variable" },
    };
}

const variableDocument = () => singleDocumentSchema(variableResourceSchema());

/** The variable routes. */
export function variableOperations(): Operation[] {
    const variable = (method: Operation["method"]) => ({ method, path: "/api/v2/vars/:id", tag: TAG, pathParameters: VARIABLE });
    return [
        {
            method: "post",
            path: "/api/v2/vars",
            operationId: "createVariable",
            summary: "Create a variable of a workspace",
            tag: TAG,
            pathParameters: {},
            body: body(createVariableRequestSchema(), "The variable and, in `relationships.workspace`, its workspace"),
            responses: {
                201: { description: "The variable, created (a sensitive value reads `null`)", body: variableDocument(), links: variableLinks() },
                ...commonAnswers("No such workspace, or the token may not write its variables"),
                ...bodyAnswers(),
            },
        },
        {
            method: "get",
            path: "/api/v2/vars",
            operationId: "listVariables",
            summary: "List variables: of one workspace (both filters), or of every workspace whose variables the token may read",
            tag: TAG,
            pathParameters: {},
            query: {
                "filter[workspace][name]": { schema: z.string(), description: "The workspace's name; needs `filter[organization][name]`" },
                "filter[organization][name]": { schema: z.string(), description: "Its organization's name; needs `filter[workspace][name]`" },
            },
            responses: {
                200: { description: "The variables (sensitive values read `null`)", body: listDocumentSchema(variableResourceSchema()) },
                ...commonAnswers("No such workspace or organization, or the token may not read its variables"),
                ...queryAnswers(),
                422: error("One of the two filters without the other"),
            },
        },
        {
            ...variable("patch"),
            operationId: "updateVariable",
            summary: "Update a variable",
            body: body(updateVariableRequestSchema(), "The attributes to change; those left out stay"),
            responses: {
                200: { description: "The variable, updated", body: variableDocument(), links: variableLinks() },
                ...commonAnswers(NOT_FOUND),
                ...bodyAnswers(),
            },
        },
        {
            ...variable("delete"),
            operationId: "deleteVariable",
            summary: "Delete a variable",
            responses: { 204: { description: "Deleted" }, ...commonAnswers(NOT_FOUND) },
        },
    ];
}
