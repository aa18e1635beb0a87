/**
 * The examples of the package schema: each resource's, component's and function's description ends with an
 * example program in TypeScript, Python, Go and YAML, in the form the Pulumi registry and the SDK generators
 * read (the `{{% examples %}}` and `{{% example %}}` shortcodes around one fenced code block per language).
 * Each generator keeps the block of its own language, so the Python SDK's docstrings show the Python program
 * and the Go SDK's comments the Go one.
 *
 * Every example is a whole program against the local service's demo seed (organization `acme`, its registry
 * module `mod-0000000000000001`, project `Apps`, workspace `legacy-app`), so a user can run it as it stands
 * with `npm start` and the `platform` team's token; the TypeScript one is on the `pulumi-wos` npm package's
 * dynamic resources, the others on the generated SDKs and the plugin.
 *
 * @module
 */

/** The languages of an example, each the info string of its fenced code block. */
export const EXAMPLE_LANGUAGES = ["typescript", "python", "go", "yaml"] as const;

/** One of {@link EXAMPLE_LANGUAGES}. */
export type ExampleLanguage = (typeof EXAMPLE_LANGUAGES)[number];

/** One example: a heading and the same program in every language of {@link EXAMPLE_LANGUAGES}. */
export type SchemaExample = { title: string } & Record<ExampleLanguage, string>;

/**
 * The text of a program written in a template literal: without the line break that opens it, ending with one
 * line break, so that the examples read as the files they stand for.
 */
export function program(text: string): string {
    return `${text.replace(/^\n/, "").trimEnd()}\n`;
}

/** `description` followed by the examples' section of the schema's documentation format. */
export function describedWithExamples(description: string, examples: readonly SchemaExample[]): string {
    const sections = examples.map((example) =>
        [
            "{{% example %}}",
            `### ${example.title}`,
            "",
            ...EXAMPLE_LANGUAGES.map((language) => `\`\`\`${language}\n${program(example[language])}\`\`\``),
            "{{% /example %}}",
        ].join("\n"),
    );
    return [description, "", "{{% examples %}}", "## Example Usage", "", ...sections, "{{% /examples %}}"].join("\n");
}
