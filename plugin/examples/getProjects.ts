/**
 * The example of `wos:index:getProjects` in the package schema (see `../schemaExamples.ts`).
 *
 * @module
 */
import { program, type SchemaExample } from "../schemaExamples";

/** The projects whose name holds `app`, every page of them. */
export const getProjectsExample: SchemaExample = {
    title: "The projects whose name holds a text",
    typescript: program(`
import * as wos from "pulumi-wos";

const found = wos.getProjectsOutput({ organization: "acme", query: "app" });

export const projectNames = found.names;
export const projectIds = found.ids;
`),
    python: program(`
import pulumi
import pulumi_wos as wos

found = wos.get_projects(organization="acme", query="app")

pulumi.export("projectNames", found.names)
pulumi.export("projectIds", found.ids)
`),
    go: program(`
package main

import (
	"github.com/pulumi-wos/pulumi-wos/sdks/go/wos"
	"github.com/pulumi/pulumi/sdk/v3/go/pulumi"
)

func main() {
	pulumi.Run(func(ctx *pulumi.Context) error {
		found, err := wos.GetProjects(ctx, &wos.GetProjectsArgs{
			Organization: pulumi.StringRef("acme"),
			Query:        pulumi.StringRef("app"),
		})
		if err != nil {
			return err
		}
		ctx.Export("projectNames", pulumi.ToStringArray(found.Names))
		ctx.Export("projectIds", pulumi.ToStringMap(found.Ids))
		return nil
	})
}
`),
    yaml: program(`
variables:
  found:
    fn::invoke:
      function: wos:index:getProjects
      arguments:
        organization: acme
        query: app
outputs:
  projectNames: \${found.names}
  projectIds: \${found.ids}
`),
};
