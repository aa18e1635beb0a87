/**
 * The Jest configuration of mutation testing (`npm run mutation`, see `stryker.config.mjs`): the project's
 * own (`jest.config.js`), limited to the tests that run the code in this process (a mutant lives only in
 * Stryker's instrumented copy of the sources; a test that runs `dist/` or a child process cannot see it),
 * plus three pieces that make a mutant cost the few test files that cover it instead of all of them:
 *
 * - `testNamesEnvironment.js` records, for each test file, the full names of its tests (during Stryker's
 *   first, complete run);
 * - `coveringTestFilesSequencer.js` keeps, for each mutant, only the files holding a test whose name
 *   matches the pattern Stryker asks Jest for (the tests that cover the mutant, from its per-test coverage).
 *   Jest would otherwise load every related test file (about half a second each) to find no test to run;
 * - `stopAfterFailureRunner.js` loads no further file once a test failed (the mutant is killed).
 *
 * Jest hands a sequencer no `testNamePattern`; {@link captureTestNamePattern} passes it over from `runCLI`.
 * This file is loaded in each Stryker worker before its first Jest run, so that is where it is installed.
 *
 * @type {import('jest').Config}
 */
const path = require("node:path");
const base = require("../jest.config");
const { captureTestNamePattern } = require("./coveringTestFilesSequencer");

captureTestNamePattern();

const ROOT = path.join(__dirname, "..");

module.exports = {
    ...base,
    rootDir: ROOT,
    // The sources are roots too: `--findRelatedTests` follows imports only through files under a root.
    roots: ["<rootDir>/tests", "<rootDir>/sdk", "<rootDir>/server", "<rootDir>/provider", "<rootDir>/plugin"],
    // Of tests/plugin/ only the in-process tests of the plugin's pure pieces: the others drive its process.
    testMatch: ["<rootDir>/tests/{server,sdk,provider}/**/*.test.ts", "<rootDir>/tests/plugin/itemDiff.test.ts"],
    testPathIgnorePatterns: [
        "/node_modules/",
        // The command line and its signals: `dist/server/main.js` in a child process.
        "<rootDir>/tests/server/cli\\.test\\.ts$",
        "<rootDir>/tests/server/cliUsage\\.test\\.ts$",
        "<rootDir>/tests/server/connections\\.test\\.ts$",
        "<rootDir>/tests/server/secretsAtRest\\.test\\.ts$",
        // `dist/sdk` in a child process with proxy variables.
        "<rootDir>/tests/sdk/proxy\\.test\\.ts$",
        // The providers' serialized shells, which `require` the handlers from `pulumi-wos/dist`.
        "<rootDir>/tests/provider/shell\\.test\\.ts$",
        "<rootDir>/tests/provider/resources\\.test\\.ts$",
    ],
    // An absolute path: Stryker loads the environment itself (wrapped for its per-test coverage).
    testEnvironment: path.join(__dirname, "testNamesEnvironment.js"),
    testSequencer: path.join(__dirname, "coveringTestFilesSequencer.js"),
    // In a mutant's run, the files after its first failing test are not loaded (see the file).
    runner: path.join(__dirname, "stopAfterFailureRunner.js"),
    // One Jest per Stryker worker, and `concurrency` workers: no further workers of Jest's own.
    maxWorkers: 1,
};
