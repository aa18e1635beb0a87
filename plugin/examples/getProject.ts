/**
 * The example of `wos:index:getProject` in the package schema (see `../schemaExamples.ts`).
 *
 * @module
 */
import { program, type SchemaExample } from "../schemaExamples";

/** The demo seed's project `Apps`, found by its name. */
export const getProjectExample: SchemaExample = {
    title: "A project found by its name",
    typescript: program(`
import * as wos from "pulumi-wos";

const apps = wos.getProjectOutput({ organization: "acme", name: "Apps" });

export const appsProjectId = apps.id;
export const appsWorkspaceCount = apps.workspaceCount;
`),
    python: program(`
import pulumi
import pulumi_wos as wos

apps = wos.get_project(organization="acme", name="Apps")

pulumi.export("appsProjectId", apps.id)
pulumi.export("appsWorkspaceCount", apps.workspace_count)
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
		ctx.Export("appsProjectId", pulumi.String(apps.Id))
		ctx.Export("appsWorkspaceCount", pulumi.Float64(apps.WorkspaceCount))
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
outputs:
  appsProjectId: \${apps.id}
  appsWorkspaceCount: \${apps.workspaceCount}
`),
};
