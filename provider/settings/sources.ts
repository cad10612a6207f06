// Where each setting's value comes from, in the one order every reader of the settings follows
// (both hosts, `doctor`, `generate`, the fleet): the reader's own source first (a command's flags,
// then the stack config; or a provider's arguments; or a customer of customers.json), then the
// EMBEDDED_* environment, then the table's default (settings/table.ts). Readers differ only in
// what their own source holds; this module and resolve.ts decide the rest, so that the same
// input resolves to the same value from the same kind of source wherever it is read.
import { settingValue, type ConfigSource } from "./resolve";
import { SETTINGS, type SettingName } from "./table";

/**
 * Where a setting's value came from: the reader's own source (`config`: its flags, stack config,
 * provider arguments or customer), its environment variable, the table's default, or nowhere.
 */
export type SettingOrigin = "config" | "environment" | "default" | "unset";

/** Each setting's origin, as resolveSettings reads it from `config` and `env`. */
export function settingOrigins(
  config: ConfigSource,
  env: NodeJS.ProcessEnv = process.env,
): Record<SettingName, SettingOrigin> {
  const origins = {} as Record<SettingName, SettingOrigin>;
  for (const name of Object.keys(SETTINGS) as SettingName[]) {
    const setting = SETTINGS[name];
    if (config(name) !== undefined) origins[name] = "config";
    else if (settingValue(name, () => undefined, env) !== undefined) origins[name] = "environment";
    else origins[name] = "default" in setting ? "default" : "unset";
  }
  return origins;
}

/** Several sources as one, the first that sets a setting winning (a command's flags over the stack config). */
export function firstOf(...sources: ConfigSource[]): ConfigSource {
  return (name) => {
    for (const source of sources) {
      const value = source(name);
      if (value !== undefined) return value;
    }
    return undefined;
  };
}

/** A command's help for a setting's flag: where the value is read when the flag is not given. */
export function flagDefault(name: SettingName, { stackConfig }: { stackConfig: boolean }): string {
  const { key, env } = SETTINGS[name];
  const fallback = "default" in SETTINGS[name] ? `, else ${SETTINGS[name].default}` : "";
  return `default: ${stackConfig ? `${key}, ` : ""}${env}${fallback}`;
}
