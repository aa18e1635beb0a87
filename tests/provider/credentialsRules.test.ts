/**
 * The rules of `provider/handlers/credentials.ts` read directly (the engine tests reach them through the
 * provider host, in a child process where mutation testing cannot see them): what `configure` keeps of the
 * stack configuration (trimmed, the latest non-empty value winning, the token never enumerable), and how a
 * default organization fills in a resource's inputs.
 */
import {
    clearConfiguredCredentials,
    configure,
    currentAddress,
    currentOrganization,
    currentToken,
    MISSING_TOKEN_MESSAGE,
    withDefaultOrganization,
    type ConfigureRequestLike,
} from "../../provider/handlers/credentials";

const ENVIRONMENT = ["WOS_ADDRESS", "WOS_TOKEN", "WOS_ORGANIZATION"] as const;
const saved: Partial<Record<(typeof ENVIRONMENT)[number], string>> = {};

beforeEach(() => {
    for (const name of ENVIRONMENT) {
        saved[name] = process.env[name];
        delete process.env[name];
    }
    clearConfiguredCredentials();
});

afterEach(() => {
    clearConfiguredCredentials();
    for (const name of ENVIRONMENT) {
        if (saved[name] === undefined) delete process.env[name];
        else process.env[name] = saved[name];
    }
});

/** A configure request holding `values` under their fully qualified keys. */
function request(values: Record<string, string>): ConfigureRequestLike {
    return { config: { get: (key: string) => values[key] } };
}

/** The slot `configure` writes to (shared by every copy of the package in a process). */
function slotObject(): object {
    return (globalThis as unknown as Record<symbol, object>)[Symbol.for("pulumi-wos.provider.credentials")]!;
}

describe("configure", () => {
    test("keeps each value trimmed: a pasted newline or space is not part of an address, a token or a name", async () => {
        await configure(request({ "wos:address": "  http://127.0.0.1:9999\n", "wos:token": "\tteam-token-1 ", "wos:organization": " acme " }));
        expect(currentAddress()).toBe("http://127.0.0.1:9999");
        expect(currentToken()).toBe("team-token-1");
        expect(currentOrganization()).toBe("acme");
    });

    test("a later configure without a value keeps the earlier one (the latest non-empty value wins)", async () => {
        await configure(request({ "wos:address": "http://127.0.0.1:9999", "wos:token": "team-token-1", "wos:organization": "acme" }));
        await configure(request({ "wos:organization": "   " }));
        expect(currentAddress()).toBe("http://127.0.0.1:9999");
        expect(currentToken()).toBe("team-token-1");
        expect(currentOrganization()).toBe("acme");
        await configure(request({ "wos:organization": "initech" }));
        expect(currentOrganization()).toBe("initech");
    });

    test("a request without a config, or no request, stores nothing and does not throw", async () => {
        await expect(configure(undefined as unknown as ConfigureRequestLike)).resolves.toBeUndefined();
        await expect(configure({} as unknown as ConfigureRequestLike)).resolves.toBeUndefined();
        expect(currentToken()).toBeUndefined();
        expect(currentOrganization()).toBeUndefined();
    });

    test("the token is in no enumeration: not of the stored credentials, not of globalThis", async () => {
        await configure(request({ "wos:address": "http://127.0.0.1:9999", "wos:token": "team-secret-token-77" }));
        expect(currentToken()).toBe("team-secret-token-77");
        const stored = slotObject();
        expect(JSON.stringify(stored)).not.toContain("team-secret-token-77");
        expect(Object.keys(stored)).toEqual(["address"]);
        // The slot itself is not an enumerable member of the global object (a dump of globalThis leaves it out).
        const symbols = Object.getOwnPropertySymbols(globalThis).filter((symbol) => Object.prototype.propertyIsEnumerable.call(globalThis, symbol));
        expect(symbols).not.toContain(Symbol.for("pulumi-wos.provider.credentials"));
        // Configured again (another provider of the process), the token is replaced, still not enumerable.
        await configure(request({ "wos:token": "team-secret-token-78" }));
        expect(currentToken()).toBe("team-secret-token-78");
        expect(JSON.stringify(stored)).not.toContain("team-secret-token");
    });
});

describe("withDefaultOrganization", () => {
    test("fills in the configured default when the inputs leave organization out (undefined or null)", async () => {
        await configure(request({ "wos:organization": "acme" }));
        expect(withDefaultOrganization({ name: "web" })).toEqual({ name: "web", organization: "acme" });
        expect(withDefaultOrganization({ name: "web", organization: null })).toEqual({ name: "web", organization: "acme" });
    });

    test("keeps an organization the inputs give, whatever the default", async () => {
        await configure(request({ "wos:organization": "acme" }));
        const inputs = { name: "web", organization: "initech" };
        expect(withDefaultOrganization(inputs)).toBe(inputs);
    });

    test("without a default, answers the inputs themselves: no organization member is added", () => {
        const inputs = { name: "web" };
        const answered = withDefaultOrganization(inputs);
        expect(answered).toBe(inputs);
        expect(Object.keys(answered)).toEqual(["name"]);
    });

    test("WOS_ORGANIZATION is the default when the stack configuration has none", () => {
        process.env.WOS_ORGANIZATION = "globex";
        expect(withDefaultOrganization({ name: "web" })).toEqual({ name: "web", organization: "globex" });
    });
});

test("the message without a token says where to put one: the stack config key, as a secret, or the environment", () => {
    expect(MISSING_TOKEN_MESSAGE).toBe(
        "pulumi-wos: no token configured: set the stack config 'wos:token' (pulumi config set --secret wos:token <TOKEN>) or the environment variable WOS_TOKEN",
    );
});
