// The third host: the provider's own operations run inside another process, with no engine, as
// the engine's `pulumi refresh --preview-only` runs them through the plugin. `fleet drift`'s fast
// path calls this module and nothing else of the provider's internals: the same Read and Diff
// (added-connector/steps.ts, connector-configuration/steps.ts), each stack in the settings scope
// of its own provider's arguments (runtime.ts withConfig), so customers run side by side.
import * as addedConnector from "../../added-connector/steps";
import * as connectorConfiguration from "../../connector-configuration/steps";
import { deriveDigestKey } from "../../connector-configuration/field-digests";
import { currentClient, useHost, withConfig } from "../../runtime/runtime";
import { splitId } from "../../schema/resource-ids";
import { addedListing } from "../../sub-account/process";
import { ADDED_CONNECTOR } from "../../schema/added-connector";
import { CONNECTOR_CONFIGURATION, DIGEST_SALT_INPUT } from "../../schema/connector-configuration";
import { token } from "../../schema/package-schema";
import { inputOnlyKeys } from "../../schema/secrets";
import { configSourceOf } from "../plugin/provider-config";
import { PLUGIN_VERSION } from "../../schema/plugin-release";

type Props = Record<string, unknown>;

/** The plugin's type tokens, as a checkpoint names its resources. */
export const RESOURCE_TOKENS = {
  addedConnector: token(ADDED_CONNECTOR.name),
  connectorConfiguration: token(CONNECTOR_CONFIGURATION.name),
} as const;
export { DIGEST_SALT_INPUT, PLUGIN_VERSION };

/** A resource as its stack's last checkpoint holds it (a ConnectorConfiguration's salt decrypted). */
export interface StoredResource {
  type: string;
  id?: string;
  inputs?: Props;
  outputs?: Props;
}

/**
 * What a preview-only refresh finds of one resource: `gone` (the engine would drop it), or the
 * outputs the engine would store (`news`) and whether its Diff against the stored inputs then
 * reports a change. A ConnectorConfiguration's stored secretConfig stays encrypted: the digests
 * its last apply recorded stand for it (diffByDigests, the same rules as diff).
 */
export async function previewRefresh(
  resource: StoredResource,
): Promise<{ gone: true } | { gone: false; news: Props; changed: boolean }> {
  const id = resource.id ?? "";
  const olds = resource.outputs ?? {};
  const inputs = resource.inputs ?? {};
  const isAdded = resource.type === RESOURCE_TOKENS.addedConnector;
  const read = isAdded ? await addedConnector.read(id, olds) : await connectorConfiguration.read(id, olds, inputs);
  if (!read.id) return { gone: true };
  const inputOnly = inputOnlyKeys(isAdded ? ADDED_CONNECTOR : CONNECTOR_CONFIGURATION);
  const news = Object.fromEntries(Object.entries(read.props ?? {}).filter(([k]) => !inputOnly.includes(k)));
  if (isAdded)
    return { gone: false, news, changed: (await addedConnector.diff(read.id, news, inputs)).changes === true };
  const { secretConfig: _encrypted, ...plainInputs } = inputs;
  const applied = (olds.fieldDigests ?? {}) as Record<string, string>;
  const diff = await connectorConfiguration.diffByDigests(read.id, news, plainInputs, applied);
  return { gone: false, news, changed: diff.changes === true };
}

/** Runs `operation` with a provider's arguments (its checkpoint inputs, secrets decrypted) as the settings of every operation it starts. */
export function withProviderArguments<T>(args: Props, operation: () => Promise<T>): Promise<T> {
  return withConfig(configSourceOf(args), operation);
}

/** Routes the provider's warnings of this process to `warn` (as the plugin's go to the engine). */
export function useInProcessHost(warn: (message: string) => void): void {
  useHost("plugin", (message) => warn(message));
}

/**
 * Derives the digests' key of a client secret off the event loop (several customers at once), and
 * returns its id: the `digestKeyId` a state written under it holds (before salts) or is keyed from.
 */
export async function prepareDigestKey(clientSecret: string): Promise<string> {
  return (await deriveDigestKey(clientSecret)).id;
}

/** A resource's sub-account and connector, from its id (`<accountId>/<connectorId>`). */
export function connectorOfId(id: string): { accountId: string; connectorId: string } {
  return splitId(id);
}

/**
 * The connectors added to a sub-account, from the same listing the refresh's reads of it used
 * (the process's snapshot, listing-cache.ts: no request when a read listed it already). The
 * listing is complete or it throws (pagination.ts refuses a list it cannot prove whole), so a
 * connector it holds is there; what it lacks is not concluded from here.
 */
export async function addedConnectorsOf(accountId: string): Promise<{ connectorId: string; name: string }[]> {
  const { client } = currentClient();
  const snapshot = await addedListing().snapshot(client, accountId);
  return [...snapshot.values()].map((v) => ({ connectorId: v.connectorId, name: v.name }));
}
