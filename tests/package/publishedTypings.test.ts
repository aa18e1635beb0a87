/**
 * The published typings hold no `@internal` name (`stripInternal` in `tsconfig.build.json`), and what is left
 * still compiles: no public declaration refers to a name that was stripped. The declarations are emitted here,
 * with the build's own settings, into a temporary folder (the build's `dist/` may be older than the sources).
 */
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, relative, resolve } from "node:path";
import ts from "typescript";

const ROOT = resolve(__dirname, "../..");

let outDir: string;
/** Emitted declaration files by their path relative to `outDir` (`sdk/projects.d.ts`). */
let declarations: Map<string, string>;
/** Source declarations tagged `@internal`: file (relative to the root, `.ts`) and the name. */
let internals: { file: string; name: string }[];

/** `@internal` in the TSDoc of `node`. */
function isInternal(node: ts.Node): boolean {
    return ts.getJSDocTags(node).some((tag) => tag.tagName.text === "internal");
}

beforeAll(() => {
    outDir = mkdtempSync(join(tmpdir(), "wos-typings-"));
    const configPath = join(ROOT, "tsconfig.build.json");
    const config = ts.getParsedCommandLineOfConfigFile(configPath, { outDir, declaration: true, emitDeclarationOnly: true, noEmit: false }, {
        ...ts.sys,
        onUnRecoverableConfigFileDiagnostic: (diagnostic) => {
            throw new Error(ts.flattenDiagnosticMessageText(diagnostic.messageText, "\n"));
        },
    })!;
    const program = ts.createProgram({ rootNames: config.fileNames, options: config.options });
    declarations = new Map();
    program.emit(undefined, (fileName, text) => {
        if (fileName.endsWith(".d.ts")) declarations.set(relative(outDir, fileName), text);
    });

    internals = [];
    for (const source of program.getSourceFiles()) {
        const file = relative(ROOT, source.fileName);
        if (file.startsWith("..") || file.includes("node_modules") || !/^(sdk|provider|server|testing)\//.test(file)) continue;
        const visit = (node: ts.Node) => {
            if (isInternal(node)) {
                const name = (node as { name?: ts.Node }).name;
                if (name && ts.isIdentifier(name)) internals.push({ file, name: name.text });
                else if (ts.isVariableStatement(node)) {
                    for (const declaration of node.declarationList.declarations) {
                        if (ts.isIdentifier(declaration.name)) internals.push({ file, name: declaration.name.text });
                    }
                } else if (ts.isConstructorDeclaration(node)) internals.push({ file, name: "constructor" });
            }
            if (ts.isClassDeclaration(node) || ts.isSourceFile(node)) ts.forEachChild(node, visit);
        };
        visit(source);
    }
}, 240_000);

afterAll(() => {
    rmSync(outDir, { recursive: true, force: true });
});

describe("published typings", () => {
    test("tsconfig.build.json strips @internal declarations", () => {
        const config = ts.readConfigFile(join(ROOT, "tsconfig.build.json"), ts.sys.readFile).config as { compilerOptions: Record<string, unknown> };
        expect(config.compilerOptions.stripInternal).toBe(true);
    });

    test("no declaration tagged @internal in the sources reaches the typings of its file", () => {
        // The sources do tag some: the serialized providers' objects, the SDK classes' constructors, test hooks.
        expect(internals.map(({ name }) => name)).toEqual(expect.arrayContaining(["projectProvider", "variableProvider", "constructor"]));
        const leaked = internals.filter(({ file, name }) => {
            const typings = declarations.get(file.replace(/\.ts$/, ".d.ts")) ?? "";
            const pattern =
                name === "constructor"
                    ? /^\s*constructor\(transport: Transport\)/m
                    : new RegExp(`\\b(?:const|let|function|class|interface|type|enum)\\s+${name}\\b|^\\s+(?:readonly\\s+)?${name}[?]?[:(]`, "m");
            return pattern.test(typings);
        });
        expect(leaked).toEqual([]);
        for (const [file, text] of declarations) expect({ file, internal: text.includes("@internal") }).toEqual({ file, internal: false });
    });

    test("what is left compiles on its own, strictly and with library checks: nothing refers to a stripped name", () => {
        // What pulumi-wos ships (the server is the package @pulumi-wos/server, which ships no typings).
        const shipped = [...declarations.keys()].filter((file) => !/^(bench|examples|tests|server)\//.test(file)).map((file) => join(outDir, file));
        expect(shipped.length).toBeGreaterThan(20);
        const program = ts.createProgram({
            rootNames: shipped,
            options: {
                strict: true,
                noEmit: true,
                skipLibCheck: false,
                esModuleInterop: true,
                module: ts.ModuleKind.CommonJS,
                moduleResolution: ts.ModuleResolutionKind.Node10,
                target: ts.ScriptTarget.ES2022,
                types: ["node"],
                typeRoots: [join(ROOT, "node_modules/@types")],
                baseUrl: ROOT,
            },
        });
        const problems = ts
            .getPreEmitDiagnostics(program)
            .filter((diagnostic) => diagnostic.file?.fileName.startsWith(outDir))
            .map((diagnostic) => `${relative(outDir, diagnostic.file!.fileName)}: ${ts.flattenDiagnosticMessageText(diagnostic.messageText, " ")}`);
        expect(problems).toEqual([]);
    }, 240_000);

    test("the typings of the SDK's resource classes name no constructor taking the internal transport", () => {
        for (const file of ["sdk/projects.d.ts", "sdk/variables.d.ts", "sdk/workspaces.d.ts", "sdk/noCodeModules.d.ts", "sdk/registryModules.d.ts"]) {
            const text = declarations.get(file);
            expect({ file, emitted: text !== undefined }).toEqual({ file, emitted: true });
            expect({ file, constructor: /constructor\(transport/.test(text!) }).toEqual({ file, constructor: false });
        }
        // The client itself keeps its public constructor.
        expect(declarations.get("sdk/client.d.ts")).toMatch(/constructor\(options\?: WosClientOptions\)/);
        expect(readFileSync(join(ROOT, "sdk/projects.ts"), "utf8")).toMatch(/@internal Built by \{@link WosClient\}/);
    });
});
