// What is a secret field: the one rule every host and command calls (docs/secrets.md, "What is a
// secret field"). The specification calls the field types an open list and does not name
// Password, and services spell it as they like ("Password", "password", "Secret") and often
// answer a set one masked ("********", "••••1234"). Deciding this again at an edge (an
// exact comparison with one spelling) let `generate` and `fleet adopt` write a mask into a
// program as a value, and the next write send that mask over the customer's real Password.
//
// A field is secret when its type names a secret (below, in any letter case), when the service
// profile adds its type (`semantics.secretFieldTypes`), or when its value is masked: a masked
// value is never taken as a value (not read, compared, digested, generated, adopted or imported).

/** What the rule reads of a descriptor: its type name, and the value the service answered. */
export interface FieldLike {
  readonly type?: unknown;
  readonly value?: unknown;
}

/** Whether a field is secret, and why, in words a user can check against the service's answer. */
export interface SecretVerdict {
  readonly secret: boolean;
  readonly reason: string;
}

/** The profile's part the rule reads; undefined: the built-in profile (it adds no type). */
export type SecretTypesSource = { readonly semantics: { readonly secretFieldTypes?: readonly string[] } } | undefined;

/**
 * The type names that are secret in any letter case. "Password" is what the service's console
 * and the contract's examples use; "Secret" is the other name consoles give a write-only field.
 * Both name nothing but a secret. Other words some services use ("Token", "Key", "Credential",
 * "Hidden", "Masked") also name plain fields elsewhere (a "Hidden" fixed value, a "Key" that is
 * an id), so only a profile can say they are secret where it applies.
 */
export const SECRET_TYPE_NAMES = ["password", "secret"] as const;

/**
 * Mask characters: the asterisk, and the bullets and dots consoles draw (• U+2022, ● U+25CF,
 * ∙ U+2219, · U+00B7, ⋅ U+22C5, ◦ U+25E6, ⚫ U+26AB).
 */
const MASK_CHARACTERS = "*\u2022\u25cf\u2219\u00b7\u22c5\u25e6\u26ab";
/**
 * A masked value: spaces left out, at least three mask characters, then at most four letters or
 * digits shown ("********", "••••", "****1234", "**** **** 1234"). "*" and "**" (a wildcard, a
 * rating) and a mask inside other text ("a*b", "sk-***x-long") are values.
 */
const MASKED = new RegExp(`^[${MASK_CHARACTERS}]{3,}[A-Za-z0-9]{0,4}$`, "u");

/** The type names a profile adds (`semantics.secretFieldTypes`), as written. */
export function addedSecretTypes(profile: SecretTypesSource): readonly string[] {
  return profile?.semantics.secretFieldTypes ?? [];
}

/** Whether a value is a mask standing for a value the service does not show. */
export function isMaskedValue(value: unknown): boolean {
  return typeof value === "string" && MASKED.test(value.replace(/\s+/g, ""));
}

const fold = (name: string) => name.trim().toLowerCase();

/** Whether a field is secret, and why; `profile` is the service profile in force (or undefined). */
export function secretVerdict(field: FieldLike, profile: SecretTypesSource): SecretVerdict {
  const type = typeof field.type === "string" ? field.type : undefined;
  const shown = type === undefined ? "(no type)" : JSON.stringify(type);
  if (type !== undefined) {
    const name = fold(type);
    const builtIn = SECRET_TYPE_NAMES.find((secret) => secret === name);
    if (builtIn) return { secret: true, reason: `type ${shown} (${builtIn}, in any letter case)` };
    if (addedSecretTypes(profile).some((added) => fold(added) === name)) {
      return { secret: true, reason: `type ${shown} (the service profile's semantics.secretFieldTypes)` };
    }
  }
  if (isMaskedValue(field.value)) return { secret: true, reason: `type ${shown}, but its value is masked` };
  return { secret: false, reason: `type ${shown}` };
}

export const isSecretField = (field: FieldLike, profile: SecretTypesSource): boolean =>
  secretVerdict(field, profile).secret;

/** The ids of the secret fields among descriptors. */
export function secretFieldIds<F extends FieldLike & { readonly id: string }>(
  fields: readonly F[],
  profile: SecretTypesSource,
): string[] {
  return fields.filter((field) => isSecretField(field, profile)).map((field) => field.id);
}

/** The field's value as a value: undefined for a secret field (a Password a service sent, a mask). */
export function readableValue(field: FieldLike, profile: SecretTypesSource): unknown {
  return isSecretField(field, profile) ? undefined : field.value;
}
