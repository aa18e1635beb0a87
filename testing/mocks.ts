/**
 * {@link WosMocks}: a `pulumi.runtime.Mocks` for `pulumi.runtime.setMocks` that does for each `wos` resource
 * of a program what `pulumi up` does, against a real service (usually {@link startLocalService}): the
 * resource's own `check` (a broken rule fails the registration with the provider's message, naming the
 * property), then its own `create`, answering the outputs the service gave (ids, resolved defaults). Every
 * other resource, and every call, goes to the mocks the test supplies.
 *
 * Under `setMocks` a `wos` resource registers as a dynamic resource: its type is
 * `pulumi-nodejs:dynamic/wos:<Kind>` and its input `__provider` is the serialized provider, whose text
 * `require`s `pulumi-wos/dist/provider/handlers/<kind>`. That module is what runs here, as the provider host
 * would run it, with the credentials given to {@link WosMocks} in place of the stack's `wos:address` and
 * `wos:token`.
 *
 * The typings of this file import nothing: the mock types are written out with the shapes of
 * `@pulumi/pulumi`'s `MockResourceArgs`, `MockResourceResult`, `MockCallArgs` and `Mocks`, so that
 * `setMocks(new WosMocks(...))` type-checks against any copy of `@pulumi/pulumi` and the typings compile
 * in a strict project.
 *
 * @module
 */
import { configure, forgetDefaultOrganization } from "../provider/handlers/credentials";
import type { CheckFailure } from "../provider/handlers/inputChecks";
import { containsUnknown, type PropertyBag } from "../provider/handlers/unknownValues";

/**
 * `wos:organization` of the program's stack config (what `PULUMI_CONFIG` or `pulumi.runtime.setConfig` set
 * under mocks), read from the program's `@pulumi/pulumi` when there is one: the default organization of
 * resources that leave it out, as the provider host's `configure` passes it.
 */
function stackOrganization(): string | undefined {
    try {
        const pulumi = require("@pulumi/pulumi") as { runtime: { getConfig(key: string): string | undefined } };
        return pulumi.runtime.getConfig("wos:organization");
    } catch {
        return undefined;
    }
}

/** What `newResource` receives: the shape of `pulumi.runtime.MockResourceArgs`. */
export interface MockResourceArgs {
    /** The type token, e.g. `pulumi-nodejs:dynamic/wos:Project` or `aws:s3/bucket:Bucket`. */
    type: string;
    /** The resource's Pulumi name. */
    name: string;
    /** Its inputs: plain values, secrets as `{ "4dabf18193072939515e22adb298388d": …, value }`. */
    inputs: any;
    /** The provider reference, when one was given. */
    provider?: string;
    /** Whether the resource is a custom resource (false for a component). */
    custom?: boolean;
    /** The id of an existing resource being read (`Resource.get`) or imported. */
    id?: string;
}

/** What `newResource` answers: the shape of `pulumi.runtime.MockResourceResult`. */
export interface MockResourceResult {
    /** The id of the resource; `undefined` for a component. */
    id: string | undefined;
    /** Its outputs. */
    state: Record<string, any>;
}

/** What `call` receives: the shape of `pulumi.runtime.MockCallArgs`. */
export interface MockCallArgs {
    /** The function's token, e.g. `aws:index/getRegion:getRegion`. */
    token: string;
    /** The call's arguments. */
    inputs: any;
    /** The provider reference, when one was given. */
    provider?: string;
}

/** What `call` answers: the shape of `pulumi.runtime.MockCallResult`. */
export type MockCallResult = Record<string, any>;

/** The shape of `pulumi.runtime.Mocks`: what the resources and calls that are not `wos`'s go to. */
export interface MocksLike {
    /** Answers a call (an invoke) that is not `wos`'s. */
    call(args: MockCallArgs): MockCallResult | Promise<MockCallResult>;
    /** Answers the registration of a resource that is not `wos`'s. */
    newResource(args: MockResourceArgs): MockResourceResult | Promise<MockResourceResult>;
}

/** Options of {@link WosMocks}. */
export interface WosMocksOptions {
    /**
     * The service to create in: a {@link LocalService} (its address is read at each registration, so it
     * follows a reset), or any object with an `address`. Give this or {@link WosMocksOptions.address}.
     */
    service?: {
        /** The service's address, e.g. `http://127.0.0.1:8787`. */
        readonly address: string;
    };
    /** The service's address, e.g. `http://127.0.0.1:8787`, when there is no {@link WosMocksOptions.service}. */
    address?: string;
    /** The token the resources act with, as the stack's `wos:token` would be (e.g. `service.tokens.platform`). */
    token: string;
    /**
     * Mocks for every resource that is not a `wos` resource, and for every call (invokes). Default: a custom
     * resource gets the id `<name>-id`, every resource its inputs as its state, and a call answers its inputs.
     */
    mocks?: MocksLike;
}

/** A `wos` resource that {@link WosMocks} created (or read) in the service. */
export interface WosMockResource {
    /** The type token, e.g. `pulumi-nodejs:dynamic/wos:Project`. */
    type: string;
    /** The Pulumi name. */
    name: string;
    /** The id the service gave it (`prj-…`, `var-…`, …). */
    id: string;
    /** Its outputs as the provider answered them (secrets as plain values, `__provider` left out). */
    outputs: Record<string, unknown>;
}

/** A `wos` resource whose registration {@link WosMocks} failed. */
export interface WosMockFailure {
    /** The type token of the resource. */
    type: string;
    /** The resource's Pulumi name. */
    name: string;
    /** Which step failed: the inputs' rules (`check`), or the service (`create`, `read`). */
    operation: "check" | "create" | "read";
    /** The error's message: for `check`, the provider's reasons, each naming its property. */
    message: string;
    /** For `check`: each broken rule, as the provider reported it. */
    failures: {
        /** The input that breaks a rule. */
        property: string;
        /** The rule it breaks, in the provider's words. */
        reason: string;
    }[];
}

/** A `wos` resource that {@link WosMocks} did not attempt, because an input came from a refused resource. */
export interface WosMockSkipped {
    /** The type token of the resource. */
    type: string;
    /** The resource's Pulumi name. */
    name: string;
    /** The name of the refused resource an input came from. */
    dependsOn: string;
}

/** The error {@link WosMocks.settled} rejects with: every failed registration, in order. */
export class WosMocksError extends Error {
    /** The failed registrations. */
    readonly failures: readonly WosMockFailure[];

    constructor(failures: readonly WosMockFailure[]) {
        super(
            `${failures.length} wos resource${failures.length === 1 ? "" : "s"} failed:\n` +
                failures.map((failure) => `  ${failure.message}`).join("\n"),
        );
        Object.defineProperty(this, "name", { value: "WosMocksError", enumerable: false, configurable: true });
        this.failures = failures;
    }
}

/**
 * What every output of a refused resource whose refusal the test expected reads as, with the resource's name
 * after it. Pulumi drops a value that is not known from a resource's inputs outside a preview, so an unknown
 * answer would reach a dependent as a missing input and fail its check; this text reaches it instead, and
 * marks it as depending on a refused resource.
 */
const REFUSED_MARK = "wos-mocks:refused:";

/** The name of a refused resource whose mark one of these inputs holds, at any depth. */
function refusedDependency(value: unknown): string | undefined {
    if (typeof value === "string") return value.startsWith(REFUSED_MARK) ? value.slice(REFUSED_MARK.length) : undefined;
    if (typeof value !== "object" || value === null) return undefined;
    for (const item of Object.values(value)) {
        const found = refusedDependency(item);
        if (found !== undefined) return found;
    }
    return undefined;
}

/** The key Pulumi marks a secret value with, and its value. */
const SECRET_KEY = "4dabf18193072939515e22adb298388d";
const SECRET_SIG = "1b47061264138c4ac30d75fd1eb44270";

/** A handler module (`provider/handlers/<kind>.ts`): the real logic behind a `wos` resource. */
interface Handler {
    check(olds: PropertyBag, news: PropertyBag): Promise<{ inputs?: PropertyBag; failures?: CheckFailure[] }>;
    create(inputs: PropertyBag): Promise<{ id: string; outs?: PropertyBag }>;
    read(id: string, props?: PropertyBag): Promise<{ id?: string; props?: PropertyBag }>;
}

/** The part of `@pulumi/pulumi`'s `runtime` this module uses, when present. */
interface PulumiRuntimeLike {
    isDryRun?: () => boolean;
    /** Not in the published typings; present in every release that has `setMocks` with `Promise` results. */
    waitForRPCs?: () => Promise<void>;
}

/** Handler module names found in a serialized provider: `require("pulumi-wos/dist/provider/handlers/<name>")`. */
const HANDLER_PATTERN = /pulumi-wos\/dist\/provider\/handlers\/([A-Za-z][A-Za-z0-9]*)/g;

/** `pulumi-nodejs:dynamic/wos:NoCodeWorkspace` -> `noCodeWorkspace`. */
const TYPE_PATTERN = /^pulumi-nodejs:dynamic\/wos:([A-Za-z][A-Za-z0-9]*)$/;

/**
 * The handler module behind a registration, by the modules its serialized provider loads (the credentials
 * module aside), else by its type token; `undefined` for a resource that is not a `wos` resource.
 */
export function wosHandlerName(args: Pick<MockResourceArgs, "type" | "inputs">): string | undefined {
    const provider: unknown = args.inputs?.__provider;
    if (typeof provider === "string") {
        const names = new Set([...provider.matchAll(HANDLER_PATTERN)].map((match) => match[1]).filter((name) => name !== "credentials"));
        if (names.size === 1) return [...names][0];
    }
    const byType = TYPE_PATTERN.exec(args.type);
    if (!byType) return undefined;
    return byType[1][0].toLowerCase() + byType[1].slice(1);
}

/** Loads a handler module of this copy of the package (the one `pulumi-wos/dist/provider/handlers/<name>` names). */
function loadHandler(name: string, type: string): Handler {
    try {
        return require(`../provider/handlers/${name}`) as Handler;
    } catch (error) {
        const code = (error as { code?: unknown }).code;
        if (code !== "MODULE_NOT_FOUND") throw error;
        throw new Error(`pulumi-wos/testing: ${type} needs the handler 'pulumi-wos/dist/provider/handlers/${name}', which this version of pulumi-wos does not have`);
    }
}

/** `@pulumi/pulumi`'s runtime as the program under test loads it, if it can be loaded. */
function pulumiRuntime(): PulumiRuntimeLike | undefined {
    try {
        return (require("@pulumi/pulumi") as { runtime?: PulumiRuntimeLike }).runtime;
    } catch {
        return undefined;
    }
}

function isSecret(value: unknown): value is { value: unknown } {
    return typeof value === "object" && value !== null && (value as Record<string, unknown>)[SECRET_KEY] === SECRET_SIG;
}

/** Secrets replaced by their values: the provider host does not accept secrets, so handlers get plain values. */
function reveal(value: unknown): { value: unknown; secret: boolean } {
    if (isSecret(value)) return { value: reveal(value.value).value, secret: true };
    if (Array.isArray(value)) {
        const items = value.map(reveal);
        return { value: items.map((item) => item.value), secret: items.some((item) => item.secret) };
    }
    if (typeof value === "object" && value !== null) {
        let secret = false;
        const copy: Record<string, unknown> = {};
        for (const [key, item] of Object.entries(value)) {
            const revealed = reveal(item);
            copy[key] = revealed.value;
            secret ||= revealed.secret;
        }
        return { value: copy, secret };
    }
    return { value, secret: false };
}

/** The inputs as plain values, and the names of those that held a secret. */
function revealInputs(inputs: Record<string, unknown>): { plain: PropertyBag; secretNames: Set<string> } {
    const plain: PropertyBag = {};
    const secretNames = new Set<string>();
    for (const [key, value] of Object.entries(inputs ?? {})) {
        const revealed = reveal(value);
        plain[key] = revealed.value;
        if (revealed.secret) secretNames.add(key);
    }
    return { plain, secretNames };
}

/** Outputs with those of a secret input's name marked secret again, as the engine does. */
function protect(outputs: PropertyBag, secretNames: Set<string>): Record<string, unknown> {
    const state: Record<string, unknown> = {};
    for (const [key, value] of Object.entries(outputs)) {
        state[key] = secretNames.has(key) && value !== undefined ? { [SECRET_KEY]: SECRET_SIG, value } : value;
    }
    return state;
}

/** The default mocks of everything that is not a `wos` resource. */
const PASS_THROUGH: MocksLike = {
    newResource: (args) => ({ id: args.custom ? `${args.name}-id` : undefined, state: args.inputs }),
    call: (args) => args.inputs,
};

/**
 * Mocks for `pulumi.runtime.setMocks` that create every `wos` resource of the program in a real service.
 *
 * ```ts
 * const service = await startLocalService();
 * const mocks = new WosMocks({ service, token: service.tokens.platform });
 * await pulumi.runtime.setMocks(mocks, "my-project", "test");
 * const program = await import("../index");
 * await mocks.settled();          // every registration done; rejects with the provider's messages if any failed
 * ```
 *
 * For each registration of a `wos` resource it runs, as `pulumi up` would: `check` with no previous inputs
 * (a broken rule throws, and Pulumi fails the registration, with `... has a problem: name must ...`), then
 * `create` in the service, and answers the service's id and the provider's outputs (an output whose input
 * was a secret is a secret). While previewing (`setMocks(..., preview = true)`), or while an input is not
 * known, it checks only and creates nothing. A resource read by id (`get`) is read from the service.
 *
 * The credentials are set where the provider's own `configure` keeps them, for this whole process; run one
 * program at a time per process with one set of credentials.
 */
export class WosMocks implements MocksLike {
    readonly #options: WosMocksOptions;
    readonly #mocks: MocksLike;
    readonly #pending = new Set<Promise<unknown>>();
    #started = 0;
    readonly #resources: WosMockResource[] = [];
    readonly #failures: WosMockFailure[] = [];
    /** Names of the resources the test expects refused (see {@link WosMocks.expectRefusal}). */
    readonly #expectedRefusals = new Set<string>();
    /** What became of each registration whose refusal was expected, by name, when it was not refused. */
    readonly #notRefused = new Map<string, string>();
    /** The registrations not attempted because an input came from an expected refusal. */
    readonly #skipped: WosMockSkipped[] = [];

    /** @param options The service, the token, and the mocks of everything else. */
    constructor(options: WosMocksOptions) {
        if (!options || (options.service === undefined && (typeof options.address !== "string" || options.address.trim() === ""))) {
            throw new TypeError("WosMocks: give options.service (e.g. the result of startLocalService()) or options.address");
        }
        if (typeof options.token !== "string" || options.token.trim() === "") {
            throw new TypeError("WosMocks: options.token is required (e.g. service.tokens.platform)");
        }
        this.#options = options;
        this.#mocks = options.mocks ?? PASS_THROUGH;
    }

    /** The `wos` resources created (or read) so far, in the order they were. */
    get resources(): readonly WosMockResource[] {
        return this.#resources;
    }

    /** The `wos` registrations that failed so far, expected refusals included. */
    get failures(): readonly WosMockFailure[] {
        return this.#failures;
    }

    /**
     * The `wos` resources not attempted because an input came from a resource whose refusal the test expected
     * (see {@link WosMocks.expectRefusal}), as `pulumi up` attempts nothing that depends on a failed resource.
     */
    get skipped(): readonly WosMockSkipped[] {
        return this.#skipped;
    }

    /**
     * Declares that the program's `wos` resource named `name` must be refused (a broken rule, or the service
     * saying no). Call it before the program registers that resource. Its registration then does not fail,
     * so no rejection reaches the test, and {@link WosMocks.settled} leaves it out: its id and every output
     * read `wos-mocks:refused:<name>`, and a `wos` resource with such a value among its inputs is not
     * attempted (it is listed in {@link WosMocks.skipped}), as `pulumi up` attempts nothing that depends on a
     * failed resource. Assert the refusal with {@link WosMocks.refusal}.
     *
     * ```ts
     * mocks.expectRefusal("bad");
     * new wos.Project("bad", { organization: "acme", name: "x!" });
     * const refusal = await mocks.refusal("bad");
     * expect(refusal.message).toContain("name must be at least 3 characters");
     * ```
     */
    expectRefusal(name: string): void {
        if (typeof name !== "string" || name === "") throw new TypeError("WosMocks.expectRefusal: give the resource's Pulumi name");
        this.#expectedRefusals.add(name);
    }

    /**
     * Waits until the program's registrations are done (as {@link WosMocks.settled} does), then answers how the
     * resource named `name`, declared with {@link WosMocks.expectRefusal}, was refused: its operation, the
     * provider's message and, for a broken rule, each property and reason. Rejects, saying what happened
     * instead, when that resource was created, only checked (a preview, or inputs not known), or never
     * registered.
     */
    async refusal(name: string): Promise<WosMockFailure> {
        if (!this.#expectedRefusals.has(name)) {
            throw new Error(`WosMocks.refusal: call mocks.expectRefusal(${JSON.stringify(name)}) before the program registers '${name}'`);
        }
        await this.#allRegistered();
        const refused = this.#failures.find((failure) => failure.name === name);
        if (refused) return refused;
        const instead = this.#notRefused.get(name);
        if (instead !== undefined) throw new Error(`WosMocks: '${name}' was expected to be refused, but ${instead}`);
        throw new Error(`WosMocks: '${name}' was expected to be refused, but the program registered no wos resource of that name`);
    }

    /**
     * Stack configuration that points `wos` lookups (such as `getProjectOutput`) at the same service with the
     * same token: pass it to `pulumi.runtime.setAllConfig` (or `setConfig` key by key) before the program runs.
     */
    stackConfig(): Record<string, string> {
        return { "wos:address": this.#address(), "wos:token": this.#options.token };
    }

    /** Part of `Mocks`: a `wos` resource is checked and created in the service; any other goes to the supplied mocks. */
    newResource(args: MockResourceArgs): Promise<MockResourceResult> {
        const name = wosHandlerName(args);
        if (name === undefined) return Promise.resolve(this.#mocks.newResource(args));
        this.#started += 1;
        const operation = this.#register(name, args);
        this.#pending.add(operation);
        void operation.then(
            () => this.#pending.delete(operation),
            () => this.#pending.delete(operation),
        );
        return operation;
    }

    /** Part of `Mocks`: calls (invokes) go to the supplied mocks. */
    call(args: MockCallArgs): MockCallResult | Promise<MockCallResult> {
        return this.#mocks.call(args);
    }

    /**
     * Waits until the program's registrations are done, including those made inside `apply` and those of
     * other resources, then answers the `wos` resources created; rejects with a {@link WosMocksError} listing
     * every failed `wos` registration. Call it after the program was loaded.
     */
    async settled(): Promise<readonly WosMockResource[]> {
        await this.#allRegistered();
        const unexpected = this.#failures.filter((failure) => !this.#expectedRefusals.has(failure.name));
        if (unexpected.length > 0) throw new WosMocksError(unexpected);
        return [...this.#resources];
    }

    /** Waits until the program's registrations are done, those made inside `apply` included. */
    async #allRegistered(): Promise<void> {
        const runtime = pulumiRuntime();
        let seen = -1;
        // A registration may start after another finished (its inputs were that one's outputs): wait until a
        // whole round passes with none started.
        while (seen !== this.#started) {
            seen = this.#started;
            if (typeof runtime?.waitForRPCs === "function") await runtime.waitForRPCs();
            await Promise.allSettled([...this.#pending]);
            await new Promise((resolve) => setImmediate(resolve));
        }
    }

    #address(): string {
        return (this.#options.service?.address ?? this.#options.address ?? "").trim();
    }

    /**
     * Points the handlers at the service, as the provider host's `configure` does with the stack's config. Its
     * body runs synchronously, so the handler called right after it reads these credentials.
     */
    #configure(): void {
        const address = this.#address();
        const token = this.#options.token;
        const organization = stackOrganization();
        // `configure` keeps a value it is not given: a default set by an earlier config must not outlive it.
        if (!organization) forgetDefaultOrganization();
        void configure({
            config: {
                get: (key) => (key === "wos:address" ? address : key === "wos:token" ? token : key === "wos:organization" ? organization : undefined),
            },
        });
    }

    async #register(handlerName: string, args: MockResourceArgs): Promise<MockResourceResult> {
        const handler = loadHandler(handlerName, args.type);
        const { plain, secretNames } = revealInputs(args.inputs ?? {});
        const expected = this.#expectedRefusals.has(args.name);
        const mark = `${REFUSED_MARK}${args.name}`;
        const marked = (): MockResourceResult => ({ id: mark, state: Object.fromEntries(Object.keys(plain).map((key) => [key, mark])) });
        const fail = (operation: WosMockFailure["operation"], message: string, failures: CheckFailure[] = []): MockResourceResult => {
            this.#failures.push({ type: args.type, name: args.name, operation, message, failures });
            // A refusal the test expects must not reject: Pulumi would reject every output of the resource,
            // each an unhandled rejection that fails the test.
            if (expected) return marked();
            throw new Error(message);
        };

        const dependsOn = refusedDependency(plain);
        if (dependsOn !== undefined) {
            this.#skipped.push({ type: args.type, name: args.name, dependsOn });
            if (expected) this.#notRefused.set(args.name, `it was not attempted: an input comes from '${dependsOn}', which was refused`);
            // Marked in turn, so that what depends on this one is not attempted either.
            return marked();
        }

        if (args.id) {
            let read: { id?: string; props?: PropertyBag };
            try {
                this.#configure();
                read = await handler.read(args.id, plain);
            } catch (error) {
                return fail("read", (error as Error).message);
            }
            if (!read.id) return fail("read", `${args.type} resource '${args.name}': no resource with id '${args.id}'`);
            return this.#answer(args, read.id, read.props ?? {}, plain, secretNames);
        }

        let checked: { inputs?: PropertyBag; failures?: CheckFailure[] };
        try {
            this.#configure();
            checked = await handler.check({}, plain);
        } catch (error) {
            return fail("check", `${args.type} resource '${args.name}': check failed: ${(error as Error).message}`);
        }
        const failures = checked.failures ?? [];
        if (failures.length > 0) {
            const reasons = failures.map((failure) => failure.reason).join("; ");
            return fail(
                "check",
                `${args.type} resource '${args.name}' has ${failures.length === 1 ? "a problem" : "problems"}: ${reasons}`,
                failures.map(({ property, reason }) => ({ property, reason })),
            );
        }
        const inputs = checked.inputs ?? plain;
        if (containsUnknown(inputs) || pulumiRuntime()?.isDryRun?.() === true) {
            // A preview: nothing is created, and the outputs are the inputs (ids unknown), as the engine shows.
            if (expected) this.#notRefused.set(args.name, "it passed its check and was not created (a preview, or an input not known)");
            return { id: undefined, state: protect(inputs, secretNames) };
        }

        let created: { id: string; outs?: PropertyBag };
        try {
            this.#configure();
            created = await handler.create(inputs);
        } catch (error) {
            return fail("create", (error as Error).message);
        }
        if (expected) this.#notRefused.set(args.name, `it was created (${args.type} ${created.id})`);
        return this.#answer(args, created.id, created.outs ?? {}, inputs, secretNames);
    }

    /** Records the resource and answers its id and outputs, with `__provider` copied in as the host does. */
    #answer(args: MockResourceArgs, id: string, outputs: PropertyBag, inputs: PropertyBag, secretNames: Set<string>): MockResourceResult {
        const { __provider: _provider, ...visible } = outputs;
        this.#resources.push({ type: args.type, name: args.name, id, outputs: JSON.parse(JSON.stringify(visible)) });
        const state = protect({ ...outputs, ...(inputs.__provider !== undefined ? { __provider: inputs.__provider } : {}) }, secretNames);
        return { id, state };
    }
}
