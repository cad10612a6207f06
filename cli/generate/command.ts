// `generate`'s command line: its flags, checked before any request (a wrong one names itself and
// what it takes), then the sub-account read and the files written (docs/import.md).
import { promises as fs } from "node:fs";
import * as path from "node:path";
import type { Command } from "commander";
import { closeClients, getClient } from "../../provider/client";
import { resolveSettings, toClientSettings, type ConfigSource } from "../../provider/settings/resolve";
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

async function generate(flags: GenerateFlags): Promise<void> {
  const fromFlags: ConfigSource = (name) => {
    if (name === "baseUrl") return flags.baseUrl;
    if (name === "clientId") return flags.clientId;
    if (name === "clientSecret") return flags.clientSecret;
    if (name === "accountId") return flags.account;
    return undefined;
  };
  const options = generateOptions(flags);
  const settings = resolveSettings(fromFlags);
  const accountId = settings.accountId;
  if (!accountId) throw new Error("missing --account <id> (or EMBEDDED_ACCOUNT_ID)");
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
    .option("--account <id>", "the sub-account (default: EMBEDDED_ACCOUNT_ID)")
    .option("--language <language>", `the program's language: ${LANGUAGES.join(", ")}`, "ts")
    .option("--resources <kind>", "TypeScript: dynamic (adoptExisting; the default) or plugin (import.json)")
    .option("--passwords <source>", "held (heldByService; default on the plugin) or config (secret stack config)")
    .option("--project <name>", "the YAML program's project name", "adopted")
    .option("--out <file>", "write the program to this file (and import.json beside it) instead of stdout")
    .option("--base-url <url>", "the service's base URL (default: EMBEDDED_BASE_URL)")
    .option("--client-id <id>", "OAuth client id (default: EMBEDDED_CLIENT_ID)")
    .option("--client-secret <secret>", "OAuth client secret (default: EMBEDDED_CLIENT_SECRET; prefer the variable)")
    .action(async (flags: GenerateFlags) => generate(flags));
}
