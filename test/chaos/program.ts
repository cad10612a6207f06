// The desired state of a chaos run: N AddedConnectors and M ConnectorConfigurations of the
// e2e "connectors" program, with a canary in every field type of secretConfig:
// Password, Text, Number and Date fields from canary secrets; Select and Multi-Select ones too
// where the seeded options hold a value found nowhere else in state or output (storage
// "region": "ap-southeast-2", "fileFormats": ["parquet"]; API-key "eventTypes": "purchase,
// identify", the comma-separated form), else their first option in plain text (not searched).
import { randomBytes, randomInt } from "node:crypto";
import { CATALOGUE, type CatalogueConnector } from "../../service/seed/catalogue";
import type { ProgramConfigValue } from "../e2e/harness";

export interface Desired {
  connectorIds: string[];
  configuredIds: string[];
  /** Stack config of the program (project namespace). */
  config: Record<string, ProgramConfigValue>;
  /** `secretValues`: every value in it (each item of a list or comma-separated string) is a canary. */
  secretConfig: Record<string, ProgramConfigValue>;
}

type Field = CatalogueConnector["secretConfiguration"]["fields"][number];

/** The canaries by key of `secretValues`, besides the Password one the caller gives. */
function canaryValues(): Record<string, ProgramConfigValue> {
  const two = (n: number) => String(n).padStart(2, "0");
  return {
    text: `canary-text-${randomBytes(6).toString("hex")}`,
    // In every Number field's range (1..5120 at least), as a string: check normalises it.
    number: `${1000 + randomInt(4000)}.${String(randomInt(100_000)).padStart(5, "0")}${1 + randomInt(9)}`,
    date: `2031-${two(1 + randomInt(12))}-${two(1 + randomInt(28))}T${two(randomInt(24))}:${two(randomInt(60))}:00.${String(randomInt(1_000_000)).padStart(6, "0")}Z`,
    select: "ap-southeast-2",
    multiList: ["parquet"],
    multiString: "purchase, identify",
  };
}

/** The key of `secretValues` a field is fed from, or undefined for a plain (unsearched) value. */
function canaryRef(field: Field): string | undefined {
  const options = (field.options ?? []).map(String);
  switch (field.type) {
    case "Password":
      return "canary";
    case "Text":
      return "text";
    case "Number":
      return "number";
    case "Date":
      return "date";
    case "Select":
      return options.includes("ap-southeast-2") ? "select" : undefined;
    case "Multi-Select":
      return options.includes("parquet")
        ? "multiList"
        : options.includes("purchase") && options.includes("identify")
          ? "multiString"
          : undefined;
    default:
      return undefined;
  }
}

/** Every canary of a desired state, item by item, to search for in clear. */
export function canariesOf(desired: Desired): string[] {
  const values = desired.secretConfig.secretValues;
  if (values === null || typeof values !== "object") return [];
  return Object.values(values).flatMap((v: unknown) =>
    Array.isArray(v)
      ? v.map(String)
      : String(v)
          .split(",")
          .map((s) => s.trim()),
  );
}

/** The catalogue with its kinds of secret configuration (by first field) taken in turn, so M configurations use them all. */
function kindsInTurn(): CatalogueConnector[] {
  const byKind = new Map<string, CatalogueConnector[]>();
  for (const c of CATALOGUE) {
    const kind = c.secretConfiguration.fields[0]?.id ?? "";
    byKind.set(kind, [...(byKind.get(kind) ?? []), c]);
  }
  const order = ["bucket", "apiKey", ...[...byKind.keys()].filter((k) => k !== "bucket" && k !== "apiKey")];
  const queues = order.map((k) => [...(byKind.get(k) ?? [])]);
  const out: CatalogueConnector[] = [];
  while (queues.some((q) => q.length > 0))
    for (const q of queues) if (q.length > 0) out.push(q.shift() as CatalogueConnector);
  return out;
}

export function desiredState(connectors: number, configurations: number, canary: string): Desired {
  if (connectors > CATALOGUE.length) throw new Error(`at most ${CATALOGUE.length} connectors`);
  const chosen = kindsInTurn().slice(0, connectors);
  const connectorSpecs = chosen.map((c, i) => ({ key: `c${i}`, connectorId: c.connectorId }));
  const configurationSpecs = chosen.slice(0, configurations).map((c, i) => {
    const secretConfig: Record<string, ProgramConfigValue> = {};
    const secretRefs: Record<string, string> = {};
    for (const field of c.secretConfiguration.fields) {
      if (field.readonly) continue;
      const ref = canaryRef(field);
      if (ref) secretRefs[field.id] = ref;
      else if (field.type === "Select") secretConfig[field.id] = String(field.options?.[0]);
      else if (field.type === "Multi-Select") secretConfig[field.id] = [String(field.options?.[0])];
    }
    return { key: `cfg${i}`, connectorId: c.connectorId, after: `c${i}`, secretConfig, secretRefs };
  });
  return {
    connectorIds: chosen.map((c) => c.connectorId).sort(),
    configuredIds: configurationSpecs.map((s) => s.connectorId).sort(),
    config: { connectors: connectorSpecs, configurations: configurationSpecs },
    secretConfig: { secretValues: { canary, ...canaryValues() } },
  };
}

interface ConnectorSpec {
  key: string;
  connectorId: string;
}

interface ConfigurationSpec {
  connectorId: string;
}

/** The desired state cut in `parts` stacks with disjoint connectors (every other connector). */
export function splitDesired(whole: Desired, parts: number): Desired[] {
  const connectors = (whole.config.connectors ?? []) as unknown as ConnectorSpec[];
  const configurations = (whole.config.configurations ?? []) as unknown as ConfigurationSpec[];
  return Array.from({ length: parts }, (_, part) => {
    const mine = connectors.filter((_, i) => i % parts === part);
    const ids = new Set(mine.map((c) => c.connectorId));
    const configs = configurations.filter((c) => ids.has(c.connectorId));
    return {
      connectorIds: [...ids].sort(),
      configuredIds: configs.map((c) => c.connectorId).sort(),
      config: { connectors: mine, configurations: configs },
      secretConfig: whole.secretConfig,
    };
  });
}
