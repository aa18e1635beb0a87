/**
 * Shared set-up of the testing kit's tests: `pulumi-wos/testing` and `pulumi-wos` are loaded from the packed
 * package (the published files, resolved through its `exports`, as in a user's project, with the packed
 * `@pulumi-wos/server` installed beside it, as the README tells a user to), and the example
 * `examples/testing/` is copied into a temporary program directory beside the unpacked package, with the
 * development tools its `package.json` lists linked from the repository, and run there with jest the way its
 * user runs `npm test`.
 */
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import * as ts from "typescript";
import { childEnv, packedProgram, REPO_ROOT, run, type PackedProgram } from "../support/packedPackage";

export type TestingModule = typeof import("../../testing");
export type ResourcesModule = typeof import("../../provider");
export type SdkModule = typeof import("../../sdk");

/** The packed program directory, the kit and the resources as a user's project loads them. */
export interface PackedKit {
    program: PackedProgram;
    testing: TestingModule;
    wos: ResourcesModule;
    sdk: SdkModule;
}

/** Loads `id` as a module of the packed program would (`exports` of the unpacked package). */
export function requirePacked<T>(program: PackedProgram, id: string): T {
    return require(require.resolve(id, { paths: [program.dir] })) as T;
}

/** Packs the package (cached) and loads the kit, the resources and the client from it. */
export async function loadPackedKit(): Promise<PackedKit> {
    const program = await packedProgram();
    return {
        program,
        testing: requirePacked<TestingModule>(program, "pulumi-wos/testing"),
        wos: requirePacked<ResourcesModule>(program, "pulumi-wos"),
        sdk: requirePacked<SdkModule>(program, "pulumi-wos/sdk"),
    };
}

/** The example's folder in the repository. */
export const EXAMPLE_DIR = path.join(REPO_ROOT, "examples", "testing");

/** The example's files, all copied as they are. */
export const EXAMPLE_FILES = ["index.ts", "index.test.ts", "refused.test.ts", "automation.ts", "tsconfig.json", "jest.config.js", "package.json", "Pulumi.yaml"];

/**
 * The example's development dependencies (its `package.json`), linked from the repository's `node_modules`;
 * `jest` itself runs from the repository.
 */
const DEV_TOOLS = ["ts-jest", "typescript", "@types/jest", "@types/node"];

/**
 * Copies the example into a new directory of the packed program (so `pulumi-wos` resolves to the unpacked
 * package), with `edit` applied to its `index.ts`, and links its development tools. Answers the directory.
 */
export function copyExample(program: PackedProgram, edit: (source: string) => string = (source) => source): string {
    const dir = fs.mkdtempSync(path.join(program.dir, "testing-example-"));
    for (const file of EXAMPLE_FILES) fs.copyFileSync(path.join(EXAMPLE_DIR, file), path.join(dir, file));
    const index = path.join(dir, "index.ts");
    fs.writeFileSync(index, edit(fs.readFileSync(index, "utf8")));
    for (const tool of DEV_TOOLS) {
        const link = path.join(dir, "node_modules", tool);
        fs.mkdirSync(path.dirname(link), { recursive: true });
        fs.symlinkSync(path.join(REPO_ROOT, "node_modules", tool), link, "dir");
    }
    return dir;
}

/** Type-checks a project with its own `tsconfig.json`; answers the diagnostics as `file:line: message`. */
export function typeCheck(dir: string): string[] {
    const configPath = path.join(dir, "tsconfig.json");
    const parsed = ts.getParsedCommandLineOfConfigFile(configPath, { noEmit: true }, {
        ...ts.sys,
        onUnRecoverableConfigFileDiagnostic: (diagnostic) => {
            throw new Error(ts.flattenDiagnosticMessageText(diagnostic.messageText, "\n"));
        },
    });
    if (!parsed) throw new Error(`cannot read ${configPath}`);
    if (parsed.errors.length > 0) return parsed.errors.map((diagnostic) => ts.flattenDiagnosticMessageText(diagnostic.messageText, "\n"));
    const compiled = ts.createProgram({ rootNames: parsed.fileNames, options: parsed.options });
    return ts.getPreEmitDiagnostics(compiled).map((diagnostic) => {
        const where = diagnostic.file
            ? `${path.relative(dir, diagnostic.file.fileName)}:${diagnostic.file.getLineAndCharacterOfPosition(diagnostic.start ?? 0).line + 1}: `
            : "";
        return where + ts.flattenDiagnosticMessageText(diagnostic.messageText, "\n");
    });
}

/** One test of a jest run, from `--json`. */
export interface JestTestResult {
    title: string;
    status: "passed" | "failed" | "pending" | "skipped" | "todo" | "disabled";
    failureMessages: string[];
}

/** What {@link runJest} answers. */
export interface JestRun {
    /** Whether every test passed. */
    success: boolean;
    tests: JestTestResult[];
    /** Failures of whole files (a `beforeAll` that threw shows here as well as on each test). */
    suiteMessages: string[];
    /** Everything jest printed. */
    output: string;
}

/**
 * Runs jest in `dir` with the project's own `jest.config.js`, as `npm test` would there, in a child process
 * with no credentials from this one's environment. Resolves whether the tests pass or fail.
 */
export async function runJest(dir: string): Promise<JestRun> {
    const resultFile = path.join(os.tmpdir(), `wos-testing-jest-${process.pid}-${Date.now()}.json`);
    const jest = path.join(REPO_ROOT, "node_modules", "jest", "bin", "jest.js");
    let output: string;
    try {
        const result = await run(process.execPath, [jest, "--ci", "--json", "--outputFile", resultFile, "--runInBand"], {
            cwd: dir,
            what: `jest in ${dir}`,
            env: childEnv(),
            timeoutMs: 180_000,
        });
        output = result.stdout + result.stderr;
    } catch (error) {
        // A failing test run exits non-zero; its JSON report is what tells what failed.
        output = (error as Error).message;
        if (!fs.existsSync(resultFile)) throw error;
    }
    try {
        const report = JSON.parse(fs.readFileSync(resultFile, "utf8")) as {
            success: boolean;
            testResults: { message: string; assertionResults: JestTestResult[] }[];
        };
        return {
            success: report.success,
            tests: report.testResults.flatMap((file) =>
                file.assertionResults.map(({ title, status, failureMessages }) => ({ title, status, failureMessages })),
            ),
            suiteMessages: report.testResults.map((file) => file.message).filter((message) => message !== ""),
            output,
        };
    } finally {
        fs.rmSync(resultFile, { force: true });
    }
}
