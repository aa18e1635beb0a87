/**
 * Where the providers' credentials live: the stack configuration `wos:address` and `wos:token`, handed to
 * each dynamic provider's `configure` by the provider host, kept in this process's memory only, with the
 * environment variables `WOS_ADDRESS` and `WOS_TOKEN` as fallback. The default organization (`wos:organization`,
 * else `WOS_ORGANIZATION`), which a resource that leaves out `organization` uses, is kept the same way.
 *
 * The token is never an input, an output, an instance field of a serialized provider or part of a message:
 * it stays here, in the memory of the host process, and goes only into the `Authorization` header.
 *
 * This module path is a stable format (`pulumi-wos/dist/provider/handlers/credentials`): serialized
 * providers in old state `require` it by that name.
 *
 * @module
 */
import { AsyncLocalStorage } from "node:async_hooks";
// From its own module, not the barrel `../../sdk`: the barrel warns on an unsupported Node.js, and the program
// that loaded this package has said so once already (the dynamic provider host would say it a second time).
import { WosClient } from "../../sdk/client";

/** Address of the local service, used when neither `wos:address` nor `WOS_ADDRESS` is set. */
export const DEFAULT_WOS_ADDRESS = "http://127.0.0.1:8787";

/** What `configure` received. */
interface ConfiguredCredentials {
    address?: string;
    token?: string;
    organization?: string;
}

/**
 * The slot in process memory. Keyed by `Symbol.for` on `globalThis` so that two copies of this package in
 * one host process (the program's and another one's) share what `configure` stored.
 */
const SLOT = Symbol.for("pulumi-wos.provider.credentials");

function slot(): ConfiguredCredentials {
    const holder = globalThis as unknown as Record<symbol, ConfiguredCredentials | undefined>;
    let value = holder[SLOT];
    if (!value) {
        value = {};
        Object.defineProperty(holder, SLOT, { value, enumerable: false, configurable: true, writable: true });
    }
    return value;
}

/**
 * The credentials of one provider configuration, for {@link withCredentials}: what the native plugin's
 * `Configure` received (`address`, `token`, `organization`), each falling back to its environment variable
 * as the stack config does. The token is kept in a private field: no enumeration, `JSON.stringify` or
 * `util.inspect` shows it.
 */
export class ScopedCredentials {
    readonly address?: string;
    readonly organization?: string;
    #token: string | undefined;
    /** One client per address and token for the operations of this configuration. */
    readonly clients = new ClientCache();

    constructor(settings: { address?: string; token?: string; organization?: string }) {
        if (nonEmpty(settings.address) !== undefined) this.address = nonEmpty(settings.address);
        if (nonEmpty(settings.organization) !== undefined) this.organization = nonEmpty(settings.organization);
        this.#token = nonEmpty(settings.token);
    }

    /** The configured token, if any. */
    get token(): string | undefined {
        return this.#token;
    }
}

/**
 * The credentials of the operation under way, when it runs inside {@link withCredentials}. The dynamic
 * provider host never sets them: its operations read the process's slot. The native plugin runs each
 * operation in the scope of its own configuration, so that nothing of one configuration (a token) can serve
 * an operation of another, even in one process.
 */
const operationCredentials = new AsyncLocalStorage<ScopedCredentials>();

/**
 * Runs `operation` (and everything it awaits) with `credentials` instead of what {@link configure} stored in
 * the process: {@link currentAddress}, {@link currentToken}, {@link currentOrganization} and
 * {@link clientFromCredentials} answer from them, the environment variables still the fallback.
 */
export function withCredentials<T>(credentials: ScopedCredentials, operation: () => T): T {
    return operationCredentials.run(credentials, operation);
}

/** What the operation under way reads its settings from: its scope's credentials, else the process's slot. */
function settings(): { address?: string; token?: string; organization?: string } {
    return operationCredentials.getStore() ?? slot();
}

/** The part of Pulumi's `ConfigureRequest` this module reads: `config.get` of fully qualified keys. */
export interface ConfigureRequestLike {
    config: { get(key: string): string | undefined };
}

function nonEmpty(value: unknown): string | undefined {
    return typeof value === "string" && value.trim() !== "" ? value.trim() : undefined;
}

/**
 * Stores `wos:address`, `wos:token` and `wos:organization` from the stack configuration. Called by the
 * provider host once per serialized provider, before its first operation (`check` included); every resource
 * kind shares what is stored, and the latest non-empty value wins. Missing values are not an error here:
 * `check` and `diff` need no token, and a resource may name its organization itself.
 */
export async function configure(request: ConfigureRequestLike): Promise<void> {
    const credentials = slot();
    const address = nonEmpty(request?.config?.get("wos:address"));
    const token = nonEmpty(request?.config?.get("wos:token"));
    const organization = nonEmpty(request?.config?.get("wos:organization"));
    if (address !== undefined) credentials.address = address;
    if (organization !== undefined) credentials.organization = organization;
    // Not enumerable: no `JSON.stringify` or `util.inspect` of the slot shows the token.
    if (token !== undefined) {
        Object.defineProperty(credentials, "token", { value: token, enumerable: false, configurable: true, writable: true });
    }
}

/** Forgets the default organization {@link configure} stored (the testing kit, when the stack config sets none). */
export function forgetDefaultOrganization(): void {
    delete slot().organization;
}

/** Forgets what {@link configure} stored, and the client made with it (tests use it to prove the environment fallback). */
export function clearConfiguredCredentials(): void {
    const credentials = slot();
    delete credentials.address;
    delete credentials.token;
    delete credentials.organization;
    clientCache.clear();
}

/** The address to use: `wos:address`, else `WOS_ADDRESS`, else {@link DEFAULT_WOS_ADDRESS}. */
export function currentAddress(): string {
    return settings().address ?? nonEmpty(process.env.WOS_ADDRESS) ?? DEFAULT_WOS_ADDRESS;
}

/** The token to use, `wos:token` else `WOS_TOKEN`; `undefined` when neither is set. */
export function currentToken(): string | undefined {
    return settings().token ?? nonEmpty(process.env.WOS_TOKEN);
}

/**
 * The default organization: `wos:organization`, else `WOS_ORGANIZATION`; `undefined` when neither is set. A
 * resource (or lookup) that leaves out `organization` uses it, as the Terraform provider's `organization`
 * setting does.
 */
export function currentOrganization(): string | undefined {
    return settings().organization ?? nonEmpty(process.env.WOS_ORGANIZATION);
}

/** Why a resource without `organization` fails `check` when no default is configured: says where to put one. */
export const MISSING_ORGANIZATION_REASON =
    "organization is required (the organization's name): set it on the resource, or a default organization with " +
    "the stack config 'wos:organization' (pulumi config set wos:organization <NAME>) or the environment variable WOS_ORGANIZATION";

/**
 * The inputs with `organization` filled in from {@link currentOrganization} when the program left it out, so
 * that state holds the organization the resource was made in (and `diff` compares resolved values: leaving it
 * out while the default names the same organization is no change). An unknown or given value is kept.
 */
export function withDefaultOrganization<T extends Record<string, unknown>>(inputs: T): T {
    if (inputs.organization !== undefined && inputs.organization !== null) return inputs;
    const organization = currentOrganization();
    return organization === undefined ? inputs : { ...inputs, organization };
}

/** The message when no token is configured: says where to put one, and never guesses one. */
export const MISSING_TOKEN_MESSAGE =
    "pulumi-wos: no token configured: set the stack config 'wos:token' " +
    "(pulumi config set --secret wos:token <TOKEN>) or the environment variable WOS_TOKEN";

/**
 * The client of the current address and token, kept between operations: what a client learns (the names of
 * the workspaces whose variables it lists, see `Variables.list`) then serves every operation of
 * the process, a client is not built (axios instance, retry hooks) for each one, and its requests share the
 * keep-alive connections of Node's agent. Only the latest pair is kept, since every resource kind of the
 * process uses the latest configured one; another address or token gets a new client.
 *
 * The handler modules are loaded by package name in the host process, never serialized, so this module-level
 * state is never written into a program's state. The token is held in a private field: it is not enumerable,
 * and neither `JSON.stringify` nor `util.inspect` of the cache (or of the client) shows it.
 */
export class ClientCache {
    #address: string | undefined;
    #token: string | undefined;
    #client: WosClient | undefined;

    /** The kept client when it was made for `address` and `token`, else a new one, kept from then on. */
    clientFor(address: string, token: string): WosClient {
        if (this.#client === undefined || this.#address !== address || this.#token !== token) {
            // Built before the fields change: a refused option (a bad address) leaves the previous client kept.
            const client = new WosClient({ address, token });
            this.#client = client;
            this.#address = address;
            this.#token = token;
        }
        return this.#client;
    }

    /** Forgets the kept client and its credentials. */
    clear(): void {
        this.#client = undefined;
        this.#address = undefined;
        this.#token = undefined;
    }
}

/** The one cache of this copy of the module: what {@link clientFromCredentials} answers from. */
export const clientCache = new ClientCache();

/**
 * A {@link WosClient} for the configured address and token, the same one for every operation while they stay
 * the same (see {@link ClientCache}; inside {@link withCredentials}, the scope's own cache). Throws {@link MISSING_TOKEN_MESSAGE} when there is no token.
 */
export function clientFromCredentials(): WosClient {
    const token = currentToken();
    if (token === undefined) throw new Error(MISSING_TOKEN_MESSAGE);
    return (operationCredentials.getStore()?.clients ?? clientCache).clientFor(currentAddress(), token);
}
