/**
 * A Pulumi YAML program (`tests/languages/yaml-project`) on the native plugin through the real CLI: the whole
 * no-code life against the real `wos-server` ({@link programLifecycleTests}).
 */
import * as path from "node:path";
import { programLifecycleTests } from "./programLifecycle";

programLifecycleTests({
    source: path.join(__dirname, "yaml-project"),
    language: "yaml",
    projectDescription: "Buckets made by a Pulumi YAML program",
    archiveKey: "yaml-archive-key-3f9a1c",
});
