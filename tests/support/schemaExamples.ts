/**
 * The examples of the plugin's package schema, read back from the schema's descriptions as the SDK generators
 * and the Pulumi registry read them (the `{{% examples %}}` section, one `{{% example %}}` with a fenced code
 * block per language), so that a test runs what a user of an SDK reads in its docstrings, not the module that
 * wrote them. Parsed here on its own, so that a wrong section fails the tests rather than being read back by
 * the code that made it.
 */

/** The languages every example is written in, each its code block's info string. */
export const LANGUAGES = ["typescript", "python", "go", "yaml"] as const;
export type Language = (typeof LANGUAGES)[number];

/** One example of one resource, component or function of the schema. */
export interface ExampleOf {
    /** `wos:index:Project`, `wos:index:getProject`, ... */
    token: string;
    /** The last part of the token (`Project`, `getProject`). */
    name: string;
    /** A function (an invoke) rather than a resource or component. */
    isFunction: boolean;
    title: string;
    /** The program in each language, exactly as the description holds it. */
    code: Record<Language, string>;
}

/** The parts of the schema this module reads. */
interface DescribedSchema {
    resources: Record<string, { description?: string }>;
    functions: Record<string, { description?: string }>;
}

const EXAMPLES_SECTION = /\n\{\{% examples %\}\}\n## Example Usage\n\n([\s\S]*?)\{\{% \/examples %\}\}$/;
const EXAMPLE = /\{\{% example %\}\}\n### (.+)\n\n([\s\S]*?)\{\{% \/example %\}\}\n/g;
const FENCE = /```(\w+)\n([\s\S]*?)```\n?/g;

/**
 * The examples of one description: one per `{{% example %}}` of its examples' section. Throws, naming the token,
 * when there is no section, when a fenced block is outside an example, or when an example has other than one
 * block per language, in the order of {@link LANGUAGES}.
 */
export function examplesOf(token: string, description: string, isFunction: boolean): ExampleOf[] {
    const section = EXAMPLES_SECTION.exec(description);
    if (!section) throw new Error(`${token}: its description does not end with an {{% examples %}} section`);
    if (description.slice(0, section.index).includes("```")) throw new Error(`${token}: a code block outside the examples' section`);
    const examples: ExampleOf[] = [];
    let rest = section[1]!;
    for (const [whole, title, body] of section[1]!.matchAll(EXAMPLE)) {
        rest = rest.replace(whole, "");
        const blocks = [...body!.matchAll(FENCE)];
        const languages = blocks.map((block) => block[1]);
        if (JSON.stringify(languages) !== JSON.stringify(LANGUAGES)) {
            throw new Error(`${token}: example "${title}" has the blocks ${languages.join(", ")}, not ${LANGUAGES.join(", ")}`);
        }
        if (body!.replace(FENCE, "").trim() !== "") throw new Error(`${token}: example "${title}" has text outside its code blocks`);
        examples.push({
            token,
            name: token.split(":")[2]!,
            isFunction,
            title: title!,
            code: Object.fromEntries(blocks.map((block) => [block[1], block[2]])) as Record<Language, string>,
        });
    }
    if (rest.trim() !== "") throw new Error(`${token}: text in the examples' section outside an example: ${rest.trim()}`);
    return examples;
}

/** Every example of the schema: of each resource and component, then of each function. */
export function schemaExamples(schema: DescribedSchema): ExampleOf[] {
    return [
        ...Object.entries(schema.resources).flatMap(([token, spec]) => examplesOf(token, spec.description ?? "", false)),
        ...Object.entries(schema.functions).flatMap(([token, spec]) => examplesOf(token, spec.description ?? "", true)),
    ];
}

/** The names of the stack outputs a program exports, in the order it exports them, read from its code. */
export function exportedNames(language: Language, code: string): string[] {
    const pattern = {
        typescript: /^export const (\w+) =/gm,
        python: /^pulumi\.export\("(\w+)"/gm,
        go: /\bctx\.Export\("(\w+)"/g,
        yaml: /^ {2}(\w+):/gm,
    }[language];
    const text = language === "yaml" ? (/^outputs:\n((?: {2}.*\n?)*)/m.exec(code)?.[1] ?? "") : code;
    return [...text.matchAll(pattern)].map((match) => match[1]!);
}
