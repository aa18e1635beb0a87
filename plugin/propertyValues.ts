/**
 * Property values as the engine sends and takes them: plain JSON (a `google.protobuf.Struct`) in which a
 * secret is an object carrying Pulumi's secret signature and an unknown (during preview) is a marker string.
 *
 * The plugin answers `Configure` with `acceptSecrets`, so the engine sends secrets where the program made them
 * (nested anywhere) and stores exactly what the plugin marks secret. The handlers take plain values: every
 * call reveals what it hands them, and the answer is marked again, path by path, from what was secret in
 * the request ({@link markLike}), plus the secrets each resource always has (a sensitive variable's value).
 *
 * @module
 */
import { isUnknown, UNKNOWN } from "../provider/handlers/unknownValues";

export { isUnknown, UNKNOWN };

/** A property bag: property names to values. */
export type PropertyBag = Record<string, unknown>;

/** The key whose value marks an object as a special value of Pulumi's wire format (`specialSigKey`). */
export const SIGNATURE_KEY = "4dabf18193072939515e22adb298388d";

/** The signature of a secret (`specialSecretSig`): `{ [SIGNATURE_KEY]: SECRET_SIGNATURE, value }`. */
export const SECRET_SIGNATURE = "1b47061264138c4ac30d75fd1eb44270";

/** A secret value on the wire. */
export interface SecretValue {
    [SIGNATURE_KEY]: typeof SECRET_SIGNATURE;
    /** The value kept secret. */
    value: unknown;
}

/** Whether `value` is a secret on the wire. */
export function isSecret(value: unknown): value is SecretValue {
    return typeof value === "object" && value !== null && (value as PropertyBag)[SIGNATURE_KEY] === SECRET_SIGNATURE;
}

/** `value` as a secret (a secret stays one secret, never wrapped twice). */
export function secret(value: unknown): SecretValue {
    return isSecret(value) ? value : { [SIGNATURE_KEY]: SECRET_SIGNATURE, value };
}

/** Whether `value` is an object of properties (not a list, not a secret, not null). */
export function isObject(value: unknown): value is PropertyBag {
    return typeof value === "object" && value !== null && !Array.isArray(value) && !isSecret(value);
}

/** `value` with every secret marker removed: what the handlers take. */
export function reveal<T = unknown>(value: T): T {
    if (isSecret(value)) return reveal(value.value) as T;
    if (Array.isArray(value)) return value.map((item) => reveal(item)) as T;
    if (isObject(value)) return Object.fromEntries(Object.entries(value).map(([key, item]) => [key, reveal(item)])) as T;
    return value;
}

/** Whether `value` is, or holds anywhere, a secret. */
export function containsSecret(value: unknown): boolean {
    if (isSecret(value)) return true;
    if (Array.isArray(value)) return value.some(containsSecret);
    if (isObject(value)) return Object.values(value).some(containsSecret);
    return false;
}

/**
 * `plain` with each value secret whose place in `marked` (the same shape, as the engine sent it) was secret:
 * by property name in objects, by position in lists of the same length. A value secret as a whole in
 * `marked` makes the whole value in `plain` secret; a place `plain` no longer has is skipped.
 */
export function markLike(plain: unknown, marked: unknown): unknown {
    if (marked === undefined || plain === undefined) return plain;
    if (isSecret(marked)) return secret(plain);
    if (isSecret(plain)) return plain;
    if (Array.isArray(plain) && Array.isArray(marked) && plain.length === marked.length) {
        return plain.map((item, index) => markLike(item, marked[index]));
    }
    if (isObject(plain) && isObject(marked)) {
        return Object.fromEntries(Object.entries(plain).map(([key, item]) => [key, key in marked ? markLike(item, marked[key]) : item]));
    }
    return plain;
}

/**
 * A bag ready for a `Struct`: no `undefined` (the Struct conversion refuses it), no key the dynamic provider
 * host adds (`__provider`, the serialized provider, which a native plugin has none of).
 */
export function wireBag(bag: PropertyBag | undefined): PropertyBag {
    const copy: PropertyBag = {};
    for (const [key, value] of Object.entries(bag ?? {})) {
        if (value === undefined || key === "__provider") continue;
        copy[key] = JSON.parse(JSON.stringify(value));
    }
    return copy;
}

/** Whether a bag is empty: an import's `Read` sends no properties at all. */
export function isEmptyBag(bag: PropertyBag | undefined): boolean {
    return bag === undefined || Object.keys(bag).length === 0;
}
