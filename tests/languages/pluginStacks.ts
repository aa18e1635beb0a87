/**
 * What the CLI-level proofs of the native plugin share (issue 21, section 3: import, explicit providers,
 * secrets, faults): a Pulumi YAML program on a stack of its own, run by the real CLI (`tests/cli/setup.sh`
 * builds it with the YAML language host) with the plugin installed as a user installs it (`pulumi plugin
 * install resource wos <version> --file <tarball>` of what `npm run plugin:pack` makes) into the stack's own
 * `PULUMI_HOME`, against the real `wos-server` of the test file; and reads of what the CLI printed and stored.
 */
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { pulumiProgram, type PulumiProgram } from "../support/pulumiCli";
import { PLATFORM_TOKEN, type CliTestService } from "../cli/localService";
import { installPlugin, pluginTarball } from "./languageTools";

/** The first poll of an upgrade's plan, made fast for the tests (the provider's default is 1 s). */
export const UPGRADE_POLL_MS = "100";

/** A program on a stack of its own, with everything the CLI printed for it. */
export interface ProgramStack {
    program: PulumiProgram;
    /** Every command run so far, each with its output. */
    transcript(): string;
    /** Writes `Pulumi.yaml` (a YAML program's whole text) over the program's. */
    writeYaml(text: string): void;
    dispose(): Promise<void>;
}

/** Wraps `program.pulumi` and `program.attempt` so that everything they print lands in the transcript. */
export function withTranscript(program: PulumiProgram): () => string {
    let transcript = "";
    for (const run of ["pulumi", "attempt"] as const) {
        const original = program[run];
        program[run] = async (args, options) => {
            try {
                const result = await original(args, options);
                transcript += `$ pulumi ${args.join(" ")}\n${result.output}\n`;
                return result;
            } catch (failure) {
                transcript += `$ pulumi ${args.join(" ")}\n${(failure as Error).message}\n`;
                throw failure;
            }
        };
    }
    return () => transcript;
}

export interface YamlStackOptions {
    /** The whole `Pulumi.yaml` (`name`, `runtime: yaml`, `resources`, ...). */
    yaml: string;
    /**
     * Stack config set before anything runs (name to value). Unless `defaultProvider` is false, the default
     * provider's `wos:address` (the service's), `wos:token` (the platform team's, a secret) and
     * `wos:organization` (`acme`) come first.
     */
    config?: Record<string, { value: string; secret?: boolean }>;
    /** Set the default provider's config (default true). */
    defaultProvider?: boolean;
}

/** A YAML program on a new stack, the plugin installed into its `PULUMI_HOME`, its config set. */
export async function yamlStack(service: CliTestService, options: YamlStackOptions): Promise<ProgramStack> {
    const source = fs.mkdtempSync(path.join(os.tmpdir(), "wos-yaml-"));
    fs.writeFileSync(path.join(source, "Pulumi.yaml"), options.yaml);
    let program: PulumiProgram;
    try {
        program = await pulumiProgram({ source, packed: false, env: { WOS_UPGRADE_POLL_MS: UPGRADE_POLL_MS } });
    } finally {
        fs.rmSync(source, { recursive: true, force: true });
    }
    const transcript = withTranscript(program);
    await installPlugin(program, await pluginTarball());
    if (options.defaultProvider !== false) {
        await program.setConfig("wos:address", service.url);
        await program.setConfig("wos:token", PLATFORM_TOKEN, { secret: true });
        await program.setConfig("wos:organization", "acme");
    }
    for (const [key, { value, secret }] of Object.entries(options.config ?? {})) await program.setConfig(key, value, { secret });
    return {
        program,
        transcript,
        writeYaml: (text) => fs.writeFileSync(path.join(program.dir, "Pulumi.yaml"), text),
        dispose: () => program.dispose(),
    };
}

/** The paths (`resources[urn].outputs.vars[1].value`, ...) of `document` at which a string contains `text`. */
export function pathsHolding(document: unknown, text: string, at = ""): string[] {
    if (typeof document === "string") return document.includes(text) ? [at] : [];
    if (Array.isArray(document)) return document.flatMap((item, index) => pathsHolding(item, text, `${at}[${index}]`));
    if (document !== null && typeof document === "object") {
        return Object.entries(document).flatMap(([key, value]) => pathsHolding(value, text, at === "" ? key : `${at}.${key}`));
    }
    return [];
}

/** Each resource of a `pulumi stack export`, by the last part of its URN (its name), with the paths that hold `text`. */
export function resourcePathsHolding(deployment: { deployment: { resources?: Array<{ urn: string }> } }, text: string): Record<string, string[]> {
    const found: Record<string, string[]> = {};
    for (const resource of deployment.deployment.resources ?? []) {
        const paths = pathsHolding(resource, text);
        if (paths.length > 0) found[resource.urn.split("::").pop()!] = paths.sort();
    }
    return found;
}
