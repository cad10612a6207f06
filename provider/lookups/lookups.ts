// The lookup functions' work, shared by both hosts: the program process of the dynamic
// provider (connectors.ts, sub-account.ts: settings from the stack config) and the plugin's
// Invoke (settings from its provider). Nothing here loads @pulumi/pulumi.
import { collect, type ConnectorConfigurationView, type EmbeddedClient } from "../client";
import { isSecretField, type SecretTypesSource } from "../schema/secret-fields";
import { argumentShown } from "./secret-arguments";
import { namedLookup } from "./lookup-name";
import type {
  AddedConnectorSummary,
  CatalogueConnector,
  ConnectorFilters,
  GetConnectorConfigurationResult,
  GetConnectorResult,
  SupportedConnector,
  SupportedType,
} from "./types";

/** Where a lookup runs: the client of its settings, and the default sub-account rule. */
export interface LookupContext {
  client: EmbeddedClient;
  /** The explicit sub-account, else the default setting; throws SettingsError when neither. */
  accountId(explicit: string | undefined): string;
  /** The arguments that arrived secret: a refusal names them, never their values. */
  secretArguments?: ReadonlySet<string>;
}

export const getConnector = namedLookup(
  "getConnector",
  async function getConnector(
    ctx: LookupContext,
    args: { connectorId: string; accountId?: string },
  ): Promise<GetConnectorResult> {
    return ctx.client.getConnector(ctx.accountId(args.accountId), args.connectorId);
  },
);

export const listConnectors = namedLookup(
  "listConnectors",
  async function listConnectors(
    ctx: LookupContext,
    args: ConnectorFilters & { accountId?: string },
  ): Promise<{ accountId: string; connectors: CatalogueConnector[] }> {
    const { accountId: explicit, ...filters } = args;
    const accountId = ctx.accountId(explicit);
    return { accountId, connectors: await collect(ctx.client.listConnectors(accountId, filters)) };
  },
);

export const findConnector = namedLookup(
  "findConnector",
  async function findConnector(
    ctx: LookupContext,
    args: { name: string; supportedType: SupportedType; accountId?: string },
  ): Promise<CatalogueConnector> {
    const accountId = ctx.accountId(args.accountId);
    const sameSide = await collect(ctx.client.listConnectors(accountId, { supportedType: args.supportedType }));
    // The service's filter decides the side; a value of its own (a connector usable on both sides)
    // that it lists under the filter is kept, one of the other side is not (docs/service-contract.md).
    const other = args.supportedType === "Source" ? "Destination" : "Source";
    const exact = sameSide.filter((c) => c.name === args.name && c.supportedType !== other);
    if (exact.length === 1) return exact[0];
    const secret = ctx.secretArguments ?? new Set<string>();
    const wanted =
      `connector named ${argumentShown("name", args.name, secret)} ` +
      `with supportedType ${secret.has("supportedType") ? argumentShown("supportedType", "", secret) : args.supportedType}`;
    if (exact.length > 1) {
      throw new Error(
        `more than one ${wanted}: ${exact.map((c) => c.connectorId).join(", ")}; use getConnector with an id`,
      );
    }
    // Near matches of a secret name would tell what it is like.
    const near = secret.has("name")
      ? []
      : nearMatches(
          args.name,
          sameSide.map((c) => c.name),
        );
    const hint = near.length > 0 ? `; near matches: ${near.map((n) => JSON.stringify(n)).join(", ")}` : "";
    const account = secret.has("accountId") ? argumentShown("accountId", "", secret) : accountId;
    throw new Error(
      `no ${wanted} in the catalogue of sub-account ${account}${hint}; ` +
        "the name must be the catalogue's, exactly (listConnectors lists them)",
    );
  },
);

export const listAddedConnectors = namedLookup(
  "listAddedConnectors",
  async function listAddedConnectors(
    ctx: LookupContext,
    args: ConnectorFilters & { accountId?: string },
  ): Promise<{ accountId: string; connectors: AddedConnectorSummary[] }> {
    const { accountId: explicit, ...filters } = args;
    const accountId = ctx.accountId(explicit);
    return {
      accountId,
      connectors: await collect(ctx.client.listAddedConnectors(accountId, filters, { allAtOnce: true })),
    };
  },
);

export const listSupportedConnectors = namedLookup(
  "listSupportedConnectors",
  async function listSupportedConnectors(
    ctx: LookupContext,
    args: { connectorId: string; accountId?: string },
  ): Promise<{ accountId: string; connectorId: string; connectors: SupportedConnector[] }> {
    const accountId = ctx.accountId(args.accountId);
    const connectors = await collect(ctx.client.listSupportedConnectors(accountId, args.connectorId));
    return { accountId, connectorId: args.connectorId, connectors };
  },
);

export const getConnectorConfiguration = namedLookup(
  "getConnectorConfiguration",
  async function getConnectorConfiguration(
    ctx: LookupContext,
    args: { connectorId: string; accountId?: string },
  ): Promise<GetConnectorConfigurationResult> {
    const accountId = ctx.accountId(args.accountId);
    const view = await ctx.client.getConfiguration(accountId, args.connectorId);
    const first = view.secretConfig[0];
    return {
      accountId,
      connectorId: args.connectorId,
      configurationId: first?.configurationId,
      configured: view.configured,
      lastUpdated: view.lastUpdated ?? 0,
      secretName: view.secretName ?? first?.secretName,
      editable: view.editable,
      env: view.env,
      // Defence in depth: never hand on a secret field's value (a Password a service sent anyway, a mask).
      fields: (first?.configuration ?? view.configuration).map((f) => withoutSecretValue(f, ctx.client.profile)),
      connectionFields: (view.connectionConfig[0]?.configuration ?? []).map((f) =>
        withoutSecretValue(f, ctx.client.profile),
      ),
    };
  },
);

type Descriptor = ConnectorConfigurationView["configuration"][number];

function withoutSecretValue(field: Descriptor, profile: SecretTypesSource): Descriptor {
  if (field.value === undefined || !isSecretField(field, profile)) return field;
  return { ...field, value: undefined };
}

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
