/**
 * The test sequencer of mutation testing: for a run limited by a test name pattern (Stryker runs a mutant
 * with the pattern of the tests that cover it), only the test files that hold a matching test, by the names
 * `testNamesEnvironment.js` recorded. A file with no record, or a pattern no recorded name matches, keeps
 * every file: never fewer tests than Jest itself would run, only fewer files loaded for nothing.
 */
const { createHash } = require("node:crypto");
const fs = require("node:fs");
const path = require("node:path");
const Sequencer = require("@jest/test-sequencer").default;

const PATTERN = Symbol.for("pulumi-wos.mutation.testNamePattern");
const RUN = Symbol.for("pulumi-wos.mutation.run");

/**
 * Where the names of the test files under `rootDir` are kept: in the copy of the project Stryker runs in (its
 * sandbox, deleted after the run); `reports/mutation/` (ignored by git) when Jest runs with this configuration
 * in the project itself.
 */
function namesDirectory(rootDir) {
    return path.join(rootDir, "reports", "mutation", "test-names");
}

/** The state of the current `runCLI` of this process: whether a test failed yet (a mutant's run stops there). */
function currentRun() {
    return (globalThis[RUN] ??= { failed: false });
}

const KILLS = Symbol.for("pulumi-wos.mutation.kills");

/** Test file path -> how many mutants it has killed in this worker: the files most likely to kill the next. */
function killsByFile() {
    return (globalThis[KILLS] ??= new Map());
}

/** Counts a mutant killed by the test file at `testPath` (see `stopAfterFailureRunner.js`). */
function recordKill(testPath) {
    const kills = killsByFile();
    kills.set(testPath, (kills.get(testPath) ?? 0) + 1);
}

/** Keeps the full names of one test file's tests (one small file per test file: workers never write the same one). */
function recordTestNames(rootDir, testPath, names) {
    const directory = namesDirectory(rootDir);
    fs.mkdirSync(directory, { recursive: true });
    const file = path.join(directory, `${createHash("sha256").update(testPath).digest("hex").slice(0, 24)}.json`);
    const temporary = `${file}.${process.pid}.tmp`;
    fs.writeFileSync(temporary, JSON.stringify({ testPath, names }));
    fs.renameSync(temporary, file);
}

/** Test file path -> full names of its tests, as recorded under `rootDir`. */
function recordedTestNames(rootDir) {
    const byFile = new Map();
    const directory = namesDirectory(rootDir);
    if (!fs.existsSync(directory)) return byFile;
    for (const entry of fs.readdirSync(directory)) {
        if (!entry.endsWith(".json")) continue;
        try {
            const { testPath, names } = JSON.parse(fs.readFileSync(path.join(directory, entry), "utf8"));
            byFile.set(testPath, names);
        } catch {
            /* a record being written: that file is kept (no record) */
        }
    }
    return byFile;
}

/**
 * Makes `runCLI` of this process's Jest remember its `testNamePattern` for the sequencer (Jest hands a
 * sequencer no global configuration). `@jest/core` exports `runCLI` through a getter that reads its `cli`
 * module's export on every call, so replacing that export is enough. Idempotent.
 */
function captureTestNamePattern() {
    const core = require.resolve("@jest/core", { paths: [path.dirname(require.resolve("jest/package.json"))] });
    const cli = require(path.join(path.dirname(core), "cli", "index.js"));
    if (cli.runCLI[PATTERN]) return;
    const runCLI = cli.runCLI;
    const capturing = (argv, projects) => {
        globalThis[PATTERN] = argv?.testNamePattern || undefined;
        globalThis[RUN] = { failed: false };
        return runCLI(argv, projects);
    };
    capturing[PATTERN] = true;
    cli.runCLI = capturing;
}

class CoveringTestFilesSequencer extends Sequencer {
    sort(tests) {
        const pattern = globalThis[PATTERN];
        if (typeof pattern !== "string" || pattern === "" || tests.length === 0) return super.sort(tests);
        // As Jest matches it (jest-circus): case-insensitive.
        const matches = new RegExp(pattern, "i");
        const byFile = recordedTestNames(tests[0].context.config.rootDir);
        const kept = tests.filter((test) => {
            const names = byFile.get(test.path);
            return names === undefined || names.some((name) => matches.test(name));
        });
        return this.#quickestFirst(kept.length > 0 ? kept : tests);
    }

    /**
     * A mutant's run stops at its first failing test, so the order is the reverse of Jest's (which runs the
     * longest files first to keep its workers busy): the file that failed in the last run first (it likely
     * kills this mutant's neighbour too), then the files that killed most mutants so far (the mutants of one
     * module are mostly killed by the same few files), then the quickest, then those with no timing yet.
     */
    #quickestFirst(tests) {
        const ordered = super.sort(tests);
        const kills = killsByFile();
        const rank = (test) => (this.hasFailed(test) ? 0 : test.duration == null ? 2 : 1);
        return ordered.sort(
            (a, b) => rank(a) - rank(b) || (kills.get(b.path) ?? 0) - (kills.get(a.path) ?? 0) || (a.duration ?? 0) - (b.duration ?? 0),
        );
    }
}

module.exports = CoveringTestFilesSequencer;
module.exports.recordTestNames = recordTestNames;
module.exports.captureTestNamePattern = captureTestNamePattern;
module.exports.currentRun = currentRun;
module.exports.recordKill = recordKill;
