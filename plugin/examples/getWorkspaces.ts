/**
 * The example of `wos:index:getWorkspaces` in the package schema (see `../schemaExamples.ts`).
 *
 * @module
 */
import { program, type SchemaExample } from "../schemaExamples";

/** The workspaces of the demo seed's project `Apps`, the project found by its name first. */
export const getWorkspacesExample: SchemaExample = {
    title: "The workspaces of a project",
    typescript: program(`
import * as wos from "pulumi-wos";

const apps = wos.getProjectOutput({ organization: "acme", name: "Apps" });
const inApps = wos.getWorkspacesOutput({ organization: "acme", projectId: apps.id });

export const workspaceNames = inApps.names;
export const workspaceIds = inApps.ids;
`),
    python: program(`
import pulumi
import pulumi_wos as wos

apps = wos.get_project(organization="acme", name="Apps")
in_apps = wos.get_workspaces(organization="acme", project_id=apps.id)

pulumi.export("workspaceNames", in_apps.names)
pulumi.export("workspaceIds", in_apps.ids)
`),
    go: program(`
package main

import (
	"github.com/pulumi-wos/pulumi-wos/sdks/go/wos"
	"github.com/pulumi/pulumi/sdk/v3/go/pulumi"
)

func main() {
	pulumi.Run(func(ctx *pulumi.Context) error {
		apps, err := wos.LookupProject(ctx, &wos.LookupProjectArgs{
			Organization: pulumi.StringRef("acme"),
			Name:         "Apps",
		})
		if err != nil {
			return err
		}
		inApps, err := wos.GetWorkspaces(ctx, &wos.GetWorkspacesArgs{
			Organization: pulumi.StringRef("acme"),
			ProjectId:    pulumi.StringRef(apps.Id),
		})
		if err != nil {
			return err
		}
		ctx.Export("workspaceNames", pulumi.ToStringArray(inApps.Names))
		ctx.Export("workspaceIds", pulumi.ToStringMap(inApps.Ids))
		return nil
	})
}
`),
    yaml: program(`
variables:
  apps:
    fn::invoke:
      function: wos:index:getProject
      arguments:
        organization: acme
        name: Apps
  inApps:
    fn::invoke:
      function: wos:index:getWorkspaces
      arguments:
        organization: acme
        projectId: \${apps.id}
outputs:
  workspaceNames: \${inApps.names}
  workspaceIds: \${inApps.ids}
`),
};
