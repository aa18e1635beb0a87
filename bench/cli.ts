/**
 * Area `cli`: the real `pulumi up` and `pulumi destroy` of a program of `BENCH_CLI_PROJECTS` (200)
 * `wos:Project`s, in the same run:
 * - through the dynamic resources, beside the same program on the thinnest dynamic provider that sends the
 *   same requests (`bench/thinProvider.ts`); the target (issue 18): at most 1.3x;
 * - through the native plugin `pulumi-resource-wos` (the tarball of `npm run plugin:pack`, installed by
 *   `pulumi plugin install --file`), beside the dynamic resources; expected (issue 21): faster and smaller,
 *   since no resource carries the serialized provider.
 * Each figure is wall time, the CPU time of the CLI with everything it started (the language host, the
 * provider host or plugin; `/usr/bin/time`), and the size of the stack's state after the `up` (`pulumi stack
 * export`), each the median of `BENCH_CLI_ROUNDS` (2) rounds in alternating order.
 *
 * The CLI is the one `tests/cli/setup.sh` builds (`npm run bench` runs it first). The three programs are plain
 * JavaScript in directories whose `node_modules` link this repository (built) and its `@pulumi/pulumi`; the
 * plugin's program declares `wos:index:Project` by its type token, as a generated SDK would.
 *
 * @module
 */
import { execFile } from "node:child_process";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { hostPlatform, packPlugin } from "../plugin/pack";
import { pluginVersion } from "../plugin/pluginVersion";
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

/** The three programs: `count` projects through `wos.Project`, through the thin provider, and through the plugin. */
function programSources(count: number): Record<Label, string> {
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
        plugin: `"use strict";
const pulumi = require("@pulumi/pulumi");
${loop(`new pulumi.CustomResource("wos:index:Project", "p" + index, ${name("Bench Cli Plugin")})`)}`,
    };
}

const LABELS = ["ours", "thin", "plugin"] as const;
type Label = (typeof LABELS)[number];

interface Command {
    wallMs: number;
    cpuMs: number;
}

/**
 * A program directory with its own stack on a local backend (its address `server.url`), and the CLI to run
 * on it. Shared with `bench/fleet.ts`.
 */
export async function prepareProgram(root: string, label: string, source: string, server: Pick<ServerProcess, "url">) {
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
    /** The size in bytes of the stack's state, as `pulumi stack export` writes it. */
    const stateBytes = async (): Promise<number> => {
        const file = path.join(root, `${label}-state.json`);
        await pulumi(["stack", "export", "--file", file]);
        return fs.statSync(file).size;
    };
    return { pulumi, stateBytes };
}

export async function benchCli(server: ServerProcess): Promise<void> {
    const count = envNumber("BENCH_CLI_PROJECTS", 200);
    const rounds = envNumber("BENCH_CLI_ROUNDS", 2);
    heading(
        `cli (the real pulumi up and destroy of ${count} projects: the dynamic resources beside the thinnest provider, ` +
            `the native plugin beside the dynamic resources; median of ${rounds} rounds in rotating order)`,
    );
    const root = fs.mkdtempSync(path.join(os.tmpdir(), "wos-bench-cli-"));
    try {
        const sources = programSources(count);
        const programs = {} as Record<Label, Awaited<ReturnType<typeof prepareProgram>>>;
        for (const label of LABELS) programs[label] = await prepareProgram(root, label, sources[label], server);
        // The plugin as a user installs it: the packed tarball, into the plugin program's own PULUMI_HOME.
        const [packed] = await packPlugin(path.join(root, "plugin-pack"), [hostPlatform()!]);
        const tarball = packed!.file;
        await programs.plugin.pulumi(["plugin", "install", "resource", "wos", pluginVersion(), "--file", tarball]);
        const figures = {} as Record<Label, { up: Command[]; destroy: Command[]; stateBytes: number[] }>;
        const serverCpu = {} as Record<Label, number[]>;
        for (const label of LABELS) {
            figures[label] = { up: [], destroy: [], stateBytes: [] };
            serverCpu[label] = [];
        }
        for (let round = 0; round < rounds; round += 1) {
            // Rotated each round, so that a slow minute of the machine falls on each program in turn.
            const order = [...LABELS.slice(round % LABELS.length), ...LABELS.slice(0, round % LABELS.length)];
            for (const label of order) {
                const before = cpuTimeMs(server.pid);
                figures[label].up.push(await programs[label].pulumi(["up", "--yes", "--skip-preview"]));
                figures[label].stateBytes.push(await programs[label].stateBytes());
                figures[label].destroy.push(await programs[label].pulumi(["destroy", "--yes", "--skip-preview"]));
                serverCpu[label].push(cpuTimeMs(server.pid) - before);
            }
        }
        const wall = (label: Label, operation: "up" | "destroy") => median(figures[label][operation].map((command) => command.wallMs)) / 1000;
        const cpu = (label: Label, operation: "up" | "destroy") => median(figures[label][operation].map((command) => command.cpuMs)) / 1000;
        for (const operation of ["up", "destroy"] as const) {
            reportBeside(`pulumi ${operation}, wall`, wall("ours", operation), "thin provider", wall("thin", operation), "s", { ratio: TARGET });
            reportBeside(`pulumi ${operation}, CPU of the CLI and its hosts`, cpu("ours", operation), "thin provider", cpu("thin", operation), "s", {
                ratio: TARGET,
            });
        }
        console.log(
            `  (the service's CPU for an up and a destroy: ${formatNumber(median(serverCpu.ours) / 1000)} s, ` +
                `with the thin provider ${formatNumber(median(serverCpu.thin) / 1000)} s)`,
        );
        // The plugin beside the dynamic resources: a ratio below 1 is the plugin's gain.
        const besideDynamic = (what: string, plugin: number, dynamic: number, unit: string) =>
            console.log(
                `${what}: plugin ${formatNumber(plugin)} ${unit} | dynamic resources ${formatNumber(dynamic)} ${unit} | ` +
                    `${formatNumber(plugin / dynamic)}x  expected < 1x: ${plugin < dynamic ? "met" : "NOT met"}`,
            );
        for (const operation of ["up", "destroy"] as const) {
            besideDynamic(`pulumi ${operation} through the plugin, wall`, wall("plugin", operation), wall("ours", operation), "s");
            besideDynamic(`pulumi ${operation} through the plugin, CPU of the CLI and its hosts`, cpu("plugin", operation), cpu("ours", operation), "s");
        }
        besideDynamic(`state of ${count} projects through the plugin`, median(figures.plugin.stateBytes) / 1024, median(figures.ours.stateBytes) / 1024, "KiB");
        console.log(`  (the service's CPU for an up and a destroy through the plugin: ${formatNumber(median(serverCpu.plugin) / 1000)} s)`);
    } finally {
        fs.rmSync(root, { recursive: true, force: true });
    }
}
