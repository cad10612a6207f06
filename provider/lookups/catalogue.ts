// Catalogue lookups: getConnector, listConnectors, findConnector (+ their Output forms).
import type * as pulumi from "@pulumi/pulumi";
import { FIND_CONNECTOR, GET_CONNECTOR, LIST_CONNECTORS } from "../schema/functions";
import { inProgram } from "./program-context";
import { outputForm } from "./result-forms";
import * as lookups from "./lookups";
import type { CatalogueConnector, ConnectorFilters, GetConnectorResult, InputArgs, SupportedType } from "./types";

export interface GetConnectorArgs {
  /** The 16-character connector id. Required. */
  connectorId: string;
  /** Sub-account. Default: `embedded:accountId`, else EMBEDDED_ACCOUNT_ID. */
  accountId?: string;
}

/** One connector of the catalogue (Get Connector, view G). */
export async function getConnector(args: GetConnectorArgs): Promise<GetConnectorResult> {
  return inProgram(args, (ctx) => lookups.getConnector(ctx, args));
}
/** {@link getConnector} taking Inputs. */
export const getConnectorOutput: (args: InputArgs<GetConnectorArgs>) => pulumi.Output<GetConnectorResult> = outputForm(
  GET_CONNECTOR,
  getConnector,
);

export interface ListConnectorsArgs extends ConnectorFilters {
  /** Sub-account. Default: `embedded:accountId`, else EMBEDDED_ACCOUNT_ID. */
  accountId?: string;
}
export interface ListConnectorsResult {
  /** The sub-account whose catalogue this is. */
  accountId: string;
  /** Every page, in the service's order. */
  connectors: CatalogueConnector[];
}

/** The catalogue (List Connectors, view L), filtered by the service (no filter: everything), all pages. */
export async function listConnectors(args: ListConnectorsArgs = {}): Promise<ListConnectorsResult> {
  return inProgram(args, (ctx) => lookups.listConnectors(ctx, args));
}
/** {@link listConnectors} taking Inputs. */
export const listConnectorsOutput: (args: InputArgs<ListConnectorsArgs>) => pulumi.Output<ListConnectorsResult> =
  outputForm(LIST_CONNECTORS, listConnectors);

export interface FindConnectorArgs {
  /** The exact connector name (case-sensitive). Required. */
  name: string;
  /** `Source` or `Destination`. Required: a platform often has one of each. */
  supportedType: SupportedType;
  /** Sub-account. Default: `embedded:accountId`, else EMBEDDED_ACCOUNT_ID. */
  accountId?: string;
}

/** The result of `findConnector`: the catalogue connector found. */
export type FindConnectorResult = CatalogueConnector;

/** The one catalogue connector with this exact name and side; an error listing near matches otherwise. */
export async function findConnector(args: FindConnectorArgs): Promise<FindConnectorResult> {
  return inProgram(args, (ctx) => lookups.findConnector(ctx, args));
}
/** {@link findConnector} taking Inputs: `findConnectorOutput({ … }).connectorId` is an `Output<string>`. */
export const findConnectorOutput: (args: InputArgs<FindConnectorArgs>) => pulumi.Output<FindConnectorResult> =
  outputForm(FIND_CONNECTOR, findConnector);
