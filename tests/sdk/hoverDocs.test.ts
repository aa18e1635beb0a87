/**
 * What an editor shows on hover over a field of the client's public types (`options.name`,
 * `project.workspaceCount`, `list.pagination.nextPage`), in a program that installed the package: the TSDoc
 * of the field as the published `.d.ts` files carry it. A type inferred from a zod schema loses the comments
 * written inside the schema on its way into a `.d.ts`, so every exported type of `pulumi-wos/sdk` is checked
 * there, field by field, nested objects included.
 *
 * The declarations are emitted here from the sources with the build's own settings (`dist/` may be older than
 * the sources), kept in memory, and read back through the compiler API as a consumer's editor reads them.
 */
import { dirname, join, relative, resolve } from "node:path";
import ts from "typescript";

const ROOT = resolve(__dirname, "../..");

/**
 * Where the emitted declarations seem to lie: inside the repository, so that `zod` resolves from its
 * `node_modules` as it does for an installed package. Nothing is written there.
 */
const TYPINGS = join(ROOT, ".hover-typings");

/** The public types of the client that take or answer data: each must document every field. */
const OPTION_AND_RESULT_TYPES = [
    "ProjectCreateOptions",
    "ProjectUpdateOptions",
    "ProjectListOptions",
    "ProjectList",
    "ListLinks",
    "VariableCreateOptions",
    "VariableUpdateOptions",
    "WorkspaceCreateOptions",
    "WorkspaceUpdateOptions",
    "WorkspaceListOptions",
    "WorkspaceList",
    "NoCodeModuleCreateOptions",
    "NoCodeModuleUpdateOptions",
    "NoCodeModuleReadOptions",
    "NoCodeWorkspaceCreateOptions",
    "NoCodeUpgradeOptions",
    "WaitForPlanOptions",
    "NoCodeUpgrade",
    "RegistryModule",
    "Project",
    "TagBinding",
    "Tag",
    "Variable",
    "Workspace",
    "Pagination",
    "ErrorObject",
    "NoCodeModule",
    "VariableOptions",
    "NoCodeWorkspaceVar",
    "WorkspaceUpgrade",
];

/** The declarations of `sdk/index.ts` and everything it reaches, by absolute path under {@link TYPINGS}. */
function emitSdkDeclarations(): Map<string, string> {
    const config = ts.getParsedCommandLineOfConfigFile(
        join(ROOT, "tsconfig.build.json"),
        { outDir: TYPINGS, declaration: true, emitDeclarationOnly: true, noEmit: false },
        {
            ...ts.sys,
            onUnRecoverableConfigFileDiagnostic: (diagnostic) => {
                throw new Error(ts.flattenDiagnosticMessageText(diagnostic.messageText, "\n"));
            },
        },
    )!;
    const program = ts.createProgram({ rootNames: [join(ROOT, "sdk/index.ts")], options: config.options });
    const files = new Map<string, string>();
    const result = program.emit(undefined, (fileName, text) => files.set(resolve(fileName), text));
    if (result.emitSkipped) throw new Error("the declarations of sdk/index.ts were not emitted");
    return files;
}

/** A program of a consumer that imports the emitted `sdk/index.d.ts`, which exists only in `files`. */
function consumerProgram(files: Map<string, string>): ts.Program {
    const options: ts.CompilerOptions = {
        strict: true,
        noEmit: true,
        skipLibCheck: false,
        esModuleInterop: true,
        module: ts.ModuleKind.CommonJS,
        moduleResolution: ts.ModuleResolutionKind.Node10,
        target: ts.ScriptTarget.ES2022,
        types: [],
    };
    const directories = new Set<string>();
    for (const file of files.keys()) {
        for (let directory = dirname(file); directory.startsWith(TYPINGS); directory = dirname(directory)) directories.add(directory);
    }
    const host = ts.createCompilerHost(options, true);
    const getSourceFile = host.getSourceFile.bind(host);
    host.fileExists = (fileName) => files.has(resolve(fileName)) || ts.sys.fileExists(fileName);
    host.readFile = (fileName) => files.get(resolve(fileName)) ?? ts.sys.readFile(fileName);
    host.directoryExists = (directory) => directories.has(resolve(directory)) || ts.sys.directoryExists(directory);
    host.getSourceFile = (fileName, languageVersion, onError, shouldCreate) => {
        const text = files.get(resolve(fileName));
        return text === undefined
            ? getSourceFile(fileName, languageVersion, onError, shouldCreate)
            : ts.createSourceFile(fileName, text, languageVersion, true);
    };
    return ts.createProgram({ rootNames: [join(TYPINGS, "sdk/index.d.ts")], options, host });
}

let program: ts.Program;
let checker: ts.TypeChecker;
/** The type aliases and interfaces `pulumi-wos/sdk` exports, by name. */
let exportedTypes: Map<string, ts.Type>;

beforeAll(() => {
    const files = emitSdkDeclarations();
    program = consumerProgram(files);
    checker = program.getTypeChecker();
    const index = program.getSourceFile(join(TYPINGS, "sdk/index.d.ts"))!;
    exportedTypes = new Map();
    for (const exported of checker.getExportsOfModule(checker.getSymbolAtLocation(index)!)) {
        const symbol = exported.flags & ts.SymbolFlags.Alias ? checker.getAliasedSymbol(exported) : exported;
        if (symbol.flags & (ts.SymbolFlags.Interface | ts.SymbolFlags.TypeAlias)) {
            exportedTypes.set(exported.name, checker.getDeclaredTypeOfSymbol(symbol));
        }
    }
}, 240_000);

/** The text a hover shows for `symbol`: its TSDoc, without the tags. */
function documentation(symbol: ts.Symbol): string {
    return ts.displayPartsToString(symbol.getDocumentationComment(checker)).trim();
}

/** The object types a field of type `type` holds: itself, the members of a union, the elements of an array. */
function objectTypesIn(type: ts.Type): ts.Type[] {
    if (type.isUnion()) return type.types.flatMap(objectTypesIn);
    if (checker.isArrayType(type)) return checker.getTypeArguments(type as ts.TypeReference).flatMap(objectTypesIn);
    if (!(type.flags & ts.TypeFlags.Object) || type.getCallSignatures().length > 0) return [];
    // Only the package's own shapes: not `Date`, `Map` or zod's types.
    const declarations = type.getSymbol()?.declarations ?? [];
    return declarations.every((declaration) => declaration.getSourceFile().fileName.startsWith(TYPINGS)) ? [type] : [];
}

/**
 * `Type.field` for every field of `type`, and of the objects it holds, that shows no documentation on hover.
 * A field whose type is another exported type is that type's to document, and is not entered.
 */
function undocumentedFields(path: string, type: ts.Type, entered: Set<ts.Type>): string[] {
    entered.add(type);
    const missing: string[] = [];
    for (const property of checker.getPropertiesOfType(type)) {
        const field = `${path}.${property.name}`;
        if (documentation(property) === "") missing.push(field);
        for (const inner of objectTypesIn(checker.getNonNullableType(checker.getTypeOfSymbol(property)))) {
            const name = (inner.aliasSymbol ?? inner.getSymbol())?.name;
            if (entered.has(inner) || (name !== undefined && exportedTypes.has(name))) continue;
            missing.push(...undocumentedFields(field, inner, entered));
        }
    }
    return missing;
}

describe("hover documentation in the published typings of pulumi-wos/sdk", () => {
    test("the emitted declarations compile for a consumer, zod included (so no type reads as `any`)", () => {
        const problems = ts
            .getPreEmitDiagnostics(program)
            .map((diagnostic) => `${diagnostic.file ? relative(TYPINGS, diagnostic.file.fileName) : ""}: ${ts.flattenDiagnosticMessageText(diagnostic.messageText, " ")}`);
        expect(problems).toEqual([]);
    });

    test("every option and result type is exported, with fields", () => {
        const fieldless = OPTION_AND_RESULT_TYPES.filter((name) => !exportedTypes.has(name) || checker.getPropertiesOfType(exportedTypes.get(name)!).length === 0);
        expect(fieldless).toEqual([]);
    });

    test("every field of every exported type, nested objects included, shows its TSDoc", () => {
        const missing = [...exportedTypes].flatMap(([name, type]) => undocumentedFields(name, type, new Set()));
        expect(missing).toEqual([]);
    });

    test("a field's hover says its rule or default, as written on the field", () => {
        const field = (type: string, name: string) => documentation(checker.getPropertyOfType(exportedTypes.get(type)!, name)!);
        expect(field("ProjectCreateOptions", "name")).toMatch(/3 to 40 characters/);
        expect(field("Project", "workspaceCount")).toMatch(/How many workspaces the project holds/);
        expect(field("ProjectListOptions", "pageSize")).toMatch(/default 20/);
    });
});
