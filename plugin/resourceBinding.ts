/**
 * What the plugin knows of one resource: its piece of the schema and its handler module (the same module the
 * dynamic resource's provider `require`s), and, where the engine's view and the handler's differ, how to go
 * from one to the other. Each resource's file under `plugin/resources/` makes one.
 *
 * @module
 */
import type * as dynamic from "@pulumi/pulumi/dynamic";
import { type PropertyBag, reveal } from "./propertyValues";
import type { ResourceSchemaPiece } from "./schemaSpec";

/** A handler module of `provider/handlers/`: what the dynamic resource's serialized provider calls. */
export interface ResourceHandlers {
    check(olds: PropertyBag, news: PropertyBag): Promise<dynamic.CheckResult>;
    diff(id: string, olds: PropertyBag, news: PropertyBag): Promise<dynamic.DiffResult>;
    /** The inputs whose change `diff` sees: the detailed diff. */
    changedProperties(olds: PropertyBag, news: PropertyBag): string[];
    create(news: PropertyBag): Promise<dynamic.CreateResult>;
    read(id: string, props?: PropertyBag): Promise<dynamic.ReadResult>;
    update(id: string, olds: PropertyBag, news: PropertyBag): Promise<dynamic.UpdateResult>;
    delete(id: string, props?: PropertyBag): Promise<void>;
    /**
     * What a preview of an update does on the service when the provider is configured `planUpgradesInPreview`
     * (a no-code workspace's upgrade plan, left unconfirmed); a resource without it writes nothing in a preview.
     */
    planInPreview?(id: string, olds: PropertyBag, news: PropertyBag): Promise<unknown>;
}

/** One resource of the plugin. */
export interface ResourceBinding {
    /** Its schema piece; `schema.token` is its type token, `wos:index:<Name>`. */
    schema: ResourceSchemaPiece;
    /** Its handler module. */
    handlers: ResourceHandlers;
    /**
     * The inputs as the handler takes them, from the inputs as the engine sent them (secrets marked):
     * by default the same, revealed.
     */
    handlerInputs?(marked: PropertyBag): PropertyBag;
    /** The inputs as the schema declares them, from the handler's (plain): by default the same. */
    schemaInputs?(plain: PropertyBag): PropertyBag;
    /** Marks what is always secret in the inputs (plain or partly marked), whatever the program marked. */
    secretInputs?(inputs: PropertyBag): PropertyBag;
    /**
     * Marks what is secret in the outputs (plain or partly marked) beyond what the schema says is always
     * secret (an output declared `@secret` is marked by the provider service): a value secret only at times.
     */
    secretOutputs?(outputs: PropertyBag): PropertyBag;
    /**
     * The outputs that only the service can tell during a preview (a version it resolves, an id it gives):
     * the preview shows them unknown. `news` are the handler's inputs, `olds` the outputs before an update
     * (absent for a create).
     */
    previewUnknowns?(news: PropertyBag, olds?: PropertyBag): string[];
    /**
     * The list inputs whose items have an identity (a no-code workspace's `vars`), by name: a refresh matches
     * the items it read to the program's by it (`programShape.ts`), and a diff says which items changed
     * (`itemDiff.ts`).
     */
    lists?: Readonly<Record<string, ListInput>>;
}

/** How the items of a list input are told apart and compared. */
export interface ListInput {
    /** The fields that identify an item (a var: its category and key); unique in the list. */
    identity: readonly string[];
    /**
     * An item as the handler compares it (its defaults filled: `hcl` left out is `false`); two items whose
     * forms are equal are the same. Default: the item as it is.
     */
    comparable?: (item: PropertyBag) => unknown;
}

/** {@link ResourceBinding.handlerInputs} with its default. */
export function handlerInputsOf(binding: ResourceBinding, marked: PropertyBag): PropertyBag {
    return binding.handlerInputs ? binding.handlerInputs(marked) : reveal(marked);
}
