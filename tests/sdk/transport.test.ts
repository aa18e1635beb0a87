/**
 * What goes on the wire, seen by a stand-in HTTP server that records requests (the local service does not
 * echo headers back). Behaviour against the real service is in the other files of this folder.
 */
import * as http from "node:http";
import type { AddressInfo } from "node:net";
import { WosArgumentError, WosClient } from "../../sdk";

interface Seen {
    method?: string;
    url?: string;
    headers: http.IncomingHttpHeaders;
    body: string;
}

let recorder: http.Server;
let address: string;
const seen: Seen[] = [];

beforeAll(async () => {
    recorder = http.createServer((request, response) => {
        let body = "";
        request.on("data", (chunk) => (body += chunk));
        request.on("end", () => {
            seen.push({ method: request.method, url: request.url, headers: request.headers, body });
            response.writeHead(200, { "content-type": "application/vnd.api+json" });
            response.end(JSON.stringify({ data: [] }));
        });
    });
    await new Promise<void>((resolve) => recorder.listen(0, "127.0.0.1", resolve));
    address = `http://127.0.0.1:${(recorder.address() as AddressInfo).port}`;
});

afterAll(async () => {
    await new Promise((resolve) => recorder.close(resolve));
});

beforeEach(() => {
    seen.length = 0;
});

it("sends the bearer token, the JSON:API media type both ways and a User-Agent", async () => {
    await new WosClient({ address, token: "tok-123" }).projects.listTagBindings("prj-1");
    expect(seen).toHaveLength(1);
    expect(seen[0].method).toBe("GET");
    expect(seen[0].url).toBe("/api/v2/projects/prj-1/tag-bindings");
    expect(seen[0].headers.authorization).toBe("Bearer tok-123");
    expect(seen[0].headers.accept).toBe("application/vnd.api+json");
    expect(seen[0].headers["user-agent"]).toMatch(/^pulumi-wos\/\S+ node\/\d+/);
});

it("sends a JSON:API body with the JSON:API content type and honours a custom User-Agent", async () => {
    await new WosClient({ address, token: "tok-123", userAgent: "my-tool/1.0" }).projects.addTagBindings("prj-1", [
        { key: "env", value: "prod" },
    ]);
    expect(seen[0].method).toBe("PATCH");
    expect(seen[0].headers["content-type"]).toBe("application/vnd.api+json");
    expect(seen[0].headers["user-agent"]).toBe("my-tool/1.0");
    expect(JSON.parse(seen[0].body)).toEqual({ data: [{ type: "tag-bindings", attributes: { key: "env", value: "prod" } }] });
});

it("sends its own headers and nothing of axios' defaults, with and without a body", async () => {
    const client = new WosClient({ address, token: "tok-123" });
    await client.projects.listTagBindings("prj-1");
    await client.projects.addTagBindings("prj-1", [{ key: "env", value: "prod" }]);
    const own = {
        accept: "application/vnd.api+json",
        authorization: "Bearer tok-123",
        "content-type": "application/vnd.api+json",
        connection: "keep-alive",
        host: new URL(address).host,
    };
    const { "user-agent": getAgent, ...get } = seen[0].headers;
    const { "user-agent": patchAgent, ...patch } = seen[1].headers;
    expect(getAgent).toMatch(/^pulumi-wos\/\S+ node\/\d+/);
    expect(patchAgent).toBe(getAgent);
    expect(get).toEqual(own);
    expect(patch).toEqual({ ...own, "content-length": String(Buffer.byteLength(seen[1].body)) });
});

it("percent-encodes bracketed query parameters and path segments", async () => {
    await new WosClient({ address: `${address}/api/v2/`, token: "t" }).variables.listByWorkspaceName("a/b", "my ws");
    expect(seen[0].url).toBe("/api/v2/vars?filter%5Bworkspace%5D%5Bname%5D=my%20ws&filter%5Borganization%5D%5Bname%5D=a%2Fb");
    await new WosClient({ address, token: "t" }).workspaces.listEffectiveTagBindings("ws-1/../x");
    expect(seen[1].url).toBe("/api/v2/workspaces/ws-1%2F..%2Fx/effective-tag-bindings");
});

it("refuses an id or name of \".\" or \"..\" before sending anything: a URL path would read it as a step to another endpoint", async () => {
    const client = new WosClient({ address, token: "t" });
    const attempts: [Promise<unknown>, string][] = [
        [client.projects.listTagBindings(".."), 'GET /projects/:project_id/tag-bindings: projectId must not be "..": a URL path reads it as a step, not a name'],
        [client.projects.delete("."), 'DELETE /projects/:project_id: projectId must not be ".": a URL path reads it as a step, not a name'],
        [client.workspaces.read(".."), 'GET /workspaces/:workspace_id: workspaceId must not be "..": a URL path reads it as a step, not a name'],
        [client.projects.list(".."), 'GET /organizations/:organization/projects: organization must not be "..": a URL path reads it as a step, not a name'],
    ];
    for (const [attempt, message] of attempts) {
        const error = await attempt.then(
            () => undefined,
            (failure: unknown) => failure,
        );
        expect(WosArgumentError.isInstance(error)).toBe(true);
        expect((error as Error).message).toBe(message);
    }
    expect(seen).toEqual([]);
    // Three dots are no step: an id like any other, encoded.
    await client.projects.listTagBindings("...");
    expect(seen.map((request) => request.url)).toEqual(["/api/v2/projects/.../tag-bindings"]);
});
