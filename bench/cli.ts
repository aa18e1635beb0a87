/**
 * Area `cli`: the real `pulumi up` and `pulumi destroy` of a program of `BENCH_CLI_PROJECTS` (200)
 * `wos:Project`s, beside the same program on the thinnest dynamic provider that sends the same requests
 * (`bench/thinProvider.ts`), in the same run: wall time, and the CPU time of the CLI with everything it
 * started (the language host, the provider host; `/usr/bin/time`), each the median of `BENCH_CLI_ROUNDS` (2)
 * alternating rounds. The target (issue 18): at most 1.3x.
 *
 * The CLI is the one `tests/cli/setup.sh` builds (`npm run bench` runs it first). Both programs are plain
 * JavaScript in directories whose `node_modules` link this repository (built) and its `@pulumi/pulumi`.
 *
 * @module
 */
import { execFile } from "node:child_process";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { ORGANIZATION, TOKEN, cpuTimeMs, envNumber, formatNumber, heading, median, reportBeside, type ServerProcess } from "./support";

/** The target of issue 18: at most 1.3x the same program on the thinnest provider. */
const TARGET = 1.3;
const REPO_ROOT = path.resolve(__dirname, "..", "..");

/** The CLI built for the repository's tests, at the `@pulumi/pulumi` version of the lock file. */
function pulumiBinDir(): string {
    const lock = JSON.parse(fs.readFileSync(path.join(REPO_ROOT, "package-lock.json"), "utf8")) as {
        packages: Record<string, { version?: string }>;
    };
    const dir = path.join(REPO_ROOT, ".pulumi-cli", `v${lock.packages["node_modules/@pulumi/pulumi"]!.version}`, "bin");
    if (!fs.existsSync(path.join(dir, "pulumi"))) throw new Error(`no Pulumi CLI in ${dir}: run \`bash tests/cli/setup.sh\``);
    return dir;
}

/** The two programs: `count` projects through `wos.Project`, and through the thin provider. */
function programSources(count: number): { ours: string; thin: string } {
    const thinModule = path.join(__dirname, "thinProvider.js");
    const loop = (make: string) => `for (let index = 0; index < ${count}; index += 1) ${make};\n`;
    const name = (prefix: string) => `{ organization: "${ORGANIZATION}", name: "${prefix} " + String(index).padStart(4, "0"), description: "bench" }`;
    return {
        ours: `"use strict";\nconst wos = require("pulumi-wos");\n${loop(`new wos.Project("p" + index, ${name("Bench Cli Ours")})`)}`,
        thin: `"use strict";
const pulumi = require("@pulumi/pulumi");
const thinModule = ${JSON.stringify(thinModule)};
const provider = {
    configure: (request) => require(thinModule).configure(request),
    check: (olds, news) => require(thinModule).check(olds, news),
    diff: (id, olds, news) => require(thinModule).diff(id, olds, news),
    create: (inputs) => require(thinModule).create(inputs),
    read: (id, props) => require(thinModule).read(id, props),
    update: (id, olds, news) => require(thinModule).update(id, olds, news),
    delete: (id, props) => require(thinModule).delete(id, props),
};
class ThinProject extends pulumi.dynamic.Resource {
    constructor(name, args) { super(provider, name, args, undefined, "wos", "Project"); }
}
${loop(`new ThinProject("p" + index, ${name("Bench Cli Thin")})`)}`,
    };
}

interface Command {
    wallMs: number;
    cpuMs: number;
}

/** A program directory with its own stack on a local backend, and the CLI to run on it. */
async function prepareProgram(root: string, label: string, source: string, server: ServerProcess) {
    const dir = path.join(root, label);
    fs.mkdirSync(path.join(dir, "node_modules", "@pulumi"), { recursive: true });
    fs.symlinkSync(REPO_ROOT, path.join(dir, "node_modules", "pulumi-wos"), "dir");
    fs.symlinkSync(path.join(REPO_ROOT, "node_modules", "@pulumi", "pulumi"), path.join(dir, "node_modules", "@pulumi", "pulumi"), "dir");
    fs.writeFileSync(path.join(dir, "Pulumi.yaml"), `name: wos-bench-${label}\nruntime: nodejs\nmain: index.js\n`);
    fs.writeFileSync(path.join(dir, "index.js"), source);
    const backend = path.join(root, `${label}-backend`);
    fs.mkdirSync(backend);
    const env = {
        ...process.env,
        PATH: `${pulumiBinDir()}${path.delimiter}${process.env.PATH ?? ""}`,
        PULUMI_HOME: path.join(root, `${label}-home`),
        PULUMI_BACKEND_URL: `file://${backend}`,
        PULUMI_CONFIG_PASSPHRASE: "bench",
        PULUMI_SKIP_UPDATE_CHECK: "1",
        PULUMI_DISABLE_AUTOMATIC_PLUGIN_ACQUISITION: "true",
    };
    const pulumi = (args: string[]): Promise<Command> =>
        new Promise((resolve, reject) => {
            const started = performance.now();
            execFile(
                "/usr/bin/time",
                ["-f", "cpu %U %S", "pulumi", ...args, "--non-interactive", "--color", "never"],
                { cwd: dir, env, maxBuffer: 64 * 1024 * 1024 },
                (error, stdout, stderr) => {
                    if (error) {
                        reject(new Error(`pulumi ${args.join(" ")} failed:\n${stdout}\n${stderr}`));
                        return;
                    }
                    const cpu = /cpu (\d+\.\d+) (\d+\.\d+)\s*$/.exec(stderr);
                    resolve({ wallMs: performance.now() - started, cpuMs: cpu ? (Number(cpu[1]) + Number(cpu[2])) * 1000 : NaN });
                },
            );
        });
    await pulumi(["stack", "init", "bench"]);
    await pulumi(["config", "set", "wos:address", server.url]);
    await pulumi(["config", "set", "--secret", "wos:token", TOKEN]);
    return pulumi;
}

export async function benchCli(server: ServerProcess): Promise<void> {
    const count = envNumber("BENCH_CLI_PROJECTS", 200);
    const rounds = envNumber("BENCH_CLI_ROUNDS", 2);
    heading(`cli (the real pulumi up and destroy of ${count} projects, beside the thinnest provider; median of ${rounds} alternating rounds)`);
    const root = fs.mkdtempSync(path.join(os.tmpdir(), "wos-bench-cli-"));
    try {
        const sources = programSources(count);
        const programs = {
            ours: await prepareProgram(root, "ours", sources.ours, server),
            thin: await prepareProgram(root, "thin", sources.thin, server),
        };
        const figures: Record<string, Record<"up" | "destroy", Command[]>> = {
            ours: { up: [], destroy: [] },
            thin: { up: [], destroy: [] },
        };
        const serverCpu: Record<string, number[]> = { ours: [], thin: [] };
        for (let round = 0; round < rounds; round += 1) {
            // Alternating, so that a slow minute of the machine falls on both.
            for (const label of round % 2 === 0 ? (["ours", "thin"] as const) : (["thin", "ours"] as const)) {
                const before = cpuTimeMs(server.pid);
                figures[label]!.up.push(await programs[label](["up", "--yes", "--skip-preview"]));
                figures[label]!.destroy.push(await programs[label](["destroy", "--yes", "--skip-preview"]));
                serverCpu[label]!.push(cpuTimeMs(server.pid) - before);
            }
        }
        for (const operation of ["up", "destroy"] as const) {
            const wall = (label: string) => median(figures[label]![operation].map((command) => command.wallMs));
            const cpu = (label: string) => median(figures[label]![operation].map((command) => command.cpuMs));
            reportBeside(`pulumi ${operation}, wall`, wall("ours") / 1000, "thin provider", wall("thin") / 1000, "s", { ratio: TARGET });
            reportBeside(`pulumi ${operation}, CPU of the CLI and its hosts`, cpu("ours") / 1000, "thin provider", cpu("thin") / 1000, "s", { ratio: TARGET });
        }
        console.log(
            `  (the service's CPU for an up and a destroy: ${formatNumber(median(serverCpu.ours!) / 1000)} s, ` +
                `with the thin provider ${formatNumber(median(serverCpu.thin!) / 1000)} s)`,
        );
    } finally {
        fs.rmSync(root, { recursive: true, force: true });
    }
}
