// The desired state of a chaos run: N AddedConnectors and M ConnectorConfigurations of the
// e2e "connectors" program, every Password field fed from a canary secret.
import { CATALOGUE, type CatalogueConnector } from "../../service/seed/catalogue";
import type { ProgramConfigValue } from "../e2e/harness";

export interface Desired {
  connectorIds: string[];
  configuredIds: string[];
  /** Stack config of the program (project namespace). */
  config: Record<string, ProgramConfigValue>;
  secretConfig: Record<string, ProgramConfigValue>;
}

type Field = CatalogueConnector["secretConfiguration"]["fields"][number];

function valueOf(field: Field): ProgramConfigValue | undefined {
  const options = Array.isArray(field.options) ? field.options.map((o: unknown) => String(o)) : [];
  switch (field.type) {
    case "Select":
      return options[0];
    case "Multi-Select":
      return options.slice(0, 1);
    case "Number":
      return typeof field.min === "number" ? field.min : 1;
    case "Date":
      return "2030-01-31";
    case "Password":
      return undefined; // from the canary secret, via secretRefs
    default:
      return "chaos-value";
  }
}

export function desiredState(connectors: number, configurations: number, canary: string): Desired {
  if (connectors > CATALOGUE.length) throw new Error(`at most ${CATALOGUE.length} connectors`);
  const chosen = CATALOGUE.slice(0, connectors);
  const connectorSpecs = chosen.map((c, i) => ({ key: `c${i}`, connectorId: c.connectorId }));
  const configurationSpecs = chosen.slice(0, configurations).map((c, i) => {
    const secretConfig: Record<string, ProgramConfigValue> = {};
    const secretRefs: Record<string, string> = {};
    for (const field of c.secretConfiguration.fields) {
      if (field.readonly) continue;
      if (field.type === "Password") {
        secretRefs[field.id] = "canary";
        continue;
      }
      const value = field.required ? valueOf(field) : undefined;
      if (value !== undefined) secretConfig[field.id] = value;
    }
    return { key: `cfg${i}`, connectorId: c.connectorId, after: `c${i}`, secretConfig, secretRefs };
  });
  return {
    connectorIds: chosen.map((c) => c.connectorId).sort(),
    configuredIds: configurationSpecs.map((s) => s.connectorId).sort(),
    config: { connectors: connectorSpecs, configurations: configurationSpecs },
    secretConfig: { secretValues: { canary } },
  };
}
