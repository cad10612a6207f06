// The provider's own settings in the plugin: CheckConfig, DiffConfig and Configure. An explicit
// provider (`new embedded.Provider(...)`, `pulumi:providers:embedded` in YAML) passes them as
// its arguments; the default provider gets the stack config `embedded:*`. Unset ones fall back
// to the EMBEDDED_* environment, as in the dynamic provider (provider/settings.ts).
import { SETTINGS, settingsProblems, type ConfigSource, type SettingName } from "../settings";
import { UNKNOWN, unresolvable } from "../definitions/checks";
import { secretKeys } from "../definitions/property";
import type { Props } from "./wire";

const NAMES = Object.keys(SETTINGS) as SettingName[];
const SECRET_SETTINGS: readonly string[] = secretKeys(SETTINGS);
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
 * Numbers given as text (stack config) become numbers; unknown values (preview) pass. A failure
 * about a setting that is secret (clientSecret) or arrived secret (`secrets`) leaves `property`
 * empty: the engine would print the value beside it (definitions/checks.ts, `unresolvable`).
 */
export function checkConfig(
  news: Props,
  env: NodeJS.ProcessEnv = process.env,
  secrets: ReadonlySet<string> = new Set(),
): ConfigCheck {
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
  // A missing value cannot be printed: its failure keeps its property.
  const secret = (name: string) =>
    secrets.has(name) || (SECRET_SETTINGS.includes(name) && news[name] !== undefined && news[name] !== null);
  return { inputs, failures: failures.map((failure) => unresolvable(failure, secret)) };
}

/** The settings that differ (secrets compared unwrapped; engine keys ignored). */
export function changedSettings(olds: Props, news: Props): SettingName[] {
  return NAMES.filter((name) => text(olds[name]) !== text(news[name]) || news[name] === UNKNOWN);
}
