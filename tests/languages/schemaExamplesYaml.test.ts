/**
 * The YAML example of every resource, component and function of the package schema, run through the real
 * CLI as the schema (and so the registry's docs) shows it ({@link schemaExampleRunTests}).
 */
import * as fs from "node:fs";
import * as path from "node:path";
import { schemaExampleRunTests } from "./schemaExampleRuns";

schemaExampleRunTests({
    language: "yaml",
    // The example is the program's body: what a Pulumi.yaml holds after its name and runtime.
    writeProgram: (dir, name, code) => fs.writeFileSync(path.join(dir, "Pulumi.yaml"), `name: ${name}\nruntime: yaml\n${code}`),
});
