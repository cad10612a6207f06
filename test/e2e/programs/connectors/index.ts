// The end-to-end program of the dynamic provider: declares what stack config `connectors` and
// `configurations` (JSON) ask for (./program-config.ts, shared with the plugin's program),
// with the package imported by its name as a user's program does. (A plain value in stack
// config would not do for `envRefs`: the engine hands all stack config to the dynamic provider
// and keeps it in the state as the provider's inputs.) Every resource is exported with all its
// outputs.
import * as ec from "pulumi-embedded-connectors";
import {
  accountIdOf,
  configurationIdOf,
  configurationSpecs,
  connectorSpecs,
  findArgsOf,
  secretConfigOf,
} from "./program-config";

const added: Record<string, ec.AddedConnector> = {};
for (const spec of connectorSpecs) {
  // `find`: the connector id looked up by name (the name maybe a secret).
  const connectorId = spec.find
    ? ec.findConnectorOutput(findArgsOf(spec.find)).connectorId
    : (spec.connectorId as string);
  added[spec.key] = new ec.AddedConnector(
    spec.key,
    { connectorId, accountId: spec.accountId, adoptExisting: spec.adoptExisting },
    { retainOnDelete: spec.retainOnDelete },
  );
}

const configured: Record<string, ec.ConnectorConfiguration> = {};
for (const spec of configurationSpecs) {
  const secretConfig = secretConfigOf(spec);
  configured[spec.key] = new ec.ConnectorConfiguration(
    spec.key,
    {
      connectorId: spec.connectorId,
      accountId: accountIdOf(spec),
      configurationId: configurationIdOf(spec),
      name: spec.name,
      secretName: spec.secretName,
      secretConfig,
      heldByService: spec.heldByService,
    },
    { dependsOn: spec.after && added[spec.after] ? [added[spec.after]] : [] },
  );
}

export const connectors = added;
export const configurations = configured;
