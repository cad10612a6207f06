// Catalogue lookups: getConnector, listConnectors, findConnector (+ their Output forms).
import type * as pulumi from "@pulumi/pulumi";
import { collect, outputForm, programAccountId, programClient } from "./common";
import type { CatalogueConnector, ConnectorFilters, GetConnectorResult, InputArgs, SupportedType } from "./types";

export interface GetConnectorArgs {
  /** The 16-character connector id. Required. */
  connectorId: string;
  /** Sub-account. Default: `embedded:accountId`, else EMBEDDED_ACCOUNT_ID. */
  accountId?: string;
}

/** One connector of the catalogue (Get Connector, view G). */
export async function getConnector(args: GetConnectorArgs): Promise<GetConnectorResult> {
  return programClient().getConnector(programAccountId(args.accountId), args.connectorId);
}
/** {@link getConnector} taking Inputs. */
export const getConnectorOutput: (args: InputArgs<GetConnectorArgs>) => pulumi.Output<GetConnectorResult> = outputForm(getConnector);

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
  const { accountId: explicit, ...filters } = args;
  const accountId = programAccountId(explicit);
  return { accountId, connectors: await collect(programClient().listConnectors(accountId, filters)) };
}
/** {@link listConnectors} taking Inputs. */
export const listConnectorsOutput: (args: InputArgs<ListConnectorsArgs>) => pulumi.Output<ListConnectorsResult> = outputForm(listConnectors);

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
  const accountId = programAccountId(args.accountId);
  const client = programClient();
  const sameSide = await collect(client.listConnectors(accountId, { supportedType: args.supportedType }));
  const exact = sameSide.filter((c) => c.name === args.name);
  if (exact.length === 1) return exact[0];
  const wanted = `connector named ${JSON.stringify(args.name)} with supportedType ${args.supportedType}`;
  if (exact.length > 1) {
    throw new Error(`more than one ${wanted}: ${exact.map((c) => c.connectorId).join(", ")}; use getConnector with an id`);
  }
  const near = nearMatches(args.name, sameSide.map((c) => c.name));
  const hint = near.length > 0 ? `; near matches: ${near.map((n) => JSON.stringify(n)).join(", ")}` : "";
  throw new Error(`no ${wanted} in the catalogue of sub-account ${accountId}${hint}`);
}
/** {@link findConnector} taking Inputs: `findConnectorOutput({ … }).connectorId` is an `Output<string>`. */
export const findConnectorOutput: (args: InputArgs<FindConnectorArgs>) => pulumi.Output<FindConnectorResult> = outputForm(findConnector);

/** Names containing the wanted one (or contained in it) case-insensitively, else the closest by edit distance. */
export function nearMatches(wanted: string, names: string[], limit = 5): string[] {
  const w = wanted.toLowerCase();
  const unique = [...new Set(names)];
  const containing = unique.filter((n) => n.toLowerCase().includes(w) || w.includes(n.toLowerCase()));
  const ranked = unique
    .map((n) => ({ n, d: editDistance(w, n.toLowerCase()) }))
    .filter(({ n, d }) => d <= Math.max(2, Math.floor(n.length / 3)))
    .sort((a, b) => a.d - b.d)
    .map(({ n }) => n);
  return [...new Set([...containing, ...ranked])].slice(0, limit);
}

function editDistance(a: string, b: string): number {
  let previous = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const current = [i];
    for (let j = 1; j <= b.length; j++) {
      current[j] = Math.min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + (a[i - 1] === b[j - 1] ? 0 : 1));
    }
    previous = current;
  }
  return previous[b.length];
}
