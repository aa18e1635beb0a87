/**
 * The example of `wos:index:Project` in the package schema (see `../schemaExamples.ts`).
 *
 * @module
 */
import { program, type SchemaExample } from "../schemaExamples";

/** A project with a description, an auto-destroy duration and its whole tag set. */
export const projectExample: SchemaExample = {
    title: "A project with its tags",
    typescript: program(`
import * as wos from "pulumi-wos";

// The project's whole tag set: tags added to it elsewhere are removed at the next \`pulumi up\`.
const storage = new wos.Project("storage", {
    organization: "acme",
    name: "Storage",
    description: "Buckets of every team",
    autoDestroyActivityDuration: "14d",
    tags: { team: "platform", env: "prod" },
});

export const projectId = storage.id;
`),
    python: program(`
import pulumi
import pulumi_wos as wos

# The project's whole tag set: tags added to it elsewhere are removed at the next \`pulumi up\`.
storage = wos.Project(
    "storage",
    organization="acme",
    name="Storage",
    description="Buckets of every team",
    auto_destroy_activity_duration="14d",
    tags={"team": "platform", "env": "prod"},
)

pulumi.export("projectId", storage.id)
`),
    go: program(`
package main

import (
	"github.com/pulumi-wos/pulumi-wos/sdks/go/wos"
	"github.com/pulumi/pulumi/sdk/v3/go/pulumi"
)

func main() {
	pulumi.Run(func(ctx *pulumi.Context) error {
		// The project's whole tag set: tags added to it elsewhere are removed at the next \`pulumi up\`.
		storage, err := wos.NewProject(ctx, "storage", &wos.ProjectArgs{
			Organization:                pulumi.String("acme"),
			Name:                        pulumi.String("Storage"),
			Description:                 pulumi.String("Buckets of every team"),
			AutoDestroyActivityDuration: pulumi.String("14d"),
			Tags: pulumi.StringMap{
				"team": pulumi.String("platform"),
				"env":  pulumi.String("prod"),
			},
		})
		if err != nil {
			return err
		}
		ctx.Export("projectId", storage.ID())
		return nil
	})
}
`),
    yaml: program(`
resources:
  # The project's whole tag set: tags added to it elsewhere are removed at the next \`pulumi up\`.
  storage:
    type: wos:index:Project
    properties:
      organization: acme
      name: Storage
      description: Buckets of every team
      autoDestroyActivityDuration: 14d
      tags:
        team: platform
        env: prod
outputs:
  projectId: \${storage.id}
`),
};
