/**
 * Reads of the acme organization of an example's local service, as its tests check what a program left there:
 * a document by path, a workspace by name, a workspace's variables by key. Every read must answer 200.
 */
import type { TestServer } from "../support/server";

/** The reads, through `server()` (started in a `beforeAll`, so asked for at each read) with `token`. */
export function acmeReader(server: () => TestServer, token: string) {
    const get = async (pathname: string) => {
        const response = await server().request("GET", pathname, { token });
        expect(response.status).toBe(200);
        return response.body;
    };
    const workspaceNamed = async (name: string) => (await get(`/organizations/acme/workspaces/${name}`)).data;
    const varsOf = async (workspaceName: string) =>
        Object.fromEntries(
            ((await get(`/vars?filter%5Bworkspace%5D%5Bname%5D=${workspaceName}&filter%5Borganization%5D%5Bname%5D=acme`)).data as Array<{
                attributes: Record<string, unknown>;
            }>).map((v) => [v.attributes.key as string, v.attributes]),
        );
    return { get, workspaceNamed, varsOf };
}
