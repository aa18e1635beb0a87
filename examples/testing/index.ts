/**
 * A small program of the demo organization `acme`, to show how a program is tested with `pulumi-wos/testing`
 * (see `index.test.ts` beside it, and "Testing your program" in the package's README): a project with its
 * tags and two variables of the seeded workspace `legacy-app`, one of them sensitive, and a lookup of the
 * seeded project `Apps`.
 *
 *     npm test                                           # its jest test, against an in-process local service
 *
 * Deployed for real, it takes the same stack configuration as the quickstart: `wos:token` (and `wos:address`,
 * default the local service on :8787).
 */
import * as pulumi from "@pulumi/pulumi";
import * as wos from "pulumi-wos";

const config = new pulumi.Config();
/** The seeded organization. */
const organization = config.get("organization") ?? "acme";
/** The seeded workspace `legacy-app` (in the seeded project `Apps`). */
const workspaceId = config.get("workspaceId") ?? "ws-0000000000000001";

/** The team's project; this program owns its whole tag set. */
export const checkout = new wos.Project("checkout", {
    organization,
    name: "Checkout",
    description: "Payment pages and the order service",
    autoDestroyActivityDuration: "14d",
    tags: { team: "payments", env: "staging" },
});

/** A plain environment variable of the workspace. */
export const logLevel = new wos.Variable("checkout-log-level", {
    workspaceId,
    key: "LOG_LEVEL",
    value: "debug",
    category: "env",
});

/** A sensitive one: the service never shows it again, and Pulumi keeps it as a secret. */
export const apiKey = new wos.Variable("checkout-api-key", {
    workspaceId,
    key: "PAYMENTS_API_KEY",
    value: config.getSecret("paymentsApiKey") ?? pulumi.secret("sk-test-not-a-real-key"),
    category: "env",
    sensitive: true,
});

/** A project this program does not manage, looked up with the same credentials as the resources. */
export const apps = wos.getProjectOutput({ organization, name: "Apps" });

export const checkoutProjectId = checkout.id;
export const appsProjectId = apps.id;
