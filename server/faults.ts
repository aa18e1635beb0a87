/**
 * Fault injection for tests, a decision of the local service: `POST /_admin/faults` adds a rule,
 * `DELETE /_admin/faults` clears them, both with the admin token and only when one was configured.
 *
 * A rule matches requests by method and a regular expression on the URL path, `times` times. It can delay
 * the answer, answer another status, drop the connection, or (with `afterCommit`) let the handler do and
 * commit its work and only then replace the answer: the "lost response" a client must recover from.
 * A `planOutcome` rule forces the end of the next upgrade plans its path matches; the upgrade initiate takes
 * it once the run is sure to start, so a refused initiate uses none ({@link FaultStore.takePlanOutcome}).
 */
import { createHash, timingSafeEqual } from "node:crypto";
import { setTimeout as sleep } from "node:timers/promises";
import type { FastifyInstance, FastifyReply, FastifyRequest } from "fastify";
import { z } from "zod";
import { bearerToken } from "./auth";
import { problemsFromZodError, titleFor, unauthorized, validationFailed } from "./errors";

/** Schema of a fault rule as posted to `/_admin/faults`. */
export function faultRuleSchema() {
    return z.strictObject({
        /** HTTP method to match (any case); absent matches every method. */
        method: z.string().min(1).optional(),
        /** Regular expression tested against the URL path (no query string). */
        path: z.string().refine(
            (pattern) => {
                try {
                    new RegExp(pattern);
                    return true;
                } catch {
                    return false;
                }
            },
            { error: "must be a valid regular expression" },
        ),
        /** How many matching requests the rule affects; default 1. */
        times: z.number().int().min(1).default(1),
        /** Answer this status instead (after the work when `afterCommit`). */
        status: z.number().int().min(100).max(599).nullable().optional(),
        /** Wait this long before answering. */
        delayMs: z.number().int().min(0).max(600_000).default(0),
        /** Drop the connection instead of answering. */
        reset: z.boolean().default(false),
        /** Do the work and commit it, then replace the answer (`status`) or drop the connection (`reset`). */
        afterCommit: z.boolean().default(false),
        /** Outcome forced on the next upgrade plans matched by `path` (used by the upgrade runs). */
        planOutcome: z.enum(["errored"]).nullable().optional(),
        /** Extra headers on an injected answer (e.g. `Retry-After` on a 429). */
        headers: z.record(z.string(), z.string()).optional(),
    });
}

/** A fault rule as posted (defaults may be left out). */
export type FaultRule = z.input<ReturnType<typeof faultRuleSchema>>;
type ParsedRule = z.output<ReturnType<typeof faultRuleSchema>>;

interface ActiveRule {
    rule: ParsedRule;
    pattern: RegExp;
    remaining: number;
}

/** The rules in force, in the order they were added. */
export class FaultStore {
    private rules: ActiveRule[] = [];

    add(rule: ParsedRule): void {
        this.rules.push({ rule, pattern: new RegExp(rule.path), remaining: rule.times });
    }

    clear(): void {
        this.rules = [];
    }

    /** Whether any rule is left (the hooks skip all work when none is). */
    get isEmpty(): boolean {
        return this.rules.length === 0;
    }

    /** The first rule that changes the HTTP answer of this request, used up by one. */
    takeHttpFault(method: string, path: string): ParsedRule | undefined {
        const found = this.rules.find(
            (active) =>
                active.remaining > 0 &&
                affectsAnswer(active.rule) &&
                matches(active, method, path),
        );
        if (!found) return undefined;
        this.use(found);
        return found.rule;
    }

    /** The forced outcome of an upgrade plan started by this request, if a rule asks for one; used up by one. */
    takePlanOutcome(method: string, path: string): "errored" | undefined {
        const found = this.rules.find(
            (active) => active.remaining > 0 && active.rule.planOutcome && matches(active, method, path),
        );
        if (!found) return undefined;
        this.use(found);
        return found.rule.planOutcome ?? undefined;
    }

    private use(active: ActiveRule): void {
        active.remaining -= 1;
        if (active.remaining <= 0) this.rules = this.rules.filter((other) => other !== active);
    }
}

function affectsAnswer(rule: ParsedRule): boolean {
    return rule.status != null || rule.reset || rule.delayMs > 0;
}

function matches(active: ActiveRule, method: string, path: string): boolean {
    if (active.rule.method && active.rule.method.toUpperCase() !== method.toUpperCase()) return false;
    return active.pattern.test(path);
}

declare module "fastify" {
    interface FastifyRequest {
        /** The fault rule this request is subject to, if any. */
        wosFault?: ParsedRule;
    }
}

/**
 * Waits `ms`, or less when `signal` aborts: a closing server must not keep delayed answers (and the
 * process) waiting for their timers.
 */
async function delay(ms: number, signal: AbortSignal): Promise<void> {
    try {
        await sleep(ms, undefined, { signal });
    } catch (error) {
        if ((error as Error).name !== "AbortError") throw error;
    }
}

/**
 * The body of an injected answer. It has no `code`, as the hosted service's answers have none: an injected
 * failure stands for what a client may meet there, and so tests a client's way of coping without a code.
 */
function injectedBody(status: number): string {
    return JSON.stringify({ errors: [{ status: String(status), title: titleFor(status), detail: "injected fault" }] });
}

function dropConnection(request: FastifyRequest): void {
    request.raw.socket?.destroy();
}

/**
 * Installs the fault hooks on every request and, when `adminToken` is set, the `/_admin/faults` routes.
 * Without an admin token nothing is installed: there is no `/_admin`.
 */
export function registerFaults(app: FastifyInstance, store: FaultStore, adminToken: string | undefined): void {
    if (!adminToken) return;
    const adminHash = createHash("sha256").update(adminToken).digest();
    const isAdmin = (request: FastifyRequest): boolean => {
        const token = bearerToken(request.headers.authorization);
        if (!token) return false;
        return timingSafeEqual(createHash("sha256").update(token).digest(), adminHash);
    };

    const closing = new AbortController();
    app.addHook("preClose", async () => closing.abort());

    app.addHook("onRequest", async (request: FastifyRequest, reply: FastifyReply) => {
        if (store.isEmpty || request.url.startsWith("/_admin")) return;
        const path = request.url.split("?")[0]!;
        const rule = store.takeHttpFault(request.method, path);
        if (!rule) return;
        request.wosFault = rule;
        if (rule.afterCommit) return;
        if (rule.reset) {
            if (rule.delayMs > 0) await delay(rule.delayMs, closing.signal);
            reply.hijack();
            dropConnection(request);
            return reply;
        }
        if (rule.status != null) {
            reply.code(rule.status).header("content-type", "application/vnd.api+json");
            for (const [name, value] of Object.entries(rule.headers ?? {})) reply.header(name, value);
            return reply.send(injectedBody(rule.status));
        }
    });

    // `delayMs` delays the answer, not the work: the handler has committed by now, so a client that times
    // out while waiting meets a lost answer, as with a slow network. The answer of an `afterCommit` rule is
    // then replaced, once the handler has committed and rendered.
    app.addHook("onSend", async (request: FastifyRequest, reply: FastifyReply, payload: unknown) => {
        const rule = request.wosFault;
        if (!rule) return payload;
        if (rule.delayMs > 0) await delay(rule.delayMs, closing.signal);
        if (!rule.afterCommit) return payload;
        if (rule.reset) {
            dropConnection(request);
            return payload;
        }
        if (rule.status != null) {
            reply.code(rule.status).header("content-type", "application/vnd.api+json");
            for (const [name, value] of Object.entries(rule.headers ?? {})) reply.header(name, value);
            return injectedBody(rule.status);
        }
        return payload;
    });

    const routeConfig = { config: { rateLimit: false } } as const;
    app.post("/_admin/faults", routeConfig, async (request, reply) => {
        if (!isAdmin(request)) throw unauthorized();
        const result = faultRuleSchema().safeParse(request.body);
        if (!result.success) throw validationFailed(problemsFromZodError(result.error, request.body));
        store.add(result.data);
        return reply.code(204).send();
    });
    app.delete("/_admin/faults", routeConfig, async (request, reply) => {
        if (!isAdmin(request)) throw unauthorized();
        store.clear();
        return reply.code(204).send();
    });
}
