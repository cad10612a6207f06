// ConnectorConfiguration's inputs and outputs as the implementation reads and builds them (pure:
// handed the view, the inputs and the key), split from connector-configuration-impl.ts, which
// re-exports the schemas.
import { z } from "zod";
import { inputSchema } from "../schema/checks";
import { CONNECTOR_CONFIGURATION } from "../schema/connector-configuration";
import type { ValuesOf } from "../schema/property";
import type { ConnectorConfigurationView } from "../client";
import { driftText } from "./drift";
import { digestsOfInputs, hiddenFields, liveDigests } from "./field-digests";
import { keyLost, stateKey, type StateKey } from "./digest-salt";
import type { SecretTypesSource } from "../schema/secret-fields";

type Props = Record<string, unknown>;

/** The inputs after check() (from the definition). */
export const configurationInputs = inputSchema(CONNECTOR_CONFIGURATION.inputs);
export type Inputs = ValuesOf<typeof CONNECTOR_CONFIGURATION.inputs>;

export const configurationOutputs = z.looseObject({
  connectorId: z.string(),
  accountId: z.string(),
  configurationId: z.string(),
  name: z.string().nullish(),
  secretName: z.string().nullish(),
  configured: z.boolean(),
  /** The service's lastUpdated as last read. */
  lastUpdated: z.number(),
  /** The lastUpdated our own last write produced; differs from lastUpdated after an out-of-band write. */
  appliedLastUpdated: z.number(),
  /** Field id → keyed digest (field-digests.ts); absent in a state written before them. */
  fieldDigests: z.record(z.string(), z.string()).optional(),
  digestKeyId: z.string().optional(),
  /** The dynamic host's secret salt of the digests' key (digest-salt.ts); the plugin's is an input. */
  digestSalt: z.string().optional(),
  /** Which recipe keyed the digests when embedded:digestKey is mixed in (digest-salt.ts); absent otherwise. */
  digestRecipe: z.string().optional(),
  drift: z.string().optional(),
});
export type ConfigurationOutputs = z.infer<typeof configurationOutputs>;

/**
 * The outputs of a write of ours: the view written, the inputs, and the digests under `key`
 * (its salt an output only on the dynamic host: digest-salt.ts). `described`: the view whose
 * descriptors name the secret fields (read before the write), which get no digest; `profile`
 * the service profile in force (the secret types it adds).
 */
export function outputsOf(
  view: ConnectorConfigurationView,
  inputs: Inputs & { accountId: string },
  { key, outputSalt, recipe }: StateKey,
  profile: SecretTypesSource,
  described: ConnectorConfigurationView = view,
): ConfigurationOutputs {
  const passwords = new Set([...hiddenFields(described, profile), ...hiddenFields(view, profile)]);
  const first = view.secretConfig[0];
  return {
    connectorId: inputs.connectorId,
    accountId: inputs.accountId,
    configurationId: first?.configurationId ?? inputs.configurationId ?? "",
    name: inputs.name ?? first?.name ?? null,
    secretName: view.secretName ?? first?.secretName ?? inputs.secretName ?? null,
    configured: view.configured,
    // 0 when the service sends none: drift is then told by the field digests alone.
    lastUpdated: view.lastUpdated ?? 0,
    appliedLastUpdated: view.lastUpdated ?? 0,
    fieldDigests: digestsOfInputs(key, inputs.accountId, inputs.connectorId, inputs.secretConfig, passwords),
    digestKeyId: key.id,
    ...(outputSalt !== undefined ? { digestSalt: outputSalt } : {}),
    ...(recipe !== undefined ? { digestRecipe: recipe } : {}),
    drift: "", // our own write: what the service holds is what was applied
  };
}

/**
 * The digests as the service holds the configuration now (a Password's kept: it is never
 * returned), and the drift they show against the state. A state under another client secret
 * (or from before the digests) keeps no Password digest: diff then has the update write it.
 */
export function refreshedDigests(
  old: ConfigurationOutputs | undefined,
  view: ConnectorConfigurationView,
  accountId: string,
  connectorId: string,
  clientSecret: string,
  inputSalt: string | undefined,
  profile: SecretTypesSource,
  digestKey?: string,
): Props {
  // The key of the state's digests (an older state's: no false drift), digest-salt.ts.
  const found = stateKey(clientSecret, old, inputSalt, digestKey);
  if (old?.fieldDigests !== undefined && keyLost(old, found)) return keptDigests(old, old.fieldDigests, view, profile);
  const { key, outputSalt, recipe } = found;
  const sameKey = old?.fieldDigests !== undefined && old.digestKeyId === key.id;
  const stored = sameKey ? (old?.fieldDigests ?? {}) : {};
  const fieldDigests = liveDigests(key, accountId, connectorId, view, stored, profile);
  const before = {
    lastUpdated: old?.lastUpdated ?? -1,
    appliedLastUpdated: old?.appliedLastUpdated ?? -1,
    drift: old?.drift,
    fieldDigests: stored,
    sameKey,
    beforeDigests: old !== undefined && old.fieldDigests === undefined,
  };
  const salt = outputSalt !== undefined ? { digestSalt: outputSalt } : {};
  const marker = recipe !== undefined ? { digestRecipe: recipe } : {};
  const drift = driftText(before, view, fieldDigests, profile);
  return { fieldDigests, digestKeyId: key.id, ...salt, ...marker, drift };
}

/**
 * A state keyed by an embedded:digestKey the settings no longer reproduce (digest-salt.ts
 * keyLost): its digests and key stay as they are (re-keying them here would show every field
 * changed), and drift is told by lastUpdated alone, in words, until the next write re-keys them.
 */
function keptDigests(
  old: ConfigurationOutputs,
  fieldDigests: Record<string, string>,
  view: ConnectorConfigurationView,
  profile: SecretTypesSource,
): Props {
  const before = {
    lastUpdated: old.lastUpdated,
    appliedLastUpdated: old.appliedLastUpdated,
    drift: old.drift,
    fieldDigests,
    sameKey: false,
    digestKeyChanged: true,
  };
  const { digestKeyId, digestSalt, digestRecipe } = old;
  return { fieldDigests, digestKeyId, digestSalt, digestRecipe, drift: driftText(before, view, fieldDigests, profile) };
}
