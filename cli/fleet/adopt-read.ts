// `fleet adopt` reads one sub-account (a token and GETs only: generate.ts's snapshot) and turns
// it into the stack file's `connectors`: a key per configured connector, its non-Password values
// as the service returns them, and each Password field either from a secret source the user
// mapped, or left to the service (`heldByService`: never sent, so never cleared).
import { readFileSync } from "node:fs";
import * as path from "node:path";
import { getClient, type EmbeddedClient } from "../../provider/client";
import { parseJson } from "../../provider/project/pulumi-project";
import type { Customer } from "../../provider/fleet/secret-sources";
import { resolveSettings, toClientSettings, type ConfigSource } from "../../provider/settings/resolve";
import { settingOrigins } from "../../provider/settings/sources";
import { isSecretIn, literalOf, snapshot, type ConnectorSnapshot } from "../generate";
import type { SecretMap } from "./adopt-input";
import type { ConnectorSpec } from "./new";
import type { FleetProject } from "./project";

export interface AdoptedConnectors {
  connectors: Record<string, ConnectorSpec>;
  /** Password fields left to the service, counted. */
  held: number;
  /** Password fields given a secret source (their first write is the next `fleet up`'s). */
  mapped: number;
  /** Connectors added but not configured: adopted as added only (`configured: false`), named in the report. */
  unconfigured: string[];
}

export function readCustomers(project: FleetProject): Record<string, Customer> {
  const file = path.join(project.dir, "customers.json");
  let text: string;
  try {
    text = readFileSync(file, "utf8");
  } catch (error) {
    throw new Error(
      `${file} cannot be read (${(error as NodeJS.ErrnoException).code ?? "error"}): fleet adopt reads each customer there`,
    );
  }
  return parseJson(text, file, "the customers fleet adopt reads (docs/fleets.md)") as Record<string, Customer>;
}

/**
 * The settings `fleet adopt` reads a customer's sub-account with: the customer's entry in
 * customers.json (its base URL, client id, and the variable holding its client secret), then the
 * provider's one resolver (the EMBEDDED_* environment, then the defaults); without a customer, the
 * EMBEDDED_* settings alone. With where each came from.
 */
export function adoptSettings(
  customers: Record<string, Customer>,
  name: string | undefined,
  env: NodeJS.ProcessEnv = process.env,
) {
  const customer = name === undefined ? undefined : customers[name];
  if (name !== undefined && !customer) {
    throw new Error(
      `customer "${name}" is not in customers.json (its customers: ${Object.keys(customers).join(", ")})`,
    );
  }
  const fromCustomer: ConfigSource = (setting) => {
    if (!customer) return undefined;
    if (setting === "baseUrl") return customer.baseUrl || undefined;
    if (setting === "clientId") return customer.clientId || undefined;
    if (setting === "clientSecret") {
      const secret = env[customer.clientSecretEnv];
      if (!secret)
        throw new Error(`customer ${name}'s client secret: set the environment variable ${customer.clientSecretEnv}`);
      return secret;
    }
    return undefined;
  };
  return { settings: resolveSettings(fromCustomer, env), origins: settingOrigins(fromCustomer, env) };
}

/** The client of a customer (customers.json), or of the EMBEDDED_* settings without one. */
export function clientOf(customers: Record<string, Customer>, name: string | undefined): EmbeddedClient {
  return getClient(toClientSettings(adoptSettings(customers, name).settings));
}

/** A stack-file key per connector: its name's words in kebab case, made unique. */
function keysOf(connectors: ConnectorSnapshot[]): string[] {
  const taken = new Set<string>();
  return connectors.map((c) => {
    const words = (text: string) => text.split(/[^A-Za-z0-9]+/).filter((w) => w !== "");
    let key = words(c.name).join("-").toLowerCase() || "connector";
    if (taken.has(key)) key = `${key}-${c.supportedType.toLowerCase()}`;
    for (let n = 2, first = key; taken.has(key); n++) key = `${first}-${n}`;
    taken.add(key);
    return key;
  });
}

/** The stack file's connectors of one sub-account as the service holds it; never sees a Password value. */
export function adoptedConnectors(snapshots: ConnectorSnapshot[], secrets: SecretMap = {}): AdoptedConnectors {
  const result: AdoptedConnectors = { connectors: {}, held: 0, mapped: 0, unconfigured: [] };
  const keys = keysOf(snapshots);
  for (const [i, c] of snapshots.entries()) {
    if (c.supportedType !== "Source" && c.supportedType !== "Destination") {
      throw new Error(
        `connector ${c.connectorId} has supportedType ${JSON.stringify(c.supportedType)}: expected Source or Destination`,
      );
    }
    if (!c.configuration) {
      // Added, not configured: the stack holds the AddedConnector only (no configuration exists to import).
      result.connectors[keys[i]] = { name: c.name, supportedType: c.supportedType, configured: false };
      result.unconfigured.push(`${c.name} (${c.connectorId})`);
      continue;
    }
    const mapped = secrets[keys[i]] ?? secrets[c.name] ?? {};
    const spec: ConnectorSpec & { values: NonNullable<ConnectorSpec["values"]> } = {
      name: c.name,
      supportedType: c.supportedType,
      values: {},
    };
    for (const field of c.configuration.fields) {
      if (field.readonly) continue; // the service sets it; the provider refuses it
      if (isSecretIn(c.configuration, field)) {
        const source = mapped[field.id];
        if (source) {
          spec.secrets = { ...spec.secrets, [field.id]: source };
          result.mapped++;
        } else {
          spec.heldByService = [...(spec.heldByService ?? []), field.id];
          result.held++;
        }
        continue;
      }
      const literal = literalOf(field);
      if (literal !== undefined) spec.values[field.id] = literal;
    }
    result.connectors[keys[i]] = spec;
  }
  return result;
}

/** Reads one sub-account and gives its stack file's connectors. */
export async function readSubAccount(
  client: EmbeddedClient,
  accountId: string,
  secrets?: SecretMap,
): Promise<AdoptedConnectors> {
  return adoptedConnectors(await snapshot(client, accountId), secrets);
}
