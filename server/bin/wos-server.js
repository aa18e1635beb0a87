#!/usr/bin/env node
// The command `wos-server`: it runs the compiled server, dist/server/main.js. It is a file of its own, kept in
// the repository, because npm links a command only to a file that exists when it installs, and in a clone
// `npm ci` runs before anything is built.
"use strict";
const main = require("path").join(__dirname, "..", "dist", "server", "main.js");
try {
    require.resolve(main);
} catch {
    process.stderr.write(`wos-server: ${main} is not built yet: run \`npm run build\` in the repository first\n`);
    process.exit(1);
}
require(main);
