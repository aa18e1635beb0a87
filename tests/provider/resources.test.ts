/**
 * The resource classes under `pulumi.runtime.setMocks`: the type tokens that are part of every URN, the
 * inputs each class registers, and the secrecy of a sensitive variable's value.
 */
import * as pulumi from "@pulumi/pulumi";

interface Registered {
    type: string;
    name: string;
    inputs: Record<string, unknown>;
}

const registered: Registered[] = [];

pulumi.runtime.setMocks(
    {
        newResource(args) {
            registered.push({ type: args.type, name: args.name, inputs: args.inputs });
            return { id: `${args.name}-id`, state: { ...args.inputs } };
        },
        call() {
            return {};
        },
    },
    "project",
    "stack",
    false,
);

// Loaded after setMocks, as a program would be.
import * as wos from "../../provider";

/** The resolved value and secrecy of an output. */
function settle<T>(output: pulumi.Output<T>): Promise<{ value: T; secret: boolean }> {
    return new Promise((resolve) => {
        pulumi.all([output, pulumi.isSecret(output)]).apply(([value, secret]) => resolve({ value: value as T, secret }));
    });
}

it("registers each resource with its stable type token pulumi-nodejs:dynamic/wos:<Name>", async () => {
    const apps = new wos.Project("apps", { organization: "acme", name: "Apps", tags: { team: "platform" } });
    const cost = new wos.ProjectTagBindings("cost", { projectId: apps.id, tags: { "cost-center": "1234" } });
    const region = new wos.Variable("region", { workspaceId: "ws-1", key: "REGION", value: "eu", category: "env" });
    // A resource's id resolves once the mock monitor has answered its registration.
    await Promise.all([apps, cost, region].map((resource) => settle(resource.id)));
    const types = Object.fromEntries(registered.map((r) => [r.name, r.type]));
    expect(types).toMatchObject({
        apps: "pulumi-nodejs:dynamic/wos:Project",
        cost: "pulumi-nodejs:dynamic/wos:ProjectTagBindings",
        region: "pulumi-nodejs:dynamic/wos:Variable",
    });
    const apps_ = registered.find((r) => r.name === "apps")!;
    expect(apps_.inputs).toMatchObject({ organization: "acme", name: "Apps", tags: { team: "platform" } });
    expect(typeof apps_.inputs.__provider).toBe("string");
    expect(apps_.inputs.__provider as string).toContain('require("pulumi-wos/dist/provider/handlers/project")');
});

it("makes a sensitive variable's value a secret, and leaves a plain one plain", async () => {
    const hidden = new wos.Variable("password", {
        workspaceId: "ws-1",
        key: "DB_PASSWORD",
        value: "s3cret",
        category: "env",
        sensitive: true,
    });
    const plain = new wos.Variable("plain", { workspaceId: "ws-1", key: "REGION2", value: "eu", category: "env" });
    const later = new wos.Variable("later", {
        workspaceId: "ws-1",
        key: "TOKEN",
        value: "t0ken",
        category: "env",
        sensitive: pulumi.output(true),
    });
    expect(await settle(hidden.value)).toEqual({ value: "s3cret", secret: true });
    expect(await settle(later.value)).toEqual({ value: "t0ken", secret: true });
    expect(await settle(plain.value)).toEqual({ value: "eu", secret: false });
});

it("registers the no-code resources with their type tokens, and keeps a sensitive value apart from the readable vars, a secret", async () => {
    const bucket = new wos.NoCodeModule("bucket", {
        organization: "acme",
        registryModuleId: "mod-0000000000000001",
        enabled: true,
        variableOptions: [{ variableName: "region", variableType: "string", options: ["eu-west-1"] }],
    });
    const plain = new wos.NoCodeWorkspace("plain-site", {
        noCodeModuleId: bucket.id,
        projectId: "prj-1",
        name: "plain-site",
        vars: [{ key: "region", value: "eu-west-1", category: "infra" }],
    });
    const hidden = new wos.NoCodeWorkspace("hidden-site", {
        noCodeModuleId: bucket.id,
        projectId: "prj-1",
        name: "hidden-site",
        vars: [
            { key: "region", value: "eu-west-1", category: "infra" },
            { key: "API_KEY", value: "s3cret", category: "env", sensitive: true },
        ],
    });
    const later = new wos.NoCodeWorkspace("later-site", {
        noCodeModuleId: bucket.id,
        projectId: "prj-1",
        name: "later-site",
        vars: [{ key: "API_KEY", value: "s3cret", category: "env", sensitive: pulumi.output(true) }],
    });
    await Promise.all([bucket, plain, hidden, later].map((resource) => settle(resource.id)));
    const types = Object.fromEntries(registered.map((r) => [r.name, r.type]));
    expect(types).toMatchObject({
        bucket: "pulumi-nodejs:dynamic/wos:NoCodeModule",
        "plain-site": "pulumi-nodejs:dynamic/wos:NoCodeWorkspace",
    });
    const site = registered.find((r) => r.name === "hidden-site")!;
    expect(site.inputs.__provider as string).toContain('require("pulumi-wos/dist/provider/handlers/noCodeWorkspace")');
    expect(await settle(hidden.vars)).toEqual({
        value: [
            { key: "region", value: "eu-west-1", category: "infra" },
            { key: "API_KEY", category: "env", sensitive: true },
        ],
        secret: false,
    });
    expect(await settle(hidden.sensitiveValues)).toEqual({ value: { "env:API_KEY": "s3cret" }, secret: true });
    // `sensitive` known only later (an Output): split once known.
    expect(await settle(later.vars)).toEqual({ value: [{ key: "API_KEY", category: "env", sensitive: true }], secret: false });
    expect(await settle(later.sensitiveValues)).toEqual({ value: { "env:API_KEY": "s3cret" }, secret: true });
    expect(await settle(plain.vars)).toEqual({ value: [{ key: "region", value: "eu-west-1", category: "infra" }], secret: false });
    // Nothing can be secret in the plain one: no `sensitiveValues` input at all.
    expect(registered.find((r) => r.name === "plain-site")!.inputs).not.toHaveProperty("sensitiveValues");
    // Outputs that are not inputs are declared (and sent as nothing).
    expect(site.inputs).not.toHaveProperty("noCodeUpgradeAvailable");
    expect(pulumi.Output.isInstance(hidden.noCodeUpgradeAvailable)).toBe(true);
    expect(pulumi.Output.isInstance(hidden.lastUpgrade)).toBe(true);
});
