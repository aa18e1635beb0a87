/**
 * `examples/no-code-project` (the `wos.NoCodeProject` component) through the real `pulumi` against the real
 * `wos-server` loaded with the demo seed: its lifecycle ({@link exampleLifecycleTests}), then a shared var
 * changed in the stack's config, which upgrades every workspace in one `up`.
 */
import { exampleLifecycleTests } from "./exampleLifecycle";
import type { CliTestService } from "./localService";

const ARCHIVE_KEY = "catalog-archive-key-91d4";
const WORKSPACES = ["audit-logs", "web-assets"];

async function varsOf(service: CliTestService, name: string) {
    const vars = (await service.get(`/vars?filter%5Bworkspace%5D%5Bname%5D=${name}&filter%5Borganization%5D%5Bname%5D=acme`)) as Array<{
        id: string;
        attributes: Record<string, unknown>;
    }>;
    return Object.fromEntries(vars.map((variable) => [variable.attributes.key as string, variable]));
}

async function catalogProject(service: CliTestService) {
    const projects = (await service.get("/organizations/acme/projects?q=Storage%20Catalog")) as Array<{ id: string; attributes: { name: string } }>;
    const found = projects.find((project) => project.attributes.name === "Storage Catalog");
    if (!found) throw new Error("no project 'Storage Catalog'");
    return found;
}

exampleLifecycleTests(
    {
        example: "no-code-project",
        config: { "wos-no-code-project:archiveKey": { value: ARCHIVE_KEY, secret: true } },
        previewShows: [
            /\+ wos:index:NoCodeProject: \(create\)\s+\[urn=\S+::catalog\]/,
            /\+ pulumi-nodejs:dynamic\/wos:Project: \(create\)[^]*?name\s+: "Storage Catalog"/,
            /name\s+: "web-assets"/,
            /name\s+: "audit-logs"/,
        ],
        async drift(service) {
            const project = await catalogProject(service);
            const tagged = await service.request("PATCH", `/projects/${project.id}/tag-bindings`, {
                body: { data: [{ type: "tag-bindings", attributes: { key: "env", value: "staging" } }] },
            });
            expect(tagged.status).toBe(200);
            const size = (await varsOf(service, "web-assets")).size!;
            const changed = await service.request("PATCH", `/vars/${size.id}`, {
                body: { data: { type: "vars", id: size.id, attributes: { value: "7" } } },
            });
            expect(changed.status).toBe(200);
        },
        refreshShows: [/~ env\s*: "prod" => "staging"/, /~ value\s+: "3" => "7"/],
        restoreShows: [/~ env\s*: "staging" => "prod"/, /~ value\s+: "7" => "3"/],
        async expectRestored(service) {
            const project = await catalogProject(service);
            const bindings = (await service.get(`/projects/${project.id}/tag-bindings`)) as Array<{ attributes: { key: string; value: string } }>;
            expect(Object.fromEntries(bindings.map(({ attributes }) => [attributes.key, attributes.value]))).toEqual({ team: "platform", env: "prod" });
            expect((await varsOf(service, "web-assets")).size!.attributes.value).toBe("3");
        },
        secrets: [ARCHIVE_KEY],
    },
    (stack) => {
        test("a shared var changed in the stack's config upgrades every workspace in one `up`", async () => {
            await stack.deployed();
            const program = stack.program();
            const current = (await program.attempt(["config", "get", "region"])).stdout.trim() || "eu-west-1";
            const next = current === "eu-west-1" ? "us-east-1" : "eu-west-1";
            await program.setConfig("region", next);
            const up = await program.pulumi(["up", "--yes"]);
            for (const name of WORKSPACES) {
                expect(up.output).toMatch(new RegExp(`'${name}' \\(ws-\\w+\\) of no-code module nocode-\\w+: upgrade run-\\w+: planned, confirmed and applied \\(plan: http://\\S+/workspaces/${name}/runs/run-\\w+\\)`));
                expect((await varsOf(stack.service(), name)).region!.attributes.value).toBe(next);
            }
            expect((await program.attempt(["preview", "--expect-no-changes"])).code).toBe(0);
        });
    },
);
