/**
 * Request bodies of the local service: JSON under both media types (and, leniently, any other), read as
 * strict UTF-8. Bad JSON and bytes that are not UTF-8 are a 400 with a JSON:API error document, never a 500
 * and never text altered on its way to the database.
 */
import type { FastifyInstance, FastifyRequest } from "fastify";
import { JSON_API_MEDIA_TYPE } from "../sdk/model";
import { ERROR_CODES, httpError } from "./errors";

/**
 * Decodes UTF-8 and throws on the first byte that is not part of a well-formed sequence. The lenient
 * decoding (`Buffer#toString`) put U+FFFD in place of such bytes, so a value read back differed from the one
 * sent and two different byte strings could be stored as the same key. A leading byte order mark is
 * dropped, as RFC 8259 lets a parser do.
 */
const STRICT_UTF8 = new TextDecoder("utf-8", { fatal: true });

/** Installs the body parsers: JSON bodies as strict UTF-8; bad JSON or bad UTF-8 is a 400, not a 500. */
export function installBodyParsing(app: FastifyInstance): void {
    app.removeAllContentTypeParsers();
    const parse = (_request: FastifyRequest, body: Buffer, done: (error: Error | null, body?: unknown) => void) => {
        let text: string;
        try {
            text = STRICT_UTF8.decode(body);
        } catch {
            return done(
                httpError(400, ERROR_CODES.badRequest, `The request body is not valid UTF-8 text (the first malformed sequence starts at byte ${firstInvalidUtf8Byte(body)}); JSON text must be UTF-8`),
            );
        }
        if (text.trim() === "") return done(null, undefined);
        try {
            done(null, JSON.parse(text));
        } catch {
            done(httpError(400, ERROR_CODES.badRequest, "The request body is not valid JSON"));
        }
    };
    app.addContentTypeParser([JSON_API_MEDIA_TYPE, "application/json"], { parseAs: "buffer" }, parse);
    // Clients that forget the content type (curl -d) still get their JSON read rather than a 415.
    app.addContentTypeParser("*", { parseAs: "buffer" }, parse);
}

/**
 * The offset of the first byte of `bytes` that does not belong to a well-formed UTF-8 sequence (RFC 3629:
 * no overlong forms, no surrogates, nothing above U+10FFFF), or `bytes.length` when there is none. Only run
 * on a body the strict decoder refused, to tell the client where.
 */
export function firstInvalidUtf8Byte(bytes: Uint8Array): number {
    let index = 0;
    while (index < bytes.length) {
        const lead = bytes[index]!;
        // Expected continuation bytes, and the range the first of them must fall in (the rest are 0x80..0xBF).
        let count: number;
        let low = 0x80;
        let high = 0xbf;
        if (lead < 0x80) count = 0;
        else if (lead >= 0xc2 && lead <= 0xdf) count = 1;
        else if (lead >= 0xe0 && lead <= 0xef) {
            count = 2;
            if (lead === 0xe0) low = 0xa0;
            if (lead === 0xed) high = 0x9f;
        } else if (lead >= 0xf0 && lead <= 0xf4) {
            count = 3;
            if (lead === 0xf0) low = 0x90;
            if (lead === 0xf4) high = 0x8f;
        } else return index;
        for (let next = 1; next <= count; next++) {
            const byte = bytes[index + next];
            if (byte === undefined || byte < (next === 1 ? low : 0x80) || byte > (next === 1 ? high : 0xbf)) return index;
        }
        index += count + 1;
    }
    return bytes.length;
}
