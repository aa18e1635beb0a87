/**
 * On a Node.js older than the package supports, one warning when a program loads `pulumi-wos`, through the
 * Pulumi log: the CLI shows it as a warning of the stack, in the program's output. The package has no native
 * binding, so it keeps running (the local service, which has one, refuses instead: `sdk/nodeSupport.ts`).
 *
 * @module
 * @internal
 */
import * as pulumi from "@pulumi/pulumi";
import { warnOnceOnUnsupportedNode } from "../sdk/nodeSupport";

warnOnceOnUnsupportedNode((line) => void pulumi.log.warn(line));
