// `generate --language ts|python|go|yaml` adopts one customer-configured
// sub-account with no change, in each language, under the real engine and the plugin. The
// commands are docs/import.md's ("## Adopting a sub-account in any language"), run as written
// with the placeholders filled: generate the program and import.json beside it, `pulumi import
// --file`, then `pulumi preview --expect-no-changes`. One service, one sub-account of three
// connectors (two configured by the "customer", Passwords theirs), one stack per language. The
// service receives no write (no Add, no Configure: every `lastUpdated` as it was), and neither
// the customer's Passwords nor anything else secret is in a generated file or the engine's output.
// A Text value holding `${…}` and `$$` proves the YAML program's escaping end to end. The service
// answers as many consoles do (consolePasswords: the type spelled `password`, a set one `********`):
// no program holds the mask, each leaves its Passwords to the service (docs/secrets.md).
import { strict as assert } from "node:assert";
import { execFile } from "node:child_process";
import { randomBytes } from "node:crypto";
import { promises as fs } from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { promisify } from "node:util";
import { assertNoSecret, E2EStack, ENGINE_TIMEOUT_MS, ensureEngine, repoRoot } from "./harness";
import {
  apiKeyFields,
  MIXPANEL,
  mutatingCalls,
  S3,
  SEGMENT,
  serviceSettings,
  startService,
  storageFields,
  type E2EService,
} from "./fixtures";
import { regeneratedSdk } from "./regenerated-sdk";
import { adoptionCommands, runGenerate } from "./adoption-commands";

const execFileAsync = promisify(execFile);
const MASK = "********";
const GO_MODULE = "github.com/embedded-connectors/pulumi-embedded-connectors/sdk/go";

/** A language's project around the generated program: its files, and the engine's environment. */
interface Project {
  /** The docs' `<language>`. */
  language: string;
  file: string;
  prepare(dir: string, engineEnv: Record<string, string>): Promise<Record<string, string>>;
  /** Set-up once the program is written (not test). */
  generated?(dir: string, env: Record<string, string>): Promise<void>;
}

const PROJECTS: Project[] = [
  {
    language: "ts --resources plugin",
    file: "index.ts",
    async prepare(dir) {
      await fs.writeFile(path.join(dir, "Pulumi.yaml"), "name: adopted-ts\nruntime: nodejs\n");
      await fs.writeFile(path.join(dir, "package.json"), JSON.stringify({ name: "adopted-ts", main: "index.ts" }));
      await fs.copyFile(
        path.join(repoRoot, "examples", "quickstart", "tsconfig.json"),
        path.join(dir, "tsconfig.json"),
      );
      return {};
    },
  },
  {
    language: "python",
    file: "__main__.py",
    async prepare(dir, engineEnv) {
      await fs.writeFile(path.join(dir, "Pulumi.yaml"), "name: adopted-python\nruntime: python\n");
      const sdk = path.join(await regeneratedSdk(), "python");
      const { stdout } = await execFileAsync("bash", [path.join(repoRoot, "scripts", "ensure-python.sh")], {
        cwd: repoRoot,
        env: { ...process.env, EMBEDDED_PYTHON_SDK: sdk },
      });
      const venv = stdout.trim().split("\n").pop() ?? "";
      return { PATH: `${path.join(venv, "bin")}${path.delimiter}${engineEnv.PATH}`, VIRTUAL_ENV: venv };
    },
  },
  {
    language: "go",
    file: "main.go",
    async prepare(dir) {
      await fs.writeFile(path.join(dir, "Pulumi.yaml"), "name: adopted-go\nruntime: go\n");
      for (const file of ["go.mod", "go.sum"])
        await fs.copyFile(path.join(repoRoot, "examples", "go-sub-account", file), path.join(dir, file));
      const env = { GOFLAGS: "-mod=mod", GOSUMDB: "off" };
      const sdk = path.join(await regeneratedSdk(), "go");
      await execFileAsync("go", ["mod", "edit", `-replace=${GO_MODULE}=${sdk}`], {
        cwd: dir,
        env: { ...process.env, ...env },
      });
      return env;
    },
    async generated(dir, env) {
      // The build cache filled, so that the engine's build links only; its time printed.
      const start = Date.now();
      await execFileAsync("go", ["build", "-o", os.devNull, "."], { cwd: dir, env: { ...process.env, ...env } });
      console.error(`      go build took ${((Date.now() - start) / 1000).toFixed(1)} s`);
    },
  },
  { language: "yaml", file: "Pulumi.yaml", prepare: async () => ({}) },
];

describe("e2e: generate adopts a customer-configured sub-account with no change in TypeScript, Python, Go and YAML", function () {
  this.timeout(ENGINE_TIMEOUT_MS);
  const segmentKey = `canary-segment-${randomBytes(6).toString("hex")}`;
  const s3Key = `canary-s3-${randomBytes(6).toString("hex")}`;
  const workspace = "acme-${segment.connectorId}-$$";
  let svc: E2EService;
  let commands: Awaited<ReturnType<typeof adoptionCommands>>;
  let engineEnv: Record<string, string>;
  let lastUpdated: Record<string, number>;
  const stacks: E2EStack[] = [];
  const dirs: string[] = [];

  const updatedAt = async () => ({
    [SEGMENT]: (await svc.outOfBand.getConfiguration(svc.accountId, SEGMENT)).lastUpdated,
    [S3]: (await svc.outOfBand.getConfiguration(svc.accountId, S3)).lastUpdated,
  });

  before(async function () {
    this.timeout(30 * 60_000);
    engineEnv = (await ensureEngine()).env;
    commands = await adoptionCommands();
    svc = await startService({ consolePasswords: true });
    // The customer added three connectors in the service's UI and configured two, with their own Passwords.
    await svc.outOfBand.add(svc.accountId, [SEGMENT, S3, MIXPANEL]);
    await svc.outOfBand.configure(svc.accountId, SEGMENT, apiKeyFields({ apiKey: segmentKey, workspace }));
    await svc.outOfBand.configure(svc.accountId, S3, { ...storageFields(), secretAccessKey: s3Key });
    lastUpdated = await updatedAt();
  });
  after(async () => {
    for (const stack of stacks) await stack.dispose({ destroy: false });
    await svc?.service.stop();
    for (const dir of dirs) await fs.rm(dir, { recursive: true, force: true });
  });

  for (const project of PROJECTS)
    it(`${project.language}: the docs' generate, import and preview --expect-no-changes; nothing written`, async () => {
      const dir = await fs.mkdtemp(path.join(os.tmpdir(), "adopt-"));
      dirs.push(dir);
      const env = await project.prepare(dir, engineEnv);
      const { stdout, stderr } = await runGenerate(commands.generate, svc, dir, project);
      await project.generated?.(dir, env);
      const written = [stdout, stderr];
      for (const file of [project.file, "import.json"]) written.push(await fs.readFile(path.join(dir, file), "utf8"));
      for (const text of written)
        for (const secret of [segmentKey, s3Key, svc.clientSecret, MASK])
          assertNoSecret(text, secret, "generate's output");
      // Each Password (spelled `password`, masked) left to the service, by name: never a value.
      const program = written[2];
      assert.equal(program.split(/held_by_service|heldByService|HeldByService/).length - 1, 2, program);
      for (const id of ['"apiKey"', '"secretAccessKey"']) assert.ok(program.includes(id), `${id} in ${program}`);

      const before = await svc.service.stats();
      const stack = await E2EStack.create({
        program: `adopted-${project.file}`,
        programDir: dir,
        name: `adopt-${project.file.replace(/\W/g, "")}`,
        service: serviceSettings(svc),
        env,
      });
      stacks.push(stack);
      for (const line of commands.engine) await stack.cli(line.split(/\s+/).slice(1)); // "pulumi"
      const names = (await stack.resources()).filter((r) => r.type.startsWith("embedded:index:")).map((r) => r.type);
      assert.deepEqual(names.sort(), [
        ...Array(3).fill("embedded:index:AddedConnector"),
        ...Array(2).fill("embedded:index:ConnectorConfiguration"),
      ]);
      assert.equal(mutatingCalls(await svc.service.stats()) - mutatingCalls(before), 0, "no Add, Configure or Remove");
      assert.deepEqual(await updatedAt(), lastUpdated, "every configuration as the customer saved it");
      for (const secret of [segmentKey, s3Key]) {
        assertNoSecret(stack.engineOutput(), secret, "the engine's output");
        assertNoSecret(await stack.exportText(), secret, "pulumi stack export");
      }
    });
});
