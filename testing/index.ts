/**
 * `pulumi-wos/testing`: test a Pulumi program that uses `pulumi-wos`, or a script that uses `pulumi-wos/sdk`,
 * against the real local service rather than a mock of it.
 *
 * - {@link startLocalService}: the local service in the test's process, on a free port, loaded from a seed;
 *   its address, the seed's tokens, `reset()` and `stop()`. It runs the package `@pulumi-wos/server`, an
 *   optional peer dependency: `npm install --save-dev @pulumi-wos/server` beside `pulumi-wos`.
 * - {@link WosMocks}: mocks for `pulumi.runtime.setMocks` that run each `wos` resource's own `check` (a broken
 *   rule fails with the provider's message) and create it in the service, answering the real ids and outputs;
 *   other resources and calls go to mocks the test supplies.
 *
 * The README's "Testing your program" shows both; the repository's docs/reference.md ("The real CLI in a
 * pipeline") has the Automation API recipe for running the real `pulumi up` against {@link startLocalService}.
 *
 * @packageDocumentation
 */
import { warnOnceOnUnsupportedNode } from "../sdk/nodeSupport";

// On a Node.js older than the package supports: one process warning (code WOS_UNSUPPORTED_NODE); the local
// service itself refuses to start there (startLocalService rejects with an UnsupportedNodeError).
warnOnceOnUnsupportedNode();

export { UnsupportedNodeError, UNSUPPORTED_NODE_CODE, MINIMUM_NODE_MAJOR } from "../sdk/nodeSupport";
export {
    startLocalService,
    SERVER_NOT_INSTALLED_MESSAGE,
    type LocalService,
    type LocalServiceOptions,
    type LocalServiceToken,
    type LocalServiceSeed,
    type LocalServiceSeedOrganization,
    type LocalServiceSeedTeam,
    type LocalServiceSeedUser,
    type LocalServiceSeedAgentPool,
    type LocalServiceSeedRegistryModule,
    type LocalServiceSeedModuleVersion,
    type LocalServiceSeedModuleVariable,
    type LocalServiceSeedProject,
    type LocalServiceSeedWorkspace,
    type LocalServiceAccessLevel,
} from "./localService";
export {
    WosMocks,
    WosMocksError,
    wosHandlerName,
    type WosMocksOptions,
    type WosMockResource,
    type WosMockFailure,
    type WosMockSkipped,
    type MocksLike,
    type MockResourceArgs,
    type MockResourceResult,
    type MockCallArgs,
    type MockCallResult,
} from "./mocks";
