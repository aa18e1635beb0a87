/**
 * No comment sends a reader to a document that neither the repository nor the package holds. The
 * maintainers keep notes of their own (the service's API description, the local service's decisions, the
 * design, the engine notes, the package notes, a folder of specifications), and a comment once cited them by
 * file name: in a published `.d.ts` that reaches every user's editor as a reference nobody can follow. A comment
 * says what it means instead ("the API's Projects endpoints", "the local service's own decisions").
 *
 * Checked on the packed tarballs (`npm pack`, as `npm publish` uploads them: every file, comments and code
 * alike), and on the comments of every source file of the repository, tests and benchmarks included (code
 * may name the files, as `metadata.test.ts` does to check the README).
 */
import { readdirSync, readFileSync } from "node:fs";
import { extname, join, relative } from "node:path";
import ts from "typescript";
import { packedPackages, REPO_ROOT } from "../support/packedPackage";

/** The documents of the maintainers that are not in the repository, each as a comment would cite it. */
const UNSHIPPED_DOCUMENTS = ["api.md", "local-service.md", "design.md", "engine-notes.md", "package.md", "spec/"];

/**
 * A citation of one of {@link UNSHIPPED_DOCUMENTS}: the name itself, not a longer name that holds it
 * (`openapi.md`, `design.mdx`, `test/spec/`).
 */
const CITATION = new RegExp(
    `(?<![\\w./-])(?:${UNSHIPPED_DOCUMENTS.map((name) => name.replace(/[.]/g, "\\.") + (name.endsWith("/") ? "" : "(?![\\w-])")).join("|")})`,
    "g",
);

/**
 * Folders of the repository that hold no source of its own: dependencies, build output (the API reference
 * TypeDoc writes into `api-reference/`), tool state. `docs/` is read: it holds the maintainers' documents.
 */
const NOT_SOURCES = new Set(["node_modules", "dist", "api-reference", "coverage", "reports"]);

/** Files whose comments are read: the languages of the repository, with comments as TypeScript parses them. */
const SCRIPT_EXTENSIONS = new Set([".ts", ".js", ".mjs", ".cjs"]);
/** Other text files of the repository, read whole (`package-lock.json` aside: npm writes it). */
const TEXT_EXTENSIONS = new Set([".md", ".json", ".yaml", ".yml", ".sh", ".go", ".py"]);

/** `file: citation` for each citation in `text`. */
function citationsIn(file: string, text: string): string[] {
    return [...text.matchAll(CITATION)].map((match) => `${file}: ${match[0]}`);
}

/** The text of every comment of a script, each once. */
function commentsOf(fileName: string, text: string): string[] {
    const source = ts.createSourceFile(fileName, text, ts.ScriptTarget.Latest, true);
    const starts = new Set<number>();
    const comments: string[] = [];
    const collect = (ranges: ts.CommentRange[] | undefined) => {
        for (const range of ranges ?? []) {
            if (starts.has(range.pos)) continue;
            starts.add(range.pos);
            comments.push(text.slice(range.pos, range.end));
        }
    };
    // Tokens as well as nodes: a comment before a closing brace is the trivia of that token only.
    const visit = (node: ts.Node) => {
        collect(ts.getLeadingCommentRanges(text, node.getFullStart()));
        collect(ts.getTrailingCommentRanges(text, node.getEnd()));
        for (const child of node.getChildren(source)) visit(child);
    };
    visit(source);
    return comments;
}

/** Every source and text file of the repository, relative to its root; hidden folders are tools' state. */
function repositoryFiles(directory = REPO_ROOT): string[] {
    return readdirSync(directory, { withFileTypes: true }).flatMap((entry) => {
        const path = join(directory, entry.name);
        if (entry.isDirectory()) return entry.name.startsWith(".") || NOT_SOURCES.has(entry.name) ? [] : repositoryFiles(path);
        return [relative(REPO_ROOT, path)];
    });
}

describe("no citation of a document the repository does not hold", () => {
    test("the documents are indeed not in the repository", () => {
        const files = repositoryFiles();
        const held = UNSHIPPED_DOCUMENTS.filter((name) =>
            files.some((file) => (name.endsWith("/") ? `/${file}`.includes(`/${name}`) : file.split("/").pop() === name)),
        );
        expect(held).toEqual([]);
    });

    test("the check finds a citation in a comment, and only there in a script", () => {
        const script = `/** See \`api.md\` and local-service.md's rules, not openapi.md. */\nconst names = ["design.md"]; // spec/ says so\n`;
        const cited = commentsOf("example.ts", script).flatMap((comment) => citationsIn("example.ts", comment));
        expect(cited).toEqual(["example.ts: api.md", "example.ts: local-service.md", "example.ts: spec/"]);
    });

    test("no comment of a source file, test or benchmark of the repository cites one", () => {
        const files = repositoryFiles();
        const scripts = files.filter((file) => SCRIPT_EXTENSIONS.has(extname(file)) && !file.endsWith(".d.ts"));
        // Enough of the repository is read that a wrong root or filter would show.
        expect(scripts.filter((file) => /^(sdk|provider|testing|server|bench|tests)\//.test(file)).length).toBeGreaterThan(150);
        const cited = [
            ...scripts.flatMap((file) => commentsOf(file, readFileSync(join(REPO_ROOT, file), "utf8")).flatMap((comment) => citationsIn(file, comment))),
            ...files
                .filter((file) => TEXT_EXTENSIONS.has(extname(file)) && !file.endsWith("package-lock.json"))
                .flatMap((file) => citationsIn(file, readFileSync(join(REPO_ROOT, file), "utf8"))),
        ];
        expect(cited).toEqual([]);
    });

    // Packing builds first when a source is newer than `dist/`: a generous limit for a loaded 2-core machine.
    test("no file of the packed packages (typings, code, README, manifest) mentions one", async () => {
        const packages = await packedPackages();
        // Each file as `<package>/<path>`: `pulumi-wos/dist/sdk/index.d.ts`, `@pulumi-wos/server/dist/...`.
        const shipped = [packages.lean, packages.server].flatMap(({ dir, packageDir, files }) =>
            files.map((file) => ({ name: relative(join(dir, "node_modules"), join(packageDir, file)), path: join(packageDir, file) })),
        );
        expect(shipped.filter(({ name }) => name.startsWith("pulumi-wos/dist/sdk/") && name.endsWith(".d.ts")).length).toBeGreaterThan(10);
        expect(shipped.filter(({ name }) => name.startsWith("@pulumi-wos/server/") && name.endsWith(".js")).length).toBeGreaterThan(10);
        const cited = shipped.flatMap(({ name, path }) => citationsIn(name, readFileSync(path, "utf8")));
        expect(cited).toEqual([]);
    }, 480_000);
});
