// Which stacks the fast drift check can take, and what it needs of each: the plugin's
// resources of one `embedded` provider of this version, states as the last apply wrote them.
// Everything else goes to the engine, with the reason in the report.
import { DIGEST_SALT_INPUT, PLUGIN_VERSION, RESOURCE_TOKENS } from "../../../provider/hosts/in-process/refresh";
import type { Checkpoint, StateResource } from "./checkpoint";
import type { SecretsProviderState } from "./secrets-providers";

export const ADDED_CONNECTOR = RESOURCE_TOKENS.addedConnector;
export const CONNECTOR_CONFIGURATION = RESOURCE_TOKENS.connectorConfiguration;
const PROVIDER = "pulumi:providers:embedded";
/** The engine's mark of an encrypted value in a state file. */
const SECRET_SIG = "4dabf18193072939515e22adb298388d";

export interface SecretValue {
  ciphertext: string;
}

export function isSecretValue(value: unknown): value is SecretValue {
  return typeof value === "object" && value !== null && SECRET_SIG in value;
}

function holdsSecret(value: unknown): boolean {
  if (isSecretValue(value)) return true;
  if (Array.isArray(value)) return value.some(holdsSecret);
  if (typeof value === "object" && value !== null) return Object.values(value).some(holdsSecret);
  return false;
}

export interface StackPlan {
  stack: string;
  /** The provider's inputs, `clientSecret` left as it is stored (a secret, text, or absent). */
  providerInputs: Record<string, unknown>;
  /** The state's secrets provider (to decrypt clientSecret and the digest salts). */
  secretsProvider?: SecretsProviderState;
  resources: StateResource[];
  /** The digest key ids the stack's configurations were last written under. */
  digestKeyIds: Set<string>;
  /** Whether a configuration's salt (the input's, or an older state's digestSalt output) is a secret to decrypt. */
  salted?: boolean;
}

export type PlanOutcome = { plan: StackPlan } | { reason: string };

/** Why the fast path cannot take a ConnectorConfiguration's state, if it cannot. */
function configurationProblem(r: StateResource): string | undefined {
  const o = r.outputs ?? {};
  if (typeof o.fieldDigests !== "object" || o.fieldDigests === null || typeof o.digestKeyId !== "string")
    return `${r.urn}: its state is from before field digests`;
  if (o.lastUpdated !== o.appliedLastUpdated || (typeof o.drift === "string" && o.drift !== ""))
    return `${r.urn}: its state was refreshed after its last apply (the fast path compares with the last apply's digests)`;
  return undefined;
}

export function planStack(stack: string, checkpoint: Checkpoint): PlanOutcome {
  const providers = new Map<string, StateResource>();
  for (const r of checkpoint.resources) if (r.type === PROVIDER) providers.set(`${r.urn}::${r.id ?? ""}`, r);
  const resources: StateResource[] = [];
  const used = new Set<string>();
  const digestKeyIds = new Set<string>();
  let salted = false;
  for (const r of checkpoint.resources) {
    if (r.delete || r.pendingReplacement) return { reason: `${r.urn} is pending deletion or replacement` };
    if (r.type === "pulumi:pulumi:Stack" || r.type === PROVIDER || r.custom === false) continue;
    if (r.type !== ADDED_CONNECTOR && r.type !== CONNECTOR_CONFIGURATION) {
      const what = r.type.startsWith("pulumi-nodejs:dynamic/")
        ? "a dynamic resource (the fast path reads the plugin's resources)"
        : "another provider's resource";
      return { reason: `${r.urn} is ${what}` };
    }
    if (!r.id || !r.provider || !providers.has(r.provider)) return { reason: `${r.urn} has no id or provider` };
    // A configuration's salt is a secret (connector-configuration/digest-salt.ts: an input, or an older state's
    // digestSalt output): the one secret of a resource the fast path decrypts (credentials.ts),
    // with the stack's own key.
    const salt = r.type === CONNECTOR_CONFIGURATION ? r.outputs?.digestSalt : undefined;
    const inputSalt = r.type === CONNECTOR_CONFIGURATION ? r.inputs?.[DIGEST_SALT_INPUT] : undefined;
    if (isSecretValue(salt) || isSecretValue(inputSalt)) salted = true;
    if (
      holdsSecret({ ...r.outputs, ...(isSecretValue(salt) ? { digestSalt: undefined } : {}) }) ||
      holdsSecret({
        ...r.inputs,
        secretConfig: undefined,
        ...(isSecretValue(inputSalt) ? { [DIGEST_SALT_INPUT]: 0 } : {}),
      })
    )
      return { reason: `${r.urn} holds a secret the fast path would have to decrypt` };
    if (r.type === CONNECTOR_CONFIGURATION) {
      const problem = configurationProblem(r);
      if (problem) return { reason: problem };
      digestKeyIds.add(r.outputs?.digestKeyId as string);
    }
    used.add(r.provider);
    resources.push(r);
  }
  if (used.size > 1) return { reason: "its resources use more than one embedded provider" };
  const provider = used.size === 1 ? providers.get([...used][0]) : undefined;
  const inputs = { ...(provider?.inputs ?? {}) };
  if (provider && inputs.version !== PLUGIN_VERSION)
    return {
      reason: `its provider is embedded ${String(inputs.version)}, this fleet command runs ${PLUGIN_VERSION}`,
    };
  // embedded:digestKey keys only the dynamic provider's digests (connector-configuration/digest-salt.ts): the
  // plugin's, which this path computes, never read it, so it is neither decrypted nor passed on.
  delete inputs.digestKey;
  if (holdsSecret({ ...inputs, clientSecret: undefined }))
    return { reason: "its provider holds a secret setting other than clientSecret" };
  delete inputs.version;
  delete inputs.pluginDownloadURL;
  return {
    plan: {
      stack,
      providerInputs: inputs,
      secretsProvider: checkpoint.secretsProvider,
      resources,
      digestKeyIds,
      salted,
    },
  };
}
