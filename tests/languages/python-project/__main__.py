"""The no-code life of examples/no-code, on the generated SDK pulumi_wos (see Pulumi.yaml).

A project with tags, the seed's registry module `bucket` enabled for no-code provisioning at a pinned version
with the regions a workspace may choose, and two workspaces made from it, one with a sensitive var. Raising the
pin (`pulumi config set bucketVersion 1.1.0`) upgrades both.
"""
import pulumi
import pulumi_wos as wos

config = pulumi.Config()
# The version of the seeded module `bucket` that the workspaces run: 1.0.0 or 1.1.0.
bucket_version = config.get("bucketVersion") or "1.0.0"

storage = wos.Project(
    "storage",
    name="python-storage",
    description="Buckets made by a Pulumi Python program",
    tags={"team": "platform", "language": "python"},
)

bucket = wos.NoCodeModule(
    "bucket",
    registry_module_id="mod-0000000000000001",
    version_pin=bucket_version,
    enabled=True,
    variable_options=[
        wos.NoCodeModuleVariableOptionsArgs(
            variable_name="region",
            variable_type="string",
            options=["eu-west-1", "us-east-1"],
        )
    ],
)

assets = wos.NoCodeWorkspace(
    "assets",
    no_code_module_id=bucket.id,
    module_version=bucket.version_pin,
    project_id=storage.id,
    name="python-assets",
    description="Static assets of the web shop",
    auto_apply=True,
    vars=[
        wos.NoCodeWorkspaceVarArgs(key="region", value="eu-west-1", category="infra"),
        wos.NoCodeWorkspaceVarArgs(key="size", value="3", category="infra", description="Number of buckets"),
    ],
    upgrade_timeout_seconds=900,
)

# The sensitive value is written in plain text: the plugin makes it secret itself.
logs = wos.NoCodeWorkspace(
    "logs",
    no_code_module_id=bucket.id,
    module_version=bucket.version_pin,
    project_id=storage.id,
    name="python-logs",
    description="Log archive",
    vars=[
        wos.NoCodeWorkspaceVarArgs(key="region", value="us-east-1", category="infra"),
        wos.NoCodeWorkspaceVarArgs(key="ARCHIVE_KEY", value="python-archive-key-8e2d47", category="env", sensitive=True),
    ],
    upgrade_timeout_seconds=900,
)

pulumi.export("projectId", storage.id)
pulumi.export("projectTags", storage.tags)
pulumi.export("noCodeModuleId", bucket.id)
pulumi.export("versionPin", bucket.version_pin)
pulumi.export("assetsWorkspaceId", assets.id)
pulumi.export("logsWorkspaceId", logs.id)
