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
    // The package's root: one folder up from the sources (plugin/), two from the build (dist/plugin/).
    for (let folder = __dirname; ; folder = path.dirname(folder)) {
        const file = path.join(folder, "package.json");
        if (fs.existsSync(file)) {
            const manifest = JSON.parse(fs.readFileSync(file, "utf8")) as { name?: string; version: string };
            if (manifest.name === "pulumi-wos") return manifest.version;
        }
        if (path.dirname(folder) === folder) throw new Error("pulumi-resource-wos: no package.json of pulumi-wos above the plugin");
    }
}
