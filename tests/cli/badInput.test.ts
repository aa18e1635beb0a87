/**
 * Bad input through the real `pulumi`: the output names the resource, the input and the rule, and the
 * service is left exactly as it was.
 */
import * as fs from "node:fs";
import * as path from "node:path";
import { REPO_ROOT } from "../support/packedPackage";
import { pulumiProgram, type PulumiProgram } from "../support/pulumiCli";
import { PLATFORM_TOKEN, startCliTestService, type CliTestService } from "./localService";

// Each test runs the real CLI; beside other test files on two cores that takes more than jest's minute.
jest.setTimeout(300_000);

let service: CliTestService;
beforeAll(async () => {
    service = await startCliTestService();
}, 60_000);
afterAll(async () => {
    await service?.stop();
});

/** A program of its own: `index.ts` is `body` after the imports. */
async function programWith(body: string): Promise<PulumiProgram> {
    const program = await pulumiProgram({
        source: path.join(REPO_ROOT, "examples", "quickstart"),
        files: { "index.ts": `import * as pulumi from "@pulumi/pulumi";\nimport * as wos from "pulumi-wos";\n${body}\n` },
    });
    await program.setConfig("wos:address", service.url);
    await program.setConfig("wos:token", PLATFORM_TOKEN, { secret: true });
    return program;
}

const ELEVEN_TAGS = JSON.stringify(Object.fromEntries(Array.from({ length: 11 }, (_, index) => [`tag${index}`, "x"])));
const MODULE_AND_PROJECT = `
export const storage = new wos.Project("storage", { organization: "acme", name: "Storage" });
export const bucket = new wos.NoCodeModule("bucket", {
    organization: "acme",
    registryModuleId: "mod-0000000000000001",
    versionPin: "1.0.0",
    enabled: true,
});
`;

test.each([
    {
        what: "a project name with a character the service refuses",
        body: `new wos.Project("bad-name", { organization: "acme", name: "Bad/Name" });`,
        expected: /wos:Project resource 'bad-name': property name value \{Bad\/Name\} has a problem: name may contain only letters, numbers, spaces, '-' and '_'/,
    },
    {
        what: "a project with 11 tags",
        body: `new wos.Project("crowded", { organization: "acme", name: "Crowded", tags: ${ELEVEN_TAGS} });`,
        expected: /wos:Project resource 'crowded': property tags value .* has a problem: tags: a project may have at most 10 tags; 11 were given/,
    },
])("$what: `pulumi up` fails naming the resource, the input and the rule, and writes nothing", async ({ body, expected }) => {
    const program = await programWith(body);
    try {
        const before = await service.snapshot();
        const up = await program.attempt(["up", "--yes"]);
        expect(up.code).not.toBe(0);
        expect(up.output).toMatch(expected);
        expect(await service.snapshot()).toEqual(before);
    } finally {
        await program.dispose();
    }
}, 120_000);

test("a no-code workspace var the module does not declare: `pulumi up` fails naming the workspace, the var and the rule, and writes nothing", async () => {
    const program = await programWith(MODULE_AND_PROJECT);
    try {
        await program.pulumi(["up", "--yes"]);
        const before = await service.snapshot();
        fs.writeFileSync(
            path.join(program.dir, "index.ts"),
            `import * as pulumi from "@pulumi/pulumi";\nimport * as wos from "pulumi-wos";\n${MODULE_AND_PROJECT}
new wos.NoCodeWorkspace("site", {
    noCodeModuleId: bucket.id,
    projectId: storage.id,
    name: "site-prod",
    vars: [
        { key: "region", value: "eu-west-1", category: "infra" },
        { key: "colour", value: "blue", category: "infra" },
    ],
});
`,
        );
        const up = await program.attempt(["up", "--yes"]);
        expect(up.code).not.toBe(0);
        expect(up.output).toMatch(
            /error: wos:NoCodeWorkspace 'site-prod' of no-code module nocode-\w+: create failed: POST \S+ failed with status 422: vars\[1\]\.key: Key 'colour' is not a variable of the module's version 1\.0\.0 \(its variables: region, size\)/,
        );
        expect(await service.snapshot()).toEqual(before);
        await program.pulumi(["destroy", "--yes"]);
    } finally {
        await program.dispose();
    }
}, 180_000);
