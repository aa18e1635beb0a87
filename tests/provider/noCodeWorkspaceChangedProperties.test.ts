/**
 * `changedProperties` of the `wos:NoCodeWorkspace` handler, called directly as the native plugin calls it: the
 * inputs its detailed diff lists as changed (`pulumi preview --diff` shows those, and only those, and an
 * upgrade is announced when `vars` or `moduleVersion` is among them). With it, the secret values kept apart
 * in `sensitiveValues` (see `provider/handlers/varValuesApart.ts`) as `check`, `diff` and the detailed diff
 * see them: a value not known during a preview, and `null` where a var or the map of values belongs.
 * Decided without a request (an unreachable address proves it); the last test compares the outputs of a
 * workspace the real local service made with the program that made it.
 */
import * as noCodeWorkspace from "../../provider/handlers/noCodeWorkspace";
import { REGISTRY_MODULES } from "../support/seed";
import {
    checkFailures,
    checkedInputs,
    configureFor,
    configureUnreachable,
    freshWorkspaceName,
    projectsNamed,
    rawEnableNoCodeModule,
    UNKNOWN,
    useServer,
} from "./helpers";

const server = useServer({ planStepMs: 20 });

const region = (value: string) => ({ key: "region", value, category: "infra" });
const secret = { key: "API_KEY", value: "s3cret-value", category: "env", sensitive: true };

/** State as the resource writes it: the sensitive value apart, in `sensitiveValues`. */
const state = {
    noCodeModuleId: "nocode-1",
    projectId: "prj-1",
    name: "site-prod",
    description: "site",
    autoApply: true,
    executionMode: "remote",
    vars: [
        { key: "region", value: "eu-west-1", category: "infra", hcl: false, sensitive: false },
        { key: "API_KEY", category: "env", hcl: false, sensitive: true },
    ],
    sensitiveValues: { "env:API_KEY": "s3cret-value" },
    moduleVersion: "1.0.0",
    upgradeTimeoutSeconds: 900,
    noCodeUpgradeAvailable: true,
    lastUpgrade: { id: "run-1", status: "applied", planUrl: "http://x/run-1" },
};

/** The program that wrote {@link state}, as the shell sends it: the sensitive value apart too. */
const same = {
    noCodeModuleId: "nocode-1",
    projectId: "prj-1",
    name: "site-prod",
    description: "site",
    autoApply: true,
    vars: [region("eu-west-1"), { key: "API_KEY", category: "env", sensitive: true }],
    sensitiveValues: { "env:API_KEY": "s3cret-value" },
    moduleVersion: "1.0.0",
    upgradeTimeoutSeconds: 900,
};

describe("changedProperties: what the detailed diff lists", () => {
    beforeEach(configureUnreachable);

    it("lists nothing for the program that wrote the state (outputs that are not inputs are ignored)", () => {
        expect(noCodeWorkspace.changedProperties(state, same)).toEqual([]);
    });

    it.each([
        ["whole vars, the secret value inline", { vars: [region("eu-west-1"), secret], sensitiveValues: undefined }],
        ["the vars in another order", { vars: [same.vars[1], same.vars[0]] }],
        ["vars with their defaults spelled out", { vars: [{ ...region("eu-west-1"), hcl: false, sensitive: false, description: "" }, same.vars[1]] }],
        ["a var's null description", { vars: [{ ...region("eu-west-1"), description: null }, same.vars[1]] }],
        ["no moduleVersion (whatever the module pins)", { moduleVersion: undefined }],
        ["another upgradeTimeoutSeconds", { upgradeTimeoutSeconds: 60 }],
        ["executionMode remote given (the default)", { executionMode: "remote" }],
        ["a null sourceName and an empty sourceUrl (none in state)", { sourceName: null, sourceUrl: "" }],
    ])("lists nothing for %s", (_what, change) => {
        expect(noCodeWorkspace.changedProperties(state, { ...same, ...change })).toEqual([]);
    });

    it("lists nothing for an absent description when state holds null", () => {
        expect(noCodeWorkspace.changedProperties({ ...state, description: null }, { ...same, description: undefined })).toEqual([]);
    });

    it.each([
        ["noCodeModuleId", "another module (a replacement)", { noCodeModuleId: "nocode-2" }],
        ["projectId", "another project (a move)", { projectId: "prj-2" }],
        ["name", "another name", { name: "site-2" }],
        ["description", "the description left out", { description: undefined }],
        ["autoApply", "autoApply turned off", { autoApply: false }],
        ["sourceName", "a source name", { sourceName: "portal" }],
        ["sourceUrl", "a source URL", { sourceUrl: "https://portal.example.com" }],
        ["vars", "a var's value (an upgrade)", { vars: [region("us-east-1"), same.vars[1]] }],
        ["vars", "a var removed", { vars: [region("eu-west-1")], sensitiveValues: undefined }],
        ["vars", "a secret value rotated, apart", { sensitiveValues: { "env:API_KEY": "rotated" } }],
        ["moduleVersion", "another module version (an upgrade)", { moduleVersion: "1.1.0" }],
    ])("lists %s alone for %s", (property, _what, change) => {
        expect(noCodeWorkspace.changedProperties(state, { ...same, ...change })).toEqual([property]);
    });

    it("lists executionMode and agentPoolId when the workspace goes onto an agent pool", () => {
        expect(noCodeWorkspace.changedProperties(state, { ...same, executionMode: "agent", agentPoolId: "apool-0000000000000001" })).toEqual([
            "executionMode",
            "agentPoolId",
        ]);
    });

    it("lists every changed input, and only those, in one diff, in a fixed order", () => {
        const news = { ...same, noCodeModuleId: "nocode-2", projectId: "prj-2", sourceName: "portal", vars: [region("us-east-1")], moduleVersion: "1.1.0" };
        expect(noCodeWorkspace.changedProperties(state, news)).toEqual(["noCodeModuleId", "projectId", "sourceName", "vars", "moduleVersion"]);
    });
});

describe("secret values not known during a preview", () => {
    beforeEach(configureUnreachable);

    // A sensitive var listed without a value writes the empty value; the program now takes it from a
    // resource that does not exist yet, so the preview does not know it.
    const valueless = { ...state, sensitiveValues: { "env:API_KEY": "" } };
    const notKnownYet = { ...same, sensitiveValues: UNKNOWN };

    it("lists vars (an upgrade) when the values apart are not known, even where state holds the empty value", async () => {
        expect(noCodeWorkspace.changedProperties(valueless, notKnownYet)).toEqual(["vars"]);
        expect(await noCodeWorkspace.diff("ws-1", valueless, notKnownYet)).toEqual({ changes: true, replaces: [], deleteBeforeReplace: false });
        // Once known and still empty, nothing changes.
        expect(noCodeWorkspace.changedProperties(valueless, { ...same, sensitiveValues: { "env:API_KEY": "" } })).toEqual([]);
    });

    it("lists vars when the values apart are not known and state holds a value", () => {
        expect(noCodeWorkspace.changedProperties(state, notKnownYet)).toEqual(["vars"]);
    });

    it("lets values apart that are not known pass check", async () => {
        expect(await checkFailures(noCodeWorkspace, notKnownYet)).toEqual([]);
    });
});

describe("null where a var or the values apart belong", () => {
    beforeEach(configureUnreachable);

    it("refuses null sensitiveValues with its reason (instead of failing on it)", async () => {
        expect(await checkFailures(noCodeWorkspace, { ...same, sensitiveValues: null })).toEqual([
            { property: "sensitiveValues", reason: "sensitiveValues must be a map of strings (the values of sensitive vars, by 'category:key')" },
        ]);
    });

    it("refuses a null var with its place in the list (instead of failing on it)", async () => {
        expect(await checkFailures(noCodeWorkspace, { ...same, vars: [region("eu-west-1"), null] })).toEqual([
            { property: "vars", reason: "vars[1] must be vars ({ key, value?, category, description?, hcl?, sensitive? })" },
        ]);
    });
});

describe("changedProperties of what the service made", () => {
    it("lists nothing for the outputs of a create against its program, and vars once the secret value changes", async () => {
        await configureFor(server());
        const module = await rawEnableNoCodeModule(server(), REGISTRY_MODULES.bucket);
        const apps = (await projectsNamed(server(), "Apps"))[0].id;
        const inputs = await checkedInputs(noCodeWorkspace, {
            noCodeModuleId: module,
            projectId: apps,
            name: freshWorkspaceName("nccp"),
            vars: [region("eu-west-1"), secret],
        });
        const created = await noCodeWorkspace.create(inputs);
        expect(created.outs.sensitiveValues).toEqual({ "env:API_KEY": "s3cret-value" });
        expect(noCodeWorkspace.changedProperties(created.outs, inputs)).toEqual([]);
        expect(noCodeWorkspace.changedProperties(created.outs, { ...inputs, vars: [region("eu-west-1"), { ...secret, value: "rotated" }] })).toEqual(["vars"]);
        await noCodeWorkspace.delete(created.id, created.outs);
    });
});
