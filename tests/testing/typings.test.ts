/**
 * The typings of `pulumi-wos/testing` as a user's strict project meets them: with the package and its peer
 * `@pulumi-wos/server` installed (what the README says to install), and with `pulumi-wos` alone, and nothing
 * else (no `@types/*`, no `esModuleInterop`) and `skipLibCheck: false`, under each module resolution a
 * project may use, they compile, and they load no typings of Fastify, better-sqlite3, zod or the server
 * package (which would need a development dependency or a compiler flag). With `@pulumi/pulumi` installed,
 * `WosMocks` is what `pulumi.runtime.setMocks` takes.
 */
import * as fs from "node:fs";
import * as path from "node:path";
import * as ts from "typescript";
import { packedPackages, REPO_ROOT, SERVER_PACKAGE, type PackedPackages, type PackedProgram } from "../support/packedPackage";

let packed: PackedPackages;
/** A temporary project folder in each packed program directory, by the program's name. */
const dirs: Partial<Record<"program" | "lean", string>> = {};

beforeAll(async () => {
    packed = await packedPackages();
    for (const name of ["program", "lean"] as const) dirs[name] = fs.mkdtempSync(path.join(packed[name].dir, "typings-"));
}, 240_000);

afterAll(() => {
    for (const dir of Object.values(dirs)) fs.rmSync(dir, { recursive: true, force: true });
});

/** A user's test set-up that uses every part of the kit's typings. */
const USER_FILE = `
import { startLocalService, SERVER_NOT_INSTALLED_MESSAGE, UNSUPPORTED_NODE_CODE, UnsupportedNodeError, WosMocks, WosMocksError, type LocalService, type LocalServiceSeed, type MocksLike } from "pulumi-wos/testing";

const seed: LocalServiceSeed = {
    organizations: [{
        name: "acme",
        teams: [{ name: "owners", owners: true, tokens: ["owners-token"] }, { name: "dev", projectAccess: { Apps: "write" } }],
        projects: [{ name: "Apps", tags: { team: "dev" } }],
        workspaces: [{ id: "ws-0000000000000001", name: "app", project: "Apps", executionMode: "remote" }],
    }],
};
const others: MocksLike = {
    newResource: (args) => ({ id: args.name + "-id", state: args.inputs }),
    call: (args) => args.inputs,
};

export async function main(): Promise<number> {
    const service: LocalService | string = await startLocalService({ seed, planStepMs: 10 }).catch((error: unknown) => {
        if (UnsupportedNodeError.isInstance(error) && error.code === UNSUPPORTED_NODE_CODE) return error.nodeVersion;
        throw error;
    });
    if (typeof service === "string") return -1;
    const token: string | undefined = service.tokens.owners;
    const mocks = new WosMocks({ service, token: token ?? "", mocks: others });
    try {
        const created = await mocks.settled();
        return created.filter((resource) => resource.id.startsWith("prj-")).length;
    } catch (error) {
        if (error instanceof WosMocksError) return -error.failures.length;
        if (error instanceof Error && error.message === SERVER_NOT_INSTALLED_MESSAGE) return 0;
        throw error;
    } finally {
        await service.reset();
        await service.stop();
    }
}
`;

/** Compiles `source` as `name` in the temporary project `dir`; answers the diagnostics and the files it loaded. */
function compile(dir: string, name: string, source: string, options: ts.CompilerOptions): { diagnostics: string[]; files: string[] } {
    const file = path.join(dir, name);
    fs.writeFileSync(file, source);
    const compiled = ts.createProgram({ rootNames: [file], options: { strict: true, skipLibCheck: false, noEmit: true, target: ts.ScriptTarget.ES2022, ...options } });
    const diagnostics = ts.getPreEmitDiagnostics(compiled).map((diagnostic) => {
        const where = diagnostic.file ? `${path.relative(dir, diagnostic.file.fileName)}: ` : "";
        return where + ts.flattenDiagnosticMessageText(diagnostic.messageText, "\n");
    });
    return { diagnostics, files: compiled.getSourceFiles().map((sourceFile) => sourceFile.fileName) };
}

const RESOLUTIONS: [string, ts.CompilerOptions][] = [
    ["node10 (commonjs, typesVersions)", { module: ts.ModuleKind.CommonJS, moduleResolution: ts.ModuleResolutionKind.Node10 }],
    ["node16 (exports)", { module: ts.ModuleKind.Node16, moduleResolution: ts.ModuleResolutionKind.Node16 }],
    ["bundler (exports)", { module: ts.ModuleKind.Preserve, moduleResolution: ts.ModuleResolutionKind.Bundler }],
];

/** The two installs: the testing kit's (both packages), and the resources' alone. */
const INSTALLS: [string, "program" | "lean"][] = [
    ["pulumi-wos and @pulumi-wos/server", "program"],
    ["only pulumi-wos", "lean"],
];

describe.each(INSTALLS.flatMap(([installed, key]) => RESOLUTIONS.map(([label, options]) => [installed, label, key, options] as const)))(
    "a strict project with %s installed, module resolution %s",
    (_installed, _label, key, options) => {
        let program: PackedProgram;
        let dir: string;
        beforeAll(() => {
            program = packed[key];
            dir = dirs[key]!;
            expect(fs.existsSync(path.join(program.dir, "node_modules", SERVER_PACKAGE))).toBe(key === "program");
        });

        test("compiles a test set-up that uses startLocalService and WosMocks, with skipLibCheck false and no @types", () => {
            const { diagnostics, files } = compile(dir, "setup.ts", USER_FILE, { ...options, types: [] });
            expect(diagnostics).toEqual([]);
            // Everything but the compiler's own lib files: the set-up and the kit's typings, no other package's.
            const compilerLib = path.dirname(require.resolve("typescript")) + path.sep;
            const packageDir = fs.realpathSync(program.packageDir) + path.sep;
            const loaded = files.map((file) => fs.realpathSync(file)).filter((file) => !file.startsWith(compilerLib));
            expect(loaded.filter((file) => !file.startsWith(packageDir)).map((file) => path.relative(dir, file))).toEqual(["setup.ts"]);
            // The kit's, and the judgement of the running Node.js it shares with the client (which imports nothing).
            expect(loaded.filter((file) => file.startsWith(packageDir)).map((file) => path.relative(packageDir, file)).sort()).toEqual([
                "dist/sdk/nodeSupport.d.ts",
                "dist/testing/index.d.ts",
                "dist/testing/localService.d.ts",
                "dist/testing/mocks.d.ts",
            ]);
        });

        test("reports a misspelled option: the check is real", () => {
            const { diagnostics } = compile(
                dir,
                "misspelled.ts",
                `import { startLocalService } from "pulumi-wos/testing";\nexport const started = startLocalService({ sead: { organizations: [] } });\n`,
                { ...options, types: [] },
            );
            expect(diagnostics.join("\n")).toMatch(/'sead' does not exist in type 'LocalServiceOptions'/);
        });
    },
);

test("the published typings of pulumi-wos/testing import nothing but each other and sdk/nodeSupport, which imports nothing", () => {
    const program = packed.program;
    // The compiler's own scan: imports, `import("…")` types, `/// <reference types>`; comments are skipped.
    const importsOf = (file: string) => {
        const scanned = ts.preProcessFile(fs.readFileSync(path.join(program.packageDir, "dist", file), "utf8"), true, true);
        return [...scanned.importedFiles, ...scanned.referencedFiles, ...scanned.typeReferenceDirectives].map((imported) => imported.fileName);
    };
    const typings = fs.readdirSync(path.join(program.packageDir, "dist", "testing")).filter((name) => name.endsWith(".d.ts"));
    expect(typings.sort()).toEqual(["index.d.ts", "localService.d.ts", "mocks.d.ts"]);
    for (const name of typings) {
        const outside = importsOf(path.join("testing", name)).filter((specifier) => !specifier.startsWith("./") && specifier !== "../sdk/nodeSupport");
        expect({ name, imports: outside }).toEqual({ name, imports: [] });
    }
    expect(importsOf(path.join("sdk", "nodeSupport.d.ts"))).toEqual([]);
});

test("with @pulumi/pulumi and @types/node installed, pulumi.runtime.setMocks takes a WosMocks (skipLibCheck false)", () => {
    const dir = dirs.program!;
    const typesDir = path.join(dir, "node_modules", "@types");
    fs.mkdirSync(typesDir, { recursive: true });
    if (!fs.existsSync(path.join(typesDir, "node"))) {
        fs.symlinkSync(path.join(REPO_ROOT, "node_modules", "@types", "node"), path.join(typesDir, "node"), "dir");
    }
    const { diagnostics } = compile(
        dir,
        "mocks.ts",
        `import * as pulumi from "@pulumi/pulumi";
import { startLocalService, WosMocks } from "pulumi-wos/testing";
export async function setUp(): Promise<WosMocks> {
    const service = await startLocalService();
    const mocks = new WosMocks({ service, token: service.tokens.platform });
    await pulumi.runtime.setMocks(mocks, "project", "stack");
    return mocks;
}
`,
        { module: ts.ModuleKind.CommonJS, moduleResolution: ts.ModuleResolutionKind.Node10 },
    );
    expect(diagnostics).toEqual([]);
}, 60_000);
