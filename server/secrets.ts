/**
 * Secrets at rest (issue 6 section 4): sensitive variable values are stored encrypted, tokens as keyed
 * hashes, both under one 32-byte secret key that never enters the database.
 *
 * - The key comes from a key file: `--secret-key-file` / `WOS_SECRET_KEY_FILE`, or by default `<data>.key`
 *   beside the database, created on the first start (owner-only, mode 0600, published atomically so two
 *   processes starting at once agree on one key). A `:memory:` database without a key file gets a random key
 *   that dies with it.
 * - Three keys are derived from it with HKDF-SHA-256, one per purpose (distinct labels), so no use of the key
 *   can be turned against another: value encryption, token hashing, and the key check.
 * - A sensitive value is stored as `wos-sealed:v1:` + base64url(IV ‖ ciphertext ‖ tag): AES-256-GCM with a
 *   random 12-byte IV per value and the prefix as associated data. The prefix names the format, so a later
 *   format can live beside this one; a value that does not open (another key, a changed byte) is an error,
 *   never garbage.
 * - A token is stored as HMAC-SHA-256(token key, hex SHA-256(token)). The inner SHA-256 is the hash that
 *   schema versions 1 and 2 stored, so migration 3 re-keys every existing token hash in place, and no token
 *   stays under the unkeyed scheme; without the key, a copy of the file allows no guessing of tokens.
 * - The database holds a key check (an HMAC of a fixed label under its own derived key): a start with another
 *   key is refused before anything is read or written, with a message that names the key file.
 */
import {
    createCipheriv,
    createDecipheriv,
    createHash,
    createHmac,
    hkdfSync,
    randomBytes,
    timingSafeEqual,
} from "node:crypto";
import { closeSync, constants, fchmodSync, fsyncSync, linkSync, openSync, readFileSync, unlinkSync, writeSync } from "node:fs";
import { basename, dirname, join } from "node:path";

/** Prefix of a sealed value: the format's name and version. It is also the AES-GCM associated data. */
export const SEALED_PREFIX = "wos-sealed:v1:";

/** Bytes of the secret key (AES-256). */
export const SECRET_KEY_BYTES = 32;

const IV_BYTES = 12;
const TAG_BYTES = 16;
const CHECK_LABEL = "wos-server secret key check";

/** Labels of the keys derived from the secret key (HKDF `info`): one per purpose. */
const LABELS = {
    values: "wos-server v1 sensitive values (AES-256-GCM)",
    tokens: "wos-server v1 token hashes (HMAC-SHA-256)",
    check: "wos-server v1 key check (HMAC-SHA-256)",
} as const;

/** A key file that cannot be used, a key that does not match the database, or a key file that is missing. */
export class SecretKeyError extends Error {
    constructor(message: string) {
        super(message);
        this.name = "SecretKeyError";
    }
}

/**
 * A stored sensitive value that does not open: written with another key, changed outside the service, or not
 * sealed at all. The message never holds the value (nor its sealed text).
 */
export class SealedValueError extends Error {
    constructor(message: string) {
        super(message);
        this.name = "SealedValueError";
    }
}

/** What a database's secrets are kept with: seal and open sensitive values, hash tokens. */
export interface Secrets {
    /** The key file the key was read from or written to; undefined for a random in-memory key. */
    readonly keyFile: string | undefined;
    /** The stored text of a sensitive value. */
    seal(plain: string): string;
    /** The value of a sealed text. @throws SealedValueError when it does not open. */
    open(sealed: string): string;
    /** What the database stores instead of a token: HMAC-SHA-256 of its SHA-256 under the token key. */
    hashToken(token: string): string;
    /** Re-keys a hash written by schema versions 1 and 2 (hex SHA-256 of the token) into {@link hashToken}'s. */
    rekeyLegacyTokenHash(sha256Hex: string): string;
    /** The key check stored in the database: it tells whether a key is the one the database was written with. */
    readonly keyCheck: string;
}

function derive(key: Buffer, label: string): Buffer {
    return Buffer.from(hkdfSync("sha256", key, Buffer.alloc(0), label, SECRET_KEY_BYTES));
}

/** The {@link Secrets} of a 32-byte key. */
export function secretsFromKey(key: Buffer, keyFile?: string): Secrets {
    if (key.length !== SECRET_KEY_BYTES) throw new SecretKeyError(`a secret key has ${SECRET_KEY_BYTES} bytes, got ${key.length}`);
    const valueKey = derive(key, LABELS.values);
    const tokenKey = derive(key, LABELS.tokens);
    const keyCheck = createHmac("sha256", derive(key, LABELS.check)).update(CHECK_LABEL, "utf8").digest("hex");
    const aad = Buffer.from(SEALED_PREFIX, "utf8");
    const keyed = (text: string) => createHmac("sha256", tokenKey).update(text, "utf8").digest("hex");
    return {
        keyFile,
        keyCheck,
        seal(plain) {
            const iv = randomBytes(IV_BYTES);
            const cipher = createCipheriv("aes-256-gcm", valueKey, iv, { authTagLength: TAG_BYTES });
            cipher.setAAD(aad);
            const ciphertext = Buffer.concat([cipher.update(plain, "utf8"), cipher.final()]);
            return SEALED_PREFIX + Buffer.concat([iv, ciphertext, cipher.getAuthTag()]).toString("base64url");
        },
        open(sealed) {
            if (!sealed.startsWith(SEALED_PREFIX)) {
                throw new SealedValueError(`a sensitive value is not stored in the ${SEALED_PREFIX} format: the database was changed outside wos-server`);
            }
            const bytes = Buffer.from(sealed.slice(SEALED_PREFIX.length), "base64url");
            if (bytes.length < IV_BYTES + TAG_BYTES) throw new SealedValueError("a sensitive value's stored text is truncated");
            const decipher = createDecipheriv("aes-256-gcm", valueKey, bytes.subarray(0, IV_BYTES), { authTagLength: TAG_BYTES });
            decipher.setAAD(aad);
            decipher.setAuthTag(bytes.subarray(bytes.length - TAG_BYTES));
            try {
                const plain = Buffer.concat([decipher.update(bytes.subarray(IV_BYTES, bytes.length - TAG_BYTES)), decipher.final()]);
                return plain.toString("utf8");
            } catch {
                // GCM checks the tag before anything is answered: a wrong key or a changed byte is refused whole.
                throw new SealedValueError(
                    "a sensitive value does not decrypt: it was written with another secret key or changed outside wos-server",
                );
            }
        },
        hashToken: (token) => keyed(createHash("sha256").update(token, "utf8").digest("hex")),
        rekeyLegacyTokenHash: (sha256Hex) => keyed(sha256Hex),
    };
}

/** A random key for a database that lives in memory only. */
export function randomSecrets(): Secrets {
    return secretsFromKey(randomBytes(SECRET_KEY_BYTES));
}

// ---------------------------------------------------------------------------------------------------------
// Key files

/** The key file used when none is given: beside the database file, `<data>.key`. */
export function defaultKeyFile(dataPath: string): string {
    return `${dataPath}.key`;
}

/**
 * The key of a key file's content: 64 hex digits or the base64 of 32 bytes (surrounding whitespace ignored:
 * `openssl rand -hex 32 > FILE`), or exactly 32 raw bytes.
 */
function parseKey(content: Buffer, path: string): Buffer {
    const text = content.toString("latin1").trim();
    if (/^[0-9a-fA-F]{64}$/.test(text)) return Buffer.from(text, "hex");
    if (/^[A-Za-z0-9+/_-]{43}=?$/.test(text)) {
        const key = Buffer.from(text, "base64");
        if (key.length === SECRET_KEY_BYTES) return key;
    }
    if (content.length === SECRET_KEY_BYTES) return content;
    throw new SecretKeyError(
        `the secret key file ${path} does not hold a ${SECRET_KEY_BYTES}-byte key: it must contain 64 hex digits (openssl rand -hex 32), the base64 of ${SECRET_KEY_BYTES} bytes, or ${SECRET_KEY_BYTES} raw bytes`,
    );
}

/** The key in a key file; undefined when the file does not exist. */
function readKeyFile(path: string): Buffer | undefined {
    let content: Buffer;
    try {
        content = readFileSync(path);
    } catch (error) {
        if ((error as NodeJS.ErrnoException).code === "ENOENT") return undefined;
        throw new SecretKeyError(`cannot read the secret key file ${path}: ${(error as Error).message}`);
    }
    return parseKey(content, path);
}

/** fsync of a folder, so a new entry in it survives a crash; not every platform can, and then it is skipped. */
function syncFolder(folder: string): void {
    let fd: number | undefined;
    try {
        fd = openSync(folder, constants.O_RDONLY);
        fsyncSync(fd);
    } catch {
        // Windows cannot open a folder; the file itself was synced.
    } finally {
        if (fd !== undefined) closeSync(fd);
    }
}

/** Writes a new key into a file that must not exist yet (`O_EXCL`), mode 0600, synced. */
function writeNewKey(path: string, key: Buffer): void {
    const fd = openSync(path, constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL, 0o600);
    try {
        // The mode of `open` is narrowed by the umask, never widened; set it exactly anyway.
        fchmodSync(fd, 0o600);
        writeSync(fd, `${key.toString("hex")}\n`);
        fsyncSync(fd);
    } finally {
        closeSync(fd);
    }
}

/**
 * Creates a key file with a new random key, or answers the key of the one another process created meanwhile.
 * The key is written whole into a private temporary file first and then linked to `path` (a link never
 * replaces an existing file): whoever starts at the same time reads either no file or the complete one, never
 * a half-written key, and two racing starts end up with the same key.
 */
function createKeyFile(path: string): Buffer {
    const key = randomBytes(SECRET_KEY_BYTES);
    const folder = dirname(path);
    const temporary = join(folder, `.${basename(path)}.${process.pid}.${randomBytes(6).toString("hex")}.tmp`);
    try {
        writeNewKey(temporary, key);
    } catch (error) {
        throw new SecretKeyError(`cannot create the secret key file ${path}: ${(error as Error).message}`);
    }
    try {
        linkSync(temporary, path);
    } catch (error) {
        const code = (error as NodeJS.ErrnoException).code;
        if (code === "EEXIST") return readKeyFile(path)!;
        if (code !== "EPERM" && code !== "ENOTSUP" && code !== "ENOSYS") {
            throw new SecretKeyError(`cannot create the secret key file ${path}: ${(error as Error).message}`);
        }
        // A file system without hard links: create the file itself exclusively.
        try {
            writeNewKey(path, key);
        } catch (inner) {
            if ((inner as NodeJS.ErrnoException).code === "EEXIST") return readKeyFile(path)!;
            throw new SecretKeyError(`cannot create the secret key file ${path}: ${(inner as Error).message}`);
        }
    } finally {
        try {
            unlinkSync(temporary);
        } catch {
            // Already gone: nothing to clean.
        }
    }
    syncFolder(folder);
    return key;
}

/** Where a database's key comes from. */
export interface SecretKeySource {
    /** The database path (`:memory:` for none): the default key file is beside it. */
    dataPath: string;
    memory: boolean;
    /** `--secret-key-file` / `WOS_SECRET_KEY_FILE`; default `<data>.key` (none for `:memory:`: a random key). */
    secretKeyFile?: string;
    /**
     * Whether the database already holds values written under a key (schema version 3 or later): its key file
     * is then never created anew, since a new key could open none of them.
     */
    databaseHasKey: boolean;
}

/**
 * The secrets of a database: the key file's key, a new key file's (only for a database that holds no keyed
 * value yet), or a random key for `:memory:` without a key file.
 * @throws SecretKeyError naming the key file when it is unreadable, malformed, or missing for a database that
 * was written with a key.
 */
export function loadSecrets(source: SecretKeySource): Secrets {
    const keyFile = source.secretKeyFile ?? (source.memory ? undefined : defaultKeyFile(source.dataPath));
    if (keyFile === undefined) return randomSecrets();
    const existing = readKeyFile(keyFile);
    if (existing) return secretsFromKey(existing, keyFile);
    if (source.databaseHasKey) {
        throw new SecretKeyError(
            `the secret key file ${keyFile} does not exist, but the database ${source.dataPath} was written with a secret key: ` +
                `restore the key file it was created with (or name it with --secret-key-file or WOS_SECRET_KEY_FILE); ` +
                `without it no sensitive value or token of this database can be read`,
        );
    }
    return secretsFromKey(createKeyFile(keyFile), keyFile);
}

/** Whether `stored` (a database's key check) is the check of these secrets, in constant time. */
export function keyCheckMatches(stored: string, secrets: Secrets): boolean {
    const a = Buffer.from(stored, "utf8");
    const b = Buffer.from(secrets.keyCheck, "utf8");
    return a.length === b.length && timingSafeEqual(a, b);
}
