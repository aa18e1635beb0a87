/**
 * Area `requests`: how many requests each provider operation sends, as a table. The handlers run in this
 * process (as the provider host runs them) against the service behind a counting proxy, one operation
 * after another, each starting from the state the previous one left; the proxy lists the requests of each.
 * `check` and `diff` send none (they judge inputs and state alone). The API's minimum is one request an
 * operation; docs/benchmarks.md says why each further one is there.
 *
 * @module
 */
import { configure, clearConfiguredCredentials } from "../provider/handlers/credentials";
import * as projectHandlers from "../provider/handlers/project";
import * as tagBindingHandlers from "../provider/handlers/projectTagBindings";
import * as variableHandlers from "../provider/handlers/variable";
import * as noCodeModuleHandlers from "../provider/handlers/noCodeModule";
import * as noCodeWorkspaceHandlers from "../provider/handlers/noCodeWorkspace";
import { ORGANIZATION, REGISTRY_MODULE_ID, TOKEN, WORKSPACE_ID, HttpClient, heading, startCountingProxy, type ServerProcess } from "./support";

type Bag = Record<string, any>;

/** One line of the table. */
interface Row {
    resource: string;
    operation: string;
    requests: string[];
}

/** `GET /api/v2/projects/prj-abc?x=1` as `GET /projects/:id`: ids and query values out, for reading. */
function template(request: string): string {
    const [method, url] = request.split(" ");
    const [pathPart, query] = url.split("?");
    const pathText = pathPart
        .replace(/^\/api\/v2/, "")
        .split("/")
        .map((segment) => (/^(prj|ws|var|nocode|mod|run|wsu|ncvaropt|tb)-/.test(segment) ? ":id" : segment))
        .join("/");
    const keys = query
        ? `?${query
              .split("&")
              .map((pair) => decodeURIComponent(pair.split("=")[0]))
              .join("&")}`
        : "";
    return `${method} ${pathText}${keys}`;
}

/** Runs the area against a running service (started with short upgrade plans). */
export async function benchRequests(server: ServerProcess): Promise<void> {
    const proxy = await startCountingProxy(server.url);
    const plain = new HttpClient(`${server.url}/api/v2`, TOKEN, 1);
    const rows: Row[] = [];
    const previousPoll = process.env.WOS_UPGRADE_POLL_MS;
    // Upgrade plans last a few steps of `--plan-step-ms`; poll them as quickly (a test knob of the handler).
    process.env.WOS_UPGRADE_POLL_MS = "20";
    // The upgrade's progress lines would go to this process's output, between the figures.
    const previousLogger = noCodeWorkspaceHandlers.setUpgradeLogger(() => undefined);
    const measure = async <T>(resource: string, operation: string, work: () => Promise<T>): Promise<T> => {
        proxy.take();
        const result = await work();
        rows.push({ resource, operation, requests: proxy.take().map(template) });
        return result;
    };
    try {
        clearConfiguredCredentials();
        await configure({ config: { get: (key: string) => ({ "wos:address": proxy.url, "wos:token": TOKEN })[key] } });

        // wos:Project
        const projectNews: Bag = { organization: ORGANIZATION, name: "requests-project", description: "counted", tags: { team: "bench" } };
        const checked = (await projectHandlers.check({}, projectNews)).inputs as Bag;
        const project = await measure("Project", "create", () => projectHandlers.create(checked));
        await measure("Project", "read (refresh, tags managed)", () => projectHandlers.read(project.id, project.outs));
        await measure("Project", "read (refresh, tags not managed)", () =>
            projectHandlers.read(project.id, { organization: ORGANIZATION, name: "requests-project", description: "counted" }),
        );
        await measure("Project", "read (import: by id alone)", () => projectHandlers.read(project.id, undefined));
        const projectChanged = { ...checked, description: "changed" };
        await measure("Project", "update (description)", () => projectHandlers.update(project.id, project.outs as Bag, projectChanged));
        await measure("Project", "delete", () => projectHandlers.delete(project.id, projectChanged));

        // wos:ProjectTagBindings on a project made without the handlers.
        const host = await plain.json("POST", `/organizations/${ORGANIZATION}/projects`, { data: { type: "projects", attributes: { name: "requests-tags" } } }, 201);
        const bindingsNews: Bag = { projectId: host.data.id, tags: { owner: "bench", tier: "1" } };
        const bindings = await measure("ProjectTagBindings", "create", () => tagBindingHandlers.create(bindingsNews));
        await measure("ProjectTagBindings", "read", () => tagBindingHandlers.read(bindings.id, bindings.outs));
        const bindingsChanged = { ...bindingsNews, tags: { owner: "bench", tier: "2" } };
        const afterValue = await measure("ProjectTagBindings", "update (a value)", () =>
            tagBindingHandlers.update(bindings.id, bindings.outs as Bag, bindingsChanged),
        );
        const bindingsShrunk = { ...bindingsNews, tags: { owner: "bench" } };
        await measure("ProjectTagBindings", "update (a key removed)", () => tagBindingHandlers.update(bindings.id, afterValue.outs as Bag, bindingsShrunk));
        await measure("ProjectTagBindings", "delete", () => tagBindingHandlers.delete(bindings.id, bindingsShrunk));

        // wos:Variable: the first in a workspace this process has not seen yet, then a second one.
        const variableNews = async (key: string) => (await variableHandlers.check({}, { workspaceId: WORKSPACE_ID, key, value: "v", category: "env" })).inputs as Bag;
        const firstNews = await variableNews("REQUESTS_FIRST");
        const first = await measure("Variable", "create (first of its workspace in this process)", () => variableHandlers.create(firstNews));
        const secondNews = await variableNews("REQUESTS_SECOND");
        const second = await measure("Variable", "create (workspace seen before)", () => variableHandlers.create(secondNews));
        await measure("Variable", "read (refresh)", () => variableHandlers.read(first.id, first.outs));
        const firstChanged = { ...firstNews, value: "w" };
        await measure("Variable", "update (value)", () => variableHandlers.update(first.id, first.outs as Bag, firstChanged));
        await measure("Variable", "delete", () => variableHandlers.delete(first.id, firstChanged));
        await variableHandlers.delete(second.id, secondNews);

        // wos:NoCodeModule and a wos:NoCodeWorkspace made from it.
        const moduleNews = (
            await noCodeModuleHandlers.check(
                {},
                {
                    organization: ORGANIZATION,
                    registryModuleId: REGISTRY_MODULE_ID,
                    enabled: true,
                    variableOptions: [{ variableName: "size", variableType: "number", options: ["1", "2", "3"] }],
                },
            )
        ).inputs as Bag;
        const module = await measure("NoCodeModule", "create", () => noCodeModuleHandlers.create(moduleNews));
        await measure("NoCodeModule", "read", () => noCodeModuleHandlers.read(module.id, module.outs));
        const moduleChanged = { ...moduleNews, variableOptions: [{ variableName: "size", variableType: "number", options: ["1", "2", "3", "4"] }] };
        const moduleUpdated = await measure("NoCodeModule", "update (options)", () =>
            noCodeModuleHandlers.update(module.id, module.outs as Bag, moduleChanged),
        );

        const workspaceNews = (
            await noCodeWorkspaceHandlers.check(
                {},
                { noCodeModuleId: module.id, projectId: host.data.id, name: "requests-nocode", vars: [{ key: "size", value: "1", category: "infra" }] },
            )
        ).inputs as Bag;
        const workspace = await measure("NoCodeWorkspace", "create", () => noCodeWorkspaceHandlers.create(workspaceNews));
        await measure("NoCodeWorkspace", "read", () => noCodeWorkspaceHandlers.read(workspace.id, workspace.outs));
        const described = { ...workspaceNews, description: "counted" };
        const afterDescription = await measure("NoCodeWorkspace", "update (description)", () =>
            noCodeWorkspaceHandlers.update(workspace.id, workspace.outs as Bag, described),
        );
        const upgraded = { ...described, vars: [{ key: "size", value: "2", category: "infra" }] };
        await measure("NoCodeWorkspace", "update (a var: an upgrade, polls as the plan takes)", () =>
            noCodeWorkspaceHandlers.update(workspace.id, afterDescription.outs as Bag, upgraded),
        );
        await measure("NoCodeWorkspace", "delete", () => noCodeWorkspaceHandlers.delete(workspace.id, upgraded));
        await measure("NoCodeModule", "delete", () => noCodeModuleHandlers.delete(module.id, moduleUpdated.outs as Bag));
        await plain.json("DELETE", `/projects/${host.data.id}`, undefined, 204);
    } finally {
        noCodeWorkspaceHandlers.setUpgradeLogger(previousLogger);
        if (previousPoll === undefined) delete process.env.WOS_UPGRADE_POLL_MS;
        else process.env.WOS_UPGRADE_POLL_MS = previousPoll;
        clearConfiguredCredentials();
        plain.close();
        await proxy.close();
    }

    heading("requests per provider operation (check and diff: none; the API's minimum: 1)");
    const width = Math.max(...rows.map((row) => `${row.resource} ${row.operation}`.length));
    for (const row of rows) {
        console.log(`${`${row.resource} ${row.operation}`.padEnd(width)}  ${String(row.requests.length).padStart(2)}  ${row.requests.join(", ")}`);
    }
}
