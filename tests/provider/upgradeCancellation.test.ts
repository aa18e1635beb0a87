/**
 * An upgrade canceled by Pulumi (`withCancellation`, which the native plugin aborts when the engine sends
 * `Cancel`: the CLI interrupted), against real upgrade runs of the local service: it stops waiting at once,
 * whether for its own plan, for an earlier unfinished run, or between a finished plan and its confirm; it fails
 * saying the run is left unconfirmed (the update then keeps the old vars in state), and nothing is applied.
 */
import { WosClient } from "../../sdk";
import { runUpgrade, setUpgradeLogger, UpgradeFailure, withCancellation } from "../../provider/handlers/upgradeRunner";
import { startTestServer, type TestServer } from "../support/server";
import { TOKENS } from "../support/seed";
import { infraValue, moduleWithWorkspace } from "../sdk/helpers";

const NEW_REGION = [{ key: "region", value: "eu-west-1", category: "infra" as const }];

let lines: string[] = [];
let onLine: (line: string) => void = () => undefined;
let previousPoll: string | undefined;
beforeAll(() => {
    setUpgradeLogger((line) => {
        lines.push(line);
        onLine(line);
    });
    previousPoll = process.env.WOS_UPGRADE_POLL_MS;
    process.env.WOS_UPGRADE_POLL_MS = "10";
});
afterAll(() => {
    setUpgradeLogger();
    if (previousPoll === undefined) delete process.env.WOS_UPGRADE_POLL_MS;
    else process.env.WOS_UPGRADE_POLL_MS = previousPoll;
});
beforeEach(() => {
    lines = [];
    onLine = () => undefined;
});

/** Resolves once the runner has written a line that matches `pattern`. */
function lineMatching(pattern: RegExp): Promise<void> {
    return new Promise((resolve) => {
        const previous = onLine;
        onLine = (line) => {
            previous(line);
            if (pattern.test(line)) resolve();
        };
    });
}

async function rejection(promise: Promise<unknown>): Promise<UpgradeFailure> {
    const outcome = await promise.then(
        () => undefined,
        (error: unknown) => error,
    );
    expect(outcome).toBeInstanceOf(UpgradeFailure);
    return outcome as UpgradeFailure;
}

describe("a plan that does not end (one step an hour)", () => {
    let server: TestServer;
    let client: WosClient;

    beforeAll(async () => {
        server = await startTestServer({ planStepMs: 3_600_000 });
        client = new WosClient({ address: server.url, token: TOKENS.owners, maxRetryDelayMs: 10 });
    });
    afterAll(async () => {
        await server?.close();
    });

    test("canceled while it waits for its own plan: fails at once naming the run left unconfirmed and its status; nothing is applied", async () => {
        const { module, workspace } = await moduleWithWorkspace(client);
        const controller = new AbortController();
        const started = lineMatching(/started: pending/);
        const upgrade = withCancellation(controller.signal, () =>
            runUpgrade({ client, noCodeModuleId: module.id, workspaceId: workspace.id, vars: NEW_REGION, timeoutSeconds: 1800, what: "site" }),
        );
        await started;
        controller.abort();
        const failure = await rejection(upgrade);
        expect(failure.run).toEqual({ id: expect.stringMatching(/^run-/), status: "pending", planUrl: expect.stringMatching(/^http/) });
        expect(failure.message).toBe(
            `Pulumi canceled the update: the upgrade plan ${failure.run!.id} is left unconfirmed in status 'pending' (plan: ${failure.run!.planUrl})`,
        );
        expect((await client.noCodeModules.readUpgrade(module.id, workspace.id, failure.run!.id)).status).toBe("pending");
        expect(await infraValue(client, workspace, "region")).toBe("us-east-1");
    });

    test("canceled while it waits for an earlier unfinished run: fails naming that run, and starts none of its own", async () => {
        const { module, workspace } = await moduleWithWorkspace(client);
        const earlier = await client.noCodeModules.initiateUpgrade(module.id, workspace.id, { vars: NEW_REGION });
        const controller = new AbortController();
        const waiting = lineMatching(/earlier upgrade .* is unfinished: waiting/);
        const upgrade = withCancellation(controller.signal, () =>
            runUpgrade({ client, noCodeModuleId: module.id, workspaceId: workspace.id, vars: NEW_REGION, timeoutSeconds: 1800, what: "site" }),
        );
        await waiting;
        controller.abort();
        const failure = await rejection(upgrade);
        expect(failure.message).toBe(`Pulumi canceled the update while an earlier upgrade (${earlier.id}) of the workspace was unfinished; this upgrade did not start`);
        expect(failure.run).toBeUndefined();
        expect(lines.filter((line) => /started/.test(line))).toEqual([]);
        expect((await client.noCodeModules.readUpgrade(module.id, workspace.id, earlier.id)).status).toBe("pending");
        expect(await infraValue(client, workspace, "region")).toBe("us-east-1");
    });

    test("canceled before it starts: starts nothing", async () => {
        const { module, workspace } = await moduleWithWorkspace(client);
        const failure = await rejection(
            withCancellation(AbortSignal.abort(), () =>
                runUpgrade({ client, noCodeModuleId: module.id, workspaceId: workspace.id, vars: NEW_REGION, timeoutSeconds: 1800, what: "site" }),
            ),
        );
        expect(failure.message).toMatch(/^Pulumi canceled the update/);
        expect(lines).toEqual([]);
        expect(await infraValue(client, workspace, "region")).toBe("us-east-1");
    });
});

describe("a plan that ends (a step every 20 ms)", () => {
    let server: TestServer;
    let client: WosClient;

    beforeAll(async () => {
        server = await startTestServer({ planStepMs: 20 });
        client = new WosClient({ address: server.url, token: TOKENS.owners, maxRetryDelayMs: 10 });
    });
    afterAll(async () => {
        await server?.close();
    });

    test("canceled once its plan is made: does not confirm it, and says it is left in 'planned'", async () => {
        const { module, workspace } = await moduleWithWorkspace(client);
        const controller = new AbortController();
        onLine = (line) => {
            if (/: planned \(plan:/.test(line)) controller.abort();
        };
        const failure = await rejection(
            withCancellation(controller.signal, () =>
                runUpgrade({ client, noCodeModuleId: module.id, workspaceId: workspace.id, vars: NEW_REGION, timeoutSeconds: 60, what: "site" }),
            ),
        );
        expect(failure.run).toMatchObject({ status: "planned" });
        expect(failure.message).toMatch(/^Pulumi canceled the update: the upgrade plan run-\w+ is left unconfirmed in status 'planned'/);
        expect((await client.noCodeModules.readUpgrade(module.id, workspace.id, failure.run!.id)).status).toBe("planned");
        expect(await infraValue(client, workspace, "region")).toBe("us-east-1");
    });

    test("a signal that never aborts changes nothing: the upgrade is confirmed and applied", async () => {
        const { module, workspace } = await moduleWithWorkspace(client);
        const result = await withCancellation(new AbortController().signal, () =>
            runUpgrade({ client, noCodeModuleId: module.id, workspaceId: workspace.id, vars: NEW_REGION, timeoutSeconds: 60, what: "site" }),
        );
        expect(result).toMatchObject({ status: "applied" });
        expect(await infraValue(client, workspace, "region")).toBe("eu-west-1");
    });
});
