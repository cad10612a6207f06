// `generate`: reads a sub-account and writes a Pulumi program that adopts it. The engine's
// `pulumi import` does not work for dynamic-provider resources, so this is how existing
// connectors come under management: one AddedConnector (adoptExisting: true) per added
// connector, one ConnectorConfiguration (adoptExisting: true) per configured one. Password values never leave the
// service, so the program reads them from secret stack config keys it names.
import type { AddedConnectorView, ConnectorConfigurationView, EmbeddedClient } from "../provider/client";
import { escapeLineBreaks } from "./fleet/yaml";

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

/**
 * Service text made safe for a `//` comment or a `#` shell comment: every line terminator
 * (JavaScript's U+2028 and U+2029, YAML 1.1's U+0085, CR, LF) and control character becomes a
 * space, so a connector's name or a field's label can never end the comment and become code.
 */
export function oneLine(text: string): string {
  // eslint-disable-next-line no-control-regex
  return String(text).replace(/[\u0000-\u001f\u007f-\u009f\u2028\u2029]+/g, " ");
}

/**
 * The stack config key of a Password field: letters and digits only (the connector's variable
 * and the field id's words), so it is a safe word in the printed shell command; unique.
 */
function secretKeyOf(variable: string, fieldId: string, taken: Set<string>): string {
  const word = camel(fieldId);
  const base = `${variable}${word ? word.charAt(0).toUpperCase() + word.slice(1) : "Field"}`;
  let key = base;
  for (let n = 2; taken.has(key); n++) key = `${base}${n}`;
  taken.add(key);
  return key;
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

/**
 * A JavaScript literal of service text: JSON, with U+2028 and U+2029 (and U+0085) escaped, since
 * TypeScript's scanner ends a string literal at them and reads the rest of the line as code.
 */
function jsLiteral(value: unknown): string {
  return escapeLineBreaks(JSON.stringify(value));
}

/** Words a `const` cannot be named (ECMAScript's reserved words, strict mode's too). */
const RESERVED_WORDS = new Set(
  (
    "await break case catch class const continue debugger default delete do else enum export extends false finally " +
    "for function if implements import in instanceof interface let new null package private protected public return " +
    "static super switch this throw true try typeof var void while with yield arguments eval"
  ).split(" "),
);

/** Unique identifiers per connector: a variable name and a resource name. */
function namesOf(connectors: ConnectorSnapshot[]): Map<string, { variable: string; resource: string }> {
  const names = new Map<string, { variable: string; resource: string }>();
  // The program's own names are taken: a connector named "Config" must not redeclare `config`.
  const taken = new Set<string>(["config", "accountId", "pulumi", "ec"]);
  for (const c of connectors) {
    let base = camel(c.name) || "connector";
    if (/^[0-9]/.test(base)) base = `c${base}`;
    if (RESERVED_WORDS.has(base)) base = `${base}Connector`;
    // Only letters and digits of the service's text make a name: never its other characters.
    const suffix = (text: string) => words(text).join("");
    if (taken.has(base)) base = `${base}${suffix(c.supportedType)}`;
    if (taken.has(base)) base = `${base}${suffix(c.connectorId)}`;
    for (let n = 2, first = base; taken.has(base); n++) base = `${first}${n}`;
    taken.add(base);
    names.set(c.connectorId, { variable: base, resource: kebab(base.replace(/([a-z0-9])([A-Z])/g, "$1 $2")) });
  }
  return names;
}

/** Renders the program; a pure function of its input, and never sees a Password value. */
export function renderProgram(accountId: string, connectors: ConnectorSnapshot[]): GeneratedProgram {
  const names = namesOf(connectors);
  const secrets: SecretKey[] = [];
  const keys = new Set<string>();
  const body: string[] = [];
  for (const c of connectors) {
    const { variable, resource } = names.get(c.connectorId) as { variable: string; resource: string };
    body.push(
      `// ${oneLine(c.name)} (${oneLine(c.supportedType)})`,
      // A variable only where a configuration refers to it: no unused names in the program.
      `${c.configuration ? `const ${variable} = ` : ""}new ec.AddedConnector(${jsLiteral(resource)}, {`,
      `  connectorId: ${jsLiteral(c.connectorId)},`,
      `  accountId,`,
      `  adoptExisting: true,`,
      `});`,
    );
    if (c.configuration) {
      const entries: string[] = [];
      for (const field of c.configuration.fields) {
        if (field.readonly) continue; // the service sets it; the provider refuses it
        if (field.type === "Password") {
          const key = secretKeyOf(variable, field.id, keys);
          secrets.push({ key, connectorName: c.name, fieldId: field.id, label: field.label });
          entries.push(`    ${jsLiteral(field.id)}: config.requireSecret(${jsLiteral(key)}),`);
          continue;
        }
        const literal = literalOf(field);
        if (literal !== undefined) entries.push(`    ${jsLiteral(field.id)}: ${jsLiteral(literal)},`);
      }
      const secretName = c.configuration.secretName ? [`  secretName: ${jsLiteral(c.configuration.secretName)},`] : [];
      body.push(
        `new ec.ConnectorConfiguration(${jsLiteral(resource)}, {`,
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
    `// Generated by \`pulumi-embedded-connectors generate --account ${oneLine(accountId)}\`: adopts what the`,
    `// sub-account holds (${connectors.length} connector(s)). Secret values are not in this file;`,
    `// set them first (each command prompts for the value):`,
    ...(commands.length > 0
      ? commands.map((line, i) => `//   ${line}   # ${oneLine(secrets[i].connectorName)}: ${oneLine(secrets[i].label)}`)
      : ["//   (none)"]),
    `// Then \`pulumi up\` takes every connector over without adding it again, and writes each`,
    `// configuration once. Once adopted, deleting a resource here removes the connector.`,
    `import * as pulumi from "@pulumi/pulumi";`,
    `import * as ec from "pulumi-embedded-connectors";`,
    ``,
    `const config = new pulumi.Config();`,
    `const accountId = ${jsLiteral(accountId)};`,
    ``,
  ];
  return { program: `${[...header, ...body].join("\n").trimEnd()}\n`, secrets, commands };
}
