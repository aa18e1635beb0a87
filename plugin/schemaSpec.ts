/**
 * The parts of Pulumi's package schema (the JSON that `GetSchema` answers and the SDK generators read) that
 * this package uses, as types, so that each resource's and function's piece is checked by the compiler.
 *
 * @module
 */

/** The type of a property: a primitive, a list, a map, a reference to an object type, or one of several. */
export interface TypeSpec {
    /** `string`, `number`, `integer`, `boolean`, `array` or `object` (a map with `additionalProperties`). */
    type?: "string" | "number" | "integer" | "boolean" | "array" | "object";
    /** The items of an `array`. */
    items?: TypeSpec;
    /** The values of an `object` map. */
    additionalProperties?: TypeSpec;
    /** An object type of the package: `#/types/wos:index:<Name>`. */
    $ref?: string;
    /** The types a value may have. */
    oneOf?: TypeSpec[];
    /** An input that takes no eventual value (an `Output`): it must be known when the program runs. */
    plain?: boolean;
}

/** One property of a resource, function or object type. */
export interface PropertySpec extends TypeSpec {
    /** Markdown; the TSDoc of the dynamic resources' declaration. */
    description?: string;
    /** Always a secret: the SDKs and the engine treat the value as one. */
    secret?: boolean;
    /** The value the SDKs fill in when the program gives none. */
    default?: string | number | boolean;
    /** Changing it replaces the resource (shown to users; the plugin's `Diff` decides). */
    willReplaceOnChanges?: boolean;
}

/** An object type (`types`) or the inputs and outputs of a function. */
export interface ObjectTypeSpec {
    /** Markdown. */
    description?: string;
    /** Always `object`. */
    type: "object";
    /** The properties by name. */
    properties: Record<string, PropertySpec>;
    /** The properties always present. */
    required?: string[];
}

/** A resource: its outputs (`properties`) and inputs (`inputProperties`). */
export interface ResourceSpec {
    /** Markdown. */
    description: string;
    /** A multi-language component: the plugin's `Construct` makes it (and its children), not `Create`. */
    isComponent?: boolean;
    /** The outputs by name (`id` and `urn` are implicit). */
    properties: Record<string, PropertySpec>;
    /** The outputs always present. */
    required: string[];
    /** The inputs by name. */
    inputProperties: Record<string, PropertySpec>;
    /** The inputs a program must give. */
    requiredInputs: string[];
}

/** A function (an invoke). */
export interface FunctionSpec {
    /** Markdown. */
    description: string;
    /** The arguments. */
    inputs: ObjectTypeSpec;
    /** The result. */
    outputs: ObjectTypeSpec;
}

/** What one resource adds to the schema: its token, its spec, and the object types it uses. */
export interface ResourceSchemaPiece {
    /** `wos:index:<Name>`. */
    token: string;
    /** The resource. */
    spec: ResourceSpec;
    /** The object types of its properties, by token. */
    types: Record<string, ObjectTypeSpec>;
}

/** What one function adds to the schema. */
export interface FunctionSchemaPiece {
    /** `wos:index:get<Name>`. */
    token: string;
    /** The function. */
    spec: FunctionSpec;
    /** The object types of its arguments and result, by token. */
    types: Record<string, ObjectTypeSpec>;
}

/** A resource's or component's properties, `$ref` naming a declared object type. */
export interface DeclaredResource {
    properties: Record<string, PropertySpec>;
    required: string[];
    inputProperties: Record<string, PropertySpec>;
    requiredInputs: string[];
}

/** A function's arguments and result, `$ref` naming a declared object type. */
export interface DeclaredFunction {
    inputs: ObjectTypeSpec;
    outputs: ObjectTypeSpec;
}

/** What the build writes (`plugin/declarations/write.ts`): in the schema's form, but `$ref` the declared name of an object type. */
export interface DeclaredTables {
    resources: Record<string, DeclaredResource>;
    components: Record<string, DeclaredResource>;
    functions: Record<string, DeclaredFunction>;
    objectTypes: Record<string, ObjectTypeSpec>;
}

/** The reference of an object type of the package: `#/types/<token>`. */
export function typeRef(token: string): string {
    return `#/types/${token}`;
}
