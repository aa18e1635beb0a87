/**
 * The contributor's guide's list of equivalent mutants stays true (issue 8): every `Stryker disable` comment
 * in the sources that mutation testing mutates (the `mutate` globs of `stryker.config.mjs`, matched as Stryker
 * matches them) has its row in the "Equivalent mutants" table of `docs/contributing.md`, with its file, the mutators it
 * names, the code it stands over and its reason word for word; and every row of the table is such a comment.
 * A comment added without a row, a reason changed on one side only, or a row left behind after its comment
 * went away fails here; so does a comment where Stryker does not read it (it then marks nothing, and the
 * guide would list a mutant that is in fact tested).
 */
import { execFileSync } from "node:child_process";
import { readdirSync, readFileSync } from "node:fs";
import { dirname, join, relative, resolve } from "node:path";
import { pathToFileURL } from "node:url";

const ROOT = resolve(__dirname, "../..");
/** The document that holds the table, from the repository's root. */
const TABLE_FILE = "docs/contributing.md";

/** Stryker's own parser of a directive (`@stryker-mutator/instrumenter`, `directive-bookkeeper.js`), on a comment's text. */
const DIRECTIVE = /^\s?Stryker (disable|restore)(?: (next-line))? ([a-zA-Z, ]+)(?::(.+)?)?/;

/** A `Stryker disable` comment: where it is, what it disables and why. */
interface Disable {
    /** Path from the repository's root, with `/`. */
    file: string;
    /** 1-based line of the comment. */
    line: number;
    /** The mutators it names, sorted. */
    mutators: string[];
    /** Its reason (after the `:`), trimmed; empty when it gives none. */
    reason: string;
    /** The code line after the comment, trimmed: what a `next-line` directive stands over. */
    code: string;
    /** Whether it leads a syntax node, where Stryker reads a directive (see {@link commentsOf}). */
    leads: boolean;
}

/** A row of the table. */
interface Row {
    file: string;
    code: string;
    mutators: string[];
    reason: string;
}

/** The `mutate` globs of the Stryker configuration, read by Node itself (the file is an ES module). */
function mutatePatterns(): string[] {
    const config = pathToFileURL(join(ROOT, "stryker.config.mjs")).href;
    const script = `const { default: config } = await import(${JSON.stringify(config)}); process.stdout.write(JSON.stringify(config.mutate));`;
    return JSON.parse(execFileSync(process.execPath, ["--input-type=module", "-e", script], { cwd: ROOT, encoding: "utf8" })) as string[];
}

/** Stryker's matcher of file names (its own copy of `minimatch`). */
const minimatch = (require(require.resolve("minimatch", { paths: [dirname(require.resolve("@stryker-mutator/core/package.json"))] })) as {
    minimatch: (path: string, pattern: string, options: { dot: boolean }) => boolean;
}).minimatch;

/** Every file under `directory`, past what Stryker never mutates (dependencies, build output, hidden folders). */
function filesUnder(directory: string): string[] {
    const files: string[] = [];
    for (const entry of readdirSync(directory, { withFileTypes: true })) {
        if (entry.name.startsWith(".") || ["node_modules", "dist", "reports", "coverage"].includes(entry.name)) continue;
        const path = join(directory, entry.name);
        if (entry.isDirectory()) files.push(...filesUnder(path));
        else if (entry.isFile()) files.push(path);
    }
    return files;
}

/**
 * The files the patterns select, as Stryker's project reader selects them: in order, a pattern adds the
 * files it matches and a `!pattern` takes them away; a line range (`file.ts:1-10`) narrows a file, never
 * widens the list, so it is dropped here.
 */
function mutatedFiles(patterns: readonly string[]): string[] {
    const all = filesUnder(ROOT);
    const selected = new Set<string>();
    for (const raw of patterns) {
        const negated = raw.startsWith("!");
        const pattern = resolve(ROOT, (negated ? raw.slice(1) : raw).replace(/:\d+(?::\d+)?-\d+(?::\d+)?$/, ""));
        for (const file of all) {
            if (!minimatch(file, pattern, { dot: false })) continue;
            if (negated) selected.delete(file);
            else selected.add(file);
        }
    }
    return [...selected].map((file) => relative(ROOT, file).split("\\").join("/")).sort();
}

/** The parser of Stryker's instrumenter (Babel's, with TypeScript), from where Stryker loads it. */
const babel = require(
    require.resolve("@babel/parser", {
        paths: [dirname(require.resolve("@stryker-mutator/instrumenter/package.json", { paths: [dirname(require.resolve("@stryker-mutator/core/package.json"))] }))],
    }),
) as {
    parse(text: string, options: { sourceType: "module"; plugins: unknown[] }): { comments?: BabelComment[]; program: unknown };
};

/** A comment as Babel gives it. */
interface BabelComment {
    type: "CommentLine" | "CommentBlock";
    value: string;
    start: number;
    end: number;
    loc: { start: { line: number }; end: { line: number } };
}

/**
 * Every comment of a source (a `//` or `/*` inside a string, a template or a regular expression is none),
 * each with whether it leads a syntax node: Stryker reads its directives from the comments that lead a node
 * (`leadingComments`) and from no other, so a mark before a `}`, an `else` or a `catch` marks nothing.
 */
function commentsOf(text: string): { comment: BabelComment; leads: boolean }[] {
    const ast = babel.parse(text, { sourceType: "module", plugins: ["typescript", "decorators-legacy"] });
    const leading = new Set<number>();
    const visit = (value: unknown): void => {
        if (Array.isArray(value)) return value.forEach(visit);
        if (value === null || typeof value !== "object") return;
        const node = value as Record<string, unknown>;
        for (const comment of (node.leadingComments as BabelComment[] | undefined) ?? []) leading.add(comment.start);
        for (const [key, child] of Object.entries(node)) {
            if (key !== "leadingComments" && key !== "trailingComments" && key !== "innerComments" && key !== "loc") visit(child);
        }
    };
    visit(ast.program);
    return (ast.comments ?? []).map((comment) => ({ comment, leads: leading.has(comment.start) }));
}

/** The `Stryker disable` directives of one source text (line and block comments), as Stryker reads them. */
function disablesIn(file: string, text: string): Disable[] {
    const lines = text.split("\n");
    const found: Disable[] = [];
    for (const { comment, leads } of commentsOf(text)) {
        const match = DIRECTIVE.exec(comment.value);
        if (!match || match[1] !== "disable") continue;
        found.push({
            file,
            line: comment.loc.start.line,
            mutators: match[3]!.split(",").map((name) => name.trim()).filter(Boolean).sort(),
            reason: (match[4] ?? "").trim(),
            // The line after the comment's last one (lines are 1-based, the array 0-based).
            code: (lines[comment.loc.end.line] ?? "").trim(),
            leads,
        });
    }
    return found;
}

/** The cells of a Markdown table row (`\|` is a `|` inside a cell, as GitHub reads it). */
function cells(line: string): string[] {
    return line
        .trim()
        .replace(/^\|/, "")
        .replace(/\|$/, "")
        .split(/(?<!\\)\|/)
        .map((cell) => cell.trim().replace(/\\\|/g, "|"));
}

/** Text of a cell with its code spans' backticks taken away. */
function plain(cell: string): string {
    return cell.replace(/`/g, "").trim();
}

/** The rows of the first table after the document's "Equivalent mutants" heading. */
function tableRows(document: string): Row[] {
    const lines = document.split("\n");
    const heading = lines.findIndex((line) => /^#{2,6} Equivalent mutants\s*$/.test(line));
    if (heading === -1) throw new Error(`${TABLE_FILE} has no "Equivalent mutants" heading`);
    let start = heading + 1;
    while (start < lines.length && !lines[start]!.startsWith("|")) {
        if (/^#{1,6} /.test(lines[start]!)) throw new Error(`the "Equivalent mutants" section of ${TABLE_FILE} has no table`);
        start++;
    }
    const table: string[] = [];
    for (let index = start; index < lines.length && lines[index]!.startsWith("|"); index++) table.push(lines[index]!);
    const [header, rule, ...body] = table;
    expect(cells(header ?? "").map((cell) => cell.toLowerCase())).toEqual(["file", "code", "mutator", "reason"]);
    expect(cells(rule ?? "").every((cell) => /^:?-+:?$/.test(cell))).toBe(true);
    return body.map((line) => {
        const [file = "", code = "", mutators = "", reason = ""] = cells(line);
        return {
            file: plain(file),
            code: plain(code),
            mutators: plain(mutators)
                .split(",")
                .map((name) => name.trim())
                .filter(Boolean)
                .sort(),
            reason,
        };
    });
}

/** Whether `row` is the table's entry for `disable`. */
function describes(row: Row, disable: Disable): boolean {
    return (
        row.file === disable.file &&
        row.reason === disable.reason &&
        row.mutators.join(",") === disable.mutators.join(",") &&
        row.code !== "" &&
        disable.code.includes(row.code)
    );
}

describe("the reader of directives", () => {
    test("finds a line and a block directive with their mutators, reasons and code; none in a string or a regular expression, nor a comment that only mentions one", () => {
        const text = [
            "const a = 1; // not a directive: Stryker disable next-line all",
            'const url = "http://x/* Stryker disable next-line all: in a string */";',
            "const pattern = /\\/\\/ Stryker disable next-line all/;",
            "// Stryker disable next-line StringLiteral,ConditionalExpression: the reason, with: a colon",
            'const b = "x";',
            "/* Stryker disable next-line EqualityOperator: in a block */",
            "const c = a >= 1;",
            "// Stryker restore all",
            "// Stryker disable next-line BooleanLiteral",
            "const d = true;",
        ].join("\n");
        expect(disablesIn("x.ts", text)).toEqual([
            { file: "x.ts", line: 4, mutators: ["ConditionalExpression", "StringLiteral"], reason: "the reason, with: a colon", code: 'const b = "x";', leads: true },
            { file: "x.ts", line: 6, mutators: ["EqualityOperator"], reason: "in a block", code: "const c = a >= 1;", leads: true },
            { file: "x.ts", line: 9, mutators: ["BooleanLiteral"], reason: "", code: "const d = true;", leads: true },
        ]);
    });

    test("tells a mark before a `} catch` or an `else`, which Stryker never reads, from one before a statement", () => {
        const text = [
            "function f(a: string) {",
            "    try {",
            "        JSON.parse(a);",
            "        // Stryker disable next-line BlockStatement: before the catch",
            "    } catch {",
            "        return 1;",
            "    }",
            "    if (a) return 2;",
            "    // Stryker disable next-line ConditionalExpression: before the else",
            "    else if (a.length) return 3;",
            "    // Stryker disable next-line StringLiteral: before a statement",
            '    return "4";',
            "}",
        ].join("\n");
        expect(disablesIn("x.ts", text).map(({ reason, leads }) => ({ reason, leads }))).toEqual([
            { reason: "before the catch", leads: false },
            { reason: "before the else", leads: false },
            { reason: "before a statement", leads: true },
        ]);
    });

    test("selects files as Stryker does: globs in order, a negation taking files away", () => {
        const files = mutatedFiles(["server/auth.ts", "server/access.ts", "sdk/*.ts", "!sdk/index.ts"]);
        expect(files).toEqual(expect.arrayContaining(["server/auth.ts", "server/access.ts", "sdk/retry.ts"]));
        expect(files).not.toContain("sdk/index.ts");
        expect(files).not.toContain("server/db.ts");
    });
});

describe(`${TABLE_FILE} lists every equivalent mutant marked in the mutated sources`, () => {
    let patterns: string[];
    let files: string[];
    let disables: Disable[];
    const rows = () => tableRows(readFileSync(join(ROOT, TABLE_FILE), "utf8"));

    beforeAll(() => {
        patterns = mutatePatterns();
        files = mutatedFiles(patterns);
        disables = files.flatMap((file) => disablesIn(file, readFileSync(join(ROOT, file), "utf8")));
    });

    test("the configuration's globs select the sources (none of them matches nothing)", () => {
        expect(files.length).toBeGreaterThan(0);
        for (const pattern of patterns.filter((pattern) => !pattern.startsWith("!"))) {
            expect({ pattern, matches: mutatedFiles([pattern]).length > 0 }).toEqual({ pattern, matches: true });
        }
    });

    test("the table has the columns file, code, mutator and reason, and a row per mutator list", () => {
        for (const row of rows()) expect({ row, complete: row.file !== "" && row.code !== "" && row.mutators.length > 0 && row.reason !== "" }).toEqual({ row, complete: true });
    });

    test("every disable says why it is equivalent", () => {
        for (const disable of disables) {
            const at = `${disable.file}:${disable.line}`;
            expect({ at, reason: disable.reason.length > 0 }).toEqual({ at, reason: true });
        }
    });

    test("every disable stands where Stryker reads it: right before the code it marks, not before a `}`, `else` or `catch`", () => {
        for (const disable of disables) {
            const at = `${disable.file}:${disable.line}`;
            expect({ at, read: disable.leads }).toEqual({ at, read: true });
        }
    });

    test("every disable has its row: file, the code it stands over, its mutators and its reason", () => {
        const table = rows();
        for (const disable of disables) {
            const listed = table.some((row) => describes(row, disable));
            expect({ disable, listed }).toEqual({ disable, listed: true });
        }
    });

    test("every row is a disable of the sources (none left behind)", () => {
        for (const row of rows()) {
            const marked = disables.some((disable) => describes(row, disable));
            expect({ row, marked }).toEqual({ row, marked: true });
        }
    });
});
