/**
 * An example's life through the real `pulumi`, as a user lives it: `preview --diff`, `up`, a no-op
 * `preview --expect-no-changes`, a change made outside the program (over HTTP) that `refresh` shows and the
 * next `preview` proposes to undo, the `up` that undoes it, a stack export that holds no secret in plain text,
 * and `destroy` leaving the service as the seed made it.
 *
 * Each test brings the stack to what it starts from itself ({@link ExampleStack.deployed}), so any one of them
 * runs alone (`jest -t`); in file order they share one deployment.
 */
import * as path from "node:path";
import { REPO_ROOT } from "../support/packedPackage";
import { pulumiProgram, type CliResult, type PulumiProgram } from "../support/pulumiCli";
import { PLATFORM_TOKEN, startCliTestService, type CliTestService, type OrganizationSnapshot } from "./localService";

// Each test runs the real CLI several times (a deployment is seconds alone, more beside other test files on
// two cores): far beyond jest's configured minute.
jest.setTimeout(300_000);

/** The first poll of an upgrade's plan, made fast for the tests (the provider's default is 1 s). */
export const UPGRADE_POLL_MS = "100";

export interface ExampleSpec {
    /** The folder of `examples/`. */
    example: string;
    /** Extra `wos-server` arguments (e.g. a slower `--plan-step-ms`). */
    serviceArgs?: string[];
    /** Stack config set before the first `up`, on top of `wos:address` and `wos:token` (name to value). */
    config?: Record<string, { value: string; secret?: boolean }>;
    /** What `preview --diff` of the empty stack shows, each a pattern of the output. */
    previewShows: RegExp[];
    /** Changes the service outside the program, given the stack's outputs. */
    drift(service: CliTestService, outputs: Record<string, unknown>): Promise<void>;
    /** What `refresh` shows of that change, and what the next `preview --diff` proposes to put back. */
    refreshShows: RegExp[];
    restoreShows: RegExp[];
    /** Fails unless the service holds again what the program says (after the restoring `up`). */
    expectRestored(service: CliTestService, outputs: Record<string, unknown>): Promise<void>;
    /** Values that must never be printed nor stored in plain text (the token is always one). */
    secrets: string[];
}

/** One example's stack on one service, shared by the tests of a file. */
export interface ExampleStack {
    service(): CliTestService;
    program(): PulumiProgram;
    /** What the organization held before anything ran. */
    seeded(): OrganizationSnapshot;
    /** `pulumi up` once (the first call), answering its result; later calls answer the same. */
    deployed(): Promise<CliResult>;
    /** Everything the CLI printed in this file so far. */
    transcript(): string;
}

/** Starts the service and the stack in a `beforeAll`, and ends both in an `afterAll`. */
export function exampleStack(spec: Pick<ExampleSpec, "example" | "config" | "serviceArgs">): ExampleStack {
    let service: CliTestService;
    let program: PulumiProgram;
    let seeded: OrganizationSnapshot;
    let firstUp: Promise<CliResult> | undefined;
    let transcript = "";

    beforeAll(async () => {
        service = await startCliTestService(spec.serviceArgs);
        seeded = await service.snapshot();
        program = await pulumiProgram({
            source: path.join(REPO_ROOT, "examples", spec.example),
            env: { WOS_UPGRADE_POLL_MS: UPGRADE_POLL_MS },
        });
        // Every command's output, for the checks that nothing secret was ever printed.
        const attempt = program.attempt;
        program.attempt = async (args, options) => {
            const result = await attempt(args, options);
            transcript += `$ pulumi ${args.join(" ")}\n${result.output}\n`;
            return result;
        };
        const pulumi = program.pulumi;
        program.pulumi = async (args, options) => {
            const result = await pulumi(args, options);
            transcript += `$ pulumi ${args.join(" ")}\n${result.output}\n`;
            return result;
        };
        await program.setConfig("wos:address", service.url);
        await program.setConfig("wos:token", PLATFORM_TOKEN, { secret: true });
        for (const [key, { value, secret }] of Object.entries(spec.config ?? {})) await program.setConfig(key, value, { secret });
    }, 180_000);

    afterAll(async () => {
        await program?.dispose();
        await service?.stop();
    }, 60_000);

    return {
        service: () => service,
        program: () => program,
        seeded: () => seeded,
        deployed: () => (firstUp ??= program.pulumi(["up", "--yes"])),
        transcript: () => transcript,
    };
}

/**
 * The lifecycle tests of one example; `more` registers the example's own tests, which run on the deployed
 * stack before the `destroy` test.
 */
export function exampleLifecycleTests(spec: ExampleSpec, more?: (stack: ExampleStack) => void): ExampleStack {
    const stack = exampleStack(spec);
    const contains = (output: string, patterns: RegExp[]) => {
        for (const pattern of patterns) expect(output).toMatch(pattern);
    };

    test("`pulumi preview --diff` shows every resource it would create, with its inputs, and writes nothing", async () => {
        const preview = await stack.program().pulumi(["preview", "--diff"]);
        contains(preview.output, spec.previewShows);
        expect(await stack.service().snapshot()).toEqual(stack.seeded());
    });

    test("`pulumi up` creates it all; then `pulumi preview --expect-no-changes` finds nothing to do", async () => {
        const up = await stack.deployed();
        expect(up.output).toMatch(/Resources:\s+\+ \d+ created/);
        expect(await stack.service().snapshot()).not.toEqual(stack.seeded());
        const again = await stack.program().attempt(["preview", "--expect-no-changes", "--diff"]);
        expect({ code: again.code, output: again.output }).toEqual({ code: 0, output: expect.stringMatching(/\d+ unchanged/) });
    });

    test("a change made outside the program: `refresh` shows it, `preview` proposes to undo it, `up` undoes it", async () => {
        await stack.deployed();
        const program = stack.program();
        const outputs = await program.outputs();
        await spec.drift(stack.service(), outputs);

        const refresh = await program.pulumi(["refresh", "--yes", "--diff"]);
        contains(refresh.output, spec.refreshShows);
        const preview = await program.attempt(["preview", "--diff", "--expect-no-changes"]);
        expect(preview.code).not.toBe(0);
        contains(preview.output, spec.restoreShows);

        await program.pulumi(["up", "--yes"]);
        await spec.expectRestored(stack.service(), outputs);
        const settled = await program.attempt(["preview", "--expect-no-changes"]);
        expect(settled.code).toBe(0);
    });

    test("`pulumi stack export` and everything the CLI printed hold no token and no sensitive value in plain text", async () => {
        await stack.deployed();
        const hidden = [PLATFORM_TOKEN, ...spec.secrets];
        const exported = await stack.program().exportStack();
        for (const value of hidden) {
            expect(exported.text).not.toContain(value);
            expect(stack.transcript()).not.toContain(value);
        }
        // The same state with --show-secrets holds each of them: the check above looked where they are.
        const revealed = await stack.program().exportStack({ showSecrets: true });
        for (const value of hidden) expect(revealed.text).toContain(value);
    });

    more?.(stack);

    test("`pulumi destroy` leaves the service as the seed made it", async () => {
        await stack.deployed();
        const destroy = await stack.program().pulumi(["destroy", "--yes"]);
        expect(destroy.output).toMatch(/Resources:\s+- \d+ deleted/);
        expect(await stack.service().snapshot()).toEqual(stack.seeded());
    });

    return stack;
}
