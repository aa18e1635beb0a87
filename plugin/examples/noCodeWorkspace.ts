/**
 * The example of `wos:index:NoCodeWorkspace` in the package schema (see `../schemaExamples.ts`).
 *
 * @module
 */
import { program, type SchemaExample } from "../schemaExamples";

/** A workspace made from a no-code module, which follows the module's pin. */
export const noCodeWorkspaceExample: SchemaExample = {
    title: "A workspace made from a no-code module",
    typescript: program(`
import * as wos from "pulumi-wos";

const storage = new wos.Project("storage", { organization: "acme", name: "Storage" });

const bucket = new wos.NoCodeModule("bucket", {
    organization: "acme",
    registryModuleId: "mod-0000000000000001",
    versionPin: "1.0.0",
    enabled: true,
});

// Raising the module's pin, or changing a var, upgrades the workspace in \`pulumi up\`:
// its plan is started, watched and confirmed.
const assets = new wos.NoCodeWorkspace("web-assets", {
    noCodeModuleId: bucket.id,
    moduleVersion: bucket.versionPin,
    projectId: storage.id,
    name: "web-assets",
    vars: [
        { key: "region", value: "eu-west-1", category: "infra" },
        { key: "size", value: "3", category: "infra", description: "Number of buckets" },
    ],
});

export const workspaceId = assets.id;
export const moduleVersion = assets.moduleVersion;
`),
    python: program(`
import pulumi
import pulumi_wos as wos

storage = wos.Project("storage", organization="acme", name="Storage")

bucket = wos.NoCodeModule(
    "bucket",
    organization="acme",
    registry_module_id="mod-0000000000000001",
    version_pin="1.0.0",
    enabled=True,
)

# Raising the module's pin, or changing a var, upgrades the workspace in \`pulumi up\`:
# its plan is started, watched and confirmed.
assets = wos.NoCodeWorkspace(
    "web-assets",
    no_code_module_id=bucket.id,
    module_version=bucket.version_pin,
    project_id=storage.id,
    name="web-assets",
    vars=[
        wos.NoCodeWorkspaceVarArgs(key="region", value="eu-west-1", category="infra"),
        wos.NoCodeWorkspaceVarArgs(key="size", value="3", category="infra", description="Number of buckets"),
    ],
)

pulumi.export("workspaceId", assets.id)
pulumi.export("moduleVersion", assets.module_version)
`),
    go: program(`
package main

import (
	"github.com/pulumi-wos/pulumi-wos/sdks/go/wos"
	"github.com/pulumi/pulumi/sdk/v3/go/pulumi"
)

func main() {
	pulumi.Run(func(ctx *pulumi.Context) error {
		storage, err := wos.NewProject(ctx, "storage", &wos.ProjectArgs{
			Organization: pulumi.String("acme"),
			Name:         pulumi.String("Storage"),
		})
		if err != nil {
			return err
		}
		bucket, err := wos.NewNoCodeModule(ctx, "bucket", &wos.NoCodeModuleArgs{
			Organization:     pulumi.String("acme"),
			RegistryModuleId: pulumi.String("mod-0000000000000001"),
			VersionPin:       pulumi.String("1.0.0"),
			Enabled:          pulumi.Bool(true),
		})
		if err != nil {
			return err
		}
		// Raising the module's pin, or changing a var, upgrades the workspace in \`pulumi up\`:
		// its plan is started, watched and confirmed.
		assets, err := wos.NewNoCodeWorkspace(ctx, "web-assets", &wos.NoCodeWorkspaceArgs{
			NoCodeModuleId: bucket.ID(),
			ModuleVersion:  bucket.VersionPin,
			ProjectId:      storage.ID(),
			Name:           pulumi.String("web-assets"),
			Vars: wos.NoCodeWorkspaceVarArray{
				wos.NoCodeWorkspaceVarArgs{
					Key:      pulumi.String("region"),
					Value:    pulumi.String("eu-west-1"),
					Category: pulumi.String("infra"),
				},
				wos.NoCodeWorkspaceVarArgs{
					Key:         pulumi.String("size"),
					Value:       pulumi.String("3"),
					Category:    pulumi.String("infra"),
					Description: pulumi.String("Number of buckets"),
				},
			},
		})
		if err != nil {
			return err
		}
		ctx.Export("workspaceId", assets.ID())
		ctx.Export("moduleVersion", assets.ModuleVersion)
		return nil
	})
}
`),
    yaml: program(`
resources:
  storage:
    type: wos:index:Project
    properties:
      organization: acme
      name: Storage
  bucket:
    type: wos:index:NoCodeModule
    properties:
      organization: acme
      registryModuleId: mod-0000000000000001
      versionPin: 1.0.0
      enabled: true
  # Raising the module's pin, or changing a var, upgrades the workspace in \`pulumi up\`:
  # its plan is started, watched and confirmed.
  web-assets:
    type: wos:index:NoCodeWorkspace
    properties:
      noCodeModuleId: \${bucket.id}
      moduleVersion: \${bucket.versionPin}
      projectId: \${storage.id}
      name: web-assets
      vars:
        - key: region
          value: eu-west-1
          category: infra
        - key: size
          value: "3"
          category: infra
          description: Number of buckets
outputs:
  workspaceId: \${web-assets.id}
  moduleVersion: \${web-assets.moduleVersion}
`),
};
