/**
 * The SDKs of the other languages (issue 21, section 2): sdks/python and sdks/go are exactly what tools/sdkgen
 * generates from the plugin's schema (so they cannot drift from it, and nobody edits them by hand), the Python
 * package installs with pip and imports, its docstrings and README come from the schema's descriptions, and the
 * Go module compiles, with a program on it.
 *
 * Needs what `tests/cli/setup.sh` builds (part of `npm test`): the generator and the Python environment.
 */
import { execFileSync } from "node:child_process";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { builtDist, REPO_ROOT } from "../support/packedPackage";
import { filesUnder, generateSdks, goModuleOnSdk, goSdkModule, packageSchema, pythonEnvironmentWithSdk, runCommand, SDKS_DIR, writeSchema } from "./languageTools";

// Generating tidies the Go module and the Go test compiles the Pulumi Go SDK: minutes on a cold Go cache.
jest.setTimeout(20 * 60_000);

let work: string;
beforeAll(async () => {
    await builtDist();
    work = fs.mkdtempSync(path.join(os.tmpdir(), "wos-sdks-"));
}, 10 * 60_000);
afterAll(() => {
    fs.rmSync(work, { recursive: true, force: true });
});

/** The SDK files of the work tree that git does not ignore (so leftovers of a local `pip install` do not count). */
function committedFiles(language: string): string[] {
    const listed = execFileSync("git", ["ls-files", "--cached", "--others", "--exclude-standard", "-z", "--", `sdks/${language}`], {
        cwd: REPO_ROOT,
        encoding: "utf8",
    });
    return listed
        .split("\0")
        .filter((file) => file !== "" && fs.existsSync(path.join(REPO_ROOT, file)))
        .map((file) => path.relative(path.join("sdks", language), file))
        .sort();
}

test("sdks/python and sdks/go are exactly what the plugin's schema generates (run `npm run sdks` after changing the schema)", async () => {
    const out = path.join(work, "generated");
    await generateSdks(writeSchema(work), out);
    for (const language of ["python", "go"]) {
        const generated = filesUnder(path.join(out, language));
        expect({ language, files: committedFiles(language) }).toEqual({ language, files: generated });
        const differing = generated.filter(
            (file) => !fs.readFileSync(path.join(out, language, file)).equals(fs.readFileSync(path.join(SDKS_DIR, language, file))),
        );
        expect({ language, differing }).toEqual({ language, differing: [] });
    }
});

/** `getProjects` -> `get_projects`: the Python generator's names of functions. */
function snakeCase(name: string): string {
    return name.replace(/[A-Z]/g, (letter) => `_${letter.toLowerCase()}`);
}

test("the Python SDK installs with pip and imports, with every resource and function of the schema, its version, and docs from the schema", async () => {
    const environment = await pythonEnvironmentWithSdk(path.join(work, "venv"));
    const script = [
        "import importlib.metadata, inspect, json, pulumi_wos",
        "meta = importlib.metadata.metadata('pulumi_wos')",
        "print(json.dumps({",
        "  'version': importlib.metadata.version('pulumi_wos'),",
        "  'summary': meta['Summary'],",
        "  'readme': meta.get_payload(),",
        "  'names': dir(pulumi_wos),",
        "  'projectDoc': inspect.getdoc(pulumi_wos.ProjectArgs.__init__),",
        "  'tokens': sorted(getattr(getattr(pulumi_wos, name), 'pulumi_type', None) or '' for name in dir(pulumi_wos) if inspect.isclass(getattr(pulumi_wos, name))),",
        "}))",
    ].join("\n");
    // Run from elsewhere than the SDK's directory, so that the import is the installed package's.
    const { stdout } = await runCommand(path.join(environment, "bin", "python"), ["-c", script], { cwd: os.tmpdir() });
    const wosPackageSchema = packageSchema();
    const found = JSON.parse(stdout) as { version: string; summary: string; readme: string; names: string[]; projectDoc: string; tokens: string[] };

    expect(found.version).toBe(wosPackageSchema.version);
    expect(found.readme.trim()).toBe(wosPackageSchema.description.trim());
    for (const token of Object.keys(wosPackageSchema.resources)) {
        expect(found.names).toContain(token.split(":")[2]);
        expect(found.tokens).toContain(token);
    }
    for (const token of Object.keys(wosPackageSchema.functions)) expect(found.names).toContain(snakeCase(token.split(":")[2]!));
    // The docstrings are the schema's descriptions (the generator rewraps nothing of these one-line texts' words).
    for (const [name, property] of Object.entries(wosPackageSchema.resources["wos:index:Project"]!.inputProperties ?? {})) {
        const description = (property as { description?: string }).description ?? "";
        expect({ name, documented: found.projectDoc.includes(description.split("\n")[0]!) }).toEqual({ name, documented: true });
    }
});

test("the Go SDK passes go vet, and a program that declares a provider and a project on it compiles", async () => {
    const goSdk = path.join(SDKS_DIR, "go");
    await runCommand("go", ["vet", "./..."], { cwd: goSdk, timeoutMs: 15 * 60_000 });

    const program = path.join(work, "goprogram");
    fs.mkdirSync(program);
    const sdkModule = goSdkModule();
    fs.writeFileSync(
        path.join(program, "main.go"),
        `package main

import (
	"${sdkModule}/wos"
	"github.com/pulumi/pulumi/sdk/v3/go/pulumi"
)

func main() {
	pulumi.Run(func(ctx *pulumi.Context) error {
		provider, err := wos.NewProvider(ctx, "acme", &wos.ProviderArgs{Organization: pulumi.StringPtr("acme")})
		if err != nil {
			return err
		}
		project, err := wos.NewProject(ctx, "platform", &wos.ProjectArgs{
			Name: pulumi.String("platform"),
			Tags: pulumi.StringMap{"team": pulumi.String("platform")},
		}, pulumi.Provider(provider))
		if err != nil {
			return err
		}
		ctx.Export("projectId", project.ID())
		return nil
	})
}
`,
    );
    await goModuleOnSdk(program, "example.com/wos-program");
    await runCommand("go", ["build", "-o", path.join(program, "wos-program"), "."], { cwd: program, timeoutMs: 15 * 60_000 });
    expect(fs.statSync(path.join(program, "wos-program")).isFile()).toBe(true);
});
