// The provider's own settings in the plugin: CheckConfig, DiffConfig and Configure. An explicit
// provider (`new embedded.Provider(...)`, `pulumi:providers:embedded` in YAML) passes them as
// its arguments; the default provider gets the stack config `embedded:*`. Unset ones fall back
// to the EMBEDDED_* environment, as in the dynamic provider (provider/settings/resolve.ts).
import { SETTINGS, settingsProblems, type ConfigSource, type SettingName } from "../../settings/resolve";
import { judgePlainSecrets, plainSecretSettings } from "../../settings/plain-secrets";
import { UNKNOWN, unresolvable } from "../../schema/checks";
import { plainConfigKeys, readIfPresent, stackConfigFile } from "../../project/pulumi-project";
import { ownerOfUrn, type Props } from "./wire";

const NAMES = Object.keys(SETTINGS) as SettingName[];
/** What the engine adds to every provider's inputs. */
const ENGINE_KEYS = new Set(["version", "pluginDownloadURL"]);

function isSetting(name: string): name is SettingName {
  return Object.hasOwn(SETTINGS, name);
}

/** A setting's value as text (the form stack config has), or undefined when unset. */
function text(value: unknown): string | undefined {
  if (value === undefined || value === null) return undefined;
  const out = typeof value === "string" ? value : String(value);
  return out.trim() === "" ? undefined : out;
}

/** The stack (`<stack>` of `<project>/<stack>`) whose program runs the provider of `urn`; undefined when it does not say. */
function stackOfUrn(urn: string): string | undefined {
  const owner = ownerOfUrn(urn);
  return owner ? owner.slice(owner.indexOf("/") + 1) : undefined;
}

/** The provider's arguments as the settings' source. */
export function configSourceOf(props: Props): ConfigSource {
  return (name) => text(props[name]);
}

export interface ConfigCheck {
  inputs: Props;
  failures: { property: string; reason: string }[];
}

/**
 * Every problem at once: unknown names (a typo would otherwise be ignored), numbers that are
 * not integers, and what the settings' own rules refuse (missing credentials, plain http).
 * Numbers given as text (stack config) become numbers; unknown values (preview) pass.
 *
 * Every argument is treated as a secret: the engine does not mark an explicit provider's
 * arguments secret in CheckConfig (a `pulumi.secret(...)` argument arrives plain), and it
 * prints a failure with a property as `property <name> value <value> has a problem`. So no
 * failure has a property: each names its argument first in its reason, and no reason quotes a
 * value (settings/resolve.ts words its refusals so).
 */
export function checkConfig(news: Props, env: NodeJS.ProcessEnv = process.env): ConfigCheck {
  const inputs: Props = {};
  const failures: ConfigCheck["failures"] = [];
  for (const [name, value] of Object.entries(news)) {
    if (!isSetting(name)) {
      if (ENGINE_KEYS.has(name) || name.startsWith("__")) inputs[name] = value;
      else
        failures.push({
          property: name,
          reason: `unknown setting ${JSON.stringify(name)}; the settings are: ${NAMES.join(", ")}`,
        });
      continue;
    }
    if (value === UNKNOWN || value === null || value === undefined) {
      inputs[name] = value;
      continue;
    }
    const setting = SETTINGS[name];
    if (setting.type === "integer") {
      const number =
        typeof value === "number" ? value : typeof value === "string" && value.trim() !== "" ? Number(value) : NaN;
      inputs[name] = Number.isInteger(number) ? number : value;
    } else if (typeof value !== "string") {
      failures.push({ property: name, reason: `${name} must be a string, got a ${typeof value}` });
    } else {
      inputs[name] = value;
    }
  }
  const known = (name: SettingName) => inputs[name] !== UNKNOWN;
  for (const problem of settingsProblems(configSourceOf(inputs), env)) {
    if (known(problem.name) && !failures.some((f) => f.property === problem.name)) {
      failures.push({ property: problem.name, reason: problem.message });
    }
  }
  return { inputs, failures: failures.map((failure) => unresolvable(failure, () => true)) };
}

/** The settings that are part of every resource's id (`<accountId>/<connectorId>`) when a resource names none. */
const ID_SETTINGS: readonly SettingName[] = ["accountId"];

/** Whether a provider's URN is a default provider's (`…::pulumi:providers:embedded::default…`): its arguments are stack config. */
export function isDefaultProvider(urn: string): boolean {
  return (urn.split("::").pop() ?? "").startsWith("default");
}

/**
 * The secret settings (the client secret) that the config file of the default provider's stack
 * holds in plain text. The engine hands the default provider a schema-secret setting as a secret
 * whatever the file holds, so Configure cannot tell; the plugin runs in the project's directory
 * and reads the file itself (as the CLI does), for a Python, Go or YAML program too.
 */
export function plainInStackFile(urn: string, dir: string = process.cwd()): SettingName[] {
  const stack = stackOfUrn(urn);
  if (stack === undefined) return [];
  try {
    const file = stackConfigFile(dir, stack);
    const found = file === undefined ? undefined : readIfPresent(file);
    if (file === undefined || found === undefined) return [];
    const plain = plainConfigKeys(
      found,
      file,
      NAMES.map((name) => SETTINGS[name].key),
    );
    return plainSecretSettings((name) => plain.includes(SETTINGS[name].key));
  } catch {
    return []; // an unreadable project: the CLI reports it
  }
}

/**
 * What Configure, the one call that tells which arguments are secret (CheckConfig's never are),
 * says of them. `refusal`: an id setting given secret (the README's promise: an id cannot be
 * secret). `warnings`: a secret setting given in plain text (the client secret set without
 * --secret is in clear in Pulumi.<stack>.yaml), as settings/plain-secrets.ts judges and words it.
 */
export function configureVerdict(
  settings: Props,
  secrets: ReadonlySet<string>,
  urn: string,
  inStackFile: readonly SettingName[] = [],
): { refusal?: string; warnings: string[] } {
  const byConfig = isDefaultProvider(urn);
  const secretIds = ID_SETTINGS.filter((name) => secrets.has(name) && settings[name] !== UNKNOWN);
  const refusal = secretIds
    .map(
      (name) =>
        `${name} is a secret, but it is the default ${name} of every resource, part of the resource's id ` +
        `(<accountId>/<connectorId>), which Pulumi keeps in plaintext in the state, its history and its messages: ` +
        `an id cannot be secret. ` +
        (byConfig
          ? `Set it again as plain config: \`pulumi config set ${SETTINGS[name].key} <id>\` (without --secret)`
          : `Pass it to the provider as a plain value (config.require, not config.requireSecret)`) +
        `; see docs/secrets.md`,
    )
    .join("; ");
  const plain = plainSecretSettings(
    (name) => (typeof settings[name] === "string" && !secrets.has(name)) || (byConfig && inStackFile.includes(name)),
  );
  const { warnings } = judgePlainSecrets(
    "program",
    plain,
    byConfig ? { kind: "stack file", stack: stackOfUrn(urn) } : { kind: "provider argument" },
  );
  return { ...(refusal ? { refusal } : {}), warnings };
}

/** The settings that differ (secrets compared unwrapped; engine keys ignored). */
export function changedSettings(olds: Props, news: Props): SettingName[] {
  return NAMES.filter((name) => text(olds[name]) !== text(news[name]) || news[name] === UNKNOWN);
}
