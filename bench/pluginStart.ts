/**
 * The plugin's archives and start-up (issue 28): each platform's archive size (packed and unpacked), and how
 * long the plugin takes from its start to the port line the engine waits for, the single executable (this
 * machine's archive: the bundle inside the Node.js of `.nvmrc`) beside the launcher (the `sh` script of the
 * macOS archives, run here with the same Node.js on `PATH`), and both beside the floor: that Node.js starting
 * and printing one line. Starts alternate between the three, so that a slow moment of the machine falls on each.
 *
 * Knob: `BENCH_PLUGIN_STARTS` (default 15 of each).
 */
import { execFileSync, spawn } from "node:child_process";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { hostPlatform, packPlugin, platformName, PLATFORMS } from "../plugin/pack";
import { envNumber, formatNumber, heading, median, reportBeside } from "./support";

/** Milliseconds from spawning `command args` until its first line on stdout; then it is stopped. */
function timeToFirstLine(command: string, args: string[], env: NodeJS.ProcessEnv): Promise<number> {
    return new Promise((resolve, reject) => {
        const started = process.hrtime.bigint();
        const child = spawn(command, args, { env, stdio: ["ignore", "pipe", "pipe"] });
        let stderr = "";
        child.stderr.setEncoding("utf8").on("data", (chunk: string) => (stderr += chunk));
        child.stdout.setEncoding("utf8").once("data", () => {
            const elapsed = Number(process.hrtime.bigint() - started) / 1e6;
            child.kill("SIGKILL");
            resolve(elapsed);
        });
        child.once("exit", (code) => reject(new Error(`${command} exited ${code} before its first line: ${stderr}`)));
        child.once("error", reject);
    });
}

export async function benchPluginStart(): Promise<void> {
    const starts = envNumber("BENCH_PLUGIN_STARTS", 15);
    heading(`plugin (each platform's archive; start to the port line, median of ${starts}: the single executable, the launcher, bare Node.js)`);
    const work = fs.mkdtempSync(path.join(os.tmpdir(), "wos-bench-plugin-"));
    try {
        const archives = await packPlugin(path.join(work, "archives"), PLATFORMS);
        for (const { platform, file } of archives) {
            const unpacked = path.join(work, platformName(platform));
            fs.mkdirSync(unpacked);
            execFileSync("tar", ["-xzf", file, "-C", unpacked]);
            const bytes = fs.readdirSync(unpacked).reduce((sum, name) => sum + fs.statSync(path.join(unpacked, name)).size, 0);
            const kind = platform.nodePackage === undefined ? "launcher and bundle" : "one executable";
            console.log(
                `archive ${platformName(platform)}: ${formatNumber(fs.statSync(file).size / 1e6)} MB packed, ${formatNumber(bytes / 1e6)} MB unpacked (${kind})`,
            );
        }
        const host = hostPlatform();
        if (!host || host.nodePackage === undefined) throw new Error("the start-up figures need a platform whose archive is one executable");
        const executable = path.join(work, platformName(host), "pulumi-resource-wos");
        const launcher = path.join(work, "darwin-arm64", "pulumi-resource-wos");
        const env = { ...process.env, PATH: `${path.dirname(process.execPath)}${path.delimiter}${process.env.PATH ?? ""}` };
        const samples = { executable: [] as number[], launcher: [] as number[], node: [] as number[] };
        for (let round = 0; round < starts; round++) {
            samples.executable.push(await timeToFirstLine(executable, ["127.0.0.1:1"], env));
            samples.launcher.push(await timeToFirstLine(launcher, ["127.0.0.1:1"], env));
            samples.node.push(await timeToFirstLine(process.execPath, ["-e", "console.log(1)"], env));
        }
        const floor = median(samples.node);
        reportBeside("start, single executable", median(samples.executable), "node -e, same Node.js", floor, "ms");
        reportBeside("start, launcher", median(samples.launcher), "node -e, same Node.js", floor, "ms");
    } finally {
        fs.rmSync(work, { recursive: true, force: true });
    }
}
