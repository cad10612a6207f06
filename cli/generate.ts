// `generate`: reads a sub-account and writes a Pulumi program that adopts it. The engine's
// `pulumi import` does not work for dynamic-provider resources, so this is how existing
// connectors come under management: one AddedConnector (adoptExisting: true) per added
// connector, one ConnectorConfiguration (adoptExisting: true) per configured one. Password values never leave the
// service, so the program reads them from secret stack config keys it names.
import type { AddedConnectorView, ConnectorConfigurationView, EmbeddedClient } from "../provider/client";

type Descriptor = ConnectorConfigurationView["configuration"][number];
export type LiteralValue = string | number | string[];

/** What the generator needs to know about one added connector. */
export interface ConnectorSnapshot {
  connectorId: string;
  name: string;
  supportedType: string;
  /** Absent when the connector is not configured. */
  configuration?: { fields: Descriptor[]; secretName?: string };
}

export interface SecretKey {
  /** The stack config key (project namespace) the program reads with config.requireSecret. */
  key: string;
  connectorName: string;
  fieldId: string;
  label: string;
}

export interface GeneratedProgram {
  /** The TypeScript program. */
  program: string;
  /** The secret config keys to set before `pulumi up`. */
  secrets: SecretKey[];
  /** `pulumi config set --secret <key>` lines (they prompt for the value). */
  commands: string[];
}

/** Reads the sub-account: every added connector, and the configuration of configured ones. */
export async function snapshot(client: EmbeddedClient, accountId: string): Promise<ConnectorSnapshot[]> {
  const added: AddedConnectorView[] = [];
  for await (const view of client.listAddedConnectors(accountId)) added.push(view);
  added.sort((a, b) => a.name.localeCompare(b.name) || a.connectorId.localeCompare(b.connectorId));
  return Promise.all(
    added.map(async (view): Promise<ConnectorSnapshot> => {
      const base = { connectorId: view.connectorId, name: view.name, supportedType: view.supportedType };
      // view A's `configured` decides; a configuration read costs one GET per configured connector.
      if (!view.configured) return base;
      const config = await client.getConfiguration(accountId, view.connectorId);
      const first = config.secretConfig[0];
      const fields = first?.configuration ?? config.configuration;
      return { ...base, configuration: { fields, secretName: config.secretName ?? first?.secretName } };
    }),
  );
}

function words(text: string): string[] {
  return text.split(/[^A-Za-z0-9]+/).filter((w) => w !== "");
}

function camel(text: string): string {
  const parts = words(text);
  return parts
    .map((w, i) => (i === 0 ? w.charAt(0).toLowerCase() + w.slice(1) : w.charAt(0).toUpperCase() + w.slice(1)))
    .join("");
}

function kebab(text: string): string {
  return words(text).join("-").toLowerCase();
}

/** A field value as it must appear in the program, or undefined to leave the field out. */
export function literalOf(field: Descriptor): LiteralValue | undefined {
  const value = field.value;
  if (value === undefined || value === null || value === "") return undefined;
  if (field.type === "Number") {
    const n = typeof value === "number" ? value : Number(value);
    return Number.isFinite(n) ? n : String(value);
  }
  if (field.type === "Multi-Select") {
    if (Array.isArray(value)) return value.map(String);
    const text = String(value);
    if (text.startsWith("[")) {
      try {
        const parsed: unknown = JSON.parse(text);
        if (Array.isArray(parsed)) return parsed.map(String);
      } catch {
        // not JSON: the service's comma-separated form
      }
    }
    return text
      .split(",")
      .map((v) => v.trim())
      .filter((v) => v !== "");
  }
  return typeof value === "string" ? value : JSON.stringify(value);
}

/** Unique identifiers per connector: a variable name and a resource name. */
function namesOf(connectors: ConnectorSnapshot[]): Map<string, { variable: string; resource: string }> {
  const names = new Map<string, { variable: string; resource: string }>();
  const taken = new Set<string>();
  for (const c of connectors) {
    let base = camel(c.name) || "connector";
    if (/^[0-9]/.test(base)) base = `c${base}`;
    if (taken.has(base)) base = `${base}${c.supportedType}`;
    if (taken.has(base)) base = `${base}${c.connectorId}`;
    taken.add(base);
    names.set(c.connectorId, { variable: base, resource: kebab(base.replace(/([a-z0-9])([A-Z])/g, "$1 $2")) });
  }
  return names;
}

/** Renders the program; a pure function of its input, and never sees a Password value. */
export function renderProgram(accountId: string, connectors: ConnectorSnapshot[]): GeneratedProgram {
  const names = namesOf(connectors);
  const secrets: SecretKey[] = [];
  const body: string[] = [];
  for (const c of connectors) {
    const { variable, resource } = names.get(c.connectorId) as { variable: string; resource: string };
    body.push(
      `// ${c.name} (${c.supportedType})`,
      // A variable only where a configuration refers to it: no unused names in the program.
      `${c.configuration ? `const ${variable} = ` : ""}new ec.AddedConnector(${JSON.stringify(resource)}, {`,
      `  connectorId: ${JSON.stringify(c.connectorId)},`,
      `  accountId,`,
      `  adoptExisting: true,`,
      `});`,
    );
    if (c.configuration) {
      const entries: string[] = [];
      for (const field of c.configuration.fields) {
        if (field.readonly) continue; // the service sets it; the provider refuses it
        if (field.type === "Password") {
          const key = `${variable}${field.id.charAt(0).toUpperCase()}${field.id.slice(1)}`;
          secrets.push({ key, connectorName: c.name, fieldId: field.id, label: field.label });
          entries.push(`    ${JSON.stringify(field.id)}: config.requireSecret(${JSON.stringify(key)}),`);
          continue;
        }
        const literal = literalOf(field);
        if (literal !== undefined) entries.push(`    ${JSON.stringify(field.id)}: ${JSON.stringify(literal)},`);
      }
      const secretName = c.configuration.secretName
        ? [`  secretName: ${JSON.stringify(c.configuration.secretName)},`]
        : [];
      body.push(
        `new ec.ConnectorConfiguration(${JSON.stringify(resource)}, {`,
        `  connectorId: ${variable}.connectorId,`,
        `  accountId,`,
        // The saved configuration is taken over, not refused (docs/configuration-ownership.md).
        `  adoptExisting: true,`,
        ...secretName,
        `  secretConfig: {`,
        ...entries,
        `  },`,
        `});`,
      );
    }
    body.push("");
  }
  const commands = secrets.map((s) => `pulumi config set --secret ${s.key}`);
  const header = [
    `// Generated by \`pulumi-embedded-connectors generate --account ${accountId}\`: adopts what the`,
    `// sub-account holds (${connectors.length} connector(s)). Secret values are not in this file;`,
    `// set them first (each command prompts for the value):`,
    ...(commands.length > 0
      ? commands.map((line, i) => `//   ${line}   # ${secrets[i].connectorName}: ${secrets[i].label}`)
      : ["//   (none)"]),
    `// Then \`pulumi up\` takes every connector over without adding it again, and writes each`,
    `// configuration once. Once adopted, deleting a resource here removes the connector.`,
    `import * as pulumi from "@pulumi/pulumi";`,
    `import * as ec from "pulumi-embedded-connectors";`,
    ``,
    `const config = new pulumi.Config();`,
    `const accountId = ${JSON.stringify(accountId)};`,
    ``,
  ];
  return { program: `${[...header, ...body].join("\n").trimEnd()}\n`, secrets, commands };
}
