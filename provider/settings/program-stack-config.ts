// The stack config `embedded:*` as the program process sees it, for what only it can tell on the
// dynamic host: whether a setting was set with --secret (the dynamic-provider process gets every
// value unwrapped). A secret setting set in plain text is warned of once per program, as
// settings/plain-secrets.ts judges it; a secret default accountId makes every resource's id secret, which the
// resources' check refuses (hosts/program/resource-props.ts). The plugin tells the same from its
// Configure (hosts/plugin/provider-config.ts).
import * as pulumi from "@pulumi/pulumi";
import { judgePlainSecrets, plainSecretSettings } from "./plain-secrets";
import { noDigestKeyWarning, SETTINGS } from "./resolve";

/** Whether the stack config key was set with --secret: the SDK's own record (its runtime/config). */
export function isStackConfigSecret(key: string): boolean {
  try {
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    const runtimeConfig = require("@pulumi/pulumi/runtime/config") as { isConfigSecret?: (k: string) => boolean };
    if (typeof runtimeConfig.isConfigSecret === "function") return runtimeConfig.isConfigSecret(key);
  } catch {
    // an SDK without it: the language host's variable below
  }
  try {
    const keys: unknown = JSON.parse(process.env.PULUMI_CONFIG_SECRET_KEYS ?? "[]");
    return Array.isArray(keys) && keys.includes(key);
  } catch {
    return false;
  }
}

function isSet(key: string): boolean {
  const value = pulumi.runtime.allConfig()[key];
  return value !== undefined && value !== "";
}

/** Whether the stack config's default sub-account (embedded:accountId) is a secret. */
export function defaultAccountIsSecret(): boolean {
  return isSet(SETTINGS.accountId.key) && isStackConfigSecret(SETTINGS.accountId.key);
}

const WARNED = Symbol.for("pulumi-embedded-connectors/program-warnings");

/**
 * Whether this is the first call for `what` in this process. Kept on the process, not the module:
 * a program can load two copies of the package (its own and a dependency's), and each copy would
 * warn again.
 */
function firstInProcess(what: string): boolean {
  const done = ((globalThis as Record<symbol, Set<string> | undefined>)[WARNED] ??= new Set<string>());
  if (done.has(what)) return false;
  done.add(what);
  return true;
}

/** The warnings of the program's stack config: each secret setting set in plain text, judged by settings/plain-secrets.ts. */
export function plainSecretWarnings(): string[] {
  const plain = plainSecretSettings((name) => isSet(SETTINGS[name].key) && !isStackConfigSecret(SETTINGS[name].key));
  return judgePlainSecrets("program", plain, { kind: "stack file", stack: pulumi.getStack() || undefined }).warnings;
}

/** Once per program: plainSecretWarnings, through the engine's log. */
export function warnOfPlainSecretSettings(): void {
  if (!firstInProcess("plainSecretSettings")) return;
  for (const warning of plainSecretWarnings()) void pulumi.log.warn(warning);
}

/**
 * Once per program process (whichever copy of the package) that declares a ConnectorConfiguration:
 * no embedded:digestKey in the stack config or the environment, so its digests are keyed by what `pulumi up --debug` prints
 * (`digestSalt`) and the client secret (docs/secrets.md). The command that sets one.
 */
export function warnOfNoDigestKey(): void {
  if (!firstInProcess("noDigestKey")) return;
  const { key, env } = SETTINGS.digestKey;
  if (!isSet(key) && (process.env[env] ?? "") === "") void pulumi.log.warn(noDigestKeyWarning());
}
