/**
 * A Pulumi Go program (`tests/languages/go-project`) on the generated SDK (sdks/go, through a `replace` in the
 * program's `go.mod`) and the native plugin, through the real CLI and its Go language host (of sdk 3.66, which
 * builds the program with the `go` on PATH): the whole no-code life against the real `wos-server`
 * ({@link programLifecycleTests}).
 */
import * as path from "node:path";
import { programLifecycleTests } from "./programLifecycle";
import { goModuleOnSdk } from "./languageTools";

programLifecycleTests({
    source: path.join(__dirname, "go-project"),
    language: "go",
    projectDescription: "Buckets made by a Pulumi Go program",
    archiveKey: "go-archive-key-5c1b93",
    prepare: (dir) => goModuleOnSdk(dir, "example.com/wos-go-program"),
});
