/**
 * The example of `wos:index:Variable` in the package schema (see `../schemaExamples.ts`).
 *
 * @module
 */
import { program, type SchemaExample } from "../schemaExamples";

/** Two variables of a workspace, one of them sensitive, its value from the stack's secret config. */
export const variableExample: SchemaExample = {
    title: "Variables of a workspace, one of them sensitive",
    typescript: program(`
import * as pulumi from "@pulumi/pulumi";
import * as wos from "pulumi-wos";

const config = new pulumi.Config();
const api = new wos.Workspace("billing-api", { organization: "acme", name: "billing-api" });

const region = new wos.Variable("region", {
    workspaceId: api.id,
    key: "region",
    value: "eu-west-1",
    category: "infra",
});

// pulumi config set --secret dbPassword ...: write-only on the service, a secret in the state.
const password = new wos.Variable("db-password", {
    workspaceId: api.id,
    key: "DB_PASSWORD",
    value: config.requireSecret("dbPassword"),
    category: "env",
    sensitive: true,
});

export const regionVariableId = region.id;
export const passwordVariableId = password.id;
`),
    python: program(`
import pulumi
import pulumi_wos as wos

config = pulumi.Config()
api = wos.Workspace("billing-api", organization="acme", name="billing-api")

region = wos.Variable(
    "region",
    workspace_id=api.id,
    key="region",
    value="eu-west-1",
    category="infra",
)

# pulumi config set --secret dbPassword ...: write-only on the service, a secret in the state.
password = wos.Variable(
    "db-password",
    workspace_id=api.id,
    key="DB_PASSWORD",
    value=config.require_secret("dbPassword"),
    category="env",
    sensitive=True,
)

pulumi.export("regionVariableId", region.id)
pulumi.export("passwordVariableId", password.id)
`),
    go: program(`
package main

import (
	"github.com/pulumi-wos/pulumi-wos/sdks/go/wos"
	"github.com/pulumi/pulumi/sdk/v3/go/pulumi"
	"github.com/pulumi/pulumi/sdk/v3/go/pulumi/config"
)

func main() {
	pulumi.Run(func(ctx *pulumi.Context) error {
		api, err := wos.NewWorkspace(ctx, "billing-api", &wos.WorkspaceArgs{
			Organization: pulumi.String("acme"),
			Name:         pulumi.String("billing-api"),
		})
		if err != nil {
			return err
		}
		region, err := wos.NewVariable(ctx, "region", &wos.VariableArgs{
			WorkspaceId: api.ID(),
			Key:         pulumi.String("region"),
			Value:       pulumi.String("eu-west-1"),
			Category:    pulumi.String("infra"),
		})
		if err != nil {
			return err
		}
		// pulumi config set --secret dbPassword ...: write-only on the service, a secret in the state.
		password, err := wos.NewVariable(ctx, "db-password", &wos.VariableArgs{
			WorkspaceId: api.ID(),
			Key:         pulumi.String("DB_PASSWORD"),
			Value:       config.RequireSecret(ctx, "dbPassword"),
			Category:    pulumi.String("env"),
			Sensitive:   pulumi.Bool(true),
		})
		if err != nil {
			return err
		}
		ctx.Export("regionVariableId", region.ID())
		ctx.Export("passwordVariableId", password.ID())
		return nil
	})
}
`),
    yaml: program(`
config:
  # pulumi config set --secret dbPassword ...: write-only on the service, a secret in the state.
  dbPassword:
    type: string
    secret: true
resources:
  billing-api:
    type: wos:index:Workspace
    properties:
      organization: acme
      name: billing-api
  region:
    type: wos:index:Variable
    properties:
      workspaceId: \${billing-api.id}
      key: region
      value: eu-west-1
      category: infra
  db-password:
    type: wos:index:Variable
    properties:
      workspaceId: \${billing-api.id}
      key: DB_PASSWORD
      value: \${dbPassword}
      category: env
      sensitive: true
outputs:
  regionVariableId: \${region.id}
  passwordVariableId: \${db-password.id}
`),
};
