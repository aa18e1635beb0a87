/**
 * The testing kit's example (`examples/testing/`) as a user has it: its program, its jest test and its
 * Automation API recipe type-check with its own strict `tsconfig.json` (`skipLibCheck: false`) against the
 * packed package's published typings, and its jest test runs as `npm test` would run it there: against a
 * local service started inside the test, through `WosMocks`, with its test of refusals (`expectRefusal`). Then
 * the same test with the program broken the way a user might break it (a project named `x!`): the user's test
 * fails, with the provider's message.
 */
import * as fs from "node:fs";
import * as path from "node:path";
import { packedProgram, type PackedProgram } from "../support/packedPackage";
import { copyExample, EXAMPLE_DIR, runJest, typeCheck, type JestRun } from "./helpers";

let program: PackedProgram;
const dirs: string[] = [];

beforeAll(async () => {
    program = await packedProgram();
}, 240_000);

afterAll(() => {
    for (const dir of dirs) fs.rmSync(dir, { recursive: true, force: true });
});

describe("examples/testing as its user has it", () => {
    let dir: string;
    let result: JestRun;

    beforeAll(async () => {
        dir = copyExample(program);
        dirs.push(dir);
    });

    test("its package.json depends on pulumi-wos and Pulumi, on the local service for its tests, and runs jest as its test", () => {
        const manifest = JSON.parse(fs.readFileSync(path.join(EXAMPLE_DIR, "package.json"), "utf8"));
        expect(manifest.dependencies).toMatchObject({ "pulumi-wos": "file:../..", "@pulumi/pulumi": expect.any(String) });
        // startLocalService needs the server package: a development dependency, as the README tells users.
        expect(manifest.devDependencies).toMatchObject({ "@pulumi-wos/server": "file:../../server", jest: expect.any(String), "ts-jest": expect.any(String) });
        expect(manifest.dependencies["@pulumi-wos/server"]).toBeUndefined();
        expect(manifest.scripts.test).toBe("jest");
        const tsconfig = JSON.parse(fs.readFileSync(path.join(EXAMPLE_DIR, "tsconfig.json"), "utf8"));
        expect(tsconfig.compilerOptions).toMatchObject({ strict: true, skipLibCheck: false });
        expect(tsconfig.files).toEqual(expect.arrayContaining(["index.ts", "index.test.ts", "automation.ts"]));
    });

    test("the program, its test and the Automation API recipe type-check against the published typings", () => {
        expect(typeCheck(dir)).toEqual([]);
    }, 120_000);

    test("its jest test passes: every resource is checked, created, and read back from the service", async () => {
        result = await runJest(dir);
        expect({ success: result.success, suites: result.suiteMessages }).toEqual({ success: true, suites: [] });
        expect(result.tests.map((test) => `${test.status}: ${test.title}`)).toEqual([
            "passed: every wos resource of the program passes its checks and is created",
            "passed: the project exists on the service, with the description, duration and tags the program gives it",
            "passed: the variables exist on the workspace, the sensitive one without its value",
            "passed: the sensitive variable's value stays a secret in the program",
            "passed: the lookup finds the seeded project Apps",
            "passed: a project named 'x!' is refused by its rules, naming the property, and nothing is written",
            "passed: a project whose name is taken is refused by the service, and what depends on it is not created",
        ]);
        // The refusals the test expected print nothing: no registration failed in Pulumi's hands.
        expect(result.output).not.toContain("failed to register new resource");
    }, 200_000);
});

test("the README's test of a refusal is the example's, word for word", () => {
    const readme = fs.readFileSync(path.join(EXAMPLE_DIR, "..", "..", "README.md"), "utf8");
    const shown = /examples\/testing\/refused\.test\.ts\):\n\n```ts\n([\s\S]*?)```/.exec(readme);
    expect(shown).not.toBeNull();
    expect(fs.readFileSync(path.join(EXAMPLE_DIR, "refused.test.ts"), "utf8")).toContain(shown![1]);
});

describe("examples/testing with a broken rule in its program", () => {
    test("a project named 'x!' fails the user's test with the provider's message, naming the property", async () => {
        const dir = copyExample(program, (source) => {
            const broken = source.replace('name: "Checkout",', 'name: "x!",');
            if (broken === source) throw new Error("the example no longer names its project 'Checkout'");
            return broken;
        });
        dirs.push(dir);
        const result = await runJest(dir);
        expect(result.success).toBe(false);
        const messages = [...result.suiteMessages, ...result.tests.flatMap((test) => test.failureMessages)].join("\n");
        expect(messages).toContain("pulumi-nodejs:dynamic/wos:Project resource 'checkout' has problems:");
        expect(messages).toContain("name must be at least 3 characters");
        expect(messages).toContain("name may contain only letters, numbers, spaces, '-' and '_'");
        // The first test, which lists what was created, fails; none of the project checks can pass.
        const first = result.tests.find((test) => test.title.startsWith("every wos resource"));
        expect(first?.status).toBe("failed");
    }, 200_000);
});
