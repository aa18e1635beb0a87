/**
 * The example of `wos:index:getNoCodeModule` in the package schema (see `../schemaExamples.ts`).
 *
 * @module
 */
import { program, type SchemaExample } from "../schemaExamples";

/** A no-code module found by its id (here one the program enables), with its pin and variable-options sets. */
export const getNoCodeModuleExample: SchemaExample = {
    title: "A no-code module found by its id",
    typescript: program(`
import * as wos from "pulumi-wos";

const bucket = new wos.NoCodeModule("bucket", {
    organization: "acme",
    registryModuleId: "mod-0000000000000001",
    enabled: true,
});

// The id may as well come from the stack's config or another stack's output.
const found = wos.getNoCodeModuleOutput({ id: bucket.id });

export const versionPin = found.versionPin;
export const registryModuleId = found.registryModuleId;
`),
    python: program(`
import pulumi
import pulumi_wos as wos

bucket = wos.NoCodeModule(
    "bucket",
    organization="acme",
    registry_module_id="mod-0000000000000001",
    enabled=True,
)

# The id may as well come from the stack's config or another stack's output.
found = wos.get_no_code_module_output(id=bucket.id)

pulumi.export("versionPin", found.version_pin)
pulumi.export("registryModuleId", found.registry_module_id)
`),
    go: program(`
package main

import (
	"github.com/pulumi-wos/pulumi-wos/sdks/go/wos"
	"github.com/pulumi/pulumi/sdk/v3/go/pulumi"
)

func main() {
	pulumi.Run(func(ctx *pulumi.Context) error {
		bucket, err := wos.NewNoCodeModule(ctx, "bucket", &wos.NoCodeModuleArgs{
			Organization:     pulumi.String("acme"),
			RegistryModuleId: pulumi.String("mod-0000000000000001"),
			Enabled:          pulumi.Bool(true),
		})
		if err != nil {
			return err
		}
		// The id may as well come from the stack's config or another stack's output.
		found := wos.LookupNoCodeModuleOutput(ctx, wos.LookupNoCodeModuleOutputArgs{Id: bucket.ID()})
		ctx.Export("versionPin", found.VersionPin())
		ctx.Export("registryModuleId", found.RegistryModuleId())
		return nil
	})
}
`),
    yaml: program(`
resources:
  bucket:
    type: wos:index:NoCodeModule
    properties:
      organization: acme
      registryModuleId: mod-0000000000000001
      enabled: true
variables:
  # The id may as well come from the stack's config or another stack's output.
  found:
    fn::invoke:
      function: wos:index:getNoCodeModule
      arguments:
        id: \${bucket.id}
outputs:
  versionPin: \${found.versionPin}
  registryModuleId: \${found.registryModuleId}
`),
};
