"""A project with tags, on the generated SDK pulumi_wos (see Pulumi.yaml)."""
import pulumi
import pulumi_wos as wos

project = wos.Project(
    "platform",
    name="python-platform",
    description="Made by a Pulumi Python program",
    tags={"team": "platform", "language": "python"},
)

pulumi.export("projectId", project.id)
pulumi.export("projectTags", project.tags)
