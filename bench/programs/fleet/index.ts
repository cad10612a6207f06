// The benchmark program: `count` AddedConnectors in one sub-account, the first half also
// with a ConnectorConfiguration, through the provider named by config `provider`:
//   this  — the package's resources (stack config embedded:*)
//   floor — a dynamic provider whose operations do nothing (the cost of the engine itself)
//   naive — a fresh token and connection per operation, one Get per read, one Add per create
//   plugin — the package's native plugin `embedded` (ec.embedded.*, the same stack config)
//   plugin-floor — a native plugin whose operations do nothing (bench/plugin-floor)
// `connectorIds` (JSON list) names the connectors; changing `secretVersion` rotates the
// apiKey of every configuration (an update of each).
import * as pulumi from "@pulumi/pulumi";
import * as ec from "pulumi-embedded-connectors";
import { FloorAddedConnector, FloorConfiguration } from "./floor";
import { NaiveAddedConnector, NaiveConfiguration } from "./naive";
import { PluginFloorAddedConnector, PluginFloorConfiguration } from "./plugin-floor";

const config = new pulumi.Config();
const provider = config.require("provider");
const connectorIds = config.requireObject<string[]>("connectorIds");
const secretVersion = config.require("secretVersion");

function secretConfig(i: number) {
  return {
    apiKey: pulumi.secret(`bench-key-${secretVersion}-${i}`),
    workspace: "bench",
    dataCenter: "EU",
    batchSize: 100,
  };
}

const name = (prefix: string, i: number) => `${prefix}${String(i).padStart(4, "0")}`;

connectorIds.forEach((connectorId, i) => {
  const configured = i < connectorIds.length / 2;
  switch (provider) {
    case "this": {
      const added = new ec.AddedConnector(name("c", i), { connectorId });
      if (configured)
        new ec.ConnectorConfiguration(name("cfg", i), {
          connectorId: added.connectorId,
          secretConfig: secretConfig(i),
        });
      break;
    }
    case "floor": {
      const added = new FloorAddedConnector(name("c", i), { connectorId });
      if (configured)
        new FloorConfiguration(name("cfg", i), { connectorId: added.connectorId, secretConfig: secretConfig(i) });
      break;
    }
    case "naive": {
      const added = new NaiveAddedConnector(name("c", i), { connectorId });
      if (configured)
        new NaiveConfiguration(name("cfg", i), { connectorId: added.connectorId, secretConfig: secretConfig(i) });
      break;
    }
    case "plugin": {
      const added = new ec.embedded.AddedConnector(name("c", i), { connectorId });
      if (configured)
        new ec.embedded.ConnectorConfiguration(name("cfg", i), {
          connectorId: added.connectorId,
          secretConfig: secretConfig(i),
        });
      break;
    }
    case "plugin-floor": {
      const added = new PluginFloorAddedConnector(name("c", i), { connectorId });
      if (configured)
        new PluginFloorConfiguration(name("cfg", i), { connectorId: added.connectorId, secretConfig: secretConfig(i) });
      break;
    }
    default:
      throw new Error(`unknown provider ${provider}: this, floor, naive, plugin or plugin-floor`);
  }
});
