/**
 * The jest test of `index.ts`: the program runs under `pulumi.runtime.setMocks` with `WosMocks`, so each `wos`
 * resource is checked by its own rules (a broken rule, such as a project named `x!`, fails the test with the
 * provider's message) and really created in a local service started in this process. The test then reads what
 * the program made back from the service over HTTP.
 *
 *     npm test
 */
import * as pulumi from "@pulumi/pulumi";
import { WosClient } from "pulumi-wos/sdk";
import { startLocalService, WosMocks, type LocalService } from "pulumi-wos/testing";

/** The demo seed's `acme` workspace `legacy-app`, which the program's variables belong to. */
const WORKSPACE_ID = "ws-0000000000000001";

let service: LocalService;
let mocks: WosMocks;
let program: typeof import("./index");
let client: WosClient;

/** The value of an output, once known. */
function valueOf<T>(output: pulumi.Output<T>): Promise<T> {
    return new Promise((resolve) => output.apply(resolve));
}

beforeAll(async () => {
    // The demo seed: organization `acme`, its teams' tokens in `service.tokens`.
    service = await startLocalService();
    mocks = new WosMocks({ service, token: service.tokens.platform });
    await pulumi.runtime.setMocks(mocks, "wos-testing", "test");
    // Lookups such as `getProjectOutput` read the stack's `wos:address` / `wos:token`, as under `pulumi up`.
    pulumi.runtime.setAllConfig(mocks.stackConfig());
    program = await import("./index");
    // Every registration done; this rejects with the provider's messages when a resource broke a rule.
    await mocks.settled();
    client = new WosClient({ address: service.address, token: service.tokens.platform });
});

afterAll(async () => {
    await service?.stop();
});

test("every wos resource of the program passes its checks and is created", async () => {
    expect(mocks.resources.map((resource) => resource.name).sort()).toEqual([
        "checkout",
        "checkout-api-key",
        "checkout-log-level",
    ]);
    expect(mocks.failures).toEqual([]);
});

test("the project exists on the service, with the description, duration and tags the program gives it", async () => {
    const id = await valueOf(program.checkoutProjectId);
    expect(id).toMatch(/^prj-/);
    const project = await client.projects.read(id);
    expect(project).toMatchObject({
        name: "Checkout",
        description: "Payment pages and the order service",
        autoDestroyActivityDuration: "14d",
    });
    const tags = await client.projects.listTagBindings(id);
    expect(tags.map((tag) => `${tag.key}=${tag.value}`).sort()).toEqual(["env=staging", "team=payments"]);
});

test("the variables exist on the workspace, the sensitive one without its value", async () => {
    const variables = await client.variables.list(WORKSPACE_ID);
    const byKey = Object.fromEntries(variables.map((variable) => [variable.key, variable]));
    expect(byKey.LOG_LEVEL).toMatchObject({ value: "debug", category: "env", sensitive: false, hcl: false });
    expect(byKey.PAYMENTS_API_KEY).toMatchObject({ value: null, category: "env", sensitive: true });
    expect(await valueOf(program.logLevel.id)).toBe(byKey.LOG_LEVEL.id);
});

test("the sensitive variable's value stays a secret in the program", async () => {
    expect(await pulumi.isSecret(program.apiKey.value)).toBe(true);
    expect(await pulumi.isSecret(program.logLevel.value)).toBe(false);
});

test("the lookup finds the seeded project Apps", async () => {
    const apps = await client.projects.list("acme", { names: ["Apps"] });
    expect(await valueOf(program.appsProjectId)).toBe(apps.items[0].id);
});
