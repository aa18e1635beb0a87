/**
 * One declaration per property (issue 31): the plugin's property tables (`plugin/declared.ts`) and the
 * resources' replacing inputs (`provider/handlers/replacingInputs.ts`) are what the build writes from the
 * declarations of `provider/`, and the schema pieces made from them refuse an object type left without a token
 * or a token given to no type.
 */
import * as fs from "node:fs";
import * as path from "node:path";
import { declaredTables, GENERATED_FILES } from "../../plugin/declarations/write";
import { declaredComponent, declaredFunction, declaredResource } from "../../plugin/declaredSchema";
import { wosPackageSchema } from "../../plugin/schema";
import { REPLACING_INPUTS } from "../../provider/handlers/replacingInputs";
import { ROOT } from "./declaredSchema";

let generated: ReturnType<typeof declaredTables>;

beforeAll(() => {
    generated = declaredTables(ROOT);
}, 120_000);

describe("the generated tables", () => {
    test.each(Object.keys(GENERATED_FILES) as (keyof typeof GENERATED_FILES)[])("%s is what the build writes from provider/ (else: npm run build, and commit it)", (key) => {
        expect(fs.readFileSync(path.join(ROOT, GENERATED_FILES[key]), "utf8")).toBe(generated.files[key]);
    });

    test("they carry a declaration's TSDoc word for word (ProjectArgs.name's), as the generator read it from provider/", () => {
        const declaration = fs.readFileSync(path.join(ROOT, "provider", "project.ts"), "utf8");
        const phrase = "3 to 40 characters: letters, numbers, spaces, `-` and `_`; no leading or trailing space. Unique per organization.";
        expect(declaration).toContain(phrase);
        expect(generated.files.tables).toContain(JSON.stringify(phrase));
    });

    test("the inputs that always replace: each resource's, by its TSDoc @replaceOnChanges", () => {
        expect(REPLACING_INPUTS).toEqual({
            Project: ["organization"],
            ProjectTagBindings: ["projectId"],
            Workspace: ["organization"],
            Variable: ["workspaceId"],
            NoCodeModule: ["organization", "registryModuleId"],
            NoCodeWorkspace: ["noCodeModuleId"],
        });
    });

    test("the schema marks exactly those inputs willReplaceOnChanges, and nothing else anywhere", () => {
        const marked = (properties: Record<string, { willReplaceOnChanges?: boolean }>) =>
            Object.entries(properties).filter(([, spec]) => spec.willReplaceOnChanges).map(([property]) => property);
        for (const [name, replacing] of Object.entries(REPLACING_INPUTS)) {
            const resource = wosPackageSchema.resources[`wos:index:${name}`]!;
            expect({ name, inputs: marked(resource.inputProperties) }).toEqual({ name, inputs: [...replacing] });
        }
        // Pulumi's schema says the mark is the docs' (the registry's "changes to this property will trigger
        // replacement"): outputs, the component, functions, types and the provider have none.
        const elsewhere = JSON.stringify({
            outputs: Object.values(wosPackageSchema.resources).map((resource) => resource.properties),
            component: wosPackageSchema.resources["wos:index:NoCodeProject"],
            functions: wosPackageSchema.functions,
            types: wosPackageSchema.types,
            config: wosPackageSchema.config,
            provider: wosPackageSchema.provider,
        });
        expect(elsewhere).not.toContain("willReplaceOnChanges");
    });
});

describe("a piece made from the tables", () => {
    test("names the object type it gives no token, and the token it gives to no type", () => {
        expect(() => declaredResource("NoCodeWorkspace", { description: "", types: { NoCodeWorkspaceVar: "wos:index:A", NoCodeWorkspaceUpgrade: "wos:index:B" } })).toThrow(
            "wos:index:NoCodeWorkspace uses the object type NoCodeWorkspaceVarArgs, which it gives no token",
        );
        expect(() => declaredResource("Project", { description: "", types: { NoCodeWorkspaceVar: "wos:index:A" } })).toThrow(
            "wos:index:Project gives a token to NoCodeWorkspaceVar, which none of its properties uses",
        );
    });

    test("names a resource, component or function that provider/ does not declare", () => {
        expect(() => declaredResource("Nope", { description: "" })).toThrow("provider/ declares no resource Nope");
        expect(() => declaredComponent("Project", { description: "" })).toThrow("provider/ declares no component Project");
        expect(() => declaredFunction("getNope", { description: "" })).toThrow("provider/ declares no function getNope");
    });

    test("the types an object type uses come along: the component's module form brings the variable options its child declares", () => {
        const piece = declaredComponent("NoCodeProject", {
            description: "",
            types: {
                NoCodeProjectProjectArgs: "wos:index:P",
                NoCodeProjectModuleArgs: "wos:index:M",
                NoCodeProjectWorkspaceArgs: "wos:index:W",
                NoCodeProjectRolloutArgs: "wos:index:R",
                NoCodeWorkspaceVarArgs: "wos:index:V",
                NoCodeModuleVariableOptionsArgs: "wos:index:O",
            },
        });
        expect(Object.keys(piece.types)).toEqual(["wos:index:P", "wos:index:M", "wos:index:W", "wos:index:R", "wos:index:V", "wos:index:O"]);
        expect(piece.types["wos:index:M"]!.properties.variableOptions!.items).toEqual({ $ref: "#/types/wos:index:O" });
        expect(piece.spec.isComponent).toBe(true);
    });
});
