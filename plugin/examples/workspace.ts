/**
 * The example of `wos:index:Workspace` in the package schema (see `../schemaExamples.ts`).
 *
 * @module
 */
import { program, type SchemaExample } from "../schemaExamples";

/** A workspace in a project of its own. */
export const workspaceExample: SchemaExample = {
    title: "A workspace in a project",
    typescript: program(`
import * as wos from "pulumi-wos";

const payments = new wos.Project("payments", { organization: "acme", name: "Payments" });

// A change of projectId moves the workspace; its variables stay.
const api = new wos.Workspace("payments-api", {
    organization: "acme",
    name: "payments-api",
    projectId: payments.id,
    description: "The payments API",
    autoApply: true,
});

export const workspaceId = api.id;
`),
    python: program(`
import pulumi
import pulumi_wos as wos

payments = wos.Project("payments", organization="acme", name="Payments")

# A change of project_id moves the workspace; its variables stay.
api = wos.Workspace(
    "payments-api",
    organization="acme",
    name="payments-api",
    project_id=payments.id,
    description="The payments API",
    auto_apply=True,
)

pulumi.export("workspaceId", api.id)
`),
    go: program(`
package main

import (
	"github.com/pulumi-wos/pulumi-wos/sdks/go/wos"
	"github.com/pulumi/pulumi/sdk/v3/go/pulumi"
)

func main() {
	pulumi.Run(func(ctx *pulumi.Context) error {
		payments, err := wos.NewProject(ctx, "payments", &wos.ProjectArgs{
			Organization: pulumi.String("acme"),
			Name:         pulumi.String("Payments"),
		})
		if err != nil {
			return err
		}
		// A change of ProjectId moves the workspace; its variables stay.
		api, err := wos.NewWorkspace(ctx, "payments-api", &wos.WorkspaceArgs{
			Organization: pulumi.String("acme"),
			Name:         pulumi.String("payments-api"),
			ProjectId:    payments.ID(),
			Description:  pulumi.String("The payments API"),
			AutoApply:    pulumi.Bool(true),
		})
		if err != nil {
			return err
		}
		ctx.Export("workspaceId", api.ID())
		return nil
	})
}
`),
    yaml: program(`
resources:
  payments:
    type: wos:index:Project
    properties:
      organization: acme
      name: Payments
  # A change of projectId moves the workspace; its variables stay.
  payments-api:
    type: wos:index:Workspace
    properties:
      organization: acme
      name: payments-api
      projectId: \${payments.id}
      description: The payments API
      autoApply: true
outputs:
  workspaceId: \${payments-api.id}
`),
};
