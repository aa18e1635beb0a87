/**
 * `node dist/server/openapi/write.js FILE...`: writes the service's OpenAPI description into each file, as
 * the build does for the packages (`server/openapi.json` in `@pulumi-wos/server`, `dist/openapi.json` in
 * `pulumi-wos`) and the release. The file describes every route a server may have, the fault injection
 * routes of `--admin-token` among them; a running server serves its own at `/api/v2/openapi.json`.
 */
import { mkdirSync, writeFileSync } from "node:fs";
import { dirname } from "node:path";
import { openApiDocument } from "./document";

/** The description as the files hold it: indented JSON with a final newline. */
export function openApiText(): string {
    return `${JSON.stringify(openApiDocument({ admin: true }), null, 2)}\n`;
}

if (require.main === module) {
    const files = process.argv.slice(2);
    if (files.length === 0) {
        process.stderr.write("usage: node dist/server/openapi/write.js FILE...\n");
        process.exit(2);
    }
    const text = openApiText();
    for (const file of files) {
        mkdirSync(dirname(file), { recursive: true });
        writeFileSync(file, text);
    }
}
