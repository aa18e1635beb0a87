/**
 * Each option and result type of the client is an interface written out with the TSDoc of its fields (a type
 * inferred from a zod schema reaches the published `.d.ts` without them: see `hoverDocs.test.ts`), and each is
 * proved here, at compile time, the very type of its schema: what the schema takes (`z.input`) for options,
 * what its parse answers (`z.output`) for results, in both directions and optional fields included. A field
 * added to, dropped from or retyped on one side only fails `npm run typecheck` (and this file under jest) on
 * the line that names the type.
 *
 * The last test shows that the check is strict: an interface that differs in one field fails to compile (the
 * type equality is `expect-type`'s).
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
import { expectTypeOf } from "expect-type";

/** What the schema a factory builds takes. */
type Takes<Factory extends () => z.ZodType> = z.input<ReturnType<Factory>>;
/** What a parse with the schema a factory builds answers. */
type Answers<Factory extends () => z.ZodType> = z.output<ReturnType<Factory>>;



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
    // Checked when this file compiles (`npm run typecheck`, and ts-jest before it runs): a difference in any
    // field, optional-ness or readonly-ness included, is a compile error on the line that names the type.
    test("each option interface is what its schema takes, no more and no less", () => {
        expectTypeOf<ProjectCreateOptions>().toEqualTypeOf<Takes<typeof projectCreateOptionsSchema>>();
        expectTypeOf<ProjectUpdateOptions>().toEqualTypeOf<Takes<typeof projectUpdateOptionsSchema>>();
        expectTypeOf<ProjectListOptions>().toEqualTypeOf<Takes<typeof projectListOptionsSchema>>();
        expectTypeOf<Tag[]>().toEqualTypeOf<Takes<typeof tagListSchema>>();
        expectTypeOf<VariableCreateOptions>().toEqualTypeOf<Takes<typeof variableCreateOptionsSchema>>();
        expectTypeOf<VariableUpdateOptions>().toEqualTypeOf<Takes<typeof variableUpdateOptionsSchema>>();
        expectTypeOf<WorkspaceCreateOptions>().toEqualTypeOf<Takes<typeof workspaceCreateOptionsSchema>>();
        expectTypeOf<WorkspaceUpdateOptions>().toEqualTypeOf<Takes<typeof workspaceUpdateOptionsSchema>>();
        expectTypeOf<WorkspaceListOptions>().toEqualTypeOf<Takes<typeof workspaceListOptionsSchema>>();
        expectTypeOf<NoCodeModuleCreateOptions>().toEqualTypeOf<Takes<typeof noCodeModuleCreateOptionsSchema>>();
        expectTypeOf<NoCodeModuleUpdateOptions>().toEqualTypeOf<Takes<typeof noCodeModuleUpdateOptionsSchema>>();
        expectTypeOf<NoCodeModuleReadOptions>().toEqualTypeOf<Takes<typeof noCodeModuleReadOptionsSchema>>();
        expectTypeOf<NoCodeWorkspaceCreateOptions>().toEqualTypeOf<Takes<typeof noCodeWorkspaceCreateOptionsSchema>>();
        expectTypeOf<NoCodeWorkspaceVar[]>().toEqualTypeOf<Takes<typeof noCodeWorkspaceVarListSchema>>();
        expectTypeOf<NoCodeUpgradeOptions>().toEqualTypeOf<Takes<typeof noCodeUpgradeOptionsSchema>>();
        expectTypeOf<WaitForPlanOptions>().toEqualTypeOf<Takes<typeof waitForPlanOptionsSchema>>();
    });

    test("each result interface is what a parse with its schema (or the function a schema parses with) answers", () => {
        expectTypeOf<Project>().toEqualTypeOf<Answers<typeof projectSchema>>();
        expectTypeOf<ProjectList>().toEqualTypeOf<Answers<typeof projectListSchema>>();
        expectTypeOf<TagBinding>().toEqualTypeOf<Answers<typeof tagBindingSchema>>();
        expectTypeOf<TagBinding>().toEqualTypeOf<Answers<typeof effectiveTagBindingSchema>>();
        expectTypeOf<Variable>().toEqualTypeOf<Answers<typeof variableSchema>>();
        expectTypeOf<Workspace>().toEqualTypeOf<Answers<typeof workspaceSchema>>();
        expectTypeOf<WorkspaceList>().toEqualTypeOf<Answers<typeof workspaceListSchema>>();
        expectTypeOf<NoCodeModule>().toEqualTypeOf<Answers<typeof noCodeModuleDocumentSchema>>();
        expectTypeOf<WorkspaceUpgrade>().toEqualTypeOf<Answers<typeof workspaceUpgradeSchema>>();
        expectTypeOf<RegistryModule>().toEqualTypeOf<Answers<typeof registryModuleSchema>>();
        expectTypeOf<ErrorObject>().toEqualTypeOf<Answers<typeof errorObjectSchema>>();
        expectTypeOf<ListLinks>().toEqualTypeOf<Answers<typeof listLinksSchema>>();
        expectTypeOf<Pagination>().toEqualTypeOf<ReturnType<typeof paginationFromWire>>();
        expectTypeOf<StatusCounts | undefined>().toEqualTypeOf<Answers<typeof statusCountsSchema>>();
    });

    test("an interface that drifts from its schema (one field made optional) fails to compile, naming the check", () => {
        const source = [
            `import type { z } from "zod";`,
            `import { projectCreateOptionsSchema, type ProjectCreateOptions } from "../../sdk";`,
            `import { expectTypeOf } from "expect-type";`,
            `interface Drifted extends Omit<ProjectCreateOptions, "name"> { name?: string }`,
            "expectTypeOf<Drifted>().toEqualTypeOf<z.input<ReturnType<typeof projectCreateOptionsSchema>>>();",
        ].join("\n");
        expect(compileErrors("__drift", source)).toEqual([expect.stringMatching(/^5: /)]);
    }, 60_000);
});
