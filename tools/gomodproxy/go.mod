module github.com/pulumi-wos/pulumi-wos/tools/gomodproxy

go 1.25.0

require golang.org/x/mod v0.36.0
