/**
 * Type-level equality for compile-time assertions (`npm run typecheck`).
 *
 * `Equal<A, B>` is `true` only when the checker holds `A` and `B` identical, which is stricter than being
 * assignable both ways: an optional field and a required one that may be `undefined` differ, and so do
 * `readonly` and mutable fields. Two generic functions compare their conditional return types by identity,
 * which is where that strictness comes from.
 */
export type Equal<A, B> = (<T>() => T extends A ? 1 : 2) extends <T>() => T extends B ? 1 : 2 ? true : false;

/** Compiles only when given `true`: `Same<Equal<A, B>>` is a compile error wherever `A` and `B` differ. */
export type Same<Check extends true> = Check;
