// How a stack's config file holds the settings `embedded:*`, read by the provider process of
// either host itself (it runs in the project's directory, as the CLI does), and the one refusal
// of an id setting held secret there. Neither host can tell from what the engine hands it: the
// plugin's default provider gets a schema-secret setting as a secret whatever the file holds, a
// stack that holds resources is configured with its state's settings (an unchanged setting that
// became secret since is not handed on again), and `destroy` runs no program. So a default
// accountId set with --secret is refused by preview, up and destroy alike, with resources or
// without, in every language.
import { plainSecretSettings } from "../settings/plain-secrets";
import { SETTINGS, type SettingName } from "../settings/table";
import { plainConfigKeys, readIfPresent, secureConfigKeys, stackConfigFile } from "./pulumi-project";

const NAMES = Object.keys(SETTINGS) as SettingName[];

/** The settings that are part of every resource's id (`<accountId>/<connectorId>`) when a resource names none. */
export const ID_SETTINGS: readonly SettingName[] = ["accountId"];

/** How the config file of a stack holds the settings it names. */
export interface StackFileSettings {
  /** Secret settings (the client secret) held in plain text. */
  plain: SettingName[];
  /** Settings held as `secure:` (set with --secret). */
  secret: SettingName[];
}

/** How the config file of stack `owner` (`project/stack`) of the project of `dir` holds its settings; none when unreadable. */
export function stackFileSettings(owner: string, dir: string = process.cwd()): StackFileSettings {
  const none: StackFileSettings = { plain: [], secret: [] };
  if (!owner.includes("/")) return none;
  try {
    const file = stackConfigFile(dir, owner.slice(owner.indexOf("/") + 1));
    const found = file === undefined ? undefined : readIfPresent(file);
    if (file === undefined || found === undefined) return none;
    const keys = NAMES.map((name) => SETTINGS[name].key);
    const plain = plainConfigKeys(found, file, keys);
    const secure = secureConfigKeys(found, file, keys);
    return {
      plain: plainSecretSettings((name) => plain.includes(SETTINGS[name].key)),
      secret: NAMES.filter((name) => secure.includes(SETTINGS[name].key)),
    };
  } catch {
    return none; // an unreadable project: the CLI reports it
  }
}

/**
 * The refusal of an id setting given secret (the README's promise: an id cannot be secret).
 * `byConfig`: it came from stack config (a default provider), else from a provider's arguments.
 */
export function secretIdSettingRefusal(name: SettingName, byConfig: boolean): string {
  return (
    `${name} is a secret, but it is the default ${name} of every resource, part of the resource's id ` +
    `(<accountId>/<connectorId>), which Pulumi keeps in plaintext in the state, its history and its messages: ` +
    `an id cannot be secret. ` +
    (byConfig
      ? `Set it again as plain config: \`pulumi config set ${SETTINGS[name].key} <id>\` (without --secret)`
      : `Pass it to the provider as a plain value (config.require, not config.requireSecret)`) +
    `; see docs/secrets.md`
  );
}

/** The refusal of the id settings that stack `owner`'s config file holds secret; undefined when none is. */
export function secretIdsInStackFile(owner: string, dir: string = process.cwd()): string | undefined {
  const secret = stackFileSettings(owner, dir).secret.filter((name) => ID_SETTINGS.includes(name));
  return secret.length > 0 ? secret.map((name) => secretIdSettingRefusal(name, true)).join("; ") : undefined;
}
