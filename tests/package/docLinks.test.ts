/**
 * Every link of the READMEs (the repository's and the server package's) and of the documents in `docs/` that
 * points into the repository leads somewhere:
 * a relative link (`reference.md#wosproject`, `../examples/seed.json`) or an absolute one into the
 * repository at HEAD (`https://github.com/OWNER/NAME/blob/HEAD/docs/server.md#options`, the form the README
 * uses so that its links also work on the npm page) names a file or folder that exists, and, when it names
 * an anchor of a Markdown file, a heading of that file has it (as GitHub makes anchors from headings). An
 * anchor alone (`#lists`) is a heading of the same document. The README sends users to the documents for
 * everything it leaves out, so a renamed file or heading must not leave a dead link behind.
 *
 * The documents are read with markdown-it (TypeDoc's Markdown parser, resolved through TypeDoc as Stryker's
 * `minimatch` is in `mutationEquivalents.test.ts`), so that links and headings are what a renderer sees:
 * none in code spans or fenced code, reference-style links included.
 */
import { existsSync, readdirSync, readFileSync, statSync } from "node:fs";
import { dirname, join, relative, resolve, sep } from "node:path";

const ROOT = resolve(__dirname, "../..");

/** The part of markdown-it's token this test reads. */
interface Token {
    type: string;
    tag: string;
    content: string;
    attrGet(name: string): string | null;
    children: Token[] | null;
}

/** markdown-it, as TypeDoc depends on it. */
const MarkdownIt = require(require.resolve("markdown-it", { paths: [dirname(require.resolve("typedoc/package.json"))] })) as new (options?: {
    html?: boolean;
}) => { parse(source: string, env: object): Token[] };
const markdown = new MarkdownIt({ html: true });

/** `https://github.com/OWNER/NAME` from `repository.url` of `package.json`. */
function repositoryUrl(): string {
    const pkg = JSON.parse(readFileSync(join(ROOT, "package.json"), "utf8")) as { repository?: { url?: string } };
    const match = /^git\+(https:\/\/github\.com\/[^/]+\/[^/.]+)\.git$/.exec(pkg.repository?.url ?? "");
    if (!match) throw new Error(`package.json repository.url is not git+https://github.com/OWNER/NAME.git: ${pkg.repository?.url}`);
    return match[1]!;
}

/** The Markdown files of docs/, relative to the root. */
function docsFiles(): string[] {
    return readdirSync(join(ROOT, "docs"))
        .filter((name) => name.endsWith(".md"))
        .map((name) => `docs/${name}`)
        .sort();
}

/** The documents whose links are checked, relative to the root: both packages' READMEs and every Markdown file of docs/. */
function documents(): string[] {
    return ["README.md", "server/README.md", ...docsFiles()];
}

/** The text a heading renders, as GitHub reads it for its anchor: text and code spans, no markup. */
function renderedText(inline: Token): string {
    return (inline.children ?? [])
        .filter((child) => child.type === "text" || child.type === "code_inline")
        .map((child) => child.content)
        .join("");
}

/** GitHub's anchor of a heading: lower case, punctuation other than `-` and `_` dropped, spaces to `-`. */
export function anchorOf(text: string): string {
    return text
        .trim()
        .toLowerCase()
        .replace(/[^\p{L}\p{M}\p{N}\p{Pc} -]/gu, "")
        .replace(/ /g, "-");
}

/** Every anchor of a Markdown text's headings; a repeated one gets `-1`, `-2`, … as GitHub numbers them. */
export function anchorsOf(source: string): Set<string> {
    const tokens = markdown.parse(source, {});
    const anchors = new Set<string>();
    const seen = new Map<string, number>();
    tokens.forEach((token, index) => {
        if (token.type !== "heading_open") return;
        const base = anchorOf(renderedText(tokens[index + 1]!));
        const count = seen.get(base) ?? 0;
        seen.set(base, count + 1);
        anchors.add(count === 0 ? base : `${base}-${count}`);
    });
    return anchors;
}

/** Every link target of a Markdown text (links and images, inline and reference-style). */
export function linksOf(source: string): string[] {
    const targets: string[] = [];
    const visit = (tokens: Token[]) => {
        for (const token of tokens) {
            if (token.type === "link_open") targets.push(token.attrGet("href") ?? "");
            if (token.type === "image") targets.push(token.attrGet("src") ?? "");
            if (token.children) visit(token.children);
        }
    };
    visit(markdown.parse(source, {}));
    return targets;
}

/**
 * What is wrong with the link `target` of the document `from` (a path relative to `root`), or `undefined`
 * when it leads somewhere or points outside the repository (another site, `mailto:`).
 */
export function brokenLink(root: string, from: string, target: string, repository: string): string | undefined {
    let path: string;
    let anchor: string | undefined;
    const [beforeAnchor, ...rest] = target.split("#");
    anchor = rest.length > 0 ? decodeURIComponent(rest.join("#")) : undefined;
    if (target === repository || target.startsWith(`${repository}#`)) {
        // The repository's page, which shows its README (the server package's README links there); GitHub
        // itself gives that page the anchor #readme, where the README starts.
        if (target === `${repository}#readme`) return undefined;
        path = "README.md";
    } else if (target.startsWith(`${repository}/`)) {
        const match = new RegExp(`^${repository}/(?:blob|tree)/HEAD/([^#?]+)`).exec(target);
        if (!match) return "a link into the repository that is not .../blob/HEAD/<path> or .../tree/HEAD/<path>";
        path = decodeURIComponent(match[1]!);
    } else if (/^[a-z][a-z0-9+.-]*:/i.test(target)) {
        return undefined;
    } else if (beforeAnchor === "") {
        path = from;
    } else {
        path = relative(root, resolve(root, dirname(from), decodeURIComponent(beforeAnchor!.split("?")[0]!))).split(sep).join("/");
        if (path.startsWith("..")) return "a relative link that leaves the repository";
    }
    const file = join(root, path);
    if (!existsSync(file)) return `no file or folder ${path}`;
    if (anchor === undefined) return undefined;
    if (statSync(file).isDirectory() || !path.endsWith(".md")) return `an anchor of ${path}, which is not a Markdown file`;
    if (!anchorsOf(readFileSync(file, "utf8")).has(anchor)) return `no heading of ${path} has the anchor #${anchor}`;
    return undefined;
}

describe("the reading of links and anchors", () => {
    test("finds links and anchors as a renderer does, and tells a broken link from a sound one", () => {
        const source = [
            "# A `wos.Project` (the resource)",
            "## Lists",
            "## Lists",
            "See [the lists](#lists-1), [code](`#nowhere`), `[not](a-link.md)` and [a site](https://example.com/x).",
            "",
            "```md",
            "[inside code](missing.md)",
            "```",
            "[ref]: ../README.md#quick-start",
            "Also [by reference][ref].",
        ].join("\n");
        expect([...anchorsOf(source)]).toEqual(["a-wosproject-the-resource", "lists", "lists-1"]);
        expect(linksOf(source)).toEqual(["#lists-1", "%60#nowhere%60", "https://example.com/x", "../README.md#quick-start"]);
        const repository = repositoryUrl();
        expect(brokenLink(ROOT, "docs/reference.md", "../README.md#quick-start", repository)).toBeUndefined();
        expect(brokenLink(ROOT, "docs/reference.md", "../README.md#no-such-heading", repository)).toBe("no heading of README.md has the anchor #no-such-heading");
        expect(brokenLink(ROOT, "docs/reference.md", "no-such-file.md", repository)).toBe("no file or folder docs/no-such-file.md");
        expect(brokenLink(ROOT, "README.md", `${repository}/blob/HEAD/docs/reference.md#no-such-heading`, repository)).toBe(
            "no heading of docs/reference.md has the anchor #no-such-heading",
        );
        expect(brokenLink(ROOT, "README.md", `${repository}/blob/HEAD/docs/missing.md`, repository)).toBe("no file or folder docs/missing.md");
        expect(brokenLink(ROOT, "README.md", "#no-such-heading", repository)).toBe("no heading of README.md has the anchor #no-such-heading");
        expect(brokenLink(ROOT, "README.md", "../outside.md", repository)).toBe("a relative link that leaves the repository");
        expect(brokenLink(ROOT, "README.md", "https://example.com/x", repository)).toBeUndefined();
        expect(brokenLink(ROOT, "server/README.md", `${repository}#quick-start`, repository)).toBeUndefined();
        expect(brokenLink(ROOT, "server/README.md", `${repository}#no-such-heading`, repository)).toBe("no heading of README.md has the anchor #no-such-heading");
    });
});

describe("every link of the README and of docs/ into the repository leads to a file and a heading that exist", () => {
    const repository = repositoryUrl();

    test("the README links to every document of docs/", () => {
        const readmeLinks = linksOf(readFileSync(join(ROOT, "README.md"), "utf8"));
        for (const document of docsFiles()) {
            const linked = readmeLinks.some((target) => target.split("#")[0] === `${repository}/blob/HEAD/${document}`);
            expect({ document, linked }).toEqual({ document, linked: true });
        }
    });

    test("the documents hold links enough that a wrong reading would show", () => {
        const links = documents().flatMap((document) => linksOf(readFileSync(join(ROOT, document), "utf8")));
        expect(links.filter((target) => target.startsWith(`${repository}/blob/HEAD/docs/`)).length).toBeGreaterThan(10);
        expect(links.filter((target) => !/^[a-z][a-z0-9+.-]*:/i.test(target)).length).toBeGreaterThan(10);
    });

    test.each(documents())("%s", (document) => {
        const links = linksOf(readFileSync(join(ROOT, document), "utf8"));
        const broken = links
            .map((target) => ({ target, problem: brokenLink(ROOT, document, target, repository) }))
            .filter(({ problem }) => problem !== undefined);
        expect(broken).toEqual([]);
    });
});
