// Projects, tags, variables, workspaces, no-code modules and no-code workspaces of the Workspace Organization Service, with the upgrade of a no-code workspace inside `pulumi up`.
package wos
