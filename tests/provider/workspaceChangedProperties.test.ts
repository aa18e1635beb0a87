/**
 * `changedProperties` of the `wos:Workspace` handler, called directly as the native plugin calls it: the
 * inputs its detailed diff lists as changed (`pulumi preview --diff` shows those, and only those, as
 * updated). Each setting names its own input; the execution setting names `executionMode` and `agentPoolId`
 * each when it differs; defaults and their absence, and `null` and absence, are no change. Decided without a
 * request (an unreachable address proves it); the last test compares the outputs of a workspace the real
 * local service made with the program that made it.
 */
import * as workspace from "../../provider/handlers/workspace";
import { acmeProjectIds, checkedInputs, configureFor, configureUnreachable, freshWorkspaceName, UNKNOWN, useServer } from "./helpers";

const server = useServer();
const AGENT_POOL = "apool-0000000000000001";
const OTHER_POOL = "apool-0000000000000002";

describe("changedProperties: what the detailed diff lists", () => {
    const state = { organization: "acme", name: "web", projectId: "prj-a", description: "site", autoApply: false, executionMode: "remote" };
    const onAgent = { ...state, executionMode: "agent", agentPoolId: AGENT_POOL };

    beforeEach(configureUnreachable);

    it("lists nothing for the same inputs", () => {
        expect(workspace.changedProperties(state, { ...state })).toEqual([]);
        expect(workspace.changedProperties(onAgent, { ...onAgent })).toEqual([]);
    });

    it.each([
        ["executionMode remote given, left out in state", { executionMode: undefined }, { executionMode: "remote" }],
        ["executionMode left out, remote in state (the default)", {}, { executionMode: undefined }],
        ["a null agent pool, none in state", {}, { agentPoolId: null }],
        ["an empty agent pool, null in state", { agentPoolId: null }, { agentPoolId: "" }],
        ["an absent description, null in state", { description: null }, { description: undefined }],
        ["an empty description, absent in state", { description: undefined }, { description: "" }],
        ["autoApply false given, absent in state", { autoApply: undefined }, { autoApply: false }],
        ["autoApply left out, false in state", {}, { autoApply: undefined }],
    ])("lists nothing for %s (equivalent spellings)", (_what, olds, news) => {
        expect(workspace.changedProperties({ ...state, ...olds }, { ...state, ...news })).toEqual([]);
    });

    it.each([
        ["name", "another name", { name: "web-2" }],
        ["description", "another description", { description: "other" }],
        ["description", "the description left out", { description: undefined }],
        ["autoApply", "autoApply turned on", { autoApply: true }],
    ])("lists %s alone for %s", (property, _what, change) => {
        expect(workspace.changedProperties(state, { ...state, ...change })).toEqual([property]);
    });

    it("lists both executionMode and agentPoolId when the workspace goes onto an agent pool, and back", () => {
        expect(workspace.changedProperties(state, onAgent)).toEqual(["executionMode", "agentPoolId"]);
        expect(workspace.changedProperties(onAgent, state)).toEqual(["executionMode", "agentPoolId"]);
    });

    it("lists agentPoolId alone when the workspace moves to another pool (the mode stays agent)", () => {
        expect(workspace.changedProperties(onAgent, { ...onAgent, agentPoolId: OTHER_POOL })).toEqual(["agentPoolId"]);
    });

    it("lists executionMode alone when only the mode is not known yet (the pool stays the same)", () => {
        expect(workspace.changedProperties(onAgent, { ...onAgent, executionMode: UNKNOWN })).toEqual(["executionMode"]);
    });

    it("lists every changed setting, and only those, in one diff", () => {
        expect(workspace.changedProperties(state, { ...onAgent, name: "web-2", autoApply: true })).toEqual([
            "name",
            "autoApply",
            "executionMode",
            "agentPoolId",
        ]);
    });

    it("lists organization (a replacement) and projectId (a move) beside the settings", () => {
        expect(workspace.changedProperties(state, { ...state, organization: "globex", projectId: "prj-b", description: "d" })).toEqual([
            "organization",
            "projectId",
            "description",
        ]);
        // No project in the program never moves the workspace.
        expect(workspace.changedProperties(state, { ...state, projectId: undefined })).toEqual([]);
    });
});

describe("changedProperties of what the service made", () => {
    it("lists nothing for the outputs of a create against its program, and the one setting the program then changes", async () => {
        await configureFor(server());
        const ids = await acmeProjectIds(server());
        const inputs = await checkedInputs(workspace, {
            organization: "acme",
            name: freshWorkspaceName("wcp"),
            projectId: ids.Apps,
            executionMode: "agent",
            agentPoolId: AGENT_POOL,
        });
        const created = await workspace.create(inputs);
        expect(workspace.changedProperties(created.outs, inputs)).toEqual([]);
        expect(workspace.changedProperties(created.outs, { ...inputs, description: "now described" })).toEqual(["description"]);
        expect(workspace.changedProperties(created.outs, { ...inputs, executionMode: "remote", agentPoolId: undefined })).toEqual([
            "executionMode",
            "agentPoolId",
        ]);
        await workspace.delete(created.id, created.outs);
    });
});
