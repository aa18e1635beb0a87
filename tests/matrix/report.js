"use strict";
/**
 * The compatibility matrix's results (see run.sh beside this file). Plain JavaScript on any Node the
 * repository supports, nothing to build:
 *
 *   node report.js cell CELL_DIR RESULT_JSON AREA...   one cell's meta.env and jest reports, as one JSON file
 *   node report.js table RESULTS_DIR OUT_MD KEY=VALUE...   the markdown table of every result of the commit
 */
const fs = require("node:fs");
const path = require("node:path");

/** `KEY=VALUE` lines, as run.sh records them. */
function readMeta(file) {
    const meta = {};
    if (!fs.existsSync(file)) return meta;
    for (const line of fs.readFileSync(file, "utf8").split("\n")) {
        const at = line.indexOf("=");
        if (at > 0) meta[line.slice(0, at)] = line.slice(at + 1);
    }
    return meta;
}

const ANSI = /\u001b\[[0-9;]*m/g;

/** The first lines of a failure message, without colours or the stack's frames. */
function shorten(message, lines = 8) {
    const kept = String(message)
        .replace(ANSI, "")
        .split("\n")
        .filter((line) => !/^\s+at /.test(line))
        .map((line) => line.trimEnd());
    while (kept.length > 0 && kept[0].trim() === "") kept.shift();
    const head = kept.slice(0, lines);
    if (kept.length > lines) head.push("…");
    return head.join("\n");
}

function tail(file, lines = 25) {
    if (!file || !fs.existsSync(file)) return "";
    return fs.readFileSync(file, "utf8").replace(ANSI, "").split("\n").slice(-lines).join("\n");
}

/** One area's jest report (`--json`) with the exit code and time run.sh recorded. */
function areaResult(cellDir, area, meta) {
    const seconds = meta[`AREA_${area}_SECONDS`] === undefined ? undefined : Number(meta[`AREA_${area}_SECONDS`]);
    const exit = meta[`AREA_${area}_EXIT`] === undefined ? undefined : Number(meta[`AREA_${area}_EXIT`]);
    if (exit === undefined) return { status: "not run" };
    const reportFile = path.join(cellDir, "jest", `${area}.json`);
    const log = path.join(cellDir, "logs", `${area}.log`);
    if (!fs.existsSync(reportFile)) {
        const why = exit === 124 || exit === 137 ? "timed out" : `jest exited ${exit} without a report`;
        return { status: "fail", exit, seconds, note: why, logTail: tail(log), failures: [] };
    }
    const report = JSON.parse(fs.readFileSync(reportFile, "utf8"));
    const copy = path.join(cellDir, "repo") + path.sep;
    const failures = [];
    for (const file of report.testResults) {
        const name = file.name.startsWith(copy) ? file.name.slice(copy.length) : file.name;
        const failed = file.assertionResults.filter((test) => test.status === "failed");
        for (const test of failed) {
            failures.push({ file: name, test: test.fullName, message: shorten(test.failureMessages.join("\n")) });
        }
        if (failed.length === 0 && file.status === "failed") {
            failures.push({ file: name, test: "(the file)", message: shorten(file.message || (file.testExecError && file.testExecError.message) || "") });
        }
    }
    const passed = report.success && exit === 0;
    return {
        status: passed ? "pass" : "fail",
        exit,
        seconds,
        files: report.numTotalTestSuites,
        passed: report.numPassedTests,
        failed: report.numFailedTests,
        skipped: report.numPendingTests + (report.numTodoTests || 0),
        total: report.numTotalTests,
        note: !passed && report.numFailedTests === 0 ? (report.numFailedTestSuites > 0 ? "a test file failed to run" : `jest exited ${exit}`) : undefined,
        failures,
    };
}

function cell([cellDir, out, ...areas]) {
    const meta = readMeta(path.join(cellDir, "meta.env"));
    const result = {
        node: meta.NODE_VERSION,
        pulumi: meta.PULUMI_VERSION,
        commit: meta.COMMIT,
        started: meta.STARTED,
        nodeActual: meta.NODE_ACTUAL,
        pulumiActual: meta.PULUMI_ACTUAL,
        setupSeconds: meta.SETUP_SECONDS === undefined ? undefined : Number(meta.SETUP_SECONDS),
        setupFailed: meta.SETUP_FAILED,
        setupLogTail: meta.SETUP_FAILED ? tail(meta.SETUP_LOG) : undefined,
        lockRestored: meta.LOCK_RESTORED === "1",
        areas: {},
    };
    for (const area of areas) result.areas[area] = areaResult(cellDir, area, meta);
    fs.mkdirSync(path.dirname(out), { recursive: true });
    fs.writeFileSync(out, JSON.stringify(result, null, 2) + "\n");
}

/** `1m 05s`. */
function duration(seconds) {
    if (seconds === undefined || Number.isNaN(seconds)) return "–";
    const whole = Math.round(seconds);
    const minutes = Math.floor(whole / 60);
    return minutes > 0 ? `${minutes}m ${String(whole % 60).padStart(2, "0")}s` : `${whole}s`;
}

function compareVersions(a, b) {
    const pa = String(a).split(".").map(Number);
    const pb = String(b).split(".").map(Number);
    for (let i = 0; i < Math.max(pa.length, pb.length); i++) {
        const d = (pa[i] || 0) - (pb[i] || 0);
        if (d !== 0) return d;
    }
    return 0;
}

const AREA_ORDER = ["engine", "cli", "kit", "install"];
const AREA_PATHS = {
    engine: "tests/engine",
    cli: "tests/cli",
    kit: "tests/testing/example.test.ts",
    install: "tests/package/leanInstall.test.ts, tests/package/serverPackage.test.ts",
};

/** One row per cell, one column per area: `pass 35/35, 5m 01s`. */
function grid(results, label) {
    const rows = [
        `| Node.js | @pulumi/pulumi | ${AREA_ORDER.join(" | ")} | set-up | cell | commit, started |`,
        `| --- | --- | ${AREA_ORDER.map(() => "---").join(" | ")} | ---: | ---: | --- |`,
    ];
    for (const result of results) {
        let total = result.setupSeconds || 0;
        const cells = AREA_ORDER.map((area) => {
            const outcome = result.areas[area];
            if (!outcome || outcome.status === "not run") return result.setupFailed && outcome ? "not run (set-up failed)" : "–";
            total += outcome.seconds || 0;
            const counts = outcome.total === undefined ? "" : ` ${outcome.passed}/${outcome.total}`;
            return `${outcome.status === "pass" ? "pass" : "**fail**"}${counts}, ${duration(outcome.seconds)}`;
        });
        rows.push(
            `| ${result.node} | ${label(result.pulumi)} | ${cells.join(" | ")} | ${duration(result.setupSeconds)} | ${duration(total)} | \`${String(result.commit).slice(0, 7)}\`, ${result.started} |`,
        );
    }
    return rows;
}

function table([resultsDir, out, ...pairs]) {
    const info = Object.fromEntries(pairs.map((pair) => [pair.slice(0, pair.indexOf("=")), pair.slice(pair.indexOf("=") + 1)]));
    const results = fs
        .readdirSync(resultsDir)
        .filter((name) => name.endsWith(".json"))
        .map((name) => JSON.parse(fs.readFileSync(path.join(resultsDir, name), "utf8")))
        .sort((a, b) => compareVersions(a.node, b.node) || compareVersions(a.pulumi, b.pulumi));
    const others = [...new Set(results.map((result) => result.commit))].filter((commit) => commit !== info.commit);
    const label = (version) =>
        version === info.oldest ? `${version} (oldest of \`${info.peer}\`)` : version === info.newest ? `${version} (newest)` : version;
    const lines = [
        "# Compatibility matrix: the last run",
        "",
        "Written by `npm run matrix` (`tests/matrix/run.sh`), which says how a cell is made. Each cell is a copy of",
        `the commit's tracked files with its own Node.js first on \`PATH\` and its own \`@pulumi/pulumi\`; the \`pulumi\` CLI`,
        `of every cell is v${info.cli}, the one \`tests/cli/setup.sh\` builds from the lock file.`,
        "",
        `- commit of this run: \`${info.commit}\` (${info.source === "worktree" ? "the working tree's tracked files" : "`git archive`"})${
            others.length > 0 ? `; cells of earlier runs (kept in .matrix/results/) were made at ${others.map((c) => `\`${String(c).slice(0, 7)}\``).join(", ")}: each cell's commit is in the first table` : ""
        }`,
        `- table written: ${new Date().toISOString().replace(/\.\d+Z$/, "Z")}, on a machine with ${info.cores} cores`,
        `- \`engines.node\`: \`${info.engines}\`; peer range of \`@pulumi/pulumi\`: \`${info.peer}\``,
        `- areas: ${AREA_ORDER.map((area) => `${area} = \`${AREA_PATHS[area]}\``).join("; ")}`,
        "",
        ...grid(results, label),
        "",
        "In full:",
        "",
        "| Node.js | @pulumi/pulumi | area | result | passed | failed | skipped | time |",
        "| --- | --- | --- | --- | ---: | ---: | ---: | ---: |",
    ];
    const failures = [];
    for (const result of results) {
        const cellName = `Node ${result.node} x @pulumi/pulumi ${result.pulumi}`;
        lines.push(
            `| ${result.node} | ${label(result.pulumi)} | set-up (npm ci, @pulumi/pulumi, build) | ${result.setupFailed ? `**fail**: ${result.setupFailed}` : "done"} | | | | ${duration(result.setupSeconds)} |`,
        );
        if (result.setupFailed) failures.push({ cell: cellName, area: "set-up", note: result.setupFailed, logTail: result.setupLogTail, failures: [] });
        let total = result.setupSeconds || 0;
        for (const area of AREA_ORDER) {
            const outcome = result.areas[area];
            if (!outcome) continue;
            if (outcome.status === "not run") {
                lines.push(`| ${result.node} | ${label(result.pulumi)} | ${area} | not run | | | | |`);
                continue;
            }
            total += outcome.seconds || 0;
            const status = outcome.status === "pass" ? "pass" : `**fail**${outcome.note ? ` (${outcome.note})` : ""}`;
            const count = (n) => (n === undefined ? "" : String(n));
            lines.push(
                `| ${result.node} | ${label(result.pulumi)} | ${area} | ${status} | ${count(outcome.passed)} | ${count(outcome.failed)} | ${count(outcome.skipped)} | ${duration(outcome.seconds)} |`,
            );
            if (outcome.status !== "pass") failures.push({ cell: cellName, area, ...outcome });
        }
        lines.push(`| ${result.node} | ${label(result.pulumi)} | **cell** | | | | | **${duration(total)}** |`);
    }
    if (results.length === 0) lines.push("| – | – | – | no result for this commit | | | | |");
    lines.push("");
    if (failures.length > 0) {
        lines.push("## Failures", "");
        for (const failure of failures) {
            lines.push(`### ${failure.cell}: ${failure.area}`, "");
            if (failure.note) lines.push(failure.note, "");
            for (const test of failure.failures) {
                lines.push(`- \`${test.file}\`: ${test.test}`, "", "  ```text", ...test.message.split("\n").map((line) => `  ${line}`), "  ```", "");
            }
            if (failure.failures.length === 0 && failure.logTail) {
                lines.push("```text", failure.logTail, "```", "");
            }
        }
    }
    fs.writeFileSync(out, lines.join("\n"));
}

const [command, ...rest] = process.argv.slice(2);
if (command === "cell") cell(rest);
else if (command === "table") table(rest);
else {
    console.error("usage: node report.js cell CELL_DIR RESULT_JSON AREA... | table RESULTS_DIR OUT_MD KEY=VALUE...");
    process.exit(2);
}
