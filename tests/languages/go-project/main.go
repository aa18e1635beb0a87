// The no-code life of examples/no-code, on the generated Go SDK (see Pulumi.yaml).
//
// A project with tags, the seed's registry module `bucket` enabled for no-code provisioning at a pinned version
// with the regions a workspace may choose, and two workspaces made from it, one with a sensitive var. Raising the
// pin (`pulumi config set bucketVersion 1.1.0`) upgrades both.
package main

import (
	"github.com/pulumi-wos/pulumi-wos/sdks/go/wos"
	"github.com/pulumi/pulumi/sdk/v3/go/pulumi"
	"github.com/pulumi/pulumi/sdk/v3/go/pulumi/config"
)

func main() {
	pulumi.Run(func(ctx *pulumi.Context) error {
		// The version of the seeded module `bucket` that the workspaces run: 1.0.0 or 1.1.0.
		bucketVersion := config.Get(ctx, "bucketVersion")
		if bucketVersion == "" {
			bucketVersion = "1.0.0"
		}

		storage, err := wos.NewProject(ctx, "storage", &wos.ProjectArgs{
			Name:        pulumi.String("go-storage"),
			Description: pulumi.String("Buckets made by a Pulumi Go program"),
			Tags:        pulumi.StringMap{"team": pulumi.String("platform"), "language": pulumi.String("go")},
		})
		if err != nil {
			return err
		}

		bucket, err := wos.NewNoCodeModule(ctx, "bucket", &wos.NoCodeModuleArgs{
			RegistryModuleId: pulumi.String("mod-0000000000000001"),
			VersionPin:       pulumi.String(bucketVersion),
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

		assets, err := wos.NewNoCodeWorkspace(ctx, "assets", &wos.NoCodeWorkspaceArgs{
			NoCodeModuleId: bucket.ID(),
			ModuleVersion:  bucket.VersionPin,
			ProjectId:      storage.ID(),
			Name:           pulumi.String("go-assets"),
			Description:    pulumi.String("Static assets of the web shop"),
			AutoApply:      pulumi.Bool(true),
			Vars: wos.NoCodeWorkspaceVarArray{
				wos.NoCodeWorkspaceVarArgs{Key: pulumi.String("region"), Value: pulumi.String("eu-west-1"), Category: pulumi.String("infra")},
				wos.NoCodeWorkspaceVarArgs{Key: pulumi.String("size"), Value: pulumi.String("3"), Category: pulumi.String("infra"), Description: pulumi.String("Number of buckets")},
			},
			UpgradeTimeoutSeconds: pulumi.Float64(900),
		})
		if err != nil {
			return err
		}

		// The sensitive value is written in plain text: the plugin makes it secret itself.
		logs, err := wos.NewNoCodeWorkspace(ctx, "logs", &wos.NoCodeWorkspaceArgs{
			NoCodeModuleId: bucket.ID(),
			ModuleVersion:  bucket.VersionPin,
			ProjectId:      storage.ID(),
			Name:           pulumi.String("go-logs"),
			Description:    pulumi.String("Log archive"),
			Vars: wos.NoCodeWorkspaceVarArray{
				wos.NoCodeWorkspaceVarArgs{Key: pulumi.String("region"), Value: pulumi.String("us-east-1"), Category: pulumi.String("infra")},
				wos.NoCodeWorkspaceVarArgs{Key: pulumi.String("ARCHIVE_KEY"), Value: pulumi.String("go-archive-key-5c1b93"), Category: pulumi.String("env"), Sensitive: pulumi.Bool(true)},
			},
			UpgradeTimeoutSeconds: pulumi.Float64(900),
		})
		if err != nil {
			return err
		}

		ctx.Export("projectId", storage.ID())
		ctx.Export("projectTags", storage.Tags)
		ctx.Export("noCodeModuleId", bucket.ID())
		ctx.Export("versionPin", bucket.VersionPin)
		ctx.Export("assetsWorkspaceId", assets.ID())
		ctx.Export("logsWorkspaceId", logs.ID())
		return nil
	})
}
