/**
 * A Pulumi YAML program (`tests/languages/yaml-project`) on the native plugin through the real CLI: the whole
 * no-code life against the real `wos-server` ({@link programLifecycleTests}), with no Node.js anywhere on the
 * CLI's `PATH` (only the CLI's own folder: the CLI and its language hosts): the plugin installed is this
 * machine's archive, one executable that carries its own Node.js (issue 28), as a YAML user without Node.js
 * has it.
 */
import * as fs from "node:fs";
import * as path from "node:path";
import { pulumiBinDir } from "../support/pulumiCli";
import { programLifecycleTests } from "./programLifecycle";

programLifecycleTests({
    source: path.join(__dirname, "yaml-project"),
    language: "yaml",
    projectDescription: "Buckets made by a Pulumi YAML program",
    archiveKey: "yaml-archive-key-3f9a1c",
    async environment() {
        const PATH = pulumiBinDir();
        // The proof holds only while nothing on that PATH is a Node.js.
        const nodes = PATH.split(path.delimiter).filter((dir) => fs.existsSync(path.join(dir, "node")));
        if (nodes.length > 0) throw new Error(`the YAML program's PATH must hold no node, and ${nodes.join(", ")} does`);
        return { PATH };
    },
});
