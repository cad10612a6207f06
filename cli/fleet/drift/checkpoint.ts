// A stack's last checkpoint, read from a self-managed backend directly (what PULUMI_BACKEND_URL,
// Pulumi.yaml's backend.url or the CLI's login names; the layout in store.ts), for the fleet's
// fast drift check. Exporting it through the CLI costs an engine start per stack; the object
// costs a read. Anything this reader does not know for certain (another backend, another state
// version, a checkpoint it cannot find) is a reason, and the stack goes to the engine.
import type { SecretsProviderState } from "./secrets-providers";

/** A resource of the checkpoint (deployment version 3), the fields the drift check reads. */
export interface StateResource {
  urn: string;
  type: string;
  custom?: boolean;
  id?: string;
  inputs?: Record<string, unknown>;
  outputs?: Record<string, unknown>;
  provider?: string;
  delete?: boolean;
  pendingReplacement?: boolean;
}

export interface Checkpoint {
  resources: StateResource[];
  /** Its secrets provider: the passphrase's salt, or a cloud provider's URL and encrypted data key. */
  secretsProvider?: SecretsProviderState;
}

export type CheckpointRead = { checkpoint: Checkpoint } | { reason: string };

/** The checkpoint of a parsed state file, or why the fast path cannot take it. */
export function fromDeployment(parsed: unknown): CheckpointRead {
  const state = parsed as {
    version?: unknown;
    checkpoint?: {
      latest?: {
        resources?: unknown;
        pending_operations?: unknown[];
        secrets_providers?: { type?: unknown; state?: { salt?: unknown; url?: unknown; encryptedkey?: unknown } };
      } | null;
    };
  } | null;
  if (state?.version !== 3)
    return { reason: `its state version is ${JSON.stringify(state?.version)}; the fast path reads version 3` };
  const latest = state.checkpoint?.latest;
  if (!latest) return { reason: "its checkpoint holds no deployment (never applied?)" };
  if (!Array.isArray(latest.resources)) return { reason: "its checkpoint's resources are not a list" };
  if ((latest.pending_operations ?? []).length > 0)
    return { reason: "its checkpoint has pending operations (an interrupted update)" };
  return { checkpoint: { resources: latest.resources as StateResource[], secretsProvider: secretsProviderOf(latest) } };
}

function secretsProviderOf(latest: {
  secrets_providers?: { type?: unknown; state?: { salt?: unknown; url?: unknown; encryptedkey?: unknown } };
}): SecretsProviderState | undefined {
  const { type, state } = latest.secrets_providers ?? {};
  if (type === "passphrase" && typeof state?.salt === "string") return { type, salt: state.salt };
  if (type === "cloud" && typeof state?.url === "string" && typeof state.encryptedkey === "string")
    return { type, url: state.url, encryptedKey: state.encryptedkey };
  return undefined;
}
