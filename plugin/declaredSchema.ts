/**
 * The schema pieces of the resources, components and functions, made from their properties as the dynamic
 * resources' TypeScript declarations say them ({@link DECLARED}, which the build writes from `provider/`)
 * and what only the schema knows, written beside each resource: its description with its examples, and the
 * token of each object type it uses, by the name the type is declared by.
 *
 * @module
 */
import { DECLARED } from "./declared";
import {
    typeRef,
    type DeclaredResource,
    type FunctionSchemaPiece,
    type ObjectTypeSpec,
    type PropertySpec,
    type ResourceSchemaPiece,
    type ResourceSpec,
} from "./schemaSpec";

/** What a piece says beyond its properties. */
export interface SchemaOnly {
    /** The schema's description (Markdown, with its examples). */
    description: string;
    /**
     * The token of each object type its properties use, by declared name (e.g. `NoCodeWorkspaceVarArgs` to
     * `wos:index:NoCodeWorkspaceVar`), in the order the piece lists them; one missing or unused is an error.
     */
    types?: Record<string, string>;
}

/** Turns the declared names of `$ref`s into the types' references, and notes each name met. */
class TypeResolver {
    readonly met = new Set<string>();

    constructor(
        private readonly owner: string,
        private readonly tokens: Record<string, string>,
    ) {}

    property(spec: PropertySpec): PropertySpec {
        const resolved: PropertySpec = { ...spec };
        if (spec.$ref !== undefined) resolved.$ref = typeRef(this.token(spec.$ref));
        if (spec.items) resolved.items = this.property(spec.items);
        if (spec.additionalProperties) resolved.additionalProperties = this.property(spec.additionalProperties);
        return resolved;
    }

    properties(specs: Record<string, PropertySpec>): Record<string, PropertySpec> {
        return Object.fromEntries(Object.entries(specs).map(([name, spec]) => [name, this.property(spec)]));
    }

    /** The object types met, by token in the order of `tokens`, each with the types it uses in turn. */
    types(): Record<string, ObjectTypeSpec> {
        const types: Record<string, ObjectTypeSpec> = {};
        // An object type's own properties may meet more types: go on until nothing new is met.
        for (let size = -1; size !== this.met.size; ) {
            size = this.met.size;
            for (const name of [...this.met]) {
                const declared = DECLARED.objectTypes[name]!;
                types[this.token(name)] = { ...declared, properties: this.properties(declared.properties) };
            }
        }
        const unused = Object.keys(this.tokens).filter((name) => !this.met.has(name));
        if (unused.length > 0) throw new Error(`${this.owner} gives a token to ${unused.join(", ")}, which none of its properties uses`);
        return Object.fromEntries(Object.entries(this.tokens).map(([name, token]) => [token, types[token]!]));
    }

    private token(name: string): string {
        const token = this.tokens[name];
        if (token === undefined) throw new Error(`${this.owner} uses the object type ${name}, which it gives no token`);
        this.met.add(name);
        return token;
    }
}

function declaredOf<T>(table: Record<string, T>, kind: string, name: string): T {
    const declared = table[name];
    if (!declared) throw new Error(`provider/ declares no ${kind} ${name} (plugin/declared.ts: run npm run build)`);
    return declared;
}

function resourcePiece(declared: DeclaredResource, token: string, schemaOnly: SchemaOnly, component: boolean): ResourceSchemaPiece {
    const resolver = new TypeResolver(token, schemaOnly.types ?? {});
    const spec: ResourceSpec = {
        description: schemaOnly.description,
        ...(component ? { isComponent: true } : {}),
        properties: resolver.properties(declared.properties),
        required: declared.required,
        inputProperties: resolver.properties(declared.inputProperties),
        requiredInputs: declared.requiredInputs,
    };
    return { token, spec, types: resolver.types() };
}

/** The piece of the resource `name` (the dynamic resource's class `wos.<name>`), `wos:index:<name>`. */
export function declaredResource(name: string, schemaOnly: SchemaOnly): ResourceSchemaPiece {
    return resourcePiece(declaredOf(DECLARED.resources, "resource", name), `wos:index:${name}`, schemaOnly, false);
}

/** The piece of the component `name` (the `pulumi.ComponentResource` `wos.<name>`), `wos:index:<name>`. */
export function declaredComponent(name: string, schemaOnly: SchemaOnly): ResourceSchemaPiece {
    return resourcePiece(declaredOf(DECLARED.components, "component", name), `wos:index:${name}`, schemaOnly, true);
}

/** The piece of the lookup `name` (`wos.<name>`), `wos:index:<name>`. */
export function declaredFunction(name: string, schemaOnly: SchemaOnly): FunctionSchemaPiece {
    const declared = declaredOf(DECLARED.functions, "function", name);
    const token = `wos:index:${name}`;
    const resolver = new TypeResolver(token, schemaOnly.types ?? {});
    const object = (spec: ObjectTypeSpec): ObjectTypeSpec => ({ ...spec, properties: resolver.properties(spec.properties) });
    const spec = { description: schemaOnly.description, inputs: object(declared.inputs), outputs: object(declared.outputs) };
    return { token, spec, types: resolver.types() };
}
