/**
 * The Node test environment of mutation testing (Stryker wraps it for its per-test coverage). Three jobs:
 *
 * 1. Records the full names of each test file's tests (the describe blocks' names and the test's, joined by
 *    a space, as Stryker names them) for `coveringTestFilesSequencer.js`. Every test is in the tree once the
 *    file is collected, the ones a name pattern skips too, so any run records a file's complete list.
 *
 * 2. Gives what a file runs outside its tests to the tests of that file. Stryker counts code run outside a
 *    test (the imports of a file, its `beforeAll` starting a service and reading ids with a token) as
 *    "static" and runs every test of the project for each mutant in it; half the mutants of `server/` are
 *    reached that way. Jest loads every test file with fresh modules, so what a file runs outside its tests
 *    reaches only that file's tests: those are the tests that cover it, and running any of them runs it again.
 *
 * 3. Stops a mutant's run at its first failing test: the mutant is killed, and Jest cannot be told to bail
 *    from its API. Later tests and describe blocks (with their hooks) are skipped; later files are still
 *    loaded, but run nothing. Only in a mutant's run (never in the first, complete run that measures coverage).
 */
const { TestEnvironment } = require("jest-environment-node");
const { recordTestNames, currentRun } = require("./coveringTestFilesSequencer");

/** Full names of every test under `block`, as `prefix` plus the names on the way. */
function testNames(block, prefix) {
    const names = [];
    for (const child of block.children ?? []) {
        const name = `${prefix} ${child.name}`.trimStart();
        if (child.type === "test") names.push(name);
        else names.push(...testNames(child, name));
    }
    return names;
}

/** Whether this process runs a mutant now (Stryker sets the variable for a mutant's run only). */
function inMutantRun() {
    return Boolean(process.env.__STRYKER_ACTIVE_MUTANT__);
}

class TestNamesEnvironment extends TestEnvironment {
    #rootDir;
    #testPath;
    /** The static coverage counts when this file started (job 2). */
    #staticBefore;

    constructor(config, context) {
        super(config, context);
        this.#rootDir = config.projectConfig.rootDir;
        this.#testPath = context.testPath;
    }

    /** Stryker's instrumenter context, shared with the instrumented code; undefined outside Stryker. */
    #stryker() {
        return this.global[this.global.__strykerGlobalNamespace__ ?? "__stryker__"];
    }

    async handleTestEvent(event, state) {
        switch (event.name) {
            case "setup": {
                const coverage = this.#stryker()?.mutantCoverage;
                this.#staticBefore = coverage ? { ...coverage.static } : {};
                break;
            }
            case "run_describe_start":
                if (inMutantRun() && currentRun().failed && event.describeBlock.parent) event.describeBlock.mode = "skip";
                break;
            case "test_start":
                if (inMutantRun() && currentRun().failed) event.test.mode = "skip";
                break;
            case "test_done":
                if (inMutantRun() && event.test.errors.length > 0) currentRun().failed = true;
                break;
            case "run_finish": {
                const names = testNames(state.rootDescribeBlock, "");
                recordTestNames(this.#rootDir, this.#testPath, names);
                this.#giveStaticCoverageToTests(names);
                break;
            }
        }
    }

    /** Job 2: the static counts this file added move to each of its tests; the static counts are as before. */
    #giveStaticCoverageToTests(names) {
        const coverage = this.#stryker()?.mutantCoverage;
        if (!coverage || !coverage.static || this.#staticBefore === undefined) return;
        const before = this.#staticBefore;
        const added = [];
        for (const [id, count] of Object.entries(coverage.static)) {
            if (count > (before[id] ?? 0)) added.push(id);
        }
        if (added.length === 0 || names.length === 0) return;
        for (const name of names) {
            const perTest = (coverage.perTest[name] ??= {});
            for (const id of added) perTest[id] = (perTest[id] ?? 0) + 1;
        }
        for (const id of Object.keys(coverage.static)) {
            if (id in before) coverage.static[id] = before[id];
            else delete coverage.static[id];
        }
    }
}

module.exports = TestNamesEnvironment;
