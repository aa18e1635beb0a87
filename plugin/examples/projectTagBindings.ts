/**
 * The example of `wos:index:ProjectTagBindings` in the package schema (see `../schemaExamples.ts`).
 *
 * @module
 */
import { program, type SchemaExample } from "../schemaExamples";

/** Two tags bound to a project, key by key. */
export const projectTagBindingsExample: SchemaExample = {
    title: "Tags bound to a project key by key",
    typescript: program(`
import * as wos from "pulumi-wos";

const billing = new wos.Project("billing", { organization: "acme", name: "Billing" });

// Only these keys are managed: tags bound to the project elsewhere are left alone.
const cost = new wos.ProjectTagBindings("cost", {
    projectId: billing.id,
    tags: { "cost-center": "1234", owner: "finance" },
});

export const projectId = cost.projectId;
export const tags = cost.tags;
`),
    python: program(`
import pulumi
import pulumi_wos as wos

billing = wos.Project("billing", organization="acme", name="Billing")

# Only these keys are managed: tags bound to the project elsewhere are left alone.
cost = wos.ProjectTagBindings(
    "cost",
    project_id=billing.id,
    tags={"cost-center": "1234", "owner": "finance"},
)

pulumi.export("projectId", cost.project_id)
pulumi.export("tags", cost.tags)
`),
    go: program(`
package main

import (
	"github.com/pulumi-wos/pulumi-wos/sdks/go/wos"
	"github.com/pulumi/pulumi/sdk/v3/go/pulumi"
)

func main() {
	pulumi.Run(func(ctx *pulumi.Context) error {
		billing, err := wos.NewProject(ctx, "billing", &wos.ProjectArgs{
			Organization: pulumi.String("acme"),
			Name:         pulumi.String("Billing"),
		})
		if err != nil {
			return err
		}
		// Only these keys are managed: tags bound to the project elsewhere are left alone.
		cost, err := wos.NewProjectTagBindings(ctx, "cost", &wos.ProjectTagBindingsArgs{
			ProjectId: billing.ID(),
			Tags: pulumi.StringMap{
				"cost-center": pulumi.String("1234"),
				"owner":       pulumi.String("finance"),
			},
		})
		if err != nil {
			return err
		}
		ctx.Export("projectId", cost.ProjectId)
		ctx.Export("tags", cost.Tags)
		return nil
	})
}
`),
    yaml: program(`
resources:
  billing:
    type: wos:index:Project
    properties:
      organization: acme
      name: Billing
  # Only these keys are managed: tags bound to the project elsewhere are left alone.
  cost:
    type: wos:index:ProjectTagBindings
    properties:
      projectId: \${billing.id}
      tags:
        cost-center: "1234"
        owner: finance
outputs:
  projectId: \${cost.projectId}
  tags: \${cost.tags}
`),
};
