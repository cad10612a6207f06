// `pulumi-embedded-connectors doctor`: checks that a service profile reads the service it points
// at (docs/hosted-service.md). Settings by the provider's own resolver (settings/resolve.ts): the
// current stack's config `embedded:*`, then the EMBEDDED_* environment, then the defaults, with a
// flag winning over all (`--timeout` is timeoutMs, in seconds). Exit 0 only when
// the profile reads every route, every list's paging was told, and `--write-check` found nothing
// to change; 1 otherwise. Everything it prints or writes goes through one scrub (redact.ts).
import { execFileSync } from "node:child_process";
import { existsSync, writeFileSync } from "node:fs";
import { Command } from "commander";
import { DEFAULT_PROFILE } from "../../contract/profile";
import {
  configSourceFromGetter,
  noConfig,
  resolveSettings,
  settingValue,
  SETTINGS,
  type ConfigSource,
  type SettingName,
} from "../settings/resolve";
import { judgePlainSecrets, plainSecretSettings } from "../settings/plain-secrets";
import { firstOf, flagDefault, settingOrigins } from "../settings/sources";
import { runDoctor, settledPaging as settledPagingOf, summary } from "./doctor";
import { Secrets } from "./redact";
import { renderReport, verdictOf } from "./report";
import { profileTemplateText, suggestedProfile } from "./suggest";
import { Transcript } from "./trace";
import { WireClient } from "./wire-client";
import { writeCheck } from "./write-check";

export interface DoctorFlags {
  profile?: string;
  baseUrl?: string;
  clientId?: string;
  clientSecret?: string;
  accountId?: string;
  stack?: string | false;
  pulumi: string;
  writeProfile?: string;
  writeCheck?: boolean;
  trace?: string;
  /** Each request's time limit in seconds (a string from the command line). */
  timeout?: string | number;
}

/** The settings doctor needs: it reads a sub-account, so the default one too. */
const NEEDED = ["baseUrl", "clientId", "clientSecret", "accountId"] as const satisfies readonly SettingName[];
/** doctor's flag of each setting it takes from its command line. */
const FLAGS: Partial<Record<SettingName, string>> = {
  baseUrl: "--base-url",
  clientId: "--client-id",
  clientSecret: "--client-secret",
  accountId: "--account-id",
  serviceProfile: "--profile",
  timeoutMs: "--timeout",
};
/** The most --timeout takes: well below undici's own 300 s cap of a whole answer. */
const MAX_TIMEOUT_SECONDS = 300;

/** Why `pulumi config` gave no stack config: the CLI is missing (not on PATH), or it ran and refused (no stack selected). */
export function noStackConfigReason(pulumi: string, error: unknown): string {
  if ((error as { code?: unknown }).code === "ENOENT")
    return (
      `no stack config read: \`${pulumi}\` was not found (is the Pulumi CLI installed and on PATH? ` +
      "--pulumi <path> names it; --no-stack reads no stack config)"
    );
  return `no stack config read: \`${pulumi} config\` failed (no stack selected? \`pulumi stack select\`, or --stack <name>)`;
}

/** The current stack's `embedded:*` config (secrets decrypted in memory), when run in a Pulumi project. */
function stackConfig(flags: DoctorFlags): ConfigSource {
  if (flags.stack === false || !existsSync("Pulumi.yaml")) return noConfig;
  const args = [
    "config",
    "--json",
    "--show-secrets",
    ...(typeof flags.stack === "string" ? ["--stack", flags.stack] : []),
  ];
  let text: string;
  try {
    text = execFileSync(flags.pulumi, args, { encoding: "utf8", stdio: ["ignore", "pipe", "ignore"] });
  } catch (error) {
    process.stderr.write(`doctor: ${noStackConfigReason(flags.pulumi, error)}; using the environment and flags\n`);
    return noConfig;
  }
  const config = JSON.parse(text) as Record<string, { value?: unknown; secret?: boolean }>;
  // A secret setting the stack holds in plain text: the warning every host gives (settings/plain-secrets.ts).
  const plain = plainSecretSettings((name) => config[SETTINGS[name].key]?.secret === false);
  const stack = typeof flags.stack === "string" ? flags.stack : undefined;
  for (const warning of judgePlainSecrets("doctor", plain, { kind: "stack file", stack }).warnings)
    process.stderr.write(`doctor: warning: ${warning}\n`);
  return configSourceFromGetter({ get: (key) => config[key]?.value });
}

/** The --timeout flag (seconds) as the timeoutMs setting, checked: doctor's one flag in other units. */
function timeoutFlagMs(flag: string | number | undefined): string | undefined {
  if (flag === undefined) return undefined;
  const seconds = Number(flag);
  if (!Number.isFinite(seconds) || seconds <= 0 || seconds > MAX_TIMEOUT_SECONDS) {
    throw new Error(
      `--timeout takes the seconds each request may take: a number above 0, at most ${MAX_TIMEOUT_SECONDS}`,
    );
  }
  return String(Math.max(1, Math.round(seconds * 1000)));
}

/** doctor's own source: its flags over the stack config (the provider's resolver then adds the environment and defaults). */
function doctorSource(flags: DoctorFlags): ConfigSource {
  const given: Partial<Record<SettingName, string | undefined>> = {
    baseUrl: flags.baseUrl,
    clientId: flags.clientId,
    clientSecret: flags.clientSecret,
    accountId: flags.accountId,
    serviceProfile: flags.profile,
    timeoutMs: timeoutFlagMs(flags.timeout),
  };
  return firstOf((name) => (given[name] === "" ? undefined : given[name]), stackConfig(flags));
}

/** The settings doctor runs with, resolved as the provider resolves them (settings/resolve.ts), and where each came from. */
export function resolveDoctorSettings(flags: DoctorFlags, env: NodeJS.ProcessEnv = process.env) {
  const source = doctorSource(flags);
  const missing = NEEDED.filter((name) => settingValue(name, source, env) === undefined);
  if (missing.length > 0) {
    throw new Error(
      `doctor needs ${missing.map((name) => `${name} (${SETTINGS[name].key}, ${SETTINGS[name].env}, or ${FLAGS[name]})`).join(", ")}`,
    );
  }
  const settings = resolveSettings(source, env);
  return {
    ...settings,
    accountId: settings.accountId as string,
    profile: settings.profile ?? DEFAULT_PROFILE,
    origins: settingOrigins(source, env),
  };
}

/** The whole command; returns the exit code. */
export async function doctor(
  flags: DoctorFlags,
  print: (text: string) => void,
  /** A line per request as it is answered (the CLI: stderr), scrubbed like the rest. */
  progress: (line: string) => void = () => undefined,
): Promise<number> {
  if (flags.writeCheck && !flags.accountId) {
    throw new Error("--write-check writes: it needs --account-id <scratch sub-account> on the command line");
  }
  const settings = resolveDoctorSettings(flags);
  const secrets = new Secrets([settings.clientSecret]);
  const out = (text: string) => print(secrets.scrub(text));
  const transcript = flags.trace ? new Transcript(settings.profile, settings.accountId) : undefined;
  const client = new WireClient(
    settings.profile,
    settings,
    (exchange) => {
      transcript?.record(exchange);
      const op = settings.profile.operations[exchange.operation];
      progress(secrets.scrub(`doctor: ${op.method} ${op.path} (${exchange.operation}): ${exchange.status}\n`));
    },
    (token) => secrets.add(token),
  );
  try {
    let report = await runDoctor(client, settings.accountId);
    const added = report.routes.find((r) => r.operation === "listAddedConnectors");
    const pagingOf = (list: "listConnectors" | "listAddedConnectors") => {
      const found = report.routes.find((r) => r.operation === list);
      return (found && settledPagingOf(found)) ?? settings.profile.operations[list].paging;
    };
    const tokenRead = report.routes.some((r) => r.operation === "getToken" && r.status < 300 && r.notes.length === 0);
    const check = flags.writeCheck && tokenRead ? await writeCheck(client, settings.accountId, pagingOf) : undefined;
    if (check?.paging && added) {
      // The added list's paging as probed while it held the connector: it replaces what the empty list could not tell.
      added.paging = check.paging;
      report = { ...summary(report.profile, report.routes, report.semantics), secretFields: report.secretFields };
    }
    out(renderReport(report, settings.baseUrl, check));
    if (flags.writeProfile) {
      const suggested = suggestedProfile(report, check?.semantics, check?.success);
      const text = profileTemplateText(flags.writeProfile, suggested, report);
      writeFileSync(flags.writeProfile, secrets.scrub(text));
      out(`wrote the suggested profile to ${flags.writeProfile}\n`);
    }
    return verdictOf(report, check).ok ? 0 : 1;
  } catch (error) {
    // An error's text passes the same scrub as the output.
    throw new Error(secrets.scrub((error as Error).message));
  } finally {
    if (transcript && flags.trace) {
      transcript.write(flags.trace, (text) => secrets.scrub(text));
      out(`wrote the redacted transcript to ${flags.trace}\n`);
    }
    await client.close();
  }
}

export function registerDoctor(program: Command): void {
  program
    .command("doctor")
    .description("check that the service profile reads the service (read-only unless --write-check)")
    .option(
      "--profile <file>",
      `the service profile to check (${flagDefault("serviceProfile", { stackConfig: true })}, else the built-in)`,
    )
    .option("--base-url <url>", `the service's base URL (${flagDefault("baseUrl", { stackConfig: true })})`)
    .option("--client-id <id>", `OAuth client id (${flagDefault("clientId", { stackConfig: true })})`)
    .option(
      "--client-secret <secret>",
      `OAuth client secret (${flagDefault("clientSecret", { stackConfig: true })}; prefer those)`,
    )
    .option("--account-id <id>", `the sub-account to read (${flagDefault("accountId", { stackConfig: true })})`)
    .option("--stack <name>", "the stack whose config to read (default: the current stack)")
    .option("--no-stack", "read no stack config")
    .option("--pulumi <path>", "the Pulumi CLI that reads the stack config", "pulumi")
    .option("--write-profile <file>", "write the suggested profile (JSON for .json, else YAML)")
    .option("--write-check", "also add, read back and remove one connector in --account-id (a scratch sub-account)")
    .option("--trace <file>", "write a redacted transcript of every request and answer")
    .option(
      "--timeout <seconds>",
      `each request's time limit, at most ${MAX_TIMEOUT_SECONDS} (default: ${SETTINGS.timeoutMs.key}, ${SETTINGS.timeoutMs.env}, in ms, else ${SETTINGS.timeoutMs.default / 1000})`,
    )
    .action(async (flags: DoctorFlags) => {
      process.exitCode = await doctor(
        flags,
        (text) => process.stdout.write(text),
        (line) => process.stderr.write(line),
      );
    });
}

/**
 * `doctor` as a program of its own, for the plugin's executable (`pulumi-resource-embedded doctor
 * …`, or `pulumi plugin run --kind resource embedded -- doctor …`): the same command and flags as
 * `npx pulumi-embedded-connectors doctor`, for users with no Node.js. Returns the exit code.
 */
export async function doctorProgram(args: string[], name: string): Promise<number> {
  const program = new Command().name(name);
  registerDoctor(program);
  try {
    await program.parseAsync(["doctor", ...args], { from: "user" });
    return typeof process.exitCode === "number" ? process.exitCode : 0;
  } catch (error) {
    process.stderr.write(`error: ${error instanceof Error ? error.message : String(error)}\n`);
    return 1;
  }
}
