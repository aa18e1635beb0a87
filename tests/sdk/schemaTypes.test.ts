/**
 * Each option and result type of the client is an interface written out with the TSDoc of its fields (a type
 * inferred from a zod schema reaches the published `.d.ts` without them: see `hoverDocs.test.ts`), and each is
 * proved here, at compile time, the very type of its schema: what the schema takes (`z.input`) for options,
 * what its parse answers (`z.output`) for results, in both directions and optional fields included. A field
 * added to, dropped from or retyped on one side only fails `npm run typecheck` (and this file under jest) on
 * the line that names the type.
 *
 * The tests below show that the check is strict: snippets that differ in one field each fail to compile.
 */
import { join, resolve } from "node:path";
import ts from "typescript";
import type { z } from "zod";
import {
    noCodeModuleCreateOptionsSchema,
    noCodeModuleReadOptionsSchema,
    noCodeModuleUpdateOptionsSchema,
    noCodeUpgradeOptionsSchema,
    noCodeWorkspaceCreateOptionsSchema,
    noCodeWorkspaceVarListSchema,
    projectCreateOptionsSchema,
    projectListOptionsSchema,
    projectUpdateOptionsSchema,
    tagListSchema,
    variableCreateOptionsSchema,
    variableUpdateOptionsSchema,
    waitForPlanOptionsSchema,
    workspaceCreateOptionsSchema,
    workspaceListOptionsSchema,
    workspaceUpdateOptionsSchema,
    type ErrorObject,
    type ListLinks,
    type NoCodeModule,
    type NoCodeModuleCreateOptions,
    type NoCodeModuleReadOptions,
    type NoCodeModuleUpdateOptions,
    type NoCodeUpgradeOptions,
    type NoCodeWorkspaceCreateOptions,
    type NoCodeWorkspaceVar,
    type Pagination,
    type Project,
    type ProjectCreateOptions,
    type ProjectList,
    type ProjectListOptions,
    type ProjectUpdateOptions,
    type RegistryModule,
    type Tag,
    type TagBinding,
    type Variable,
    type VariableCreateOptions,
    type VariableUpdateOptions,
    type WaitForPlanOptions,
    type Workspace,
    type WorkspaceCreateOptions,
    type WorkspaceList,
    type WorkspaceListOptions,
    type WorkspaceUpdateOptions,
    type WorkspaceUpgrade,
} from "../../sdk";
import {
    effectiveTagBindingSchema,
    errorObjectSchema,
    listLinksSchema,
    noCodeModuleDocumentSchema,
    paginationFromWire,
    projectListSchema,
    projectSchema,
    registryModuleSchema,
    statusCountsSchema,
    tagBindingSchema,
    variableSchema,
    workspaceListSchema,
    workspaceSchema,
    workspaceUpgradeSchema,
    type StatusCounts,
} from "../../sdk/model";
import type { Equal, Same } from "../support/sameType";

/** What the schema a factory builds takes. */
type Takes<Factory extends () => z.ZodType> = z.input<ReturnType<Factory>>;
/** What a parse with the schema a factory builds answers. */
type Answers<Factory extends () => z.ZodType> = z.output<ReturnType<Factory>>;

/** Options: each interface is what its schema takes, no more and no less. */
export type OptionsAreWhatTheirSchemasTake = [
    Same<Equal<ProjectCreateOptions, Takes<typeof projectCreateOptionsSchema>>>,
    Same<Equal<ProjectUpdateOptions, Takes<typeof projectUpdateOptionsSchema>>>,
    Same<Equal<ProjectListOptions, Takes<typeof projectListOptionsSchema>>>,
    Same<Equal<Tag[], Takes<typeof tagListSchema>>>,
    Same<Equal<VariableCreateOptions, Takes<typeof variableCreateOptionsSchema>>>,
    Same<Equal<VariableUpdateOptions, Takes<typeof variableUpdateOptionsSchema>>>,
    Same<Equal<WorkspaceCreateOptions, Takes<typeof workspaceCreateOptionsSchema>>>,
    Same<Equal<WorkspaceUpdateOptions, Takes<typeof workspaceUpdateOptionsSchema>>>,
    Same<Equal<WorkspaceListOptions, Takes<typeof workspaceListOptionsSchema>>>,
    Same<Equal<NoCodeModuleCreateOptions, Takes<typeof noCodeModuleCreateOptionsSchema>>>,
    Same<Equal<NoCodeModuleUpdateOptions, Takes<typeof noCodeModuleUpdateOptionsSchema>>>,
    Same<Equal<NoCodeModuleReadOptions, Takes<typeof noCodeModuleReadOptionsSchema>>>,
    Same<Equal<NoCodeWorkspaceCreateOptions, Takes<typeof noCodeWorkspaceCreateOptionsSchema>>>,
    Same<Equal<NoCodeWorkspaceVar[], Takes<typeof noCodeWorkspaceVarListSchema>>>,
    Same<Equal<NoCodeUpgradeOptions, Takes<typeof noCodeUpgradeOptionsSchema>>>,
    Same<Equal<WaitForPlanOptions, Takes<typeof waitForPlanOptionsSchema>>>,
];

/** Results: each interface is what a parse with its schema (or the function a schema parses with) answers. */
export type ResultsAreWhatTheirSchemasAnswer = [
    Same<Equal<Project, Answers<typeof projectSchema>>>,
    Same<Equal<ProjectList, Answers<typeof projectListSchema>>>,
    Same<Equal<TagBinding, Answers<typeof tagBindingSchema>>>,
    Same<Equal<TagBinding, Answers<typeof effectiveTagBindingSchema>>>,
    Same<Equal<Variable, Answers<typeof variableSchema>>>,
    Same<Equal<Workspace, Answers<typeof workspaceSchema>>>,
    Same<Equal<WorkspaceList, Answers<typeof workspaceListSchema>>>,
    Same<Equal<NoCodeModule, Answers<typeof noCodeModuleDocumentSchema>>>,
    Same<Equal<WorkspaceUpgrade, Answers<typeof workspaceUpgradeSchema>>>,
    Same<Equal<RegistryModule, Answers<typeof registryModuleSchema>>>,
    Same<Equal<ErrorObject, Answers<typeof errorObjectSchema>>>,
    Same<Equal<ListLinks, Answers<typeof listLinksSchema>>>,
    Same<Equal<Pagination, ReturnType<typeof paginationFromWire>>>,
    Same<Equal<StatusCounts | undefined, Answers<typeof statusCountsSchema>>>,
];

const ROOT = resolve(__dirname, "../..");

/**
 * The errors of compiling `source` as if it were the file `tests/sdk/<name>.ts`, with the repository's
 * `tsconfig.json`: imports resolve as they do for this file, and nothing is written.
 */
function compileErrors(name: string, source: string): string[] {
    const config = ts.getParsedCommandLineOfConfigFile(join(ROOT, "tsconfig.json"), { noEmit: true }, {
        ...ts.sys,
        onUnRecoverableConfigFileDiagnostic: (diagnostic) => {
            throw new Error(ts.flattenDiagnosticMessageText(diagnostic.messageText, "\n"));
        },
    })!;
    const fileName = join(__dirname, `${name}.ts`);
    const host = ts.createCompilerHost(config.options, true);
    const getSourceFile = host.getSourceFile.bind(host);
    host.fileExists = (path) => resolve(path) === fileName || ts.sys.fileExists(path);
    host.readFile = (path) => (resolve(path) === fileName ? source : ts.sys.readFile(path));
    host.getSourceFile = (path, languageVersion, ...rest) =>
        resolve(path) === fileName ? ts.createSourceFile(path, source, languageVersion, true) : getSourceFile(path, languageVersion, ...rest);
    const program = ts.createProgram({ rootNames: [fileName], options: config.options, host });
    return ts
        .getPreEmitDiagnostics(program)
        .filter((diagnostic) => diagnostic.file !== undefined && resolve(diagnostic.file.fileName) === fileName)
        .map((diagnostic) => {
            const { line } = diagnostic.file!.getLineAndCharacterOfPosition(diagnostic.start!);
            return `${line + 1}: ${ts.flattenDiagnosticMessageText(diagnostic.messageText, " ")}`;
        });
}

describe("the options and result interfaces are their schemas' types", () => {
    test("Equal is strict: optional-ness, an extra field, a wider field and readonly each make two types differ", () => {
        const cases = [
            "Same<Equal<{ a?: string }, { a: string | undefined }>>",
            "Same<Equal<{ a: string | undefined }, { a?: string }>>",
            "Same<Equal<{ a: string }, { a: string; b?: number }>>",
            "Same<Equal<{ a: string; b?: number }, { a: string }>>",
            "Same<Equal<{ a: string }, { a: string | null }>>",
            "Same<Equal<{ readonly a: string }, { a: string }>>",
        ];
        const source = [
            `import type { Equal, Same } from "../support/sameType";`,
            ...cases.map((check, index) => `export type Case${index} = ${check};`),
        ].join("\n");
        const failedLines = compileErrors("__strictEquality", source).map((error) => Number(error.split(":")[0]));
        expect(failedLines).toEqual(cases.map((_, index) => index + 2));
    }, 60_000);

    test("Equal holds for an interface and the same fields written as a literal", () => {
        const source = [
            `import type { Equal, Same } from "../support/sameType";`,
            "interface Written { /** Documented. */ a?: string; b: number | null }",
            "export type Check = Same<Equal<Written, { a?: string | undefined; b: number | null }>>;",
        ].join("\n");
        expect(compileErrors("__interfaceEquality", source)).toEqual([]);
    }, 60_000);

    test("an interface that drifts from its schema (one field made optional) fails to compile, naming the check", () => {
        const source = [
            `import type { z } from "zod";`,
            `import { projectCreateOptionsSchema, type ProjectCreateOptions } from "../../sdk";`,
            `import type { Equal, Same } from "../support/sameType";`,
            `interface Drifted extends Omit<ProjectCreateOptions, "name"> { name?: string }`,
            "export type Check = Same<Equal<Drifted, z.input<ReturnType<typeof projectCreateOptionsSchema>>>>;",
        ].join("\n");
        expect(compileErrors("__drift", source)).toEqual([expect.stringMatching(/^5: Type 'false' does not satisfy the constraint 'true'/)]);
    }, 60_000);
});
