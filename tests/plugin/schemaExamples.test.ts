/**
 * The examples of the package schema (issue 28, point 6): each resource's, component's and function's
 * description ends with one example in TypeScript, Python, Go and YAML, in the registry's `{{% examples %}}`
 * form; the four programs export the same stack outputs; each TypeScript program compiles against the
 * `pulumi-wos` package's declarations as a user's program would; and each generated SDK's docstrings carry the
 * program of its language and no other. That the Go programs build and the YAML and Python ones run is
 * proven through the real toolchains and CLI by `tests/languages/schemaExamples*.test.ts`.
 */
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import * as ts from "typescript";
import { wosPackageSchema } from "../../plugin/schema";
import { builtDist, REPO_ROOT } from "../support/packedPackage";
import { examplesOf, exportedNames, LANGUAGES, schemaExamples, type ExampleOf } from "../support/schemaExamples";

const examples = schemaExamples(wosPackageSchema);

/**
 * The compiler's diagnostics of each TypeScript program (by file name) in a temporary directory, with
 * `pulumi-wos` resolved to the built package's declarations (`dist/provider/index.d.ts`, what an installed
 * package's `types` names) and `@pulumi/pulumi` to the repository's copy.
 */
function typeErrors(programs: Record<string, string>): Record<string, string[]> {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "wos-ts-examples-"));
    try {
        const files = Object.entries(programs).map(([name, code]) => {
            const file = path.join(dir, `${name}.ts`);
            fs.writeFileSync(file, code);
            return file;
        });
        const program = ts.createProgram(files, {
            strict: true,
            target: ts.ScriptTarget.ES2022,
            module: ts.ModuleKind.CommonJS,
            moduleResolution: ts.ModuleResolutionKind.Node10,
            esModuleInterop: true,
            skipLibCheck: true,
            noEmit: true,
            types: ["node"],
            baseUrl: REPO_ROOT,
            typeRoots: [path.join(REPO_ROOT, "node_modules", "@types")],
            paths: { "pulumi-wos": ["dist/provider/index.d.ts"], "*": ["node_modules/*"] },
        });
        const errors: Record<string, string[]> = Object.fromEntries(Object.keys(programs).map((name) => [name, []]));
        for (const diagnostic of ts.getPreEmitDiagnostics(program)) {
            const name = diagnostic.file ? path.basename(diagnostic.file.fileName, ".ts") : "(options)";
            (errors[name] ??= []).push(ts.flattenDiagnosticMessageText(diagnostic.messageText, "\n"));
        }
        return errors;
    } finally {
        fs.rmSync(dir, { recursive: true, force: true });
    }
}

/** The generated SDK file of an example, relative to `sdks/`, in Python or Go. */
function sdkFile(example: ExampleOf, language: "python" | "go"): string {
    if (language === "go") return path.join("go", "wos", `${example.name[0]!.toLowerCase()}${example.name.slice(1)}.go`);
    const snake = example.name.replace(/[A-Z]/g, (letter, at: number) => `${at === 0 ? "" : "_"}${letter.toLowerCase()}`);
    return path.join("python", "pulumi_wos", `${snake}.py`);
}

/** The lines of a program that say something, without their indentation. */
function meaningfulLines(code: string): string[] {
    return code
        .split("\n")
        .map((line) => line.trim())
        .filter((line) => line !== "");
}

/** Each fenced block of `language` in a generated file, as its {@link meaningfulLines}. */
function blocksIn(text: string, language: string): string[][] {
    const fence = /^\s*(?:\/\/ )?```/;
    const blocks: string[][] = [];
    const lines = text.split("\n");
    for (let index = 0; index < lines.length; index++) {
        if (lines[index]!.replace(fence, "```").trim() !== `\`\`\`${language}`) continue;
        const end = lines.findIndex((line, at) => at > index && fence.test(line));
        // Without the comment mark of a Go comment's line (a Python docstring's lines have none).
        const uncommented = lines.slice(index + 1, end).map((line) => (language === "go" ? line.replace(/^\/\/ ?/, "") : line));
        blocks.push(meaningfulLines(uncommented.join("\n")));
        index = end;
    }
    return blocks;
}

describe("the package schema's examples", () => {
    test("every resource, component and function has exactly one example, each in TypeScript, Python, Go and YAML", () => {
        expect(examples.map((example) => example.token).sort()).toEqual(
            [...Object.keys(wosPackageSchema.resources), ...Object.keys(wosPackageSchema.functions)].sort(),
        );
        expect(Object.keys(wosPackageSchema.resources)).toHaveLength(7);
        expect(Object.keys(wosPackageSchema.functions)).toHaveLength(5);
        for (const example of examples) expect(Object.keys(example.code)).toEqual(["typescript", "python", "go", "yaml"]);
    });

    test("the reading of a description refuses one without examples, one with a language missing, and a block outside an example", () => {
        const described = wosPackageSchema.resources["wos:index:Project"]!.description;
        expect(examplesOf("wos:index:Project", described, false)).toHaveLength(1);
        expect(() => examplesOf("x", "A project.", false)).toThrow("x: its description does not end with an {{% examples %}} section");
        expect(() => examplesOf("x", described.replace(/```go\n[\s\S]*?```\n/, ""), false)).toThrow(
            'x: example "A project with its tags" has the blocks typescript, python, yaml, not typescript, python, go, yaml',
        );
        expect(() => examplesOf("x", "```sh\nnpm i\n```\n" + described, false)).toThrow("x: a code block outside the examples' section");
    });

    test.each(examples.map((example) => [example.token, example] as const))(
        "%s: the four programs export the same stack outputs, at least one",
        (_token, example) => {
            const names = exportedNames("typescript", example.code.typescript);
            expect(names.length).toBeGreaterThan(0);
            for (const language of LANGUAGES) expect({ language, names: exportedNames(language, example.code[language]) }).toEqual({ language, names });
        },
    );

    test("every example is written for the demo seed, with the organization named: acme", () => {
        for (const example of examples) {
            for (const language of LANGUAGES) {
                const { [language]: code } = example.code;
                if (!/acme/.test(code)) throw new Error(`${example.token}: its ${language} program names no organization acme`);
            }
        }
    });

    describe("the TypeScript programs", () => {
        beforeAll(() => builtDist(), 300_000);

        test("each compiles against the package's declarations with no error", () => {
            const programs = Object.fromEntries(examples.map((example) => [example.name, example.code.typescript]));
            expect(typeErrors(programs)).toEqual(Object.fromEntries(examples.map((example) => [example.name, []])));
        }, 120_000);

        test("the check sees a wrong program: an input the resource does not take, a required one left out, a name the package does not export", () => {
            const project = examples.find((example) => example.name === "Project")!.code.typescript;
            const errors = typeErrors({
                unknownInput: project.replace('name: "Storage",', 'name: "Storage", colour: "blue",'),
                missingInput: project.replace('name: "Storage",', ""),
                unknownExport: project.replace("wos.Project(", "wos.Projekt("),
            });
            expect(errors.unknownInput!.join("\n")).toMatch(/'colour' does not exist in type 'ProjectArgs'/);
            expect(errors.missingInput!.join("\n")).toMatch(/Property 'name' is missing/);
            expect(errors.unknownExport!.join("\n")).toMatch(/Property 'Projekt' does not exist/);
        }, 120_000);
    });

    test.each(examples.map((example) => [example.token, example] as const))(
        "%s: the Python SDK's docstrings hold its Python program, the Go SDK's comment its Go program, and neither another language's",
        (_token, example) => {
            for (const language of ["python", "go"] as const) {
                const file = sdkFile(example, language);
                const text = fs.readFileSync(path.join(REPO_ROOT, "sdks", file), "utf8");
                const blocks = blocksIn(text, language);
                expect({ file, blocks: blocks.length > 0 }).toEqual({ file, blocks: true });
                for (const block of blocks) expect({ file, block }).toEqual({ file, block: meaningfulLines(example.code[language]) });
                for (const other of LANGUAGES.filter((candidate) => candidate !== language)) {
                    expect({ file, other, blocks: blocksIn(text, other) }).toEqual({ file, other, blocks: [] });
                }
            }
        },
    );
});
