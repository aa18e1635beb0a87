/**
 * The example of `wos:index:getWorkspace` in the package schema (see `../schemaExamples.ts`).
 *
 * @module
 */
import { program, type SchemaExample } from "../schemaExamples";

/** The demo seed's workspace `legacy-app`, found by its name, and the project it is in. */
export const getWorkspaceExample: SchemaExample = {
    title: "A workspace found by its name",
    typescript: program(`
import * as wos from "pulumi-wos";

const legacy = wos.getWorkspaceOutput({ organization: "acme", name: "legacy-app" });

export const workspaceId = legacy.id;
export const projectId = legacy.projectId;
`),
    python: program(`
import pulumi
import pulumi_wos as wos

legacy = wos.get_workspace(organization="acme", name="legacy-app")

pulumi.export("workspaceId", legacy.id)
pulumi.export("projectId", legacy.project_id)
`),
    go: program(`
package main

import (
	"github.com/pulumi-wos/pulumi-wos/sdks/go/wos"
	"github.com/pulumi/pulumi/sdk/v3/go/pulumi"
)

func main() {
	pulumi.Run(func(ctx *pulumi.Context) error {
		legacy, err := wos.LookupWorkspace(ctx, &wos.LookupWorkspaceArgs{
			Organization: pulumi.StringRef("acme"),
			Name:         "legacy-app",
		})
		if err != nil {
			return err
		}
		ctx.Export("workspaceId", pulumi.String(legacy.Id))
		ctx.Export("projectId", pulumi.String(legacy.ProjectId))
		return nil
	})
}
`),
    yaml: program(`
variables:
  legacy:
    fn::invoke:
      function: wos:index:getWorkspace
      arguments:
        organization: acme
        name: legacy-app
outputs:
  workspaceId: \${legacy.id}
  projectId: \${legacy.projectId}
`),
};
