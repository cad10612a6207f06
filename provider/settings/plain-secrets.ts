// A secret setting (SETTINGS' `secret: true`: the client secret, the digest key) given in plain
// text, judged here once for both hosts, every language and every command. The readers only tell
// where they found it in plain text: the dynamic host from the program's stack config
// (settings/program-stack-config.ts), the plugin from Configure and the stack's file
// (hosts/plugin/provider-config.ts), `doctor` from `pulumi config --json`, the fleet from each
// stack's file (cli/fleet/plain-secrets.ts). What follows, and the words, are decided here.
//
// The policy (docs/secrets.md, "A client secret you forgot to mark"):
// - a program (`pulumi preview`, `up`, … on either host, in any language) and `doctor` WARN, and
//   go on: plain stack config is a choice Pulumi itself allows, a stack that worked yesterday
//   must not stop on an upgrade, and the warning comes at every preview until it is fixed;
// - the fleet REFUSES the stack (and runs the others): it applies many stacks unattended from a
//   repository, where a plain value is readable by everyone who can read the repository, and
//   keeps its reports in CI logs. Nobody is there to read a warning.
// Either way the message is the same, with the command that fixes it, never the value. The
// environment (EMBEDDED_CLIENT_SECRET) is not plain text at rest, and is never judged.
import { SETTINGS, type SettingName } from "./table";

/** Where a reader found a secret setting in plain text. */
export type PlainSecretPlace =
  /** The stack's config file (`pulumi config set` without --secret); the stack when the reader knows it. */
  | { kind: "stack file"; stack?: string }
  /** An explicit provider's argument that the program did not mark secret. */
  | { kind: "provider argument" };

/** Who reads the settings: a program (either host, any language) and `doctor`, or the fleet. */
export type PlainSecretReader = "program" | "doctor" | "fleet";

/** What each reader does with a secret setting given in plain text (the policy above). */
export const PLAIN_SECRET_POLICY: Record<PlainSecretReader, "warn" | "refuse"> = {
  program: "warn",
  doctor: "warn",
  fleet: "refuse",
};

/** The secret settings, of all settings, that `isPlain` says were given in plain text. */
export function plainSecretSettings(isPlain: (name: SettingName) => boolean): SettingName[] {
  return (Object.keys(SETTINGS) as SettingName[]).filter((name) => SETTINGS[name].secret && isPlain(name));
}

/** The stack config keys of the secret settings (embedded:clientSecret, embedded:digestKey). */
export const SECRET_SETTING_KEYS: readonly string[] = plainSecretSettings(() => true).map((name) => SETTINGS[name].key);

/** The secret setting a stack config key names, if any. */
export function secretSettingOfKey(key: string): SettingName | undefined {
  return plainSecretSettings((name) => SETTINGS[name].key === key)[0];
}

/** The one message: what is in plain text, and the command that fixes it; never the value. */
export function plainSecretMessage(name: SettingName, place: PlainSecretPlace): string {
  const { key, env } = SETTINGS[name];
  if (place.kind === "provider argument")
    return (
      `the provider's ${name} was passed as a plain value: pass it as a secret (TypeScript ` +
      `\`config.requireSecret("${name}")\`, Python \`config.require_secret("${name}")\`, Go ` +
      `\`cfg.RequireSecret("${name}")\`, YAML \`fn::secret\`), or leave it out and set ${env}`
    );
  const file = `Pulumi.${place.stack ?? "<stack>"}.yaml`;
  const stack = place.stack === undefined ? "" : ` --stack ${place.stack}`;
  return (
    `${key} is stored in plain text in the stack's config file (${file}): ` +
    `encrypt it with \`pulumi config set --secret ${key}${stack}\` (it prompts for the value)`
  );
}

/** The verdict of `reader` on the secret settings it found in plain text at `place`: warnings, or one refusal. */
export function judgePlainSecrets(
  reader: PlainSecretReader,
  plain: readonly SettingName[],
  place: PlainSecretPlace,
): { warnings: string[]; refusal?: string } {
  const messages = plain.map((name) => plainSecretMessage(name, place));
  if (messages.length === 0 || PLAIN_SECRET_POLICY[reader] === "warn") return { warnings: messages };
  return { warnings: [], refusal: `not run: ${messages.join("; ")}` };
}
