/**
 * `wos-server --version` and `--help` as a user runs them (the built `dist/server/main.js`; run
 * `npm run build` before running this file alone): the version is the package's, and the help explains
 * every option the usage line names, each with what it does, and nothing else is accepted.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { ADDRESS_LINE, killStartedClis, ROOT, runCli } from "../support/cli";

const VERSION = (JSON.parse(readFileSync(join(ROOT, "package.json"), "utf8")) as { version: string }).version;

afterAll(() => killStartedClis());

/** The options section of the help: each `--flag` with the text that explains it (continuation lines joined). */
function explainedOptions(help: string): Map<string, string> {
    const section = help.slice(help.indexOf("\nOptions:\n") + "\nOptions:\n".length);
    const options = new Map<string, string>();
    let current: string | undefined;
    for (const line of section.split("\n")) {
        const entry = /^ {2}(?:-[a-z], )?--([a-z-]+)(?: \S+(?: \| \S+)?)? {2,}(\S.*)$/.exec(line);
        if (entry) {
            current = entry[1]!;
            options.set(current, entry[2]!);
        } else if (current && /^ {10,}\S/.test(line)) {
            options.set(current, `${options.get(current)} ${line.trim()}`);
        }
    }
    return options;
}

describe("wos-server --version and --help", () => {
    test("--version prints the package's version alone and exits 0 without starting", async () => {
        const result = await runCli(["--version"]);
        expect(result).toEqual({ code: 0, stdout: `${VERSION}\n`, stderr: "" });
    });

    test("--version wins over the other options: it never starts a service", async () => {
        const result = await runCli(["--port", "0", "--data", ":memory:", "--version"]);
        expect(result.code).toBe(0);
        expect(result.stdout).toBe(`${VERSION}\n`);
        expect(result.stdout).not.toMatch(ADDRESS_LINE);
    });

    test("--help and -h print the same help, with the version, and exit 0 without starting", async () => {
        const long = await runCli(["--help"]);
        const short = await runCli(["-h"]);
        expect(long.code).toBe(0);
        expect(short).toEqual(long);
        expect(long.stderr).toBe("");
        expect(long.stdout).toContain(`wos-server ${VERSION}`);
        expect(long.stdout).toContain("usage: wos-server");
        expect(long.stdout).not.toMatch(ADDRESS_LINE);
    });

    test("--help explains every option of the usage, and every option it explains is in the usage", async () => {
        const { stdout } = await runCli(["--help"]);
        const usage = stdout.slice(stdout.indexOf("usage:"), stdout.indexOf("\nOptions:"));
        const inUsage = new Set([...usage.matchAll(/--([a-z][a-z-]*)/g)].map((match) => match[1]!));
        const explained = explainedOptions(stdout);
        // Every option docs/server.md documents, and the two that only answer.
        for (const option of [
            "host", "port", "data", "seed", "plan-step-ms", "rate-limit", "admin-token", "log-level", "secret-key-file",
            "request-timeout-ms", "max-connections", "shutdown-grace-ms", "public-url", "help", "version",
        ]) {
            expect(inUsage).toContain(option);
        }
        expect([...explained.keys()].sort()).toEqual([...inUsage].sort());
        for (const [option, text] of explained) {
            // A sentence that says what the option does, not just its name.
            expect({ option, explained: text.split(/\s+/).length >= 5 }).toEqual({ option, explained: true });
        }
    });

    test("--help states each option's default where it has one", async () => {
        const explained = explainedOptions((await runCli(["--help"])).stdout);
        expect(explained.get("host")).toContain("default 127.0.0.1");
        expect(explained.get("port")).toContain("default 8787");
        expect(explained.get("data")).toContain("default .wos/wos.db");
        expect(explained.get("plan-step-ms")).toContain("default 200");
        expect(explained.get("rate-limit")).toContain("default 0: off");
        expect(explained.get("log-level")).toContain("default info");
        expect(explained.get("secret-key-file")).toContain("WOS_SECRET_KEY_FILE");
        expect(explained.get("request-timeout-ms")).toContain("default 30000");
        expect(explained.get("max-connections")).toContain("default 1000");
        expect(explained.get("shutdown-grace-ms")).toContain("default 5000");
    });

    test("every option the help explains is accepted: none is refused as unknown", async () => {
        const explained = explainedOptions((await runCli(["--help"])).stdout);
        // A value each option refuses (so that none starts a service), or the flag alone for the two that answer.
        const refused: Record<string, string[]> = {
            host: ["--host", "127.0.0.1", "--port", "x"],
            port: ["--port", "x"],
            data: ["--data", ":memory:", "--port", "x"],
            seed: ["--seed", "s.json", "--port", "x"],
            "plan-step-ms": ["--plan-step-ms", "x"],
            "rate-limit": ["--rate-limit", "x"],
            "admin-token": ["--admin-token", "t", "--port", "x"],
            "log-level": ["--log-level", "x"],
            "secret-key-file": ["--secret-key-file", "k", "--port", "x"],
            "request-timeout-ms": ["--request-timeout-ms", "x"],
            "max-connections": ["--max-connections", "x"],
            "shutdown-grace-ms": ["--shutdown-grace-ms", "x"],
            "public-url": ["--public-url", "x"],
        };
        for (const option of explained.keys()) {
            if (option === "help" || option === "version") continue;
            const args = refused[option];
            expect({ option, known: args !== undefined }).toEqual({ option, known: true });
            const result = await runCli(args!);
            expect({ option, code: result.code, unknown: result.stderr.includes("Unknown option") }).toEqual({ option, code: 2, unknown: false });
        }
    });
});
