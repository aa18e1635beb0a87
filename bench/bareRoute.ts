/**
 * The floor of the throughput figures: a bare Fastify server, in its own process like `wos-server`, whose
 * routes answer fixed bytes (captured from the real service) with the same content type and nothing else:
 * no authentication, no database, no rendering. `node dist/bench/bareRoute.js ROUTES.json` where the file
 * holds `[{ "path": "/api/v2/...", "contentType": "...", "body": "<base64>" }]`; prints
 * `bare route listening on URL` when ready and stops on SIGTERM.
 *
 * @module
 */
import * as fs from "node:fs";
import Fastify from "fastify";

interface Route {
    path: string;
    contentType: string;
    body: string;
}

async function main(): Promise<void> {
    const routes = JSON.parse(fs.readFileSync(process.argv[2], "utf8")) as Route[];
    const app = Fastify({ logger: false });
    for (const route of routes) {
        const body = Buffer.from(route.body, "base64");
        app.get(route.path, (_request, reply) => {
            reply.header("content-type", route.contentType).send(body);
        });
    }
    const url = await app.listen({ host: "127.0.0.1", port: 0 });
    process.stdout.write(`bare route listening on ${url}\n`);
    const stop = () => {
        void app.close().then(() => process.exit(0));
    };
    process.on("SIGTERM", stop);
    process.on("SIGINT", stop);
}

main().catch((error: Error) => {
    process.stderr.write(`bare route: ${error.stack ?? error.message}\n`);
    process.exit(1);
});
