// `generate`'s command line: its flags, checked before any request (a wrong one names itself and
// what it takes), then the sub-account read and the files written (docs/import.md).
import { promises as fs } from "node:fs";
import * as path from "node:path";
import type { Command } from "commander";
import {
  resolveSettings,
  SETTINGS,
  toClientSettings,
  type ConfigSource,
  type SettingName,
} from "../../provider/settings/resolve";
import { flagDefault, settingOrigins } from "../../provider/settings/sources";
import { generateFiles, IMPORT_COMMAND, LANGUAGES, snapshot, type GenerateOptions, type Language } from "./index";

export interface GenerateFlags {
  account?: string;
  out?: string;
  language: string;
  resources?: string;
  passwords?: string;
  project: string;
  baseUrl?: string;
  clientId?: string;
  clientSecret?: string;
}

/**
 * generate's settings: its flags, then the provider's one resolver (the EMBEDDED_* environment,
 * then the defaults), and where each came from. It reads no stack config: it writes the program
 * a stack will run, often before there is one.
 */
export function generateSettings(flags: GenerateFlags, env: NodeJS.ProcessEnv = process.env) {
  const given: Partial<Record<SettingName, string | undefined>> = {
    baseUrl: flags.baseUrl,
    clientId: flags.clientId,
    clientSecret: flags.clientSecret,
    accountId: flags.account,
  };
  const fromFlags: ConfigSource = (name) => (given[name] === "" ? undefined : given[name]);
  const settings = resolveSettings(fromFlags, env);
  const accountId = settings.accountId;
  if (!accountId) throw new Error(`missing --account <id> (or ${SETTINGS.accountId.env})`);
  return { settings, accountId, origins: settingOrigins(fromFlags, env) };
}

async function generate(flags: GenerateFlags): Promise<void> {
  const options = generateOptions(flags);
  const { settings, accountId } = generateSettings(flags);
  // Loaded here, not with the CLI: every other command (fleet drift's start-up above all) goes without it.
  const { closeClients, getClient } = await import("../../provider/client");
  try {
    const connectors = await snapshot(getClient(toClientSettings(settings)), accountId);
    const files = generateFiles(accountId, connectors, options);
    if (flags.out) {
      await fs.writeFile(flags.out, files.program.text);
      process.stderr.write(`wrote ${flags.out}: ${connectors.length} connector(s) of sub-account ${accountId}\n`);
      if (files.importFile) {
        const importPath = path.join(path.dirname(flags.out), "import.json");
        await fs.writeFile(importPath, files.importFile);
        process.stderr.write(`wrote ${importPath}: then run \`${IMPORT_COMMAND}\`\n`);
      }
    } else {
      process.stdout.write(files.program.text);
    }
    // The instructions go to stderr, so that stdout stays a valid program when redirected.
    if (files.commands.length > 0) {
      process.stderr.write(`set these secrets before \`pulumi up\` (each command prompts for the value):\n`);
      for (const line of files.commands) process.stderr.write(`  ${line}\n`);
    }
  } finally {
    await closeClients();
  }
}

/** The flags checked before any request: a wrong one names itself and what it takes. */
export function generateOptions(flags: GenerateFlags): GenerateOptions {
  const language = flags.language as Language;
  if (!LANGUAGES.includes(language)) throw new Error(`--language takes one of ${LANGUAGES.join(", ")}`);
  if (flags.resources !== undefined && !(language === "ts" && ["dynamic", "plugin"].includes(flags.resources)))
    throw new Error("--resources takes dynamic or plugin, with --language ts only (the others have the plugin's)");
  if (flags.passwords !== undefined && !["held", "config"].includes(flags.passwords))
    throw new Error("--passwords takes held (left to the service: heldByService) or config (secret stack config)");
  if (!/^[A-Za-z0-9_.-]+$/.test(flags.project)) throw new Error("--project takes letters, digits, `_`, `.` and `-`");
  const options: GenerateOptions = {
    language,
    resources: flags.resources as GenerateOptions["resources"],
    passwords: flags.passwords as GenerateOptions["passwords"],
    project: flags.project,
  };
  if (!flags.out && !(language === "ts" && (flags.resources ?? "dynamic") === "dynamic"))
    throw new Error(`--out <file> is needed with --language ${language}: the import file goes beside the program`);
  return options;
}

export function registerGenerate(program: Command): void {
  program
    .command("generate")
    .description("write a Pulumi program (TypeScript, Python, Go or YAML) that adopts the connectors of a sub-account")
    .option("--account <id>", `the sub-account (${flagDefault("accountId", { stackConfig: false })})`)
    .option("--language <language>", `the program's language: ${LANGUAGES.join(", ")}`, "ts")
    .option("--resources <kind>", "TypeScript: dynamic (adoptExisting; the default) or plugin (import.json)")
    .option("--passwords <source>", "held (heldByService; default on the plugin) or config (secret stack config)")
    .option("--project <name>", "the YAML program's project name", "adopted")
    .option("--out <file>", "write the program to this file (and import.json beside it) instead of stdout")
    .option("--base-url <url>", `the service's base URL (${flagDefault("baseUrl", { stackConfig: false })})`)
    .option("--client-id <id>", `OAuth client id (${flagDefault("clientId", { stackConfig: false })})`)
    .option(
      "--client-secret <secret>",
      `OAuth client secret (${flagDefault("clientSecret", { stackConfig: false })}; prefer the variable)`,
    )
    .action(async (flags: GenerateFlags) => generate(flags));
}
