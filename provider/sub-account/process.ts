// What this provider process knows of each sub-account, shared by both resources: the listing of
// its added connectors (read once per refresh, listing-cache.ts), the configurations fetched ahead
// for a refresh (read-ahead.ts), and the connectors this run's program declares.
import { processLocal } from "../runtime/process-local";
import { AddedConnectorsCache } from "./listing-cache";
import { ConfigurationReadAhead } from "./read-ahead";

/** List Added Connectors per client and sub-account, listed once (listing-cache.ts). */
export const addedListing = processLocal(
  "added-connectors-listing",
  () => new AddedConnectorsCache(),
  (cache) => cache.clear(),
);

/** A refresh's configuration reads, fetched ahead (read-ahead.ts). */
export const configurationReadAhead = processLocal(
  "configuration-read-ahead",
  () => new ConfigurationReadAhead(),
  (readAhead) => readAhead.clear(),
);

/**
 * The connectors (`<accountId>/<connectorId>`) whose AddedConnector this process checked: the
 * program of this run declares them, so they stay in their sub-accounts.
 */
export const declaredConnectors = processLocal(
  "declared-connectors",
  () => new Set<string>(),
  (declared) => declared.clear(),
);
