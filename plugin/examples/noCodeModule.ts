/**
 * The example of `wos:index:NoCodeModule` in the package schema (see `../schemaExamples.ts`).
 *
 * @module
 */
import { program, type SchemaExample } from "../schemaExamples";

/** The demo seed's registry module `bucket` enabled for no-code provisioning, with the regions a workspace may choose. */
export const noCodeModuleExample: SchemaExample = {
    title: "A registry module enabled for no-code provisioning",
    typescript: program(`
import * as wos from "pulumi-wos";

// The registry module "bucket" (variables region and size), pinned, with the regions a workspace may choose.
const bucket = new wos.NoCodeModule("bucket", {
    organization: "acme",
    registryModuleId: "mod-0000000000000001",
    versionPin: "1.1.0",
    enabled: true,
    variableOptions: [{ variableName: "region", variableType: "string", options: ["eu-west-1", "us-east-1"] }],
});

export const noCodeModuleId = bucket.id;
export const versionPin = bucket.versionPin;
`),
    python: program(`
import pulumi
import pulumi_wos as wos

# The registry module "bucket" (variables region and size), pinned, with the regions a workspace may choose.
bucket = wos.NoCodeModule(
    "bucket",
    organization="acme",
    registry_module_id="mod-0000000000000001",
    version_pin="1.1.0",
    enabled=True,
    variable_options=[
        wos.NoCodeModuleVariableOptionsArgs(
            variable_name="region",
            variable_type="string",
            options=["eu-west-1", "us-east-1"],
        )
    ],
)

pulumi.export("noCodeModuleId", bucket.id)
pulumi.export("versionPin", bucket.version_pin)
`),
    go: program(`
package main

import (
	"github.com/pulumi-wos/pulumi-wos/sdks/go/wos"
	"github.com/pulumi/pulumi/sdk/v3/go/pulumi"
)

func main() {
	pulumi.Run(func(ctx *pulumi.Context) error {
		// The registry module "bucket" (variables region and size), pinned, with the regions a workspace may choose.
		bucket, err := wos.NewNoCodeModule(ctx, "bucket", &wos.NoCodeModuleArgs{
			Organization:     pulumi.String("acme"),
			RegistryModuleId: pulumi.String("mod-0000000000000001"),
			VersionPin:       pulumi.String("1.1.0"),
			Enabled:          pulumi.Bool(true),
			VariableOptions: wos.NoCodeModuleVariableOptionsArray{
				wos.NoCodeModuleVariableOptionsArgs{
					VariableName: pulumi.String("region"),
					VariableType: pulumi.String("string"),
					Options:      pulumi.Array{pulumi.String("eu-west-1"), pulumi.String("us-east-1")},
				},
			},
		})
		if err != nil {
			return err
		}
		ctx.Export("noCodeModuleId", bucket.ID())
		ctx.Export("versionPin", bucket.VersionPin)
		return nil
	})
}
`),
    yaml: program(`
resources:
  # The registry module "bucket" (variables region and size), pinned, with the regions a workspace may choose.
  bucket:
    type: wos:index:NoCodeModule
    properties:
      organization: acme
      registryModuleId: mod-0000000000000001
      versionPin: 1.1.0
      enabled: true
      variableOptions:
        - variableName: region
          variableType: string
          options: [eu-west-1, us-east-1]
outputs:
  noCodeModuleId: \${bucket.id}
  versionPin: \${bucket.versionPin}
`),
};
