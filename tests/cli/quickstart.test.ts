/**
 * `examples/quickstart` through the real `pulumi` against the real `wos-server` loaded with the demo seed:
 * see {@link exampleLifecycleTests}.
 */
import { exampleLifecycleTests } from "./exampleLifecycle";
import type { CliTestService } from "./localService";

const DB_PASSWORD = "quickstart-db-password-7f3e";
const LEGACY_APP_VARS = "/vars?filter%5Bworkspace%5D%5Bname%5D=legacy-app&filter%5Borganization%5D%5Bname%5D=acme";

async function logLevel(service: CliTestService) {
    const vars = (await service.get(LEGACY_APP_VARS)) as Array<{ id: string; attributes: Record<string, unknown> }>;
    const found = vars.find((variable) => variable.attributes.key === "LOG_LEVEL");
    if (!found) throw new Error("legacy-app has no LOG_LEVEL");
    return found;
}

async function tagsOf(service: CliTestService, projectId: string) {
    const bindings = (await service.get(`/projects/${projectId}/tag-bindings`)) as Array<{ attributes: { key: string; value: string } }>;
    return Object.fromEntries(bindings.map(({ attributes }) => [attributes.key, attributes.value]));
}

exampleLifecycleTests({
    example: "quickstart",
    config: { "wos-quickstart:dbPassword": { value: DB_PASSWORD, secret: true } },
    previewShows: [
        /\+ pulumi-nodejs:dynamic\/wos:Project: \(create\)\s+\[urn=\S+::platform\]\s+autoDestroyActivityDuration: "14d"\s+description\s+: "Shared platform services"/,
        /\+ pulumi-nodejs:dynamic\/wos:ProjectTagBindings: \(create\)\s+\[urn=\S+::data-cost-center\]/,
        /\[urn=\S+::db-password\][^]*?key\s+: "DB_PASSWORD"\s+sensitive\s+: true\s+value\s+: \[secret\]/,
        /\[urn=\S+::log-level\][^]*?value\s+: "info"/,
        /Resources:\s+\+ 7 to create/,
    ],
    async drift(service, outputs) {
        const platform = outputs.platformProjectId as string;
        const patched = await service.request("PATCH", `/projects/${platform}`, {
            body: { data: { type: "projects", attributes: { description: "changed by hand" } } },
        });
        expect(patched.status).toBe(200);
        // A tag added by hand to the project whose whole tag set the program owns.
        const tagged = await service.request("PATCH", `/projects/${platform}/tag-bindings`, {
            body: { data: [{ type: "tag-bindings", attributes: { key: "added", value: "by-hand" } }] },
        });
        expect(tagged.status).toBe(200);
        const variable = await logLevel(service);
        const changed = await service.request("PATCH", `/vars/${variable.id}`, {
            body: { data: { type: "vars", id: variable.id, attributes: { value: "debug" } } },
        });
        expect(changed.status).toBe(200);
    },
    refreshShows: [
        /~ description\s+: "Shared platform services" => "changed by hand"/,
        /\+ added: "by-hand"/,
        /~ value\s+: "info" => "debug"/,
        /Resources:\s+~ 2 updated/,
    ],
    restoreShows: [
        /~ description\s+: "changed by hand" => "Shared platform services"/,
        /- added: "by-hand"/,
        /~ value\s+: "debug" => "info"/,
        /Resources:\s+~ 2 to update/,
    ],
    async expectRestored(service, outputs) {
        const platform = outputs.platformProjectId as string;
        expect((await service.get(`/projects/${platform}`)).attributes.description).toBe("Shared platform services");
        expect(await tagsOf(service, platform)).toEqual({ team: "platform", env: "prod" });
        expect((await logLevel(service)).attributes.value).toBe("info");
    },
    secrets: [DB_PASSWORD],
});
