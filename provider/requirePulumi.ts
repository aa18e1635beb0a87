/**
 * Fails the first `require("pulumi-wos")` with a message that says what to install when `@pulumi/pulumi`, the
 * Pulumi SDK every resource is built on (an optional peer dependency: a script that uses only
 * `pulumi-wos/sdk` does not need it), is not installed. Node's own message names only the missing module.
 *
 * @module
 * @internal
 */
try {
    require.resolve("@pulumi/pulumi");
} catch (error) {
    if ((error as NodeJS.ErrnoException).code !== "MODULE_NOT_FOUND") throw error;
    throw new Error(
        "pulumi-wos: the resources need @pulumi/pulumi (3.216.0 or later), the Pulumi SDK of the program, which is " +
            "not installed. Install it beside pulumi-wos: npm install @pulumi/pulumi. " +
            "(A script that uses only the client needs no Pulumi: require(\"pulumi-wos/sdk\").)",
    );
}
export {};
