#!/usr/bin/env bash
# Builds tools/sdkgen (the SDK generator that npm run sdks runs) into .pulumi-cli/sdkgen/<hash>/, the hash being
# that of its sources, go.mod and go.sum: a changed generator builds anew, an unchanged one builds nothing.
# Prints the binary's path. tests/cli/setup.sh (part of npm test) runs it with the other Go builds.
set -euo pipefail
cd "$(dirname "$0")/../.."
root=$PWD
hash=$(cat tools/sdkgen/go.mod tools/sdkgen/go.sum tools/sdkgen/*.go | sha256sum | cut -c1-16)
dir=.pulumi-cli/sdkgen/$hash
if [ ! -x "$dir/pulumi-wos-sdkgen" ]; then
    echo "tools/sdkgen/build.sh: building the SDK generator (minutes on a cold Go cache)" >&2
    rm -rf "$dir.tmp" && mkdir -p "$dir.tmp"
    (cd tools/sdkgen && go build -o "$root/$dir.tmp/pulumi-wos-sdkgen" .)
    # Moved into place last, so an interrupted build leaves nothing that looks finished; older builds go.
    find .pulumi-cli/sdkgen -mindepth 1 -maxdepth 1 ! -name "$hash.tmp" -exec rm -rf {} +
    mv "$dir.tmp" "$dir"
fi
echo "$root/$dir/pulumi-wos-sdkgen"
