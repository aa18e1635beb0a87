/**
 * The TypeScript declarations of the dynamic resources read with the TypeScript compiler API (issue 31): the
 * `Args` interfaces and declared outputs of each resource class, the inputs and outputs of each component, the
 * lookups' argument and result interfaces. Each property becomes a {@link Shape}: its type (object types with
 * their properties and the name they are declared by), whether it is required, its description (the TSDoc
 * text), whether it is always secret (TSDoc `@secret`), whether a change of it always replaces the resource
 * (TSDoc `@replaceOnChanges`) and its default (TSDoc `@defaultValue`).
 *
 * The build writes the plugin's property tables from it (`write.ts`); `tests/plugin/schema.test.ts` compares
 * the served schema with it. It runs at build time only: nothing the plugin or the package loads imports it.
 *
 * @module
 */
import * as path from "node:path";
import * as ts from "typescript";

/** A property's type, structurally. */
export type TypeShape = (
    | { kind: "string" | "number" | "boolean" }
    /** Of several primitive kinds, in the order of the declaration's union. */
    | { kind: "oneOf"; of: string[] }
    | { kind: "array"; items: TypeShape }
    | { kind: "map"; values: TypeShape }
    | {
          kind: "object";
          description: string;
          properties: Record<string, Shape>;
          /** The name the object type is declared by (an interface or a type alias), which the schema gives a token. */
          name?: string;
      }
) & {
    /** An item of a list or a value of a map, in an input, that takes no eventual value (schema `plain`). */
    plain?: true;
};

/** Everything the schema says of one property. */
export interface Shape {
    type: TypeShape;
    required: boolean;
    description: string;
    secret: boolean;
    /** A change of it always replaces the resource (TSDoc `@replaceOnChanges`); absent otherwise. */
    replaceOnChanges?: true;
    default?: unknown;
    /**
     * An input of a resource or component, or a property of an object type of its inputs, that takes no eventual
     * value (schema `plain`; in TypeScript, a type that is no `pulumi.Input`): what must be known when the program runs.
     */
    plain?: true;
}

/** A resource or function as both sides describe it. */
export interface Described {
    description: string;
    inputs: Record<string, Shape>;
    outputs: Record<string, Shape>;
}

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

    /** @param root The repository's root: its `tsconfig.json` and `provider/index.ts` are read. */
    constructor(root: string) {
        const entry = path.join(root, "provider", "index.ts");
        const config = ts.readConfigFile(path.join(root, "tsconfig.json"), ts.sys.readFile);
        const parsed = ts.parseJsonConfigFileContent(config.config, ts.sys, root);
        const program = ts.createProgram([entry], { ...parsed.options, noEmit: true });
        this.checker = program.getTypeChecker();
        const source = program.getSourceFile(entry);
        if (!source) throw new Error(`cannot read ${entry}`);
        const module = this.checker.getSymbolAtLocation(source)!;
        for (const symbol of this.checker.getExportsOfModule(module)) this.exports.set(symbol.getName(), symbol);
    }

    /**
     * What `provider/index.ts` declares, by kind: the resources (classes extending `pulumi.dynamic.Resource`)
     * and components (extending `pulumi.ComponentResource`) that have an exported `<Name>Args`, and the lookups
     * `get<Name>` that have an exported `Get<Name>Args` and `Get<Name>Result`; each in the order exported.
     */
    inventory(): { resources: string[]; components: string[]; functions: string[] } {
        const found = { resources: [] as string[], components: [] as string[], functions: [] as string[] };
        for (const name of this.exports.keys()) {
            const declaration = this.exported(name).valueDeclaration;
            if (declaration && ts.isClassDeclaration(declaration) && this.exports.has(`${name}Args`)) {
                const base = declaration.heritageClauses?.find((clause) => clause.token === ts.SyntaxKind.ExtendsKeyword)?.types[0]?.expression.getText();
                if (base === "pulumi.dynamic.Resource") found.resources.push(name);
                else if (base === "pulumi.ComponentResource") found.components.push(name);
            } else if (declaration && ts.isFunctionDeclaration(declaration) && /^get[A-Z]/.test(name)) {
                const capital = name[0]!.toUpperCase() + name.slice(1);
                if (this.exports.has(`${capital}Args`) && this.exports.has(`${capital}Result`)) found.functions.push(name);
            }
        }
        return found;
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
            outputs[symbol.getName()] = this.shapeOf(symbol, inner, !this.includesUndefined(inner), false);
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
            outputs[symbol.getName()] = this.shapeOf(symbol, inner, !this.includesUndefined(inner), false);
        }
        return { description: this.descriptionOf(componentClass), inputs: this.inputsOf(this.exported(`${name}Args`)), outputs };
    }

    /**
     * The inputs of a resource or component: its `Args`' properties, and those of the object types they use,
     * each `plain` when its type is no `pulumi.Input` (as are the items and values of lists and maps).
     */
    private inputsOf(args: ts.Symbol): Record<string, Shape> {
        return this.propertiesOf(this.checker.getDeclaredTypeOfSymbol(args), true);
    }

    /** A type that takes no eventual value: no `Promise` or `Output` among its members. */
    private isPlain(type: ts.Type): boolean {
        const members = (type.isUnion() ? type.types : [type]).filter((member) => !(member.flags & (ts.TypeFlags.Undefined | ts.TypeFlags.Null)));
        return this.valueMembers(type).length === members.length;
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

    /** The properties of an object type; `input`: of the inputs of a resource or component, where `plain` is said. */
    private propertiesOf(type: ts.Type, input = false): Record<string, Shape> {
        const result: Record<string, Shape> = {};
        for (const property of this.checker.getPropertiesOfType(type)) {
            const declaration = property.valueDeclaration ?? property.declarations?.[0];
            const propertyType = declaration ? this.checker.getTypeOfSymbolAtLocation(property, declaration) : this.checker.getTypeOfSymbol(property);
            result[property.getName()] = this.shapeOf(property, propertyType, !(property.flags & ts.SymbolFlags.Optional), input);
        }
        return result;
    }

    private shapeOf(symbol: ts.Symbol, type: ts.Type, required: boolean, input: boolean): Shape {
        const tags = symbol.getJsDocTags(this.checker);
        const defaultTag = tags.find((tag) => tag.name === "defaultValue");
        const shape: Shape = {
            type: this.typeShape(type, input),
            required,
            description: this.descriptionOf(symbol),
            secret: tags.some((tag) => tag.name === "secret"),
        };
        if (input && this.isPlain(type)) shape.plain = true;
        if (tags.some((tag) => tag.name === "replaceOnChanges")) shape.replaceOnChanges = true;
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
    private unionShape(type: ts.Type, forms: ts.Type[], input: boolean): TypeShape {
        const properties: Record<string, Shape> = {};
        const requiredIn = new Map<string, number>();
        for (const form of forms) {
            for (const property of this.checker.getPropertiesOfType(form)) {
                const declaration = property.valueDeclaration ?? property.declarations?.[0];
                const propertyType = declaration ? this.checker.getTypeOfSymbolAtLocation(property, declaration) : this.checker.getTypeOfSymbol(property);
                if (this.valueMembers(propertyType).length === 0) continue;
                const required = !(property.flags & ts.SymbolFlags.Optional);
                if (required) requiredIn.set(property.getName(), (requiredIn.get(property.getName()) ?? 0) + 1);
                properties[property.getName()] = this.shapeOf(property, propertyType, false, input);
            }
        }
        for (const [name, count] of requiredIn) if (count === forms.length) properties[name]!.required = true;
        return type.aliasSymbol
            ? { kind: "object", description: this.descriptionOf(type.aliasSymbol), properties, name: type.aliasSymbol.getName() }
            : { kind: "object", description: "", properties };
    }

    /** The shape of a type; `input`: in the inputs of a resource or component, where `plain` is said. */
    private typeShape(type: ts.Type, input: boolean): TypeShape {
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
            return { kind: "oneOf", of: [...kinds] };
        }
        if (others.length > 1 && kinds.size === 0 && others.every((member) => this.isObjectType(member))) return this.unionShape(type, others, input);
        if (others.length > 1 || kinds.size > 0) throw new Error(`no schema type for ${this.checker.typeToString(type)}`);
        const only = others[0]!;
        if (this.checker.isArrayType(only)) return { kind: "array", items: this.elementShape(this.checker.getTypeArguments(only as ts.TypeReference)[0]!, input) };
        const index = this.checker.getIndexInfoOfType(only, ts.IndexKind.String);
        if (index && this.checker.getPropertiesOfType(only).length === 0) return { kind: "map", values: this.elementShape(index.type, input) };
        const symbol = only.aliasSymbol ?? only.getSymbol();
        const properties = this.propertiesOf(only, input);
        // An anonymous object type (`__type`, `__object`) has no name to give a token to.
        return symbol && !symbol.getName().startsWith("__")
            ? { kind: "object", description: this.descriptionOf(symbol), properties, name: symbol.getName() }
            : { kind: "object", description: "", properties };
    }

    /** An item of a list or a value of a map: `plain` in an input when it takes no eventual value. */
    private elementShape(type: ts.Type, input: boolean): TypeShape {
        const shape = this.typeShape(type, input);
        return input && this.isPlain(type) ? { ...shape, plain: true } : shape;
    }
}

