// Sub-account lookups: listAddedConnectors, listSupportedConnectors, getConnectorConfiguration.
import type * as pulumi from "@pulumi/pulumi";
import { GET_CONNECTOR_CONFIGURATION, LIST_ADDED_CONNECTORS, LIST_SUPPORTED_CONNECTORS } from "../schema/functions";
import { inProgram } from "./program-context";
import { outputForm, promiseResult } from "./result-forms";
import * as lookups from "./lookups";
import type {
  AddedConnectorSummary,
  ConnectorFilters,
  GetConnectorConfigurationResult,
  InputArgs,
  SupportedConnector,
} from "./types";

export type { GetConnectorConfigurationResult } from "./types";

export interface ListAddedConnectorsArgs extends ConnectorFilters {
  /** Sub-account. Default: `embedded:accountId`, else EMBEDDED_ACCOUNT_ID. */
  accountId?: string;
}
export interface ListAddedConnectorsResult {
  /** The sub-account listed. */
  accountId: string;
  /** Every page (view A), with connection counts. */
  connectors: AddedConnectorSummary[];
}

/** The connectors added to a sub-account (List Added Connectors), all pages. */
export async function listAddedConnectors(args: ListAddedConnectorsArgs = {}): Promise<ListAddedConnectorsResult> {
  return inProgram(args, (ctx) => lookups.listAddedConnectors(ctx, args));
}
/** {@link listAddedConnectors} taking Inputs. */
export const listAddedConnectorsOutput: (
  args: InputArgs<ListAddedConnectorsArgs>,
) => pulumi.Output<ListAddedConnectorsResult> = outputForm(LIST_ADDED_CONNECTORS, listAddedConnectors);

export interface ListSupportedConnectorsArgs {
  /** The given connector: a source (→ its destinations) or a destination (→ its sources). Required. */
  connectorId: string;
  /** Sub-account. Default: `embedded:accountId`, else EMBEDDED_ACCOUNT_ID. */
  accountId?: string;
}
export interface ListSupportedConnectorsResult {
  /** The sub-account asked about. */
  accountId: string;
  /** The given connector. */
  connectorId: string;
  /** The connectors that can be paired with it (view S), all pages. */
  connectors: SupportedConnector[];
}

/** The connectors that can be paired with a given one (List Supported Connectors), all pages. */
export async function listSupportedConnectors(
  args: ListSupportedConnectorsArgs,
): Promise<ListSupportedConnectorsResult> {
  return inProgram(args, (ctx) => lookups.listSupportedConnectors(ctx, args));
}
/** {@link listSupportedConnectors} taking Inputs. */
export const listSupportedConnectorsOutput: (
  args: InputArgs<ListSupportedConnectorsArgs>,
) => pulumi.Output<ListSupportedConnectorsResult> = outputForm(LIST_SUPPORTED_CONNECTORS, listSupportedConnectors);

export interface GetConnectorConfigurationArgs {
  /** Any catalogue connector, added or not. Required. */
  connectorId: string;
  /** Sub-account. Default: `embedded:accountId`, else EMBEDDED_ACCOUNT_ID. */
  accountId?: string;
}

function withValues(args: GetConnectorConfigurationArgs): Promise<GetConnectorConfigurationResult> {
  return inProgram(args, (ctx) => lookups.getConnectorConfiguration(ctx, args));
}

/**
 * Field descriptors and state of a connector's configuration, without the saved values: a
 * Promise cannot keep them secret. {@link getConnectorConfigurationOutput} has them, as a secret.
 */
export async function getConnectorConfiguration(
  args: GetConnectorConfigurationArgs,
): Promise<GetConnectorConfigurationResult> {
  return promiseResult(GET_CONNECTOR_CONFIGURATION, await withValues(args));
}
/**
 * {@link getConnectorConfiguration} taking Inputs, with each field's saved value (never a
 * Password's): the result is a secret Output. It runs in the program process, so the values
 * never cross the engine.
 */
export const getConnectorConfigurationOutput: (
  args: InputArgs<GetConnectorConfigurationArgs>,
) => pulumi.Output<GetConnectorConfigurationResult> = outputForm(GET_CONNECTOR_CONFIGURATION, withValues);
