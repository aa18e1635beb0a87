/**
 * The reference (`docs/reference.md`, "Every method") lists every method of the client with its signature,
 * under one calling convention. This test reads that list and the client's classes from their source, so a
 * method added, renamed or reshaped without the reference (or the other way round) fails here.
 */
import * as fs from "fs";
import * as path from "path";
import * as ts from "typescript";

const ROOT = path.join(__dirname, "..", "..");
/** The document that holds the list, from the repository's root. */
const DOCUMENT = "docs/reference.md";

/** The reference's headings in the signature block, by the source file and class that implement them. */
const CLASSES: Record<string, { file: string; className: string }> = {
    "client.projects": { file: "sdk/projects.ts", className: "Projects" },
    "client.variables": { file: "sdk/variables.ts", className: "Variables" },
    "client.workspaces": { file: "sdk/workspaces.ts", className: "Workspaces" },
    "client.noCodeModules": { file: "sdk/noCodeModules.ts", className: "NoCodeModules" },
    "client.registryModules": { file: "sdk/registryModules.ts", className: "RegistryModules" },
    client: { file: "sdk/client.ts", className: "WosClient" },
};

const squeeze = (text: string) => text.replace(/\s+/g, " ").replace(/;\s*}/g, " }").trim();

/** Each heading's lines of the reference's signature block (the `ts` block that starts `// client.projects`). */
function documentedSignatures(): Map<string, string[]> {
    const document = fs.readFileSync(path.join(ROOT, DOCUMENT), "utf8");
    const block = /```ts\n(\/\/ client\.projects\n[\s\S]*?)```/.exec(document);
    if (!block) throw new Error(`${DOCUMENT} has no signature block starting with \`// client.projects\``);
    const byHeading = new Map<string, string[]>();
    let heading: string | undefined;
    for (const line of block[1]!.split("\n")) {
        const comment = /^\/\/ (\S+)/.exec(line);
        if (comment) {
            heading = comment[1]!;
            byHeading.set(heading, []);
        } else if (line.trim() !== "") {
            byHeading.get(heading!)!.push(squeeze(line));
        }
    }
    return byHeading;
}

/** The public methods of a class as `name(parameters): ReturnType`, a defaulted parameter written `name?: T`. */
function sourceSignatures(file: string, className: string): string[] {
    const source = ts.createSourceFile(file, fs.readFileSync(path.join(ROOT, file), "utf8"), ts.ScriptTarget.Latest, true);
    const declaration = source.statements.find((node): node is ts.ClassDeclaration => ts.isClassDeclaration(node) && node.name?.text === className);
    if (!declaration) throw new Error(`${file} declares no class ${className}`);
    const signatures: string[] = [];
    for (const member of declaration.members) {
        if (!ts.isMethodDeclaration(member) || !ts.isIdentifier(member.name)) continue;
        if (ts.getCombinedModifierFlags(member) & (ts.ModifierFlags.Private | ts.ModifierFlags.Protected)) continue;
        const parameters = member.parameters.map((parameter) => {
            const optional = parameter.questionToken !== undefined || parameter.initializer !== undefined;
            return `${parameter.name.getText(source)}${optional ? "?" : ""}: ${parameter.type!.getText(source)}`;
        });
        signatures.push(squeeze(`${member.name.text}(${parameters.join(", ")}): ${member.type!.getText(source)}`));
    }
    return signatures;
}

describe("the reference's list of client methods", () => {
    const documented = documentedSignatures();

    it("has a heading for each resource of the client, and no other", () => {
        expect([...documented.keys()].sort()).toEqual(Object.keys(CLASSES).sort());
    });

    it.each(Object.entries(CLASSES))("lists every public method of %s with its signature as the source declares it", (heading, { file, className }) => {
        expect([...(documented.get(heading) ?? [])].sort()).toEqual(sourceSignatures(file, className).sort());
    });

    it("puts the owner's id before the object's own id and the options last, in every method", () => {
        for (const lines of documented.values()) {
            for (const line of lines) {
                const parameters = /\((.*)\):/.exec(line)![1]!.split(/, (?=\w+\??:)/).filter(Boolean);
                const names = parameters.map((parameter) => parameter.split(/\??:/)[0]!);
                const optionsAt = names.findIndex((name) => name === "options" || name === "tags" || name === "workspaceIds");
                // Ids come first, and nothing follows the options.
                if (optionsAt !== -1) expect({ line, after: names.slice(optionsAt + 1) }).toEqual({ line, after: [] });
                const ids = names.filter((name) => name !== "options" && name !== "tags" && name !== "workspaceIds" && name !== "upgrade");
                const rank = (name: string) => ["organization", "noCodeModuleId", "projectId", "workspaceId", "workspaceName", "name", "variableId", "upgradeId"].indexOf(name);
                const ownerRanks = ids.filter((name) => rank(name) !== -1).map(rank);
                expect({ line, ownerRanks }).toEqual({ line, ownerRanks: [...ownerRanks].sort((a, b) => a - b) });
            }
        }
    });
});
