/**
 * The service's OpenAPI 3.1 description, generated from the operations of each family (`projects.ts`,
 * `workspaces.ts`, `variables.ts`, `noCode.ts`, `service.ts`), whose schemas are the zod schemas of
 * `sdk/model` (the one place each rule is written), turned into JSON Schema by zod's own `z.toJSONSchema`.
 * `wos-server` serves it at `/api/v2/openapi.json`; the build writes it into the packages (`write.ts`).
 */
import { z } from "zod";
import type { OpenAPIObject, OperationObject, ParameterObject, PathItemObject, ResponseObject, SchemaObject } from "openapi3-ts/oas31";
import { JSON_API_MEDIA_TYPE } from "../../sdk/model";
import { MAX_PATH_PARAMETER_LENGTH } from "../connections";
import { serverVersion } from "../version";
import { EXAMPLE_BODIES } from "./examples";
import { noCodeOperations } from "./noCode";
import { ERROR_BODY, error, type Operation } from "./operation";
import { projectOperations } from "./projects";
import { adminOperations, serviceOperations } from "./service";
import { variableOperations } from "./variables";
import { workspaceOperations } from "./workspaces";

/** What the description covers: with `admin`, the fault injection routes a server with an admin token has. */
export interface DescriptionOptions {
    admin: boolean;
}

/** Every operation of a server with these options, in the order the description lists them. */
export function describedOperations(options: DescriptionOptions): Operation[] {
    return [
        ...serviceOperations(),
        ...projectOperations(),
        ...workspaceOperations(),
        ...variableOperations(),
        ...noCodeOperations(),
        ...(options.admin ? adminOperations() : []),
    ];
}

/** The description of a server with these options. */
export function openApiDocument(options: DescriptionOptions): OpenAPIObject {
    const operations = describedOperations(options);
    const registry = z.registry<{ id: string }>();
    const ref = (schema: z.ZodType, id: string) => {
        if (!registry.has(schema)) registry.add(schema, { id });
        return { $ref: `#/components/schemas/${registry.get(schema)!.id}` };
    };
    ref(ERROR_BODY, "ErrorDocument");

    const paths: Record<string, PathItemObject> = {};
    for (const operation of operations) {
        const name = pascalCase(operation.operationId);
        const item: OperationObject = {
            operationId: operation.operationId,
            summary: operation.summary,
            ...(operation.description !== undefined && { description: operation.description }),
            tags: [operation.tag],
            security: securityOf(operation),
            parameters: [...pathParameters(operation), ...queryParameters(operation)],
            ...(operation.body && {
                requestBody: {
                    description: operation.body.description,
                    required: operation.body.required,
                    content: {
                        [JSON_API_MEDIA_TYPE]: {
                            schema: ref(operation.body.schema, `${name}Request`),
                            ...(EXAMPLE_BODIES[operation.operationId] !== undefined && { example: EXAMPLE_BODIES[operation.operationId] }),
                        },
                    },
                },
            }),
            responses: Object.fromEntries(
                Object.entries(answersOf(operation)).map(([status, answer]): [string, ResponseObject] => [
                    status,
                    {
                        description: answer.description,
                        ...(answer.body && {
                            content: {
                                [answer.mediaType ?? JSON_API_MEDIA_TYPE]: {
                                    schema: ref(answer.body, answer.body === ERROR_BODY ? "ErrorDocument" : `${name}Response`),
                                },
                            },
                        }),
                        ...(answer.links && { links: answer.links }),
                    },
                ]),
            ),
        };
        const path = openApiPath(operation.path);
        paths[path] = { ...paths[path], [operation.method]: item };
    }

    const { schemas } = z.toJSONSchema(registry, { io: "input", unrepresentable: "any", uri: (id) => `#/components/schemas/${id}` });
    return {
        openapi: "3.1.0",
        info: {
            title: "Workspace Organization Service (wos-server)",
            version: serverVersion(),
            description:
                "Every endpoint of the Workspace Organization Service as wos-server, the local service of pulumi-wos, answers it: " +
                "JSON:API documents under /api/v2, a bearer token on every call but ping and this description.",
            license: { name: "Apache-2.0", identifier: "Apache-2.0" },
        },
        servers: [{ url: "/", description: "The service the description was read from" }],
        tags: [...new Set(operations.map((operation) => operation.tag))].map((name) => ({ name })),
        paths,
        components: {
            schemas: Object.fromEntries(Object.entries(schemas).map(([id, schema]) => [id, withoutDialect(schema)])),
            securitySchemes: {
                token: { type: "http", scheme: "bearer", description: "A user, team or organization token of the service" },
                ...(options.admin && {
                    adminToken: { type: "http", scheme: "bearer", description: "The admin token (`wos-server --admin-token`)" },
                }),
            },
        },
    };
}

/**
 * What an operation answers: what its family says, and for a path with parameters the router's 414 for a
 * value longer than it reads.
 */
export function answersOf(operation: Operation): Operation["responses"] {
    if (!operation.path.includes(":")) return operation.responses;
    return { ...operation.responses, 414: error(`A path parameter longer than ${MAX_PATH_PARAMETER_LENGTH} characters`) };
}

/** `/projects/:id` as OpenAPI writes it: `/projects/{id}`. */
export function openApiPath(fastifyPath: string): string {
    return fastifyPath.replace(/:([A-Za-z]+)/g, "{$1}");
}

function securityOf(operation: Operation): OperationObject["security"] {
    switch (operation.caller ?? "token") {
        case "anyone":
            return [];
        case "admin":
            return [{ adminToken: [] }];
        case "token":
            return [{ token: [] }];
    }
}

/** The path's `:name`s, each with what the operation says it is; a name it does not say is a bug of the family. */
function pathParameters(operation: Operation): ParameterObject[] {
    return [...operation.path.matchAll(/:([A-Za-z]+)/g)].map(([, name]) => {
        const description = operation.pathParameters[name!];
        if (description === undefined) throw new Error(`${operation.operationId}: the path parameter '${name}' is not described`);
        return { name: name!, in: "path", required: true, description, schema: { type: "string", minLength: 1, maxLength: MAX_PATH_PARAMETER_LENGTH } };
    });
}

function queryParameters(operation: Operation): ParameterObject[] {
    return Object.entries(operation.query ?? {}).map(([name, parameter]) => ({
        name,
        in: "query",
        required: false,
        description: parameter.description,
        schema: withoutDialect(z.toJSONSchema(parameter.schema, { io: "input", unrepresentable: "any" }) as SchemaObject),
    }));
}

/** A schema without its `$schema` and `$id`: OpenAPI 3.1's dialect is the document's, and a component is named by its key. */
function withoutDialect(schema: object): SchemaObject {
    const { $schema: _dialect, $id: _id, ...rest } = schema as SchemaObject & { $schema?: string; $id?: string };
    return rest;
}

function pascalCase(identifier: string): string {
    return identifier.charAt(0).toUpperCase() + identifier.slice(1);
}
