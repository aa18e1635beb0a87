/**
 * The example of the component `wos:index:NoCodeProject` in the package schema (see `../schemaExamples.ts`).
 *
 * @module
 */
import { program, type SchemaExample } from "../schemaExamples";

/** A no-code catalog: a project, the demo seed's module enabled at a pin, and two workspaces with shared vars. */
export const noCodeProjectExample: SchemaExample = {
    title: "A no-code catalog: a project, a module and its workspaces",
    typescript: program(`
import * as wos from "pulumi-wos";

// Every workspace gets the shared vars; a workspace's own var of the same key and category wins.
const catalog = new wos.NoCodeProject("catalog", {
    organization: "acme",
    project: { name: "Storage Catalog", tags: { team: "platform" } },
    module: {
        registryModuleId: "mod-0000000000000001",
        versionPin: "1.0.0",
        variableOptions: [{ variableName: "region", variableType: "string", options: ["eu-west-1", "us-east-1"] }],
    },
    vars: [{ key: "region", value: "eu-west-1", category: "infra" }],
    workspaces: {
        "web-assets": { autoApply: true, vars: [{ key: "size", value: "3", category: "infra" }] },
        "audit-logs": { description: "Audit log archive" },
    },
});

export const projectId = catalog.projectId;
export const workspaceIds = catalog.workspaceIds;
`),
    python: program(`
import pulumi
import pulumi_wos as wos

# Every workspace gets the shared vars; a workspace's own var of the same key and category wins.
catalog = wos.NoCodeProject(
    "catalog",
    organization="acme",
    project=wos.NoCodeProjectProjectArgs(name="Storage Catalog", tags={"team": "platform"}),
    module=wos.NoCodeProjectModuleArgs(
        registry_module_id="mod-0000000000000001",
        version_pin="1.0.0",
        variable_options=[
            wos.NoCodeModuleVariableOptionsArgs(
                variable_name="region",
                variable_type="string",
                options=["eu-west-1", "us-east-1"],
            )
        ],
    ),
    vars=[wos.NoCodeWorkspaceVarArgs(key="region", value="eu-west-1", category="infra")],
    workspaces={
        "web-assets": wos.NoCodeProjectWorkspaceArgs(
            auto_apply=True,
            vars=[wos.NoCodeWorkspaceVarArgs(key="size", value="3", category="infra")],
        ),
        "audit-logs": wos.NoCodeProjectWorkspaceArgs(description="Audit log archive"),
    },
)

pulumi.export("projectId", catalog.project_id)
pulumi.export("workspaceIds", catalog.workspace_ids)
`),
    go: program(`
package main

import (
	"github.com/pulumi-wos/pulumi-wos/sdks/go/wos"
	"github.com/pulumi/pulumi/sdk/v3/go/pulumi"
)

func main() {
	pulumi.Run(func(ctx *pulumi.Context) error {
		// Every workspace gets the shared vars; a workspace's own var of the same key and category wins.
		catalog, err := wos.NewNoCodeProject(ctx, "catalog", &wos.NoCodeProjectArgs{
			Organization: pulumi.String("acme"),
			Project: wos.NoCodeProjectProjectArgs{
				Name: pulumi.String("Storage Catalog"),
				Tags: pulumi.StringMap{"team": pulumi.String("platform")},
			},
			Module: wos.NoCodeProjectModuleArgs{
				RegistryModuleId: pulumi.String("mod-0000000000000001"),
				VersionPin:       pulumi.String("1.0.0"),
				VariableOptions: wos.NoCodeModuleVariableOptionsArray{
					wos.NoCodeModuleVariableOptionsArgs{
						VariableName: pulumi.String("region"),
						VariableType: pulumi.String("string"),
						Options:      pulumi.Array{pulumi.String("eu-west-1"), pulumi.String("us-east-1")},
					},
				},
			},
			Vars: wos.NoCodeWorkspaceVarArray{
				wos.NoCodeWorkspaceVarArgs{
					Key:      pulumi.String("region"),
					Value:    pulumi.String("eu-west-1"),
					Category: pulumi.String("infra"),
				},
			},
			Workspaces: map[string]wos.NoCodeProjectWorkspaceArgs{
				"web-assets": {
					AutoApply: pulumi.Bool(true),
					Vars: wos.NoCodeWorkspaceVarArray{
						wos.NoCodeWorkspaceVarArgs{
							Key:      pulumi.String("size"),
							Value:    pulumi.String("3"),
							Category: pulumi.String("infra"),
						},
					},
				},
				"audit-logs": {
					Description: pulumi.String("Audit log archive"),
				},
			},
		})
		if err != nil {
			return err
		}
		ctx.Export("projectId", catalog.ProjectId)
		ctx.Export("workspaceIds", catalog.WorkspaceIds)
		return nil
	})
}
`),
    yaml: program(`
resources:
  # Every workspace gets the shared vars; a workspace's own var of the same key and category wins.
  catalog:
    type: wos:index:NoCodeProject
    properties:
      organization: acme
      project:
        name: Storage Catalog
        tags:
          team: platform
      module:
        registryModuleId: mod-0000000000000001
        versionPin: 1.0.0
        variableOptions:
          - variableName: region
            variableType: string
            options: [eu-west-1, us-east-1]
      vars:
        - key: region
          value: eu-west-1
          category: infra
      workspaces:
        web-assets:
          autoApply: true
          vars:
            - key: size
              value: "3"
              category: infra
        audit-logs:
          description: Audit log archive
outputs:
  projectId: \${catalog.projectId}
  workspaceIds: \${catalog.workspaceIds}
`),
};
