/**
 * The build's step that makes the plugin's property tables from the dynamic resources' TypeScript
 * declarations (issue 31): every property of every resource, component and lookup is declared once, in
 * `provider/` (its type, optionality and TSDoc), and this writes what the plugin and the handlers need of it:
 *
 * - `plugin/declared.ts`: each resource's, component's and function's properties in the package schema's
 *   form, and the object types they use, by the name they are declared by (`plugin/declaredSchema.ts` gives
 *   them their tokens);
 * - `provider/handlers/replacingInputs.ts`: each resource's inputs whose change always replaces it (TSDoc
 *   `@replaceOnChanges`), which the handlers' `diff` answers as `replaces`.
 *
 * Both are committed, so that a change of a declaration shows in review as the change of what the plugin
 * serves; `tests/plugin/declaredTables.test.ts` fails when they are not what this writes.
 *
 *     node dist/plugin/declarations/write.js [<repository root>]      (npm run build runs it)
 *
 * @module
 */
import * as fs from "node:fs";
import * as path from "node:path";
import { Declarations, type Described, type Shape, type TypeShape } from "./reader";

/** Where each generated file goes, from the repository's root. */
export const GENERATED_FILES = {
    tables: path.join("plugin", "declared.ts"),
    replacingInputs: path.join("provider", "handlers", "replacingInputs.ts"),
} as const;

/** A property in the package schema's form, `$ref` naming a declared object type (not yet a token). */
interface PropertyTable {
    type?: string;
    items?: PropertyTable;
    additionalProperties?: PropertyTable;
    $ref?: string;
    oneOf?: PropertyTable[];
    plain?: boolean;
    description?: string;
    secret?: boolean;
    default?: unknown;
    willReplaceOnChanges?: boolean;
}

interface ObjectTable {
    description?: string;
    type: "object";
    properties: Record<string, PropertyTable>;
    required?: string[];
}

/**
 * Where a type is used: in the inputs of a resource or component (`plain` is said where the declaration
 * takes no `pulumi.Input`), or in outputs and lookups (where every value is plain, and the schema says nothing).
 */
type Context = "input" | "output";

class TableWriter {
    readonly objectTypes: Record<string, ObjectTable> = {};
    /** The context each object type was first met in: one type in both would need two schema types. */
    private readonly contexts = new Map<string, Context>();

    /** A type in the schema's form; the key order is the schema's own (type, then `plain`, then the rest). */
    private typeTable(type: TypeShape, context: Context): PropertyTable {
        let table: PropertyTable;
        switch (type.kind) {
            case "string":
            case "number":
            case "boolean":
                table = { type: type.kind };
                break;
            case "oneOf":
                table = { oneOf: type.of.map((kind) => ({ type: kind })) };
                break;
            case "array":
                table = { type: "array", items: this.typeTable(type.items, context) };
                break;
            case "map":
                table = { type: "object", additionalProperties: this.typeTable(type.values, context) };
                break;
            case "object":
                table = { $ref: this.objectType(type, context) };
                break;
        }
        if (context === "input" && type.plain) table.plain = true;
        return table;
    }

    private propertyTable(shape: Shape, context: Context, replacing: boolean): PropertyTable {
        const table = this.typeTable(shape.type, context);
        if (context === "input" && shape.plain) table.plain = true;
        if (shape.description) table.description = shape.description;
        if (shape.secret) table.secret = true;
        if (shape.default !== undefined) table.default = shape.default;
        if (replacing && shape.replaceOnChanges) table.willReplaceOnChanges = true;
        return table;
    }

    /** The properties and required names of an object, in declaration order. */
    properties(shapes: Record<string, Shape>, context: Context, replacing = false): { properties: Record<string, PropertyTable>; required: string[] } {
        const properties: Record<string, PropertyTable> = {};
        const required: string[] = [];
        for (const [name, shape] of Object.entries(shapes)) {
            properties[name] = this.propertyTable(shape, context, replacing);
            if (shape.required) required.push(name);
        }
        return { properties, required };
    }

    /** Records an object type by its declared name, and answers that name. */
    private objectType(type: Extract<TypeShape, { kind: "object" }>, context: Context): string {
        if (!type.name) throw new Error(`an object type without a name (${Object.keys(type.properties).join(", ")}): declare it as an interface or type alias`);
        const seen = this.contexts.get(type.name);
        if (seen !== undefined) {
            if (seen !== context) throw new Error(`${type.name} is used in inputs and in outputs: declare one type for each`);
            return type.name;
        }
        this.contexts.set(type.name, context);
        const { properties, required } = this.properties(type.properties, context);
        this.objectTypes[type.name] = { description: type.description, type: "object", properties, ...(required.length > 0 ? { required } : {}) };
        return type.name;
    }
}

/** What the build writes: the text of each generated file. */
export interface DeclaredTablesText {
    /** The content of {@link GENERATED_FILES}, by key. */
    files: Record<keyof typeof GENERATED_FILES, string>;
}

/** The widest line a value is written on whole; a longer one is written a member a line. */
const LINE_WIDTH = 140;

/**
 * A value as TypeScript source, readable in review: each object or list on one line when it fits in
 * {@link LINE_WIDTH}, otherwise a member a line; keys unquoted where they can be.
 */
function source(value: unknown, indent = ""): string {
    const inline = (item: unknown): string =>
        Array.isArray(item)
            ? `[${item.map(inline).join(", ")}]`
            : item !== null && typeof item === "object"
              ? Object.keys(item).length === 0
                  ? "{}"
                  : `{ ${Object.entries(item).map(([key, member]) => `${keySource(key)}: ${inline(member)}`).join(", ")} }`
              : JSON.stringify(item);
    const whole = inline(value);
    if (indent.length + whole.length <= LINE_WIDTH || value === null || typeof value !== "object") return whole;
    const inner = `${indent}    `;
    if (Array.isArray(value)) return `[\n${value.map((item) => `${inner}${source(item, inner)},\n`).join("")}${indent}]`;
    return `{\n${Object.entries(value).map(([key, member]) => `${inner}${keySource(key)}: ${source(member, inner)},\n`).join("")}${indent}}`;
}

function keySource(key: string): string {
    return /^[A-Za-z_$][\w$]*$/.test(key) ? key : JSON.stringify(key);
}

const HEADER = (what: string) =>
    `/**\n * ${what}\n *\n * Generated by \`plugin/declarations/write.ts\` (\`npm run build\`) from the declarations of \`provider/\`: never edit\n * it; change the declaration (its type, optionality or TSDoc) and build again.\n *\n * @module\n */\n`;

/** What the generated files hold, made from the declarations under `root`. */
export function declaredTables(root: string): DeclaredTablesText {
    const declarations = new Declarations(root);
    const inventory = declarations.inventory();
    const writer = new TableWriter();
    const resourceTable = (described: Described, replacing: boolean) => {
        const outputs = writer.properties(described.outputs, "output");
        const inputs = writer.properties(described.inputs, "input", replacing);
        return { properties: outputs.properties, required: outputs.required, inputProperties: inputs.properties, requiredInputs: inputs.required };
    };
    const declaredResources = inventory.resources.map((name) => [name, declarations.resource(name)] as const);
    const resources = Object.fromEntries(declaredResources.map(([name, described]) => [name, resourceTable(described, true)]));
    const components = Object.fromEntries(inventory.components.map((name) => [name, resourceTable(declarations.component(name), false)]));
    const functions = Object.fromEntries(
        inventory.functions.map((name) => {
            const described = declarations.function(name);
            const inputs = writer.properties(described.inputs, "output");
            const outputs = writer.properties(described.outputs, "output");
            return [name, { inputs: { type: "object", ...inputs }, outputs: { type: "object", ...outputs } }];
        }),
    );
    const tables = { resources, components, functions, objectTypes: writer.objectTypes };
    const replacing = Object.fromEntries(
        declaredResources.map(([name, described]) => [
            name,
            Object.entries(described.inputs)
                .filter(([, shape]) => shape.replaceOnChanges)
                .map(([input]) => input),
        ]),
    );
    return {
        files: {
            tables:
                HEADER("The properties of every resource, component and function of the plugin, as the package schema says them.") +
                `import type { DeclaredTables } from "./schemaSpec";\n\n` +
                `export const DECLARED: DeclaredTables = ${source(tables)};\n`,
            replacingInputs:
                HEADER("The inputs of each resource whose change always replaces it (TSDoc `@replaceOnChanges`): its `diff`'s `replaces`.") +
                `export const REPLACING_INPUTS = ${source(replacing)} as const;\n`,
        },
    };
}

/** Writes the generated files under `root` (each only when its content changed); answers those written. */
export function writeDeclaredTables(root: string): string[] {
    const { files } = declaredTables(root);
    const written: string[] = [];
    for (const [key, text] of Object.entries(files) as [keyof typeof GENERATED_FILES, string][]) {
        const file = path.join(root, GENERATED_FILES[key]);
        if (fs.existsSync(file) && fs.readFileSync(file, "utf8") === text) continue;
        fs.writeFileSync(file, text);
        written.push(GENERATED_FILES[key]);
    }
    return written;
}

if (require.main === module) {
    const root = path.resolve(process.argv[2] ?? ".");
    for (const file of writeDeclaredTables(root)) console.log(`wrote ${file}`);
}
