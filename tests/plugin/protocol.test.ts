/**
 * The plugin as a provider process (issue 21): started as the engine starts it, it prints its port first,
 * answers its version and its schema, checks and compares its configuration (the token always a secret,
 * never a replacement of the provider), configures with secrets accepted and previews supported, and answers
 * what a provider without mappings answers.
 */
import { wosPackageSchema } from "../../plugin/schema";
import { isSecret, ProviderCallError, secret } from "../support/providerHost";
import { TOKENS } from "../support/seed";
import { TOKEN, TYPES, usePluginFixture } from "./pluginFixture";

const fx = usePluginFixture();

const PROVIDER_URN = "urn:pulumi:test::wos-engine-test::pulumi:providers:wos::default";

test("Configure answers acceptSecrets and supportsPreview (and neither resources nor outputs)", () => {
    expect(fx.configured).toEqual({ acceptSecrets: true, supportsPreview: true, acceptResources: false, acceptOutputs: false });
});

test("GetPluginInfo answers the package's version, and GetSchema the package schema wosPackageSchema", async () => {
    expect(await fx.plugin.getPluginInfo()).toEqual({ version: require("../../package.json").version });
    expect(await fx.plugin.getSchema()).toEqual(JSON.parse(JSON.stringify(wosPackageSchema)));
});

describe("CheckConfig", () => {
    test("answers the configuration with the token a secret, also when it came plain", async () => {
        const news = { address: fx.server.url, token: TOKEN, organization: "acme", version: "0.1.0" };
        const result = await fx.plugin.checkConfig(PROVIDER_URN, {}, news);
        expect(result.failures).toEqual([]);
        expect(result.inputs).toEqual({ ...news, token: secret(TOKEN) });
        const again = await fx.plugin.checkConfig(PROVIDER_URN, {}, { token: secret(TOKEN) });
        expect(again.inputs).toEqual({ token: secret(TOKEN) });
    });

    test("fails an address that is not an http(s) URL and a key that is not a string, naming the key", async () => {
        const result = await fx.plugin.checkConfig(PROVIDER_URN, {}, { address: "ftp://example.com", organization: 42 });
        expect(result.failures).toEqual([
            { property: "address", reason: expect.stringContaining("http(s) URL") },
            { property: "organization", reason: "organization must be a string" },
        ]);
    });

    test("takes planUpgradesInPreview as a boolean or its text (how the stack config and the SDKs send it), and fails anything else, naming the key", async () => {
        for (const value of [true, false, "true", "False", " TRUE "]) {
            expect({ value, failures: (await fx.plugin.checkConfig(PROVIDER_URN, {}, { planUpgradesInPreview: value })).failures }).toEqual({ value, failures: [] });
        }
        for (const value of ["yes", "1", 1, ["true"]]) {
            expect({ value, failures: (await fx.plugin.checkConfig(PROVIDER_URN, {}, { planUpgradesInPreview: value })).failures }).toEqual({
                value,
                failures: [{ property: "planUpgradesInPreview", reason: "planUpgradesInPreview must be a boolean (true or false)" }],
            });
        }
    });

    test("lets an unknown value pass (a provider configured from another resource's output, during preview)", async () => {
        const unknown = "04da6b54-80e4-46f7-96ec-b56ff0331ba9";
        expect((await fx.plugin.checkConfig(PROVIDER_URN, {}, { address: unknown, token: unknown })).failures).toEqual([]);
    });
});

describe("DiffConfig", () => {
    test("nothing changed is DIFF_NONE; a new token, address or organization is an update of the provider, never a replacement", async () => {
        const olds = { address: fx.server.url, token: secret(TOKEN), organization: "acme" };
        expect(await fx.plugin.diffConfig(PROVIDER_URN, olds, { ...olds, token: TOKEN })).toMatchObject({ changes: "none", replaces: [] });
        const changed = await fx.plugin.diffConfig(PROVIDER_URN, olds, { address: "http://127.0.0.1:1", token: secret(TOKENS.owners), organization: "globex" });
        expect(changed).toMatchObject({
            changes: "some",
            replaces: [],
            hasDetailedDiff: true,
            detailedDiff: { address: "UPDATE", token: "UPDATE", organization: "UPDATE" },
        });
    });

    test("planUpgradesInPreview switched is an update of the provider; its text and its boolean, or unset and false, are no change", async () => {
        const olds = { address: fx.server.url, planUpgradesInPreview: "true" };
        expect(await fx.plugin.diffConfig(PROVIDER_URN, olds, { ...olds, planUpgradesInPreview: true })).toMatchObject({ changes: "none" });
        expect(await fx.plugin.diffConfig(PROVIDER_URN, { address: fx.server.url }, { address: fx.server.url, planUpgradesInPreview: "false" })).toMatchObject({
            changes: "none",
        });
        expect(await fx.plugin.diffConfig(PROVIDER_URN, olds, { ...olds, planUpgradesInPreview: "false" })).toMatchObject({
            changes: "some",
            replaces: [],
            detailedDiff: { planUpgradesInPreview: "UPDATE" },
        });
    });
});

test("Cancel, Attach, GetMapping and GetMappings answer as a provider without mappings does", async () => {
    await fx.plugin.cancel();
    await fx.plugin.attach(fx.engine.address);
    expect(await fx.plugin.getMapping("terraform")).toEqual({ provider: "", data: new Uint8Array() });
    expect(await fx.plugin.getMappings("terraform")).toEqual([]);
});

test("an unknown resource type or function is refused, naming what the plugin has", async () => {
    const check = await fx.plugin.check(fx.urn("wos:index:Nothing", "x"), {}, {}).catch((error: unknown) => error);
    expect(check).toBeInstanceOf(ProviderCallError);
    expect((check as ProviderCallError).details).toContain(TYPES.project);
    const invoke = await fx.plugin.invoke("wos:index:getNothing", {}).catch((error: unknown) => error);
    expect((invoke as ProviderCallError).details).toContain("wos:index:getProject");
});

test("the plugin's output after its port line holds no token", () => {
    expect(fx.plugin.logs()).not.toContain(TOKEN);
    expect(isSecret(secret(1))).toBe(true);
});
