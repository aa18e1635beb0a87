/**
 * The first module of the plugin's bundle: where an archive holds the launcher, the bundle runs on the Node.js
 * of `PATH`, and on one older than 22 it prints one line (what is running, what is needed, what to install),
 * which the Pulumi CLI shows, and exits with status 1, before the runtime loads. (The single executables carry
 * their own Node.js, of `.nvmrc`.)
 *
 * @module
 */
import { exitOnUnsupportedNode } from "../sdk/nodeSupport";

exitOnUnsupportedNode("pulumi-resource-wos");
