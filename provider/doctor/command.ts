// `pulumi-embedded-connectors doctor`: checks that a service profile reads the service it points
// at (docs/hosted-service.md). Settings as the provider reads them — the current stack's config
// `embedded:*`, then the EMBEDDED_* environment — with a flag winning over both. Exit 0 only when
// the profile reads every route, every list's paging was told, and `--write-check` found nothing
// to change; 1 otherwise. Everything it prints or writes goes through one scrub (redact.ts).
import { execFileSync } from "node:child_process";
import { existsSync, writeFileSync } from "node:fs";
import { Command } from "commander";
import { DEFAULT_PROFILE, loadProfile } from "../../contract/profile";
import { checkBaseUrl } from "../settings/resolve";
import { runDoctor, settledPaging as settledPagingOf, summary } from "./doctor";
import { Secrets } from "./redact";
import { renderReport, verdictOf } from "./report";
import { profileText, suggestedProfile } from "./suggest";
import { Transcript } from "./trace";
import { DEFAULT_TIMEOUT_MS, WireClient } from "./wire-client";
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

const SETTING_KEYS = ["baseUrl", "clientId", "clientSecret", "accountId", "serviceProfile", "caCertificate"] as const;
type Setting = (typeof SETTING_KEYS)[number];
const ENV: Record<Setting, string> = {
  baseUrl: "EMBEDDED_BASE_URL",
  clientId: "EMBEDDED_CLIENT_ID",
  clientSecret: "EMBEDDED_CLIENT_SECRET",
  accountId: "EMBEDDED_ACCOUNT_ID",
  serviceProfile: "EMBEDDED_SERVICE_PROFILE",
  caCertificate: "EMBEDDED_CA_CERTIFICATE",
};

/** The current stack's `embedded:*` config (secrets decrypted in memory), when run in a Pulumi project. */
function stackConfig(flags: DoctorFlags): Partial<Record<Setting, string>> {
  if (flags.stack === false || !existsSync("Pulumi.yaml")) return {};
  const args = [
    "config",
    "--json",
    "--show-secrets",
    ...(typeof flags.stack === "string" ? ["--stack", flags.stack] : []),
  ];
  let text: string;
  try {
    text = execFileSync(flags.pulumi, args, { encoding: "utf8", stdio: ["ignore", "pipe", "ignore"] });
  } catch {
    process.stderr.write("doctor: no stack config read (no stack selected?); using the environment and flags\n");
    return {};
  }
  const config = JSON.parse(text) as Record<string, { value?: unknown }>;
  const out: Partial<Record<Setting, string>> = {};
  for (const key of SETTING_KEYS) {
    const value = config[`embedded:${key}`]?.value;
    if (typeof value === "string") out[key] = value;
  }
  return out;
}

export function resolveDoctorSettings(flags: DoctorFlags, env: NodeJS.ProcessEnv = process.env) {
  const stack = stackConfig(flags);
  const fromFlags: Partial<Record<Setting, string | undefined>> = {
    baseUrl: flags.baseUrl,
    clientId: flags.clientId,
    clientSecret: flags.clientSecret,
    accountId: flags.accountId,
    serviceProfile: flags.profile,
  };
  const get = (k: Setting) => fromFlags[k] ?? stack[k] ?? env[ENV[k]];
  const missing = (["baseUrl", "clientId", "clientSecret", "accountId"] as const).filter((k) => !get(k));
  if (missing.length > 0) {
    throw new Error(
      `doctor needs ${missing.map((k) => `${k} (embedded:${k}, ${ENV[k]}, or --${k.replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`)})`).join(", ")}`,
    );
  }
  const profileFile = get("serviceProfile");
  return {
    // The provider's own rule: https, or plain http to a loopback host only.
    baseUrl: checkBaseUrl(get("baseUrl") as string),
    clientId: get("clientId") as string,
    clientSecret: get("clientSecret") as string,
    accountId: get("accountId") as string,
    caCertificate: get("caCertificate"),
    profile: profileFile ? loadProfile(profileFile) : DEFAULT_PROFILE,
  };
}

function timeoutMs(flag: string | number | undefined): number {
  if (flag === undefined) return DEFAULT_TIMEOUT_MS;
  const seconds = Number(flag);
  if (!Number.isFinite(seconds) || seconds <= 0 || seconds > 300) {
    throw new Error("--timeout takes the seconds each request may take: a number above 0, at most 300");
  }
  return Math.round(seconds * 1000);
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
    { ...settings, timeoutMs: timeoutMs(flags.timeout) },
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
      const text = profileText(flags.writeProfile, suggestedProfile(report, check?.semantics, check?.success));
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
      "the service profile to check (default: embedded:serviceProfile, EMBEDDED_SERVICE_PROFILE, else the built-in)",
    )
    .option("--base-url <url>", "the service's base URL (default: embedded:baseUrl, EMBEDDED_BASE_URL)")
    .option("--client-id <id>", "OAuth client id (default: embedded:clientId, EMBEDDED_CLIENT_ID)")
    .option(
      "--client-secret <secret>",
      "OAuth client secret (default: embedded:clientSecret, EMBEDDED_CLIENT_SECRET; prefer those)",
    )
    .option("--account-id <id>", "the sub-account to read (default: embedded:accountId, EMBEDDED_ACCOUNT_ID)")
    .option("--stack <name>", "the stack whose config to read (default: the current stack)")
    .option("--no-stack", "read no stack config")
    .option("--pulumi <path>", "the Pulumi CLI that reads the stack config", "pulumi")
    .option("--write-profile <file>", "write the suggested profile (JSON for .json, else YAML)")
    .option("--write-check", "also add, read back and remove one connector in --account-id (a scratch sub-account)")
    .option("--trace <file>", "write a redacted transcript of every request and answer")
    .option("--timeout <seconds>", "each request's time limit (default 30, at most 300)")
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
