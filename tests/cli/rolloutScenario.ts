/**
 * A no-code module rolled out in waves with a canary (issue 29, point 1), through the real CLI against the real
 * `wos-server` behind a recording proxy: a `NoCodeProject` of four workspaces in three waves (`canary`; `wave-b`
 * and `wave-c`; `tail-d`, named by no wave), its module's pin raised from 1.0.0 to 1.1.0. The scenario, for the
 * TypeScript component on the dynamic resources and for the plugin's component from YAML:
 *
 * 1. an errored plan injected into the canary (the service's `planOutcome` fault) fails the `up`, naming the
 *    wave and the workspace; no workspace of a later wave is attempted, and every one keeps its version (read
 *    back over HTTP);
 * 2. an errored plan in wave 2 stops the rollout there: the canary and the other workspace of wave 2 are
 *    upgraded, the failed one and the last wave are not;
 * 3. with the fault cleared, the next `up` completes the rollout: only what was not upgraded yet is upgraded,
 *    and every upgrade of a wave is initiated only after every confirm of the wave before was answered.
 */
import { startRecorder, type RecordedRequest, type Recorder } from "../support/recordingProxy";
import type { CliResult, PulumiProgram } from "../support/pulumiCli";
import { PLATFORM_TOKEN, startCliTestService, type CliTestService, type OrganizationSnapshot } from "./localService";

// Each test runs the real CLI (an `up` of six resources and their upgrades): seconds alone, more on busy cores.
jest.setTimeout(300_000);

/** The waves of the scenario's program, in order; `tail-d` is named by no wave of its `rollout`. */
export const WAVES = [["canary"], ["wave-b", "wave-c"], ["tail-d"]] as const;
/** Every workspace of the program, in the program's order. */
export const WORKSPACE_NAMES = ["tail-d", "canary", "wave-b", "wave-c"];

export interface RolloutSpec {
    /**
     * The program on a stack of its own: a `NoCodeProject` named `fleet` of the project `Fleet`, made from the
     * seed's registry module at the pin of the stack config `bucketVersion` (default 1.0.0), each workspace
     * with the var `region` = `eu-west-1`, and `rollout.waves` the first two of {@link WAVES}; it exports
     * `workspaceIds`. Its address and token are set by the scenario.
     */
    program(): Promise<PulumiProgram>;
    /** The config key of `bucketVersion` (`<project>:bucketVersion` for a TypeScript program, plain for YAML). */
    versionKey: string;
}

/** What the service says of one workspace's version. */
interface VersionOnService {
    noCodeVersion: string;
    upgradeAvailable: boolean;
}

const INITIATE = /^\/api\/v2\/no-code-modules\/[^/]+\/workspaces\/(ws-[^/]+)\/upgrade$/;
const CONFIRM = /^\/api\/v2\/no-code-modules\/[^/]+\/workspaces\/(ws-[^/]+)\/upgrade\/run-[^/]+$/;

/** The upgrade requests of a run (POSTs: initiates and confirms), by workspace id. */
function upgradeRequests(requests: readonly RecordedRequest[], pattern: RegExp): Map<string, RecordedRequest[]> {
    const found = new Map<string, RecordedRequest[]>();
    for (const request of requests) {
        const match = request.method === "POST" ? pattern.exec(request.path) : null;
        if (match) found.set(match[1]!, [...(found.get(match[1]!) ?? []), request]);
    }
    return found;
}

export function rolloutTests(spec: RolloutSpec): void {
    let service: CliTestService;
    let recorder: Recorder;
    let program: PulumiProgram;
    let seeded: OrganizationSnapshot;
    let ids: Record<string, string> = {};
    let oldVersions: Record<string, VersionOnService> = {};
    let transcript = "";

    const run = async (args: string[]): Promise<CliResult> => {
        const result = await program.attempt(args);
        transcript += `$ pulumi ${args.join(" ")}\n${result.output}\n`;
        return result;
    };
    const up = () => run(["up", "--yes", "--skip-preview"]);
    const versions = async (): Promise<Record<string, VersionOnService>> => {
        const found: Record<string, VersionOnService> = {};
        for (const name of WORKSPACE_NAMES) {
            const workspace = await service.get(`/workspaces/${ids[name]}`);
            found[name] = {
                noCodeVersion: workspace.relationships["no-code-module-version"].data.id,
                upgradeAvailable: workspace.attributes["no-code-upgrade-available"],
            };
        }
        return found;
    };
    const namesOf = (workspaceIds: Iterable<string>) => [...workspaceIds].map((id) => Object.keys(ids).find((name) => ids[name] === id)).sort();
    /** Fails with everything the CLI printed in this file, so that a failure shows what the engine said. */
    const withTranscript = async (body: () => Promise<void>) => {
        try {
            await body();
        } catch (failure) {
            throw new Error(`${(failure as Error).message}\n--- what the CLI printed ---\n${transcript}`);
        }
    };

    beforeAll(async () => {
        service = await startCliTestService();
        seeded = await service.snapshot();
        recorder = await startRecorder(service.url);
        program = await spec.program();
        await program.pulumi(["config", "set-all", "--plaintext", `wos:address=${recorder.url}`, "--secret", `wos:token=${PLATFORM_TOKEN}`]);
    }, 600_000);
    afterAll(async () => {
        await program?.dispose();
        await recorder?.close();
        await service?.stop();
    });

    test("up makes the four workspaces on the module's 1.0.0", () =>
        withTranscript(async () => {
            const result = await up();
            expect(result.code).toBe(0);
            ids = (await program.outputs()).workspaceIds as Record<string, string>;
            expect(Object.keys(ids).sort()).toEqual([...WORKSPACE_NAMES].sort());
            oldVersions = await versions();
            for (const name of WORKSPACE_NAMES) expect(oldVersions[name]!.upgradeAvailable).toBe(false);
        }));

    test("an errored plan of the canary fails the up, naming wave 1 of 3 and the canary; no later wave is attempted, every workspace keeps its version", () =>
        withTranscript(async () => {
            await service.addFault({ method: "POST", path: `/workspaces/${ids.canary}/upgrade$`, planOutcome: "errored" });
            await program.pulumi(["config", "set", spec.versionKey, "1.1.0"]);
            recorder.requests.length = 0;
            const result = await up();
            expect(result.code).not.toBe(0);
            expect(result.output).toMatch(/wos:NoCodeWorkspace 'canary' \(ws-\w+\) of no-code module nocode-\w+: update \(upgrade, rollout wave 1 of 3\) failed/);
            expect(result.output).toMatch(/ended 'errored'[^]*The rollout stops at wave 1 of 3: the workspaces of later waves are not\s+attempted/);
            expect(namesOf(upgradeRequests(recorder.requests, INITIATE).keys())).toEqual(["canary"]);
            const now = await versions();
            for (const name of WORKSPACE_NAMES) expect({ name, ...now[name] }).toEqual({ name, noCodeVersion: oldVersions[name]!.noCodeVersion, upgradeAvailable: true });
        }));

    test("an errored plan in wave 2 stops the rollout there: the canary and the other workspace of wave 2 are upgraded, the failed one and the last wave are not", () =>
        withTranscript(async () => {
            await service.clearFaults();
            await service.addFault({ method: "POST", path: `/workspaces/${ids["wave-b"]}/upgrade$`, planOutcome: "errored" });
            recorder.requests.length = 0;
            const result = await up();
            expect(result.code).not.toBe(0);
            expect(result.output).toMatch(/wos:NoCodeWorkspace 'wave-b' \(ws-\w+\) of no-code module nocode-\w+: update \(upgrade, rollout wave 2 of 3\) failed/);
            expect(namesOf(upgradeRequests(recorder.requests, INITIATE).keys())).toEqual(["canary", "wave-b", "wave-c"]);
            const now = await versions();
            expect(Object.fromEntries(WORKSPACE_NAMES.map((name) => [name, now[name]!.upgradeAvailable]))).toEqual({
                canary: false,
                "wave-b": true,
                "wave-c": false,
                "tail-d": true,
            });
            expect(now["tail-d"]!.noCodeVersion).toBe(oldVersions["tail-d"]!.noCodeVersion);
        }));

    test("with the fault cleared, the next up completes the rollout wave by wave, upgrading nothing twice", () =>
        withTranscript(async () => {
            await service.clearFaults();
            recorder.requests.length = 0;
            const result = await up();
            expect(result.code).toBe(0);
            const initiates = upgradeRequests(recorder.requests, INITIATE);
            const confirms = upgradeRequests(recorder.requests, CONFIRM);
            expect(namesOf(initiates.keys())).toEqual(["tail-d", "wave-b"]);
            expect(namesOf(confirms.keys())).toEqual(["tail-d", "wave-b"]);
            // The last wave's upgrade was initiated only after wave 2's confirm was answered.
            const lastConfirmOfWaveTwo = Math.max(...confirms.get(ids["wave-b"]!)!.map((request) => request.answeredAt!));
            for (const initiate of initiates.get(ids["tail-d"]!)!) expect(initiate.arrivedAt).toBeGreaterThan(lastConfirmOfWaveTwo);
            const now = await versions();
            for (const name of WORKSPACE_NAMES) expect({ name, upgradeAvailable: now[name]!.upgradeAvailable }).toEqual({ name, upgradeAvailable: false });
            expect(new Set(WORKSPACE_NAMES.map((name) => now[name]!.noCodeVersion)).size).toBe(1);
        }));

    test("the whole rollout of a pin raised once more goes wave by wave: every initiate of a wave after every confirm of the wave before", () =>
        withTranscript(async () => {
            await program.pulumi(["config", "set", spec.versionKey, "1.0.0"]);
            recorder.requests.length = 0;
            expect((await up()).code).toBe(0);
            const initiates = upgradeRequests(recorder.requests, INITIATE);
            const confirms = upgradeRequests(recorder.requests, CONFIRM);
            expect(namesOf(initiates.keys())).toEqual([...WORKSPACE_NAMES].sort());
            for (let wave = 1; wave < WAVES.length; wave++) {
                const confirmedBefore = Math.max(...WAVES[wave - 1]!.flatMap((name) => confirms.get(ids[name]!)!.map((request) => request.answeredAt!)));
                for (const name of WAVES[wave]!) {
                    for (const initiate of initiates.get(ids[name]!)!) {
                        expect({ name, after: initiate.arrivedAt > confirmedBefore }).toEqual({ name, after: true });
                    }
                }
            }
        }));

    test("destroy leaves the organization as the seed made it", () =>
        withTranscript(async () => {
            expect((await run(["destroy", "--yes", "--skip-preview"])).code).toBe(0);
            expect(await service.snapshot()).toEqual(seeded);
        }));
}
