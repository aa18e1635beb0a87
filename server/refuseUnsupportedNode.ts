/**
 * The first module the command `wos-server` loads: on a Node.js older than the service supports it prints one
 * line (what is running, what is needed, what to install) and exits with status 1, before Fastify or the
 * SQLite binding (which would end the process with a segmentation fault) is loaded. No stack trace: the
 * user's problem is the Node.js, not this code.
 *
 * @module
 */
import { unsupportedNodeMessage } from "../sdk/nodeSupport";

const refusal = unsupportedNodeMessage("wos-server");
if (refusal !== undefined) {
    process.stderr.write(`${refusal}\n`);
    process.exit(1);
}
