// The consumer scenario under the real engine, as a user runs it from their own project:
// the README's example as index.ts, the `pulumi` CLI on PATH (a file backend, a passphrase),
// the local service; then the plugin `embedded` installed with the package's own command and
// the README's plugin example (two customers' sub-accounts) as a second stack. Shared by consumer.test.ts (the suite's versions) and compat.ts (the
// compatibility matrix), which is why it asserts with plain errors and returns timings.
import { strict as assert } from "node:assert";
import { assertInUseRefusals } from "../e2e/in-use-refusals";
import { execFile } from "node:child_process";
import { constants as fsConstants, promises as fs } from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { FACEBOOK, fieldValue, OutOfBandClient, S3, type E2EService } from "../e2e/fixtures";
import { repoRoot } from "../../harness/engine";
import { PACKAGE_NAME, typeCheck, typescriptBlocks, withNode, type ConsumerProject } from "./project";

/** Stack config of the README example: demo values of the local service, not secrets. */
const PROGRAM_SECRETS = { s3SecretAccessKey: "s3-demo-secret-value", facebookClientSecret: "fb-demo-secret-value" };
/** The program secret of the README's plugin example (another value: each run's own). */
const PLUGIN_PROGRAM_SECRETS = { s3SecretAccessKey: "s3-plugin-demo-secret-value" };

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
  /** Everything the engine printed in the dynamic provider's scenario, for the callers' own checks. */
  output: string;
  /** Everything `plugin install` and the engine printed in the plugin's scenario. */
  pluginOutput: string;
}

interface RunResult {
  code: number;
  text: string;
}

/**
 * Runs the whole scenario: the README's first example (the dynamic provider), then, in the same
 * project, its plugin example (`plugin install`, a second stack); throws (an AssertionError
 * naming the step) on the first thing that is wrong.
 */
export async function runConsumerScenario(options: ScenarioOptions): Promise<ScenarioResult> {
  // PULUMI_HOME and the backend outside the project, like a user's ~/.pulumi: the plugin
  // installed there finds no node_modules above it, so it runs only if it is self-contained.
  const stateDir = await fs.mkdtemp(path.join(os.tmpdir(), "embedded-consumer-pulumi-"));
  try {
    return await runSteps(options, stateDir);
  } finally {
    await fs.rm(stateDir, { recursive: true, force: true });
  }
}

async function runSteps(options: ScenarioOptions, stateDir: string): Promise<ScenarioResult> {
  const { project, service, pulumiBinDir } = options;
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
  const ok = (step: string, result: RunResult) =>
    assert.equal(result.code, 0, `${step} failed:\n${result.text.slice(-4000)}`);

  const [example] = typescriptBlocks(await fs.readFile(path.join(repoRoot, "README.md"), "utf8"));
  await fs.writeFile(path.join(project.dir, "index.ts"), example);
  const compiled = await timed("tsc", () => typeCheck(project, project.dir, options.nodeBinDir));
  assert.equal(compiled, "", "the README example compiles under the template tsconfig");

  ok("stack init", await pulumi("stack init", ["stack", "init", "dev"]));
  const plain = {
    "embedded:baseUrl": service.baseUrl,
    "embedded:clientId": service.clientId,
    "embedded:accountId": service.accountId,
  };
  const secret = { "embedded:clientSecret": service.clientSecret, ...PROGRAM_SECRETS };
  const configArgs = [
    ...Object.entries(plain).flatMap(([k, v]) => ["--plaintext", `${k}=${v}`]),
    ...Object.entries(secret).flatMap(([k, v]) => ["--secret", `${k}=${v}`]),
  ];
  ok("config", await pulumi("config", ["config", "set-all", ...configArgs]));

  ok("up", await pulumi("up", ["up", "--yes", "--skip-preview"]));
  const outputsText = (await pulumi("stack output", ["stack", "output", "--json"])).text;
  assert.equal((JSON.parse(outputsText) as { sourceName?: string }).sourceName, "Amazon S3", "the stack output");
  assert.deepEqual(
    await service.outOfBand.addedIds(service.accountId),
    [S3, FACEBOOK].sort(),
    "up added both connectors",
  );

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
  assertInUseRefusals(diagnostics, service.accountId, [
    [S3, "Amazon S3"],
    [FACEBOOK, "Facebook Custom Audiences"],
  ]);
  assert.doesNotMatch(diagnostics, /^\s+at /m, `no stack trace for an expected refusal:\n${diagnostics}`);
  await service.service.deleteConnection(connectionId);

  ok("destroy", await pulumi("destroy", ["destroy", "--yes", "--skip-preview"]));
  assert.deepEqual(await service.outOfBand.addedIds(service.accountId), [], "destroy removed both connectors");
  ok("stack rm", await pulumi("stack rm", ["stack", "rm", "--yes"]));
  const output = outputs.join("\n");
  for (const [key, value] of Object.entries(PROGRAM_SECRETS)) {
    assert.ok(!output.includes(value), `the secret config value of ${key} appears in the engine's output`);
  }

  // The plugin `embedded`, as the README's section on it has the user meet it: installed from
  // the package with the package's command (node_modules/.bin, this project's PULUMI_HOME and
  // CLI), then its example, with a second customer's explicit provider, as a second stack.
  outputs.length = 0;
  const installedPackage = path.join(project.dir, "node_modules", PACKAGE_NAME, "package.json");
  const { version } = JSON.parse(await fs.readFile(installedPackage, "utf8")) as { version: string };
  // npx --no: the command of the installed package (node_modules/.bin), never a download.
  const npx = ["--no", PACKAGE_NAME, "plugin", "install"];
  const install = await timed("plugin: plugin install", () => run("npx", npx, project.dir, env));
  outputs.push(`$ npx ${PACKAGE_NAME} plugin install\n${install.text}`);
  ok("plugin: plugin install", install);
  assert.ok(
    install.text.includes(`installed the plugin embedded v${version}`),
    `plugin install says what it did:\n${install.text}`,
  );
  const installedPlugin = path.join(
    env.PULUMI_HOME as string,
    "plugins",
    `resource-embedded-v${version}`,
    "pulumi-resource-embedded",
  );
  await fs
    .access(installedPlugin, fsConstants.X_OK)
    .catch(() => assert.fail(`plugin install put no executable ${installedPlugin}`));
  const listed = await pulumi("plugin: plugin ls", ["plugin", "ls", "--json"]);
  ok("plugin: plugin ls", listed);
  const plugins = JSON.parse(listed.text.slice(listed.text.indexOf("["))) as {
    name: string;
    kind: string;
    version: string;
  }[];
  assert.ok(
    plugins.some((p) => p.name === "embedded" && p.kind === "resource" && p.version === version),
    `pulumi plugin ls shows resource embedded ${version}:\n${listed.text}`,
  );

  const pluginExample = typescriptBlocks(await fs.readFile(path.join(repoRoot, "docs", "plugin.md"), "utf8")).find(
    (block) => block.includes("embedded.Provider"),
  );
  assert.ok(pluginExample, "docs/plugin.md has the plugin's example (a ```ts block with embedded.Provider)");
  await fs.writeFile(path.join(project.dir, "index.ts"), pluginExample);
  const pluginCompiled = await timed("plugin: tsc", () => typeCheck(project, project.dir, options.nodeBinDir));
  assert.equal(pluginCompiled, "", "docs/plugin.md's example compiles under the template tsconfig");

  // Customer A (the default provider, stack config embedded:*) and customer B (the explicit
  // provider, program config): the service's two seeded customers, each its own sub-account.
  const customerB = service.service.customers[1];
  const accountOfB = customerB.subAccountIds[0];
  const outOfBandB = new OutOfBandClient(service.baseUrl, customerB.clientId, customerB.clientSecret);
  assert.deepEqual(await service.outOfBand.addedIds(service.accountId), [], "customer A's sub-account starts empty");
  assert.deepEqual(await outOfBandB.addedIds(accountOfB), [], "customer B's sub-account starts empty");
  ok("plugin: stack init", await pulumi("plugin: stack init", ["stack", "init", "plugin"]));
  const pluginPlain = {
    ...plain,
    customerBBaseUrl: service.baseUrl,
    customerBClientId: customerB.clientId,
    customerBAccountId: accountOfB,
  };
  const pluginSecret = {
    "embedded:clientSecret": service.clientSecret,
    customerBClientSecret: customerB.clientSecret,
    ...PLUGIN_PROGRAM_SECRETS,
  };
  const pluginConfigArgs = [
    ...Object.entries(pluginPlain).flatMap(([k, v]) => ["--plaintext", `${k}=${v}`]),
    ...Object.entries(pluginSecret).flatMap(([k, v]) => ["--secret", `${k}=${v}`]),
  ];
  ok("plugin: config", await pulumi("plugin: config", ["config", "set-all", ...pluginConfigArgs]));

  const pluginUp = await pulumi("plugin: up", ["up", "--yes", "--skip-preview"]);
  ok("plugin: up", pluginUp);
  // The stack, customer B's provider, the two AddedConnectors and a ConnectorConfiguration.
  assert.match(
    pluginUp.text,
    /Resources:\s+\+ 5 created/,
    `up created the plugin example's resources:\n${pluginUp.text.slice(-4000)}`,
  );
  const pluginOutputsText = (await pulumi("plugin: stack output", ["stack", "output", "--json"])).text;
  assert.deepEqual(
    JSON.parse(pluginOutputsText),
    { sourceName: "Amazon S3", customerBAccount: accountOfB },
    "the plugin stack's outputs: customer B's connector is in customer B's sub-account",
  );
  // On the service, each customer's connector in its own sub-account, A's configured.
  assert.deepEqual(
    await service.outOfBand.addedIds(service.accountId),
    [S3],
    "customer A's sub-account holds its S3 source only",
  );
  assert.deepEqual(await outOfBandB.addedIds(accountOfB), [S3], "customer B's sub-account holds its S3 source");
  const configurationOfA = await service.outOfBand.getConfiguration(service.accountId, S3);
  assert.ok(configurationOfA.configured, "customer A's S3 source is configured");
  assert.equal(fieldValue(configurationOfA, "bucket"), "acme-exports", "customer A's S3 configuration");
  assert.equal(
    (await outOfBandB.getConfiguration(accountOfB, S3)).configured,
    false,
    "customer B's S3 source is not configured",
  );

  ok("plugin: preview (clean)", await pulumi("plugin: preview (clean)", ["preview", "--expect-no-changes"]));
  ok(
    "plugin: drift check (clean)",
    await pulumi("plugin: drift check (clean)", ["preview", "--refresh", "--expect-no-changes"]),
  );
  // The state holds the secrets encrypted (the export shows ciphertext unless --show-secrets).
  ok("plugin: stack export", await pulumi("plugin: stack export", ["stack", "export"]));

  ok("plugin: destroy", await pulumi("plugin: destroy", ["destroy", "--yes", "--skip-preview"]));
  assert.deepEqual(await service.outOfBand.addedIds(service.accountId), [], "destroy removed customer A's connector");
  assert.deepEqual(await outOfBandB.addedIds(accountOfB), [], "destroy removed customer B's connector");
  ok("plugin: stack rm", await pulumi("plugin: stack rm", ["stack", "rm", "--yes"]));
  const pluginOutput = outputs.join("\n");
  const pluginSecrets = {
    "customer A's client secret": service.clientSecret,
    "customer B's client secret": customerB.clientSecret,
    ...PLUGIN_PROGRAM_SECRETS,
  };
  for (const [key, value] of Object.entries(pluginSecrets)) {
    assert.ok(
      !pluginOutput.includes(value),
      `the secret value of ${key} appears in the output of the plugin's scenario`,
    );
  }
  return { stepsMs, output, pluginOutput };
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
