/**
 * `WosMocks` of the packed `pulumi-wos/testing`, used as a user's test uses it: a program of the packed
 * `pulumi-wos` runs under `pulumi.runtime.setMocks` in this process, each `wos` resource is checked and
 * created in a local service, and what the program made is read back over HTTP. Then `newResource` is
 * called directly with the serialized providers the program registered, for what a test's program must not
 * get through: broken rules (nothing written), refusals by the service, too few rights; and previews, reads
 * by id, and resources that are not `wos`'s.
 */
import * as pulumi from "@pulumi/pulumi";
import { rawRequest } from "../support/server";
import { loadPackedKit, type PackedKit } from "./helpers";
import type { LocalService, MockResourceArgs, WosMocks } from "../../testing";

/** The value Pulumi sends for inputs not known during preview. */
const UNKNOWN = "04da6b54-80e4-46f7-96ec-b56ff0331ba9";
/** The demo seed's workspace `legacy-app`, its registry module `bucket` (versions 1.0.0 and 1.1.0). */
const WORKSPACE_ID = "ws-0000000000000001";
const MODULE_ID = "mod-0000000000000001";
const TYPE = {
    project: "pulumi-nodejs:dynamic/wos:Project",
    tagBindings: "pulumi-nodejs:dynamic/wos:ProjectTagBindings",
    variable: "pulumi-nodejs:dynamic/wos:Variable",
    noCodeModule: "pulumi-nodejs:dynamic/wos:NoCodeModule",
} as const;

let kit: PackedKit;
let service: LocalService;

/** `GET /api/v2<pathname>` as the seed's owners, answering the JSON body; fails the test unless 200. */
async function read(pathname: string): Promise<any> {
    const response = await rawRequest("GET", `${service.address}/api/v2${pathname}`, { token: service.tokens.owners });
    expect({ pathname, status: response.status }).toEqual({ pathname, status: 200 });
    return response.json;
}

/** The names of `acme`'s projects, sorted. */
async function projectNames(): Promise<string[]> {
    const list = await read("/organizations/acme/projects?page%5Bsize%5D=100");
    return list.data.map((project: { attributes: { name: string } }) => project.attributes.name).sort();
}

/** The value of an output, once known. */
function valueOf<T>(output: pulumi.Output<T>): Promise<T> {
    return new Promise((resolve) => output.apply(resolve));
}

beforeAll(async () => {
    kit = await loadPackedKit();
    service = await kit.testing.startLocalService();
}, 240_000);

afterAll(async () => {
    await service?.stop();
});

/** Every registration the program made, as `newResource` received it. */
const registrations: MockResourceArgs[] = [];
/** What reached the user's own mocks. */
const passedThrough: { resources: MockResourceArgs[]; calls: { token: string; inputs: unknown }[] } = { resources: [], calls: [] };
const userMocks = {
    newResource(args: MockResourceArgs) {
        passedThrough.resources.push(args);
        return { id: `${args.name}-user-id`, state: { ...args.inputs, madeBy: "the user's mocks" } };
    },
    call(args: { token: string; inputs: unknown }) {
        passedThrough.calls.push(args);
        return { answer: 42 };
    },
};

/** A resource of another package, as its SDK would declare it. */
class RandomPet extends pulumi.CustomResource {
    constructor(name: string) {
        super("random:index/randomPet:RandomPet", name, { length: 2 });
    }
}

/** The serialized provider the program registered for a type. */
function providerOf(type: string): string {
    const registration = registrations.find((args) => args.type === type);
    if (!registration) throw new Error(`the program registered no ${type}`);
    return registration.inputs.__provider;
}

describe("a program under setMocks with WosMocks", () => {
    let mocks: WosMocks;
    let program: {
        project: pulumi.CustomResource & Record<string, pulumi.Output<any>>;
        bindings: pulumi.CustomResource & Record<string, pulumi.Output<any>>;
        variable: pulumi.CustomResource & Record<string, pulumi.Output<any>>;
        module: pulumi.CustomResource & Record<string, pulumi.Output<any>>;
        pet: pulumi.CustomResource;
        invoked: Promise<unknown>;
    };

    beforeAll(async () => {
        mocks = new kit.testing.WosMocks({ service, token: service.tokens.platform, mocks: userMocks });
        await pulumi.runtime.setMocks(
            {
                newResource: (args) => {
                    registrations.push(args);
                    return mocks.newResource(args);
                },
                call: (args) => mocks.call(args),
            },
            "wos-kit-test",
            "test",
        );
        const wos = kit.wos;
        const project = new wos.Project("kit-project", {
            organization: "acme",
            name: "Kit Project",
            description: "Made by a program under mocks",
            autoDestroyActivityDuration: "3d",
            tags: { team: "kit" },
        });
        program = {
            project: project as never,
            bindings: new wos.ProjectTagBindings("kit-bindings", { projectId: project.id, tags: { "cost-center": "42" } }) as never,
            variable: new wos.Variable("kit-secret", {
                workspaceId: WORKSPACE_ID,
                key: "KIT_SECRET",
                value: pulumi.secret("s3cret-value"),
                category: "env",
                sensitive: true,
            }) as never,
            module: new wos.NoCodeModule("kit-module", { organization: "acme", registryModuleId: MODULE_ID, enabled: true }) as never,
            pet: new RandomPet("pet"),
            invoked: pulumi.runtime.invoke("test:index:getThing", { question: "what" }),
        };
        await mocks.settled();
    }, 60_000);

    test("settled() answers every wos resource with the id the service gave it", () => {
        expect(mocks.failures).toEqual([]);
        expect(mocks.resources.map((resource) => `${resource.type} ${resource.name}`).sort()).toEqual([
            `${TYPE.noCodeModule} kit-module`,
            `${TYPE.project} kit-project`,
            `${TYPE.tagBindings} kit-bindings`,
            `${TYPE.variable} kit-secret`,
        ]);
        const idOf = (name: string) => mocks.resources.find((resource) => resource.name === name)!.id;
        expect(idOf("kit-project")).toMatch(/^prj-/);
        expect(idOf("kit-bindings")).toBe(idOf("kit-project"));
        expect(idOf("kit-secret")).toMatch(/^var-/);
        expect(idOf("kit-module")).toMatch(/^nocode-/);
    });

    test("the project exists on the service with its description, duration and tags; the program sees its real id", async () => {
        const id = await valueOf(program.project.id);
        const project = await read(`/projects/${id}`);
        expect(project.data.attributes).toMatchObject({
            name: "Kit Project",
            description: "Made by a program under mocks",
            "auto-destroy-activity-duration": "3d",
        });
        const tags = (await read(`/projects/${id}/tag-bindings`)).data.map(
            (binding: { attributes: { key: string; value: string } }) => `${binding.attributes.key}=${binding.attributes.value}`,
        );
        // The tag bindings resource was given the project's real id, so its tag landed on the same project.
        expect(tags.sort()).toEqual(["cost-center=42", "team=kit"]);
        expect(await valueOf(program.bindings.projectId)).toBe(id);
    });

    test("outputs are the provider's: a default the service resolved (the no-code module's version pin)", async () => {
        expect(await valueOf(program.module.versionPin)).toBe("1.1.0");
        expect(await valueOf(program.module.enabled)).toBe(true);
        const id = await valueOf(program.module.id);
        const module = await read(`/no-code-modules/${id}`);
        expect(module.data.attributes).toMatchObject({ "version-pin": "1.1.0", enabled: true });
    });

    test("the sensitive variable: on the service without its value; in the program, its value a secret", async () => {
        const variables = await read(`/vars?filter%5Bworkspace%5D%5Bname%5D=legacy-app&filter%5Borganization%5D%5Bname%5D=acme`);
        const variable = variables.data.find((item: { attributes: { key: string } }) => item.attributes.key === "KIT_SECRET");
        expect(variable.attributes).toMatchObject({ category: "env", sensitive: true, hcl: false });
        expect(variable.attributes.value ?? null).toBeNull();
        expect(await valueOf(program.variable.id)).toBe(variable.id);
        expect(await pulumi.isSecret(program.variable.value)).toBe(true);
        expect(await valueOf(program.variable.value)).toBe("s3cret-value");
        // Defaults resolved by the provider, not given by the program.
        expect(await valueOf(program.variable.hcl)).toBe(false);
    });

    test("a resource of another package goes to the user's mocks, and is not made in the service", async () => {
        expect(passedThrough.resources.map((args) => `${args.type} ${args.name}`)).toEqual(["random:index/randomPet:RandomPet pet"]);
        expect(await valueOf(program.pet.id)).toBe("pet-user-id");
        expect(mocks.resources.some((resource) => resource.name === "pet")).toBe(false);
    });

    test("a call (invoke) goes to the user's mocks", async () => {
        expect(await program.invoked).toEqual({ answer: 42 });
        expect(passedThrough.calls).toEqual([expect.objectContaining({ token: "test:index:getThing", inputs: { question: "what" } })]);
    });

    test("each registration is recognised by the handler its serialized provider loads", () => {
        const names = Object.fromEntries(registrations.map((args) => [args.name, kit.testing.wosHandlerName(args)]));
        expect(names).toEqual({
            "kit-project": "project",
            "kit-bindings": "projectTagBindings",
            "kit-secret": "variable",
            "kit-module": "noCodeModule",
            pet: undefined,
        });
        expect(providerOf(TYPE.project)).toContain('require("pulumi-wos/dist/provider/handlers/project")');
    });
});

describe("newResource with the program's serialized providers", () => {
    let mocks: WosMocks;
    const projectArgs = (name: string, inputs: Record<string, unknown>, extra: Partial<MockResourceArgs> = {}): MockResourceArgs => ({
        type: TYPE.project,
        name,
        custom: true,
        inputs: { __provider: providerOf(TYPE.project), organization: "acme", ...inputs },
        ...extra,
    });

    beforeEach(() => {
        mocks = new kit.testing.WosMocks({ service, token: service.tokens.platform, mocks: userMocks });
    });

    test("a project without organization takes the stack config's wos:organization, as under the provider host", async () => {
        pulumi.runtime.setConfig("wos:organization", "acme");
        try {
            const result = await mocks.newResource(projectArgs("from-config", { name: "From Config", organization: undefined }));
            expect(result.state).toMatchObject({ organization: "acme", name: "From Config" });
            expect(await projectNames()).toContain("From Config");
        } finally {
            // An empty value is no default: later tests see none.
            pulumi.runtime.setConfig("wos:organization", "");
        }
    });

    test.each([
        ["a name of 2 characters with a '!'", { name: "x!" }, "name", /has problems: name must be at least 3 characters; name may contain only letters, numbers, spaces, '-' and '_'$/],
        [
            "11 tags",
            { name: "Eleven Tags", tags: Object.fromEntries(Array.from({ length: 11 }, (_, index) => [`key${index}`, "v"])) },
            "tags",
            /has a problem: .*a project may have at most 10 tags; 11 were given/,
        ],
        ["a duration of 2w", { name: "Two Weeks", autoDestroyActivityDuration: "2w" }, "autoDestroyActivityDuration", /autoDestroyActivityDuration must be an integer greater than 0 of up to four digits followed by 'd' or 'h'/],
        ["no organization", { name: "Orphan", organization: undefined }, "organization", /organization is required/],
    ])("%s: fails with the provider's message naming the property, and nothing is written", async (_label, inputs, property, message) => {
        const before = await projectNames();
        await expect(mocks.newResource(projectArgs("broken", inputs))).rejects.toThrow(message);
        expect(mocks.failures).toEqual([
            expect.objectContaining({ type: TYPE.project, name: "broken", operation: "check" }),
        ]);
        // Every broken rule is reported, each naming the property.
        expect(new Set(mocks.failures[0].failures.map((failure) => failure.property))).toEqual(new Set([property]));
        expect(mocks.failures[0].message).toMatch(/^pulumi-nodejs:dynamic\/wos:Project resource 'broken' has/);
        expect(await projectNames()).toEqual(before);
        const settled = mocks.settled();
        await expect(settled).rejects.toThrow(/^1 wos resource failed:\n {2}pulumi-nodejs:dynamic\/wos:Project resource 'broken'/);
        await expect(settled).rejects.toMatchObject({ name: "WosMocksError", failures: mocks.failures });
    });

    test("a name the service refuses (taken by the seed's Apps) fails with the service's message; nothing is written", async () => {
        const before = await projectNames();
        await expect(mocks.newResource(projectArgs("taken", { name: "Apps" }))).rejects.toThrow(/wos:Project 'Apps' in organization 'acme': create failed: .*taken/);
        expect(mocks.failures.map((failure) => failure.operation)).toEqual(["create"]);
        expect(await projectNames()).toEqual(before);
    });

    test("a token without the right to create projects (the seed's app team): refused, nothing written", async () => {
        const app = new kit.testing.WosMocks({ service, token: service.tokens.app });
        const before = await projectNames();
        await expect(app.newResource(projectArgs("not-allowed", { name: "Not Allowed" }))).rejects.toThrow(/create failed/);
        expect(app.failures.map((failure) => failure.operation)).toEqual(["create"]);
        expect(await projectNames()).toEqual(before);
    });

    describe("expectRefusal and refusal", () => {
        const MARK = "wos-mocks:refused:";

        test("an expected refusal by a rule: the registration resolves with every output marked, refusal() answers it, settled() does not reject", async () => {
            const before = await projectNames();
            mocks.expectRefusal("bad");
            const answer = await mocks.newResource(projectArgs("bad", { name: "x!" }));
            expect(answer).toEqual({ id: `${MARK}bad`, state: { __provider: `${MARK}bad`, organization: `${MARK}bad`, name: `${MARK}bad` } });
            const refusal = await mocks.refusal("bad");
            expect(refusal).toMatchObject({ type: TYPE.project, name: "bad", operation: "check" });
            expect(refusal.failures).toContainEqual({ property: "name", reason: "name must be at least 3 characters" });
            await expect(mocks.settled()).resolves.toEqual([]);
            expect(await projectNames()).toEqual(before);
        });

        test("an expected refusal by the service (a taken name): refusal() answers the create's message", async () => {
            mocks.expectRefusal("taken");
            await mocks.newResource(projectArgs("taken", { name: "Apps" }));
            const refusal = await mocks.refusal("taken");
            expect(refusal.operation).toBe("create");
            expect(refusal.message).toMatch(/wos:Project 'Apps' in organization 'acme': create failed: .*taken/);
        });

        test("what takes an input from a refused resource is not attempted, nor what takes one from it, and nothing is written", async () => {
            const before = await projectNames();
            mocks.expectRefusal("parent");
            const parent = await mocks.newResource(projectArgs("parent", { name: "Apps" }));
            const child = await mocks.newResource({
                type: TYPE.tagBindings,
                name: "child",
                custom: true,
                inputs: { __provider: providerOf(TYPE.tagBindings), projectId: parent.id, tags: { "cost-center": "1" } },
            });
            // A value nested deep in the inputs counts too.
            const grandchild = await mocks.newResource(projectArgs("grandchild", { name: "Grandchild", tags: { origin: child.state.projectId } }));
            expect(grandchild.id).toBe(`${MARK}grandchild`);
            expect(mocks.skipped).toEqual([
                { type: TYPE.tagBindings, name: "child", dependsOn: "parent" },
                { type: TYPE.project, name: "grandchild", dependsOn: "child" },
            ]);
            expect(mocks.resources).toEqual([]);
            await expect(mocks.settled()).resolves.toEqual([]);
            expect(await projectNames()).toEqual(before);
        });

        test("refusal() rejects, saying what happened instead, when the resource was created, only checked, skipped or never registered", async () => {
            mocks.expectRefusal("fine");
            const created = await mocks.newResource(projectArgs("fine", { name: "Fine After All" }));
            await expect(mocks.refusal("fine")).rejects.toThrow(`'fine' was expected to be refused, but it was created (${TYPE.project} ${created.id})`);

            mocks.expectRefusal("previewed");
            await mocks.newResource(projectArgs("previewed", { name: "Previewed Only", description: UNKNOWN }));
            await expect(mocks.refusal("previewed")).rejects.toThrow("'previewed' was expected to be refused, but it passed its check and was not created");

            mocks.expectRefusal("first");
            mocks.expectRefusal("second");
            const first = await mocks.newResource(projectArgs("first", { name: "x!" }));
            await mocks.newResource(projectArgs("second", { name: "Second", description: first.id }));
            await expect(mocks.refusal("second")).rejects.toThrow("'second' was expected to be refused, but it was not attempted: an input comes from 'first', which was refused");

            mocks.expectRefusal("absent");
            await expect(mocks.refusal("absent")).rejects.toThrow("'absent' was expected to be refused, but the program registered no wos resource of that name");
            await expect(mocks.refusal("never-declared")).rejects.toThrow('call mocks.expectRefusal("never-declared") before the program registers');
        });

        test("a refusal that was not expected still rejects the registration, and settled() lists it alone", async () => {
            mocks.expectRefusal("expected");
            await mocks.newResource(projectArgs("expected", { name: "x!" }));
            await expect(mocks.newResource(projectArgs("unexpected", { name: "y!" }))).rejects.toThrow(/name must be at least 3/);
            const settled = mocks.settled();
            await expect(settled).rejects.toThrow(/^1 wos resource failed:\n {2}pulumi-nodejs:dynamic\/wos:Project resource 'unexpected'/);
            expect(mocks.failures.map((failure) => failure.name)).toEqual(["expected", "unexpected"]);
        });

        test("expectRefusal needs a name", () => {
            expect(() => mocks.expectRefusal("")).toThrow("WosMocks.expectRefusal: give the resource's Pulumi name");
        });
    });

    test("a preview (setMocks(..., preview = true)) with every input known: checked, nothing created, no id", async () => {
        const before = await projectNames();
        const monitor = { newResource: (args: MockResourceArgs) => mocks.newResource(args), call: (args: never) => mocks.call(args) };
        await pulumi.runtime.setMocks(monitor as never, "wos-kit-test", "test", true);
        try {
            const answer = await mocks.newResource(projectArgs("dry-run", { name: "Dry Run" }));
            expect(answer.id).toBeUndefined();
            expect(answer.state).toMatchObject({ name: "Dry Run" });
            expect(mocks.resources).toEqual([]);
            expect(await projectNames()).toEqual(before);
            await expect(mocks.newResource(projectArgs("dry-run-broken", { name: "x!" }))).rejects.toThrow(/name must be at least 3/);
        } finally {
            await pulumi.runtime.setMocks(monitor as never, "wos-kit-test", "test", false);
        }
        // Not previewing any more: the same resource is created.
        const created = await mocks.newResource(projectArgs("dry-run-then-up", { name: "Dry Run" }));
        expect(created.id).toMatch(/^prj-/);
        expect(await projectNames()).toContain("Dry Run");
    });

    test("a preview (an input not known yet): checked, nothing created, no id", async () => {
        const before = await projectNames();
        const answer = await mocks.newResource(projectArgs("preview", { name: "Previewed", description: UNKNOWN }));
        expect(answer.id).toBeUndefined();
        expect(answer.state).toMatchObject({ name: "Previewed", description: UNKNOWN });
        expect(mocks.resources).toEqual([]);
        expect(await projectNames()).toEqual(before);
        // The rules still apply to what is known.
        await expect(mocks.newResource(projectArgs("preview-broken", { name: "x!", description: UNKNOWN }))).rejects.toThrow(/name must be at least 3/);
    });

    test("a read by id (Resource.get) answers the resource as the service holds it; an unknown id fails", async () => {
        const created = await mocks.newResource(projectArgs("to-read", { name: "Read Back", description: "as made" }));
        const readBack = await mocks.newResource(projectArgs("read", {}, { id: created.id }));
        expect(readBack.id).toBe(created.id);
        expect(readBack.state).toMatchObject({ name: "Read Back", description: "as made" });
        await expect(mocks.newResource(projectArgs("missing", {}, { id: "prj-0000000000000000" }))).rejects.toThrow(
            "no resource with id 'prj-0000000000000000'",
        );
    });

    test("without a serialized provider, the type token names the resource", async () => {
        const args: MockResourceArgs = { type: TYPE.project, name: "by-type", custom: true, inputs: { organization: "acme", name: "x!" } };
        expect(kit.testing.wosHandlerName(args)).toBe("project");
        await expect(mocks.newResource(args)).rejects.toThrow(/name must be at least 3 characters/);
    });

    test("another dynamic resource (not pulumi-wos's provider) goes to the user's mocks", async () => {
        const args: MockResourceArgs = {
            type: "pulumi-nodejs:dynamic:Resource",
            name: "someone-elses",
            custom: true,
            inputs: { __provider: 'exports.handler = () => require("my-own-provider");', value: 1 },
        };
        expect(kit.testing.wosHandlerName(args)).toBeUndefined();
        const answer = await mocks.newResource(args);
        expect(answer).toEqual({ id: "someone-elses-user-id", state: { ...args.inputs, madeBy: "the user's mocks" } });
    });

    test("without mocks of its own, other resources get the id <name>-id and their inputs as state; calls their inputs", async () => {
        const plain = new kit.testing.WosMocks({ address: service.address, token: service.tokens.platform });
        expect(await plain.newResource({ type: "aws:s3/bucket:Bucket", name: "logs", custom: true, inputs: { acl: "private" } })).toEqual({
            id: "logs-id",
            state: { acl: "private" },
        });
        expect(await plain.newResource({ type: "my:index:Component", name: "group", custom: false, inputs: {} })).toEqual({ id: undefined, state: {} });
        expect(await plain.call({ token: "aws:index/getRegion:getRegion", inputs: { a: 1 } })).toEqual({ a: 1 });
    });

    test("after service.reset(), the seed is back and the same WosMocks creates again on the same address", async () => {
        await mocks.newResource(projectArgs("before-reset", { name: "Before Reset" }));
        expect(await projectNames()).toContain("Before Reset");
        await service.reset();
        expect(await projectNames()).toEqual(["Apps", "Default Project"]);
        const again = await mocks.newResource(projectArgs("after-reset", { name: "Before Reset" }));
        expect(again.id).toMatch(/^prj-/);
        expect(await projectNames()).toEqual(["Apps", "Before Reset", "Default Project"]);
    });

    test("options are checked: a token and a service (or an address) are required", () => {
        expect(() => new kit.testing.WosMocks({ service, token: "" })).toThrow("options.token is required");
        expect(() => new kit.testing.WosMocks({ token: "t" } as never)).toThrow("give options.service");
    });
});
