#!/usr/bin/env bash
# Installs what the public-client compatibility test (tests/compat/publicClients.test.ts) runs: pytfe, pinned
# with its dependencies, in a virtual environment at .compat/venv, and go-tfe's pinned modules in the Go
# module cache. Part of `npm test`, so a fresh clone needs nothing else; a second run installs nothing.
set -euo pipefail
cd "$(dirname "$0")/../.."
requirements=tests/compat/pytfe/requirements.txt
stamp=.compat/venv/.requirements
if [ ! -x .compat/venv/bin/python ] || ! cmp -s "$requirements" "$stamp"; then
    python3 -m venv .compat/venv
    .compat/venv/bin/pip install --quiet --disable-pip-version-check -r "$requirements"
    cp "$requirements" "$stamp"
fi
(cd tests/compat/gotfe && go mod download)
