/**
 * The house drawn from the imports (issue 20 section 1): among the sources of server/, sdk/, provider/, the
 * native plugin (plugin/) and the testing kit the package ships (testing/), no module imports itself through others (a circle means that
 * neither end can be read, changed or loaded alone), and the server's routes import neither the file that
 * assembles the app (`server/app.ts`) nor each other: what several routes share has a room of its own.
 *
 * The graph is madge's (a pinned devDependency), which resolves imports as TypeScript does (the paths of
 * tsconfig.json, directory indexes) and counts `import type` too: a circle of types is still a circle for
 * the reader.
 */
import { join, resolve } from "node:path";

const ROOT = resolve(__dirname, "../..");

/** The folders whose modules make the graph. */
const SOURCES = ["server", "sdk", "provider", "plugin", "testing"];

/** What madge answers (the package has no typings): each module's imports, by path from the root. */
interface MadgeResult {
    obj(): Record<string, string[]>;
    circular(): string[][];
    warnings(): { skipped: string[] };
}

const madge = require("madge") as (paths: string[], config: Record<string, unknown>) => Promise<MadgeResult>;

let graph: MadgeResult;

beforeAll(async () => {
    graph = await madge(SOURCES, {
        baseDir: ROOT,
        fileExtensions: ["ts"],
        tsConfig: join(ROOT, "tsconfig.json"),
        // Build output and installed packages are not sources.
        excludeRegExp: [/(^|\/)dist\//, /(^|\/)node_modules\//],
    });
}, 120_000);

test("the graph is the real one: every source is read and every relative import resolved", () => {
    const imports = graph.obj();
    // A graph that resolved nothing would have no circle either: check that it holds known edges.
    expect(imports["server/app.ts"]).toEqual(expect.arrayContaining(["server/context.ts", "server/routes/projects.ts", "server/db.ts"]));
    expect(imports["server/db.ts"]).toContain("server/secrets.ts");
    expect(imports["testing/localService.ts"]).toContain("server/app.ts");
    const providerToSdk = Object.entries(imports).filter(([file, targets]) => file.startsWith("provider/") && targets.some((target) => target.startsWith("sdk/")));
    expect(providerToSdk.length).toBeGreaterThan(0);
    expect(Object.keys(imports).filter((file) => file.startsWith("server/routes/")).length).toBeGreaterThanOrEqual(5);
    expect(graph.warnings().skipped).toEqual([]);
});

test("no module of server/, sdk/, provider/, plugin/ or testing/ imports itself through others", () => {
    expect(graph.circular()).toEqual([]);
});

test("no route imports the app or another route", () => {
    const imports = graph.obj();
    const routes = Object.keys(imports).filter((file) => file.startsWith("server/routes/"));
    const wrong = routes.flatMap((route) =>
        imports[route]!.filter((target) => target === "server/app.ts" || target.startsWith("server/routes/")).map((target) => `${route} -> ${target}`),
    );
    expect(wrong).toEqual([]);
});
