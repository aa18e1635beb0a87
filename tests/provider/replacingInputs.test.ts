/**
 * Replacement said once (issue 31): an input whose declaration carries `@replaceOnChanges` is what the
 * schema marks `willReplaceOnChanges` (tests/plugin/declaredTables.test.ts) and what each handler's `diff`
 * answers in `replaces` when it changes; here, for every resource, a change of each input alone from a state
 * of every input is checked against the generated list: the tagged ones replace, the others do not. (A
 * variable's key and category replace only a sensitive variable, and are not tagged: their own test is
 * tests/provider/variable.test.ts.)
 */
import { DECLARED } from "../../plugin/declared";
import * as noCodeModule from "../../provider/handlers/noCodeModule";
import * as noCodeWorkspace from "../../provider/handlers/noCodeWorkspace";
import * as project from "../../provider/handlers/project";
import * as projectTagBindings from "../../provider/handlers/projectTagBindings";
import { REPLACING_INPUTS } from "../../provider/handlers/replacingInputs";
import * as variable from "../../provider/handlers/variable";
import * as workspace from "../../provider/handlers/workspace";
import type { PropertyBag } from "../../provider/handlers/unknownValues";

interface Case {
    diff(id: string, olds: PropertyBag, news: PropertyBag): Promise<{ replaces?: string[]; changes?: boolean }>;
    /** The inputs whose change the diff sees: what the plugin's detailed diff names. */
    changedProperties(olds: PropertyBag, news: PropertyBag): string[];
    /** A state with every input given. */
    state: PropertyBag;
    /** Another value of each input. */
    changed: PropertyBag;
}

const CASES: Record<keyof typeof REPLACING_INPUTS, Case> = {
    Project: {
        diff: project.diff,
        changedProperties: project.changedProperties,
        state: { organization: "acme", name: "Apps", description: "d", autoDestroyActivityDuration: "14d", tags: { team: "a" } },
        changed: { organization: "other", name: "Apps 2", description: "e", autoDestroyActivityDuration: "12h", tags: { team: "b" } },
    },
    ProjectTagBindings: {
        diff: projectTagBindings.diff,
        changedProperties: projectTagBindings.changedProperties,
        state: { projectId: "prj-1", tags: { team: "a" } },
        changed: { projectId: "prj-2", tags: { team: "b" } },
    },
    Workspace: {
        diff: workspace.diff,
        changedProperties: workspace.changedProperties,
        state: {
            organization: "acme", name: "site", projectId: "prj-1", description: "d", autoApply: false,
            executionMode: "agent", agentPoolId: "apool-1",
        },
        changed: {
            organization: "other", name: "site-2", projectId: "prj-2", description: "e", autoApply: true,
            executionMode: "remote", agentPoolId: "apool-2",
        },
    },
    Variable: {
        diff: variable.diff,
        changedProperties: variable.changedProperties,
        state: { workspaceId: "ws-1", key: "A", value: "1", description: "d", category: "env", hcl: false, sensitive: false },
        changed: { workspaceId: "ws-2", key: "B", value: "2", description: "e", category: "infra", hcl: true, sensitive: true },
    },
    NoCodeModule: {
        diff: noCodeModule.diff,
        changedProperties: noCodeModule.changedProperties,
        state: {
            organization: "acme", registryModuleId: "mod-1", versionPin: "1.0.0", enabled: true,
            variableOptions: [{ variableName: "size", variableType: "string", options: ["s"] }],
        },
        changed: {
            organization: "other", registryModuleId: "mod-2", versionPin: "1.1.0", enabled: false,
            variableOptions: [{ variableName: "size", variableType: "string", options: ["m"] }],
        },
    },
    NoCodeWorkspace: {
        diff: noCodeWorkspace.diff,
        changedProperties: noCodeWorkspace.changedProperties,
        state: {
            noCodeModuleId: "nocode-1", projectId: "prj-1", name: "site", description: "d", autoApply: false,
            executionMode: "agent", agentPoolId: "apool-1", sourceName: "s", sourceUrl: "https://example.com/a",
            vars: [{ key: "size", value: "1", category: "infra", hcl: false, sensitive: false }],
            moduleVersion: "1.0.0", upgradeTimeoutSeconds: 60, rolloutWave: "1 of 2", noCodeUpgradeAvailable: false,
        },
        changed: {
            noCodeModuleId: "nocode-2", projectId: "prj-2", name: "site-2", description: "e", autoApply: true,
            executionMode: "remote", agentPoolId: "apool-2", sourceName: "t", sourceUrl: "https://example.com/b",
            vars: [{ key: "size", value: "2", category: "infra", hcl: false, sensitive: false }],
            moduleVersion: "1.1.0", upgradeTimeoutSeconds: 120, rolloutWave: "2 of 2",
        },
    },
};

/** Inputs whose change alone changes nothing on the service (a deadline, a label only messages show). */
const CHANGING_NOTHING = ["upgradeTimeoutSeconds", "rolloutWave"];

describe.each(Object.keys(CASES) as (keyof typeof CASES)[])("%s", (resource) => {
    const { diff, changedProperties, state, changed } = CASES[resource];

    test.each(Object.keys(changed))("a change of %s alone replaces exactly when its declaration says @replaceOnChanges", async (input) => {
        const result = await diff("id-1", state, { ...state, [input]: changed[input] });
        const tagged = (REPLACING_INPUTS[resource] as readonly string[]).includes(input);
        expect({ input, replaces: result.replaces ?? [] }).toEqual({ input, replaces: tagged ? [input] : [] });
        if (tagged) expect(result.changes).toBe(true);
    });

    test.each(Object.keys(changed))("a change of %s alone is named by that name in the detailed diff", (input) => {
        const names = changedProperties(state, { ...state, [input]: changed[input] });
        expect({ input, names }).toEqual({ input, names: CHANGING_NOTHING.includes(input) ? [] : [input] });
    });

    test("every input the resource declares is changed here", () => {
        expect(Object.keys(changed).sort()).toEqual(Object.keys(DECLARED.resources[resource]!.inputProperties).sort());
    });
});
