/**
 * The first module the command `wos-server` loads: on a Node.js older than the service supports it prints one
 * line (what is running, what is needed, what to install) and exits with status 1, before Fastify or the
 * SQLite binding (which would end the process with a segmentation fault) is loaded.
 *
 * @module
 */
import { exitOnUnsupportedNode } from "../sdk/nodeSupport";

exitOnUnsupportedNode("wos-server");
