// `fleet new <stack> --account-id <id> [--customer <name>] [--connectors <file.json>]`: writes
// the reviewed file of one sub-account, Pulumi.<stack>.yaml, in structured config. It holds
// names and non-secret values only: a secret is named, either a stack secret (set with
// `pulumi config set --secret`, stored encrypted in the same file) or an environment variable.
import { existsSync, promises as fs } from "node:fs";
import * as path from "node:path";
import { stackFileName, type FleetProject } from "./project";
import { toYaml, type YamlValue } from "./yaml";

/** Where a secret field's value comes from: a secret stack config key, or an environment variable. */
export type SecretSource = { config: string } | { env: string };

export interface ConnectorSpec {
  name: string;
  supportedType: "Source" | "Destination";
  values?: Record<string, string | number | string[]>;
  secrets?: Record<string, SecretSource>;
}

export interface NewStackOptions {
  accountId: string;
  customer?: string;
  /** Connector key → spec (from --connectors <file.json>). */
  connectors?: Record<string, ConnectorSpec>;
  force?: boolean;
}

const STACK_NAME = /^[A-Za-z0-9_.-]+$/;

function checkConnectors(connectors: Record<string, ConnectorSpec>, from: string): void {
  for (const [key, spec] of Object.entries(connectors)) {
    const where = `connector "${key}" of ${from}`;
    if (typeof spec?.name !== "string" || (spec.supportedType !== "Source" && spec.supportedType !== "Destination")) {
      throw new Error(`${where} needs a catalogue name and supportedType Source or Destination`);
    }
    for (const [field, source] of Object.entries(spec.secrets ?? {})) {
      const ok =
        typeof source === "object" &&
        source !== null &&
        (typeof (source as { config?: unknown }).config === "string" ||
          typeof (source as { env?: unknown }).env === "string");
      if (!ok)
        throw new Error(
          `${where}: secret field "${field}" must be { "config": "<secret config key>" } or { "env": "<VARIABLE>" }, never a value`,
        );
    }
  }
}

export async function readConnectorsFile(file: string): Promise<Record<string, ConnectorSpec>> {
  const parsed = JSON.parse(await fs.readFile(file, "utf8")) as { connectors?: Record<string, ConnectorSpec> };
  const connectors = parsed.connectors ?? (parsed as Record<string, ConnectorSpec>);
  checkConnectors(connectors, file);
  return connectors;
}

/** The secret config keys the stack needs (each `pulumi config set --secret` to run once). */
export function secretConfigKeys(connectors: Record<string, ConnectorSpec>): string[] {
  const keys = Object.values(connectors).flatMap((c) =>
    Object.values(c.secrets ?? {}).flatMap((s) => ("config" in s ? [s.config] : [])),
  );
  return [...new Set(keys)].sort();
}

export function renderStackFile(project: FleetProject, stack: string, opts: NewStackOptions): string {
  const ns = project.name;
  const header = [
    `# Sub-account ${opts.accountId}${opts.customer ? ` of customer ${opts.customer}` : ""}: stack ${stack} of ${project.name}.`,
    "# Reviewed in pull requests; applied by `pulumi-embedded-connectors fleet up`.",
    `# ${ns}:connectors maps a key (the resources' name) to a catalogue connector, its non-secret`,
    "# values, and where each secret field's value comes from, by name only:",
    `#   { config: <key> }  a secret of this stack: pulumi config set --secret <key> --stack ${stack}`,
    "#   { env: <VARIABLE> } an environment variable of the run",
  ];
  const config: Record<string, YamlValue> = { [`${ns}:accountId`]: opts.accountId };
  if (opts.customer) config[`${ns}:customer`] = opts.customer;
  config[`${ns}:connectors`] = (opts.connectors ?? {}) as unknown as YamlValue;
  return `${header.join("\n")}\n${toYaml({ config })}`;
}

export async function writeStackFile(
  project: FleetProject,
  stack: string,
  opts: NewStackOptions,
): Promise<{ file: string; commands: string[] }> {
  if (!STACK_NAME.test(stack)) throw new Error(`stack name "${stack}" may hold only letters, digits, "-", "_" and "."`);
  if (!opts.accountId.trim()) throw new Error("--account-id must be a sub-account id");
  if (opts.connectors) checkConnectors(opts.connectors, "--connectors");
  const file = path.join(project.dir, stackFileName(stack));
  if (existsSync(file) && !opts.force) throw new Error(`${file} exists: edit it, or pass --force to write it again`);
  if (existsSync(file) && /^\s*encryptionsalt:|\bsecure:/m.test(await fs.readFile(file, "utf8"))) {
    // Writing it again would drop the stack's encryption salt and its encrypted secrets.
    throw new Error(
      `${file} holds the stack's encrypted secrets (encryptionsalt, secure:): --force would lose them; edit the file instead`,
    );
  }
  await fs.writeFile(file, renderStackFile(project, stack, opts));
  const commands = secretConfigKeys(opts.connectors ?? {}).map(
    (k) => `pulumi config set --secret ${k} --stack ${stack}`,
  );
  return { file, commands };
}
