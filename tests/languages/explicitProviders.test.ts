/**
 * Two explicit providers in one program, through the real CLI (issue 21, section 3): a YAML program declares
 * two `pulumi:providers:wos`, one for the organization `acme` with the platform team's token and one for
 * `globex` with its owners' token, both tokens from the stack's config set with `--secret`; a project of the
 * same name is made with each (`options.provider`), and a lookup (`fn::invoke` of `wos:index:getProjects`) runs
 * with each. Each provider reaches the real `wos-server` through a recording proxy of its own: each request
 * carries its own provider's token and never the other's, each project lands in its provider's organization
 * (read back over HTTP with each organization's token), and neither token is printed or stored in plain text.
 */
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { startCliTestService, type CliTestService } from "../cli/localService";
import { startRecorder, type Recorder, type RecordedRequest } from "../support/recordingProxy";
import { testSeed, TOKENS } from "../support/seed";
import { resourcePathsHolding, yamlStack, type ProgramStack } from "./pluginStacks";

jest.setTimeout(300_000);

const PROGRAM = `name: wos-two-organizations
runtime: yaml
description: Two organizations in one program, each with its own explicit provider and token.
config:
  acmeAddress:
    type: string
  acmeToken:
    type: string
    secret: true
  globexAddress:
    type: string
  globexToken:
    type: string
    secret: true
resources:
  acme:
    type: pulumi:providers:wos
    properties:
      address: \${acmeAddress}
      token: \${acmeToken}
      organization: acme
  globex:
    type: pulumi:providers:wos
    properties:
      address: \${globexAddress}
      token: \${globexToken}
      organization: globex
  acmeTeam:
    type: wos:index:Project
    properties:
      name: Team Space
      description: Made with the acme provider
    options:
      provider: \${acme}
  globexTeam:
    type: wos:index:Project
    properties:
      name: Team Space
      description: Made with the globex provider
    options:
      provider: \${globex}
variables:
  acmeProjects:
    fn::invoke:
      function: wos:index:getProjects
      arguments: {}
      options:
        provider: \${acme}
  globexProjects:
    fn::invoke:
      function: wos:index:getProjects
      arguments: {}
      options:
        provider: \${globex}
outputs:
  acmeProjectId: \${acmeTeam.id}
  acmeOrganization: \${acmeTeam.organization}
  globexProjectId: \${globexTeam.id}
  globexOrganization: \${globexTeam.organization}
  acmeLookup: \${acmeProjects.organization}
  acmeNames: \${acmeProjects.names}
  globexLookup: \${globexProjects.organization}
  globexNames: \${globexProjects.names}
`;

const ACME_TOKEN = TOKENS.platform;
const GLOBEX_TOKEN = TOKENS.globexOwners;

let seedDir: string;
let service: CliTestService;
let acmeProxy: Recorder;
let globexProxy: Recorder;
let stack: ProgramStack;

beforeAll(async () => {
    // The test seed (tests/support/seed.ts): acme and globex, each with its teams' tokens.
    seedDir = fs.mkdtempSync(path.join(os.tmpdir(), "wos-seed-"));
    const seedFile = path.join(seedDir, "seed.json");
    fs.writeFileSync(seedFile, JSON.stringify(testSeed()));
    service = await startCliTestService(["--seed", seedFile]);
    acmeProxy = await startRecorder(service.url);
    globexProxy = await startRecorder(service.url);
    stack = await yamlStack(service, {
        yaml: PROGRAM,
        // No default provider at all: every resource and lookup names its own.
        defaultProvider: false,
        config: {
            acmeAddress: { value: acmeProxy.url },
            acmeToken: { value: ACME_TOKEN, secret: true },
            globexAddress: { value: globexProxy.url },
            globexToken: { value: GLOBEX_TOKEN, secret: true },
        },
    });
}, 600_000);

afterAll(async () => {
    await stack?.dispose();
    await acmeProxy?.close();
    await globexProxy?.close();
    await service?.stop();
    if (seedDir) fs.rmSync(seedDir, { recursive: true, force: true });
}, 60_000);

/** The `Authorization` headers of `requests`, each once. */
function authorizations(requests: RecordedRequest[]): string[] {
    return [...new Set(requests.map((request) => request.authorization ?? "(none)"))].sort();
}

/** What a token may see of a project: the status of `GET /projects/:id` and, when shown, its organization. */
async function projectAs(id: string, token: string): Promise<{ status: number; organization?: string }> {
    const response = await service.request("GET", `/projects/${id}`, { token });
    return response.status === 200
        ? { status: 200, organization: response.body.data.relationships.organization.data.id }
        : { status: response.status };
}

let outputs: Record<string, unknown>;

test("`pulumi up`: each project in its provider's organization, each request with its provider's token and no other", async () => {
    const up = await stack.program.pulumi(["up", "--yes"]);
    expect(up.output).toMatch(/Resources:\s+\+ 5 created/);
    outputs = await stack.program.outputs();
    expect(outputs).toMatchObject({ acmeOrganization: "acme", globexOrganization: "globex", acmeLookup: "acme", globexLookup: "globex" });
    // Each lookup saw its own organization only.
    expect(outputs.acmeNames).toEqual(expect.arrayContaining(["Apps", "Staging"]));
    expect(outputs.acmeNames).not.toContain("Globex Apps");
    expect(outputs.globexNames).toEqual(expect.arrayContaining(["Globex Apps"]));
    expect(outputs.globexNames).not.toContain("Apps");

    // Read back with each organization's own token: each project is in its provider's organization, and the
    // other organization's token cannot see it.
    const acmeId = outputs.acmeProjectId as string;
    const globexId = outputs.globexProjectId as string;
    expect(await projectAs(acmeId, TOKENS.owners)).toEqual({ status: 200, organization: "acme" });
    expect(await projectAs(globexId, TOKENS.globexOwners)).toEqual({ status: 200, organization: "globex" });
    expect((await projectAs(acmeId, TOKENS.globexOwners)).status).toBe(404);
    expect((await projectAs(globexId, TOKENS.owners)).status).toBe(404);

    // What went over the wire: each proxy saw requests with its provider's token only, and they were that
    // provider's creates and lookups.
    expect(authorizations(acmeProxy.requests)).toEqual([`Bearer ${ACME_TOKEN}`]);
    expect(authorizations(globexProxy.requests)).toEqual([`Bearer ${GLOBEX_TOKEN}`]);
    expect(acmeProxy.requests).toEqual(expect.arrayContaining([expect.objectContaining({ method: "POST", path: "/api/v2/organizations/acme/projects" })]));
    expect(globexProxy.requests).toEqual(expect.arrayContaining([expect.objectContaining({ method: "POST", path: "/api/v2/organizations/globex/projects" })]));
    expect(acmeProxy.requests.filter((request) => request.path.includes("globex"))).toEqual([]);
    expect(globexProxy.requests.filter((request) => request.path.includes("acme"))).toEqual([]);

    const again = await stack.program.attempt(["preview", "--expect-no-changes"]);
    expect(again.code).toBe(0);
});

test("neither token is printed, nor stored in plain text: each is a secret input of its own provider only", async () => {
    expect(outputs).toBeDefined();
    const exported = await stack.program.exportStack();
    for (const token of [ACME_TOKEN, GLOBEX_TOKEN]) {
        expect(exported.text).not.toContain(token);
        expect(stack.transcript()).not.toContain(token);
    }
    // The same state with --show-secrets: each token where its provider keeps it, and nowhere else.
    const shown = (await stack.program.exportStack({ showSecrets: true })).deployment;
    const acmeAt = resourcePathsHolding(shown, ACME_TOKEN);
    const globexAt = resourcePathsHolding(shown, GLOBEX_TOKEN);
    expect(Object.keys(acmeAt)).toEqual(["acme"]);
    expect(Object.keys(globexAt)).toEqual(["globex"]);
    expect(acmeAt.acme).toContain("inputs.token.plaintext");
    expect(globexAt.globex).toContain("inputs.token.plaintext");
    for (const paths of [...Object.values(acmeAt), ...Object.values(globexAt)]) for (const at of paths) expect(at).toMatch(/\.token\.plaintext$/);
});

test("`pulumi destroy` deletes each project with its own provider's token", async () => {
    expect(outputs).toBeDefined();
    const seen = { acme: acmeProxy.requests.length, globex: globexProxy.requests.length };
    const destroy = await stack.program.pulumi(["destroy", "--yes"]);
    expect(destroy.output).toMatch(/Resources:\s+- 5 deleted/);
    const acmeDeletes = acmeProxy.requests.slice(seen.acme);
    const globexDeletes = globexProxy.requests.slice(seen.globex);
    expect(acmeDeletes).toEqual(expect.arrayContaining([expect.objectContaining({ method: "DELETE", path: `/api/v2/projects/${outputs.acmeProjectId}` })]));
    expect(globexDeletes).toEqual(expect.arrayContaining([expect.objectContaining({ method: "DELETE", path: `/api/v2/projects/${outputs.globexProjectId}` })]));
    expect(authorizations(acmeDeletes)).toEqual([`Bearer ${ACME_TOKEN}`]);
    expect(authorizations(globexDeletes)).toEqual([`Bearer ${GLOBEX_TOKEN}`]);
    expect((await projectAs(outputs.acmeProjectId as string, TOKENS.owners)).status).toBe(404);
    expect((await projectAs(outputs.globexProjectId as string, TOKENS.globexOwners)).status).toBe(404);
    expect(stack.transcript()).not.toContain(ACME_TOKEN);
    expect(stack.transcript()).not.toContain(GLOBEX_TOKEN);
});
