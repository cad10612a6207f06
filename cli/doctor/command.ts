// `pulumi-embedded-connectors doctor`: checks that a service profile reads the service it points
// at (docs/hosted-service.md). Settings as the provider reads them — the current stack's config
// `embedded:*`, then the EMBEDDED_* environment — with a flag winning over both. Exit 0 when the
// profile reads every route, 1 otherwise.
import { execFileSync } from "node:child_process";
import { existsSync } from "node:fs";
import type { Command } from "commander";
import { DEFAULT_PROFILE, loadProfile } from "../../contract/profile";
import { checkBaseUrl } from "../../provider/settings";
import { runDoctor } from "./doctor";
import { renderReport } from "./report";
import { suggestedProfile, writeProfile } from "./suggest";
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

/** The whole command; returns the exit code. */
export async function doctor(flags: DoctorFlags, out: (text: string) => void): Promise<number> {
  if (flags.writeCheck && !flags.accountId) {
    throw new Error("--write-check writes: it needs --account-id <scratch sub-account> on the command line");
  }
  const settings = resolveDoctorSettings(flags);
  const transcript = flags.trace ? new Transcript(settings.accountId) : undefined;
  const client = new WireClient(settings.profile, settings, (exchange) => transcript?.record(exchange));
  try {
    const report = await runDoctor(client, settings.accountId);
    const check = flags.writeCheck ? await writeCheck(client, settings.accountId) : undefined;
    out(renderReport(report, settings.baseUrl, check));
    if (flags.writeProfile) {
      writeProfile(flags.writeProfile, suggestedProfile(report, check?.semantics, check?.success));
      out(`wrote the suggested profile to ${flags.writeProfile}\n`);
    }
    const ok = report.ok && (check ? check.ok && check.keys.length === 0 : true);
    return ok ? 0 : 1;
  } finally {
    if (transcript && flags.trace) {
      transcript.write(flags.trace);
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
    .action(async (flags: DoctorFlags) => {
      process.exitCode = await doctor(flags, (text) => process.stdout.write(text));
    });
}
