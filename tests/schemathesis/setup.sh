#!/usr/bin/env bash
# Installs what the API fuzzing test (tests/schemathesis/schemathesis.test.ts) runs: schemathesis, pinned with
# its dependencies, in a virtual environment at .schemathesis/venv. Part of `npm test`, so a fresh clone needs
# nothing else; a second run installs nothing.
set -euo pipefail
cd "$(dirname "$0")/../.."
requirements=tests/schemathesis/requirements.txt
stamp=.schemathesis/venv/.requirements
if [ ! -x .schemathesis/venv/bin/schemathesis ] || ! cmp -s "$requirements" "$stamp"; then
    python3 -m venv .schemathesis/venv
    .schemathesis/venv/bin/pip install --quiet --disable-pip-version-check -r "$requirements"
    cp "$requirements" "$stamp"
fi
