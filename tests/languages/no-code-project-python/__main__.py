"""The component wos.NoCodeProject on the generated SDK pulumi_wos (see Pulumi.yaml): the same program as
../no-code-project-yaml, in Python. Raising the pin (`pulumi config set bucketVersion 1.1.0`) upgrades both
workspaces.
"""
import pulumi
import pulumi_wos as wos

config = pulumi.Config()
# The version of the seeded module `bucket` that the workspaces run: 1.0.0 or 1.1.0.
bucket_version = config.get("bucketVersion") or "1.0.0"

catalog = wos.NoCodeProject(
    "catalog",
    organization="acme",
    project=wos.NoCodeProjectProjectArgs(
        name="Python Catalog",
        description="Made by a Pulumi Python program through Construct",
        tags={"team": "platform", "language": "python"},
    ),
    module=wos.NoCodeProjectModuleArgs(
        registry_module_id="mod-0000000000000001",
        version_pin=bucket_version,
        variable_options=[
            wos.NoCodeModuleVariableOptionsArgs(variable_name="region", variable_type="string", options=["eu-west-1", "us-east-1"])
        ],
    ),
    vars=[
        wos.NoCodeWorkspaceVarArgs(key="region", value="eu-west-1", category="infra"),
        wos.NoCodeWorkspaceVarArgs(key="size", value="1", category="infra"),
    ],
    source_name="python catalog",
    upgrade_timeout_seconds=900,
    workspaces={
        "python-assets": wos.NoCodeProjectWorkspaceArgs(
            description="Assets, one bucket size of their own",
            auto_apply=True,
            vars=[wos.NoCodeWorkspaceVarArgs(key="size", value="3", category="infra")],
        ),
        "python-logs": wos.NoCodeProjectWorkspaceArgs(
            vars=[
                wos.NoCodeWorkspaceVarArgs(
                    key="ARCHIVE_KEY", value=pulumi.Output.secret("python-archive-key-3c9b"), category="env", sensitive=True
                )
            ],
        ),
    },
)

pulumi.export("projectId", catalog.project_id)
pulumi.export("noCodeModuleId", catalog.no_code_module_id)
pulumi.export("workspaceIds", catalog.workspace_ids)
pulumi.export("moduleVersions", catalog.module_versions)
pulumi.export("upgradesAvailable", catalog.upgrades_available)
