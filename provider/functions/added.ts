// Sub-account lookups: listAddedConnectors, listSupportedConnectors, getConnectorConfiguration.
import type { AddedConnectorView, ConnectorConfigurationView, SupportedConnector } from "../client";
import { collect, outputForm, programAccountId, programClient, type AddedConnectorFilters } from "./common";

export type ListAddedConnectorsArgs = AddedConnectorFilters & {
  /** Sub-account. Default: `embedded:accountId`, else EMBEDDED_ACCOUNT_ID. */
  accountId?: string;
};
export interface ListAddedConnectorsResult {
  accountId: string;
  /** Every page (view A), with connection counts. */
  connectors: AddedConnectorView[];
}

/** The connectors added to a sub-account (List Added Connectors), all pages. */
export async function listAddedConnectors(args: ListAddedConnectorsArgs = {}): Promise<ListAddedConnectorsResult> {
  const { accountId: explicit, ...filters } = args;
  const accountId = programAccountId(explicit);
  return { accountId, connectors: await collect(programClient().listAddedConnectors(accountId, filters)) };
}
export const listAddedConnectorsOutput = outputForm(listAddedConnectors);

export interface ListSupportedConnectorsArgs {
  /** The given connector: a source (→ its destinations) or a destination (→ its sources). Required. */
  connectorId: string;
  /** Sub-account. Default: `embedded:accountId`, else EMBEDDED_ACCOUNT_ID. */
  accountId?: string;
}
export interface ListSupportedConnectorsResult {
  accountId: string;
  connectorId: string;
  /** The connectors that can be paired with it (view S), all pages. */
  connectors: SupportedConnector[];
}

export async function listSupportedConnectors(args: ListSupportedConnectorsArgs): Promise<ListSupportedConnectorsResult> {
  const accountId = programAccountId(args.accountId);
  const connectors = await collect(programClient().listSupportedConnectors(accountId, args.connectorId));
  return { accountId, connectorId: args.connectorId, connectors };
}
export const listSupportedConnectorsOutput = outputForm(listSupportedConnectors);

export interface GetConnectorConfigurationArgs {
  /** Any catalogue connector, added or not. Required. */
  connectorId: string;
  /** Sub-account. Default: `embedded:accountId`, else EMBEDDED_ACCOUNT_ID. */
  accountId?: string;
}
type Descriptor = ConnectorConfigurationView["configuration"][number];
export interface GetConnectorConfigurationResult {
  accountId: string;
  connectorId: string;
  /** The first secret configuration's id (the one ConnectorConfiguration saves). */
  configurationId: string | undefined;
  configured: boolean;
  /** Unix seconds; 0 when never configured. */
  lastUpdated: number;
  secretName: string | undefined;
  editable: boolean;
  env: string;
  /** Descriptors of the secret fields; Password fields never carry a value. */
  fields: Descriptor[];
  /** Descriptors of the connection-level fields. */
  connectionFields: Descriptor[];
}

/** Field descriptors and non-secret state of a connector's configuration. */
export async function getConnectorConfiguration(args: GetConnectorConfigurationArgs): Promise<GetConnectorConfigurationResult> {
  const accountId = programAccountId(args.accountId);
  const view = await programClient().getConfiguration(accountId, args.connectorId);
  const first = view.secretConfig[0];
  return {
    accountId,
    connectorId: args.connectorId,
    configurationId: first?.configurationId,
    configured: view.configured,
    lastUpdated: view.lastUpdated,
    secretName: view.secretName ?? first?.secretName,
    editable: view.editable,
    env: view.env,
    // Defence in depth: never hand on a Password value even if a service sent one.
    fields: (first?.configuration ?? view.configuration).map(hidePassword),
    connectionFields: (view.connectionConfig[0]?.configuration ?? []).map(hidePassword),
  };
}
export const getConnectorConfigurationOutput = outputForm(getConnectorConfiguration);

function hidePassword(field: Descriptor): Descriptor {
  if (field.type !== "Password" || field.value === undefined) return field;
  return { ...field, value: undefined };
}
