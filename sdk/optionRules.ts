/**
 * Rules of the client's options that are the client's own, beside the resource rules of `sdk/model`.
 *
 * @module
 */
import { z } from "zod";

/**
 * An id inside options: a non-empty string (an empty one would address another resource); its prefix is the
 * service's to judge.
 */
export function idOptionRule(what: string) {
    return z.string({ error: `must be ${what}` }).refine((id) => id.trim() !== "", { error: `must be ${what}` });
}
