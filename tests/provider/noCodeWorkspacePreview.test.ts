/**
 * What a `NoCodeWorkspace` registers during a preview (`setMocks(..., preview = true)`), where values that
 * come from other resources are not known yet: each var is sent in its own place, so a value not known makes
 * that var's value unknown and nothing else, and `pulumi preview --diff` still shows every other var. A
 * sensitive var given without a value sends the empty value, apart with the other secret values.
 */
import * as pulumi from "@pulumi/pulumi";

interface Registered {
    name: string;
    inputs: Record<string, unknown>;
}

const registered: Registered[] = [];

pulumi.runtime.setMocks(
    {
        newResource(args) {
            registered.push({ name: args.name, inputs: args.inputs });
            // Outputs that are not in the state are not known during a preview.
            return { id: undefined, state: {} };
        },
        call() {
            return {};
        },
    },
    "project",
    "stack",
    true,
);

// Loaded after setMocks, as a program would be.
import * as wos from "../../provider";

/** The inputs a resource was registered with, once it was. */
async function inputsOf(resource: pulumi.CustomResource, name: string): Promise<Record<string, unknown>> {
    await new Promise<void>((resolve) => resource.urn.apply(() => resolve()));
    const found = registered.find((entry) => entry.name === name);
    if (!found) throw new Error(`${name} was not registered`);
    return found.inputs;
}

/** A value from another resource, not known during the preview (as `bucket.versionPin` before it exists). */
function notKnownYet(name: string): pulumi.Output<string> {
    const source = new wos.Project(name, { organization: "acme", name: `Source ${name}` });
    return source.description as pulumi.Output<string>;
}

it("a var whose value is not known yet is unknown alone: the other vars are sent as they are", async () => {
    const site = new wos.NoCodeWorkspace("site", {
        noCodeModuleId: "nocode-1",
        projectId: "prj-1",
        name: "site",
        vars: [
            { key: "region", value: "eu-west-1", category: "infra" },
            { key: "size", value: notKnownYet("size-source"), category: "infra" },
        ],
    });
    const inputs = await inputsOf(site, "site");
    expect(Array.isArray(inputs.vars)).toBe(true);
    const [region, size] = inputs.vars as Record<string, unknown>[];
    expect(region).toEqual({ key: "region", value: "eu-west-1", category: "infra" });
    expect(size.key).toBe("size");
    expect(size.category).toBe("infra");
    expect(pulumi.isUnknown(size.value)).toBe(true);
});

it("a sensitive var whose value is not known yet: sent without its value, and every other var as it is", async () => {
    const site = new wos.NoCodeWorkspace("secret-site", {
        noCodeModuleId: "nocode-1",
        projectId: "prj-1",
        name: "secret-site",
        vars: [
            { key: "region", value: "eu-west-1", category: "infra" },
            { key: "API_KEY", value: notKnownYet("key-source"), category: "env", sensitive: true },
            { key: "TOKEN", value: pulumi.secret("t0ken"), category: "env" },
        ],
    });
    const inputs = await inputsOf(site, "secret-site");
    expect(inputs.vars).toEqual([
        { key: "region", value: "eu-west-1", category: "infra" },
        { key: "API_KEY", category: "env", sensitive: true },
        { key: "TOKEN", category: "env" },
    ]);
    // The values kept apart are not known as a whole while one of them is not.
    expect(pulumi.isUnknown(inputs.sensitiveValues)).toBe(true);
});

it("a var that is an Output as a whole is unknown alone", async () => {
    const site = new wos.NoCodeWorkspace("whole-site", {
        noCodeModuleId: "nocode-1",
        projectId: "prj-1",
        name: "whole-site",
        vars: [
            { key: "region", value: "eu-west-1", category: "infra" },
            notKnownYet("whole-source").apply((value) => ({ key: "size", value, category: "infra" as const })),
        ],
    });
    const inputs = await inputsOf(site, "whole-site");
    const [region, size] = inputs.vars as unknown[];
    expect(region).toEqual({ key: "region", value: "eu-west-1", category: "infra" });
    expect(pulumi.isUnknown(size)).toBe(true);
});

it("a sensitive var without a value, listed or given as a whole Output: its value apart is the empty string", async () => {
    const site = new wos.NoCodeWorkspace("valueless-site", {
        noCodeModuleId: "nocode-1",
        projectId: "prj-1",
        name: "valueless-site",
        vars: [{ key: "API_KEY", category: "env", sensitive: true }, pulumi.output({ key: "TOKEN", category: "env" as const, sensitive: true })],
    });
    const inputs = await inputsOf(site, "valueless-site");
    expect(inputs.vars).toEqual([
        { key: "API_KEY", category: "env", sensitive: true },
        { key: "TOKEN", category: "env", sensitive: true },
    ]);
    // A secret, as the engine receives it.
    expect(inputs.sensitiveValues).toEqual({
        [pulumi.runtime.specialSigKey]: pulumi.runtime.specialSecretSig,
        value: { "env:API_KEY": "", "env:TOKEN": "" },
    });
});
