#!/usr/bin/env node
// The package's command line: `npx pulumi-embedded-connectors generate --account <id>`, and
// `npx pulumi-embedded-connectors plugin install` (the plugin `embedded` into Pulumi's plugin cache),
// `fleet …`, and `doctor` (does the service profile read the service? cli/doctor/).
// Settings come from flags, then the EMBEDDED_* environment (the provider's own rules,
// provider/settings/resolve.ts); the client secret only from the environment by default, because
// a flag value is visible to every user of the machine in the process list.
import { Command } from "commander";
import { registerGenerate } from "./generate/command";
import { installPlugin } from "./plugin-install";
import { registerFleet } from "./fleet/command";
import { shownText } from "./fleet/shown-text";
import { registerDoctor } from "../provider/doctor/command";
import { PLUGIN_VERSION } from "../provider/schema/plugin-release";

const program = new Command()
  .name("pulumi-embedded-connectors")
  .description("Tools for the pulumi-embedded-connectors provider")
  .version(PLUGIN_VERSION, "-V, --version", "print the package's version");

registerGenerate(program);

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
  process.stderr.write(`error: ${shownText(err instanceof Error ? err.message : String(err))}\n`);
  process.exitCode = 1;
});
