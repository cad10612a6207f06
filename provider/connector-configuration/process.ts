// ConnectorConfiguration's machinery of one provider process: the field descriptors of each
// connector, fetched once (check validates every configuration against them; failures are not kept).
import type { ConnectorConfigurationView, EmbeddedClient } from "../client";
import { processLocal } from "../runtime/process-local";
import { currentClient } from "../runtime/runtime";

const descriptors = processLocal(
  "configuration-descriptors",
  () => new Map<string, Promise<ConnectorConfigurationView>>(),
  (cache) => cache.clear(),
);

/** Configuration of a connector (descriptors), fetched once per process; failures are not cached. */
export function cachedConfiguration(
  client: EmbeddedClient,
  baseUrl: string,
  accountId: string,
  connectorId: string,
): Promise<ConnectorConfigurationView> {
  const key = `${baseUrl}|${accountId}|${connectorId}`;
  const cache = descriptors();
  let pending = cache.get(key);
  if (!pending) {
    pending = client.getConfiguration(accountId, connectorId);
    cache.set(key, pending);
    pending.catch(() => cache.delete(key));
  }
  return pending;
}

/** cachedConfiguration of a connector, with the client of this call. */
export function currentConfiguration(accountId: string, connectorId: string): Promise<ConnectorConfigurationView> {
  const { client, settings } = currentClient();
  return cachedConfiguration(client, settings.baseUrl, accountId, connectorId);
}
