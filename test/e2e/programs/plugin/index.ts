// The end-to-end program of the plugin `embedded`: declares what stack config asks for
// (./program-config.ts, shared with the dynamic provider's program), with the package imported
// by its name as a user's program does (`import { embedded } from …`).
//
// A provider is an explicit `embedded.Provider`; its clientSecret is the secret config value
// `secretValues[clientSecretRef]` (or the secret config string `clientSecretKey`) and its baseUrl defaults to the stack's `embedded:baseUrl`.
// Resources without `provider` use the default provider (stack config `embedded:*`).
// `find` looks the connector id up with `embedded.findConnectorOutput` through the resource's
// provider. `import` is the resource option of that name (an id `<accountId>/<connectorId>`).
// Every resource is exported with all its outputs, and the connector ids that `find` resolved
// as `foundConnectorIds`.
import * as pulumi from "@pulumi/pulumi";
import { embedded } from "pulumi-embedded-connectors";
import {
  accountIdOf,
  configurationIdOf,
  configurationSpecs,
  connectorSpecs,
  findArgsOf,
  providerSpecs,
  secretArgsOf,
  secretConfigOf,
  secretValues,
} from "./program-config";

const embeddedConfig = new pulumi.Config("embedded");

const providers: Record<string, embedded.Provider> = {};
for (const spec of providerSpecs) {
  providers[spec.key] = new embedded.Provider(spec.key, {
    baseUrl: spec.baseUrl ?? embeddedConfig.require("baseUrl"),
    clientId: spec.clientId,
    clientSecret: spec.clientSecretKey
      ? new pulumi.Config().requireSecret(spec.clientSecretKey)
      : secretValues.apply((values) => values[spec.clientSecretRef ?? ""]),
    accountId: spec.accountId,
    ...secretArgsOf(spec),
  });
}

function providerOf(key: string | undefined): embedded.Provider | undefined {
  if (key === undefined) {
    return undefined;
  }
  const provider = providers[key];
  if (!provider) {
    throw new Error(`no provider with key ${key}`);
  }
  return provider;
}

const found: Record<string, pulumi.Output<string>> = {};
const added: Record<string, embedded.AddedConnector> = {};
for (const spec of connectorSpecs) {
  const provider = providerOf(spec.provider);
  let connectorId: pulumi.Input<string> | undefined = spec.connectorId;
  if (spec.find) {
    found[spec.key] = embedded.findConnectorOutput(
      { ...findArgsOf(spec.find), ...(spec.accountId ? { accountId: spec.accountId } : {}) },
      { provider },
    ).connectorId;
    connectorId = found[spec.key];
  }
  if (connectorId === undefined) {
    throw new Error(`connector ${spec.key} needs connectorId or find`);
  }
  added[spec.key] = new embedded.AddedConnector(
    spec.key,
    { connectorId, accountId: spec.accountId, adoptExisting: spec.adoptExisting },
    { provider, retainOnDelete: spec.retainOnDelete, ...(spec.import ? { import: spec.import } : {}) },
  );
}

const configured: Record<string, embedded.ConnectorConfiguration> = {};
for (const spec of configurationSpecs) {
  const secretConfig = secretConfigOf(spec);
  configured[spec.key] = new embedded.ConnectorConfiguration(
    spec.key,
    {
      connectorId: spec.connectorId,
      accountId: accountIdOf(spec),
      configurationId: configurationIdOf(spec),
      name: spec.name,
      secretName: spec.secretName,
      secretConfig,
    },
    {
      provider: providerOf(spec.provider),
      dependsOn: spec.after && added[spec.after] ? [added[spec.after]] : [],
      ...(spec.import ? { import: spec.import } : {}),
    },
  );
}

export const connectors = added;
export const configurations = configured;
export const foundConnectorIds = found;
