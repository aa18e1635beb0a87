/**
 * The floor of the provider figures: the thinnest possible dynamic provider of a project. It sends exactly
 * the requests `wos:Project` sends (a create: the name look-up, then the create; a delete: the delete; check
 * and diff: none), with Node's own `http.request` over one keep-alive agent, and does nothing else: no
 * validation, no SDK, no error mapping, no recovery. Driven by the same provider host as `wos:Project`, the
 * difference between the two is our provider's and client's own cost.
 *
 * Loaded by absolute path from the serialized provider the provider bench hands the host.
 *
 * @module
 */
import * as http from "node:http";

let agent: http.Agent | undefined;
let base: URL | undefined;
let token = "";

/** Takes `wos:address` and `wos:token` from the stack configuration, as `wos:Project` does. */
export async function configure(request: { config: { get(key: string): string | undefined } }): Promise<void> {
    base = new URL(`${request.config.get("wos:address") ?? "http://127.0.0.1:8787"}/api/v2`);
    token = request.config.get("wos:token") ?? "";
    agent = new http.Agent({ keepAlive: true });
}

function send(method: string, path: string, body?: unknown): Promise<{ status: number; json: any }> {
    const payload = body === undefined ? undefined : JSON.stringify(body);
    const headers: Record<string, string | number> = { accept: "application/vnd.api+json", authorization: `Bearer ${token}` };
    if (payload !== undefined) {
        headers["content-type"] = "application/vnd.api+json";
        headers["content-length"] = Buffer.byteLength(payload);
    }
    return new Promise((resolve, reject) => {
        const request = http.request({ host: base!.hostname, port: base!.port, method, path: base!.pathname + path, headers, agent }, (response) => {
            const chunks: Buffer[] = [];
            response.on("data", (chunk: Buffer) => chunks.push(chunk));
            response.on("end", () => {
                const text = Buffer.concat(chunks).toString("utf8");
                resolve({ status: response.statusCode ?? 0, json: text ? JSON.parse(text) : undefined });
            });
            response.on("error", reject);
        });
        request.on("error", reject);
        request.end(payload);
    });
}

function expect(answer: { status: number; json: any }, status: number, what: string): any {
    if (answer.status !== status) throw new Error(`${what}: ${answer.status} ${JSON.stringify(answer.json)}`);
    return answer.json;
}

export async function check(_olds: Record<string, any>, news: Record<string, any>) {
    return { inputs: news };
}

export async function diff(_id: string, olds: Record<string, any>, news: Record<string, any>) {
    return { changes: olds.name !== news.name || olds.description !== news.description || olds.organization !== news.organization };
}

export async function create(inputs: Record<string, any>) {
    const organization = encodeURIComponent(inputs.organization);
    expect(await send("GET", `/organizations/${organization}/projects?filter%5Bnames%5D=${encodeURIComponent(inputs.name)}&page%5Bsize%5D=100`), 200, "look-up");
    const attributes: Record<string, unknown> = { name: inputs.name };
    if (inputs.description !== undefined) attributes.description = inputs.description;
    const created = expect(await send("POST", `/organizations/${organization}/projects`, { data: { type: "projects", attributes } }), 201, "create");
    return { id: created.data.id as string, outs: { organization: inputs.organization, name: inputs.name, description: inputs.description } };
}

export async function read(id: string, props: Record<string, any>) {
    expect(await send("GET", `/projects/${encodeURIComponent(id)}`), 200, "read");
    return { id, props };
}

export async function update(_id: string, _olds: Record<string, any>, news: Record<string, any>) {
    return { outs: news };
}

async function delete_(id: string): Promise<void> {
    const answer = await send("DELETE", `/projects/${encodeURIComponent(id)}`);
    if (answer.status !== 204 && answer.status !== 404) expect(answer, 204, "delete");
}

export { delete_ as delete };
