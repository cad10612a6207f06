#!/usr/bin/env node
// The package's command line: `npx pulumi-embedded-connectors generate --account <id>`, and
// `npx pulumi-embedded-connectors plugin install` (the plugin `embedded` into Pulumi's plugin cache),
// `fleet …`, and `doctor` (does the service profile read the service? cli/doctor/).
// Settings come from flags, then the EMBEDDED_* environment (the provider's own rules,
// provider/settings.ts); the client secret only from the environment by default, because
// a flag value is visible to every user of the machine in the process list.
import { promises as fs } from "node:fs";
import { Command } from "commander";
import { closeClients, getClient } from "../provider/client";
import { resolveSettings, toClientSettings, type ConfigSource } from "../provider/settings";
import { renderProgram, snapshot } from "./generate";
import { installPlugin } from "./plugin-install";
import { registerFleet } from "./fleet/command";
import { registerDoctor } from "./doctor/command";
import { PLUGIN_VERSION } from "../provider/plugin/version";

interface GenerateFlags {
  account?: string;
  out?: string;
  baseUrl?: string;
  clientId?: string;
  clientSecret?: string;
}

async function generate(flags: GenerateFlags): Promise<void> {
  const fromFlags: ConfigSource = (name) => {
    if (name === "baseUrl") return flags.baseUrl;
    if (name === "clientId") return flags.clientId;
    if (name === "clientSecret") return flags.clientSecret;
    if (name === "accountId") return flags.account;
    return undefined;
  };
  const settings = resolveSettings(fromFlags);
  const accountId = settings.accountId;
  if (!accountId) throw new Error("missing --account <id> (or EMBEDDED_ACCOUNT_ID)");
  try {
    const connectors = await snapshot(getClient(toClientSettings(settings)), accountId);
    const { program, commands } = renderProgram(accountId, connectors);
    if (flags.out) {
      await fs.writeFile(flags.out, program);
      process.stderr.write(`wrote ${flags.out}: ${connectors.length} connector(s) of sub-account ${accountId}\n`);
    } else {
      process.stdout.write(program);
    }
    // The instructions go to stderr, so that stdout stays a valid program when redirected.
    if (commands.length > 0) {
      process.stderr.write(`set these secrets before \`pulumi up\` (each command prompts for the value):\n`);
      for (const line of commands) process.stderr.write(`  ${line}\n`);
    }
  } finally {
    await closeClients();
  }
}

const program = new Command()
  .name("pulumi-embedded-connectors")
  .description("Tools for the pulumi-embedded-connectors provider")
  .version(PLUGIN_VERSION, "-V, --version", "print the package's version");

program
  .command("generate")
  .description("print a Pulumi program (TypeScript) that adopts the connectors of a sub-account")
  .option("--account <id>", "the sub-account (default: EMBEDDED_ACCOUNT_ID)")
  .option("--out <file>", "write the program to this file instead of stdout")
  .option("--base-url <url>", "the service's base URL (default: EMBEDDED_BASE_URL)")
  .option("--client-id <id>", "OAuth client id (default: EMBEDDED_CLIENT_ID)")
  .option("--client-secret <secret>", "OAuth client secret (default: EMBEDDED_CLIENT_SECRET; prefer the variable)")
  .action(async (flags: GenerateFlags) => generate(flags));

program
  .command("plugin")
  .description("the Pulumi resource plugin `embedded` shipped in this package")
  .command("install")
  .description("install the plugin into Pulumi's plugin cache ($PULUMI_HOME/plugins), offline, from this package")
  .option("--pulumi <path>", "the Pulumi CLI to run", "pulumi")
  .action(async (flags: { pulumi: string }) => {
    const { version, output } = await installPlugin(flags.pulumi);
    if (output) process.stderr.write(`${output}\n`);
    process.stdout.write(`installed the plugin embedded v${version}\n`);
  });

registerFleet(program);
registerDoctor(program);

program.parseAsync().catch((err: unknown) => {
  process.stderr.write(`error: ${err instanceof Error ? err.message : String(err)}\n`);
  process.exitCode = 1;
});
