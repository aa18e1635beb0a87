/**
 * The plugin's version: the package's (`package.json`), which `GetPluginInfo` and the schema report and the
 * plugin tarball is named after.
 *
 * @module
 */
import * as fs from "node:fs";
import * as path from "node:path";

// Set by the bundle build (plugin/pack.ts), where no package.json lies beside the plugin; absent under tsc.
declare const WOS_PLUGIN_VERSION: string | undefined;

/** The version of the package, e.g. `0.1.0`. */
export function pluginVersion(): string {
    if (typeof WOS_PLUGIN_VERSION === "string") return WOS_PLUGIN_VERSION;
    // Compiled to dist/plugin/: the package's root is two folders up.
    const manifest = JSON.parse(fs.readFileSync(path.resolve(__dirname, "..", "..", "package.json"), "utf8")) as { version: string };
    return manifest.version;
}
