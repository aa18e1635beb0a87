// @ts-check
/**
 * Mutation testing (issue 8): `npm run mutation` plants small bugs (mutants) in the modules where a silent
 * bug costs most and runs the tests that cover each one; a mutant no test notices "survives". The report
 * goes to reports/mutation/ (HTML and JSON). Not part of `npm test`: it takes hours on two cores. A subset:
 * `npm run mutation -- --mutate server/auth.ts,sdk/retry.ts`. Scores per module are in docs/contributing.md.
 *
 * A mutant that no behaviour can tell apart from the code is marked where it is made, with
 * `// Stryker disable next-line <mutator>: <why it is equivalent>`.
 *
 * @type {import('@stryker-mutator/api/core').PartialStrykerOptions}
 */
export default {
    mutate: [
        "sdk/model/**/*.ts",
        "server/auth.ts",
        "server/access.ts",
        "server/routes/**/*.ts",
        // What the routes share and the statements they ran themselves before issue 20 gave them rooms.
        "server/workspaceRules.ts",
        "server/tagFilters.ts",
        "server/projectListQuery.ts",
        "server/records/**/*.ts",
        "sdk/retry.ts",
        "sdk/transport.ts",
        "sdk/errors.ts",
        "provider/handlers/**/*.ts",
        // The native plugin's pure pieces: what its detailed diff names, and a refresh's inputs. The rest of
        // plugin/ runs in the plugin's own process, where no test of this process reaches it.
        "plugin/itemDiff.ts",
        "plugin/programShape.ts",
        "!**/index.ts",
    ],
    testRunner: "jest",
    jest: {
        projectType: "custom",
        // In-process tests only, and per mutant only the files of the tests that cover it (see the file).
        configFile: "stryker/jest.config.js",
        enableFindRelatedTests: true,
    },
    // Each mutant runs only the tests that executed its code in the first, complete run.
    coverageAnalysis: "perTest",
    // Mutants that do not compile are dropped before any test runs (they are not bugs a user could meet).
    checkers: ["typescript"],
    tsconfigFile: "stryker/tsconfig.json",
    typescriptChecker: { prioritizePerformanceOverAccuracy: true },
    // The instrumented sources are transpiled by ts-jest without type checks (isolatedModules).
    disableTypeChecks: "{sdk,server,provider,plugin}/**/*.ts",
    // Stryker gives half of this to type-checking processes, which sit idle once the mutants are checked:
    // 4 makes two test runners, one a core, where 2 made one runner and left a core idle.
    concurrency: 4,
    // Tests that hold answers on purpose (lost answers, retries) take seconds: room before a mutant is a timeout.
    timeoutMS: 20000,
    // The first, complete run of every related test file: minutes on two busy cores.
    dryRunTimeoutMinutes: 60,
    timeoutFactor: 2,
    reporters: ["html", "json", "clear-text", "progress"],
    htmlReporter: { fileName: "reports/mutation/index.html" },
    jsonReporter: { fileName: "reports/mutation/mutation.json" },
    clearTextReporter: { allowColor: false, logTests: false, reportMutants: true, reportScoreTable: true },
    // A later run tests again only the mutants whose code or covering tests changed.
    incremental: true,
    incrementalFile: "reports/mutation/stryker-incremental.json",
    tempDirName: ".stryker-tmp",
    cleanTempDir: true,
    // What the build, the tests and the tools make (all git-ignored): not copied into the sandbox. `.matrix/cells`
    // is a link to a directory outside the repository, which the sandbox copy cannot follow.
    ignorePatterns: [
        "dist",
        "reports/mutation",
        ".stryker-tmp*",
        ".compat",
        ".wos",
        "coverage",
        "examples/*/node_modules",
        ".matrix",
        ".pulumi-cli",
        "api-reference",
        // Python virtual environments (the release's tools, the fuzzer's): their lib64 links to lib.
        ".release",
        ".schemathesis",
    ],
    thresholds: { high: 90, low: 80, break: null },
};
