/**
 * The two sides of the one schema (issues 21 and 31), brought to one comparable form: what the dynamic
 * resources' TypeScript declarations say (read by the build's own reader, `plugin/declarations/reader.ts`),
 * and what the plugin's package schema says. Each side becomes a {@link Shape} per property: its type (object
 * types by their properties, whatever they are called: {@link declaredSide} drops the declared names), whether
 * it is required, its description (the TSDoc text), whether it is always secret (TSDoc `@secret`), whether it
 * always replaces (TSDoc `@replaceOnChanges`, schema `willReplaceOnChanges`), whether it is plain, and its
 * default (TSDoc `@defaultValue`).
 */
import * as path from "node:path";
import { Declarations, type Described, type Shape, type TypeShape } from "../../plugin/declarations/reader";

export { Declarations, type Described, type Shape, type TypeShape };

/** The repository's root, whose declarations {@link Declarations} reads. */
export const ROOT = path.resolve(__dirname, "..", "..");

/** A declared resource or function without the declared names of its object types, which the schema calls by tokens. */
export function declaredSide(described: Described): Described {
    const type = (shape: TypeShape): TypeShape => {
        switch (shape.kind) {
            case "array":
                return { ...shape, items: type(shape.items) };
            case "map":
                return { ...shape, values: type(shape.values) };
            case "object": {
                const { name: _name, ...rest } = shape;
                return { ...rest, properties: properties(shape.properties) };
            }
            default:
                return shape;
        }
    };
    const properties = (shapes: Record<string, Shape>) =>
        Object.fromEntries(Object.entries(shapes).map(([name, shape]) => [name, { ...shape, type: type(shape.type) }]));
    return { description: described.description, inputs: properties(described.inputs), outputs: properties(described.outputs) };
}


// ---------------------------------------------------------------------------------------------------------
// The schema side

/** The package schema's parts this comparison reads. */
interface SchemaProperty {
    type?: string;
    plain?: boolean;
    items?: SchemaProperty;
    additionalProperties?: SchemaProperty;
    $ref?: string;
    oneOf?: SchemaProperty[];
    description?: string;
    secret?: boolean;
    default?: unknown;
    willReplaceOnChanges?: boolean;
}
interface SchemaObject {
    description?: string;
    properties?: Record<string, SchemaProperty>;
    required?: string[];
}
export interface PackageSchema {
    resources: Record<string, { description: string; isComponent?: boolean; properties: Record<string, SchemaProperty>; required?: string[]; inputProperties: Record<string, SchemaProperty>; requiredInputs?: string[] }>;
    functions: Record<string, { description: string; inputs: SchemaObject; outputs: SchemaObject }>;
    types: Record<string, SchemaObject>;
}

function schemaType(schema: PackageSchema, property: SchemaProperty): TypeShape {
    if (property.$ref) {
        const token = property.$ref.replace(/^#\/types\//, "");
        const object = schema.types[token];
        if (!object) throw new Error(`the schema has no type ${token}`);
        return { kind: "object", description: object.description ?? "", properties: schemaProperties(schema, object.properties ?? {}, object.required ?? []) };
    }
    if (property.oneOf) return { kind: "oneOf", of: property.oneOf.map((member) => member.type!) };
    if (property.type === "array") return { kind: "array", items: elementType(schema, property.items!) };
    if (property.type === "object") return { kind: "map", values: elementType(schema, property.additionalProperties!) };
    if (property.type === "integer") return { kind: "number" };
    return { kind: property.type as "string" | "number" | "boolean" };
}

/** An item of a list or a value of a map, `plain` where the schema says so. */
function elementType(schema: PackageSchema, property: SchemaProperty): TypeShape {
    const type = schemaType(schema, property);
    return property.plain ? { ...type, plain: true } : type;
}

/**
 * Properties in the comparable form; `replacing`: a resource's inputs, whose `willReplaceOnChanges` is the
 * declaration's `@replaceOnChanges` (elsewhere the schema has none: `declaredTables.test.ts` checks it).
 */
function schemaProperties(schema: PackageSchema, properties: Record<string, SchemaProperty>, required: string[], replacing = false): Record<string, Shape> {
    const result: Record<string, Shape> = {};
    for (const [name, property] of Object.entries(properties)) {
        const shape: Shape = {
            type: schemaType(schema, property),
            required: required.includes(name),
            description: property.description ?? "",
            secret: property.secret === true,
        };
        if (replacing && property.willReplaceOnChanges) shape.replaceOnChanges = true;
        if (property.default !== undefined) shape.default = property.default;
        if (property.plain) shape.plain = true;
        result[name] = shape;
    }
    return result;
}

/** A resource of the plugin's schema, in the comparable form. */
export function schemaResource(schema: PackageSchema, token: string): Described {
    const resource = schema.resources[token];
    if (!resource) throw new Error(`the schema has no resource ${token}`);
    return {
        description: resource.description,
        inputs: schemaProperties(schema, resource.inputProperties, resource.requiredInputs ?? [], true),
        outputs: schemaProperties(schema, resource.properties, resource.required ?? []),
    };
}

/** A function of the plugin's schema, in the comparable form. */
export function schemaFunction(schema: PackageSchema, token: string): Described {
    const fn = schema.functions[token];
    if (!fn) throw new Error(`the schema has no function ${token}`);
    return {
        description: fn.description,
        inputs: schemaProperties(schema, fn.inputs.properties ?? {}, fn.inputs.required ?? []),
        outputs: schemaProperties(schema, fn.outputs.properties ?? {}, fn.outputs.required ?? []),
    };
}
