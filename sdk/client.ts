/**
 * {@link WosClient}: the entry point of the SDK.
 *
 * @module
 */
import { NoCodeModules } from "./noCodeModules";
import { Projects } from "./projects";
import { RegistryModules } from "./registryModules";
import { Transport, type WosClientOptions } from "./transport";
import { Variables } from "./variables";
import { Workspaces } from "./workspaces";

/**
 * A typed client of the Workspace Organization Service.
 *
 * ```ts
 * const client = new WosClient({ address: "http://127.0.0.1:8787", token: process.env.MY_WOS_TOKEN });
 * const project = await client.projects.create("acme", { name: "Apps" });
 * for await (const p of client.projects.listAll("acme")) console.log(p.name);
 * ```
 *
 * Left out, the address and the token come from the environment variables `WOS_ADDRESS` and `WOS_TOKEN`
 * (as for the providers): `new WosClient()` is enough in a pipeline that sets them.
 *
 * Proxies come from the environment, read when the client is made: `HTTPS_PROXY` for an `https:` address,
 * `HTTP_PROXY` for an `http:` one, else `ALL_PROXY` (lower-case names too), an `http://` or `https://` proxy
 * URL, with `user:password@` for Basic proxy authentication; a host listed in `NO_PROXY` (names, `.suffix`,
 * `host:port`, `*`) is reached directly, and so is a loopback address (`localhost`, `127.0.0.1`, `::1`) such
 * as the local service's.
 *
 * Every method throws a {@link WosError} subclass on failure, and repeats requests as the retry policy of
 * `sdk/retry.ts` allows (see {@link WosClientOptions}). The token is held privately: it is not an
 * enumerable property and never appears in an error.
 */
export class WosClient {
    /** Projects and their tag bindings. */
    readonly projects: Projects;
    /** Workspace variables (`/vars`). */
    readonly variables: Variables;
    /** Workspaces. */
    readonly workspaces: Workspaces;
    /** No-code modules, the workspaces made from them, and their upgrades. */
    readonly noCodeModules: NoCodeModules;
    /** Registry modules of the private registry (read only). */
    readonly registryModules: RegistryModules;
    /** `ADDRESS/api/v2`, the base of every request. */
    readonly baseUrl: string;
    readonly #transport: Transport;

    /**
     * Builds a client. Throws a `TypeError` when there is no token (neither `options.token` nor `WOS_TOKEN`),
     * for an address that is not http(s) (from `options.address` or `WOS_ADDRESS`), a proxy variable that is
     * not an http(s) URL, or a bad option. Nothing is sent until the first call.
     */
    constructor(options: WosClientOptions = {}) {
        this.#transport = new Transport(options);
        this.baseUrl = this.#transport.baseUrl;
        this.projects = new Projects(this.#transport);
        this.workspaces = new Workspaces(this.#transport);
        this.variables = new Variables(this.#transport, this.workspaces);
        this.noCodeModules = new NoCodeModules(this.#transport);
        this.registryModules = new RegistryModules(this.#transport);
    }

    /**
     * Checks that the service answers: `GET /ping`. The service answers a ping without looking at the token,
     * so a wrong token is only reported by the first other call (a `WosAuthenticationError`).
     */
    async ping(): Promise<void> {
        await this.#transport.request({ method: "GET", path: "/ping", schema: undefined });
    }
}
