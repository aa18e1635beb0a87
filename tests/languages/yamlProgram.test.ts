/**
 * A Pulumi YAML program (`tests/languages/yaml-project`) on the native plugin through the real CLI: its whole
 * life against the real `wos-server` ({@link programLifecycleTests}).
 */
import * as path from "node:path";
import { programLifecycleTests } from "./programLifecycle";

programLifecycleTests({
    source: path.join(__dirname, "yaml-project"),
    projectName: "yaml-platform",
    description: "Made by a Pulumi YAML program",
    tags: { team: "platform", language: "yaml" },
});
