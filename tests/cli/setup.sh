#!/usr/bin/env bash
# Builds the Pulumi CLI that the repository's own CLI tests (tests/cli/) run: `pulumi`, the Node.js language
# host `pulumi-language-nodejs` and the dynamic-provider shim `pulumi-resource-pulumi-nodejs`, all three in
# .pulumi-cli/<version>/bin, where the CLI finds its plugins without warnings. Users install the official
# CLI; no registry reachable from these machines serves it prebuilt, so the tests build it from the Go
# module proxy. The version is the `@pulumi/pulumi` of package-lock.json. Part of `npm test`, so a fresh
# clone and CI build it themselves; a second run builds nothing.
set -euo pipefail
cd "$(dirname "$0")/../.."
root=$PWD

version=$(node -p 'require("./package-lock.json").packages["node_modules/@pulumi/pulumi"].version')
# The Node.js language host left the sdk module after 3.68 and its own module is not served by the proxy;
# the host of 3.68 speaks the same language-host protocol and runs today's @pulumi/pulumi programs.
language_host_version=3.68.0
# The CLI's own go.mod replaces atotto/clipboard with this fork; `go install pkg@version` refuses a module with
# replace directives, so a throwaway module builds it and must repeat the replace.
clipboard_fork='github.com/tgummerer/clipboard v0.0.0-20241001131231-d02d263e614e'

out=.pulumi-cli/v$version
bin=$out/bin
mkdir -p "$bin"

# Each binary is built in a throwaway module of its own and moved into place last, so an interrupted build
# leaves nothing that looks finished.
if [ ! -x "$bin/pulumi" ] || [ ! -x "$bin/pulumi-resource-pulumi-nodejs" ]; then
    echo "tests/cli/setup.sh: building the Pulumi CLI v$version from the Go module proxy (minutes on a cold Go cache)" >&2
    rm -rf "$out/cli" && mkdir -p "$out/cli"
    (
        cd "$out/cli"
        go mod init pulumi-cli-build >/dev/null 2>&1
        go mod edit -replace "github.com/atotto/clipboard=${clipboard_fork// /@}"
        go get "github.com/pulumi/pulumi/pkg/v3/cmd/pulumi@v$version" "github.com/pulumi/pulumi/sdk/v3@v$version" 2>/dev/null \
            || go get "github.com/pulumi/pulumi/pkg/v3/cmd/pulumi@v$version" "github.com/pulumi/pulumi/sdk/v3@v$version"
        # Without the version stamped in, `pulumi version` prints nothing and the Automation API refuses the CLI.
        go build -ldflags "-X github.com/pulumi/pulumi/sdk/v3/go/common/version.Version=v$version" \
            -o pulumi github.com/pulumi/pulumi/pkg/v3/cmd/pulumi
        sdk_dir=$(go list -m -f '{{.Dir}}' github.com/pulumi/pulumi/sdk/v3)
        install -m 0755 "$sdk_dir/nodejs/dist/pulumi-resource-pulumi-nodejs" "$root/$bin/pulumi-resource-pulumi-nodejs"
        mv pulumi "$root/$bin/pulumi"
    )
    rm -rf "$out/cli"
fi

if [ ! -x "$bin/pulumi-language-nodejs" ]; then
    echo "tests/cli/setup.sh: building the Node.js language host of sdk v$language_host_version" >&2
    rm -rf "$out/language-host" && mkdir -p "$out/language-host"
    (
        cd "$out/language-host"
        go mod init pulumi-language-host-build >/dev/null 2>&1
        host=github.com/pulumi/pulumi/sdk/v3/nodejs/cmd/pulumi-language-nodejs
        go get "$host@v$language_host_version" 2>/dev/null || go get "$host@v$language_host_version"
        go build -ldflags "-X github.com/pulumi/pulumi/sdk/v3/go/common/version.Version=v$language_host_version" \
            -o pulumi-language-nodejs "$host"
        mv pulumi-language-nodejs "$root/$bin/pulumi-language-nodejs"
    )
    rm -rf "$out/language-host"
fi
