/**
 * How a test proves that a resource is refused: `mocks.expectRefusal(name)` before the resource is declared,
 * then `await mocks.refusal(name)` answers the refusal (its step, the provider's message and, for a broken
 * rule, each property). The refused registration does not reject, so nothing else fails the test, and what
 * takes an input from the refused resource is not attempted, as under `pulumi up` (`mocks.skipped`).
 *
 *     npm test
 */
import * as pulumi from "@pulumi/pulumi";
import * as wos from "pulumi-wos";
import { WosClient } from "pulumi-wos/sdk";
import { startLocalService, WosMocks, type LocalService } from "pulumi-wos/testing";

let service: LocalService;
let mocks: WosMocks;
let client: WosClient;

beforeAll(async () => {
    service = await startLocalService();
    mocks = new WosMocks({ service, token: service.tokens.platform });
    await pulumi.runtime.setMocks(mocks, "wos-testing", "test");
    client = new WosClient({ address: service.address, token: service.tokens.platform });
});

afterAll(async () => {
    await service?.stop();
});

test("a project named 'x!' is refused by its rules, naming the property, and nothing is written", async () => {
    mocks.expectRefusal("bad-name");
    new wos.Project("bad-name", { organization: "acme", name: "x!" });

    const refusal = await mocks.refusal("bad-name");
    expect(refusal.operation).toBe("check");
    expect(refusal.failures).toContainEqual({ property: "name", reason: "name must be at least 3 characters" });
    const found = await client.projects.list("acme", { names: ["x!"] });
    expect(found.items).toEqual([]);
});

test("a project whose name is taken is refused by the service, and what depends on it is not created", async () => {
    mocks.expectRefusal("taken");
    const taken = new wos.Project("taken", { organization: "acme", name: "Apps" });
    new wos.ProjectTagBindings("taken-cost", { projectId: taken.id, tags: { "cost-center": "1234" } });

    const refusal = await mocks.refusal("taken");
    expect(refusal.operation).toBe("create");
    expect(refusal.message).toContain("Apps");
    // As under `pulumi up`, what takes an input from the refused project is not attempted.
    expect(mocks.skipped).toContainEqual({ type: "pulumi-nodejs:dynamic/wos:ProjectTagBindings", name: "taken-cost", dependsOn: "taken" });
    // Nothing else failed: settled() rejects only for refusals the test did not expect.
    const created = await mocks.settled();
    expect(created.map((resource) => resource.name)).not.toContain("taken-cost");
});
