// `npm start`: the quickstart end to end on this machine, with nothing to install or
// configure. `npm start -- --down` destroys it. Every run is idempotent: the service's
// database (.data/quickstart.db) and the Pulumi state (.pulumi-state/) persist between runs.
//
// The service runs in this process (buildApp), so it stops when we do; the engine runs as
// child processes, spawned asynchronously so that this process keeps answering them.
import { spawn, type StdioOptions } from "node:child_process";
import { randomBytes } from "node:crypto";
import { promises as fs } from "node:fs";
import * as path from "node:path";
import { parseArgs } from "node:util";
import type { FastifyInstance } from "fastify";
import { buildApp } from "../service/app";
import { seedCustomers } from "../service/seed/customers";

const root = path.resolve(__dirname, "..", "..");
const dataDir = path.join(root, ".data");
const stateDir = path.join(root, ".pulumi-state");
const portFile = path.join(dataDir, "quickstart-port");
const STACK = "dev";
// Demo values, not secrets: the local service's seeded customer and made-up credentials
// of the connectors. Change them with `pulumi config set --secret …`; reruns keep yours.
const DEMO_SECRETS: Record<string, string> = {
  s3SecretAccessKey: "demo-s3-secret-access-key",
  facebookClientSecret: "demo-facebook-client-secret",
};
const DEMO_PASSPHRASE = "quickstart-demo-passphrase";
/** The drift check of README.md and docs/drift.md, word for word (test/docs/first-commands.test.ts). */
const DRIFT_CHECK = "pulumi preview --refresh --expect-no-changes --diff";

interface Run {
  code: number;
  stdout: string;
}

/** `quiet`: a probe whose failure is an answer (`pulumi config get` of a key not set): its stderr is not printed. */
function run(command: string, args: string[], env: NodeJS.ProcessEnv, show: boolean, quiet = false): Promise<Run> {
  return new Promise((resolve, reject) => {
    const stdio: StdioOptions = ["ignore", show ? "inherit" : "pipe", show ? "inherit" : "pipe"];
    const child = spawn(command, args, { cwd: root, env, stdio });
    let stdout = "";
    let stderr = "";
    child.stdout?.on("data", (chunk: Buffer) => (stdout += chunk.toString()));
    child.stderr?.on("data", (chunk: Buffer) => (stderr += chunk.toString()));
    child.on("error", reject);
    child.on("close", (code) => {
      if (code !== 0 && !show && !quiet && stderr) process.stderr.write(stderr);
      resolve({ code: code ?? 1, stdout });
    });
  });
}

async function must(command: string, args: string[], env: NodeJS.ProcessEnv, show = false): Promise<string> {
  const result = await run(command, args, env, show);
  if (result.code !== 0)
    throw new Error(`\`${path.basename(command)} ${args.join(" ")}\` failed (exit code ${result.code})`);
  return result.stdout;
}

/** The saved port if it is free (a stable baseUrl keeps the provider's config unchanged), else any. */
async function listen(app: FastifyInstance): Promise<string> {
  const saved = Number(await fs.readFile(portFile, "utf8").catch(() => "0"));
  let address: string;
  try {
    address = await app.listen({ port: Number.isInteger(saved) ? saved : 0, host: "127.0.0.1" });
  } catch {
    address = await app.listen({ port: 0, host: "127.0.0.1" });
  }
  await fs.writeFile(portFile, new URL(address).port);
  return address;
}

function step(text: string): void {
  process.stdout.write(`\n==> ${text}\n`);
}

async function main(): Promise<void> {
  // Strict: a misspelled flag fails instead of deploying.
  const { down } = parseArgs({ options: { down: { type: "boolean", default: false } }, strict: true }).values;
  step("Pulumi CLI (scripts/ensure-pulumi.sh)");
  const ensured = (await must("bash", [path.join(root, "scripts", "ensure-pulumi.sh")], process.env))
    .trim()
    .split("\n");
  const binDir = ensured[ensured.length - 1];
  const pulumi = path.join(binDir, "pulumi");
  const home = path.join(stateDir, "home");
  await fs.mkdir(home, { recursive: true });
  await fs.mkdir(dataDir, { recursive: true });
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    PATH: `${binDir}${path.delimiter}${process.env.PATH ?? ""}`,
    // A private PULUMI_HOME: logging in to the local backend leaves the user's own login alone.
    PULUMI_HOME: home,
    PULUMI_CONFIG_PASSPHRASE: process.env.PULUMI_CONFIG_PASSPHRASE ?? DEMO_PASSPHRASE,
    PULUMI_SKIP_UPDATE_CHECK: "true",
    PULUMI_DISABLE_AUTOMATIC_PLUGIN_ACQUISITION: "true",
    PULUMI_NODEJS_TRANSPILE_ONLY: "true",
  };
  delete env.PULUMI_BACKEND_URL; // the login below decides

  step(`local service (database ${path.relative(root, path.join(dataDir, "quickstart.db"))})`);
  const app = buildApp({ db: path.join(dataDir, "quickstart.db"), logger: false });
  try {
    const baseUrl = await listen(app);
    const customer = seedCustomers()[0];
    const accountId = customer.subAccountIds[0];
    process.stdout.write(`listening on ${baseUrl}; customer ${customer.clientId}, sub-account ${accountId}\n`);

    step(`pulumi login file://${stateDir} and stack ${STACK}`);
    await must(pulumi, ["login", `file://${stateDir}`], env);
    await must(pulumi, ["stack", "select", "--create", STACK, "--non-interactive"], env);
    const set = (key: string, value: string, secret = false) =>
      must(pulumi, ["config", "set", ...(secret ? ["--secret"] : []), key, value, "--stack", STACK], env);
    await set("embedded:baseUrl", baseUrl);
    await set("embedded:clientId", customer.clientId);
    await set("embedded:clientSecret", customer.clientSecret, true);
    await set("embedded:accountId", accountId);
    const isSet = async (key: string) =>
      (await run(pulumi, ["config", "get", key, "--stack", STACK], env, false, true)).code === 0;
    for (const [key, value] of Object.entries(DEMO_SECRETS)) if (!(await isSet(key))) await set(key, value, true);
    // The key of the drift digests (README, "Configure and run"): one per stack, kept by reruns.
    if (!(await isSet("embedded:digestKey"))) await set("embedded:digestKey", randomBytes(32).toString("hex"), true);
    await writeEnvFile(binDir, home, env.PULUMI_CONFIG_PASSPHRASE === DEMO_PASSPHRASE);

    if (down) {
      step("pulumi destroy");
      await must(pulumi, ["destroy", "--yes", "--non-interactive", "--stack", STACK], env, true);
      await must(pulumi, ["stack", "rm", STACK, "--yes", "--non-interactive"], env);
      process.stdout.write(`\nstack ${STACK} destroyed and removed; \`npm start\` creates it again.\n`);
      return;
    }

    step("pulumi up");
    await must(pulumi, ["up", "--yes", "--non-interactive", "--stack", STACK], env, true);
    const outputs = JSON.parse(
      await must(pulumi, ["stack", "output", "--json", "--stack", STACK], env),
    ) as QuickstartOutputs;
    printCreated(outputs);

    step(`drift check: ${DRIFT_CHECK}`);
    const [, ...driftArgs] = DRIFT_CHECK.split(" ");
    await must(pulumi, [...driftArgs, "--non-interactive", "--stack", STACK], env, true);
    process.stdout.write("\nno drift: the sub-account matches the stack.\n");
    printNext(baseUrl);
  } finally {
    await app.close();
  }
}

interface QuickstartOutputs {
  accountId?: string;
  connectors?: { connectorId: string; name: string; supportedType: string }[];
  configurations?: { connectorId: string; configured: boolean; lastUpdated: number; values: Record<string, string> }[];
}

function printCreated(outputs: QuickstartOutputs): void {
  step(`created in sub-account ${outputs.accountId ?? "?"}`);
  for (const c of outputs.connectors ?? []) {
    const conf = (outputs.configurations ?? []).find((x) => x.connectorId === c.connectorId);
    const when = conf && conf.lastUpdated > 0 ? new Date(conf.lastUpdated * 1000).toISOString() : "never";
    process.stdout.write(
      `  ${c.supportedType.padEnd(11)} ${c.name} (${c.connectorId}) configured=${conf?.configured ?? false}, last written ${when}\n`,
    );
    const values = Object.entries(conf?.values ?? {})
      .map(([k, v]) => `${k}=${v}`)
      .join(", ");
    if (values) process.stdout.write(`              values: ${values} (Password fields never come back)\n`);
  }
}

/** A file to `source` for running the engine by hand against the same state. */
async function writeEnvFile(binDir: string, home: string, demoPassphrase: boolean): Promise<void> {
  const lines = [
    "# source .pulumi-state/env.sh: the engine, state and passphrase `npm start` uses",
    `export PATH="${binDir}:$PATH"`,
    `export PULUMI_HOME="${home}"`,
    `export PULUMI_SKIP_UPDATE_CHECK=true PULUMI_DISABLE_AUTOMATIC_PLUGIN_ACQUISITION=true PULUMI_NODEJS_TRANSPILE_ONLY=true`,
    demoPassphrase
      ? `export PULUMI_CONFIG_PASSPHRASE="${DEMO_PASSPHRASE}"  # the demo's, not a secret`
      : "# PULUMI_CONFIG_PASSPHRASE: yours",
  ];
  await fs.writeFile(path.join(stateDir, "env.sh"), `${lines.join("\n")}\n`);
}

function printNext(baseUrl: string): void {
  const port = new URL(baseUrl).port;
  step("what to try next");
  process.stdout.write(
    [
      "  npm start                     # again: nothing changes (idempotent)",
      "  npm start -- --down           # destroy the stack (or: npm run demo:destroy)",
      "  by hand, with the service running in another terminal:",
      `    npm run service -- --db .data/quickstart.db --port ${port} --ui`,
      "    source .pulumi-state/env.sh",
      "    pulumi config set --secret s3SecretAccessKey   # a new value: `pulumi up` rewrites the configuration",
      `    ${DRIFT_CHECK}   # the drift check`,
      "    then change a field by hand on the web page it prints (or with the curl of docs/local-service.md)",
      "    and run the drift check again: it names the field;",
      "    pulumi up --refresh                            # puts the program's values back",
      "  adopt an existing sub-account: npx pulumi-embedded-connectors generate --account <id>",
      "  more: examples/sub-account-baseline, examples/gitops, README.md",
      "",
    ].join("\n"),
  );
}

main().catch((err: unknown) => {
  process.stderr.write(`\nnpm start failed: ${err instanceof Error ? err.message : String(err)}\n`);
  process.exitCode = 1;
});
