#!/usr/bin/env bash
# Writes the Python and Go SDKs of the plugin pulumi-resource-wos from its schema (`wosPackageSchema` of
# dist/plugin/schema.js, so run `npm run build` first): <out>/python and <out>/go, emptied and written whole,
# then go.sum by `go mod tidy`. `npm run sdks` writes the committed sdks/; tests/languages/generatedSdks.test.ts
# writes a temporary directory and compares. Never edit what it writes: change the schema and run it again.
#
#   bash tools/sdkgen/run.sh [--schema <schema.json>] [<out>]      (default <out>: sdks)
set -euo pipefail
cd "$(dirname "$0")/../.."
schema=
if [ "${1:-}" = --schema ]; then
    schema=$(realpath "$2")
    shift 2
fi
out=${1:-sdks}
mkdir -p "$out"
out=$(realpath "$out")

generator=$(bash tools/sdkgen/build.sh)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
if [ -z "$schema" ]; then
    schema=$work/schema.json
    node -e 'process.stdout.write(JSON.stringify(require("./dist/plugin/schema").wosPackageSchema, null, 2))' >"$schema"
fi
"$generator" -schema "$schema" -python "$out/python" -go "$out/go"
# go.sum pins what the module needs; tidy also checks that the generated imports resolve.
(cd "$out/go" && go mod tidy)
