/**
 * The description of the service's own routes (`app.ts`, `faults.ts`): `ping`, the description itself, and
 * the fault injection of `/_admin/faults`, which exists only when the server runs with an admin token.
 */
import { z } from "zod";
import { faultRuleSchema } from "../faults";
import { body, error, type Operation } from "./operation";

/** Where the service serves its description: under the prefix, without a token. */
export const OPENAPI_PATH = "/api/v2/openapi.json";

/** The description's media type (the OpenAPI Initiative's, registered with IANA). */
export const OPENAPI_MEDIA_TYPE = "application/vnd.oai.openapi+json";

/** `ping` and the description. */
export function serviceOperations(): Operation[] {
    return [
        {
            method: "get",
            path: "/api/v2/ping",
            operationId: "ping",
            summary: "Whether the service answers; `X-RateLimit-Limit` says its rate limit (0: none)",
            tag: "Service",
            caller: "anyone",
            pathParameters: {},
            responses: { 204: { description: "It answers" }, 429: error("Over the rate limit") },
        },
        {
            method: "get",
            path: OPENAPI_PATH,
            operationId: "openApiDescription",
            summary: "This description (OpenAPI 3.1)",
            tag: "Service",
            caller: "anyone",
            pathParameters: {},
            responses: {
                200: { description: "The description", body: z.object({ openapi: z.string() }), mediaType: OPENAPI_MEDIA_TYPE },
                429: error("Over the rate limit"),
            },
        },
    ];
}

/** The fault injection routes, with the admin token (`wos-server --admin-token`): a decision of this service for tests. */
export function adminOperations(): Operation[] {
    const admin = { tag: "Fault injection", pathParameters: {}, caller: "admin" } as const;
    return [
        {
            ...admin,
            method: "post",
            path: "/_admin/faults",
            operationId: "addFault",
            summary: "Add a fault rule: requests it matches are delayed, answered another status, or dropped",
            description: "An answer a rule injects is the rule's, whatever this description says of the route it matched.",
            body: body(faultRuleSchema(), "The rule"),
            responses: {
                204: { description: "Added" },
                401: error("Not the admin token"),
                422: error("Not a rule; `source.pointer` names the member"),
            },
        },
        {
            ...admin,
            method: "delete",
            path: "/_admin/faults",
            operationId: "clearFaults",
            summary: "Clear every fault rule",
            responses: { 204: { description: "Cleared" }, 401: error("Not the admin token") },
        },
    ];
}
