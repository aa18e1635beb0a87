/**
 * How the upgrade runner tells which earlier run it waits for: by the 409's code (`upgrade_in_progress`) and
 * the run id in its `meta`, never by the words of its detail. A stand-in client answers as the local service
 * (code and meta) or as the hosted service (words only, no code); the runner waits on the named run in the
 * first case and by trying again in the second, even when the words name a run; and a cancellation stops
 * those tries (the local service always names the run, so only a stand-in reaches them).
 */
import type { WosClient } from "../../sdk";
import { WosConflictError } from "../../sdk/errors";
import type { WorkspaceUpgrade } from "../../sdk/model";
import { runUpgrade, setUpgradeLogger, UpgradeFailure, withCancellation } from "../../provider/handlers/upgradeRunner";

const MODULE = "nocode-1";
const WORKSPACE = "ws-1";

/** A 409 of the upgrade's start, with the error object given. */
function refusal(error: Record<string, unknown>): WosConflictError {
    return new WosConflictError({
        status: 409,
        method: "POST",
        path: `/no-code-modules/${MODULE}/workspaces/${WORKSPACE}/upgrade`,
        errors: [{ status: "409", title: "conflict", ...error }],
    });
}

/** A run of this workspace in `status`. */
function run(id: string, status: string): WorkspaceUpgrade & { noCodeModuleId: string; workspaceId: string } {
    return { id, status, planUrl: `https://plans/${id}`, noCodeModuleId: MODULE, workspaceId: WORKSPACE } as never;
}

/** A client whose first upgrade start is refused with `first`, then starts `run-mine`; it records the runs waited for. */
function standIn(first: WosConflictError): { client: WosClient; starts: () => number; waitedFor: string[] } {
    let starts = 0;
    const waitedFor: string[] = [];
    const noCodeModules = {
        initiateUpgrade: async () => {
            starts += 1;
            if (starts === 1) throw first;
            return run("run-mine", "pending");
        },
        waitForPlan: async (upgrade: { id: string }) => {
            waitedFor.push(upgrade.id);
            return run(upgrade.id, "planned_and_finished");
        },
        confirmUpgrade: async () => undefined,
    };
    return { client: { noCodeModules } as unknown as WosClient, starts: () => starts, waitedFor };
}

const lines: string[] = [];
let previousPoll: string | undefined;
beforeAll(() => {
    setUpgradeLogger((line) => lines.push(line));
    previousPoll = process.env.WOS_UPGRADE_POLL_MS;
    process.env.WOS_UPGRADE_POLL_MS = "1";
});
afterAll(() => {
    setUpgradeLogger();
    if (previousPoll === undefined) delete process.env.WOS_UPGRADE_POLL_MS;
    else process.env.WOS_UPGRADE_POLL_MS = previousPoll;
});
beforeEach(() => {
    lines.length = 0;
});

const request = (client: WosClient) => ({ client, noCodeModuleId: MODULE, workspaceId: WORKSPACE, vars: [], timeoutSeconds: 5, what: "test" });

test("upgrade_in_progress: waits for the run of meta.run-id, then starts its own", async () => {
    const { client, starts, waitedFor } = standIn(refusal({ code: "upgrade_in_progress", meta: { "run-id": "run-theirs" }, detail: "words that name no run" }));
    expect(await runUpgrade(request(client))).toMatchObject({ id: "run-mine", status: "planned_and_finished" });
    expect(waitedFor).toEqual(["run-theirs", "run-mine"]);
    expect(starts()).toBe(2);
    expect(lines[0]).toContain("an earlier upgrade (run-theirs) of the workspace is unfinished");
});

test("a 409 without a code (the hosted service's) whose words name a run: the words are not read, it tries again", async () => {
    const { client, starts, waitedFor } = standIn(refusal({ detail: "An upgrade of this workspace (run-words) is still 'pending'" }));
    expect(await runUpgrade(request(client))).toMatchObject({ id: "run-mine" });
    expect(waitedFor).toEqual(["run-mine"]);
    expect(starts()).toBe(2);
    expect(lines[0]).toContain("an earlier upgrade of the workspace is unfinished");
});

test("a run id in the meta of another code is not taken for the unfinished run", async () => {
    const { client, waitedFor } = standIn(refusal({ code: "concurrent_change", meta: { "run-id": "run-other" } }));
    await runUpgrade(request(client));
    expect(waitedFor).toEqual(["run-mine"]);
});

test("canceled while it tries again after a 409 without a code: stops waiting at once, and starts nothing", async () => {
    const starts: number[] = [];
    const noCodeModules = {
        initiateUpgrade: async () => {
            starts.push(Date.now());
            throw refusal({ detail: "An upgrade of this workspace is still running" });
        },
    };
    const controller = new AbortController();
    // Waits a minute between tries: only the cancellation can end this wait within the test's time.
    process.env.WOS_UPGRADE_POLL_MS = "60000";
    try {
        const running = withCancellation(controller.signal, () =>
            runUpgrade({ ...request({ noCodeModules } as unknown as WosClient), timeoutSeconds: 600 }),
        );
        while (starts.length === 0) await new Promise((resolve) => setTimeout(resolve, 5));
        controller.abort();
        const failure = await running.then(
            () => undefined,
            (error: unknown) => error,
        );
        expect(failure).toBeInstanceOf(UpgradeFailure);
        expect((failure as UpgradeFailure).message).toBe("Pulumi canceled the update while an earlier upgrade of the workspace was unfinished; this upgrade did not start");
        expect(starts).toHaveLength(1);
    } finally {
        process.env.WOS_UPGRADE_POLL_MS = "1";
    }
});
