// The consumer scenario under the real engine, as a user runs it from their own project:
// the README's example as index.ts, the `pulumi` CLI on PATH (a file backend, a passphrase),
// the local service. Shared by consumer.test.ts (the suite's versions) and compat.ts (the
// compatibility matrix), which is why it asserts with plain errors and returns timings.
import { strict as assert } from "node:assert";
import { execFile } from "node:child_process";
import { promises as fs } from "node:fs";
import * as path from "node:path";
import { FACEBOOK, S3, type E2EService } from "../e2e/fixtures";
import { repoRoot } from "../e2e/engine";
import { typeCheck, typescriptBlocks, withNode, type ConsumerProject } from "./project";

/** Stack config of the README example: demo values of the local service, not secrets. */
const PROGRAM_SECRETS = { s3SecretAccessKey: "s3-demo-secret-value", facebookClientSecret: "fb-demo-secret-value" };

export interface ScenarioOptions {
  project: ConsumerProject;
  service: E2EService;
  /** The directory holding pulumi, pulumi-language-nodejs and pulumi-resource-pulumi-nodejs. */
  pulumiBinDir: string;
  /** The directory of the `node` the engine runs programs with. Default: the one on PATH. */
  nodeBinDir?: string;
  /** Called before each step (progress for the compatibility run). */
  log?: (step: string) => void;
}

export interface ScenarioResult {
  /** Wall time of each step, milliseconds. */
  stepsMs: Record<string, number>;
  /** Everything the engine printed, for the callers' own checks. */
  output: string;
}

interface RunResult {
  code: number;
  text: string;
}

/** Runs the whole scenario; throws (an AssertionError naming the step) on the first thing that is wrong. */
export async function runConsumerScenario(options: ScenarioOptions): Promise<ScenarioResult> {
  const { project, service, pulumiBinDir } = options;
  const stateDir = await fs.mkdtemp(path.join(project.dir, ".pulumi-"));
  await fs.mkdir(path.join(stateDir, "backend"));
  const env = withNode(options.nodeBinDir, {
    ...process.env,
    PATH: `${pulumiBinDir}${path.delimiter}${process.env.PATH ?? ""}`,
    PULUMI_HOME: path.join(stateDir, "home"),
    PULUMI_BACKEND_URL: `file://${path.join(stateDir, "backend")}`,
    PULUMI_CONFIG_PASSPHRASE: "consumer-test-passphrase-not-a-secret",
    PULUMI_SKIP_UPDATE_CHECK: "true",
    PULUMI_DISABLE_AUTOMATIC_PLUGIN_ACQUISITION: "true",
    // The program was type-checked with tsc above; the engine only transpiles it.
    PULUMI_NODEJS_TRANSPILE_ONLY: "true",
    NO_COLOR: "1",
  });
  const stepsMs: Record<string, number> = {};
  const outputs: string[] = [];
  const pulumi = (step: string, args: string[]): Promise<RunResult> =>
    timed(step, async () => {
      const result = await run(path.join(pulumiBinDir, "pulumi"), [...args, "--non-interactive"], project.dir, env);
      // The step's name, not its arguments: the config step's carry the secret values.
      outputs.push(`$ pulumi ${step}\n${result.text}`);
      return result;
    });
  const timed = async <T>(step: string, work: () => Promise<T>): Promise<T> => {
    options.log?.(step);
    const started = Date.now();
    try {
      return await work();
    } finally {
      stepsMs[step] = Date.now() - started;
    }
  };
  const ok = (step: string, result: RunResult) => assert.equal(result.code, 0, `${step} failed:\n${result.text.slice(-4000)}`);

  const [example] = typescriptBlocks(await fs.readFile(path.join(repoRoot, "README.md"), "utf8"));
  await fs.writeFile(path.join(project.dir, "index.ts"), example);
  const compiled = await timed("tsc", () => typeCheck(project, project.dir, options.nodeBinDir));
  assert.equal(compiled, "", "the README example compiles under the template tsconfig");

  ok("stack init", await pulumi("stack init", ["stack", "init", "dev"]));
  const plain = { "embedded:baseUrl": service.baseUrl, "embedded:clientId": service.clientId, "embedded:accountId": service.accountId };
  const secret = { "embedded:clientSecret": service.clientSecret, ...PROGRAM_SECRETS };
  const configArgs = [
    ...Object.entries(plain).flatMap(([k, v]) => ["--plaintext", `${k}=${v}`]),
    ...Object.entries(secret).flatMap(([k, v]) => ["--secret", `${k}=${v}`]),
  ];
  ok("config", await pulumi("config", ["config", "set-all", ...configArgs]));

  ok("up", await pulumi("up", ["up", "--yes", "--skip-preview"]));
  const outputsText = (await pulumi("stack output", ["stack", "output", "--json"])).text;
  assert.equal((JSON.parse(outputsText) as { sourceName?: string }).sourceName, "Amazon S3", "the stack output");
  assert.deepEqual(await service.outOfBand.addedIds(service.accountId), [S3, FACEBOOK].sort(), "up added both connectors");

  ok("drift check (clean)", await pulumi("drift check (clean)", ["preview", "--refresh", "--expect-no-changes"]));

  // Someone edits the S3 configuration by hand (a console, a colleague's script).
  await service.outOfBand.configure(service.accountId, S3, {
    bucket: "changed-by-hand",
    accessKeyId: "AKIAEXAMPLE",
    region: "eu-west-1",
    secretAccessKey: "typed-in-a-console",
  });
  const drift = await pulumi("drift check (drifted)", ["preview", "--refresh", "--expect-no-changes"]);
  assert.notEqual(drift.code, 0, `the drift check must fail after an out-of-band change:\n${drift.text.slice(-4000)}`);
  assert.match(drift.text, /s3-source/, "the drifted configuration is named");

  // Errors read once: a connection uses both connectors, so destroy is refused for each.
  const connectionId = await service.service.createConnection(service.accountId, S3, FACEBOOK);
  const refused = await pulumi("destroy (refused)", ["destroy", "--yes", "--skip-preview"]);
  assert.notEqual(refused.code, 0, "destroy must be refused while a connection uses the connectors");
  // The engine's summary (its progress rows echo a row's latest message as they change).
  const diagnostics = refused.text.slice(refused.text.indexOf("Diagnostics:"), refused.text.lastIndexOf("Resources:"));
  for (const id of [S3, FACEBOOK]) {
    const times = diagnostics.split(`(${id}) from sub-account`).length - 1;
    assert.equal(times, 1, `the delete guard's message for ${id} is printed once, not ${times} times:\n${diagnostics}`);
  }
  assert.doesNotMatch(diagnostics, /^\s+at /m, `no stack trace for an expected refusal:\n${diagnostics}`);
  await service.service.deleteConnection(connectionId);

  ok("destroy", await pulumi("destroy", ["destroy", "--yes", "--skip-preview"]));
  assert.deepEqual(await service.outOfBand.addedIds(service.accountId), [], "destroy removed both connectors");
  ok("stack rm", await pulumi("stack rm", ["stack", "rm", "--yes"]));
  await fs.rm(stateDir, { recursive: true, force: true });
  const output = outputs.join("\n");
  for (const [key, value] of Object.entries(PROGRAM_SECRETS)) {
    assert.ok(!output.includes(value), `the secret config value of ${key} appears in the engine's output`);
  }
  return { stepsMs, output };
}

function run(command: string, args: string[], cwd: string, env: NodeJS.ProcessEnv): Promise<RunResult> {
  return new Promise((resolve, reject) => {
    execFile(command, args, { cwd, env, maxBuffer: 64 * 1024 * 1024 }, (error, stdout, stderr) => {
      const code = error ? (typeof error.code === "number" ? error.code : -1) : 0;
      if (error && code === -1) reject(error);
      else resolve({ code, text: `${stdout}${stderr}` });
    });
  });
}
