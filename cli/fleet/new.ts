// `fleet new <stack> --account-id <id> [--customer <name>] [--connectors <file.json>]`: writes
// the reviewed file of one sub-account, Pulumi.<stack>.yaml, in structured config. It holds
// names and non-secret values only: a secret is named, either a stack secret (set with
// `pulumi config set --secret`, stored encrypted in the same file) or an environment variable.
import { existsSync, promises as fs, readFileSync } from "node:fs";
import * as path from "node:path";
import { ID_FORMAT, isId } from "../../contract/ids";
import { isStackName, stackFileName, type FleetProject } from "./project";
import { encryptedContentOf } from "./stack-file";
import { escapeLineBreaks, toYaml, type YamlValue } from "./yaml";

/** Where a secret field's value comes from: a secret stack config key, or an environment variable. */
export type SecretSource = { config: string } | { env: string };

export interface ConnectorSpec {
  name: string;
  supportedType: "Source" | "Destination";
  values?: Record<string, string | number | string[]>;
  secrets?: Record<string, SecretSource>;
  /** Password fields the service holds (the customer's own): never sent (`fleet adopt` writes them). */
  heldByService?: string[];
  /** false: added and left unconfigured (`fleet adopt` writes it for a connector not configured yet). */
  configured?: boolean;
}

export interface NewStackOptions {
  accountId: string;
  customer?: string;
  /** Connector key → spec (from --connectors <file.json>). */
  connectors?: Record<string, ConnectorSpec>;
  force?: boolean;
}

/**
 * Characters that end a line for some reader of the file: ASCII controls (line feed, carriage
 * return, …), NEL U+0085 (a line break to YAML 1.1 readers such as Go's), U+2028 and U+2029.
 */
// eslint-disable-next-line no-control-regex
const BREAKS_OR_CONTROLS = /[\u0000-\u001f\u007f-\u009f\u2028\u2029]/;

/** Pulumi's rule for project names (Pulumi.yaml's `name`), which the file's comments and keys hold. */
const PROJECT_NAME = /^[A-Za-z0-9_.-]{1,100}$/;

function checkCustomer(project: FleetProject, customer: string): void {
  if (customer.trim() === "" || BREAKS_OR_CONTROLS.test(customer)) {
    throw new Error(
      "--customer must be a customer's name on one line: no line break (incl. U+0085, U+2028, U+2029) or control character",
    );
  }
  const customersFile = path.join(project.dir, "customers.json");
  if (!existsSync(customersFile)) return;
  let known: string[] = [];
  try {
    known = Object.keys(JSON.parse(readFileSync(customersFile, "utf8")) as object);
  } catch {
    throw new Error(`${customersFile} is not a JSON object: fix it before naming a customer`);
  }
  if (!known.includes(customer)) {
    throw new Error(
      `--customer: no such customer in ${customersFile} (its customers: ${known.join(", ")}); add it there first`,
    );
  }
}

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
  // Only checked values in comments (the stack and project names by Pulumi's rules): the
  // account and customer are in the config below, written as YAML scalars.
  const header = [
    `# One sub-account (its id and customer below): stack ${stack} of ${project.name}.`,
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

/** A refused value quoted on one line: every line break escaped, U+0085, U+2028 and U+2029 too. */
function describe(value: string): string {
  return escapeLineBreaks(JSON.stringify(value));
}

export async function writeStackFile(
  project: FleetProject,
  stack: string,
  opts: NewStackOptions,
): Promise<{ file: string; commands: string[] }> {
  if (!isStackName(stack)) {
    throw new Error(
      `the stack name may hold only letters, digits, "-", "_" and "." (at most 100): got ${describe(stack)}`,
    );
  }
  if (!PROJECT_NAME.test(project.name)) {
    throw new Error(`the project name in ${project.dir}/Pulumi.yaml is not a Pulumi project name: fix it first`);
  }
  if (!isId(opts.accountId)) {
    throw new Error(`--account-id must be a sub-account id, ${ID_FORMAT}: got ${describe(opts.accountId)}`);
  }
  if (opts.customer !== undefined) checkCustomer(project, opts.customer);
  if (opts.connectors) checkConnectors(opts.connectors, "--connectors");
  const file = path.join(project.dir, stackFileName(stack));
  if (existsSync(file) && !opts.force) throw new Error(`${file} exists: edit it, or pass --force to write it again`);
  const held = existsSync(file) ? encryptedContentOf(await fs.readFile(file, "utf8"), path.basename(file)) : undefined;
  if (held !== undefined) {
    // Writing it again would drop the stack's encryption state and its encrypted secrets.
    throw new Error(`${file} holds encrypted secrets (${held}): --force would lose them; edit the file instead`);
  }
  await fs.writeFile(file, renderStackFile(project, stack, opts));
  const commands = secretConfigKeys(opts.connectors ?? {}).map(
    (k) => `pulumi config set --secret ${k} --stack ${stack}`,
  );
  return { file, commands };
}
