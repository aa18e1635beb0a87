/**
 * The two sides of the one schema (issue 21), brought to one comparable form: what the dynamic resources'
 * TypeScript declarations say (the `Args` interfaces, the declared outputs of each resource class, the
 * lookups' argument and result interfaces, read with the TypeScript compiler API), and what the plugin's
 * package schema says. Each side becomes a {@link Shape} per property: its type (object types by their
 * properties, whatever they are called), whether it is required, its description (the TSDoc text), whether
 * it is always secret (TSDoc `@secret`) and its default (TSDoc `@defaultValue`).
 */
import * as path from "node:path";
import * as ts from "typescript";

const ROOT = path.resolve(__dirname, "..", "..");

/** A property's type, structurally. */
export type TypeShape =
    | { kind: "string" | "number" | "boolean" }
    | { kind: "oneOf"; of: string[] }
    | { kind: "array"; items: TypeShape }
    | { kind: "map"; values: TypeShape }
    | { kind: "object"; description: string; properties: Record<string, Shape> };

/** Everything the schema says of one property. */
export interface Shape {
    type: TypeShape;
    required: boolean;
    description: string;
    secret: boolean;
    default?: unknown;
    /**
     * An input of a resource or component that takes no eventual value (schema `plain`; in TypeScript, a type
     * that is no `pulumi.Input`): what must be known when the program runs.
     */
    plain?: true;
}

/** A resource or function as both sides describe it. */
export interface Described {
    description: string;
    inputs: Record<string, Shape>;
    outputs: Record<string, Shape>;
}

// ---------------------------------------------------------------------------------------------------------
// The TypeScript side

/**
 * TSDoc as the schema's Markdown says it: a `{@link Name}` (or `{@link Name | text}`) is the name as code (or
 * the text), since the other languages' SDKs have no such links.
 */
export function markdownOf(tsdoc: string): string {
    return tsdoc.replace(/\{@link\s+([^}|\s]+)\s*(?:\|\s*([^}]*?)\s*)?\}/g, (_, name: string, text?: string) => text || `\`${name}\``).trim();
}

/** The declarations of `provider/index.ts`, read once. */
export class Declarations {
    private readonly checker: ts.TypeChecker;
    private readonly exports = new Map<string, ts.Symbol>();

    constructor(entry = path.join(ROOT, "provider", "index.ts")) {
        const config = ts.readConfigFile(path.join(ROOT, "tsconfig.json"), ts.sys.readFile);
        const parsed = ts.parseJsonConfigFileContent(config.config, ts.sys, ROOT);
        const program = ts.createProgram([entry], { ...parsed.options, noEmit: true });
        this.checker = program.getTypeChecker();
        const source = program.getSourceFile(entry);
        if (!source) throw new Error(`cannot read ${entry}`);
        const module = this.checker.getSymbolAtLocation(source)!;
        for (const symbol of this.checker.getExportsOfModule(module)) this.exports.set(symbol.getName(), symbol);
    }

    private exported(name: string): ts.Symbol {
        const symbol = this.exports.get(name);
        if (!symbol) throw new Error(`provider/index.ts exports no ${name}`);
        return symbol.flags & ts.SymbolFlags.Alias ? this.checker.getAliasedSymbol(symbol) : symbol;
    }

    /** A resource: the class `name` (its description and declared outputs) and the interface `<name>Args`. */
    resource(name: string): Described {
        const resourceClass = this.exported(name);
        const args = this.exported(`${name}Args`);
        const outputs: Record<string, Shape> = {};
        for (const member of (resourceClass.valueDeclaration as ts.ClassDeclaration).members) {
            if (!ts.isPropertyDeclaration(member) || !member.type || !ts.isTypeReferenceNode(member.type)) continue;
            // `declare public readonly x: pulumi.Output<T>`: the outputs the class declares.
            if (!member.modifiers?.some((modifier) => modifier.kind === ts.SyntaxKind.DeclareKeyword)) continue;
            const inner = this.checker.getTypeFromTypeNode(member.type.typeArguments![0]!);
            const symbol = this.checker.getSymbolAtLocation(member.name)!;
            outputs[symbol.getName()] = this.shapeOf(symbol, inner, !this.includesUndefined(inner));
        }
        return { description: this.descriptionOf(resourceClass), inputs: this.inputsOf(args), outputs };
    }

    /**
     * A component (a `pulumi.ComponentResource`): the class `name` (its description, and its outputs: the
     * `public readonly` members of type `pulumi.Output<T>`, not the child resources) and the interface `<name>Args`.
     */
    component(name: string): Described {
        const componentClass = this.exported(name);
        const outputs: Record<string, Shape> = {};
        for (const member of (componentClass.valueDeclaration as ts.ClassDeclaration).members) {
            if (!ts.isPropertyDeclaration(member) || !member.type || !ts.isTypeReferenceNode(member.type)) continue;
            if (!ts.isQualifiedName(member.type.typeName) || member.type.typeName.right.text !== "Output") continue;
            if (!member.modifiers?.some((modifier) => modifier.kind === ts.SyntaxKind.PublicKeyword)) continue;
            const inner = this.checker.getTypeFromTypeNode(member.type.typeArguments![0]!);
            const symbol = this.checker.getSymbolAtLocation(member.name)!;
            outputs[symbol.getName()] = this.shapeOf(symbol, inner, !this.includesUndefined(inner));
        }
        return { description: this.descriptionOf(componentClass), inputs: this.inputsOf(this.exported(`${name}Args`)), outputs };
    }

    /** The inputs of a resource or component: its `Args`' properties, each `plain` when its type is no `pulumi.Input`. */
    private inputsOf(args: ts.Symbol): Record<string, Shape> {
        const inputs = this.propertiesOf(this.checker.getDeclaredTypeOfSymbol(args));
        for (const property of this.checker.getPropertiesOfType(this.checker.getDeclaredTypeOfSymbol(args))) {
            const declaration = property.valueDeclaration ?? property.declarations?.[0];
            const type = declaration ? this.checker.getTypeOfSymbolAtLocation(property, declaration) : this.checker.getTypeOfSymbol(property);
            const members = (type.isUnion() ? type.types : [type]).filter((member) => !(member.flags & (ts.TypeFlags.Undefined | ts.TypeFlags.Null)));
            if (this.valueMembers(type).length === members.length) inputs[property.getName()]!.plain = true;
        }
        return inputs;
    }

    /** A lookup: the function `name`, its `<Name>Args` and `<Name>Result`. */
    function(name: string): Described {
        const capital = name[0]!.toUpperCase() + name.slice(1);
        return {
            description: this.descriptionOf(this.exported(name)),
            inputs: this.propertiesOf(this.checker.getDeclaredTypeOfSymbol(this.exported(`${capital}Args`))),
            outputs: this.propertiesOf(this.checker.getDeclaredTypeOfSymbol(this.exported(`${capital}Result`))),
        };
    }

    private descriptionOf(symbol: ts.Symbol): string {
        return markdownOf(ts.displayPartsToString(symbol.getDocumentationComment(this.checker)));
    }

    private propertiesOf(type: ts.Type): Record<string, Shape> {
        const result: Record<string, Shape> = {};
        for (const property of this.checker.getPropertiesOfType(type)) {
            const declaration = property.valueDeclaration ?? property.declarations?.[0];
            const propertyType = declaration ? this.checker.getTypeOfSymbolAtLocation(property, declaration) : this.checker.getTypeOfSymbol(property);
            result[property.getName()] = this.shapeOf(property, propertyType, !(property.flags & ts.SymbolFlags.Optional));
        }
        return result;
    }

    private shapeOf(symbol: ts.Symbol, type: ts.Type, required: boolean): Shape {
        const tags = symbol.getJsDocTags(this.checker);
        const defaultTag = tags.find((tag) => tag.name === "defaultValue");
        const shape: Shape = {
            type: this.typeShape(type),
            required,
            description: this.descriptionOf(symbol),
            secret: tags.some((tag) => tag.name === "secret"),
        };
        if (defaultTag) shape.default = JSON.parse(ts.displayPartsToString(defaultTag.text).trim().replace(/^`|`$/g, ""));
        return shape;
    }

    private includesUndefined(type: ts.Type): boolean {
        return type.isUnion() ? type.types.some((member) => (member.flags & ts.TypeFlags.Undefined) !== 0) : (type.flags & ts.TypeFlags.Undefined) !== 0;
    }

    /** The members of a type that say what a value is: no `undefined`, and no `Promise` or `Output` of an `Input`. */
    private valueMembers(type: ts.Type): ts.Type[] {
        const members = type.isUnion() ? type.types : [type];
        return members.filter((member) => {
            if (member.flags & (ts.TypeFlags.Undefined | ts.TypeFlags.Null)) return false;
            const name = member.getSymbol()?.getName() ?? member.aliasSymbol?.getName();
            if (name === "Promise" || name === "OutputInstance") return false;
            if (member.isIntersection() && member.types.some((part) => part.getSymbol()?.getName() === "OutputInstance")) return false;
            return true;
        });
    }

    /** An object type that is neither a list nor a map. */
    private isObjectType(type: ts.Type): boolean {
        if (!(type.flags & ts.TypeFlags.Object) || this.checker.isArrayType(type)) return false;
        return !(this.checker.getIndexInfoOfType(type, ts.IndexKind.String) && this.checker.getPropertiesOfType(type).length === 0);
    }

    /**
     * A union of object types (exactly one of several forms, e.g. `NoCodeProjectModuleArgs`): the schema's one
     * object type with the properties of every form, each described where it is not `never` (the other forms
     * say "not with ..." there), required only when every form requires it; described by the union's alias.
     */
    private unionShape(type: ts.Type, forms: ts.Type[]): TypeShape {
        const properties: Record<string, Shape> = {};
        const requiredIn = new Map<string, number>();
        for (const form of forms) {
            for (const property of this.checker.getPropertiesOfType(form)) {
                const declaration = property.valueDeclaration ?? property.declarations?.[0];
                const propertyType = declaration ? this.checker.getTypeOfSymbolAtLocation(property, declaration) : this.checker.getTypeOfSymbol(property);
                if (this.valueMembers(propertyType).length === 0) continue;
                const required = !(property.flags & ts.SymbolFlags.Optional);
                if (required) requiredIn.set(property.getName(), (requiredIn.get(property.getName()) ?? 0) + 1);
                properties[property.getName()] = this.shapeOf(property, propertyType, false);
            }
        }
        for (const [name, count] of requiredIn) if (count === forms.length) properties[name]!.required = true;
        return { kind: "object", description: type.aliasSymbol ? this.descriptionOf(type.aliasSymbol) : "", properties };
    }

    private typeShape(type: ts.Type): TypeShape {
        const members = this.valueMembers(type);
        const kinds = new Set<string>();
        const others: ts.Type[] = [];
        for (const member of members) {
            if (member.flags & ts.TypeFlags.StringLike) kinds.add("string");
            else if (member.flags & ts.TypeFlags.NumberLike) kinds.add("number");
            else if (member.flags & ts.TypeFlags.BooleanLike) kinds.add("boolean");
            else others.push(member);
        }
        if (others.length === 0) {
            if (kinds.size === 1) return { kind: [...kinds][0] as "string" | "number" | "boolean" };
            return { kind: "oneOf", of: [...kinds].sort() };
        }
        if (others.length > 1 && kinds.size === 0 && others.every((member) => this.isObjectType(member))) return this.unionShape(type, others);
        if (others.length > 1 || kinds.size > 0) throw new Error(`no schema type for ${this.checker.typeToString(type)}`);
        const only = others[0]!;
        if (this.checker.isArrayType(only)) return { kind: "array", items: this.typeShape(this.checker.getTypeArguments(only as ts.TypeReference)[0]!) };
        const index = this.checker.getIndexInfoOfType(only, ts.IndexKind.String);
        if (index && this.checker.getPropertiesOfType(only).length === 0) return { kind: "map", values: this.typeShape(index.type) };
        const symbol = only.aliasSymbol ?? only.getSymbol();
        return { kind: "object", description: symbol ? this.descriptionOf(symbol) : "", properties: this.propertiesOf(only) };
    }
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
    if (property.oneOf) return { kind: "oneOf", of: property.oneOf.map((member) => member.type!).sort() };
    if (property.type === "array") return { kind: "array", items: schemaType(schema, property.items!) };
    if (property.type === "object") return { kind: "map", values: schemaType(schema, property.additionalProperties!) };
    if (property.type === "integer") return { kind: "number" };
    return { kind: property.type as "string" | "number" | "boolean" };
}

function schemaProperties(schema: PackageSchema, properties: Record<string, SchemaProperty>, required: string[]): Record<string, Shape> {
    const result: Record<string, Shape> = {};
    for (const [name, property] of Object.entries(properties)) {
        const shape: Shape = {
            type: schemaType(schema, property),
            required: required.includes(name),
            description: property.description ?? "",
            secret: property.secret === true,
        };
        if (property.default !== undefined) shape.default = property.default;
        result[name] = shape;
    }
    return result;
}

/** A resource of the plugin's schema, in the comparable form. */
export function schemaResource(schema: PackageSchema, token: string): Described {
    const resource = schema.resources[token];
    if (!resource) throw new Error(`the schema has no resource ${token}`);
    const inputs = schemaProperties(schema, resource.inputProperties, resource.requiredInputs ?? []);
    for (const [name, property] of Object.entries(resource.inputProperties)) if (property.plain) inputs[name]!.plain = true;
    return {
        description: resource.description,
        inputs,
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
