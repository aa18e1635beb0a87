/**
 * The Go example of every resource, component and function of the package schema (what the Go SDK's comments
 * show): each is `gofmt`-clean and compiles against the generated Go SDK (sdks/go), each a `main` package of one
 * module, checked by `go vet` (the compiler's type check and vet's analyses). That a Go program on the SDK runs
 * through the CLI is `goProgram.test.ts`'s proof; these examples differ from it only in what they declare.
 */
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { schemaExamples } from "../support/schemaExamples";
import { goModuleOnSdk, packageSchema, runCommand } from "./languageTools";

// The first vet compiles the SDK and the Pulumi Go SDK (cached by the go command afterwards).
jest.setTimeout(600_000);

const examples = schemaExamples(packageSchema());
let dir: string;

/** Writes each example's Go program, by name, as a package `./<name>` of the module in `dir`. */
function writeExamples(programs: Record<string, string>): void {
    for (const [name, code] of Object.entries(programs)) {
        fs.mkdirSync(path.join(dir, name), { recursive: true });
        fs.writeFileSync(path.join(dir, name, "main.go"), code);
    }
}

beforeAll(async () => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), "wos-go-examples-"));
    writeExamples(Object.fromEntries(examples.map((example) => [example.name, example.code.go])));
    await goModuleOnSdk(dir, "example.com/schema-examples");
});
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

test("every Go example is formatted as gofmt formats it", async () => {
    const { stdout } = await runCommand("gofmt", ["-l", "."], { cwd: dir });
    expect(stdout.trim()).toBe("");
});

test("every Go example compiles against the Go SDK, one main package each, and go vet finds nothing", async () => {
    await runCommand("go", ["vet", ...examples.map((example) => `./${example.name}`)], { cwd: dir });
});

test("the check sees a wrong Go example: an argument the SDK does not have", async () => {
    const project = examples.find((example) => example.name === "Project")!.code.go;
    writeExamples({ planted: project.replace(/\tName:\s+/, '\tColour: pulumi.String("blue"),\n\t\t\tName: ') });
    await expect(runCommand("go", ["vet", "./planted"], { cwd: dir })).rejects.toThrow(/unknown field Colour in struct literal/);
});
