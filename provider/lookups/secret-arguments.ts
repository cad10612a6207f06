// A lookup's arguments that arrived secret (a `pulumi.secret(...)` or `config.requireSecret(...)`
// passed to an Output form; a secret argument of an Invoke): its refusal names such an argument,
// never its value. The lookups word their own messages so (lookups.ts, `argumentShown`); as a
// last line, a value still found in a refusal (a client's or service's text about it, a path
// that carries it) is replaced, in any case and in its common encodings. Pure: both hosts load it.

/** The key under which an Output form hands the names of its secret arguments on with the resolved arguments. */
export const SECRET_ARGUMENTS = Symbol.for("pulumi-embedded-connectors.secretArguments");

/**
 * The hidden argument in which the plugin's TypeScript SDK names the secret arguments of an
 * Invoke (an empty list when none is): the engine (v3.248) passes a function's arguments to the
 * provider without their secretness, so the plugin cannot tell them otherwise.
 */
export const SECRET_ARGUMENTS_KEY = "__secretArguments";

/**
 * The arguments without the hidden one, and the names it lists; `named` is undefined when the
 * caller sent no such list (a Python, Go or YAML program): then any argument may be a secret.
 */
export function splitSecretArguments(args: Record<string, unknown>): {
  args: Record<string, unknown>;
  named: string[] | undefined;
} {
  const { [SECRET_ARGUMENTS_KEY]: named, ...rest } = args;
  if (!Array.isArray(named)) return { args: rest, named: undefined };
  return { args: rest, named: named.filter((n): n is string => typeof n === "string") };
}

/** The names of the arguments that arrived secret, as an Output form attached them (none for a plain call). */
export function secretArgumentsOf(args: unknown): ReadonlySet<string> {
  const names =
    args !== null && typeof args === "object" ? (args as Record<symbol, unknown>)[SECRET_ARGUMENTS] : undefined;
  return names instanceof Set ? (names as ReadonlySet<string>) : new Set();
}

/** The arguments with the names of their secret ones attached (an Output form's resolved arguments). */
export function withSecretArguments<A extends object>(args: A, names: ReadonlySet<string>): A {
  return Object.assign({ ...args }, { [SECRET_ARGUMENTS]: names });
}

/** How a message shows an argument: the value, or its name alone when it arrived secret. */
export function argumentShown(name: string, value: unknown, secret: ReadonlySet<string>): string {
  return secret.has(name) ? `(the secret argument ${name})` : JSON.stringify(value);
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
}

/** The forms a value takes in a text: as it is, JSON-escaped, URL-encoded, base64 (any case matches). */
function formsOf(value: string): string[] {
  const forms = [
    value,
    JSON.stringify(value).slice(1, -1),
    encodeURIComponent(value),
    encodeURI(value),
    Buffer.from(value).toString("base64").replace(/=+$/, ""),
    Buffer.from(value).toString("base64url"),
  ];
  return [...new Set(forms)].filter((form) => form.length > 0);
}

/** The text with every form of each secret string argument replaced by the argument's name. */
export function withoutArgumentValues(
  text: string,
  args: Record<string, unknown>,
  secret: ReadonlySet<string>,
): string {
  let out = text;
  const values = [...secret]
    .map((name) => [name, args[name]] as const)
    .filter((entry): entry is readonly [string, string] => typeof entry[1] === "string" && entry[1] !== "")
    // Longest first, so that a value containing another is replaced whole.
    .sort((a, b) => b[1].length - a[1].length);
  for (const [name, value] of values) {
    const pattern = new RegExp(formsOf(value).map(escapeRegExp).join("|"), "gi");
    out = out.replace(pattern, `(the secret argument ${name})`);
  }
  return out;
}

/** A failed lookup's error, its message (and stack) without any secret argument's value; other errors as they are. */
export function refusalWithoutArguments(error: unknown, args: Record<string, unknown>, secret: ReadonlySet<string>) {
  if (secret.size === 0 || !(error instanceof Error)) return error;
  error.message = withoutArgumentValues(error.message, args, secret);
  if (error.stack) error.stack = withoutArgumentValues(error.stack, args, secret);
  return error;
}
