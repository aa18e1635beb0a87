/**
 * The Jest test runner of mutation testing: Jest's own, except that in a mutant's run the test files after the
 * first failing test are not loaded at all. The mutant is killed by then, and loading a file costs about half
 * a second (its imports, often a whole service) even when `testNamesEnvironment.js` skips every test in it;
 * a mutant of a rule that every test uses would otherwise load a hundred files for nothing. Jest's own `bail`
 * cannot do this: it ends the process, and Stryker's worker with it.
 *
 * A file left out is reported with one pending test (Jest takes a file with no test for a broken file, and
 * Stryker would count the mutant as a runtime error instead of killed).
 */
const DefaultRunner = require("jest-runner").default;
const { createEmptyTestResult } = require("@jest/test-result");
const { currentRun, recordKill } = require("./coveringTestFilesSequencer");

/** Whether this process runs a mutant now (Stryker sets the variable for a mutant's run only). */
function inMutantRun() {
    return Boolean(process.env.__STRYKER_ACTIVE_MUTANT__);
}

/** The result of a test file that was not loaded: one pending test, so Jest and Stryker take it as skipped. */
function notLoadedResult(testPath) {
    const now = Date.now();
    return {
        ...createEmptyTestResult(),
        testFilePath: testPath,
        skipped: true,
        numPendingTests: 1,
        perfStats: { start: now, end: now, runtime: 0, slow: false, loadTestEnvironmentStart: now, loadTestEnvironmentEnd: now, setupAfterEnvStart: now, setupAfterEnvEnd: now, setupFilesStart: now, setupFilesEnd: now },
        testResults: [
            {
                ancestorTitles: [],
                duration: 0,
                failureDetails: [],
                failureMessages: [],
                fullName: "(not loaded: the mutant was killed by an earlier test)",
                location: null,
                numPassingAsserts: 0,
                status: "pending",
                title: "(not loaded: the mutant was killed by an earlier test)",
            },
        ],
    };
}

class StopAfterFailureRunner extends DefaultRunner {
    /** Event name -> listeners, kept to report the files that are not loaded (Jest's emitter is private). */
    #listeners = new Map();

    on(eventName, listener) {
        const listeners = this.#listeners.get(eventName) ?? [];
        listeners.push(listener);
        this.#listeners.set(eventName, listeners);
        return super.on(eventName, listener);
    }

    async #emit(eventName, args) {
        for (const listener of this.#listeners.get(eventName) ?? []) await listener(args);
    }

    async runTests(tests, watcher, options) {
        if (!options.serial || !inMutantRun()) return super.runTests(tests, watcher, options);
        for (const test of tests) {
            if (watcher.isInterrupted()) return;
            if (currentRun().failed) {
                await this.#emit("test-file-start", [test]);
                await this.#emit("test-file-success", [test, notLoadedResult(test.path)]);
            } else {
                await super.runTests([test], watcher, options);
                if (currentRun().failed) recordKill(test.path);
            }
        }
    }
}

module.exports = StopAfterFailureRunner;
