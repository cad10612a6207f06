// What both hosts check of a resource's inputs, taken from its definition: the type of each
// given value, the constant defaults, and the zod schema that parses checked inputs. The
// rules that need more than a type (the connector id's form, the sub-account rule, the live
// field descriptors) stay with each resource's implementation.
import { z } from "zod";
import { hasType, isRecord, typeName, type Properties, type PropertyType, type ValuesOf } from "./property";

/** pulumi's unknownValue: how an unknown input reaches a provider during preview. */
export const UNKNOWN = "04da6b54-80e4-46f7-96ec-b56ff0331ba9";

export interface InputFailure {
  property: string;
  reason: string;
}

/** "a number", "a list", …: the kind of a value, never the value (it may be a secret). */
export function kindOf(value: unknown): string {
  if (Array.isArray(value)) return "a list";
  if (value === null) return "null";
  if (typeof value === "number" && !Number.isFinite(value)) return "a non-finite number";
  return typeof value === "object" ? "an object" : `a ${typeof value}`;
}

export function isUnknown(value: unknown): boolean {
  return value === UNKNOWN;
}

/** True when the value or anything inside it is unknown. */
export function containsUnknown(value: unknown): boolean {
  if (value === UNKNOWN) return true;
  if (Array.isArray(value)) return value.some(containsUnknown);
  return isRecord(value) && Object.values(value).some(containsUnknown);
}

/** One failure per named input that is given (known, not null) with the wrong type. */
export function typeFailures(
  properties: Properties,
  values: Record<string, unknown>,
  names: readonly string[],
): InputFailure[] {
  const failures: InputFailure[] = [];
  for (const name of names) {
    const value = values[name];
    if (value === undefined || value === null || containsUnknown(value)) continue;
    if (!hasType(value, properties[name].type)) {
      failures.push({
        property: name,
        reason: `${name} must be ${typeName(properties[name].type)}, got ${kindOf(value)}`,
      });
    }
  }
  return failures;
}

/** The inputs with each missing one that has a constant default set to it. */
export function withDefaults(properties: Properties, values: Record<string, unknown>): Record<string, unknown> {
  const out = { ...values };
  for (const [name, property] of Object.entries(properties)) {
    if ((out[name] === undefined || out[name] === null) && property.default !== undefined) out[name] = property.default;
  }
  return out;
}

function zodType(type: PropertyType): z.ZodType {
  if (type === "string") return z.string();
  if (type === "boolean") return z.boolean();
  if (type === "integer") return z.number().int();
  if (type === "number") return z.number();
  if ("array" in type) return z.array(zodType(type.array));
  if ("map" in type) return z.record(z.string(), zodType(type.map));
  if ("ref" in type) return z.looseObject({});
  if ("enum" in type) return z.string();
  const [first, second, ...rest] = type.oneOf.map(zodType);
  return second ? z.union([first, second, ...rest]) : first;
}

/** The zod schema of checked inputs: required ones present, each of its type; other keys kept. */
export function inputSchema<P extends Properties>(properties: P): z.ZodType<ValuesOf<P> & Record<string, unknown>> {
  const shape: Record<string, z.ZodType> = {};
  for (const [name, property] of Object.entries(properties)) {
    shape[name] = property.required ? zodType(property.type) : zodType(property.type).optional();
  }
  return z.looseObject(shape) as unknown as z.ZodType<ValuesOf<P> & Record<string, unknown>>;
}

/**
 * The hidden input by which a dynamic resource tells its provider which inputs the program
 * made secret: the dynamic provider gets every input unwrapped (hosts/program/resource-props.ts).
 */
export const SECRET_INPUTS = "__secretInputs";

/** How a check message shows a given value: quoted, or only its kind when it arrived secret. */
export function shown(value: unknown, secret: boolean): string {
  return secret ? `${kindOf(value).replace(/^an? /, "a secret ")} (not shown)` : JSON.stringify(value ?? null);
}

type Check<R extends { inputs?: Record<string, unknown>; failures?: InputFailure[] }> = (
  olds: Record<string, unknown>,
  news: Record<string, unknown>,
  secretInputs: ReadonlySet<string>,
) => Promise<R>;

/** The top-level input a failure's property names (`secretConfig` of `secretConfig.region`). */
function topLevelName(property: string): string {
  return /^[^.[]*/.exec(property)?.[0] ?? property;
}

/**
 * The refusal of an id part (`idPart`: accountId, connectorId) that arrived secret: the id
 * `<accountId>/<connectorId>` is plaintext in the state and in messages, so it cannot be secret.
 * `property` is left empty: the engine would print the secret value beside a named one.
 */
export function secretIdRefusal(name: string): InputFailure {
  return {
    property: "",
    reason:
      `${name} is a secret, but it is part of the resource's id (<accountId>/<connectorId>), which Pulumi ` +
      `keeps in plaintext in the state, its history and its messages: an id cannot be secret. Pass ${name} ` +
      `as a plain value (e.g. config.require, not config.requireSecret; or pulumi.unsecret(...) when it is ` +
      `not secret in fact)` +
      (name === "accountId"
        ? "; a default sub-account of the stack config is set again without --secret: " +
          "`pulumi config set embedded:accountId <id>`"
        : "") +
      `; see docs/secrets.md`,
  };
}

/**
 * A failure about an input that arrived secret, or is secret by definition, as the engine may
 * print it: the engine formats a failure with a property as `property <name> value <value> has
 * a problem: <reason>`, with the input's value, which for a secret is its plaintext. So such a
 * failure leaves `property` empty and names the input in its reason. A path (`secretConfig.region`)
 * is kept: the engine cannot resolve it to a value.
 */
export function unresolvable(failure: InputFailure, secret: (name: string) => boolean): InputFailure {
  if (failure.property === "" || failure.property !== topLevelName(failure.property)) return failure;
  if (!secret(failure.property)) return failure;
  const named = failure.reason.startsWith(failure.property) ? failure.reason : `${failure.property}: ${failure.reason}`;
  return { property: "", reason: named };
}

/**
 * A resource's check as both hosts call it, told which inputs arrived secret: the plugin passes
 * the names it unwrapped; a dynamic resource names them in the hidden input SECRET_INPUTS, which
 * is taken out here (it is not stored). An id part (`idPart`) that arrived secret is refused
 * before the check runs (nothing is asked of the service with it). The check's own messages show
 * such an input's kind (`shown`); as a last line, a secret string input still found in a reason
 * (a service's or the client's text about it, a URL) is replaced, and a failure about a secret
 * input leaves `property` empty (`unresolvable`), so the engine never prints its value.
 * (secretConfig's messages name no value at all: configuration-rules.ts.)
 */
export function secretAwareCheck<R extends { inputs?: Record<string, unknown>; failures?: InputFailure[] }>(
  properties: Properties,
  check: Check<R>,
) {
  return async (
    olds: Record<string, unknown>,
    news: Record<string, unknown>,
    secretInputs?: Iterable<string>,
  ): Promise<R> => {
    const { [SECRET_INPUTS]: named, ...given } = news;
    const secrets = new Set(
      secretInputs ?? (Array.isArray(named) ? named.filter((n): n is string => typeof n === "string") : []),
    );
    const secretIds = [...secrets].filter((name) => properties[name]?.idPart);
    if (secretIds.length > 0) {
      return { inputs: given, failures: secretIds.map(secretIdRefusal) } as unknown as R;
    }
    const result = await check(olds, given, secrets);
    // A secret list's items too (heldByService's field ids, which its failures quote).
    const values = [...secrets]
      .flatMap((name) => (Array.isArray(given[name]) ? (given[name] as unknown[]) : [given[name]]))
      .filter((v): v is string => typeof v === "string" && v !== "" && v !== UNKNOWN);
    // Longest first, so that a value containing another is replaced whole.
    values.sort((a, b) => b.length - a.length);
    // A missing value cannot be printed: its failure keeps its property.
    const secret = (name: string) =>
      secrets.has(name) || (properties[name]?.secret === true && given[name] !== undefined && given[name] !== null);
    const failures = result.failures?.map((failure) =>
      unresolvable(
        {
          ...failure,
          reason: values.reduce((reason, value) => reason.split(value).join("(a secret value)"), failure.reason),
        },
        secret,
      ),
    );
    return { ...result, ...(failures ? { failures } : {}) };
  };
}
