/**
 * The thin shells: what Pulumi serializes into state is only `require` of the handler module by package
 * name (no client, schema, axios, zod or token), and the type tokens are `pulumi-nodejs:dynamic/wos:<Name>`.
 * Loading the handlers in a real provider host is the engine tests' job (`tests/engine`).
 */
import * as pulumi from "@pulumi/pulumi";
import { configure } from "../../provider/handlers/credentials";
import { projectProvider } from "../../provider/project";
import { projectTagBindingsProvider } from "../../provider/projectTagBindings";
import { variableProvider } from "../../provider/variable";
import { noCodeModuleProvider } from "../../provider/noCodeModule";
import { noCodeWorkspaceProvider } from "../../provider/noCodeWorkspace";
import { configureRequest } from "./helpers";

const TOKEN = "token-that-must-not-be-serialized";

describe.each([
    ["project", projectProvider],
    ["projectTagBindings", projectTagBindingsProvider],
    ["variable", variableProvider],
    ["noCodeModule", noCodeModuleProvider],
    ["noCodeWorkspace", noCodeWorkspaceProvider],
])("the %s provider", (handler, provider) => {
    it("serializes to requires by package name and nothing else", async () => {
        await configure(configureRequest({ "wos:token": TOKEN }));
        process.env.WOS_TOKEN = TOKEN;
        try {
            const serialized = await pulumi.runtime.serializeFunction(() => provider, { allowSecrets: true });
            expect(serialized.text).toContain(`require("pulumi-wos/dist/provider/handlers/${handler}")`);
            expect(serialized.text).toContain(`require("pulumi-wos/dist/provider/handlers/credentials")`);
            for (const method of ["configure", "check", "diff", "create", "read", "update", "delete"]) {
                expect(serialized.text).toContain(method);
            }
            expect(serialized.text).not.toContain(TOKEN);
            expect(serialized.text).not.toMatch(/zod|axios/i);
            expect(serialized.containsSecrets).toBe(false);
        } finally {
            delete process.env.WOS_TOKEN;
        }
    });
});
