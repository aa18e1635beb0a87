/**
 * The description of the no-code routes (`routes/noCodeModules.ts`, `routes/noCodeWorkspaces.ts`): modules
 * enabled for no-code provisioning with their variable options, their versions, the registry's modules, the
 * workspaces made from a module and the three upgrade calls (start a plan, read it, confirm it).
 */
import { z } from "zod";
import {
    createNoCodeModuleRequestSchema,
    createNoCodeWorkspaceRequestSchema,
    noCodeModuleResourceSchema,
    noCodeModuleVersionResourceSchema,
    registryModuleResourceSchema,
    singleDocumentSchema,
    updateNoCodeModuleRequestSchema,
    upgradeWorkspaceRequestSchema,
    variableOptionsResourceSchema,
    workspaceUpgradeResourceSchema,
} from "../../sdk/model";
import { NO_CODE_MODULE_INCLUDES } from "../routes/noCodeModules";
import { CONFIRMED } from "../routes/noCodeWorkspaces";
import { ERROR_CODES } from "../errors";
import { body, bodyAnswers, commaSeparated, commonAnswers, queryAnswers, error, type Answer, type Operation } from "./operation";
import { workspaceDocument, workspaceLinks } from "./workspaces";

const TAG = "No-code provisioning";
const MODULE = { id: "The no-code module's id (`nocode-...`)" };
const UPGRADE = { ...MODULE, workspace: "The id of a workspace made from the module (`ws-...`)" };
const NOT_FOUND = "No such no-code module, or the token may not see it";
const UPGRADE_NOT_FOUND = "No such module, workspace of it or upgrade, or the token may not see or manage it";

/** A module's id in a module answer, to its show, update, delete and workspace create. */
function moduleLinks(): Answer["links"] {
    const id = { id: "$response.body#/data/id" };
    return {
        showNoCodeModule: { operationId: "showNoCodeModule", parameters: id, description: "Read the module back" },
        updateNoCodeModule: { operationId: "updateNoCodeModule", parameters: id, description: "Update the module" },
        deleteNoCodeModule: { operationId: "deleteNoCodeModule", parameters: id, description: "Disable the module" },
        createNoCodeWorkspace: { operationId: "createNoCodeWorkspace", parameters: id, description: "Make a workspace from it" },
    };
}

/** An upgrade's id in an upgrade answer, to reading and confirming it. */
function upgradeLinks(): Answer["links"] {
    const parameters = { id: "$request.path.id", workspace: "$request.path.workspace", run: "$response.body#/data/id" };
    return {
        showWorkspaceUpgrade: { operationId: "showWorkspaceUpgrade", parameters, description: "Read the plan's status" },
        confirmWorkspaceUpgrade: { operationId: "confirmWorkspaceUpgrade", parameters, description: "Confirm the plan" },
    };
}

/** A module document; with `include`, its variable-options sets in `included`. */
const moduleDocument = () => singleDocumentSchema(noCodeModuleResourceSchema()).extend({ included: z.array(variableOptionsResourceSchema()).optional() });
const upgradeDocument = () => singleDocumentSchema(workspaceUpgradeResourceSchema());

/** The no-code routes. */
export function noCodeOperations(): Operation[] {
    const module = (method: Operation["method"], path: string) => ({ method, path: `/api/v2/no-code-modules/:id${path}`, tag: TAG, pathParameters: MODULE });
    const upgrade = (method: Operation["method"], run: boolean) => ({
        method,
        path: `/api/v2/no-code-modules/:id/workspaces/:workspace/upgrade${run ? "/:run" : ""}`,
        tag: TAG,
        pathParameters: run ? { ...UPGRADE, run: "The upgrade's id (`run-...`)" } : UPGRADE,
    });
    return [
        {
            method: "post",
            path: "/api/v2/organizations/:organization/no-code-modules",
            operationId: "createNoCodeModule",
            summary: "Enable a registry module for no-code provisioning",
            tag: TAG,
            pathParameters: { organization: "The organization's name" },
            body: body(createNoCodeModuleRequestSchema(), "The registry module, and optionally a version pin and variable options"),
            responses: {
                200: { description: "The no-code module", body: moduleDocument(), links: moduleLinks() },
                ...commonAnswers("No such organization or registry module, an organization token, or a token that may not manage modules"),
                ...bodyAnswers(),
            },
        },
        {
            ...module("get", ""),
            operationId: "showNoCodeModule",
            summary: "Read a no-code module",
            query: { include: commaSeparated(NO_CODE_MODULE_INCLUDES, "`variable_options`: its variable-options sets in `included`") },
            responses: { 200: { description: "The no-code module", body: moduleDocument() }, ...commonAnswers(NOT_FOUND), ...queryAnswers() },
        },
        {
            ...module("patch", ""),
            operationId: "updateNoCodeModule",
            summary: "Update a no-code module; `variable-options`, when given, is the whole list",
            body: body(updateNoCodeModuleRequestSchema(), "What to change; what is left out stays"),
            responses: {
                200: { description: "The no-code module, updated", body: moduleDocument(), links: moduleLinks() },
                ...commonAnswers(NOT_FOUND),
                ...bodyAnswers(),
            },
        },
        {
            ...module("delete", ""),
            operationId: "deleteNoCodeModule",
            summary: "Disable no-code provisioning of the module",
            responses: { 204: { description: "Deleted" }, ...commonAnswers(NOT_FOUND) },
        },
        {
            method: "get",
            path: "/api/v2/no-code-module-versions/:id",
            operationId: "showNoCodeModuleVersion",
            summary: "Read a version of a no-code module",
            tag: TAG,
            pathParameters: { id: "The version's id (`nocodever-...`)" },
            responses: {
                200: { description: "The version", body: singleDocumentSchema(noCodeModuleVersionResourceSchema()) },
                ...commonAnswers("No such version, or the token may not see it"),
            },
        },
        {
            method: "get",
            path: "/api/v2/registry-modules/:id",
            operationId: "showRegistryModule",
            summary: "Read a module of the organization's registry",
            tag: TAG,
            pathParameters: { id: "The registry module's id (`mod-...`)" },
            responses: {
                200: { description: "The registry module", body: singleDocumentSchema(registryModuleResourceSchema()) },
                ...commonAnswers("No such registry module, or the token may not see it"),
            },
        },
        {
            ...module("post", "/workspaces"),
            operationId: "createNoCodeWorkspace",
            summary: "Make a workspace from the module at its pinned version",
            body: body(createNoCodeWorkspaceRequestSchema(), "The workspace's name and project, and its variables"),
            responses: {
                200: { description: "The workspace, created", body: workspaceDocument(), links: workspaceLinks() },
                ...commonAnswers("No such module or project, an organization token, or a token that may not create workspaces there"),
                ...bodyAnswers(),
            },
        },
        {
            ...upgrade("post", false),
            operationId: "startWorkspaceUpgrade",
            summary: "Start the plan of an upgrade to the module's pinned version, with new variable values",
            body: body(upgradeWorkspaceRequestSchema(), "The variables to change; none means only the version"),
            responses: {
                200: { description: "The upgrade, planning", body: upgradeDocument(), links: upgradeLinks() },
                ...commonAnswers(UPGRADE_NOT_FOUND),
                ...bodyAnswers(),
                409: error(`Another upgrade of the workspace is still planning (\`${ERROR_CODES.upgradeInProgress}\`, \`meta.run-id\`)`),
            },
        },
        {
            ...upgrade("get", true),
            operationId: "showWorkspaceUpgrade",
            summary: "Read an upgrade: its status and plan URL",
            responses: { 200: { description: "The upgrade", body: upgradeDocument() }, ...commonAnswers(UPGRADE_NOT_FOUND) },
        },
        {
            ...upgrade("post", true),
            operationId: "confirmWorkspaceUpgrade",
            summary: "Confirm a planned upgrade: the workspace takes the version and the variables",
            description: "The body, if any, is ignored (the public clients send none, or `null`).",
            responses: {
                200: { description: "Confirmed", body: z.object({ message: z.literal(CONFIRMED.message) }) },
                ...commonAnswers(UPGRADE_NOT_FOUND),
                409: error(`The upgrade is not in a status that can be confirmed (\`${ERROR_CODES.upgradeNotConfirmable}\`)`),
            },
        },
    ];
}
