/**
 * schemathesis, the property-based API fuzzer, against wos-server with the server's own OpenAPI description
 * (`/api/v2/openapi.json`): every operation, every check, its examples, coverage, fuzzing and stateful
 * phases, with a fixed seed and a bounded number of cases (`schemathesis.toml`), on the demo seed with its
 * owners' token. The server runs without an admin token, as `npm start` runs it: no fault routes. Before the
 * run the test makes one resource of each kind over HTTP and hands their ids to the operations on one, so
 * that the fuzzer reaches their logic rather than a 404. The run must end without a failure; its figures
 * (operations, cases, time) are printed and kept in `.schemathesis/last-run.txt`.
 *
 * Needs `bash tests/schemathesis/setup.sh` (part of `npm test`), which installs the pinned schemathesis.
 */
import { spawn } from "node:child_process";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { startServer } from "../../server/app";

const ROOT = path.resolve(__dirname, "../..");
const SCHEMATHESIS = path.join(ROOT, ".schemathesis/venv/bin/schemathesis");
const OWNERS = "team-owners-secret";
/** The demo seed's workspace and registry module. */
const SEED_WORKSPACE = "ws-0000000000000001";
const SEED_REGISTRY_MODULE = "mod-0000000000000001";

let server: Awaited<ReturnType<typeof startServer>>;
let scratch: string;

beforeAll(async () => {
    if (!fs.existsSync(SCHEMATHESIS)) throw new Error("schemathesis is not installed: run `bash tests/schemathesis/setup.sh`");
    scratch = fs.mkdtempSync(path.join(os.tmpdir(), "wos-schemathesis-"));
    // The demo seed (an empty database loads it), plans that finish at once, quiet logs.
    server = await startServer({ dataPath: path.join(scratch, "wos.db"), planStepMs: 0, logLevel: "silent" });
});

afterAll(async () => {
    await server?.close();
    if (scratch) fs.rmSync(scratch, { recursive: true, force: true });
});

/** A request as the owners of the demo seed; answers the parsed body, failing on a status it does not expect. */
async function owners(method: string, apiPath: string, body: unknown, expected: number): Promise<any> {
    const response = await fetch(`${server.url}/api/v2${apiPath}`, {
        method,
        headers: { authorization: `Bearer ${OWNERS}`, "content-type": "application/vnd.api+json" },
        ...(body !== undefined && { body: JSON.stringify(body) }),
    });
    const text = await response.text();
    if (response.status !== expected) throw new Error(`${method} ${apiPath}: ${response.status} ${text}`);
    return text === "" ? undefined : JSON.parse(text);
}

/** One resource of each kind, and their ids by the operations that take them (delete: one of its own). */
async function fixtures(): Promise<Record<string, Record<string, string>>> {
    const project = (name: string) => owners("POST", "/organizations/acme/projects", { data: { type: "projects", attributes: { name } } }, 201);
    const workspace = (name: string) => owners("POST", "/organizations/acme/workspaces", { data: { type: "workspaces", attributes: { name } } }, 201);
    const variable = (key: string) =>
        owners(
            "POST",
            "/vars",
            { data: { type: "vars", attributes: { key, value: "v", category: "env" }, relationships: { workspace: { data: { type: "workspaces", id: SEED_WORKSPACE } } } } },
            201,
        );
    const projectId = (await project("Fuzzed")).data.id as string;
    const doomedProject = (await project("Fuzzed For Delete")).data.id as string;
    const doomedWorkspace = (await workspace("fuzzed-for-delete")).data.id as string;
    const variableId = (await variable("FUZZED")).data.id as string;
    const doomedVariable = (await variable("FUZZED_FOR_DELETE")).data.id as string;
    const moduleId = (
        await owners(
            "POST",
            "/organizations/acme/no-code-modules",
            { data: { type: "no-code-modules", attributes: { enabled: true }, relationships: { "registry-module": { data: { type: "registry-modules", id: SEED_REGISTRY_MODULE } } } } },
            200,
        )
    ).data.id as string;
    const noCode = await owners(
        "POST",
        `/no-code-modules/${moduleId}/workspaces`,
        {
            data: {
                type: "workspaces",
                attributes: { name: "fuzzed-no-code" },
                relationships: { project: { data: { type: "projects", id: projectId } }, vars: { data: [{ type: "vars", attributes: { key: "region", value: "eu-west-1", category: "infra" } }] } },
            },
        },
        200,
    );
    const noCodeWorkspace = noCode.data.id as string;
    const version = noCode.data.relationships["no-code-module-version"].data.id as string;
    const run = (await owners("POST", `/no-code-modules/${moduleId}/workspaces/${noCodeWorkspace}/upgrade`, { data: { type: "workspaces" } }, 200)).data.id as string;
    const org = { organization: "acme" };
    const ofProject = { id: projectId };
    const upgrade = { id: moduleId, workspace: noCodeWorkspace };
    return {
        createProject: org,
        listProjects: org,
        showProject: ofProject,
        updateProject: ofProject,
        deleteProject: { id: doomedProject },
        listProjectTagBindings: ofProject,
        addProjectTagBindings: ofProject,
        listProjectEffectiveTagBindings: ofProject,
        listProjectTagBindingRelationships: ofProject,
        addProjectTagBindingRelationships: ofProject,
        replaceProjectTagBindingRelationships: ofProject,
        moveWorkspacesToProject: ofProject,
        createWorkspace: org,
        listWorkspaces: org,
        showWorkspaceByName: { ...org, name: "legacy-app" },
        showWorkspace: { id: SEED_WORKSPACE },
        updateWorkspace: { id: SEED_WORKSPACE },
        deleteWorkspace: { id: doomedWorkspace },
        listWorkspaceEffectiveTagBindings: { id: SEED_WORKSPACE },
        updateVariable: { id: variableId },
        deleteVariable: { id: doomedVariable },
        createNoCodeModule: org,
        showNoCodeModule: { id: moduleId },
        updateNoCodeModule: { id: moduleId },
        showNoCodeModuleVersion: { id: version },
        showRegistryModule: { id: SEED_REGISTRY_MODULE },
        createNoCodeWorkspace: { id: moduleId },
        startWorkspaceUpgrade: upgrade,
        showWorkspaceUpgrade: { ...upgrade, run },
        confirmWorkspaceUpgrade: { ...upgrade, run },
    };
}

/** `schemathesis.toml` with a section per operation that takes ids: the path parameters it is asked with. */
function configWith(parameters: Record<string, Record<string, string>>): string {
    const sections = Object.entries(parameters).map(([operationId, values]) => {
        const lines = Object.entries(values).map(([name, value]) => `"path.${name}" = ${JSON.stringify(value)}`);
        return `[[operations]]\ninclude-operation-id = ${JSON.stringify(operationId)}\n[operations.parameters]\n${lines.join("\n")}\n`;
    });
    return `${fs.readFileSync(path.join(__dirname, "schemathesis.toml"), "utf8")}\n${sections.join("\n")}`;
}

/** Runs schemathesis to its end; answers its exit code and what it printed. */
function runSchemathesis(args: string[]): Promise<{ code: number | null; output: string }> {
    return new Promise((resolve, reject) => {
        const child = spawn(SCHEMATHESIS, args, { cwd: scratch, env: { ...process.env, NO_COLOR: "1" } });
        let output = "";
        child.stdout.on("data", (chunk: Buffer) => (output += chunk.toString()));
        child.stderr.on("data", (chunk: Buffer) => (output += chunk.toString()));
        child.on("error", reject);
        child.on("close", (code) => resolve({ code, output }));
    });
}

test("schemathesis finds no failure in any operation, with every check and phase", async () => {
    const config = path.join(scratch, "schemathesis.toml");
    fs.writeFileSync(config, configWith(await fixtures()));
    const started = Date.now();
    const { code, output } = await runSchemathesis(["--config-file", config, "run", `${server.url}/api/v2/openapi.json`, "--url", server.url, "--checks", "all", "--no-color"]);
    const seconds = ((Date.now() - started) / 1000).toFixed(0);
    const operations = /Selected: (\d+)\/(\d+)/.exec(output);
    const cases = /(\d+) generated/.exec(output);
    const figures = `schemathesis: ${operations?.[1] ?? "?"} of ${operations?.[2] ?? "?"} operations, ${cases?.[1] ?? "?"} cases, ${seconds} s`;
    fs.mkdirSync(path.join(ROOT, ".schemathesis"), { recursive: true });
    fs.writeFileSync(path.join(ROOT, ".schemathesis", "last-run.txt"), `${figures}\n\n${output}`);
    process.stdout.write(`${figures}\n`);
    // Every operation of the description is tested; the run ends clean.
    expect(operations?.[1]).toBe(operations?.[2]);
    expect({ code, failures: code === 0 ? "" : output.slice(output.indexOf("FAILURES")) }).toEqual({ code: 0, failures: "" });
}, 20 * 60_000);
