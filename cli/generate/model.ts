// `generate`'s model, shared by every language (cli/generate/*.ts): the sub-account as read
// (snapshot), and the adoption plan of it: one name per connector, made of the letters and digits
// of the service's text only, each field's value written in clear (a non-secret value, which the
// service returns in clear), read from a secret stack config key it names, or left to the service
// (`heldByService`). A secret field (provider/schema/secret-fields.ts: a Password in any letter
// case, a type the profile adds, a masked value) never has its value in a plan.
import type { AddedConnectorView, ConnectorConfigurationView, EmbeddedClient } from "../../provider/client";
import { isSecretField, type SecretTypesSource } from "../../provider/schema/secret-fields";
import { escapeLineBreaks } from "../fleet/yaml";

type Descriptor = ConnectorConfigurationView["configuration"][number];
export type LiteralValue = string | number | string[];

/** What the generator needs to know about one added connector. */
export interface ConnectorSnapshot {
  connectorId: string;
  name: string;
  supportedType: string;
  /** Absent when the connector is not configured. */
  configuration?: {
    fields: Descriptor[];
    secretName?: string;
    /** The service profile read by (the secret types it adds); absent: the built-in one. */
    profile?: SecretTypesSource;
  };
}

/** Whether a field of a snapshot's configuration is secret (schema/secret-fields.ts). */
export const isSecretIn = (configuration: NonNullable<ConnectorSnapshot["configuration"]>, field: Descriptor) =>
  isSecretField(field, configuration.profile);

export interface SecretKey {
  /** The stack config key (project namespace) the program reads with config.requireSecret. */
  key: string;
  connectorName: string;
  fieldId: string;
  label: string;
}

/** Where a configuration's Password fields come from: the stack's secret config, or the service (`heldByService`). */
export type PasswordSource = "config" | "held";

/** One field of a configuration in the program: a value in clear, or a secret config key. */
export type FieldPlan = { id: string; literal: LiteralValue } | { id: string; secretKey: string };

/** One added connector in the program. */
export interface ConnectorPlan {
  connectorId: string;
  name: string;
  supportedType: string;
  /** The program's variable, and the plugin's resource name of the AddedConnector: letters and digits. */
  variable: string;
  /** The plugin's resource name of its ConnectorConfiguration: letters and digits. */
  configurationName: string;
  /** The dynamic resources' name of both (lower-case words and dashes), as generate has always written them. */
  resource: string;
  configuration?: { fields: FieldPlan[]; held: string[]; secretName?: string };
}

export interface AdoptionPlan {
  accountId: string;
  connectors: ConnectorPlan[];
  /** The secret config keys to set before `pulumi up`. */
  secrets: SecretKey[];
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
      const secretName = config.secretName ?? first?.secretName;
      return { ...base, configuration: { fields, secretName, profile: client.profile } };
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
 * A string, number or list literal of service text, valid in TypeScript, Python and Go alike:
 * JSON, with U+2028 and U+2029 (and the other controls U+007F–U+009F) escaped, since
 * TypeScript's scanner ends a string literal at them and reads the rest of the line as code.
 */
export function jsonLiteral(value: unknown): string {
  return escapeLineBreaks(JSON.stringify(value));
}

/**
 * Words a variable, resource or config key cannot be: the reserved words of TypeScript, Python
 * and Go, and the names the generated programs use themselves (`config`, `pulumi`, `ctx`, `err`…;
 * in Pulumi YAML, `pulumi` is the builtin variable). One set for every language, so a connector
 * has the same names in each.
 */
const RESERVED_WORDS = new Set(
  (
    "await break case catch class const continue debugger default delete do else enum export extends false finally " +
    "for function if implements import in instanceof interface let new null package private protected public return " +
    "static super switch this throw true try typeof var void while with yield arguments eval " +
    "and as assert async def del elif except from global is lambda nonlocal not or pass raise None True False " +
    "chan defer fallthrough func go goto map range select struct type nil string error bool int len main " +
    "config cfg accountId pulumi ec embedded ctx err os"
  ).split(" "),
);

/** The connectors' names, one set for variables, resource names and config keys (a YAML program has one namespace). */
function namesOf(
  connectors: ConnectorSnapshot[],
  taken: Set<string>,
): Map<string, Omit<ConnectorPlan, keyof ConnectorSnapshot>> {
  const names = new Map<string, Omit<ConnectorPlan, keyof ConnectorSnapshot>>();
  const free = (name: string) => !taken.has(name) && !taken.has(`${name}Configuration`);
  for (const c of connectors) {
    let base = camel(c.name) || "connector";
    if (/^[0-9]/.test(base)) base = `c${base}`;
    if (RESERVED_WORDS.has(base)) base = `${base}Connector`;
    // Only letters and digits of the service's text make a name: never its other characters.
    const suffix = (text: string) => words(text).join("");
    if (!free(base)) base = `${base}${suffix(c.supportedType)}`;
    if (!free(base)) base = `${base}${suffix(c.connectorId)}`;
    for (let n = 2, first = base; !free(base); n++) base = `${first}${n}`;
    taken.add(base);
    taken.add(`${base}Configuration`);
    names.set(c.connectorId, {
      variable: base,
      configurationName: `${base}Configuration`,
      resource: kebab(base.replace(/([a-z0-9])([A-Z])/g, "$1 $2")),
    });
  }
  return names;
}

/** The adoption plan of a sub-account; a pure function of its input, and never sees a Password value. */
export function planOf(accountId: string, connectors: ConnectorSnapshot[], passwords: PasswordSource): AdoptionPlan {
  const taken = new Set<string>(RESERVED_WORDS);
  const names = namesOf(connectors, taken);
  const secrets: SecretKey[] = [];
  const plans = connectors.map((c): ConnectorPlan => {
    const named = {
      ...c,
      configuration: undefined,
      ...(names.get(c.connectorId) as Omit<ConnectorPlan, keyof ConnectorSnapshot>),
    };
    if (!c.configuration) return named;
    const fields: FieldPlan[] = [];
    const held: string[] = [];
    for (const field of c.configuration.fields) {
      if (field.readonly) continue; // the service sets it; the provider refuses it
      if (isSecretIn(c.configuration, field)) {
        if (passwords === "held") {
          held.push(field.id);
          continue;
        }
        const key = secretKeyOf(named.variable, field.id, taken);
        secrets.push({ key, connectorName: c.name, fieldId: field.id, label: field.label });
        fields.push({ id: field.id, secretKey: key });
        continue;
      }
      const literal = literalOf(field);
      if (literal !== undefined) fields.push({ id: field.id, literal });
    }
    return { ...named, configuration: { fields, held, secretName: c.configuration.secretName } };
  });
  return { accountId, connectors: plans, secrets };
}

/** `pulumi config set --secret <key>` lines (each prompts for the value). */
export function secretCommands(plan: AdoptionPlan): string[] {
  return plan.secrets.map((s) => `pulumi config set --secret ${s.key}`);
}

/** The header's lines (without comment marks): what the program is, and what to run first. */
export function headerLines(plan: AdoptionPlan, language: string, then: string[]): string[] {
  const commands = secretCommands(plan);
  return [
    `Generated by \`pulumi-embedded-connectors generate --account ${oneLine(plan.accountId)} --language ${language}\`:`,
    `adopts what the sub-account holds (${plan.connectors.length} connector(s)). No Password value is in this file;`,
    `the other fields' values are, as the service returns them to whoever holds the client secret: review them`,
    `before committing, and read any you treat as secret from a secret config key instead (config.requireSecret).`,
    `Set the Passwords' keys first (each command prompts for the value):`,
    ...(commands.length > 0
      ? commands.map(
          (line, i) => `  ${line}   # ${oneLine(plan.secrets[i].connectorName)}: ${oneLine(plan.secrets[i].label)}`,
        )
      : ["  (none)"]),
    ...then,
  ];
}

/** A connector's one-line comment: its name and type (service text, made one line). */
export function connectorComment(c: ConnectorPlan): string {
  return `${oneLine(c.name)} (${oneLine(c.supportedType)})`;
}
