/**
 * One schema (issue 21): the plugin's package schema and the dynamic resources' TypeScript declarations say
 * the same of every resource and function: each property, its type (object types by their properties), its
 * optionality, its default (TSDoc `@defaultValue`), its secretness (TSDoc `@secret`) and its description
 * (the TSDoc). A difference of any of them fails here, naming the resource and the property.
 */
import { COMPONENT_SCHEMAS, RESOURCE_BINDINGS, FUNCTION_BINDINGS, wosPackageSchema } from "../../plugin/schema";
import { Declarations, declaredSide, ROOT, schemaFunction, schemaResource, type Described, type PackageSchema } from "./declaredSchema";

const RESOURCES = ["Project", "ProjectTagBindings", "Variable", "Workspace", "NoCodeModule", "NoCodeWorkspace"];
const COMPONENTS = ["NoCodeProject"];
const FUNCTIONS = ["getProject", "getProjects", "getWorkspace", "getWorkspaces", "getNoCodeModule"];

let declarations: Declarations;

beforeAll(() => {
    declarations = new Declarations(ROOT);
}, 120_000);

const schema = wosPackageSchema as unknown as PackageSchema;

/** The properties (inputs and outputs) of both sides, for a readable failure: only the resource-level description is the plugin's own. */
function properties(described: Described): Pick<Described, "inputs" | "outputs"> {
    return { inputs: described.inputs, outputs: described.outputs };
}

describe("the plugin's schema is the dynamic resources' declarations", () => {
    test("it has exactly the six resources, one component and five functions, under wos:index tokens", () => {
        expect(Object.keys(wosPackageSchema.resources).sort()).toEqual([...RESOURCES, ...COMPONENTS].map((name) => `wos:index:${name}`).sort());
        expect(COMPONENT_SCHEMAS.map((piece) => piece.token)).toEqual(COMPONENTS.map((name) => `wos:index:${name}`));
        for (const name of RESOURCES) expect(wosPackageSchema.resources[`wos:index:${name}`]!.isComponent).toBeUndefined();
        for (const name of COMPONENTS) expect(wosPackageSchema.resources[`wos:index:${name}`]!.isComponent).toBe(true);
        expect(Object.keys(wosPackageSchema.functions).sort()).toEqual(FUNCTIONS.map((name) => `wos:index:${name}`).sort());
        expect(RESOURCE_BINDINGS).toHaveLength(RESOURCES.length);
        expect(FUNCTION_BINDINGS).toHaveLength(FUNCTIONS.length);
    });

    test.each(RESOURCES)("wos:index:%s: every input and output, with type, optionality, default, secretness and description", (name) => {
        expect(properties(schemaResource(schema, `wos:index:${name}`))).toEqual(properties(declaredSide(declarations.resource(name))));
    });

    test.each(COMPONENTS)(
        "wos:index:%s (a component): every input and output, with type, optionality, plainness, default, secretness and description",
        (name) => {
            expect(properties(schemaResource(schema, `wos:index:${name}`))).toEqual(properties(declaredSide(declarations.component(name))));
        },
    );

    test.each(FUNCTIONS)("wos:index:%s: every argument and result field, with type, optionality and description", (name) => {
        expect(properties(schemaFunction(schema, `wos:index:${name}`))).toEqual(properties(declaredSide(declarations.function(name))));
    });

    test("the comparison sees a drift: a changed description, type, optionality, secretness, default, plainness or replacement of one property differs", () => {
        const declared = properties(declaredSide(declarations.resource("Variable")));
        const drifted = (change: (copy: PackageSchema) => void) => {
            const copy = JSON.parse(JSON.stringify(wosPackageSchema)) as PackageSchema;
            change(copy);
            return properties(schemaResource(copy, "wos:index:Variable"));
        };
        const variable = (copy: PackageSchema) => copy.resources["wos:index:Variable"]!;
        expect(drifted(() => undefined)).toEqual(declared);
        expect(drifted((copy) => (variable(copy).inputProperties.key!.description += " Changed."))).not.toEqual(declared);
        expect(drifted((copy) => (variable(copy).inputProperties.hcl!.type = "string"))).not.toEqual(declared);
        expect(drifted((copy) => variable(copy).requiredInputs!.push("description"))).not.toEqual(declared);
        expect(drifted((copy) => (variable(copy).properties.value!.secret = true))).not.toEqual(declared);
        expect(drifted((copy) => (variable(copy).inputProperties.hcl!.default = false))).not.toEqual(declared);
        expect(drifted((copy) => (variable(copy).inputProperties.key!.plain = true))).not.toEqual(declared);
        expect(drifted((copy) => (variable(copy).inputProperties.key!.willReplaceOnChanges = true))).not.toEqual(declared);
        expect(drifted((copy) => delete variable(copy).inputProperties.workspaceId!.willReplaceOnChanges)).not.toEqual(declared);
    });

    test("the comparison sees a drift of the component: a plain input made eventual, a form's field dropped, an output's type", () => {
        const declared = properties(declaredSide(declarations.component("NoCodeProject")));
        const drifted = (change: (copy: PackageSchema) => void) => {
            const copy = JSON.parse(JSON.stringify(wosPackageSchema)) as PackageSchema;
            change(copy);
            return properties(schemaResource(copy, "wos:index:NoCodeProject"));
        };
        const component = (copy: PackageSchema) => copy.resources["wos:index:NoCodeProject"]!;
        expect(drifted(() => undefined)).toEqual(declared);
        expect(drifted((copy) => delete component(copy).inputProperties.workspaces!.plain)).not.toEqual(declared);
        expect(drifted((copy) => delete copy.types["wos:index:NoCodeProjectModule"]!.properties!.versionPin)).not.toEqual(declared);
        expect(drifted((copy) => (component(copy).properties.upgradesAvailable!.additionalProperties!.type = "string"))).not.toEqual(declared);
        expect(drifted((copy) => component(copy).required!.pop())).not.toEqual(declared);
    });
});

describe("the package", () => {
    test("is named wos, at the package's version, with the languages' package names", () => {
        expect(wosPackageSchema).toMatchObject({
            name: "wos",
            version: require("../../package.json").version,
            language: {
                python: { packageName: "pulumi_wos" },
                go: { importBasePath: "github.com/pulumi-wos/pulumi-wos/sdks/go/wos" },
            },
        });
    });

    test("its configuration and its provider take address, token (a secret), organization and the boolean planUpgradesInPreview", () => {
        for (const variables of [wosPackageSchema.config.variables, wosPackageSchema.provider.inputProperties]) {
            expect(Object.keys(variables).sort()).toEqual(["address", "organization", "planUpgradesInPreview", "token"]);
            expect(variables.token).toMatchObject({ type: "string", secret: true });
            expect(variables.address!.secret).toBeUndefined();
            expect(variables.organization!.secret).toBeUndefined();
            for (const key of ["address", "token", "organization"]) expect(variables[key]!.description).toEqual(expect.stringMatching(/WOS_[A-Z]+/));
            // No environment variable turns plans in previews on: only the stack or the program does.
            expect(variables.planUpgradesInPreview).toMatchObject({ type: "boolean" });
            expect(variables.planUpgradesInPreview!.description).not.toMatch(/WOS_/);
            expect(variables.planUpgradesInPreview!.description).toMatch(/Default `false`/);
        }
    });

    test("every object type it refers to is defined, and every type it defines is used", () => {
        const text = JSON.stringify({ resources: wosPackageSchema.resources, functions: wosPackageSchema.functions, types: wosPackageSchema.types });
        const referred = new Set([...text.matchAll(/#\/types\/([\w:]+)/g)].map((match) => match[1]!));
        expect([...referred].sort()).toEqual(Object.keys(wosPackageSchema.types).sort());
    });
});
