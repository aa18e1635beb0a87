/**
 * The upgrade of a workspace made from a no-code module, as `wos:NoCodeWorkspace` runs it inside an update:
 * wait for an earlier unfinished upgrade of the workspace (never confirming it), initiate a plan with the
 * whole `vars` list, poll it with backoff until the deadline (each status and the plan URL to the Pulumi log),
 * and confirm only a finished plan. {@link runUpgrade} is the whole of it; whatever stops an upgrade is an
 * {@link UpgradeFailure} that names the run, its status and its plan URL.
 *
 * @module
 */
import { AsyncLocalStorage } from "node:async_hooks";
import { setTimeout as sleep } from "node:timers/promises";
import type { WosClient } from "../../sdk";
import { WosConflictError, WosPlanFailedError, WosPlanTimeoutError } from "../../sdk/errors";
import type { NoCodeWorkspaceVar, WorkspaceUpgrade } from "../../sdk/model";
import { safeMessage } from "./operationErrors";

/** Default of `upgradeTimeoutSeconds`: the whole upgrade's deadline, 30 minutes. */
export const DEFAULT_UPGRADE_TIMEOUT_SECONDS = 1800;

/** Default first delay between polls of an upgrade plan; `WOS_UPGRADE_POLL_MS` overrides it (a test knob). */
export const DEFAULT_UPGRADE_POLL_MS = 1000;

/** Longest delay between polls, as docs/reference.md promises ("at most 10 s apart"). */
const MAX_UPGRADE_POLL_MS = 10_000;

/** The last upgrade this resource ran: the run's id, how it ended, and its plan's page. */
export interface LastUpgrade {
    id: string;
    status: string;
    planUrl: string;
}

// The Pulumi log

/** Where the upgrade's progress goes: a line per status change, with the plan URL. */
export type UpgradeLogger = (message: string) => void;

/**
 * Writes to the Pulumi log. `@pulumi/pulumi` is loaded only when an upgrade runs (the provider host has it;
 * the handlers need it for nothing else), and a failure to load or log never fails the upgrade.
 */
function pulumiLog(message: string): void {
    try {
        const pulumi = require("@pulumi/pulumi") as { log: { info(message: string): unknown } };
        void Promise.resolve(pulumi.log.info(message)).catch(() => undefined);
    } catch {
        // No Pulumi runtime here: the progress is lost, the upgrade is not.
    }
}

let upgradeLogger: UpgradeLogger = pulumiLog;

/**
 * Replaces where upgrade progress is written (the Pulumi log by default); without an argument, restores the
 * default. Answers the previous logger.
 *
 * @internal for tests, which read the progress lines.
 */
export function setUpgradeLogger(logger?: UpgradeLogger): UpgradeLogger {
    const previous = upgradeLogger;
    upgradeLogger = logger ?? pulumiLog;
    return previous;
}

/**
 * The logger of the operation under way, when it runs inside {@link withUpgradeLogger}: the native plugin
 * sends each line to the engine's log of the resource being updated, and the engine runs several resources'
 * operations at once, so one logger per process would mix them up.
 */
const operationLogger = new AsyncLocalStorage<UpgradeLogger>();

/**
 * Runs `operation` (and everything it awaits) writing upgrade progress to `logger` instead of the process's
 * logger (see {@link setUpgradeLogger}).
 */
export function withUpgradeLogger<T>(logger: UpgradeLogger, operation: () => T): T {
    return operationLogger.run(logger, operation);
}

/** Writes one line of an upgrade's progress, naming the resource (`what`), where the operation's lines go. */
export function logUpgrade(what: string, message: string): void {
    (operationLogger.getStore() ?? upgradeLogger)(`${what}: ${message}`);
}

/**
 * The cancellation of the operation under way, when it runs inside {@link withCancellation}: the native plugin
 * aborts it when the engine sends `Cancel` (the CLI interrupted), so an upgrade stops waiting for its plan at
 * once instead of at its deadline.
 */
const operationSignal = new AsyncLocalStorage<AbortSignal>();

/** Runs `operation` (and everything it awaits) so that an upgrade in it stops waiting when `signal` aborts. */
export function withCancellation<T>(signal: AbortSignal, operation: () => T): T {
    return operationSignal.run(signal, operation);
}

/** The first delay between polls of a plan: `WOS_UPGRADE_POLL_MS` when it is a positive number, else 1 s. */
function firstPollDelayMs(): number {
    const configured = Number(process.env.WOS_UPGRADE_POLL_MS);
    return Number.isFinite(configured) && configured >= 1 ? Math.round(configured) : DEFAULT_UPGRADE_POLL_MS;
}


// ---------------------------------------------------------------------------------------------------------
// The upgrade

/** The failure of an upgrade: the run (if one started) and why, for the message and `lastUpgrade`. */
export class UpgradeFailure extends Error {
    constructor(
        message: string,
        readonly run?: LastUpgrade,
    ) {
        super(message);
    }
}

/**
 * The unfinished run a 409 names: the `run-id` of its `meta` when its code is `upgrade_in_progress` (the
 * local service's). The words of the detail are never read: they are for people and may change. The hosted
 * service's 409 has no code, so the run is unknown and the caller waits by trying again.
 */
function unfinishedRunId(failure: WosConflictError): string | undefined {
    const runId = failure.errorCode === "upgrade_in_progress" ? failure.errorMeta?.["run-id"] : undefined;
    return typeof runId === "string" ? runId : undefined;
}

/**
 * Starts this update's upgrade. While an earlier upgrade of the workspace is unfinished the service answers
 * 409: that run is waited for (by its id when the service names it, else by trying again with backoff),
 * never confirmed, within the same deadline; then this upgrade starts. Starting it discards a run that
 * ended `planned` unconfirmed.
 */
async function initiateUpgrade(
    client: WosClient,
    workspaceId: string,
    noCodeModuleId: string,
    vars: NoCodeWorkspaceVar[],
    deadline: number,
    log: UpgradeLogger,
    signal: AbortSignal | undefined,
): Promise<WorkspaceUpgrade & { noCodeModuleId: string }> {
    let delay = firstPollDelayMs();
    const canceled = (runId?: string) =>
        new UpgradeFailure(
            `Pulumi canceled the update while an earlier upgrade${runId ? ` (${runId})` : ""} of the workspace was unfinished; ` +
                "this upgrade did not start",
        );
    for (;;) {
        if (signal?.aborted) throw canceled();
        try {
            return await client.noCodeModules.initiateUpgrade(noCodeModuleId, workspaceId, { vars });
        } catch (failure) {
            if (!WosConflictError.isInstance(failure)) throw failure;
            const runId = unfinishedRunId(failure);
            log(`an earlier upgrade${runId ? ` (${runId})` : ""} of the workspace is unfinished: waiting for it to end (it will not be confirmed)`);
            if (runId) {
                try {
                    await client.noCodeModules.waitForPlan(
                        { noCodeModuleId, workspaceId, id: runId },
                        { deadline, initialDelayMs: delay, maxDelayMs: MAX_UPGRADE_POLL_MS, signal },
                    );
                } catch (waitFailure) {
                    if (signal?.aborted) throw canceled(runId);
                    // However it ended, it is over; only the deadline, or an error of another kind, stops this upgrade.
                    if (WosPlanTimeoutError.isInstance(waitFailure)) {
                        throw new UpgradeFailure(
                            `an earlier upgrade (${runId}) of the workspace was still unfinished at the deadline ` +
                                `(upgradeTimeoutSeconds; last status '${waitFailure.lastStatus}', plan: ${waitFailure.planUrl}); ` +
                                "this upgrade did not start",
                        );
                    }
                    if (!WosPlanFailedError.isInstance(waitFailure)) throw waitFailure;
                }
            } else {
                if (Date.now() + delay > deadline) {
                    throw new UpgradeFailure(
                        "an earlier upgrade of the workspace was still unfinished at the deadline (upgradeTimeoutSeconds); " +
                            "this upgrade did not start",
                    );
                }
                // A cancellation ends the wait early; the loop's first check then says so.
                await sleep(delay, undefined, { signal }).catch(() => undefined);
                delay = Math.min(Math.round(delay * 1.5), MAX_UPGRADE_POLL_MS);
            }
        }
    }
}

/** What one upgrade needs: the workspace and its module, the vars, the deadline, and how the log names it. */
export interface UpgradeRequest {
    client: WosClient;
    /** `nocode-...` */
    noCodeModuleId: string;
    /** `ws-...` */
    workspaceId: string;
    /** The whole list of the workspace's managed vars, defaults filled. */
    vars: NoCodeWorkspaceVar[];
    /** The whole upgrade's deadline from now (the earlier run's wait included), in seconds. */
    timeoutSeconds: number;
    /** How each log line names the resource: `wos:NoCodeWorkspace 'site-prod' (ws-…) of no-code module nocode-…`. */
    what: string;
}

/** A plan that finished planning: the run as it ended, its plan URL, and the log of its upgrade. */
interface FinishedPlan {
    finished: WorkspaceUpgrade;
    planUrl: string;
    log: UpgradeLogger;
    signal: AbortSignal | undefined;
}

/**
 * Initiates the upgrade with the whole `vars` list and polls its plan with backoff until it has finished
 * planning or the deadline passes (each status and the plan URL to the log). A plan that ends any other way
 * than `planned`, `cost_estimated` or `planned_and_finished`, or the deadline, throws an
 * {@link UpgradeFailure} with the status and the plan URL; nothing is confirmed here.
 */
async function planToItsEnd(request: UpgradeRequest): Promise<FinishedPlan> {
    const { client, workspaceId, noCodeModuleId, vars, timeoutSeconds } = request;
    const log: UpgradeLogger = (message) => logUpgrade(request.what, message);
    const deadline = Date.now() + timeoutSeconds * 1000;
    const signal = operationSignal.getStore();
    const started = await initiateUpgrade(client, workspaceId, noCodeModuleId, vars, deadline, log, signal);
    log(`upgrade ${started.id} started: ${started.status} (plan: ${started.planUrl})`);
    // A later answer's plan URL, or the start's when that answer has none.
    // Stryker disable next-line LogicalOperator: this service answers every read of an upgrade with the plan URL of its start, so the fallback is never taken
    const planUrlOf = (upgrade: { planUrl: string }) => upgrade.planUrl || started.planUrl;
    let lastStatus = started.status;
    try {
        const finished = await client.noCodeModules.waitForPlan(started, {
            deadline,
            initialDelayMs: firstPollDelayMs(),
            maxDelayMs: MAX_UPGRADE_POLL_MS,
            signal,
            onStatus: (upgrade) => {
                if (upgrade.status === lastStatus) return;
                lastStatus = upgrade.status;
                log(`upgrade ${upgrade.id}: ${upgrade.status} (plan: ${planUrlOf(upgrade)})`);
            },
        });
        return { finished, planUrl: planUrlOf(finished), log, signal };
    } catch (failure) {
        if (signal?.aborted) throw canceledUpgrade(started.id, lastStatus, started.planUrl);
        if (WosPlanFailedError.isInstance(failure)) {
            const planUrl = planUrlOf(failure);
            throw new UpgradeFailure(`the upgrade plan ${started.id} ended '${failure.status}' (plan: ${planUrl})`, {
                id: started.id,
                status: failure.status,
                planUrl,
            });
        }
        if (WosPlanTimeoutError.isInstance(failure)) {
            const planUrl = planUrlOf(failure);
            throw new UpgradeFailure(
                `the upgrade plan ${started.id} did not finish within upgradeTimeoutSeconds (${timeoutSeconds} s); ` +
                    `last status '${failure.lastStatus}' (plan: ${planUrl}); it is left unconfirmed`,
                { id: started.id, status: failure.lastStatus, planUrl },
            );
        }
        throw new UpgradeFailure(`polling the upgrade plan ${started.id} failed: ${safeMessage(failure)} (plan: ${started.planUrl})`, {
            id: started.id,
            status: lastStatus,
            planUrl: started.planUrl,
        });
    }
}

/**
 * The upgrade: initiate with the whole `vars` list, poll the plan with backoff until `deadline` (each status
 * and the plan URL to the log), confirm `planned` / `cost_estimated`, nothing to confirm for
 * `planned_and_finished`. Any other end, or the deadline, throws an {@link UpgradeFailure} with the status and
 * the plan URL; the plan is then left unconfirmed (a later upgrade starts a new one).
 */
export async function runUpgrade(request: UpgradeRequest): Promise<LastUpgrade> {
    const { client, workspaceId, noCodeModuleId } = request;
    const { finished, planUrl, log, signal } = await planToItsEnd(request);
    if (finished.status === "planned_and_finished") {
        log(`upgrade ${finished.id}: planned_and_finished, nothing to apply (plan: ${planUrl})`);
        return { id: finished.id, status: finished.status, planUrl };
    }
    // Canceled once the plan was made: nothing is applied that the interrupted update did not wait for.
    if (signal?.aborted) throw canceledUpgrade(finished.id, finished.status, planUrl);
    try {
        await client.noCodeModules.confirmUpgrade(noCodeModuleId, workspaceId, finished.id);
    } catch (failure) {
        throw new UpgradeFailure(`confirming the upgrade plan ${finished.id} (${finished.status}) failed: ${safeMessage(failure)} (plan: ${planUrl})`, {
            id: finished.id,
            status: finished.status,
            planUrl,
        });
    }
    log(`upgrade ${finished.id}: ${finished.status}, confirmed and applied (plan: ${planUrl})`);
    return { id: finished.id, status: "applied", planUrl };
}

/**
 * The upgrade's plan alone, as a preview makes it (`planUpgradesInPreview`): initiate, poll until the plan has
 * finished planning, and leave it unconfirmed, saying so in the log with its status and plan URL. A plan that
 * errors (or the deadline) throws the {@link UpgradeFailure} {@link runUpgrade} would. The `up` that follows
 * plans again: its initiate discards this unconfirmed plan.
 */
export async function planUpgrade(request: UpgradeRequest): Promise<LastUpgrade> {
    const { finished, planUrl, log } = await planToItsEnd(request);
    const outcome = finished.status === "planned_and_finished" ? "nothing to apply" : "not confirmed: the preview applies nothing, and `pulumi up` plans again";
    log(`upgrade plan ${finished.id}: ${finished.status}, ${outcome} (plan: ${planUrl})`);
    return { id: finished.id, status: finished.status, planUrl };
}

/** The failure of an upgrade that Pulumi canceled (the CLI interrupted): its run is left as it is, unconfirmed. */
function canceledUpgrade(id: string, status: string, planUrl: string): UpgradeFailure {
    return new UpgradeFailure(`Pulumi canceled the update: the upgrade plan ${id} is left unconfirmed in status '${status}' (plan: ${planUrl})`, {
        id,
        status,
        planUrl,
    });
}
