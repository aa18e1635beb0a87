#!/usr/bin/env bash
# Builds the Pulumi CLI that the repository's own CLI tests (tests/cli/, tests/languages/) run, all in
# .pulumi-cli/v<version>/bin, where the CLI finds its language hosts and plugins without warnings:
# - `pulumi`, the Node.js language host `pulumi-language-nodejs` and the dynamic-provider shim
#   `pulumi-resource-pulumi-nodejs` (the TypeScript programs of tests/cli/);
# - the YAML language host `pulumi-language-yaml`, the Python one `pulumi-language-python` with its
#   `pulumi-language-python-exec` script, and the Go one `pulumi-language-go` (the YAML, Python and Go programs of
#   tests/languages/, which use the native plugin `pulumi-resource-wos` through the generated SDKs);
# - a Python virtual environment .pulumi-cli/v<version>/python with `pulumi` from PyPI at the CLI's version (what
#   a Python program imports; the SDK of sdks/python is installed from the work tree by the tests);
# - tools/sdkgen (tools/sdkgen/build.sh), which writes sdks/python and sdks/go from the plugin's schema.
# Users install the official CLI and plugins; no registry reachable from these machines serves them prebuilt, so
# the tests build them from the Go module proxy. The version is the `@pulumi/pulumi` of package-lock.json. Part
# of `npm test`, so a fresh clone and CI build it themselves; a second run builds nothing.
# Measured cold (empty Go module and build caches, no pip cache) on the 2-core machine while a mutation run kept
# both cores busy (load 12 to 15): 34 minutes in all, 794 s of CPU. The CLI 28.5 min, the Node.js host 1.9, the
# YAML host 2.7, the Python host 0.2 (it shares the Node.js host's sdk), the Python environment 0.5, tools/sdkgen
# 0.3 (it shares the CLI's build cache). The Go host, added later, took 12 s on a warm cache. A second run builds
# nothing and takes under a second.
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

# A language host: `go get` of its package at `version` in a throwaway module, built with the version stamped in
# (`version_variable`), then moved into $bin. Prints `what` first, as a build can take minutes on a cold cache.
build_host() {
    local binary=$1 package=$2 version=$3 version_variable=$4 what=$5
    echo "tests/cli/setup.sh: building $what" >&2
    rm -rf "$out/$binary-build" && mkdir -p "$out/$binary-build"
    (
        cd "$out/$binary-build"
        go mod init "$binary-build" >/dev/null 2>&1
        go get "$package@v$version" 2>/dev/null || go get "$package@v$version"
        go build -ldflags "-X $version_variable=v$version" -o "$binary" "$package"
        mv "$binary" "$root/$bin/$binary"
    )
    rm -rf "$out/$binary-build"
}
sdk_version_variable=github.com/pulumi/pulumi/sdk/v3/go/common/version.Version

if [ ! -x "$bin/pulumi-language-nodejs" ]; then
    build_host pulumi-language-nodejs github.com/pulumi/pulumi/sdk/v3/nodejs/cmd/pulumi-language-nodejs \
        "$language_host_version" "$sdk_version_variable" "the Node.js language host of sdk v$language_host_version"
fi

# The YAML host is a module of its own, served by the proxy at its own versions. v1.25.0 needs no replace: it is
# built on pkg/v3 v3.206, before the CLI took the clipboard fork.
yaml_host_version=1.25.0
if [ ! -x "$bin/pulumi-language-yaml" ]; then
    build_host pulumi-language-yaml github.com/pulumi/pulumi-yaml/cmd/pulumi-language-yaml \
        "$yaml_host_version" github.com/pulumi/pulumi-yaml/pkg/version.Version "the YAML language host v$yaml_host_version"
fi

# The Python host, like the Node.js one, left the sdk module after 3.68; it runs a program through the
# `pulumi-language-python-exec` script, which it looks for beside its own binary: taken from the sdk module that
# the build put in the module cache. (The module's other Python scripts are the dynamic-provider and policy shims
# and Windows wrappers, which these tests do not use.)
if [ ! -x "$bin/pulumi-language-python" ] || [ ! -x "$bin/pulumi-language-python-exec" ]; then
    build_host pulumi-language-python github.com/pulumi/pulumi/sdk/v3/python/cmd/pulumi-language-python \
        "$language_host_version" "$sdk_version_variable" "the Python language host of sdk v$language_host_version"
    install -m 0755 "$(go env GOMODCACHE)/github.com/pulumi/pulumi/sdk/v3@v$language_host_version/python/cmd/pulumi-language-python-exec" \
        "$bin/pulumi-language-python-exec"
fi

# The Go host was a package of the sdk module up to 3.66 (it has a module of its own since, which the proxy does not
# serve); it builds the program with the `go` on PATH and runs it.
go_host_version=3.66.0
if [ ! -x "$bin/pulumi-language-go" ]; then
    build_host pulumi-language-go github.com/pulumi/pulumi/sdk/v3/go/pulumi-language-go \
        "$go_host_version" "$sdk_version_variable" "the Go language host of sdk v$go_host_version"
fi

# The Python programs' environment: `pulumi` at the CLI's version, what the generated SDK (sdks/python) requires
# beyond it (parver, semver), and setuptools for installing that SDK without build isolation: the tests install
# it from the work tree without asking a registry.
# The 3.68 host finds this `pulumi` only when the environment's bin comes first on PATH (its `virtualenv`
# option alone did not), which is how the tests run it. The stamp, written last, names what is installed.
venv=$out/python
python_requirements="pulumi==$version parver==1.0.1.post0 setuptools==80.9.0 wheel==0.45.1"
if [ ! -x "$venv/bin/python" ] || [ "$(cat "$venv/.requirements" 2>/dev/null)" != "$python_requirements" ]; then
    echo "tests/cli/setup.sh: installing $python_requirements into $venv" >&2
    rm -rf "$venv"
    python3 -m venv "$venv"
    # shellcheck disable=SC2086 # the requirements are words
    "$venv/bin/python" -m pip install --quiet --disable-pip-version-check $python_requirements
    echo "$python_requirements" >"$venv/.requirements.tmp"
    mv "$venv/.requirements.tmp" "$venv/.requirements"
fi

bash tools/sdkgen/build.sh >/dev/null

# actionlint, which checks the release workflow (.github/workflows/release.yml) in tests/package/releaseWorkflow.test.ts:
# that workflow runs only on GitHub, so the suite lints it instead.
actionlint_version=1.7.12
if [ ! -x "$out/tools/actionlint-$actionlint_version" ]; then
    echo "tests/cli/setup.sh: building actionlint v$actionlint_version" >&2
    mkdir -p "$out/tools/gobin.tmp"
    GOBIN="$PWD/$out/tools/gobin.tmp" go install "github.com/rhysd/actionlint/cmd/actionlint@v$actionlint_version"
    mv "$out/tools/gobin.tmp/actionlint" "$out/tools/actionlint-$actionlint_version"
    rm -rf "$out/tools/gobin.tmp"
fi
